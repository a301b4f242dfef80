"""Pictures of the hex map and the action board: a monospace text picture and an SVG.

Hexes are drawn at their map positions (axial column and row of the parallelogram; each row
shifted half a hex to the right). Each hex shows its number token, the Warlord (by its Warlord
Board section), the Invaders (``I3``), the player's members (``P2``), a village (``V:owner``) and
rival tribes. Adjacency is listed under the text picture and drawn as lines in the SVG (a
user-given map need not match the drawing's geometry). The action board lists each row's dice,
oldest first, with the strength it gives and the number for GROW, MOVE and GATHER.
:data:`NOTATION` says what each token of a hex means; both pictures end with a key to the tokens
they show, and the SVG has a title naming the game, the round and the scenario.
"""

from __future__ import annotations

import math

from invasion_oracle.model.core.legend import Entry, Notation, box_cells, keys_of
from invasion_oracle.model.core.svg import Canvas, Key
from invasion_oracle.model.vulketh.action_board import ACTIONS, strength
from invasion_oracle.model.vulketh.data import GameData
from invasion_oracle.model.vulketh.hexmap import HexMap
from invasion_oracle.model.vulketh.state import Hex

SHORT = {
    "steal-resources": "Steal",
    "convert": "Convert",
    "spread": "Spread",
    "regress": "Regress",
    "war": "War",
}
FACE_LETTER = {"sun": "S", "moon": "M", "blank": "-"}
FACE_COLOUR = {"sun": "#f2c12e", "moon": "#7d8fb3", "blank": "#f4f4f4"}
WIDTH = 16
NOTATION = Notation(
    "vulketh",
    (
        Entry(r"\d+", "hex, by its number token"),
        Entry(r"W:\w+", "a Warlord, with the power of its Warlord Board section (W:Steal: Steal Resources)"),
        Entry(r"I\d+", "Invader tribe members (I4: four)"),
        Entry(r"P\d+", "your tribe members (P2: two)"),
        Entry(r"\.", "an empty hex"),
        Entry(r"V:\S+", "a village and whose it is"),
        Entry(r"[A-Za-z][\w'-]*?\d+", "a rival tribe's members (name and number)"),
    ),
)


def _cell_lines(number: int, cell: Hex) -> list[str]:
    head = f"{number}" + (f" W:{SHORT.get(cell.warlord, cell.warlord)}" if cell.warlord else "")
    pieces = " ".join(
        part
        for part in (f"I{cell.invaders}" if cell.invaders else "", f"P{cell.player}" if cell.player else "")
        if part
    )
    extra = " ".join(
        [*([f"V:{cell.village}"] if cell.village else []), *(f"{name}{n}" for name, n in cell.rivals)]
    )
    return [head, pieces or ".", extra]


def render_map(hex_map: HexMap, hexes: tuple[Hex, ...]) -> str:
    """The hexes at their positions, three text lines each, then the adjacency."""
    positions = dict(hex_map.positions)
    rows = sorted({r for _, r in positions.values()})
    lines: list[str] = []
    for row in rows:
        numbers = sorted((positions[n][0], n) for n in positions if positions[n][1] == row)
        indent = " " * (row * (WIDTH + 1) // 2)
        cells = [(col, _cell_lines(n, hexes[n - 1])) for col, n in numbers]
        first_col = min(positions[n][0] for n in positions)
        for k in range(4):
            text = indent
            cursor = first_col
            for col, content in cells:
                text += " " * ((col - cursor) * (WIDTH + 1))
                cursor = col + 1
                text += (
                    ("+" + "-" * (WIDTH - 1))
                    if k == 0
                    else ("|" + content[k - 1][: WIDTH - 2].ljust(WIDTH - 1))
                )
            lines.append(text + ("+" if k == 0 else "|"))
        lines.append(indent + "".join("+" + "-" * (WIDTH - 1) for _ in cells) + "+")
    lines += NOTATION.text_lines(box_cells("\n".join(lines)), width=max(72, *map(len, lines)))
    lines.append(
        "adjacency: " + "; ".join(f"{n}: {' '.join(map(str, hex_map.neighbours(n)))}" for n in hex_map.hexes)
    )
    return "\n".join(lines)


def render_board(board_rows: dict[str, tuple[str, str, str]], data: GameData) -> str:
    lines = ["action board (oldest die first):"]
    for action in ACTIONS:
        row = board_rows[action]
        level = strength(row)
        amount = (
            f"{level} = {data.amount(action, level)}"
            if action != "LEAD"
            else f"{level} (Invaders: every unlocked power)"
        )
        lines.append(f"  {action:<7}{' '.join(f'{f:<5}' for f in row)}  {amount}")
    return "\n".join(lines)


def render_text(scenario: object, state: object) -> str:
    """The text picture of ``state`` for ``scenario`` (a :class:`~invasion_oracle.model.vulketh.scenario.Scenario`)."""
    from invasion_oracle.model.vulketh.scenario import Scenario
    from invasion_oracle.model.vulketh.state import GameState

    assert isinstance(scenario, Scenario) and isinstance(state, GameState)
    game = scenario.game()
    data = scenario.data
    board = {a: state.board.row(a) for a in ACTIONS}
    sections = data.warlord_sections.value
    parts = [
        render_map(scenario.rules.map, state.hexes),
        render_board(board, data),
        f"player: score {state.score}/{data.value('winning_score')}, resources {state.resources.describe()}, "
        f"supply {state.player_supply}"
        + (f", developments {state.developments}" if state.developments else "")
        + (f", bronze {' '.join(f'{k}:{v}' for k, v in state.bronze)}" if state.bronze else ""),
        f"invaders: resources {state.invader_resources}/{data.value('warlord_cost')}, supply {state.invader_supply}, "
        f"reserve {state.reserve}, Warlords summoned {game.summoned(state)}/{data.value('warlords_to_win')}",
        f"warlord board: {' '.join(state.warlord_board) or '(empty)'}; unlocked: "
        f"{' '.join(game.unlocked(state)) or '(none)'} (of {' '.join(sections)})",
        "decks: "
        + " | ".join(f"{n}: {' '.join(p) or '-'}" for n, p in enumerate(state.decks, 1))
        + f"; last card: {state.last_card or '-'}",
    ]
    return "\n".join(parts)


def _hex_points(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    points = []
    for k in range(6):
        angle = math.radians(60 * k - 30)
        points.append((round(cx + size * math.cos(angle), 1), round(cy + size * math.sin(angle), 1)))
    return points


HEX_FILL = {"invaded": "#e9d8c4", "clear": "#dfe9d0"}
WARLORD, VILLAGE = "#b22222", "#6b4f2a"


def render_svg(scenario: object, state: object) -> str:
    """An SVG of the hex map (pointy-top hexes at their positions), the action board and a legend."""
    from invasion_oracle.model.vulketh.scenario import Scenario
    from invasion_oracle.model.vulketh.state import GameState

    assert isinstance(scenario, Scenario) and isinstance(state, GameState)
    hex_map, data = scenario.rules.map, scenario.data
    size = 58
    step_x = size * math.sqrt(3)
    centres: dict[int, tuple[float, float]] = {}
    for number, (col, row) in hex_map.positions:
        centres[number] = (round(80 + step_x * (col + row / 2), 1), round(100 + size * 1.5 * row, 1))
    title = f"Rise of Tribes: The Vul'Keth Invasion, round {state.round}: {scenario.source}"
    canvas = Canvas(title, size=13)
    canvas.text(20, 16, title, size=15, bold=True)
    for a, b in hex_map.edges:
        (x1, y1), (x2, y2) = centres[a], centres[b]
        canvas.line(x1, y1, x2, y2, "#888888", 2)
    for number in hex_map.hexes:
        cell = state.hex(number)
        x, y = centres[number]
        fill = HEX_FILL["invaded"] if cell.invaders else HEX_FILL["clear"]
        canvas.polygon(_hex_points(x, y, size - 3), fill, fill_opacity=0.92, stroke="#333333", stroke_width=2)
        canvas.text(x, y - 30, str(number), anchor="middle", size=16, bold=True, notation=True)
        if cell.warlord:
            canvas.circle(x - 26, y - 8, 9, WARLORD)
            canvas.text(x - 26, y - 4, "W", anchor="middle", fill="#ffffff", size=11)
            canvas.text(x, y + 38, SHORT.get(cell.warlord, cell.warlord), anchor="middle", size=10)
        if cell.village:
            canvas.polygon(
                [(x + 18, y - 2), (x + 26, y - 12), (x + 34, y - 2), (x + 34, y + 6), (x + 18, y + 6)],
                VILLAGE,
            )
        pieces = " ".join(
            p
            for p in (f"I{cell.invaders}" if cell.invaders else "", f"P{cell.player}" if cell.player else "")
            if p
        )
        rivals = " ".join(f"{n}{c}" for n, c in cell.rivals)
        canvas.text(x, y + 2, pieces, anchor="middle", notation=True)
        if rivals or cell.village:
            label = " ".join(p for p in (f"V:{cell.village}" if cell.village else "", rivals) if p)
            canvas.text(x, y + 20, label, anchor="middle", size=11, notation=True)
    board_top = canvas.bounds[3] + 20
    canvas.text(20, board_top + 14, "Action board (oldest die first)", size=14, bold=True)
    for i, action in enumerate(ACTIONS):
        dice = state.board.row(action)
        y = board_top + 30 + 34 * i
        canvas.text(20, y + 18, action)
        for k, face in enumerate(dice):
            x = 100 + 34 * k
            canvas.rect(x, y, 28, 28, FACE_COLOUR[face], rx=4, stroke="#333333")
            canvas.text(x + 14, y + 18, FACE_LETTER[face], anchor="middle")
        level = strength(dice)
        label = f"{level} = {data.amount(action, level)}" if action != "LEAD" else level
        canvas.text(max(210, 100 + 34 * len(dice) + 8), y + 18, label)
    summary_y = board_top + 30 + 34 * 4 + 20
    tokens = " ".join(state.warlord_board) or "-"
    canvas.lines(
        20,
        summary_y,
        [
            f"score {state.score}, Invader resources {state.invader_resources}, reserve {state.reserve}",
            f"Warlord Board: {tokens}",
        ],
        step=18,
    )
    canvas.legend(
        [
            Key("fill", HEX_FILL["invaded"], "hex with Invaders"),
            Key("fill", HEX_FILL["clear"], "hex without"),
            Key("letter", WARLORD, "Warlord", "W"),
            Key("fill", VILLAGE, "village (V:owner)"),
            Key("line", "#888888", "adjacent"),
            *(
                Key("text", "#333333", f"{tokens} = {words}")
                for tokens, words in keys_of(NOTATION, canvas.notation)
            ),
            Key("fill", FACE_COLOUR["sun"], "sun die (S)"),
            Key("fill", FACE_COLOUR["moon"], "moon die (M)"),
            Key("fill", FACE_COLOUR["blank"], "blank die (-)"),
        ]
    )
    return canvas.svg()

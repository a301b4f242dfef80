"""Pictures of the hex map and the action board: a monospace text picture and an SVG.

Hexes are drawn at their map positions (axial column and row of the parallelogram; each row
shifted half a hex to the right). Each hex shows its number token, the Warlord (by its Warlord
Board section), the Invaders (``I3``), the player's members (``P2``), a village (``V:owner``) and
rival tribes. Adjacency is listed under the text picture and drawn as lines in the SVG (a
user-given map need not match the drawing's geometry). The action board lists each row's dice,
oldest first, with the strength it gives and the number for GROW, MOVE and GATHER.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from model.vulketh.action_board import ACTIONS, strength
from model.vulketh.data import GameData
from model.vulketh.hexmap import HexMap
from model.vulketh.state import Hex

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
    """The text picture of ``state`` for ``scenario`` (a :class:`~model.vulketh.scenario.Scenario`)."""
    from model.vulketh.scenario import Scenario
    from model.vulketh.state import GameState

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


def _hex_points(cx: float, cy: float, size: float) -> str:
    points = []
    for k in range(6):
        angle = math.radians(60 * k - 30)
        points.append(f"{cx + size * math.cos(angle):.1f},{cy + size * math.sin(angle):.1f}")
    return " ".join(points)


def render_svg(scenario: object, state: object) -> str:
    """An SVG of the hex map (pointy-top hexes at their positions) and the action board."""
    from model.vulketh.scenario import Scenario
    from model.vulketh.state import GameState

    assert isinstance(scenario, Scenario) and isinstance(state, GameState)
    hex_map, data = scenario.rules.map, scenario.data
    size = 58
    step_x = size * math.sqrt(3)
    centres: dict[int, tuple[float, float]] = {}
    for number, (col, row) in hex_map.positions:
        centres[number] = (80 + step_x * (col + row / 2), 80 + size * 1.5 * row)
    map_width = max(x for x, _ in centres.values()) + 80
    map_height = max(y for _, y in centres.values()) + 80
    board_top = map_height + 20
    width = int(max(map_width, 480))
    height = int(board_top + 40 + 34 * 4 + 80)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="13">',
        f"<title>{escape('Vul' + chr(39) + 'Keth: ' + scenario.source)}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
    ]
    for a, b in hex_map.edges:
        (x1, y1), (x2, y2) = centres[a], centres[b]
        out.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#888" stroke-width="2"/>'
        )
    for number in hex_map.hexes:
        cell = state.hex(number)
        x, y = centres[number]
        fill = "#e9d8c4" if cell.invaders else "#dfe9d0"
        out.append(
            f'<polygon points="{_hex_points(x, y, size - 3)}" fill="{fill}" fill-opacity="0.92" stroke="#333" stroke-width="2"/>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{y - 30:.1f}" text-anchor="middle" font-size="16" font-weight="bold">{number}</text>'
        )
        if cell.warlord:
            out.append(f'<circle cx="{x - 26:.1f}" cy="{y - 8:.1f}" r="9" fill="#b22222"/>')
            out.append(
                f'<text x="{x - 26:.1f}" y="{y - 4:.1f}" text-anchor="middle" fill="#fff" font-size="11">W</text>'
            )
            out.append(
                f'<text x="{x:.1f}" y="{y + 38:.1f}" text-anchor="middle" font-size="10">{escape(SHORT.get(cell.warlord, cell.warlord))}</text>'
            )
        if cell.village:
            out.append(
                f'<polygon points="{x + 18:.1f},{y - 2:.1f} {x + 26:.1f},{y - 12:.1f} {x + 34:.1f},{y - 2:.1f} {x + 34:.1f},{y + 6:.1f} {x + 18:.1f},{y + 6:.1f}" fill="#6b4f2a"/>'
            )
        pieces = " ".join(
            p
            for p in (f"I{cell.invaders}" if cell.invaders else "", f"P{cell.player}" if cell.player else "")
            if p
        )
        rivals = " ".join(f"{escape(n)}{c}" for n, c in cell.rivals)
        out.append(f'<text x="{x:.1f}" y="{y + 2:.1f}" text-anchor="middle">{escape(pieces)}</text>')
        if rivals or cell.village:
            label = " ".join(p for p in (f"V:{escape(cell.village)}" if cell.village else "", rivals) if p)
            out.append(
                f'<text x="{x:.1f}" y="{y + 20:.1f}" text-anchor="middle" font-size="11">{label}</text>'
            )
    out.append(
        f'<text x="20" y="{board_top + 14:.1f}" font-size="14" font-weight="bold">Action board (oldest die first)</text>'
    )
    for i, action in enumerate(ACTIONS):
        dice = state.board.row(action)
        y = board_top + 30 + 34 * i
        out.append(f'<text x="20" y="{y + 18:.1f}">{action}</text>')
        for k, face in enumerate(dice):
            x = 100 + 34 * k
            out.append(
                f'<rect x="{x}" y="{y:.1f}" width="28" height="28" rx="4" fill="{FACE_COLOUR[face]}" stroke="#333"/>'
            )
            out.append(f'<text x="{x + 14}" y="{y + 18:.1f}" text-anchor="middle">{FACE_LETTER[face]}</text>')
        level = strength(dice)
        label = f"{level} = {data.amount(action, level)}" if action != "LEAD" else level
        out.append(f'<text x="210" y="{y + 18:.1f}">{escape(label)}</text>')
    summary_y = board_top + 30 + 34 * 4 + 20
    tokens = " ".join(state.warlord_board) or "-"
    lines = (
        f"score {state.score}, Invader resources {state.invader_resources}, reserve {state.reserve}",
        f"Warlord Board: {tokens}",
    )
    for k, line in enumerate(lines):
        out.append(f'<text x="20" y="{summary_y + 18 * k:.1f}">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"

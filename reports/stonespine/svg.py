"""An SVG picture of Stonespine dungeons, for the HTML report (the text picture is the model's).

Each player's dungeon is a grid of chambers (cave brown, stone grey) with its name, type and
elements; walls are solid, doorways are gaps, secret passages dashed (collapsing ones dotted).
A red ``G`` is a guardian figure, an orange ``M`` a minion, a crossed name a defeated hero; the
entrance arrow is above the first row, the exit below the exit column (``EX`` marks the chamber
connected to it this year). Every name from a scenario is XML-escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from model.stonespine.dungeon import Cell, Dungeon, PassageMode, Side
from model.stonespine.entering import Rules, exit_chamber
from model.stonespine.render import _space_text
from model.stonespine.scenario import Scenario
from model.stonespine.state import GameState, PlayerState

CELL_W, CELL_H, GAP = 150, 110, 40
MARGIN_X, MARGIN_TOP = 20, 70
FILL = {"cave": "#e8d8bf", "stone": "#d4d7dc"}


def render_svg(scenario: Scenario, state: GameState) -> str:
    """Every player's dungeon, side by side, in one SVG."""
    rules = Rules.of(scenario.rulings, scenario.data)
    pictures = [_player(rules, p, state.year) for p in state.players if p.dungeon.rows]
    if not pictures:
        pictures = [(60, 40, ['<text x="0" y="20">no dungeon built</text>'])]
    width = sum(w for w, _, _ in pictures) + GAP * (len(pictures) - 1) + 2 * MARGIN_X
    height = max(h for _, h, _ in pictures) + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f"<title>{escape(f'Stonespine dungeons, year {state.year}')}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    x = MARGIN_X
    for w, _, body in pictures:
        parts.append(f'<g transform="translate({x},0)">')
        parts += body
        parts.append("</g>")
        x += w + GAP
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _player(rules: Rules, player: PlayerState, year: int) -> tuple[int, int, list[str]]:
    dungeon = player.dungeon
    mode = rules.passage_mode
    exit_cell = exit_chamber(rules, dungeon, year)
    width = dungeon.columns * CELL_W
    height = MARGIN_TOP + dungeon.rows * CELL_H + 50
    title = f"{player.name}: {player.guardian.board.name}, year {year}"
    body = [f'<text x="0" y="20" font-size="15" font-weight="bold">{escape(title)}</text>']
    entrance_x = dungeon.entrance * CELL_W + CELL_W // 2
    body.append(_arrow(entrance_x, 34, MARGIN_TOP - 4, "entrance"))
    guardians = list(player.placement.guardians)
    minions = list(player.placement.minions)
    defeated = {c: h.value for c, h in player.defeated}
    for cell in dungeon.cells():
        body += _chamber(dungeon, cell, exit_cell, guardians, minions, defeated)
    for cell in dungeon.cells():
        for side in Side:
            body += _wall(dungeon, mode, cell, side)
    exit_x = dungeon.exit * CELL_W + CELL_W // 2
    bottom = MARGIN_TOP + dungeon.rows * CELL_H
    body.append(_arrow(exit_x, bottom + 4, bottom + 34, "exit", label_below=True))
    return width, height, body


def _arrow(x: int, y1: int, y2: int, label: str, *, label_below: bool = False) -> str:
    text_y = y2 + 14 if label_below else y1 - 2
    return (
        f'<line x1="{x}" y1="{y1}" x2="{x}" y2="{y2}" stroke="#333" stroke-width="2"/>'
        f'<polygon points="{x - 5},{y2 - 8} {x + 5},{y2 - 8} {x},{y2}" fill="#333"/>'
        f'<text x="{x}" y="{text_y}" text-anchor="middle" font-size="11">{label}</text>'
    )


def _chamber(
    dungeon: Dungeon,
    cell: Cell,
    exit_cell: Cell | None,
    guardians: Sequence[Cell],
    minions: Sequence[Cell],
    defeated: dict[Cell, str],
) -> list[str]:
    chamber = dungeon.chamber(cell)
    x, y = cell.col * CELL_W, MARGIN_TOP + cell.row * CELL_H
    out = [
        f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{FILL.get(chamber.type.value, "#eee")}"/>',
        f'<text x="{x + 8}" y="{y + 18}" font-weight="bold">{escape(cell.name)}</text>',
        f'<text x="{x + 34}" y="{y + 18}" fill="#555">{escape(chamber.type.value)}'
        + (" · EX" if cell == exit_cell else "")
        + "</text>",
    ]
    elements = [t for t in (_space_text(s) for s in chamber.spaces) if t]
    for line, chunk in enumerate((elements[:2], elements[2:])):
        if chunk:
            out.append(f'<text x="{x + 8}" y="{y + 40 + 16 * line}">{escape("  ".join(chunk))}</text>')
    figure_x = x + 14
    for _ in range(guardians.count(cell)):
        out.append(
            f'<circle cx="{figure_x}" cy="{y + 88}" r="11" fill="#b3261e"/>'
            f'<text x="{figure_x}" y="{y + 92}" text-anchor="middle" fill="#fff" font-weight="bold">G</text>'
        )
        figure_x += 28
    for _ in range(minions.count(cell)):
        out.append(
            f'<circle cx="{figure_x}" cy="{y + 88}" r="9" fill="#e07b00"/>'
            f'<text x="{figure_x}" y="{y + 92}" text-anchor="middle" fill="#fff" font-size="10">M</text>'
        )
        figure_x += 24
    if cell in defeated:
        out.append(
            f'<text x="{x + CELL_W - 8}" y="{y + 92}" text-anchor="end" fill="#444" '
            f'text-decoration="line-through">{escape(defeated[cell])}</text>'
        )
    return out


def _wall(dungeon: Dungeon, mode: PassageMode, cell: Cell, side: Side) -> list[str]:
    """One side of a chamber: a wall with a gap for a doorway, dashed for a passage."""
    other = cell.step(side)
    if dungeon.contains(other) and side in (Side.LEFT, Side.TOP):
        return []  # a shared edge is drawn once, from the cell on its left or above
    x, y = cell.col * CELL_W, MARGIN_TOP + cell.row * CELL_H
    if side is Side.TOP:
        (x1, y1), (x2, y2) = (x, y), (x + CELL_W, y)
    elif side is Side.BOTTOM:
        (x1, y1), (x2, y2) = (x, y + CELL_H), (x + CELL_W, y + CELL_H)
    elif side is Side.LEFT:
        (x1, y1), (x2, y2) = (x, y), (x, y + CELL_H)
    else:
        (x1, y1), (x2, y2) = (x + CELL_W, y), (x + CELL_W, y + CELL_H)
    chamber = dungeon.chamber(cell)
    if dungeon.contains(other):
        opening = dungeon.connected(cell, side, mode)
        facing = dungeon.chamber(other)
        passage = side in chamber.passages or side.opposite in facing.passages
        collapsing = side in chamber.collapsing or side.opposite in facing.collapsing
    else:
        passage, collapsing = side in chamber.passages, side in chamber.collapsing
        opening = side in chamber.doors or passage or collapsing
    wall = 'stroke="#222" stroke-width="4"'
    if not opening:
        return [f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {wall}/>']
    # a doorway: the wall with a gap in its middle third; a passage drawn across the gap
    mx1, my1 = x1 + (x2 - x1) // 3, y1 + (y2 - y1) // 3
    mx2, my2 = x1 + 2 * (x2 - x1) // 3, y1 + 2 * (y2 - y1) // 3
    out = [
        f'<line x1="{x1}" y1="{y1}" x2="{mx1}" y2="{my1}" {wall}/>',
        f'<line x1="{mx2}" y1="{my2}" x2="{x2}" y2="{y2}" {wall}/>',
    ]
    if passage or collapsing:
        dash = "2 4" if collapsing else "8 4"
        out.append(
            f'<line x1="{mx1}" y1="{my1}" x2="{mx2}" y2="{my2}" stroke="#6a1b9a" stroke-width="3" stroke-dasharray="{dash}"/>'
        )
    return out

"""Pictures of the island with its pieces: a monospace text picture and an SVG.

The real board shapes are not in our data, so both pictures are schematic: each board is a
3 x 3 grid with the Ocean on the left, its coastal lands 1-3 in the first column, 4-5 in the
second and 6-8 in the third (lands beyond 8 continue in further columns). Adjacency is listed
under each board in the text picture and drawn as lines in the SVG.

Each text cell shows ``A1 M~`` (land, terrain letter, ``~`` when coastal), the pieces in land
notation (``C 2T@1 3D B``), and Presence (``River:2``), Defend (``def2``) and Health modifiers.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from model.spirit_island.island import Island
from model.spirit_island.pieces import LETTER, Land, describe

WIDTH = 18
TERRAIN_LETTER = {"jungle": "J", "mountain": "M", "sands": "S", "wetland": "W"}
TERRAIN_COLOUR = {"jungle": "#4c9a4c", "mountain": "#9a9a9a", "sands": "#e0c070", "wetland": "#6fb7c8"}


def _grid_position(number: int) -> tuple[int, int]:
    """(column, row) of land ``number`` in the schematic board grid."""
    if number <= 3:
        return 0, number - 1
    if number <= 5:
        return 1, number - 4
    if number <= 8:
        return 2, number - 6
    return 3 + (number - 9) // 3, (number - 9) % 3


def _cell_lines(island: Island, index: int, land: Land) -> list[str]:
    name = island.lands[index]
    head = f"{name} {TERRAIN_LETTER[island.terrain[index].value]}{'~' if island.coastal[index] else ''}"
    extras = [f"{spirit}:{n}" for spirit, n in land.presence]
    if land.defend:
        extras.append(f"def{land.defend}")
    extras += [f"{LETTER[kind]}hp{delta:+d}" for kind, delta in land.health]
    return [head, describe(land), " ".join(extras)]


def render_island(island: Island, lands: Sequence[Land], *, title: str = "") -> str:
    """A text picture of ``island`` with ``lands`` (by island index)."""
    out: list[str] = [title] if title else []
    for board in island.boards:
        indices = [i for i, b in enumerate(island.board_of) if b == board]
        numbers = {int(island.lands[i][len(board) :]): i for i in indices}
        columns = max(_grid_position(n)[0] for n in numbers) + 1
        grid: dict[tuple[int, int], int] = {_grid_position(n): i for n, i in numbers.items()}
        out.append(f"Board {board}")
        border = "     " + ("+" + "-" * WIDTH) * columns + "+"
        for row in range(3):
            out.append(border)
            cells = [
                _cell_lines(island, grid[(col, row)], lands[grid[(col, row)]])
                if (col, row) in grid
                else ["", "", ""]
                for col in range(columns)
            ]
            for line in range(3):
                ocean = "~~~~ " if row < 3 else "     "
                out.append(ocean + "".join("|" + c[line][:WIDTH].ljust(WIDTH) for c in cells) + "|")
        out.append(border)
        for i in indices:
            near = " ".join(island.lands[j] for j in island.neighbours(i))
            out.append(f"  {island.lands[i]}: {near}")
    if island.layout is not None:
        partial = " (partial: the known edges only)" if island.layout.partial else ""
        out.append(
            f"Layout {island.layout.name}{partial}: " + " ".join(f"{a}-{b}" for a, b in island.layout.edges)
        )
    return "\n".join(out)


def render_svg(island: Island, lands: Sequence[Land], *, title: str = "") -> str:
    """An SVG picture: lands as circles coloured by terrain, labelled with their pieces."""
    cell, radius, board_width = 150, 48, 3 * 150 + 90
    positions: dict[int, tuple[int, int]] = {}
    for b, board in enumerate(island.boards):
        for i, name in enumerate(island.lands):
            if island.board_of[i] == board:
                col, row = _grid_position(int(name[len(board) :]))
                positions[i] = (b * board_width + 90 + col * cell + cell // 2, 60 + row * cell + cell // 2)
    width = len(island.boards) * board_width
    height = 60 + 3 * cell + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">',
        f"<title>{escape(title or 'island')}</title>",
    ]
    for b, board in enumerate(island.boards):
        x = b * board_width
        parts.append(f'<rect x="{x + 10}" y="60" width="60" height="{3 * cell}" fill="#2b5d8a"/>')
        parts.append(f'<text x="{x + 10}" y="40" font-size="16">Board {escape(board)}</text>')
    for i, near in enumerate(island.neighbours_of):
        for j in near:
            if i < j:
                (x1, y1), (x2, y2) = positions[i], positions[j]
                dash = ' stroke-dasharray="6 4"' if island.board_of[i] != island.board_of[j] else ""
                parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#444"{dash}/>')
    for i, (x, y) in sorted(positions.items()):
        colour = TERRAIN_COLOUR[island.terrain[i].value]
        stroke = ' stroke="#2b5d8a" stroke-width="4"' if island.coastal[i] else ' stroke="#222"'
        parts.append(f'<circle cx="{x}" cy="{y}" r="{radius}" fill="{colour}"{stroke}/>')
        for k, line in enumerate(_cell_lines(island, i, lands[i])):
            if line:
                parts.append(
                    f'<text x="{x}" y="{y - 10 + 15 * k}" text-anchor="middle">{escape(line)}</text>'
                )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"

"""Pictures of the island with its pieces: a monospace text picture and an SVG.

The real board shapes are not in our data, so both pictures are schematic: each board is a
3 x 3 grid with the Ocean on the left, its coastal lands 1-3 in the first column, 4-5 in the
second and 6-8 in the third (lands beyond 8 continue in further columns). Adjacency is listed
under each board in the text picture and drawn as lines in the SVG.

Each text cell shows ``A1 M~`` (land, terrain letter, ``~`` when coastal), the pieces in land
notation (``C 2T@1 3D B``), and Presence (``River:2``), Defend (``def2``) and Health modifiers.
:data:`NOTATION` says what each token means; both pictures end with a key to the tokens they
show. Lands of different boards that a layout joins are listed (``joins B2``), not drawn as
lines across the picture.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from invasion_oracle.model.core.legend import Entry, Notation, keys_of
from invasion_oracle.model.core.svg import Canvas, Key, wrap
from invasion_oracle.model.spirit_island.island import Island
from invasion_oracle.model.spirit_island.pieces import LETTER, Land, describe

WIDTH = 18
TERRAIN_LETTER = {"jungle": "J", "mountain": "M", "sands": "S", "wetland": "W"}
TERRAIN_COLOUR = {"jungle": "#4c9a4c", "mountain": "#9a9a9a", "sands": "#e0c070", "wetland": "#6fb7c8"}


def _split(text: str) -> list[str]:
    """Tokens of an island picture: words without their brackets, commas and a closing colon."""
    words = (w.strip("(),;") for w in text.replace("|", " ").split())
    return [w[:-1] if re.fullmatch(r"[A-Za-z]+\d*:", w) else w for w in words if w]


def _pieces(letter: str, name: str) -> Entry:
    return Entry(rf"\d*{letter}(@\d+)?", f"{name} (2{letter}: two; {letter}@1: with 1 Damage)")


NOTATION = Notation(
    "spirit-island",
    (
        Entry(r"[A-F]\d+", "land: board letter and land number"),
        Entry(r"[JMSW]~?", "terrain: J Jungle, M Mountain, S Sands, W Wetland; ~ a coastal land"),
        _pieces("E", "Explorer"),
        _pieces("T", "Town"),
        _pieces("C", "City"),
        _pieces("D", "Dahan"),
        Entry(r"\d*B", "Blight (2B: two)"),
        Entry("-", "no pieces"),
        Entry(r"[A-Za-z][^\s:]*:\d+", "a Spirit's Presence (River:2: two of River's)"),
        Entry(r"def\d+", "Defend in the land (def2: Defend 2)"),
        Entry(r"[ETCD]hp[+-]\d+", "Health of that piece kind changed (Thp-1: Towns have 1 less)"),
        Entry(r"~+", "the Ocean, on each board's left"),
        Entry(r"[A-F]\d+-[A-F]\d+", "two lands of different boards the layout joins"),
    ),
    _split,
)


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


def _joins(island: Island, index: int) -> str:
    """The lands of other boards next to land ``index`` (a layout's joins), or ''."""
    board = island.board_of[index]
    others = [island.lands[j] for j in island.neighbours(index) if island.board_of[j] != board]
    return "joins " + " ".join(others) if others else ""


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
    picture_lines = [line for line in out if "|" in line or line.startswith("Layout")]
    out += NOTATION.text_lines(picture_lines, width=max(72, *map(len, out)))
    return "\n".join(out)


LAND_W, LAND_H, OCEAN_W, GUTTER = 190, 84, 74, 44
OCEAN, COAST = "#2b5d8a", "#2b5d8a"


def render_svg(island: Island, lands: Sequence[Land], *, title: str = "") -> str:
    """An SVG picture: lands as boxes coloured by terrain, in each board's schematic grid.

    Boards stand two to a row from four boards on. Every adjacency within a board is drawn along
    the gutters between the boxes (never across a land): down or up out of one land, along the
    gutters, into the other; each edge has its own lane in a gutter. Lands that a layout joins
    across boards say so in their box (``joins B2``), so no line crosses the picture. A legend is
    under the picture.
    """
    columns = 1 + max(
        (_grid_position(int(name[len(island.board_of[i]) :]))[0] for i, name in enumerate(island.lands)),
        default=2,
    )
    columns = max(columns, 3)
    per_row = 2 if len(island.boards) >= 4 else max(1, len(island.boards))
    widths: list[float] = []
    for _ in range(per_row):
        widths += [OCEAN_W] + [LAND_W] * columns
    lefts = [sum(widths[:c]) + GUTTER * c for c in range(len(widths))]
    cells: dict[int, tuple[int, int]] = {}  # land index -> (global column, global row)
    for b, board in enumerate(island.boards):
        block_col, block_row = (b % per_row) * (columns + 1), (b // per_row) * 3
        for i, name in enumerate(island.lands):
            if island.board_of[i] == board:
                col, row = _grid_position(int(name[len(board) :]))
                cells[i] = (block_col + 1 + col, block_row + row)

    def top(row: int) -> float:
        return 40 + row * (LAND_H + GUTTER)

    canvas = Canvas(title or "island", size=12)
    canvas.text(lefts[0], 14, f"Spirit Island{': ' + title if title else ''}", size=14, bold=True)
    for b, board in enumerate(island.boards):
        col, row = (b % per_row) * (columns + 1), (b // per_row) * 3
        height = 3 * LAND_H + 2 * GUTTER
        canvas.rect(lefts[col], top(row), OCEAN_W, height, OCEAN, rx=6)
        canvas.text(
            lefts[col] + OCEAN_W / 2, top(row) + 20, "Board", anchor="middle", fill="#ffffff", bold=True
        )
        canvas.text(
            lefts[col] + OCEAN_W / 2,
            top(row) + 38,
            board,
            anchor="middle",
            fill="#ffffff",
            bold=True,
            size=16,
        )
        canvas.text(
            lefts[col] + OCEAN_W / 2, top(row) + height - 12, "Ocean", anchor="middle", fill="#ffffff"
        )
    edges = [
        (i, j)
        for i, near in enumerate(island.neighbours_of)
        for j in near
        if i < j and island.board_of[i] == island.board_of[j]
    ]
    for k, (i, j) in enumerate(edges):
        _edge(canvas, cells[i], cells[j], lefts, top, ((k % 9) - 4) * 4.0, False)
    for i, (col, row) in sorted(cells.items()):
        x, y = lefts[col], top(row)
        colour = TERRAIN_COLOUR[island.terrain[i].value]
        stroke = (
            {"stroke": COAST, "stroke_width": 4}
            if island.coastal[i]
            else {"stroke": "#222222", "stroke_width": 1.5}
        )
        canvas.rect(x, y, LAND_W, LAND_H, colour, rx=10, **stroke)
        canvas.rect(x + 6, y + 6, LAND_W - 12, LAND_H - 12, "#ffffff", rx=6, fill_opacity=0.78)
        texts = [*_cell_lines(island, i, lands[i]), _joins(island, i)]
        lines = [part for line in texts if line for part in wrap(line, LAND_W - 24, 12)]
        canvas.lines(x + 12, y + 22, lines[:4], step=15, size=12, notation=True)
    joined = any(
        island.board_of[i] != island.board_of[j] for i, near in enumerate(island.neighbours_of) for j in near
    )
    canvas.legend(
        [
            *(Key("fill", c, t) for t, c in TERRAIN_COLOUR.items()),
            Key("fill", "#ffffff", "coastal land (blue border)", stroke=COAST),
            Key("fill", OCEAN, "Ocean"),
            Key("line", "#555555", "adjacent lands"),
            *([Key("text", "#333333", "joins B2: adjacent to that land of another board")] if joined else []),
            *(
                Key("text", "#333333", f"{tokens} = {words}")
                for tokens, words in keys_of(NOTATION, canvas.notation)
            ),
        ]
    )
    return canvas.svg()


def _edge(
    canvas: Canvas,
    a: tuple[int, int],
    b: tuple[int, int],
    lefts: list[float],
    top: Callable[[int], float],
    offset: float,
    cross: bool,
) -> None:
    """One adjacency drawn along the gutters from land ``a`` to land ``b`` (global grid cells)."""
    if (a[1], a[0]) > (b[1], b[0]):
        a, b = b, a
    (ca, ra), (cb, rb) = a, b
    ax, bx = lefts[ca] + LAND_W / 2 + offset, lefts[cb] + LAND_W / 2 + offset
    below_a = top(ra) + LAND_H + GUTTER / 2 + offset / 2
    if ra == rb or rb == ra + 1:
        b_y = top(rb) + (LAND_H if ra == rb else 0)
        points = [(ax, top(ra) + LAND_H), (ax, below_a), (bx, below_a), (bx, b_y)]
    else:
        above_b = top(rb) - GUTTER / 2 + offset / 2
        side = lefts[ca] + LAND_W + GUTTER / 2 if cb >= ca else lefts[ca] - GUTTER / 2
        side += offset / 2
        points = [
            (ax, top(ra) + LAND_H),
            (ax, below_a),
            (side, below_a),
            (side, above_b),
            (bx, above_b),
            (bx, top(rb)),
        ]
    extra = {"stroke_dasharray": "7 4"} if cross else {}
    canvas.polyline(
        [(round(x, 1), round(y, 1)) for x, y in points],
        "#8e24aa" if cross else "#555555",
        2.5 if cross else 2,
        **extra,
    )

"""SVG pictures of Stonespine dungeons (the text picture is :mod:`invasion_oracle.model.stonespine.render`).

Each player's dungeon is a grid of chambers (cave brown, stone grey) with its name, type and
elements; walls are solid, doorways are gaps, secret passages dashed (collapsing ones dotted).
A red ``G`` disc is a guardian figure, an orange ``M`` a minion, a crossed name a defeated hero.
The entrance arrow is above the first row, the exit below the exit column (``EX`` marks the
chamber connected to it this year). Routes (a search's answer) are coloured lines through the
chambers, one colour and letter per hero, ending in an arrow; a hero that escapes has a dashed
route. Route lines keep to lanes clear of the chamber text: a band under the elements and a lane
at each chamber's right side. A planner's answer also marks
the connections its purchases open (a wide green band across the wall) or close (a red one) and
notes on chambers (``rubble removed``). A legend under the
picture explains every mark. Built on :class:`invasion_oracle.model.core.svg.Canvas` (text escaped, measured).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from invasion_oracle.model.core.legend import keys_of
from invasion_oracle.model.core.svg import Canvas, Key, text_width, wrap
from invasion_oracle.model.stonespine.dungeon import Cell, Dungeon, PassageMode, Side
from invasion_oracle.model.stonespine.entering import Rules, exit_chamber
from invasion_oracle.model.stonespine.render import NOTATION, _space_text
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.state import GameState

CELL_W, CELL_H, GAP = 170, 140, 48
TEXT_W = CELL_W - 50  # chamber text stays left of the route lanes (x + CELL_W - 30 on)
TOP = 64  # the first row's top, under the title and the entrance arrow
FILL = {"cave": "#e8d8bf", "stone": "#d4d7dc"}
GUARDIAN, MINION, PASSAGE = "#b3261e", "#e07b00", "#6a1b9a"
OPENED, CLOSED, NOTE = "#7cb342", "#e53935", "#4a148c"
ROUTE_COLOURS = ("#1565c0", "#2e7d32", "#c2185b", "#00838f", "#6d4c41", "#455a64")
LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(slots=True)
class _Used:
    """Which marks a picture used, so its legend explains exactly those."""

    types: set[str] = field(default_factory=set)
    passage: bool = False
    collapsing: bool = False
    defeated: bool = False
    routes: set[int] = field(default_factory=set)
    escapes: set[int] = field(default_factory=set)
    opened: bool = False
    closed: bool = False


@dataclass(frozen=True, slots=True)
class DungeonView:
    """One dungeon as drawn: its figures, defeated heroes, this year's exit and any routes; and
    connections ``opened`` or ``closed`` (pairs of neighbouring chambers) and chamber ``notes``."""

    dungeon: Dungeon
    title: str
    guardians: Sequence[Cell] = ()
    minions: Sequence[Cell] = ()
    defeated: Mapping[Cell, str] | None = None
    exit_cell: Cell | None = None
    routes: Sequence[Sequence[Cell]] = ()
    opened: Sequence[tuple[Cell, Cell]] = ()
    closed: Sequence[tuple[Cell, Cell]] = ()
    notes: Mapping[Cell, str] | None = None
    escapes: Sequence[int] = ()  # the routes (by index) whose hero escapes


def render_svg(scenario: Scenario, state: GameState) -> str:
    """Every player's dungeon at ``state``, side by side, in one SVG (the spec's renderer)."""
    rules = Rules.of(scenario.rulings, scenario.data)
    views = [
        DungeonView(
            p.dungeon,
            f"{p.name}: {p.guardian.board.name}, year {state.year}",
            p.placement.guardians,
            p.placement.minions,
            {c: h.value for c, h in p.defeated},
            exit_chamber(rules, p.dungeon, state.year),
        )
        for p in state.players
        if p.dungeon.rows
    ]
    return dungeons_svg(views, rules.passage_mode, f"Stonespine dungeons, year {state.year}")


def dungeons_svg(views: Sequence[DungeonView], mode: PassageMode, title: str) -> str:
    """The dungeons side by side, with one legend under them all."""
    canvas = Canvas(title)
    if not views:
        canvas.text(0, 20, "no dungeon built")
    x = 0.0
    used = _Used()
    for view in views:
        width = _dungeon(canvas, x, view, mode, used)
        x += width + GAP
    keys = [Key("fill", FILL[t], f"{t} chamber") for t in ("cave", "stone") if t in used.types]
    meaning = {e.pattern: e.meaning for e in NOTATION.entries}
    figures = [(GUARDIAN, "G", meaning[r"G\d*"]), (MINION, "M", meaning[r"M\d*"])]
    keys += [
        Key("letter", colour, label, letter) for colour, letter, label in figures if letter in canvas.notation
    ]
    keys.append(Key("line", "#222222", "wall (a gap: doorway)"))
    if used.passage:
        keys.append(Key("dash", PASSAGE, "secret passage"))
    if used.collapsing:
        keys.append(Key("dot", PASSAGE, "collapsing passage"))
    if used.defeated:
        keys.append(Key("text", "#444444", "struck name: hero defeated there"))
    if used.opened:
        keys.append(Key("line", OPENED, "connection a purchase opens"))
    if used.closed:
        keys.append(Key("line", CLOSED, "connection a purchase closes"))
    for k in sorted(used.routes):
        colour, letter = ROUTE_COLOURS[k % len(ROUTE_COLOURS)], LETTERS[k % 26]
        if k in used.escapes:
            keys.append(Key("dash", colour, f"route of hero {letter}, who escapes"))
        else:
            keys.append(Key("line", colour, f"route of hero {letter}, defeated where it ends"))
    explained = [t for t in canvas.notation if t not in ("G", "M")]  # the figures have their discs
    keys += [Key("text", "#333333", f"{tokens} = {words}") for tokens, words in keys_of(NOTATION, explained)]
    canvas.legend(keys)
    return canvas.svg()


def _dungeon(canvas: Canvas, x0: float, view: DungeonView, mode: PassageMode, used: _Used) -> float:
    dungeon = view.dungeon
    width = dungeon.columns * CELL_W
    canvas.text(x0, 18, view.title, size=15, bold=True)
    entrance_x = x0 + dungeon.entrance * CELL_W + CELL_W / 2
    canvas.text(entrance_x, 32, "entrance", anchor="middle", size=11)
    canvas.arrow(entrance_x, 36, entrance_x, TOP - 3)
    defeated = dict(view.defeated or {})
    for cell in dungeon.cells():
        _chamber(canvas, x0, dungeon, cell, view, defeated, used)
    for cell in dungeon.cells():
        for side in Side:
            _wall(canvas, x0, dungeon, mode, cell, side, used)
    for edges, colour in ((view.opened, OPENED), (view.closed, CLOSED)):
        for a, b in edges:
            _connection(canvas, x0, a, b, colour)
    used.opened |= bool(view.opened)
    used.closed |= bool(view.closed)
    for k, route in enumerate(view.routes):
        _route(canvas, x0, route, k, escapes=k in view.escapes)
    used.routes |= {k for k, route in enumerate(view.routes) if route}
    used.escapes |= {k for k, route in enumerate(view.routes) if route and k in view.escapes}
    exit_x = x0 + dungeon.exit * CELL_W + CELL_W / 2
    bottom = TOP + dungeon.rows * CELL_H
    canvas.arrow(exit_x, bottom + 3, exit_x, bottom + 30)
    canvas.text(exit_x, bottom + 44, "exit", anchor="middle", size=11)
    return max(width, text_width(view.title, 15))


def _connection(canvas: Canvas, x0: float, a: Cell, b: Cell, colour: str) -> None:
    """A connection a purchase changed: a wide band across the wall between two chambers."""
    (ax, ay), (bx, by) = _centre(x0, a), _centre(x0, b)
    t1, t2 = 0.3, 0.7
    canvas.line(
        ax + (bx - ax) * t1,
        ay + (by - ay) * t1,
        ax + (bx - ax) * t2,
        ay + (by - ay) * t2,
        colour,
        10,
        stroke_opacity=0.6,
        stroke_linecap="round",
    )


def _centre(x0: float, cell: Cell) -> tuple[float, float]:
    return x0 + cell.col * CELL_W + CELL_W / 2, TOP + cell.row * CELL_H + CELL_H / 2


def _chamber(
    canvas: Canvas,
    x0: float,
    dungeon: Dungeon,
    cell: Cell,
    view: DungeonView,
    defeated: dict[Cell, str],
    used: _Used,
) -> None:
    chamber = dungeon.chamber(cell)
    kind = chamber.type.value
    used.types.add(kind)
    x, y = x0 + cell.col * CELL_W, TOP + cell.row * CELL_H
    canvas.rect(x, y, CELL_W, CELL_H, FILL.get(kind, "#eeeeee"))
    canvas.text(x + 8, y + 18, cell.name, bold=True, notation=True)
    canvas.text(
        x + 36, y + 18, kind + (" · EX" if cell == view.exit_cell else ""), fill="#555555", notation=True
    )
    elements = "  ".join(t for t in (_space_text(s) for s in chamber.spaces) if t)
    canvas.lines(x + 8, y + 38, wrap(elements, TEXT_W, canvas.size)[:3], step=15, notation=True)
    figure_x = x + 16
    for _ in range(list(view.guardians).count(cell)):
        canvas.circle(figure_x, y + CELL_H - 20, 11, GUARDIAN)
        canvas.text(figure_x, y + CELL_H - 16, "G", anchor="middle", fill="#ffffff", bold=True, notation=True)
        figure_x += 26
    for _ in range(list(view.minions).count(cell)):
        canvas.circle(figure_x, y + CELL_H - 20, 9, MINION)
        canvas.text(
            figure_x,
            y + CELL_H - 16.5,
            "M",
            anchor="middle",
            fill="#ffffff",
            size=10,
            bold=True,
            notation=True,
        )
        figure_x += 22
    note = (view.notes or {}).get(cell)
    if note:
        canvas.text(x + 8, y + CELL_H - 36, note, fill=NOTE, size=10, bold=True)
    if cell in defeated:  # after the figures, left of the route lanes
        used.defeated = True
        canvas.text(figure_x - 4, y + CELL_H - 16, defeated[cell], fill="#444444", strike=True)


def _lane(x0: float, cell: Cell, k: int) -> tuple[float, float]:
    """Where hero ``k``'s route passes through ``cell``: in the band under the chamber's
    elements and in a lane at its right side, one per hero, so no line crosses the text."""
    x, y = x0 + cell.col * CELL_W, TOP + cell.row * CELL_H
    return x + CELL_W - 30 + (k % 4) * 6, y + 80 + (k % 4) * 4 + (k // 4) * 2


def _route(canvas: Canvas, x0: float, route: Sequence[Cell], k: int, *, escapes: bool = False) -> None:
    """One hero's route: from the entrance through each chamber's lane point; dashed when the
    hero escapes at its end."""
    if not route:
        return
    colour = ROUTE_COLOURS[k % len(ROUTE_COLOURS)]
    dash = {"stroke_dasharray": "9 5"} if escapes else {}
    points = [_lane(x0, c, k) for c in route]
    # neighbours share a row or a column: each step runs along a band or down a lane
    path = [(points[0][0], TOP + 2), *points]
    if len(path) > 2:
        canvas.polyline(path[:-1], colour, 3, stroke_opacity=0.85, **dash)
    (px, py), (qx, qy) = path[-2], path[-1]
    canvas.arrow(px, py, qx, qy, colour, 3)
    lx, ly = points[-1]
    canvas.circle(lx, ly, 8, "#ffffff", stroke=colour, stroke_width=2)
    canvas.text(lx, ly + 4, LETTERS[k % 26], anchor="middle", fill=colour, bold=True, size=11)
    if escapes:
        canvas.text(lx + 8, ly + 22, "escapes", anchor="end", fill=colour, size=10)


def _wall(
    canvas: Canvas, x0: float, dungeon: Dungeon, mode: PassageMode, cell: Cell, side: Side, used: _Used
) -> None:
    """One side of a chamber: a wall with a gap for a doorway, dashed for a passage."""
    other = cell.step(side)
    if dungeon.contains(other) and side in (Side.LEFT, Side.TOP):
        return  # a shared edge is drawn once, from the cell on its left or above
    x, y = x0 + cell.col * CELL_W, TOP + cell.row * CELL_H
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
    if not opening:
        canvas.line(x1, y1, x2, y2, "#222222", 4, stroke_linecap="square")
        return
    # a doorway: the wall with a gap in its middle third; a passage drawn across the gap
    mx1, my1 = x1 + (x2 - x1) / 3, y1 + (y2 - y1) / 3
    mx2, my2 = x1 + 2 * (x2 - x1) / 3, y1 + 2 * (y2 - y1) / 3
    canvas.line(x1, y1, mx1, my1, "#222222", 4, stroke_linecap="square")
    canvas.line(mx2, my2, x2, y2, "#222222", 4, stroke_linecap="square")
    if passage or collapsing:
        if collapsing:
            used.collapsing = True
        else:
            used.passage = True
        canvas.line(mx1, my1, mx2, my2, PASSAGE, 3, stroke_dasharray="2 4" if collapsing else "8 4")

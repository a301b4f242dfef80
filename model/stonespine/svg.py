"""SVG pictures of Stonespine dungeons (the text picture is :mod:`invasion_oracle.model.stonespine.render`).

Each player's dungeon is a grid of chambers (cave brown, stone grey) with its name, type and
elements; walls are solid, doorways are gaps, secret passages dashed (collapsing ones dotted).
A red ``G`` disc is a guardian figure, an orange ``M`` a minion, a crossed name a defeated hero.
The entrance arrow is above the first row, the exit below the exit column (``EX`` marks the
chamber connected to it this year). Routes (a search's answer) are coloured lines through the
chambers' centres, one colour and letter per hero, ending in an arrow (an empty route is
not drawn: a search's answer leaves out the heroes that escape). A planner's answer also marks
the connections its purchases open (a wide green band across the wall) or close (a red one) and
notes on chambers (``rubble removed``). A legend under the
picture explains every mark. Built on :class:`invasion_oracle.model.core.svg.Canvas` (text escaped, measured).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from invasion_oracle.model.core.svg import Canvas, Key, text_width, wrap
from invasion_oracle.model.stonespine.dungeon import Cell, Dungeon, PassageMode, Side
from invasion_oracle.model.stonespine.entering import Rules, exit_chamber
from invasion_oracle.model.stonespine.render import _space_text
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.state import GameState

CELL_W, CELL_H, GAP = 170, 118, 48
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
    keys += [
        Key("letter", GUARDIAN, "guardian", "G"),
        Key("letter", MINION, "minion", "M"),
        Key("line", "#222222", "wall (a gap: doorway)"),
    ]
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
        keys.append(Key("line", ROUTE_COLOURS[k % len(ROUTE_COLOURS)], f"route of hero {LETTERS[k % 26]}"))
    keys.append(Key("text", "#333333", "EX: the chamber joined to the exit this year"))
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
        _route(canvas, x0, dungeon, route, k)
    used.routes |= {k for k, route in enumerate(view.routes) if route}
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
    canvas.text(x + 8, y + 18, cell.name, bold=True)
    canvas.text(x + 36, y + 18, kind + (" · EX" if cell == view.exit_cell else ""), fill="#555555")
    elements = "  ".join(t for t in (_space_text(s) for s in chamber.spaces) if t)
    canvas.lines(x + 8, y + 38, wrap(elements, CELL_W - 16, canvas.size)[:3], step=15)
    figure_x = x + 16
    for _ in range(list(view.guardians).count(cell)):
        canvas.circle(figure_x, y + CELL_H - 20, 11, GUARDIAN)
        canvas.text(figure_x, y + CELL_H - 16, "G", anchor="middle", fill="#ffffff", bold=True)
        figure_x += 26
    for _ in range(list(view.minions).count(cell)):
        canvas.circle(figure_x, y + CELL_H - 20, 9, MINION)
        canvas.text(figure_x, y + CELL_H - 16.5, "M", anchor="middle", fill="#ffffff", size=10, bold=True)
        figure_x += 22
    note = (view.notes or {}).get(cell)
    if note:
        canvas.text(x + 8, y + CELL_H - 36, note, fill=NOTE, size=10, bold=True)
    if cell in defeated:
        used.defeated = True
        canvas.text(
            x + CELL_W - 8, y + CELL_H - 16, defeated[cell], anchor="end", fill="#444444", strike=True
        )


def _route(canvas: Canvas, x0: float, dungeon: Dungeon, route: Sequence[Cell], k: int) -> None:
    """One hero's route: from the entrance through each chamber's centre, offset per hero."""
    if not route:
        return
    colour = ROUTE_COLOURS[k % len(ROUTE_COLOURS)]
    dx, dy = (k % 3 - 1) * 14, (k // 3) * 10 - 8
    points = [(cx + dx, cy + dy) for cx, cy in (_centre(x0, c) for c in route)]
    start = (points[0][0], TOP + 4)
    if len(points) > 1:
        canvas.polyline([start, *points[:-1]], colour, 3, stroke_opacity=0.85)
        (px, py), (qx, qy) = points[-2], points[-1]
        canvas.arrow(px, py, qx, qy, colour, 3)
    else:
        canvas.arrow(start[0], start[1], points[0][0], points[0][1], colour, 3)
    lx, ly = points[-1]
    canvas.circle(lx, ly, 8, "#ffffff", stroke=colour, stroke_width=2)
    canvas.text(lx, ly + 4, LETTERS[k % 26], anchor="middle", fill=colour, bold=True, size=11)


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

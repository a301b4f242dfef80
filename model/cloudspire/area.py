"""The play area as a graph (seed 004, Orientation and Table Setup Diagram).

Ten key spaces in three columns: three spire spaces on the left (``L-top``, ``L-middle``,
``L-bottom``), the top, middle and bottom lanes and the hero card in the middle column, and three
spire spaces on the right. The Deployment Stack sits above the top lane. Edges join orthogonal
neighbours on that grid; who can hit whom follows the edges (seed 004, Spires Fire Phase and
Suffer Damage Step):

* a die loaded on the hero reaches the bottom lane only; one on a spire reaches its row's lane;
* an enemy in a lane reaches the spire spaces of its row, and the hero only from the bottom lane.

>>> hit_reach("hero"), hit_reach("R-middle")
(('bottom',), ('middle',))
>>> enemy_reach("bottom")
('L-bottom', 'R-bottom', 'hero')
>>> enemy_reach("top")
('L-top', 'R-top')

Spires are adjacent to each other only in the same column, next to each other with no empty spire
space between (seed 004, Using Spires); ruling ``CS-SPIRE-ADJACENCY`` decides whether a run of
three counts its ends as adjacent:

>>> adjacent_spires("L-top", {"L-top", "L-middle", "L-bottom"}, "neighbours")
('L-middle',)
>>> adjacent_spires("L-top", {"L-top", "L-middle", "L-bottom"}, "column-run")
('L-middle', 'L-bottom')
>>> adjacent_spires("L-top", {"L-top", "L-bottom"}, "column-run")
()
"""

from __future__ import annotations

from functools import cache

from invasion_oracle.model.core.places import Places

LANES: tuple[str, ...] = ("top", "middle", "bottom")
ROWS: tuple[str, ...] = LANES
SPIRE_SPACES: tuple[str, ...] = tuple(f"{side}-{row}" for side in ("L", "R") for row in ROWS)
HERO = "hero"
DEPLOYMENT = "deployment"
SPACES: tuple[str, ...] = (DEPLOYMENT, *LANES, *SPIRE_SPACES, HERO)


def row_index(space: str) -> int:
    """0 top, 1 middle, 2 bottom, 3 the hero's row, -1 the Deployment Stack."""
    if space == DEPLOYMENT:
        return -1
    if space == HERO:
        return 3
    return ROWS.index(space.split("-")[-1])


def column(space: str) -> str:
    return space[0] if space in SPIRE_SPACES else "M"


def kind(space: str) -> str:
    """``lane``, ``spire``, ``hero`` or ``deployment``."""
    if space in LANES:
        return "lane"
    if space in SPIRE_SPACES:
        return "spire"
    return "hero" if space == HERO else "deployment"


@cache
def play_area() -> Places:
    """The spaces and their orthogonal neighbours on the grid (``.graph`` is the networkx graph)."""
    cells = {(row_index(s), column(s)): s for s in SPACES}
    order = "LMR"
    edges = []
    for (row, col), space in cells.items():
        right = (row, order[order.index(col) + 1]) if col != "R" else None
        below = (row + 1, col)
        edges += [(space, cells[other]) for other in (right, below) if other in cells]
    return Places.from_edges(SPACES, edges)


@cache
def _neighbours_of_kind(space: str, *kinds: str) -> tuple[str, ...]:
    return tuple(n for n in play_area().neighbours(space) if kind(n) in kinds)


def hit_reach(space: str) -> tuple[str, ...]:
    """The lanes a hit loaded on the card at ``space`` can be applied to."""
    return _neighbours_of_kind(space, "lane")


def enemy_reach(lane: str) -> tuple[str, ...]:
    """The spire spaces (and ``hero``) an enemy in ``lane`` can target."""
    return _neighbours_of_kind(lane, "spire", "hero")


def adjacent_spires(space: str, occupied: set[str] | frozenset[str], reading: str) -> tuple[str, ...]:
    """The occupied spire spaces adjacent to ``space`` under ruling ``CS-SPIRE-ADJACENCY``.

    ``neighbours``: the spaces directly above and below, if occupied. ``column-run``: every space
    of the same column joined to ``space`` through occupied spaces only.
    """
    if space not in SPIRE_SPACES:
        return ()
    area = play_area()

    def same_column(a: str) -> list[str]:
        return [n for n in area.neighbours(a) if kind(n) == "spire" and column(n) == column(space)]

    if reading == "neighbours":
        return tuple(n for n in same_column(space) if n in occupied)
    seen, frontier = {space}, [space]
    while frontier:
        for n in same_column(frontier.pop()):
            if n not in seen and n in occupied:
                seen.add(n)
                frontier.append(n)
    return tuple(n for n in SPACES if n in seen and n != space)

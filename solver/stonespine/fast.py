"""The hot loops of the exhaustive searches.

:func:`route_ends` walks every route of one hero and yields the chambers where it can be defeated
(and whether it can escape); :class:`LayoutEvaluator` answers the wave question "how many heroes
of this roll can the player defeat?" for one placement. They implement exactly the rules of
:func:`solver.stonespine.routes.enumerate_outcomes`, the readable reference (tests check they
agree); they are separate because they run millions of times in a placement search.
"""

from __future__ import annotations

from collections.abc import Iterator

from solver.stonespine.board import Board, HeroProfile, Layout

ESCAPE = -1  # what :func:`route_ends` yields (once) when some route escapes


def route_ends(
    board: Board, layout: Layout, hero: HeroProfile, defeated: int, escapes: bool = False
) -> Iterator[int]:
    """Every chamber where ``hero`` can be defeated, each once, lazily in depth-first order; with
    ``escapes``, also :data:`ESCAPE` once as soon as some route escapes.

    A walk with an explicit stack, so a caller that needs only one good chamber stops it early.
    """
    if board.escape_at_entry:
        if escapes:
            yield ESCAPE
        return
    neighbours = board.neighbours
    live = 0
    for g in layout.guardians:
        live |= 1 << g
    live &= ~defeated
    minions = layout.minions
    base, unit, minion_unit = hero.base, hero.unit, hero.minion_unit
    health = hero.health
    purple, cond, cond_minion = hero.purple, hero.cond, hero.cond_minion
    all_damage, used_anyway = board.purple_all_damage, board.purple_used_anyway
    exit_node = board.exit if board.exit is not None else -1
    exit_through = board.exit_through_defeated
    found = 0
    escaped = not escapes  # report an escape at most once, and only when asked
    stack = [(board.start, 1 << board.start, 0, False)]
    while stack:
        node, visited, damage, used = stack.pop()
        bit = 1 << node
        ignored = defeated & bit
        if not ignored:
            if live & bit:
                if not found & bit:
                    found |= bit
                    yield node
                continue
            m = minions[node]
            gained = base[node] + m * unit[node]
            if purple and not used and (cond[node] or (cond_minion and m)) and (used_anyway or gained > 0):
                gained = 0 if all_damage else m * minion_unit[node]
                used = True
            damage += gained
            if damage >= health:
                if not found & bit:
                    found |= bit
                    yield node
                continue
        if node == exit_node and (not ignored or exit_through):
            if not escaped:
                escaped = True
                yield ESCAPE
            continue
        moved = False
        for nxt in reversed(neighbours[node]):
            if not (visited >> nxt) & 1:
                moved = True
                stack.append((nxt, visited | (1 << nxt), damage, used))
        if not moved and not escaped:
            escaped = True
            yield ESCAPE


def defeat_nodes(board: Board, layout: Layout, hero: HeroProfile, defeated: int) -> Iterator[int]:
    """Chambers where ``hero`` can be defeated, lazily (see :func:`route_ends`)."""
    return route_ends(board, layout, hero, defeated)


def defeat_mask(board: Board, layout: Layout, hero: HeroProfile, defeated: int) -> int:
    """Bit mask of the chambers where ``hero`` can be defeated, given defeated-hero chambers."""
    mask = 0
    for node in route_ends(board, layout, hero, defeated):
        mask |= 1 << node
    return mask


def outcome_masks(board: Board, layout: Layout, hero: HeroProfile, defeated: int) -> tuple[int, bool]:
    """``(defeat mask, can escape)``: where the hero can be defeated, and whether any route escapes."""
    mask, escapes = 0, False
    for node in route_ends(board, layout, hero, defeated, escapes=True):
        if node == ESCAPE:
            escapes = True
        else:
            mask |= 1 << node
    return mask, escapes


class _Lazy:
    """A cached, resumable list of defeat chambers for one (colour, defeated mask)."""

    __slots__ = ("done", "items", "source")

    def __init__(self, source: Iterator[int]) -> None:
        self.items: list[int] = []
        self.source = source
        self.done = False

    def __iter__(self) -> Iterator[int]:
        i = 0
        while True:
            if i < len(self.items):
                yield self.items[i]
                i += 1
                continue
            if self.done:
                return
            nxt = next(self.source, None)
            if nxt is None:
                self.done = True
                return
            self.items.append(nxt)


class LayoutEvaluator:
    """Exact wave values for one layout, with every sub-result shared between rolls.

    ``value(roll)`` is the most heroes of ``roll`` the player can defeat from the given
    defeated-chamber mask. Defeat chambers per (colour, mask) are found lazily and kept, and values
    per (mask, heroes left) are computed once and reused by every later roll; a search that finds
    a way to defeat every hero stops at once.
    """

    __slots__ = ("board", "layout", "masks", "values")

    def __init__(self, board: Board, layout: Layout) -> None:
        self.board = board
        self.layout = layout
        self.masks: dict[tuple[int, int], _Lazy] = {}
        self.values: dict[tuple[int, int, int, int], int] = {}

    def value(self, roll: tuple[int, int, int], defeated: int = 0) -> int:
        return self._best(defeated, roll[0], roll[1], roll[2])

    def _nodes(self, color: int, mask: int) -> _Lazy:
        key = (color, mask)
        found = self.masks.get(key)
        if found is None:
            found = self.masks[key] = _Lazy(
                defeat_nodes(self.board, self.layout, self.board.heroes[color], mask)
            )
        return found

    def _best(self, mask: int, b: int, p: int, r: int) -> int:
        key = (mask, b, p, r)
        done = self.values.get(key)
        if done is not None:
            return done
        top = 0
        full = b + p + r
        for color, left in ((0, b), (1, p), (2, r)):
            if not left:
                continue
            nb, np_, nr = (b - 1, p, r) if color == 0 else (b, p - 1, r) if color == 1 else (b, p, r - 1)
            for node in self._nodes(color, mask):
                value = 1 + self._best(mask | (1 << node), nb, np_, nr)
                if value > top:
                    top = value
                    if top == full:
                        self.values[key] = top
                        return top
        self.values[key] = top
        return top

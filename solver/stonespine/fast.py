"""The hot loops of the exhaustive searches, kept small and free of allocation.

:func:`defeat_mask` answers "in which chambers can this hero be defeated?" as a bit mask, and
:func:`max_defeats` the wave question "how many heroes can the player defeat?", stopping early
once a target is reached. They implement exactly the rules of
:func:`solver.stonespine.routes.enumerate_outcomes` (tests check they agree).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from solver.stonespine.board import Board, HeroProfile, Layout


def defeat_mask(board: Board, layout: Layout, hero: HeroProfile, defeated: int) -> int:
    """Bit mask of the chambers where ``hero`` can be defeated, given defeated-hero chambers."""
    if board.escape_at_entry:
        return 0
    neighbours = board.neighbours
    guardians = 0
    for g in layout.guardians:
        guardians |= 1 << g
    live = guardians & ~defeated
    minions = layout.minions
    base, unit, minion_unit = hero.base, hero.unit, hero.minion_unit
    health = hero.health
    purple, cond, cond_minion = hero.purple, hero.cond, hero.cond_minion
    all_damage, used_anyway = board.purple_all_damage, board.purple_used_anyway
    exit_node = board.exit if board.exit is not None else -1
    exit_through = board.exit_through_defeated
    found = 0

    def walk(node: int, visited: int, damage: int, used: bool) -> None:
        nonlocal found
        bit = 1 << node
        ignored = defeated & bit
        if not ignored:
            if live & bit:
                found |= bit
                return
            m = minions[node]
            gained = base[node] + m * unit[node]
            if purple and not used and (cond[node] or (cond_minion and m)) and (used_anyway or gained > 0):
                gained = 0 if all_damage else m * minion_unit[node]
                used = True
            damage += gained
            if damage >= health:
                found |= bit
                return
        if node == exit_node and (not ignored or exit_through):
            return
        for nxt in neighbours[node]:
            if not (visited >> nxt) & 1:
                walk(nxt, visited | (1 << nxt), damage, used)

    walk(board.start, 1 << board.start, 0, False)
    return found


def max_defeats(board: Board, layout: Layout, roll: tuple[int, int, int], defeated: int = 0,
                enough: int | None = None, cache: dict[tuple[int, int], int] | None = None) -> int:
    """The most heroes of ``roll`` the player can defeat; stops searching at ``enough``."""
    heroes = board.heroes
    target = sum(roll) if enough is None else min(enough, sum(roll))
    masks: dict[tuple[int, int], int] = cache if cache is not None else {}

    def options(color: int, mask: int) -> int:
        key = (color, mask)
        found = masks.get(key)
        if found is None:
            found = masks[key] = defeat_mask(board, layout, heroes[color], mask)
        return found

    seen: dict[tuple[int, tuple[int, int, int]], int] = {}

    def best(mask: int, left: tuple[int, int, int], have: int) -> int:
        key = (mask, left)
        if key in seen:
            return seen[key]
        top = 0
        for color in range(3):
            if not left[color]:
                continue
            rest = (*left[:color], left[color] - 1, *left[color + 1 :])
            nodes = options(color, mask)
            while nodes:
                low = nodes & -nodes
                nodes ^= low
                value = 1 + best(mask | low, rest, have + 1)  # type: ignore[arg-type]
                if value > top:
                    top = value
                    if have + top >= target:
                        seen[key] = top
                        return top
        seen[key] = top
        return top

    return best(defeated, roll, 0)


def defeat_nodes(board: Board, layout: Layout, hero: HeroProfile, defeated: int) -> Iterator[int]:
    """Chambers where ``hero`` can be defeated, each once, lazily in depth-first order.

    The same walk as :func:`defeat_mask`, with an explicit stack so a caller that only needs
    one good chamber stops the walk early.
    """
    if board.escape_at_entry:
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
            continue
        for nxt in reversed(neighbours[node]):
            if not (visited >> nxt) & 1:
                stack.append((nxt, visited | (1 << nxt), damage, used))


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
            found = self.masks[key] = _Lazy(defeat_nodes(self.board, self.layout, self.board.heroes[color], mask))
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


Evaluator = Callable[[Layout], int]


def outcome_masks(board: Board, layout: Layout, hero: HeroProfile, defeated: int) -> tuple[int, bool]:
    """``(defeat mask, can escape)``: where the hero can be defeated, and whether any route escapes."""
    if board.escape_at_entry:
        return 0, True
    neighbours = board.neighbours
    live = 0
    for g in layout.guardians:
        live |= 1 << g
    live &= ~defeated
    minions = layout.minions
    exit_node = board.exit if board.exit is not None else -1
    found = 0
    escapes = False

    def walk(node: int, visited: int, damage: int, used: bool) -> None:
        nonlocal found, escapes
        bit = 1 << node
        ignored = defeated & bit
        if not ignored:
            if live & bit:
                found |= bit
                return
            m = minions[node]
            gained = hero.base[node] + m * hero.unit[node]
            if hero.purple and not used and (hero.cond[node] or (hero.cond_minion and m)) and (board.purple_used_anyway or gained > 0):
                gained = 0 if board.purple_all_damage else m * hero.minion_unit[node]
                used = True
            damage += gained
            if damage >= hero.health:
                found |= bit
                return
        if node == exit_node and (not ignored or board.exit_through_defeated):
            escapes = True
            return
        moved = False
        for nxt in neighbours[node]:
            if not (visited >> nxt) & 1:
                moved = True
                walk(nxt, visited | (1 << nxt), damage, used)
        if not moved:
            escapes = True

    walk(board.start, 1 << board.start, 0, False)
    return found, escapes

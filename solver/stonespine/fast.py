"""The hot loops of the exhaustive searches: the route rules tabulated, and walks over the table.

:class:`EntryTable` evaluates :func:`invasion_oracle.solver.stonespine.rules.enter` (the one definition of the
route rules) for every state a hero can carry into a chamber - damage so far below its health,
protection used or not - and keeps the result as one small integer: the next state, or how the
walk ends there. A walk is then a list lookup per chamber entered, so the fast engines run the
same rules as the reference walker and the z3 encodings, not a copy of them.

:func:`route_ends` walks every route of one hero and yields the chambers where it can be defeated
(and whether it can escape); :func:`first_routes` keeps the first route to each outcome;
:class:`LayoutEvaluator` answers the wave question "how many heroes of this roll can the player
defeat?" for one placement.
"""

from __future__ import annotations

from collections.abc import Iterator

from invasion_oracle.solver.common import Deadline
from invasion_oracle.solver.stonespine.board import Board, HeroProfile, Layout
from invasion_oracle.solver.stonespine.rules import (
    HeroState,
    VectorLogic,
    chamber_facts,
    enter,
    hero_terms,
    route_rules,
)

ESCAPE = -1  # what :func:`route_ends` yields (once) when some route escapes

# How a walk ends in a chamber (table codes; a code >= 0 is the state carried on).
BY_GUARDIAN = -1
BY_DAMAGE = -2
BY_EXIT = -3

Row = tuple[int, ...]  # per state ``damage * 2 + protection_used``: a code


class EntryTable:
    """:func:`~invasion_oracle.solver.stonespine.rules.enter` tabulated for one hero on one board.

    Each row - one per chamber and (minions, guardian, ignored), holding a code per state - is one
    evaluation of the rules for every state at once (:class:`~invasion_oracle.solver.stonespine.rules.VectorLogic`).
    With ``batch``, the first row asked of a chamber brings all its rows up to ``board.minions``
    minions in one evaluation (the placement search asks for most of them).
    """

    __slots__ = ("batch", "board", "grid", "hero", "plain", "reach", "states")

    def __init__(self, board: Board, hero: HeroProfile, batch: bool = False) -> None:
        self.board = board
        self.hero = hero
        self.batch = batch
        self.states = 2 * max(hero.health, 1)
        # per node, per (minions, guardian, ignored) as ``minions * 4 + guardian * 2 + ignored``
        self.grid: list[list[Row | None]] = [[] for _ in range(board.size)]
        self.plain: list[Row] | None = None  # every chamber empty, no defeated hero
        self.reach = board.reachable()  # the chambers a walk can enter

    def row(self, node: int, minions: int, guardian: bool, ignored: bool) -> Row:
        cells = self.grid[node]
        index = minions * 4 + guardian * 2 + ignored
        found = cells[index] if index < len(cells) else None
        if found is None:
            if index >= len(cells):
                cells.extend([None] * (index + 1 - len(cells)))
            if self.batch:
                top = max(minions, self.board.minions)
                combos = [(m, g, i) for m in range(top + 1) for g in (False, True) for i in (False, True)]
            else:
                combos = [(minions, guardian, ignored)]
            for (m, g, i), computed in zip(combos, self._compute(node, combos), strict=True):
                spot = m * 4 + g * 2 + i
                if spot >= len(cells):
                    cells.extend([None] * (spot + 1 - len(cells)))
                cells[spot] = computed
            found = cells[index]
            assert found is not None
        return found

    def _compute(self, node: int, combos: list[tuple[int, bool, bool]]) -> list[Row]:
        """The rows of ``node`` for each (minions, guardian, ignored) in ``combos``, every state at
        once."""
        states = self.states
        many = VectorLogic(len(combos) * states)
        facts = chamber_facts(
            many,
            self.board,
            self.hero,
            node,
            minions=tuple(m for m, _, _ in combos for _ in range(states)),
            guardian=tuple(g for _, g, _ in combos for _ in range(states)),
            ignored=tuple(i for _, _, i in combos for _ in range(states)),
        )
        carried = HeroState(
            tuple(s >> 1 for _ in combos for s in range(states)),
            tuple(bool(s & 1) for _ in combos for s in range(states)),
        )
        step = enter(many, route_rules(self.board), hero_terms(many, self.hero), facts, carried)
        codes = [
            BY_GUARDIAN
            if guardian_
            else BY_DAMAGE
            if damage_
            else BY_EXIT
            if exit_
            else total * 2 + int(used)
            for guardian_, damage_, exit_, total, used in zip(
                step.by_guardian,
                step.by_damage,
                step.by_exit,
                step.after.damage,
                step.after.protection_used,
                strict=True,
            )
        ]
        return [tuple(codes[k * states : (k + 1) * states]) for k in range(len(combos))]

    def layout_rows(self, layout: Layout, defeated: int) -> list[Row]:
        """The row of every chamber for ``layout`` with defeated heroes in ``defeated``; a chamber
        not connected to the first one gets an empty row (no walk enters it, and its rules cost as
        much to tabulate as a connected chamber's: most of a large thinned grid)."""
        reach = self.reach
        if self.plain is None:
            self.plain = [self.row(n, 0, False, False) if n in reach else () for n in range(self.board.size)]
        rows = list(self.plain)
        guardians = layout.guardians
        marked = defeated
        for n in guardians:
            marked |= 1 << n
        for n, m in enumerate(layout.minions):
            if m:
                marked |= 1 << n
        while marked:  # only chambers holding something differ from the empty ones
            low = marked & -marked
            marked ^= low
            n = low.bit_length() - 1
            if n in reach:
                rows[n] = self.row(n, layout.minions[n], n in guardians, bool(defeated >> n & 1))
        return rows


class EntryTables:
    """One :class:`EntryTable` per hero colour of a board (black, purple, red)."""

    __slots__ = ("board", "by_color")

    def __init__(self, board: Board, batch: bool = False) -> None:
        self.board = board
        self.by_color = tuple(EntryTable(board, hero, batch) for hero in board.heroes)

    def of(self, hero: HeroProfile) -> EntryTable:
        for table in self.by_color:
            if table.hero is hero:
                return table
        return EntryTable(self.board, hero)


def _walk(board: Board, rows: list[Row], escapes: bool, deadline: Deadline | None = None) -> Iterator[int]:
    if board.escape_at_entry:
        if escapes:
            yield ESCAPE
        return
    links = board.links
    found = 0
    escaped = not escapes  # report an escape at most once, and only when asked
    stack = [(board.start, 1 << board.start, 0)]
    pop, push = stack.pop, stack.append
    steps = 0
    while stack:
        node, visited, state = pop()
        code = rows[node][state]
        if code < 0:
            if code == BY_EXIT:
                if not escaped:
                    escaped = True
                    yield ESCAPE
            elif not found >> node & 1:
                found |= 1 << node
                yield node
            continue
        moved = False
        for nxt, bit in links[node]:
            if not visited & bit:
                moved = True
                push((nxt, visited | bit, code))
        if not moved and not escaped:
            escaped = True
            yield ESCAPE
        steps += 1
        if steps & 0xFFF == 0 and deadline is not None:
            deadline.check()


def route_ends(
    board: Board,
    layout: Layout,
    hero: HeroProfile,
    defeated: int,
    escapes: bool = False,
    table: EntryTable | None = None,
    deadline: Deadline | None = None,
) -> Iterator[int]:
    """Every chamber where ``hero`` can be defeated, each once, lazily in depth-first order; with
    ``escapes``, also :data:`ESCAPE` once as soon as some route escapes.

    A walk with an explicit stack, so a caller that needs only one good chamber stops it early.
    """
    table = table or EntryTable(board, hero)
    return _walk(board, table.layout_rows(layout, defeated), escapes, deadline)


def defeat_nodes(
    board: Board,
    layout: Layout,
    hero: HeroProfile,
    defeated: int,
    table: EntryTable | None = None,
    deadline: Deadline | None = None,
) -> Iterator[int]:
    """Chambers where ``hero`` can be defeated, lazily (see :func:`route_ends`)."""
    return route_ends(board, layout, hero, defeated, table=table, deadline=deadline)


def defeat_mask(
    board: Board,
    layout: Layout,
    hero: HeroProfile,
    defeated: int,
    table: EntryTable | None = None,
    deadline: Deadline | None = None,
) -> int:
    """Bit mask of the chambers where ``hero`` can be defeated, given defeated-hero chambers."""
    mask = 0
    for node in route_ends(board, layout, hero, defeated, table=table, deadline=deadline):
        mask |= 1 << node
    return mask


def outcome_masks(
    board: Board,
    layout: Layout,
    hero: HeroProfile,
    defeated: int,
    table: EntryTable | None = None,
    deadline: Deadline | None = None,
) -> tuple[int, bool]:
    """``(defeat mask, can escape)``: where the hero can be defeated, and whether any route escapes."""
    mask, escapes = 0, False
    for node in route_ends(board, layout, hero, defeated, escapes=True, table=table, deadline=deadline):
        if node == ESCAPE:
            escapes = True
        else:
            mask |= 1 << node
    return mask, escapes


def first_routes(
    board: Board,
    layout: Layout,
    hero: HeroProfile,
    defeated: int,
    deadline: Deadline | None = None,
    table: EntryTable | None = None,
    found: dict[tuple[str, int], tuple[int, ...]] | None = None,
    steps: int | None = None,
) -> dict[tuple[str, int], tuple[int, ...]]:
    """The first route (in the oracle's move order) to every outcome ``(fate, chamber)``; an
    escape at the entrance is ``("escaped", -1)`` with the empty route.

    Routes go into ``found`` as they are met, so a caller stopped by the deadline keeps them.
    With ``steps``, the walk stops after that many chambers entered and returns what it met.
    """
    found = {} if found is None else found
    if board.escape_at_entry:
        found[("escaped", -1)] = ()
        return found
    deadline = deadline or Deadline()
    rows = (table or EntryTable(board, hero)).layout_rows(layout, defeated)
    neighbours = board.neighbours
    budget = -1 if steps is None else steps
    stack: list[tuple[int, int, int, tuple[int, ...]]] = [(board.start, 1 << board.start, 0, (board.start,))]
    walked = 0
    while stack:
        walked += 1
        if walked & 0x3FF == 0:
            deadline.check()
        if walked == budget:
            return found
        node, visited, state, route = stack.pop()
        code = rows[node][state]
        if code < 0:
            found.setdefault(("escaped" if code == BY_EXIT else "defeated", node), route)
            continue
        moved = False
        for nxt in reversed(neighbours[node]):
            if not visited >> nxt & 1:
                moved = True
                stack.append((nxt, visited | 1 << nxt, code, (*route, nxt)))
        if not moved:
            found.setdefault(("escaped", node), route)
    return found


def route_to(
    board: Board,
    layout: Layout,
    hero: HeroProfile,
    defeated: int,
    fate: str,
    node: int = -1,
    deadline: Deadline | None = None,
    table: EntryTable | None = None,
) -> tuple[int, ...] | None:
    """The first route (in the oracle's move order) ending in ``fate`` at ``node`` (``-1``: at any
    chamber), or None when no route does. Stops at the first one: a plan needs one route per hero,
    not every route of the dungeon."""
    if board.escape_at_entry:
        return () if fate == "escaped" else None
    deadline = deadline or Deadline()
    rows = (table or EntryTable(board, hero)).layout_rows(layout, defeated)
    neighbours = board.neighbours
    stack: list[tuple[int, int, int, tuple[int, ...]]] = [(board.start, 1 << board.start, 0, (board.start,))]
    walked = 0
    while stack:
        walked += 1
        if walked & 0x3FF == 0:
            deadline.check()
        here, visited, state, route = stack.pop()
        code = rows[here][state]
        if code < 0:
            ended = "escaped" if code == BY_EXIT else "defeated"
            if ended == fate and node in (-1, here):
                return route
            continue
        moved = False
        for nxt in reversed(neighbours[here]):
            if not visited >> nxt & 1:
                moved = True
                stack.append((nxt, visited | 1 << nxt, code, (*route, nxt)))
        if not moved and fate == "escaped" and node in (-1, here):
            return route
    return None


def random_routes(
    board: Board,
    layout: Layout,
    hero: HeroProfile,
    defeated: int,
    walks: int,
    seed: int = 0,
    table: EntryTable | None = None,
    found: dict[tuple[str, int], tuple[int, ...]] | None = None,
) -> dict[tuple[str, int], tuple[int, ...]]:
    """Outcomes met by ``walks`` random routes (a seeded generator: the same routes every run).

    A depth-first walk goes deep into one corner of a large open dungeon and stays there; random
    routes end all over it, often boxed in - the escapes a depth-first walk reaches last.
    """
    import random

    found = {} if found is None else found
    if board.escape_at_entry:
        found.setdefault(("escaped", -1), ())
        return found
    rows = (table or EntryTable(board, hero)).layout_rows(layout, defeated)
    neighbours = board.neighbours
    rng = random.Random(seed)
    for _ in range(walks):
        node, visited, state, route = board.start, 1 << board.start, 0, [board.start]
        while True:
            code = rows[node][state]
            if code < 0:
                found.setdefault(("escaped" if code == BY_EXIT else "defeated", node), tuple(route))
                break
            fresh = [n for n in neighbours[node] if not visited >> n & 1]
            if not fresh:
                found.setdefault(("escaped", node), tuple(route))
                break
            node = fresh[rng.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
            visited |= 1 << node
            state = code
            route.append(node)
    return found


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
    a way to defeat every hero stops at once. With ``enough``, a search also stops as soon as that
    many heroes are defeated (the caller only needs to know the value reaches it: the least over
    the rolls needs each later roll only up to the least so far).
    """

    __slots__ = ("at_least", "board", "deadline", "layout", "masks", "plain", "tables", "values", "voided")
    # ``voided[color][node]``: the row of ``node`` holding a defeated hero (filled when needed)

    def __init__(
        self,
        board: Board,
        layout: Layout,
        tables: EntryTables | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        self.board = board
        self.layout = layout
        self.tables = tables or EntryTables(board)
        self.deadline = deadline
        self.masks: dict[tuple[int, int], _Lazy] = {}
        self.values: dict[tuple[int, int, int, int], int] = {}  # exact values
        # values known only to reach this much (a search stopped there by ``enough``)
        self.at_least: dict[tuple[int, int, int, int], int] = {}
        self.plain: list[list[Row] | None] = [None, None, None]  # per colour, made when first needed
        self.voided: tuple[dict[int, Row], ...] = ({}, {}, {})

    def value(self, roll: tuple[int, int, int], defeated: int = 0, enough: int | None = None) -> int:
        """The wave value of ``roll``; with ``enough``, ``min(value, enough)``."""
        full = roll[0] + roll[1] + roll[2]
        need = full if enough is None else min(enough, full)
        if need <= 0:
            return max(need, 0)
        return self._best(defeated, roll[0], roll[1], roll[2], need)

    def defeat_nodes(self, color: int, mask: int) -> Iterator[int]:
        """Where a hero of colour index ``color`` can be defeated with defeated heroes in ``mask``."""
        return iter(self._nodes(color, mask))

    def _rows(self, color: int, mask: int) -> list[Row]:
        plain = self.plain[color]
        if plain is None:
            plain = self.plain[color] = self.tables.by_color[color].layout_rows(self.layout, 0)
        rows = list(plain)
        voided = self.voided[color]
        while mask:
            low = mask & -mask
            mask ^= low
            n = low.bit_length() - 1
            row = voided.get(n)
            if row is None:
                table = self.tables.by_color[color]
                row = voided[n] = table.row(n, self.layout.minions[n], n in self.layout.guardians, True)
            rows[n] = row
        return rows

    def _nodes(self, color: int, mask: int) -> _Lazy:
        key = (color, mask)
        found = self.masks.get(key)
        if found is None:
            if self.deadline is not None:
                self.deadline.check()
                self.deadline.check_size(len(self.masks))
            found = self.masks[key] = _Lazy(_walk(self.board, self._rows(color, mask), False, self.deadline))
        return found

    def _best(self, mask: int, b: int, p: int, r: int, need: int) -> int:
        """``min(value, need)`` of the state (``need`` from 1 to the heroes left). A search that
        reaches ``need`` stops there; one that ends below it found the exact value."""
        key = (mask, b, p, r)
        done = self.values.get(key)
        if done is not None:
            return done if done < need else need
        if self.at_least.get(key, 0) >= need:
            return need
        top = 0
        for color, left in ((0, b), (1, p), (2, r)):
            if not left:
                continue
            nb, np_, nr = (b - 1, p, r) if color == 0 else (b, p - 1, r) if color == 1 else (b, p, r - 1)
            for node in self._nodes(color, mask):
                value = 1 + (self._best(mask | (1 << node), nb, np_, nr, need - 1) if need > 1 else 0)
                if value > top:
                    top = value
                    if top == need:
                        if need == b + p + r:  # every hero: the exact value
                            self.values[key] = top
                        else:
                            self.at_least[key] = top
                        return top
        self.values[key] = top
        return top

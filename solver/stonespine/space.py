"""The placement space of one dungeon: which chambers are worth a figure, the placements worth
trying (tidy classes, up to the dungeon's symmetries) and their ranking.

Every placement engine reads it (the search, z3's and CP-SAT's counterexample-guided loops, the
batch screen, the year plan), so it has a module of its own that imports none of them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.solver.common import (
    Deadline,
)
from invasion_oracle.solver.stonespine.board import (
    Board,
    Layout,
    RecentByScenario,
    board_for,
    forget_recent_boards,
)
from invasion_oracle.solver.stonespine.dice import Roll, roll_distribution
from invasion_oracle.solver.stonespine.fast import EntryTables


@dataclass(frozen=True, slots=True)
class Ranked:
    layout: Layout
    value: Fraction | int
    worst_roll: Roll | None = None


@dataclass(frozen=True, slots=True)
class Space:
    """The placement space of one dungeon: which chambers are worth a figure, and its symmetries.

    Shared by every engine asking about the same scenario object (:func:`placement_space`): what
    it fills in as it is read (``_nodes``, the entry tables' rows) depends on the dungeon alone."""

    board: Board
    defeated: int
    rolls: tuple[Roll, ...]
    counts: tuple[int, ...]  # how many minions may be placed (SS-MINIONS)
    enterable: tuple[int, ...]
    idle: int | None  # a chamber no hero can enter (figures there stand for every such chamber)
    unreachable: tuple[int, ...]  # every chamber no hero can enter
    position: tuple[int, ...]  # search order of each node: enterable chambers first
    tables: EntryTables
    symmetries: tuple[tuple[int, ...], ...]  # chamber permutations other than the identity
    _nodes: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)

    def guardian_nodes(self) -> tuple[int, ...]:
        return self.enterable + (() if self.idle is None else (self.idle,))

    def spare(self, guardians: Sequence[int]) -> int | None:
        """Where minions that do nothing stand: a chamber no hero enters, else the guardian's own."""
        if self.idle is not None:
            return self.idle
        return min(guardians, key=self.position.__getitem__, default=None)

    def minion_nodes(self, guardians: Sequence[int]) -> tuple[int, ...]:
        """Chambers where a minion can change something, then one stand-in for all the others."""
        key = tuple(guardians)
        found = self._nodes.get(key)
        if found is None:
            useful = tuple(n for n in self.enterable if not self.minions_idle(n, n in guardians))
            spare = self.spare(guardians)
            if spare is not None and spare not in useful:
                useful = tuple(sorted((*useful, spare), key=self.position.__getitem__))
            found = self._nodes[key] = useful
        return found

    def minions_idle(self, node: int, guardian: bool) -> bool:
        """Entering ``node`` is the same with any number of minions there, for every hero."""
        top = max(self.counts, default=0)
        for table in self.tables.by_color:
            for ignored in (False, True):
                base = table.row(node, 0, guardian, ignored)
                if any(table.row(node, m, guardian, ignored) != base for m in range(1, top + 1)):
                    return False
        return True

    def canonical(self, layout: Layout) -> Layout:
        """The representative of ``layout``'s class (figures doing nothing moved to the stand-in,
        then the first image under the board's symmetries)."""
        best = self._tidy(layout)
        for perm in self.symmetries:
            moved = [0] * self.board.size
            for n, m in enumerate(layout.minions):
                moved[perm[n]] += m
            image = self._tidy(Layout(tuple(perm[g] for g in layout.guardians), tuple(moved)))
            if self.key(image) < self.key(best):
                best = image
        return best

    def is_first(self, layout: Layout) -> bool:
        """Whether a tidy ``layout`` comes first among its images under the symmetries (a symmetry
        keeps every chamber's numbers, so it maps a tidy placement to a tidy one)."""
        position = self.position
        figures = [n for n, m in enumerate(layout.minions) if m for _ in range(m)]
        guardians = tuple(sorted(position[g] for g in layout.guardians))
        minions = tuple(sorted(position[n] for n in figures))
        for perm in self.symmetries:
            theirs = tuple(sorted(position[perm[g]] for g in layout.guardians))
            if theirs > guardians:
                continue
            if theirs < guardians or tuple(sorted(position[perm[n]] for n in figures)) < minions:
                return False
        return True

    def _tidy(self, layout: Layout) -> Layout:
        entering = set(self.enterable)
        guardians = tuple(
            sorted(g if g in entering or self.idle is None else self.idle for g in layout.guardians)
        )
        keep = set(self.minion_nodes(guardians))
        spare = self.spare(guardians)
        counts = [0] * self.board.size
        for n, m in enumerate(layout.minions):
            if m:
                counts[n if n in keep or spare is None else spare] += m
        return Layout(guardians, tuple(counts))

    def key(self, layout: Layout) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Search order: guardians, then minions, by chamber position (like nested loops)."""
        minions = sorted(self.position[n] for n, m in enumerate(layout.minions) for _ in range(m))
        return (tuple(sorted(self.position[g] for g in layout.guardians)), tuple(minions))

    def classes(self, deadline: Deadline | None = None) -> Iterator[Layout]:
        """Every placement class once, in search order (its representative)."""
        board = self.board
        for guardians in itertools.combinations_with_replacement(
            self.guardian_nodes(), board.guardian_figures
        ):
            if self.symmetries and self._guardians_not_first(guardians):
                continue
            nodes = self.minion_nodes(guardians)
            for count in self.counts:
                for minions in itertools.combinations_with_replacement(nodes, count):
                    if deadline is not None:
                        deadline.check()
                    counts = [0] * board.size
                    for node in minions:
                        counts[node] += 1
                    layout = Layout(tuple(sorted(guardians)), tuple(counts))
                    if self.symmetries and not self.is_first(layout):
                        continue
                    yield layout

    def estimate(self) -> int:
        """How many placement classes there are (before symmetries merge any)."""
        total = 0
        for guardians in itertools.combinations_with_replacement(
            self.guardian_nodes(), self.board.guardian_figures
        ):
            nodes = len(self.minion_nodes(guardians))
            total += sum(math.comb(nodes + k - 1, k) for k in self.counts)
        return total

    def _guardians_not_first(self, guardians: tuple[int, ...]) -> bool:
        mine = tuple(self.position[g] for g in guardians)
        for perm in self.symmetries:
            image = tuple(sorted(self.position[perm[g]] for g in guardians))
            if image < mine:
                return True
        return False


# The engines of one question share the entry tables their searches fill in, not only the board.
_recent_spaces: RecentByScenario[Space] = RecentByScenario(8)


def placement_space(
    scenario: Scenario, player: int = 0, exact: bool = True, *, deadline: Deadline | None = None
) -> Space:
    """The placement space of ``player``'s dungeon in ``scenario`` (refused if not modelled exactly;
    ``deadline`` checked while the dungeon is compiled); the same space again for the same
    scenario object, among the last few asked for."""
    space = _recent_spaces.get(scenario, player, deadline, _make_space)
    if exact:
        _require_exact(space.board)
    return space


def forget_recent() -> None:
    """Drop the spaces and boards kept for recent scenarios (a benchmark timing cold runs)."""
    _recent_spaces.clear()
    forget_recent_boards()


def _make_space(scenario: Scenario, player: int, deadline: Deadline | None) -> Space:
    board, _, defeated = board_for(scenario, player, deadline)
    rolls = tuple(r for r, p in roll_distribution(scenario.data, board.year) if p > 0)
    enter = board.enterable()
    distance = _distances(board)
    # Search order: the chambers every hero passes first (the nearest to the entrance) first, where
    # a guardian or minions most often do the most; ties by chamber order.
    enterable = tuple(sorted(enter, key=lambda n: (distance[n], n)))
    unreachable = tuple(n for n in range(board.size) if n not in enter)
    position = [0] * board.size
    for i, n in enumerate((*enterable, *unreachable)):
        position[n] = i
    counts = (
        tuple(range(board.minions + 1))
        if scenario.rulings.is_("SS-MINIONS", "optional")
        else (board.minions,)
    )
    return Space(
        board=board,
        defeated=defeated,
        rolls=rolls,
        counts=counts,
        enterable=enterable,
        idle=unreachable[0] if unreachable else None,
        unreachable=unreachable,
        position=tuple(position),
        tables=EntryTables(board, batch=True),
        symmetries=symmetries(board, enterable),
    )


def _distances(board: Board) -> list[int]:
    """Connections from the first chamber to each chamber (breadth first; unreachable: the size)."""
    distance = [board.size] * board.size
    distance[board.start] = 0
    frontier = [board.start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in board.neighbours[node]:
                if distance[nxt] > distance[node] + 1:
                    distance[nxt] = distance[node] + 1
                    following.append(nxt)
        frontier = following
    return distance


def symmetries(
    board: Board, enterable: Sequence[int], cap: int = 48, steps: int = 20_000
) -> tuple[tuple[int, ...], ...]:
    """Permutations of the enterable chambers (others fixed) that keep the first chamber, the exit,
    every connection and every hero's numbers in each chamber: placements they map onto each other
    have the same value. At most ``cap``, looked for in at most ``steps`` steps (any subset of the
    symmetries keeps the search exact: it only merges fewer classes); the identity left out."""
    inside = set(enterable)

    def signature(n: int) -> tuple[Any, ...]:
        heroes = tuple((h.base[n], h.unit[n], h.minion_unit[n], h.cond[n]) for h in board.heroes)
        return (n == board.start, n == board.exit, len(board.neighbours[n]), heroes)

    groups: dict[tuple[Any, ...], list[int]] = {}
    for n in sorted(inside):
        groups.setdefault(signature(n), []).append(n)
    if all(len(group) == 1 for group in groups.values()):
        return ()
    same = {n: group for group in groups.values() for n in group}
    # Most constrained first: chambers alike in fewest others, then neighbours of those placed.
    nodes = sorted(inside, key=lambda n: (len(same[n]), n))
    found: list[tuple[int, ...]] = []
    mapping: dict[int, int] = {}
    used: set[int] = set()
    budget = [steps]

    def extend(i: int) -> None:
        budget[0] -= 1
        if len(found) > cap or budget[0] < 0:
            return
        if i == len(nodes):
            found.append(tuple(mapping.get(n, n) for n in range(board.size)))
            return
        n = nodes[i]
        for image in same[n]:
            if image in used:
                continue
            if any(
                (m in board.neighbours[n]) != (mi in board.neighbours[image]) for m, mi in mapping.items()
            ):
                continue
            mapping[n] = image
            used.add(image)
            extend(i + 1)
            del mapping[n]
            used.discard(image)

    extend(0)
    identity = tuple(range(board.size))
    return tuple(p for p in found if p != identity)[:cap]


def candidate_nodes(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Chambers worth a figure, plus one representative of those no hero can enter (if any)."""
    enter = board.enterable()
    unreachable = tuple(n for n in range(board.size) if n not in enter)
    return tuple(sorted(enter)) + unreachable[:1], unreachable


def layouts(board: Board, minions_choices: Sequence[int], nodes: Sequence[int]) -> Iterator[Layout]:
    """Every placement over ``nodes`` (no classes merged): guardians with repeats, minion multisets."""
    for guardians in itertools.combinations_with_replacement(nodes, board.guardian_figures):
        for count in minions_choices:
            for minions in itertools.combinations_with_replacement(nodes, count):
                counts = [0] * board.size
                for node in minions:
                    counts[node] += 1
                yield Layout(tuple(sorted(guardians)), tuple(counts))


def minion_counts(scenario: Scenario, board: Board) -> tuple[int, ...]:
    if scenario.rulings.is_("SS-MINIONS", "optional"):
        return tuple(range(board.minions + 1))
    return (board.minions,)


def _require_exact(board: Board) -> None:
    if board.limits:
        raise RulesError(
            "the placement search models one dungeon's heroes exactly except: "
            + "; ".join(board.limits)
            + ". Use --engine oracle for this dungeon (slow but exact)."
        )

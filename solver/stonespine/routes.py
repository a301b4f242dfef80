"""Query 1: where can one hero end up? Every outcome the player can steer it to, with a route.

A route is the list of chambers a hero enters. Because the player picks the chamber at every
fork, any simple path from the first chamber is a legal route as long as the hero is alive and
not escaping at each chamber it leaves (seed 000, "Step 2: Repel Heroes"). A route ends in

* ``defeated`` at a chamber: a live guardian there, or damage reaching the hero's health;
* ``escaped`` at a chamber: the year-1-3 exit chamber, or no new chamber to move to;
* ``escaped`` at the entrance when nothing connects to it (``SS-ENTRY-UNCONNECTED=escape``).

Two engines answer the same questions:

* :func:`enumerate_outcomes` - the exhaustive baseline: a depth-first walk over every route;
* :class:`RouteModel` - a z3 encoding of a simple path (visited flags, successor edges and
  Miller-Tucker-Zemlin order numbers) with the damage rules as linear arithmetic, asked one
  outcome at a time; "unsat" is a proof that no route reaches it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import z3

from model.stonespine.heroes import HeroColor
from solver.common import Deadline, z3_check
from solver.stonespine.board import Board, HeroProfile, Layout


class Fate(enum.StrEnum):
    DEFEATED = "defeated"
    ESCAPED = "escaped"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a route ends, how, and one route that gets there."""

    fate: Fate
    node: int | None  # None: escaped at the entrance without entering
    reason: str  # guardian / damage / exit / no-new-chamber / no-entry
    route: tuple[int, ...]
    damage: int  # damage taken by the end of the route

    def key(self) -> tuple[str, int]:
        return (self.fate.value, -1 if self.node is None else self.node)

    def describe(self, board: Board) -> str:
        where = "the entrance" if self.node is None else board.name(self.node)
        return f"{self.fate.value} at {where} ({self.reason})"


def _live_guardian(layout: Layout, defeated: int, node: int) -> bool:
    return node in layout.guardians and not (defeated >> node) & 1


def enumerate_outcomes(
    board: Board,
    layout: Layout,
    color: HeroColor,
    defeated: int = 0,
    deadline: Deadline | None = None,
) -> dict[tuple[str, int], Outcome]:
    """Every reachable outcome with the first route (in the oracle's move order) reaching it."""
    hero = board.hero(color)
    found: dict[tuple[str, int], Outcome] = {}
    if board.escape_at_entry:
        found[("escaped", -1)] = Outcome(Fate.ESCAPED, None, "no-entry", (), 0)
        return found
    deadline = deadline or Deadline()
    steps = [0]

    def record(outcome: Outcome) -> None:
        found.setdefault(outcome.key(), outcome)

    def walk(node: int, visited: int, damage: int, protection_used: bool, route: tuple[int, ...]) -> None:
        steps[0] += 1
        if steps[0] & 0x3FF == 0:
            deadline.check()
        ignored = bool((defeated >> node) & 1)
        if not ignored:
            if node in layout.guardians:
                record(Outcome(Fate.DEFEATED, node, "guardian", route, damage))
                return
            gained, protection_used = entry_damage(board, hero, layout, node, protection_used)
            damage += gained
            if damage >= hero.health:
                record(Outcome(Fate.DEFEATED, node, "damage", route, damage))
                return
        if board.exit == node and (not ignored or board.exit_through_defeated):
            record(Outcome(Fate.ESCAPED, node, "exit", route, damage))
            return
        moved = False
        for nxt in board.neighbours[node]:
            if not (visited >> nxt) & 1:
                moved = True
                walk(nxt, visited | (1 << nxt), damage, protection_used, (*route, nxt))
        if not moved:
            record(Outcome(Fate.ESCAPED, node, "no-new-chamber", route, damage))

    walk(board.start, 1 << board.start, 0, False, (board.start,))
    return found


def entry_damage(
    board: Board, hero: HeroProfile, layout: Layout, node: int, protection_used: bool
) -> tuple[int, bool]:
    """Damage on entering a chamber with no guardian and no defeated hero; and protection state."""
    minions = layout.minions[node]
    raw = hero.damage(node, minions)
    condition = hero.cond[node] or (hero.cond_minion and minions > 0)
    if hero.purple and not protection_used and condition and (board.purple_used_anyway or raw > 0):
        kept = 0 if board.purple_all_damage else minions * hero.minion_unit[node]
        return kept, True
    return raw, protection_used


def defeat_nodes(board: Board, layout: Layout, color: HeroColor, defeated: int) -> tuple[int, ...]:
    """Chambers where the hero can be defeated (the exhaustive engine), sorted."""
    outcomes = enumerate_outcomes(board, layout, color, defeated)
    return tuple(sorted(k[1] for k in outcomes if k[0] == "defeated"))


# -- the z3 encoding --------------------------------------------------------------------------


class PathEncoding:
    """One hero's route as z3 variables, with the rules as constraints.

    ``damage[c]`` (raw damage entering ``c``), ``live_guardian[c]`` and ``defeated[c]`` may be
    constants or z3 terms (the placement solver passes symbolic minions and guardians).
    """

    def __init__(
        self,
        board: Board,
        tag: str,
        health: Any,
        damage: list[Any],
        protected_damage: list[Any],
        condition: list[Any],
        live_guardian: list[Any],
        defeated: list[Any],
        purple: Any,
    ) -> None:
        n = board.size
        self.board = board
        self.visited = [z3.Bool(f"{tag}_v{c}") for c in range(n)]
        self.end = [z3.Bool(f"{tag}_e{c}") for c in range(n)]
        self.order = [z3.Int(f"{tag}_o{c}") for c in range(n)]
        self.edge = {(c, d): z3.Bool(f"{tag}_x{c}_{d}") for c in range(n) for d in board.neighbours[c]}
        self.constraints: list[Any] = []
        add = self.constraints.append
        s = board.start
        if board.escape_at_entry:  # the hero never enters: no route exists (escape is handled outside)
            add(z3.BoolVal(False))
        add(self.visited[s])
        add(self.order[s] == 0)
        add(z3.PbEq([(e, 1) for e in self.end], 1))
        incoming: dict[int, list[Any]] = {c: [] for c in range(n)}
        for (c, d), x in self.edge.items():
            incoming[d].append(x)
            add(z3.Implies(x, self.order[d] == self.order[c] + 1))
        for c in range(n):
            interior = z3.And(self.visited[c], z3.Not(self.end[c]))
            out = [self.edge[(c, d)] for d in board.neighbours[c]]
            add(z3.Implies(self.end[c], self.visited[c]))
            # A chamber the hero leaves has exactly one chosen exit edge; any other has none.
            if out:
                add(z3.Implies(interior, z3.PbEq([(x, 1) for x in out], 1)))
                add(z3.Implies(z3.Not(interior), z3.And([z3.Not(x) for x in out])))
            else:
                add(z3.Not(interior))
            # A visited chamber other than the first is entered by exactly one chosen edge.
            if c == s:
                add(z3.And([z3.Not(x) for x in incoming[c]]))
            elif incoming[c]:
                add(z3.Implies(self.visited[c], z3.PbEq([(x, 1) for x in incoming[c]], 1)))
                add(z3.Implies(z3.Not(self.visited[c]), z3.And([z3.Not(x) for x in incoming[c]])))
            else:
                add(z3.Not(self.visited[c]))
            add(self.order[c] >= 0)
            add(self.order[c] < n)
            add(z3.Implies(interior, z3.Not(live_guardian[c])))
        # Redundant but strong: a simple path from the first chamber numbers its chambers 0..k, so
        # the number visited is the end's number plus one. This kills detached cycles quickly.
        length = z3.Sum([z3.If(v, 1, 0) for v in self.visited])
        add(length == z3.Sum([z3.If(self.end[c], self.order[c], 0) for c in range(n)]) + 1)
        for c in range(n):
            add(z3.Implies(self.visited[c], self.order[c] < length))
        if board.exit is not None:
            e = board.exit
            escapes_here = z3.Or(z3.Not(defeated[e]), z3.BoolVal(board.exit_through_defeated))
            add(z3.Implies(escapes_here, z3.Not(z3.And(self.visited[e], z3.Not(self.end[e])))))
        # Effective damage: ignored chambers deal none; a purple hero's first condition chamber
        # (not ignored, no live guardian) deals only what SS-PURPLE-SCOPE keeps.
        self.effective: list[Any] = []
        for c in range(n):
            raw = z3.If(defeated[c], 0, damage[c])
            if not z3.is_false(purple):
                eligible = [
                    z3.And(
                        self.visited[d],
                        condition[d],
                        z3.Not(defeated[d]),
                        z3.Not(live_guardian[d]),
                        z3.BoolVal(True) if board.purple_used_anyway else damage[d] > 0,
                    )
                    for d in range(n)
                ]
                first = z3.And(
                    purple,
                    eligible[c],
                    *[z3.Implies(eligible[d], self.order[d] > self.order[c]) for d in range(n) if d != c],
                )
                raw = z3.If(first, z3.If(defeated[c], 0, protected_damage[c]), raw)
            self.effective.append(raw)
        self.before = z3.Sum(
            [z3.If(z3.And(self.visited[c], z3.Not(self.end[c])), self.effective[c], 0) for c in range(n)]
        )
        add(self.before < health)
        self.health = health
        self.live_guardian = live_guardian
        self.defeated = defeated

    def defeated_at(self, c: int) -> Any:
        return z3.And(
            self.end[c], z3.Or(self.live_guardian[c], self.before + self.effective[c] >= self.health)
        )

    def escaped_at(self, c: int) -> Any:
        board = self.board
        alive = z3.And(
            self.end[c], z3.Not(self.live_guardian[c]), self.before + self.effective[c] < self.health
        )
        stuck = (
            z3.And([self.visited[d] for d in board.neighbours[c]])
            if board.neighbours[c]
            else z3.BoolVal(True)
        )
        if board.exit == c:
            by_exit = z3.Or(z3.Not(self.defeated[c]), z3.BoolVal(board.exit_through_defeated))
            return z3.And(alive, z3.Or(by_exit, stuck))
        return z3.And(alive, stuck)

    def defeated_anywhere(self) -> Any:
        return z3.Or([self.defeated_at(c) for c in range(self.board.size)])

    def route(self, model: z3.ModelRef) -> tuple[int, ...]:
        nodes = [
            c
            for c in range(self.board.size)
            if z3.is_true(model.eval(self.visited[c], model_completion=True))
        ]
        return tuple(sorted(nodes, key=lambda c: model.eval(self.order[c], model_completion=True).as_long()))


def _path_encoding(board: Board, layout: Layout, hero: HeroProfile, defeated: int, tag: str) -> PathEncoding:
    n = board.size
    damage = [z3.IntVal(hero.damage(c, layout.minions[c])) for c in range(n)]
    kept = [
        z3.IntVal(0 if board.purple_all_damage else layout.minions[c] * hero.minion_unit[c]) for c in range(n)
    ]
    condition = [z3.BoolVal(hero.cond[c] or (hero.cond_minion and layout.minions[c] > 0)) for c in range(n)]
    live = [z3.BoolVal(_live_guardian(layout, defeated, c)) for c in range(n)]
    gone = [z3.BoolVal(bool((defeated >> c) & 1)) for c in range(n)]
    return PathEncoding(
        board, tag, z3.IntVal(hero.health), damage, kept, condition, live, gone, z3.BoolVal(hero.purple)
    )


class RouteModel:
    """z3 answers for one hero on a fixed placement: is an outcome reachable, and by which route."""

    def __init__(self, board: Board, layout: Layout, color: HeroColor, defeated: int = 0) -> None:
        self.board = board
        self.hero = board.hero(color)
        self.path = _path_encoding(board, layout, self.hero, defeated, "h")
        self.solver = z3.Solver()
        self.solver.add(*self.path.constraints)
        self.layout = layout

    def witness(self, condition: Any, deadline: Deadline) -> tuple[int, ...] | None:
        """A route satisfying ``condition``, or None when z3 proves there is none."""
        self.solver.push()
        self.solver.add(condition)
        try:
            if z3_check(self.solver, deadline) == z3.unsat:
                return None
            return self.path.route(self.solver.model())
        finally:
            self.solver.pop()

    def outcomes(self, deadline: Deadline | None = None) -> dict[tuple[str, int], Outcome]:
        """Every reachable outcome, each with a z3 witness route (then re-walked for details)."""
        deadline = deadline or Deadline()
        board = self.board
        if board.escape_at_entry:
            return {("escaped", -1): Outcome(Fate.ESCAPED, None, "no-entry", (), 0)}
        found: dict[tuple[str, int], Outcome] = {}
        for c in range(board.size):
            for fate, condition in (
                (Fate.DEFEATED, self.path.defeated_at(c)),
                (Fate.ESCAPED, self.path.escaped_at(c)),
            ):
                route = self.witness(condition, deadline)
                if route is not None:
                    found[(fate.value, c)] = walk_route(
                        board, self.layout, self.hero.color, route, self.defeated_mask()
                    )
        return found

    def defeated_mask(self) -> int:
        mask = 0
        for c, term in enumerate(self.path.defeated):
            if z3.is_true(term):
                mask |= 1 << c
        return mask


def walk_route(
    board: Board, layout: Layout, color: HeroColor, route: tuple[int, ...], defeated: int = 0
) -> Outcome:
    """Follow ``route`` under the compiled rules; raises ValueError if the route is not legal."""
    hero = board.hero(color)
    damage, protection_used = 0, False
    if not route or route[0] != board.start:
        raise ValueError("a route starts in the first chamber")
    for i, node in enumerate(route):
        if i and node not in board.neighbours[route[i - 1]]:
            raise ValueError(f"{board.name(node)} is not connected to {board.name(route[i - 1])}")
        if node in route[:i]:
            raise ValueError(f"the route enters {board.name(node)} twice")
        last = i == len(route) - 1
        ignored = bool((defeated >> node) & 1)
        if not ignored:
            if node in layout.guardians:
                if not last:
                    raise ValueError(f"the hero is defeated by the guardian in {board.name(node)}")
                return Outcome(Fate.DEFEATED, node, "guardian", route, damage)
            gained, protection_used = entry_damage(board, hero, layout, node, protection_used)
            damage += gained
            if damage >= hero.health:
                if not last:
                    raise ValueError(f"the hero is defeated in {board.name(node)}")
                return Outcome(Fate.DEFEATED, node, "damage", route, damage)
        if board.exit == node and (not ignored or board.exit_through_defeated):
            if not last:
                raise ValueError(f"the hero escapes by the exit in {board.name(node)}")
            return Outcome(Fate.ESCAPED, node, "exit", route, damage)
        if last:
            if any(n not in route for n in board.neighbours[node]):
                raise ValueError(f"the route stops in {board.name(node)} with a new chamber open")
            return Outcome(Fate.ESCAPED, node, "no-new-chamber", route, damage)
    raise AssertionError("unreachable")  # pragma: no cover

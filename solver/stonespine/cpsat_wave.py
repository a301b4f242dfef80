"""The wave encoding of :mod:`invasion_oracle.solver.stonespine.waves` for OR-Tools CP-SAT.

The same question as :class:`~invasion_oracle.solver.stonespine.waves.WaveEncoding` (``slots``
heroes in sequence, each defeated somewhere, each slot's defeated chambers being the earlier
slots' ends, colours within the wave's multiset), written over the same route rules
(:func:`~invasion_oracle.solver.stonespine.rules.enter`, :func:`~invasion_oracle.solver.stonespine.rules.chamber_facts`)
through :class:`CpLogic`, a :class:`~invasion_oracle.solver.stonespine.rules.Logic` on CP-SAT
literals and bounded linear expressions. Two things differ in form, not in meaning:

* a route's shape is CP-SAT's circuit constraint instead of z3's Miller-Tucker-Zemlin order
  numbers: the live chambers, an arc per connecting doorway (none into the first chamber), a
  self-loop for each chamber not entered, and an arc from the route's last chamber back to the
  first (the first chamber's self-loop when it is the last, every other chamber then left out);
* every integer has a finite domain: the damage a hero carries into a chamber is at most what
  every live chamber can deal added up (along a route the damage carried in is the sum dealt by
  the chambers before it), and each auxiliary integer is bounded by the bounds of the terms it
  equals, computed exactly (interval arithmetic), so no bound cuts off a z3 solution.

OR-Tools is imported only when an encoding is built (the import costs about a second of CPU).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from invasion_oracle.solver.common import Deadline
from invasion_oracle.solver.stonespine.board import Board
from invasion_oracle.solver.stonespine.rules import (
    ChamberFacts,
    Entered,
    HeroState,
    HeroTerms,
    chamber_facts,
    enter,
    hero_terms,
    route_rules,
    start_state,
    stuck,
)


@dataclass(frozen=True, slots=True, eq=False)
class Num:
    """A CP-SAT linear expression with exact bounds (constants stay Python ints)."""

    expr: Any
    lo: int
    hi: int


Int = int | Num
# (colour index, chamber) -> an integer or boolean term added by a search (tokens)
Addition = Callable[[int, int], Any]


def _lo(a: Int) -> int:
    return a if isinstance(a, int) else a.lo


def _hi(a: Int) -> int:
    return a if isinstance(a, int) else a.hi


def _expr(a: Int) -> Any:
    return a if isinstance(a, int) else a.expr


class CpLogic:
    """The route rules on CP-SAT: booleans are Python bools or literals, numbers are Python ints
    or :class:`Num`. Known values fold in Python; every derived boolean or integer is a new
    variable tied to its definition both ways (reified), so it is a function of its inputs."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self._bools: dict[tuple[Any, ...], Any] = {}
        self._keep: list[Any] = []  # the Num objects cached by id stay alive

    def new_bool(self, name: str = "") -> Any:
        return self.model.new_bool_var(name)

    def new_int(self, lo: int, hi: int, name: str = "") -> Num:
        return Num(self.model.new_int_var(lo, hi, name), lo, hi)

    def bool_(self, value: bool) -> Any:
        return value

    def int_(self, value: int) -> Any:
        return value

    def all_(self, *terms: Any) -> Any:
        kept: dict[int, Any] = {}
        for t in terms:
            if t is False:
                return False
            if t is not True:
                kept.setdefault(t.index, t)
        if not kept:
            return True
        if any(-1 - i in kept for i in kept):
            return False
        if len(kept) == 1:
            return next(iter(kept.values()))
        key = ("and", *sorted(kept))
        found = self._bools.get(key)
        if found is None:
            found = self.new_bool()
            lits = list(kept.values())
            self.model.add_bool_and(lits).only_enforce_if(found)
            self.model.add_bool_or([~t for t in lits]).only_enforce_if(~found)
            self._bools[key] = found
        return found

    def any_(self, *terms: Any) -> Any:
        return self.not_(self.all_(*(self.not_(t) for t in terms)))

    def not_(self, term: Any) -> Any:
        return (not term) if isinstance(term, bool) else ~term

    def if_(self, test: Any, then: Int, other: Int) -> Int:
        if isinstance(test, bool):
            return then if test else other
        if isinstance(then, int) and isinstance(other, int) and then == other:
            return then
        if then is other:
            return then
        v = self.new_int(min(_lo(then), _lo(other)), max(_hi(then), _hi(other)))
        self.model.add(v.expr == _expr(then)).only_enforce_if(test)
        self.model.add(v.expr == _expr(other)).only_enforce_if(~test)
        return v

    def add(self, a: Int, b: Int) -> Int:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if isinstance(b, int) and b == 0:
            return a
        if isinstance(a, int) and a == 0:
            return b
        return Num(_expr(a) + _expr(b), _lo(a) + _lo(b), _hi(a) + _hi(b))

    def scale(self, a: Int, k: int) -> Int:
        if isinstance(a, int):
            return a * k
        if k == 0:
            return 0
        if k == 1:
            return a
        ends = (a.lo * k, a.hi * k)
        return Num(a.expr * k, min(ends), max(ends))

    def at_least(self, a: Int, b: Int) -> Any:
        if isinstance(a, int) and isinstance(b, int):
            return a >= b
        lo, hi = _lo(a) - _hi(b), _hi(a) - _lo(b)
        if lo >= 0:
            return True
        if hi < 0:
            return False
        key = ("ge", id(a), id(b)) if not isinstance(b, int) else ("ge", id(a), b)
        found = self._bools.get(key)
        if found is None:
            self._keep += [a, b]
            found = self.new_bool()
            self.model.add(_expr(a) >= _expr(b)).only_enforce_if(found)
            self.model.add(_expr(a) < _expr(b)).only_enforce_if(~found)
            self._bools[key] = found
        return found

    def positive(self, a: Int) -> Any:
        return self.at_least(a, 1)

    def same(self, a: Any, b: Any) -> bool:
        if isinstance(a, bool | int) and isinstance(b, bool | int):
            return type(a) is type(b) and a == b
        if isinstance(a, bool) or isinstance(b, bool):
            return False
        if isinstance(a, Num) or isinstance(b, Num):
            return a is b
        return bool(a.index == b.index)

    def pick_bool(self, col: dict[int, Any], values: dict[int, Any]) -> Any:
        """The value for the slot's colour (``col[k]``: the slot has colour ``k``, exactly one)."""
        first = values[min(values)]
        if all(self.same(first, v) for v in values.values()):
            return first
        chosen = self.new_bool()
        for k, v in values.items():
            self.model.add(chosen == int(v) if isinstance(v, bool) else chosen == v).only_enforce_if(col[k])
        return chosen

    def pick_int(self, col: dict[int, Any], values: dict[int, Int]) -> Int:
        first = values[min(values)]
        if all(self.same(first, v) for v in values.values()):
            return first
        chosen = self.new_int(min(_lo(v) for v in values.values()), max(_hi(v) for v in values.values()))
        for k, v in values.items():
            self.model.add(chosen.expr == _expr(v)).only_enforce_if(col[k])
        return chosen

    def require(self, *clause: Any) -> None:
        """At least one of ``clause`` holds (constants folded; an empty clause makes the model
        infeasible)."""
        kept = []
        for t in clause:
            if t is True:
                return
            if t is not False:
                kept.append(t)
        self.model.add_bool_or(kept)


class CpPath:
    """One hero's route on CP-SAT: the circuit-shaped simple path and the hero state along it
    (the CP-SAT form of :class:`~invasion_oracle.solver.stonespine.routes.PathEncoding`)."""

    def __init__(
        self,
        logic: CpLogic,
        board: Board,
        hero: HeroTerms[Any, Any],
        facts: list[ChamberFacts[Any, Any]],
        deadline: Deadline,
    ) -> None:
        L = logic
        model = L.model
        n = board.size
        self.board = board
        self.logic = logic
        live = sorted(board.enterable())
        self.live = live
        alive = set(live)
        s = board.start
        self.visited: list[Any] = [L.new_bool() if c in alive and c != s else False for c in range(n)]
        if s in alive:
            self.visited[s] = True
        self.end: list[Any] = [L.new_bool() if c in alive else False for c in range(n)]
        self.step = {(c, d): L.new_bool() for c in live for d in board.neighbours[c] if d in alive and d != s}
        if not live:  # the hero never enters: no route exists (escape is handled outside)
            L.require()
            self.steps: list[Entered[Any, Any] | None] = [None] * n
            self.stuck: list[Any] = [False] * n
            return
        where = {c: i for i, c in enumerate(live)}
        arcs = [(where[c], where[d], x) for (c, d), x in self.step.items()]
        for c in live:
            if c == s:
                arcs.append((where[s], where[s], self.end[s]))  # the route is the first chamber alone
            else:
                arcs.append((where[c], where[c], ~self.visited[c]))
                arcs.append((where[c], where[s], self.end[c]))  # back from the last chamber
                if self.end[s] is not False:
                    model.add_implication(self.visited[c], ~self.end[s])
                model.add_implication(self.end[c], self.visited[c])
        model.add_circuit(arcs)
        model.add_exactly_one([self.end[c] for c in live])
        rules = route_rules(board)
        # Along a route the damage carried in is what the chambers before it dealt: at most every
        # live chamber's most, added up.
        most = sum(max(0, _hi(facts[c].damage), _hi(facts[c].protected_damage)) for c in live)
        first = start_state(L)
        damage_in: list[Any] = [L.new_int(0, most) if c != s else first.damage for c in range(n)]
        used_in: list[Any] = [L.new_bool() if c != s else first.protection_used for c in range(n)]
        self.steps = [None] * n
        for c in live:
            deadline.check()
            self.steps[c] = enter(L, rules, hero, facts[c], HeroState(damage_in[c], used_in[c]))
        self.stuck = [stuck(L, [self.visited[d] for d in board.neighbours[c]]) for c in range(n)]
        # The hero's state entering a chamber is the state leaving the chamber before it.
        for (c, d), x in self.step.items():
            after = self._step(c).after
            model.add(damage_in[d].expr == _expr(after.damage)).only_enforce_if(x)
            used = after.protection_used
            model.add(used_in[d] == (int(used) if isinstance(used, bool) else used)).only_enforce_if(x)
        for c in live:
            step = self._step(c)
            # The hero leaves a chamber only alive and not escaping; the route ends where it stops.
            L.require(L.not_(self.visited[c]), self.end[c], step.moves_on)
            L.require(L.not_(self.end[c]), self.defeated_here(c), self.escaped_here(c))

    def _step(self, c: int) -> Entered[Any, Any]:
        step = self.steps[c]
        assert step is not None, "only live chambers are entered"
        return step

    def defeated_here(self, c: int) -> Any:
        if self.steps[c] is None:
            return False
        step = self._step(c)
        return self.logic.any_(step.by_guardian, step.by_damage)

    def escaped_here(self, c: int) -> Any:
        if self.steps[c] is None:
            return False
        step = self._step(c)
        return self.logic.any_(step.by_exit, self.logic.all_(step.moves_on, self.stuck[c]))

    def route(self, solver: Any) -> tuple[int, ...]:
        """The chambers of the route in order, read from a solution."""
        if not self.live:
            return ()
        node = self.board.start
        route = [node]
        while True:
            nxt = [d for (c, d), x in self.step.items() if c == node and solver.boolean_value(x)]
            if not nxt:
                return tuple(route)
            node = nxt[0]
            route.append(node)


class CpWave:
    """``slots`` heroes in sequence on CP-SAT, each defeated somewhere (the CP-SAT form of
    :class:`~invasion_oracle.solver.stonespine.waves.WaveEncoding`; the same arguments, with
    ``minions[c]`` an int or a :class:`Num` and ``added_*`` giving CP-SAT terms)."""

    def __init__(
        self,
        model: Any,
        board: Board,
        slots: int,
        counts: tuple[int, int, int],
        defeated: int,
        *,
        minions: Sequence[Int] | None = None,
        guardians: Sequence[bool] | None = None,
        added_damage: Addition | None = None,
        added_condition: Addition | None = None,
        deadline: Deadline | None = None,
        logic: CpLogic | None = None,
    ) -> None:
        deadline = deadline or Deadline()
        L = logic or CpLogic(model)
        self.logic = L
        n = board.size
        minions = minions if minions is not None else [0] * n
        guardians = guardians if guardians is not None else [False] * n
        colours = [k for k in range(3) if counts[k] > 0]
        self.colours = colours
        self.color: list[dict[int, Any]] = []
        for _ in range(slots):
            col = {k: L.new_bool() for k in colours}
            model.add_exactly_one(list(col.values()))
            self.color.append(col)
        for k in colours:
            model.add(sum(col[k] for col in self.color) <= counts[k])
        self.paths: list[CpPath] = []
        added = {
            (k, c): (
                added_damage(k, c) if added_damage else None,
                added_condition(k, c) if added_condition else None,
            )
            for k in colours
            for c in range(n)
        }
        for i in range(slots):
            col = self.color[i]
            gone = [L.any_(bool(defeated >> c & 1), *[p.end[c] for p in self.paths]) for c in range(n)]
            per_colour = {
                k: [
                    chamber_facts(
                        L,
                        board,
                        board.heroes[k],
                        c,
                        minions=minions[c],
                        guardian=guardians[c],
                        ignored=gone[c],
                        added_damage=added[(k, c)][0],
                        added_condition=added[(k, c)][1],
                    )
                    for c in range(n)
                ]
                for k in colours
            }
            terms = {k: hero_terms(L, board.heroes[k]) for k in colours}
            facts = [_pick_facts(L, col, {k: per_colour[k][c] for k in colours}) for c in range(n)]
            hero = HeroTerms(
                L.pick_int(col, {k: terms[k].health for k in colours}),
                L.pick_bool(col, {k: terms[k].purple for k in colours}),
            )
            path = CpPath(L, board, hero, facts, deadline)
            L.require(*[L.all_(path.end[c], path.defeated_here(c)) for c in path.live])
            self.paths.append(path)

    def colors(self, solver: Any) -> list[int]:
        """Each slot's colour index in a solution."""
        return [next(k for k, b in col.items() if solver.boolean_value(b)) for col in self.color]


def _pick_facts(
    L: CpLogic, col: dict[int, Any], by_colour: dict[int, ChamberFacts[Any, Any]]
) -> ChamberFacts[Any, Any]:
    return ChamberFacts(
        ignored=L.pick_bool(col, {k: f.ignored for k, f in by_colour.items()}),
        guardian=L.pick_bool(col, {k: f.guardian for k, f in by_colour.items()}),
        damage=L.pick_int(col, {k: f.damage for k, f in by_colour.items()}),
        protected_damage=L.pick_int(col, {k: f.protected_damage for k, f in by_colour.items()}),
        condition=L.pick_bool(col, {k: f.condition for k, f in by_colour.items()}),
        exit=L.pick_bool(col, {k: f.exit for k, f in by_colour.items()}),
    )

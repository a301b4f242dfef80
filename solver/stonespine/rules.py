"""The route rules of the compiled board, written once for every engine.

Seed 000, "IV. Invasion Phase, Step 2: Repel Heroes" (and "Clarifications: Cleric, Crusader,
Paladin, Templar"): a hero entering a chamber

1. ignores it when it holds a defeated hero (no guardian, no damage, no ability);
2. is defeated at once by a guardian standing there;
3. otherwise takes the chamber's damage (minions, monsters, traps, abilities), except that a purple
   hero takes none (or only what ``SS-PURPLE-SCOPE`` keeps) in the first chamber meeting its
   condition (``SS-PURPLE-FIRST``: only if that chamber deals damage); it is defeated when its
   total damage reaches its health;
4. if alive in the years 1-3 exit chamber, escapes (``SS-EXIT-DEFEATED``: also through an ignored
   one); otherwise moves on to a new connected chamber, and escapes when there is none.

:func:`enter` is that rule (1-4) and :func:`chamber_facts` says what a chamber holds for a hero;
:func:`stuck` is the escape when no new chamber is open. They are written over a small
:class:`Logic` so the same text serves every engine:

* :data:`PY` evaluates them on Python booleans and integers: the reference walker
  (:func:`invasion_oracle.solver.stonespine.routes.enumerate_outcomes`) calls them at every step;
* :class:`VectorLogic` evaluates them for every state a hero can carry at once: the fast walker
  (:mod:`invasion_oracle.solver.stonespine.fast`) tabulates them that way (:class:`~invasion_oracle.solver.stonespine.fast.EntryTable`);
* :data:`Z3` builds z3 terms from them: the path encoding of routes, waves and placements
  (:class:`invasion_oracle.solver.stonespine.routes.PathEncoding`) and the escape search's route conditions.

>>> from invasion_oracle.solver.stonespine.rules import PY, ChamberFacts, HeroState, HeroTerms, RouteRules, enter
>>> rules = RouteRules(purple_used_anyway=True, exit_through_defeated=True)
>>> facts = ChamberFacts(ignored=False, guardian=False, damage=3, protected_damage=0,
...                      condition=False, exit=False)
>>> step = enter(PY, rules, HeroTerms(health=6, purple=False), facts, HeroState(4, False))
>>> (step.by_guardian, step.by_damage, step.by_exit, step.moves_on, step.after.damage)
(False, True, False, False, 7)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import z3

if TYPE_CHECKING:
    from invasion_oracle.solver.stonespine.board import Board, HeroProfile

B = TypeVar("B")  # a boolean: bool or a z3 Bool term
N = TypeVar("N")  # a number: int or a z3 Int term


class Logic(Protocol[B, N]):
    """The operations the rules are written in."""

    def bool_(self, value: bool) -> B: ...
    def int_(self, value: int) -> N: ...
    def all_(self, *terms: B) -> B: ...
    def any_(self, *terms: B) -> B: ...
    def not_(self, term: B) -> B: ...
    def if_(self, test: B, then: N, other: N) -> N: ...
    def add(self, a: N, b: N) -> N: ...
    def scale(self, a: N, k: int) -> N: ...
    def at_least(self, a: N, b: N) -> B: ...
    def positive(self, a: N) -> B: ...


class PythonLogic:
    """The rules on Python values: a step of a concrete walk."""

    def bool_(self, value: bool) -> bool:
        return value

    def int_(self, value: int) -> int:
        return value

    def all_(self, *terms: bool) -> bool:
        return all(terms)

    def any_(self, *terms: bool) -> bool:
        return any(terms)

    def not_(self, term: bool) -> bool:
        return not term

    def if_(self, test: bool, then: int, other: int) -> int:
        return then if test else other

    def add(self, a: int, b: int) -> int:
        return a + b

    def scale(self, a: int, k: int) -> int:
        return a * k

    def at_least(self, a: int, b: int) -> bool:
        return a >= b

    def positive(self, a: int) -> bool:
        return a > 0


class Z3Logic:
    """The rules as z3 terms. Known values stay Python booleans and integers and are folded in
    Python, so the fixed parts of a board add nothing to an encoding (and cost no z3 calls)."""

    def bool_(self, value: bool) -> Any:
        return value

    def int_(self, value: int) -> Any:
        return value

    def all_(self, *terms: Any) -> Any:
        kept = []
        for term in terms:
            if term is False:
                return False
            if term is not True:
                kept.append(term)
        return True if not kept else kept[0] if len(kept) == 1 else z3.And(kept)

    def any_(self, *terms: Any) -> Any:
        kept = []
        for term in terms:
            if term is True:
                return True
            if term is not False:
                kept.append(term)
        return False if not kept else kept[0] if len(kept) == 1 else z3.Or(kept)

    def not_(self, term: Any) -> Any:
        return (not term) if isinstance(term, bool) else z3.Not(term)

    def if_(self, test: Any, then: Any, other: Any) -> Any:
        if isinstance(test, bool):
            return then if test else other
        if isinstance(then, int) and isinstance(other, int) and then == other:
            return then
        return z3.If(test, then, other)

    def add(self, a: Any, b: Any) -> Any:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if isinstance(b, int) and b == 0:
            return a
        if isinstance(a, int) and a == 0:
            return b
        return a + b

    def scale(self, a: Any, k: int) -> Any:
        if isinstance(a, int):
            return a * k
        return 0 if k == 0 else a if k == 1 else a * k

    def at_least(self, a: Any, b: Any) -> Any:
        if isinstance(a, int) and isinstance(b, int):
            return a >= b
        return a >= b

    def positive(self, a: Any) -> Any:
        return a > 0


def term(value: Any) -> Any:
    """A value from :data:`Z3` as a z3 term (known values become z3 constants)."""
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    return value


class VectorLogic:
    """The rules on many hero states at once: every value is a tuple with one entry per state.

    The fast walker's table (:class:`invasion_oracle.solver.stonespine.fast.EntryTable`) evaluates
    :func:`enter` once per chamber this way, for every damage a hero can carry in.
    """

    def __init__(self, size: int) -> None:
        self.size = size

    def bool_(self, value: bool) -> tuple[bool, ...]:
        return (value,) * self.size

    def int_(self, value: int) -> tuple[int, ...]:
        return (value,) * self.size

    def all_(self, *terms: tuple[bool, ...]) -> tuple[bool, ...]:
        if not terms:
            return self.bool_(True)
        out = terms[0]
        for term in terms[1:]:
            out = tuple(map(operator.and_, out, term))
        return out

    def any_(self, *terms: tuple[bool, ...]) -> tuple[bool, ...]:
        if not terms:
            return self.bool_(False)
        out = terms[0]
        for term in terms[1:]:
            out = tuple(map(operator.or_, out, term))
        return out

    def not_(self, term: tuple[bool, ...]) -> tuple[bool, ...]:
        return tuple(map(operator.not_, term))

    def if_(self, test: tuple[bool, ...], then: tuple[int, ...], other: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(a if t else b for t, a, b in zip(test, then, other, strict=True))

    def add(self, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(map(operator.add, a, b))

    def scale(self, a: tuple[int, ...], k: int) -> tuple[int, ...]:
        return tuple(x * k for x in a)

    def at_least(self, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[bool, ...]:
        return tuple(map(operator.ge, a, b))

    def positive(self, a: tuple[int, ...]) -> tuple[bool, ...]:
        return tuple(x > 0 for x in a)


PY = PythonLogic()
Z3 = Z3Logic()


@dataclass(frozen=True, slots=True)
class RouteRules:
    """The readings the route rules depend on (always known, never symbolic)."""

    purple_used_anyway: bool  # SS-PURPLE-FIRST=used-anyway
    exit_through_defeated: bool  # SS-EXIT-DEFEATED=escapes


@dataclass(frozen=True, slots=True)
class HeroTerms(Generic[B, N]):
    """The hero walking: its health and whether it has a purple first-time protection."""

    health: N
    purple: B


@dataclass(frozen=True, slots=True)
class ChamberFacts(Generic[B, N]):
    """What one chamber holds for one hero."""

    ignored: B  # a defeated hero lies there
    guardian: B  # a guardian figure stands there
    damage: N  # the damage it deals (no protection)
    protected_damage: N  # what a purple hero still takes there when protected (SS-PURPLE-SCOPE)
    condition: B  # the purple hero's condition is met there
    exit: B  # the years 1-3 exit chamber


@dataclass(frozen=True, slots=True)
class HeroState(Generic[B, N]):
    """What a walking hero carries from chamber to chamber."""

    damage: N
    protection_used: B


@dataclass(frozen=True, slots=True)
class Entered(Generic[B, N]):
    """What entering one chamber does: at most one of the first four holds."""

    by_guardian: B  # defeated by the guardian
    by_damage: B  # defeated by damage
    by_exit: B  # escapes by the years 1-3 exit
    moves_on: B  # alive, and goes on to a new chamber (or escapes if none is open: see stuck)
    after: HeroState[B, N]


def route_rules(board: Board) -> RouteRules:
    return RouteRules(board.purple_used_anyway, board.exit_through_defeated)


def hero_terms(logic: Logic[B, N], hero: HeroProfile) -> HeroTerms[B, N]:
    return HeroTerms(logic.int_(hero.health), logic.bool_(hero.purple))


def chamber_facts(
    logic: Logic[B, N],
    board: Board,
    hero: HeroProfile,
    node: int,
    *,
    minions: N,
    guardian: B,
    ignored: B,
    added_damage: N | None = None,
    added_condition: B | None = None,
) -> ChamberFacts[B, N]:
    """What ``node`` holds for ``hero`` with ``minions`` minions and a guardian or not there.

    Damage is ``base + minions * unit``, plus ``jump`` once there is a minion (all read from the
    oracle's own damage function when the board was compiled), plus ``added_damage`` for searches
    that add elements. Under ``SS-PURPLE-SCOPE=element-damage`` a protected purple hero still takes
    the minions' part.
    """
    damage = logic.add(logic.int_(hero.base[node]), logic.scale(minions, hero.unit[node]))
    if hero.jump and hero.jump[node]:
        damage = logic.add(
            damage, logic.if_(logic.positive(minions), logic.int_(hero.jump[node]), logic.int_(0))
        )
    if added_damage is not None:
        damage = logic.add(damage, added_damage)
    kept = logic.int_(0) if board.purple_all_damage else logic.scale(minions, hero.minion_unit[node])
    condition = logic.any_(
        logic.bool_(hero.cond[node]),
        logic.all_(logic.bool_(hero.cond_minion[node]), logic.positive(minions)),
        *(() if added_condition is None else (added_condition,)),
    )
    return ChamberFacts(
        ignored=ignored,
        guardian=guardian,
        damage=damage,
        protected_damage=kept,
        condition=condition,
        exit=logic.bool_(board.exit == node),
    )


def enter(
    logic: Logic[B, N],
    rules: RouteRules,
    hero: HeroTerms[B, N],
    facts: ChamberFacts[B, N],
    state: HeroState[B, N],
) -> Entered[B, N]:
    """The hero enters the chamber described by ``facts`` carrying ``state`` (rules 1-4 above)."""
    L = logic
    active = L.not_(facts.ignored)
    by_guardian = L.all_(active, facts.guardian)
    resolves = L.all_(active, L.not_(facts.guardian))  # damage and abilities resolve here
    met = facts.condition if rules.purple_used_anyway else L.all_(facts.condition, L.positive(facts.damage))
    protected = L.all_(hero.purple, resolves, L.not_(state.protection_used), met)
    dealt = L.if_(resolves, L.if_(protected, facts.protected_damage, facts.damage), L.int_(0))
    total = L.add(state.damage, dealt)
    by_damage = L.all_(resolves, L.at_least(total, hero.health))
    alive = L.not_(L.any_(by_guardian, by_damage))
    exit_here = facts.exit if rules.exit_through_defeated else L.all_(facts.exit, active)
    return Entered(
        by_guardian=by_guardian,
        by_damage=by_damage,
        by_exit=L.all_(alive, exit_here),
        moves_on=L.all_(alive, L.not_(exit_here)),
        after=HeroState(total, L.any_(state.protection_used, protected)),
    )


def stuck(logic: Logic[B, N], neighbours_visited: Sequence[B]) -> B:
    """A hero that moves on escapes when every connected chamber has been visited (or there is none)."""
    return logic.all_(*neighbours_visited)


def start_state(logic: Logic[B, N]) -> HeroState[B, N]:
    """A hero enters the dungeon unhurt, its protection unused."""
    return HeroState(logic.int_(0), logic.bool_(False))

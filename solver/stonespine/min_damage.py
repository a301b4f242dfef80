"""Query 5: the least force that defeats a wave, and the least health that escapes.

* :func:`fewest_minions` - the fewest minions (guardian placement kept) such that the player can
  defeat every hero of a given wave;
* :func:`fewest_tokens` - the fewest added element tokens (of one kind, in empty element spaces)
  such that every hero of the wave can be defeated;
* :func:`least_escaping_health` - the smallest health at which a hero escapes whatever route the
  player picks.

Each has a z3 encoding (a count bound checked upward; the first satisfiable bound is optimal
because every smaller one is unsatisfiable) and an exhaustive baseline, and the answer is replayed
through the oracle with the modified scenario. Answers are
:class:`~invasion_oracle.solver.stonespine.answers.CountAnswer` and :class:`~invasion_oracle.solver.stonespine.answers.HealthAnswer`;
stopped early, they carry the bound proved so far (every smaller count refuted).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import z3

from invasion_oracle.model.core.errors import MalformedInputError, RulesError
from invasion_oracle.model.stonespine.dungeon import Cell
from invasion_oracle.model.stonespine.elements import Element, Space
from invasion_oracle.model.stonespine.entering import Rules
from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.solver.common import Deadline, OracleDisagreement, Status, TimeLimit, z3_check
from invasion_oracle.solver.stonespine.answers import CountAnswer, HealthAnswer, stop_reason
from invasion_oracle.solver.stonespine.board import Board, Layout, board_for, chamber_effect
from invasion_oracle.solver.stonespine.fast import (
    EntryTable,
    EntryTables,
    LayoutEvaluator,
    defeat_mask,
    first_routes,
)
from invasion_oracle.solver.stonespine.routes import Fate, RouteModel, walk_route
from invasion_oracle.solver.stonespine.waves import WaveEncoding, layout_terms, oracle_plan_check, search_wave


def _roll(heroes: Sequence[HeroColor]) -> tuple[int, int, int]:
    return (heroes.count(COLORS[0]), heroes.count(COLORS[1]), heroes.count(COLORS[2]))


def _require(board: Board) -> None:
    if board.limits:
        raise RulesError("this search models every rule but: " + "; ".join(board.limits))


# -- minions -------------------------------------------------------------------------------------


def fewest_minions(
    scenario: Scenario,
    heroes: Sequence[HeroColor],
    *,
    limit: int = 8,
    engine: str = "z3",
    player: int = 0,
    deadline: Deadline | None = None,
) -> CountAnswer:
    """The fewest minions (the guardian where it stands) with which every hero of the wave falls."""
    deadline = deadline or Deadline()
    search = deadline.share(0.85)
    board, layout, defeated = board_for(scenario, player)
    _require(board)
    reach = sorted(board.enterable())
    roll = _roll(heroes)
    tables = EntryTables(board)
    k = 0
    try:
        for k in range(limit + 1):
            found = (
                _z3_minions(board, layout, roll, defeated, reach, k, search)
                if engine == "z3"
                else _search_minions(board, layout, roll, defeated, reach, k, search, tables)
            )
            if found is not None:
                if engine == "z3" and math.comb(len(reach) + k - 1, k) <= 20_000:
                    # Of the placements with k minions that work, answer the first in chamber order
                    # (whichever one z3 happened to find), so the answer does not depend on z3.
                    found = _search_minions(board, layout, roll, defeated, reach, k, search, tables) or found
                _verify(scenario, player, board, found, heroes, defeated, deadline)
                return CountAnswer(
                    Status.PROVEN, "minions", k, k, _names(board, found.minions), limit, engine
                )
    except TimeLimit as stop:
        return CountAnswer(Status.UNKNOWN, "minions", None, k, (), limit, engine, stop_reason(stop.reason))
    return CountAnswer(Status.PROVEN, "minions", None, limit + 1, (), limit, engine)


def _search_minions(
    board: Board,
    layout: Layout,
    roll: tuple[int, int, int],
    defeated: int,
    reach: list[int],
    k: int,
    deadline: Deadline,
    tables: EntryTables,
) -> Layout | None:
    for chosen in itertools.combinations_with_replacement(reach, k):
        deadline.check()
        counts = [0] * board.size
        for node in chosen:
            counts[node] += 1
        candidate = Layout(layout.guardians, tuple(counts))
        if LayoutEvaluator(board, candidate, tables, deadline).value(roll, defeated) == sum(roll):
            return candidate
    return None


def _z3_minions(
    board: Board,
    layout: Layout,
    roll: tuple[int, int, int],
    defeated: int,
    reach: list[int],
    k: int,
    deadline: Deadline,
) -> Layout | None:
    minion = [z3.Int(f"m{c}") for c in range(board.size)]
    solver = z3.Solver()
    for c in range(board.size):
        solver.add(minion[c] >= 0)
        if c not in reach:
            solver.add(minion[c] == 0)
    solver.add(z3.Sum(minion) == k)
    encoding = WaveEncoding(
        board,
        sum(roll),
        roll,
        defeated,
        "mm",
        minions=minion,
        guardians=layout_terms(board, layout)["guardians"],
        deadline=deadline,
    )
    solver.add(*encoding.constraints)
    if z3_check(solver, deadline) == z3.unsat:
        return None
    model = solver.model()
    return Layout(layout.guardians, tuple(model.eval(m, model_completion=True).as_long() for m in minion))


def _names(board: Board, counts: Sequence[int]) -> tuple[str, ...]:
    return tuple(board.name(n) for n in range(board.size) for _ in range(counts[n]))


def _verify(
    scenario: Scenario,
    player: int,
    board: Board,
    layout: Layout,
    heroes: Sequence[HeroColor],
    defeated: int,
    deadline: Deadline,
) -> None:
    plan = search_wave(board, layout, heroes, defeated, deadline)
    if plan.defeated != len(heroes):
        raise OracleDisagreement("the minion answer does not defeat every hero")
    oracle_plan_check(scenario, player, board, plan, placement=layout.placement(board))


# -- tokens --------------------------------------------------------------------------------------


def _with_tokens(scenario: Scenario, player: int, tokens: dict[Cell, int], element: Element) -> Scenario:
    state = scenario.initial
    p = state.players[player]
    dungeon = p.dungeon
    for cell, count in tokens.items():
        dungeon = dungeon.with_chamber(cell, _filled(dungeon.chamber(cell), count, element))
    return replace(scenario, initial=state.with_player(player, replace(p, dungeon=dungeon)))


def _filled(chamber: Any, count: int, element: Element) -> Any:
    spaces = list(chamber.spaces)
    for i, space in enumerate(spaces):
        if count and space.empty:
            spaces[i] = Space(element)
            count -= 1
    return replace(chamber, spaces=(spaces[0], spaces[1], spaces[2], spaces[3]))


@dataclass(frozen=True)
class _TokenProblem:
    """One 'fewest tokens' question: where tokens fit and what they do in each chamber."""

    scenario: Scenario
    player: int
    board: Board
    layout: Layout
    element: Element
    free: dict[int, int]  # empty element spaces per enterable chamber
    # (colour, chamber) -> per number of tokens t = 0.. free: the damage they add and whether the
    # chamber then meets the purple condition (read off the oracle, the layout's minions there)
    effect: dict[tuple[int, int], tuple[tuple[int, bool], ...]]
    roll: tuple[int, int, int]
    defeated: int

    def with_tokens(self, counts: dict[int, int]) -> Scenario:
        return _with_tokens(
            self.scenario, self.player, {self.board.cells[n]: c for n, c in counts.items()}, self.element
        )


def fewest_tokens(
    scenario: Scenario,
    heroes: Sequence[HeroColor],
    token: str = "kobold",
    *,
    limit: int = 8,
    engine: str = "z3",
    player: int = 0,
    deadline: Deadline | None = None,
) -> CountAnswer:
    """Fewest ``token`` elements added to empty spaces so the whole wave can be defeated."""
    deadline = deadline or Deadline()
    search = deadline.share(0.85)
    try:
        element = Element.parse(token)
    except ValueError as err:
        raise MalformedInputError("--token", token, str(err)) from None
    if element.is_rubble or element.kind.value in ("chest", "star"):
        raise MalformedInputError("--token", token, "add a monster or a trap (they deal damage)")
    board, layout, defeated = board_for(scenario, player)
    _require(board)
    what = f"{token} tokens"
    k = 0
    try:
        problem = _token_problem(scenario, player, board, layout, element, _roll(heroes), defeated, search)
        for k in range(limit + 1):
            found = (_z3_tokens if engine == "z3" else _search_tokens)(problem, k, search)
            if found is not None:
                modified = problem.with_tokens(found)
                mboard, mlayout, _ = board_for(modified, player)
                plan = search_wave(mboard, mlayout, heroes, defeated, deadline)
                if plan.defeated != len(heroes):
                    raise OracleDisagreement("the token answer does not defeat every hero")
                oracle_plan_check(modified, player, mboard, plan)
                where = tuple(board.name(n) for n in sorted(found) for _ in range(found[n]))
                return CountAnswer(Status.PROVEN, what, k, k, where, limit, engine)
    except TimeLimit as stop:
        return CountAnswer(Status.UNKNOWN, what, None, k, (), limit, engine, stop_reason(stop.reason))
    return CountAnswer(Status.PROVEN, what, None, limit + 1, (), limit, engine)


def _token_problem(
    scenario: Scenario,
    player: int,
    board: Board,
    layout: Layout,
    element: Element,
    roll: tuple[int, int, int],
    defeated: int,
    deadline: Deadline,
) -> _TokenProblem:
    p = scenario.initial.players[player]
    rules = Rules.of(scenario.rulings, scenario.data)
    free = {
        n: sum(1 for s in p.dungeon.chamber(board.cells[n]).spaces if s.empty)
        for n in sorted(board.enterable())
    }
    free = {n: f for n, f in free.items() if f}
    effect: dict[tuple[int, int], tuple[tuple[int, bool], ...]] = {}
    for n, room in free.items():  # what t tokens do in the chamber, read from the oracle's rules
        deadline.check()
        cell = board.cells[n]
        chamber = p.dungeon.chamber(cell)
        for k, card in enumerate(scenario.initial.heroes):
            numbers = [
                chamber_effect(rules, p.guardian, cell, _filled(chamber, t, element), card, layout.minions[n])
                for t in range(room + 1)
            ]
            effect[(k, n)] = tuple((d - numbers[0][0], c) for d, c in numbers)
    return _TokenProblem(scenario, player, board, layout, element, free, effect, roll, defeated)


def _search_tokens(problem: _TokenProblem, k: int, deadline: Deadline) -> dict[int, int] | None:
    for chosen in itertools.combinations_with_replacement(sorted(problem.free), k):
        counts = {n: chosen.count(n) for n in set(chosen)}
        if any(c > problem.free[n] for n, c in counts.items()):
            continue
        deadline.check()
        mboard, mlayout, _ = board_for(problem.with_tokens(counts), problem.player)
        if LayoutEvaluator(mboard, mlayout, None, deadline).value(problem.roll, problem.defeated) == sum(
            problem.roll
        ):
            return counts
    return None


def _z3_tokens(problem: _TokenProblem, k: int, deadline: Deadline) -> dict[int, int] | None:
    board, layout, roll = problem.board, problem.layout, problem.roll
    # What t tokens do in a chamber is read per t (the first may make a chamber dangerous).
    tok = [z3.Int(f"t{c}") for c in range(board.size)]
    solver = z3.Solver()
    for c in range(board.size):
        solver.add(tok[c] >= 0, tok[c] <= problem.free.get(c, 0))
    solver.add(z3.Sum(tok) == k)
    encoding = WaveEncoding(
        board,
        sum(roll),
        roll,
        problem.defeated,
        "tk",
        **layout_terms(board, layout),
        added_damage=lambda h, c: _by_count(
            tok[c], [d for d, _ in problem.effect.get((h, c), ((0, False),))]
        ),
        added_condition=lambda h, c: z3.Or(
            False, *[tok[c] == t for t, (_, met) in enumerate(problem.effect.get((h, c), ())) if met]
        ),
        deadline=deadline,
    )
    solver.add(*encoding.constraints)
    if z3_check(solver, deadline) == z3.unsat:
        return None
    model = solver.model()
    counts = {c: model.eval(tok[c], model_completion=True).as_long() for c in range(board.size)}
    return {c: n for c, n in counts.items() if n}


def _by_count(count: Any, values: Sequence[int]) -> Any:
    """``values[count]`` for a z3 count (0 when it is out of range)."""
    term: Any = 0
    for t, value in enumerate(values):
        if value:
            term = z3.If(count == t, value, term)
    return term


# -- health ---------------------------------------------------------------------------------------


def least_escaping_health(
    scenario: Scenario,
    hero: HeroColor,
    *,
    engine: str = "z3",
    player: int = 0,
    deadline: Deadline | None = None,
) -> HealthAnswer:
    """The smallest health with which ``hero`` escapes under every route.

    Every smaller health is shown defeatable by a witness route (found by the route walk); the
    answer itself is proven escape-only by ``engine`` (z3: the defeat query is unsatisfiable;
    search: every route walked). Health need not be monotone (more health can reach the guardian),
    so every value up to the answer is checked.
    """
    deadline = deadline or Deadline()
    search = deadline.share(0.85)
    board, layout, defeated = board_for(scenario, player)
    refused = board.limits_for(hero)
    if refused:
        raise RulesError("the compiled board does not model " + "; ".join(refused) + " for this hero")
    index = COLORS.index(hero)
    # Above the most damage any route can deal, only a guardian can defeat the hero.
    limit = (
        sum(
            max(p.base[c] + layout.minions[c] * p.unit[c], 0) for p in board.heroes for c in range(board.size)
        )
        + 2
    )

    def trial(health: int) -> Board:
        heroes = list(board.heroes)
        heroes[index] = replace(board.heroes[index], health=health)
        return replace(board, heroes=(heroes[0], heroes[1], heroes[2]))

    health = 1
    try:
        for health in range(1, limit + 1):
            search.check()
            candidate = trial(health)
            profile = candidate.heroes[index]
            table = EntryTable(candidate, profile)
            if defeat_mask(candidate, layout, profile, defeated, table, search):
                continue  # a defeating route exists: this health does not escape
            if engine == "z3":
                model = RouteModel(candidate, layout, hero, defeated)
                model.deadline = search
                if model.witness(model.path.defeated_anywhere(), search) is not None:
                    raise OracleDisagreement(
                        f"z3 finds a defeat at health {health} that the route walk does not"
                    )
            routes = first_routes(candidate, layout, profile, defeated, search, table)
            key = min(k for k in routes if k[0] == Fate.ESCAPED.value)
            escape = walk_route(candidate, layout, hero, routes[key], defeated) if key[1] >= 0 else None
            route = [board.name(n) for n in escape.route] if escape else []
            _verify_health(scenario, player, hero, health, route, escape.reason if escape else "no-entry")
            return HealthAnswer(Status.PROVEN, hero, health, health, limit, tuple(route), engine)
    except TimeLimit as stop:
        return HealthAnswer(Status.UNKNOWN, hero, None, health, limit, (), engine, stop_reason(stop.reason))
    return HealthAnswer(Status.PROVEN, hero, None, limit, limit, (), engine)


def _verify_health(
    scenario: Scenario, player: int, hero: HeroColor, health: int, route: list[str], reason: str
) -> None:
    from invasion_oracle.solver.stonespine.replay import verify_wave

    state = scenario.initial
    bonus = list(state.health_bonus)
    bonus[COLORS.index(hero)] = health - state.card(hero).health
    modified = replace(scenario, initial=replace(state, health_bonus=(bonus[0], bonus[1], bonus[2])))
    verify_wave(modified, player, [(hero, route)], [("escaped", route[-1] if route else None, reason)])

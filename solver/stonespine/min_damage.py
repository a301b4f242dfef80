"""Query 5: the least force that defeats a wave, and the least health that escapes.

* :func:`fewest_minions` - the fewest minions (guardian placement kept) such that the player can
  defeat every hero of a given wave;
* :func:`fewest_tokens` - the fewest added element tokens (of one kind, in empty element spaces)
  such that every hero of the wave can be defeated;
* :func:`least_escaping_health` - the smallest health at which a hero escapes whatever route the
  player picks.

Each has a z3 encoding (a count bound checked upward; the first satisfiable bound is optimal
because every smaller one is unsatisfiable) and an exhaustive baseline, and the answer is replayed
through the oracle with the modified scenario.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace

import z3

from model.core.errors import MalformedInputError, RulesError
from model.stonespine.dungeon import Cell
from model.stonespine.elements import Element, Space
from model.stonespine.entering import Rules
from model.stonespine.heroes import COLORS, HeroColor
from model.stonespine.scenario import Scenario
from solver.common import Deadline, OracleDisagreement, Status, TimeLimit, z3_check
from solver.stonespine.board import Board, Layout, board_for, compile_board
from solver.stonespine.fast import LayoutEvaluator, defeat_mask
from solver.stonespine.routes import Outcome, RouteModel, enumerate_outcomes
from solver.stonespine.waves import WaveEncoding, oracle_plan_check, search_wave


@dataclass(frozen=True, slots=True)
class CountAnswer:
    status: Status
    what: str
    count: int | None  # the optimum, None when none up to the limit (or unknown)
    where: tuple[str, ...]  # chamber names, one per minion / token
    limit: int
    engine: str


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
    deadline = deadline or Deadline()
    board, layout, defeated = board_for(scenario, player)
    _require(board)
    reach = sorted(board.reachable())
    roll = _roll(heroes)
    try:
        for k in range(limit + 1):
            found = (_z3_minions if engine == "z3" else _search_minions)(
                board, layout, roll, defeated, reach, k, deadline
            )
            if found is not None:
                _verify(scenario, player, board, found, heroes, defeated)
                return CountAnswer(Status.PROVEN, "minions", k, _names(board, found.minions), limit, engine)
    except TimeLimit:
        return CountAnswer(Status.UNKNOWN, "minions", None, (), limit, engine)
    return CountAnswer(Status.PROVEN, "minions", None, (), limit, engine)


def _search_minions(
    board: Board,
    layout: Layout,
    roll: tuple[int, int, int],
    defeated: int,
    reach: list[int],
    k: int,
    deadline: Deadline,
) -> Layout | None:
    for chosen in itertools.combinations_with_replacement(reach, k):
        deadline.check()
        counts = [0] * board.size
        for node in chosen:
            counts[node] += 1
        candidate = Layout(layout.guardians, tuple(counts))
        if LayoutEvaluator(board, candidate).value(roll, defeated) == sum(roll):
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
        damage=lambda h, c: h.base[c] + minion[c] * h.unit[c],
        kept=lambda h, c: z3.IntVal(0) if board.purple_all_damage else minion[c] * h.minion_unit[c],
        minion_cond=lambda h, c: z3.And(z3.BoolVal(h.cond_minion), minion[c] > 0),
        live_guardian=lambda c: z3.BoolVal(c in layout.guardians),
    )
    solver.add(*encoding.constraints)
    if z3_check(solver, deadline) == z3.unsat:
        return None
    model = solver.model()
    return Layout(layout.guardians, tuple(model.eval(m, model_completion=True).as_long() for m in minion))


def _names(board: Board, counts: Sequence[int]) -> tuple[str, ...]:
    return tuple(board.name(n) for n in range(board.size) for _ in range(counts[n]))


def _verify(
    scenario: Scenario, player: int, board: Board, layout: Layout, heroes: Sequence[HeroColor], defeated: int
) -> None:
    plan = search_wave(board, layout, heroes, defeated)
    if plan.defeated != len(heroes):
        raise AssertionError("the minion answer does not defeat every hero")  # pragma: no cover - a bug
    oracle_plan_check(scenario, player, board, plan, placement=layout.placement(board))


# -- tokens --------------------------------------------------------------------------------------


def _with_tokens(scenario: Scenario, player: int, tokens: dict[Cell, int], element: Element) -> Scenario:
    state = scenario.initial
    p = state.players[player]
    dungeon = p.dungeon
    for cell, count in tokens.items():
        chamber = dungeon.chamber(cell)
        spaces = list(chamber.spaces)
        for i, space in enumerate(spaces):
            if count and space.empty:
                spaces[i] = Space(element)
                count -= 1
        dungeon = dungeon.with_chamber(
            cell, replace(chamber, spaces=(spaces[0], spaces[1], spaces[2], spaces[3]))
        )
    return replace(scenario, initial=state.with_player(player, replace(p, dungeon=dungeon)))


@dataclass(frozen=True)
class _TokenProblem:
    """One 'fewest tokens' question: where tokens fit and what one token does in each chamber."""

    scenario: Scenario
    player: int
    board: Board
    layout: Layout
    element: Element
    free: dict[int, int]  # empty element spaces per reachable chamber
    added: dict[int, Board]  # the board with one token in that chamber (read off the oracle)
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
    try:
        element = Element.parse(token)
    except ValueError as err:
        raise MalformedInputError("--token", token, str(err)) from None
    if element.is_rubble or element.kind.value in ("chest", "star"):
        raise MalformedInputError("--token", token, "add a monster or a trap (they deal damage)")
    board, layout, defeated = board_for(scenario, player)
    _require(board)
    p = scenario.initial.players[player]
    free = {
        n: sum(1 for s in p.dungeon.chamber(board.cells[n]).spaces if s.empty)
        for n in sorted(board.reachable())
    }
    free = {n: f for n, f in free.items() if f}
    added = {}
    for n in free:  # the per-chamber effect of one token, read from the oracle's damage rules
        one = _with_tokens(scenario, player, {board.cells[n]: 1}, element).initial
        added[n] = compile_board(_rules(scenario), one, one.players[player])
    problem = _TokenProblem(scenario, player, board, layout, element, free, added, _roll(heroes), defeated)
    solve = _z3_tokens if engine == "z3" else _search_tokens
    try:
        for k in range(limit + 1):
            found = solve(problem, k, deadline)
            if found is not None:
                modified = problem.with_tokens(found)
                mboard, mlayout, _ = board_for(modified, player)
                plan = search_wave(mboard, mlayout, heroes, defeated)
                if plan.defeated != len(heroes):
                    raise OracleDisagreement("the token answer does not defeat every hero")
                oracle_plan_check(modified, player, mboard, plan)
                where = tuple(board.name(n) for n in sorted(found) for _ in range(found[n]))
                return CountAnswer(Status.PROVEN, f"{token} tokens", k, where, limit, engine)
    except TimeLimit:
        return CountAnswer(Status.UNKNOWN, f"{token} tokens", None, (), limit, engine)
    return CountAnswer(Status.PROVEN, f"{token} tokens", None, (), limit, engine)


def _rules(scenario: Scenario) -> Rules:
    return Rules.of(scenario.rulings, scenario.data)


def _search_tokens(problem: _TokenProblem, k: int, deadline: Deadline) -> dict[int, int] | None:
    for chosen in itertools.combinations_with_replacement(sorted(problem.free), k):
        counts = {n: chosen.count(n) for n in set(chosen)}
        if any(c > problem.free[n] for n, c in counts.items()):
            continue
        deadline.check()
        mboard, mlayout, _ = board_for(problem.with_tokens(counts), problem.player)
        if LayoutEvaluator(mboard, mlayout).value(problem.roll, problem.defeated) == sum(problem.roll):
            return counts
    return None


def _z3_tokens(problem: _TokenProblem, k: int, deadline: Deadline) -> dict[int, int] | None:
    board, layout, added, roll = problem.board, problem.layout, problem.added, problem.roll
    # A token's damage is linear in the count; whether it meets a purple condition is a flag per node.
    tok = [z3.Int(f"t{c}") for c in range(board.size)]
    solver = z3.Solver()
    for c in range(board.size):
        solver.add(tok[c] >= 0, tok[c] <= problem.free.get(c, 0))
    solver.add(z3.Sum(tok) == k)

    def delta(h_index: int, c: int) -> int:
        if c not in added:
            return 0
        return added[c].heroes[h_index].base[c] - board.heroes[h_index].base[c]

    def gains_cond(h_index: int, c: int) -> bool:
        return c in added and added[c].heroes[h_index].cond[c] and not board.heroes[h_index].cond[c]

    encoding = WaveEncoding(
        board,
        sum(roll),
        roll,
        problem.defeated,
        "tk",
        damage=lambda h, c: (
            h.base[c] + layout.minions[c] * h.unit[c] + tok[c] * delta(COLORS.index(h.color), c)
        ),
        kept=lambda h, c: z3.IntVal(0 if board.purple_all_damage else layout.minions[c] * h.minion_unit[c]),
        minion_cond=lambda h, c: z3.Or(
            z3.BoolVal(h.cond_minion and layout.minions[c] > 0),
            z3.And(z3.BoolVal(gains_cond(COLORS.index(h.color), c)), tok[c] > 0),
        ),
        live_guardian=lambda c: z3.BoolVal(c in layout.guardians),
    )
    solver.add(*encoding.constraints)
    if z3_check(solver, deadline) == z3.unsat:
        return None
    model = solver.model()
    counts = {c: model.eval(tok[c], model_completion=True).as_long() for c in range(board.size)}
    return {c: n for c, n in counts.items() if n}


# -- health ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HealthAnswer:
    status: Status
    hero: HeroColor
    health: int | None  # the least health that always escapes; None: none up to ``limit``
    limit: int
    escape_route: tuple[str, ...]  # a route the hero takes at that health
    engine: str


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
    board, layout, defeated = board_for(scenario, player)
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

    try:
        for health in range(1, limit + 1):
            deadline.check()
            candidate = trial(health)
            if defeat_mask(candidate, layout, candidate.heroes[index], defeated):
                continue  # a defeating route exists: this health does not escape
            if engine == "z3":
                model = RouteModel(candidate, layout, hero, defeated)
                if model.witness(model.path.defeated_anywhere(), deadline) is not None:
                    raise OracleDisagreement(
                        f"z3 finds a defeat at health {health} that the route walk does not"
                    )
            outcomes = enumerate_outcomes(candidate, layout, hero, defeated, deadline)
            escape = next(o for k, o in sorted(outcomes.items()) if k[0] == "escaped")
            _verify_health(
                scenario, player, hero, health, [board.name(n) for n in escape.route], escape, board
            )
            return HealthAnswer(
                Status.PROVEN, hero, health, limit, tuple(board.name(n) for n in escape.route), engine
            )
    except TimeLimit:
        return HealthAnswer(Status.UNKNOWN, hero, None, limit, (), engine)
    return HealthAnswer(Status.PROVEN, hero, None, limit, (), engine)


def _verify_health(
    scenario: Scenario,
    player: int,
    hero: HeroColor,
    health: int,
    route: list[str],
    escape: Outcome,
    board: Board,
) -> None:
    from solver.stonespine.replay import verify_wave

    state = scenario.initial
    bonus = list(state.health_bonus)
    bonus[COLORS.index(hero)] = health - state.card(hero).health
    modified = replace(scenario, initial=replace(state, health_bonus=(bonus[0], bonus[1], bonus[2])))
    verify_wave(modified, player, [(hero, route)], [("escaped", route[-1] if route else None, escape.reason)])

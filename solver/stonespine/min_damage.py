"""Query 5: the least force that defeats a wave, and the least health that escapes.

* :func:`fewest_minions` - the fewest minions (guardian placement kept) such that the player can
  defeat every hero of a given wave;
* :func:`fewest_tokens` - the fewest added element tokens (of one kind, in empty element spaces)
  such that every hero of the wave can be defeated;
* :func:`least_escaping_health` - the smallest health at which a hero escapes whatever route the
  player picks.

Each has a z3 encoding (a count bound checked upward; the first satisfiable bound is optimal
because every smaller one is unsatisfiable), a CP-SAT one (the same question,
:mod:`~invasion_oracle.solver.stonespine.cpsat_wave`, asked once as a minimisation of the count,
then the tied answer the search meets first) and an exhaustive baseline (the search), and the
answer is replayed through the oracle with the modified scenario. ``auto`` is the search for a
budget of candidates, then CP-SAT (:data:`MINION_BUDGET`, :data:`TOKEN_BUDGET`). Answers are
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
from invasion_oracle.solver.common import (
    Deadline,
    OracleDisagreement,
    Status,
    TimeLimit,
    cpsat_available,
    load_cpsat,
    z3_check,
)
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
    roll = _roll(heroes)
    run = SearchRun(engine)
    try:
        best = minion_search(board, layout, roll, defeated, limit, run, search)
        if best is None:
            return CountAnswer(Status.PROVEN, "minions", None, limit + 1, (), limit, run.engine)
        k, found = best
        _verify(scenario, player, board, found, heroes, defeated, deadline)
        return CountAnswer(Status.PROVEN, "minions", k, k, _names(board, found.minions), limit, run.engine)
    except TimeLimit as stop:
        k = _proved(stop, run.proved, limit)
        return CountAnswer(
            Status.UNKNOWN, "minions", None, k, (), limit, run.engine, stop_reason(stop.reason)
        )


# `--engine auto` (the default): the search, which tries placements (fillings) smallest count first,
# for at most this many candidates, then CP-SAT, told the counts the search refuted. Measured by
# `make bench` (tests/bench/bench_stonespine.py, "min-damage engines": study grids 4x4, 6x6 and 8x8,
# the wave black + purple + red, search time only, CPU):
#
# * fewest minions: the search 6-12 ms, CP-SAT 110-330 ms, z3 0.57-2.2 s, at every size;
# * fewest kobolds: the search 0.7-1.2 s (a filling costs it 6-15 ms: it recompiles the board),
#   CP-SAT 0.2-0.35 s (3.5-3.7x the search), z3 1.2-2.2 s; where the answer is 6 the search needs
#   about two minutes and CP-SAT 0.26-0.28 s ("past the crossover", the search cut short at 1 s);
# * importing OR-Tools costs a fresh process 0.43-0.53 s of CPU (z3: 0.04-0.05 s), which a command
#   pays before CP-SAT's first answer.
#
# So CP-SAT wins only where the search has many candidates to try, which cannot be told before it
# tries them (the answer is the unknown). The budget is the search's work that costs about what
# CP-SAT's import and solve do (0.7-1 s): about 100 fillings, and about 25,000 minion placements
# (35 us each in a long search; the bench's rows need at most 14). On the bench's rows auto picks
# the search for minions and for the 6x6 kobolds (79 fillings), CP-SAT for the 4x4 kobolds (108,
# just past: about 1.4 s against the search's 0.74 s in a fresh process) and past the crossover.
# Past the budget auto pays that second of the search on top of CP-SAT (which is not fast on every
# instance either: some 4x4 and 6x6 fillings of 4 or more take it over 5 s). The budget counts
# candidates, not seconds, so the engine chosen (and the output) is the same on every machine.
MINION_BUDGET = 25_000
TOKEN_BUDGET = 100


def _after_budget() -> str:
    """The engine ``auto`` takes once the search has tried its budget: CP-SAT, or z3 when OR-Tools
    (an extra, ``invasion-oracle[cpsat]``) is not installed."""
    return "cpsat" if cpsat_available() else "z3"


@dataclass
class SearchRun:
    """One count search: the engine asked for, then the one that answered (``auto``: the search or
    CP-SAT), the count proved so far (every smaller one impossible, for a caller the deadline
    stops) and the candidates the search may still try (``auto``)."""

    engine: str
    proved: int = 0
    budget: int | None = None

    def spend(self) -> None:
        if self.budget is not None:
            self.budget -= 1
            if self.budget < 0:
                raise _OverBudget


class _OverBudget(Exception):
    """The search of ``auto`` tried its budget of candidates: CP-SAT takes over."""


def minion_search(
    board: Board,
    layout: Layout,
    roll: tuple[int, int, int],
    defeated: int,
    limit: int,
    run: SearchRun,
    deadline: Deadline,
) -> tuple[int, Layout] | None:
    """The search part of :func:`fewest_minions` (no replay) with ``run.engine``: the fewest
    minions and the placement answered, or None when ``limit`` minions are not enough."""
    reach = sorted(board.enterable())
    if run.engine == "auto":
        run.engine, run.budget = "search", MINION_BUDGET
        try:
            return minion_search(board, layout, roll, defeated, limit, run, deadline)
        except _OverBudget:
            run.engine, run.budget = _after_budget(), None
    if run.engine == "cpsat":
        best = _cpsat_minions(board, layout, roll, defeated, reach, limit, deadline, run.proved)
        if best is not None:
            run.proved = best[0]
        return best
    engine = run.engine
    tables = EntryTables(board)
    for k in range(limit + 1):
        run.proved = k
        candidate = (
            _z3_minions(board, layout, roll, defeated, reach, k, deadline)
            if engine == "z3"
            else _search_minions(board, layout, roll, defeated, reach, k, deadline, tables, run)
        )
        if candidate is None:
            continue
        if engine == "z3" and math.comb(len(reach) + k - 1, k) <= 20_000:
            # Of the placements with k minions that work, answer the first in chamber order
            # (whichever one z3 happened to find), so the answer does not depend on z3.
            candidate = (
                _search_minions(board, layout, roll, defeated, reach, k, deadline, tables) or candidate
            )
        return k, candidate
    return None


def _search_minions(
    board: Board,
    layout: Layout,
    roll: tuple[int, int, int],
    defeated: int,
    reach: list[int],
    k: int,
    deadline: Deadline,
    tables: EntryTables,
    run: SearchRun | None = None,
) -> Layout | None:
    for chosen in itertools.combinations_with_replacement(reach, k):
        deadline.check()
        if run is not None:
            run.spend()
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


def _cpsat_minions(
    board: Board,
    layout: Layout,
    roll: tuple[int, int, int],
    defeated: int,
    reach: list[int],
    limit: int,
    deadline: Deadline,
    at_least: int = 0,
) -> tuple[int, Layout] | None:
    """The z3 question on CP-SAT, asked once: the fewest minions (up to ``limit``) in the chambers
    a hero can enter such that every hero of the wave falls, then of those placements the one the
    search meets first (:func:`_cpsat_fewest`). None: not possible with ``limit``."""
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    from ortools.sat.python import cp_model

    from invasion_oracle.solver.stonespine.cpsat_wave import CpWave, Num

    model = cp_model.CpModel()
    counts = [model.new_int_var(0, limit, f"m{c}") for c in reach]
    minion: list[Any] = [0] * board.size
    for c, m in zip(reach, counts, strict=True):
        minion[c] = Num(m, 0, limit)
    CpWave(
        model,
        board,
        sum(roll),
        roll,
        defeated,
        minions=minion,
        guardians=layout_terms(board, layout)["guardians"],
        deadline=deadline,
    )
    best = _cpsat_fewest(model, counts, counts, limit, deadline, at_least)
    if best is None:
        return None
    k, chosen = best
    placed = [0] * board.size
    for i in chosen:
        placed[reach[i]] += 1
    return k, Layout(layout.guardians, tuple(placed))


def _cpsat_fewest(
    model: Any, counts: Sequence[Any], hints: Sequence[Any], limit: int, deadline: Deadline, at_least: int = 0
) -> tuple[int, tuple[int, ...]] | None:
    """Items in places (``counts[i]``: a CP-SAT term, the items in place ``i``) on a model that
    says when they do the job: the fewest items, at most ``limit`` (one minimisation: its optimum
    proves every smaller total impossible, as the z3 engine's unsatisfiable counts do), then, that
    total fixed, the places ``p_1 <= ... <= p_k`` made lexicographically least: the first
    solution of ``itertools.combinations_with_replacement(places, k)``, the baselines' order, so
    the answer is theirs. None: no total up to ``limit`` does it. ``at_least``: a total below it is
    already proved impossible (by the search ``auto`` ran first). A TimeLimit carries in ``bound``
    the total proved so far (every smaller one impossible)."""
    from invasion_oracle.solver.common import cpsat_solve

    total = sum(counts)
    model.add(total <= limit)
    if at_least:
        model.add(total >= at_least)
    model.minimize(total)
    try:
        solver = cpsat_solve(model, deadline)
    except TimeLimit as stop:
        finite = stop.bound is not None and math.isfinite(stop.bound)
        stop.bound = (
            max(at_least, math.ceil(stop.bound - 1e-6)) if finite and stop.bound is not None else None
        )
        raise
    if solver is None:
        return None
    k = int(solver.value(total))
    if k == 0:
        return 0, ()
    for var in hints:
        model.add_hint(var, int(solver.value(var)))
    model.add(total == k)
    n = len(counts)
    at = [[model.new_bool_var(f"p{j}_{i}") for i in range(n)] for j in range(k)]
    position = [model.new_int_var(0, n - 1, f"p{j}") for j in range(k)]
    for j in range(k):
        model.add_exactly_one(at[j])
        model.add(position[j] == sum(i * b for i, b in enumerate(at[j])))
        if j:
            model.add(position[j - 1] <= position[j])
    for i in range(n):
        model.add(counts[i] == sum(at[j][i] for j in range(k)))
    try:
        if n**k < 2**62:  # one objective: p_1 counts most, then p_2, ...
            model.minimize(sum(p * n ** (k - 1 - j) for j, p in enumerate(position)))
            solver = cpsat_solve(model, deadline)
            if solver is None:
                raise OracleDisagreement("CP-SAT lost a solution it had found")
            return k, tuple(int(solver.value(p)) for p in position)
        chosen: list[int] = []  # too many places for one 64-bit objective: one position at a time
        for p in position:
            model.minimize(p)
            solver = cpsat_solve(model, deadline)
            if solver is None:
                raise OracleDisagreement("CP-SAT lost a solution it had found")
            chosen.append(int(solver.value(p)))
            model.add(p == chosen[-1])
        return k, tuple(chosen)
    except TimeLimit as stop:
        stop.bound = k  # the fewest is proved; which placement comes first is not
        raise


def _proved(stop: TimeLimit, k: int, limit: int) -> int:
    """The count proved so far when a search stopped: every smaller count is impossible (the
    loops' ``k``, or what CP-SAT's minimisation had proved)."""
    if stop.bound is None:
        return k
    return min(max(k, int(stop.bound)), limit + 1)


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
    run = SearchRun(engine)
    try:
        problem = _token_problem(scenario, player, board, layout, element, _roll(heroes), defeated, search)
        best = token_search(problem, limit, run, search)
        if best is None:
            return CountAnswer(Status.PROVEN, what, None, limit + 1, (), limit, run.engine)
        k, found = best
        modified = problem.with_tokens(found)
        mboard, mlayout, _ = board_for(modified, player)
        plan = search_wave(mboard, mlayout, heroes, defeated, deadline)
        if plan.defeated != len(heroes):
            raise OracleDisagreement("the token answer does not defeat every hero")
        oracle_plan_check(modified, player, mboard, plan)
        where = tuple(board.name(n) for n in sorted(found) for _ in range(found[n]))
        return CountAnswer(Status.PROVEN, what, k, k, where, limit, run.engine)
    except TimeLimit as stop:
        k = _proved(stop, run.proved, limit)
        return CountAnswer(Status.UNKNOWN, what, None, k, (), limit, run.engine, stop_reason(stop.reason))


def token_search(
    problem: _TokenProblem, limit: int, run: SearchRun, deadline: Deadline
) -> tuple[int, dict[int, int]] | None:
    """The search part of :func:`fewest_tokens` (no replay) with ``run.engine``: the fewest tokens
    and where (tokens per chamber), or None when ``limit`` are not enough."""
    if run.engine == "auto":
        run.engine, run.budget = "search", TOKEN_BUDGET
        try:
            return token_search(problem, limit, run, deadline)
        except _OverBudget:
            run.engine, run.budget = _after_budget(), None
    if run.engine == "cpsat":
        best = _cpsat_tokens(problem, limit, deadline, run.proved)
        if best is not None:
            run.proved = best[0]
        return best
    for k in range(limit + 1):
        run.proved = k
        found = (
            _z3_tokens(problem, k, deadline)
            if run.engine == "z3"
            else _search_tokens(problem, k, deadline, run)
        )
        if found is not None:
            return k, found
    return None


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


def _search_tokens(
    problem: _TokenProblem, k: int, deadline: Deadline, run: SearchRun | None = None
) -> dict[int, int] | None:
    for chosen in itertools.combinations_with_replacement(sorted(problem.free), k):
        counts = {n: chosen.count(n) for n in set(chosen)}
        if any(c > problem.free[n] for n, c in counts.items()):
            continue
        deadline.check()
        if run is not None:
            run.spend()
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


def _cpsat_tokens(
    problem: _TokenProblem, limit: int, deadline: Deadline, at_least: int = 0
) -> tuple[int, dict[int, int]] | None:
    """The z3 question on CP-SAT, asked once: the fewest tokens (up to ``limit``) in the chambers'
    free spaces, then of those fillings the one the search meets first (:func:`_cpsat_fewest`,
    chambers in node order). What ``t`` tokens do in a chamber is read per ``t``: one literal per
    ``t``, exactly one true, as z3's ``If`` chain on the count."""
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    from ortools.sat.python import cp_model

    from invasion_oracle.solver.stonespine.cpsat_wave import CpLogic, CpWave, Num

    board, layout, roll = problem.board, problem.layout, problem.roll
    places = sorted(problem.free)
    model = cp_model.CpModel()
    logic = CpLogic(model)
    has: dict[int, list[Any]] = {}
    for c in places:
        has[c] = [model.new_bool_var(f"t{c}_{t}") for t in range(min(problem.free[c], limit) + 1)]
        model.add_exactly_one(has[c])
    counts = [sum(t * b for t, b in enumerate(has[c])) for c in places]

    def damage(h: int, c: int) -> Any:
        values = [d for d, _ in problem.effect.get((h, c), ((0, False),))]
        terms = [(v, b) for v, b in zip(values, has.get(c, ()), strict=False) if v]
        if not terms:
            return 0
        return Num(
            sum(v * b for v, b in terms), min(0, *(v for v, _ in terms)), max(0, *(v for v, _ in terms))
        )

    def condition(h: int, c: int) -> Any:
        flags = has.get(c, [])
        met = [t for t, (_, ok) in enumerate(problem.effect.get((h, c), ())) if ok and t < len(flags)]
        return logic.any_(*[flags[t] for t in met])

    CpWave(
        model,
        board,
        sum(roll),
        roll,
        problem.defeated,
        **layout_terms(board, layout),
        added_damage=damage,
        added_condition=condition,
        deadline=deadline,
        logic=logic,
    )
    best = _cpsat_fewest(model, counts, [b for c in places for b in has[c]], limit, deadline, at_least)
    if best is None:
        return None
    k, chosen = best
    found: dict[int, int] = {}
    for i in chosen:
        found[places[i]] = found.get(places[i], 0) + 1
    return k, found


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
    answer itself is proven escape-only by ``engine`` (search: every route walked; z3 and cpsat:
    besides, the defeat query is unsatisfiable, on CP-SAT a one-hero wave). Health need not be
    monotone (more health can reach the guardian), so every value up to the answer is checked.
    """
    if engine == "auto":  # the route walk answers; z3 and CP-SAT only check it (they cost more)
        engine = "search"
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
            elif engine == "cpsat" and _cpsat_defeat(candidate, layout, index, defeated, search):
                raise OracleDisagreement(
                    f"CP-SAT finds a defeat at health {health} that the route walk does not"
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


def _cpsat_defeat(board: Board, layout: Layout, index: int, defeated: int, deadline: Deadline) -> bool:
    """Whether CP-SAT finds a route defeating the hero of colour ``index`` (a one-slot wave)."""
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    from ortools.sat.python import cp_model

    from invasion_oracle.solver.common import cpsat_solve
    from invasion_oracle.solver.stonespine.cpsat_wave import CpWave

    model = cp_model.CpModel()
    counts = [0, 0, 0]
    counts[index] = 1
    CpWave(
        model,
        board,
        1,
        (counts[0], counts[1], counts[2]),
        defeated,
        **layout_terms(board, layout),
        deadline=deadline,
    )
    return cpsat_solve(model, deadline) is not None


def _verify_health(
    scenario: Scenario, player: int, hero: HeroColor, health: int, route: list[str], reason: str
) -> None:
    from invasion_oracle.solver.stonespine.replay import verify_wave

    state = scenario.initial
    bonus = list(state.health_bonus)
    bonus[COLORS.index(hero)] = health - state.card(hero).health
    modified = replace(scenario, initial=replace(state, health_bonus=(bonus[0], bonus[1], bonus[2])))
    verify_wave(modified, player, [(hero, route)], [("escaped", route[-1] if route else None, reason)])

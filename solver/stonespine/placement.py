"""Query 4: optimal Preparation - where the guardian figure(s) and unlocked minions go.

Objectives:

* ``guaranteed`` (a): the number of heroes the player can surely defeat in the first wave,
  whatever the dice show: ``min over rolls of max over orders and routes``;
* ``expected`` (b): the value of the whole Invasion phase under the optimal continue/close
  policy (:mod:`solver.stonespine.policy`), for a chosen measure.

Engines (all exact; they must agree):

* ``search`` - every placement on the compiled board, with figures in chambers no hero can
  reach merged into one class, rolls tried hardest-first and a placement dropped as soon as one
  roll puts it below the best found; sub-results shared between rolls of a placement;
* ``z3`` - counterexample-guided: z3 proposes a placement meeting the rolls collected so far
  (each a wave encoding over symbolic guardians and minions), the search checks it against every
  roll and returns a failing roll as the next counterexample; "unsat" proves no placement
  reaches the target;
* ``oracle`` - every placement and roll searched through the oracle itself (the baseline).

The best placement is replayed through the oracle for its worst roll before it is reported.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import multiprocessing
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import z3

from model.core.errors import RulesError
from model.stonespine.scenario import Scenario
from solver.common import Deadline, OracleDisagreement, Progress, Status, TimeLimit, z3_check
from solver.stonespine.board import Board, Layout, board_for
from solver.stonespine.dice import Roll, roll_distribution, roll_heroes
from solver.stonespine.fast import LayoutEvaluator
from solver.stonespine.waves import WaveEncoding, WavePlan, oracle_wave, search_wave


@dataclass(frozen=True, slots=True)
class Ranked:
    layout: Layout
    value: Fraction | int
    worst_roll: Roll | None = None


@dataclass(frozen=True, slots=True)
class PlacementAnswer:
    status: Status
    objective: str
    engine: str
    best: Fraction | int | None
    tied: tuple[Layout, ...]
    ranking: tuple[Ranked, ...]  # best first, a few
    evaluated: int
    seconds: float
    unreachable: tuple[int, ...]  # chambers merged into one class (figures there do nothing)
    worst_roll: Roll | None = None
    plan: WavePlan | None = None  # the best placement's plan for its worst roll


@dataclass(frozen=True, slots=True)
class _Setup:
    board: Board
    defeated: int
    rolls: list[Roll]
    nodes: tuple[int, ...]
    unreachable: tuple[int, ...]


def _setup(scenario: Scenario, player: int, exact: bool = True) -> _Setup:
    """What every placement engine starts from: the compiled board, the rolls, the candidate chambers."""
    board, _, defeated = board_for(scenario, player)
    if exact:
        _require_exact(board)
    rolls = [r for r, p in roll_distribution(scenario.data, board.year) if p > 0]
    nodes, unreachable = candidate_nodes(board)
    return _Setup(board, defeated, rolls, nodes, unreachable)


def candidate_nodes(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Chambers worth a figure, plus one representative of the unreachable ones (if any)."""
    reach = board.reachable()
    unreachable = tuple(n for n in range(board.size) if n not in reach)
    return tuple(sorted(reach)) + unreachable[:1], unreachable


def layouts(board: Board, minions_choices: Sequence[int], nodes: Sequence[int]) -> Iterator[Layout]:
    """Every placement: guardian figures (with repeats) and minion multisets over ``nodes``."""
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


def guaranteed_value(
    evaluator: LayoutEvaluator, rolls: list[Roll], cut: int, defeated: int = 0
) -> tuple[int, Roll | None]:
    """min over rolls of the wave value; stops early (returning something < cut) when below ``cut``.

    ``rolls`` is reordered in place: the roll that cut goes first next time.
    """
    value, worst = 10**9, None
    for i, roll in enumerate(rolls):
        got = evaluator.value(roll, defeated)
        if got < value:
            value, worst = got, roll
        if value < cut:
            rolls.insert(0, rolls.pop(i))
            break
    return value, worst


def _chunk_values(
    job: tuple[Board, list[tuple[int, Layout]], list[Roll], int, float | None],
) -> tuple[list[tuple[int, int, Roll | None]], bool]:
    """Evaluate a chunk of placements (in a worker process); keeps those at or above its running best."""
    board, chunk, rolls, defeated, stop_at = job
    best, kept = -1, list[tuple[int, int, Roll | None]]()
    for position, (index, layout) in enumerate(chunk):
        if stop_at is not None and position & 0x1F == 0 and time.time() > stop_at:
            return kept, False
        value, worst = guaranteed_value(LayoutEvaluator(board, layout), rolls, best, defeated)
        if value >= best:
            best = value
            kept.append((index, value, worst))
    return kept, True


def search_guaranteed(
    scenario: Scenario, player: int = 0, deadline: Deadline | None = None, jobs: int | None = None
) -> PlacementAnswer:
    """Objective (a) by exhaustive search over placements on the compiled board.

    Large searches run in ``jobs`` worker processes (default: the machine's cores, at most 4);
    each worker drops a placement only below its own best, which is never above the overall
    best, so the answer and its ties are exact and come out in the same order.
    """
    started = time.perf_counter()
    deadline = deadline or Deadline()
    setup = _setup(scenario, player)
    board, defeated, rolls, unreachable = setup.board, setup.defeated, setup.rolls, setup.unreachable
    choices = list(layouts(board, minion_counts(scenario, board), setup.nodes))
    workers = jobs if jobs is not None else min(4, os.cpu_count() or 1)
    status = Status.PROVEN
    results: list[tuple[int, int, Roll | None]] = []
    if workers > 1 and len(choices) > 3000:
        status, results = _parallel(board, choices, rolls, defeated, deadline, workers)
    else:
        progress = Progress("placements", len(choices))
        best = -1
        try:
            for index, layout in enumerate(choices):
                if index & 0x3F == 0:
                    deadline.check()
                progress.step()
                value, worst = guaranteed_value(LayoutEvaluator(board, layout), rolls, best, defeated)
                if value >= best:
                    best = value
                    results.append((index, value, worst))
        except TimeLimit:
            status = Status.UNKNOWN
        finally:
            progress.finish()
    best = max((v for _, v, _ in results), default=-1)
    tied = [choices[i] for i, v, _ in sorted(results) if v == best]
    ranking = tuple(Ranked(choices[i], v, w) for i, v, w in sorted(results) if v == best)[:10]
    proven = status is Status.PROVEN
    answer = PlacementAnswer(
        status,
        "guaranteed",
        "search",
        best if proven else None,
        tuple(tied) if proven else (),
        ranking,
        len(choices) if proven else 0,
        time.perf_counter() - started,
        unreachable,
    )
    return _with_worst_plan(scenario, player, board, answer, defeated)


def _parallel(
    board: Board, choices: list[Layout], rolls: list[Roll], defeated: int, deadline: Deadline, workers: int
) -> tuple[Status, list[tuple[int, int, Roll | None]]]:
    left = deadline.remaining()
    stop_at = None if left is None else time.time() + left
    indexed = list(enumerate(choices))
    parts = workers * 8
    jobs = [(board, indexed[k::parts], rolls, defeated, stop_at) for k in range(parts)]
    progress = Progress("placement chunks", parts)
    results: list[tuple[int, int, Roll | None]] = []
    status = Status.PROVEN
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        try:
            for kept, finished in pool.map(_chunk_values, jobs):
                progress.step()
                results.extend(kept)
                if not finished:
                    status = Status.UNKNOWN
        finally:
            progress.finish()
    return status, results


def _with_worst_plan(
    scenario: Scenario, player: int, board: Board, answer: PlacementAnswer, defeated: int
) -> PlacementAnswer:
    """Attach the first tied placement's worst roll and plan, replayed through the oracle."""
    if answer.status is not Status.PROVEN or not answer.tied:
        return answer
    layout = answer.tied[0]
    evaluator = LayoutEvaluator(board, layout)
    rolls = [r for r, p in roll_distribution(scenario.data, board.year) if p > 0]
    worst = min(rolls, key=lambda r: (evaluator.value(r, defeated), r))
    plan = search_wave(board, layout, roll_heroes(worst), defeated)
    if plan.defeated != answer.best:
        raise OracleDisagreement(f"the worst roll gives {plan.defeated}, the search said {answer.best}")
    from solver.stonespine.waves import oracle_plan_check

    oracle_plan_check(scenario, player, board, plan, placement=layout.placement(board))
    return PlacementAnswer(**{**_fields(answer), "worst_roll": worst, "plan": plan})


def _fields(answer: PlacementAnswer) -> dict[str, Any]:
    return {name: getattr(answer, name) for name in answer.__dataclass_fields__}


def _placed(scenario: Scenario, player: int, placement: Any) -> Scenario:
    """The scenario with ``player``'s figures placed as given."""
    from dataclasses import replace

    state = scenario.initial
    return replace(
        scenario, initial=state.with_player(player, replace(state.players[player], placement=placement))
    )


def _require_exact(board: Board) -> None:
    if board.limits:
        raise RulesError(
            "the placement search models one dungeon's heroes exactly except: "
            + "; ".join(board.limits)
            + ". Use --engine oracle for this dungeon (slow but exact)."
        )


# -- z3, counterexample guided -----------------------------------------------------------


class PlacementModel:
    """z3 variables for a placement and the wave encodings of the rolls collected so far."""

    def __init__(self, board: Board, nodes: Sequence[int], counts: Sequence[int], defeated: int) -> None:
        self.board = board
        self.nodes = tuple(nodes)
        n = board.size
        self.guard = [z3.Int(f"g{c}") for c in range(n)]
        self.minion = [z3.Int(f"m{c}") for c in range(n)]
        self.defeated = defeated
        self.solver = z3.Solver()
        add = self.solver.add
        for c in range(n):
            allowed = c in self.nodes
            add(self.guard[c] >= 0, self.minion[c] >= 0)
            if not allowed:
                add(self.guard[c] == 0, self.minion[c] == 0)
        add(z3.Sum(self.guard) == board.guardian_figures)
        add(z3.Or([z3.Sum(self.minion) == k for k in counts]))
        self.rolls: list[Roll] = []

    def add_roll(self, roll: Roll, target: int) -> None:
        board = self.board
        slots = min(target, sum(roll))
        if slots <= 0:
            return
        if roll in self.rolls:
            # z3 proposed a placement its own encoding accepts for this roll, yet the search refutes it.
            raise OracleDisagreement(f"the z3 wave encoding and the search disagree on roll {roll}")
        encoding = WaveEncoding(
            board,
            slots,
            roll,
            self.defeated,
            f"r{len(self.rolls)}",
            damage=lambda h, c: h.base[c] + self.minion[c] * h.unit[c],
            kept=lambda h, c: z3.IntVal(0) if board.purple_all_damage else self.minion[c] * h.minion_unit[c],
            minion_cond=lambda h, c: z3.And(z3.BoolVal(h.cond_minion), self.minion[c] > 0),
            live_guardian=lambda c: self.guard[c] > 0,
        )
        self.solver.add(*encoding.constraints)
        if sum(roll) < target:
            self.solver.add(z3.BoolVal(False))
        self.rolls.append(roll)

    def layout(self, model: z3.ModelRef) -> Layout:
        guards = tuple(
            c
            for c in range(self.board.size)
            for _ in range(model.eval(self.guard[c], model_completion=True).as_long())
        )
        minions = tuple(model.eval(m, model_completion=True).as_long() for m in self.minion)
        return Layout(guards, minions)

    def block(self, layout: Layout) -> None:
        same = [self.guard[c] == layout.guardians.count(c) for c in range(self.board.size)]
        same += [self.minion[c] == layout.minions[c] for c in range(self.board.size)]
        self.solver.add(z3.Not(z3.And(same)))


def z3_guaranteed(
    scenario: Scenario, player: int = 0, deadline: Deadline | None = None, list_ties: bool = True
) -> PlacementAnswer:
    """Objective (a) by z3 with counterexample rolls; ties listed by blocking found placements."""
    started = time.perf_counter()
    deadline = deadline or Deadline()
    setup = _setup(scenario, player)
    board, defeated, rolls, nodes, unreachable = (
        setup.board,
        setup.defeated,
        setup.rolls,
        setup.nodes,
        setup.unreachable,
    )
    counts = minion_counts(scenario, board)
    top = max(sum(r) for r in rolls)
    evaluated = 0
    try:
        for target in range(top, -1, -1):
            model = PlacementModel(board, nodes, counts, defeated)
            found: list[Layout] = []
            while True:
                if z3_check(model.solver, deadline) == z3.unsat:
                    break
                layout = model.layout(model.solver.model())
                evaluated += 1
                evaluator = LayoutEvaluator(board, layout)
                failing = next((r for r in rolls if evaluator.value(r, defeated) < target), None)
                if failing is not None:
                    model.add_roll(failing, target)
                    continue
                found.append(layout)
                if not list_ties:
                    break
                model.block(layout)
            if found:
                ranking = tuple(Ranked(lay, target) for lay in found[:10])
                answer = PlacementAnswer(
                    Status.PROVEN,
                    "guaranteed",
                    "z3",
                    target,
                    tuple(sorted(found, key=_order)),
                    ranking,
                    evaluated,
                    time.perf_counter() - started,
                    unreachable,
                )
                return _with_worst_plan(scenario, player, board, answer, defeated)
    except TimeLimit:
        pass
    return PlacementAnswer(
        Status.UNKNOWN,
        "guaranteed",
        "z3",
        None,
        (),
        (),
        evaluated,
        time.perf_counter() - started,
        unreachable,
    )


def _order(layout: Layout) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (layout.guardians, tuple(-m for m in layout.minions))


# -- the oracle baseline ---------------------------------------------------------------------


def oracle_guaranteed_for(
    scenario: Scenario,
    player: int,
    board: Board,
    layout: Layout,
    rolls: Sequence[Roll],
    cut: int,
    deadline: Deadline,
) -> int:
    """One placement's value, every roll searched through the oracle."""
    value = 10**9
    for roll in rolls:
        deadline.check()
        got = oracle_wave(
            scenario, player, roll_heroes(roll), placement=layout.placement(board), deadline=deadline
        ).defeated
        value = min(value, got)
        if value < cut:
            break
    return value


def oracle_guaranteed(
    scenario: Scenario, player: int = 0, deadline: Deadline | None = None, sample: int | None = None
) -> PlacementAnswer:
    """Objective (a) through the oracle: every placement (or the first ``sample``), every roll."""
    started = time.perf_counter()
    deadline = deadline or Deadline()
    setup = _setup(scenario, player, exact=False)
    board, rolls, nodes, unreachable = setup.board, setup.rolls, setup.nodes, setup.unreachable
    best, tied, evaluated, status = -1, [], 0, Status.PROVEN
    choices = list(layouts(board, minion_counts(scenario, board), nodes))
    if sample is not None:
        choices = choices[:sample]
    progress = Progress("placements (oracle)", len(choices))
    try:
        for layout in choices:
            deadline.check()
            evaluated += 1
            progress.step()
            value = oracle_guaranteed_for(scenario, player, board, layout, rolls, best, deadline)
            if value > best:
                best, tied = value, [layout]
            elif value == best:
                tied.append(layout)
    except TimeLimit:
        status = Status.UNKNOWN
    finally:
        progress.finish()
    proven = status is Status.PROVEN and sample is None
    return PlacementAnswer(
        Status.PROVEN if proven else Status.UNKNOWN,
        "guaranteed",
        "oracle",
        best if proven else None,
        tuple(tied) if proven else (),
        (),
        evaluated,
        time.perf_counter() - started,
        unreachable,
    )


# -- objective (b): the whole Invasion phase ---------------------------------------------------


def search_expected(
    scenario: Scenario,
    measure: Any,
    target: int | None = None,
    player: int = 0,
    deadline: Deadline | None = None,
) -> PlacementAnswer:
    """Objective (b): the placement maximising the phase's value under the optimal policy.

    Exact: every placement's DP is solved, except that placements whose upper bound cannot reach
    the best value are skipped. For ``trophy`` and ``no-escape`` the bound is the chance that the
    first wave can be defeated entirely (any escape in it ends the phase in failure).
    """
    from solver.stonespine.policy import InvasionDP, Measure

    started = time.perf_counter()
    deadline = deadline or Deadline()
    board, _, defeated = board_for(scenario, player)
    _require_exact(board)
    if measure is Measure.TROPHY and target is None and scenario.initial.solo:
        target = scenario.data.value("jael_defeats")[board.year - 1] + 1
    dist = roll_distribution(scenario.data, board.year)
    nodes, unreachable = candidate_nodes(board)
    choices = list(layouts(board, minion_counts(scenario, board), nodes))
    best: Fraction | None = None
    tied: list[Layout] = []
    ranked: list[Ranked] = []
    evaluated, status = 0, Status.PROVEN
    bounded = measure in (Measure.TROPHY, Measure.NO_ESCAPE)
    progress = Progress("placements (phase DP)", len(choices))
    try:
        for layout in choices:
            deadline.check()
            progress.step()
            if bounded and best is not None:
                evaluator = LayoutEvaluator(board, layout)
                bound = sum((p for r, p in dist if evaluator.value(r, defeated) == sum(r)), Fraction(0))
                if bound < best:
                    continue
            evaluated += 1
            value = InvasionDP(board, layout, dist, measure, target, defeated, deadline).solve().value
            if best is None or value > best:
                best, tied = value, [layout]
            elif value == best:
                tied.append(layout)
            ranked.append(Ranked(layout, value))
    except TimeLimit:
        status = Status.UNKNOWN
    finally:
        progress.finish()
    ranked.sort(key=lambda r: (-r.value, _order(r.layout)))
    if status is Status.PROVEN and tied:
        # The oracle plays the best placement's optimal policy over every dice outcome.
        from solver.stonespine.policy import verify_phase

        best_dp = InvasionDP(board, tied[0], dist, measure, target, defeated, deadline)
        placed = _placed(scenario, player, tied[0].placement(board))
        verify_phase(placed, best_dp, best_dp.solve(), player, deadline)
    return PlacementAnswer(
        status,
        f"expected {measure.value}" + (f" >= {target}" if target is not None else ""),
        "search",
        best if status is Status.PROVEN else None,
        tuple(tied) if status is Status.PROVEN else (),
        tuple(ranked[:10]),
        evaluated,
        time.perf_counter() - started,
        unreachable,
    )

"""Query 4: optimal Preparation - where the guardian figure(s) and unlocked minions go.

Objectives:

* ``guaranteed`` (a): the number of heroes the player can surely defeat in the first wave,
  whatever the dice show: ``min over rolls of max over orders and routes``;
* ``expected`` (b): the value of the whole Invasion phase under the optimal continue/close
  policy (:mod:`invasion_oracle.solver.stonespine.policy`), for a chosen measure.

Engines (all exact; they must agree):

* ``search`` - branch and bound over placement *classes*:

  - figures where they can do nothing are one class: in a chamber no hero can enter, and minions
    in any chamber where entering is the same with or without them (read off the tabulated
    rules: the guardian's own chamber, a chamber that defeats every hero anyway);
  - placements that a symmetry of the board (a permutation of chambers keeping the first chamber,
    the exit, the connections and every hero's damage and conditions) maps onto each other are
    one class, represented by the first in search order;
  - bounds: no placement can guarantee more heroes than the smallest roll brings, nor more than
    the best placement could for any single roll (:func:`relaxed_bound`: the wave with the
    remaining minions free for each hero); a class is dropped as soon as one roll puts it below
    the best found (rolls tried hardest-first), and the search stops once the best value meets
    the bound and enough ties are listed;
  - sub-results shared between the rolls of a placement (:class:`LayoutEvaluator`);

* ``z3`` - counterexample-guided: z3 proposes a placement meeting the rolls collected so far
  (each a wave encoding over symbolic guardians and minions), the search checks it against every
  roll and returns a failing roll as the next counterexample; "unsat" proves no placement
  reaches the target (:func:`cegis_guaranteed`, the loop);
* ``cpsat`` - the same loop on OR-Tools CP-SAT
  (:mod:`~invasion_oracle.solver.stonespine.cpsat_placement`), ties in the search's order;
* ``oracle`` - every placement class and roll searched through the oracle itself (the baseline).

The best placement is replayed through the oracle for its worst roll before it is reported, and
every answer is a :class:`~invasion_oracle.solver.stonespine.answers.PlacementAnswer`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, Protocol

import z3

from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.solver.common import (
    Deadline,
    OracleDisagreement,
    Progress,
    Status,
    TimeLimit,
    checking,
    z3_check,
)
from invasion_oracle.solver.stonespine.answers import (
    FigurePlacement,
    PlacementAnswer,
    RankedPlacement,
    stop_reason,
)
from invasion_oracle.solver.stonespine.board import Board, Layout
from invasion_oracle.solver.stonespine.dice import Roll, roll_distribution, roll_heroes
from invasion_oracle.solver.stonespine.fast import LayoutEvaluator
from invasion_oracle.solver.stonespine.space import (
    Ranked,
    Space,
    candidate_nodes,
    layouts,
    minion_counts,
    placement_space,
)
from invasion_oracle.solver.stonespine.waves import (
    WaveEncoding,
    WavePlan,
    oracle_plan_check,
    oracle_wave,
    plan_steps,
    search_wave,
)


def guaranteed_value(
    evaluator: LayoutEvaluator, rolls: list[Roll], cut: int, defeated: int = 0
) -> tuple[int, Roll | None]:
    """min over rolls of the wave value; stops early (returning something < cut) when below ``cut``.

    ``rolls`` is reordered in place: the roll that cut goes first next time.
    """
    # No roll's value counts past the fewest heroes a roll brings, and past the first roll only a
    # value below the least so far matters: the wave search stops there.
    value, worst = min((sum(roll) for roll in rolls), default=10**9), None
    for i, roll in enumerate(rolls):
        got = evaluator.value(roll, defeated, enough=value)
        if got < value or worst is None:
            value, worst = got, roll
        if value < cut:
            rolls.insert(0, rolls.pop(i))
            break
    return value, worst


def _hardest_first(rolls: Sequence[Roll]) -> list[Roll]:
    """Rolls with the most heroes first, purple and red (the tougher colours) before black."""
    return sorted(rolls, key=lambda r: (-sum(r), -r[2], -r[1], r))


def upper_bound(space: Space) -> int:
    """No placement guarantees more heroes than the smallest roll brings."""
    return min((sum(r) for r in space.rolls), default=0)


# -- the search -----------------------------------------------------------------------------------


# When the placement classes left number more than PROOF_FROM, the search asks z3, after
# PROOF_AFTER evaluations, to prove that nothing beats the best found, with a z3 resource budget of
# PROOF_BUDGET units per class left (z3's work grows far slower than the number of classes).
# Counts, not seconds, so every run does the same work and prints the same answer.
PROOF_FROM = 250_000
PROOF_AFTER = 2_000
PROOF_BUDGET = 100
# From BATCH_FROM placement classes on, the classes after the first SCREEN_AFTER are screened in
# blocks (numpy, :mod:`invasion_oracle.solver.stonespine.batch`): a block's classes that some roll
# keeps below the cut are dropped together, and only the others are evaluated one by one. Below
# it, importing numpy and setting up the tables would cost more than the classes.
BATCH_FROM = 3_000
SCREEN_AFTER = 64


def search_guaranteed(
    scenario: Scenario,
    player: int = 0,
    deadline: Deadline | None = None,
    top: int = 10,
    prove: bool = True,
    batch_from: int | None = None,
) -> PlacementAnswer:
    """Objective (a) by branch and bound over placement classes on the compiled board.

    Lists up to ``top`` tied placements (``0``: all); once that many are found, only a strictly
    better placement can change the answer, so the bound is tightened to that. With ``prove``,
    at a few checkpoints z3 is asked whether any placement beats the best found (counterexample
    rolls as in :func:`z3_guaranteed`); "no" proves the best optimal and ends the search (the ties
    listed are then those found so far), a placement it finds becomes the new best.

    With ``batch_from`` (default :data:`BATCH_FROM`) classes or more, once the z3 checkpoints
    are behind, classes are screened in blocks (:func:`~invasion_oracle.solver.stonespine.batch.screened`):
    the same classes are dropped and evaluated, in the same order, so the answer is the same.
    """
    deadline = deadline or Deadline()
    search = deadline.share(0.85)
    space = placement_space(scenario, player)
    board, defeated = space.board, space.defeated
    bound = upper_bound(space)
    rolls = _hardest_first(space.rolls)
    best, tied, evaluated = -1, list[Layout](), 0
    stopped: str | None = None
    complete = True
    total = space.estimate()
    checkpoints = [PROOF_AFTER] if prove and total > PROOF_FROM else []
    progress = Progress("placements")
    batch = total >= (BATCH_FROM if batch_from is None else batch_from)

    def cut() -> int:
        return best + 1 if top and len(tied) >= top else best

    try:
        for layout in _search_order(space, rolls, cut, search, checkpoints, batch):
            full = top and len(tied) >= top
            if best >= bound and (full or not complete):
                complete = complete and not full
                break
            if isinstance(layout, int):  # that many classes, each below some roll's cut
                progress.step(layout)
                evaluated += layout
                continue
            progress.step()
            evaluated += 1
            evaluator = LayoutEvaluator(board, layout, space.tables, search)
            value, _ = guaranteed_value(evaluator, rolls, best + 1 if full else best, defeated)
            if value > best:
                best, tied, complete = value, [layout], True
            elif value == best and not full:
                tied.append(layout)
            elif value == best and complete:
                # The list is full and the cut stopped at the best: one more tie, unlisted, makes
                # the list incomplete (every roll looked at, this once).
                complete = guaranteed_value(evaluator, rolls, best, defeated)[0] < best
            if checkpoints and evaluated == checkpoints[0]:
                checkpoints.pop(0)
                if best < bound:
                    budget = PROOF_BUDGET * (total - evaluated)
                    proof, better = prove_bound(space, best + 1, rolls[:1], budget, search)
                    if better is not None:
                        best, tied = better[1], [space.canonical(better[0])]
                    elif proof:
                        bound, complete = best, False
    except TimeLimit as stop:
        stopped, complete = stop.reason, False
    finally:
        progress.finish()
    return _answer(
        scenario, player, space, "search", best, bound, tied, complete, evaluated, stopped, deadline
    )


def _search_order(
    space: Space,
    rolls: list[Roll],
    cut: Callable[[], int],
    deadline: Deadline,
    checkpoints: list[int],
    batch: bool,
) -> Iterator[Layout | int]:
    """The classes in search order, for :func:`search_guaranteed`; with ``batch``, runs of classes
    the screening drops come as their number. The screening starts after the z3 checkpoints: the
    roll z3 starts from is the one the classes before the checkpoint moved first, one by one."""
    if not batch:
        yield from space.classes(deadline)
        return
    # The first classes one by one: a search meeting its bound at once needs no screening (nor
    # numpy, nor its tables).
    before = max(checkpoints[-1] if checkpoints else 0, SCREEN_AFTER)
    yield from itertools.islice(space.classes(deadline), before)
    from invasion_oracle.solver.stonespine.batch import screened

    yield from screened(space, rolls, cut, deadline, after=before)


def prove_bound(
    space: Space, target: int, rolls: Sequence[Roll], budget: int, deadline: Deadline
) -> tuple[bool, tuple[Layout, int] | None]:
    """Does any placement guarantee ``target`` heroes? z3 with counterexample rolls, starting from
    ``rolls``, within ``budget`` z3 resource units: ``(True, None)`` proves none does;
    ``(False, (layout, value))`` is one that does; ``(False, None)``: the budget ran out."""
    model = PlacementModel(space, space.guardian_nodes())
    model.deadline = deadline
    order = _hardest_first(space.rolls)
    for roll in rolls:
        model.add_roll(roll, target)
    start = _rlimit(model.solver)
    while True:
        deadline.check()
        left = budget - (_rlimit(model.solver) - start)
        if left <= 0:
            return False, None
        model.solver.set("rlimit", left)
        ms = deadline.z3_ms()
        if ms is not None:
            model.solver.set("timeout", ms)
        result = checking(model.solver)
        if result == z3.unsat:
            return True, None
        if result != z3.sat:
            deadline.check()
            return False, None
        layout = model.layout(model.solver.model())
        evaluator = LayoutEvaluator(space.board, layout, space.tables, deadline)
        values = [evaluator.value(r, space.defeated) for r in order]
        failing = next((r for r, v in zip(order, values, strict=True) if v < target), None)
        if failing is None:
            return False, (layout, min(values))
        model.add_roll(failing, target)


def _rlimit(solver: Any) -> int:
    stats = solver.statistics()
    names = list(stats.keys())
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in names else 0


def _answer(
    scenario: Scenario,
    player: int,
    space: Space,
    engine: str,
    best: int,
    bound: int,
    tied: list[Layout],
    complete: bool,
    evaluated: int,
    stopped: str | None,
    deadline: Deadline,
) -> PlacementAnswer:
    """The answer, with the first tied placement's worst roll and plan replayed through the oracle."""
    board = space.board
    proven = stopped is None or best >= bound
    if not tied:
        return PlacementAnswer(
            Status.UNKNOWN,
            "guaranteed",
            engine,
            None,
            bound,
            (),
            False,
            (),
            evaluated,
            _names(board, space.unreachable),
            stopped=stop_reason(stopped),
        )
    worst, plan, replayed = None, (), False
    try:
        layout = tied[0]
        evaluator = LayoutEvaluator(board, layout, space.tables, deadline)
        worst = min(space.rolls, key=lambda r: (evaluator.value(r, space.defeated), r))
        wave = search_wave(board, layout, roll_heroes(worst), space.defeated, deadline, space.tables)
        if wave.defeated != best:
            raise OracleDisagreement(f"the worst roll gives {wave.defeated}, the search said {best}")
        oracle_plan_check(scenario, player, board, wave, placement=layout.placement(board), deadline=deadline)
        plan, replayed = plan_steps(board, wave), True
    except TimeLimit as stop:
        stopped = stopped or stop.reason
        proven = False
    return PlacementAnswer(
        Status.PROVEN if proven else Status.BEST_FOUND,
        "guaranteed",
        engine,
        best,
        best if proven else bound,
        tuple(FigurePlacement.of(board, t) for t in tied),
        complete and proven,
        (),
        evaluated,
        _names(board, space.unreachable),
        worst_roll=worst,
        plan=plan,
        replayed=replayed,
        stopped=None if proven and stopped is None else stop_reason(stopped),
    )


def _names(board: Board, nodes: Sequence[int]) -> tuple[str, ...]:
    return tuple(board.name(n) for n in nodes)


def _placed(scenario: Scenario, player: int, placement: Any) -> Scenario:
    """The scenario with ``player``'s figures placed as given."""
    state = scenario.initial
    return replace(
        scenario, initial=state.with_player(player, replace(state.players[player], placement=placement))
    )


# -- z3, counterexample guided -----------------------------------------------------------


class PlacementModel:
    """z3 variables for a placement and the wave encodings of the rolls collected so far."""

    def __init__(self, space: Space, nodes: Sequence[int]) -> None:
        board = space.board
        self.board = board
        self.space = space
        self.nodes = tuple(nodes)
        top = max(space.counts, default=0)
        # Chambers outside ``nodes`` hold nothing: plain zeros, which the rules fold away.
        self.guard: list[Any] = [z3.Int(f"g{c}") if c in self.nodes else 0 for c in range(board.size)]
        self.minion: list[Any] = [z3.Int(f"m{c}") if c in self.nodes else 0 for c in range(board.size)]
        self.defeated = space.defeated
        self.deadline = Deadline()  # set by the caller: building a roll's encoding keeps its limit
        self.solver = z3.Solver()
        add = self.solver.add
        for c in self.nodes:
            add(z3.And(self.guard[c] >= 0, self.guard[c] <= board.guardian_figures))
            add(z3.And(self.minion[c] >= 0, self.minion[c] <= top))
        add(z3.Sum([self.guard[c] for c in self.nodes]) == board.guardian_figures)
        add(z3.Or([z3.Sum([self.minion[c] for c in self.nodes]) == k for k in space.counts]))
        self.rolls: list[Roll] = []

    def add_roll(self, roll: Roll, target: int) -> None:
        slots = min(target, sum(roll))
        if slots <= 0:
            return
        if roll in self.rolls:
            # z3 proposed a placement its own encoding accepts for this roll, yet the search refutes it.
            raise OracleDisagreement(f"the z3 wave encoding and the search disagree on roll {roll}")
        encoding = WaveEncoding(
            self.board,
            slots,
            roll,
            self.defeated,
            f"r{len(self.rolls)}",
            minions=self.minion,
            guardians=[g > 0 if isinstance(g, z3.ExprRef) else False for g in self.guard],
            deadline=self.deadline,
        )
        self.solver.add(*encoding.constraints)
        if sum(roll) < target:
            self.solver.add(z3.BoolVal(False))
        self.rolls.append(roll)

    def propose(self) -> Layout | None:
        """A placement meeting every roll added so far (z3's choice), or None: there is none."""
        if z3_check(self.solver, self.deadline) == z3.unsat:
            return None
        return self.layout(self.solver.model())

    def layout(self, model: z3.ModelRef) -> Layout:
        def count(term: Any) -> int:
            return term if isinstance(term, int) else model.eval(term, model_completion=True).as_long()

        guards = tuple(c for c in range(self.board.size) for _ in range(count(self.guard[c])))
        return Layout(guards, tuple(count(m) for m in self.minion))

    def block(self, layout: Layout) -> None:
        """Rule out ``layout``'s whole class (every placement with the same representative)."""
        space = self.space
        same = [self.guard[c] == layout.guardians.count(c) for c in self.nodes]
        keep = set(space.minion_nodes(layout.guardians))
        same += [
            self.minion[c] == layout.minions[c] for c in self.nodes if c in keep and c not in layout.guardians
        ]
        self.solver.add(z3.Not(z3.And(same)))


class Proposer(Protocol):
    """One solver's side of the counterexample-guided placement search (:func:`cegis_guaranteed`):
    placements over the space's chambers meeting the rolls added so far."""

    def add_roll(self, roll: Roll, target: int) -> None:
        """From now on a placement must defeat ``target`` heroes of ``roll`` (its wave encoding)."""

    def propose(self) -> Layout | None:
        """A placement meeting every roll added and no blocked class; None: there is none."""

    def block(self, layout: Layout) -> None:
        """Rule out ``layout``'s class from later proposals."""


def z3_guaranteed(
    scenario: Scenario,
    player: int = 0,
    deadline: Deadline | None = None,
    list_ties: bool = True,
    top: int = 0,
) -> PlacementAnswer:
    """Objective (a) by z3 with counterexample rolls; ties listed by blocking found classes (the
    first ``top`` z3 finds, not necessarily the search's first ``top``)."""

    def model(space: Space, search: Deadline) -> PlacementModel:
        placement = PlacementModel(space, space.guardian_nodes())
        placement.deadline = search
        return placement

    return cegis_guaranteed(scenario, player, deadline, list_ties, top, "z3", model)


def cegis_guaranteed(
    scenario: Scenario,
    player: int,
    deadline: Deadline | None,
    list_ties: bool,
    top: int,
    engine: str,
    proposer: Callable[[Space, Deadline], Proposer],
) -> PlacementAnswer:
    """Objective (a), counterexample guided, for any solver. A ``proposer`` per target value
    proposes placements; the compiled search checks each against every roll (hardest first) and
    hands a failing roll back as the next counterexample. The target climbs: each placement
    meeting it is the best so far (its value, the least over every roll, may pass the target) and
    the next target is one more, until no placement is left (the best is then proven) or the best
    meets the bound; so one target only is proven unreachable. The ties are then listed at the
    best value, each class blocked once found, in the search's class order."""
    deadline = deadline or Deadline()
    search = deadline.share(0.85)
    space = placement_space(scenario, player)
    board, defeated = space.board, space.defeated
    bound = ceiling = upper_bound(space)
    rolls = _hardest_first(space.rolls)
    evaluated = 0
    stopped: str | None = None
    more = True  # ties may lie beyond the list
    best, found = -1, list[Layout]()
    first = found  # the best placement found while climbing (a tie, if the listing is stopped)

    def meeting(model: Proposer, target: int) -> tuple[Layout, int] | None:
        """The next proposal meeting ``target`` on every roll and its value; None: there is none."""
        nonlocal evaluated
        while True:
            layout = model.propose()
            if layout is None:
                return None
            evaluated += 1
            evaluator = LayoutEvaluator(board, layout, space.tables, search)
            value = min((sum(roll) for roll in rolls), default=10**9)  # as in guaranteed_value
            for roll in rolls:
                got = evaluator.value(roll, defeated, enough=value)
                if got < target:
                    model.add_roll(roll, target)
                    break
                value = min(value, got)
            else:
                return layout, value

    try:
        target, model = 0, proposer(space, search)
        finder = (target, model)  # the target and model that found the best
        while True:
            met = meeting(model, target)
            if met is None:
                bound = best  # nothing meets best + 1
                break
            layout, best = met
            found = first = [space.canonical(layout)]
            finder = (target, model)
            if best >= bound:
                break
            target, model = best + 1, proposer(space, search)
        # Whether ties lie beyond the list: as the search, which knows below the bound (it tries
        # every class) and at the bound stops once the list is full.
        more = not list_ties or not found or bool(top and len(found) >= top and best >= ceiling)
        if not more:
            if finder[0] == best:  # the model that found the best goes on to its ties
                model = finder[1]
                model.block(layout)
            else:
                model, found = proposer(space, search), []
            while (met := meeting(model, best)) is not None:
                # z3 blocks one placement's class up to figures doing nothing, not its mirror
                # images: an image proposed later is the same class and counted once.
                canonical = space.canonical(met[0])
                if canonical not in found:
                    if top and len(found) >= top:
                        more = True  # one more than listed
                        break
                    found.append(canonical)
                    if top and len(found) >= top and best >= ceiling:
                        more = True
                        break
                model.block(met[0])
    except TimeLimit as stop:
        stopped = stop.reason
    tied = sorted(found or first, key=lambda t: search_order(space, t))
    complete = not more and stopped is None
    return _answer(scenario, player, space, engine, best, bound, tied, complete, evaluated, stopped, deadline)


def search_order(space: Space, layout: Layout) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """Where :meth:`Space.classes` yields ``layout``'s class: by guardian positions, then the
    number of minions (SS-MINIONS=optional tries fewer first), then minion positions."""
    guardians, minions = space.key(layout)
    return guardians, len(minions), minions


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
            scenario,
            player,
            roll_heroes(roll),
            placement=layout.placement(board),
            deadline=deadline,
            replay=False,  # the number is all the baseline needs
        ).defeated
        value = min(value, got)
        if value < cut:
            break
    return value


def oracle_guaranteed(
    scenario: Scenario, player: int = 0, deadline: Deadline | None = None, sample: int | None = None
) -> PlacementAnswer:
    """Objective (a) through the oracle: every placement class (or the first ``sample``), every roll."""
    deadline = deadline or Deadline()
    search = deadline.share(0.85)
    space = placement_space(scenario, player, exact=False)
    board = space.board
    rolls = _hardest_first(space.rolls)
    best, tied, evaluated = -1, list[Layout](), 0
    stopped: str | None = None
    progress = Progress("placements (oracle)")
    try:
        for layout in space.classes(search):
            if sample is not None and evaluated >= sample:
                stopped = "sample"
                break
            evaluated += 1
            progress.step()
            value = oracle_guaranteed_for(scenario, player, board, layout, rolls, best, search)
            if value > best:
                best, tied = value, [layout]
            elif value == best:
                tied.append(layout)
    except TimeLimit as stop:
        stopped = stop.reason
    finally:
        progress.finish()
    bound = upper_bound(space)
    if stopped is None:
        return PlacementAnswer(
            Status.PROVEN,
            "guaranteed",
            "oracle",
            best,
            best,
            tuple(FigurePlacement.of(board, t) for t in tied),
            True,
            (),
            evaluated,
            _names(board, space.unreachable),
        )
    return PlacementAnswer(
        Status.BEST_FOUND if tied else Status.UNKNOWN,
        "guaranteed",
        "oracle",
        best if tied else None,
        bound,
        tuple(FigurePlacement.of(board, t) for t in tied),
        False,
        (),
        evaluated,
        _names(board, space.unreachable),
        stopped=stop_reason(stopped),
    )


# -- objective (b): the whole Invasion phase ---------------------------------------------------


def _best_so_far(
    best: Fraction | None, tied: list[Layout], layout: Layout, value: Fraction, full: bool
) -> tuple[Fraction | None, list[Layout]]:
    """The best value and the layouts tied at it, once ``layout`` scored ``value`` (no more ties
    kept once the list is ``full``)."""
    if best is None or value > best:
        return value, [layout]
    if value == best and not full:
        tied.append(layout)
    return best, tied


def _first_wave_defeated_chance(space: Space, layout: Layout, dist: Any, search: Deadline) -> Fraction:
    """The chance that ``layout`` defeats the whole first wave (an escape there ends the phase in
    failure for ``trophy`` and ``no-escape``): the bound of the branch and bound."""
    evaluator = LayoutEvaluator(space.board, layout, space.tables, search)
    return sum((p for r, p in dist if evaluator.value(r, space.defeated) == sum(r)), Fraction(0))


def _replay_best_policy(
    scenario: Scenario,
    player: int,
    space: Space,
    layout: Layout,
    dist: Any,
    measure: Any,
    target: int | None,
    deadline: Deadline,
) -> str | None:
    """The oracle plays the best placement's optimal policy over every dice outcome; the reason it
    stopped, or None when the replay finished."""
    from invasion_oracle.solver.stonespine.policy import InvasionDP, verify_phase

    board = space.board
    try:
        best_dp = InvasionDP(board, layout, dist, measure, target, space.defeated, deadline)
        placed = _placed(scenario, player, layout.placement(board))
        verify_phase(placed, best_dp, best_dp.solve(), player, deadline)
    except TimeLimit as stop:
        return stop.reason
    return None


def search_expected(
    scenario: Scenario,
    measure: Any,
    target: int | None = None,
    player: int = 0,
    deadline: Deadline | None = None,
    top: int = 10,
) -> PlacementAnswer:
    """Objective (b): the placement maximising the phase's value under the optimal policy.

    Branch and bound over the same placement classes: every class's DP is solved, except that
    classes whose upper bound cannot reach the best value are skipped. For ``trophy`` and
    ``no-escape`` the bound is the chance that the first wave can be defeated entirely (any escape
    in it ends the phase in failure); for every measure, the phase's best value over the
    measure's range bounds the search (a class reaching it ends the search once ties are listed).
    """
    from invasion_oracle.solver.stonespine.policy import InvasionDP, Measure

    deadline = deadline or Deadline()
    search = deadline.share(0.7)
    space = placement_space(scenario, player)
    board, defeated = space.board, space.defeated
    if measure is Measure.TROPHY and target is None and scenario.initial.solo:
        target = scenario.data.value("jael_defeats")[board.year - 1] + 1
    dist = roll_distribution(scenario.data, board.year)
    ceiling: Fraction | None = Fraction(1) if measure in (Measure.TROPHY, Measure.NO_ESCAPE) else None
    best: Fraction | None = None
    tied: list[Layout] = []
    ranked: list[Ranked] = []
    evaluated = 0
    stopped: str | None = None
    complete = True
    bounded = measure in (Measure.TROPHY, Measure.NO_ESCAPE)
    progress = Progress("placements (phase DP)")
    try:
        for layout in space.classes(search):
            full = top and len(tied) >= top
            if full and ceiling is not None and best is not None and best >= ceiling:
                complete = False
                break
            progress.step()
            if bounded and best is not None:
                chance = _first_wave_defeated_chance(space, layout, dist, search)
                if chance < best or (full and chance == best):
                    continue
            evaluated += 1
            value = InvasionDP(board, layout, dist, measure, target, defeated, search).solve().value
            best, tied = _best_so_far(best, tied, layout, value, bool(full))
            ranked.append(Ranked(layout, value))
            ranked.sort(key=lambda r: (-r.value, space.key(r.layout)))
            del ranked[10:]
    except TimeLimit as stop:
        stopped, complete = stop.reason, False
    finally:
        progress.finish()
    objective = f"expected {measure.value}" + (f" >= {target}" if target is not None else "")
    ranking = tuple(RankedPlacement(FigurePlacement.of(board, r.layout), r.value) for r in ranked)
    if best is None or not tied:
        return PlacementAnswer(
            Status.UNKNOWN,
            objective,
            "search",
            None,
            ceiling,
            (),
            False,
            ranking,
            evaluated,
            _names(board, space.unreachable),
            stopped=stop_reason(stopped),
        )
    replayed = False
    if stopped is None:
        stopped = _replay_best_policy(scenario, player, space, tied[0], dist, measure, target, deadline)
        replayed = stopped is None
    proven = stopped is None
    return PlacementAnswer(
        Status.PROVEN if proven else Status.BEST_FOUND,
        objective,
        "search",
        best,
        best if proven else ceiling,
        tuple(FigurePlacement.of(board, t) for t in tied),
        complete and proven,
        ranking,
        evaluated,
        _names(board, space.unreachable),
        replayed=replayed,
        stopped=stop_reason(stopped),
    )


def timed(work: Any) -> tuple[float, Any]:
    """``(seconds, result)`` of ``work()`` (for the benchmarks)."""
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


__all__ = [
    "Proposer",
    "Ranked",
    "Space",
    "WavePlan",
    "candidate_nodes",
    "cegis_guaranteed",
    "guaranteed_value",
    "layouts",
    "minion_counts",
    "oracle_guaranteed",
    "placement_space",
    "search_expected",
    "search_guaranteed",
    "search_order",
    "z3_guaranteed",
]

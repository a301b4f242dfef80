"""The year planner: Improvement purchases, Preparation placement and the gate policy, together.

From a state at the start of the Improvement Phase (seed 000, "II. Improvement Phase") or of
Preparation ("III. Preparation Phase"), :func:`solve_plan` chooses

1. the purchases: every legal sequence of the planning player's Improvement answers (``buy-xp``,
   ``remove-rubble``, ``buy-passage``, ``pass``, and the level-up and instant-ability choices
   buying XP triggers) is walked **through the oracle** (:class:`~invasion_oracle.model.stonespine.game.StonespineGame`),
   so prices, the market's limits and the turn order are the oracle's own. The other players'
   Improvement requests are answered by the scenario's ``decisions`` object without its script
   (its ``prefer`` list, then the first legal option, ``pass``): their purchases are decisions
   the scenario gives, taken in the order the oracle asks them (ruling ``SS-IMPROVEMENT-ORDER``);
2. the placement: every placement class of the compiled board after those purchases
   (:class:`~invasion_oracle.solver.stonespine.space.Space`);
3. the gate policy: the exact DP over defeated-chamber sets (:class:`~invasion_oracle.solver.stonespine.policy.InvasionDP`).

Sequences of purchases that compile to the same board (same connections, damage, minions) have
the same value and are one *purchase class*, represented by its shortest sequence. Two plans
are answered: the one maximising the measure in expectation over the dice, and the one
maximising the guaranteed value (the worst dice outcome of every roll, :class:`PlanDP` with
``worst``). Measures (:class:`PlanMeasure`): ``trophy`` (chance of no escape and at least
``target`` defeats), ``score`` (this year's trophy value when it is taken, minus this year's
demerit value when a hero escapes: data values ``trophies`` and ``demerits``), ``defeated``
(heroes defeated) and ``demerit`` (minus the demerit value on an escape).

The best plan is replayed through the oracle: its purchases and placement are played as answers
to the oracle's own requests from the starting state, then the policy over every dice outcome;
the expected (and worst) value recomputed from those replays must equal the claim.

:func:`oracle_plan_value` is the baseline: an expectimax over the oracle's whole game tree from
the same state (every Improvement answer, every placement request, every hero order, route and
gate decision; dice averaged, or minimised), with no compiled board at all.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar

from invasion_oracle.model.core.answers import Answers
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest, Option
from invasion_oracle.model.core.errors import MalformedInputError, RulesError
from invasion_oracle.model.stonespine.entering import Rules
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.state import GameState, Stage
from invasion_oracle.solver.common import Deadline, OracleDisagreement, Progress, Status, TimeLimit
from invasion_oracle.solver.stonespine.answers import FigurePlacement, WaveStep, roll_json, stop_reason
from invasion_oracle.solver.stonespine.board import Board, ChamberNumbersCache, Layout, compile_board
from invasion_oracle.solver.stonespine.dice import Roll, roll_distribution, roll_heroes
from invasion_oracle.solver.stonespine.fast import EntryTables, LayoutEvaluator
from invasion_oracle.solver.stonespine.policy import InvasionDP, Measure, oracle_expectation
from invasion_oracle.solver.stonespine.space import Space, placement_space
from invasion_oracle.solver.stonespine.waves import oracle_plan_check, plan_steps, search_wave


class PlanMeasure(enum.StrEnum):
    TROPHY = "trophy"
    SCORE = "score"
    DEFEATED = "defeated"
    DEMERIT = "demerit"


INVASION = (Stage.ROLL, Stage.REPEL, Stage.CONTINUE)


@dataclass(frozen=True, slots=True)
class Scoring:
    """What one Invasion phase's end is worth under a measure (exact)."""

    measure: PlanMeasure
    target: int
    trophy: int  # this year's trophy value
    demerit: int  # this year's demerit value

    def value(self, defeated: int, escaped: bool) -> Fraction:
        won = not escaped and defeated >= self.target
        if self.measure is PlanMeasure.TROPHY:
            return Fraction(int(won))
        if self.measure is PlanMeasure.DEFEATED:
            return Fraction(defeated)
        if self.measure is PlanMeasure.DEMERIT:
            return Fraction(-self.demerit if escaped else 0)
        return Fraction(self.trophy * int(won) - self.demerit * int(escaped))

    @property
    def ceiling(self) -> Fraction | None:
        """The measure's largest value (none for ``defeated``)."""
        if self.measure is PlanMeasure.TROPHY:
            return Fraction(1)
        if self.measure is PlanMeasure.DEMERIT:
            return Fraction(0)
        if self.measure is PlanMeasure.SCORE:
            return Fraction(self.trophy)
        return None

    def first_wave_bound(self, clean: bool) -> Fraction | None:
        """A bound on the phase's value after a first roll that can (``clean``) or cannot be
        defeated entirely (a wave not defeated entirely has an escape, which ends the phase)."""
        if self.measure is PlanMeasure.DEFEATED:
            return None
        if clean:
            return self.ceiling
        return self.value(0, True)


class PlanDP(InvasionDP):
    """The phase DP for a plan measure; with ``worst`` the dice are adversarial (min over rolls)."""

    def __init__(
        self,
        board: Board,
        layout: Layout,
        rolls: Sequence[tuple[Roll, Fraction]],
        scoring: Scoring,
        start: int = 0,
        deadline: Deadline | None = None,
        tables: EntryTables | None = None,
        *,
        worst: bool = False,
    ) -> None:
        super().__init__(board, layout, rolls, Measure.DEFEATED, None, start, deadline, tables)
        self.scoring, self.worst = scoring, worst

    def terminal(self, mask: int, escaped: bool) -> Fraction:
        return self.scoring.value(mask.bit_count(), escaped)

    def _value(self, mask: int) -> Fraction:
        # Closing already reaches the measure's largest value: no wave can do better (exact).
        now = self.terminal(mask, False)
        ceiling = self.scoring.ceiling
        if ceiling is not None and now >= ceiling:
            return now
        return max(now, self.continue_value(mask))

    def should_continue(self, mask: int) -> bool:
        ceiling = self.scoring.ceiling
        if ceiling is not None and self.terminal(mask, False) >= ceiling:
            return False
        return super().should_continue(mask)

    def continue_value(self, mask: int) -> Fraction:
        if self.worst:
            return min(self.wave_value(mask, r)[0] for r, _ in self.rolls)
        return super().continue_value(mask)

    def phase_value(self) -> tuple[Fraction, Roll]:
        """The phase's value (the first wave is not optional) and its worst first roll."""
        values = [(self.wave_value(self.start, r)[0], r, p) for r, p in self.rolls]
        worst = min(values, key=lambda v: (v[0], v[1]))
        if self.worst:
            return worst[0], worst[1]
        return sum((p * v for v, _, p in values), Fraction(0)), worst[1]


# -- purchases --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Purchases:
    """One purchase class: the planning player's Improvement answers and the state they lead to."""

    steps: tuple[str, ...]  # the player's answers in order (improvements, tracks, targets)
    others: tuple[tuple[str, str], ...]  # (player, answer) of the other players, in order
    state: GameState  # at the start of Preparation, every player still in it
    gold_left: int

    @property
    def bought(self) -> tuple[str, ...]:
        return tuple(s for s in self.steps if s != "pass")


def _others_decider(scenario: Scenario) -> Any:
    answers = scenario.decisions
    return Answers((), "first-legal", 0, answers.prefer).decider("decisions")


def _reach_preparation(scenario: Scenario) -> GameState:
    state = scenario.initial
    if state.stage not in (Stage.IMPROVEMENT, Stage.PREPARATION):
        raise RulesError(
            f"the planner starts at the Improvement or Preparation phase; this scenario starts at {state.stage.value}"
        )
    return state


@dataclass(frozen=True, slots=True)
class SkippedBranch:
    """A level-up track the data cannot model (an ability it does not know), left out of the plan
    because another track of the same level-up was playable."""

    purchases: tuple[str, ...]  # the first Improvement answers that reached it, the track last
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"purchases": list(self.purchases), "reason": self.reason}

    def describe(self) -> str:
        before = ", ".join(self.purchases[:-1])
        after = f" after {before}" if before else ""
        return f"the level-up track {self.purchases[-1]!r}{after} ({self.reason})"


@dataclass(slots=True)
class PurchaseWalk:
    """How far the walk through the purchases got (read by a search that stopped), and the
    level-up tracks it left out, by (track, reason): the first sequence that reached each."""

    sets: int = 0  # purchase sequences that reached Preparation (one per state reached)
    finished: bool = False
    skipped: dict[tuple[str, str], SkippedBranch] = field(default_factory=dict)


def iter_purchase_classes(
    scenario: Scenario,
    player: int = 0,
    deadline: Deadline | None = None,
    walk: PurchaseWalk | None = None,
    numbers: ChamberNumbersCache | None = None,
    progress: Progress | None = None,
) -> Iterator[tuple[Board, Purchases]]:
    """Every purchase class (the shortest sequence first), walked through the oracle, each given
    as soon as its first sequence is found: nothing but the states still to expand and one board
    per class is held, and a search stopped early has the classes found so far.

    A level-up track (``track`` request) whose ability the data does not model is skipped and
    recorded in ``walk`` when another track of the same level-up is playable; when none is, the
    data's error is raised (the plan cannot be made without that ability)."""
    deadline = deadline or Deadline()
    walk = PurchaseWalk() if walk is None else walk
    numbers = {} if numbers is None else numbers  # a purchase changes one or two chambers: the rest are known
    state = _reach_preparation(scenario)
    me = state.players[player].name
    game = scenario.game()
    rules = Rules.of(scenario.rulings, scenario.data)
    others = _others_decider(scenario)
    start, _ = game.start(state)
    seen: set[GameState] = set()
    boards: set[Board] = set()
    compiled: dict[Any, Board] = {}  # orders of the same purchases leave the same player state
    # Breadth first: fewer answers first, so each class is represented by its shortest sequence.
    # Each level's finished sequences are handed out before its others are expanded (the order of
    # both is unchanged): a search stopped early has every shorter purchase searched first.
    frontier: list[tuple[GameState, tuple[str, ...], tuple[tuple[str, str], ...]]] = [(start, (), ())]
    while frontier:
        for current, steps, theirs in frontier:
            if current.stage is Stage.IMPROVEMENT or current.levelling is not None:
                continue
            deadline.check()
            walk.sets += 1
            if progress is not None:
                progress.step()
            p = next(pl for pl in current.players if pl.name == me)
            key = (p, current.year, current.heroes, current.health_bonus)  # what compile_board reads
            board = compiled.get(key)
            if board is None:
                board = compiled[key] = compile_board(rules, current, p, deadline, cache=numbers)
            if board not in boards:
                boards.add(board)
                yield board, Purchases(steps, theirs, current, p.gold)
        following = []
        for current, steps, theirs in frontier:
            if current.stage is not Stage.IMPROVEMENT and current.levelling is None:
                continue
            deadline.check()
            deadline.check_size(len(seen), 200_000)
            request = current.request
            if isinstance(request, ChanceRequest) or request is None:
                raise RulesError("the Improvement phase asked for dice; the planner does not model that")
            if request.player != me:
                answer = str(others.decide(request))
                nxt, _ = game.step(current, answer)
                following.append((nxt, steps, (*theirs, (request.player, answer))))
                continue
            refused: list[tuple[str, MalformedInputError]] = []
            for option in request.options:
                deadline.check()  # one step of a large dungeon takes milliseconds, and there are hundreds
                try:
                    nxt, _ = game.step(current, option)
                except MalformedInputError as err:
                    if request.kind != "track":
                        raise
                    refused.append((str(option), err))
                    continue
                if nxt in seen:
                    continue
                seen.add(nxt)
                following.append((nxt, (*steps, str(option)), theirs))
            if refused and len(refused) == len(request.options):
                raise refused[0][1]  # no track of this level-up is playable: the plan cannot be made
            for track, refusal in refused:
                reason = str(refusal)
                walk.skipped.setdefault((track, reason), SkippedBranch((*steps, track), reason))
        frontier = following
    walk.finished = True


def purchase_classes(
    scenario: Scenario, player: int = 0, deadline: Deadline | None = None
) -> list[tuple[Board, Purchases]]:
    """Every purchase class (the shortest sequence first), walked through the oracle."""
    return list(iter_purchase_classes(scenario, player, deadline))


# -- the size of a plan search ----------------------------------------------------------------

# The most work (see PlanSize.work) a plan without --time-limit may take: plan-year4 is about
# 5.4 million and answers in ~3 s of CPU; the limit is some 5 times that. Larger searches are
# refused up front, naming the size; with --time-limit they run and answer the best plan found.
WORK_LIMIT = 30_000_000
# The share of the time limit left, once the search and the replay stop, to draw the answer and
# exit: a busy machine takes up to a second for that (Python's own exit most of it; measured 0.2 s
# idle, 1 s on two busy cores), and a time limit is kept within one.
OUTPUT_SHARE = 0.1
# What one oracle step and one placement evaluated cost, per chamber, in units of work (measured:
# a step ~0.1 ms per chamber on 4x4 to 26x26 dungeons; a placement's phase DP ~2 ms per chamber,
# counted at 20 because the estimate counts a placement class for every purchase sequence, where
# the search evaluates it once per purchase class and skips most by their bound).
STEP_COST = 100
PLACEMENT_COST = 20


@dataclass(frozen=True, slots=True)
class PlanSize:
    """What a plan search will do, known before it starts (an estimate from above: orders of the
    same purchases and equivalent placements are merged as the search goes)."""

    purchase_sets: int  # purchase sequences that can reach Preparation (sets of affordable answers)
    steps: int  # oracle steps of the walk through them
    chambers: int
    placements: int | None  # placement classes of the dungeon before any purchase (None: not counted)

    @property
    def work(self) -> int:
        """The walk's oracle steps and the placements evaluated (a placement class per purchase
        sequence), each weighed by its cost per chamber (:data:`STEP_COST`, :data:`PLACEMENT_COST`)."""
        evaluations = self.purchase_sets * (self.placements or 0)
        return self.chambers * (STEP_COST * self.steps + PLACEMENT_COST * evaluations)

    def describe(self) -> str:
        placements = (
            ""
            if self.placements is None
            else f" and {self.purchase_sets:,} x {self.placements:,} placement classes to evaluate"
        )
        return (
            f"about {self.purchase_sets:,} purchase sequences ({self.steps:,} oracle steps){placements} "
            f"on {self.chambers} chambers: {self.work:,} units of work"
        )


def estimate_plan(
    scenario: Scenario,
    player: int = 0,
    deadline: Deadline | None = None,
    numbers: ChamberNumbersCache | None = None,
    *,
    placements: bool = True,
) -> PlanSize:
    """The size of the plan search (:class:`PlanSize`): the purchase sequences counted from the
    prices and the planning player's first Improvement answers (each Buy XP doubling them for its
    level-up track), and with ``placements`` the placement classes of the dungeon as it is
    (compiled once, into ``numbers``, which the search then reuses)."""
    deadline = deadline or Deadline()
    state = _reach_preparation(scenario)
    me = state.players[player].name
    game = scenario.game()
    others = _others_decider(scenario)
    current, _ = game.start(state)
    while (
        current.stage is Stage.IMPROVEMENT
        and isinstance(current.request, DecisionRequest)
        and current.request.player != me
    ):
        deadline.check()
        current, _ = game.step(current, others.decide(current.request))
    request = current.request
    mine = next(pl for pl in current.players if pl.name == me)
    chambers = len(tuple(mine.dungeon.cells()))
    options: tuple[str, ...] = ()
    if (
        current.stage is Stage.IMPROVEMENT
        and isinstance(request, DecisionRequest)
        and request.kind == "improvement"
    ):
        options = tuple(str(o) for o in request.options)
    data = scenario.data
    prices = tuple(data.value("passage_prices"))[current.market.passages_sold :]
    sets, steps = _purchase_counts(
        mine.gold,
        data.value("xp_price") if "buy-xp" in options else None,
        data.value("rubble_removal_price"),
        sum(1 for o in options if o.startswith("remove-rubble ")),
        prices,
        sum(1 for o in options if o.startswith("buy-passage ")),
    )
    counted: int | None = None
    if placements:
        board = compile_board(
            Rules.of(scenario.rulings, scenario.data), current, mine, deadline, cache=numbers
        )
        # a Buy XP may unlock one more minion before Preparation
        more = int("buy-xp" in options and board.minions < mine.guardian.board.minions)
        counted = _placement_classes(
            board, board.minions + more, scenario.rulings.is_("SS-MINIONS", "optional")
        )
    return PlanSize(sets, steps, chambers, counted)


def _purchase_sets(
    gold: int,
    xp_price: int | None,
    rubble_price: int,
    rubble: int,
    passage_prices: Sequence[int],
    passages: int,
) -> int:
    """Sets of purchases ``gold`` affords: XP any number of times (each doubling the sets, for the
    level-up track it may bring), distinct rubble spaces, distinct passages at rising prices."""
    return _purchase_counts(gold, xp_price, rubble_price, rubble, passage_prices, passages)[0]


def _purchase_counts(
    gold: int,
    xp_price: int | None,
    rubble_price: int,
    rubble: int,
    passage_prices: Sequence[int],
    passages: int,
) -> tuple[int, int]:
    """The sets of purchases ``gold`` affords (:func:`_purchase_sets`) and the oracle steps the walk
    takes through them: one step into each set from each of its sets one purchase smaller, and one
    ``pass`` out of each."""
    sets = steps = 0
    xp_buys = 0 if xp_price is None or xp_price <= 0 else gold // xp_price
    for x in range(xp_buys + 1):
        spent_xp = x * (xp_price or 0)
        passage_cost = 0
        for q in range(min(passages, len(passage_prices)) + 1):
            if q:
                passage_cost += passage_prices[q - 1]
            left = gold - spent_xp - passage_cost
            if left < 0:
                break
            most = rubble if rubble_price <= 0 else min(rubble, left // rubble_price)
            for r in range(most + 1):
                ways = math.comb(rubble, r) * math.comb(passages, q) * 2**x
                sets += ways
                steps += ways * (1 + x * 2 + q + r)  # a Buy XP is two answers: the purchase, the track
    return sets, steps


def _placement_classes(board: Board, minions: int, optional_minions: bool) -> int:
    """Placement classes of ``board`` from above (as :meth:`Space.estimate`, with every enterable
    chamber a minion's, and one chamber standing for all that no hero enters)."""
    enterable = len(board.enterable())
    spots = enterable + (1 if enterable < board.size else 0)
    counts = range(minions + 1) if optional_minions else (minions,)
    guardians = math.comb(spots + board.guardian_figures - 1, board.guardian_figures)
    return guardians * sum(math.comb(spots + k - 1, k) for k in counts)


def _require_modelled(board: Board) -> None:
    """Refuse a dungeon the compiled board does not model exactly, naming what helps ``plan``."""
    if board.limits:
        raise RulesError(
            "the plan search models one dungeon's heroes exactly except: "
            + "; ".join(board.limits)
            + ". plan has only that search: give --data with heroes and a guardian it models, or search "
            "this dungeon's placement alone with `invasion stonespine place --engine baseline`"
        )


def alone(scenario: Scenario, state: GameState, player_name: str) -> Scenario:
    """The scenario from ``state`` with only the planning player, at the start of Preparation."""
    me = next(p for p in state.players if p.name == player_name)
    initial = replace(
        state,
        players=(me,),
        stage=Stage.PREPARATION,
        request=None,
        task=None,
        cursor=0,
        solo=False,
        last_year=state.year,
        levelling=None,
    )
    return replace(scenario, initial=initial)


def scoring_for(scenario: Scenario, measure: PlanMeasure, target: int | None, player: int = 0) -> Scoring:
    """The measure's numbers: the trophy target defaults to Jael's count + 1 (solo), or with one
    player to 1 (0 when ruling ``SS-TROPHY-ZERO`` lets a player with no defeat take it)."""
    state = scenario.initial
    year = state.year
    if target is None:
        if state.solo:
            target = scenario.data.value("jael_defeats")[year - 1] + 1
        elif len(state.players) == 1:
            target = 1 if scenario.rulings.is_("SS-TROPHY-ZERO", "needs-one") else 0
        elif measure in (PlanMeasure.TROPHY, PlanMeasure.SCORE):
            raise RulesError(
                "with other players the trophy needs a target number of defeated heroes (--target)"
            )
        else:
            target = 0
    return Scoring(measure, target, scenario.data.trophy_value(year), scenario.data.demerit_value(year))


# -- the search -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlanChoice:
    """One plan: a purchase class, a placement, and its expected and guaranteed values."""

    purchases: Purchases
    layout: Layout
    board: Board
    expected: Fraction
    guaranteed: Fraction
    worst_roll: Roll


@dataclass(slots=True)
class PlanSearch:
    """The state of a plan search (kept so a stopped search still answers its best so far)."""

    ranked: list[PlanChoice]
    top: int = 3
    evaluated: int = 0
    skipped: int = 0
    classes: int = 0
    classes_done: int = 0
    # the best plan of each purchase class by expected value (exact once the class is done: a
    # layout is skipped only when its bound is below its own class's best so far too)
    class_best: dict[tuple[str, ...], PlanChoice] = field(default_factory=dict)


def layouts_of(space: Space, deadline: Deadline) -> Iterator[Layout]:
    yield from space.classes(deadline)


def evaluate(
    scenario: Scenario,
    board: Board,
    purchases: Purchases,
    scoring: Scoring,
    player_name: str,
    search: PlanSearch,
    deadline: Deadline,
) -> None:
    leaf = alone(scenario, purchases.state, player_name)
    space = placement_space(leaf, 0, deadline=deadline)
    dist = roll_distribution(scenario.data, board.year)
    for layout in layouts_of(space, deadline):
        if _dominated(board, layout, dist, scoring, space, search, deadline, purchases.steps):
            search.skipped += 1
            continue
        mean = PlanDP(board, layout, dist, scoring, space.defeated, deadline, space.tables)
        expected, _ = mean.phase_value()
        low = PlanDP(board, layout, dist, scoring, space.defeated, deadline, space.tables, worst=True)
        low._masks, low.results = mean._masks, mean.results  # the waves are the same; only values differ
        guaranteed, worst = low.phase_value()
        search.evaluated += 1
        choice = PlanChoice(purchases, layout, board, expected, guaranteed, worst)
        mine = search.class_best.get(purchases.steps)
        if mine is None or _order_expected(choice) < _order_expected(mine):
            search.class_best[purchases.steps] = choice
        search.ranked.append(choice)
        search.ranked.sort(key=_order_expected)
        best_low = max(search.ranked, key=lambda c: c.guaranteed).guaranteed
        search.ranked = [
            c for i, c in enumerate(search.ranked) if i <= search.top or c.guaranteed >= best_low
        ]


def _dominated(
    board: Board,
    layout: Layout,
    dist: Sequence[tuple[Roll, Fraction]],
    scoring: Scoring,
    space: Space,
    search: PlanSearch,
    deadline: Deadline,
    steps: tuple[str, ...] = (),
) -> bool:
    """Whether ``layout`` can neither enter the ranking by expected value, nor beat the best
    guaranteed value, nor its own purchase class's best so far: bounded by which first rolls it
    can defeat entirely."""
    mine = search.class_best.get(steps)
    if scoring.measure is PlanMeasure.DEFEATED or len(search.ranked) <= search.top or mine is None:
        return False
    evaluator = LayoutEvaluator(board, layout, space.tables, deadline)
    bounds = [(p, scoring.first_wave_bound(evaluator.value(r, space.defeated) == sum(r))) for r, p in dist]
    mean = sum((p * (b or 0) for p, b in bounds), Fraction(0))
    low = min((b or 0) for _, b in bounds)
    threshold = search.ranked[search.top].expected
    best_low = max(c.guaranteed for c in search.ranked)
    return mean < threshold and low < best_low and mean < mine.expected


def _order_expected(c: PlanChoice) -> tuple[Any, ...]:
    return (
        -c.expected,
        -c.guaranteed,
        len(c.purchases.bought),
        c.purchases.steps,
        c.layout.guardians,
        c.layout.minions,
    )


def _order_guaranteed(c: PlanChoice) -> tuple[Any, ...]:
    return (
        -c.guaranteed,
        -c.expected,
        len(c.purchases.bought),
        c.purchases.steps,
        c.layout.guardians,
        c.layout.minions,
    )


# -- replay -----------------------------------------------------------------------------------


class _PlanAnswers:
    """Answers the oracle's Improvement and Preparation requests with a plan's choices.

    With ``steps`` (the plan's purchases with some left out), answers that are no longer asked
    (the level-up track of a left-out Buy XP) are skipped, and the Improvement ends with ``pass``.
    """

    def __init__(
        self, scenario: Scenario, me: str, plan: PlanChoice, steps: Sequence[str] | None = None
    ) -> None:
        self.me = me
        self.lenient = steps is not None
        self.steps = list(plan.purchases.steps if steps is None else steps)
        self.others = _others_decider(scenario)
        figures = plan.layout.placement(plan.board)
        self.guardians = [c.name for c in figures.guardians]
        self.minions = [c.name for c in figures.minions]

    def decide(self, request: DecisionRequest) -> Option:
        if request.player != self.me:
            return self.others.decide(request)
        if request.kind == "place-guardian":
            if not self.guardians:
                raise _CannotStand(f"the plan has no guardian for {request.describe()}")
            return self.guardians.pop(0)
        if request.kind == "place-minion":
            return self.minions.pop(0) if self.minions else request.options[-1]
        if request.kind == "place-passage":
            return "none" if "none" in request.options else request.options[0]
        if self.lenient:
            legal = {str(o) for o in request.options}
            while self.steps and self.steps[0] not in legal:
                self.steps.pop(0)
            if not self.steps and "pass" in legal:
                return "pass"
        if not self.steps:
            raise OracleDisagreement(f"the plan has no answer for {request.describe()}")
        return self.steps.pop(0)


class _CannotStand(Exception):
    """The plan's placement or purchases cannot be made on the dungeon asked about."""


def value_without(
    scenario: Scenario,
    player: int,
    plan: PlanChoice,
    scoring: Scoring,
    deadline: Deadline,
    leave_out: Collection[int],
) -> Fraction | None:
    """The expected value of the plan's placement when its answers at ``leave_out`` (indices into
    its purchase steps) are not given, walked through the oracle; None when the rest of the plan
    cannot be made without them (a minion that buying XP unlocked, a purchase no longer affordable
    or legal)."""
    state = _reach_preparation(scenario)
    me = state.players[player].name
    game = scenario.game()
    kept = [s for i, s in enumerate(plan.purchases.steps) if i not in leave_out]
    answers = _PlanAnswers(scenario, me, plan, kept)
    current, _ = game.start(state)
    try:
        while current.stage not in INVASION:
            deadline.check()
            request = current.request
            if not isinstance(request, DecisionRequest):
                return None
            answer = answers.decide(request)
            if str(answer) not in {str(o) for o in request.options}:
                return None
            current, _ = game.step(current, answer)
    except (_CannotStand, OracleDisagreement):
        return None
    if answers.guardians or answers.minions:
        return None
    p = next(pl for pl in current.players if pl.name == me)
    board = compile_board(Rules.of(scenario.rulings, scenario.data), current, p, deadline)
    layout = Layout.of(board, p.placement)
    dist = roll_distribution(scenario.data, board.year)
    return PlanDP(board, layout, dist, scoring, 0, deadline).phase_value()[0]


def replay_plan(
    scenario: Scenario, player: int, plan: PlanChoice, scoring: Scoring, deadline: Deadline
) -> tuple[Fraction, Fraction]:
    """Play the plan through the oracle: purchases and placement as answers to its requests, then
    the optimal policies over every dice outcome. Returns (expected, guaranteed) recomputed."""
    state = _reach_preparation(scenario)
    me = state.players[player].name
    game = scenario.game()
    answers = _PlanAnswers(scenario, me, plan)
    current, _ = game.start(state)
    while current.stage not in INVASION:
        deadline.check()
        request = current.request
        if not isinstance(request, DecisionRequest):
            raise OracleDisagreement("the oracle asked for dice before the Invasion phase")
        current, _ = game.step(current, answers.decide(request))
    p = next(pl for pl in current.players if pl.name == me)
    placed = Layout.of(plan.board, p.placement)
    if placed != plan.layout or answers.steps:
        raise OracleDisagreement(
            f"the oracle placed {placed.describe(plan.board)}, the plan {plan.layout.describe(plan.board)}"
        )
    rules = Rules.of(scenario.rulings, scenario.data)
    if compile_board(rules, current, p, deadline) != plan.board:
        raise OracleDisagreement("the dungeon after the plan's purchases is not the one planned")
    leaf = replace(scenario, initial=replace(current, players=(p,)))
    dist = roll_distribution(scenario.data, plan.board.year)
    got = []
    for worst in (False, True):
        dp = PlanDP(plan.board, plan.layout, dist, scoring, 0, deadline, worst=worst)
        got.append(oracle_expectation(leaf, dp, 0, deadline, worst=worst))
    return got[0], got[1]


# -- the baseline -----------------------------------------------------------------------------


def oracle_plan_value(
    scenario: Scenario,
    measure: PlanMeasure,
    target: int | None = None,
    player: int = 0,
    *,
    worst: bool = False,
    deadline: Deadline | None = None,
) -> Fraction:
    """The best plan's value by expectimax over the oracle's own game tree (the baseline).

    The planning player's every request is maximised over its options (purchases, level-up
    tracks, placements, hero order, routes, gates); the other players' Improvement requests get
    the scenario's answers; each die is averaged over its faces (``worst``: minimised). The walk
    ends when the Invasion's Step 3 is over (Step 4 comes next).
    """
    scoring = scoring_for(scenario, measure, target, player)
    return _oracle_plan_walk(scenario, player, ((scoring, worst),), deadline)[0]


def oracle_plan_values(
    scenario: Scenario,
    measure: PlanMeasure,
    target: int | None = None,
    player: int = 0,
    *,
    deadline: Deadline | None = None,
) -> tuple[Fraction, Fraction]:
    """:func:`oracle_plan_value` expected and worst, in one walk of the game tree: each is
    maximised over the options on its own, so each is what its own walk answers."""
    return oracle_plan_values_of(scenario, (measure,), target, player, deadline=deadline)[measure]


def oracle_plan_values_of(
    scenario: Scenario,
    measures: Sequence[PlanMeasure],
    target: int | None = None,
    player: int = 0,
    *,
    deadline: Deadline | None = None,
) -> dict[PlanMeasure, tuple[Fraction, Fraction]]:
    """:func:`oracle_plan_values` of each measure, in one walk of the game tree: the tree is the
    measures' own (only the values at its leaves differ), and each value is maximised on its own."""
    scorings = [scoring_for(scenario, m, target, player) for m in measures]
    got = _oracle_plan_walk(
        scenario, player, tuple((s, w) for s in scorings for w in (False, True)), deadline
    )
    return {m: (got[2 * k], got[2 * k + 1]) for k, m in enumerate(measures)}


def _oracle_plan_walk(
    scenario: Scenario,
    player: int,
    wanted: tuple[tuple[Scoring, bool], ...],
    deadline: Deadline | None,
) -> tuple[Fraction, ...]:
    """The expectimax of :func:`oracle_plan_value`, one value per ``(scoring, worst)`` (``worst``:
    dice at their worst, else averaged)."""
    deadline = deadline or Deadline()
    modes = tuple(worst for _, worst in wanted)
    scorings = tuple(scoring for scoring, _ in wanted)
    state = _reach_preparation(scenario)
    me = state.players[player].name
    game = scenario.game()
    others = _others_decider(scenario)
    memo: dict[GameState, tuple[Fraction, ...]] = {}
    indices = range(len(modes))

    def value(current: GameState) -> tuple[Fraction, ...]:
        deadline.check()
        if current.stage is Stage.PREPARATION and len(current.players) > 1 and current.levelling is None:
            mine = next(pl for pl in current.players if pl.name == me)
            current = replace(current, players=(mine,), cursor=0, solo=False, last_year=current.year)
            if current.request is not None:
                current = replace(current, request=None, task=None)
                current, _ = game.start(current)
        if current.stage not in (Stage.IMPROVEMENT, Stage.PREPARATION, *INVASION) or current.request is None:
            p = next(pl for pl in current.players if pl.name == me)
            return tuple(scoring.value(len(p.defeated), p.had_escape) for scoring in scorings)
        if current in memo:
            return memo[current]
        deadline.check_size(len(memo), 2_000_000)
        request = current.request
        if isinstance(request, ChanceRequest):
            count = len(request.outcomes)
            values = [
                (Fraction(request.outcomes.count(f), count), value(game.step(current, f)[0]))
                for f in dict.fromkeys(request.outcomes)
            ]
            got = tuple(
                min(v[i] for _, v in values) if modes[i] else sum((p * v[i] for p, v in values), Fraction(0))
                for i in indices
            )
        elif request.player != me:
            got = value(game.step(current, others.decide(request))[0])
        else:
            children = [value(game.step(current, o)[0]) for o in request.options]
            got = tuple(max(v[i] for v in children) for i in indices)
        memo[current] = got
        return got

    start, _ = game.start(state)
    return value(start)


# -- the answer -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PurchaseEffect:
    """What one Improvement answer of the best plan buys: the connections it opens or closes, and
    for a purchase the expected value of the plan's placement without it (None: that placement
    cannot be made without it, or the answer is a level-up track, part of its Buy XP)."""

    purchase: str
    kind: str  # the request it answers: improvement, or track (the level-up a Buy XP caused)
    opened: tuple[tuple[str, str], ...]
    closed: tuple[tuple[str, str], ...]
    without: Fraction | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "purchase": self.purchase,
            "kind": self.kind,
            "opened": [list(e) for e in self.opened],
            "closed": [list(e) for e in self.closed],
            "expected_without": self.without,
        }


@dataclass(frozen=True, slots=True)
class RankedPlan:
    purchases: tuple[str, ...]
    placement: FigurePlacement
    expected: Fraction
    guaranteed: Fraction
    worst_roll: Roll

    @staticmethod
    def of(c: PlanChoice) -> RankedPlan:
        return RankedPlan(
            c.purchases.bought, FigurePlacement.of(c.board, c.layout), c.expected, c.guaranteed, c.worst_roll
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "purchases": list(self.purchases),
            "placement": self.placement.to_json(),
            "expected": self.expected,
            "guaranteed": self.guaranteed,
            "worst_roll": roll_json(self.worst_roll),
        }


@dataclass(frozen=True, slots=True)
class PlanAnswer:
    query: ClassVar[str] = "plan"
    status: Status
    measure: str
    target: int
    best_expected: RankedPlan | None
    best_guaranteed: RankedPlan | None
    runners_up: tuple[RankedPlan, ...]  # the next plans by expected value (other purchases or placements)
    other_purchases: tuple[RankedPlan, ...]  # the best plan of each other purchase class, best first
    upper_bound: Fraction | None  # no plan does better in expectation (proven: the best value)
    purchase_classes: int
    purchase_classes_done: int
    plans_evaluated: int
    replayed: bool  # the oracle replayed the best plans and recomputed the same values
    replay_expected: Fraction | None
    replay_guaranteed: Fraction | None
    effects: tuple[PurchaseEffect, ...]
    without_purchases: Fraction | None  # the best placement with no purchase (None: cannot stand)
    others: tuple[tuple[str, str], ...]  # the other players' Improvement answers
    stopped: str | None = None
    readings: tuple[ReadingPlan, ...] = ()  # --compare-ruling: the best plan under each reading
    worst_wave: tuple[WaveStep, ...] = ()  # the best plan's first wave on its worst first roll (replayed)
    skipped: tuple[SkippedBranch, ...] = ()  # level-up tracks the data cannot model, left out
    unfinished: tuple[str, ...] = ()  # the stages a stopped search did not finish (see _unfinished)

    def to_json(self) -> dict[str, Any]:
        # Only when present: an answer with nothing skipped and nothing stopped keeps its bytes.
        extra: dict[str, Any] = {"readings": [r.to_json() for r in self.readings]} if self.readings else {}
        if self.skipped:
            extra["skipped"] = [b.to_json() for b in self.skipped]
        if self.unfinished:
            extra["unfinished"] = list(self.unfinished)
        return extra | {
            "status": self.status.value,
            "measure": self.measure,
            "target": self.target,
            "best_expected": None if self.best_expected is None else self.best_expected.to_json(),
            "best_guaranteed": None if self.best_guaranteed is None else self.best_guaranteed.to_json(),
            "runners_up": [r.to_json() for r in self.runners_up],
            "other_purchases": [r.to_json() for r in self.other_purchases],
            "upper_bound": self.upper_bound,
            "purchase_classes": self.purchase_classes,
            "purchase_classes_done": self.purchase_classes_done,
            "plans_evaluated": self.plans_evaluated,
            "replayed": self.replayed,
            "replay_expected": self.replay_expected,
            "replay_guaranteed": self.replay_guaranteed,
            "effects": [e.to_json() for e in self.effects],
            "without_purchases": self.without_purchases,
            "others": [{"player": p, "answer": a} for p, a in self.others],
            "worst_wave": [w.to_json() for w in self.worst_wave],
            "stopped": self.stopped,
        }


@dataclass(frozen=True, slots=True)
class ReadingPlan:
    """The best plan (by expected value) when one ruling is read one way (sensitivity)."""

    ruling: str
    reading: str
    in_force: bool  # the reading the main answer used
    status: Status
    best: RankedPlan | None
    changes_best: bool  # its purchases or placement differ from the main answer's best plan

    def to_json(self) -> dict[str, Any]:
        return {
            "ruling": self.ruling,
            "reading": self.reading,
            "status": self.status.value,
            "best": None if self.best is None else self.best.to_json(),
            "changes_best": self.changes_best,
        }


def _same_plan(a: RankedPlan | None, b: RankedPlan | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.purchases, a.placement) == (b.purchases, b.placement)


def plan_readings(
    answer: PlanAnswer,
    ruling: str,
    readings: Sequence[tuple[str, Scenario | None]],
    measure: PlanMeasure,
    target: int | None,
    player: int,
    deadline: Deadline | None = None,
) -> tuple[ReadingPlan, ...]:
    """The best plan under each reading of ``ruling``: ``readings`` pairs each reading with its
    scenario (None: the reading in force, whose answer is ``answer``). A plan search stopped by
    the deadline answers best-found (or unknown) for its reading; the rest are still tried."""
    got = []
    for reading, scenario in readings:
        if scenario is None:
            got.append(ReadingPlan(ruling, reading, True, answer.status, answer.best_expected, False))
            continue
        other, _ = solve_plan(scenario, measure, target, player, deadline)
        changes = not _same_plan(other.best_expected, answer.best_expected)
        got.append(ReadingPlan(ruling, reading, False, other.status, other.best_expected, changes))
    return tuple(got)


def _edges(board: Board) -> set[tuple[str, str]]:
    return {(board.name(a), board.name(b)) for a in range(board.size) for b in board.neighbours[a] if a < b}


def purchase_effects(
    scenario: Scenario, player: int, plan: PlanChoice, scoring: Scoring, deadline: Deadline
) -> tuple[PurchaseEffect, ...]:
    """Each answer of the plan's Improvement: the connections it opens or closes (replaying the
    sequence one answer at a time) and, for a purchase, the plan's placement without it."""
    state = _reach_preparation(scenario)
    me = state.players[player].name
    game = scenario.game()
    rules = Rules.of(scenario.rulings, scenario.data)
    others = _others_decider(scenario)
    current, _ = game.start(state)

    def edges(s: GameState) -> set[tuple[str, str]]:
        p = next(pl for pl in s.players if pl.name == me)
        return _edges(compile_board(rules, s, p, deadline))

    effects = []
    steps = list(plan.purchases.steps)
    for index, step in enumerate(steps):
        while current.request is not None and (
            isinstance(current.request, DecisionRequest) and current.request.player != me
        ):
            deadline.check()
            current, _ = game.step(current, others.decide(current.request))
        request = current.request
        if not isinstance(request, DecisionRequest):
            break
        before = edges(current)
        current, _ = game.step(current, step)
        if step == "pass":
            continue
        after = edges(current)
        purchase = request.kind == "improvement"
        without = value_without(scenario, player, plan, scoring, deadline, {index}) if purchase else None
        effects.append(
            PurchaseEffect(
                step,
                request.kind,
                tuple(sorted(after - before)),
                tuple(sorted(before - after)),
                without,
            )
        )
    return tuple(effects)


def solve_plan(
    scenario: Scenario,
    measure: PlanMeasure = PlanMeasure.SCORE,
    target: int | None = None,
    player: int = 0,
    deadline: Deadline | None = None,
    top: int = 3,
    *,
    work_limit: int | None = WORK_LIMIT,
) -> tuple[PlanAnswer, PlanChoice | None]:
    """The planner's answer (and the best plan by expected value, for pictures).

    Its size is estimated first (:func:`estimate_plan`): without a time limit on ``deadline`` a
    search larger than ``work_limit`` is refused (RulesError naming the size, the limit and
    ``--time-limit``); with one it runs, and when the limit stops it the answer is the best plan
    found so far and says which stages did not finish."""
    deadline = deadline or Deadline()
    refuse = deadline.seconds is None and work_limit is not None
    # The rest of the time limit is the answer's: the report and the pictures are drawn after.
    deadline = deadline.share(1 - OUTPUT_SHARE)
    scoring = scoring_for(scenario, measure, target, player)
    me = scenario.initial.players[player].name
    search = PlanSearch([], top)
    walk = PurchaseWalk()
    stopped: str | None = None
    budget = deadline.share(0.75)
    numbers: ChamberNumbersCache = {}
    progress: Progress | None = None
    try:
        size = estimate_plan(scenario, player, budget, numbers, placements=False)
        if refuse and work_limit is not None and size.work <= work_limit:
            size = estimate_plan(scenario, player, budget, numbers)
        if refuse and work_limit is not None and size.work > work_limit:
            raise RulesError(
                f"plan: this search is too large to finish: {size.describe()}, over the {work_limit:,} "
                "a plan without a time limit may take; give --time-limit SECONDS to answer the best "
                "plan found in that time"
            )
        progress = Progress("plan: purchase sequences", total=size.purchase_sets)
        for board, purchases in iter_purchase_classes(scenario, player, budget, walk, numbers, progress):
            search.classes += 1
            _require_modelled(board)
            evaluate(scenario, board, purchases, scoring, me, search, budget)
            search.classes_done += 1
    except TimeLimit as stop:
        stopped = stop.reason
    finally:
        if progress is not None:
            progress.finish()
    skipped = tuple(walk.skipped.values())
    ranked = sorted(search.ranked, key=_order_expected)
    complete = stopped is None
    if not ranked:
        return (
            PlanAnswer(
                Status.UNKNOWN,
                measure.value,
                scoring.target,
                None,
                None,
                (),
                (),
                None,
                search.classes,
                search.classes_done,
                search.evaluated,
                False,
                None,
                None,
                (),
                None,
                (),
                stop_reason(stopped),
                skipped=skipped,
                unfinished=_unfinished(stopped, walk, search, replayed=False, explained=False),
            ),
            None,
        )
    best = ranked[0]
    best_g = min(search.ranked, key=_order_guaranteed)
    runners = tuple(RankedPlan.of(c) for c in ranked[1 : 1 + top])
    rivals = sorted(
        (c for steps, c in search.class_best.items() if steps != best.purchases.steps), key=_order_expected
    )
    other_purchases = tuple(RankedPlan.of(c) for c in rivals[:top])
    replayed, rex, rgu = False, None, None
    effects: tuple[PurchaseEffect, ...] = ()
    without: Fraction | None = None
    worst_wave: tuple[WaveStep, ...] = ()
    explained = False
    if complete:
        try:
            rex, _ = replay_plan(scenario, player, best, scoring, deadline)
            _, rgu = replay_plan(scenario, player, best_g, scoring, deadline)
            if rex != best.expected or rgu != best_g.guaranteed:
                raise OracleDisagreement(
                    f"the oracle replaying the plans gives {rex} and {rgu}; the search said "
                    f"{best.expected} and {best_g.guaranteed}"
                )
            replayed = True
            effects = purchase_effects(scenario, player, best, scoring, deadline)
            bought = {i for i, step in enumerate(best.purchases.steps) if step != "pass"}
            without = value_without(scenario, player, best, scoring, deadline, bought) if bought else None
            worst_wave = _worst_wave(scenario, player, best, deadline)
            explained = True
        except TimeLimit as stop:
            stopped = stop.reason
    proven = complete and replayed
    others = best.purchases.others
    return (
        PlanAnswer(
            Status.PROVEN if proven else Status.BEST_FOUND,
            measure.value,
            scoring.target,
            RankedPlan.of(best),
            RankedPlan.of(best_g),
            runners,
            other_purchases,
            best.expected if proven else _ceiling(scoring),
            search.classes,
            search.classes_done,
            search.evaluated,
            replayed,
            rex,
            rgu,
            effects,
            without,
            others,
            stop_reason(stopped),
            worst_wave=worst_wave,
            skipped=skipped,
            unfinished=_unfinished(stopped, walk, search, replayed=replayed, explained=explained),
        ),
        best,
    )


def _unfinished(
    stopped: str | None, walk: PurchaseWalk, search: PlanSearch, *, replayed: bool, explained: bool
) -> tuple[str, ...]:
    """The stages a stopped search did not finish: ``purchases`` (the walk through the purchase
    sequences), ``placements`` (the search of every purchase class's placements), ``replay`` (the
    oracle replaying the best plans) and ``effects`` (what each purchase buys, the worst wave)."""
    if stopped is None:
        return ()
    stages = []
    if not walk.finished:
        stages.append("purchases")
    if not walk.finished or search.classes_done < search.classes:
        stages.append("placements")
    if not replayed:
        stages.append("replay")
    if not explained:
        stages.append("effects")
    return tuple(stages)


def _worst_wave(
    scenario: Scenario, player: int, plan: PlanChoice, deadline: Deadline
) -> tuple[WaveStep, ...]:
    """How the plan's placement meets its worst first roll: the first wave sent so that the most
    heroes are defeated (:func:`~invasion_oracle.solver.stonespine.waves.search_wave`), replayed
    through the oracle."""
    me = scenario.initial.players[player].name
    leaf = alone(scenario, plan.purchases.state, me)
    wave = search_wave(plan.board, plan.layout, roll_heroes(plan.worst_roll), 0, deadline)
    placement = plan.layout.placement(plan.board)
    oracle_plan_check(leaf, 0, plan.board, wave, placement=placement, deadline=deadline)
    return plan_steps(plan.board, wave)


def _ceiling(scoring: Scoring) -> Fraction | None:
    """A bound no plan beats (when the search stopped): the measure's largest value, if any."""
    return scoring.ceiling


__all__ = [
    "PlanAnswer",
    "PlanChoice",
    "PlanDP",
    "PlanMeasure",
    "PlanSize",
    "PurchaseEffect",
    "PurchaseWalk",
    "Purchases",
    "RankedPlan",
    "ReadingPlan",
    "Scoring",
    "SkippedBranch",
    "estimate_plan",
    "iter_purchase_classes",
    "oracle_plan_value",
    "oracle_plan_values",
    "oracle_plan_values_of",
    "plan_readings",
    "purchase_classes",
    "replay_plan",
    "solve_plan",
    "value_without",
]

"""Question (b): the exact probability of surviving the next N rounds under optimal play.

From a scenario's state, with the deployment order known (the Deployment Stack listed in
order), the value of a state is the probability that the hero's Health never drops below 1
within the scenario's rounds (a win counts as survival), when every decision is made to
maximise that probability and every die outcome is weighed by its chance. It is an
expectimax over the oracle's own states: decisions take the best option (every option the
oracle offers, banishing included), chance requests the weighted sum of their outcomes, with a
memo over states and exact :class:`~fractions.Fraction` arithmetic.

Two engines that must agree:

* ``per-die`` - every die is rolled as the oracle asks, one chance request at a time, six faces
  each (a face listed twice counts twice);
* ``grouped`` - all the dice of one roll at once: for each colour, how many show a miss, a hit
  and a crit, with multinomial weights, the faces dealt to the dice in name order. Dice of one
  colour rolled together are interchangeable, so this is exact and much smaller.

The answer is replayed through the oracle: the optimal policy (each decision's best option,
first listed on ties) is played against every dice outcome, per die, and the probability it
survives must equal the value.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from invasion_oracle.model.cloudspire.dice import Face, colour_of
from invasion_oracle.model.cloudspire.game import CloudspireGame
from invasion_oracle.model.cloudspire.scenario import Scenario, require_round_start
from invasion_oracle.model.cloudspire.state import GameState, RollDie
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest
from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.solver.cloudspire.search import no_cycle_collection, options, outcomes, step, unrecorded
from invasion_oracle.solver.common import (
    Deadline,
    OracleDisagreement,
    Progress,
    Status,
    TimeLimit,
    run_engines,
)

ENGINES = ("grouped", "per-die")
MAX_STATES = 2_000_000
# The search's size is estimated as it goes (the states valued over the share of the decision and
# chance tree finished, weighing each branch equally: Knuth's estimate of a backtracking search),
# every ESTIMATE_EVERY states, and shown on the progress bar or line. It runs high while the memo
# has merged little (survive.json: 590,000 after 2,000 states, 20,600 after 14,000, of 17,869;
# spires.json for one round: 24 million after 50,000), hence the wide margin: past RUNAWAY_AFTER
# states, an estimate RUNAWAY_FACTOR times the state bound stops the search at once (it would
# stop at the bound anyway, after hours), saying so on stderr.
ESTIMATE_EVERY = 4096
RUNAWAY_AFTER = 50_000
RUNAWAY_FACTOR = 1000
# A state's value: the int 0 or 1 when exactly that, else a Fraction strictly between
Value = int | Fraction


@dataclass(frozen=True, slots=True)
class SurvivalAnswer:
    rounds: int
    probability: Fraction | None
    engine: str
    status: str
    states: int
    agree: bool | None  # both engines gave the same value (engine both)
    replayed: bool
    first_decision: tuple[tuple[str, Fraction], ...]  # the first decision's options and their values

    def to_json(self) -> dict[str, Any]:
        return {
            "question": "survival",
            "rounds": self.rounds,
            "probability": self.probability,
            "engine": self.engine,
            "status": self.status,
            "states": self.states,
            "agree": self.agree,
            "replayed": self.replayed,
            "first_decision": [[o, v] for o, v in self.first_decision],
        }


def _terminal(s: GameState) -> Fraction | None:
    if s.outcome is not None:
        return Fraction(0) if s.outcome.result == "loss" else Fraction(1)
    if s.request is None:
        return Fraction(1)
    return None


@dataclass
class SurvivalDP:
    """Expectimax over the oracle's states (see the module docstring)."""

    game: CloudspireGame
    grouped: bool
    deadline: Deadline = field(default_factory=Deadline)
    memo: dict[GameState, Value] = field(default_factory=dict)
    progress: Progress | None = None
    max_states: int = MAX_STATES  # bounds memory: beyond it the search stops as unknown
    # [children finished, children] of each decision and roll on the path being searched
    _path: list[list[int]] = field(default_factory=list)
    estimated: int | None = None  # the latest estimate of the states in all (see ESTIMATE_EVERY)
    runaway: bool = False  # stopped by that estimate
    # the ways of each colour's dice of a roll (see _colour_ways), by colour and dice
    _ways: dict[tuple[Any, tuple[str, ...]], list[tuple[dict[str, str], Fraction]]] = field(
        default_factory=dict
    )
    # every way a roll's dice fall (see _combos), by the dice of the roll in the order rolled
    _block_combos: dict[tuple[str, ...], list[tuple[dict[str, str], Fraction]]] = field(default_factory=dict)

    def finished_share(self) -> float:
        """The share of the search tree finished, each node's children weighed equally."""
        share, weight = 0.0, 1.0
        for finished, children in self._path:
            share += weight * finished / children
            weight /= children
        return share

    def _estimate(self) -> None:
        share = self.finished_share()
        if share <= 0:
            return
        self.estimated = round(len(self.memo) / share)
        bound = self.max_states * RUNAWAY_FACTOR
        if self.progress is not None and self.estimated <= bound:  # beyond: no pace worth showing
            self.progress.estimate(self.estimated)
        if len(self.memo) >= RUNAWAY_AFTER and self.estimated > bound:
            self.runaway = True
            raise self.deadline.trip("memory")  # the state bound stands for memory: it would be hit

    def value(self, s: GameState) -> Value:
        """The state's survival probability: the int 0 or 1 when it is one of those (most states
        are worth 0: an int compares and adds much faster than a Fraction), else a Fraction."""
        outcome = s.outcome
        if outcome is not None:
            return 0 if outcome.result == "loss" else 1
        request = s.request
        if request is None:
            return 1
        memo = self.memo
        found = memo.get(s)
        if found is not None:
            return found
        self.deadline.check()
        if len(memo) > self.max_states:
            raise self.deadline.trip("memory")  # the state bound stands for memory
        if not len(memo) % ESTIMATE_EVERY and memo:
            self._estimate()
        game, value = self.game, self.value
        result: Value = 0
        if isinstance(request, ChanceRequest):
            if self.grouped and request.kind == "roll":
                result = self._roll_block(s)
            else:
                listed = outcomes(request)
                node = [0, len(listed)]
                self._path.append(node)
                for o, p in listed:
                    v = value(step(game, s, o))
                    if v:
                        result += p * v
                    node[0] += 1
                self._path.pop()
                result = _exact(result)
        else:
            choices = options(s)
            node = [0, len(choices)]
            self._path.append(node)
            for o in choices:
                v = value(step(game, s, o))
                if v and v > result:
                    result = v
                node[0] += 1
            self._path.pop()
        memo[s] = result
        if self.progress is not None:
            self.progress.step()
        return result

    def option_values(self, s: GameState) -> tuple[tuple[str, Fraction], ...]:
        return tuple((o, Fraction(self.value(step(self.game, s, o)))) for o in options(s))

    def _roll_block(self, s: GameState) -> Value:
        """Every die of this roll at once: per colour, counts of misses, hits and crits."""
        request = s.request
        assert isinstance(request, ChanceRequest)
        block = [request.source]
        for task in s.agenda:
            if not isinstance(task, RollDie):
                break
            block.append(task.die)
        combos = self._combos(tuple(block))
        total: Value = 0
        node = [0, len(combos)]
        self._path.append(node)
        game, value = self.game, self.value
        for assignment, prob in combos:
            current = s
            for die in block:
                pending = current.request
                assert isinstance(pending, ChanceRequest) and pending.source == die
                current = step(game, current, assignment[die])
            v = value(current)
            if v:
                total += prob * v
            node[0] += 1
        self._path.pop()
        return _exact(total)

    def _combos(self, block: tuple[str, ...]) -> list[tuple[dict[str, str], Fraction]]:
        """Every way the dice of ``block`` fall (each colour's counts, see :meth:`_colour_ways`),
        as the face of each die and its probability; the same blocks recur: kept."""
        combos = self._block_combos.get(block)
        if combos is not None:
            return combos
        by_colour: dict[Any, list[str]] = {}
        for die in block:
            by_colour.setdefault(colour_of(die), []).append(die)
        per_colour = [self._colour_ways(colour, tuple(dice)) for colour, dice in by_colour.items()]
        combos = []
        for combo in itertools.product(*per_colour):
            prob = Fraction(1)
            assignment: dict[str, str] = {}
            for faces_of, p_colour in combo:
                assignment.update(faces_of)
                prob *= p_colour
            combos.append((assignment, prob))
        self._block_combos[block] = combos
        return combos

    def _colour_ways(self, colour: Any, dice: tuple[str, ...]) -> list[tuple[dict[str, str], Fraction]]:
        """The ways ``dice`` of one colour can fall, as counts of misses, hits and crits dealt to
        the dice in order, each with its multinomial probability (the same few recur: kept)."""
        key = (colour, dice)
        ways = self._ways.get(key)
        if ways is not None:
            return ways
        table = self.game.data.dice.faces_of(colour)
        p = {f: Fraction(table.count(f), len(table)) for f in Face}
        ways = []
        n = len(dice)
        for misses in range(n + 1):
            for hits in range(n - misses + 1):
                crits = n - misses - hits
                weight = math.comb(n, misses) * math.comb(n - misses, hits)
                prob = weight * p[Face.MISS] ** misses * p[Face.HIT] ** hits * p[Face.CRIT] ** crits
                if prob:
                    dealt = [Face.MISS.value] * misses + [Face.HIT.value] * hits + [Face.CRIT.value] * crits
                    ways.append((dict(zip(dice, dealt, strict=True)), prob))
        self._ways[key] = ways
        return ways


def _exact(value: Value) -> Value:
    """A sum of weighed values as the int 0 or 1 when it is one (see :meth:`SurvivalDP.value`)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def _count(n: int | None) -> str:
    """A state count to read: 1,234,567, or 8.1e+34 past a billion (an estimate's digits mean
    nothing there)."""
    return "an unknown number of" if n is None else f"{n:,}" if n < 10**9 else f"{n:.1e}"


def _say(line: str, progress: Progress) -> None:
    """One line on the progress stream (stderr): stdout keeps only the answer."""
    with contextlib.suppress(OSError, ValueError):  # a closed or broken stderr stops nothing
        print(f"invasion: {line}", file=progress.stream, flush=True)


def policy_survival(game: CloudspireGame, start: GameState, dp: SurvivalDP, deadline: Deadline) -> Fraction:
    """The oracle playing ``dp``'s optimal policy against every dice outcome, one die at a time."""
    memo: dict[GameState, Fraction] = {}

    def walk(s: GameState) -> Fraction:
        done = _terminal(s)
        if done is not None:
            return done
        if s in memo:
            return memo[s]
        deadline.check()
        request = s.request
        if isinstance(request, ChanceRequest):
            result = sum((p * walk(step(game, s, o)) for o, p in outcomes(request)), Fraction(0))
        else:
            values = dp.option_values(s)
            best = max(v for _, v in values)
            choice = next(o for o, v in values if v == best)
            result = walk(step(game, s, choice))
        memo[s] = result
        return result

    return walk(start)


def survival_probability(
    scenario: Scenario,
    rounds: int | None = None,
    engine: str = "auto",
    deadline: Deadline | None = None,
    max_states: int = MAX_STATES,
) -> SurvivalAnswer:
    """P(the hero survives the scenario's rounds, or ``rounds``) under optimal play, exactly.

    ``auto`` takes the grouped engine: the two engines measure the same on the bundled survival
    (``make bench``, tests/bench/bench_cloudspire.py: per-die 0.9x to 1.0x grouped), and the
    grouped one's policy is the one replayed against every dice outcome."""
    if engine == "auto":
        engine = "grouped"
    elif engine == "baseline":  # the one-die-at-a-time DP is the baseline the grouped one must equal
        engine = "per-die"
    require_round_start(scenario, "survival")
    deadline = deadline or Deadline()
    game = scenario.game()
    initial = scenario.initial
    if rounds is not None:
        if rounds < 1:
            raise RulesError("survive at least one round")
        initial = initial.evolve(rounds_left=rounds)
    if initial.deployment.shuffled:
        raise RulesError(
            "the survival question needs a known deployment order: list the Deployment Stack in order"
        )
    start, _ = game.start(initial)
    engines = ("grouped", "per-die") if engine == "both" else (engine,)
    dps: dict[str, SurvivalDP] = {}
    progress = Progress("survival states")

    def solve(name: str) -> Fraction:
        dps[name] = SurvivalDP(
            unrecorded(game), name == "grouped", deadline, progress=progress, max_states=max_states
        )
        with no_cycle_collection():
            return Fraction(dps[name].value(start))

    # each engine in turn; one cut by a limit or Ctrl-C is named, the later ones not started
    found, runs = run_engines(engines, solve, deadline, finished=lambda _: True)
    values = dict(zip(runs.finished, found, strict=True))
    label = "+".join(runs.finished) or engines[0]  # only the engines that finished are named
    try:
        if not values:
            raise TimeLimit("interrupted" if deadline.stopped() else "time")
        main = dps[runs.finished[0]]
        first = main.option_values(start) if isinstance(start.request, DecisionRequest) else ()
        with no_cycle_collection():
            replayed = policy_survival(game, start, main, deadline)
    except TimeLimit:
        progress.finish()
        for dp in dps.values():
            if dp.runaway:
                _say(
                    f"survival search stopped early: about {_count(dp.estimated)} states estimated after "
                    f"{len(dp.memo):,}, and the memory limit allows {dp.max_states:,} "
                    "(ask for fewer --rounds, or raise --memory-limit)",
                    progress,
                )
        explored = progress.done  # the states valued before the stop, every engine counted
        return SurvivalAnswer(
            initial.rounds_left, None, label, Status.UNKNOWN.value, explored, None, False, ()
        )
    progress.finish()
    agree = None
    if len(values) == 2:
        agree = values["grouped"] == values["per-die"]
        if not agree:
            raise OracleDisagreement(
                f"the grouped DP says {values['grouped']}, the per-die DP {values['per-die']}; this is a bug"
            )
    value = values[runs.finished[0]]
    if replayed != value:
        raise OracleDisagreement(
            f"the oracle playing the optimal policy survives with {replayed}, the DP said {value}"
        )
    return SurvivalAnswer(
        initial.rounds_left,
        value,
        label,
        runs.status(Status.PROVEN.value),  # best-found: an engine that should have checked it was stopped
        len(main.memo),
        agree,
        True,
        first,
    )

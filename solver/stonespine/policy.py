"""Query 3: the Invasion phase as a decision problem, solved exactly over the dice.

Between waves the only thing that matters is which chambers hold defeated heroes (a set ``F``):
they are the heroes defeated so far, and the corridors later heroes walk through freely. After
each wave without an escape the player may continue (roll again) or close the gate; an escape
ends the phase. The first wave is not optional: every gate opens after Preparation (seed 000,
"III. Preparation Phase" and "Step 3: Close Gate or Continue").

:class:`InvasionDP` computes, by dynamic programming over ``F`` with exact fractions,

* ``V(F) = max(close(F), continue(F))`` with ``continue(F) = sum over rolls of P(roll) * max over
  the wave's reachable results (F', escaped) of the value of that result``,

for a measure: the probability of the trophy against a target (``trophy``: no escape and at least
``target`` heroes defeated), the expected heroes defeated (``defeated``), the expected XP
(``xp``: heroes that entered) or the probability of no escape (``no-escape``). Ties prefer to
close the gate.

:class:`PolicyDecider` plays that optimal policy inside the oracle (gate decisions, hero order,
routes), and :func:`oracle_expectation` checks the DP value by walking the oracle's own game over
every dice outcome with that policy.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest, Option
from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.stonespine.dungeon import Cell
from invasion_oracle.model.stonespine.game import StonespineGame
from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.state import GameState, Stage
from invasion_oracle.solver.common import Deadline, OracleDisagreement, Status, TimeLimit
from invasion_oracle.solver.stonespine.board import Board, Layout, board_for
from invasion_oracle.solver.stonespine.dice import Roll, roll_distribution
from invasion_oracle.solver.stonespine.fast import EntryTables, outcome_masks, route_to
from invasion_oracle.solver.stonespine.routes import Fate, Outcome, walk_route


class Measure(enum.StrEnum):
    TROPHY = "trophy"
    DEFEATED = "defeated"
    XP = "xp"
    NO_ESCAPE = "no-escape"


# A wave result: the defeated-chamber mask afterwards and whether a hero escaped.
Result = tuple[int, bool]
# How to get there: (colour, defeat node or -1 for the escaping hero), in order.
Steps = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class PhaseAnswer:
    measure: Measure
    target: int | None
    value: Fraction  # of the whole phase, first wave included
    close_now: Fraction  # the measure if no wave were rolled (for reference)
    states: int  # distinct F sets the DP visited
    first_wave: tuple[
        tuple[Roll, Fraction, Result, Fraction], ...
    ]  # roll, probability, chosen result, its value


class InvasionDP:
    """Exact values and the optimal policy for one dungeon and placement."""

    def __init__(
        self,
        board: Board,
        layout: Layout,
        rolls: Sequence[tuple[Roll, Fraction]],
        measure: Measure,
        target: int | None = None,
        start: int = 0,
        deadline: Deadline | None = None,
        tables: EntryTables | None = None,
    ) -> None:
        if board.limits:
            raise RulesError("the Invasion-phase solver models every rule but: " + "; ".join(board.limits))
        if measure is Measure.TROPHY and target is None:
            raise RulesError("the trophy measure needs a target number of defeated heroes (--target)")
        self.board, self.layout, self.measure, self.target = board, layout, measure, target
        self.rolls = tuple((r, p) for r, p in rolls if p > 0)
        self.start = start
        self.deadline = deadline or Deadline()
        self.tables = tables or EntryTables(board)
        self._masks: dict[tuple[int, int], tuple[int, bool]] = {}
        self.value = lru_cache(maxsize=None)(self._value)
        self.results = lru_cache(maxsize=None)(self._results)

    # -- the measure --------------------------------------------------------------------

    def terminal(self, mask: int, escaped: bool) -> Fraction:
        defeated = mask.bit_count()
        if self.measure is Measure.TROPHY:
            assert self.target is not None
            return Fraction(int(not escaped and defeated >= self.target))
        if self.measure is Measure.DEFEATED:
            return Fraction(defeated)
        if self.measure is Measure.XP:
            return Fraction(defeated + int(escaped))
        return Fraction(int(not escaped))

    # -- waves ---------------------------------------------------------------------------

    def _options(self, color: int, mask: int) -> tuple[int, bool]:
        key = (color, mask)
        if key not in self._masks:
            self.deadline.check_size(len(self._masks), 1_000_000)
            self._masks[key] = outcome_masks(
                self.board,
                self.layout,
                self.board.heroes[color],
                mask,
                self.tables.by_color[color],
                self.deadline,
            )
        return self._masks[key]

    def _results(self, mask: int, left: Roll) -> dict[Result, Steps]:
        """Every result the player can steer this wave to, with one way to get there."""
        self.deadline.check()
        self.deadline.check_size(self.results.cache_info().currsize, 500_000)
        if sum(left) == 0:
            return {(mask, False): ()}
        found: dict[Result, Steps] = {}
        for color in range(3):
            if not left[color]:
                continue
            rest = (*left[:color], left[color] - 1, *left[color + 1 :])
            defeats, escapes = self._options(color, mask)
            if escapes:
                found.setdefault((mask, True), ((color, -1),))
            nodes = defeats
            while nodes:
                low = nodes & -nodes
                nodes ^= low
                for result, steps in self.results(mask | low, rest).items():
                    found.setdefault(result, ((color, low.bit_length() - 1), *steps))
        return found

    def wave_value(self, mask: int, roll: Roll) -> tuple[Fraction, Result, Steps]:
        """The best reachable result of one wave (ties: fewest defeated hero chambers, then mask)."""
        best: tuple[Fraction, Result, Steps] | None = None
        for result, steps in sorted(self.results(mask, roll).items()):
            later = self.terminal(*result) if result[1] else self.value(result[0])
            if best is None or later > best[0]:
                best = (later, result, steps)
        assert best is not None
        return best

    def continue_value(self, mask: int) -> Fraction:
        return sum((p * self.wave_value(mask, r)[0] for r, p in self.rolls), Fraction(0))

    def _value(self, mask: int) -> Fraction:
        return max(self.terminal(mask, False), self.continue_value(mask))

    def should_continue(self, mask: int) -> bool:
        return self.continue_value(mask) > self.terminal(mask, False)

    def solve(self) -> PhaseAnswer:
        first = []
        for roll, p in self.rolls:
            value, result, _ = self.wave_value(self.start, roll)
            first.append((roll, p, result, value))
        total = sum((p * v for _, p, _, v in first), Fraction(0))
        return PhaseAnswer(
            self.measure,
            self.target,
            total,
            self.terminal(self.start, False),
            self.value.cache_info().currsize,
            tuple(first),
        )

    def plan(self, mask: int, roll: Roll) -> list[tuple[HeroColor, tuple[int, ...], Outcome]]:
        """The optimal wave as heroes in order with routes (witnesses from the exhaustive walk)."""
        _, _, steps = self.wave_value(mask, roll)
        plan = []
        for color, node in steps:
            hero = COLORS[color]
            fate = "escaped" if node < 0 else "defeated"
            route = route_to(
                self.board,
                self.layout,
                self.board.heroes[color],
                mask,
                fate,
                node,
                self.deadline,
                self.tables.by_color[color],
            )
            assert route is not None, "the DP only plans results the walker found"
            outcome = (
                walk_route(self.board, self.layout, hero, route, mask)
                if route
                else Outcome(Fate.ESCAPED, None, "no-entry", (), 0)
            )
            if node >= 0:
                mask |= 1 << node
            plan.append((hero, outcome.route, outcome))
        return plan


def solve_phase(
    scenario: Scenario,
    measure: Measure,
    target: int | None = None,
    player: int = 0,
    layout: Layout | None = None,
    deadline: Deadline | None = None,
) -> tuple[InvasionDP, PhaseAnswer]:
    board, placed, defeated = board_for(scenario, player)
    if measure is Measure.TROPHY and target is None and scenario.initial.solo:
        target = scenario.data.value("jael_defeats")[board.year - 1] + 1
    dp = InvasionDP(
        board,
        layout or placed,
        roll_distribution(scenario.data, board.year),
        measure,
        target,
        defeated,
        deadline,
    )
    return dp, dp.solve()


class PolicyDecider:
    """The DP's optimal policy as a decider for the oracle (one player's dungeon)."""

    def __init__(self, dp: InvasionDP, player: str) -> None:
        self.dp = dp
        self.player = player
        self.state: GameState | None = None
        self._plans: dict[tuple[int, Roll], list[tuple[HeroColor, tuple[int, ...], Outcome]]] = {}

    def observe(self, state: GameState) -> None:
        self.state = state

    def _mask(self, cells: Sequence[Cell]) -> int:
        mask = 0
        for cell in cells:
            mask |= 1 << self.dp.board.index(cell)
        return mask

    def _plan(self, mask: int, roll: Roll) -> list[tuple[HeroColor, tuple[int, ...], Outcome]]:
        key = (mask, roll)
        if key not in self._plans:
            self._plans[key] = self.dp.plan(mask, roll)
        return self._plans[key]

    def decide(self, request: DecisionRequest) -> Option:
        assert self.state is not None, "the driver shows the policy the state before each decision"
        p = next(pl for pl in self.state.players if pl.name == request.player)
        mask = self._mask([c for c, _ in p.defeated])
        if request.kind == "gate":
            return "continue" if self.dp.should_continue(mask) else "close"
        if request.kind == "choose-hero":
            roll = _roll(p.waiting)
            return self._plan(mask, roll)[0][0].value
        if request.kind == "move":
            run = p.running
            assert run is not None
            # The plan from here is the one chosen when this hero was sent: it starts with this hero.
            roll = _roll((*p.waiting, run.color))
            hero, route, _ = self._plan(mask, roll)[0]
            if hero is not run.color:
                raise OracleDisagreement(
                    f"the policy planned a {hero.value} hero first but a {run.color.value} one is in the dungeon"
                )
            names = [self.dp.board.name(n) for n in route]
            return names[len(run.visited)]
        return request.options[0]


def _roll(heroes: Sequence[HeroColor]) -> Roll:
    return (heroes.count(COLORS[0]), heroes.count(COLORS[1]), heroes.count(COLORS[2]))


def oracle_expectation(
    scenario: Scenario,
    dp: InvasionDP,
    player: int = 0,
    deadline: Deadline | None = None,
    *,
    worst: bool = False,
) -> Fraction:
    """The measure's expectation when the oracle plays the phase with the DP's policy.

    Every dice outcome is followed with its probability (a face listed twice counts twice); the
    result must equal the DP's value. With ``worst`` the smallest value over every dice outcome
    instead (the guaranteed value of a DP that plays against the worst roll).
    """
    deadline = deadline or Deadline()
    game = StonespineGame(scenario.rulings, scenario.data)
    base = scenario.initial
    me = base.players[player]
    state = base.__class__(
        **{
            **{f: getattr(base, f) for f in base.__dataclass_fields__},
            "players": (me,),
            "stage": Stage.ROLL,
            "solo": False,
            "last_year": base.year,
        }
    )
    start, _ = game.start(state)
    policy = PolicyDecider(dp, me.name)
    memo: dict[tuple[frozenset[Cell], tuple[str, ...]], Fraction] = {}

    def measure(current: GameState) -> Fraction:
        p = current.players[0]
        return dp.terminal(policy._mask([c for c, _ in p.defeated]), p.had_escape)

    def expect(current: GameState) -> Fraction:
        deadline.check()
        deadline.check_size(len(memo), 500_000)
        if current.stage not in (Stage.ROLL, Stage.REPEL, Stage.CONTINUE):
            return measure(current)
        request = current.request
        assert request is not None
        if isinstance(request, ChanceRequest):
            p = current.players[0]
            key = (frozenset(c for c, _ in p.defeated), current.rolled)
            if key in memo:
                return memo[key]
            total = Fraction(0)
            count = len(request.outcomes)
            values = []
            for face in dict.fromkeys(request.outcomes):
                share = Fraction(request.outcomes.count(face), count)
                nxt, _ = game.step(current, face)
                values.append(expect(nxt))
                total += share * values[-1]
            if worst:
                total = min(values)
            memo[key] = total
            return total
        policy.observe(current)
        nxt, _ = game.step(current, policy.decide(request))
        return expect(nxt)

    return expect(start)


def verify_phase(
    scenario: Scenario, dp: InvasionDP, answer: PhaseAnswer, player: int = 0, deadline: Deadline | None = None
) -> None:
    got = oracle_expectation(scenario, dp, player, deadline)
    if got != answer.value:
        raise OracleDisagreement(
            f"the oracle playing the optimal policy gives {got}, the DP said {answer.value}"
        )


def solve_policy(
    scenario: Scenario,
    measure: Measure,
    target: int | None = None,
    *,
    check: bool = True,
    player: int = 0,
    deadline: Deadline | None = None,
) -> tuple[InvasionDP | None, Any]:
    """Query 3 answered: the optimal policy's exact value (a :class:`PolicyAnswer`) and the DP
    (``None`` when stopped), checked by the oracle playing the policy over every dice outcome.

    On the deadline the answer is ``unknown``: a DP stopped half way bounds nothing.
    """
    from invasion_oracle.solver.stonespine.answers import (
        FigurePlacement,
        FirstWaveRoll,
        PolicyAnswer,
        stop_reason,
    )

    deadline = deadline or Deadline()
    board, layout, _ = board_for(scenario, player)
    placement = FigurePlacement.of(board, layout)
    try:
        dp, answer = solve_phase(scenario, measure, target, player, deadline=deadline.share(0.6))
    except TimeLimit as stop:
        return None, PolicyAnswer(
            Status.UNKNOWN,
            measure.value,
            target,
            None,
            None,
            0,
            (),
            False,
            placement,
            stop_reason(stop.reason),
        )
    checked, stopped = False, None
    if check:
        try:
            verify_phase(scenario, dp, answer, player, deadline)
            checked = True
        except TimeLimit as stop:
            stopped = stop.reason
    rows = []
    for roll, p, result, value in answer.first_wave:
        after = "close" if result[1] or not dp.should_continue(result[0]) else "continue"
        cells = tuple(board.name(n) for n in range(board.size) if result[0] >> n & 1)
        rows.append(FirstWaveRoll(roll, p, cells, result[1], after, value))
    return dp, PolicyAnswer(
        Status.PROVEN if stopped is None else Status.BEST_FOUND,
        measure.value,
        answer.target,
        answer.value,
        answer.close_now,
        answer.states,
        tuple(rows),
        checked,
        placement,
        stop_reason(stopped),
    )


def describe_result(board: Board, result: Result) -> str:
    mask, escaped = result
    nodes = [board.name(n) for n in range(board.size) if mask >> n & 1]
    return (
        ("escape; " if escaped else "")
        + f"{len(nodes)} defeated"
        + (f" ({' '.join(nodes)})" if nodes else "")
    )

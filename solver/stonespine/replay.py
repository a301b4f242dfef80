"""Replaying solver answers through the oracle: the oracle is ground truth.

A *plan* is what a solver proposes for one wave: heroes in the order the player sends them, each
with its route. :func:`replay_wave` plays the plan through :class:`StonespineGame` from Step 2
and reports what the oracle says happened; :func:`verify_wave` raises
:class:`~invasion_oracle.solver.common.OracleDisagreement` when that differs from the solver's claim.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest, Option
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.stonespine.dungeon import Cell
from invasion_oracle.model.stonespine.game import StonespineGame
from invasion_oracle.model.stonespine.heroes import HeroColor
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.state import GameState, Placement, Stage
from invasion_oracle.solver.common import Deadline, OracleDisagreement


@dataclass(frozen=True, slots=True)
class HeroResult:
    """What the oracle says one hero did."""

    color: HeroColor
    fate: str  # "defeated" or "escaped"
    chamber: str | None
    reason: str
    route: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WaveResult:
    heroes: tuple[HeroResult, ...]
    events: tuple[Event, ...]
    final: GameState

    @property
    def defeated(self) -> int:
        return sum(1 for h in self.heroes if h.fate == "defeated")

    @property
    def escaped(self) -> bool:
        return any(h.fate == "escaped" for h in self.heroes)


def wave_state(
    scenario: Scenario,
    player: int,
    heroes: Sequence[HeroColor],
    placement: Placement | None = None,
    defeated: Sequence[tuple[Cell, HeroColor]] | None = None,
    state: GameState | None = None,
) -> GameState:
    """The state just before Step 2 with only ``player`` in play and ``heroes`` outside."""
    base = state or scenario.initial
    p = base.players[player]
    p = replace(
        p,
        placement=placement if placement is not None else p.placement,
        defeated=tuple(defeated) if defeated is not None else p.defeated,
        waiting=tuple(heroes),
        gate_open=True,
        running=None,
    )
    return replace(base, players=(p,), stage=Stage.REPEL, cursor=0, request=None, task=None, solo=False)


class _PlanDecider:
    """Answers the oracle's requests from a plan: hero order, then each route's next chamber."""

    def __init__(self, plan: Sequence[tuple[HeroColor, Sequence[str]]]) -> None:
        self.plan = list(plan)
        self.hero = -1

    def decide(self, request: DecisionRequest) -> Option:
        if request.kind == "choose-hero":
            self.hero += 1
            return self.plan[self.hero][0].value
        if request.kind == "move":
            context = dict(request.context)
            route = list(self.plan[self.hero][1])
            here = route.index(str(context["chamber"]))
            return route[here + 1]
        return request.options[0]

    def started(self, color: HeroColor) -> None:
        """The oracle sent a hero without asking (one colour left): keep the plan's pointer in step."""
        self.hero += 1
        if self.plan[self.hero][0] is not color:
            raise OracleDisagreement(
                f"the oracle sent {color.value}, the plan expected {self.plan[self.hero][0].value}"
            )


def replay_wave(
    scenario: Scenario,
    player: int,
    plan: Sequence[tuple[HeroColor, Sequence[str]]],
    *,
    placement: Placement | None = None,
    defeated: Sequence[tuple[Cell, HeroColor]] | None = None,
    state: GameState | None = None,
    deadline: Deadline | None = None,
) -> WaveResult:
    """Play ``plan`` through the oracle until the wave is over (the Step 3 gate decision)."""
    deadline = deadline or Deadline()
    game = StonespineGame(scenario.rulings, scenario.data)
    start = wave_state(scenario, player, [c for c, _ in plan], placement, defeated, state)
    decider = _PlanDecider(plan)
    current, events = _advance_with(game, start, decider)
    log = list(events)
    while current.request is not None:
        request = current.request
        if isinstance(request, ChanceRequest) or request.kind == "gate":
            break
        deadline.check()
        answer = decider.decide(request)
        current, events = game.step(current, answer)
        _note_auto_sends(decider, events, request)
        log.extend(events)
    return WaveResult(_results(log), tuple(log), current)


def _advance_with(
    game: StonespineGame, state: GameState, decider: _PlanDecider
) -> tuple[GameState, tuple[Event, ...]]:
    current, events = game.start(state)
    _note_auto_sends(decider, events, None)
    return current, events


def _note_auto_sends(decider: _PlanDecider, events: Sequence[Event], request: DecisionRequest | None) -> None:
    for event in events:
        if event.kind == "hero_sent" and not event.get("chosen"):
            decider.started(HeroColor(event.get("hero")))


def _results(events: Sequence[Event]) -> tuple[HeroResult, ...]:
    results: list[HeroResult] = []
    color: HeroColor | None = None
    route: list[str] = []
    for event in events:
        if event.kind == "hero_sent":
            color, route = HeroColor(event.get("hero")), []
        elif event.kind == "hero_entered":
            route.append(event.get("chamber"))
        elif event.kind in ("hero_defeated", "hero_escaped") and color is not None:
            fate = "defeated" if event.kind == "hero_defeated" else "escaped"
            reason = event.get("by") if fate == "defeated" else event.get("reason")
            results.append(HeroResult(color, fate, event.get("chamber"), reason, tuple(route)))
    return tuple(results)


def verify_wave(
    scenario: Scenario,
    player: int,
    plan: Sequence[tuple[HeroColor, Sequence[str]]],
    expected: Sequence[tuple[str, str | None, str]],
    *,
    placement: Placement | None = None,
    defeated: Sequence[tuple[Cell, HeroColor]] | None = None,
    state: GameState | None = None,
    deadline: Deadline | None = None,
) -> WaveResult:
    """Replay and compare with the solver's ``(fate, chamber, reason)`` per hero; raise if different."""
    result = replay_wave(
        scenario, player, plan, placement=placement, defeated=defeated, state=state, deadline=deadline
    )
    got = [(h.fate, h.chamber, h.reason) for h in result.heroes]
    if got != list(expected):
        raise OracleDisagreement(
            f"the oracle disagrees with the solver: plan {[(c.value, list(r)) for c, r in plan]} "
            f"claimed {list(expected)}, oracle gives {got}"
        )
    return result


def verify_routes(
    scenario: Scenario,
    player: int,
    color: HeroColor,
    claims: Sequence[tuple[Sequence[str], tuple[str, str | None, str]]],
    deadline: Deadline | None = None,
) -> None:
    """Replay many one-hero routes through the oracle at once and insist each ends as claimed.

    Each claim is a route (chamber names) and its ``(fate, chamber, reason)``. Routes sharing a
    beginning share its oracle steps (states are immutable, so a branch starts from the state
    where the routes part), which makes replaying every outcome of a large dungeon cheap.
    """
    deadline = deadline or Deadline()
    game = StonespineGame(scenario.rulings, scenario.data)
    start, opening = game.start(wave_state(scenario, player, [color]))

    def explore(
        current: GameState,
        events: tuple[Event, ...],
        group: list[tuple[Sequence[str], tuple[str, str | None, str]]],
    ) -> None:
        deadline.check()
        request = current.request
        if request is None or isinstance(request, ChanceRequest) or request.kind == "gate":
            got = _results(events)
            for route, expected in group:
                found = [(h.fate, h.chamber, h.reason) for h in got]
                walked = [h.route for h in got]
                if found != [expected] or walked != [tuple(route)]:
                    raise OracleDisagreement(
                        f"the oracle disagrees with the solver: route {list(route)} claimed {expected}, "
                        f"oracle gives {found} along {[list(w) for w in walked]}"
                    )
            return
        if request.kind == "move":
            here = str(dict(request.context)["chamber"])
            branches: dict[str, list[tuple[Sequence[str], tuple[str, str | None, str]]]] = {}
            for route, expected in group:
                at = list(route).index(here)
                if at + 1 >= len(route):
                    raise OracleDisagreement(
                        f"the oracle moves the hero on from {here}; route {list(route)} ends there"
                    )
                branches.setdefault(route[at + 1], []).append((route, expected))
            for option, members in branches.items():
                nxt, produced = game.step(current, option)
                explore(nxt, events + tuple(produced), members)
            return
        nxt, produced = game.step(current, request.options[0])
        explore(nxt, events + tuple(produced), group)

    if claims:
        explore(start, tuple(opening), list(claims))

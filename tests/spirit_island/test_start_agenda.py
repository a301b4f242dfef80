"""``InvaderPhaseGame.start(state, agenda=...)`` (issue 38): exactly what
``start(state._replace(agenda=...))`` gives, state and events, on the states of generated games
(idle ones and ones waiting for an answer, any rulings, played on and not) for every single-land
action in every land and for longer agendas; and an agenda that does not fit the game is a
``MalformedInputError`` naming the task and field, before anything is played."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from invasion_oracle.model.core.decisions import normalise_answer
from invasion_oracle.model.core.errors import InvasionError, MalformedInputError
from invasion_oracle.model.spirit_island.scenario import Scenario, scenario_from_document
from invasion_oracle.model.spirit_island.state import (
    AddBlight,
    Advance,
    BuildLand,
    CardAction,
    ExploreLand,
    FightBack,
    GenerateFear,
    IslandState,
    RavageLand,
    StartPhase,
    Task,
)
from invasion_oracle.properties.spirit_island import scenario_documents
from tests.bench.bench_spirit_island import _board_d
from tests.identical import difference, identical

MAX_STATES = 12


def states_met(scenario: Scenario, play_on: bool) -> list[IslandState]:
    """The states a game of ``scenario`` passes through, as returned (some waiting for an answer,
    some over), and each of them idle (nothing on the agenda, nothing pending)."""
    game = scenario.game(play_on=play_on)
    decider, chance = scenario.decider(), scenario.chance_source()
    state, _ = game.start(scenario.initial)
    states = [scenario.initial, state]
    while (request := game.pending(state)) is not None and len(states) < MAX_STATES:
        source = decider.decide if hasattr(request, "options") else chance.outcome
        state, _ = game.step(state, normalise_answer(request, source(request)))
        states.append(state)
    return states + [s._replace(agenda=(), request=None, awaiting=None) for s in states]


def agendas(scenario: Scenario, state: IslandState) -> list[tuple[Task, ...]]:
    card = scenario.initial.invaders.build[0] if scenario.initial.invaders.build else "1J"
    out: list[tuple[Task, ...]] = [(), (StartPhase(),), (Advance(),)]
    for index in range(len(state.lands)):
        out += [(RavageLand(card, index),), (BuildLand(card, index),), (ExploreLand(card, index),)]
        out += [(BuildLand(card, index), ExploreLand(card, index)), (FightBack(index),)]
    out.append((GenerateFear(1, "test"), RavageLand(card, 0)))
    return out


def played(game: Any, state: IslandState, agenda: tuple[Task, ...], *, queued: bool) -> object:
    """One way's answer (compared type-exactly: equal values of another type would write other
    JSON), or the error it raised."""
    try:
        if queued:
            return game.start(state._replace(agenda=agenda))
        return game.start(state, agenda=agenda)
    except InvasionError as error:
        return f"{type(error).__name__}: {error}"


def compare(scenario: Scenario, play_on: bool) -> int:
    given_way, queued_way = scenario.game(play_on=play_on), scenario.game(play_on=play_on)
    compared = 0
    for state in states_met(scenario, play_on):
        for agenda in agendas(scenario, state):
            given = played(given_way, state, agenda, queued=False)
            queued = played(queued_way, state, agenda, queued=True)
            assert identical(given, queued), (agenda, difference(given, queued))
            compared += 1
    return compared


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario_documents())
def test_start_with_an_agenda_is_start_of_the_replaced_state(document: dict[str, Any]) -> None:
    scenario = scenario_from_document(document, "generated")
    assert compare(scenario, play_on=False) > 0
    assert compare(scenario, play_on=True) > 0


def test_the_bench_workload_both_ways() -> None:
    """The bench's twelve actions in a row, twice: each state and event the same both ways."""
    scenario, plan = _board_d()
    given_way, queued_way = scenario.game(), scenario.game()
    state = scenario.initial._replace(agenda=())
    for _ in range(2):
        for task, _index in plan:
            done = given_way.start(state, agenda=(task,))
            queued = queued_way.start(state._replace(agenda=(task,)))
            assert identical(done, queued), difference(done, queued)
            state = done[0]
    assert state.lands != scenario.initial.lands


@pytest.mark.parametrize(
    ("agenda", "where", "reason"),
    [
        ([RavageLand("1J", 0)], "$", "expected a tuple of tasks, got [RavageLand(card='1J', land=0)]"),
        (("ravage",), "$[0]", "expected a task (AddBlight, Advance, ApplyEffects"),
        ((None,), "$[0]", "got None"),
        (
            (RavageLand("9Z", 0),),
            "$[0].card",
            "expected the id of an Invader card of this game's data, got '9Z'",
        ),
        ((BuildLand(["1J"], 0),), "$[0].card", "got ['1J']"),  # type: ignore[arg-type]
        ((ExploreLand("1J", 8),), "$[0].land", "expected a land index of this island, 0 to 7, got 8"),
        ((RavageLand("1J", -1),), "$[0].land", "got -1"),
        ((RavageLand("1J", True),), "$[0].land", "got True"),
        ((RavageLand("1J", 1.0),), "$[0].land", "got 1.0"),  # type: ignore[arg-type]
        ((BuildLand("1J", 0), AddBlight(3, 7)), "$[1].cause", "expected a str, got 7"),  # type: ignore[arg-type]
        ((CardAction("fly", "1J"),), "$[0].action", "expected 'ravage' or 'build', got 'fly'"),
        ((CardAction("ravage", "1J", (0, 9)),), "$[0].lands", "tuple of land indices"),
        ((GenerateFear(True, "x"),), "$[0].amount", "expected an int, got True"),  # type: ignore[arg-type]
    ],
)
def test_an_agenda_that_does_not_fit_is_refused(agenda: Any, where: str, reason: str) -> None:
    scenario, _plan = _board_d()
    game = scenario.game()
    state = scenario.initial._replace(agenda=())
    with pytest.raises(MalformedInputError) as raised:
        game.start(state, agenda=agenda)
    assert raised.value.source == "agenda" and raised.value.path == where
    assert reason in raised.value.reason
    assert "\n" not in str(raised.value)


def test_a_state_that_is_not_one_is_refused() -> None:
    scenario, plan = _board_d()
    with pytest.raises(MalformedInputError, match=r"^state:\$: expected an IslandState, got \(1, 2\)$"):
        scenario.game().start((1, 2), agenda=(plan[0][0],))  # type: ignore[arg-type]

"""The single-land actions' draft-free path (``InvaderPhaseGame._quick_one``) answers exactly as
the general path does: the same state and the same events, for every Ravage, Build and Explore
in every land of states met in generated games (any rulings, Presence, Defend, damaged pieces,
small Blight and Fear pools, games won or lost), played on and not."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings

from invasion_oracle.model.core.decisions import normalise_answer
from invasion_oracle.model.spirit_island.game import InvaderPhaseGame
from invasion_oracle.model.spirit_island.scenario import Scenario, scenario_from_document
from invasion_oracle.model.spirit_island.state import BuildLand, ExploreLand, IslandState, RavageLand, Task
from invasion_oracle.properties.spirit_island import scenario_documents
from tests.bench.bench_spirit_island import _board_d
from tests.identical import difference, identical

MAX_STATES = 25


def general(scenario: Scenario, play_on: bool) -> InvaderPhaseGame:
    """The game with its draft-free path switched off: every task goes through a draft."""
    game = scenario.game(play_on=play_on)
    game._quick_one = lambda state, task: None  # type: ignore[method-assign]
    return game


def visited(scenario: Scenario, play_on: bool) -> list[IslandState]:
    """The states a game of ``scenario`` passes through, as idle states (nothing on the agenda,
    nothing pending), the way a caller puts one action on a state."""
    game = general(scenario, play_on)
    decider, chance = scenario.decider(), scenario.chance_source()
    state, _ = game.start(scenario.initial)
    states = [state]
    while (request := game.pending(state)) is not None and len(states) < MAX_STATES:
        source = decider.decide if hasattr(request, "options") else chance.outcome
        state, _ = game.step(state, normalise_answer(request, source(request)))
        states.append(state)
    return [s._replace(agenda=(), request=None, awaiting=None) for s in (scenario.initial, *states)]


def tasks(state: IslandState) -> list[Task]:
    out: list[Task] = []
    for index in range(len(state.lands)):
        out += [RavageLand("1J", index), BuildLand("1J", index), ExploreLand("1J", index)]
    return out


def compare(scenario: Scenario, play_on: bool) -> int:
    """Every single-land action on every visited state, both ways; how many the quick path took."""
    quick, slow = scenario.game(play_on=play_on), general(scenario, play_on)
    taken = 0
    for state in visited(scenario, play_on):
        for task in tasks(state):
            taken += quick._quick_one(state, task) is not None
            quick_done, slow_done = quick.run_tasks(state, task), slow.run_tasks(state, task)
            assert identical(quick_done, slow_done), (task, difference(quick_done, slow_done))
            queued = state._replace(agenda=(task,))
            assert quick.start(queued) == slow.start(queued), task
    return taken


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario_documents())
def test_the_quick_path_is_the_general_path(document: dict[str, Any]) -> None:
    scenario = scenario_from_document(document, "generated")
    compare(scenario, play_on=False)
    compare(scenario, play_on=True)


def test_the_quick_path_on_the_bench_workload() -> None:
    """The bench's board-D actions (tests/bench/bench_spirit_island.py): every one takes the quick
    path, and each state and event equals the general path's, action after action."""
    scenario, plan = _board_d()
    quick, slow = scenario.game(), general(scenario, False)
    state = scenario.initial._replace(agenda=())
    for task, _ in plan:
        assert quick._quick_one(state, task) is not None, task
        done = quick.run_tasks(state, task)
        assert done == slow.run_tasks(state, task)
        state = done[0]
    assert state != scenario.initial._replace(agenda=())


def test_the_quick_path_hands_over_what_it_does_not_play() -> None:
    """A Ravage that asks (a cascade, a fight-back choice) or ends the game goes to the general
    path, which asks or ends it."""
    from tests.spirit_island.helpers import doc

    cases = (
        (doc(lands={"A5": "C B", "A1": "2D"}), "cascade"),
        (doc(lands={"A8": "C", "A5": {"pieces": "D T 2E", "defend": 4}}), "fight-back"),
        (doc(lands={"A5": "T E 3D"}), "win"),  # the fight-back destroys the last Invaders
    )
    for document, what in cases:
        scenario = scenario_from_document(document, "t")
        game = scenario.game()
        state = scenario.initial._replace(agenda=())
        task = RavageLand("1J", scenario.island.index("A5"))
        assert game._quick_one(state, task) is None
        after, events = game.run_tasks(state, task)
        if what == "win":
            assert after.outcome is not None and after.outcome.result == "win"
        else:
            assert after.request is not None and after.request.kind == what
        assert (after, events) == general(scenario, False).run_tasks(state, task)


def test_the_counted_ravage_is_the_general_path() -> None:
    """The quick Ravage on counts (issue 38) in the cases it works out itself: Dahan destroyed
    and one left damaged, Defend, a fight-back that destroys and one that only damages (the
    allocation applied piece by piece), Fear, no Dahan left to fight; each equal to the general
    path, state and events."""
    from tests.spirit_island.helpers import doc

    for pieces in ("T 3D", "C 2D", "C 3D", "E 2D", "2E T 4D", "C T E", "E D", "T"):
        for defend in (0, 1, 3):
            lands: dict[str, Any] = {"A5": {"pieces": pieces, "defend": defend}, "A8": "C"}
            scenario = scenario_from_document(doc(lands=lands), "t")
            state = scenario.initial._replace(agenda=())
            task = RavageLand("1J", scenario.island.index("A5"))
            done = scenario.game().run_tasks(state, task)
            # repr as well: equal values of another type (True for 1) would write other JSON
            assert repr(done) == repr(general(scenario, False).run_tasks(state, task)), (pieces, defend)


def test_a_replayed_start_is_judged_once(monkeypatch: Any) -> None:
    """The quick path remembers the last state it judged clear before playing (issue 38): an
    action replayed from one state has that state judged once, and a state that is not the same
    objects (here, a Spirit with no Presence) is judged afresh and lost, not read from memory."""
    from invasion_oracle.model.spirit_island import victory

    scenario, plan = _board_d()
    game = scenario.game()
    calls: list[int] = []
    judge = victory.judge

    def counted(*args: Any) -> Any:
        calls.append(1)
        return judge(*args)

    monkeypatch.setattr(victory, "judge", counted)
    start = scenario.initial._replace(agenda=())
    build = next(task for task, _ in plan if isinstance(task, BuildLand))
    explore = next(task for task, _ in plan if isinstance(task, ExploreLand))
    for _ in range(3):  # the start, then another state in between, as the bench's rounds do
        done, _events = game.start(start._replace(agenda=(build,)))
        game.start(done._replace(agenda=(explore,)))
    assert len(calls) == 1
    lost = start._replace(spirits=("Nobody",), agenda=(build,))  # same lands, no Presence of Nobody
    assert game._quick_one(lost, None) is None
    assert len(calls) == 2
    after, _events = game.start(lost)
    assert after.outcome is not None and after.outcome.result == "loss"


def test_the_remembered_strikes_and_fights_are_each_lands_own() -> None:
    """The counted Ravage remembers its strike and fight-back by their numbers (issue 38): one
    game plays the same pieces in several lands, with and without Defend, again and again, and
    every answer equals the general path's (a memo keyed without the land or the Defend would
    give one land's events, or one Defend's Dahan, to another); the memos stay bounded."""
    from tests.spirit_island.helpers import doc

    lands = {name: {"pieces": "T 2D", "defend": n % 2} for n, name in enumerate(("A4", "A5", "A7", "A8"))}
    scenario = scenario_from_document(doc(lands=lands), "t")
    quick, slow = scenario.game(), general(scenario, False)
    state = scenario.initial._replace(agenda=())
    for _ in range(2):
        for name in lands:
            task = RavageLand("1J", scenario.island.index(name))
            assert repr(quick.start(state, agenda=(task,))) == repr(slow.run_tasks(state, task)), name
    assert quick._strikes and quick._fights
    for n in range(5000):  # more numbers than the bound
        quick._counted_strike(("1J", 0, n, 0, 0, 0, 0))
    assert 0 < len(quick._strikes) <= 4096

"""Issue 38's changes to the survival and spire searches keep their answers: a game that keeps no
events steps to the same states; the survival DP (loops, the size estimate) values every state as
a plain expectimax over the recording oracle does; a search estimated far past its state bound
stops early and says so."""

from __future__ import annotations

from collections import deque
from fractions import Fraction

import pytest

from invasion_oracle.model.cloudspire.area import LANES
from invasion_oracle.model.cloudspire.game import CloudspireGame
from invasion_oracle.model.cloudspire.scenario import Scenario, load_scenario
from invasion_oracle.model.cloudspire.state import GameState
from invasion_oracle.model.core.decisions import ChanceRequest
from invasion_oracle.solver.cloudspire import survival
from invasion_oracle.solver.cloudspire.search import options, outcomes, unrecorded
from invasion_oracle.solver.cloudspire.survival import survival_probability
from tests.cloudspire.helpers import doc, only_pool, scenario

SURVIVE = "example:cloudspire/survive.json"


def _positions() -> list[tuple[Scenario, int | None]]:
    """Small positions with dice, spires, banishing and several rounds; and the bundled survival
    question cut to one round (1,552 states)."""
    few_dice = doc(
        health=2,
        strategy=0,
        spires={"L-bottom": "Water Tower"},
        lanes={"bottom": ["Bark Brute"]},
        deployment=["Reed Archer"],
        dice=only_pool("B1", "B2"),
    )
    two_rounds = doc(
        rounds=2,
        health=2,
        strategy=1,
        lanes={"bottom": ["Log Runner"], "middle": ["Bark Brute"]},
        deployment=["Reed Archer", "Flotsam Giant"],
        dice=only_pool("Y1", "B1"),
    )
    return [(scenario(few_dice), None), (scenario(two_rounds), None), (load_scenario(SURVIVE), 1)]


def _start(sc: Scenario, rounds: int | None, game: CloudspireGame) -> GameState:
    initial = sc.initial if rounds is None else sc.initial.evolve(rounds_left=rounds)
    return game.start(initial)[0]


def _reference_value(game: CloudspireGame, start: GameState) -> tuple[Fraction, int]:
    """The expectimax as written before issue 38 (``max`` and ``sum`` over the recording oracle's
    steps, one die at a time): the value and the states valued."""
    memo: dict[GameState, Fraction] = {}

    def value(s: GameState) -> Fraction:
        if s.outcome is not None:
            return Fraction(0) if s.outcome.result == "loss" else Fraction(1)
        if s.request is None:
            return Fraction(1)
        if s in memo:
            return memo[s]
        if isinstance(s.request, ChanceRequest):
            result = sum((p * value(game.step(s, o)[0]) for o, p in outcomes(s.request)), Fraction(0))
        else:
            result = max(value(game.step(s, o)[0]) for o in options(s))
        memo[s] = result
        return result

    return value(start), len(memo)


@pytest.mark.parametrize("index", range(3))
def test_every_reachable_state_steps_alike_without_events_and_answers_the_quick_checks(index: int) -> None:
    """Two checks over one walk of every state reachable from each position (each step taken once
    per game, where two tests walked the states apart): a game that keeps no events steps to the
    same states as the recording one; and the step's ``has_target`` and ``_spire_to_find``, asked
    instead of listing the targets and the spires to search, say what the lists say."""
    sc, rounds = _positions()[index]
    recording = sc.game()
    quiet = unrecorded(recording)
    start = _start(sc, rounds, recording)
    assert _start(sc, rounds, quiet) == start
    seen, frontier, events, lanes_with_targets = {start}, deque([start]), 0, 0
    while frontier:
        s = frontier.popleft()
        for lane in LANES:
            assert quiet.has_target(s, lane) == bool(quiet.targets(s, lane))
            lanes_with_targets += quiet.has_target(s, lane)
        assert quiet._spire_to_find(s) == bool(quiet.searchable_spires(s))
        if s.outcome is not None or s.request is None:
            continue
        answers = s.request.outcomes if isinstance(s.request, ChanceRequest) else s.request.options
        for answer in dict.fromkeys(answers):
            kept, recorded = recording.step(s, answer)
            dropped, none = quiet.step(s, answer)
            assert dropped == kept and hash(dropped) == hash(kept) and none == ()
            events += len(recorded)
            if kept not in seen:
                seen.add(kept)
                frontier.append(kept)
    assert events > len(seen) > 50  # the recording game did record: the comparison is not empty
    assert lanes_with_targets > 0


@pytest.mark.parametrize("index", range(3))
def test_the_survival_dp_values_as_the_plain_expectimax(index: int) -> None:
    """Both engines against one reference valuation of the position (valued once: the engines'
    tests, apart, each valued it on its own test process)."""
    sc, rounds = _positions()[index]
    expected, states = _reference_value(sc.game(), _start(sc, rounds, sc.game()))
    for engine in ("grouped", "per-die"):
        answer = survival_probability(sc, rounds, engine)
        assert answer.probability == expected and answer.status == "proven" and answer.replayed, engine
        # the DP keeps 0 and 1 as ints inside; the answer's values are Fractions, as they print
        assert type(answer.probability) is Fraction
        assert all(type(v) is Fraction for _, v in answer.first_decision)
        if engine == "per-die":  # the same DP over the same states: the same count
            assert answer.states == states
        if answer.first_decision:  # the start is a decision: its best option's value is the answer
            assert max(v for _, v in answer.first_decision) == expected


@pytest.mark.slow  # a few seconds: make bench times it, make report runs it
def test_the_bundled_survival_answer_is_unchanged() -> None:
    """The README's survival line: 308/729 over 17,869 states, the blue cycle first (docs/cloudspire.md)."""
    answer = survival_probability(load_scenario(SURVIVE))
    assert (answer.probability, answer.states, answer.status) == (Fraction(308, 729), 17869, "proven")
    assert answer.first_decision == (
        ("stop", Fraction(0)),
        ("cycle yellow", Fraction(29, 81)),
        ("cycle blue", Fraction(308, 729)),
    )


def test_a_search_estimated_far_past_its_bound_stops_early_and_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(survival, "ESTIMATE_EVERY", 64)
    monkeypatch.setattr(survival, "RUNAWAY_AFTER", 256)
    sc = load_scenario(SURVIVE)
    monkeypatch.setattr(survival, "RUNAWAY_FACTOR", 10)
    answer = survival_probability(sc, max_states=300)  # 17,869 states: far past 10 x 300 early on
    assert answer.status == "unknown" and answer.probability is None and not answer.replayed
    assert 256 <= answer.states < 300  # stopped by the estimate, before the bound itself
    err = capsys.readouterr().err
    assert "survival search stopped early: about" in err and "the memory limit allows 300" in err
    assert "--rounds" in err and "--memory-limit" in err


def test_an_estimate_within_the_bound_lets_the_search_finish(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(survival, "ESTIMATE_EVERY", 64)
    monkeypatch.setattr(survival, "RUNAWAY_AFTER", 256)
    answer = survival_probability(load_scenario(SURVIVE), rounds=1)  # 1,552 states, bound 2,000,000
    assert answer.status == "proven" and answer.states == 1552


def test_the_share_finished_is_each_branch_weighed_equally() -> None:
    dp = survival.SurvivalDP(load_scenario(SURVIVE).game(), grouped=True)
    dp._path.extend([[1, 2], [2, 4], [0, 3]])  # half the root, then half of the second branch
    assert dp.finished_share() == pytest.approx(1 / 2 + 1 / 2 * 2 / 4)

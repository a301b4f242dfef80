"""The three searches: hand-checked answers, z3 equal to the exhaustive baseline, answers replayed."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.model.vulketh.action_board import ACTIONS, FACES
from invasion_oracle.model.vulketh.scenario import load_scenario, scenario_from_document
from invasion_oracle.properties.vulketh import positions
from invasion_oracle.solver.vulketh.clear import clear_hex, placements
from invasion_oracle.solver.vulketh.clear import question_from_scenario as clear_question
from invasion_oracle.solver.vulketh.compiled import CONCRETE, Z3, Compiled, from_state, replace
from invasion_oracle.solver.vulketh.differ import RULINGS, make_question, smallest_difference
from invasion_oracle.solver.vulketh.drive import Plan
from invasion_oracle.solver.vulketh.race import plan_values, race
from invasion_oracle.solver.vulketh.race import question_from_scenario as race_question
from tests.vulketh.helpers import act, card, cards_data, doc

SCALE = int(os.environ.get("INVASION_HYPOTHESIS_SCALE", "1"))  # deeper sweeps on demand


# -- (a) the race -------------------------------------------------------------------------------------

# Four Warlords out, 3 resources; the only card gathers (blank) then leads. The GATHER row is
# sun, sun, moon: the Invader's blank alone leaves it standard (3: a fifth Warlord), but the
# player's moon first makes it moon, moon, blank: weak (2: five resources, no summon).
RACE_CARD = card("g", act("GATHER", "blank"), act("LEAD", "blank"))
RACE = doc(
    start="player",
    data=cards_data(RACE_CARD),
    decks={"1": ["g"]},
    hexes={
        "1": {"warlord": "steal-resources", "invaders": 1},
        "2": {"warlord": "convert", "invaders": 1},
        "3": {"warlord": "spread", "invaders": 1},
        "4": {"warlord": "regress", "invaders": 1},
        "9": {"player": 2},
    },
    invader_resources=3,
    action_board={"GATHER": ["sun", "sun", "moon"]},
    player_turns=[{"dice": [{"face": "moon"}, {"face": "sun"}]}],
)


@pytest.mark.parametrize("engine", ["compiled", "z3", "cpsat", "baseline"])
def test_race_the_moon_on_gather_holds_the_fifth_warlord_off(engine: str) -> None:
    answer = race(race_question(scenario_from_document(RACE, "race.json")), engine=engine)
    assert answer.fewest is not None and answer.furthest is not None
    assert (answer.fewest.turn, answer.fewest.plan, answer.fewest.draws) == (
        1,
        Plan((("GROW", "MOVE"),)),
        ("g",),
    )
    assert (answer.furthest.turn, answer.furthest.plan) == (None, Plan((("GATHER", "GROW"),)))
    assert answer.plans == 12 and answer.replayed


def test_race_engines_agree_on_the_bundled_race_with_token_choices() -> None:
    scenario = load_scenario("example:vulketh/race.json", ("VK-POWER-UNLOCK=by-section",))
    document = dict(scenario.document)
    document["player_turns"] = document["player_turns"][:1]
    question = race_question(scenario_from_document(document, "race.json", ("VK-POWER-UNLOCK=by-section",)))
    assert question.token_choice
    answers = [race(question, engine=e) for e in ("compiled", "z3", "baseline")]
    for part in ("fewest", "furthest"):
        assert _line(getattr(answers[0], part)) == _line(getattr(answers[2], part))
        lines = [getattr(a, part) for a in answers]
        assert (lines[0].turn, lines[0].plan, lines[0].draws) == (
            lines[1].turn,
            lines[1].plan,
            lines[1].draws,
        )


def _line(line: Any) -> tuple[Any, ...]:
    return (line.turn, line.plan, line.draws, line.pillage)


def _two_turn_race(**changes: Any) -> Any:
    # The tiny race over two passive turns (no Invader resources: no fifth Warlord on turn 1).
    return race_question(
        scenario_from_document(
            {**RACE, "invader_resources": 0, "player_turns": RACE["player_turns"] * 2, **changes}, "race.json"
        )
    )


def test_race_cpsat_answers_as_z3_byte_for_byte() -> None:
    """The CP-SAT engine poses z3's queries (the proposer's loop included: the fewest comes on
    turn 2): the same answer but for the engine's name, and the compiled engine's lines."""
    question = _two_turn_race()
    answers = {e: race(question, engine=e) for e in ("z3", "cpsat", "compiled")}
    texts = {e: {**a.to_json(), "engine": None} for e, a in answers.items()}
    assert texts["cpsat"] == texts["z3"] and answers["cpsat"].engine == "cpsat"
    assert texts["cpsat"]["status"] == "proven" and texts["cpsat"]["replayed"]
    for part in ("fewest", "furthest"):
        assert _line(getattr(answers["cpsat"], part)) == _line(getattr(answers["compiled"], part))
    assert answers["cpsat"].fewest is not None and answers["cpsat"].fewest.turn == 2


def _invader_first_race() -> Any:
    # The bundled race with the Invader to move and two scripted player turns: the first player
    # turn comes after an Invader turn (a round later), which the plan decider once misread.
    document = dict(load_scenario("example:vulketh/race.json").document)
    document["start"] = "invader"
    document["player_turns"] = document["player_turns"][:1]
    question = race_question(scenario_from_document(document, "race.json"))
    assert question.invader_first and question.invader_turns == 2
    return question


@pytest.mark.slow  # z3 and CP-SAT take seconds here; the compiled engine is checked in make test
def test_race_from_an_invader_position_z3_equals_the_compiled_engine() -> None:
    question = _invader_first_race()
    answers = {e: race(question, engine=e) for e in ("compiled", "z3", "cpsat")}
    for part in ("fewest", "furthest"):
        assert _line(getattr(answers["z3"], part)) == _line(getattr(answers["compiled"], part))
    assert answers["z3"].replayed and answers["z3"].status.value == "proven"
    assert {**answers["cpsat"].to_json(), "engine": "z3"} == answers["z3"].to_json()


@pytest.mark.slow  # about 6 s per engine
def test_race_cpsat_equals_z3_and_compiled_with_token_choices_over_two_turns() -> None:
    rulings = ("VK-POWER-UNLOCK=by-section",)
    document = dict(load_scenario("example:vulketh/race.json", rulings).document)
    document["player_turns"] = document["player_turns"][:2]
    question = race_question(scenario_from_document(document, "race.json", rulings))
    assert question.token_choice and len(question.plans()) == 288
    answers = {e: race(question, engine=e) for e in ("compiled", "z3", "cpsat")}
    assert {**answers["cpsat"].to_json(), "engine": "z3"} == answers["z3"].to_json()
    for part in ("fewest", "furthest"):
        assert _line(getattr(answers["cpsat"], part)) == _line(getattr(answers["compiled"], part))


def test_race_from_an_invader_position_equals_the_enumeration() -> None:
    question = _invader_first_race()
    answers = {e: race(question, engine=e) for e in ("compiled", "baseline")}
    for part in ("fewest", "furthest"):
        lines = {e: _line(getattr(a, part)) for e, a in answers.items()}
        assert lines["compiled"] == lines["baseline"]
    assert all(a.replayed and a.status.value == "proven" for a in answers.values())
    # The baseline's own enumeration, plan by plan through the oracle, gives the same values.
    from invasion_oracle.solver.common import Deadline
    from invasion_oracle.solver.vulketh.race import _fastest_for_plan

    turns = [_fastest_for_plan(question, plan, Deadline()).turn for plan in question.plans()]
    assert answers["baseline"].fewest is not None and answers["baseline"].furthest is not None
    assert answers["baseline"].fewest.turn == min(t for t in turns if t is not None)
    latest = None if None in turns else max(t for t in turns if t is not None)
    assert answers["baseline"].furthest.turn == latest
    # The compiled tie count (docs/vulketh.md's count for race.json) equals the enumeration.
    assert plan_values(question) == Counter(turns)


# A Vul'Keth player whose passive turn crowds hex 6 (3 members, 3 Invaders: the conflict clears
# it, a Pillage), four Warlords out and 5 Invader resources (4 once the cleared hex costs one):
# the only card LEADs, whose Steal Resources takes the player's resources. With the food taken
# (1 + 1) it reaches 6 and the fifth Warlord comes on Invader turn 1; declined, it never comes.
LEAD_CARD = card("l", act("LEAD", "blank"), act("LEAD", "blank"))
PILLAGE_RACE = doc(
    start="player",
    tribe="vulketh",
    data=cards_data(LEAD_CARD),
    decks={"1": ["l"]},
    hexes={
        "1": {"warlord": "steal-resources", "invaders": 1},
        "2": {"warlord": "convert", "invaders": 1},
        "3": {"warlord": "spread", "invaders": 1},
        "4": {"warlord": "regress", "invaders": 1},
        "6": {"player": 3, "invaders": 3},
        "9": {"player": 2},
    },
    invader_resources=5,
    resources={"food": 1},
    player_turns=[{"dice": [{"face": "moon"}, {"face": "sun"}]}] * 2,
)


def test_race_fewest_searches_pillage_as_a_choice_of_the_player() -> None:
    question = race_question(scenario_from_document(PILLAGE_RACE, "race.json"))
    assert question.pillage
    answer = race(question)  # auto: the baseline (the compiled twin has no Pillage)
    assert answer.engine == "baseline" and answer.replayed
    assert answer.fewest is not None and answer.furthest is not None
    assert (answer.fewest.turn, answer.fewest.pillage) == (1, ("food",))
    assert answer.furthest.turn is None  # the player's plan declines Pillage
    for engine in ("compiled", "z3", "cpsat"):
        with pytest.raises(MalformedInputError, match="does not model Pillage"):
            race(question, engine=engine)
    with pytest.raises(MalformedInputError, match="the race's engines are compiled, z3, cpsat, baseline"):
        race(question, engine="cp-sat")


class _Budget:
    """A work-count budget: the search stops (as on Ctrl-C) after ``n`` checks."""

    def __init__(self, n: int) -> None:
        from invasion_oracle.solver.common import Deadline

        class Counting(Deadline):
            left = n

            def stopped(self) -> bool:
                Counting.left -= 1
                return Counting.left < 0

        self.deadline = Counting()


def test_a_cut_race_returns_the_fewest_seen_as_best_found() -> None:
    document = dict(load_scenario("example:vulketh/race.json").document)
    document["player_turns"] = document["player_turns"][:2]
    question = race_question(scenario_from_document(document, "race.json"))
    cut = race(question, engine="baseline", parent=_Budget(400).deadline)
    assert cut.status.value == "best-found" and cut.replayed and cut.furthest is None
    # The fewest is 2 (the whole search: docs/vulketh.md, the compiled count in the slow test).
    assert cut.fewest is not None and cut.fewest.turn is not None and cut.fewest.turn >= 2
    assert 0 < cut.searched_plans < cut.plans == 144  # type: ignore[operator]
    assert cut.to_json()["searched_plans"] == cut.searched_plans


def _checks(run: Any) -> tuple[Any, int]:
    """A whole search's answer and the checks it made (a budget that never stops it)."""
    budget = _Budget(10**9)
    answer = run(budget.deadline)
    return answer, 10**9 - type(budget.deadline).left  # type: ignore[attr-defined]


def test_a_cut_compiled_race_reports_its_extent_and_best_found() -> None:
    document = dict(load_scenario("example:vulketh/race.json").document)
    document["start"] = "invader"
    document["player_turns"] = document["player_turns"][:1]
    question = race_question(scenario_from_document(document, "race.json"))
    full, n = _checks(lambda d: race(question, engine="compiled", parent=d))
    assert full.fewest is not None and full.fewest.turn == 2 and full.fewest_at_least == 2
    # Cut early, late in the fewest's search (the furthest's reuses its turns: few checks), and
    # at the last check (the replays).
    budgets = (n // 8, n * 7 // 8, n - 1)
    cuts = [race(question, engine="compiled", parent=_Budget(b).deadline) for b in budgets]
    assert [c.status.value for c in cuts] == sorted((c.status.value for c in cuts), key="unknown".__ne__)
    settled = [c.searched_plans or 0 for c in cuts]
    assert settled == sorted(settled) and any(0 < p < 12 for p in settled)  # plans really settled
    for cut in cuts:
        assert cut.furthest is None and cut.replayed == (cut.status.value == "best-found")
        if cut.fewest is not None:  # an upper bound, the first draws giving it through the oracle
            assert cut.fewest.turn is not None and cut.fewest.turn >= full.fewest.turn and cut.fewest.draws
        # Every plan settled: the bound is the fewest itself.
        assert cut.fewest_at_least == (2 if cut.searched_plans == 12 else 1)
    assert cuts[-1].status.value == "best-found"


def test_a_cut_z3_race_reports_the_turns_it_proved_and_best_found() -> None:
    # Two passive turns, no Invader resources: no fifth Warlord on turn 1, one on turn 2.
    question = race_question(
        scenario_from_document(
            {**RACE, "invader_resources": 0, "player_turns": RACE["player_turns"] * 2}, "race.json"
        )
    )
    budgets = (1, 4, 8, 12, 16)
    cuts = [race(question, engine="z3", parent=_Budget(b).deadline) for b in budgets]
    assert cuts[0].status.value == "unknown" and cuts[0].fewest_at_least == 1
    bounds = [c.fewest_at_least for c in cuts]
    assert bounds == sorted(bounds) and bounds[-1] == 2  # turn 1 refuted for every plan and draw
    for cut in cuts:
        assert cut.furthest is None and cut.searched_plans is None
        if cut.status.value == "best-found":
            assert cut.fewest is not None and cut.fewest.turn == 2 and cut.fewest.draws == ("g", "g")
            assert cut.replayed and cut.to_json()["fewest_at_least"] == 2
    assert cuts[-1].status.value == "best-found"


def test_a_cut_cpsat_race_is_best_found_or_unknown_never_proven() -> None:
    from invasion_oracle.solver.common import Deadline, load_cpsat

    question = _two_turn_race()
    # OR-Tools imported before the checks are counted: its first import polls the deadline every
    # 50 ms, a count that grows with the machine's load (the cuts then fell after the search)
    load_cpsat(Deadline())
    full, n = _checks(lambda d: race(question, engine="cpsat", parent=d))
    assert full.status.value == "proven" and full.fewest is not None and full.fewest.turn == 2
    cuts = [race(question, engine="cpsat", parent=_Budget(n * k // 4).deadline) for k in (0, 1, 3)]
    cuts.append(race(question, engine="cpsat", seconds=1e-4))  # CP-SAT's own time limit, or before it
    assert cuts[0].status.value == "unknown" and cuts[0].fewest_at_least == 1
    bounds = [c.fewest_at_least for c in cuts[:-1]]
    assert bounds == sorted(bounds) and bounds[-1] == 2  # turn 1 refuted for every plan and draw
    assert {c.status.value for c in cuts[:-1]} == {"unknown", "best-found"}
    for cut in cuts:
        assert cut.status.value != "proven" and cut.furthest is None and cut.searched_plans is None
        assert cut.replayed == (cut.status.value == "best-found")
        if cut.status.value == "best-found":  # an upper bound: here the fewest itself
            assert cut.fewest is not None and cut.fewest.turn == 2 and cut.fewest.draws == ("g", "g")
        else:
            assert cut.fewest is None


@st.composite
def _races(draw: st.DrawFn) -> dict[str, Any]:
    """A generated position (standard tribe: no Pillage) and one to three passive player turns;
    past the first, one die's action is given, so the baseline stays quick (3 options a turn)."""
    document = {**draw(positions(max_invaders=4)), "tribe": "standard"}
    turns = []
    for t in range(draw(st.integers(1, 3))):
        faces = draw(st.lists(st.sampled_from(FACES), min_size=2, max_size=2, unique=True))
        dice: list[dict[str, Any]] = [{"face": f} for f in faces]
        if t:
            dice[draw(st.integers(0, 1))]["action"] = draw(st.sampled_from(ACTIONS))
        turns.append({"dice": dice})
    document["player_turns"] = turns
    if len(turns) > 1:  # the token order a choice too only over one turn (up to 24 orders a plan)
        document["rulings"] = {**document["rulings"], "VK-POWER-UNLOCK": "by-count"}
    return document


@settings(max_examples=6 * SCALE, deadline=None)
@given(_races())
def test_race_compiled_engine_equals_the_baseline_on_generated_races(document: dict[str, Any]) -> None:
    """The compiled engine's shared turns, early stops and skipped options change no answer."""
    question = race_question(scenario_from_document(document, "generated.json"))
    try:
        compiled = race(question, engine="compiled")
    except MalformedInputError as err:  # a feature the compiled rules refuse (auto: the baseline)
        assert "does not model" in str(err)
        return
    baseline = race(question, engine="baseline")
    assert _answer(compiled) == _answer(baseline)
    assert _line(compiled.fewest) == _line(baseline.fewest) and _line(compiled.furthest) == _line(
        baseline.furthest
    )


@pytest.mark.slow
def test_race_json_tie_set_is_as_documented() -> None:
    """docs/vulketh.md: the plan printed is the first of 1,296 of the 1,728 plans tying at turn 3
    (every plan counted over the compiled twin, about 12 s CPU; the oracle took minutes)."""
    from pathlib import Path

    from invasion_oracle.solver.common import Deadline
    from invasion_oracle.solver.vulketh.race import _fastest_for_plan

    question = race_question(load_scenario("example:vulketh/race.json"))
    values = plan_values(question)
    assert sum(values.values()) == len(question.plans()) == 1728
    assert None not in values and max(v for v in values if v is not None) == 3  # the furthest
    # GROW+MOVE x3, the lexicographically first plan, holds out to turn 3: the first of the tie set
    # (the plan the furthest names), here through the oracle.
    first = question.plans()[0]
    assert first.placements == (("GROW", "MOVE"),) * 3
    assert _fastest_for_plan(question, first, Deadline()).turn == 3
    text = " ".join((Path(__file__).parents[2] / "docs" / "vulketh.md").read_text(encoding="utf-8").split())
    assert f"the first of {values[3]:,} of the {len(question.plans()):,} plans that tie at turn 3" in text


def test_race_refuses_what_it_does_not_model() -> None:
    document = {**RACE, "player_turns": [{"dice": [{"face": "moon"}, {"face": "moon"}]}]}
    with pytest.raises(MalformedInputError, match="doubles would draw an Invader Event"):
        race_question(scenario_from_document(document, "race.json"))
    document = {**RACE, "player_turns": [{"dice": [{"face": "moon"}, {}]}]}
    with pytest.raises(MalformedInputError, match="give every die's face"):
        race_question(scenario_from_document(document, "race.json"))
    document = {**RACE, "player_turns": [{"dice": [{"face": "moon"}, {"face": "sun"}], "points": 1}]}
    with pytest.raises(
        MalformedInputError, match=r"player_turns\[0\].points: the race's player turns only place dice"
    ):
        race_question(scenario_from_document(document, "race.json"))


# -- (b) clearing a hex ---------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["z3", "cpsat", "baseline"])
def test_clear_two_more_members_crowd_hex_7_and_wipe_its_invaders_out(engine: str) -> None:
    question = clear_question(load_scenario("example:vulketh/clear_hex.json"), 7, 3, [5, 7, 8])
    answer = clear_hex(question, engine=engine)
    assert answer.placement == ((7, 2),) and answer.alternatives == 1 and answer.replayed
    assert answer.cards == ("2a", "2b", "2c", "2d")


@pytest.mark.parametrize("engine", ["z3", "cpsat", "baseline"])
def test_clear_proves_when_no_placement_works(engine: str) -> None:
    question = clear_question(load_scenario("example:vulketh/clear_hex.json"), 5, 2, [4, 5])
    answer = clear_hex(question, engine=engine)
    assert answer.placement is None and answer.status.value == "proven"


def _cp_value(solver: Any, ops: Any, x: Any) -> Any:
    """The value in a CP-SAT solution of a compiled-rules term (tuples of them, literals, ints)."""
    if isinstance(x, tuple):
        return tuple(_cp_value(solver, ops, v) for v in x)
    if isinstance(x, bool | int):
        return x
    if hasattr(x, "literal"):
        return bool(solver.boolean_value(x.literal))
    return int(solver.value(ops.expr(x)))


def _answer(answer: Any) -> dict[str, Any]:
    return {k: v for k, v in answer.to_json().items() if k != "engine"}


# (hex, members, hexes) on clear_hex.json: a placement found, none works, nothing to place (already
# clear), none on two hexes; the bundled question (hex 7, 4 members): the main job's section runs
# all three engines and checks them equal (tests/test_main_job.py)
CLEAR_QUESTIONS = [(7, 2, [8, 7]), (5, 3, [4, 5, 6]), (3, 2, None), (1, 2, [1, 2])]


@pytest.mark.parametrize(("target", "members", "hexes"), CLEAR_QUESTIONS)
def test_clear_cpsat_answers_as_the_baseline(target: int, members: int, hexes: list[int] | None) -> None:
    """(z3 equals the baseline above and in the slow tests: it takes a second a question.)"""
    question = clear_question(load_scenario("example:vulketh/clear_hex.json"), target, members, hexes)
    cpsat, baseline = (clear_hex(question, engine=e) for e in ("cpsat", "baseline"))
    assert _answer(cpsat) == _answer(baseline) and cpsat.engine == "cpsat"
    assert cpsat.status.value == "proven" and cpsat.replayed == (cpsat.placement is not None)


@settings(max_examples=3 * SCALE, deadline=None)
@given(positions(max_invaders=3), st.integers(1, 9), st.integers(0, 2))
def test_clear_cpsat_answers_as_the_baseline_on_generated_positions(
    document: dict[str, Any], target: int, members: int
) -> None:
    question = clear_question(
        scenario_from_document({**document, "start": "invader"}, "generated.json"), target, members
    )
    try:
        cpsat = clear_hex(question, engine="cpsat")
    except MalformedInputError as err:  # a feature the compiled rules refuse, as for z3
        assert "does not model" in str(err)
        return
    assert _answer(cpsat) == _answer(clear_hex(question, engine="baseline"))


def test_clear_auto_takes_the_baseline_up_to_the_crossover_and_cpsat_beyond() -> None:
    from invasion_oracle.solver.vulketh.clear import CLEAR_CROSSOVER, auto_engine, baseline_work

    scenario = load_scenario("example:vulketh/clear_hex.json")
    small, large = clear_question(scenario, 7, 4), clear_question(scenario, 7, 5)
    assert baseline_work(small) == 715 <= CLEAR_CROSSOVER < baseline_work(large) == 2002
    assert (auto_engine(small), auto_engine(large)) == ("baseline", "cpsat")
    assert clear_hex(small, engine="auto").engine == "baseline"


def test_a_cut_cpsat_clear_is_unknown_or_the_fewest_never_a_wrong_answer() -> None:
    for target, members, hexes in ((7, 3, [5, 7, 8]),):
        question = clear_question(load_scenario("example:vulketh/clear_hex.json"), target, members, hexes)
        full, n = _checks(lambda d, q=question: clear_hex(q, engine="cpsat", parent=d))
        budgets = sorted({n * j // 5 for j in range(5)} | {n - 1})
        cuts = [clear_hex(question, engine="cpsat", parent=_Budget(k).deadline) for k in budgets]
        assert cuts[0].status.value == "unknown" and not cuts[0].replayed
        for cut in cuts:
            assert cut.status.value in ("unknown", "best-found")
            if cut.status.value == "best-found":  # cut while counting: the answer, replayed
                assert cut.placement == full.placement and cut.replayed and cut.alternatives >= 1
            assert cut.searched_up_to < (full.members if full.members is not None else members)
        tiny = clear_hex(question, engine="cpsat", seconds=1e-4)  # CP-SAT's own time limit
        assert tiny.status.value == "unknown" or _answer(tiny) == _answer(full)


def test_cpsat_counts_the_assignments_of_the_variables_it_is_given() -> None:
    from ortools.sat.python import cp_model

    from invasion_oracle.solver.common import Deadline, cpsat_count, cpsat_lex_min

    model = cp_model.CpModel()
    x, y, z = (model.new_int_var(0, 2, n) for n in "xyz")
    flag = model.new_bool_var("flag")  # a function of the three: counted once per assignment
    model.add(x + y + z == 2)
    model.add(x >= 1).only_enforce_if(flag)
    model.add(x == 0).only_enforce_if(flag.Not())
    assert cpsat_count(model, [x, y, z], Deadline()) == 6
    assert cpsat_count(model, [x], Deadline()) == 3
    best = cpsat_lex_min(model, [(2 - y, 3), (z, 3)], Deadline())  # y largest, then z smallest
    assert best is not None and (best.value(x), best.value(y), best.value(z)) == (0, 2, 0)


def test_the_cpsat_invader_turn_after_a_placement_equals_the_concrete_one() -> None:
    """The compiled rules over CP-SAT terms (what the cpsat engine solves): with the placement
    fixed, the state after the conflicts and an Invader turn is the concrete one, for two cards."""
    from ortools.sat.python import cp_model

    from invasion_oracle.solver.common import Deadline, cpsat_solve
    from invasion_oracle.solver.vulketh.compiled import CpSatOps

    scenario = load_scenario("example:vulketh/clear_hex.json")
    cards = [c.id for c in scenario.data.action_cards]
    base = from_state(scenario.initial, scenario.rules)
    placement = {4: 3, 5: 1, 7: 1}
    model = cp_model.CpModel()
    ops = CpSatOps(model)
    put = [ops.int_var(0, 4, f"put{n}") for n in range(1, 10)]
    for n, v in enumerate(put, start=1):
        model.add(ops.expr(v) == placement.get(n, 0))
    symbolic, concrete = Compiled(scenario.rules, ops), Compiled(scenario.rules, CONCRETE)
    start = symbolic.player_conflicts(
        replace(base, ply=tuple(p + v for p, v in zip(base.ply, put, strict=True)))
    )
    expected_start = concrete.player_conflicts(
        replace(base, ply=tuple(p + placement.get(n, 0) for n, p in enumerate(base.ply, start=1)))
    )
    turns = [
        (symbolic.invader_turn(start, cards.index(c)), concrete.invader_turn(expected_start, cards.index(c)))
        for c in ("2a", "2c")
    ]
    solver = cpsat_solve(model, Deadline())
    assert solver is not None

    def value(x: Any) -> Any:
        return _cp_value(solver, ops, x)

    for (after, legal), (expected, ok) in turns:
        assert value(legal) == ok
        for field in (
            "inv",
            "ply",
            "war",
            "board",
            "rows",
            "supply",
            "reserve",
            "score",
            "res",
            "invader_won",
        ):
            assert value(getattr(after, field)) == getattr(expected, field), field


def test_a_cut_clear_reports_how_far_it_got() -> None:
    question = clear_question(load_scenario("example:vulketh/clear_hex.json"), 5, 2, [4, 5])
    full = clear_hex(question, engine="baseline")
    assert full.to_json()["searched_up_to_members"] == 2
    # Budgets in checks (not seconds): cut early, then cut after the placements of 0 and 1 member.
    early = clear_hex(question, engine="baseline", parent=_Budget(0).deadline)
    assert early.status.value == "unknown" and early.to_json()["searched_up_to_members"] == -1
    later = clear_hex(question, engine="baseline", parent=_Budget(5).deadline)
    assert later.status.value == "unknown"
    assert 0 <= later.searched_up_to < 2


def test_a_cut_clear_with_a_placement_found_returns_it_as_best_found() -> None:
    question = clear_question(load_scenario("example:vulketh/clear_hex.json"), 7, 3, [5, 7, 8])
    full = clear_hex(question, engine="baseline")
    checks = sum(1 for t in range(3) for _ in placements(question, t))  # one check per placement
    cut = clear_hex(question, engine="baseline", parent=_Budget(checks - 1).deadline)
    assert cut.status.value == "best-found" and cut.placement == full.placement == ((7, 2),)
    assert cut.searched_up_to == 1 and cut.replayed


@pytest.mark.slow
def test_a_cut_z3_clear_reports_how_far_it_got() -> None:
    """(About 5 s: z3 compiles the Invader turn per card, most of the checks.)"""
    refuted = clear_question(load_scenario("example:vulketh/clear_hex.json"), 5, 1, [5])
    found = clear_question(load_scenario("example:vulketh/clear_hex.json"), 7, 2, [7, 8])
    for question, fewest in ((refuted, None), (found, 2)):
        full, n = _checks(lambda d, q=question: clear_hex(q, engine="z3", parent=d))
        assert full.status.value == "proven" and full.members == fewest
        cuts = [clear_hex(question, engine="z3", parent=_Budget(n * k // 6).deadline) for k in range(6)]
        extents = [c.searched_up_to for c in cuts]
        assert extents == sorted(extents) and extents[0] == -1  # how far it got, never past it
        for cut in cuts:
            assert cut.status.value in ("unknown", "best-found")
            assert cut.searched_up_to < (question.members if fewest is None else fewest)
            if cut.status.value == "best-found":  # the fewest members, replayed
                assert cut.members == fewest and cut.replayed and cut.alternatives >= 1
        if fewest is not None:
            assert cuts[-1].status.value == "best-found" and cuts[-1].searched_up_to == fewest - 1


# -- (c) readings that part ----------------------------------------------------------------------------


def test_move_lowest_from_hex_9_never_moves_under_beyond_source() -> None:
    """The smallest position separating VK-MOVE-DEST's readings: two Invaders and a Warlord on
    hex 9, which has no neighbour numbered above it."""
    scenario = load_scenario("example:vulketh/worked_example.json")
    question = make_question(scenario.rules, "VK-MOVE-DEST", ("beyond-source", "unused"), "lowest")
    answer = smallest_difference(question, engine="baseline")  # z3 agrees: the slow test below
    assert answer.position is not None and answer.position.describe() == "9:W+2"
    assert answer.after == ((0,) * 8 + (2,), (0,) * 6 + (1, 0, 1))
    assert answer.replayed


@pytest.mark.parametrize("engine", ["z3", "baseline"])
def test_grow_overflow_parts_on_a_full_warlord_hex_with_a_hex_after_it(engine: str) -> None:
    scenario = load_scenario("example:vulketh/worked_example.json")
    question = make_question(scenario.rules, "VK-GROW-OVERFLOW", ("occupied", "next-hex"), "lowest")
    answer = smallest_difference(question, engine=engine)
    assert answer.position is not None and answer.position.describe() == "8:W+3"
    assert answer.after == ((0,) * 7 + (5, 0), (0,) * 7 + (5, 1))


def test_a_cut_differ_reports_the_sizes_it_refuted() -> None:
    from invasion_oracle.solver.vulketh.differ import positions_of_size

    scenario = load_scenario("example:vulketh/worked_example.json")
    question = make_question(scenario.rules, "VK-GROW-OVERFLOW", ("occupied", "next-hex"), "lowest")
    assert smallest_difference(question, engine="baseline").to_json()["searched_up_to_size"] == 8
    # One check per position: cut just after every position of sizes 1 and 2.
    checks = sum(1 for size in (1, 2) for _ in positions_of_size(size, question.cap))
    cut = smallest_difference(question, engine="baseline", parent=_Budget(checks).deadline)
    assert cut.status.value == "unknown" and cut.position is None
    assert cut.to_json()["searched_up_to_size"] == 2


@pytest.mark.slow
def test_a_cut_z3_differ_reports_the_sizes_it_refuted() -> None:
    """z3: one query per size; cut, the sizes it refuted (the smallest difference has size 4)."""
    scenario = load_scenario("example:vulketh/worked_example.json")
    question = make_question(scenario.rules, "VK-GROW-OVERFLOW", ("occupied", "next-hex"), "lowest")
    full, n = _checks(lambda d: smallest_difference(question, engine="z3", parent=d))
    assert full.position is not None and full.position.size == 4
    cuts = [smallest_difference(question, engine="z3", parent=_Budget(n * k // 5).deadline) for k in range(5)]
    sizes = [c.to_json()["searched_up_to_size"] for c in cuts if c.status.value == "unknown"]
    assert sizes == sorted(sizes) and sizes[0] == 0 and all(s < 4 for s in sizes) and 3 in sizes


def test_differ_with_a_huge_grow_replays_through_the_game() -> None:
    """A GROW of 60 (``--data``): the search once took Warlords alone (the game's wipe-out step
    refills such a map first) and pieces beyond the supply and reserve; the replay disagreed."""
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.model.vulketh.data import build_game_data
    from invasion_oracle.model.vulketh.game import Rules
    from invasion_oracle.solver.vulketh.differ import positions_of_size

    huge = {a: {"weak": 50, "standard": 60, "strong": 70} for a in ("GROW", "MOVE")}
    data = build_game_data({"action_values": huge}, "big.json")
    rules = Rules.of(Rulings.defaults("vulketh"), data)
    question = make_question(rules, "VK-GROW-OVERFLOW", ("occupied-then-any", "next-hex"), "lowest", None, 2)
    answer = smallest_difference(question, engine="baseline")  # replayed, or OracleDisagreement
    assert answer.replayed and answer.position is not None and answer.position.describe() == "9:W+1"
    assert answer.after is not None and sum(answer.after[0]) == 25  # every piece, reserve too
    assert all(any(p.invaders) for size in (1, 2, 3) for p in positions_of_size(size, 5))


@pytest.mark.slow
def test_differ_engines_agree_on_every_pair_and_direction() -> None:
    scenario = load_scenario("example:vulketh/worked_example.json")
    for rid in RULINGS:
        names = REGISTRY.get(rid).reading_names
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                for direction in ("highest",) if rid == "VK-MOVE-HIGHEST" else ("lowest", "highest"):
                    question = make_question(scenario.rules, rid, (a, b), direction)
                    found = [smallest_difference(question, engine=e).position for e in ("z3", "baseline")]
                    assert found[0] == found[1], (rid, a, b, direction)


# -- the z3 encoding equals the concrete one ------------------------------------------------------------


@settings(max_examples=4 * SCALE, deadline=None)
@given(positions(), st.integers(0, 11))
def test_the_z3_invader_turn_equals_the_concrete_one(document: dict[str, Any], pick: int) -> None:
    scenario = scenario_from_document({**document, "start": "invader"}, "generated.json")
    start = from_state(scenario.initial, scenario.rules)
    concrete = Compiled(scenario.rules, CONCRETE)
    symbolic = Compiled(scenario.rules, Z3)
    drawn = z3.Int("drawn")
    after, legal = symbolic.invader_turn(start, drawn)
    solver = z3.Solver()
    solver.add(drawn == pick)
    expected, ok = concrete.invader_turn(start, pick)
    solver.add(z3.BoolVal(ok) if isinstance(legal, bool) else legal == ok)
    assert solver.check() == z3.sat
    model = solver.model()

    def value(x: Any) -> Any:
        if isinstance(x, tuple):
            return tuple(value(v) for v in x)
        if isinstance(x, bool | int):
            return x
        v = model.eval(x, model_completion=True)
        return z3.is_true(v) if z3.is_bool(v) else v.as_long()

    for field in ("inv", "ply", "war", "board", "rows", "supply", "reserve", "score", "res", "invader_won"):
        assert value(getattr(after, field)) == getattr(expected, field), field


@settings(max_examples=2 * SCALE, deadline=None)
@given(positions(), st.integers(0, 11))
def test_the_cpsat_invader_turn_with_the_draw_unknown_equals_the_concrete_one(
    document: dict[str, Any], pick: int
) -> None:
    """The race's CP-SAT rounds draw an unknown card (one variable per field that the cards set
    differently, CpSatOps.select): with the draw fixed, the concrete turn."""
    from ortools.sat.python import cp_model

    from invasion_oracle.solver.common import Deadline, cpsat_solve
    from invasion_oracle.solver.vulketh.compiled import CpSatOps

    scenario = scenario_from_document({**document, "start": "invader"}, "generated.json")
    start = from_state(scenario.initial, scenario.rules)
    model = cp_model.CpModel()
    ops = CpSatOps(model)
    drawn = ops.int_var(0, len(scenario.data.action_cards) - 1, "drawn")
    after, legal = Compiled(scenario.rules, ops).invader_turn(start, drawn)
    model.add(ops.expr(drawn) == pick)
    expected, ok = Compiled(scenario.rules, CONCRETE).invader_turn(start, pick)
    solver = cpsat_solve(model, Deadline())
    assert solver is not None

    def value(x: Any) -> Any:
        return _cp_value(solver, ops, x)

    assert value(legal) == ok
    for field in ("inv", "ply", "war", "board", "rows", "supply", "reserve", "score", "res", "invader_won"):
        assert value(getattr(after, field)) == getattr(expected, field), field


def test_a_race_counterexample_refutes_only_the_plans_its_draws_are_legal_for() -> None:
    """The furthest's counterexample-guided loop reuses draws found against one plan for every
    plan: a draw not legal for a plan (here a deck-2 card while deck 1 is drawn) must not refute
    it, even where the compiled rules, played on regardless, give the fifth Warlord."""
    from invasion_oracle.solver.common import Deadline
    from invasion_oracle.solver.vulketh import race as race_module

    lead = card("l", act("LEAD", "blank"), act("LEAD", "blank"), deck=2, next_deck=2)
    warlords = ("steal-resources", "convert", "spread", "regress")
    document = doc(
        start="player",
        data=cards_data(lead),
        decks={"1": ["filler1"], "2": ["l"]},
        hexes={
            **{str(h): {"warlord": w, "invaders": 1} for h, w in enumerate(warlords, 1)},
            "8": {"player": 2},
            "9": {"player": 2},
        },
        invader_resources=5,
        resources={"food": 1},
        player_turns=[{"dice": [{"face": "moon"}, {"face": "sun"}]}],
    )
    question = race_question(scenario_from_document(document, "race.json"))
    plan = race_module._plan_terms(question, "p")
    counter = race_module._unroll(question, ["l"], plan, "x", Deadline())
    assert z3.is_true(z3.simplify(counter.won_by[0])) and z3.is_false(z3.simplify(counter.legal_by[0]))
    solver = z3.Solver()
    solver.add(*race_module._plan_constraints(question, plan))
    assert solver.check(race_module._refuted_by(counter, 1)) == z3.sat  # every plan still stands


def test_race_auto_takes_the_compiled_engine_and_the_baseline_for_what_it_refuses() -> None:
    from invasion_oracle.model.core.jsonio import read_json_file
    from invasion_oracle.solver.vulketh.race import auto_engine

    document = read_json_file("example:vulketh/race.json")
    whole = race_question(scenario_from_document(document, "race.json"))
    document["player_turns"] = document["player_turns"][:1]
    small = race_question(scenario_from_document(document, "race.json"))
    pillage = race_question(scenario_from_document(PILLAGE_RACE, "race.json"))
    # A card reward the compiled rules do not model ('Appease the Volcano'): z3 refuses it too.
    appease = card(
        "v",
        act("GATHER"),
        act("GATHER"),
        goal={"goal": "resources", "at_least": 1},
        reward=[{"effect": "remove_warlord"}],
    )
    refused = race_question(
        scenario_from_document({**RACE, "data": cards_data(appease), "decks": {"1": ["v"]}}, "race.json")
    )
    assert [auto_engine(q) for q in (small, whole, pillage, refused)] == [
        "compiled",
        "compiled",
        "baseline",
        "baseline",
    ]
    with pytest.raises(MalformedInputError, match="does not model"):
        race(refused, engine="z3")
    assert race(refused).engine == "baseline"

"""CP-SAT engines (issue 22) answer as the baseline and z3 do, replayed through the oracle.

Where a search's answer holds a choice among equals (a tie, a witness), z3 and CP-SAT minimise the
same lexicographic objectives, so their answers are the same bytes apart from ``engine``; for the
cascades, the island land sets and the smallest flip the baseline breaks ties the same way, so all
three engines give one answer and ``auto`` answers the same whichever engine its budget ends on.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from invasion_oracle.model.spirit_island.data import default_data
from invasion_oracle.model.spirit_island.island import build_island
from invasion_oracle.model.spirit_island.pieces import Land, parse_land
from invasion_oracle.model.spirit_island.scenario import load_scenario
from invasion_oracle.solver.common import Deadline, load_cpsat
from invasion_oracle.solver.spirit_island.cascade import best_cascade, card_cascades
from invasion_oracle.solver.spirit_island.defend import least_defend
from invasion_oracle.solver.spirit_island.fear_threshold import best_fight_back, least_damage_for_fear
from invasion_oracle.solver.spirit_island.island_search import (
    IslandQuestion,
    baseline_facts,
    question_from_scenario,
    search_facts,
    smallest_flip,
)
from tests.spirit_island.test_solver_agreement import CARDS, board_a_lands, examples, questions

ENGINES = ("baseline", "z3", "cpsat")
ISLAND = build_island(default_data(), ("A",))
EXAMPLE = "examples/spirit_island/island_search.json"


def _answer(x: Any) -> Any:
    """An answer's JSON without the engine that gave it (the land sets: verdicts and witnesses)."""
    if not hasattr(x, "to_json"):
        return (x.verdicts, x.witnesses, x.status)
    return {k: v for k, v in x.to_json().items() if k != "engine"}


def lands(**placed: str) -> tuple[Land, ...]:
    return tuple(parse_land(placed.get(name, "")) for name in ISLAND.lands)


@pytest.mark.parametrize("land", ["C T@1 E", "2C C@1 2T T@1 E", "2C 2C@1 C@2 2T T@1", "E D"])
def test_fear_threshold_engines_agree(land: str) -> None:
    pieces = parse_land(land)
    for wanted in range(7):
        plans = [least_damage_for_fear(pieces, wanted, method=m) for m in ENGINES]
        assert len({(p.damage, p.destroy, p.allocation, p.status) for p in plans}) == 1, plans
        assert plans[-1].method == "cpsat"
        assert plans[-1].replayed == (plans[-1].damage is not None)


@pytest.mark.parametrize("land", ["C T 2D", "C T 2D@1", "3C 2T 4E 3D", "E D", "D"])
@pytest.mark.parametrize("goal", ["no-blight", "dahan-safe"])
def test_least_defend_engines_agree(land: str, goal: str) -> None:
    plans = [least_defend(parse_land(land), goal, method=m) for m in ENGINES]
    assert len({(p.defend, p.status) for p in plans}) == 1, plans
    assert plans[-1].replayed


# -- fight-back: CP-SAT is z3's allocation, the baseline's value -------------------------------------


@pytest.mark.parametrize(
    ("land", "dahan", "objective"),
    [
        ("C 2T E", 2, "fear"),
        ("C T E", 2, "destroyed"),
        ("2C T@1 3E", 3, "fear"),
        ("C 3E", 1, "destroyed"),
        ("", 1, "fear"),
    ],
)
def test_fight_back_cpsat_is_z3s_allocation(land: str, dahan: int, objective: str) -> None:
    baseline, z3, cpsat = (best_fight_back(parse_land(land), dahan, objective, method=m) for m in ENGINES)
    # "C 2T E" with 4 Damage: the City and a Town, or the City and the Explorer, both 2 Fear; z3 and
    # CP-SAT both put the most on the pieces in order (the Town), the baseline takes its first
    assert _answer(cpsat) == _answer(z3) and cpsat.method == "cpsat"
    assert cpsat.value == baseline.value and cpsat.status.value == "proven"
    assert cpsat.replayed and z3.replayed


# -- cascades ----------------------------------------------------------------------------------------


def check_best_cascade(state: tuple[Land, ...], origin: str) -> None:
    index = ISLAND.index(origin)
    if state[index].blight == 0:
        state = state[:index] + (Land(blight=1, presence=state[index].presence),) + state[index + 1 :]
    answers = [best_cascade(ISLAND, state, origin, method=m) for m in ENGINES]
    assert _answer(answers[0]) == _answer(answers[1]) == _answer(answers[2])
    assert all(a.replayed == bool(a.paths) for a in answers)


@pytest.mark.parametrize(
    ("placed", "origin", "best"),
    [
        # A1 alone blighted: its four neighbours tie (one step, no Presence): the first, A2
        ({"A1": "B"}, "A1", ("A2",)),
        # Presence on A2 and A4: the first path without any, A5
        ({"A1": "B", "A2": "B", "A4": "B"}, "A1", ("A5",)),
        # every neighbour with Presence but A2, blighted: through it to A3
        ({"A1": "B", "A2": "B"}, "A1", ("A2", "A3")),
    ],
)
def test_best_cascade_engines_agree_on_ties(
    placed: dict[str, str], origin: str, best: tuple[str, ...]
) -> None:
    presence = {"A2", "A4"} if len(placed) == 3 else {"A4", "A5", "A6"} if len(placed) == 2 else set()
    state = tuple(
        land.with_presence("River", 1) if name in presence else land
        for name, land in zip(ISLAND.lands, lands(**placed), strict=True)
    )
    check_best_cascade(state, origin)
    assert best_cascade(ISLAND, state, origin, method="cpsat").best == best


@examples(3)
@given(board_a_lands(), st.sampled_from(ISLAND.lands))
def test_best_cascade_engines_agree(state: tuple[Land, ...], origin: str) -> None:
    check_best_cascade(state, origin)


def check_card_cascades(state: tuple[Land, ...], card: str) -> None:
    c = default_data().card_by_id(card)
    answers = [card_cascades(ISLAND, state, c, method=m) for m in ENGINES]
    assert _answer(answers[0]) == _answer(answers[1]) == _answer(answers[2])
    assert [a.method for a in answers] == list(ENGINES) and answers[2].status.value == "proven"


def test_card_cascades_engines_agree_on_the_witness() -> None:
    # 3JW on board A, Towns everywhere, every other land blighted: A3 and A5 cascade only if an
    # earlier cascade brings them Blight; of the many ways, every engine names the first in land
    # order (A2 first, its cascade to A1, the smallest end) - the same witness, replayed
    state = tuple(parse_land("T B") if i % 2 else parse_land("T") for i in range(len(ISLAND.lands)))
    check_card_cascades(state, "3JW")
    rows = {
        x.land: x
        for x in card_cascades(ISLAND, state, default_data().card_by_id("3JW"), method="cpsat").lands
    }
    assert rows["A3"].witness_order == ("A2", "A5", "A8", "A3")
    assert rows["A3"].witness_chains == (("A1",), ("A5", "A4", "A3"))
    assert rows["A2"].always and rows["A2"].witness_order[0] == "A2" and not rows["A2"].witness_chains


@examples(3)
@given(board_a_lands(invaders=True), st.sampled_from(CARDS))
def test_card_cascades_engines_agree(state: tuple[Land, ...], card: str) -> None:
    check_card_cascades(state, card)


# -- the island: land sets and the smallest flip -----------------------------------------------------


def check_island_facts(question: IslandQuestion) -> None:
    answers = [search_facts(question, method=m) for m in ENGINES]
    assert len({(a.verdicts, a.witnesses, a.status) for a in answers}) == 1, answers
    # one witness for each value a fact can take, whichever engine found it
    assert answers[2].witnesses == sum(2 if v == "depends" else 1 for _, v in answers[2].verdicts)


def test_island_facts_engines_agree_on_the_example() -> None:
    check_island_facts(question_from_scenario(load_scenario(EXAMPLE)))


@examples(2)
@given(questions(turns=1))
def test_island_facts_engines_agree(question: IslandQuestion) -> None:
    check_island_facts(question)


def _question(
    start: dict[str, tuple[int, int, int, int]], ravage: str, build: str, explore: str
) -> IslandQuestion:
    counts = tuple(start.get(name, (0, 0, 0, 0)) for name in ISLAND.lands)
    return IslandQuestion(ISLAND, counts, ravage, build, (explore,), ((0,) * len(ISLAND.lands),))


@pytest.mark.parametrize(
    ("question", "fact", "changes"),
    [
        # 1W ravages the Wetlands, A2 among them, empty: any Invader added there makes it happen;
        # of the three, the first kind (z3 once answered the City: its tie-break took the last)
        (
            _question({"A1": (1, 0, 1, 0), "A8": (0, 1, 1, 0)}, "1W", "3JM", "3JS"),
            (0, "ravage", 1),
            (("A2", "explorer", 1),),
        ),
        # A4 explored from A2's City, which a Town would replace: both removed (the example's flip)
        (
            question_from_scenario(load_scenario(EXAMPLE)),
            (0, "explore", 3),
            (("A2", "explorer", -1), ("A2", "city", -1)),
        ),
    ],
)
def test_smallest_flip_engines_agree_on_ties(
    question: IslandQuestion, fact: tuple[int, str, int], changes: Any
) -> None:
    flips = [smallest_flip(question, fact, method=m, max_cost=2) for m in ENGINES]
    assert len({(json.dumps(_answer(f)), f.kills) for f in flips}) == 1, flips
    assert flips[2].changes == changes and flips[2].replayed and flips[2].method == "cpsat"


def test_smallest_flip_engines_agree_on_the_fight_back_witness() -> None:
    # 2C builds in the coastal lands; A3 is empty, so an Explorer added there (the first of three
    # ties) makes it build. A2's surviving Dahan deals 2 to E T: the Town, or the Explorer and 1 on
    # the Town. The witness kills the Town: every engine takes the baseline's first choice
    question = _question({"A2": (1, 1, 0, 2)}, "1W", "2C", "1J")
    fact = (0, "build", ISLAND.index("A3"))
    assert dict(baseline_facts(question, replay=False).verdicts)[fact] == "never"
    flips = [smallest_flip(question, fact, method=m, max_cost=2) for m in ENGINES]
    assert len({(json.dumps(_answer(f)), f.kills) for f in flips}) == 1, flips
    assert flips[2].changes == (("A3", "explorer", 1),) and flips[2].kills == ((0, 1, 0, 1, 0),)
    assert flips[2].replayed


@examples(1)
@given(questions(turns=1), st.data())
def test_smallest_flip_engines_agree(question: IslandQuestion, data: st.DataObject) -> None:
    verdicts = [(fact, v) for fact, v in baseline_facts(question, replay=False).verdicts if v != "depends"]
    fact, _ = data.draw(st.sampled_from(verdicts))
    flips = [smallest_flip(question, fact, method=m, max_cost=2) for m in ENGINES]
    assert len({(json.dumps(_answer(f)), f.kills) for f in flips}) == 1, flips
    assert flips[2].replayed == (flips[2].cost is not None)


# -- cut short: never proven ---------------------------------------------------------------------------


class _Budget(Deadline):
    """Stops the search (as Ctrl-C does) after ``left`` checks."""

    def __init__(self, left: int) -> None:
        super().__init__()
        self.left = left

    def stopped(self) -> bool:
        self.left -= 1
        return self.left < 0


def _searches() -> dict[str, Any]:
    example = question_from_scenario(load_scenario(EXAMPLE))
    heavy = tuple(parse_land("T B") if i % 2 else parse_land("T") for i in range(len(ISLAND.lands)))
    card = default_data().card_by_id("3JW")
    return {
        "fight-back": lambda d: best_fight_back(parse_land("2C T@1 3E"), 3, method="cpsat", deadline=d),
        "best cascade": lambda d: best_cascade(
            ISLAND, lands(A1="B", A2="B"), "A1", method="cpsat", deadline=d
        ),
        "card cascades": lambda d: card_cascades(ISLAND, heavy, card, method="cpsat", deadline=d),
        "lands": lambda d: search_facts(example, method="cpsat", deadline=d),
        "flip": lambda d: smallest_flip(example, (0, "explore", 3), method="cpsat", max_cost=2, deadline=d),
    }


@pytest.mark.parametrize("search", sorted(_searches()))
def test_a_cut_cpsat_search_is_unknown_not_proven(search: str) -> None:
    run = _searches()[search]
    # OR-Tools imported before the checks are counted: its first import polls the deadline every
    # 50 ms, a count that grows with the machine's load (the cuts then fell after the search)
    load_cpsat(Deadline())
    whole = _Budget(10**9)
    full = run(whole)
    checks = 10**9 - whole.left
    assert full.status.value == "proven" and full.method == "cpsat"
    cuts = [run(_Budget(checks * k // 4)) for k in (0, 1, 3)]
    cuts.append(run(Deadline(1e-4)))  # CP-SAT's own time limit, or before it
    for cut in cuts:
        assert cut.status.value == "unknown" and not getattr(cut, "replayed", False)
        assert _answer(cut) != _answer(full)


# -- the command line ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["lands", EXAMPLE],
        ["flip", EXAMPLE, "--fact", "1:explore:A4", "--max-cost", "2"],
        ["cascade", "examples/spirit_island/invader_phase.json", "--land", "A1"],
        ["cascade", "examples/spirit_island/invader_phase.json", "--card", "1M"],
        ["fight-back", "--land", "C 2T E", "--dahan", "2"],
    ],
)
def test_the_cli_answers_with_cpsat_as_with_z3(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from invasion_oracle.reports.cli import main

    out = {}
    for engine in ("z3", "cpsat"):
        assert main(["spirit-island", *argv, "--engine", engine, "--json"]) == 0
        envelope = json.loads(capsys.readouterr().out)
        assert envelope["status"] == "proven" and envelope["replayed"]
        assert envelope["answer"]["engine"] == engine
        out[engine] = json.dumps(envelope["answer"]).replace('"cpsat"', '"z3"')
        assert main(["spirit-island", *argv, "--engine", engine]) == 0
        text = capsys.readouterr().out
        assert f"--engine {engine}" in text
        # the engine's name, where the text gives it, padded to its table column
        out[engine + " text"] = " ".join(text.replace("cpsat", "z3").split())
    assert out["cpsat"] == out["z3"] and out["cpsat text"] == out["z3 text"]


def test_the_cli_runs_every_engine_with_both(capsys: pytest.CaptureFixture[str]) -> None:
    from invasion_oracle.reports.cli import main

    for argv in (
        ["defend", "--land", "C T 2D"],
        ["lands", EXAMPLE],
        ["flip", EXAMPLE, "--fact", "1:explore:A4", "--max-cost", "2"],
        ["cascade", "examples/spirit_island/invader_phase.json", "--card", "1M"],
    ):
        assert main(["spirit-island", *argv, "--engine", "both", "--json"]) == 0
        answer = json.loads(capsys.readouterr().out)["answer"]
        assert answer["engine"] == "z3+cpsat+baseline", argv

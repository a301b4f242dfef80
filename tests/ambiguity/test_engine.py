"""The generic engine (model/core/ambiguity.py) on a toy game: runs under each reading, the
structured difference (outcome fields and events side by side), witnesses per reading."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from invasion_oracle.model.core.ambiguity import compare, coverage, differing_fields, witnesses
from invasion_oracle.model.core.rulings import REGISTRY
from tests.ambiguity.toy import SPEC, toy_game


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with toy_game():
        yield


def test_a_ruling_that_changes_the_outcome_shows_the_field_and_the_event() -> None:
    difference = compare(SPEC, {"game": "toy-nim", "stones": 3}, "doc", "TOY-LAST")
    assert difference.kind == "outcome"
    assert [(f.path, f.values) for f in difference.outcome_fields] == [
        ("$.winner", (("takes-last", "Ann"), ("gives-last", "Bo")))
    ]
    assert difference.event_hunks == ()  # the same moves; only who wins differs
    assert difference.groups == (("takes-last",), ("gives-last",))


def test_a_ruling_that_changes_only_events_is_told_apart_by_them() -> None:
    difference = compare(SPEC, {"game": "toy-nim", "stones": 1}, "doc", "TOY-SHOUT")
    assert difference.kind == "events" and difference.outcome_fields == ()
    (hunk,) = difference.event_hunks
    assert hunk.readings == ("quiet", "shout")
    assert hunk.first == () and hunk.second == ({"event": "shouted", "player": "Ann"},)
    assert hunk.at == (2, 2)  # after "starts" and "took"
    assert difference.separates("quiet", "shout")


def test_a_reading_that_refuses_the_scenario_is_a_result_of_its_own() -> None:
    document = {"game": "toy-nim", "stones": 3, "decisions": {"script": [2]}}
    difference = compare(SPEC, document, "doc", "TOY-TAKE")
    refused = difference.run("one-only")
    assert refused.refused and "2 is not legal" in refused.error and refused.outcome is None
    assert difference.outcome_fields[0].path == "(run)"
    assert difference.groups == (("one-or-two", "one-to-three"), ("one-only",))


def test_other_rulings_can_be_fixed_while_one_is_varied() -> None:
    difference = compare(SPEC, {"game": "toy-nim", "stones": 3}, "doc", "TOY-LAST", ("TOY-TAKE=one-only",))
    assert {r.reading: r.outcome["winner"] for r in difference.runs} == {
        "takes-last": "Ann",
        "gives-last": "Bo",
    }


def test_witnesses_are_found_by_their_path_and_per_reading_files_claim_their_reading() -> None:
    take = witnesses(SPEC, REGISTRY.get("TOY-TAKE"))
    assert [(str(w), w.for_reading) for w in take] == [
        ("example:tests.ambiguity:toy_examples/rulings/TOY-TAKE/one-only.json", "one-only")
    ]
    assert [str(w) for w in witnesses(SPEC, REGISTRY.get("TOY-LAST"))] == [
        "example:tests.ambiguity:toy_examples/rulings/TOY-LAST.json"
    ]


def test_coverage_names_the_pairs_of_readings_no_witness_tells_apart() -> None:
    last = coverage(SPEC, REGISTRY.get("TOY-LAST"))
    assert last.complete and last.witnesses_of("gives-last") == (
        "example:tests.ambiguity:toy_examples/rulings/TOY-LAST.json",
    )
    take = coverage(SPEC, REGISTRY.get("TOY-TAKE"))
    assert take.unseparated() == (("one-or-two", "one-to-three"),)
    assert take.missing() == ("TOY-TAKE: no witness tells reading 'one-or-two' from reading 'one-to-three'",)
    assert take.witnesses_of("one-to-three") == take.witnesses_of("one-only")


def test_a_ruling_without_witnesses_is_reported() -> None:
    empty = coverage(SPEC, REGISTRY.get("TOY-LAST"), found=())
    assert empty.missing() == ("TOY-LAST: no witness scenario",)


def test_differing_fields_walks_objects_and_same_length_lists_and_shows_other_lists_whole() -> None:
    old = {"players": [{"xp": 1, "hits": ["A1"]}, {"xp": 0, "hits": []}], "year": 2}
    new = {"players": [{"xp": 2, "hits": ["A1"]}, {"xp": 0, "hits": ["B2", "C3"]}], "year": 2}
    assert differing_fields([old, new]) == [
        ("$.players[0].xp", (1, 2)),
        ("$.players[1].hits", ([], ["B2", "C3"])),
    ]
    assert differing_fields([old, old]) == []

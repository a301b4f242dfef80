"""One published schema per query's answer (issue 20): ``invasion schema answer-GAME-QUERY``.

Every envelope a verb writes while the tests run is checked against its query's schema
(``INVASION_DEBUG``, set for the tests, turns the check on in :func:`envelope`), so the verbs'
own tests, with their many flags and instances, are the schema's test; here: every search has a
schema, each schema is a valid JSON Schema, and a drifting answer is caught.
"""

from __future__ import annotations

import argparse

import jsonschema
import pytest

from invasion_oracle.model import registry
from invasion_oracle.model.core.jsonio import load_schema
from invasion_oracle.reports.cli import build_parser
from invasion_oracle.reports.envelope import envelope
from invasion_oracle.reports.verbs import schema_names

# a game's verbs that answer no search question: runs, listings, checks
NOT_QUERIES = {"simulate", "replay", "data", "schema", "examples", "ambiguities", "rulings"}


def _game_verbs(game: str) -> set[str]:
    parser = build_parser([game])
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            group = action.choices[game]
            for inner in group._actions:
                if isinstance(inner, argparse._SubParsersAction):
                    return set(inner.choices)
    raise AssertionError(f"no verbs for {game}")


@pytest.mark.parametrize("game", registry.names())
def test_every_search_of_every_game_publishes_its_answer_schema(game: str) -> None:
    queries = _game_verbs(game) - NOT_QUERIES
    assert queries, game
    missing = sorted(q for q in queries if f"answer-{game}-{q}" not in schema_names())
    assert not missing, f"{game}: no answer schema for {missing}"


@pytest.mark.parametrize("name", sorted(n for n in schema_names() if n.startswith("answer-")))
def test_each_answer_schema_is_a_valid_schema(name: str) -> None:
    schema = load_schema(*schema_names()[name])
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] in ("object", "array") and schema["description"]


def test_an_answer_that_drifts_from_its_schema_is_caught() -> None:
    answer = {"engine": "z3", "fewest": None, "furthest": None, "invader_turns": 3, "plans": 1}
    with pytest.raises(RuntimeError, match="answer-vulketh-race"):
        envelope("vulketh", "race", "invasion vulketh race x", answer, status="unknown")
    answer.update({"searched_plans": 0, "status": "unknown"})
    assert (
        envelope("vulketh", "race", "invasion vulketh race x", answer, status="unknown")["answer"] == answer
    )


def test_replayed_is_said_once_in_the_envelope() -> None:
    doc = envelope("vulketh", "data", "c", {"x": 1, "replayed": True}, status="done")
    assert doc["replayed"] is True and "replayed" not in doc["answer"]


def test_fear_threshold_without_a_pool_has_no_next_card(capsys: pytest.CaptureFixture[str]) -> None:
    # the envelope is checked against its schema here (INVASION_DEBUG): next_card is null
    import json

    from invasion_oracle.reports.cli import main

    assert main(["spirit-island", "fear-threshold", "--land", "C 2T E", "--fear", "1", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)["answer"]
    assert answer["next_card"] is None and answer["plans"][0]["least_damage"] > 0
    assert answer["engines"] == [answer["engine"]] != ["auto"]

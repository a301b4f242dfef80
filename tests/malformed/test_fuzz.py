"""Inputs drawn from every published schema, valid and broken: the command line answers with exit
0 and an answer, or exit 2 and one located line; never a traceback, never anything else, within a
time bound (issue "Every input checked").

Valid documents come from each game's scenario and data schemas (``properties/schemas.py``);
broken ones mutate every bundled example in one place. ``INVASION_DEBUG`` is set for the tests,
so an internal error raises here instead of becoming exit status 3.
"""

from __future__ import annotations

import contextlib
import io
import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from invasion_oracle.model import registry
from invasion_oracle.model.core.bundled import examples
from invasion_oracle.model.core.jsonio import load_schema, parse_json_bytes
from invasion_oracle.properties.schemas import from_schema, mutated
from invasion_oracle.reports.cli import main

SECONDS = 20  # per input: a generous bound on a loaded two-core machine
GAMES = [spec.name for spec in registry.specs() if spec.package]
# A few inputs per game and kind in `make test`; hundreds in the slow run (`make report`).
EXAMPLES = pytest.mark.parametrize("examples", [5, pytest.param(300, marks=pytest.mark.slow)])


class TookTooLong(Exception):
    pass


@contextlib.contextmanager
def time_bound(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise TookTooLong(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def answer(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with time_bound(SECONDS), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def check(argv: list[str], path: Path, what: str) -> None:
    status, out, err = answer(argv)
    assert status in (0, 2), (what, status, err)
    if status == 0:
        assert out.strip(), what
    else:
        assert err.count("\n") == 1 and err.startswith("invasion: error: "), (what, err)
        assert str(path) in err or "--" in err, (what, err)  # the file (or option) is named


def scenario_examples(game: str) -> list[dict[str, Any]]:
    spec = registry.spec(game)
    docs = []
    for ref in examples(spec.examples):
        doc = parse_json_bytes(ref.read_bytes(), str(ref))
        if isinstance(doc, dict) and doc.get("game") == spec.name and "/rulings/" not in ref.relative:
            docs.append(doc)
    return docs


@EXAMPLES
@pytest.mark.parametrize("game", GAMES)
def test_documents_valid_by_the_scenario_schema_get_an_answer_or_a_located_error(
    examples: int, game: str, tmp_path: Path
) -> None:
    schema = load_schema(registry.spec(game).package, "scenario.schema.json")

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(from_schema(schema))
    def run(document: Any) -> None:
        path = tmp_path / "generated.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        check([game, "simulate", str(path)], path, json.dumps(document)[:300])

    run()


@EXAMPLES
@pytest.mark.parametrize("game", GAMES)
def test_documents_valid_by_the_data_schema_get_an_answer_or_a_located_error(
    examples: int, game: str, tmp_path: Path
) -> None:
    schema = load_schema(registry.spec(game).package, "data.schema.json")

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(from_schema(schema))
    def run(document: Any) -> None:
        path = tmp_path / "data.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        check([game, "data", "--data", str(path), "--format", "json"], path, json.dumps(document)[:300])

    run()


@EXAMPLES
@pytest.mark.parametrize("game", GAMES)
def test_broken_examples_get_an_answer_or_a_located_error(examples: int, game: str, tmp_path: Path) -> None:
    docs = scenario_examples(game)
    assert docs, f"{game} bundles no example scenario"

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(docs).flatmap(mutated))
    def run(broken: tuple[str, Any]) -> None:
        what, document = broken
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        check([game, "simulate", str(path)], path, what)

    run()

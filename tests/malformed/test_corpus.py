"""The malformed-input corpus (``tests/malformed/corpus/*.json``): every case is run in this
process and must give its exit status and its one located line, never a traceback (issue
"Every input checked"). ``INVASION_DEBUG`` is set for the tests, so an internal error raises here
instead of becoming exit status 3.

The corpus covers every verb of the command line: the list of verbs is read from the parser, so a
new verb without a malformed-input case fails :func:`test_every_verb_has_a_case`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from invasion_oracle.model import registry
from invasion_oracle.reports.cli import build_parser
from tests.malformed.corpus import Case, Folders, load_cases, run_case

CASES = load_cases()
MINIMUM_CASES = 300


def _param(case: Case) -> object:
    return pytest.param(case, id=case.name, marks=[pytest.mark.slow] if case.slow else [])


@pytest.fixture(scope="module")
def case_folders(tmp_path_factory: pytest.TempPathFactory) -> Folders:
    return Folders(tmp_path_factory.mktemp("corpus"))


@pytest.fixture
def case_folder(case_folders: Folders) -> Path:
    """The case's own empty folder (``$TMP``)."""
    return case_folders.fresh()


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_case(case: Case, case_folder: Path) -> None:
    result = run_case(case, case_folder)
    assert result.problems(case, case_folder) == []


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= MINIMUM_CASES


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def verbs() -> set[tuple[str, ...]]:
    """Every runnable verb as its words (``("fixtures", "check")``, ``("vulketh", "race")``)."""
    found: set[tuple[str, ...]] = set()

    def walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> None:
        inner = _subcommands(parser)
        if not inner:
            found.add(words)
        for name, child in inner.items():
            walk(child, (*words, name))

    for game in registry.names():  # a game's own verbs are added only when it is named
        walk(build_parser([game]), ())
    # A game's group without its verbs (another game was named) is not a verb.
    return {words for words in found if not (len(words) == 1 and words[0] in registry.names())}


def _verb_of(argv: tuple[str, ...], known: set[tuple[str, ...]]) -> tuple[str, ...] | None:
    words = list(argv)
    while words and words[0].startswith("--"):  # options before the verb: --max-input-size SIZE
        del words[: 1 if "=" in words[0] else 2]
    for size in (2, 1):
        if tuple(words[:size]) in known:
            return tuple(words[:size])
    return None


def test_every_verb_has_a_case() -> None:
    known = verbs()
    assert ("simulate",) in known and ("fixtures", "check") in known and ("vulketh", "race") in known
    covered = {_verb_of(case.argv, known) for case in CASES}
    missing = sorted(" ".join(words) for words in known - covered)
    assert missing == []

"""Every option of every verb takes effect or is refused (issue 33, part 4).

The verbs and their options are read from the parser itself (:func:`verbs`), so a new verb or
option is walked without a line here; a new verb needs only its smallest valid command line in
:data:`BASES` (the test says so). Every command runs in this process (the corpus's runner:
captured output, a time bound), so the walk takes seconds:

* **a bad value is refused**: every option that takes a value, given one that is wrong for any
  option (a path inside a regular file: not a number, a choice, a name, an address, a readable or
  writable path), exits 2 with one line on stderr naming the option or the value, before any work
  (a time bound catches a command that went on to run);
* **no flag is silently ignored**: each flag without a value is in :data:`FLAG_EFFECTS` (the
  combination that shows it taking effect, or being refused) - a new flag fails until it is;
* **combinations that would do nothing are refused** (:data:`REFUSED`): options that only apply
  with or without a scenario file, bounds without the search they bound, contradictions.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from invasion_oracle.model import registry
from invasion_oracle.reports.cli import build_parser
from tests.malformed.corpus import Case, Folders, Result, run_case

ROOT = Path(__file__).resolve().parents[2]
SECONDS = 20.0  # a refusal takes milliseconds; a command that ran instead is cut off here
ORACLE = f"{sys.executable} examples/adapters/oracle.py"

SS, SI, VK, CS = (
    "example:stonespine/placement.json",
    "example:spirit_island/island_search.json",
    "example:vulketh/clear_hex.json",
    "example:cloudspire/spires.json",
)
TRACES = {
    "stonespine": "fixtures/stonespine/campaign.trace.json",
    "spirit-island": "fixtures/spirit_island/opening.trace.json",
    "vulketh": "fixtures/vulketh/solo_game.trace.json",
    "cloudspire": "fixtures/cloudspire/round.trace.json",
}
BASES: dict[tuple[str, ...], list[str]] = {
    (): ["games"],
    ("simulate",): ["example:stonespine/default.json"],
    ("replay",): [TRACES["cloudspire"]],
    ("rulings",): [],
    ("ambiguities",): [],
    ("schema",): [],
    ("games",): [],
    ("examples",): [],
    ("run",): [],
    ("report",): [],
    ("fixtures", "generate"): ["--check"],
    ("fixtures", "check"): [],
    ("fixtures", "coverage"): [],
    ("fixtures", "schema"): [],
    ("conform",): ["--cmd", ORACLE, "--smoke", "--game", "vulketh"],  # one game: its cases read fast
    ("changes",): ["--data", "tests/cli/data/stonespine-barbarian-5.json", "--cases", "heroes-abilities"],
    ("stonespine", "routes"): ["example:stonespine/rulings/SS-HYDRA-COLLAPSE.json", "--hero", "red"],
    ("stonespine", "wave"): [SS, "--heroes", "red,red"],
    ("stonespine", "policy"): [SS, "--measure", "trophy", "--target", "4"],
    ("stonespine", "place"): [SS],
    ("stonespine", "min-damage"): [SS, "--what", "minions", "--heroes", "red,red"],
    ("stonespine", "escape"): [SS, "--hero", "red"],
    ("stonespine", "plan"): ["example:stonespine/plan-year3.json"],
    ("spirit-island", "fear-threshold"): ["--land", "C 2T E", "--pool", "3"],
    ("spirit-island", "fight-back"): ["--land", "C 2T E", "--dahan", "2"],
    ("spirit-island", "defend"): ["--land", "C T 2D@1"],
    ("spirit-island", "cascade"): [SI, "--land", "A1"],
    ("spirit-island", "lands"): [SI],
    ("spirit-island", "flip"): [SI, "--fact", "1:explore:A4"],
    ("vulketh", "race"): ["example:vulketh/race.json"],
    ("vulketh", "clear"): [VK, "--hex", "7"],
    ("vulketh", "differ"): [],
    ("cloudspire", "engagement"): ["example:cloudspire/engagement.json"],
    ("cloudspire", "survive"): ["example:cloudspire/survive.json"],
    ("cloudspire", "spires"): [CS, "--bound", "2"],
}
for _game in registry.names():  # the verbs every game has, from the contract
    _example = {"stonespine": SS, "spirit-island": SI, "vulketh": VK, "cloudspire": CS}[_game]
    BASES[(_game, "simulate")] = [_example]
    BASES[(_game, "replay")] = [TRACES[_game]]
    BASES[(_game, "data")] = []
    BASES[(_game, "schema")] = []
    BASES[(_game, "examples")] = []
    BASES[(_game, "ambiguities")] = []

UNWALKED = {"--version", "--help", "--print-completion"}
"""Options that do not run a verb: --version and --help exit at once; --print-completion is read
before the parser (tests/cli/test_completion.py refuses its bad values)."""


def verbs() -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every verb (a leaf of the parser's tree), with its words: ``("stonespine", "place")``."""

    def walk(
        parser: argparse.ArgumentParser, path: tuple[str, ...]
    ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if path == () or not subs:
            yield path, parser
        for sub in subs:
            for name, child in sub.choices.items():
                yield from walk(child, (*path, name))

    yield from walk(build_parser(list(registry.names())), ())


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [
        a
        for a in parser._actions
        if a.option_strings
        and not isinstance(a, argparse._SubParsersAction)
        and a.option_strings[-1] not in UNWALKED
    ]


VERBS = list(verbs())
VALUED = [
    pytest.param(path, action.option_strings[-1], id=" ".join((*path, action.option_strings[-1])))
    for path, parser in VERBS
    for action in options(parser)
    if action.nargs != 0
]


@pytest.fixture(scope="module")
def walk_folders(tmp_path_factory: pytest.TempPathFactory) -> Folders:
    return Folders(tmp_path_factory.mktemp("flag-walk"))


@pytest.fixture
def case_folder(walk_folders: Folders) -> Path:
    """Each command line's own empty folder: pytest's ``tmp_path`` made hundreds of times costs
    as much as the commands (see :class:`tests.malformed.corpus.Folders`)."""
    return walk_folders.fresh()


def run(argv: list[str], case_folder: Path, seconds: float = SECONDS) -> Result:
    case = Case("flag-walk", "x", tuple(argv), {}, 2, "", "", (), None, seconds, False)
    return run_case(case, case_folder)


def test_every_verb_has_a_base_command_line() -> None:
    missing = [" ".join(path) for path, _ in VERBS if path not in BASES]
    assert not missing, f"give these verbs their smallest valid command line in BASES: {missing}"
    for path, _parser in VERBS:  # the bases parse (what each refusal below adds to is valid)
        build_parser(list(path)).parse_args([*path, *BASES[path]])


@pytest.mark.parametrize(("path", "option"), VALUED)
def test_a_bad_value_is_refused_naming_the_option(
    path: tuple[str, ...], option: str, case_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # the bases name fixtures/ and examples/ of the checkout
    (case_folder / "a-file").write_text("not a folder\n", encoding="utf-8")
    bad = str(case_folder / "a-file" / "bad-value")  # wrong for any option: see the module's doc
    argv = [option, bad, *path, *BASES[path]] if not path else [*path, *BASES[path], option, bad]
    result = run(argv, case_folder)
    assert not result.crash, result.crash
    assert result.status == 2, f"{argv}: exit {result.status}, stderr {result.err!r}"
    assert result.err.count("\n") == 1, f"{argv}: not one line: {result.err!r}"
    named = option in result.err or "bad-value" in result.err
    assert named, f"{argv}: the line names neither {option} nor the value: {result.err!r}"


# -- flags: each one shown to take effect, or refused where it would not --------------------------

FILE = "example:cloudspire/rulings/CS-ROLLS.json"
CS_ROLLS_ANALYSIS = [
    "cloudspire",
    "ambiguities",
    "--only",
    "CS-ROLLS",
    "--no-fixtures",
    "--workers",
    "1",
]  # the analysis of one ruling
FLAG_DEMOS: dict[str, tuple[list[str], list[str]] | str] = {
    # a pair of command lines (without, with the flag) whose answers differ ...
    "--json": (["games", "--format", "md"], ["games", "--json"]),
    "--check": (
        ["ambiguities", FILE, "--only", "CS-ROLLS"],
        ["ambiguities", FILE, "--only", "CS-ROLLS", "--check"],
    ),
    "--no-check": (
        ["stonespine", "policy", *BASES[("stonespine", "policy")]],
        ["stonespine", "policy", *BASES[("stonespine", "policy")], "--no-check"],
    ),
    "--no-cache": (
        ["rulings", "--game", "cloudspire", "--workers", "1", "--cache-dir", "$TMP/cache"],
        ["rulings", "--game", "cloudspire", "--workers", "1", "--cache-dir", "$TMP/cache", "--no-cache"],
    ),
    "--search": (CS_ROLLS_ANALYSIS, [*CS_ROLLS_ANALYSIS, "--search", "--examples", "3"]),
    "--wellformed": (CS_ROLLS_ANALYSIS, [*CS_ROLLS_ANALYSIS, "--wellformed", "--examples", "3"]),
    "--verbose": (
        ["ambiguities", FILE, "--only", "CS-ROLLS", "--check"],
        ["ambiguities", FILE, "--only", "CS-ROLLS", "--check", "--verbose"],
    ),
    # ... or the test that shows it, where a demonstration takes minutes (PATH::TEXT: the file
    # holds TEXT, by default the flag in quotes)
    "--no-fixtures": "tests/ambiguity/test_report_runtime.py",
    "--no-search": "tests/ambiguity/test_report_html.py",
    "--no-long": "tests/ambiguity/test_report_html.py",
    "--update": "tests/fixtures/test_generation.py::update=True",
    "--smoke": "tests/conform/test_protocol_v2.py::smoke_subset",
    "--graded-only": "tests/conform/test_protocol_v2.py",
    "--fuzz": "tests/conform/test_fuzz.py",
    "--accept": "tests/cli/test_changes.py::test_check_fails_on_a_change_and_passes_after_accept",
    "--long-searches": "tests/cli/test_changes_fast.py",
}
"""How each flag (an option without a value) of any verb is shown to take effect. A new flag
fails :func:`test_every_flag_is_shown_to_take_effect` until it has a line here."""

REFUSED: list[list[str]] = [
    # options of every ruling's searches, with a scenario file: nothing is searched
    *(
        ["ambiguities", FILE, *extra]
        for extra in (
            ["--search"],
            ["--wellformed"],
            ["--write", "$TMP"],
            ["--examples", "5"],
            ["--time-limit", "5"],
            ["--fixtures", "fixtures"],
        )
    ),
    ["cloudspire", "ambiguities", FILE, "--search"],
    # bounds and outputs without what they bound
    ["ambiguities", "--write", "$TMP"],
    ["ambiguities", "--examples", "5"],
    ["ambiguities", "--time-limit", "5"],
    ["ambiguities", "--verbose"],
    ["report", "--no-search", "--examples", "5"],
    ["report", "--no-search", "--time-limit", "5"],
    ["stonespine", "min-damage", SS, "--what", "minions", "--heroes", "red", "--hero", "red"],
    ["stonespine", "min-damage", SS, "--what", "minions", "--heroes", "red", "--token", "ooze"],
    ["stonespine", "min-damage", SS, "--what", "health", "--hero", "red", "--limit", "3"],
    ["stonespine", "min-damage", SS, "--what", "health", "--hero", "red", "--heroes", "red"],
    ["conform", "--cmd", ORACLE, "--smoke", "--graded-only"],
    ["conform", "--cmd", ORACLE, "--smoke", "--json", "--max-failures", "3"],
    ["conform", "--cmd", ORACLE, "--fuzz", "--dir", "fixtures"],
    ["conform", "--cmd", ORACLE, "--examples", "5"],
    ["changes", "--data", "tests/cli/data/stonespine-barbarian-5.json", "--cases", "dice", "--long-searches"],
    # contradictions
    ["ambiguities", "--fixtures", "fixtures", "--no-fixtures"],
    ["games", "--format", "md", "--json"],
    ["fixtures", "generate", "--check", "--update"],
    # names that match nothing
    ["conform", "--cmd", ORACLE, "--game", "vulketh", "--features", "NOT-A-FEATURE"],
    ["ambiguities", "--only", "NOT-A-RULING"],
    # values parsed before any job is looked up in the cache
    ["rulings", "--scheduler", "GARBAGE"],
    ["ambiguities", "--scheduler", "GARBAGE"],
    ["report", "--scheduler", "GARBAGE"],
]
"""Combinations in which an option would do nothing (or contradict another): each is refused
with exit 2 and one line naming an option of it."""


def flags() -> dict[str, list[str]]:
    """Every flag of any verb, with the verbs that have it."""
    found: dict[str, list[str]] = {}
    for path, parser in VERBS:
        for action in options(parser):
            if action.nargs == 0:
                found.setdefault(action.option_strings[-1], []).append(" ".join(path))
    return found


def _answer(result: Result, case_folder: Path) -> str:
    """What a command answered, without the echo of its own command line (every option changes
    that) and the folder of the test."""
    text = f"{result.status}\n{result.out}\n{result.err}".replace(str(case_folder), "$TMP")
    text = re.sub(r"Reproduce: `[^`]*`", "", text)
    text = re.sub(r"\b[0-9]+(\.[0-9]+)? ?(s|ms|seconds)\b", "N s", text)  # timings
    return re.sub(r'"command": "[^"]*"', "", text)


def test_every_flag_is_shown_to_take_effect() -> None:
    missing = {flag: where for flag, where in flags().items() if flag not in FLAG_DEMOS}
    assert not missing, f"show these flags taking effect in FLAG_DEMOS: {missing}"
    for flag, demo in FLAG_DEMOS.items():
        if isinstance(demo, str):
            path, _, needle = demo.partition("::")
            text = (ROOT / path).read_text(encoding="utf-8")
            assert (needle or f'"{flag}"') in text, f"{path} does not show {flag}"


@pytest.mark.parametrize("flag", [f for f, d in FLAG_DEMOS.items() if not isinstance(d, str)])
def test_a_flag_changes_the_answer(flag: str, case_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    without, with_flag = FLAG_DEMOS[flag]
    fill = [[word.replace("$TMP", str(case_folder)) for word in argv] for argv in (without, with_flag)]
    first, second = (run(argv, case_folder, seconds=120) for argv in fill)
    assert not first.crash and not second.crash, first.crash or second.crash
    assert first.status in (0, 1) and second.status in (0, 1), (first.err, second.err)
    assert _answer(first, case_folder) != _answer(second, case_folder), f"{flag} changed nothing"


@pytest.mark.parametrize("argv", REFUSED, ids=[" ".join(a) for a in REFUSED])
def test_a_combination_that_would_do_nothing_is_refused(
    argv: list[str], case_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    filled = [word.replace("$TMP", str(case_folder)) for word in argv]
    result = run(filled, case_folder)
    assert not result.crash, result.crash
    assert result.status == 2 and result.err.count("\n") == 1, (result.status, result.err)
    named = [word for word in argv if word.startswith("--") and word in result.err]
    assert named, f"the line names no option of {argv}: {result.err!r}"

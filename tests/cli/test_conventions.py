"""Command-line conventions shared by every game: typed values, output paths, one-line errors,
escaped output, quoted commands, exit statuses, a fast --help."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from invasion_oracle.reports.cli import main
from tests.in_process import run_invasion

SCENARIO = "example:stonespine/default.json"


def run_cli(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The real command, for what only a process shows (standard input, start-up)."""
    return subprocess.run(
        [sys.executable, "-m", "invasion_oracle.reports.cli", *argv],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["stonespine", "simulate", SCENARIO, "--out", "/"], "expected a file name"),
        (["stonespine", "simulate", SCENARIO, "--out", "/proc/x.md"], "cannot write in '/proc'"),
        (["stonespine", "simulate", SCENARIO, "--format", "yaml"], "invalid choice"),
        (["--max-input-size", "lots", "games"], "expected a size"),
        (["simulate"], "required: scenario"),
    ],
)
def test_bad_option_values_are_one_line_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    done = run_invasion(capsys, *argv)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_output_paths_are_checked_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    file = tmp_path / "a-file"
    file.write_text("x", encoding="utf-8")
    for bad, reason in [
        (str(folder), "is a folder"),
        (str(file / "x.md"), "is not a folder"),
        (str(tmp_path / "missing" / "x.md"), "does not exist"),
    ]:
        done = run_invasion(capsys, "stonespine", "simulate", SCENARIO, "--out", bad)
        assert done.returncode == 2 and reason in done.stderr, (bad, done.stderr)


def test_control_characters_in_names_are_made_visible(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(Path("examples/stonespine/default.json").read_text(encoding="utf-8"))
    document["players"][0]["name"] = "Ann\x1b]0;owned\x07"
    path = tmp_path / "x;touch P;.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    done = run_invasion(capsys, "stonespine", "simulate", str(path))
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "Ann\\x1b]0;owned\\x07" in done.stdout
    assert f"Reproduce: `invasion stonespine simulate '{path}'`" in done.stdout


def test_an_internal_error_is_one_line_and_status_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from invasion_oracle.reports import cli, verbs

    def broken(args: object) -> int:
        raise ZeroDivisionError("boom")

    monkeypatch.delenv("INVASION_DEBUG", raising=False)
    monkeypatch.setattr(verbs, "_games", broken)
    cli._parser.cache_clear()  # the parser took the verb's function when it was built
    try:
        assert main(["games"]) == 3
    finally:
        cli._parser.cache_clear()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error in `invasion games`" in err and "report" in err


def test_version_and_a_fast_help(capsys: pytest.CaptureFixture[str]) -> None:
    done = run_invasion(capsys, "--version")
    assert done.returncode == 0 and done.stdout.startswith("invasion-oracle ")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "invasion_oracle.reports.cli", "--help"],
        capture_output=True,
        check=True,
        env=env,
    )
    elapsed = time.perf_counter() - started
    # Not a timing test of our code (benchmarks do that): a guard that --help imports no game,
    # checked by the modules it loads.
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, contextlib, io\n"
            "from invasion_oracle.reports.cli import build_parser\n"
            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
            "    build_parser(['--help']).parse_args(['--help'])\n"
            # a search's one-sentence question (solver/vulketh/race_question.py) is text, not a solver
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('z3', 'networkx', 'jsonschema') or (m.startswith('solver.') and not m.endswith('_question')) or m.startswith('invasion_oracle.model.stonespine')))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert probe.stdout.strip() == "[]", probe.stdout
    assert elapsed < 5  # generous: the machine may be loaded; the import check above is the real guard


def test_stdin_is_a_file_named_dash() -> None:
    text = Path("examples/stonespine/default.json").read_text(encoding="utf-8")
    done = run_cli("simulate", "-", "--format", "json", stdin=text)
    assert done.returncode == 0, done.stderr
    envelope = json.loads(done.stdout)
    assert envelope["game"] == "stonespine" and envelope["status"] == "done"
    assert envelope["command"] == "invasion simulate - --format json"


def test_json_output_is_the_envelope_for_listings(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["games", "--json"],
        ["examples", "--json"],
        ["rulings", "--game", "cloudspire", "--json"],  # every game's: tests/stonespine/test_cli.py
        ["stonespine", "data", "--json"],
    ):
        assert main(argv) == 0
        envelope = json.loads(capsys.readouterr().out)
        assert set(envelope) == {"game", "query", "command", "status", "answer", "replayed"}, argv


def test_text_tables_fit_a_hundred_columns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulings", "--format", "text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and max(len(line) for line in lines) <= 100


# -- scripts longer than their run ----------------------------------------------------------------

DEFAULT_RUNS = {
    "stonespine": "examples/stonespine/default.json",
    "spirit-island": "examples/spirit_island/invader_phase.json",
    "vulketh": "examples/vulketh/solo_game.json",
    "cloudspire": "examples/cloudspire/round.json",
}


@pytest.mark.parametrize("game", sorted(DEFAULT_RUNS))
def test_an_answer_the_run_never_used_is_named_on_stderr(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same run, its recorded chance results given as the script plus one more: the run is
    unchanged (exit 0) and the extra result is named by its place, not ignored."""
    from invasion_oracle.model import registry
    from invasion_oracle.model.core.jsonio import read_json_file
    from invasion_oracle.model.core.play import run
    from invasion_oracle.model.core.spec import ScenarioOptions

    registry.load_all()
    path = Path(__file__).parents[2] / DEFAULT_RUNS[game]
    document = read_json_file(path)
    spec = registry.spec(game)
    scenario = spec.load(document, str(path), ScenarioOptions())
    outcomes = run(scenario).chance_outcomes()
    assert outcomes, "the example rolls or draws"
    key = scenario.chance_key
    document[key] = {"script": [*outcomes, outcomes[-1]], "then": "none"}
    document["decisions"] = {"script": run(scenario).decisions(), "then": "none"}
    longer = tmp_path / "longer.json"
    longer.write_text(json.dumps(document), encoding="utf-8")
    result = run_invasion(capsys, game, "simulate", str(longer))
    assert result.returncode == 0, result.stderr
    assert (
        f"warning: {longer}:$.{key}.script[{len(outcomes)}]: 1 of the {len(outcomes) + 1} answers"
        in result.stderr
    )
    assert "decisions" not in result.stderr

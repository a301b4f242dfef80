"""The runner against the oracle adapter, broken adapters and misbehaving programs.

The oracle adapter must pass; each broken adapter must fail exactly where its faults are (the
cases are named here); a program that hangs, crashes or prints garbage is reported and the run
goes on; the runner never hangs and never runs a shell.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from invasion_oracle.reports.cli import main
from invasion_oracle.reports.conform.protocol import bye, decode, hello, message
from invasion_oracle.reports.conform.runner import Options, Run, run_cases
from tests.suite_cases import all_cases

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
ADAPTERS = ROOT / "examples" / "adapters"
PYTHON = shlex.quote(sys.executable)
ORACLE = f"{PYTHON} {shlex.quote(str(ADAPTERS / 'oracle.py'))}"


def _run(command: str, prefixes: tuple[str, ...], timeout: float = 10.0) -> Run:
    return run_cases(all_cases(), Options(command, cases=prefixes, folder=FIXTURES, timeout=timeout))


def _outcomes(run: Run) -> dict[str, str]:
    return {r.case.id: r.outcome for r in run.graded}


SUBSET = (
    "stonespine/entering/minions",
    "stonespine/heroes/thief",
    "stonespine/rulings/exit-y13-action",
    "stonespine/hero-order/order-choice-any",
    "stonespine/illegal/move-revisit",
    "stonespine/improvement/remove-rubble",
    "spirit-island/ravage/a5-3d",
    "spirit-island/fight-back/choice-3d-c-2e",
    "spirit-island/build/a5",
    "spirit-island/upgrade/downgrade-tat1-d",
    "spirit-island/illegal",
)


def test_the_oracle_adapter_passes_a_subset_with_every_reading(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["conform", "--cmd", ORACLE, "--format", "md"]
    for prefix in SUBSET:
        args += ["--case", prefix]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "PASSED (" in out and "| stonespine" in out and "| spirit-island" in out
    assert "SS-EXIT-Y13" in out and "configurable: follows the reading asked" in out


@pytest.mark.slow
def test_the_oracle_adapter_passes_every_case() -> None:
    run = _run(ORACLE, ())
    assert run.passed, [(r.case.id, r.outcome, r.detail) for r in run.results if r.outcome != "passed"][:5]
    assert len(run.graded) == len(all_cases())


def test_readings_and_features_asked_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "conform",
        "--cmd",
        ORACLE,
        "--case",
        "stonespine/rulings/exit-y13",
        "--case",
        "stonespine/entering",
        "--ruling",
        "SS-EXIT-Y13=ign",
        "--features",
        "monster,trap,escape",
        "--graded-only",
        "--json",
    ]
    assert main(args) == 0
    answer = json.loads(capsys.readouterr().out)["answer"]
    assert answer["requested"]["stonespine"]["SS-EXIT-Y13"] == "ignored"
    results = {r["id"]: r for r in answer["results"]}
    exit_case = results["stonespine/rulings/exit-y13-action"]
    assert exit_case["outcome"] == "passed" and exit_case["variant"] != 0  # the 'ignored' variant
    assert results["stonespine/entering/minions-1"]["outcome"] == "skipped"  # needs minion
    assert results["stonespine/entering/kobold-black"]["outcome"] == "passed"
    assert len(answer["results"]) == len(results)  # --graded-only: one variant per case


BROKEN_STONESPINE = f"{PYTHON} {shlex.quote(str(ADAPTERS / 'broken_stonespine.py'))}"
BROKEN_SPIRIT_ISLAND = f"{PYTHON} {shlex.quote(str(ADAPTERS / 'broken_spirit_island.py'))}"


def test_broken_stonespine_fails_where_its_rules_are_wrong() -> None:
    run = _run(
        BROKEN_STONESPINE,
        (
            "stonespine/entering/minions",
            "stonespine/entering/kobold",
            "stonespine/entering/guardian-and-minion",
            "stonespine/rulings/exit-y13-action",
        ),
    )
    outcomes = _outcomes(run)
    # minions deal one damage instead of two
    assert outcomes["stonespine/entering/minions-1"] == "failed"
    assert outcomes["stonespine/entering/minions-2"] == "failed"
    assert outcomes["stonespine/entering/minions-3"] == "failed"
    assert outcomes["stonespine/entering/kobold-black"] == "passed"
    assert outcomes["stonespine/entering/guardian-and-minion"] == "passed"  # the guardian acts first
    # the exit is ignored in years 1-3: the default reading's case fails, and the statement says so
    assert outcomes["stonespine/rulings/exit-y13-action"] == "failed"
    from invasion_oracle.reports.conform.report import compliance

    statement = {s["ruling"]: s["verdict"] for s in compliance(run)}
    assert statement["SS-EXIT-Y13"] == "follows ignored"
    assert not run.passed


def test_broken_spirit_island_fails_where_its_rules_are_wrong() -> None:
    run = _run(
        BROKEN_SPIRIT_ISLAND,
        (
            "spirit-island/build/a5",
            "spirit-island/ravage/defend-2",
            "spirit-island/ravage/a5-e",
            "spirit-island/fear/pool-4",
        ),
    )
    outcomes = _outcomes(run)
    # Build always adds a Town
    assert outcomes["spirit-island/build/a5-t"] == "failed"
    assert outcomes["spirit-island/build/a5-2t-c"] == "failed"
    assert outcomes["spirit-island/build/a5-e"] == "passed"
    assert outcomes["spirit-island/build/a5-c"] == "passed"
    # Defend ignored
    assert outcomes["spirit-island/ravage/defend-2-t"] == "failed"
    assert outcomes["spirit-island/ravage/a5-e"] == "passed"
    # destroyed Towns give no Fear
    assert outcomes["spirit-island/fear/pool-4-3d-t"] == "failed"
    assert not run.passed


@pytest.mark.slow
def test_broken_adapters_misbehave_and_the_run_goes_on() -> None:
    run = _run(BROKEN_STONESPINE, ("stonespine/gate", "stonespine/solo/jael"), timeout=3.0)
    outcomes = _outcomes(run)
    assert outcomes["stonespine/gate/continue"] == "timed-out"
    assert outcomes["stonespine/gate/close"] == "bad-reply"
    assert outcomes["stonespine/solo/jael-collects-xp"] == "crashed"
    assert outcomes["stonespine/gate/priority-order"] == "passed"
    assert run.restarts >= 2 and not run.aborted
    run = _run(BROKEN_SPIRIT_ISLAND, ("spirit-island/event",), timeout=3.0)
    outcomes = _outcomes(run)
    assert outcomes["spirit-island/event/omens"] == "crashed"
    assert outcomes["spirit-island/event/peaceful-season"] == "timed-out"
    assert outcomes["spirit-island/event/settlers-arrive"] == "bad-reply"
    assert outcomes["spirit-island/event/first-turn-skipped"] == "passed"


@pytest.mark.slow
def test_broken_adapters_over_the_whole_suite() -> None:
    for command, game in ((BROKEN_STONESPINE, "stonespine"), (BROKEN_SPIRIT_ISLAND, "spirit-island")):
        run = _run(command, (f"{game}/",), timeout=3.0)
        counts = {o: sum(1 for r in run.graded if r.outcome == o) for o in ("passed", "failed")}
        assert counts["failed"] > 10 and counts["passed"] > 50 and not run.aborted


# A tiny implementation (no oracle): answers hello, then crashes, hangs or prints garbage on the
# cases it is told, and says "unsupported" to the rest. Fast to start, so the restarts are cheap.
MISBEHAVING = """
import json, sys, time
print(json.dumps({"type": "hello", "name": "misbehaving"}), flush=True) if sys.stdin.readline() else None
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "bye":
        break
    if m["id"].endswith("/gate/continue"):
        time.sleep(60)
    if m["id"].endswith("/gate/close"):
        print("garbage", flush=True)
        continue
    if m["id"].endswith("/gate/illegal-open"):
        sys.exit(9)
    reply = {"type": "reply", "id": m["id"], "variant": m["variant"], "status": "unsupported", "reason": "toy"}
    print(json.dumps(reply), flush=True)
"""


def test_hangs_crashes_and_garbage_are_reported_and_the_run_goes_on() -> None:
    # The deadline is what the hang costs; the toy's other replies (a few lines of Python, running
    # since its hello) take milliseconds even on a loaded machine: 0.5 s is ample for them.
    run = _run(_script(MISBEHAVING), ("stonespine/gate/",), timeout=0.5)
    outcomes = _outcomes(run)
    assert outcomes["stonespine/gate/continue"] == "timed-out"
    assert outcomes["stonespine/gate/close"] == "bad-reply"
    assert outcomes["stonespine/gate/illegal-open"] == "crashed"
    assert outcomes["stonespine/gate/priority-order"] == "skipped"  # unsupported, after the restarts
    assert run.restarts == 2 and not run.aborted and run.passed is False


def _script(code: str) -> str:
    # -S: these programs need only the standard library, and Python starts in a third of the
    # CPU without the site packages (the runner restarts some of them five times)
    return f"{PYTHON} -S -c {shlex.quote(code)}"


def test_a_program_that_never_answers_hello_is_an_error_not_a_hang(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(
            [
                "conform",
                "--cmd",
                _script("import time; time.sleep(60)"),
                # it never answers at any load: a short wait for hello still sees it hang
                "--start-timeout",
                "0.1",
                "--case",
                "stonespine/gate",
            ]
        )
        == 2
    )
    assert "did not answer hello" in capsys.readouterr().err


def test_garbage_instead_of_hello_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "conform",
                "--cmd",
                _script("print('nope'); import sys; sys.stdin.read()"),
                "--timeout",
                "2",
                "--case",
                "stonespine/gate",
            ]
        )
        == 2
    )
    assert "not JSON" in capsys.readouterr().err


def test_an_unknown_command_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--cmd", "/no/such/program --x", "--case", "stonespine/gate"]) == 2
    assert "cannot start it" in capsys.readouterr().err


def test_no_shell_runs_the_command(tmp_path: Path) -> None:
    marker = tmp_path / "touched"
    command = f"{_script(MISBEHAVING)} ; touch {shlex.quote(str(marker))}"
    run = _run(command, ("stonespine/gate/escape",))
    assert not marker.exists()  # ';' and 'touch' were arguments of the program, not a shell's
    assert _outcomes(run)["stonespine/gate/escape-forces-close"] == "skipped"


def test_a_program_that_dies_after_hello_stops_after_five_crashes_in_a_row() -> None:
    code = (
        "import sys\n"
        "sys.stdin.readline()\n"
        'print(\'{"type": "hello", "name": "dies"}\', flush=True)\n'
        "sys.stdin.readline()\n"
        "sys.exit(3)\n"
    )
    run = _run(_script(code), ("stonespine/entering",), timeout=5.0)
    outcomes = [r.outcome for r in run.graded]
    assert outcomes[:5] == ["crashed"] * 5 and set(outcomes[5:]) == {"not-run"}
    assert "crashes, hangs or bad replies in a row" in run.aborted and not run.passed


def test_the_messages_follow_the_protocol_schema() -> None:
    assert decode(json.dumps(hello()).encode(), "hello")["version"] == 2
    assert decode(json.dumps(bye()).encode(), "bye") == {"type": "bye"}
    for case in all_cases()[::25]:
        for index in range(len(case.variants)):
            decode(json.dumps(message(case, index)).encode(), "case")


def test_bad_options_are_clear_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--cmd", ""]) == 2
    assert "--cmd:$: the command is empty" in capsys.readouterr().err
    assert main(["conform", "--cmd", ORACLE, "--case", "no/such/case"]) == 2
    assert "no case matches" in capsys.readouterr().err
    assert main(["conform", "--cmd", ORACLE, "--ruling", "SS-EXIT-Y13"]) == 2
    assert "expected ID=READING" in capsys.readouterr().err

"""``--engine both`` cut short at each stage, in every game: only what finished is said to agree.

Each search runs in process on a small instance. The engine of stage ``k`` is wrapped so that, as
it starts, the command is stopped the way a user stops it: a real SIGINT to this process (caught
by the command's own Ctrl-C handler), or its ``--time-limit`` running out. The engine then stops
at its first check; the engines after it are never started. The text and the JSON must name the
engines that finished (and only those agree), name the stopped one with why, and never say
``proven``.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.reports.cli import main
from invasion_oracle.reports.options import RUNNING

STOPS = ("interrupted", "time-limit")
STOP_WORDS = {"interrupted": "interrupted by Ctrl-C", "time-limit": "stopped by the time limit"}


def _stop_now(how: str) -> None:
    """Stop the running command as its user would: Ctrl-C, or its time limit running out."""
    deadline = RUNNING.get()
    assert deadline is not None, "the stage runs outside a search command"
    if how == "interrupted":
        os.kill(os.getpid(), signal.SIGINT)  # the command's handler marks its deadline stopped
        assert deadline.stopped(), "the command's Ctrl-C handler did not see the signal"
    else:
        deadline.seconds = max(deadline.elapsed(), 1e-9)  # the whole command's limit is now up


# The answers of the engines that finish before the stop, by (the command, engine, call): each is
# searched once in this process, by the first run that finishes it, and the runs after read it (the
# same question, the same answer: the searches are deterministic). From the stop on, every call
# runs: the stopped engine, and any engine's later call, which must see the stop itself.
FINISHED: dict[tuple[str, str, int], Any] = {}


def _wrap(
    monkeypatch: pytest.MonkeyPatch, module: Any, name: str, stage: int, how: str, command: str
) -> list[str]:
    """Wrap ``module.name`` (the engine entry the command calls for each engine) so that the first
    call of stage ``stage`` (0-based) starts with the command stopped; returns the engines called.
    The calls of the engines before it are answered from :data:`FINISHED` once searched."""
    real = getattr(module, name)
    called: list[str] = []
    calls: dict[str, int] = {}

    def engine_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
        for key in ("engine", "method"):
            if key in kwargs:
                return {"oracle": "baseline"}.get(kwargs[key], kwargs[key])  # Stonespine's old name
        return str(args[-1])

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        engine = engine_of(args, kwargs)
        if engine not in called:
            called.append(engine)
            if len(called) - 1 == stage:
                _stop_now(how)
                if how == "time-limit" and "seconds" in kwargs:
                    kwargs["seconds"] = 1e-6  # an engine given its share of the time left: none is left
        if len(called) > stage:  # stopped: the engine's own check must see it (an engine may call again)
            return real(*args, **kwargs)
        calls[engine] = calls.get(engine, 0) + 1
        key = (command, engine, calls[engine])
        if key not in FINISHED:
            FINISHED[key] = real(*args, **kwargs)
        return FINISHED[key]

    monkeypatch.setattr(module, name, wrapped)
    return called


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err, captured.err
    return code, captured.out


def _check(
    engines: tuple[str, ...],
    stage: int,
    how: str,
    text: str,
    envelope: dict[str, Any],
    engine_field: Callable[[dict[str, Any]], list[str]] = lambda e: [e["answer"]["engine"]],
) -> None:
    """The claims of one ``both`` run stopped at ``stage``: the envelope lists the engines before
    it as finished and the rest as not, the status is not proven, ``engine`` names only finished
    engines, and the text names the stopped engine and says "agree" only of those that finished."""
    from invasion_oracle.model.core.jsonio import load_schema, validate

    validate(envelope, load_schema("invasion_oracle.reports", "schemas/envelope.schema.json"), "the envelope")
    finished, stopped = list(engines[:stage]), engines[stage]
    assert envelope["status"] != "proven", envelope["status"]
    assert envelope["stopped"] == how
    record = envelope["engines"]
    assert record["finished"] == finished
    unfinished = {run["engine"]: run for run in record["unfinished"]}
    assert list(unfinished) == list(engines[stage:])
    assert unfinished[stopped] == {"engine": stopped, "stopped": how, "started": True}
    for later in engines[stage + 1 :]:
        assert unfinished[later] == {"engine": later, "stopped": how, "started": False}
    for label in engine_field(envelope):
        named = label.split("+")
        assert named == (finished or [engines[0]]), label
    # the text: the stopped stage named with why, "agree" only of the finished ones
    assert f"{stopped} {STOP_WORDS[how]}" in text, text
    for later in engines[stage + 1 :]:
        assert f"{later} not started ({STOP_WORDS[how]})" in text, text
    assert "status proven" not in text and "status: proven" not in text
    if len(finished) >= 2:
        assert f"{' and '.join([', '.join(finished[:-1]), finished[-1]])} finished (agree)" in text, text
    else:
        assert "(agree)" not in text and "agree)" not in text, text


def _both(
    argv: list[str],
    engines: tuple[str, ...],
    module: Any,
    name: str,
    stage: int,
    how: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    **check: Any,
) -> None:
    """Run ``argv`` (an ``--engine both`` search) twice, text then JSON, stopped at ``stage``."""
    outputs = []
    command = " ".join(Path(a).name if Path(a).is_absolute() else a for a in argv)  # tmp_path aside
    if how == "time-limit":
        argv = [*argv, "--time-limit", "600"]  # far more than the search needs: the wrapper ends it
    for form in ([], ["--json"]):
        with monkeypatch.context() as patch:
            called = _wrap(patch, module, name, stage, how, command)
            code, out = _run([*argv, *form], capsys)
        assert called == list(engines[: stage + 1]), called  # the engines after the stop never start
        assert code == (130 if how == "interrupted" else 0)
        outputs.append(out)
    _check(engines, stage, how, outputs[0], json.loads(outputs[1]), **check)


# -- Vul'Keth -------------------------------------------------------------------------------------------


@pytest.fixture
def race_file(tmp_path: Path) -> Iterator[str]:
    from tests.vulketh.test_searches import RACE

    path = tmp_path / "race.json"
    path.write_text(json.dumps(RACE), encoding="utf-8")
    yield str(path)


RACE_ENGINES = ("z3", "cpsat", "compiled", "baseline")


@pytest.mark.parametrize("how", STOPS)
@pytest.mark.parametrize("stage", range(len(RACE_ENGINES)))
def test_vulketh_race_both_stopped_at_each_stage(
    stage: int, how: str, race_file: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import invasion_oracle.solver.vulketh.race as race

    _both(
        ["vulketh", "race", race_file, "--engine", "both"],
        RACE_ENGINES,
        race,
        "race",
        stage,
        how,
        monkeypatch,
        capsys,
    )


CLEAR_ENGINES = ("z3", "cpsat", "baseline")


@pytest.mark.parametrize("how", STOPS)
@pytest.mark.parametrize("stage", range(len(CLEAR_ENGINES)))
def test_vulketh_clear_both_stopped_at_each_stage(
    stage: int, how: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import invasion_oracle.solver.vulketh.clear as clear

    argv = [
        "vulketh",
        "clear",
        "example:vulketh/clear_hex.json",
        "--hex",
        "7",
        "--members",
        "1",
        "--hexes",
        "7",
    ]
    _both([*argv, "--engine", "both"], CLEAR_ENGINES, clear, "clear_hex", stage, how, monkeypatch, capsys)


@pytest.mark.parametrize(("stage", "how"), [(0, "interrupted"), (1, "interrupted"), (1, "time-limit")])
def test_vulketh_differ_both_stopped_at_each_stage(
    stage: int, how: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import invasion_oracle.solver.vulketh.differ as differ

    _both(
        ["vulketh", "differ", "--ruling-id", "VK-MOVE-HIGHEST", "--max-size", "2", "--engine", "both"],
        ("z3", "baseline"),
        differ,
        "smallest_difference",
        stage,
        how,
        monkeypatch,
        capsys,
        engine_field=lambda envelope: [a["engine"] for a in envelope["answer"]],
    )


def test_a_both_that_finished_still_agrees(race_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The control: nothing stopped, every engine named, proven, no ``engines.unfinished``."""
    code, out = _run(["vulketh", "race", race_file, "--engine", "both", "--json"], capsys)
    envelope = json.loads(out)
    assert code == 0 and envelope["status"] == "proven" and "stopped" not in envelope
    assert envelope["engines"] == {"finished": list(RACE_ENGINES), "unfinished": []}
    assert envelope["answer"]["engine"] == "+".join(RACE_ENGINES)


# -- Stonespine -----------------------------------------------------------------------------------------

PLACEMENT = "example:stonespine/placement.json"
# verb, its arguments, its engines (--engine names), the solver module and the function called per engine
STONESPINE = {
    "routes": (
        [PLACEMENT, "--hero", "red"],
        ("search", "z3", "baseline"),
        "invasion_oracle.solver.stonespine.routes",
        "solve_routes",
    ),
    "wave": (
        [PLACEMENT, "--heroes", "red,purple"],
        ("search", "z3", "baseline"),
        "invasion_oracle.solver.stonespine.waves",
        "solve_wave",
    ),
    "min-damage": (
        ["--heroes", "red,purple,black", "--limit", "3"],
        ("search", "z3", "cpsat"),
        "invasion_oracle.solver.stonespine.min_damage",
        "fewest_minions",
    ),
    "escape": (
        [PLACEMENT, "--hero", "red", "--elements", "chest"],
        ("search", "z3"),
        "invasion_oracle.solver.stonespine.escape_search",
        "fill_free_spaces",
    ),
    "place": (
        ["--top", "5"],
        ("search", "z3", "cpsat", "baseline"),
        "invasion_oracle.solver.stonespine.solve",
        "solve_placement",
    ),
}


def _stonespine_cases() -> Iterator[Any]:
    for verb, (_, engines, _, _) in STONESPINE.items():
        for stage in range(len(engines)):
            yield pytest.param(verb, stage, "interrupted", id=f"{verb}-{stage}-interrupted")
        yield pytest.param(verb, len(engines) // 2, "time-limit", id=f"{verb}-{len(engines) // 2}-time-limit")


@pytest.mark.parametrize(("verb", "stage", "how"), list(_stonespine_cases()))
def test_stonespine_both_stopped_at_each_stage(
    verb: str,
    stage: int,
    how: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import importlib

    from invasion_oracle.solver.stonespine.generate import study_document
    from tests.solver_stonespine.instances import SMALL

    arguments, engines, module, function = STONESPINE[verb]
    if verb in ("min-damage", "place"):  # a small generated grid: every engine takes well under a second
        grid = tmp_path / "grid.json"
        small = study_document(2, 3, seed=6, elements=0.4, bonus=2, year=4) if verb == "min-damage" else None
        grid.write_text(json.dumps(small or study_document(**SMALL)), encoding="utf-8")
        arguments = [str(grid), *arguments]
    _both(
        ["stonespine", verb, *arguments, "--engine", "both"],
        engines,
        importlib.import_module(module),
        function,
        stage,
        how,
        monkeypatch,
        capsys,
    )


# -- Spirit Island --------------------------------------------------------------------------------------

SI_ENGINES = ("z3", "cpsat", "baseline")
ISLAND = "example:spirit_island/island_search.json"
SPIRIT_ISLAND = {  # verb: its arguments, the solver module and the function called once per engine
    "fear-threshold": (
        ["--land", "C 2T E", "--fear", "3", "--pool", "3"],
        "fear_threshold",
        "least_damage_for_fear",
    ),
    "fight-back": (["--land", "C 2T E", "--dahan", "2"], "fear_threshold", "best_fight_back"),
    "defend": (["--land", "C T 2D", "--goal", "no-blight"], "defend", "least_defend"),
    "cascade": (["example:spirit_island/invader_phase.json", "--card", "1M"], "cascade", "card_cascades"),
    "lands": ([ISLAND], "island_search", "search_facts"),
    "flip": ([ISLAND, "--fact", "1:explore:A4", "--max-cost", "2"], "island_search", "smallest_flip"),
}


def _spirit_island_cases() -> Iterator[Any]:
    for verb in SPIRIT_ISLAND:
        for stage in range(len(SI_ENGINES)):
            yield pytest.param(verb, stage, "interrupted", id=f"{verb}-{stage}-interrupted")
        yield pytest.param(verb, 1, "time-limit", id=f"{verb}-1-time-limit")


@pytest.mark.parametrize(("verb", "stage", "how"), list(_spirit_island_cases()))
def test_spirit_island_both_stopped_at_each_stage(
    verb: str, stage: int, how: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    arguments, module, function = SPIRIT_ISLAND[verb]

    def engine_fields(envelope: dict[str, Any]) -> list[str]:
        answer = envelope["answer"]
        fields = [answer["engine"]]
        if "engines" in answer:
            fields.append("+".join(answer["engines"]))
        return fields

    _both(
        ["spirit-island", verb, *arguments, "--engine", "both"],
        SI_ENGINES,
        importlib.import_module(f"invasion_oracle.solver.spirit_island.{module}"),
        function,
        stage,
        how,
        monkeypatch,
        capsys,
        engine_field=engine_fields,
    )


# -- Cloudspire -----------------------------------------------------------------------------------------
# Its solvers run the engines themselves (through run_engines, in their own order: the baseline
# first, its checks cached for the others), so the stop comes from the engine function run_engines
# is handed.


def _wrap_engines(monkeypatch: pytest.MonkeyPatch, module: Any, stage: int, how: str) -> list[str]:
    from invasion_oracle.solver import common

    called: list[str] = []

    def run_engines(engines: Any, solve: Any, deadline: Any, finished: Any = common.is_proven) -> Any:
        def stopping(engine: str) -> Any:
            called.append(engine)
            if len(called) - 1 == stage:
                _stop_now(how)
            return solve(engine)

        return common.run_engines(engines, stopping, deadline, finished)

    monkeypatch.setattr(module, "run_engines", run_engines)
    return called


def _cloudspire_documents() -> dict[str, dict[str, Any]]:
    from invasion_oracle.model.cloudspire.data import default_data
    from invasion_oracle.model.core.jsonio import read_json_file
    from tests.cloudspire.helpers import doc, only_pool

    engagement = read_json_file("example:cloudspire/engagement.json")
    committed = {"B1": "hit", "Y1": "crit", "G1": "miss"}
    banished = [d for d in default_data().dice.names() if d not in committed and d != "B2"]
    engagement["state"]["dice"] = {"committed": committed, "banished": banished}  # B2 in the pool
    return {
        "engagement": engagement,
        "survive": doc(
            health=1,
            strategy=1,
            lanes={"bottom": ["Log Runner"]},
            deployment=["Bark Brute"],
            dice=only_pool("B1"),
        ),
        "spires": doc(
            health=2,
            inventory=["Water Tower", "Gale Chime"],
            lanes={"bottom": ["Log Runner"]},
            deployment=["Aegis"],
            dice=only_pool(),
        ),
    }


CLOUDSPIRE = {  # verb: its extra arguments, its engines in the order they run, the solver module
    "engagement": ([], ("baseline", "z3", "cpsat"), "engagement"),
    "survive": ([], ("grouped", "per-die"), "survival"),
    "spires": (["--bound", "1"], ("baseline", "z3", "cpsat"), "spire_cover"),
}


def _cloudspire_cases() -> Iterator[Any]:
    for verb, (_, engines, _) in CLOUDSPIRE.items():
        for stage in range(len(engines)):
            yield pytest.param(verb, stage, "interrupted", id=f"{verb}-{stage}-interrupted")
        yield pytest.param(verb, 1, "time-limit", id=f"{verb}-1-time-limit")


@pytest.mark.parametrize(("verb", "stage", "how"), list(_cloudspire_cases()))
def test_cloudspire_both_stopped_at_each_stage(
    verb: str,
    stage: int,
    how: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import importlib

    arguments, engines, module = CLOUDSPIRE[verb]
    path = tmp_path / f"{verb}.json"
    path.write_text(json.dumps(_cloudspire_documents()[verb]), encoding="utf-8")
    solver = importlib.import_module(f"invasion_oracle.solver.cloudspire.{module}")
    outputs = []
    argv = ["cloudspire", verb, str(path), *arguments, "--engine", "both"]
    if how == "time-limit":
        argv += ["--time-limit", "600"]
    for form in ([], ["--json"]):
        with monkeypatch.context() as patch:
            called = _wrap_engines(patch, solver, stage, how)
            code, out = _run([*argv, *form], capsys)
        assert called == list(engines[: stage + 1]), called
        assert code == (130 if how == "interrupted" else 0)
        outputs.append(out)
    envelope = json.loads(outputs[1])
    _check(engines, stage, how, outputs[0], envelope, engine_field=lambda e: [])
    # the answer's engine: the finished ones (in the game's naming order), else the first to run
    assert set(envelope["answer"]["engine"].split("+")) == set(engines[:stage] or engines[:1])
    if stage < 2:
        assert envelope["answer"]["agree"] is None  # fewer than two engines finished: nothing compared


# -- end to end: a real Ctrl-C from outside, the JSON through a pipe -------------------------------------

# The command as `invasion` runs it, but the baseline stage (the last) announces itself on stderr and
# waits for the signal, so that it lands in that stage however busy the machine is.
BOOT = """
import sys, time
import invasion_oracle.solver.vulketh.race as race
from invasion_oracle.reports.cli import main
from invasion_oracle.reports.options import RUNNING
real = race.race
def staged(*args, **kwargs):
    if kwargs.get("engine") == "baseline":
        print("STAGE baseline", file=sys.stderr, flush=True)
        give_up = time.monotonic() + 120
        while not RUNNING.get().stopped() and time.monotonic() < give_up:
            time.sleep(0.01)
    return real(*args, **kwargs)
race.race = staged
sys.exit(main(sys.argv[1:]))
"""


def test_ctrl_c_in_the_baseline_stage_of_a_race_is_not_called_agreed(race_file: str) -> None:
    """Issue 33's report, end to end: `vulketh race --engine both --json` in a pipe, Ctrl-C while
    the baseline runs. It said `status: proven` and `engine: z3+cpsat+compiled+baseline`."""
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-c", BOOT, "vulketh", "race", race_file, "--engine", "both", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "INVASION_DEBUG": "1"},
    )
    assert process.stderr is not None
    seen = process.stderr.readline()
    assert seen.strip() == "STAGE baseline", seen + process.stderr.read()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err[-800:]
    envelope = json.loads(out)
    assert envelope["status"] == "best-found" and envelope["stopped"] == "interrupted"
    assert envelope["answer"]["engine"] == "z3+cpsat+compiled"
    assert envelope["engines"] == {
        "finished": ["z3", "cpsat", "compiled"],
        "unfinished": [{"engine": "baseline", "stopped": "interrupted", "started": True}],
    }


# -- the shared record ----------------------------------------------------------------------------------


def test_run_engines_names_what_became_of_each_engine() -> None:
    from invasion_oracle.solver.common import (
        Deadline,
        EngineRun,
        EngineRuns,
        Status,
        run_engines,
    )

    class Answer:
        def __init__(self, status: Status) -> None:
            self.status = status

    deadline = Deadline()

    def solve(engine: str) -> Answer:
        if engine == "b":
            return Answer(Status.UNKNOWN)  # gave up: no limit, no Ctrl-C
        if engine == "c":
            raise deadline.trip("time")
        return Answer(Status.PROVEN)

    answers, runs = run_engines(("a", "b", "c", "d"), solve, deadline)
    assert len(answers) == 2  # a and b answered; c raised; d was never started
    assert runs.runs == (
        EngineRun("a"),
        EngineRun("b", "gave-up"),
        EngineRun("c", "time-limit"),
        EngineRun("d", "time-limit", started=False),
    )
    assert runs.label() == "a" and runs.status("proven") == "best-found" and not runs.complete
    assert runs.words() == (
        "a finished; b gave up without an answer; c stopped by the time limit; "
        "d not started (stopped by the time limit): not compared"
    )
    assert deadline.tripped == "time"  # the command still knows it was cut (its envelope's stopped)
    # several questions asked of the same engines: an engine finished only if it finished each
    first = EngineRuns((EngineRun("z3"), EngineRun("baseline")))
    second = EngineRuns((EngineRun("z3", "interrupted"), EngineRun("baseline")))
    merged = first.merged(second)
    assert merged.finished == ("baseline",) and merged.unfinished == (EngineRun("z3", "interrupted"),)
    assert merged.to_json() == {
        "finished": ["baseline"],
        "unfinished": [{"engine": "z3", "stopped": "interrupted", "started": True}],
    }
    assert first.words() == "z3 and baseline (agree)" and first.status("proven") == "proven"

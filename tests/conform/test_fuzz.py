"""``invasion conform --fuzz``: options, determinism, formats, steering, shrinking and sizes.

The quality tests (``tests/quality/test_fuzz_quality.py``) hold the fuzzer to the broken adapters;
here: every new flag takes effect or is refused, the same seed gives the same bytes, the JSON
meets its schema, an implementation's refusals steer generation away, and the shrinker's parts.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from invasion_oracle.model.core.jsonio import load_schema
from invasion_oracle.reports.cli import main
from invasion_oracle.reports.conform.fuzz import SHRINK_BROKEN, FuzzOptions, case_size, fuzz, shrink
from invasion_oracle.reports.conform.runner import load_cases
from invasion_oracle.reports.conform.shapes import Draft
from invasion_oracle.reports.suite.cases import Case
from invasion_oracle.reports.suite.specs import Stop

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = ROOT / "examples" / "adapters"
PYTHON = shlex.quote(sys.executable)
ORACLE = f"{PYTHON} {shlex.quote(str(ADAPTERS / 'oracle.py'))}"
PLAIN = f"{PYTHON} -S {shlex.quote(str(ADAPTERS / 'plain_spirit_island.py'))}"  # the standard library only


def _status(args: list[str]) -> int:
    """The exit status, whether the parser (SystemExit) or the command refused."""
    try:
        return main(args)
    except SystemExit as exit:
        return int(exit.code or 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "1"], "--seed: works with --fuzz only"),
        (["--save", "x"], "--save: works with --fuzz only"),
        (["--fuzz", "--dir", "fixtures"], "--dir: not with --fuzz"),
        (["--fuzz", "--case", "spirit-island/"], "--case: not with --fuzz"),
        (["--fuzz", "--smoke"], "--smoke: not with --fuzz"),
        (["--fuzz", "--format", "jsonl"], "--format: jsonl streams suite results"),
        (["--fuzz", "--cmd", "x=python3"], "--cmd: --fuzz runs one implementation"),
    ],
)
def test_fuzz_options_take_effect_or_are_refused(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _status(["conform", "--cmd", ORACLE, *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_save_to_an_unusable_path_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert _status(["conform", "--fuzz", "--cmd", ORACLE, "--save", str(blocker)]) == 2
    assert _status(["conform", "--fuzz", "--cmd", ORACLE, "--save", str(tmp_path / "no" / "such")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all("--save" in line for line in err)
    assert _status(["conform", "--fuzz", "--cmd", ORACLE, "--examples", "3", "--budget", "5"]) == 2
    assert _status(["conform", "--fuzz", "--cmd", ORACLE, "--jobs", "0"]) == 2


def test_the_same_seed_gives_the_same_report_in_every_format() -> None:
    from invasion_oracle.reports.conform.fuzz_report import render, render_json, render_junit

    argv = ["conform", "--fuzz", "--seed", "5"]
    runs = [
        fuzz(FuzzOptions(ORACLE, games=("vulketh",), seed=5, examples=4, jobs=jobs, progress=False))
        for jobs in (1, 2)  # --jobs does not change the report
    ]
    texts = [render(run, argv, 20) for run in runs]
    assert texts[0] == texts[1] and "PASSED" in texts[0] and "| vulketh |" in texts[0]
    assert render_json(runs[0], argv) == render_json(runs[1], argv)
    answer = json.loads(render_json(runs[0], argv))["answer"]
    import jsonschema

    jsonschema.validate(
        answer, load_schema("invasion_oracle.reports", "schemas/answer-conform-fuzz.schema.json")
    )
    assert answer["games"]["vulketh"]["graded"] == 4 and answer["seed"] == 5 and answer["budget"] is None
    junit = render_junit(runs[0])
    assert 'tests="1"' in junit and "<testsuite" in junit


def test_a_budget_says_the_count_it_reached(capsys: pytest.CaptureFixture[str]) -> None:
    # The budget counts from the implementation's hello, and the first chunk is drawn at once: a
    # slow machine reaches the budget sooner, and still generates that chunk.
    args = ["conform", "--fuzz", "--cmd", ORACLE, "--game", "spirit-island", "--budget", "0.2"]
    main([*args, "--format", "json"])
    answer = json.loads(capsys.readouterr().out)["answer"]
    assert answer["budget"] == "0.2" and answer["examples"] is None and answer["budget_reached"]
    assert answer["games"]["spirit-island"]["generated"] >= 1


def test_generation_steers_away_from_what_is_refused() -> None:
    # the plain adapter models one Ravage or Build in one land, at the state level, projections
    # land and action only: runs and Explores are answered unsupported, then no longer drawn
    options = FuzzOptions(
        PLAIN, games=("spirit-island",), seed=2, examples=50, shrink_attempts=10, progress=False
    )
    out = fuzz(options)
    tally = out.tallies["spirit-island"]
    assert tally.graded > 0 and tally.skipped > 0
    assert any(key in tally.dropped for key in ("shape run", "shape explore"))
    assert any(reason.startswith("unsupported: ") for reason in tally.skip_reasons)
    assert out.run.levels == ("state",)


def test_case_size_counts_pieces_lands_and_answers() -> None:
    prefixes = ("spirit-island/build/a5-t", "vulketh/grow-move/grow-fills")
    cases = {c.id: c for c in load_cases(ROOT / "fixtures", ("spirit-island", "vulketh"), prefixes)}
    assert case_size(cases["spirit-island/build/a5-t"]) == 4  # T in A5, the City kept in A8
    assert (
        case_size(cases["vulketh/grow-move/grow-fills-then-overflows"]) == 8
    )  # 5 Invaders, 2 hexes, 1 answer


def test_shrink_keeps_only_smaller_drafts_that_fail_the_same_way() -> None:
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.reports.conform.fuzz import realise_draft
    from invasion_oracle.reports.suite.spirit_island import doc

    scenario = doc({"A5": "2T C E D", "A2": "E"}, keep=False, invader_board={"build": ["1W"]})
    draft = Draft("spirit-island", "build", "build", scenario, "land:A5", Stop.before("draw"), "all")
    readings = Rulings.defaults("spirit-island").to_json()
    case = realise_draft(draft, readings, 1)
    assert case is not None

    def fails(candidate: Draft) -> tuple | None:  # "the bug": a Build in A5 with more Towns than Cities
        realised = realise_draft(candidate, readings, 1)
        lands = candidate.scenario.get("lands", {})
        text = lands.get("A5", "") if isinstance(lands, dict) else ""
        words = text.split() if isinstance(text, str) else []
        towns = sum(int(w[:-1] or 1) for w in words if w.endswith("T"))
        cities = sum(int(w[:-1] or 1) for w in words if w.endswith("C"))
        if realised is None or towns <= cities or "build" not in candidate.scenario.get("invader_board", {}):
            return None
        return realised, None

    small_draft, small, runs = shrink(draft, case, fails, 200)  # type: ignore[arg-type]
    assert small_draft.scenario["lands"] == {"A5": "T"} and case_size(small) < case_size(case) and runs > 0


@pytest.mark.parametrize(
    ("name", "failing", "passing"),
    [
        ("broken_vulketh", "vulketh/grow-move/grow-fills-then-overflows", "vulketh/grow-move/grow-single"),
        (
            "broken_cloudspire",
            "cloudspire/fire-steps/armored-crit-counts-one",
            "cloudspire/fire-steps/one-short",
        ),
    ],
)
def test_the_new_broken_adapters_fail_the_hand_written_case_that_catches_their_bug(
    name: str, failing: str, passing: str
) -> None:
    from invasion_oracle.reports.conform.runner import Options, run_cases

    game = failing.split("/")[0]
    cases = [
        c for c in load_cases(ROOT / "fixtures", (game,), (failing, passing)) if c.id in (failing, passing)
    ]
    command = f"{PYTHON} {shlex.quote(str(ADAPTERS / f'{name}.py'))}"
    run = run_cases(cases, Options(command, folder=ROOT / "fixtures", graded_only=True))
    outcomes = {r.case.id: r.outcome for r in run.graded}
    assert outcomes == {failing: "failed", passing: "passed"}


DECLARING = """
import json, sys
from invasion_oracle.reports.conform.adapter import answer_case

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "declaring", "protocol_version": 2,
                          "games": ["spirit-island"], "levels": ["state"],
                          "capabilities": {"projections": ["action", "land"], "boards": ["A", "B"],
                                           "features": ["ravage", "build", "dahan", "defend", "blight"]}}),
              flush=True)
    elif message["type"] == "bye":
        break
    else:
        reply = answer_case(message)
        print(json.dumps({k: v for k, v in reply.items() if k not in ("events", "requests", "pending")}),
              flush=True)
"""


def test_generation_keeps_to_the_declared_games_projections_and_features(tmp_path: Path) -> None:
    script = tmp_path / "declaring.py"
    script.write_text(DECLARING)
    out = fuzz(
        FuzzOptions(
            f"{PYTHON} {shlex.quote(str(script))}", seed=4, examples=25, shrink_attempts=5, progress=False
        )
    )
    assert list(out.tallies) == ["spirit-island"] and out.run.levels == ("state",)
    tally = out.tallies["spirit-island"]
    assert not out.failures and tally.graded > 5
    assert "shape run" not in tally.by_shape and "run" not in tally.by_shape  # no run projects a land
    assert any(reason.startswith("feature ") for reason in tally.skip_reasons)
    assert "board not declared" not in tally.skip_reasons  # only boards A and B are drawn


def test_a_case_realised_under_another_reading_depends_on_it() -> None:
    from invasion_oracle.model import registry
    from invasion_oracle.model.core.rulings import REGISTRY, Rulings
    from invasion_oracle.reports.conform.fuzz import _strategy, draw_draft, realise_draft
    from invasion_oracle.reports.conform.grade import variant_for
    from invasion_oracle.reports.conform.runner import info_of
    from invasion_oracle.reports.conform.shapes import SHAPES

    registry.spec("vulketh")  # registers its rulings
    defaults = Rulings.defaults("vulketh").to_json()
    ruling = REGISTRY.get("VK-GROW-OVERFLOW")
    other = next(r for r in ruling.reading_names if r != ruling.default)
    draft = draw_draft(_strategy(SHAPES["vulketh"], None), ("test", 1))
    assert draft is not None
    case = realise_draft(draft, {**defaults, ruling.id: other}, 1)
    plain = realise_draft(draft, defaults, 1)
    assert case is not None and plain is not None
    assert case.rulings == (ruling.id,) and plain.rulings == ()
    # a saved case is graded only where its reading is asked again
    assert variant_for(case, info_of(case), defaults) is None
    assert variant_for(case, info_of(case), {**defaults, ruling.id: other}) == 0


# Its hello answered, it dies on the first case. Neither json nor the site packages: the fuzzer
# starts it 36 times, at about a third of the CPU of a start that imports them.
CRASHER = """
import sys
sys.stdin.readline()
print('{"type": "hello", "name": "crasher", "games": ["vulketh"]}', flush=True)
sys.stdin.readline()
sys.exit(3)
"""


def test_an_implementation_that_keeps_crashing_stops_the_run(tmp_path: Path) -> None:
    script = tmp_path / "crasher.py"
    script.write_text(CRASHER)
    out = fuzz(FuzzOptions(f"{PYTHON} -S {shlex.quote(str(script))}", seed=1, examples=50, progress=False))
    assert out.aborted.startswith("stopped after 5") and not out.passed
    assert {f.outcome for f in out.failures} == {"crashed"}
    # a crash is shrunk too (every candidate crashes the same way here), within its bound
    assert all(f.size <= f.original_size and f.shrink_runs <= SHRINK_BROKEN for f in out.failures)
    assert out.tallies["vulketh"].graded == 5


PICKY_CRASHER = """
import sys
from invasion_oracle.reports.conform.adapter import Fault, serve

crash = Fault("crashes on generated case 2", misbehave=lambda m: "crash" if m["id"].endswith("-00002") else "")
sys.exit(serve(name="picky-crasher", faults=(crash,)))
"""


def test_a_crash_is_shrunk_and_its_crashing_candidates_do_not_stop_the_run(tmp_path: Path) -> None:
    script = tmp_path / "picky.py"
    script.write_text(PICKY_CRASHER)
    command = f"{PYTHON} {shlex.quote(str(script))}"
    out = fuzz(FuzzOptions(command, games=("vulketh",), seed=1, examples=6, shrink_broken=6, progress=False))
    (failure,) = out.failures
    tally = out.tallies["vulketh"]
    # every candidate of case 2 crashes (the same id): more than five crashes in a row while
    # shrinking, and yet the run goes on, since they are expected
    assert failure.outcome == "crashed" and failure.found_at == 2 and failure.confirmed
    assert failure.shrink_runs == 6 and failure.size <= failure.original_size
    assert failure.case.scenario != failure.original.scenario  # six smaller cases kept, each crashing
    assert failure.shrink_stopped == "shrunk as far as 6 crashing or hanging candidates allowed"
    assert not out.aborted and tally.generated == 6 and tally.passed == tally.graded - 1


def test_after_a_hang_is_shrunk_cases_showing_what_it_needs_are_not_sent() -> None:
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.reports.conform.fuzz import Steering, case_traits, realise_draft
    from invasion_oracle.reports.suite.spirit_island import doc

    readings = Rulings.defaults("spirit-island").to_json()

    def ravaged(pieces: str) -> Case:
        scenario = doc(
            {"E7": pieces}, keep=False, island={"boards": ["E"]}, invader_board={"ravage": ["3JS"]}
        )
        draft = Draft("spirit-island", "ravage", "ravage", scenario, "result", Stop.before("draw"), "all")
        case = realise_draft(draft, readings, 1)
        assert case is not None
        return case

    hung, cascading, plain = ravaged("T B"), ravaged("C E B"), ravaged("T")
    assert "cascade" in case_traits(hung) and "cascade" not in case_traits(plain)
    steering = Steering(broken=[("spirit-island/ravage: timed-out", case_traits(hung))])
    steering.passed_traits |= case_traits(plain)  # a Ravage adding Blight passes: the cascade is what hangs
    assert steering.breaks_like(cascading) == "spirit-island/ravage: timed-out"
    assert steering.breaks_like(plain) == ""
    steering.passed_traits |= case_traits(hung)  # had a cascading case passed, nothing would be held back
    assert steering.breaks_like(cascading) == ""

"""Running an implementation against the suite: select, send, judge, restart, report.

For each selected case the runner sends the variant of the readings asked for (the defaults,
``--ruling`` overrides, or what the implementation's ``hello`` declares) and, unless
``--graded-only``, the case's other variants too: those are not graded, they show which reading
of each ruling the implementation's answers match (the compliance statement). A reply is judged
against every variant sent the same answers, so an implementation that ignores the readings it
is sent is still placed.

Outcomes per sent variant: ``passed``, ``failed``, ``bad-reply`` (not a valid message), ``crashed``
(it exited), ``timed-out``, ``skipped`` (a feature it lacks, an ``unsupported`` reply, or no
expectation under the readings asked) and ``not-run`` (after too many failures in a row the
implementation is not restarted again). The exit status is 0 only when every graded case passed.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.core.errors import MalformedInputError
from model.core.rulings import REGISTRY, Rulings
from reports.conform.process import Crashed, Implementation, TimedOut, TooLong, split_command
from reports.conform.protocol import ProtocolError, bye, decode, encode, hello
from reports.suite.cases import Case
from reports.suite.compare import Verdict, verdict
from reports.suite.files import case_files, message, read_cases

MAX_RESTARTS_IN_A_ROW = 5
OUTCOMES = ("passed", "failed", "bad-reply", "crashed", "timed-out", "skipped", "not-run")


@dataclass
class Result:
    case: Case
    variant: int
    graded: bool
    outcome: str
    detail: str = ""
    verdict: Verdict | None = None
    matches: tuple[int, ...] = ()  # variants (same answers) whose expectation the reply meets

    @property
    def readings(self) -> dict[str, str]:
        return self.case.variants[self.variant].readings_map


@dataclass
class Run:
    """Everything a conformance run found."""

    command: str
    name: str = ""
    version: str = ""
    requested: dict[str, dict[str, str]] = field(default_factory=dict)  # game -> readings asked
    results: list[Result] = field(default_factory=list)
    seconds: float = 0.0
    restarts: int = 0
    aborted: str = ""

    @property
    def graded(self) -> list[Result]:
        return [r for r in self.results if r.graded]

    @property
    def passed(self) -> bool:
        return not self.aborted and all(r.outcome in ("passed", "skipped") for r in self.graded)


@dataclass(frozen=True)
class Options:
    command: str
    games: tuple[str, ...] = ()
    features: tuple[str, ...] | None = None
    rulings: tuple[str, ...] = ()
    cases: tuple[str, ...] = ()
    folder: Path = Path("fixtures")
    timeout: float = 10.0
    graded_only: bool = False
    start_timeout: float = 60.0


def load_cases(folder: Path, games: Sequence[str]) -> list[Case]:
    files = case_files(folder, games or None)
    if not files:
        raise MalformedInputError(str(folder), "$", "no case files here; run `invasion fixtures generate`")
    cases: list[Case] = []
    for path in files:
        _, found = read_cases(path, check_schema=False)
        cases.extend(found)
    return cases


def requested_readings(game: str, specs: Iterable[str], declared: dict[str, str]) -> dict[str, str]:
    """The reading asked of each ruling: defaults, then the implementation's own, then --ruling."""
    rulings = Rulings.defaults(game)
    known = {r.id for r in REGISTRY.all(game)}
    for rid, reading in declared.items():
        if rid in known:
            rulings = rulings.with_choice(rid, reading, source="hello:$.rulings")
    for spec in specs:
        rid = spec.partition("=")[0].strip()
        if any(k.casefold().startswith(rid.casefold()) for k in known):
            rulings = rulings.with_choices([spec])
    return rulings.to_json()


class Session:
    """The implementation under test, restarted after a crash, a hang or a garbled line."""

    def __init__(self, options: Options, run: Run) -> None:
        self.options = options
        self.run = run
        self.impl = Implementation(split_command(options.command))
        self.failures_in_a_row = 0
        self.hello: dict[str, Any] = {}

    def ensure_started(self) -> None:
        if self.impl.running:
            return
        if self.impl.starts:
            self.run.restarts += 1
        self.impl.start()
        deadline = time.monotonic() + self.options.start_timeout
        try:
            self.impl.send(encode(hello()), deadline)
            self.hello = decode(self.impl.read_line(deadline), "hello_reply")
        except (Crashed, TimedOut, TooLong, ProtocolError) as err:
            self.impl.stop()
            raise Crashed(f"the implementation did not answer hello: {err}") from None
        self.run.name = self.run.name or str(self.hello.get("name", ""))
        self.run.version = self.run.version or str(self.hello.get("version", ""))

    def ask(self, case: Case, index: int, readings: dict[str, str]) -> tuple[str, dict[str, Any] | None, str]:
        """Send one variant; (outcome, reply, detail) where outcome is ``answered`` or a failure."""
        try:
            self.ensure_started()
        except Crashed as err:
            return "crashed", None, str(err)
        deadline = time.monotonic() + self.options.timeout
        try:
            self.impl.send(encode(message(case, index, readings)), deadline)
            line = self.impl.read_line(deadline)
        except Crashed as err:
            self.impl.stop()
            return "crashed", None, str(err)
        except TimedOut as err:
            self.impl.stop()
            return "timed-out", None, f"{err} ({self.options.timeout:g} s)"
        except TooLong as err:
            self.impl.stop()
            return "bad-reply", None, str(err)
        try:
            reply = decode(line, "reply")
        except ProtocolError as err:
            self.impl.stop()  # its output may be out of step: start afresh
            return "bad-reply", None, str(err)
        if reply["id"] != case.id or reply["variant"] != index:
            self.impl.stop()
            return "bad-reply", None, f"a reply for {reply['id']} variant {reply['variant']}, not this case"
        return "answered", reply, ""

    def close(self) -> None:
        if self.impl.running:
            with contextlib.suppress(Crashed, TimedOut):
                self.impl.send(encode(bye()), time.monotonic() + 1)
        self.impl.stop(grace=2.0)


def _selected(case: Case, options: Options) -> bool:
    if options.games and case.game not in options.games:
        return False
    return not options.cases or any(case.id.startswith(prefix) for prefix in options.cases)


def run_cases(cases: Sequence[Case], options: Options) -> Run:
    """Send ``cases`` to the implementation and judge every reply."""
    if not any(_selected(case, options) for case in cases):
        raise MalformedInputError(
            "--case", ",".join(options.cases) or "$", "no case matches the --game and --case given"
        )
    run = Run(options.command)
    started = time.monotonic()
    session = Session(options, run)
    try:
        session.ensure_started()
    except Crashed as err:
        session.impl.stop()
        raise MalformedInputError("--cmd", options.command, str(err)) from None
    declared_games = session.hello.get("games")
    declared_features = session.hello.get("features")
    features = set(options.features) if options.features is not None else None
    if features is None and isinstance(declared_features, list):
        features = {str(f) for f in declared_features}
    declared_rulings = session.hello.get("rulings") if isinstance(session.hello.get("rulings"), dict) else {}
    try:
        for case in cases:
            if not _selected(case, options):
                continue
            if case.game not in run.requested:
                run.requested[case.game] = requested_readings(
                    case.game, options.rulings, declared_rulings or {}
                )
            asked = run.requested[case.game]
            graded = case.variant_for(asked)
            indices = [
                i for i in range(len(case.variants)) if not options.graded_only or case.variants[i] is graded
            ]
            missing = sorted(set(case.features) - features) if features is not None else []
            for index in indices:
                is_graded = case.variants[index] is graded
                if run.aborted:
                    run.results.append(Result(case, index, is_graded, "not-run", run.aborted))
                    continue
                if isinstance(declared_games, list) and case.game not in declared_games:
                    run.results.append(
                        Result(case, index, is_graded, "skipped", f"it does not play {case.game}")
                    )
                    continue
                if missing:
                    run.results.append(
                        Result(case, index, is_graded, "skipped", f"needs {', '.join(missing)}")
                    )
                    continue
                run.results.append(_judge(session, case, index, is_graded, asked))
            if graded is None:
                run.results.append(
                    Result(case, -1, True, "skipped", "no expectation under the readings asked")
                )
    finally:
        session.close()
        run.seconds = time.monotonic() - started
    return run


def _judge(session: Session, case: Case, index: int, graded: bool, asked: dict[str, str]) -> Result:
    readings = {**asked, **case.variants[index].readings_map}
    outcome, reply, detail = session.ask(case, index, readings)
    run = session.run
    if outcome != "answered" or reply is None:
        session.failures_in_a_row += 1
        if session.failures_in_a_row >= MAX_RESTARTS_IN_A_ROW:
            run.aborted = (
                f"stopped after {MAX_RESTARTS_IN_A_ROW} crashes, hangs or bad replies in a row "
                f"(the last: {outcome})"
            )
        return Result(case, index, graded, outcome, detail)
    session.failures_in_a_row = 0
    if reply["status"] == "unsupported":
        return Result(case, index, graded, "skipped", f"unsupported: {reply.get('reason', '')}"[:200])
    variant = case.variants[index]
    found = verdict(variant, reply)
    signature = variant.signature()
    matches = tuple(
        i
        for i, other in enumerate(case.variants)
        if other.signature() == signature and verdict(other, reply).passed
    )
    return Result(case, index, graded, "passed" if found.passed else "failed", found.detail, found, matches)

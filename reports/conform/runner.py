"""Running implementations against the suite: select, send, grade, restart, report.

For each selected case the runner sends the variant of the readings asked for (the defaults,
``--ruling`` overrides, or what the implementation's ``hello`` declares), matching those
readings on the rulings the case depends on (``depends_on``) only, and, unless
``--graded-only``, the case's other variants too: those are not graded, they show which reading
of each ruling the implementation's answers match (the compliance statement). A reply is graded
at every level the implementation declares (``state``, ``requests``, ``events``;
:mod:`invasion_oracle.reports.conform.grade`).

Outcomes per sent variant: ``passed``, ``failed``, ``bad-reply`` (not a valid message), ``crashed``
(it exited), ``timed-out``, ``skipped`` (a game, board, map, projection or feature it does not
declare, an ``unsupported`` reply, or no expectation under the readings asked) and ``not-run``
(after too many failures in a row the implementation is not restarted again). The exit status is
0 only when every graded case passed and each game asked has at least ``--min-graded`` graded
cases (default 1).
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.rulings import REGISTRY, Rulings
from invasion_oracle.reports.conform import SMOKE_PER_GAME
from invasion_oracle.reports.conform.grade import (
    LEVELS,
    CaseInfo,
    Verdict,
    case_info,
    passes_all,
    variant_for,
    verdict,
)
from invasion_oracle.reports.conform.process import Crashed, Implementation, TimedOut, TooLong, split_command
from invasion_oracle.reports.conform.protocol import ProtocolError, bye, decode, encode, hello, message
from invasion_oracle.reports.suite.build import DerivedCache, with_derived
from invasion_oracle.reports.suite.cases import Case
from invasion_oracle.reports.suite.files import SUFFIX, case_files, read_cases

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
    levels: dict[str, bool] = field(default_factory=dict)  # level -> passed (answered replies)
    stderr: str = ""  # the implementation's last error output, for a result that did not pass
    reply: dict[str, Any] | None = None  # a failed reply as received (what differs is read from it)

    @property
    def readings(self) -> dict[str, str]:
        return self.case.variants[self.variant].readings_map

    @property
    def judged(self) -> bool:
        """Graded and actually judged (not skipped, not left unrun)."""
        return self.graded and self.outcome not in ("skipped", "not-run")

    @property
    def info(self) -> CaseInfo:
        return info_of(self.case)


@dataclass
class Run:
    """Everything a conformance run of one implementation found."""

    command: str
    label: str = ""  # NAME of --cmd NAME=COMMAND (else the hello's name)
    name: str = ""
    version: str = ""
    protocol_version: int = 1
    levels: tuple[str, ...] = LEVELS
    capabilities: dict[str, Any] = field(default_factory=dict)
    requested: dict[str, dict[str, str]] = field(default_factory=dict)  # game -> readings asked
    results: list[Result] = field(default_factory=list)
    seconds: float = 0.0
    restarts: int = 0
    aborted: str = ""
    games_asked: tuple[str, ...] = ()
    min_graded: int = 1
    folder: str = ""

    @property
    def graded(self) -> list[Result]:
        return [r for r in self.results if r.graded]

    def judged(self, game: str | None = None) -> list[Result]:
        return [r for r in self.results if r.judged and (game is None or r.case.game == game)]

    @property
    def shortfall(self) -> str:
        """Why the run graded too little ("" when it graded enough)."""
        short = [
            f"{g}: {len(self.judged(g))}" for g in self.games_asked if len(self.judged(g)) < self.min_graded
        ]
        if not short:
            return ""
        return f"graded too little (at least {self.min_graded} a game, --min-graded): " + ", ".join(short)

    @property
    def passed(self) -> bool:
        return (
            not self.aborted
            and not self.shortfall
            and all(r.outcome in ("passed", "skipped") for r in self.graded)
        )

    @property
    def title(self) -> str:
        return self.label or self.name or self.command


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
    label: str = ""
    min_graded: int | None = None  # per game asked; None: 1
    smoke: bool = False


def info_of(case: Case) -> CaseInfo:
    return case_info(case, case.extra)


def suite_files(folder: Path, games: Sequence[str]) -> list[Path]:
    """The case files of the games asked (or all) in ``folder``; an error if there are none."""
    for game in games or registry.names():
        where = folder / game
        if where.exists() and not where.is_dir():
            raise MalformedInputError(
                str(where), "$", f"is a file, expected the folder of {game}'s case files"
            )
    files = case_files(folder, games or None)
    if not files:
        raise MalformedInputError(str(folder), "$", "no case files here; run `invasion fixtures generate`")
    return files


def load_cases(folder: Path, games: Sequence[str], prefixes: Sequence[str] = ()) -> list[Case]:
    """Every case of the folder's case files (the games asked, or all), with the fields of suite
    version 3 the runner reads (``depends_on``, ``section``, ``boards``, ``map``) kept in
    :attr:`Case.extra` as the file has them.

    With ``prefixes`` (``--case``), only the files that can hold such a case are read: the file
    of group ``G`` of game ``GAME`` is ``GAME/G.cases.json`` and holds the cases ``GAME/G/...``.
    """
    files = suite_files(folder, games)
    if prefixes:
        files = [path for path in files if _may_hold(path, prefixes)]
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for path in files:
        _, found = read_cases(path, check_schema=False)
        for number, case in enumerate(found):
            if case.id in seen:  # the runner matches replies and --case by id
                raise MalformedInputError(
                    str(path),
                    f"$.cases[{number}].id",
                    f"duplicate case id {case.id!r} (also in {seen[case.id]})",
                )
            seen[case.id] = f"{path.parent.name}/{path.name}"
            cases.append(case)
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


def case_message(case: Case, index: int, readings: dict[str, str], levels: Sequence[str]) -> dict[str, Any]:
    """The ``case`` message (protocol 2 adds ``choice``, ``depends_on``, ``section``, ``levels``)."""
    info = info_of(case)
    out = message(case, index, readings)
    own = case.variants[index].readings_map
    out["rulings"] = {**out["rulings"], **readings, **{r: own[r] for r in info.depends_on if r in own}}
    out["choice"] = info.choice
    out["depends_on"] = list(info.depends_on)
    out["section"] = info.section
    out["levels"] = list(levels)
    return out


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
            tail = self.impl.stderr_tail()
            self.impl.stop()
            note = f"; its last error output: {tail}" if tail and "error output" not in str(err) else ""
            raise Crashed(f"the implementation did not answer hello: {err}{note}") from None
        self.run.name = self.run.name or str(self.hello.get("name", ""))
        self.run.version = self.run.version or str(self.hello.get("version", ""))

    def ask(
        self, case: Case, index: int, readings: dict[str, str]
    ) -> tuple[str, dict[str, Any] | None, str, float]:
        """Send one variant; (outcome, reply, detail, deadline): ``answered`` or a failure."""
        try:
            self.ensure_started()
        except Crashed as err:
            return "crashed", None, str(err), 0.0
        deadline = time.monotonic() + self.options.timeout
        try:
            self.impl.send(encode(case_message(case, index, readings, self.run.levels)), deadline)
            line = self.impl.read_line(deadline)
        except Crashed as err:
            self.impl.stop()
            return "crashed", None, str(err), deadline
        except TimedOut as err:
            self.impl.stop()
            return "timed-out", None, f"{err} ({self.options.timeout:g} s)", deadline
        except TooLong as err:
            self.impl.stop()
            return "bad-reply", None, str(err), deadline
        try:
            reply = decode(line, "reply")
        except ProtocolError as err:
            self.impl.stop()  # its output may be out of step: start afresh
            return "bad-reply", None, str(err), deadline
        if time.monotonic() > deadline:  # reading it took the whole deadline: do not grade it
            self.impl.stop()
            return (
                "timed-out",
                None,
                f"the reply took longer than {self.options.timeout:g} s to read",
                deadline,
            )
        if reply["id"] != case.id or reply["variant"] != index:
            self.impl.stop()
            return (
                "bad-reply",
                None,
                f"a reply for {reply['id']} variant {reply['variant']}, not this case",
                deadline,
            )
        return "answered", reply, "", deadline

    def close(self) -> None:
        if self.impl.running:
            with contextlib.suppress(Crashed, TimedOut):
                self.impl.send(encode(bye()), time.monotonic() + 1)
        self.impl.stop(grace=2.0)


def _may_hold(path: Path, prefixes: Sequence[str]) -> bool:
    group = f"{path.parent.name}/{path.name.removesuffix(SUFFIX)}/"
    return any(group.startswith(p) or p.startswith(group) for p in prefixes)


def games_to_load(options: Options) -> tuple[str, ...]:
    """The games whose case files a run needs (empty: all): the games asked, else those a
    ``--case`` prefix can match, since a case id starts with its game (``stonespine/gate/close``).

    >>> games_to_load(Options(("x",), cases=("stonespine/gate", "spirit")))
    ('stonespine', 'spirit-island')
    """
    if options.games or not options.cases:
        return options.games
    return tuple(
        game
        for game in registry.names()
        if any(f"{game}/".startswith(p) or p.startswith(f"{game}/") for p in options.cases)
    )


def _selected(case: Case, options: Options) -> bool:
    if options.games and case.game not in options.games:
        return False
    return not options.cases or any(case.id.startswith(prefix) for prefix in options.cases)


def smoke_subset(cases: Sequence[Case], per_game: int = SMOKE_PER_GAME) -> list[Case]:
    """A deterministic quick subset: about ``per_game`` cases a game, spread evenly over its
    action cases (whole runs are slower) in file order."""
    out: list[Case] = []
    for game in dict.fromkeys(c.game for c in cases):
        mine = [c for c in cases if c.game == game]
        pool = [c for c in mine if c.kind == "action"]
        pool = pool if len(pool) >= per_game else mine
        step = max(1, len(pool) / per_game)
        picked = {id(pool[int(i * step)]) for i in range(min(per_game, len(pool)))}
        out.extend(c for c in mine if id(c) in picked)
    return out


def _list(value: Any) -> set[str] | None:
    return {str(v) for v in value} if isinstance(value, list) else None


def _why_skipped(case: Case, run: Run, features: set[str] | None, declared_games: set[str] | None) -> str:
    if declared_games is not None and case.game not in declared_games:
        return f"it does not play {case.game}"
    if features is not None:
        missing = sorted(set(case.features) - features)
        if missing:
            return f"needs {', '.join(missing)}"
    caps = run.capabilities
    info = info_of(case)
    boards = _list(caps.get("boards"))
    if boards is not None and info.boards:
        lacking = sorted(set(info.boards) - boards)
        if lacking:
            return f"board(s) {', '.join(lacking)} not declared"
    maps = _list(caps.get("maps"))
    if maps is not None and info.map and info.map not in maps:
        return f"map {info.map} not declared"
    projections = _list(caps.get("projections"))
    name = case.projection.partition(":")[0]
    if projections is not None and name not in projections and case.projection not in projections:
        return f"projection {name} not declared"
    return ""


def _read_hello(
    run: Run, said: dict[str, Any], options: Options, selected: Sequence[Case]
) -> tuple[set[str] | None, dict[str, str], set[str] | None]:
    """What the implementation's ``hello`` declares, recorded on ``run``: its capabilities,
    protocol version, levels and the games asked; returns the features, rulings and games it
    declares (None: not declared)."""
    raw_caps = said.get("capabilities")
    caps: dict[str, Any] = raw_caps if isinstance(raw_caps, dict) else {}
    run.capabilities = dict(caps)
    run.protocol_version = (
        int(said.get("protocol_version", 1)) if isinstance(said.get("protocol_version"), int) else 1
    )
    declared_levels = said.get("levels", caps.get("levels"))
    if isinstance(declared_levels, list) and declared_levels:
        run.levels = tuple(level for level in LEVELS if level in declared_levels)
    declared_games = _list(said.get("games"))
    features = set(options.features) if options.features is not None else None
    if features is None:
        features = _list(caps.get("features")) or _list(said.get("features"))
    declared_rulings = said.get("rulings") if isinstance(said.get("rulings"), dict) else {}
    asked_games = options.games or tuple(dict.fromkeys(c.game for c in selected))
    if declared_games is not None and not options.games:
        asked_games = tuple(g for g in asked_games if g in declared_games)
    run.games_asked = tuple(asked_games)
    return features, declared_rulings or {}, declared_games


def _graded_variant(
    case: Case, asked: dict[str, str], derived: DerivedCache | None
) -> tuple[Case, int | None]:
    """The variant graded under the readings ``asked`` (None: no expectation under them)."""
    graded = variant_for(case, info_of(case), asked)
    if graded is None and case.derive is not None:
        # Past MAX_PRODUCT rulings the file stores each reading alone: the oracle
        # realises this combination (docs/fixtures.md, "derive").
        case = with_derived(case, asked, derived)
        graded = len(case.variants) - 1
    return case, graded


def run_cases(
    cases: Sequence[Case],
    options: Options,
    on_result: Callable[[Run, Result], None] | None = None,
    derived: DerivedCache | None = None,
) -> Run:
    """Send ``cases`` to the implementation and grade every reply (``derived``: variants the
    oracle realised for readings a case stores no variant for, shared between runs)."""
    selected = [case for case in cases if _selected(case, options)]
    if not selected:
        raise MalformedInputError(
            "--case", ",".join(options.cases) or "$", "no case matches the --game and --case given"
        )
    if options.smoke:
        selected = smoke_subset(selected)
    graded_only = options.graded_only or options.smoke
    run = Run(options.command, label=options.label, folder=str(options.folder))
    started = time.monotonic()
    session = Session(options, run)
    try:
        session.ensure_started()
    except Crashed as err:
        session.impl.stop()
        raise MalformedInputError("--cmd", options.command, str(err)) from None
    features, declared_rulings, declared_games = _read_hello(run, session.hello, options, selected)
    run.min_graded = 1 if options.min_graded is None else options.min_graded

    def add(result: Result) -> None:
        run.results.append(result)
        if on_result is not None:
            on_result(run, result)

    try:
        for case in selected:
            if case.game not in run.requested:
                run.requested[case.game] = requested_readings(
                    case.game, options.rulings, declared_rulings or {}
                )
            asked = run.requested[case.game]
            case, graded = _graded_variant(case, asked, derived)
            indices = [i for i in range(len(case.variants)) if not graded_only or i == graded]
            skip = _why_skipped(case, run, features, declared_games)
            for index in indices:
                is_graded = index == graded
                if run.aborted:
                    add(Result(case, index, is_graded, "not-run", run.aborted))
                elif skip:
                    add(Result(case, index, is_graded, "skipped", skip))
                else:
                    add(_judge(session, case, index, is_graded, asked))
            if graded is None:
                add(Result(case, -1, True, "skipped", "no expectation under the readings asked"))
    finally:
        session.close()
        run.seconds = time.monotonic() - started
    return run


def run_all(
    cases: Sequence[Case],
    options: Options,
    commands: Sequence[tuple[str, str]],
    on_result: Callable[[Run, Result], None] | None = None,
) -> list[Run]:
    """Every implementation (``(label, command)``) in turn, the same cases and options."""
    derived: DerivedCache = {}
    return [
        run_cases(cases, dataclasses.replace(options, command=command, label=label), on_result, derived)
        for label, command in commands
    ]


def _judge(session: Session, case: Case, index: int, graded: bool, asked: dict[str, str]) -> Result:
    outcome, reply, detail, deadline = session.ask(case, index, asked)
    run = session.run
    if outcome != "answered" or reply is None:
        session.failures_in_a_row += 1
        if session.failures_in_a_row >= MAX_RESTARTS_IN_A_ROW:
            run.aborted = (
                f"stopped after {MAX_RESTARTS_IN_A_ROW} crashes, hangs or bad replies in a row "
                f"(the last: {outcome})"
            )
        return Result(case, index, graded, outcome, detail, stderr=session.impl.stderr_tail())
    session.failures_in_a_row = 0
    if reply["status"] == "unsupported":
        return Result(case, index, graded, "skipped", f"unsupported: {reply.get('reason', '')}"[:200])
    variant = case.variants[index]
    levels = run.levels
    found = verdict(variant, reply, levels)
    signature = variant.signature()
    matches = tuple(
        i
        for i, other in enumerate(case.variants)
        if other.signature() == signature and passes_all(other, reply, levels)
    )
    if time.monotonic() > deadline:
        session.impl.stop()
        return Result(
            case,
            index,
            graded,
            "timed-out",
            f"the reply took longer than {session.options.timeout:g} s to handle",
        )
    return Result(
        case,
        index,
        graded,
        "passed" if found.passed else "failed",
        found.detail,
        found,
        matches,
        dict(found.levels),
        "" if found.passed else session.impl.stderr_tail(),
        None if found.passed else reply,
    )

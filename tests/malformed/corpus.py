"""The malformed-input corpus: cases stored as data, materialised in a folder and run in-process.

Each family is one JSON file in ``tests/malformed/corpus/``::

    {"family": "replay", "about": "traces given to replay",
     "cases": [{"id": "missing-answer",
                "argv": ["replay", "$TMP/t.json"],
                "files": {"t.json": {"trace": "stonespine/default", "del": ["steps.0.answer"]}},
                "exit": 2,
                "stderr": "invasion: error: $TMP/t.json:$.steps[0]: 'answer' is required"}]}

``$TMP`` in ``argv``, ``stderr``, ``stdout`` and ``absent`` is the case's own temporary folder;
``$ROOT`` is the checkout (for its ``fixtures/`` folder).
A file is made from one of:

* ``{"json": VALUE}`` - the value written as JSON (floats stay floats: ``1.5``, ``2.0``);
* ``{"text": "..."}`` / ``{"hex": "efbbbf7b7d"}`` - exact text or bytes;
* ``{"example": "stonespine/default.json"}`` - a bundled example; ``{"trace": "stonespine/default"}``
  - a committed fixture trace; ``{"fixture": "vulketh/illegal.cases.json"}`` - any file under
  ``fixtures/``; all three take ``"set": {"dotted.path": VALUE}`` and
  ``"del": ["dotted.path"]`` (list indices are numbers in the path), and ``"envelope": true``
  wraps the result as ``simulate --json`` would;
* ``{"deep": N}`` - ``[`` N times then ``]`` N times; ``{"size": N}`` - a valid JSON file of N bytes;
* ``{"fifo": true}`` - a named pipe with no writer; ``{"folder": true}`` - a folder;
  ``{"folder": {"name": FILE, ...}}`` - a folder holding files made the same way.

A case passes when the exit status is ``exit``, and for a non-zero status with a ``stderr`` text,
stderr is exactly one line starting with it (no traceback); otherwise (exit 0, or exit 1 from a
check that found a difference and says so on standard output) stderr is empty. ``stdout`` (when
given) must be in the output, and no output may hold a raw control character (ESC and the like). Paths in ``absent`` must not exist afterwards (an output written
before the bad input was noticed). ``stdin`` gives standard input's text. ``seconds`` bounds the
case (default :data:`SECONDS`); ``"slow": true`` marks a case that takes seconds by nature (it
runs in ``make report``, not ``make test``).

Run ``python -m tests.malformed.corpus [FAMILY...]`` to print what every case gives now (for
writing new cases).
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import io
import itertools
import json
import os
import re
import signal
import sys
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FOLDER = Path(__file__).with_name("corpus")
SECONDS = 10  # per case: generous on a loaded two-core machine; most take milliseconds
MARK = "$TMP"
KEYS = frozenset(("id", "argv", "files", "exit", "stderr", "stdout", "absent", "stdin", "seconds", "slow"))


@dataclass(frozen=True)
class Case:
    family: str
    id: str
    argv: tuple[str, ...]
    files: dict[str, Any]
    exit: int
    stderr: str
    stdout: str
    absent: tuple[str, ...]
    stdin: str | None
    seconds: float
    slow: bool

    @property
    def name(self) -> str:
        return f"{self.family}/{self.id}"


@dataclass(frozen=True)
class Result:
    status: int
    out: str
    err: str
    crash: str  # a traceback when the command raised (INVASION_DEBUG) or took too long

    def problems(self, case: Case, folder: Path) -> list[str]:
        """Why this result does not meet the case (empty: it passes)."""
        found = []
        if self.crash:
            return [f"raised instead of answering:\n{self.crash}"]
        if self.status != case.exit:
            found.append(f"exit status {self.status}, expected {case.exit}")
        expected_err = _fill(case.stderr, folder)
        if case.exit != 0 and case.stderr:
            if self.err.count("\n") != 1 or not self.err.endswith("\n"):
                found.append("stderr is not exactly one line")
            if not self.err.startswith(expected_err):
                found.append(f"stderr does not start with {expected_err!r}")
        elif case.exit == 0 and case.stderr:  # progress lines a long verb prints in a pipe
            if expected_err not in self.err:
                found.append(f"stderr lacks {expected_err!r}")
        elif self.err:
            found.append("stderr is not empty" + (" on success" if case.exit == 0 else ""))
        for name, text in (("stdout", self.out), ("stderr", self.err)):
            raw = sorted({f"\\x{ord(c):02x}" for c in _RAW_CONTROL.findall(text)})
            if raw:
                found.append(f"raw control characters on {name}: {', '.join(raw)}")
        if "Traceback" in self.err:
            found.append("a traceback on stderr")
        if case.stdout and _fill(case.stdout, folder) not in self.out:
            found.append(f"stdout lacks {case.stdout!r}")
        for path in case.absent:
            if Path(_fill(path, folder)).exists():
                found.append(f"{path} was written")
        if found:
            found.append(f"stderr: {self.err!r}")
        return found


_RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""A character a terminal acts on (ESC, BEL, backspace, ...): newline and tab aside (one search
of the output, not a Python call per character: a case's output can be thousands of them)."""


class Folders:
    """Fresh empty folders, numbered, under one folder made once.

    Each test's own ``tmp_path`` is found a number by listing every folder the session's tests
    made before it, so a file of hundreds of cases spent as long making folders as running
    commands (and made every later ``tmp_path`` of the worker slower); a file of cases asks one
    of these for each case instead.
    """

    def __init__(self, base: Path) -> None:
        self._base = base
        self._numbers = itertools.count()

    def fresh(self) -> Path:
        folder = self._base / str(next(self._numbers))
        folder.mkdir()
        return folder


def families() -> list[Path]:
    return sorted(FOLDER.glob("*.json"))


def load_cases(paths: list[Path] | None = None) -> list[Case]:
    cases = []
    for path in paths if paths is not None else families():
        document = json.loads(path.read_text(encoding="utf-8"))
        family = document["family"]
        if family != path.stem:
            raise ValueError(f"{path}: family {family!r} is not the file's name")
        for raw in document["cases"]:
            unknown = set(raw) - KEYS
            if unknown:
                raise ValueError(f"{path}: case {raw.get('id')}: unknown keys {sorted(unknown)}")
            cases.append(
                Case(
                    family=family,
                    id=raw["id"],
                    argv=tuple(raw["argv"]),
                    files=raw.get("files", {}),
                    exit=raw["exit"],
                    stderr=raw.get("stderr", ""),
                    stdout=raw.get("stdout", ""),
                    absent=tuple(raw.get("absent", ())),
                    stdin=raw.get("stdin"),
                    seconds=raw.get("seconds", SECONDS),
                    slow=raw.get("slow", False),
                )
            )
    names = [c.name for c in cases]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"cases named twice: {duplicates}")
    return cases


# -- making the files --------------------------------------------------------------------------------


def _fill(text: str, folder: Path) -> str:
    return text.replace(MARK, str(folder)).replace("$ROOT", str(ROOT))


def materialise(case: Case, folder: Path) -> None:
    for name, how in case.files.items():
        _make(folder / name, how)


def _make(path: Path, how: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if "fifo" in how:
        os.mkfifo(path)
    elif "folder" in how:
        path.mkdir(exist_ok=True)
        if isinstance(how["folder"], dict):
            for name, inner in how["folder"].items():
                _make(path / name, inner)
    elif "text" in how:
        path.write_bytes(how["text"].encode("utf-8"))
    elif "hex" in how:
        path.write_bytes(bytes.fromhex(how["hex"]))
    elif "deep" in how:
        path.write_text("[" * how["deep"] + "]" * how["deep"], encoding="utf-8")
    elif "size" in how:
        body = '{"pad": ""}'
        path.write_text('{"pad": "' + "x" * (how["size"] - len(body)) + '"}', encoding="utf-8")
    else:
        path.write_text(json.dumps(_document(how), ensure_ascii=False), encoding="utf-8")


def _document(how: dict[str, Any]) -> Any:
    if "json" in how:
        return copy.deepcopy(how["json"])
    if "example" in how:
        document = json.loads((ROOT / "examples" / how["example"]).read_text(encoding="utf-8"))
    elif "trace" in how:
        document = json.loads((ROOT / "fixtures" / f"{how['trace']}.trace.json").read_text(encoding="utf-8"))
    elif "fixture" in how:
        document = json.loads((ROOT / "fixtures" / how["fixture"]).read_text(encoding="utf-8"))
    else:
        raise ValueError(f"unknown file recipe {sorted(how)}")
    for path, value in how.get("set", {}).items():
        document = _set(document, _parts(path), copy.deepcopy(value))
    for path in how.get("del", ()):
        *parent, last = _parts(path)
        container = _get(document, parent)
        del container[_key(container, last)]
    if how.get("envelope"):
        document = {
            "game": document.get("game", "") if isinstance(document, dict) else "",
            "query": "simulate",
            "command": "invasion simulate x.json --json",
            "status": "done",
            "answer": document,
            "replayed": None,
        }
    return document


def _parts(path: str) -> list[str | int]:
    return [int(p) if p.isdigit() else p for p in path.split(".")] if path else []


def _key(container: Any, part: str | int) -> str | int:
    return str(part) if isinstance(container, dict) else part  # "hexes.1": the object key "1"


def _get(document: Any, parts: list[str | int]) -> Any:
    for part in parts:
        document = document[_key(document, part)]
    return document


def _set(document: Any, parts: list[str | int], value: Any) -> Any:
    if not parts:
        return value
    parent = _get(document, parts[:-1])
    parent[_key(parent, parts[-1])] = value
    return document


# -- running -----------------------------------------------------------------------------------------


class TookTooLong(Exception):
    pass


@contextlib.contextmanager
def _time_bound(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise TookTooLong(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _fast_argparse() -> Iterator[None]:
    """Build the parser without its two slow look-ups, which change nothing here: the message
    catalogue (none is installed, so every message is its own text) and the terminal's width
    (used only by --help). Building the parser was most of a case's time."""
    import argparse
    from unittest import mock

    # The two variables alone, set and put back (patching the whole environment restores every
    # variable after each case: a system call per variable).
    fixed = {"COLUMNS": "100", "LINES": "40"}
    saved = {name: os.environ.get(name) for name in fixed}
    os.environ.update(fixed)
    try:
        with mock.patch.object(argparse, "_", lambda text: text):
            yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class _Stdin(io.TextIOWrapper):
    def isatty(self) -> bool:
        return False


def run_case(case: Case, folder: Path) -> Result:
    """Make the case's files in ``folder`` and run its command in this process."""
    from invasion_oracle.reports.cli import main

    materialise(case, folder)
    argv = [_fill(word, folder) for word in case.argv]
    out, err = io.StringIO(), io.StringIO()
    stdin = _Stdin(io.BytesIO((case.stdin or "").encode("utf-8")), encoding="utf-8")
    saved_stdin = sys.stdin
    crash = ""
    status = -1

    def call() -> int:
        # Each case in its own context: an option such as --max-input-size sets a context variable.
        with (
            _fast_argparse(),
            _time_bound(case.seconds),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            try:
                return main(argv)
            except SystemExit as done:  # argparse's usage errors and --help
                return done.code if isinstance(done.code, int) else (0 if done.code is None else 2)

    sys.stdin = stdin
    try:
        status = contextvars.copy_context().run(call)
    except BaseException:  # the case failed: show why (KeyboardInterrupt from the test runner aside)
        if sys.exc_info()[0] is KeyboardInterrupt:
            raise
        crash = traceback.format_exc()
    finally:
        sys.stdin = saved_stdin
    return Result(status, out.getvalue(), err.getvalue(), crash)


def main(names: list[str]) -> int:
    """Print what each case gives now: ``ok`` or its problems."""
    import tempfile
    import time

    os.environ.setdefault("INVASION_DEBUG", "1")
    paths = [FOLDER / f"{n}.json" for n in names] if names else None
    failed = 0
    for case in load_cases(paths):
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            result = run_case(case, Path(tmp))
            took = time.perf_counter() - started
            problems = result.problems(case, Path(tmp))
            failed += bool(problems)
            err = result.err.replace(tmp, MARK).rstrip("\n")
            shown = err or "stdout: " + result.out.replace(tmp, MARK)[:200].replace("\n", " | ")
            mark = "ok  " if not problems else "FAIL"
            print(f"{mark} {took:5.2f}s {case.name} -> {result.status}: {shown[:300]}")
            for problem in problems if not result.crash else ():
                if not problem.startswith("stderr: "):
                    print(f"     {problem}")
            if result.crash:
                print("     " + result.crash.strip().splitlines()[-1])
    print(f"{failed} failing")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

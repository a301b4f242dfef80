"""What every search shares: time limits, progress on a terminal, z3 results as proven/unknown."""

from __future__ import annotations

import enum
import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

import z3


class Status(enum.StrEnum):
    PROVEN = "proven"  # exact: the search finished (z3 unsat/sat or exhaustive enumeration)
    UNKNOWN = "unknown"  # the time limit was hit (or z3 gave up): no claim is made


class OracleDisagreement(AssertionError):
    """A solver answer that the oracle does not reproduce: a bug, never an output."""


class TimeLimit(Exception):
    """Raised inside a search when its deadline has passed."""


@dataclass(slots=True)
class Deadline:
    """A wall-clock limit; ``seconds=None`` means none."""

    seconds: float | None = None
    started: float = field(default_factory=time.perf_counter)

    def remaining(self) -> float | None:
        if self.seconds is None:
            return None
        return self.seconds - (time.perf_counter() - self.started)

    def expired(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0

    def check(self) -> None:
        if self.expired():
            raise TimeLimit()

    def z3_ms(self) -> int | None:
        left = self.remaining()
        return None if left is None else max(1, int(left * 1000))


@dataclass(slots=True)
class Progress:
    """A one-line progress counter on stderr, only when stderr is a terminal (never in pipes/CI)."""

    label: str
    total: int | None = None
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    done: int = 0
    _last: float = 0.0
    enabled: bool = field(init=False)

    def __post_init__(self) -> None:
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())

    def step(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._last < 0.2:
            return
        self._last = now
        of = f"/{self.total}" if self.total else ""
        self.stream.write(f"\r{self.label}: {self.done}{of}   (Ctrl-C stops)")
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 70 + "\r")
            self.stream.flush()


def z3_check(solver: Any, deadline: Deadline, *assumptions: Any) -> z3.CheckSatResult:
    """``solver.check`` under the deadline; raises TimeLimit on timeout or z3 giving up."""
    ms = deadline.z3_ms()
    if ms is not None:
        solver.set("timeout", ms)
    result = solver.check(*assumptions)
    if result == z3.unknown:
        raise TimeLimit()
    return result

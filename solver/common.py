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
    """A progress bar with rate and ETA (tqdm) on stderr, only when stderr is a terminal.

    In pipes, files and CI nothing is drawn, so output stays byte-identical.
    """

    label: str
    total: int | None = None
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    done: int = 0
    enabled: bool = field(init=False)
    _bar: Any = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        if self.enabled:
            from tqdm import tqdm

            self._bar = tqdm(
                total=self.total,
                desc=f"{self.label} (Ctrl-C stops)",
                file=self.stream,
                leave=False,
                dynamic_ncols=True,
                mininterval=0.2,
            )

    def step(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)

    def finish(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def z3_check(solver: Any, deadline: Deadline, *assumptions: Any) -> z3.CheckSatResult:
    """``solver.check`` under the deadline; raises TimeLimit on timeout or z3 giving up."""
    ms = deadline.z3_ms()
    if ms is not None:
        solver.set("timeout", ms)
    result = solver.check(*assumptions)
    if result == z3.unknown:
        raise TimeLimit()
    return result

"""What a game's case generator writes: :class:`CaseSpec`, a scenario with a way to answer it.

A spec is a scenario document whose own answer objects (``decisions`` and the chance key, see
``docs/scenarios.md``) say how to answer every request, a :class:`Stop` (where the run stops)
and a window (which steps are compared: ``all`` from the opening, every step ``after-opening``,
the ``last`` step, or the last ``choice`` with the step that raised it). :mod:`invasion_oracle.reports.suite.build` runs it under every
reading of every ruling and keeps the readings that change it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from invasion_oracle.model.core.decisions import DecisionRequest, Request

WINDOWS = ("all", "after-opening", "last", "choice")


@dataclass(frozen=True, slots=True)
class Stop:
    """Where a generated run stops: at its ``end``, ``after`` N answers, or ``before`` the Nth
    request of a kind (a decision kind, or a chance request's kind or source).

    >>> from invasion_oracle.model.core.decisions import DecisionRequest
    >>> Stop.before("gate").matches(DecisionRequest("gate", "Ann", ("continue", "close")))
    True
    """

    how: str = "end"
    count: int = 0
    kind: str = ""

    @staticmethod
    def end() -> Stop:
        return Stop()

    @staticmethod
    def after(answers: int) -> Stop:
        return Stop("after", answers)

    @staticmethod
    def before(kind: str, nth: int = 1) -> Stop:
        return Stop("before", nth, kind)

    def matches(self, request: Request) -> bool:
        if self.how != "before":
            return False
        if isinstance(request, DecisionRequest):
            return request.kind == self.kind
        return self.kind in (request.kind, request.source)


@dataclass(frozen=True)
class CaseSpec:
    """One case as a game's plug-in describes it (``docs/adding-a-game.md``, "Cases")."""

    group: str
    name: str
    description: str
    sections: tuple[str, ...]
    features: tuple[str, ...]
    source: str
    scenario: dict[str, Any]
    projection: str = "outcome"
    stop: Stop = field(default_factory=Stop.end)
    window: str = "all"
    # The rulings the producer expects the case to turn on, for people: the generator tries every
    # ruling of the game whatever this says (reports/suite/build.py).
    rulings: tuple[str, ...] | None = None
    command: str = ""
    comment: str = ""

    def __post_init__(self) -> None:
        if self.window not in WINDOWS:
            raise ValueError(f"case {self.group}/{self.name}: window {self.window!r} not in {WINDOWS}")
        if not self.sections:
            raise ValueError(f"case {self.group}/{self.name}: cite at least one rule section")

    @property
    def kind(self) -> str:
        return "run" if self.window == "all" and self.stop.how == "end" else "action"

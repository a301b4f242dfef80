"""How a scenario file says its requests are answered: a script, then a fallback.

Both games' scenario formats carry the same ``answers`` object::

    {"script": ["red", "C2"], "then": "first-legal" | "random" | "none", "seed": 7, "prefer": ["close"]}

:class:`Answers` holds it and builds the decider or chance source it describes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.decisions import (
    ChanceRequest,
    ChanceSource,
    Decider,
    DecisionRequest,
    FirstLegalDecider,
    Option,
    PreferringDecider,
    ScriptedChance,
    ScriptedDecider,
    SeededChance,
    SeededRandomDecider,
)
from invasion_oracle.model.core.errors import IllegalDecisionError


class FirstOutcome:
    """A chance source that always gives the first listed outcome (for reproducible examples)."""

    def outcome(self, request: ChanceRequest) -> Option:
        return request.outcomes[0]


class NoFallback:
    """After a script with ``then: none`` and a ``prefer`` list: no answer means an error."""

    def decide(self, request: DecisionRequest) -> Option:
        raise IllegalDecisionError(
            f"no answer for {request.describe()}: the script ran out and no fallback is set"
        )


def _freeze(value: Any) -> Any:
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value


@dataclass(frozen=True, slots=True)
class Answers:
    """A script answered in order, then ``then``; ``prefer`` (decisions only) wins over ``then``."""

    script: tuple[Option, ...] = ()
    then: str = "first-legal"  # "first-legal", "random" or "none"
    seed: int = 0
    prefer: tuple[Option, ...] = ()

    @staticmethod
    def from_json(raw: dict[str, Any] | None, default_then: str) -> Answers:
        if raw is None:
            return Answers(then=default_then)
        return Answers(
            tuple(_freeze(a) for a in raw.get("script", [])),
            raw.get("then", default_then),
            raw.get("seed", 0),
            tuple(_freeze(a) for a in raw.get("prefer", [])),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "script": list(self.script),
            "then": self.then,
            "seed": self.seed,
            "prefer": list(self.prefer),
        }

    def _located(self, where: tuple[str, str] | None) -> tuple[str, list[str], str] | None:
        if where is None:
            return None
        source, key = where
        return source, [f"{key}.script[{i}]" for i in range(len(self.script))], key

    def decider(self, label: str, where: tuple[str, str] | None = None) -> Decider:
        """The decider; ``where`` (file, JSON path of this object) names a bad answer's place."""
        fallback: Decider | None = None
        if self.then == "first-legal":
            fallback = FirstLegalDecider()
        elif self.then == "random":
            fallback = SeededRandomDecider(self.seed)
        if self.prefer:
            fallback = PreferringDecider(self.prefer, fallback or NoFallback())
        return ScriptedDecider(list(self.script), then=fallback, label=label, located=self._located(where))

    def chance(self, label: str, where: tuple[str, str] | None = None) -> ChanceSource:
        fallback: ChanceSource | None = None
        if self.then == "first-legal":
            fallback = FirstOutcome()
        elif self.then == "random":
            fallback = SeededChance(self.seed)
        return ScriptedChance(list(self.script), then=fallback, label=label, located=self._located(where))

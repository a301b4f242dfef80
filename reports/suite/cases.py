"""The case format (fixtures format v1): value types that read and write their JSON.

A :class:`Case` holds a scenario document, which steps of its run are compared, and one
:class:`Variant` per combination of readings of the rulings the case depends on. A variant says
which answers to give (in request order), from which step the comparison starts, and the
result: ``ok`` with every acceptable outcome (:class:`Expected`, usually one; several when the
rules leave the players a choice an engine may take itself), or ``illegal`` at a step (the
answer there must be refused). ``docs/fixtures.md`` specifies every field.

>>> answer = Answer.from_json({"request": "decision", "kind": "move", "answer": "B2"})
>>> answer.to_json()
{'request': 'decision', 'kind': 'move', 'answer': 'B2'}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from invasion_oracle.model.core.canonical import canonical_json, to_jsonable
from invasion_oracle.model.core.codec import fields_json
from invasion_oracle.reports.suite.specs import Stop

FORMAT = "invasion-oracle/fixtures"
FORMAT_VERSION = 2
SUITE_VERSION = "5.0.0"
"""The suite's version: cases are added in minor versions; an expectation that changes (a bug fixed
in the oracle, a ruling's default changed) bumps the major version."""
GENERATOR_VERSION = "2.3"
"""The case generator's version (``major.minor``): bumped whenever generation changes any output."""
V3_FIELDS = ("depends_on", "section", "boards", "map")
"""The fields of suite version 3 a case keeps as its file has them (:attr:`Case.extra`): the runner
derives them for a case of an older file (``reports/conform/grade.py``, ``case_info``)."""


def plain(value: Any) -> Any:
    """``value`` as plain JSON data (tuples become lists, keys sorted, no floats): what
    ``json.loads(canonical_json(value))`` gives, without writing and reading the text (that took
    five times as long as the conversion).

    >>> from fractions import Fraction
    >>> from invasion_oracle.model.core.decisions import DecisionRequest
    >>> plain({"b": (1, Fraction(1, 2)), "a": DecisionRequest("move", "Ann", ("A2",))})["b"]
    [1, '1/2']
    >>> list(plain({"b": 1, "a": {"d": 2, "c": 3}}).items())
    [('a', {'c': 3, 'd': 2}), ('b', 1)]
    """
    return _sorted_copy(to_jsonable(value))


def _sorted_copy(value: Any) -> Any:
    """JSON data from :func:`to_jsonable` as reading its canonical text back gives it: keys in
    order and a ``str`` or ``int`` subclass (an enum member) as the plain value it is written as."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is dict:
        return {_sorted_copy(key): _sorted_copy(value[key]) for key in sorted(value)}
    if kind is list:
        return [_sorted_copy(item) for item in value]
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int(int.__repr__(value))  # the number json writes for it
    return json.loads(canonical_json(value))  # nothing to_jsonable gives: the text decides


def request_json(request: Any) -> dict[str, Any] | None:
    """A request as compared: its type, kind, who or what answers it and its options.

    ``context`` and ``purpose`` are explanations for people and are not part of the format.

    >>> from invasion_oracle.model.core.decisions import DecisionRequest
    >>> request_json(DecisionRequest("move", "Ann", ("A2", "B1"), (("hero", "red"),)))
    {'request': 'decision', 'kind': 'move', 'player': 'Ann', 'options': ['A2', 'B1']}
    """
    if request is None:
        return None
    raw = plain(request.to_json())
    fields = ("player", "options") if raw["request"] == "decision" else ("source", "outcomes")
    return {key: raw[key] for key in ("request", "kind", *fields)}


@dataclass(frozen=True, slots=True)
class RuleRef:
    """Where a rule is written: a seed file and a section heading of it (never its text)."""

    seed: str
    section: str

    def to_json(self) -> dict[str, str]:
        return fields_json(self, "seed", "section")

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> RuleRef:
        return RuleRef(str(raw["seed"]), str(raw["section"]))


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer: to a ``decision`` or a ``chance`` request of ``kind``."""

    request: str
    kind: str
    answer: Any

    def to_json(self) -> dict[str, Any]:
        return {"request": self.request, "kind": self.kind, "answer": plain(self.answer)}

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Answer:
        return Answer(str(raw["request"]), str(raw["kind"]), raw["answer"])


@dataclass(frozen=True, slots=True)
class Expected:
    """One acceptable outcome of the compared steps.

    ``requests`` is ``None`` when it is not compared (a choice an engine may take itself is not
    necessarily asked); ``via`` is the answer to that choice leading here.
    """

    events: tuple[Any, ...]
    pending: Any
    state: Any
    requests: tuple[Any, ...] | None = None
    via: Any = None

    def to_json(self) -> dict[str, Any]:
        given = [name for name in ("requests", "via") if getattr(self, name) is not None]
        return fields_json(self, "events", "pending", "state", *given)

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Expected:
        requests = raw.get("requests")
        return Expected(
            tuple(raw["events"]),
            raw["pending"],
            raw["state"],
            tuple(requests) if requests is not None else None,
            raw.get("via"),
        )


@dataclass(frozen=True, slots=True)
class Variant:
    """The case under one combination of readings."""

    readings: tuple[tuple[str, str], ...]
    answers: tuple[Answer, ...]
    start: int  # the first compared step: 0 is the opening, k the step answering answers[k-1]
    result: str  # "ok" or "illegal"
    one_of: tuple[Expected, ...] = ()
    step: int | None = None  # with "illegal": the step whose answer must be refused
    reason: str = ""  # with "illegal": the oracle's reason, for people

    @property
    def readings_map(self) -> dict[str, str]:
        return dict(self.readings)

    def to_json(self) -> dict[str, Any]:
        outcome = {"ok": ("one_of",), "illegal": ("step", "reason")}.get(self.result, ("reason",))
        written = {"readings": dict(self.readings), "from": self.start}
        return fields_json(self, "readings", "answers", "from", "result", *outcome, **written)

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Variant:
        return Variant(
            tuple(sorted(raw["readings"].items())),
            tuple(Answer.from_json(a) for a in raw["answers"]),
            int(raw["from"]),
            str(raw["result"]),
            tuple(Expected.from_json(e) for e in raw.get("one_of", [])),
            raw.get("step"),
            str(raw.get("reason", "")),
        )

    def signature(self) -> str:
        """What an implementation is sent for this variant (two variants with the same signature
        are the same question under different readings)."""
        return canonical_json({"answers": [a.to_json() for a in self.answers], "from": self.start})


@dataclass(frozen=True, slots=True)
class Derivation:
    """How the oracle realises a case under readings its file has no variant for.

    A case that depends on more than ``MAX_PRODUCT`` rulings (whole runs) stores each reading
    alone; the outcome under any other combination is computed on demand
    (:func:`invasion_oracle.reports.suite.build.derived_variant`) from the scenario's own answer
    sources (its decision and chance objects, which the stored scenario leaves out), where the
    run stops and which steps are compared.

    >>> raw = {"answer_sources": {"dice": {"seed": 1}}, "stop": {"how": "end", "count": 0, "kind": ""},
    ...        "window": "all"}
    >>> Derivation.from_json(raw).to_json() == raw
    True
    """

    answer_sources: dict[str, Any]
    stop: Stop
    window: str

    def to_json(self) -> dict[str, Any]:
        stop = fields_json(self.stop, "how", "count", "kind")
        return fields_json(
            self, "answer_sources", "stop", "window", answer_sources=plain(self.answer_sources), stop=stop
        )

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Derivation:
        stop = Stop(str(raw["stop"]["how"]), int(raw["stop"]["count"]), str(raw["stop"]["kind"]))
        return Derivation(dict(raw["answer_sources"]), stop, str(raw["window"]))


@dataclass(frozen=True)
class Case:
    """One test vector (see the module docstring and ``docs/fixtures.md``)."""

    id: str
    game: str
    kind: str
    description: str
    rule_refs: tuple[RuleRef, ...]
    features: tuple[str, ...]
    source: str
    rulings: tuple[str, ...]
    scenario: dict[str, Any]
    projection: str
    variants: tuple[Variant, ...]
    choice: bool = False  # the last answer is a choice an engine may take itself (``one_of``)
    command: str = ""  # how the oracle found it (solver and search cases), for people
    comment: str = ""
    extra: dict[str, Any] = field(default_factory=dict)  # its V3_FIELDS as its file has them
    section: str = ""  # the rule section key (a row of the game's rule map)
    citation: dict[str, str] = field(default_factory=dict)  # {"rulebook": TITLE, "section": HEADING}
    boards: tuple[str, ...] = ()  # the boards the scenario uses (Spirit Island letters, guardians)
    derive: Derivation | None = None  # past MAX_PRODUCT rulings: how other combinations are realised

    def to_json(self) -> dict[str, Any]:
        given = [name for name in ("command", "comment", "derive") if getattr(self, name)]
        return fields_json(
            self,
            *("id", "kind", "description", "rule_refs", "features", "source", "rulings", "depends_on"),
            *("section", "citation", "boards", "scenario", "projection", "choice", "expect", *given),
            depends_on=list(self.rulings),
            citation=dict(self.citation),
            expect=[v.to_json() for v in self.variants],
        )

    @staticmethod
    def from_json(raw: Mapping[str, Any], game: str) -> Case:
        return Case(
            id=str(raw["id"]),
            game=game,
            kind=str(raw["kind"]),
            description=str(raw["description"]),
            rule_refs=tuple(RuleRef.from_json(r) for r in raw["rule_refs"]),
            features=tuple(raw["features"]),
            source=str(raw["source"]),
            rulings=tuple(raw["rulings"]),
            scenario=dict(raw["scenario"]),
            projection=str(raw["projection"]),
            variants=tuple(Variant.from_json(v) for v in raw["expect"]),
            choice=bool(raw.get("choice", False)),
            command=str(raw.get("command", "")),
            comment=str(raw.get("comment", "")),
            section=str(raw.get("section", "")),
            citation={str(k): str(v) for k, v in raw.get("citation", {}).items()},
            boards=tuple(raw.get("boards", ())),
            derive=Derivation.from_json(raw["derive"]) if isinstance(raw.get("derive"), Mapping) else None,
            extra={name: raw[name] for name in V3_FIELDS if name in raw},
        )

    @property
    def group(self) -> str:
        return self.id.split("/")[1]

"""Where readings change what happens: run a scenario under every reading of a ruling and diff.

Written once over :class:`~invasion_oracle.model.core.spec.GameSpec`, for every game. :func:`compare` runs one
scenario document under each reading of one ruling (the other rulings as the scenario and
``others`` say) and returns a :class:`Difference`: the run under each reading (its outcome,
its events, or the reason the reading refuses the scenario), which outcome fields differ
(:class:`FieldDifference`, the values side by side) and which events differ
(:class:`EventHunk`, aligned like a ``diff``), and which readings the scenario tells apart.

A ruling's **witnesses** are the bundled scenarios of its game at
``examples/<pkg>/rulings/<ID>.json`` and ``examples/<pkg>/rulings/<ID>/<NAME>.json``; a file
named after a reading (``rulings/<ID>/<READING>.json``) is the witness *for* that reading
(see ``docs/adding-a-game.md``). A ruling is **witnessed** when every two of its readings are
told apart by at least one witness (:class:`Coverage`): then an implementation's results on the
witnesses say which reading it follows, as a DATC compliance statement does.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.bundled import ExampleRef, examples
from invasion_oracle.model.core.canonical import canonical_json, to_jsonable
from invasion_oracle.model.core.driver import Playthrough
from invasion_oracle.model.core.errors import InvasionError
from invasion_oracle.model.core.frozen import once_per_object
from invasion_oracle.model.core.jsonio import parse_json_bytes
from invasion_oracle.model.core.play import run
from invasion_oracle.model.core.rulings import REGISTRY, Ruling
from invasion_oracle.model.core.spec import GameSpec, ScenarioOptions

ABSENT = "(absent)"
"""How a field missing under one reading is shown beside the others' values."""


def digest(value: Any) -> str:
    """A short SHA-256 of a value's canonical JSON (for baselines and grouping).

    >>> digest({"a": 1})
    '015abd7f5cc5'
    """
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class ReadingRun:
    """One scenario played under one reading: the outcome and events, or why it was refused."""

    reading: str
    default: bool
    outcome: Any  # the spec's outcome (plain JSON data); None when refused
    events: tuple[Any, ...]  # every event as plain JSON data, in order
    error: str  # "" unless the reading refuses the scenario (or its decisions) or the run fails
    steps: int

    @property
    def refused(self) -> bool:
        return bool(self.error)

    @property
    def outcome_key(self) -> str:
        return self._digests()[0]

    @property
    def result_key(self) -> tuple[str, str, str]:
        """What two runs must share to be the same result: outcome, events and error."""
        outcome, events = self._digests()
        return (outcome, events, self.error)

    def _digests(self) -> tuple[str, str]:
        """The outcome's and the events' digests, computed once per run while it is remembered (by
        identity: a report compares every pair of readings and renders each run several times, and
        the canonical JSON of a run's events was most of a warm ``ambiguities``)."""
        return _run_digests(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "reading": self.reading,
            "default": self.default,
            "outcome": self.outcome,
            "error": self.error,
            "steps": self.steps,
            "events": len(self.events),
            "outcome_digest": self._digests()[0],
            "events_digest": self._digests()[1],
        }


def _digests_of(run: ReadingRun) -> tuple[str, str]:
    return (digest(run.outcome), digest(list(run.events)))


_run_digests = once_per_object(_digests_of, size=1024)


@dataclass(frozen=True, slots=True)
class FieldDifference:
    """One outcome field whose value differs between readings, with each reading's value."""

    path: str  # a JSONPath into the outcome: ``$.players[0].xp``; ``(run)`` for refused runs
    values: tuple[tuple[str, Any], ...]  # (reading, value), in reading order

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "values": {reading: value for reading, value in self.values}}


@dataclass(frozen=True, slots=True)
class EventHunk:
    """Events that differ between two readings' runs, aligned as a ``diff`` aligns lines.

    ``at`` is the index of the first differing event in each run; ``first`` holds the events
    only the first reading's run has there, ``second`` those only the second's has.
    """

    readings: tuple[str, str]
    at: tuple[int, int]
    first: tuple[Any, ...]
    second: tuple[Any, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "readings": list(self.readings),
            "at": list(self.at),
            "first": list(self.first),
            "second": list(self.second),
        }


@dataclass(frozen=True, slots=True)
class Difference:
    """A scenario under every reading of a ruling, and what changes between the readings."""

    ruling: str
    scenario: str  # the scenario's name as given (``example:stonespine/rulings/SS-X.json``)
    runs: tuple[ReadingRun, ...]
    outcome_fields: tuple[FieldDifference, ...]
    event_hunks: tuple[EventHunk, ...]

    @property
    def kind(self) -> str:
        """``outcome`` (an outcome field or a refusal differs), ``events`` (only the events) or ``none``."""
        if self.outcome_fields:
            return "outcome"
        if self.event_hunks:
            return "events"
        return "none"

    @property
    def groups(self) -> tuple[tuple[str, ...], ...]:
        """Readings with the same result, grouped (one group: the scenario tells none apart)."""
        found: dict[tuple[str, str, str], list[str]] = {}
        for r in self.runs:
            found.setdefault(r.result_key, []).append(r.reading)
        return tuple(tuple(g) for g in found.values())

    def separates(self, first: str, second: str) -> bool:
        """Do the two readings give different results here?"""
        keys = {r.reading: r.result_key for r in self.runs}
        return keys[first] != keys[second]

    def run(self, reading: str) -> ReadingRun:
        return next(r for r in self.runs if r.reading == reading)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruling": self.ruling,
            "scenario": self.scenario,
            "kind": self.kind,
            "groups": [list(g) for g in self.groups],
            "runs": [r.to_json() for r in self.runs],
            "outcome_fields": [f.to_json() for f in self.outcome_fields],
            "event_hunks": [h.to_json() for h in self.event_hunks],
        }


# -- running -----------------------------------------------------------------------------------


def run_reading(
    spec: GameSpec,
    document: Any,
    source: str,
    ruling: Ruling,
    reading: str,
    others: Sequence[str] = (),
    data_overrides: Mapping[str, Any] | None = None,
) -> ReadingRun:
    """Load ``document`` with ``ruling`` read as ``reading`` (``others``: more ``ID=READING``) and play it."""
    # The reading under test replaces any reading of the same ruling among ``others``.
    kept = tuple(spec_ for spec_ in others if spec_.partition("=")[0].strip() != ruling.id)
    options = ScenarioOptions((*kept, f"{ruling.id}={reading}"), data_overrides)
    try:
        scenario = spec.load(document, source, options)
        playthrough = run(scenario)
        outcome = to_jsonable(spec.outcome(scenario, playthrough.final))
    except InvasionError as err:
        return ReadingRun(reading, reading == ruling.default, None, (), _reason(err, source), 0)
    events = tuple(to_jsonable(e) for e in playthrough.events)
    return ReadingRun(reading, reading == ruling.default, outcome, events, "", len(playthrough.steps))


def _reason(err: InvasionError, source: str) -> str:
    """The error without the scenario's own name in front (the report names the scenario)."""
    text = str(err)
    return text.removeprefix(f"{source}:").removeprefix(f"{source}: ").strip()


def compare(
    spec: GameSpec,
    document: Any,
    source: str,
    ruling_id: str,
    others: Sequence[str] = (),
    data_overrides: Mapping[str, Any] | None = None,
) -> Difference:
    """Run ``document`` under every reading of ``ruling_id`` and diff the runs."""
    ruling = REGISTRY.get(ruling_id)
    runs = tuple(
        run_reading(spec, document, source, ruling, reading, others, data_overrides)
        for reading in ruling.reading_names
    )
    return diff_runs(ruling.id, source, runs)


@dataclass(frozen=True, slots=True)
class ReadingSummary:
    """A reading's result as one line of text (a game's own fingerprint of a playthrough)."""

    reading: str
    default: bool
    summary: str  # the fingerprint, or "error: ..." when the reading refuses the input


def summarize_readings(
    spec: GameSpec,
    document: Any,
    source: str,
    ruling_id: str,
    summarize: Callable[[Any, Playthrough[Any]], str],
    others: Sequence[str] = (),
) -> tuple[ReadingSummary, ...]:
    """``document`` played under each reading of ``ruling_id``, each fingerprinted by
    ``summarize(scenario, playthrough)``: what a ruling's tests match fragments of."""
    ruling = REGISTRY.get(ruling_id)
    found = []
    for reading in ruling.reading_names:
        try:
            scenario = spec.load(document, source, ScenarioOptions((*others, f"{ruling.id}={reading}")))
            text = summarize(scenario, run(scenario))
        except InvasionError as err:
            text = f"error: {err.message.split(': ', 1)[-1]}"
        found.append(ReadingSummary(reading, reading == ruling.default, text))
    return tuple(found)


def diff_runs(ruling_id: str, scenario: str, runs: tuple[ReadingRun, ...]) -> Difference:
    """The structured difference between runs of one scenario under several readings.

    Events are compared against the default reading's run (or the first that ran).

    >>> a = ReadingRun("a", True, {"xp": 1, "who": ["B2"]}, ({"event": "x"},), "", 1)
    >>> b = ReadingRun("b", False, {"xp": 2, "who": ["B2"]}, ({"event": "y"},), "", 1)
    >>> d = diff_runs("XX", "s.json", (a, b))
    >>> [(f.path, f.values) for f in d.outcome_fields]
    [('$.xp', (('a', 1), ('b', 2)))]
    >>> [(h.first, h.second) for h in d.event_hunks]
    [(({'event': 'x'},), ({'event': 'y'},))]
    """
    fields: list[FieldDifference] = []
    if len({r.error for r in runs}) > 1:
        fields.append(FieldDifference("(run)", tuple((r.reading, r.error or "ran") for r in runs)))
    ran = [r for r in runs if not r.refused]
    fields += _field_differences(ran)
    hunks: list[EventHunk] = []
    if ran:
        base = next((r for r in ran if r.default), ran[0])
        for other in ran:
            if other is not base:
                hunks += event_hunks(base, other)
    return Difference(ruling_id, scenario, runs, tuple(fields), tuple(hunks))


def event_hunks(first: ReadingRun, second: ReadingRun) -> list[EventHunk]:
    """Where ``second``'s events differ from ``first``'s (insertions, deletions, replacements)."""
    a = [canonical_json(e) for e in first.events]
    b = [canonical_json(e) for e in second.events]
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [
        EventHunk((first.reading, second.reading), (i1, j1), first.events[i1:i2], second.events[j1:j2])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _field_differences(runs: Sequence[ReadingRun]) -> list[FieldDifference]:
    readings = tuple(r.reading for r in runs)
    return [
        FieldDifference(path, tuple(zip(readings, values, strict=True)))
        for path, values in differing_fields([r.outcome for r in runs])
    ]


def differing_fields(values: Sequence[Any], path: str = "$") -> list[tuple[str, tuple[Any, ...]]]:
    """The paths where the values differ, with each value there, walking all of them at once.

    Objects are walked key by key; lists of objects of the same length index by index (a list of
    players); any other differing value is shown whole (a list of defeated heroes).

    >>> a = {"year": 3, "players": [{"name": "Ann", "defeated": []}]}
    >>> b = {"year": 3, "players": [{"name": "Ann", "defeated": [{"hero": "red"}]}]}
    >>> differing_fields([a, b])
    [('$.players[0].defeated', ([], [{'hero': 'red'}]))]
    >>> differing_fields([{"a": 1}, {"b": 1}])
    [('$.a', (1, '(absent)')), ('$.b', ('(absent)', 1))]
    """
    if len({canonical_json(v) for v in values}) <= 1:
        return []
    if all(isinstance(v, dict) for v in values):
        keys: dict[str, None] = {}
        for v in values:
            keys.update(dict.fromkeys(v))
        out = []
        for key in keys:
            child = f"{path}.{key}" if _plain_key(key) else f"{path}[{key!r}]"
            out += differing_fields([v.get(key, ABSENT) for v in values], child)
        return out
    if (
        all(isinstance(v, list) and v and all(isinstance(x, dict) for x in v) for v in values)
        and len({len(v) for v in values}) == 1
    ):
        out = []
        for index in range(len(values[0])):
            out += differing_fields([v[index] for v in values], f"{path}[{index}]")
        return out
    return [(path, tuple(values))]


def _plain_key(key: str) -> bool:
    return key.replace("_", "a").replace("-", "a").isalnum()


# -- witnesses ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Witness:
    """A bundled witness scenario of a ruling; ``for_reading`` when it is named after one."""

    ref: ExampleRef
    for_reading: str  # "" for ``rulings/<ID>.json`` or a file not named after a reading

    def __str__(self) -> str:
        return str(self.ref)


def witnesses(spec: GameSpec, ruling: Ruling) -> tuple[Witness, ...]:
    """The witness scenarios of ``ruling`` bundled with its game, in name order."""
    if not spec.examples:
        return ()
    folder = spec.examples.rpartition(":")[2]
    single = f"{folder}/rulings/{ruling.id}.json"
    nested = f"{folder}/rulings/{ruling.id}/"
    found = []
    for ref in examples(spec.examples):
        if ref.relative == single:
            found.append(Witness(ref, ""))
        elif ref.relative.startswith(nested):
            name = ref.relative.removeprefix(nested).removesuffix(".json")
            found.append(Witness(ref, name if name in ruling.reading_names else ""))
    return tuple(found)


def ruling_of_witness(relative: str, folder: str) -> str | None:
    """The ruling id a bundled file is a witness of, from its path (None: not a witness).

    >>> ruling_of_witness("stonespine/rulings/SS-X/bridge.json", "stonespine")
    'SS-X'
    >>> ruling_of_witness("stonespine/default.json", "stonespine") is None
    True
    """
    rest = relative.removeprefix(f"{folder}/rulings/")
    if rest == relative:
        return None
    return rest.split("/", 1)[0].removesuffix(".json")


@dataclass(frozen=True, slots=True)
class Coverage:
    """Which readings of a ruling its witnesses tell apart."""

    ruling: Ruling
    differences: tuple[Difference, ...]  # one per witness, in witness order
    claimed: tuple[tuple[str, str], ...] = ()  # (witness, reading) for files named after a reading

    def separated(self, first: str, second: str) -> tuple[str, ...]:
        """The witnesses on which the two readings give different results."""
        return tuple(d.scenario for d in self.differences if d.separates(first, second))

    def unseparated(self) -> tuple[tuple[str, str], ...]:
        """Every pair of readings no witness tells apart."""
        names = self.ruling.reading_names
        return tuple((a, b) for i, a in enumerate(names) for b in names[i + 1 :] if not self.separated(a, b))

    def witnesses_of(self, reading: str) -> tuple[str, ...]:
        """The witnesses on which ``reading`` gives a result of its own (differs from another reading)."""
        others = [r for r in self.ruling.reading_names if r != reading]
        return tuple(
            d.scenario for d in self.differences if any(d.separates(reading, other) for other in others)
        )

    def missing(self) -> tuple[str, ...]:
        """Problems, as sentences: readings no witness tells apart, named files that witness nothing."""
        problems = []
        if not self.differences:
            problems.append(f"{self.ruling.id}: no witness scenario")
        else:
            problems += [
                f"{self.ruling.id}: no witness tells reading {a!r} from reading {b!r}"
                for a, b in self.unseparated()
            ]
        for witness, reading in self.claimed:
            difference = next(d for d in self.differences if d.scenario == witness)
            others = [r for r in self.ruling.reading_names if r != reading]
            if not all(difference.separates(reading, other) for other in others):
                problems.append(
                    f"{self.ruling.id}: {witness} is named after reading {reading!r} but does not tell it "
                    "from every other reading"
                )
        return tuple(problems)

    @property
    def complete(self) -> bool:
        return not self.missing()

    def to_json(self) -> dict[str, Any]:
        return {
            "ruling": self.ruling.id,
            "complete": self.complete,
            "missing": list(self.missing()),
            "readings": {r: list(self.witnesses_of(r)) for r in self.ruling.reading_names},
            "witnesses": [d.to_json() for d in self.differences],
        }


def coverage(spec: GameSpec, ruling: Ruling, found: Iterable[Witness] | None = None) -> Coverage:
    """Run every witness of ``ruling`` under each of its readings."""
    listed = tuple(witnesses(spec, ruling) if found is None else found)
    differences = []
    for witness in listed:
        document = parse_json_bytes(witness.ref.read_bytes(), str(witness))
        differences.append(compare(spec, document, str(witness), ruling.id))
    claimed = tuple((str(w), w.for_reading) for w in listed if w.for_reading)
    return Coverage(ruling, tuple(differences), claimed)

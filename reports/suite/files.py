"""The files of ``fixtures/``: what the generator writes, the diff it shows, the checks it makes.

Layout (``docs/fixtures.md``):

* ``index.json`` - the suite: versions, every game's rulings (readings, defaults), projections,
  features, rule sections, data, and every case file with its case count and SHA-256;
* ``<game>/<group>.cases.json`` - one file per group of cases (``entering``, ``ravage``...);
* ``manifest.json``, ``<game>/**/*.trace.json`` - one whole-run trace per bundled scenario
  (:mod:`invasion_oracle.reports.fixtures`), the format ``invasion replay`` reads;
* ``README.md``.

Writing never changes an expectation silently: :func:`plan` compares what the oracle generates
with the files on disk, and only ``--update`` rewrites a file that exists and differs.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.canonical import canonical_json, write_atomic
from invasion_oracle.model.core.errors import InvasionError, MalformedInputError
from invasion_oracle.model.core.jsonio import (
    input_limits,
    load_schema,
    read_json_file,
    read_regular_file,
    read_text_file,
    validate,
)
from invasion_oracle.model.core.rulings import REGISTRY, Rulings
from invasion_oracle.model.core.trace import ORACLE_VERSION
from invasion_oracle.reports.conform.grade import verdict
from invasion_oracle.reports.suite.build import derived_variant
from invasion_oracle.reports.suite.cases import FORMAT, FORMAT_VERSION, GENERATOR_VERSION, SUITE_VERSION, Case
from invasion_oracle.reports.suite.oracle import Reply, play
from invasion_oracle.reports.suite.plugins import projections, suite_for

SCHEMA = ("invasion_oracle.reports", "schemas/fixtures.schema.json")
INDEX_SCHEMA = ("invasion_oracle.reports", "schemas/fixtures-index.schema.json")
SUFFIX = ".cases.json"
MAX_DIFF_LINES = 60


def text(document: Any) -> str:
    return canonical_json(document, indent=1) + "\n"


def header(game: str | None = None) -> dict[str, Any]:
    """What every file of the suite starts with: its format and versions (and its game's)."""
    generator = {"name": "invasion-oracle", "oracle_version": ORACLE_VERSION, "version": GENERATOR_VERSION}
    out = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "suite_version": SUITE_VERSION,
        "generator": generator,
    }
    if game is None:
        return {**out, "format": FORMAT + "/index"}
    return {**out, "game": game, "seed": registry.spec(game).seed}


def group_files(game: str, cases: Sequence[Case]) -> dict[str, str]:
    """``<game>/<group>.cases.json`` -> text, groups in order of first appearance."""
    groups: dict[str, list[Case]] = {}
    for case in cases:
        groups.setdefault(case.group, []).append(case)
    return {
        f"{game}/{group}{SUFFIX}": text(
            {**header(game), "group": group, "cases": [c.to_json() for c in members]}
        )
        for group, members in groups.items()
    }


def game_index(game: str, files: Mapping[str, str]) -> dict[str, Any]:
    spec = registry.spec(game)
    suite = suite_for(game)
    listed = ("id", "question", "citation", "readings", "default")  # of each ruling's own JSON
    rulings = [
        {key: value for key, value in r.to_json().items() if key in listed} for r in REGISTRY.all(game)
    ]
    data = spec.build_data(Rulings.defaults(game), None, "bundled defaults")
    own = sorted(name for name in files if name.startswith(f"{game}/"))
    return {
        "title": spec.title,
        "seed": spec.seed,
        "rulings": rulings,
        "projections": {
            name: {"meaning": p.meaning, "argument": p.argument}
            for name, p in sorted(projections(spec).items())
        },
        "features": dict(sorted(suite.features.items())) if suite else {},
        "sections": [s.heading for s in suite.sections] if suite else [],
        "data": data.to_json() if data is not None else None,
        "files": [
            {
                "file": name,
                "cases": len(json.loads(files[name])["cases"]),
                "sha256": hashlib.sha256(files[name].encode("utf-8")).hexdigest(),
            }
            for name in own
        ],
    }


def expected_files(cases: Mapping[str, Sequence[Case]], others: Mapping[str, str]) -> dict[str, str]:
    """Every file the folder holds: case files, the index, and ``others`` (the traces, manifest and
    README), by path relative to the folder."""
    out: dict[str, str] = {}
    for game, game_cases in cases.items():
        out.update(group_files(game, game_cases))
    games = {game: game_index(game, out) for game in cases}
    out["index.json"] = text({**header(), "games": games, "cases": sum(len(c) for c in cases.values())})
    out.update(others)
    return out


def published_files(cases: Mapping[str, Sequence[Case]]) -> dict[str, str]:
    """The files generated beside the suite, by path in the source tree: the human-readable suite
    (``docs/suite/GAME.md``) and each game's event schema (``reports/schemas/events-GAME.schema.json``,
    from every event of its cases)."""
    from invasion_oracle.reports.suite.events import event_schema
    from invasion_oracle.reports.suite.markdown import game_page

    out: dict[str, str] = {}
    for game, game_cases in cases.items():
        spec = registry.spec(game)
        out[f"docs/suite/{game}.md"] = game_page(game, spec.title, game_cases)
        outcomes = (o for c in game_cases for v in c.variants for o in v.one_of)
        events = (e for o in outcomes for e in o.events if isinstance(e, dict))
        out[f"reports/schemas/events-{game}.schema.json"] = text(event_schema(game, spec.title, events))
    return out


@dataclass
class Plan:
    """What writing the suite would do."""

    new: list[str] = field(default_factory=list)
    changed: dict[str, str] = field(default_factory=dict)  # name -> unified diff
    stale: list[str] = field(default_factory=list)
    same: int = 0

    @property
    def clean(self) -> bool:
        return not (self.new or self.changed or self.stale)


def plan(folder: Path, expected: Mapping[str, str], *, stale: bool = True) -> Plan:
    """What writing ``expected`` to ``folder`` would do; with ``stale``, a JSON file of the folder
    no longer generated is stale."""
    result = Plan()
    for name, content in sorted(expected.items()):
        target = folder / name
        if not target.exists():
            result.new.append(name)
        elif (old := read_text_file(target)) == content:
            result.same += 1
        else:
            result.changed[name] = diff(old, content, name)
    for path in sorted(folder.rglob("*.json")) if stale and folder.exists() else []:
        name = path.relative_to(folder).as_posix()
        if name not in expected:
            result.stale.append(name)
    return result


def diff(old: str, new: str, name: str) -> str:
    lines = list(
        difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{name}", f"b/{name}", lineterm="", n=2)
    )
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"... ({len(lines) - MAX_DIFF_LINES} more diff lines)"]
    return "\n".join(lines)


def apply(folder: Path, expected: Mapping[str, str], result: Plan, *, update: bool) -> list[str]:
    """Write new files (and, with ``update``, changed ones; remove stale ones). Returns the names."""
    written = []
    for name in result.new + (sorted(result.changed) if update else []):
        write_atomic(folder / name, expected[name])
        written.append(name)
    if update:
        for name in result.stale:
            (folder / name).unlink()
            written.append(name)
    return written


# -- reading and checking the committed files -----------------------------------------------------------


def case_files(folder: Path, games: Iterable[str] | None = None) -> list[Path]:
    wanted = set(games) if games is not None else None
    return [p for p in sorted(folder.glob(f"*/*{SUFFIX}")) if wanted is None or p.parent.name in wanted]


@cache
def outline_schema() -> dict[str, Any]:
    """The published fixtures schema with the outcomes' events, requests and pending request and
    the variants' answers checked only for their type: about a tenth of the whole schema's time
    on the suite, and it still holds every variant to its result, ``from``, ``step`` and non-empty
    ``one_of``."""
    schema = copy.deepcopy(load_schema(*SCHEMA))
    outcome = schema["$defs"]["outcome"]["properties"]
    outcome["events"] = outcome["requests"] = {"type": "array"}
    outcome["pending"] = {"type": ["object", "null"]}
    schema["$defs"]["variant"]["properties"]["answers"] = {"type": "array"}
    return schema


def read_cases(path: Path, *, check_schema: bool = True) -> tuple[str, list[Case]]:
    """The game and cases of one case file.

    Read as every input is (a regular file within the size and depth limits). Without
    ``check_schema`` (the conformance runner reads every file at start) the file is checked
    against the published schema's outline (:func:`outline_schema`: every field but the bulk of
    answers and outcomes, which the runner sends or compares as they are); a file that then fails
    to load is checked against the whole schema, which names the bad field. Either way every case
    then gets the checks no schema can make (:func:`case_problem`).
    """
    source, document = str(path), read_json_file(path)
    schema = load_schema(*SCHEMA)
    if check_schema:
        validate(document, schema, source, remember=False)  # (a whole case file, read once)
    if not isinstance(document, dict):
        raise MalformedInputError(source, "$", "a fixtures file is a JSON object")
    if document.get("format") != FORMAT or document.get("format_version") != FORMAT_VERSION:
        raise MalformedInputError(
            source,
            "$.format",
            f"not a fixtures file of this version (expected {FORMAT!r} version {FORMAT_VERSION})",
        )
    if not check_schema:  # after the version: a file of another version is named as one
        validate(document, outline_schema(), source, remember=False)
    game = str(document["game"])
    if game not in registry.names():
        raise MalformedInputError(
            source, "$.game", f"unknown game {game!r}; known: {', '.join(registry.names())}"
        )
    registry.spec(game)  # its rulings, for the readings the cases name
    for number, raw in enumerate(document["cases"]):
        problem = case_problem(raw, game)
        if problem is not None:
            raise MalformedInputError(source, f"$.cases[{number}]{problem[0]}", problem[1])
    try:
        cases = [Case.from_json(raw, game) for raw in document["cases"]]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        validate(document, schema, source, remember=False)  # names the field (only a broken file gets here)
        raise
    return game, cases


def case_problem(raw: Mapping[str, Any], game: str) -> tuple[str, str] | None:
    """What no schema can say about a case (already valid against the outline): ``(path within
    the case, reason)`` of the first problem, or None. Every ruling it names is one of the game's,
    every reading one of that ruling's, and every variant's answers are answers, its ``from`` one
    of the steps they lead to and its ``step`` one of them."""
    rulings = {r.id: r for r in REGISTRY.all(game)}
    for field_name in ("rulings", "depends_on"):
        for i, rid in enumerate(raw.get(field_name, [])):
            if rid not in rulings:
                return f".{field_name}[{i}]", f"unknown ruling {rid!r} of {game}"
    for v, variant in enumerate(raw["expect"]):
        where = f".expect[{v}]"
        for rid, reading in variant["readings"].items():
            if rid not in rulings:
                return f"{where}.readings", f"unknown ruling {rid!r} of {game}"
            if reading not in rulings[rid].reading_names:
                known = ", ".join(rulings[rid].reading_names)
                return f"{where}.readings.{rid}", f"unknown reading {reading!r} of {rid}; known: {known}"
        answers = variant["answers"]
        for a, answer in enumerate(answers):
            if (
                not isinstance(answer, dict)
                or set(answer) != {"request", "kind", "answer"}
                or answer["request"] not in ("decision", "chance")
                or not isinstance(answer["kind"], str)
            ):
                return f"{where}.answers[{a}]", "an answer is {request: decision or chance, kind, answer}"
        if variant["from"] > len(answers):
            return f"{where}.from", f"{variant['from']} is past the last step ({len(answers)} answers)"
        if variant["result"] == "illegal" and variant["step"] > len(answers):
            return f"{where}.step", f"{variant['step']} is past the last answer ({len(answers)} answers)"
    return None


def _relative(err: MalformedInputError, folder: Path) -> str:
    """A problem of a file in ``folder``, named relative to it like the others (``game/x.cases.json``)."""
    try:
        name = Path(err.source).relative_to(folder).as_posix()
    except ValueError:
        return str(err)
    return f"{name}:{err.path}: {err.reason}"


def _events_schema(game: str) -> dict[str, Any] | None:
    try:
        schema: dict[str, Any] = load_schema("invasion_oracle.reports", f"schemas/events-{game}.schema.json")
    except (OSError, MalformedInputError, ValueError):
        return None
    return schema


def _event_problem(schema: dict[str, Any] | None, event: Any) -> str:
    """Why ``event`` does not meet its kind's schema ('' when it does)."""
    if schema is None:
        return "no event schema for this game (run `invasion fixtures generate`)"
    if not isinstance(event, dict) or event.get("event") not in schema["$defs"]:
        kind = event.get("event") if isinstance(event, dict) else event
        return f"event kind {kind!r} is not in the game's event schema"
    try:
        validate(event, {**schema["$defs"][event["event"]], "$defs": schema["$defs"]}, "event")
    except MalformedInputError as err:
        return f"{err.path}: {err.reason}"
    return ""


def _layout_problems(
    folder: Path, games: list[str], files: list[Path], listed: Mapping[str, Any]
) -> Iterator[str]:
    """What is wrong with the folder's shape: a game's folder that is not a folder, no case file
    for a game asked, a file the index lists that is not here."""
    present = {path.relative_to(folder).as_posix() for path in files}
    for game in games:
        expected = sorted(name for name in listed if name.startswith(f"{game}/"))
        lists = f"; index.json lists {len(expected)}" if expected else ""
        if (folder / game).exists() and not (folder / game).is_dir():
            yield f"{game}: is a file, expected the folder of {game}'s case files{lists}"
        elif not any(name.startswith(f"{game}/") for name in present):
            yield f"{game}: no case files{lists} (run `invasion fixtures generate`)"
        else:
            yield from (
                f"{name}: listed in index.json but missing" for name in expected if name not in present
            )


def _case_problems(case: Case, events_schema: dict[str, Any] | None) -> Iterator[str]:
    """What is wrong with one stored case: an event its game's event schema refuses, a variant the
    oracle's replay does not meet (under the readings named, the others at their defaults), a
    derivation that does not realise the variant of the document's own readings."""
    spec = registry.spec(case.game)
    defaults = {r.id: r.default for r in REGISTRY.all(case.game)}
    for i, variant in enumerate(case.variants):
        for o, outcome in enumerate(variant.one_of):
            for e, event in enumerate(outcome.events):
                if bad := _event_problem(events_schema, event):
                    yield f"{case.id} (variant {i}, outcome {o}, event {e + 1}): {bad}"
        readings = {**defaults, **variant.readings_map}
        try:
            reply = play(
                spec, case.scenario, readings, variant.answers, variant.start, case.projection, case.id
            )
        except InvasionError as err:  # the oracle's own refusal of bad input: a failure
            reply = Reply("error", reason=str(err))
        found = verdict(variant, reply.to_json())
        if not found.passed:
            yield f"{case.id} (variant {i}): {found.detail}"
    own = case.variants[0]
    if case.derive is not None and derived_variant(case, own.readings_map).to_json() != own.to_json():
        yield f"{case.id}: its derive does not reproduce variant 0"


def check_folder(folder: Path, games: Iterable[str] | None = None) -> tuple[int, list[str]]:
    """Validate every case file and replay every variant through the oracle: (variants, problems)."""
    registry.load_all()
    problems: list[str] = []
    checked = 0
    index_path = folder / "index.json"
    index: dict[str, Any] = {}
    if not index_path.exists():
        problems.append("index.json: missing (run `invasion fixtures generate`)")
    else:
        try:
            raw = read_json_file(index_path)
            validate(raw, load_schema(*INDEX_SCHEMA), str(index_path))
            index = raw
        except MalformedInputError as err:
            problems.append(_relative(err, folder))
    listed = {f["file"]: f for g in index.get("games", {}).values() for f in g.get("files", [])}
    asked = list(games) if games is not None else [g for g in registry.names() if suite_for(g)]
    files = case_files(folder, asked)
    problems.extend(_layout_problems(folder, asked, files, listed))
    first_seen: dict[str, str] = {}  # case id -> the file that holds it
    for path in files:
        name = path.relative_to(folder).as_posix()
        try:
            game, cases = read_cases(path)
        except MalformedInputError as err:
            problems.append(_relative(err, folder))
            continue
        for number, case in enumerate(cases):
            if case.id in first_seen:
                problems.append(
                    f"{name}:$.cases[{number}].id: duplicate case id {case.id!r} (also in {first_seen[case.id]})"
                )
            first_seen.setdefault(case.id, name)
        digest = hashlib.sha256(read_regular_file(path, name, input_limits().max_bytes)).hexdigest()
        if index and name not in listed:
            problems.append(f"{name}: not listed in index.json")
        elif index and listed[name]["sha256"] != digest:
            problems.append(f"{name}: its SHA-256 differs from index.json's")
        events_schema = _events_schema(game)
        for case in cases:
            checked += len(case.variants)
            problems.extend(f"{name}: {problem}" for problem in _case_problems(case, events_schema))
    return checked, problems

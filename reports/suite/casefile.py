"""Conformance cases written as data: TOML files a rules person edits, read into :class:`CaseSpec`.

A case file is ``reports/suite/cases/GAME/TOPIC.toml`` (schema: ``invasion schema suite-cases``;
every field: ``docs/fixtures.md``, "Adding a case"): a ``title``, ``defaults`` given once for every
case (a case's own value wins; the tables ``scenario`` and ``patch`` are merged key by key),
``named`` values used as ``{ use = "NAME" }``, and the ``case`` list in the suite's order. A case
with ``rows = "TABLE"`` is a pattern: one case per row of the plug-in's computed table, its
``{NAME}`` placeholders filled from the row (:func:`fill`); a row may pick ``patterns.NAME``.

What is truly computed (the rows of a spread over every board or card of the data in force, a
walk, a solver's answer) stays code in the game's plug-in, which :func:`game_suite` joins with its
case files in the order of the game's file ``cases/PKG.toml`` (schema ``suite-game``).

>>> document = {
...     "defaults": {"group": "grow", "sections": ["grow-move"], "features": ["grow"],
...                  "scenario": {"size": 2}},
...     "named": {"three": {"invaders": 3}},
...     "case": [{"name": "one", "description": "a case", "scenario": {"1": {"use": "three"}},
...               "stop": {"after": 1}, "window": "last"}],
... }
>>> [case] = cases_from_document(document, "grow.toml")
>>> case.group, case.name, case.scenario, case.stop.how, case.stop.count, case.kind
('grow', 'one', {'size': 2, '1': {'invaders': 3}}, 'after', 1, 'action')
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import load_schema, validate
from invasion_oracle.model.core.suggest import did_you_mean
from invasion_oracle.reports.suite.plugins import (
    GameSuite,
    Producer,
    Projection,
    ProjectionFunction,
    Rows,
    Section,
)
from invasion_oracle.reports.suite.specs import CaseSpec, Stop

PACKAGE = "invasion_oracle.reports.suite"
SCHEMA = ("invasion_oracle.reports", "schemas/suite-cases.schema.json")
GAME_SCHEMA = ("invasion_oracle.reports", "schemas/suite-game.schema.json")
MERGED = ("scenario", "patch")  # tables merged key by key with the defaults'


@dataclass(frozen=True)
class DataCases:
    """A producer that reads one case file: the suite's unit of work, like a producer in code.

    >>> DataCases("vulketh", "grow-move").__name__
    'grow-move'
    """

    game: str
    topic: str
    rows: Mapping[str, Rows] = field(default_factory=dict)

    @property
    def __name__(self) -> str:  # producers are named in messages and by tools
        return self.topic

    def __call__(self) -> list[CaseSpec]:
        return read_cases(self.game, self.topic, self.rows)


def read_cases(game: str, topic: str, rows: Mapping[str, Rows] | None = None) -> list[CaseSpec]:
    """The cases of the bundled file ``cases/GAME/TOPIC.toml``, in the file's order."""
    folder = game.replace("-", "_")  # a package folder: spirit-island's cases are in spirit_island/
    source, document = _bundled_toml(folder, f"{topic}.toml")
    return cases_from_document(document, source, rows)


def _bundled_toml(*parts: str) -> tuple[str, Any]:
    """``(source, parsed document)`` of the bundled file ``cases/PARTS...``."""
    source = "/".join(("reports/suite/cases", *parts))
    try:
        return source, tomllib.loads(files(PACKAGE).joinpath("cases", *parts).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise MalformedInputError(source, "$", f"not TOML: {err}") from None


def cases_from_document(document: Any, source: str, rows: Mapping[str, Rows] | None = None) -> list[CaseSpec]:
    """The cases of one case-file document (parsed TOML or JSON), checked and made."""
    schema = load_schema(*SCHEMA)
    validate(document, schema, source)
    named = document.get("named", {})
    defaults = document.get("defaults", {})
    made = []
    for index, raw in enumerate(document.get("case", [])):
        where = f"$.case[{index}]"
        if "rows" not in raw:
            made.append(_case(_with_defaults(defaults, raw), named, source, where))
            continue
        for number, row in enumerate(_rows(raw["rows"], rows or {}, source, f"{where}.rows")):
            at = f"{where} (row {number})"
            pattern = {key: value for key, value in raw.items() if key != "rows"}
            if "pattern" in row:
                if row["pattern"] not in document.get("patterns", {}):
                    raise MalformedInputError(source, at, f"no pattern {row['pattern']!r} in $.patterns")
                pattern = _with_defaults(pattern, document["patterns"][row["pattern"]])
            fields = fill(_with_defaults(defaults, pattern), row, source, at)
            _check_fields(fields, schema, source, where, number)
            made.append(_case(fields, named, source, at))
    _unique_names(made, source)
    return made


def _rows(name: str, rows: Mapping[str, Rows], source: str, where: str) -> Iterable[Mapping[str, Any]]:
    if name not in rows:
        known = ", ".join(sorted(rows)) or "none"
        raise MalformedInputError(
            source, where, f"unknown rows {name!r}{did_you_mean(name, rows)}; known: {known}"
        )
    return rows[name]()


PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fill(value: Any, row: Mapping[str, Any], source: str = "", where: str = "$") -> Any:
    """``value`` with every ``{NAME}`` in its strings (keys too) replaced by the row's value
    ``NAME``: a string that is a placeholder alone becomes the value itself (a list, a table, a
    number), one inside text becomes its text. Other braces are left as they are.

    >>> fill({"name": "{land}-ravage", "{land}": "{pieces}", "stop": "{stop}"},
    ...      {"land": "a5", "pieces": "2E", "stop": {"after": 1}})
    {'name': 'a5-ravage', 'a5': '2E', 'stop': {'after': 1}}
    """

    def value_of(match: re.Match[str]) -> Any:
        if match[1] not in row:
            known = ", ".join(sorted(row))
            raise MalformedInputError(source, where, f"no value {match[1]!r} in the row; it has: {known}")
        return row[match[1]]

    if isinstance(value, str):
        whole = PLACEHOLDER.fullmatch(value)
        if whole:
            return copy.deepcopy(value_of(whole))
        return PLACEHOLDER.sub(lambda match: str(value_of(match)), value)
    if isinstance(value, dict):
        return {
            str(fill(key, row, source, where)): fill(item, row, source, where) for key, item in value.items()
        }
    if isinstance(value, list):
        return [fill(item, row, source, where) for item in value]
    return copy.deepcopy(value)


def _check_fields(fields: dict[str, Any], schema: dict[str, Any], source: str, where: str, row: int) -> None:
    """A filled pattern is checked as a case (its placeholders could not be before)."""
    try:
        validate(fields, {**schema["$defs"]["fields"], "$defs": schema["$defs"]}, source)
    except MalformedInputError as err:
        raise MalformedInputError(
            source, f"{where}{err.path.removeprefix('$')} (row {row})", err.reason
        ) from None


def _with_defaults(defaults: Mapping[str, Any], case: Mapping[str, Any]) -> dict[str, Any]:
    fields = {**copy.deepcopy(dict(defaults)), **copy.deepcopy(dict(case))}
    for key in MERGED:
        if key in defaults and key in case:
            fields[key] = deep_merge(defaults[key], case[key])
    return fields


def deep_merge(base: Any, change: Any) -> Any:
    """``change`` over ``base``: tables merged key by key, anything else replaced.

    >>> deep_merge({"a": {"b": 1, "c": 2}, "d": [1]}, {"a": {"c": 3}, "d": [2]})
    {'a': {'b': 1, 'c': 3}, 'd': [2]}
    """
    if isinstance(base, dict) and isinstance(change, dict):
        merged = copy.deepcopy(base)
        for key, value in change.items():
            merged[key] = deep_merge(merged[key], value) if key in merged else copy.deepcopy(value)
        return merged
    return copy.deepcopy(change)


def _case(fields: dict[str, Any], named: Mapping[str, Any], source: str, where: str) -> CaseSpec:
    for required in ("group", "name", "description", "sections", "features", "scenario"):
        if required not in fields:
            raise MalformedInputError(source, where, f"'{required}' is required (in the case or in defaults)")
    scenario = resolve(fields["scenario"], named, source, f"{where}.scenario")
    if "patch" in fields:
        scenario = deep_merge(scenario, resolve(fields["patch"], named, source, f"{where}.patch"))
    given = {
        key: fields[key]
        for key in ("group", "name", "description", "projection", "window", "command", "comment")
        if key in fields
    }
    try:
        return CaseSpec(
            **given,
            sections=tuple(fields["sections"]),
            features=tuple(fields["features"]),
            source=fields.get("source", "rule"),  # a case file's cases are hand-made by default
            scenario=scenario,
            stop=_stop(fields.get("stop", "end")),
            rulings=tuple(fields["rulings"]) if "rulings" in fields else None,
        )
    except ValueError as err:
        raise MalformedInputError(source, where, str(err)) from None


def resolve(value: Any, named: Mapping[str, Any], source: str, where: str, seen: tuple[str, ...] = ()) -> Any:
    """``value`` with every ``{ use = "NAME" }`` replaced by a copy of the named value."""
    if isinstance(value, dict):
        if set(value) == {"use"} and isinstance(value["use"], str):
            name = value["use"]
            if name not in named:
                raise MalformedInputError(
                    source, where, f"no named value {name!r}{did_you_mean(name, named)}"
                )
            if name in seen:
                raise MalformedInputError(source, where, f"named value {name!r} uses itself")
            return resolve(named[name], named, source, f"$.named.{name}", (*seen, name))
        return {key: resolve(item, named, source, f"{where}.{key}", seen) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve(item, named, source, f"{where}[{i}]", seen) for i, item in enumerate(value)]
    return copy.deepcopy(value)


def _stop(raw: Any) -> Stop:
    if raw == "end":
        return Stop.end()
    return Stop.after(raw["after"]) if "after" in raw else Stop.before(raw["before"], raw.get("nth", 1))


def _unique_names(cases: list[CaseSpec], source: str) -> None:
    seen: set[tuple[str, str]] = set()
    for index, case in enumerate(cases):
        key = (case.group, case.name)
        if key in seen:
            raise MalformedInputError(source, f"$.case[{index}].name", f"case {case.group}/{case.name} twice")
        seen.add(key)


def game_suite(
    game: str,
    projections: Mapping[str, ProjectionFunction],
    computed: Iterable[Producer] = (),
    *rows: Iterable[Rows],
) -> GameSuite:
    """The plug-in of ``game`` from its suite file ``cases/PKG.toml`` (schema ``suite-game``), with
    the plug-in's projection functions, computed producers and computed tables (``rows``, in
    groups), by name."""
    source, document = _bundled_toml(f"{game.replace('-', '_')}.toml")
    tables = [table for group in rows for table in group]
    return suite_from_document(document, source, game, projections, computed, tables, list(topics(game)))


def suite_from_document(
    document: Any,
    source: str,
    game: str,
    projections: Mapping[str, ProjectionFunction],
    computed: Iterable[Producer],
    rows: Iterable[Rows],
    case_files: list[str],
) -> GameSuite:
    """A game's plug-in from its parsed suite file: its rule sections, features and notes, and its
    producers in the file's order, each one of ``case_files`` (by topic) or of ``computed`` (by
    name). Every case file and computed producer must be named: one left out would be cases
    silently missing from the suite."""
    validate(document, load_schema(*GAME_SCHEMA), source)
    by_name = {producer.__name__: producer for producer in computed}
    tables = {table.__name__: table for table in rows}
    producers: list[Producer] = []
    for index, name in enumerate(document["producers"]):
        if name in by_name:
            producers.append(by_name[name])
        elif name in case_files:
            producers.append(DataCases(game, name, tables))
        else:
            hint = did_you_mean(name, [*by_name, *case_files])
            reason = f"no case file {name}.toml and no computed producer {name!r}{hint}"
            raise MalformedInputError(source, f"$.producers[{index}]", reason)
    for name in [*case_files, *by_name]:
        if name not in document["producers"]:
            raise MalformedInputError(
                source, "$.producers", f"{name!r} is not named: its cases would be left out"
            )
    described = document.get("projections", {})
    for name in [*described, *projections]:
        if name not in described or name not in projections:
            reason = "described but not computed" if name in described else "computed but not described"
            raise MalformedInputError(source, f"$.projections.{name}", f"projection {name!r} is {reason}")
    return GameSuite(
        game=game,
        sections=tuple(Section(key, heading) for key, heading in document["sections"].items()),
        projections=tuple(
            Projection(name, d["meaning"], projections[name], d.get("argument", ""))
            for name, d in described.items()
        ),
        features=dict(document["features"]),
        producers=tuple(producers),
        notes=dict(document.get("notes", {})),
        rulebook=document["rulebook"],
        tables=tables,
    )


def topics(game: str) -> Iterator[str]:
    """The bundled case files of ``game``, by topic name (for tools and tests)."""
    folder = files(PACKAGE).joinpath("cases", game.replace("-", "_"))
    names = sorted(entry.name for entry in folder.iterdir())  # by file name, the order tools saw
    yield from (name.removesuffix(".toml") for name in names if name.endswith(".toml"))

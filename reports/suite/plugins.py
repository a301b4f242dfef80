"""Per-game case plug-ins, found through the registry.

A game (package ``<pkg>``) adds its cases with a module ``reports/suite/<pkg>.py`` defining
``SUITE``, a :class:`GameSuite` (``casefile.game_suite`` makes it from ``cases/<pkg>.toml``): its
rule sections, projections, feature tags and *producers*, each yielding case specs and each one
unit of work for the parallel generator. A game without a plug-in still gets the generic cases
(:mod:`invasion_oracle.reports.suite.generic`) and the ``outcome`` projection; ``invasion fixtures
coverage`` then reports its rule sections as unknown and fails.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.spec import GameSpec
from invasion_oracle.reports.suite.events import coded_result
from invasion_oracle.reports.suite.specs import CaseSpec

ProjectionFunction = Callable[[Any, Any, str], Any]
"""``(scenario, state, argument) -> JSON``: a view of a state (the argument follows ``:``)."""
Producer = Callable[[], Iterable[CaseSpec]]
"""A unit of the generator's work: the specs of some of a game's cases."""
Rows = Callable[[], Iterable[Mapping[str, Any]]]
"""A computed table: each row (``{NAME: value}``) fills a pattern case's ``{NAME}`` placeholders."""


@dataclass(frozen=True, slots=True)
class Projection:
    """A named view of a state that cases compare (``land:A5``: name ``land``, argument ``A5``)."""

    name: str
    meaning: str
    function: ProjectionFunction
    argument: str = ""  # what the argument is ("a land name"); empty when there is none


@dataclass(frozen=True, slots=True)
class Section:
    """A row of the game's rule map (``docs/<pkg>.md``, "Where each rule lives")."""

    key: str
    heading: str


@dataclass(frozen=True)
class GameSuite:
    """A game's case plug-in."""

    game: str
    sections: tuple[Section, ...]
    projections: tuple[Projection, ...]
    features: dict[str, str]
    producers: tuple[Producer, ...]
    notes: dict[str, str] = field(default_factory=dict)
    rulebook: str = ""  # the title citations name (a reader has the book, not our seed files)
    # the computed tables the game's pattern cases read (``rows = "NAME"``, reports/suite/casefile.py)
    tables: Mapping[str, Rows] = field(default_factory=dict)

    def section(self, key: str) -> Section:
        for section in self.sections:
            if section.key == key:
                return section
        raise KeyError(f"{self.game}: no rule section {key!r}")


def _outcome(spec: GameSpec) -> Projection:
    def project(scenario: Any, state: Any, argument: str) -> Any:
        """The outcome document with its ``result.reason`` as a code (docs/fixtures.md, "Reason
        codes"): compared values are never prose."""
        outcome = spec.outcome(scenario, state)
        result = outcome.get("result") if isinstance(outcome, dict) else None
        if isinstance(result, dict) and isinstance(result.get("reason"), str):
            return {**outcome, "result": coded_result(spec.name, result)}
        return outcome

    meaning = "the game's outcome (`invasion GAME simulate --json`: answer.outcome), at any point of a run"
    return Projection("outcome", meaning, project)


@cache
def suite_for(game: str) -> GameSuite | None:
    """The game's plug-in (``reports/suite/<pkg>.py``), or ``None`` when it has none (or ``game``
    is no registered game: a name read from a reply or a file never chooses what is imported)."""
    if game not in registry.names():
        return None
    name = f"invasion_oracle.reports.suite.{registry.package_of(game)}"
    if importlib.util.find_spec(name) is None:
        return None
    suite: GameSuite = importlib.import_module(name).SUITE
    return suite


def projections(spec: GameSpec) -> dict[str, Projection]:
    """Every projection of a game: ``outcome`` and its plug-in's."""
    out = {"outcome": _outcome(spec)}
    suite = suite_for(spec.name)
    if suite is not None:
        out.update({p.name: p for p in suite.projections})
    return out


def project(spec: GameSpec, name: str, scenario: Any, state: Any) -> Any:
    """The projection ``name`` (``base`` or ``base:argument``) of ``state``."""
    base, _, argument = name.partition(":")
    known = projections(spec)
    if base not in known:
        raise MalformedInputError(
            "projection", name, f"{spec.name} has no projection {base!r}; known: {', '.join(sorted(known))}"
        )
    projection = known[base]
    if bool(projection.argument) != bool(argument):
        need = f"'{base}:<{projection.argument}>'" if projection.argument else f"'{base}' with no argument"
        raise MalformedInputError("projection", name, f"write it as {need}")
    return projection.function(scenario, state, argument)

"""Divergence search: the smallest generated scenario where two readings of a ruling differ.

For a ruling, hypothesis draws scenario documents from the game's ``scenario_documents()``
(:mod:`invasion_oracle.properties.hooks`), runs each under every reading (:func:`invasion_oracle.model.core.ambiguity.compare`)
and shrinks the first whose *outcomes* differ to a small one. Scenarios on which only the events
differ are counted (they tell readings apart in a fixture's steps, not in its outcome). The
found scenario is cleaned (rulings at their default dropped, the searched ruling left open),
run again, and returned with its :class:`~invasion_oracle.model.core.ambiguity.Difference`: the oracle is the
judge of every witness.

Answers (:class:`Divergence`) are plain, picklable values: the batch runner sends searches to a
process pool or a Dask cluster and gets them back.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.ambiguity import Difference, compare
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.properties.budget import SearchBudget, Spent, smallest
from invasion_oracle.properties.hooks import scenario_strategy

FOUND = "found"  # a scenario whose outcomes differ (shrunk)
NONE_FOUND = "none-found"  # the budget was spent without one
UNKNOWN = "unknown"  # the time cap stopped the search before its budget was spent
NO_GENERATOR = "no-generator"  # the game has no scenario_documents()
GENERATED = "generated scenario"  # the source name of a drawn document in error messages


@dataclass(frozen=True, slots=True)
class Divergence:
    """The answer of one divergence search."""

    game: str
    ruling: str
    status: str
    engine: str  # "hypothesis" (generated and shrunk) or "z3" (an encoding of the rule)
    budget: SearchBudget
    runs: int  # scenarios played, each under every reading
    events_only: int  # of those, how many differed in their events only
    document: dict[str, Any] | None  # the witness scenario when found
    difference: Difference | None
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "ruling": self.ruling,
            "status": self.status,
            "engine": self.engine,
            "budget": self.budget.to_json(),
            "runs": self.runs,
            "events_only": self.events_only,
            "document": self.document,
            "difference": self.difference.to_json() if self.difference else None,
            "message": self.message,
        }


def search(game: str, ruling_id: str, budget: SearchBudget) -> Divergence:
    """The smallest generated scenario of ``game`` whose outcome depends on ``ruling_id``."""
    strategy = scenario_strategy(game)
    spec = registry.spec(game)
    if strategy is None:
        return Divergence(
            spec.name,
            ruling_id,
            NO_GENERATOR,
            "hypothesis",
            budget,
            0,
            0,
            None,
            None,
            f"properties/{registry.package_of(spec.name)}.py has no scenario_documents() strategy",
        )
    spent = Spent()
    # The kind of each document's difference (None: the oracle crashed), by the document's repr:
    # Hypothesis draws some documents again and the reduction tries some twice (about one in six
    # of a search's runs), and the oracle's answer for a document does not change.
    kinds: dict[str, str | None] = {}

    def outcomes_differ(document: Any) -> bool:
        key = repr(document)
        if key in kinds:
            kind = kinds[key]
        else:
            try:
                kind = compare(spec, document, GENERATED, ruling_id).kind
            except Exception:  # a crash of the oracle is the well-formedness checks' business
                kind = None
            kinds[key] = kind
        if kind is None:
            if not spent.reducing:  # a reduction the loader refuses is just not a witness
                spent.note("crashed")
            return False
        if kind == "events" and not spent.reducing:
            spent.note("events")
        return kind == "outcome"

    found = smallest(strategy, outcomes_differ, budget, ("divergence", spec.name, ruling_id), spent)
    events_only = spent.notes.get("events", 0)
    crashed = spent.notes.get("crashed", 0)
    note = f"{crashed} drawn scenario(s) crashed the oracle (see --wellformed)" if crashed else ""
    if found is None:
        status = UNKNOWN if spent.timed_out else NONE_FOUND
        return Divergence(
            spec.name, ruling_id, status, "hypothesis", budget, spent.runs, events_only, None, None, note
        )
    document = open_ruling(found, ruling_id)
    difference = compare(spec, document, GENERATED, ruling_id)
    if difference.kind != "outcome":  # cleaning changed it: keep the scenario as drawn
        document = found
        difference = compare(spec, document, GENERATED, ruling_id)
    return Divergence(
        spec.name, ruling_id, FOUND, "hypothesis", budget, spent.runs, events_only, document, difference, note
    )


def open_ruling(document: dict[str, Any], ruling_id: str) -> dict[str, Any]:
    """A copy of ``document`` that leaves ``ruling_id`` open and drops rulings at their default.

    >>> import invasion_oracle.model.stonespine
    >>> open_ruling({"rulings": {"SS-PASSAGE": "bridge", "SS-MINIONS": "all", "SS-TROLL-MOVE": "may"}},
    ...             "SS-PASSAGE")
    {'rulings': {'SS-TROLL-MOVE': 'may'}}
    """
    cleaned = copy.deepcopy(document)
    rulings = cleaned.get("rulings")
    if isinstance(rulings, dict):
        kept = {
            rid: reading
            for rid, reading in rulings.items()
            if rid != ruling_id and not (rid in REGISTRY and REGISTRY.get(rid).default == reading)
        }
        if kept:
            cleaned["rulings"] = kept
        else:
            del cleaned["rulings"]
    return cleaned

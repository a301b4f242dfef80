"""Rules a reading makes dead: under one reading of a ruling, a rule of the rule map never fires.

A reading that can never let a rule run is a strong argument against it, and a default reading
that does so is a problem a designer's CI should fail on: Vul'Keth's ``VK-POWER-UNLOCK=by-count``
unlocks powers from the top by the number of Warlords, and the fifth Warlord ends the game, so
the bottom power (War) never runs under it.

How it is found, for a ruling of a game that declares ``RULE_EVENTS`` (:mod:`invasion_oracle.properties.hooks`):

1. every witness of the ruling is played under every reading; a rule that fires under one
   reading and not under another is a *candidate* for that other reading (readings only matter
   where they differ, and the witnesses are where they differ);
2. for each candidate, the game's generated scenarios (``scenario_documents()``), played under
   that reading, are searched for one where the rule fires (hypothesis, the budget's examples).
   Found: the rule is alive under the reading (the scenario is kept as evidence). Not found:
   the reading is reported as one under which the rule *never fired* - a search, not a proof,
   like the well-formedness checks (:mod:`invasion_oracle.properties.wellformed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.ambiguity import run_reading, witnesses
from invasion_oracle.model.core.jsonio import read_json_file
from invasion_oracle.model.core.rulings import Ruling
from invasion_oracle.properties.budget import SearchBudget, Spent, smallest
from invasion_oracle.properties.hooks import rule_events, scenario_strategy

GENERATED = "generated scenario"

NEVER_FIRED = "never-fired"
FIRES = "fires"
UNKNOWN = "unknown"  # the time cap ended the search before its examples were drawn


@dataclass(frozen=True, slots=True)
class DeadRule:
    """One (reading, rule) the witnesses made suspect, and what the search over generated
    scenarios found: the rule fires (``document`` shows it) or it never fired in ``runs`` runs."""

    game: str
    ruling: str
    reading: str
    default: bool  # the reading is the ruling's default
    rule: str
    alive_under: tuple[str, ...]  # the readings under which a witness fires the rule
    witness: str  # the witness that shows it firing under them
    status: str  # NEVER_FIRED / FIRES / UNKNOWN
    runs: int
    document: dict[str, Any] | None  # a generated scenario where it fires (status FIRES)

    def line(self) -> str:
        """One line for a CI log (``ambiguities --check``)."""
        default = " (the default)" if self.default else ""
        return (
            f"{self.ruling}={self.reading}{default}: the rule {self.rule!r} never fired in {self.runs} "
            f"generated scenarios; it fires under {', '.join(self.alive_under)} in {self.witness}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "ruling": self.ruling,
            "reading": self.reading,
            "default": self.default,
            "rule": self.rule,
            "alive_under": list(self.alive_under),
            "witness": self.witness,
            "status": self.status,
            "runs": self.runs,
            "document": self.document,
        }


def _fired(events: tuple[Any, ...], rules: dict[str, Any]) -> set[str]:
    return {rule for rule, fires in rules.items() if any(fires(e) for e in events)}


def dead_rules(ruling: Ruling, budget: SearchBudget) -> tuple[DeadRule, ...]:
    """Every candidate (reading, rule) of ``ruling`` with what the search found, in reading then
    rule order; empty when the game declares no ``RULE_EVENTS`` or no witness separates readings."""
    spec = registry.spec(ruling.game)
    rules = dict(rule_events(spec.name))
    if not rules:
        return ()
    # rule -> reading -> the first witness firing it there
    firing: dict[str, dict[str, str]] = {}
    for witness in witnesses(spec, ruling):
        document = read_json_file(str(witness.ref))
        for reading in ruling.reading_names:
            run = run_reading(spec, document, str(witness.ref), ruling, reading)
            for rule in _fired(run.events, rules):
                firing.setdefault(rule, {}).setdefault(reading, str(witness.ref))
    strategy = scenario_strategy(spec.name)
    found: list[DeadRule] = []
    for reading in ruling.reading_names:
        for rule in rules:  # declaration order: the rule map's
            alive = firing.get(rule, {})
            if not alive or reading in alive:
                continue
            under = tuple(r for r in ruling.reading_names if r in alive)
            found.append(
                _search(ruling, reading, rule, rules[rule], under, alive[under[0]], strategy, budget)
            )
    return tuple(found)


def _search(
    ruling: Ruling,
    reading: str,
    rule: str,
    fires: Any,
    under: tuple[str, ...],
    witness: str,
    strategy: Any,
    budget: SearchBudget,
) -> DeadRule:
    spec = registry.spec(ruling.game)

    def fired(document: Any) -> bool:
        run = run_reading(spec, document, GENERATED, ruling, reading)
        return any(fires(e) for e in run.events)

    def answer(status: str, runs: int, document: dict[str, Any] | None) -> DeadRule:
        default = reading == ruling.default
        return DeadRule(spec.name, ruling.id, reading, default, rule, under, witness, status, runs, document)

    if strategy is None:
        return answer(UNKNOWN, 0, None)
    spent = Spent()
    document = smallest(strategy, fired, budget, ("dead-rule", ruling.id, reading, rule), spent)
    if document is not None:
        return answer(FIRES, spent.runs, document)
    return answer(UNKNOWN if spent.timed_out else NEVER_FIRED, spent.runs, None)

"""Every CS-* ruling has a witness scenario on which each reading gives a different outcome, and
the default reading of each is the one documented."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import invasion_oracle.model.cloudspire  # noqa: F401  (registers the rulings)
from invasion_oracle.model.cloudspire.outcome import outcome
from invasion_oracle.model.cloudspire.rulings import GAME
from invasion_oracle.model.cloudspire.scenario import scenario_from_document
from invasion_oracle.model.cloudspire.simulate import run
from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.core.errors import InvasionError
from invasion_oracle.model.core.rulings import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
WITNESSES = ROOT / "examples" / "cloudspire" / "rulings"


@cache
def outcomes_by_reading(ruling_id: str) -> dict[str, str]:
    path = WITNESSES / f"{ruling_id}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    found = {}
    for reading in REGISTRY.get(ruling_id).reading_names:
        try:
            scenario = scenario_from_document(document, str(path), (f"{ruling_id}={reading}",))
            found[reading] = canonical_json(outcome(scenario, run(scenario).final))
        except InvasionError as err:
            found[reading] = f"error: {err}"
    return found


@pytest.mark.parametrize("ruling_id", [r.id for r in REGISTRY.all(GAME)])
def test_every_reading_gives_a_different_outcome_on_the_witness(ruling_id: str) -> None:
    found = outcomes_by_reading(ruling_id)
    assert len(set(found.values())) == len(found), f"{ruling_id}: readings agree on the witness"
    assert not any(v.startswith("error") for v in found.values())


def test_every_witness_belongs_to_a_ruling() -> None:
    ids = {r.id for r in REGISTRY.all(GAME)}
    assert {p.stem for p in WITNESSES.glob("*.json")} == ids


def test_the_readings_change_what_the_witnesses_say_they_change() -> None:
    """Spot checks of what each reading does on its witness (seed sections in the rulings)."""

    def result(rid: str, reading: str) -> dict[str, object]:
        value: dict[str, object] = json.loads(outcomes_by_reading(rid)[reading])
        return value

    assert result("CS-EMPTY-STACK-DAMAGE", "always")["totals"]["health_lost"] == 4  # type: ignore[index]
    assert result("CS-EMPTY-STACK-DAMAGE", "blocked-only")["totals"]["health_lost"] == 3  # type: ignore[index]
    assert result("CS-BOSS-TIMING", "stack-empty")["boss"] == {"card": "Driftwood-H", "added": True}
    assert result("CS-BOSS-TIMING", "last-activated")["boss"] == {"card": "Driftwood-H", "added": False}
    assert result("CS-SWITCH-FROM-HERO", "sticky")["hero"]["health"] == 13  # type: ignore[index]
    assert result("CS-SWITCH-FROM-HERO", "free")["totals"]["spires_defeated"] == 1  # type: ignore[index]
    assert result("CS-SPIRE-ADJACENCY", "column-run")["damage_on_top"] == {"top": 3}
    assert result("CS-SPIRE-ADJACENCY", "neighbours")["damage_on_top"] == {"top": 2}
    assert result("CS-ROLLS", "strategy-plus-one")["damage_on_top"] == {"bottom": 2}
    assert result("CS-ROLLS", "one")["damage_on_top"] == {"bottom": 0}
    assert result("CS-ROLLS", "strategy")["damage_on_top"] == {"bottom": 1}

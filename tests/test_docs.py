"""The documentation stays in step with the code: published schemas, rulings, examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from invasion_oracle.model.core.jsonio import load_schema
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.model.registry import load_all
from invasion_oracle.reports.verbs import schema_names

SCHEMAS = schema_names()

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_published_schema_equals_the_one_the_loader_uses(name: str) -> None:
    package, filename = SCHEMAS[name]
    published = json.loads((ROOT / "docs" / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert published == load_schema(package, filename), (
        f"run: invasion schema {name} > docs/schemas/{name}.schema.json"
    )


def test_every_ruling_is_documented_with_its_readings() -> None:
    load_all()
    for ruling in REGISTRY.all():
        doc = (ROOT / "docs" / f"{ruling.game.replace('-', '_')}.md").read_text(encoding="utf-8")
        assert f"`{ruling.id}`" in doc, f"{ruling.id} missing from docs/{ruling.game}.md"
        for reading in ruling.reading_names:
            assert f"`{reading}`" in doc, f"{ruling.id}={reading} missing from docs"


def test_scenario_doc_lists_every_top_level_field() -> None:
    schema = load_schema("invasion_oracle.model.stonespine", "scenario.schema.json")
    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    for field in schema["properties"]:
        assert f"`{field}`" in text, field
    for field in schema["$defs"]["player"]["properties"]:
        assert f"`{field}`" in text, field

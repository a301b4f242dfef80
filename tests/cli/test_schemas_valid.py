"""Every schema the package ships is a valid JSON Schema (2020-12).

``invasion_oracle.model.core.jsonio.load_schema`` no longer checks a schema against the metaschema on every command
(half a second each, inside the searches' time limits): this test checks them all once instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(path for folder in ("model", "reports") for path in (ROOT / folder).rglob("*.schema.json"))


def test_the_package_ships_schemas() -> None:
    assert len(SHIPPED) >= 10


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_schema_is_valid(path: Path) -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))

"""Set-up shared by the ambiguity tests."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.reports.cli import main


@dataclass(frozen=True, slots=True)
class Register:
    """One run of ``vulketh ambiguities --workers 1 --json`` (with the fixture dependencies): the
    result cache it filled (every job of the run) and the envelope it printed."""

    cache: Path
    envelope: dict[str, Any]


@pytest.fixture(scope="session")
def vulketh_register(tmp_path_factory: pytest.TempPathFactory) -> Register:
    """Computed once a test process (~1.5 s): a baseline to tamper with, and a cache to tamper with."""
    folder = tmp_path_factory.mktemp("vulketh-register")
    out = folder / "register.json"
    argv = ["vulketh", "ambiguities", "--workers", "1", "--json", "--cache-dir", str(folder / "cache")]
    assert main([*argv, "--out", str(out)]) == 0
    envelope: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return Register(folder / "cache", envelope)

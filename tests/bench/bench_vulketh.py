"""Vul'Keth benchmarks (the measures live beside the game's tests)."""

from __future__ import annotations

from tests.vulketh.bench import results

__all__ = ["results"]

"""Benchmarks (`make bench`): each measure with its baseline measured in the same run.

A ``bench_*.py`` module offers ``results() -> list[Measure]`` (preferred: the runner prints the
table and writes ``out/bench.json``) or ``main() -> str`` (a Markdown table of its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Measure:
    """One benchmark line: this project against a baseline measured in the same run.

    ``ratio`` is how many times better this project is (baseline time / our time, or our rate /
    the baseline's rate); ``extrapolated`` marks a ratio computed from a partial baseline run.
    """

    name: str
    value: float
    unit: str
    baseline: float | None
    baseline_label: str
    ratio: float | None
    workload: str
    extrapolated: bool = False

    def row(self) -> tuple[str, str, str, str, str]:
        ratio = (
            "-"
            if self.ratio is None
            else f"{self.ratio:,.1f}x" + (" (extrapolated)" if self.extrapolated else "")
        )
        baseline = (
            "-" if self.baseline is None else f"{self.baseline:,.4g} {self.unit} ({self.baseline_label})"
        )
        return (self.name, f"{self.value:,.4g} {self.unit}", baseline, ratio, self.workload)

    def to_json(self) -> dict[str, Any]:
        # Benchmark numbers are measurements, not oracle output: written as decimal strings so
        # the JSON stays free of floats like everything else the project writes.
        return {
            "name": self.name,
            "value": f"{self.value:.6g}",
            "unit": self.unit,
            "baseline": None if self.baseline is None else f"{self.baseline:.6g}",
            "baseline_label": self.baseline_label,
            "ratio": None if self.ratio is None else f"{self.ratio:.6g}",
            "extrapolated": self.extrapolated,
            "workload": self.workload,
        }

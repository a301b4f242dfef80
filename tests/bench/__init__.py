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
            # two decimals below 1: 0.26x and 0.34x are not both "0.3x"
            else f"{self.ratio:,.{2 if self.ratio < 1 else 1}f}x"
            + (" (extrapolated)" if self.extrapolated else "")
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


# -- the public game API, measured against the internal path (issue 22) ---------------------------
#
# Any game's bench can time "one unit of play" (an Invader Action, a hero walk, an Invader turn, a
# round) driven through the public contract (``start`` / ``pending`` / ``step``, the way an outside
# caller plays) against the game's internal path and, where there is one, a plain implementation:
#
#     from tests.bench import drive_public, public_api_measures
#     measures = public_api_measures(
#         "Vul'Keth Invader turn", units=1_000,
#         public=lambda: ..., internal=lambda: ..., plain=None, workload="...",
#     )
#
# ``public`` / ``internal`` / ``plain`` each play ``units`` units once; the best CPU time of
# ``repeat`` runs counts. The first measure's ratio is internal time / public time (the goal: at
# least 1 / 1.5, the public path costing at most 1.5x), the second plain time / public time
# (``plain_goal``: 0.2 by default; Spirit Island's, issue 38: 0.5).


def first_answer(request: Any) -> Any:
    """The first legal option (a decision) or outcome (a chance request)."""
    options = getattr(request, "options", None)
    return (options if options is not None else request.outcomes)[0]


def drive_public(game: Any, state: Any, answer: Any = first_answer) -> Any:
    """Play ``state`` through the public contract: ``start``, then ``pending`` / ``step`` with
    ``answer(request)`` until nothing is pending; returns the final state."""
    state, _events = game.start(state)
    while (request := game.pending(state)) is not None:
        state, _events = game.step(state, answer(request))
    return state


def best_cpu(repeat: int, work: Any) -> float:
    """The least CPU time of this process over ``repeat`` runs of ``work()``."""
    import time

    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def public_api_measures(
    name: str,
    *,
    units: int,
    public: Any,
    internal: Any,
    plain: Any = None,
    repeat: int = 5,
    workload: str = "",
    plain_label: str = "plain mutable implementation",
    plain_goal: float = 0.2,
) -> list[Measure]:
    # Interleaved, one run of each path in turn, the best of each kept: the host's speed drifts
    # (shared with other jobs), and timing one path's runs after the other's turned that drift
    # into ratios from 0.6x to 1.3x between runs of the same code.
    paths = [public, internal] + ([plain] if plain is not None else [])
    best = [float("inf")] * len(paths)
    for _ in range(repeat):
        for k, path in enumerate(paths):
            best[k] = min(best[k], best_cpu(1, path))
    public_s, internal_s = best[0], best[1]
    rate = units / public_s
    measures = [
        Measure(
            f"{name}: public start/pending/step",
            rate,
            "units/s",
            units / internal_s,
            "the internal path",
            internal_s / public_s,
            f"{units:,} units, best of {repeat}, CPU; goal: ratio 0.67 or more (public at most 1.5x); "
            + ("met" if internal_s / public_s >= 1 / 1.5 else "NOT met")
            + (f"; {workload}" if workload else ""),
        )
    ]
    if plain is not None:
        plain_s = best[2]
        measures.append(
            Measure(
                f"{name}: public path against a plain implementation",
                rate,
                "units/s",
                units / plain_s,
                plain_label,
                plain_s / public_s,
                f"interleaved with the public path, CPU; goal: ratio {plain_goal:g} or more; "
                + ("met" if plain_s / public_s >= plain_goal else "NOT met"),
            )
        )
    return measures


# -- exact engines side by side (issue 22) ----------------------------------------------------------
#
# A search's engines (the exhaustive baseline, z3, CP-SAT) on the same instances at several sizes,
# search time only (the oracle replay of the answer is the same for every engine), the best CPU
# time of a few runs; each row gives the ratio to the baseline measured in the same run.


def engine_measures(
    search: str, cases: Any, repeat: int = 3, baseline_repeat: int | None = None
) -> list[Measure]:
    """``cases``: ``(size, workload, {engine: run})``, the engines among ``baseline``, ``z3``,
    ``cpsat`` and ``compiled`` (a size without ``baseline`` is one too large for it). One row per exact engine and
    size: its time in ms against the baseline's, and which engine was the fastest there."""
    out = []
    for size, workload, runs in cases:
        times = {
            name: best_cpu(baseline_repeat or repeat if name == "baseline" else repeat, run)
            for name, run in runs.items()
        }
        faster = min(times, key=lambda name: times[name])
        base = times.get("baseline")
        for name in ("z3", "cpsat", "compiled"):
            if name not in times:
                continue
            note = f"{workload}; fastest: {faster}"
            if name == "cpsat" and "z3" in times:
                note += f"; z3 / CP-SAT {times['z3'] / times['cpsat']:.1f}x"
            out.append(
                Measure(
                    f"{search}, {'CP-SAT' if name == 'cpsat' else name}, {size}",
                    times[name] * 1000,
                    "ms",
                    None if base is None else base * 1000,
                    "exhaustive baseline" if base is not None else "",
                    None if base is None else base / times[name],
                    note if base is not None else note + "; baseline not run (too large)",
                )
            )
    return out


_IMPORT_COST: list[float] = []


def ortools_import_measure() -> Measure:
    """What CP-SAT costs before it solves anything: importing OR-Tools in a fresh process (after
    z3, which every search module imports), CPU seconds, against importing z3 there. Measured once
    per run (both game benches print it)."""
    import subprocess
    import sys

    if not _IMPORT_COST:
        code = (
            "import time; t = time.process_time(); import z3; a = time.process_time(); "
            "import ortools.sat.python.cp_model; print(a - t, time.process_time() - a)"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        _IMPORT_COST.extend(float(x) for x in out.split())
    z3_s, ortools_s = _IMPORT_COST
    return Measure(
        "importing OR-Tools in a fresh process (CP-SAT's fixed cost)",
        ortools_s * 1000,
        "ms",
        z3_s * 1000,
        "importing z3",
        z3_s / ortools_s,
        "CPU; paid once per process by the first CP-SAT search, z3's import by every search module",
    )


@dataclass
class DriverPair:
    """The same seeded games played through the public contract and through the core driver's
    ``play`` (what ``simulate`` runs), for :func:`public_api_measures`: first legal choice (or the
    first of ``prefer`` offered), seeded chance. ``finals`` holds the last run's end states."""

    game: Any
    initial: Any
    seeds: range
    prefer: tuple[Any, ...] = ()
    finals: dict[str, list[Any]] | None = None

    def answer(self, seed: int) -> Any:
        from invasion_oracle.model.core.decisions import SeededChance

        chance = SeededChance(seed)
        prefer = self.prefer

        def answer(request: Any) -> Any:
            options = getattr(request, "options", None)
            if options is None:
                return chance.outcome(request)
            return next((o for o in prefer if o in options), options[0])

        return answer

    def public(self) -> None:
        ends = [drive_public(self.game, self.initial, self.answer(seed)) for seed in self.seeds]
        self.finals = {**(self.finals or {}), "public": ends}

    def internal(self) -> list[Any]:
        """The driver's playthroughs (their events too, for a caller that wants them)."""
        from invasion_oracle.model.core.decisions import FirstLegalDecider, PreferringDecider, SeededChance
        from invasion_oracle.model.core.driver import play

        runs = []
        for seed in self.seeds:
            decider = (
                PreferringDecider(self.prefer, FirstLegalDecider()) if self.prefer else FirstLegalDecider()
            )
            state, opening = self.game.start(self.initial)
            runs.append(play(self.game, state, decider, SeededChance(seed), opening=opening))
        self.finals = {**(self.finals or {}), "internal": [r.final for r in runs]}
        return runs

    def check(self, name: str) -> None:
        """Both paths ended every game in the same state (else the timing compares nothing)."""
        finals = self.finals or {}
        if finals.get("public") != finals.get("internal"):
            raise AssertionError(f"{name}: the public path and the driver end in different states")

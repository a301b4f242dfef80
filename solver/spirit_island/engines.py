"""Which engine answers a Spirit Island search by default (``method="auto"``), and the time an
oracle replay may take.

Measured on the project's two-core machine (issue 14; ``make bench`` prints the crossover each
run, ``docs/performance.md`` has the tables). z3 pays about 0.05-0.5 s to build and solve even a
tiny model through its Python API, so the exhaustive baselines win on small instances; each
search's baseline grows with a size we can compute before searching, or, where no such size
predicts it, the baseline gets a short budget first:

* fear thresholds: the baseline tries every count of each kind of Fear-giving piece, so its work
  is ``prod(count + 1)``; z3 wins from about :data:`FEAR_CROSSOVER` combinations when there are
  three classes or more (with one or two the baseline won at every size measured);
* least Defend: the baseline tries Defend 0, 1, 2, ... with a Ravage each, so its work is
  ``(Invader Damage + 1) x pieces``; z3 wins from about :data:`DEFEND_CROSSOVER`;
* fight-back and the best cascade path: the baseline, always. Their answers need every
  allocation (the oracle's options) or every path (part of the answer) listed anyway, and the
  baseline only picks the best of that list; z3 or CP-SAT would add a model on top;
* a Ravage card's cascades, the island land sets and the smallest flip: no size computed up
  front predicts the baseline (it is milliseconds on most islands and minutes on some: many lands
  with fight-back choices, no witness to find), so ``auto`` runs the baseline for up to
  :data:`PORTFOLIO_SECONDS` and then z3 with the time left.

Every search also has a CP-SAT engine (``cpsat``), which ``auto`` never picks. Its search is
faster than z3's on most ``make bench`` rows (bench_spirit_island: "CP-SAT against z3" and the
"... engines" rows; docs/performance.md, "CP-SAT beside z3"), but OR-Tools costs about 0.5 s of
CPU to import in a fresh process (z3 about 0.06 s, and every search module imports z3 anyway),
more than z3's whole search on those rows: a one-shot command pays that import once, so CP-SAT
stays an option for a process that searches many times. Where ``auto`` hands over to an exact
engine its answer is the same whichever engine gives it (the engines break ties alike).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from invasion_oracle.solver.common import Deadline, TimeLimit

METHODS = ("auto", "z3", "cpsat", "baseline")
FEAR_CROSSOVER = 4_000
DEFEND_CROSSOVER = 1_500
PORTFOLIO_SECONDS = 1.0
REPLAY_RATE = 2_000
"""Options the oracle lists per second, at least (a Damage allocation each): a replay whose
decisions list more than fit in the time left is not started, and the answer is ``unknown``."""

T = TypeVar("T")


def by_size(method: str, work: int, crossover: int) -> str:
    """The engine for an instance whose baseline work is ``work`` (``method`` unless ``auto``)."""
    if method != "auto":
        return method
    # z3, not CP-SAT, above the crossover. `make bench` (bench_spirit_island, "engines: CP-SAT
    # against z3"; docs/performance.md, "CP-SAT beside z3") measures CP-SAT's search 2-5x faster
    # than z3's on fear-threshold and defend, but importing OR-Tools costs about 0.5 s of CPU in a
    # fresh process, far more than z3's whole search (under 0.05 s) at the sizes a command meets:
    # a command pays that import once, so CP-SAT stays an option (--engine cpsat).
    return "baseline" if work < crossover else "z3"


def portfolio(
    method: str,
    baseline: Callable[[Deadline], T],
    z3: Callable[[Deadline], T],
    deadline: Deadline,
    cpsat: Callable[[Deadline], T] | None = None,
) -> tuple[T, str]:
    """Run the search with ``method``; for ``auto``, the baseline for up to
    :data:`PORTFOLIO_SECONDS` (within ``deadline``), then z3 with the time left. Returns the answer
    and the engine that gave it; raises :class:`~invasion_oracle.solver.common.TimeLimit` when
    ``deadline`` ends first.

    Not CP-SAT after the baseline, though its search is faster than z3's on most "... engines"
    rows of ``make bench``: it pays about 0.5 s of CPU to import OR-Tools, against z3's 20-50 ms
    on the land sets and most flips there. Measured outside the bench (too slow for it), it would
    win some instances that reach this point: card cascades on four boards where no witness
    exists (CP-SAT 1.2-1.8 s a land, z3 11-28 s) and a few flips (z3 2.6 s, CP-SAT 0.1 s)."""
    if method == "baseline":
        return baseline(deadline), "baseline"
    if method == "z3":
        return z3(deadline), "z3"
    if method == "cpsat":
        if cpsat is None:
            raise ValueError("this search has no CP-SAT engine")
        return cpsat(deadline), "cpsat"
    left = deadline.remaining()
    budget = PORTFOLIO_SECONDS if left is None else min(PORTFOLIO_SECONDS, left)
    try:
        return baseline(Deadline(budget)), "baseline"
    except TimeLimit:
        deadline.check()
        return z3(deadline), "z3"


def replay_fits(options: int, deadline: Deadline) -> bool:
    """Can a replay whose decisions list ``options`` options in all finish in the time left?"""
    left = deadline.remaining()
    return left is None or options / REPLAY_RATE <= left

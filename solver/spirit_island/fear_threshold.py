"""Fear thresholds: how much Damage buys how much Fear in one land (seed 002, Invader: a Town
destroyed gives 1 Fear, a City 2; Tracking Damage: Damage adds up until Time Passes).

* :func:`least_damage_for_fear` - the least Damage, spread over the land's Invaders as the
  players like (their existing Damage and Health modifiers counted), that destroys Towns and
  Cities worth at least ``k`` Fear. Explorers give no Fear, so Damage only goes to the Towns and
  Cities destroyed; the answer is a knapsack: pick pieces with Fear >= k and least Health left.
* :func:`least_damage_for_next_card` - the same with ``k`` = the markers still in the Fear pool,
  replayed until the oracle actually earns the card.
* :func:`best_fight_back` - how surviving Dahan spread their Damage (2 each) for the most Fear or
  the most Invaders destroyed.

Each has a z3 encoding (a lexicographic optimum by descent) and an
exhaustive baseline (every count of each kind of piece; every allocation the oracle lists); ``method="auto"`` picks the faster for the instance
(:mod:`invasion_oracle.solver.spirit_island.engines`). The answer is replayed through the oracle: the
allocation is given as the players' decision to a Damage effect (or a fight-back) in the real
game, which must destroy the claimed pieces and generate the claimed Fear. The time limit
(``seconds``, or a ``deadline`` shared by a whole command) covers the search and the replay:
an answer that cannot be replayed in time is ``unknown``.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Any

import z3

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.spirit_island.damage import (
    MAX_ALLOCATIONS,
    Allocation,
    allocation_count,
    allocations,
    capacity,
)
from invasion_oracle.model.spirit_island.data import GameData, default_data
from invasion_oracle.model.spirit_island.pieces import INVADERS, LETTER, Land, PieceKind, PieceStats
from invasion_oracle.model.spirit_island.state import DamageLand, FightBack
from invasion_oracle.solver.arith import CpSatModel, Z3Model
from invasion_oracle.solver.common import (
    Deadline,
    OracleDisagreement,
    Status,
    TimeLimit,
    cpsat_solve,
    load_cpsat,
    z3_check,
)
from invasion_oracle.solver.spirit_island.engines import FEAR_CROSSOVER, by_size, replay_fits
from invasion_oracle.solver.spirit_island.replay import event_list, one_land_state, run_task


@dataclass(frozen=True, slots=True)
class Target:
    """A class of identical Towns or Cities: ``count`` pieces each needing ``remaining`` Damage."""

    kind: PieceKind
    damage: int
    count: int
    remaining: int
    fear: int

    @property
    def label(self) -> str:
        return LETTER[self.kind] + (f"@{self.damage}" if self.damage else "")


def fear_targets(land: Land, stats: PieceStats) -> tuple[Target, ...]:
    """The land's Fear-giving pieces grouped by kind and Damage taken."""
    groups: dict[tuple[PieceKind, int], int] = {}
    for p in land.pieces:
        if p.kind in (PieceKind.CITY, PieceKind.TOWN) and stats.of(p.kind).fear > 0:
            groups[(p.kind, p.damage)] = groups.get((p.kind, p.damage), 0) + 1
    return tuple(
        Target(kind, damage, n, land.health_of(kind, stats) - damage, stats.of(kind).fear)
        for (kind, damage), n in sorted(groups.items(), key=lambda kv: (INVADERS.index(kv[0][0]), kv[0][1]))
    )


@dataclass(frozen=True, slots=True)
class FearPlan:
    """The answer for one ``k``: ``damage`` is ``None`` when no Damage can reach ``k`` Fear."""

    wanted: int
    damage: int | None
    destroy: tuple[tuple[str, int], ...]  # (piece label, how many) destroyed
    fear: int
    allocation: str  # the oracle's allocation label (the players' decision)
    status: Status
    method: str
    seconds: float
    replayed: bool

    def to_json(self) -> dict[str, object]:
        return {
            "fear_wanted": self.wanted,
            "least_damage": self.damage,
            "destroy": [list(d) for d in self.destroy],
            "fear": self.fear,
            "allocation": self.allocation,
            "status": self.status.value,
            "engine": self.method,
            "replayed": self.replayed,
        }


def _baseline(
    targets: tuple[Target, ...], wanted: int, deadline: Deadline
) -> tuple[int, tuple[int, ...]] | None:
    """Every count of each target class; the cheapest reaching ``wanted`` Fear (ties: fewest pieces,
    then the earliest counts in class order)."""
    best: tuple[int, int, tuple[int, ...]] | None = None
    for counts in itertools.product(*(range(t.count + 1) for t in targets)):
        deadline.check()
        fear = sum(n * t.fear for n, t in zip(counts, targets, strict=True))
        if fear < wanted:
            continue
        cost = sum(n * t.remaining for n, t in zip(counts, targets, strict=True))
        key = (cost, sum(counts), tuple(-n for n in counts))
        if best is None or key < (best[0], best[1], tuple(-n for n in best[2])):
            best = (cost, sum(counts), counts)
    return None if best is None else (best[0], best[2])


def _z3(targets: tuple[Target, ...], wanted: int, deadline: Deadline) -> tuple[int, tuple[int, ...]] | None:
    """z3, the same lexicographic order as the baseline: least cost, then fewest pieces, then the
    most of each class in class order. Each term in turn is lowered while a solution with a smaller
    value exists, then fixed (as ``Z3Model.lex_min``), on z3's plain incremental solver: the one
    optimum ``Optimize`` found with these objectives, in about half the CPU. Every count ends
    fixed, so the answer does not depend on which solutions the checks return."""
    deadline.check()  # building a model takes time too
    solver = z3.SimpleSolver()
    counts = [z3.Int(f"n{i}") for i in range(len(targets))]
    for n, t in zip(counts, targets, strict=True):
        solver.add(n >= 0, n <= t.count)
    solver.add(z3.Sum([n * t.fear for n, t in zip(counts, targets, strict=True)] or [z3.IntVal(0)]) >= wanted)
    cost = z3.Sum([n * t.remaining for n, t in zip(counts, targets, strict=True)] or [z3.IntVal(0)])
    # Ties broken as the baseline breaks them (fewest pieces, then earliest classes first), so the
    # reported allocation is the same every time, not whichever optimum z3 met first.
    terms = [cost, z3.Sum(counts or [z3.IntVal(0)])] + [
        t.count - n for n, t in zip(counts, targets, strict=True)
    ]
    if z3_check(solver, deadline) != z3.sat:
        return None
    model = solver.model()
    for term in terms:
        least = model.eval(term, model_completion=True).as_long()
        while least > 0 and z3_check(solver, deadline, term < least) == z3.sat:
            model = solver.model()
            least = model.eval(term, model_completion=True).as_long()
        solver.add(term == least)
    chosen = tuple(model.eval(n, model_completion=True).as_long() for n in counts)
    return sum(n * t.remaining for n, t in zip(chosen, targets, strict=True)), chosen


def _cpsat(
    targets: tuple[Target, ...], wanted: int, deadline: Deadline
) -> tuple[int, tuple[int, ...]] | None:
    """CP-SAT, the same lexicographic order as the baseline: least cost, then fewest pieces, then
    the most of each class in class order (one solve per step, each step's optimum fixed)."""
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    counts = [model.new_int_var(0, t.count, f"n{i}") for i, t in enumerate(targets)]
    model.add(sum(n * t.fear for n, t in zip(counts, targets, strict=True)) >= wanted)
    cost = sum(n * t.remaining for n, t in zip(counts, targets, strict=True))
    steps: list[tuple[Any, bool]] = [(cost, False), (sum(counts), False)]
    steps += [(n, True) for n in counts]
    solver: Any = None
    for i, (term, up) in enumerate(steps):
        if up:
            model.maximize(term)
        else:
            model.minimize(term)
        solver = cpsat_solve(model, deadline)
        if solver is None:
            if i:
                raise OracleDisagreement("CP-SAT lost a solution it had found")
            return None
        model.add(term == int(solver.value(term)))
    chosen = tuple(int(solver.value(n)) for n in counts)
    return sum(n * t.remaining for n, t in zip(chosen, targets, strict=True)), chosen


def _allocation_for(
    land: Land, stats: PieceStats, damage: int, targets: tuple[Target, ...], counts: tuple[int, ...]
) -> Allocation:
    """The oracle's allocation that finishes exactly the chosen pieces (Damage goes nowhere else)."""
    wanted = sorted(
        (t.kind, t.damage, t.remaining) for t, n in zip(targets, counts, strict=True) for _ in range(n)
    )
    for allocation in allocations(land, stats, damage):
        if sorted(allocation.parts) == wanted:
            return allocation
    raise OracleDisagreement(f"the oracle lists no allocation of {damage} Damage destroying {wanted}")


def combinations(targets: tuple[Target, ...]) -> int:
    """The baseline's work: every count of each class, ``prod(count + 1)``. With one or two
    classes it is reported as 0: the baseline won at every size measured (two classes of 100
    pieces: 10,201 combinations, 114 ms against z3's 551 ms)."""
    if len(targets) < 3:
        return 0
    work = 1
    for t in targets:
        work *= t.count + 1
    return work


def least_damage_for_fear(
    land: Land,
    wanted: int,
    *,
    data: GameData | None = None,
    method: str = "auto",
    seconds: float | None = None,
    in_pool: int | None = None,
    deadline: Deadline | None = None,
) -> FearPlan:
    """The least Damage to ``land``'s Invaders that yields ``wanted`` Fear, replayed by the oracle.

    >>> from invasion_oracle.model.spirit_island.pieces import parse_land
    >>> plan = least_damage_for_fear(parse_land("C T@1 E"), 2)
    >>> plan.damage, plan.destroy, plan.replayed
    (3, (('C', 1),), True)
    """
    data = data or default_data()
    stats = data.stats
    targets = fear_targets(land, stats)
    deadline = deadline or Deadline(seconds)
    engine = by_size(method, combinations(targets), FEAR_CROSSOVER)
    started = time.perf_counter()

    def unknown() -> FearPlan:
        return FearPlan(wanted, None, (), 0, "", Status.UNKNOWN, engine, time.perf_counter() - started, False)

    try:
        found = {"z3": _z3, "cpsat": _cpsat}.get(engine, _baseline)(targets, wanted, deadline)
    except TimeLimit:
        return unknown()
    elapsed = time.perf_counter() - started
    if found is None:
        return FearPlan(wanted, None, (), 0, "", Status.PROVEN, engine, elapsed, False)
    damage, counts = found
    # The replay lists the oracle's allocations twice (to find the answer's, and as the options of
    # the real decision): not started when they are too many for the time left.
    options = allocation_count(land, stats, damage)
    if options > MAX_ALLOCATIONS or not replay_fits(2 * options, deadline):
        return unknown()
    fear = sum(n * t.fear for n, t in zip(counts, targets, strict=True))
    allocation = _allocation_for(land, stats, damage, targets, counts)
    destroy = tuple((t.label, n) for t, n in zip(targets, counts, strict=True) if n)
    _replay_damage(land, data, damage, allocation, fear, in_pool)
    if deadline.expired():
        return unknown()
    return FearPlan(wanted, damage, destroy, fear, allocation.label, Status.PROVEN, engine, elapsed, True)


def _replay_damage(
    land: Land, data: GameData, damage: int, allocation: Allocation, fear: int, in_pool: int | None
) -> None:
    state, index = one_land_state(land, data, in_pool=in_pool)
    options = allocations(land, data.stats, damage)
    decisions = [allocation.label] if len(options) > 1 else []
    playthrough = run_task(state, DamageLand(damage, index, "fear-threshold search"), decisions, data)
    generated = sum(e.get("amount") for e in event_list(playthrough, "fear_generated"))
    if generated != fear:
        raise OracleDisagreement(
            f"{damage} Damage as {allocation.label!r} should give {fear} Fear; the oracle gives {generated}"
        )
    if in_pool is not None and fear >= in_pool and not event_list(playthrough, "fear_card_earned"):
        raise OracleDisagreement(
            f"{fear} Fear with {in_pool} in the pool should earn a Fear card; the oracle earned none"
        )


def fear_table(
    land: Land,
    *,
    data: GameData | None = None,
    method: str = "auto",
    seconds: float | None = None,
    deadline: Deadline | None = None,
) -> tuple[FearPlan, ...]:
    """One plan for each ``k`` from 1 to all the Fear the land's Towns and Cities hold, all within
    one time limit (plans past it are ``unknown``)."""
    data = data or default_data()
    deadline = deadline or Deadline(seconds)
    total = sum(t.count * t.fear for t in fear_targets(land, data.stats))
    return tuple(
        least_damage_for_fear(land, k, data=data, method=method, deadline=deadline)
        for k in range(1, total + 1)
    )


def least_damage_for_next_card(
    land: Land,
    in_pool: int,
    *,
    data: GameData | None = None,
    method: str = "auto",
    seconds: float | None = None,
    deadline: Deadline | None = None,
) -> FearPlan:
    """The least Damage in ``land`` that earns the next Fear card when ``in_pool`` markers remain."""
    data = data or default_data()
    return least_damage_for_fear(
        land, in_pool, data=data, method=method, seconds=seconds, in_pool=in_pool, deadline=deadline
    )


# -- fight-back -----------------------------------------------------------------------------------

OBJECTIVES = ("fear", "destroyed")


@dataclass(frozen=True, slots=True)
class FightBackPlan:
    dahan: int
    damage: int
    objective: str
    value: int
    allocation: str
    status: Status
    method: str
    seconds: float
    replayed: bool

    def to_json(self) -> dict[str, object]:
        return {
            "dahan": self.dahan,
            "damage": self.damage,
            "objective": self.objective,
            "value": self.value,
            "allocation": self.allocation,
            "status": self.status.value,
            "engine": self.method,
            "replayed": self.replayed,
        }


def _score(allocation: Allocation, objective: str) -> int:
    return allocation.fear if objective == "fear" else len(allocation.destroyed)


def _fight_back_z3(
    land: Land, stats: PieceStats, damage: int, objective: str, deadline: Deadline
) -> tuple[int, str]:
    return _fight_back_solver("z3", land, stats, damage, objective, deadline)


def _fight_back_cpsat(
    land: Land, stats: PieceStats, damage: int, objective: str, deadline: Deadline
) -> tuple[int, str]:
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    return _fight_back_solver("cpsat", land, stats, damage, objective, deadline)


def _fight_back_solver(
    engine: str, land: Land, stats: PieceStats, damage: int, objective: str, deadline: Deadline
) -> tuple[int, str]:
    """The best fight-back by z3 or CP-SAT (one model, one lexicographic optimum: the most Fear or
    kills, then the most Damage on each piece in turn, so both engines give the same allocation)."""
    deadline.check()
    # every term read below is fixed by the lexicographic minimum: z3's plain solver will do
    terms: Z3Model | CpSatModel = CpSatModel() if engine == "cpsat" else Z3Model(simple=True)
    ops = terms.ops
    pieces = list(land.invaders)
    dealt = min(damage, capacity(land, stats))
    added, dead, room = [], [], []
    for i, p in enumerate(pieces):
        rem = land.remaining(p, stats)
        d = terms.int_var(0, rem, f"d{i}")
        added.append(d)
        dead.append(d == rem)
        room.append(rem)
    terms.require(ops.total(added) == dealt)
    weights = [stats.of(p.kind).fear if objective == "fear" else 1 for p in pieces]
    value = ops.total([ops.ite(x, w, 0) for x, w in zip(dead, weights, strict=True)])
    # the most value, then the most on each piece: a canonical optimum among equals
    most = [(sum(weights) - value, sum(weights) + 1)]
    most += [(rem - d, rem + 1) for d, rem in zip(added, room, strict=True)]
    read = terms.lex_min(most, deadline)
    if read is None:
        raise OracleDisagreement(f"{engine} finds no way to deal {dealt} Damage in {land}")
    amounts = [read(d) for d in added]
    groups: dict[tuple[PieceKind, int], list[int]] = {}
    for p, a in zip(pieces, amounts, strict=True):
        if a:
            groups.setdefault((p.kind, p.damage), []).append(a)
    order = {k: i for i, k in enumerate(INVADERS)}
    tokens = [
        f"{LETTER[kind]}{before}+{a}"
        for (kind, before), amounts_ in sorted(groups.items(), key=lambda kv: (order[kv[0][0]], kv[0][1]))
        for a in sorted(amounts_, reverse=True)
    ]
    return read(value), " ".join(tokens) or "none"


def best_fight_back(
    land: Land,
    dahan: int,
    objective: str = "fear",
    *,
    data: GameData | None = None,
    method: str = "auto",
    seconds: float | None = None,
    deadline: Deadline | None = None,
) -> FightBackPlan:
    """The fight-back of ``dahan`` surviving Dahan with the most Fear (or destroyed Invaders).

    >>> from invasion_oracle.model.spirit_island.pieces import parse_land
    >>> plan = best_fight_back(parse_land("C 2T E"), 2)
    >>> plan.damage, plan.value, plan.replayed
    (4, 2, True)
    """
    if land.dahan:  # the search counts the Damage of ``dahan`` alone; the replay would add these
        raise MalformedInputError(
            "land",
            "$",
            f"holds {len(land.dahan)} Dahan: give the Dahan that fight back by their count (dahan), not in the land",
        )
    data = data or default_data()
    stats = data.stats
    damage = stats.dahan.damage * dahan
    deadline = deadline or Deadline(seconds)
    engine = "baseline" if method == "auto" else method  # the options are listed either way
    started = time.perf_counter()

    def unknown() -> FightBackPlan:
        return FightBackPlan(
            dahan, damage, objective, 0, "", Status.UNKNOWN, engine, time.perf_counter() - started, False
        )

    # The oracle's options are listed to check the answer and again to replay it.
    count = allocation_count(land, stats, damage)
    if count > MAX_ALLOCATIONS or not replay_fits(2 * count, deadline):
        return unknown()
    options = allocations(land, stats, damage)
    try:
        if engine in ("z3", "cpsat"):
            search = _fight_back_z3 if engine == "z3" else _fight_back_cpsat
            value, label = search(land, stats, damage, objective, deadline)
        else:
            best = max(options, key=lambda a: _score(a, objective), default=None)
            if best is None:
                value, label = 0, "none"
            else:
                deadline.check()
                value, label = _score(best, objective), best.label
    except TimeLimit:
        return unknown()
    elapsed = time.perf_counter() - started
    chosen = next((a for a in options if a.label == label), None)
    if land.invaders and chosen is None:
        raise OracleDisagreement(f"the search's fight-back {label!r} is not among the oracle's options")
    if chosen is not None and _score(chosen, objective) != value:
        raise OracleDisagreement(
            f"fight-back {label!r}: search says {value}, the oracle's allocation scores {_score(chosen, objective)}"
        )
    replayed = _replay_fight_back(land, dahan, data, chosen, len(options))
    if deadline.expired():
        return unknown()
    return FightBackPlan(dahan, damage, objective, value, label, Status.PROVEN, engine, elapsed, replayed)


def _replay_fight_back(
    land: Land, dahan: int, data: GameData, chosen: Allocation | None, option_count: int
) -> bool:
    if chosen is None or dahan == 0:
        return False
    with_dahan = land.add(PieceKind.DAHAN, dahan)
    state, index = one_land_state(with_dahan, data)
    decisions = [chosen.label] if option_count > 1 else []
    playthrough = run_task(state, FightBack(index), decisions, data)
    destroyed = event_list(playthrough, "invader_destroyed")
    fear = sum(e.get("fear") for e in destroyed)
    if fear != chosen.fear or len(destroyed) != len(chosen.destroyed):
        raise OracleDisagreement(
            f"fight-back {chosen.label!r}: the oracle destroyed {len(destroyed)} for {fear} Fear"
        )
    return True

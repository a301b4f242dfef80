"""The least Defend for a Ravage (seed 002, Invader Phase 3a Ravage: Defend reduces the total).

Two goals for one land:

* ``no-blight`` - the Ravage adds no Blight: the Damage left after Defend is below the land's
  threshold (2);
* ``dahan-safe`` - no Dahan is destroyed: the Damage left is below the Health left of the
  most-damaged Dahan (Invaders destroy Dahan as efficiently as possible, damaged ones first).

z3 minimises Defend over the Ravage arithmetic; the baseline tries Defend 0, 1, 2... through the
oracle's own strike function; ``method="auto"`` picks by the baseline's work
(:mod:`invasion_oracle.solver.spirit_island.engines`). The answer is replayed as a real Ravage in the oracle, once
with the answer (the goal holds) and once with one Defend less (it fails): a boundary fixture.
The time limit covers the replays; an answer that cannot be replayed in time is ``unknown``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import z3

from invasion_oracle.model.spirit_island.damage import MAX_ALLOCATIONS, allocation_count
from invasion_oracle.model.spirit_island.data import GameData, default_data
from invasion_oracle.model.spirit_island.pieces import Land, invader_damage
from invasion_oracle.model.spirit_island.ravage import fight_back_damage, invaders_strike
from invasion_oracle.model.spirit_island.state import RavageLand
from invasion_oracle.solver.common import (
    Deadline,
    OracleDisagreement,
    Status,
    TimeLimit,
    cpsat_solve,
    load_cpsat,
    z3_check,
)
from invasion_oracle.solver.spirit_island.engines import DEFEND_CROSSOVER, by_size, replay_fits
from invasion_oracle.solver.spirit_island.replay import event_list, one_land_state, run_task

GOALS = ("no-blight", "dahan-safe")


@dataclass(frozen=True, slots=True)
class DefendPlan:
    goal: str
    damage: int  # what the Invaders deal before Defend
    defend: int  # the least Defend reaching the goal
    status: Status
    method: str
    seconds: float
    replayed: bool

    def to_json(self) -> dict[str, object]:
        return {
            "goal": self.goal,
            "invader_damage": self.damage,
            "least_defend": self.defend,
            "status": self.status.value,
            "engine": self.method,
            "replayed": self.replayed,
        }


def _safe(land: Land, data: GameData, defend: int, goal: str) -> bool:
    strike = invaders_strike(replace(land, defend=defend), data.stats, data.value("land_damage_for_blight"))
    return not strike.blight if goal == "no-blight" else strike.harm.destroyed == 0


def _baseline(land: Land, data: GameData, goal: str, deadline: Deadline) -> int:
    defend = 0
    while not _safe(land, data, defend, goal):
        deadline.check()
        defend += 1
    return defend


def _z3(land: Land, data: GameData, goal: str, deadline: Deadline) -> int:
    deadline.check()
    stats = data.stats
    damage = invader_damage(land, stats)
    # The least Defend by descent (a smaller value while there is one) on z3's plain incremental
    # solver: the one optimum, in a fraction of what ``Optimize`` took for one variable.
    solver = z3.SimpleSolver()
    defend = z3.Int("defend")
    hits = z3.If(damage - defend > 0, damage - defend, 0)
    solver.add(defend >= 0)
    if goal == "no-blight":
        solver.add(hits < data.value("land_damage_for_blight"))
    else:
        for piece in land.dahan:  # efficient Damage destroys a Dahan once it reaches its Health left
            solver.add(hits < land.remaining(piece, stats))
    if z3_check(solver, deadline) != z3.sat:
        raise OracleDisagreement(f"z3 finds no Defend meeting {goal} in {land}; Defend {damage} does")
    least = solver.model().eval(defend, model_completion=True).as_long()
    while least > 0 and z3_check(solver, deadline, defend < least) == z3.sat:
        least = solver.model().eval(defend, model_completion=True).as_long()
    return int(least)


def _cpsat(land: Land, data: GameData, goal: str, deadline: Deadline) -> int:
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    from ortools.sat.python import cp_model

    damage = invader_damage(land, data.stats)
    model = cp_model.CpModel()
    defend = model.new_int_var(0, damage + 1, "defend")
    hits = model.new_int_var(0, damage, "hits")
    model.add_max_equality(hits, [damage - defend, 0])
    if goal == "no-blight":
        model.add(hits < data.value("land_damage_for_blight"))
    else:
        for piece in land.dahan:
            model.add(hits < land.remaining(piece, data.stats))
    model.minimize(defend)
    solver = cpsat_solve(model, deadline)
    if solver is None:
        raise OracleDisagreement(f"CP-SAT finds no Defend meeting {goal} in {land}; Defend {damage} does")
    return int(solver.value(defend))


def least_defend(
    land: Land,
    goal: str = "no-blight",
    *,
    data: GameData | None = None,
    method: str = "auto",
    seconds: float | None = None,
    deadline: Deadline | None = None,
) -> DefendPlan:
    """The least Defend so that a Ravage of ``land`` meets ``goal``, replayed at the boundary.

    >>> from invasion_oracle.model.spirit_island.pieces import parse_land
    >>> least_defend(parse_land("C T 2D")).defend, least_defend(parse_land("C T 2D@1"), "dahan-safe").defend
    (4, 5)
    """
    data = data or default_data()
    deadline = deadline or Deadline(seconds)
    damage = invader_damage(land, data.stats)
    engine = by_size(method, (damage + 1) * len(land.pieces), DEFEND_CROSSOVER)
    started = time.perf_counter()

    def unknown() -> DefendPlan:
        return DefendPlan(goal, damage, 0, Status.UNKNOWN, engine, time.perf_counter() - started, False)

    try:
        defend = {"z3": _z3, "cpsat": _cpsat}.get(engine, _baseline)(land, data, goal, deadline)
    except TimeLimit:
        return unknown()
    elapsed = time.perf_counter() - started
    if not replay_fits(_replay_options(land, data, defend), deadline):
        return unknown()
    replayed = _replay(land, data, defend, goal)
    if deadline.expired():
        return unknown()
    return DefendPlan(goal, damage, defend, Status.PROVEN, engine, elapsed, replayed)


def _replay_options(land: Land, data: GameData, defend: int) -> int:
    """The fight-back options the two replayed Ravages list (at ``defend`` and one less)."""
    total = 0
    for amount in {defend, max(0, defend - 1)}:
        strike = invaders_strike(
            replace(land, defend=amount), data.stats, data.value("land_damage_for_blight")
        )
        count = allocation_count(strike.land, data.stats, fight_back_damage(strike.land, data.stats))
        total += count if count <= MAX_ALLOCATIONS else 10 * MAX_ALLOCATIONS
    return total


def _ravage_meets(land: Land, data: GameData, defend: int, goal: str) -> bool:
    """A real Ravage of ``land`` with ``defend`` in the oracle (other choices: first legal)."""
    state, index = one_land_state(replace(land, defend=defend), data)
    playthrough = run_task(state, RavageLand("defend search", index), [], data, first_legal_after=True)
    if goal == "no-blight":
        return not event_list(playthrough, "blight_added")
    hits = event_list(playthrough, "ravaged")
    return not hits or hits[0].get("dahan_destroyed") == 0


def _replay(land: Land, data: GameData, defend: int, goal: str) -> bool:
    if not _ravage_meets(land, data, defend, goal):
        raise OracleDisagreement(
            f"Defend {defend} should meet {goal} in {land}; the oracle's Ravage does not"
        )
    if defend > 0 and _ravage_meets(land, data, defend - 1, goal):
        raise OracleDisagreement(
            f"Defend {defend - 1} already meets {goal}; the search's {defend} is not the least"
        )
    return True

"""Blight cascades (seed 002, Ravage sidebar; research notes §2.4, §5.6): which paths the players
can choose, and which lands of a Ravage card can cascade.

A cascade path starts at a land that already had Blight when Blight was added; each step goes to
an adjacent land (never the Ocean) chosen by the players and adds a Blight there; it goes on
while the land reached already had Blight and stops at the first land without. The searches
list **simple** paths (no land twice): a walk that revisits lands reaches no other end land (its
lands are all blighted), it only adds more Blight, so the simple paths show every way a cascade
can end. A blighted region with no way out has no simple path: that cascade never ends until the
Blight card runs out (reported as ``stuck``).

* :func:`cascade_paths` lists them (depth-first search) and :func:`best_cascade` finds the one
  destroying the least Presence, then the shortest (z3 over path positions, or the list).
* :func:`card_cascades` answers, for each land a Ravage card blights, whether it cascades in
  every resolution (it had Blight already) or in some (another land's cascade, resolved
  earlier in an order the players choose, can bring Blight to it first). z3 encodes the order and
  the chains; the baseline enumerates them.

Replays run the real Ravage (or Blight addition) in the oracle with the answer's choices, with an
ample Blight pool (a flip or running out is a separate question) and play-on (a victory or a
Spirit's loss mid-card does not stop the cascade being checked).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.decisions import DecisionRequest, FirstLegalDecider, Option, PolicyDecider
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.spirit_island.data import GameData, default_data
from invasion_oracle.model.spirit_island.invader_deck import InvaderBoard, InvaderCard
from invasion_oracle.model.spirit_island.island import Island
from invasion_oracle.model.spirit_island.pieces import Land
from invasion_oracle.model.spirit_island.ravage import invaders_strike, ravage_targets
from invasion_oracle.model.spirit_island.state import AddBlight, Slot
from invasion_oracle.solver.arith import CpSatModel, Ops, Z3Model
from invasion_oracle.solver.common import Deadline, OracleDisagreement, Status, TimeLimit, load_cpsat
from invasion_oracle.solver.spirit_island.engines import portfolio
from invasion_oracle.solver.spirit_island.replay import event_list, island_state, run_task

Path = tuple[int, ...]
Witness = tuple[tuple[int, ...], tuple[Path, ...]]  # an order of the card's lands, and the chains
CardSearch = Callable[[Island, frozenset[int], tuple[int, ...], int, bool, Deadline], Witness | None]


def cascade_paths(
    island: Island, lands: tuple[Land, ...], origin: int, *, deadline: Deadline | None = None
) -> tuple[Path, ...]:
    """Every simple cascade path from ``origin`` (the lands after it, the last without Blight)."""
    deadline = deadline or Deadline()
    found: list[Path] = []

    def walk(at: int, path: Path) -> None:
        deadline.check()
        for nxt in island.neighbours(at):
            if nxt == origin or nxt in path:
                continue
            if lands[nxt].blight == 0:
                found.append((*path, nxt))
            else:
                walk(nxt, (*path, nxt))

    walk(origin, ())
    return tuple(sorted(found, key=lambda p: (len(p), p)))


def presence_hit(lands: tuple[Land, ...], path: Path) -> int:
    """Presence destroyed along a path: one per Spirit present in each land reached."""
    return sum(len(lands[i].presence) for i in path)


@dataclass(frozen=True, slots=True)
class CascadeAnswer:
    origin: str
    paths: tuple[tuple[str, ...], ...]
    best: tuple[str, ...]  # least Presence destroyed, then shortest; () when stuck
    presence: int
    status: Status
    method: str
    seconds: float
    replayed: bool

    @property
    def stuck(self) -> bool:
        return not self.paths

    def to_json(self) -> dict[str, object]:
        return {
            "origin": self.origin,
            "paths": [list(p) for p in self.paths],
            "best": list(self.best),
            "presence_destroyed": self.presence,
            "stuck": self.stuck,
            "status": self.status.value,
            "engine": self.method,
            "replayed": self.replayed,
        }


def _best_baseline(lands: tuple[Land, ...], paths: tuple[Path, ...]) -> Path | None:
    return min(paths, key=lambda p: (presence_hit(lands, p), len(p), p), default=None)


def _lookup(ops: Ops, values: list[Any], index: Any) -> Any:
    """``values[index]`` for an unknown ``index``."""
    return ops.or_(*[ops.and_(index == i, v) for i, v in enumerate(values)])


def _adjacent(ops: Ops, island: Island, a: Any, b: Any) -> Any:
    if isinstance(a, int):
        return ops.or_(*[b == j for j in island.neighbours(a)])
    return ops.or_(
        *[ops.and_(a == i, b == j) for i in range(len(island.lands)) for j in island.neighbours(i)]
    )


def _best_solver(
    engine: str, island: Island, lands: tuple[Land, ...], origin: int, deadline: Deadline
) -> Path | None:
    """The least harmful simple cascade path by z3 or CP-SAT (the same model, one lexicographic
    minimum: least Presence, then shortest, then the first in island order, as the baseline)."""
    deadline.check()
    terms: Z3Model | CpSatModel = CpSatModel() if engine == "cpsat" else Z3Model()
    ops = terms.ops
    n = len(lands)
    blighted = [land.blight > 0 for land in lands]
    hit = [len(land.presence) for land in lands]
    length = sum(1 for land in lands if land.blight > 0) + 1
    nodes = [terms.int_var(-1, n - 1, f"p{i}") for i in range(length)]
    active = [terms.bool_var(f"a{i}") for i in range(length)]
    terms.require(active[0])
    for i, (node, act) in enumerate(zip(nodes, active, strict=True)):
        # unused positions hold -1, so the path itself can be minimised lexicographically
        terms.require(ops.ite(act, ops.and_(node >= 0, node < n, node != origin), node == -1))
        step = _adjacent(ops, island, origin if i == 0 else nodes[i - 1], node)
        terms.require(ops.or_(ops.not_(act), step))
        if i + 1 < length:
            terms.require(ops.iff(active[i + 1], ops.and_(act, _lookup(ops, blighted, node))))
        for j in range(i):
            terms.require(ops.or_(ops.not_(ops.and_(act, active[j])), node != nodes[j]))
    terms.require(
        ops.or_(
            *[
                ops.and_(act, ops.not_(_lookup(ops, blighted, node)))
                for node, act in zip(nodes, active, strict=True)
            ]
        )
    )
    presence = ops.total(
        [
            ops.ite(act, ops.total([ops.ite(node == i, hit[i], 0) for i in range(n)]), 0)
            for node, act in zip(nodes, active, strict=True)
        ]
    )
    # ties: the first path in island order, as the baseline picks
    objectives = [(presence, sum(hit) + 1), (ops.count(active), length + 1)]  # lands differ
    objectives += [(node + 1, n + 1) for node in nodes]
    read = terms.lex_min(objectives, deadline)
    if read is None:
        return None
    return tuple(read(node) for node, act in zip(nodes, active, strict=True) if read(act))


def _best_z3(island: Island, lands: tuple[Land, ...], origin: int, deadline: Deadline) -> Path | None:
    return _best_solver("z3", island, lands, origin, deadline)


def _best_cpsat(island: Island, lands: tuple[Land, ...], origin: int, deadline: Deadline) -> Path | None:
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    return _best_solver("cpsat", island, lands, origin, deadline)


def best_cascade(
    island: Island,
    lands: tuple[Land, ...],
    origin: str,
    *,
    data: GameData | None = None,
    method: str = "auto",
    seconds: float | None = None,
    deadline: Deadline | None = None,
) -> CascadeAnswer:
    """The simple cascade paths from ``origin`` (which must have Blight) and the least harmful one.

    >>> from invasion_oracle.model.spirit_island.island import build_island
    >>> from invasion_oracle.model.spirit_island.pieces import parse_land
    >>> island = build_island(default_data(), ("A",))
    >>> lands = tuple(parse_land("B") if n in ("A1", "A5") else parse_land("") for n in island.lands)
    >>> answer = best_cascade(island, lands, "A1")
    >>> len(answer.paths), answer.best, answer.replayed
    (7, ('A2',), True)
    """
    data = data or default_data()
    index = island.index(origin)
    if lands[index].blight == 0:
        raise ValueError(f"{origin} has no Blight: Blight added there does not cascade")
    deadline = deadline or Deadline(seconds)
    # auto: the baseline, which only picks the best of the paths the answer lists anyway
    method = "baseline" if method == "auto" else method
    started = time.perf_counter()
    try:
        paths = cascade_paths(island, lands, index, deadline=deadline)
        if method == "z3":
            best = _best_z3(island, lands, index, deadline)
        elif method == "cpsat":
            best = _best_cpsat(island, lands, index, deadline)
        else:
            best = _best_baseline(lands, paths)
    except TimeLimit:
        return CascadeAnswer(origin, (), (), 0, Status.UNKNOWN, method, time.perf_counter() - started, False)
    elapsed = time.perf_counter() - started
    names = tuple(tuple(island.lands[i] for i in p) for p in paths)
    if best is None:
        return CascadeAnswer(origin, names, (), 0, Status.PROVEN, method, elapsed, False)
    if best not in paths:
        raise OracleDisagreement(f"{method}'s cascade {best} is not a simple cascade path from {origin}")
    _replay_path(island, lands, data, index, best)
    if deadline.expired():
        return CascadeAnswer(
            origin, names, (), 0, Status.UNKNOWN, method, time.perf_counter() - started, False
        )
    return CascadeAnswer(
        origin,
        names,
        tuple(island.lands[i] for i in best),
        presence_hit(lands, best),
        Status.PROVEN,
        method,
        elapsed,
        True,
    )


def _steering(island: Island, chains: list[tuple[int, Path]]) -> PolicyDecider:
    """A decider steering cascades along ``chains`` (origin, path), in order; other choices take
    the first legal option. Steps the oracle did not ask (one adjacent land only) are skipped by
    matching each request's origin to the next planned step from it."""
    steps: list[tuple[str, str]] = []
    for origin, path in chains:
        for a, b in zip((origin, *path), path, strict=False):
            steps.append((island.lands[a], island.lands[b]))
    fallback = FirstLegalDecider()

    def policy(request: DecisionRequest) -> Option:
        if request.kind == "cascade":
            origin = dict(request.context)["origin"]
            for k, (a, b) in enumerate(steps):
                if a == origin:
                    del steps[: k + 1]
                    return b
        return fallback.decide(request)

    return PolicyDecider(policy)


def _replay_path(island: Island, lands: tuple[Land, ...], data: GameData, origin: int, path: Path) -> None:
    state = island_state(lands, data)
    playthrough = run_task(
        state, AddBlight(origin, "cascade search"), _steering(island, [(origin, path)]), data, island=island
    )
    added = [e.get("land") for e in event_list(playthrough, "blight_added")]
    expected = [island.lands[origin], *(island.lands[i] for i in path)]
    if added != expected:
        raise OracleDisagreement(f"cascade {expected}: the oracle added Blight to {added}")
    destroyed = len(event_list(playthrough, "presence_destroyed"))
    if destroyed != len(lands[origin].presence) + presence_hit(lands, path):
        raise OracleDisagreement(f"cascade {expected}: the oracle destroyed {destroyed} Presence")


# -- a whole Ravage card -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LandCascade:
    land: str
    adds_blight: bool
    had_blight: bool
    always: bool  # cascades in every resolution of the card
    possible: bool  # cascades in some resolution (an order and cascade choices)
    witness_order: tuple[str, ...]  # lands in the order a witness resolves them
    witness_chains: tuple[tuple[str, ...], ...]  # cascade choices of the witness, in order

    def to_json(self) -> dict[str, object]:
        return {
            "land": self.land,
            "adds_blight": self.adds_blight,
            "had_blight": self.had_blight,
            "always": self.always,
            "possible": self.possible,
            "witness_order": list(self.witness_order),
            "witness_chains": [list(c) for c in self.witness_chains],
        }


@dataclass(frozen=True, slots=True)
class CardCascades:
    card: str
    lands: tuple[LandCascade, ...]
    status: Status
    method: str
    seconds: float

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "lands": [x.to_json() for x in self.lands],
            "status": self.status.value,
            "engine": self.method,
        }


def _ends(island: Island, blighted: frozenset[int], origin: int) -> Iterator[Path]:
    """Simple chains from ``origin``, one per reachable end land (the shortest, then first)."""
    seen_ends: set[int] = set()
    frontier: list[Path] = [()]
    visited = {origin}
    while frontier:  # breadth-first: the first path found to an end is a shortest one
        nxt: list[Path] = []
        for path in frontier:
            at = path[-1] if path else origin
            for j in island.neighbours(at):
                if j in visited:
                    continue
                if j in blighted:
                    visited.add(j)
                    nxt.append((*path, j))
                elif j not in seen_ends:
                    seen_ends.add(j)
                    yield (*path, j)
        frontier = nxt


def _baseline_card(
    island: Island,
    start: frozenset[int],
    adds: tuple[int, ...],
    target: int,
    want: bool,
    deadline: Deadline,
) -> tuple[tuple[int, ...], tuple[Path, ...]] | None:
    """A resolution (order of ``adds``, chains) where ``target`` cascades (``want``) or not.

    Every chain must end, except the target's own. Only the end land of a chain changes which
    lands have Blight, so one chain per end land is enough."""
    failed: set[tuple[frozenset[int], frozenset[int]]] = set()

    def go(
        blighted: frozenset[int], left: frozenset[int], order: tuple[int, ...], chains: tuple[Path, ...]
    ) -> tuple[tuple[int, ...], tuple[Path, ...]] | None:
        deadline.check()
        if (blighted, left) in failed:
            return None
        for land in sorted(left):
            cascades = land in blighted
            if land == target:
                if cascades == want:
                    rest = tuple(sorted(left - {land}))
                    return (*order, land, *rest), chains
                continue
            if not cascades:
                found = go(blighted | {land}, left - {land}, (*order, land), chains)
                if found:
                    return found
                continue
            for chain in sorted(_ends(island, blighted, land), key=lambda c: c[-1]):
                found = go(blighted | {land, chain[-1]}, left - {land}, (*order, land), (*chains, chain))
                if found:
                    return found
        failed.add((blighted, left))
        return None

    return go(start, frozenset(adds), (), ())


def _solver_card(
    engine: str,
    island: Island,
    start: frozenset[int],
    adds: tuple[int, ...],
    target: int,
    want: bool,
    deadline: Deadline,
) -> tuple[tuple[int, ...], tuple[Path, ...]] | None:
    """Whether :func:`_baseline_card` finds a resolution, by z3 or CP-SAT (one model): the order of
    the Ravages, and for each cascade before the target's, the land where its chain ends.

    Only the end land of a chain changes which lands have Blight, and a chain can end at any
    land without Blight next to the blighted region its origin belongs to; so the solver chooses
    end lands over that region (a fixpoint over the adjacency)."""
    deadline.check()
    terms: Z3Model | CpSatModel = CpSatModel() if engine == "cpsat" else Z3Model()
    ops = terms.ops
    n, steps = len(island.lands), len(adds)
    depth = min(n, len(start) + steps)  # the blighted lands a chain can cross, at most
    order = [terms.int_var(0, n - 1, f"o{t}") for t in range(steps)]
    terms.distinct(order)
    for o in order:
        terms.require(ops.or_(*[o == a for a in adds]))
    status: list[list[Any]] = [[i in start for i in range(n)]]
    goal = []
    for t in range(steps):
        deadline.check()
        now = status[-1]
        casc = _lookup(ops, now, order[t])
        # Only chains before the target's Ravage matter (they bring Blight to it); the target's own
        # chain and later ones are left out, so a chain that could never end there is no obstacle.
        chained = terms.define(ops.and_(casc, *[order[u] != target for u in range(t + 1)]), f"chain{t}")
        region = [False if i not in adds else order[t] == i for i in range(n)]
        for k in range(depth):
            region = [
                terms.define(
                    ops.or_(region[i], ops.and_(now[i], ops.or_(*[region[j] for j in island.neighbours(i)]))),
                    f"r{t}_{k}_{i}",
                )
                for i in range(n)
            ]
        end = terms.int_var(0, n - 1, f"e{t}")
        end_lands = [
            ops.and_(ops.not_(now[i]), ops.or_(*[region[j] for j in island.neighbours(i)])) for i in range(n)
        ]
        terms.require(ops.or_(ops.not_(chained), _lookup(ops, end_lands, end)))
        status.append([ops.or_(now[i], order[t] == i, ops.and_(chained, end == i)) for i in range(n)])
        goal.append(ops.and_(order[t] == target, casc if want else ops.not_(casc)))
    terms.require(ops.or_(*goal))
    if terms.check(deadline) is None:
        return None
    # A witness exists. The one shown is the first in land order (lands, and each cascade's end
    # land, in island order), found by the baseline's walk, which stops at it: the same witness
    # from every engine. Minimising that order in the solver took z3 over ten times as long as
    # this check on 32 lands; where the walk took seconds in the measurements, it was proving
    # that no witness exists, which the check settles.
    witness = _baseline_card(island, start, adds, target, want, deadline)
    if witness is None:
        raise OracleDisagreement(f"{engine} finds a resolution where the walk through every order finds none")
    return witness


def _z3_card(
    island: Island,
    start: frozenset[int],
    adds: tuple[int, ...],
    target: int,
    want: bool,
    deadline: Deadline,
) -> tuple[tuple[int, ...], tuple[Path, ...]] | None:
    return _solver_card("z3", island, start, adds, target, want, deadline)


def _cpsat_card(
    island: Island,
    start: frozenset[int],
    adds: tuple[int, ...],
    target: int,
    want: bool,
    deadline: Deadline,
) -> tuple[tuple[int, ...], tuple[Path, ...]] | None:
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    return _solver_card("cpsat", island, start, adds, target, want, deadline)


def _chain_origins(
    order: tuple[int, ...], chains: tuple[Path, ...], lands: tuple[Land, ...]
) -> list[tuple[int, Path]]:
    """Pair each chain with the land whose cascade it is: the lands of ``order`` that had Blight
    when ravaged (initially, or brought by an earlier chain), in order."""
    blighted = {i for i, land in enumerate(lands) if land.blight > 0}
    pairs: list[tuple[int, Path]] = []
    queue = list(chains)
    for land in order:
        if land in blighted and queue:
            chain = queue.pop(0)
            pairs.append((land, chain))
            blighted.add(chain[-1])
        blighted.add(land)
    return pairs


def _own_cascade(events: list[Event], land: str) -> bool:
    """Did ``land``'s own Ravage Blight cascade? (A chain from another land passing through it
    does not count.) The replay state has no Blight card, so nothing comes between a land's
    Ravage Blight and its cascade."""
    for i, e in enumerate(events):
        if e.kind == "blight_added" and e.get("land") == land and e.get("cause") == "ravage":
            for later in events[i + 1 :]:
                if later.kind == "ravaged":
                    return False
                if later.kind == "blight_cascaded":
                    return bool(later.get("origin") == land)
            return False
    return False


def card_cascades(
    island: Island,
    lands: tuple[Land, ...],
    card: InvaderCard,
    *,
    data: GameData | None = None,
    method: str = "auto",
    seconds: float | None = None,
    deadline: Deadline | None = None,
) -> CardCascades:
    """For each land ``card`` ravages: does its Blight cascade always, in some resolution, or never?

    ``auto`` gives the baseline a short budget, then z3 the time left
    (:func:`invasion_oracle.solver.spirit_island.engines.portfolio`); the witnesses are replayed within the limit.
    """
    data = data or default_data()
    threshold = data.value("land_damage_for_blight")
    targets = ravage_targets(island, lands, card)
    adds = tuple(i for i in targets if invaders_strike(lands[i], data.stats, threshold).blight)
    start = frozenset(i for i, land in enumerate(lands) if land.blight > 0)
    deadline = deadline or Deadline(seconds)
    started = time.perf_counter()

    def searched(
        search: CardSearch,
    ) -> Callable[[Deadline], list[tuple[int, Witness | None, Witness | None]]]:
        def run(limit: Deadline) -> list[tuple[int, Witness | None, Witness | None]]:
            out: list[tuple[int, Witness | None, Witness | None]] = []
            for i in adds:
                # Ravaged first, a land cascades exactly when it had Blight (Blight never leaves): a
                # land with Blight always cascades, one without may not; only whether one without
                # can be brought Blight first needs a search.
                first = (i, *sorted(set(adds) - {i}))
                if i in start:
                    out.append((i, (first, ()), None))
                else:
                    out.append((i, search(island, start, adds, i, True, limit), (first, ())))
            return out

        return run

    try:
        found, method = portfolio(
            method, searched(_baseline_card), searched(_z3_card), deadline, searched(_cpsat_card)
        )
    except TimeLimit:
        return CardCascades(card.id, (), Status.UNKNOWN, method, time.perf_counter() - started)
    witnesses = {i: (some, avoid) for i, some, avoid in found}
    rows = []
    for i in targets:
        name = island.lands[i]
        if i not in adds:
            rows.append(LandCascade(name, False, i in start, False, False, (), ()))
            continue
        some, avoid = witnesses[i]
        order, chains = some if some else ((), ())
        rows.append(
            LandCascade(
                name,
                True,
                i in start,
                some is not None and avoid is None,
                some is not None,
                tuple(island.lands[j] for j in order),
                tuple(tuple(island.lands[j] for j in c) for c in chains),
            )
        )
        for witness, want in ((some, True), (avoid, False)):
            if witness is not None:
                if deadline.expired():
                    return CardCascades(card.id, (), Status.UNKNOWN, method, time.perf_counter() - started)
                _replay_card(island, lands, data, card, targets, witness, i, want)
    return CardCascades(card.id, tuple(rows), Status.PROVEN, method, time.perf_counter() - started)


def _replay_card(
    island: Island,
    lands: tuple[Land, ...],
    data: GameData,
    card: InvaderCard,
    targets: tuple[int, ...],
    witness: tuple[tuple[int, ...], tuple[Path, ...]],
    target: int,
    want: bool,
) -> None:
    """Ravage with ``card`` in the oracle, ordering lands and steering cascades as the witness says."""
    order, chains = witness
    sequence = [island.lands[i] for i in order] + [island.lands[i] for i in targets if i not in order]
    steering = _steering(island, _chain_origins(order, chains, lands))

    def policy(request: DecisionRequest) -> Option:
        if request.kind == "land-order":
            for name in sequence:
                if name in request.options:
                    return name
        return steering.decide(request)

    # Enough Blight for every Ravage and every chain to cross the island (a chain that can never
    # end stops when the Blight runs out, in play-on, instead of a thousand steps later).
    state = island_state(lands, data, blight=len(lands) * (len(targets) + 1) + 1)
    state = state._replace(invaders=InvaderBoard((), ravage=(card.id,)))
    playthrough = run_task(state, Slot("ravage"), PolicyDecider(policy), data, island=island)
    happened = _own_cascade(list(playthrough.events), island.lands[target])
    if happened != want:
        raise OracleDisagreement(
            f"card {card.id}: the search says {island.lands[target]} {'cascades' if want else 'does not cascade'} "
            f"with order {sequence} and chains {chains}; the oracle disagrees"
        )

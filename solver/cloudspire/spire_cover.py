"""Question (c): the fewest spires, and where, that keep the hero's Health above a bound.

Given a scenario (its Deployment Stack in a known order, its rounds) and the spire cards in its
inventory as candidates, which spires should stand in which spire spaces from the start so that
the hero's Health stays above ``bound`` for every round, **whatever the dice show**, when the
player plays well? Candidates left out are set aside (the player cannot place them later), and
no die is banished for a spire, so the placement is the only source of spires.

A placement is *safe* when the hero, deciding everything (commits, rerolls, loads, targets,
damage, what to keep and recover), can keep Health above the bound against every sequence of
dice outcomes: a search over the oracle's own states, decisions "some option works" and rolls
"every face works", with a memo.

Two engines that must agree:

* ``baseline`` - every placement by size (0, 1, 2, ... spires), each checked; the first size
  with a safe placement is the answer (all safe placements of that size are listed);
* ``z3`` - a counterexample-guided loop: z3 proposes a placement of fewest spires (one card per
  space, each card once) that no failed placement rules out, the oracle checks it, and a failure
  adds the constraint "some spire outside that placement", which is sound because adding spires
  never hurts the hero (an extra spire only gives enemies another target and the hero another
  blueprint). The first safe proposal is optimal;
* ``cpsat`` - the same loop with OR-Tools CP-SAT proposing (the fewest spires, then the
  lexicographically first placement, in one weighted objective), so both propose the same
  placements in the same order and check the same ones.

The oracle's safety checks are nearly all the time, so the proposer hardly matters: on the
bundled spires example z3 and CP-SAT take the same to within noise, and CP-SAT pays about a second
more for importing OR-Tools (``make bench``, tests/bench/bench_cloudspire.py); ``auto`` stays z3.

The answer is replayed: the safe placement's winning policy is played through the oracle against
every dice outcome, and every run must keep Health above the bound.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace
from typing import Any

import z3

from invasion_oracle.model.cloudspire.area import SPIRE_SPACES
from invasion_oracle.model.cloudspire.game import CloudspireGame
from invasion_oracle.model.cloudspire.scenario import Scenario, require_round_start
from invasion_oracle.model.cloudspire.state import GameState, PlacedSpire
from invasion_oracle.model.core.decisions import ChanceRequest
from invasion_oracle.model.core.errors import MalformedInputError, RulesError
from invasion_oracle.solver.cloudspire.search import no_cycle_collection, options, step, unrecorded
from invasion_oracle.solver.common import (
    Deadline,
    OracleDisagreement,
    Progress,
    Status,
    TimeLimit,
    cpsat_solve,
    load_cpsat,
    run_engines,
    z3_check,
)

ENGINES = ("z3", "cpsat", "baseline")
EXCLUDED = ("banish",)
Placement = tuple[tuple[str, str], ...]  # (space, card) in space order


@dataclass(frozen=True, slots=True)
class SpireCoverAnswer:
    bound: int
    rounds: int
    candidates: tuple[str, ...]
    fewest: int | None  # None: no placement of the candidates is safe
    placement: Placement
    safe_placements: tuple[Placement, ...]  # every safe placement of that size (baseline)
    checked: int  # placements the oracle checked
    engine: str
    status: str
    agree: bool | None
    replayed: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "question": "spire-cover",
            "bound": self.bound,
            "rounds": self.rounds,
            "candidates": list(self.candidates),
            "fewest": self.fewest,
            "placement": [list(p) for p in self.placement],
            "safe_placements": [[list(p) for p in pl] for pl in self.safe_placements],
            "checked": self.checked,
            "engine": self.engine,
            "status": self.status,
            "agree": self.agree,
            "replayed": self.replayed,
        }


@dataclass
class SafetyCheck:
    """Can the hero keep Health above ``bound`` from a state, whatever the dice show?"""

    game: CloudspireGame
    bound: int
    deadline: Deadline
    memo: dict[GameState, bool] = field(default_factory=dict)

    def safe(self, s: GameState) -> bool:
        if s.health <= self.bound:
            return False
        if s.outcome is not None or s.request is None:
            return True
        found = self.memo.get(s)
        if found is not None:
            return found
        self.deadline.check()
        if isinstance(s.request, ChanceRequest):
            result = all(self.safe(step(self.game, s, o)) for o in dict.fromkeys(s.request.outcomes))
        else:
            result = any(self.safe(step(self.game, s, o)) for o in options(s, EXCLUDED))
        self.memo[s] = result
        return result

    def winning_option(self, s: GameState) -> str:
        return next(o for o in options(s, EXCLUDED) if self.safe(step(self.game, s, o)))


def candidates_of(scenario: Scenario) -> tuple[str, ...]:
    game = scenario.game()
    return tuple(c for c in scenario.initial.inventory if game.card(c).is_spire)


def _state_with(
    scenario: Scenario, placement: Placement, candidates: tuple[str, ...], rounds: int
) -> GameState:
    s = scenario.initial
    inventory = tuple(c for c in s.inventory if c not in candidates)
    spires = list(s.spires)
    for space, card in placement:
        spires[SPIRE_SPACES.index(space)] = PlacedSpire(card)
    return s.evolve(inventory=inventory, spires=tuple(spires), rounds_left=rounds)


@dataclass
class _Checker:
    scenario: Scenario
    candidates: tuple[str, ...]
    bound: int
    rounds: int
    deadline: Deadline
    results: dict[Placement, bool] = field(default_factory=dict)
    progress: Progress | None = None  # on a terminal: placements checked, of at most the total
    safe_found: list[Placement] = field(default_factory=list)  # safe placements checked, in order

    def safe(self, placement: Placement) -> bool:
        key = self.canonical(placement)
        if key not in self.results:
            game = unrecorded(self.scenario.game())
            start, _ = game.start(_state_with(self.scenario, placement, self.candidates, self.rounds))
            with no_cycle_collection():
                self.results[key] = SafetyCheck(game, self.bound, self.deadline).safe(start)
            if self.progress is not None:
                self.progress.step()
            if self.results[key]:
                self.safe_found.append(placement)
        return self.results[key]

    def canonical(self, placement: Placement) -> Placement:
        """Spires with the same name are interchangeable: key placements by name and space."""
        game = self.scenario.game()
        return tuple(sorted((space, game.item_name(card)) for space, card in placement))


def _placements(candidates: tuple[str, ...], open_spaces: tuple[str, ...], size: int) -> list[Placement]:
    out = []
    for cards in itertools.combinations(candidates, size):
        for spaces in itertools.permutations(open_spaces, size):
            out.append(tuple(sorted(zip(spaces, cards, strict=True), key=lambda p: SPIRE_SPACES.index(p[0]))))
    return out


def _baseline(checker: _Checker, open_spaces: tuple[str, ...]) -> tuple[int | None, list[Placement]]:
    for size in range(0, min(len(checker.candidates), len(open_spaces)) + 1):
        safe: dict[Placement, Placement] = {}
        for placement in _placements(checker.candidates, open_spaces, size):
            key = checker.canonical(placement)
            if key not in safe and checker.safe(placement):
                safe[key] = placement
        if safe:
            return size, list(safe.values())
    return None, []


def _cegis(checker: _Checker, open_spaces: tuple[str, ...]) -> tuple[int | None, Placement]:
    """z3 proposes the fewest spires, then the earliest variables left false (the same output
    every run), the oracle checks; a placement found unsafe is excluded with every placement
    inside it. One incremental solver for the whole loop, the proposal's choices assumed: the
    fewest never falls (placements are only excluded), so its count is searched from the last."""
    x = {(sp, c): z3.Bool(f"x_{sp}_{c}") for sp in open_spaces for c in checker.candidates}
    solver = z3.SimpleSolver()
    for c in checker.candidates:
        solver.add(z3.AtMost(*[x[(sp, c)] for sp in open_spaces], 1))
    for sp in open_spaces:
        solver.add(z3.AtMost(*[x[(sp, c)] for c in checker.candidates], 1))
    count = z3.Sum(*[z3.If(v, 1, 0) for v in x.values()]) if x else z3.IntVal(0)
    variables = [x[k] for k in sorted(x)]
    size = 0
    while True:
        if z3_check(solver, checker.deadline) == z3.unsat:
            return None, ()
        while z3_check(solver, checker.deadline, count == size) != z3.sat:
            size += 1
        m = _canonical_model(solver, count == size, variables, checker.deadline)
        chosen = tuple(
            sorted(
                ((sp, c) for (sp, c), v in x.items() if z3.is_true(m.eval(v, model_completion=True))),
                key=lambda p: SPIRE_SPACES.index(p[0]),
            )
        )
        if checker.safe(chosen):
            return len(chosen), chosen
        outside = [v for key, v in x.items() if key not in chosen]
        solver.add(z3.Or(*outside) if outside else z3.BoolVal(False))


def _cegis_cpsat(checker: _Checker, open_spaces: tuple[str, ...]) -> tuple[int | None, Placement]:
    """:func:`_cegis` with CP-SAT proposing: one objective, the spire count first and then the
    earliest variables (in the order of :func:`_canonical_model`) left false."""
    load_cpsat(checker.deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    from ortools.sat.python import cp_model

    keys = sorted((sp, c) for sp in open_spaces for c in checker.candidates)
    if len(keys) > 60:  # the weights below must fit in 64 bits
        raise RulesError(
            f"the CP-SAT spire search takes up to 60 (space, spire) pairs, not {len(keys)}; use z3"
        )
    model = cp_model.CpModel()
    x = {key: model.new_bool_var(f"x_{key[0]}_{key[1]}") for key in keys}
    for c in checker.candidates:
        model.add_at_most_one(x[(sp, c)] for sp in open_spaces)
    for sp in open_spaces:
        model.add_at_most_one(x[(sp, c)] for c in checker.candidates)
    n = len(keys)
    # count * 2^n dominates any tie-break; among equal counts the earliest variable true costs most
    model.minimize(sum(((1 << n) + (1 << (n - 1 - i))) * x[key] for i, key in enumerate(keys)))
    while True:
        solver = cpsat_solve(model, checker.deadline)
        if solver is None:
            return None, ()
        chosen = tuple(
            sorted((key for key in keys if solver.value(x[key])), key=lambda p: SPIRE_SPACES.index(p[0]))
        )
        if checker.safe(chosen):
            return len(chosen), chosen
        outside = [x[key] for key in keys if key not in chosen]
        if not outside:
            return None, ()
        model.add_bool_or(outside)


def _canonical_model(solver: Any, sized: Any, variables: list[Any], deadline: Deadline) -> Any:
    """Among the placements meeting ``sized`` (a number of spires; the solver's last check found
    one), the one with the earliest variables false (same output every run; z3's own pick among
    equal placements may change). A variable the model at hand leaves false needs no check."""
    model = solver.model()
    fixed = [sized]
    for var in variables:
        left_false = z3.Not(var)
        if z3.is_false(model.eval(var, model_completion=True)):
            fixed.append(left_false)
        elif z3_check(solver, deadline, *fixed, left_false) == z3.sat:
            model = solver.model()
            fixed.append(left_false)
        else:
            fixed.append(var)
    return model


def _replay(checker: _Checker, placement: Placement) -> None:
    """Play the winning policy against every dice outcome; Health must stay above the bound."""
    game = checker.scenario.game()
    start, _ = game.start(_state_with(checker.scenario, placement, checker.candidates, checker.rounds))
    check = SafetyCheck(game, checker.bound, checker.deadline)
    if not check.safe(start):  # pragma: no cover - the search said it is safe
        raise OracleDisagreement("the chosen placement is not safe when replayed")
    seen: set[GameState] = set()
    frontier = [start]
    while frontier:
        s = frontier.pop()
        if s in seen:
            continue
        seen.add(s)
        checker.deadline.check()
        if s.health <= checker.bound:
            raise OracleDisagreement(
                f"replaying the placement, Health fell to {s.health} (bound {checker.bound})"
            )
        if s.outcome is not None or s.request is None:
            continue
        if isinstance(s.request, ChanceRequest):
            frontier += [step(game, s, o) for o in dict.fromkeys(s.request.outcomes)]
        else:
            frontier.append(step(game, s, check.winning_option(s)))


def _question_candidates(scenario: Scenario, bound: int) -> tuple[str, ...]:
    """The candidate spires, once the question is one the search can answer (a bound of 0 or
    more, a known deployment order, a spire in the inventory)."""
    if bound < 0:
        raise RulesError("the Health bound is 0 or more (Health must stay above it)")
    if scenario.initial.deployment.shuffled:
        raise RulesError(
            "the spire question needs a known deployment order: list the Deployment Stack in order"
        )
    candidates = candidates_of(scenario)
    if not candidates:  # nothing to place: no question to search (z3 refused an empty encoding)
        raise MalformedInputError(
            scenario.source,
            "$.state.inventory",
            "holds no spire: the spires question places candidate spires from the inventory; list them there",
        )
    return candidates


def _best_found_when_cut(
    checker: _Checker, deadline: Deadline, bound: int, horizon: int, candidates: tuple[str, ...], name: str
) -> SpireCoverAnswer:
    """Cut after a safe placement was found: the smallest found (the first of its size) is an
    upper bound on the fewest; the oracle's safety check proved it, the replay of its policy runs
    again only if the command was not interrupted."""
    best = min(checker.safe_found, key=len)
    replayed = False
    if not deadline.stopped():
        try:
            _replay(replace(checker, deadline=Deadline(parent=deadline)), best)
            replayed = True
        except TimeLimit:
            replayed = False
    return SpireCoverAnswer(
        bound,
        horizon,
        candidates,
        len(best),
        best,
        (),
        len(checker.results),
        name,
        Status.BEST_FOUND.value,
        None,
        replayed,
    )


def _engines_agree(
    checker: _Checker, found: dict[str, tuple[int | None, Placement]], listed: list[Placement]
) -> bool:
    """Every engine that finished found the same size; z3's and CP-SAT's placements are among the
    baseline's safe ones and are the same one; else a solver bug."""
    listed_keys = {checker.canonical(p) for p in listed}
    sizes = {engine: got[0] for engine, got in found.items()}
    agree = len(set(sizes.values())) == 1
    for engine, (got_size, got) in found.items():
        if agree and got_size is not None and engine != "baseline" and "baseline" in found:
            agree = checker.canonical(got) in listed_keys
    if agree and "z3" in found and "cpsat" in found:
        agree = checker.canonical(found["z3"][1]) == checker.canonical(found["cpsat"][1])
    if not agree:
        raise OracleDisagreement(f"the engines disagree ({found}): a solver bug")
    return agree


def fewest_spires(
    scenario: Scenario,
    bound: int,
    rounds: int | None = None,
    engine: str = "auto",
    deadline: Deadline | None = None,
) -> SpireCoverAnswer:
    """The fewest candidate spires, and where, keeping Health above ``bound`` whatever the dice show.

    ``auto`` takes z3 (counterexample-guided), measured about 1.9x faster than the baseline that
    tries every placement by size (``make bench``, tests/bench/bench_cloudspire.py)."""
    if engine == "auto":
        engine = "z3"
    require_round_start(scenario, "spires")
    deadline = deadline or Deadline()
    candidates = _question_candidates(scenario, bound)
    horizon = rounds if rounds is not None else scenario.initial.rounds_left
    open_spaces = tuple(sp for sp, p in zip(SPIRE_SPACES, scenario.initial.spires, strict=True) if p is None)
    most = sum(
        math.comb(len(candidates), k) * math.perm(len(open_spaces), k)
        for k in range(min(len(candidates), len(open_spaces)) + 1)
    )
    progress = Progress("spire placements checked", total=most)
    checker = _Checker(scenario, candidates, bound, horizon, deadline, progress=progress)
    engines = ("z3", "cpsat", "baseline") if engine == "both" else (engine,)
    listed: list[Placement] = []

    def solve(name: str) -> tuple[int | None, Placement]:
        if name == "baseline":
            size, safe = _baseline(checker, open_spaces)
            listed.extend(safe)
            return size, safe[0] if safe else ()
        return _cegis(checker, open_spaces) if name == "z3" else _cegis_cpsat(checker, open_spaces)

    # the baseline first (as always: its checks are cached for the others), then z3 and CP-SAT; one
    # cut by a limit or Ctrl-C is named, the later ones not started; only finished ones are compared
    order = tuple(e for e in ("baseline", "z3", "cpsat") if e in engines)
    name = order[0]
    try:
        answers, runs = run_engines(order, solve, deadline, finished=lambda _: True)
        found = dict(zip(runs.finished, answers, strict=True))
        name = "+".join(e for e in engines if e in found) or order[0]  # only those that finished
        if not found:
            raise TimeLimit("interrupted" if deadline.stopped() else "time")
        size, placement = found[next(e for e in engines if e in found)]
        if size is not None and not runs.complete:
            # an engine was cut: the replay of the policy runs again only if not interrupted
            if deadline.stopped():
                raise TimeLimit("interrupted")
            _replay(replace(checker, deadline=Deadline(parent=deadline)), placement)
        elif size is not None:
            _replay(checker, placement)
    except TimeLimit:
        if checker.safe_found:
            return _best_found_when_cut(checker, deadline, bound, horizon, candidates, name)
        return SpireCoverAnswer(
            bound,
            horizon,
            candidates,
            None,
            (),
            (),
            len(checker.results),
            name,
            Status.UNKNOWN.value,
            None,
            False,
        )
    finally:
        progress.finish()
    agree = _engines_agree(checker, found, listed) if len(found) > 1 else None
    return SpireCoverAnswer(
        bound,
        horizon,
        candidates,
        size,
        placement,
        tuple(listed) if "baseline" in found else (),
        len(checker.results),
        name,
        runs.status(Status.PROVEN.value),  # best-found: an engine that should have checked it was stopped
        agree,
        size is not None,
    )

"""Question (a): given the board and the rolled dice, the best loading and targeting this round.

From a state whose dice are rolled (a scenario starting at ``load``, or at ``fire``), two plans:

* ``defeat`` - the loading, targeting and damage allocation that defeats the most enemies
  (ties: the least Health lost);
* ``health`` - the one that loses the least Health this round, the deck's "minimal damage"
  question (ties: the most enemies defeated).

"This round" runs to the Exhaust Dice step: Spires Fire (with instant rewards and enemies
revealed in stacks), Suffer Damage and After Effects. No more rolls are made and no die is
banished. Health lost is net of heals and stops at 0 (a loss).

Three engines (``both`` runs all three and checks that they agree):

* ``baseline`` - every decision the oracle offers, searched exhaustively over the oracle's own
  states (a memo merges equal positions);
* ``z3`` - a model of the same round: which die on which free slot, which loaded hit onto which
  card of a lane stack (deeper cards only once the ones above are defeated, ruling
  ``CS-REVEAL-SAME-PHASE``), the attacker left on top of each lane, and the damage the hero takes
  after loaded misses and spires in the attacker's row absorb what they can. The two objectives
  are lexicographic; among the optimal plans the one setting the fewest, earliest variables is
  taken (z3's own pick may change between runs);
* ``cpsat`` - the same model in OR-Tools CP-SAT, constraint for constraint (integer terms as
  bounded variables, ``If`` as enforced equalities), the objectives and then the fewest, earliest
  variables as one lexicographic minimisation: it returns z3's plan, so its answer is z3's byte
  for byte but for the ``engine`` field (tests check it).

Every z3 and CP-SAT plan is played through the oracle (its loads, its targets in a legal order,
damage to misses, then spires, then the hero) and must give the Health and defeats it claims.

``auto`` takes z3 at every size (:data:`AUTO`; the measurements are there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import z3

from invasion_oracle.model.cloudspire.area import LANES, SPIRE_SPACES, hit_reach
from invasion_oracle.model.cloudspire.blueprints import Slot, accepts
from invasion_oracle.model.cloudspire.cards import EffectKind, has, total
from invasion_oracle.model.cloudspire.dice import Face, Zone, die_order
from invasion_oracle.model.cloudspire.game import CloudspireGame, Rules
from invasion_oracle.model.cloudspire.options import Choice
from invasion_oracle.model.cloudspire.scenario import Scenario
from invasion_oracle.model.cloudspire.state import GameState, LoadDice, SpiresFire
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest
from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.solver.cloudspire.search import options, step
from invasion_oracle.solver.common import (
    Deadline,
    OracleDisagreement,
    Status,
    cpsat_lex_min,
    load_cpsat,
    run_engines,
    z3_check,
)

OBJECTIVES = ("defeat", "health")
ENGINES = ("z3", "cpsat", "baseline")  # the order ``both`` names them in (the baseline last)
# ``auto``: z3 at every size. The table "(a) engagement engines" of ``make bench``
# (tests/bench/bench_cloudspire.py, search time only, best of 3 CPU, the bundled board with 3 to 9
# rolled dice): CP-SAT searches 4.3-4.8x faster than z3 (7 against 33 ms at 3 dice, 10 against 44
# at the bundled 5, 19 against 89 at 9), both far faster than the baseline (158 ms at 3 dice, 636
# at 5, doubling per die); but a fresh process first pays 0.41-0.53 s CPU importing OR-Tools (the
# table's import row), which CP-SAT wins back only where z3's search takes that much longer than
# its own: the gap grows by 7-9 ms a die (26 ms at 3 dice, 35 at 5, 70 at 9), so past some 60
# dice, and the game has 17. The
# whole command on the bundled engagement: 0.41 s CPU with z3, 0.88 s with cpsat. Crossover rule:
# none within the game, so ``auto`` stays z3 (``--engine cpsat`` asks for CP-SAT).
AUTO = "z3"
EXCLUDED = ("banish", "commit", "roll")


@dataclass(frozen=True, slots=True)
class EngagementPlan:
    """One optimal plan and what it achieves (replayed through the oracle)."""

    objective: str
    defeated: int
    health_lost: int
    loads: tuple[tuple[str, str], ...]  # (die, slot)
    applications: tuple[tuple[str, str], ...]  # (die, lane) in the order played
    answers: tuple[str, ...]  # the oracle decisions that play it

    def to_json(self) -> dict[str, Any]:
        return {
            "objective": self.objective,
            "defeated": self.defeated,
            "health_lost": self.health_lost,
            "loads": [list(x) for x in self.loads],
            "applications": [list(x) for x in self.applications],
            "answers": list(self.answers),
        }


@dataclass(frozen=True, slots=True)
class EngagementAnswer:
    method: str
    status: str  # proven / unknown
    plans: tuple[EngagementPlan, ...]
    agree: bool | None  # z3 and the baseline found the same optima (method both)
    states: int  # oracle states the baseline visited
    replayed: bool

    def plan(self, objective: str) -> EngagementPlan:
        return next(p for p in self.plans if p.objective == objective)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": "engagement",
            "engine": self.method,
            "status": self.status,
            "agree": self.agree,
            "baseline_states": self.states,
            "replayed": self.replayed,
            "plans": [p.to_json() for p in self.plans],
        }


def _key(objective: str, defeated: int, lost: int) -> tuple[int, int]:
    return (defeated, -lost) if objective == "defeat" else (-lost, defeated)


def _stopped(s: GameState) -> bool:
    return s.outcome is not None or s.request is None or s.phase in ("exhaust", "rewards", "cleanup")


def _metrics(start: GameState, s: GameState) -> tuple[int, int]:
    return len(s.defeated) - len(start.defeated), start.health - s.health


def check_start(origin: GameState) -> None:
    """The question starts with the dice rolled: a scenario starting at the Load step or Spires Fire."""
    if not origin.agenda or not isinstance(origin.agenda[0], LoadDice | SpiresFire):
        raise RulesError(
            "the engagement search starts with the dice rolled (a scenario starting at load or fire)"
        )


# -- the exhaustive baseline ------------------------------------------------------------------------------


@dataclass
class _Baseline:
    game: CloudspireGame
    start: GameState
    deadline: Deadline
    memo: dict[GameState, dict[str, tuple[tuple[int, int], tuple[str, ...]]]] = field(default_factory=dict)

    def best(self, s: GameState) -> dict[str, tuple[tuple[int, int], tuple[str, ...]]]:
        if _stopped(s):
            defeated, lost = _metrics(self.start, s)
            return {o: (_key(o, defeated, lost), ()) for o in OBJECTIVES}
        found = self.memo.get(s)
        if found is not None:
            return found
        self.deadline.check()
        if isinstance(s.request, ChanceRequest):
            raise RulesError(
                f"the engagement search meets a chance request ({s.request.describe()}); it needs every die rolled"
            )
        result: dict[str, tuple[tuple[int, int], tuple[str, ...]]] = {}
        for option in options(s, EXCLUDED):
            below = self.best(step(self.game, s, option))
            for objective, (key, path) in below.items():
                if objective not in result or key > result[objective][0]:
                    result[objective] = (key, (option, *path))
        self.memo[s] = result
        return result


def _plan_from_path(
    objective: str, origin: GameState, start: GameState, game: CloudspireGame, path: tuple[str, ...]
) -> EngagementPlan:
    s = start
    loads, applications = [], []
    for answer in path:
        choice = Choice.parse(answer)
        if choice.verb == "load":
            loads.append((choice.die, str(choice.slot)))
        elif choice.verb == "apply":
            applications.append((choice.die, choice.lane))
        s = step(game, s, answer)
    defeated, lost = _metrics(origin, s)
    return EngagementPlan(objective, defeated, lost, tuple(loads), tuple(applications), path)


# -- the z3 model -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Card:
    card: str
    health: int  # Health left (carried damage counted on the top card)
    damage: int  # its attack, the boss's global effect included
    ranged: bool
    armored: bool
    heal: int  # heal reward on defeat
    revealed_damage: int  # activation damage if revealed now
    after: int


def _limits(game: CloudspireGame, cards: dict[str, list[_Card]]) -> list[str]:
    heals = any(c.heal for stack in cards.values() for c in stack)
    reveal = any(c.revealed_damage for stack in cards.values() for c in stack[1:])
    if heals and reveal:
        return [
            "a heal reward together with an activation effect that a reveal could trigger (their order decides a loss)"
        ]
    return []


def _compile(game: CloudspireGame, s: GameState) -> dict[str, list[_Card]]:
    rules = game.rules
    out: dict[str, list[_Card]] = {}
    for lane in LANES:
        cards = []
        for k, card in enumerate(s.lane(lane)):
            enemy = game.enemy(card)
            taken = game.damage_taken(s, card) if k == 0 else 0
            reveal = 0
            if k > 0 and card not in s.activated and rules.reveal_activation == "triggers":
                reveal = total(enemy.activation, EffectKind.DAMAGE_HERO)
            cards.append(
                _Card(
                    card,
                    enemy.health - taken,
                    game.attack_damage(s, card),
                    has(enemy.ongoing, EffectKind.RANGED),
                    has(enemy.ongoing, EffectKind.ARMORED),
                    total(enemy.reward, EffectKind.HEAL),
                    reveal,
                    total(enemy.after, EffectKind.DAMAGE_HERO),
                )
            )
        out[lane] = cards
    return out


@dataclass(frozen=True, slots=True)
class _Inputs:
    """What both solver models of an engagement are built from (the engine aside): the enemy
    cards per lane, the free blueprint slots, the dice to load (new hits, and pool dice as misses
    under CS-LOAD-SOURCE), the dice already loaded, and every hit die as ``(die, face, its fixed
    space or "" when newly loaded)``."""

    cards: dict[str, list[_Card]]
    free: list[tuple[Any, Any]]
    new_dice: list[Any]
    pool_misses: list[Any]
    fixed: list[Any]
    hitters: list[tuple[str, Face, str]]


def _inputs(game: CloudspireGame, s: GameState, engine: str) -> _Inputs:
    cards = _compile(game, s)
    problems = _limits(game, cards)
    if problems:
        raise RulesError(f"the {engine} engagement model does not cover: " + "; ".join(problems))
    used = game.used_slots(s)
    free = [(slot, want) for slot, want in game.all_slots(s) if str(slot) not in used]
    new_dice = [d for d in s.in_zone(Zone.COMMITTED) if d.face is not None]
    pool_misses = list(s.in_zone(Zone.POOL)) if game.rules.load_source == "pool-as-miss" else []
    fixed = list(s.in_zone(Zone.LOADED))
    hitters: list[tuple[str, Face, str]] = []
    for die in new_dice:
        if die.face is not None and die.face.is_hit:
            hitters.append((die.name, die.face, ""))
    for die in fixed:
        if die.face is not None and die.face.is_hit:
            hitters.append((die.name, die.face, Slot.parse(die.slot).space))
    return _Inputs(cards, free, new_dice, pool_misses, fixed, hitters)


def _damage(game: CloudspireGame, face: Face, card: _Card) -> int:
    """One applied hit's damage to ``card`` (a crit does more, but not to an armored card)."""
    if face is Face.CRIT and not card.armored:
        return int(game.data.value("crit_damage"))
    return int(game.data.value("hit_damage"))


@dataclass
class _Model:
    """The z3 variables of one round, and how to read a plan back."""

    solver: Any
    defeated: Any
    lost: Any
    loads: dict[tuple[str, str], Any]
    applies: dict[tuple[str, str, int], Any]


def _load_faces(given: _Inputs) -> list[tuple[Any, Face]]:
    """Load Dice: each die that may be loaded, with the face it shows (a pool die loads as a miss)."""
    return [
        (die, die.face if die.zone is Zone.COMMITTED and die.face is not None else Face.MISS)
        for die in [*given.new_dice, *given.pool_misses]
    ]


def _depth(rules: Rules, cards: list[_Card]) -> int:
    """How deep a lane's stack a hit may reach (CS-REVEAL-SAME-PHASE: below the top only if same-phase)."""
    return len(cards) if rules.reveal_same_phase == "same-phase" else min(1, len(cards))


def _row_absorbers(
    s: GameState,
    given: _Inputs,
    loads: dict[tuple[str, str], Any],
    lane: str,
    live: set[str],
    load_source: str,
) -> tuple[int, list[Any]]:
    """Suffer Damage: what absorbs an attack in ``lane``'s row, the spires and misses already
    loaded on them (a fixed count) and the load variables that would put a new miss there."""
    row_spires = [sp for sp in live if sp.endswith(lane)]
    fixed_misses = sum(
        1 for d in given.fixed if d.face is Face.MISS and Slot.parse(d.slot).space in row_spires
    )
    new_misses = [
        v
        for (d, sl), v in loads.items()
        if Slot.parse(sl).space in row_spires and _face_of(s, d, load_source) is Face.MISS
    ]
    return fixed_misses + len(row_spires), new_misses


def _live_spires(s: GameState) -> set[str]:
    return {sp for sp, p in zip(SPIRE_SPACES, s.spires, strict=True) if p is not None and not p.defeated}


def _z3_loads(opt: Any, given: _Inputs) -> dict[tuple[str, str], Any]:
    """Load Dice: at most one slot a die, at most one die a slot."""
    loads: dict[tuple[str, str], Any] = {}
    for die, face in _load_faces(given):
        mine = []
        for slot, want in given.free:
            if accepts(slot, want, die.colour, face):
                var = z3.Bool(f"load_{die.name}_{slot}")
                loads[(die.name, str(slot))] = var
                mine.append(var)
        if mine:
            opt.add(z3.AtMost(*mine, 1))
    for slot, _ in given.free:
        on_slot = [v for (d, sl), v in loads.items() if sl == str(slot)]
        if len(on_slot) > 1:
            opt.add(z3.AtMost(*on_slot, 1))
    return loads


def _z3_reach(loads: dict[tuple[str, str], Any], name: str, space: str, lane: str) -> Any:
    """A hit die reaches ``lane``: from its fixed space, or from any slot it may be newly loaded on."""
    if space:
        return z3.BoolVal(lane in hit_reach(space))
    terms = [v for (d, sl), v in loads.items() if d == name and lane in hit_reach(Slot.parse(sl).space)]
    return z3.Or(*terms) if terms else z3.BoolVal(False)


def _z3_applies(
    opt: Any, given: _Inputs, rules: Rules, loads: dict[tuple[str, str], Any]
) -> dict[tuple[str, str, int], Any]:
    """Spires Fire: loaded hits onto the cards of a lane, top first; one card a die."""
    applies: dict[tuple[str, str, int], Any] = {}
    for name, face, space in given.hitters:
        mine = []
        for lane in LANES:
            for k in range(_depth(rules, given.cards[lane])):
                var = z3.Bool(f"apply_{name}_{lane}_{k}")
                applies[(name, lane, k)] = var
                opt.add(z3.Implies(var, _z3_reach(loads, name, space, lane)))
                mine.append((var, face))
        if mine:
            opt.add(z3.AtMost(*[v for v, _ in mine], 1))
    return applies


def _z3_defeats(
    opt: Any, game: CloudspireGame, given: _Inputs, applies: dict[tuple[str, str, int], Any]
) -> dict[tuple[str, int], Any]:
    """A card is defeated when its applied damage reaches its Health; a deeper card only after the one above."""
    faces = {name: face for name, face, _ in given.hitters}
    defeated_vars: dict[tuple[str, int], Any] = {}
    for lane in LANES:
        for k, card in enumerate(given.cards[lane]):
            terms = [
                z3.If(v, _damage(game, faces[n], card), 0)
                for (n, ln, kk), v in applies.items()
                if ln == lane and kk == k
            ]
            done = z3.Bool(f"defeated_{lane}_{k}")
            opt.add(done == (z3.Sum(*terms, z3.IntVal(0)) >= card.health))
            defeated_vars[(lane, k)] = done
            if k > 0:
                for (_die, ln, kk), v in applies.items():
                    if ln == lane and kk == k:
                        opt.add(z3.Implies(v, defeated_vars[(lane, k - 1)]))
                opt.add(z3.Implies(done, defeated_vars[(lane, k - 1)]))
    return defeated_vars


def _z3_suffer_damage(
    s: GameState,
    given: _Inputs,
    rules: Rules,
    loads: dict[tuple[str, str], Any],
    defeated_vars: dict[tuple[str, int], Any],
) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    """Suffer Damage and After Effects: the first undefeated card of each lane attacks; misses and
    spires absorb. The hero's, after-effect, revealed-damage and heal terms."""
    live = _live_spires(s)
    hero_terms, after_terms, reveal_terms, heal_terms = [], [], [], []
    for lane in LANES:
        absorb_least, new_misses = _row_absorbers(s, given, loads, lane, live, rules.load_source)
        absorb = z3.Sum(z3.IntVal(absorb_least), *[z3.If(v, 1, 0) for v in new_misses])
        for k, card in enumerate(given.cards[lane]):
            above = [defeated_vars[(lane, j)] for j in range(k)]
            top_after_fire = (
                z3.And(*above, z3.Not(defeated_vars[(lane, k)]))
                if above
                else z3.Not(defeated_vars[(lane, k)])
            )
            if lane == "bottom" or card.ranged:
                through = z3.If(card.damage > absorb, card.damage - absorb, 0)
                hero_terms.append(z3.If(top_after_fire, through, 0))
            if card.after:
                if rules.after_defeated == "all-engaged":
                    after_terms.append(z3.If(z3.Or(top_after_fire, defeated_vars[(lane, k)]), card.after, 0))
                else:
                    after_terms.append(z3.If(top_after_fire, card.after, 0))
            if k > 0 and card.revealed_damage:
                reveal_terms.append(z3.If(defeated_vars[(lane, k - 1)], card.revealed_damage, 0))
            if card.heal:
                heal_terms.append(z3.If(defeated_vars[(lane, k)], card.heal, 0))
    return hero_terms, after_terms, reveal_terms, heal_terms


def _build(game: CloudspireGame, s: GameState) -> tuple[_Model, dict[str, list[_Card]]]:
    given = _inputs(game, s, "z3")
    rules = game.rules
    opt = z3.SimpleSolver()  # z3's plain incremental solver: the optimum by descent (_z3_plan)
    loads = _z3_loads(opt, given)
    applies = _z3_applies(opt, given, rules, loads)
    defeated_vars = _z3_defeats(opt, game, given, applies)
    hero_terms, after_terms, reveal_terms, heal_terms = _z3_suffer_damage(
        s, given, rules, loads, defeated_vars
    )
    zero = z3.IntVal(0)
    harm = z3.Sum(zero, *hero_terms, *after_terms, *reveal_terms)
    final = s.health + z3.Sum(zero, *heal_terms) - harm
    lost = z3.Int("lost")
    opt.add(lost == s.health - z3.If(final > 0, final, 0))
    defeated = z3.Int("defeated")
    opt.add(defeated == z3.Sum(zero, *[z3.If(v, 1, 0) for v in defeated_vars.values()]))
    return _Model(opt, defeated, lost, loads, applies), given.cards


def _face_of(s: GameState, die: str, load_source: str) -> Face:
    d = s.die(die)
    if d.zone is Zone.COMMITTED and d.face is not None:
        return d.face
    return Face.MISS


def _z3_plan(
    game: CloudspireGame, start: GameState, objective: str, deadline: Deadline
) -> tuple[int, int, list[tuple[str, str]], list[tuple[str, str, int]]]:
    model, _ = _build(game, start)
    solver = model.solver
    # The lexicographic optimum (the objective's measure first, then the other) by descent on the
    # one incremental solver: each measure in turn takes better values while a solution has one,
    # then is fixed (``Optimize`` found the same optimum: 150 drawn engagements took a third more CPU).
    ordered = [-model.defeated, model.lost] if objective == "defeat" else [model.lost, -model.defeated]
    if z3_check(solver, deadline) != z3.sat:
        raise OracleDisagreement("z3 finds no engagement plan at all (loading nothing is one)")
    best = solver.model()
    for term in ordered:
        least = best.eval(term, model_completion=True).as_long()
        while z3_check(solver, deadline, term < least) == z3.sat:
            best = solver.model()
            least = best.eval(term, model_completion=True).as_long()
        solver.add(term == least)
    defeated, lost = best.eval(model.defeated).as_long(), best.eval(model.lost).as_long()
    # Same output every run: among the optimal plans, the one setting the fewest, earliest
    # variables (the solutions the checks met may change between runs).
    canonical = solver
    variables = [v for _, v in sorted(model.loads.items())] + [v for _, v in sorted(model.applies.items())]
    for var in variables:
        canonical.push()
        canonical.add(z3.Not(var))
        if z3_check(canonical, deadline) == z3.sat:
            continue  # keep it off
        canonical.pop()
        canonical.add(var)
    z3_check(canonical, deadline)
    m = canonical.model()
    loads = sorted(k for k, v in model.loads.items() if z3.is_true(m.eval(v, model_completion=True)))
    applies = sorted(k for k, v in model.applies.items() if z3.is_true(m.eval(v, model_completion=True)))
    return defeated, lost, loads, applies


# -- the CP-SAT model: the z3 model above, term for term --------------------------------------------


def _cpsat_loads(model: Any, given: _Inputs) -> dict[tuple[str, str], Any]:
    """Load Dice: at most one slot a die, at most one die a slot."""
    loads: dict[tuple[str, str], Any] = {}
    for die, face in _load_faces(given):
        mine = []
        for slot, want in given.free:
            if accepts(slot, want, die.colour, face):
                var = model.new_bool_var(f"load_{die.name}_{slot}")
                loads[(die.name, str(slot))] = var
                mine.append(var)
        if len(mine) > 1:
            model.add_at_most_one(mine)
    for slot, _ in given.free:
        on_slot = [v for (d, sl), v in loads.items() if sl == str(slot)]
        if len(on_slot) > 1:
            model.add_at_most_one(on_slot)
    return loads


def _cpsat_reach(
    model: Any, loads: dict[tuple[str, str], Any], var: Any, name: str, space: str, lane: str
) -> None:
    """Applying ``var`` needs the die to reach ``lane``: from its fixed space or a slot it is newly loaded on."""
    if space:  # a die already loaded: its space reaches the lane or not
        if lane not in hit_reach(space):
            model.add(var == 0)
        return
    terms = [v for (d, sl), v in loads.items() if d == name and lane in hit_reach(Slot.parse(sl).space)]
    if terms:
        model.add_bool_or(terms).only_enforce_if(var)
    else:
        model.add(var == 0)


def _cpsat_applies(
    model: Any, given: _Inputs, rules: Rules, loads: dict[tuple[str, str], Any]
) -> dict[tuple[str, str, int], Any]:
    """Spires Fire: loaded hits onto the cards of a lane, top first; one card a die."""
    applies: dict[tuple[str, str, int], Any] = {}
    for name, _face, space in given.hitters:
        mine = []
        for lane in LANES:
            for k in range(_depth(rules, given.cards[lane])):
                var = model.new_bool_var(f"apply_{name}_{lane}_{k}")
                applies[(name, lane, k)] = var
                mine.append(var)
                _cpsat_reach(model, loads, var, name, space, lane)
        if len(mine) > 1:
            model.add_at_most_one(mine)
    return applies


def _cpsat_defeats(
    model: Any, game: CloudspireGame, given: _Inputs, applies: dict[tuple[str, str, int], Any]
) -> dict[tuple[str, int], Any]:
    """A card is defeated when its applied damage reaches its Health; a deeper card only after the one above."""
    faces = {name: face for name, face, _ in given.hitters}
    defeated_vars: dict[tuple[str, int], Any] = {}
    for lane in LANES:
        for k, card in enumerate(given.cards[lane]):
            terms = [
                (v, _damage(game, faces[n], card))
                for (n, ln, kk), v in applies.items()
                if ln == lane and kk == k
            ]
            done = model.new_bool_var(f"defeated_{lane}_{k}")
            if terms:
                damage = sum(w * v for v, w in terms)
                model.add(damage >= card.health).only_enforce_if(done)
                model.add(damage <= card.health - 1).only_enforce_if(done.Not())
            else:  # no die can reach it: defeated only if it has no Health left
                model.add(done == int(card.health <= 0))
            defeated_vars[(lane, k)] = done
            if k > 0:
                for (_die, ln, kk), v in applies.items():
                    if ln == lane and kk == k:
                        model.add_implication(v, defeated_vars[(lane, k - 1)])
                model.add_implication(done, defeated_vars[(lane, k - 1)])
    return defeated_vars


def _cpsat_both_ways(model: Any, lit: Any, conds: list[Any]) -> None:
    """``lit`` is the conjunction of ``conds`` (literals)."""
    model.add_bool_and(conds).only_enforce_if(lit)
    model.add_bool_or([c.Not() for c in conds]).only_enforce_if(lit.Not())


@dataclass
class _CpsatTerms:
    """The Health terms of Suffer Damage and After Effects, with the most each side can reach."""

    harm: list[Any] = field(default_factory=list)
    harm_most: int = 0
    heal: list[Any] = field(default_factory=list)
    heal_most: int = 0


def _cpsat_card_terms(
    model: Any,
    rules: Rules,
    terms: _CpsatTerms,
    lane: str,
    k: int,
    card: _Card,
    absorb: tuple[int, Any],
    defeated_vars: dict[tuple[str, int], Any],
) -> None:
    """One card's share of the round's Health: its attack from the top, its after effect, its
    revealed damage and its heal."""
    absorb_least, absorb_var = absorb
    top = model.new_bool_var(f"top_{lane}_{k}")  # the card on top of the lane after Spires Fire
    _cpsat_both_ways(
        model, top, [*(defeated_vars[(lane, j)] for j in range(k)), defeated_vars[(lane, k)].Not()]
    )
    if lane == "bottom" or card.ranged:
        most = max(0, card.damage - absorb_least)
        through = model.new_int_var(0, most, f"through_{lane}_{k}")
        model.add_max_equality(through, [card.damage - absorb_var, 0])
        hero = model.new_int_var(0, most, f"hero_{lane}_{k}")
        model.add(hero == through).only_enforce_if(top)
        model.add(hero == 0).only_enforce_if(top.Not())
        terms.harm.append(hero)
        terms.harm_most += most
    if card.after:
        if rules.after_defeated == "all-engaged":
            engaged = model.new_bool_var(f"engaged_{lane}_{k}")
            model.add_bool_or([top, defeated_vars[(lane, k)]]).only_enforce_if(engaged)
            model.add_bool_and([top.Not(), defeated_vars[(lane, k)].Not()]).only_enforce_if(engaged.Not())
            terms.harm.append(card.after * engaged)
        else:
            terms.harm.append(card.after * top)
        terms.harm_most += max(0, card.after)
    if k > 0 and card.revealed_damage:
        terms.harm.append(card.revealed_damage * defeated_vars[(lane, k - 1)])
        terms.harm_most += max(0, card.revealed_damage)
    if card.heal:
        terms.heal.append(card.heal * defeated_vars[(lane, k)])
        terms.heal_most += max(0, card.heal)


def _cpsat_suffer_damage(
    model: Any,
    s: GameState,
    given: _Inputs,
    rules: Rules,
    loads: dict[tuple[str, str], Any],
    defeated_vars: dict[tuple[str, int], Any],
) -> _CpsatTerms:
    """Suffer Damage and After Effects: the first undefeated card of each lane attacks; misses and
    spires absorb."""
    live = _live_spires(s)
    terms = _CpsatTerms()
    for lane in LANES:
        absorb_least, new_misses = _row_absorbers(s, given, loads, lane, live, rules.load_source)
        absorb = absorb_least + sum(new_misses)
        for k, card in enumerate(given.cards[lane]):
            _cpsat_card_terms(model, rules, terms, lane, k, card, (absorb_least, absorb), defeated_vars)
    return terms


def _cpsat_plan(
    game: CloudspireGame, start: GameState, objective: str, deadline: Deadline
) -> tuple[int, int, list[tuple[str, str]], list[tuple[str, str, int]]]:
    """:func:`_z3_plan` with OR-Tools CP-SAT: the same variables and constraints (integer terms as
    bounded variables, ``If`` as enforced equalities), the two objectives and then the canonical
    plan (the fewest, earliest variables) as one lexicographic minimisation."""
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    from ortools.sat.python import cp_model

    given = _inputs(game, start, "CP-SAT")
    s = start
    rules = game.rules
    model = cp_model.CpModel()
    loads = _cpsat_loads(model, given)
    applies = _cpsat_applies(model, given, rules, loads)
    defeated_vars = _cpsat_defeats(model, game, given, applies)
    terms = _cpsat_suffer_damage(model, s, given, rules, loads, defeated_vars)
    final_least, final_most = s.health - terms.harm_most, s.health + terms.heal_most
    final = model.new_int_var(final_least, final_most, "final")
    model.add(final == s.health + sum(terms.heal) - sum(terms.harm))
    kept = model.new_int_var(0, max(0, final_most), "kept")  # Health left, stopping at 0
    model.add_max_equality(kept, [final, 0])
    lost = s.health - kept
    lost_least, lost_most = s.health - max(0, final_most), s.health - max(0, final_least)
    defeated = sum(defeated_vars.values())
    count = len(defeated_vars)
    fewer_defeated = (count - defeated, count + 1)
    more_lost = (lost - lost_least, lost_most - lost_least + 1)
    keys = [fewer_defeated, more_lost] if objective == "defeat" else [more_lost, fewer_defeated]
    variables = [v for _, v in sorted(loads.items())] + [v for _, v in sorted(applies.items())]
    solver = cpsat_lex_min(model, [*keys, *[(v, 2) for v in variables]], deadline)
    if solver is None:  # pragma: no cover - doing nothing is always a plan
        raise OracleDisagreement("the CP-SAT engagement model has no plan")
    chosen_loads = sorted(k for k, v in loads.items() if solver.value(v))
    chosen_applies = sorted(k for k, v in applies.items() if solver.value(v))
    return int(solver.value(defeated)), int(solver.value(lost)), chosen_loads, chosen_applies


# -- replaying a z3 plan through the oracle --------------------------------------------------------------


def _replay_plan(
    game: CloudspireGame, start: GameState, loads: list[tuple[str, str]], applies: list[tuple[str, str, int]]
) -> tuple[GameState, tuple[str, ...], list[tuple[str, str]], list[tuple[str, str]]]:
    """Play the plan: loads (renamed to the oracle's representative of equal dice), then the
    applications lane by lane, deeper cards once revealed, skipping dice no longer needed."""
    names: dict[str, str] = {}
    s = start
    answers: list[str] = []
    played_loads: list[tuple[str, str]] = []
    played_apps: list[tuple[str, str]] = []
    pending_loads = list(loads)
    targets = {name: (lane, k) for name, lane, k in applies}
    cards_at = {lane: list(start.lane(lane)) for lane in LANES}

    def answer(option: str) -> None:
        nonlocal s
        answers.append(option)
        s = step(game, s, option)

    guard = 0
    while not _stopped(s):
        guard += 1
        if guard > 500:  # pragma: no cover - a bug
            raise OracleDisagreement("the plan did not finish the round")
        request = s.request
        assert isinstance(request, DecisionRequest)
        if request.kind == "load":
            if not pending_loads:
                answer("done")
                continue
            die, slot = pending_loads.pop(0)
            original = s.die(die)
            face = (
                original.face if original.zone is Zone.COMMITTED and original.face is not None else Face.MISS
            )
            twin = next(
                o
                for o in request.options
                if o.startswith("load ")
                and Choice.parse(o).slot == Slot.parse(slot)
                and _same_kind(s, Choice.parse(o).die, original.colour, face, original.zone)
            )
            chosen = Choice.parse(twin).die
            names[die] = chosen
            played_loads.append((chosen, slot))
            answer(twin)
        elif request.kind == "fire":
            move = _next_application(s, targets, names, cards_at, request.options)
            if move is None:
                answer("done")
            else:
                played_apps.append((Choice.parse(move).die, Choice.parse(move).lane))
                answer(move)
        elif request.kind == "commit":
            answer("stop")
        else:
            answer(request.options[0])  # damage: misses, then spires, then the hero; attack order
    return s, tuple(answers), played_loads, played_apps


def _same_kind(s: GameState, die: str, colour: Any, face: Face, zone: Zone) -> bool:
    d = s.die(die)
    if d.colour is not colour or d.zone is not zone:
        return False
    return (d.face if d.zone is Zone.COMMITTED else Face.MISS) is face


def _next_application(
    s: GameState,
    targets: dict[str, tuple[str, int]],
    names: dict[str, str],
    cards_at: dict[str, list[str]],
    offered: tuple[str, ...],
) -> str | None:
    for original, (lane, k) in sorted(
        targets.items(), key=lambda x: (LANES.index(x[1][0]), x[1][1], die_order(x[0]))
    ):
        die = names.get(original, original)
        if s.die(die).zone is not Zone.LOADED:
            continue
        wanted = cards_at[lane][k] if k < len(cards_at[lane]) else None
        if wanted is None or s.top_of(lane) != wanted:
            continue  # not revealed yet, or already defeated (a die it no longer needs)
        option = f"apply {die} {lane}"
        if option in offered:
            return option
    return None


# -- the question ----------------------------------------------------------------------------------


def best_engagement(
    scenario: Scenario, method: str = "auto", deadline: Deadline | None = None
) -> EngagementAnswer:
    """Both plans (most defeated, least Health lost) by ``z3``, ``cpsat``, ``baseline`` or ``both``
    (all three, checked to agree); ``auto`` takes z3 (see :data:`AUTO`)."""
    if method == "auto":
        method = AUTO
    engines = ENGINES if method == "both" else (method,)
    if not set(engines) <= set(ENGINES):
        raise RulesError(
            f"unknown engagement engine {method!r}: choose from auto, {', '.join(ENGINES)}, both"
        )
    deadline = deadline or Deadline()
    game = scenario.game()
    origin = scenario.initial  # metrics count from here (the opening may already change things)
    check_start(origin)
    start, _ = game.start(origin)
    solvers = {"z3": _z3_plan, "cpsat": _cpsat_plan}
    states = [0]

    def solve(engine: str) -> dict[str, EngagementPlan]:
        if engine == "baseline":
            search = _Baseline(game, origin, deadline)
            best = search.best(start)
            states[0] = len(search.memo)
            return {o: _plan_from_path(o, origin, start, game, best[o][1]) for o in OBJECTIVES}
        plans: dict[str, EngagementPlan] = {}
        for objective in OBJECTIVES:
            defeated, lost, loads, applies = solvers[engine](game, origin, objective, deadline)
            final, answers, played_loads, played_apps = _replay_plan(game, start, loads, applies)
            got = _metrics(origin, final)
            if got != (defeated, lost):
                raise OracleDisagreement(
                    f"{engine}'s {objective} plan claims {defeated} defeated and {lost} Health lost; "
                    f"the oracle playing it gives {got[0]} and {got[1]}"
                )
            plans[objective] = EngagementPlan(
                objective, defeated, lost, tuple(played_loads), tuple(played_apps), answers
            )
        return plans

    # the baseline first (as always), then z3 and CP-SAT; one cut by a limit or Ctrl-C is named,
    # the later ones are not started, and only those that finished are compared and named
    order = tuple(e for e in ("baseline", *solvers) if e in engines)
    found, runs = run_engines(order, solve, deadline, finished=lambda _: True)
    plans_by = dict(zip(runs.finished, found, strict=True))
    name = "+".join(e for e in engines if e in plans_by) or order[0]  # none finished: the one stopped
    if not plans_by:
        return EngagementAnswer(name, Status.UNKNOWN.value, (), None, 0, False)
    agree = None
    if len(plans_by) > 1:
        values = {
            e: tuple((plans_by[e][o].defeated, plans_by[e][o].health_lost) for o in OBJECTIVES)
            for e in plans_by
        }
        # the two models pick the same canonical plan (the fewest, earliest variables): the same plan
        same_plans = "z3" not in plans_by or "cpsat" not in plans_by or plans_by["z3"] == plans_by["cpsat"]
        agree = len(set(values.values())) == 1 and same_plans
        if not agree:
            raise OracleDisagreement(
                "the engagement engines disagree: "
                + "; ".join(
                    f"{o}: "
                    + ", ".join(
                        f"{e} {plans_by[e][o].defeated}/{plans_by[e][o].health_lost}" for e in plans_by
                    )
                    for o in OBJECTIVES
                )
                + ("" if same_plans else " (z3 and CP-SAT chose different plans)")
            )
    chosen = next(plans_by[e] for e in ("z3", "cpsat", "baseline") if e in plans_by)
    return EngagementAnswer(
        name,
        runs.status(Status.PROVEN.value),  # best-found: an engine that should have checked it was stopped
        tuple(chosen[o] for o in OBJECTIVES),
        agree,
        states[0] if "baseline" in plans_by else 0,
        True,
    )

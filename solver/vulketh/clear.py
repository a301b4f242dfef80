"""Search (b): where can the player put members so that a hex holds no Invader after the next
Invader turn, whatever card is drawn (or prove that no placement does)?

The scenario gives the position at the end of the player's actions (``start: invader``): the
members the search places join the map there, then the player's conflicts over the population
limit are resolved (seed 003: a hex cleared of Invaders costs them a resource) and the Invader
takes its next turn with every card it may draw. Placements add up to ``members`` members
(from the player's supply) to the allowed hexes; the answer is the placement with the fewest
members (the lexicographically first by hex among those), with the number of such placements.

Engines (exact; tests check them equal; ``both`` runs all three and checks them equal):

* ``z3`` over the compiled rules, one Invader turn per possible card, minimising the members
  placed (one count at a time), then the placement ordered (most on the lowest hex, ...) and the
  placements of that many members counted by blocking each one found;
* ``cpsat`` - the same compiled rules over OR-Tools CP-SAT terms (:class:`CpSatOps`), the same
  constraints; the fewest members and the order of ties in one lexicographic minimisation, the
  placements of that many members counted by enumerating them: the same answer as z3's, byte for
  byte but for the ``engine`` field;
* ``baseline`` tries every placement, fewest members first, through the oracle.

``auto`` takes the baseline up to :data:`CLEAR_CROSSOVER` placements to try, CP-SAT beyond (the
measurements are there). The answer is replayed through the oracle for every possible card.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import z3

from invasion_oracle.model.core.decisions import FirstLegalDecider, PreferringDecider, ScriptedChance
from invasion_oracle.model.core.driver import play
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.vulketh.scenario import Scenario
from invasion_oracle.model.vulketh.state import (
    EndPlayerTurn,
    GameState,
    InvaderTurn,
    PlayerConflicts,
    PlayerTurn,
)
from invasion_oracle.solver.common import (
    Deadline,
    OracleDisagreement,
    Progress,
    Status,
    TimeLimit,
    cpsat_available,
    cpsat_count,
    cpsat_lex_min,
    load_cpsat,
    z3_check,
)
from invasion_oracle.solver.vulketh.compiled import Z3, Compiled, CpSatOps, Unsupported, from_state
from invasion_oracle.solver.vulketh.race import lex_min

ENGINES = ("z3", "cpsat", "baseline")  # the order ``--engine both`` runs and names them in
# ``auto`` (:func:`auto_engine`): the baseline while the placements it may have to try, every
# placement of up to ``members`` members on the allowed hexes (C(hexes + members, members)), number
# at most CLEAR_CROSSOVER, else CP-SAT. From the table "clear (b) engines" of ``make bench``
# (tests/vulketh/bench.py, search time only, best of 2 CPU, on clear_hex.json): when no placement
# works the baseline tries them all at about 0.58 ms each (6 ms for the 10 of 1 member, 124 ms for
# 220, 1.16 s for 2,002); it stops at the fewest members that work (33 ms for hex 7 with 5 members
# allowed). CP-SAT takes 11-160 ms at these sizes, but a fresh process first pays 0.41-0.53 s CPU
# importing OR-Tools (the table's import row); z3 takes about 0.5 s at every size (compiling the
# Invader turns) and is never the fastest. Baseline and CP-SAT (import included) meet near 1,000
# placements: beyond, CP-SAT bounds a search the baseline may take seconds to minutes on, at the
# price of about 0.6 s where the baseline would have stopped early.
CLEAR_CROSSOVER = 1_000
Placement = tuple[tuple[int, int], ...]  # (hex, members), hex ascending, members > 0


@dataclass(frozen=True, slots=True)
class ClearQuestion:
    scenario: Scenario
    target: int
    members: int  # most members the player may place
    hexes: tuple[int, ...]  # where they may go

    def cards(self) -> tuple[str, ...]:
        """The cards the next Invader turn may draw (after a reshuffle if the pile is empty)."""
        state, data = self.scenario.initial, self.scenario.data
        first = state.invader_turns == 0 or state.last_card is None
        deck = 1 if first else data.card(state.last_card).next_deck  # type: ignore[arg-type]
        pile = state.decks[deck - 1]
        if not pile:
            pile = tuple(sorted(c for c in state.discard if data.card(c).deck == deck))
        return tuple(sorted(pile))


def question_from_scenario(
    scenario: Scenario, target: int, members: int, hexes: Sequence[int] | None = None
) -> ClearQuestion:
    if scenario.document.get("start") != "invader":
        raise MalformedInputError(
            scenario.source,
            "$.start",
            "give the position at the end of the player's actions: start 'invader'",
        )
    if not 1 <= target <= 9:
        raise MalformedInputError(scenario.source, "--hex", f"the hexes are numbered 1-9, got {target}")
    allowed = tuple(sorted(set(hexes))) if hexes else tuple(range(1, 10))
    for n in allowed:
        if not 1 <= n <= 9:
            raise MalformedInputError(scenario.source, "--hexes", f"the hexes are numbered 1-9, got {n}")
    most = min(members, scenario.initial.player_supply)
    return ClearQuestion(scenario, target, most, allowed)


@dataclass(frozen=True, slots=True)
class ClearAnswer:
    status: Status
    engine: str
    target: int
    cards: tuple[str, ...]
    placement: Placement | None  # None: no placement of up to `members` members works
    members: int | None
    alternatives: int  # placements with that many members that work
    searched_up_to: int
    replayed: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "engine": self.engine,
            "target_hex": self.target,
            "cards": list(self.cards),
            "placement": {str(h): n for h, n in self.placement} if self.placement is not None else None,
            "members": self.members,
            "placements_with_that_many": self.alternatives,
            "searched_up_to_members": self.searched_up_to,
            "replayed": self.replayed,
        }


# -- the oracle's view ----------------------------------------------------------------------------


def baseline_work(question: ClearQuestion) -> int:
    """The placements the baseline tries when none works: every one of up to ``members`` members."""
    return math.comb(len(question.hexes) + question.members, question.members)


def auto_engine(question: ClearQuestion) -> str:
    """The engine ``auto`` runs (see :data:`CLEAR_CROSSOVER`); z3 for CP-SAT when OR-Tools is not
    installed (z3's time hardly grows with the size, where the baseline's does)."""
    if baseline_work(question) <= CLEAR_CROSSOVER:
        return "baseline"
    return "cpsat" if cpsat_available() else "z3"


def placed_state(state: GameState, placement: Placement) -> GameState:
    """The position with the placement added and the player's conflicts, then the Invader turn,
    to do (a turn script without effects stands for the actions already taken)."""
    for number, count in placement:
        cell = state.hex(number)
        state = state.with_hex(number, replace(cell, player=cell.player + count))
    state = replace(state, player_supply=state.player_supply - sum(n for _, n in placement))
    turn = PlayerTurn(path="$", dice=())
    return replace(
        state, turn=turn, dice=(), player_turns=(), agenda=(PlayerConflicts(), EndPlayerTurn(), InvaderTurn())
    )


def oracle_after(question: ClearQuestion, placement: Placement, card: str) -> GameState:
    game = question.scenario.game()
    start, opening = game.start(placed_state(question.scenario.initial, placement))
    decider = PreferringDecider(("decline",), FirstLegalDecider())
    chance = ScriptedChance([card] if len(question.cards()) > 1 else [], label="search draw")
    return play(game, start, decider, chance, opening=opening).final


def clears(question: ClearQuestion, placement: Placement) -> bool:
    return all(
        oracle_after(question, placement, c).hex(question.target).invaders == 0 for c in question.cards()
    )


def placements(question: ClearQuestion, total: int) -> Iterator[Placement]:
    """Every placement of exactly ``total`` members on the allowed hexes, lexicographically
    first by hex (most on the lowest hex first)."""
    hexes = question.hexes

    def rec(i: int, left: int) -> Iterator[tuple[tuple[int, int], ...]]:
        if i == len(hexes):
            if left == 0:
                yield ()
            return
        for n in range(left, -1, -1):
            for rest in rec(i + 1, left - n):
                yield ((hexes[i], n), *rest) if n else rest

    yield from rec(0, total)


def _baseline(
    question: ClearQuestion, deadline: Deadline, progress: Progress, extent: _Extent
) -> tuple[Placement | None, int]:
    for total in range(question.members + 1):
        extent.found = []
        for placement in placements(question, total):
            deadline.check()
            progress.step()
            if clears(question, placement):
                extent.found.append(placement)
        if extent.found:
            return extent.found[0], len(extent.found)
        extent.done = total
    return None, 0


@dataclass
class _Extent:
    """How far a search got: every placement of up to ``done`` members refuted (-1: none yet), and
    the placements found clearing the hex with ``done + 1`` members (the baseline, in order)."""

    done: int = -1
    found: list[Placement] = field(default_factory=list)


# -- z3 ----------------------------------------------------------------------------------------------


def _z3(question: ClearQuestion, deadline: Deadline, extent: _Extent) -> tuple[Placement | None, int]:
    scenario = question.scenario
    compiled = Compiled(scenario.rules, Z3, deadline.check)
    compiled.check_supported()
    base = from_state(scenario.initial, scenario.rules)
    put = {n: z3.Int(f"put{n}") for n in question.hexes}
    ply = tuple(base.ply[n - 1] + put[n] if n in put else base.ply[n - 1] for n in range(1, 10))
    start = compiled.player_conflicts(replace(base, ply=ply))
    cards = [c.id for c in scenario.data.action_cards]
    # z3's incremental solver from the first check: the default one first runs its preprocessing
    # over the whole formula (unrolled Invader turns), three times the search's time here
    solver = z3.SimpleSolver()
    solver.add(*[v >= 0 for v in put.values()], z3.Sum(*put.values()) <= question.members)
    for card in question.cards():
        after, legal = compiled.invader_turn(start, cards.index(card))
        solver.add(_bool(legal), after.inv[question.target - 1] == 0)
    total = z3.Sum(*put.values())
    if z3_check(solver, deadline) != z3.sat:
        extent.done = question.members
        return None, 0
    # fewest members, then the most on the lowest hex, the next, ...
    members = question.members
    for m in range(question.members + 1):
        if z3_check(solver, deadline, total == m) == z3.sat:
            members = m
            extent.found = [_placement(question, solver.model(), put)]  # a fewest, should the rest be cut
            break
        extent.done = m
    terms = [(put[n], range(members, -1, -1)) for n in question.hexes]
    model = lex_min([total == members], terms, deadline, solver)
    best = _placement(question, model, put)
    extent.found = [best]  # the answer; cut while counting, its alternatives are a lower bound
    return best, _count(solver, put, total == members, deadline)


# -- CP-SAT ------------------------------------------------------------------------------------------


def _cpsat(question: ClearQuestion, deadline: Deadline, extent: _Extent) -> tuple[Placement | None, int]:
    """:func:`_z3` over OR-Tools CP-SAT: the same compiled rules (:class:`CpSatOps`), the same
    constraints; one lexicographic minimisation (the members placed, then the most on the lowest
    hex, the next, ...) for the answer, then every placement of that many members enumerated."""
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    from ortools.sat.python import cp_model

    scenario = question.scenario
    model = cp_model.CpModel()
    ops = CpSatOps(model)
    compiled = Compiled(scenario.rules, ops, deadline.check)
    compiled.check_supported()
    base = from_state(scenario.initial, scenario.rules)
    most = question.members
    put = {n: ops.int_var(0, most, f"put{n}") for n in question.hexes}
    ply = tuple(base.ply[n - 1] + put[n] if n in put else base.ply[n - 1] for n in range(1, 10))
    start = compiled.player_conflicts(replace(base, ply=ply))
    cards = [c.id for c in scenario.data.action_cards]
    total = ops.expr(ops.total(list(put.values())))
    model.add(total <= most)
    feasible = True
    for card in question.cards():
        after, legal = compiled.invader_turn(start, cards.index(card))
        for condition in (legal, after.inv[question.target - 1] == 0):
            if condition is False:
                feasible = False
            elif condition is not True:
                model.add_bool_and([condition.literal])
    if not feasible:
        extent.done = question.members
        return None, 0
    variables = [ops.expr(put[n]) for n in question.hexes]
    order = [(total, most + 1), *[(most - v, most + 1) for v in variables]]
    solver = cpsat_lex_min(model, order, deadline)
    if solver is None:
        extent.done = question.members
        return None, 0
    values = {n: int(solver.value(v)) for n, v in zip(question.hexes, variables, strict=True)}
    best = tuple((n, values[n]) for n in question.hexes if values[n])
    members = sum(values.values())
    extent.done = members - 1
    extent.found = [best]  # the answer; cut while counting, its alternatives are a lower bound
    counting = model.clone()
    counting.add(total == members)
    return best, cpsat_count(counting, variables, deadline)


def _placement(question: ClearQuestion, model: Any, put: dict[int, Any]) -> Placement:
    values = {n: model.eval(put[n], model_completion=True).as_long() for n in question.hexes}
    return tuple((n, values[n]) for n in question.hexes if values[n])


def _count(solver: z3.Solver, put: dict[int, Any], goal: Any, deadline: Deadline) -> int:
    """How many placements meet ``goal`` (blocking each model found)."""
    solver.push()
    solver.add(goal)
    count = 0
    while z3_check(solver, deadline) == z3.sat:
        model = solver.model()
        count += 1
        solver.add(z3.Or(*[v != model.eval(v, model_completion=True) for v in put.values()]))
    solver.pop()
    return count


def _bool(value: Any) -> Any:
    return z3.BoolVal(value) if isinstance(value, bool) else value


# -- the answer --------------------------------------------------------------------------------------


def clear_hex(
    question: ClearQuestion,
    *,
    engine: str = "z3",
    seconds: float | None = None,
    progress: Progress | None = None,
    parent: Deadline | None = None,
) -> ClearAnswer:
    """Search ``question`` with ``engine`` (z3, cpsat, baseline; auto: :func:`auto_engine`); the
    placement found is replayed through the oracle for every card."""
    # ``parent``: the command's deadline, whose Ctrl-C (stop_on_interrupt) stops this search too.
    if engine == "auto":
        engine = auto_engine(question)
    if engine not in ENGINES:
        raise MalformedInputError("--engine", engine, f"the clear search's engines are {', '.join(ENGINES)}")
    deadline = Deadline(seconds, parent=parent)
    progress = progress or Progress("placements")
    extent = _Extent()
    try:
        if engine == "baseline":
            placement, alternatives = _baseline(question, deadline, progress, extent)
        else:
            try:
                search = {"z3": _z3, "cpsat": _cpsat}[engine]
                placement, alternatives = search(question, deadline, extent)
            except Unsupported as err:
                raise MalformedInputError(
                    question.scenario.source,
                    "$",
                    f"the {engine} engine does not model {err}; use --engine baseline",
                ) from None
    except TimeLimit:
        progress.finish()
        if extent.found and clears(question, extent.found[0]):
            # Cut while counting the placements of the fewest members (or, z3, while ordering
            # them): one of them (every smaller count refuted; the baseline's and z3's counted,
            # the first in the order of ties) is the answer; the count of alternatives is a
            # lower bound.
            first = extent.found[0]
            return ClearAnswer(
                Status.BEST_FOUND,
                engine,
                question.target,
                question.cards(),
                first,
                sum(n for _, n in first),
                len(extent.found),
                extent.done,
                True,
            )
        return ClearAnswer(
            Status.UNKNOWN, engine, question.target, question.cards(), None, None, 0, extent.done, False
        )
    progress.finish()
    if placement is not None:
        if not clears(question, placement):
            raise OracleDisagreement(
                f"placing {placement} should leave hex {question.target} without Invaders after every card; "
                "the oracle disagrees"
            )
        members = sum(n for _, n in placement)
    else:
        members = None
    return ClearAnswer(
        Status.PROVEN,
        engine,
        question.target,
        question.cards(),
        placement,
        members,
        alternatives,
        question.members,
        placement is not None,
    )

"""Query 4 (a) on OR-Tools CP-SAT: the placement surely defeating the most heroes of the first wave.

The counterexample-guided loop is z3's (:func:`~invasion_oracle.solver.stonespine.placement.cegis_guaranteed`):
CP-SAT proposes a placement meeting the rolls collected so far, each roll the CP-SAT wave encoding
(:class:`~invasion_oracle.solver.stonespine.cpsat_wave.CpWave`) over the placement's variables, and
the compiled search checks it against every roll. Two things make the answer the search's, tie
list included:

* only *tidy* placements are proposed, the form :meth:`Space.classes` yields (minions only where
  they can change something, or on the one stand-in chamber), so a class has one member up to the
  board's symmetries, and blocking a class blocks the placement and its mirror images;
* each proposal is the first in the search's class order (guardian positions, then the number of
  minions, then minion positions: :func:`~invasion_oracle.solver.stonespine.placement.search_order`),
  one minimisation per proposal. The first proposal meeting every roll is then the first class of
  that value (a mirror image earlier in the order would be tidy, unblocked and meet the same rolls),
  so the ties come out in the search's order and ``top`` lists the search's first ``top``.

One worker and a fixed seed (:func:`~invasion_oracle.solver.common.cpsat_solve`): the same
proposals, and the same answer, on every run. OR-Tools is imported only when a model is built.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.solver.common import Deadline, OracleDisagreement, cpsat_lex_min, cpsat_solve, load_cpsat
from invasion_oracle.solver.stonespine.answers import PlacementAnswer
from invasion_oracle.solver.stonespine.board import Layout
from invasion_oracle.solver.stonespine.cpsat_wave import CpLogic, CpWave, Num
from invasion_oracle.solver.stonespine.dice import Roll
from invasion_oracle.solver.stonespine.placement import cegis_guaranteed
from invasion_oracle.solver.stonespine.space import Space

# CP-SAT's linear relaxation costs more than it prunes here: without it the proof that no placement
# of the 8x8 study grid (25 chambers enterable) surely defeats 3 of 4 heroes takes 3.5 s of CPU
# instead of 6.9 s (4 of 4: 3.9 s instead of 11.4 s); other settings tried (probing, presolve,
# symmetry, a fixed branching order on the figures, pseudo-costs) did not help. One presolve pass
# instead of CP-SAT's default loop: most solves are small (one proposal each, dozens per answer)
# and their presolve loop was most of their time (the 3x2 study grid's 41 solves: 0.59 s of CPU
# instead of 0.96 s; the 8x8 proof: 4.2 s instead of 4.7 s). The proposals are the same: each is
# the unique optimum of the class order. Probing at level 1 (CP-SAT's default is 2): a fifth less
# CPU for the loop on the bundled example and the 3x2 grid, a third less on the bench's 8x8 grids
# (52 enterable: 0.35 s instead of 0.51 s), the 8x8 proof unchanged (4.4-4.9 s both ways; level 0
# makes it a tenth to a quarter slower).
PARAMETERS = {"linearization_level": 0, "max_presolve_iterations": 1, "cp_model_probing_level": 1}
# One weighted objective orders the proposals while its weights stay exact in 62 bits; beyond
# that (a very large grid with many figures) one minimisation per term.
ONE_OBJECTIVE_BELOW = 1 << 62


class CpPlacementModel:
    """CP-SAT variables for a tidy placement over the space's guardian chambers, the wave
    encodings of the rolls added so far, and the search's class order as the objective."""

    def __init__(self, space: Space, deadline: Deadline) -> None:
        load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
        from ortools.sat.python import cp_model

        board = space.board
        self.space, self.board, self.deadline = space, board, deadline
        self.nodes = space.guardian_nodes()  # position order: the enterable chambers, then the stand-in
        top = max(space.counts, default=0)
        figures = board.guardian_figures
        model = self.model = cp_model.CpModel()
        self.logic = CpLogic(model)
        self.guard = {c: model.new_int_var(0, figures, f"g{c}") for c in self.nodes}
        self.minion = {c: model.new_int_var(0, top, f"m{c}") for c in self.nodes}
        # is_guard[c][v]: c holds v guardian figures (likewise minions), for blocking classes
        self.is_guard = {c: self._values(self.guard[c], figures) for c in self.nodes}
        self.is_minion = {c: self._values(self.minion[c], top) for c in self.nodes}
        self.has_guard = {c: ~self.is_guard[c][0] for c in self.nodes}
        # the wave encodings' terms, made once: CpLogic shares what it derives from the same term
        self.minion_terms: list[Any] = [0] * board.size
        self.guard_terms: list[Any] = [False] * board.size
        for c in self.nodes:
            self.minion_terms[c] = Num(self.minion[c], 0, top)
            self.guard_terms[c] = self.has_guard[c]
        model.add(sum(self.guard.values()) == figures)
        total = model.new_int_var_from_domain(cp_model.Domain.from_values(list(space.counts)), "minions")
        model.add(total == sum(self.minion.values()))
        self._tidy()
        self.terms = self._order(total)
        span = 1
        for _, size in self.terms:
            span *= size
        self.one_objective = span < ONE_OBJECTIVE_BELOW
        objective: Any = 0
        if self.one_objective:
            weight = 1
            for expr, size in reversed(self.terms):
                objective += weight * expr
                weight *= size
            model.minimize(objective)
        self.objective = objective
        self.rolls: list[Roll] = []

    def _values(self, var: Any, top: int) -> list[Any]:
        lits = [self.model.new_bool_var("") for _ in range(top + 1)]
        self.model.add_map_domain(var, lits)
        return lits

    def _tidy(self) -> None:
        """Minions only where :meth:`Space.minion_nodes` lets them stand: in an enterable chamber
        where they change something for some hero (with or without the guardian there), else on
        the stand-in (the chamber no hero enters, or without one the guardian's first chamber)."""
        space = self.space
        spare: dict[int, Any] = {}
        if space.idle is not None:
            spare[space.idle] = True
        elif self.board.guardian_figures:
            earlier: list[Any] = []
            for c in self.nodes:  # the guardian chamber first in position order
                spare[c] = self.logic.all_(self.has_guard[c], *(~g for g in earlier))
                earlier.append(self.has_guard[c])
        else:
            return  # no stand-in: Space leaves every minion where it is
        for c in self.nodes:
            if c == space.idle:
                continue
            placed = ~self.is_minion[c][0]
            here = spare.get(c, False)
            for guarded in (True, False):
                if not space.minions_idle(c, guarded):
                    continue
                # minions here change nothing (with a guardian here or without): only as the stand-in
                guard = self.has_guard[c] if guarded else ~self.has_guard[c]
                self.logic.require(~placed, ~guard, here)

    def _order(self, total: Any) -> list[tuple[Any, int]]:
        """The class order as lexicographic terms ``(expression, span)``: each guardian figure's
        position (sorted), the number of minions, each minion's position (sorted; missing ones
        last)."""
        model, nodes = self.model, self.nodes
        n = len(nodes)
        terms: list[tuple[Any, int]] = []
        for counts, slots, spare_slot in (
            (self.guard, self.board.guardian_figures, False),
            (self.minion, max(self.space.counts, default=0), True),
        ):
            if counts is self.minion:
                terms.append((total, slots + 1))
            width = n + (1 if spare_slot else 0)  # position n: no minion in this slot
            at = [[model.new_bool_var("") for _ in range(width)] for _ in range(slots)]
            previous = None
            for j in range(slots):
                model.add_exactly_one(at[j])
                position = model.new_int_var(0, width - 1, "")
                model.add(position == sum(i * b for i, b in enumerate(at[j])))
                if previous is not None:
                    model.add(previous <= position)
                previous = position
                terms.append((position, width))
            for i, c in enumerate(nodes):
                model.add(counts[c] == sum(at[j][i] for j in range(slots)))
        return terms

    def add_roll(self, roll: Roll, target: int) -> None:
        slots = min(target, sum(roll))
        if slots <= 0:
            return
        if roll in self.rolls:
            # CP-SAT proposed a placement its own encoding accepts for this roll, yet the search refutes it.
            raise OracleDisagreement(f"the CP-SAT wave encoding and the search disagree on roll {roll}")
        CpWave(
            self.model,
            self.board,
            slots,
            roll,
            self.space.defeated,
            minions=self.minion_terms,
            guardians=self.guard_terms,
            deadline=self.deadline,
            logic=self.logic,
        )
        if sum(roll) < target:
            self.logic.require()
        self.rolls.append(roll)

    def propose(self) -> Layout | None:
        if self.one_objective:
            solver = cpsat_solve(self.model, self.deadline, PARAMETERS)
            if solver is not None:
                # Rolls and blocks only remove placements: no later proposal comes before this one.
                # Said to CP-SAT, it prunes the next searches (small models: a fifth less time).
                # Not "after": a proposal the search refuted and its roll did not rule out must
                # come back, for add_roll to report the disagreement.
                self.model.add(self.objective >= int(solver.objective_value))
        else:
            solver = cpsat_lex_min(self.model, self.terms, self.deadline, parameters=PARAMETERS)
        if solver is None:
            return None
        counts = [0] * self.board.size
        guards = []
        for c in self.nodes:
            guards += [c] * int(solver.value(self.guard[c]))
            counts[c] = int(solver.value(self.minion[c]))
        return Layout(tuple(guards), tuple(counts))

    def block(self, layout: Layout) -> None:
        """Rule out ``layout`` (tidy) and its images under the board's symmetries: its whole class."""
        images = {layout}
        for perm in self.space.symmetries:
            moved = [0] * self.board.size
            for c, m in enumerate(layout.minions):
                moved[perm[c]] += m
            images.add(Layout(tuple(sorted(perm[g] for g in layout.guardians)), tuple(moved)))
        for image in sorted(images, key=lambda i: (i.guardians, i.minions)):
            self.model.add_bool_or(
                [~self.is_guard[c][image.guardians.count(c)] for c in self.nodes]
                + [~self.is_minion[c][image.minions[c]] for c in self.nodes]
            )


def cpsat_guaranteed(
    scenario: Scenario,
    player: int = 0,
    deadline: Deadline | None = None,
    list_ties: bool = True,
    top: int = 0,
) -> PlacementAnswer:
    """Objective (a) by CP-SAT with counterexample rolls: the search's value and, in its order, its
    first ``top`` tied classes (``0``: all)."""
    return cegis_guaranteed(scenario, player, deadline, list_ties, top, "cpsat", CpPlacementModel)


__all__ = ["CpPlacementModel", "cpsat_guaranteed"]

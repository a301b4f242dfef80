"""Query 1: where can one hero end up? Every outcome the player can steer it to, with a route.

A route is the list of chambers a hero enters. Because the player picks the chamber at every
fork, any simple path from the first chamber is a legal route as long as the hero is alive and
not escaping at each chamber it leaves (seed 000, "Step 2: Repel Heroes"). A route ends in

* ``defeated`` at a chamber: a live guardian there, or damage reaching the hero's health;
* ``escaped`` at a chamber: the year-1-3 exit chamber, or no new chamber to move to;
* ``escaped`` at the entrance when nothing connects to it (``SS-ENTRY-UNCONNECTED=escape``).

What happens in each chamber is :func:`invasion_oracle.solver.stonespine.rules.enter`, the one definition of the
route rules; the engines differ only in how they search:

* :func:`enumerate_outcomes` - the reference walker: a depth-first walk over every route that
  calls the rules at each step (the fast walker in :mod:`invasion_oracle.solver.stonespine.fast` tabulates them);
* :class:`RouteModel` - z3: a simple path (visited flags, successor edges, Miller-Tucker-Zemlin
  order numbers) whose hero state is carried along the chosen edges through the same rules, asked
  one outcome at a time; "unsat" is a proof that no route reaches it;
* :func:`oracle_outcomes` - every decision the oracle itself asks, followed: the ground truth.

:func:`solve_routes` answers the query with a :class:`RoutesAnswer`, every route replayed
through the oracle.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import z3

from invasion_oracle.model.core.decisions import ChanceRequest
from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.stonespine.game import StonespineGame
from invasion_oracle.model.stonespine.heroes import HeroColor
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.state import GameState
from invasion_oracle.solver.common import Deadline, Status, TimeLimit, z3_check
from invasion_oracle.solver.paths import SimplePath, decode
from invasion_oracle.solver.stonespine.board import Board, HeroProfile, Layout, board_for
from invasion_oracle.solver.stonespine.fast import (
    BY_DAMAGE,
    BY_EXIT,
    BY_GUARDIAN,
    EntryTable,
    first_routes,
    random_routes,
)
from invasion_oracle.solver.stonespine.rules import (
    PY,
    Z3,
    ChamberFacts,
    Entered,
    HeroState,
    HeroTerms,
    chamber_facts,
    enter,
    hero_terms,
    route_rules,
    start_state,
    stuck,
    term,
)


class Fate(enum.StrEnum):
    DEFEATED = "defeated"
    ESCAPED = "escaped"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a route ends, how, and one route that gets there."""

    fate: Fate
    node: int | None  # None: escaped at the entrance without entering
    reason: str  # guardian / damage / exit / no-new-chamber / no-entry
    route: tuple[int, ...]
    damage: int  # damage taken by the end of the route

    def key(self) -> tuple[str, int]:
        return (self.fate.value, -1 if self.node is None else self.node)

    def describe(self, board: Board) -> str:
        where = "the entrance" if self.node is None else board.name(self.node)
        return f"{self.fate.value} at {where} ({self.reason})"


def _step(
    board: Board, hero: HeroProfile, layout: Layout, defeated: int, node: int, state: HeroState[bool, int]
) -> Entered[bool, int]:
    facts = chamber_facts(
        PY,
        board,
        hero,
        node,
        minions=layout.minions[node],
        guardian=node in layout.guardians,
        ignored=bool(defeated >> node & 1),
    )
    return enter(PY, route_rules(board), hero_terms(PY, hero), facts, state)


def enumerate_outcomes(
    board: Board,
    layout: Layout,
    color: HeroColor,
    defeated: int = 0,
    deadline: Deadline | None = None,
) -> dict[tuple[str, int], Outcome]:
    """Every reachable outcome with the first route (in the oracle's move order) reaching it.

    The reference walker: plain recursion over routes, the rules evaluated at every chamber.
    """
    hero = board.hero(color)
    found: dict[tuple[str, int], Outcome] = {}
    if board.escape_at_entry:
        found[("escaped", -1)] = Outcome(Fate.ESCAPED, None, "no-entry", (), 0)
        return found
    deadline = deadline or Deadline()
    steps = [0]

    def record(outcome: Outcome) -> None:
        found.setdefault(outcome.key(), outcome)

    def walk(node: int, visited: int, state: HeroState[bool, int], route: tuple[int, ...]) -> None:
        steps[0] += 1
        if steps[0] & 0x3FF == 0:
            deadline.check()
        step = _step(board, hero, layout, defeated, node, state)
        total = step.after.damage
        if step.by_guardian:
            record(Outcome(Fate.DEFEATED, node, "guardian", route, state.damage))
        elif step.by_damage:
            record(Outcome(Fate.DEFEATED, node, "damage", route, total))
        elif step.by_exit:
            record(Outcome(Fate.ESCAPED, node, "exit", route, total))
        else:
            fresh = [nxt for nxt in board.neighbours[node] if not visited >> nxt & 1]
            if stuck(PY, [not fresh]):
                record(Outcome(Fate.ESCAPED, node, "no-new-chamber", route, total))
            for nxt in fresh:
                walk(nxt, visited | 1 << nxt, step.after, (*route, nxt))

    walk(board.start, 1 << board.start, start_state(PY), (board.start,))
    return found


def walk_route(
    board: Board, layout: Layout, color: HeroColor, route: tuple[int, ...], defeated: int = 0
) -> Outcome:
    """Follow ``route`` under the rules; raises ValueError if the route is not legal."""
    hero = board.hero(color)
    state = start_state(PY)
    if not route or route[0] != board.start:
        raise ValueError("a route starts in the first chamber")
    for i, node in enumerate(route):
        if i and node not in board.neighbours[route[i - 1]]:
            raise ValueError(f"{board.name(node)} is not connected to {board.name(route[i - 1])}")
        if node in route[:i]:
            raise ValueError(f"the route enters {board.name(node)} twice")
        last = i == len(route) - 1
        step = _step(board, hero, layout, defeated, node, state)
        ended = (
            ("guardian", Fate.DEFEATED, state.damage)
            if step.by_guardian
            else ("damage", Fate.DEFEATED, step.after.damage)
            if step.by_damage
            else ("exit", Fate.ESCAPED, step.after.damage)
            if step.by_exit
            else None
        )
        if ended is not None:
            reason, fate, damage = ended
            if not last:
                raise ValueError(f"the hero's route ends in {board.name(node)} ({reason})")
            return Outcome(fate, node, reason, route, damage)
        state = step.after
        if last:
            if any(n not in route for n in board.neighbours[node]):
                raise ValueError(f"the route stops in {board.name(node)} with a new chamber open")
            return Outcome(Fate.ESCAPED, node, "no-new-chamber", route, state.damage)
    raise AssertionError("unreachable")  # pragma: no cover


def defeat_nodes(board: Board, layout: Layout, color: HeroColor, defeated: int) -> tuple[int, ...]:
    """Chambers where the hero can be defeated (the reference walker), sorted."""
    outcomes = enumerate_outcomes(board, layout, color, defeated)
    return tuple(sorted(k[1] for k in outcomes if k[0] == "defeated"))


# -- the z3 encoding --------------------------------------------------------------------------


class PathEncoding:
    """One hero's route as z3 variables; what happens in each chamber is :func:`rules.enter`.

    ``facts[c]`` says what chamber ``c`` holds (z3 terms or constants: the placement solver passes
    symbolic minions and guardians, waves pass earlier heroes' defeat chambers as ``ignored``).
    The hero's state entering ``c`` (damage so far, protection used) is a pair of variables,
    equal to the state leaving the chamber before it on the chosen edge.
    """

    def __init__(
        self,
        board: Board,
        tag: str,
        hero: HeroTerms[Any, Any],
        facts: list[ChamberFacts[Any, Any]],
        deadline: Deadline | None = None,
    ) -> None:
        deadline = deadline or Deadline()
        n = board.size
        self.board = board
        # The route's shape is the shared simple path (solver/paths.py); only chambers a hero can
        # ever enter get variables, the others are never visited.
        live = set(board.enterable())
        self.path = SimplePath(board.neighbours, board.start, tag, live=live)
        self.visited, self.end, self.order = self.path.visited, self.path.end, self.path.order
        self.edge = self.path.step
        damage_in: list[Any] = [z3.Int(f"{tag}_d{c}") if c in live else 0 for c in range(n)]
        used_in: list[Any] = [z3.Bool(f"{tag}_u{c}") if c in live else False for c in range(n)]
        rules = route_rules(board)
        self.steps = [enter(Z3, rules, hero, facts[c], HeroState(damage_in[c], used_in[c])) for c in range(n)]
        self.stuck = [stuck(Z3, [self.visited[d] for d in board.neighbours[c]]) for c in range(n)]
        self.constraints: list[Any] = self.path.constraints(deadline.check)
        if not live:  # the hero never enters: no route exists (escape is handled outside)
            return
        add = self.constraints.append
        s = board.start
        first = start_state(Z3)
        add(z3.And(damage_in[s] == first.damage, used_in[s] == first.protection_used))
        # The hero's state entering a chamber is the state leaving the chamber before it.
        for (c, d), x in self.edge.items():
            after = self.steps[c].after
            add(z3.Implies(x, z3.And(damage_in[d] == after.damage, used_in[d] == after.protection_used)))
        for c in sorted(live):
            add(damage_in[c] >= 0)
            # The hero leaves a chamber only alive and not escaping; the route ends where it stops.
            add(z3.Implies(self.path.interior(c), self.steps[c].moves_on))
            add(z3.Implies(self.end[c], z3.Or(self.defeated_here(c), self.escaped_here(c))))
        # Redundant: the damage carried into the last chamber is what every chamber left dealt
        # (the states telescope along the route), one linear sum z3 can reason with directly.
        dealt = {c: z3.simplify(term(self.steps[c].after.damage) - damage_in[c]) for c in live}
        add(
            z3.Sum([z3.If(self.path.interior(c), dealt[c], 0) for c in sorted(live)])
            == z3.Sum([z3.If(self.end[c], damage_in[c], 0) for c in sorted(live)])
        )

    def defeated_here(self, c: int) -> Any:
        step = self.steps[c]
        return term(Z3.any_(step.by_guardian, step.by_damage))

    def escaped_here(self, c: int) -> Any:
        step = self.steps[c]
        return term(Z3.any_(step.by_exit, Z3.all_(step.moves_on, self.stuck[c])))

    def defeated_at(self, c: int) -> Any:
        return term(Z3.all_(self.end[c], self.defeated_here(c)))

    def escaped_at(self, c: int) -> Any:
        return term(Z3.all_(self.end[c], self.escaped_here(c)))

    def defeated_anywhere(self) -> Any:
        return z3.Or([self.defeated_at(c) for c in range(self.board.size)])

    def route(self, model: z3.ModelRef) -> tuple[int, ...]:
        return decode(self.path, model)


def fixed_facts(
    board: Board, hero: HeroProfile, layout: Layout, defeated: int
) -> list[ChamberFacts[Any, Any]]:
    """Every chamber's facts for one hero on a fixed placement, as z3 constants."""
    return [
        chamber_facts(
            Z3,
            board,
            hero,
            c,
            minions=layout.minions[c],
            guardian=c in layout.guardians,
            ignored=bool(defeated >> c & 1),
        )
        for c in range(board.size)
    ]


class RouteModel:
    """z3 answers for one hero on a fixed placement: is an outcome reachable, and by which route."""

    def __init__(self, board: Board, layout: Layout, color: HeroColor, defeated: int = 0) -> None:
        self.board = board
        self.hero = board.hero(color)
        self.layout = layout
        self.defeated = defeated
        self._path: PathEncoding | None = None
        self.solver: Any = None
        self.open: list[tuple[Fate, int]] = []
        self.deadline = Deadline()  # the limit the encoding is built under (set by the questions)

    @property
    def path(self) -> PathEncoding:
        """The z3 encoding, built the first time a question needs it."""
        if self._path is None:
            self._path = PathEncoding(
                self.board,
                "h",
                hero_terms(Z3, self.hero),
                fixed_facts(self.board, self.hero, self.layout, self.defeated),
                self.deadline,
            )
        return self._path

    def witness(self, condition: Any, deadline: Deadline) -> tuple[int, ...] | None:
        """A route satisfying ``condition``, or None when z3 proves there is none."""
        self.deadline = deadline
        if self.solver is None:
            self.solver = z3.Solver()
            self.solver.add(*self.path.constraints)
        flag = z3.FreshBool("ask")
        self.solver.add(z3.Implies(flag, condition))
        if z3_check(self.solver, deadline, flag) == z3.unsat:
            return None
        return self.path.route(self.solver.model())

    def questions(self) -> Iterator[tuple[Fate, int]]:
        """Every (fate, chamber) the hero might end in, after the cheap impossibilities are dropped
        (read off the tabulated rules): a chamber no route reaches; a defeat where no state the
        hero can carry in defeats it (in the first chamber, only the starting state); an escape for
        want of a new chamber where some neighbour can only be reached through the chamber itself,
        or can never be left alive (a live guardian, say), or where two neighbours could only be
        passed through on the way in (on a route, every chamber but the last is entered by one
        chamber and left to another, both left alive; only the chamber just before the last may
        leave to it)."""
        board = self.board
        rows = EntryTable(board, self.hero).layout_rows(self.layout, self.defeated)
        passable = [any(code >= 0 for code in row) for row in rows]
        for c in sorted(board.reachable()):
            carried = rows[c][:1] if c == board.start else rows[c]
            if any(code in (BY_GUARDIAN, BY_DAMAGE) for code in carried):
                yield Fate.DEFEATED, c
            if BY_EXIT in carried or (
                any(code >= 0 for code in carried)
                and all(
                    passable[d] and (d == board.start or _reaches(board, d, c)) for d in board.neighbours[c]
                )
                and sum(1 for d in board.neighbours[c] if not _passes(board, passable, d, c)) <= 1
            ):
                yield Fate.ESCAPED, c

    def outcomes(
        self, deadline: Deadline | None = None, found: dict[tuple[str, int], Outcome] | None = None
    ) -> dict[tuple[str, int], Outcome]:
        """Every reachable outcome, each with a z3 witness route (then re-walked for details).

        Outcomes already in ``found`` (witnessed by the walker) are kept and not asked again; when
        the deadline stops the search, ``TimeLimit`` carries on with ``found`` holding what was
        settled (``self.open`` the questions still open).
        """
        deadline = deadline or Deadline()
        self.deadline = deadline
        board = self.board
        found = {} if found is None else found
        if board.escape_at_entry:
            found[("escaped", -1)] = Outcome(Fate.ESCAPED, None, "no-entry", (), 0)
            self.open = []
            return found
        self.open = [(fate, c) for fate, c in self.questions() if (fate.value, c) not in found]
        if self.open and self.solver is None:
            self.solver = z3.Solver()
            self.solver.add(*self.path.constraints)
        while self.open:
            fate, c = self.open[0]
            condition = self.path.defeated_at(c) if fate is Fate.DEFEATED else self.path.escaped_at(c)
            route = self.witness(condition, deadline)
            self.open.pop(0)
            if route is not None:
                found[(fate.value, c)] = walk_route(board, self.layout, self.hero.color, route, self.defeated)
        return found


def _passes(board: Board, passable: list[bool], node: int, avoid: int) -> bool:
    """Whether a route can go through ``node`` without using ``avoid``: entered from one chamber
    left alive and left to another (the first chamber is only left)."""
    others = sum(1 for d in board.neighbours[node] if d != avoid and passable[d])
    return others >= (1 if node == board.start else 2)


def _reaches(board: Board, target: int, avoid: int) -> bool:
    """Whether ``target`` can be reached from the first chamber without entering ``avoid``."""
    if avoid == board.start:
        return target == board.start
    seen, stack = {board.start}, [board.start]
    while stack:
        node = stack.pop()
        if node == target:
            return True
        for nxt in board.neighbours[node]:
            if nxt != avoid and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


# -- through the oracle ---------------------------------------------------------------------------


def oracle_outcomes(
    scenario: Scenario, player: int, color: HeroColor, deadline: Deadline | None = None
) -> dict[tuple[str, str | None, str], tuple[str, ...]]:
    """Every ``(fate, chamber, reason)`` one hero can be steered to, following every decision the
    oracle asks (moves, and a black hero's choice of elements), with the first route to each."""
    from invasion_oracle.solver.stonespine.replay import _results, wave_state

    deadline = deadline or Deadline()
    game = StonespineGame(scenario.rulings, scenario.data)
    start, opening = game.start(wave_state(scenario, player, [color]))
    found: dict[tuple[str, str | None, str], tuple[str, ...]] = {}
    explored = [0]

    def walk(current: GameState, events: tuple[Any, ...]) -> None:
        explored[0] += 1
        deadline.check()  # an oracle step is slow: check at every one
        request = current.request
        if request is None or isinstance(request, ChanceRequest) or request.kind == "gate":
            for result in _results(events):
                found.setdefault((result.fate, result.chamber, result.reason), result.route)
            return
        for option in request.options:
            nxt, produced = game.step(current, option)
            walk(nxt, events + tuple(produced))

    walk(start, tuple(opening))
    return found


# -- the query ------------------------------------------------------------------------------------


def solve_routes(
    scenario: Scenario,
    color: HeroColor,
    *,
    engine: str = "z3",
    player: int = 0,
    deadline: Deadline | None = None,
) -> Any:
    """Query 1 answered: every outcome of one hero with a route, each replayed through the oracle.

    ``engine`` is ``z3`` (the fast walker harvests outcomes within a small budget, z3 settles the
    rest), ``search`` (every route walked) or ``oracle`` (every decision of the oracle followed).
    On the deadline the outcomes settled so far come back as ``best-found``.
    """
    from invasion_oracle.solver.stonespine.answers import RouteOutcome, RoutesAnswer, stop_reason
    from invasion_oracle.solver.stonespine.replay import verify_routes

    deadline = deadline or Deadline()
    board, layout, defeated = board_for(scenario, player)
    refused = board.limits_for(color)
    if refused and engine != "oracle":
        raise RulesError(
            "the compiled board does not model " + "; ".join(refused) + " for this hero; use --engine oracle"
        )
    profile = board.hero(color)
    search = deadline.share(0.8)
    found: dict[tuple[str, int], Outcome] = {}
    open_questions: list[tuple[Fate, int]] = []
    stopped: str | None = None
    complete = False
    try:
        if engine == "oracle":
            by_oracle = oracle_outcomes(scenario, player, color, search)
            for (fate, chamber, _), route in by_oracle.items():
                nodes = tuple(board.index_of(name) for name in route)
                found[(fate, board.index_of(chamber) if chamber else -1)] = (
                    walk_route(board, layout, color, nodes, defeated)
                    if nodes
                    else Outcome(Fate.ESCAPED, None, "no-entry", (), 0)
                )
        elif engine == "search":
            found.update(enumerate_outcomes(board, layout, color, defeated, search))
        else:
            _harvest(board, layout, profile, defeated, found, search)
            model = RouteModel(board, layout, color, defeated)
            try:
                model.outcomes(search, found)
            finally:
                open_questions = list(getattr(model, "open", []))
        complete = True
    except TimeLimit as stop:
        stopped = stop.reason
    outcomes = []
    for key in sorted(found):
        o = found[key]
        names = tuple(board.name(n) for n in o.route)
        chamber = board.name(o.node) if o.node is not None else None
        outcomes.append(RouteOutcome(o.fate.value, chamber, o.reason, o.damage, names))
    try:
        verify_routes(
            scenario, player, color, [(o.route, (o.fate, o.chamber, o.reason)) for o in outcomes], deadline
        )
    except TimeLimit as stop:  # no time left to replay them all: claim nothing unreplayed
        outcomes, complete, stopped = [], False, stopped or stop.reason
    defeats = any(o.fate == "defeated" for o in outcomes)
    status = Status.PROVEN if complete else Status.BEST_FOUND if outcomes else Status.UNKNOWN
    return RoutesAnswer(
        status=status,
        engine=engine,
        hero=color,
        card=profile.card,
        health=profile.health,
        outcomes=tuple(outcomes),
        can_be_defeated=True if defeats else (False if complete else None),
        escape_forced=(not defeats) if complete else (False if defeats else None),
        open_questions=tuple((fate.value, board.name(c)) for fate, c in open_questions),
        stopped=stop_reason(stopped),
        limits=board.limits,
    )


def _harvest(
    board: Board,
    layout: Layout,
    hero: HeroProfile,
    defeated: int,
    found: dict[tuple[str, int], Outcome],
    deadline: Deadline,
    steps: int = 20_000,
    walks: int = 2_000,
) -> None:
    """Outcomes the fast walker meets cheaply, each with a route: a depth-first walk of at most
    ``steps`` chambers, then ``walks`` seeded random routes (counts, not seconds, so the routes
    found - and so the output - are the same every run)."""
    table = EntryTable(board, hero)
    routes: dict[tuple[str, int], tuple[int, ...]] = {}
    first_routes(board, layout, hero, defeated, deadline, table, routes, steps)
    deadline.check()
    random_routes(board, layout, hero, defeated, walks, 0, table, routes)
    for key, route in routes.items():
        if key == ("escaped", -1):
            found[key] = Outcome(Fate.ESCAPED, None, "no-entry", (), 0)
        else:
            found[key] = walk_route(board, layout, hero.color, route, defeated)

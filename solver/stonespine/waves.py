"""Query 2: a wave - the heroes outside the entrance - and the order and routes that defeat the most.

Heroes enter one at a time in the order the player chooses; each defeated hero lies in its
chamber and turns it into a free corridor for the next; the first hero that cannot be defeated
escapes and the rest go back to the supply (seed 000, "Step 2: Repel Heroes"). So a wave's value
is the number of heroes defeated before the first escape, and "no escape" means all of them.

Three engines, which must agree:

* :func:`search_wave` - exhaustive search on the compiled board, memoised on (defeated chambers,
  heroes left), walking routes with the tabulated rules (:mod:`invasion_oracle.solver.stonespine.fast`);
* :func:`z3_wave` - z3: one path encoding per hero slot, a colour per slot, each slot's defeated
  chambers being the earlier slots' ends; the largest satisfiable number of defeats;
* :func:`oracle_wave` - exhaustive search through the oracle itself (every decision it asks),
  the ground truth and the baseline the benchmarks compare against.

:func:`solve_wave` answers the query with a :class:`~invasion_oracle.solver.stonespine.answers.WaveAnswer`, the plan
replayed through the oracle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from invasion_oracle.model.core.decisions import ChanceRequest
from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.stonespine.dungeon import Cell
from invasion_oracle.model.stonespine.game import StonespineGame
from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.state import GameState, Placement
from invasion_oracle.solver.common import Deadline, Status, TimeLimit, z3_check
from invasion_oracle.solver.stonespine.board import Board, Layout, board_for
from invasion_oracle.solver.stonespine.fast import EntryTables, LayoutEvaluator, route_to
from invasion_oracle.solver.stonespine.replay import HeroResult, wave_state
from invasion_oracle.solver.stonespine.routes import Fate, Outcome, PathEncoding, walk_route
from invasion_oracle.solver.stonespine.rules import (
    Z3,
    ChamberFacts,
    HeroTerms,
    chamber_facts,
    hero_terms,
    term,
)

# (colour index, chamber) -> a z3 term: extra damage or an extra purple condition (added tokens)
Addition = Callable[[int, int], Any]


@dataclass(frozen=True, slots=True)
class WavePlan:
    """Heroes in the order sent, each with its route and fate."""

    steps: tuple[Outcome, ...]
    colors: tuple[HeroColor, ...]

    @property
    def defeated(self) -> int:
        return sum(1 for o in self.steps if o.fate is Fate.DEFEATED)

    @property
    def escaped(self) -> bool:
        return any(o.fate is Fate.ESCAPED for o in self.steps)

    def plan(self, board: Board) -> list[tuple[HeroColor, list[str]]]:
        return [(c, [board.name(n) for n in o.route]) for c, o in zip(self.colors, self.steps, strict=True)]

    def expected(self, board: Board) -> list[tuple[str, str | None, str]]:
        return [
            (o.fate.value, board.name(o.node) if o.node is not None else None, o.reason) for o in self.steps
        ]


def _multiset(heroes: Sequence[HeroColor]) -> tuple[int, int, int]:
    counts = Counter(heroes)
    return (counts[COLORS[0]], counts[COLORS[1]], counts[COLORS[2]])


def search_wave(
    board: Board,
    layout: Layout,
    heroes: Sequence[HeroColor],
    defeated: int = 0,
    deadline: Deadline | None = None,
    tables: EntryTables | None = None,
) -> WavePlan:
    """The most heroes the player can defeat from this wave, exhaustively on the compiled board.

    The value comes from :class:`~invasion_oracle.solver.stonespine.fast.LayoutEvaluator` (memoised on defeated
    chambers and heroes left, defeat chambers found lazily); the plan is read back from it - at
    each step the first colour and chamber that keep the best value - and each hero's route is
    the first route to its chamber (:func:`~invasion_oracle.solver.stonespine.fast.route_to`).
    """
    deadline = deadline or Deadline()
    tables = tables or EntryTables(board)
    evaluator = LayoutEvaluator(board, layout, tables, deadline)
    left = list(_multiset(heroes))
    mask = defeated
    steps: list[Outcome] = []
    colors: list[HeroColor] = []
    while sum(left):
        want = evaluator.value((left[0], left[1], left[2]), mask)
        pick: tuple[int, int] | None = None
        if want:
            for color in range(3):
                if not left[color]:
                    continue
                rest = [n - (k == color) for k, n in enumerate(left)]
                for node in evaluator.defeat_nodes(color, mask):
                    if 1 + evaluator.value((rest[0], rest[1], rest[2]), mask | 1 << node) == want:
                        pick = (color, node)
                        break
                if pick is not None:
                    break
            assert pick is not None, "the evaluator's value has a plan"
        color = pick[0] if pick is not None else next(k for k in range(3) if left[k])
        hero = board.heroes[color]
        fate, node = ("defeated", pick[1]) if pick is not None else ("escaped", -1)
        route = route_to(board, layout, hero, mask, fate, node, deadline, tables.by_color[color])
        assert route is not None, "a hero that cannot be defeated escapes somewhere"
        outcome = (
            walk_route(board, layout, hero.color, route, mask)
            if route
            else Outcome(Fate.ESCAPED, None, "no-entry", (), 0)
        )
        steps.append(outcome)
        colors.append(hero.color)
        if pick is None:
            break
        left[color] -= 1
        mask |= 1 << pick[1]
    return WavePlan(tuple(steps), tuple(colors))


def greedy_wave(
    board: Board,
    layout: Layout,
    heroes: Sequence[HeroColor],
    defeated: int = 0,
    deadline: Deadline | None = None,
) -> WavePlan:
    """A quick plan (a lower bound): each hero in turn to the first chamber where it can be defeated."""
    deadline = deadline or Deadline()
    tables = EntryTables(board)
    left = Counter(heroes)
    steps: list[Outcome] = []
    colors: list[HeroColor] = []
    mask = defeated
    while sum(left.values()):
        found = None
        for color in COLORS:
            if left[color]:
                index = COLORS.index(color)
                route = route_to(
                    board, layout, board.heroes[index], mask, "defeated", -1, deadline, tables.by_color[index]
                )
                if route is not None:
                    found = (color, route)
                    break
        if found is None:
            color = next(c for c in COLORS if left[c])
            index = COLORS.index(color)
            route = route_to(
                board, layout, board.heroes[index], mask, "escaped", -1, deadline, tables.by_color[index]
            )
            assert route is not None, "a hero that cannot be defeated escapes somewhere"
            escape = (
                walk_route(board, layout, color, route, mask)
                if route
                else Outcome(Fate.ESCAPED, None, "no-entry", (), 0)
            )
            return WavePlan((*steps, escape), (*colors, color))
        color, route = found
        outcome = walk_route(board, layout, color, route, mask)
        assert outcome.node is not None
        steps.append(outcome)
        colors.append(color)
        left[color] -= 1
        mask |= 1 << outcome.node
    return WavePlan(tuple(steps), tuple(colors))


class WaveEncoding:
    """``slots`` heroes in sequence, each a path; colours chosen within the wave's multiset.

    ``minions[c]`` and ``guardians[c]`` (z3 terms: minion count, a guardian figure standing in
    ``c``) default to none; ``added_damage`` and ``added_condition`` give tokens a search adds.
    """

    def __init__(
        self,
        board: Board,
        slots: int,
        counts: tuple[int, int, int],
        defeated: int,
        tag: str,
        *,
        minions: Sequence[Any] | None = None,
        guardians: Sequence[Any] | None = None,
        added_damage: Addition | None = None,
        added_condition: Addition | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        n = board.size
        self.board = board
        minions = minions if minions is not None else [0] * n
        guardians = guardians if guardians is not None else [False] * n
        colours = [k for k in range(3) if counts[k] > 0]
        self.color = [z3.Int(f"{tag}_col{i}") for i in range(slots)]
        self.constraints: list[Any] = []
        add = self.constraints.append
        for col in self.color:
            add(z3.Or([col == k for k in colours]))
        for k in colours:
            add(z3.Sum([z3.If(col == k, 1, 0) for col in self.color]) <= counts[k])
        self.paths: list[PathEncoding] = []
        for i in range(slots):
            col = self.color[i]
            gone = [Z3.any_(bool(defeated >> c & 1), *[p.end[c] for p in self.paths]) for c in range(n)]
            per_colour = {
                k: [
                    chamber_facts(
                        Z3,
                        board,
                        board.heroes[k],
                        c,
                        minions=minions[c],
                        guardian=guardians[c],
                        ignored=gone[c],
                        added_damage=added_damage(k, c) if added_damage else None,
                        added_condition=added_condition(k, c) if added_condition else None,
                    )
                    for c in range(n)
                ]
                for k in colours
            }
            terms = {k: hero_terms(Z3, board.heroes[k]) for k in colours}
            facts = [_pick_facts(col, {k: per_colour[k][c] for k in colours}) for c in range(n)]
            hero = HeroTerms(
                _pick(col, {k: terms[k].health for k in colours}),
                _pick(col, {k: terms[k].purple for k in colours}),
            )
            path = PathEncoding(board, f"{tag}_s{i}", hero, facts, deadline)
            self.constraints += path.constraints
            add(path.defeated_anywhere())
            self.paths.append(path)


def _pick(col: Any, values: dict[int, Any]) -> Any:
    """The value for the slot's colour (colours not in the wave are never chosen)."""
    keys = sorted(values)
    chosen = values[keys[-1]]
    for k in reversed(keys[:-1]):
        if not _same(chosen, values[k]):
            chosen = z3.If(col == k, term(values[k]), term(chosen))
    return chosen


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool | int) and isinstance(b, bool | int):
        return type(a) is type(b) and a == b
    if isinstance(a, z3.ExprRef) and isinstance(b, z3.ExprRef):
        return bool(z3.eq(a, b))
    return False


def _pick_facts(col: Any, by_colour: dict[int, ChamberFacts[Any, Any]]) -> ChamberFacts[Any, Any]:
    return ChamberFacts(
        ignored=_pick(col, {k: f.ignored for k, f in by_colour.items()}),
        guardian=_pick(col, {k: f.guardian for k, f in by_colour.items()}),
        damage=_pick(col, {k: f.damage for k, f in by_colour.items()}),
        protected_damage=_pick(col, {k: f.protected_damage for k, f in by_colour.items()}),
        condition=_pick(col, {k: f.condition for k, f in by_colour.items()}),
        exit=_pick(col, {k: f.exit for k, f in by_colour.items()}),
    )


def layout_terms(board: Board, layout: Layout) -> dict[str, Any]:
    """A fixed placement as the ``minions`` and ``guardians`` of a :class:`WaveEncoding`."""
    return {
        "minions": [layout.minions[c] for c in range(board.size)],
        "guardians": [c in layout.guardians for c in range(board.size)],
    }


def z3_wave(
    board: Board,
    layout: Layout,
    heroes: Sequence[HeroColor],
    defeated: int = 0,
    deadline: Deadline | None = None,
    refuted: list[int] | None = None,
) -> WavePlan:
    """The most heroes defeated, by z3: the largest k whose k-slot encoding is satisfiable.

    Each count z3 proves impossible is appended to ``refuted`` (a caller stopped by the deadline
    keeps the bound proved so far).
    """
    deadline = deadline or Deadline()
    counts = _multiset(heroes)
    if board.escape_at_entry or not heroes:
        return search_wave(board, layout, heroes, defeated, deadline)
    for k in range(len(heroes), 0, -1):
        encoding = WaveEncoding(
            board, k, counts, defeated, f"w{k}", **layout_terms(board, layout), deadline=deadline
        )
        solver = z3.Solver()
        solver.add(*encoding.constraints)
        if z3_check(solver, deadline) == z3.sat:
            model = solver.model()
            colors = [COLORS[model.eval(c, model_completion=True).as_long()] for c in encoding.color]
            steps, mask = [], defeated
            for color, path in zip(colors, encoding.paths, strict=True):
                outcome = walk_route(board, layout, color, path.route(model), mask)
                steps.append(outcome)
                assert outcome.node is not None
                mask |= 1 << outcome.node
            return _finish(board, layout, heroes, colors, steps, mask, deadline)
        if refuted is not None:
            refuted.append(k)
    return _finish(board, layout, heroes, [], [], defeated, deadline)


def _finish(
    board: Board,
    layout: Layout,
    heroes: Sequence[HeroColor],
    colors: list[HeroColor],
    steps: list[Outcome],
    mask: int,
    deadline: Deadline,
) -> WavePlan:
    """Append the escaping hero (if any hero is left) to a plan of defeats."""
    left = Counter(heroes)
    left.subtract(colors)
    for color in COLORS:
        if left[color] > 0:
            route = route_to(board, layout, board.hero(color), mask, "escaped", -1, deadline)
            assert route is not None, "a hero that cannot be defeated escapes somewhere"
            escape = (
                walk_route(board, layout, color, route, mask)
                if route
                else Outcome(Fate.ESCAPED, None, "no-entry", (), 0)
            )
            return WavePlan((*steps, escape), (*colors, color))
    return WavePlan(tuple(steps), tuple(colors))


# -- through the oracle --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OracleWave:
    defeated: int
    results: tuple[HeroResult, ...]
    nodes: int  # oracle states explored


def oracle_wave(
    scenario: Scenario,
    player: int,
    heroes: Sequence[HeroColor],
    *,
    placement: Placement | None = None,
    defeated: Sequence[tuple[Cell, HeroColor]] | None = None,
    deadline: Deadline | None = None,
    state: GameState | None = None,
    replay: bool = True,
) -> OracleWave:
    """Exhaustive search over every decision the oracle asks during the wave: the ground truth.

    Without ``replay`` only the number defeated is answered (``results`` empty): the best
    answers are not played again, and a state's options stop being tried once one defeats every
    hero of the wave (none can do better; the first best is the one kept either way)."""
    deadline = deadline or Deadline()
    game = StonespineGame(scenario.rulings, scenario.data)
    initial = wave_state(scenario, player, heroes, placement, defeated, state)
    baseline = len(initial.players[0].defeated)
    every = baseline + len(heroes) if not replay else None  # no state defeats more
    start, opening = game.start(initial)
    memo: dict[GameState, tuple[int, tuple[Any, ...]]] = {}
    explored = [0]

    def value(current: GameState) -> tuple[int, tuple[Any, ...]]:
        request = current.request
        if request is None or isinstance(request, ChanceRequest) or request.kind == "gate":
            return len(current.players[0].defeated), ()
        if current in memo:
            return memo[current]
        explored[0] += 1
        deadline.check()  # an oracle step is slow: check at every one
        deadline.check_size(len(memo), 500_000)
        best: tuple[int, tuple[Any, ...]] = (-1, ())
        for option in request.options:
            nxt, _ = game.step(current, option)
            score, answers = value(nxt)
            if score > best[0]:
                best = (score, (option, *answers))
                if score == every:
                    break
        memo[current] = best
        return best

    score, answers = value(start)
    if not replay:
        return OracleWave(score - baseline, (), explored[0])
    replayed = _replay_answers(game, start, opening, answers)
    return OracleWave(score - baseline, replayed, explored[0])


def _replay_answers(
    game: StonespineGame, start: GameState, opening: tuple[Any, ...], answers: tuple[Any, ...]
) -> tuple[HeroResult, ...]:
    from invasion_oracle.solver.stonespine.replay import _results

    current, events = start, list(opening)
    for answer in answers:
        current, produced = game.step(current, answer)
        events.extend(produced)
    return _results(events)


def oracle_plan_check(
    scenario: Scenario,
    player: int,
    board: Board,
    plan: WavePlan,
    *,
    placement: Placement | None = None,
    deadline: Deadline | None = None,
) -> None:
    """Replay ``plan`` through the oracle and insist it does what the solver said."""
    from invasion_oracle.solver.stonespine.replay import verify_wave

    verify_wave(
        scenario, player, plan.plan(board), plan.expected(board), placement=placement, deadline=deadline
    )


# -- the query ------------------------------------------------------------------------------------


def plan_steps(board: Board, plan: WavePlan) -> tuple[Any, ...]:
    """A plan as answer values (:class:`~invasion_oracle.solver.stonespine.answers.WaveStep`)."""
    from invasion_oracle.solver.stonespine.answers import WaveStep

    return tuple(
        WaveStep(
            color,
            o.fate.value,
            board.name(o.node) if o.node is not None else None,
            o.reason,
            o.damage,
            tuple(board.name(n) for n in o.route),
        )
        for color, o in zip(plan.colors, plan.steps, strict=True)
    )


def solve_wave(
    scenario: Scenario,
    heroes: Sequence[HeroColor],
    *,
    engine: str = "search",
    player: int = 0,
    deadline: Deadline | None = None,
) -> Any:
    """Query 2 answered: the order and routes that defeat the most heroes of ``heroes``.

    On the deadline the search answers ``best-found`` with a quick plan found first (each hero to
    the first chamber where it falls), and the bound proved so far.
    """
    from invasion_oracle.solver.stonespine.answers import WaveAnswer, WaveStep, stop_reason

    deadline = deadline or Deadline()
    heroes = tuple(heroes)
    if engine == "oracle":
        try:
            result = oracle_wave(scenario, player, heroes, deadline=deadline)
        except TimeLimit as stop:
            return WaveAnswer(
                Status.UNKNOWN, engine, heroes, None, len(heroes), None, (), stopped=stop_reason(stop.reason)
            )
        plan = tuple(WaveStep(h.color, h.fate, h.chamber, h.reason, None, h.route) for h in result.results)
        return WaveAnswer(
            Status.PROVEN,
            engine,
            heroes,
            result.defeated,
            result.defeated,
            any(h.fate == "escaped" for h in result.results),
            plan,
            states=result.nodes,
        )
    board, layout, defeated = board_for(scenario, player)
    if board.limits:
        raise RulesError(
            "the compiled engines do not model " + "; ".join(board.limits) + "; use --engine oracle"
        )
    search = deadline.share(0.85)
    incumbent: WavePlan | None = None
    refuted: list[int] = []
    stopped: str | None = None
    try:
        incumbent = greedy_wave(board, layout, heroes, defeated, search)
        if incumbent.defeated < len(heroes):
            if engine == "z3":
                incumbent = z3_wave(board, layout, heroes, defeated, search, refuted)
            else:
                incumbent = search_wave(board, layout, heroes, defeated, search)
    except TimeLimit as stop:
        stopped = stop.reason
    if incumbent is None:
        return WaveAnswer(
            Status.UNKNOWN, engine, heroes, None, len(heroes), None, (), stopped=stop_reason(stopped)
        )
    bound = incumbent.defeated if stopped is None else (min(refuted) - 1 if refuted else len(heroes))
    status = Status.PROVEN if stopped is None or bound == incumbent.defeated else Status.BEST_FOUND
    replayed = True
    try:
        oracle_plan_check(scenario, player, board, incumbent, deadline=deadline)
    except TimeLimit as stop:  # no time left to replay it: say so, claim no more than the search did
        replayed, stopped = False, stopped or stop.reason
        status = Status.BEST_FOUND
    return WaveAnswer(
        status,
        engine,
        heroes,
        incumbent.defeated,
        bound,
        incumbent.escaped,
        plan_steps(board, incumbent),
        stopped=stop_reason(stopped) if status is not Status.PROVEN else None,
        replayed=replayed,
    )

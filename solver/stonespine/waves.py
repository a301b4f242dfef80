"""Query 2: a wave - the heroes outside the entrance - and the order and routes that defeat the most.

Heroes enter one at a time in the order the player chooses; each defeated hero lies in its
chamber and turns it into a free corridor for the next; the first hero that cannot be defeated
escapes and the rest go back to the supply (seed 000, "Step 2: Repel Heroes"). So a wave's value
is the number of heroes defeated before the first escape, and "no escape" means all of them.

Three engines, which must agree:

* :func:`search_wave` - exhaustive search on the compiled board, memoised on (defeated chambers,
  heroes left);
* :func:`z3_wave` - z3: one path encoding per hero slot, a colour per slot, each slot's defeated
  chambers being the earlier slots' ends; the largest satisfiable number of defeats;
* :func:`oracle_wave` - exhaustive search through the oracle itself (every decision it asks),
  the ground truth and the baseline the benchmarks compare against.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import z3

from model.core.decisions import ChanceRequest
from model.stonespine.dungeon import Cell
from model.stonespine.game import StonespineGame
from model.stonespine.heroes import COLORS, HeroColor
from model.stonespine.scenario import Scenario
from model.stonespine.state import GameState, Placement
from solver.common import Deadline, z3_check
from solver.stonespine.board import Board, Layout
from solver.stonespine.replay import HeroResult, wave_state
from solver.stonespine.routes import Fate, Outcome, PathEncoding, enumerate_outcomes, walk_route


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
) -> WavePlan:
    """The most heroes the player can defeat from this wave, exhaustively on the compiled board."""
    deadline = deadline or Deadline()

    @cache
    def outcomes(color: HeroColor, mask: int) -> tuple[Outcome, ...]:
        deadline.check()
        found = enumerate_outcomes(board, layout, color, mask, deadline)
        return tuple(found[k] for k in sorted(found))

    @cache
    def best(mask: int, left: tuple[int, int, int]) -> tuple[int, tuple[tuple[HeroColor, Outcome], ...]]:
        top: tuple[int, tuple[tuple[HeroColor, Outcome], ...]] = (-1, ())
        fallback: tuple[tuple[HeroColor, Outcome], ...] = ()
        for i, color in enumerate(COLORS):
            if not left[i]:
                continue
            rest = (*left[:i], left[i] - 1, *left[i + 1 :])
            for outcome in outcomes(color, mask):
                if outcome.fate is Fate.DEFEATED:
                    assert outcome.node is not None
                    value, tail = best(mask | (1 << outcome.node), rest)
                    if value + 1 > top[0]:
                        top = (value + 1, ((color, outcome), *tail))
                elif not fallback:
                    fallback = ((color, outcome),)
        if top[0] >= 0:
            return top
        return (0, fallback)

    left = _multiset(heroes)
    if sum(left) == 0:
        return WavePlan((), ())
    _, steps = best(defeated, left)
    return WavePlan(tuple(o for _, o in steps), tuple(c for c, _ in steps))


class WaveEncoding:
    """``slots`` heroes in sequence, each a path; colours chosen within the wave's multiset."""

    def __init__(
        self,
        board: Board,
        slots: int,
        counts: tuple[int, int, int],
        defeated: int,
        tag: str,
        damage: Any = None,
        kept: Any = None,
        minion_cond: Any = None,
        live_guardian: Any = None,
    ) -> None:
        n = board.size
        self.board = board
        self.color = [z3.Int(f"{tag}_col{i}") for i in range(slots)]
        self.constraints: list[Any] = []
        add = self.constraints.append
        for col in self.color:
            add(z3.And(col >= 0, col <= 2))
        for k in range(3):
            add(z3.Sum([z3.If(col == k, 1, 0) for col in self.color]) <= counts[k])
        self.paths: list[PathEncoding] = []
        for i in range(slots):
            col = self.color[i]
            gone = [
                z3.Or(z3.BoolVal(bool((defeated >> c) & 1)), *[p.end[c] for p in self.paths])
                for c in range(n)
            ]

            def pick(values: list[Any], col: Any = col) -> Any:
                return z3.If(col == 0, values[0], z3.If(col == 1, values[1], values[2]))

            heroes = board.heroes
            dmg = [pick([damage(h, c) if damage else z3.IntVal(h.base[c]) for h in heroes]) for c in range(n)]
            kp = [pick([kept(h, c) if kept else z3.IntVal(0) for h in heroes]) for c in range(n)]
            cond = [
                pick(
                    [
                        z3.Or(z3.BoolVal(h.cond[c]), minion_cond(h, c) if minion_cond else z3.BoolVal(False))
                        for h in heroes
                    ]
                )
                for c in range(n)
            ]
            live = [
                z3.And(live_guardian(c) if live_guardian else z3.BoolVal(False), z3.Not(gone[c]))
                for c in range(n)
            ]
            purple = pick([z3.BoolVal(h.purple) for h in heroes])
            health = pick([z3.IntVal(h.health) for h in heroes])
            path = PathEncoding(board, f"{tag}_s{i}", health, dmg, kp, cond, live, gone, purple)
            self.constraints += path.constraints
            add(path.defeated_anywhere())
            self.paths.append(path)


def _fixed_terms(layout: Layout, board: Board) -> dict[str, Any]:
    return {
        "damage": lambda h, c: z3.IntVal(h.damage(c, layout.minions[c])),
        "kept": lambda h, c: z3.IntVal(
            0 if board.purple_all_damage else layout.minions[c] * h.minion_unit[c]
        ),
        "minion_cond": lambda h, c: z3.BoolVal(h.cond_minion and layout.minions[c] > 0),
        "live_guardian": lambda c: z3.BoolVal(c in layout.guardians),
    }


def z3_wave(
    board: Board,
    layout: Layout,
    heroes: Sequence[HeroColor],
    defeated: int = 0,
    deadline: Deadline | None = None,
) -> WavePlan:
    """The most heroes defeated, by z3: the largest k whose k-slot encoding is satisfiable."""
    deadline = deadline or Deadline()
    counts = _multiset(heroes)
    if board.escape_at_entry or not heroes:
        return search_wave(board, layout, heroes, defeated, deadline)
    for k in range(len(heroes), 0, -1):
        encoding = WaveEncoding(board, k, counts, defeated, f"w{k}", **_fixed_terms(layout, board))
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
            found = enumerate_outcomes(board, layout, color, mask, deadline)
            escape = next(found[k] for k in sorted(found) if k[0] == "escaped")
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
) -> OracleWave:
    """Exhaustive search over every decision the oracle asks during the wave: the ground truth."""
    deadline = deadline or Deadline()
    game = StonespineGame(scenario.rulings, scenario.data)
    initial = wave_state(scenario, player, heroes, placement, defeated, state)
    baseline = len(initial.players[0].defeated)
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
        if explored[0] & 0xFF == 0:
            deadline.check()
        best: tuple[int, tuple[Any, ...]] = (-1, ())
        for option in request.options:
            nxt, _ = game.step(current, option)
            score, answers = value(nxt)
            if score > best[0]:
                best = (score, (option, *answers))
        memo[current] = best
        return best

    score, answers = value(start)
    replayed = _replay_answers(game, start, opening, answers)
    return OracleWave(score - baseline, replayed, explored[0])


def _replay_answers(
    game: StonespineGame, start: GameState, opening: tuple[Any, ...], answers: tuple[Any, ...]
) -> tuple[HeroResult, ...]:
    from solver.stonespine.replay import _results

    current, events = start, list(opening)
    for answer in answers:
        current, produced = game.step(current, answer)
        events.extend(produced)
    return _results(events)


def oracle_plan_check(
    scenario: Scenario, player: int, board: Board, plan: WavePlan, *, placement: Placement | None = None
) -> None:
    """Replay ``plan`` through the oracle and insist it does what the solver said."""
    from solver.stonespine.replay import verify_wave

    verify_wave(scenario, player, plan.plan(board), plan.expected(board), placement=placement)

"""Search (a): how soon can the Invader summon its fifth Warlord, and how far can the player push it?

From a scenario's position, the game runs its scripted rounds with a passive player: each
player turn only scores villages and places its two dice (faces given by the script; the
actions are the player's choices), then the Invader turn draws a card. Over the possible card
draws:

* ``fewest`` - the fewest Invader turns to the fifth Warlord, over every draw and every choice
  of the player: the Invader's best case;
* ``furthest`` - for the player's best *plan* (dice placements turn by turn and, under
  ``VK-POWER-UNLOCK=by-section``, the order of the Warlord tokens, fixed in advance), the fewest
  Invader turns the luckiest draws still need. ``None`` means the plan holds out through the
  whole script whatever is drawn. A player adapting to the draws can only do as well or better.

Engines (exact; tests check them equal):

* ``z3`` - the rounds unrolled over the compiled rules (:mod:`solver.vulketh.compiled`) with the
  draws, placements and tokens as unknowns: ``fewest`` by one satisfiability query per number of
  turns; ``furthest`` counterexample-guided: z3 proposes the lexicographically first plan that
  survives the draw sequences found so far, and a second query looks for draws that beat it;
* ``baseline`` - every plan (in the same lexicographic order) against every draw sequence,
  through the oracle itself.

Both answers are replayed through the oracle (the plan and the draws as scripts) before they are
returned.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from model.core.errors import MalformedInputError
from model.vulketh.action_board import ACTIONS
from model.vulketh.scenario import Scenario
from model.vulketh.state import GameState
from solver.common import Deadline, OracleDisagreement, Progress, Status, TimeLimit, z3_check
from solver.vulketh.compiled import Z3, Compiled, CState, Unsupported, from_state, player_villages
from solver.vulketh.drive import Plan, branches, replay_plan

ENGINES = ("z3", "baseline")


@dataclass(frozen=True, slots=True)
class RaceQuestion:
    """The position, the faces of each scripted player turn, and what the player may choose."""

    scenario: Scenario
    faces: tuple[tuple[str, str], ...]  # per scripted player turn
    fixed: tuple[tuple[str | None, str | None], ...]  # actions the script already gives
    invader_first: bool
    tokens: tuple[str, ...]  # tokens on the board at the start (their order is a choice)

    @property
    def invader_turns(self) -> int:
        return len(self.faces) + (1 if self.invader_first else 0)

    @property
    def token_choice(self) -> bool:
        return self.scenario.rulings.reading("VK-POWER-UNLOCK") == "by-section" and len(self.tokens) > 1

    def placement_options(self, turn: int) -> tuple[tuple[str, str], ...]:
        first, second = self.fixed[turn]
        options = []
        for a in ACTIONS:
            for b in ACTIONS:
                if a != b and first in (None, a) and second in (None, b):
                    options.append((a, b))
        return tuple(options)

    def plans(self) -> tuple[Plan, ...]:
        """Every plan, in lexicographic order (placements turn by turn, then tokens)."""
        per_turn = [self.placement_options(t) for t in range(len(self.faces))]
        orders = list(itertools.permutations(self.tokens)) if self.token_choice else [self.tokens]
        return tuple(
            Plan(tuple(placements), tuple(order) if self.token_choice else ())
            for placements in itertools.product(*per_turn)
            for order in orders
        )


def question_from_scenario(scenario: Scenario) -> RaceQuestion:
    """Check a scenario fits the race (passive player turns with every face given) and read it."""
    document = scenario.document
    if document.get("start", "setup") == "setup":
        raise MalformedInputError(
            scenario.source, "$.start", "the race starts from a position: use start 'player' or 'invader'"
        )
    effects = ("grow", "move", "gather", "villages", "seize", "points", "developments", "bronze")
    faces, fixed = [], []
    for i, turn in enumerate(scenario.initial.player_turns):
        raw = document["player_turns"][i]
        for key in effects:
            if key in raw:
                raise MalformedInputError(
                    scenario.source,
                    f"{turn.path}.{key}",
                    "the race's player turns only place dice (the player is passive); remove it",
                )
        face_pair = tuple(d.face for d in turn.dice)
        if any(f is None for f in face_pair):
            raise MalformedInputError(
                scenario.source,
                f"{turn.path}.dice",
                "the race searches card draws only: give every die's face",
            )
        if face_pair[0] == face_pair[1]:
            raise MalformedInputError(
                scenario.source,
                f"{turn.path}.dice",
                "doubles would draw an Invader Event, which the race does not model; give two different faces",
            )
        faces.append((str(face_pair[0]), str(face_pair[1])))
        fixed.append((turn.dice[0].action, turn.dice[1].action))
    if any(h.rivals for h in scenario.initial.hexes):
        raise MalformedInputError(scenario.source, "$.hexes", "the race does not model rival tribes")
    return RaceQuestion(
        scenario,
        tuple(faces),
        tuple(fixed),
        document.get("start") == "invader",
        scenario.initial.warlord_board,
    )


@dataclass(frozen=True, slots=True)
class RaceLine:
    """A plan and the draws (card ids by Invader turn) that give the Invader its fifth Warlord at
    ``turn`` (``None``: no draw does, within the script)."""

    plan: Plan
    draws: tuple[str, ...]
    turn: int | None

    def to_json(self) -> dict[str, Any]:
        return {"plan": self.plan.to_json(), "draws": list(self.draws), "fifth_warlord_turn": self.turn}


@dataclass(frozen=True, slots=True)
class RaceAnswer:
    status: Status
    engine: str
    invader_turns: int  # in the script
    fewest: RaceLine | None  # None when unknown
    furthest: RaceLine | None
    plans: int  # plans the player has
    replayed: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "engine": self.engine,
            "invader_turns": self.invader_turns,
            "fewest": self.fewest.to_json() if self.fewest else None,
            "furthest": self.furthest.to_json() if self.furthest else None,
            "plans": self.plans,
            "replayed": self.replayed,
        }


# -- the baseline: every plan, every draw, through the oracle ---------------------------------------


def _win_turn(state: GameState, start: GameState) -> int | None:
    if state.outcome is not None and state.outcome.result == "invader-wins":
        return state.invader_turns - start.invader_turns + 1
    return None


def _fastest_for_plan(
    question: RaceQuestion, plan: Plan, deadline: Deadline, cutoff: int | None = None
) -> tuple[int | None, tuple[str, ...]]:
    """The earliest fifth-Warlord turn over every draw for ``plan`` (stops at ``cutoff``)."""
    game = question.scenario.game()
    start = question.scenario.initial
    best: tuple[int | None, tuple[str, ...]] = (None, ())
    for draws, final in branches(game, start, plan):
        deadline.check()
        turn = _win_turn(final, start)
        if turn is not None and (best[0] is None or turn < best[0] or (turn == best[0] and draws < best[1])):
            best = (turn, draws)
            if cutoff is not None and turn <= cutoff:
                break
    return best


def _baseline(question: RaceQuestion, deadline: Deadline, progress: Progress) -> tuple[RaceLine, RaceLine]:
    plans = question.plans()
    fewest: RaceLine | None = None
    furthest: RaceLine | None = None
    for plan in plans:
        progress.step()
        turn, draws = _fastest_for_plan(question, plan, deadline)
        if turn is not None and (fewest is None or fewest.turn is None or turn < fewest.turn):
            fewest = RaceLine(plan, draws, turn)
        if furthest is None or _later(turn, furthest.turn):
            furthest = RaceLine(plan, draws, turn)
    assert furthest is not None
    return fewest or RaceLine(plans[0], (), None), furthest


def _later(a: int | None, b: int | None) -> bool:
    """Turn ``a`` is strictly later than ``b`` (``None``: never)."""
    if a is None:
        return b is not None
    return b is not None and a > b


# -- z3 ----------------------------------------------------------------------------------------------


@dataclass
class _PlanTerms:
    """The plan's unknowns: each die's action index per player turn, the token order."""

    placements: list[tuple[Any, Any]]
    tokens: list[Any]

    def terms(self) -> list[tuple[Any, range]]:
        """Every unknown with its values, in the plans' lexicographic order."""
        dice = [(v, range(len(ACTIONS))) for pair in self.placements for v in pair]
        return dice + [(v, range(len(SECTION_NAMES))) for v in self.tokens]


SECTION_NAMES = ("steal-resources", "convert", "spread", "regress", "war")


def _plan_terms(question: RaceQuestion, name: str) -> _PlanTerms:
    return _PlanTerms(
        [(z3.Int(f"{name}_die{t}a"), z3.Int(f"{name}_die{t}b")) for t in range(len(question.faces))],
        [z3.Int(f"{name}_token{k}") for k in range(len(question.tokens))] if question.token_choice else [],
    )


def _concrete_terms(question: RaceQuestion, plan: Plan) -> _PlanTerms:
    sections = question.scenario.data.warlord_sections.value
    return _PlanTerms(
        [(ACTIONS.index(a), ACTIONS.index(b)) for a, b in plan.placements],
        [sections.index(t) for t in plan.tokens],
    )


@dataclass
class _Unrolled:
    """The rounds over symbolic draws (and the plan's terms)."""

    draws: list[Any]
    legal: Any
    won_by: list[Any]  # won_by[t]: the fifth Warlord within t + 1 Invader turns


def _unroll(
    question: RaceQuestion, draws: Sequence[str] | None, plan: _PlanTerms, name: str, deadline: Deadline
) -> _Unrolled:
    """The script's rounds on z3 terms; concrete ``draws`` replace the draw unknowns."""
    scenario = question.scenario
    compiled = Compiled(scenario.rules, Z3, deadline.check)
    compiled.check_supported()
    cards = [c.id for c in scenario.data.action_cards]
    n_turns = question.invader_turns
    draw_vars: list[Any] = (
        [cards.index(d) for d in draws] + [0] * (n_turns - len(draws))
        if draws is not None
        else [z3.Int(f"{name}_draw{t}") for t in range(n_turns)]
    )
    tokens = plan.tokens

    def token_choice(k: Any) -> Any:
        if isinstance(k, int):
            return tokens[min(k, len(tokens) - 1)]
        choice: Any = tokens[-1]
        for i in reversed(range(len(tokens) - 1)):
            choice = z3.If(k == i, tokens[i], choice)
        return choice

    state: CState = from_state(scenario.initial, scenario.rules)
    villages = player_villages(scenario.initial)
    legal: Any = True
    won_by: list[Any] = []

    def invader(s: CState, turn: int) -> CState:
        nonlocal legal
        over = z3.Or(_b(s.invader_won), _b(s.player_won))
        after, ok = compiled.invader_turn(s, draw_vars[turn], token_choice if question.token_choice else None)
        if draws is None or turn < len(draws):
            legal = z3.And(legal, z3.Or(over, _b(ok)))
        won_by.append(_b(after.invader_won))
        return after

    turn = 0
    if question.invader_first:
        state = invader(state, turn)
        turn += 1
    for t, faces in enumerate(question.faces):
        state = compiled.player_turn(state, villages, faces, plan.placements[t])
        state = invader(state, turn)
        turn += 1
    return _Unrolled(draw_vars, legal, won_by)


def _b(value: Any) -> Any:
    return z3.BoolVal(value) if isinstance(value, bool) else value


def _plan_constraints(question: RaceQuestion, plan: _PlanTerms) -> list[Any]:
    out: list[Any] = []
    for t, (a, b) in enumerate(plan.placements):
        options = question.placement_options(t)
        out.append(z3.Or(*[z3.And(a == ACTIONS.index(x), b == ACTIONS.index(y)) for x, y in options]))
    if plan.tokens:
        sections = question.scenario.data.warlord_sections.value
        allowed = [sections.index(t) for t in question.tokens]
        out += [z3.Or(*[v == i for i in allowed]) for v in plan.tokens]
        out.append(z3.Distinct(*plan.tokens))
    return out


def _plan_of(question: RaceQuestion, model: Any, plan: _PlanTerms) -> Plan:
    sections = question.scenario.data.warlord_sections.value

    def value(term: Any) -> int:
        return int(model.eval(term, model_completion=True).as_long())

    placements = tuple((ACTIONS[value(a)], ACTIONS[value(b)]) for a, b in plan.placements)
    return Plan(placements, tuple(sections[value(v)] for v in plan.tokens))


def _draw_domains(question: RaceQuestion, u: _Unrolled) -> list[Any]:
    count = len(question.scenario.data.action_cards)
    return [z3.And(d >= 0, d < count) for d in u.draws if not isinstance(d, int)]


def new_solver() -> z3.Solver:
    """A solver for the compiled rules: quantifier-free linear integer arithmetic."""
    return z3.Solver()


def lex_min(
    constraints: Sequence[Any], terms: Sequence[tuple[Any, Sequence[int]]], deadline: Deadline
) -> Any:
    """A model of ``constraints`` whose ``terms`` are lexicographically smallest, each term taking
    its values in the order of its domain; None when there is no model. Fixes one term at a time
    (a handful of incremental checks: z3's ``Optimize`` is far slower on these formulas)."""
    solver = new_solver()
    solver.add(*constraints)
    if z3_check(solver, deadline) != z3.sat:
        return None
    model = solver.model()
    fixed: list[Any] = []
    for term, domain in terms:
        current = model.eval(term, model_completion=True)
        for value in domain:
            if isinstance(current, z3.IntNumRef) and current.as_long() == value:
                fixed.append(term == value)  # the model at hand already has the smallest value left
                break
            deadline.check()
            if z3_check(solver, deadline, *fixed, term == value) == z3.sat:
                fixed.append(term == value)
                model = solver.model()
                break
    return model


def _card_order(question: RaceQuestion) -> list[int]:
    """Card indices in the order of their ids (draws compare by id)."""
    cards = question.scenario.data.action_cards
    return sorted(range(len(cards)), key=lambda i: cards[i].id)


def _fewest_z3(question: RaceQuestion, deadline: Deadline) -> RaceLine | None:
    plan = _plan_terms(question, "f")
    u = _unroll(question, None, plan, "f", deadline)
    base = [*_plan_constraints(question, plan), *_draw_domains(question, u), u.legal]
    solver = new_solver()
    solver.add(*base)
    for t in range(question.invader_turns):
        deadline.check()
        if z3_check(solver, deadline, u.won_by[t]) == z3.sat:
            model = lex_min([*base, u.won_by[t]], plan.terms(), deadline)
            return _fastest_line(question, _plan_of(question, model, plan), t + 1, deadline)
    return None


def _fastest_line(question: RaceQuestion, plan: Plan, turns: int, deadline: Deadline) -> RaceLine:
    """For a plan that can lose within ``turns``: the lexicographically first draws doing it."""
    u = _unroll(question, None, _concrete_terms(question, plan), "d", deadline)
    constraints = [*_draw_domains(question, u), u.legal, u.won_by[turns - 1]]
    order = _card_order(question)
    model = lex_min(constraints, [(d, order) for d in u.draws[:turns]], deadline)
    if model is None:  # pragma: no cover - the plan was checked to lose within `turns`
        raise OracleDisagreement("z3 lost the draws beating a plan")
    cards = [c.id for c in question.scenario.data.action_cards]
    draws = tuple(cards[model.eval(d, model_completion=True).as_long()] for d in u.draws[:turns])
    return RaceLine(plan, draws, turns)


def _beaten(question: RaceQuestion, plan: Plan, turns: int, deadline: Deadline) -> tuple[str, ...] | None:
    """Draws giving the fifth Warlord within ``turns`` against ``plan``, or None if none do."""
    u = _unroll(question, None, _concrete_terms(question, plan), "c", deadline)
    solver = new_solver()
    solver.add(*_draw_domains(question, u), u.legal)
    if z3_check(solver, deadline, u.won_by[turns - 1]) != z3.sat:
        return None
    cards = [c.id for c in question.scenario.data.action_cards]
    model = solver.model()
    return tuple(cards[model.eval(d, model_completion=True).as_long()] for d in u.draws[:turns])


def _furthest_z3(question: RaceQuestion, deadline: Deadline, progress: Progress) -> RaceLine:
    """The lexicographically first plan whose fastest loss comes latest, counterexample-guided:
    the proposer gives the first plan surviving every draw sequence found so far; a second query
    looks for draws beating it, which join the proposer's constraints."""
    plan = _plan_terms(question, "p")
    constraints: list[Any] = list(_plan_constraints(question, plan))
    counterexamples: list[_Unrolled] = []
    best = question.plans()[0]  # every plan survives zero turns; the first is the canonical one
    for turns in range(1, question.invader_turns + 1):
        constraints += [z3.Not(cx.won_by[turns - 1]) for cx in counterexamples]
        while True:
            progress.step()
            deadline.check()
            model = lex_min(constraints, plan.terms(), deadline)
            if model is None:
                return _fastest_line(question, best, turns, deadline)
            candidate = _plan_of(question, model, plan)
            draws = _beaten(question, candidate, turns, deadline)
            if draws is None:
                best = candidate
                break
            counter = _unroll(question, draws, plan, f"x{len(counterexamples)}", deadline)
            counterexamples.append(counter)
            constraints.append(z3.Not(counter.won_by[turns - 1]))
    return RaceLine(best, (), None)


# -- the answer ------------------------------------------------------------------------------------


def race(
    question: RaceQuestion,
    *,
    engine: str = "z3",
    seconds: float | None = None,
    progress: Progress | None = None,
    parent: Deadline | None = None,
) -> RaceAnswer:
    """Search ``question`` with ``engine``; the answers are replayed through the oracle."""
    # ``parent``: the command's deadline, whose Ctrl-C (stop_on_interrupt) stops this search too.
    deadline = Deadline(seconds, parent=parent)
    progress = progress or Progress("race")
    plans = len(question.plans())
    try:
        if engine == "baseline":
            fewest, furthest = _baseline(question, deadline, progress)
        else:
            try:
                fewest_line = _fewest_z3(question, deadline)
                fewest = fewest_line or RaceLine(question.plans()[0], (), None)
                furthest = _furthest_z3(question, deadline, progress)
            except Unsupported as err:
                raise MalformedInputError(
                    question.scenario.source,
                    "$",
                    f"the z3 engine does not model {err}; use --engine baseline",
                ) from None
    except TimeLimit:
        progress.finish()
        return RaceAnswer(Status.UNKNOWN, engine, question.invader_turns, None, None, plans, False)
    progress.finish()
    _replay(question, fewest)
    _replay(question, furthest)
    return RaceAnswer(Status.PROVEN, engine, question.invader_turns, fewest, furthest, plans, True)


def _replay(question: RaceQuestion, line: RaceLine) -> None:
    """The oracle must give the fifth Warlord exactly at ``line.turn`` with these draws (with no
    fifth Warlord, the plan is played against the first card of every draw)."""
    game = question.scenario.game()
    playthrough = replay_plan(game, question.scenario.initial, line.plan, line.draws or None)
    turn = _win_turn(playthrough.final, question.scenario.initial)
    if turn != line.turn:
        raise OracleDisagreement(
            f"the search says the fifth Warlord comes on Invader turn {line.turn} with {line.plan.describe()} "
            f"and draws {' '.join(line.draws)}; the oracle gives {turn}"
        )

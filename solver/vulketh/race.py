"""Search (a): how soon can the Invader summon its fifth Warlord, and how far can the player push it?

From a scenario's position (the player or the Invader to move), the game runs its scripted rounds
with a passive player: each player turn only scores villages and places its two dice (faces given
by the script; the actions are the player's choices), then the Invader turn draws a card. The
question, in one sentence (the same in ``--help`` and docs/vulketh.md):

    "fewest": the fewest Invader turns to the fifth Warlord over every card draw and every
    choice of the player (dice placements, Warlord tokens, and Pillage taken or declined): the
    Invader's best case; "furthest": for the player's best plan fixed in advance (dice placements
    and, under VK-POWER-UNLOCK=by-section, the token order; Pillage declined), the fewest Invader
    turns the luckiest draws still need.

``None`` for the furthest means the plan holds out through the whole script whatever is drawn;
a player adapting to the draws can only do as well or better.

Engines (exact; tests check them equal):

* ``compiled`` - every plan against every draw over the compiled rules' concrete arithmetic
  (:mod:`invasion_oracle.solver.vulketh.compiled`), plan prefixes shared: a node is the set of positions a plan
  prefix can reach over the draws so far (memoised), and a plan's count stops at its first
  fifth Warlord; the lexicographic order of the baseline. Each position's player and Invader
  turns are computed once for every set and both questions; a set's draws stop at their first
  fifth Warlord (the position and card that gave the last one tried first); the fewest skips
  the options whose fifth Warlord cannot come before the best option's. Refuses what the compiled twin does not
  model (Pillage among them: a Vul'Keth-tribe player);
* ``z3`` - the rounds unrolled over the compiled rules with the draws, placements and tokens as
  unknowns: ``fewest`` by one satisfiability query per number of turns; ``furthest``
  counterexample-guided: z3 proposes the lexicographically first plan that survives the draw
  sequences found so far, and a second query looks for draws that beat it;
* ``cpsat`` - z3's model and queries over OR-Tools CP-SAT terms (:class:`CpSatOps`): the same
  unrolled rounds, a feasibility query per number of turns, the same counterexample-guided loop
  with CP-SAT proposing the lexicographically first plan (:func:`cpsat_lex_min`); the same answer
  as z3's, byte for byte but for the ``engine`` field;
* ``baseline`` - every plan (in the same lexicographic order) against every draw sequence (and
  every Pillage answer, for the fewest), through the oracle itself.

``auto`` (the default, :func:`auto_engine`) takes the compiled engine, the fastest at every size
the bench measures (the bundled race, 1,728 plans: about 0.4 s CPU; z3 8.5 s, CP-SAT 19 s, the
baseline about 90 s: ``tests/vulketh/bench.py``, "race (a) engines"), and the baseline for what
the compiled rules refuse (a Vul'Keth-tribe player's Pillage among them). CP-SAT is never auto's
pick.

Both answers are replayed through the oracle (the plan, the draws and the Pillage answers as
scripts) before they are returned. Cut by a time limit (or Ctrl-C), every engine returns the
fewest seen so far as an upper bound (status ``best-found``, replayed; ``unknown`` when none was
seen) with how far it got: the baseline and the compiled engine the plans whose fewest is settled,
z3 the turns its queries proved safe for every plan (``fewest_at_least``).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.vulketh.action_board import ACTIONS
from invasion_oracle.model.vulketh.scenario import Scenario
from invasion_oracle.model.vulketh.state import GameState
from invasion_oracle.solver.common import (
    Deadline,
    OracleDisagreement,
    Progress,
    Status,
    TimeLimit,
    cpsat_lex_min,
    cpsat_solve,
    load_cpsat,
    z3_check,
)
from invasion_oracle.solver.vulketh.compiled import (
    CONCRETE,
    Z3,
    Compiled,
    CpInt,
    CpSatOps,
    CState,
    Unsupported,
    from_state,
    player_villages,
)
from invasion_oracle.solver.vulketh.drive import Plan, branches, replay_plan
from invasion_oracle.solver.vulketh.race_question import QUESTION as QUESTION

ENGINES = ("compiled", "z3", "cpsat", "baseline")


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
    def pillage(self) -> bool:
        """The player may Pillage (a Vul'Keth tribe): the fewest searches its answers too."""
        return self.scenario.rules.tribe == "vulketh"

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
    pillage: tuple[str, ...] = ()  # the Pillage answers in the order asked (the rest declined)

    def to_json(self) -> dict[str, Any]:
        return {
            "plan": self.plan.to_json(),
            "draws": list(self.draws),
            "pillage": list(self.pillage),
            "fifth_warlord_turn": self.turn,
        }


@dataclass(frozen=True, slots=True)
class RaceAnswer:
    status: Status
    engine: str
    invader_turns: int  # in the script
    fewest: RaceLine | None  # None when unknown; with best-found, an upper bound
    furthest: RaceLine | None  # None unless proven
    plans: int  # plans the player has
    replayed: bool
    searched_plans: int | None = None  # plans fully counted when the search was cut (None: z3)
    # The fewest is at least this many Invader turns: proven by the z3 engine's queries before a
    # cut (every engine: the fewest's own turn once it is proven; 1 when nothing is known).
    fewest_at_least: int = 1

    def to_json(self) -> dict[str, Any]:
        proven = self.status is Status.PROVEN
        return {
            "status": self.status.value,
            "engine": self.engine,
            "invader_turns": self.invader_turns,
            "fewest": self.fewest.to_json() if self.fewest else None,
            "furthest": self.furthest.to_json() if self.furthest else None,
            "plans": self.plans,
            "searched_plans": self.plans if proven else self.searched_plans,
            "fewest_at_least": self.fewest_at_least,
            "replayed": self.replayed,
        }


# -- the baseline: every plan, every draw, through the oracle ---------------------------------------


def _win_turn(state: GameState, start: GameState) -> int | None:
    if state.outcome is not None and state.outcome.result == "invader-wins":
        return state.invader_turns - start.invader_turns + 1
    return None


def _fastest_for_plan(
    question: RaceQuestion,
    plan: Plan,
    deadline: Deadline,
    cutoff: int | None = None,
    *,
    pillage: bool = False,
) -> RaceLine:
    """The earliest fifth-Warlord turn over every draw (and, with ``pillage``, every Pillage
    answer) for ``plan``, with the first draws giving it (stops at ``cutoff``)."""
    game = question.scenario.game()
    start = question.scenario.initial
    best = RaceLine(plan, (), None)
    for draws, final, taken in branches(game, start, plan, pillage=pillage):
        deadline.check()
        turn = _win_turn(final, start)
        if turn is not None and (best.turn is None or turn < best.turn):
            best = RaceLine(plan, draws, turn, taken)
            if cutoff is not None and turn <= cutoff:
                break
    return best


@dataclass
class _Found:
    """What a search has seen so far (for a best-found answer when it is cut): the line giving the
    earliest fifth Warlord (its draws may be left to find: ``()`` with a turn), the plans whose
    fewest is settled (baseline and compiled) and the turns proven safe for every plan (z3)."""

    fewest: RaceLine | None = None
    plans: int | None = 0
    at_least: int = 1

    def saw(self, line: RaceLine) -> None:
        if line.turn is not None and (
            self.fewest is None or self.fewest.turn is None or line.turn < self.fewest.turn
        ):
            self.fewest = line

    def settled(self, plans: int) -> None:
        if self.plans is not None:
            self.plans += plans


def _baseline(
    question: RaceQuestion, deadline: Deadline, progress: Progress, found: _Found
) -> tuple[RaceLine, RaceLine]:
    plans = question.plans()
    furthest: RaceLine | None = None
    for plan in plans:
        progress.step()
        line = _fastest_for_plan(question, plan, deadline)
        if question.pillage:
            found.saw(_fastest_for_plan(question, plan, deadline, pillage=True))
        else:
            found.saw(line)
        found.settled(1)
        if furthest is None or _later(line.turn, furthest.turn):
            furthest = line
    assert furthest is not None
    return found.fewest or RaceLine(plans[0], (), None), furthest


# -- compiled: the plans' shared prefixes over the compiled twin's concrete arithmetic ------------------


class _Compiled:
    """Sets of compiled positions per plan prefix (see the module docstring)."""

    def __init__(
        self, question: RaceQuestion, deadline: Deadline, order: tuple[str, ...], found: _Found | None = None
    ) -> None:
        scenario = question.scenario
        self.question = question
        self.order = order
        self.found = found or _Found()
        self.deadline = deadline
        self.rules = Compiled(scenario.rules, CONCRETE, deadline.check)
        self.rules.check_supported()
        if question.pillage:
            raise Unsupported("Pillage (a Vul'Keth-tribe player)")
        self.cards = range(len(scenario.data.action_cards))
        self.villages = player_villages(scenario.initial)
        sections = scenario.data.warlord_sections.value
        indices = [sections.index(t) for t in order]
        self.token_choice = (lambda k: indices[min(k, len(indices) - 1)]) if question.token_choice else None
        self.placements = [question.placement_options(t) for t in range(len(question.faces))]
        self.options = [[(ACTIONS.index(a), ACTIONS.index(b)) for a, b in turn] for turn in self.placements]
        self.memo: dict[tuple[bool, int, frozenset[CState]], tuple[int | None, tuple[int, ...]]] = {}
        self.counts: dict[tuple[int, frozenset[CState]], Counter[int | None]] = {}
        # One position's turns are computed once for every set holding it (both searches, every
        # prefix): an Invader turn by (position, card), None when the draw is illegal, and a
        # player turn by (position, turn, option).
        self.turn_memo: dict[tuple[CState, int], CState | None] = {}
        self.player_memo: dict[tuple[CState, int, int], CState] = {}
        # The draw and the position that last gave a fifth Warlord are tried first: a set that
        # loses mostly loses the way its siblings did, and one win settles it (the answer is the
        # same in any order: the flag, or every position when there is no win).
        self.card_order = list(self.cards)
        self.last_win: CState | None = None

    def invader_turn(self, s: CState, card: int) -> CState | None:
        key = (s, card)
        if key in self.turn_memo:
            return self.turn_memo[key]
        after, legal = self.rules.invader_turn(s, card, self.token_choice)
        out = after if legal else None
        self.turn_memo[key] = out
        return out

    def _draws(self, s: CState) -> bool:
        """Every draw from ``s`` into ``self._out``; True (and the rest not computed) when one
        gives the fifth Warlord."""
        for i, card in enumerate(self.card_order):
            after = self.invader_turn(s, card)
            if after is None:
                continue
            if after.invader_won:
                if i:
                    self.card_order.insert(0, self.card_order.pop(i))
                return True
            if not after.player_won:
                self._out.add(after)
        return False

    def invader(self, states: frozenset[CState]) -> tuple[bool, frozenset[CState]]:
        """Every draw from every position: whether one gives the fifth Warlord (then the rest are
        not computed), else the positions where the game goes on."""
        return self.advance(states, None, 0)

    def advance(self, states: frozenset[CState], k: int | None, index: int) -> tuple[bool, frozenset[CState]]:
        """Player turn ``k`` with its option ``index`` (``k`` None: no player turn) from every
        position, then every draw: whether one gives the fifth Warlord (then the rest are not
        computed), else the positions where the game goes on."""
        self._out: set[CState] = set()
        hint = self.last_win
        if hint is not None and hint in states:
            self.deadline.check()
            if self._draws(self.player(hint, k, index)):
                return True, frozenset()
        for s in states:
            if s is hint:
                continue
            self.deadline.check()
            if self._draws(self.player(s, k, index)):
                self.last_win = s
                return True, frozenset()
        return False, frozenset(self._out)

    def player(self, s: CState, k: int | None, index: int) -> CState:
        """Player turn ``k`` from ``s`` with the turn's option ``index`` (memoised)."""
        if k is None:
            return s
        key = (s, k, index)
        moved = self.player_memo.get(key)
        if moved is None:
            moved = self.rules.player_turn(s, self.villages, self.question.faces[k], self.options[k][index])
            self.player_memo[key] = moved
        return moved

    def start(self) -> tuple[int | None, frozenset[CState]]:
        states = frozenset({from_state(self.question.scenario.initial, self.question.scenario.rules)})
        if self.question.invader_first:
            won, states = self.invader(states)
            if won:
                return 1, states
        return None, states

    def search(
        self, states: frozenset[CState], k: int, worst: bool, prefix: tuple[int, ...] = ()
    ) -> tuple[int | None, tuple[int, ...]]:
        """From the positions before player turn ``k`` (reached by the option indices ``prefix``):
        the plan suffix (option indices) giving the earliest (``worst``: the fewest) or latest
        fifth Warlord, lexicographically first, and its turn (``None``: none within the script).
        Every fifth Warlord seen goes to ``found`` (an upper bound on the fewest, should the
        search be cut); the fewest's search counts there the plans it has settled."""
        key = (worst, k, states)
        n = len(self.options)
        rest = math.prod(len(o) for o in self.options[k + 1 :])
        if key in self.memo:
            if worst:
                self.found.settled(len(self.options[k]) * rest)
            return self.memo[key]
        turn = k + 1 + (1 if self.question.invader_first else 0)
        best: tuple[int | None, tuple[int, ...]] | None = None
        for index in range(len(self.options[k])):
            won, after = self.advance(states, k, index)
            value: tuple[int | None, tuple[int, ...]]
            if won:
                value = (turn, (index,) + (0,) * (n - k - 1))
                self.found.saw(RaceLine(self.plan((*prefix, *value[1]), self.order), (), turn))
            elif k + 1 == n or not after:
                value = (None, (index,) + (0,) * (n - k - 1))
            elif worst and best is not None and best[0] is not None and best[0] <= turn + 1:
                # Below, the fifth Warlord comes on turn + 1 at the earliest: never before the
                # best option's (and a tie keeps the earlier option), so these plans are settled.
                self.found.settled(rest)
                continue
            else:
                below = self.search(after, k + 1, worst, (*prefix, index))
                value = (below[0], (index, *below[1]))
            if worst and (won or k + 1 == n or not after):
                self.found.settled(rest)
            if best is None or (_earlier(value[0], best[0]) if worst else _later(value[0], best[0])):
                best = value
            if (worst and best[0] == turn) or (not worst and best[0] is None):
                if worst:  # nothing can beat it: the other options are settled too
                    self.found.settled((len(self.options[k]) - index - 1) * rest)
                break
        assert best is not None
        self.memo[key] = best
        return best

    def values(self, states: frozenset[CState], k: int) -> Counter[int | None]:
        """From the positions before player turn ``k``: how many plan suffixes give each earliest
        fifth-Warlord turn (``None``: none within the script); prefixes shared as in ``search``."""
        key = (k, states)
        if key in self.counts:
            return self.counts[key]
        turn = k + 1 + (1 if self.question.invader_first else 0)
        suffixes = math.prod(len(o) for o in self.options[k + 1 :])
        out: Counter[int | None] = Counter()
        for index in range(len(self.options[k])):
            won, after = self.advance(states, k, index)
            if won:
                out[turn] += suffixes
            elif k + 1 == len(self.options) or not after:
                out[None] += suffixes
            else:
                out.update(self.values(after, k + 1))
        self.counts[key] = out
        return out

    def plan(self, suffix: tuple[int, ...], order: tuple[str, ...]) -> Plan:
        placements = tuple(self.placements[t][i] for t, i in enumerate(suffix))
        return Plan(placements, order if self.question.token_choice else ())


def _earlier(a: int | None, b: int | None) -> bool:
    return _later(b, a)


def _compiled(
    question: RaceQuestion, deadline: Deadline, progress: Progress, found: _Found
) -> tuple[RaceLine, RaceLine]:
    orders = list(itertools.permutations(question.tokens)) if question.token_choice else [question.tokens]
    fewest: tuple[int | None, Plan] | None = None
    furthest: tuple[int | None, Plan] | None = None
    progress.stage("race (compiled): token orders searched", len(orders), "orders")
    for order in orders:
        progress.step()
        engine = _Compiled(question, deadline, order, found)
        first, states = engine.start()
        worst: tuple[int | None, tuple[int, ...]]
        best: tuple[int | None, tuple[int, ...]]
        plans = math.prod(len(o) for o in engine.options)
        if first is not None:
            worst = best = (first, (0,) * len(question.faces))
            found.saw(RaceLine(engine.plan(worst[1], order), (), first))
            found.settled(plans)
        elif not states or not question.faces:
            worst = best = (None, (0,) * len(question.faces))
            found.settled(plans)
        else:
            worst = engine.search(states, 0, True)
            best = engine.search(states, 0, False)
        w, b = (worst[0], engine.plan(worst[1], order)), (best[0], engine.plan(best[1], order))
        if (
            fewest is None
            or _earlier(w[0], fewest[0])
            or (w[0] == fewest[0] and w[1].placements < fewest[1].placements)
        ):
            fewest = w
        if (
            furthest is None
            or _later(b[0], furthest[0])
            or (b[0] == furthest[0] and b[1].placements < furthest[1].placements)
        ):
            furthest = b
    assert fewest is not None and furthest is not None
    if fewest[0] is not None:
        found.at_least = fewest[0]
    # The draws through the oracle: the first ones giving the fifth Warlord soonest for each plan.
    few = _fastest_for_plan(question, fewest[1], deadline)
    far = _fastest_for_plan(question, furthest[1], deadline)
    return (few if few.turn is not None else RaceLine(fewest[1], (), None)), (
        far if far.turn is not None else RaceLine(furthest[1], (), None)
    )


def plan_values(question: RaceQuestion, deadline: Deadline | None = None) -> Counter[int | None]:
    """How many plans give each earliest fifth-Warlord turn over every draw (``None``: the plan
    holds out through the script), Pillage declined, over the compiled twin (exact; the sizes of
    the furthest's and the fewest's tie sets: ``values[furthest.turn]``, ``values[fewest.turn]``).
    Refuses what the compiled engine refuses."""
    deadline = deadline or Deadline()
    orders = list(itertools.permutations(question.tokens)) if question.token_choice else [question.tokens]
    total: Counter[int | None] = Counter()
    for order in orders:
        engine = _Compiled(question, deadline, order)
        first, states = engine.start()
        plans = math.prod(len(o) for o in engine.options)
        if first is not None:
            total[first] += plans
        elif not states or not question.faces:
            total[None] += plans
        else:
            total.update(engine.values(states, 0))
    return total


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
    # legal_by[t]: the draws of the first t + 1 Invader turns are legal (each card in the deck it
    # is drawn from, while the game goes on), the padded draws of a counterexample included
    legal_by: list[Any]


def _rounds(
    question: RaceQuestion,
    ops: Any,
    draw_vars: Sequence[Any],
    known: int | None,
    plan: _PlanTerms,
    deadline: Deadline,
) -> tuple[list[Any], list[Any], list[Any]]:
    """The script's rounds over ``ops`` (z3's or CP-SAT's arithmetic) with the plan's terms and
    ``draw_vars``: ``(legal, won_by, legal_by)``, each per Invader turn; ``legal`` only for the
    first ``known`` draws (all when ``None``: unknowns), ``legal_by`` cumulative over every turn."""
    scenario = question.scenario
    compiled = Compiled(scenario.rules, ops, deadline.check)
    compiled.check_supported()
    tokens = plan.tokens

    def token_choice(k: Any) -> Any:
        if isinstance(k, int):
            return tokens[min(k, len(tokens) - 1)]
        choice: Any = tokens[-1]
        for i in reversed(range(len(tokens) - 1)):
            choice = ops.ite(k == i, tokens[i], choice)
        return choice

    state: CState = from_state(scenario.initial, scenario.rules)
    villages = player_villages(scenario.initial)
    legal: list[Any] = []
    won_by: list[Any] = []
    legal_by: list[Any] = []

    def invader(s: CState, turn: int) -> CState:
        over = ops.or_(s.invader_won, s.player_won)
        after, ok = compiled.invader_turn(s, draw_vars[turn], token_choice if question.token_choice else None)
        this = ops.or_(over, ok)
        if known is None or turn < known:
            legal.append(this)
        legal_by.append(ops.and_(legal_by[-1], this) if legal_by else this)
        won_by.append(after.invader_won)
        return after

    turn = 0
    if question.invader_first:
        state = invader(state, turn)
        turn += 1
    for t, faces in enumerate(question.faces):
        state = compiled.player_turn(state, villages, faces, plan.placements[t])
        state = invader(state, turn)
        turn += 1
    return legal, won_by, legal_by


def _draw_terms(question: RaceQuestion, draws: Sequence[str] | None, unknown: Any) -> list[Any]:
    """Card indices for concrete ``draws`` (the turns after them drawing card index 0), else an
    unknown per Invader turn (``unknown(t)``)."""
    cards = [c.id for c in question.scenario.data.action_cards]
    n_turns = question.invader_turns
    if draws is not None:
        return [cards.index(d) for d in draws] + [0] * (n_turns - len(draws))
    return [unknown(t) for t in range(n_turns)]


def _unroll(
    question: RaceQuestion, draws: Sequence[str] | None, plan: _PlanTerms, name: str, deadline: Deadline
) -> _Unrolled:
    """The script's rounds on z3 terms; concrete ``draws`` replace the draw unknowns."""
    draw_vars = _draw_terms(question, draws, lambda t: z3.Int(f"{name}_draw{t}"))
    known = len(draws) if draws is not None else None
    legal, won_by, legal_by = _rounds(question, Z3, draw_vars, known, plan, deadline)
    return _Unrolled(draw_vars, _b(Z3.and_(*legal)), [_b(w) for w in won_by], [_b(x) for x in legal_by])


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
    constraints: Sequence[Any],
    terms: Sequence[tuple[Any, Sequence[int]]],
    deadline: Deadline,
    solver: z3.Solver | None = None,
) -> Any:
    """A model of ``constraints`` whose ``terms`` are lexicographically smallest, each term taking
    its values in the order of its domain; None when there is no model. Fixes one term at a time
    (a handful of incremental checks: z3's ``Optimize`` is far slower on these formulas).
    ``solver``: one already holding the rest of the model (left unchanged; ``constraints`` are
    then assumed), so that the checks reuse what it learned: a new solver's first check works
    through the whole formula again (a quarter of a second on the bundled clear example)."""
    fixed: list[Any] = []
    if solver is None:
        solver = new_solver()
        solver.add(*constraints)
    else:
        fixed = [c for c in constraints if c is not True]
    if z3_check(solver, deadline, *fixed) != z3.sat:
        return None
    model = solver.model()
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


def _fewest_z3(
    question: RaceQuestion, deadline: Deadline, found: _Found, progress: Progress | None = None
) -> RaceLine | None:
    """The fewest: one query per number of turns; each unsatisfiable one raises ``found``'s lower
    bound, the first satisfiable one gives a line at that turn (the fewest: only the tie-break to
    the lexicographically first plan and draws is left, should the search be cut)."""
    plan = _plan_terms(question, "f")
    u = _unroll(question, None, plan, "f", deadline)
    base = [*_plan_constraints(question, plan), *_draw_domains(question, u), u.legal]
    solver = new_solver()
    solver.add(*base)
    for t in range(question.invader_turns):
        deadline.check()
        if z3_check(solver, deadline, u.won_by[t]) == z3.sat:
            found.at_least = t + 1
            found.saw(RaceLine(_plan_of(question, solver.model(), plan), (), t + 1))
            model = lex_min([u.won_by[t]], plan.terms(), deadline, solver)
            line = _fastest_line(question, _plan_of(question, model, plan), t + 1, deadline)
            found.fewest = line
            return line
        found.at_least = t + 2
        if progress is not None:  # one more turn count settled: no plan loses within it
            progress.step()
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
        # A counterexample refutes only the plans its draws are legal for (which cards a deck
        # holds depends on the plan), and at later turns its padded draws must be legal too.
        constraints += [_refuted_by(cx, turns) for cx in counterexamples]
        progress.stage(_furthest_stage("z3", turns, question), None, "plan(s) proposed")
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
            constraints.append(_refuted_by(counter, turns))
    return RaceLine(best, (), None)


def _fewest_stage(engine: str) -> str:
    return f"race ({engine}): fewest turns"


def _furthest_stage(engine: str, turns: int, question: RaceQuestion) -> str:
    # the proposals of one turn count have no total known in advance (counterexample-guided)
    return f"race ({engine}): latest loss, turn {turns} of {question.invader_turns}"


def _refuted_by(counter: _Unrolled, turns: int) -> Any:
    """The plan survives ``turns`` Invader turns of ``counter``'s draws, or they are not legal
    for it."""
    return z3.Not(z3.And(counter.legal_by[turns - 1], counter.won_by[turns - 1]))


# -- CP-SAT ------------------------------------------------------------------------------------------
#
# The z3 engine's model over OR-Tools CP-SAT terms (:class:`CpSatOps`): the same unrolled rounds,
# the same queries in the same order (the fewest's two lexicographic steps in one minimisation).
# CP-SAT has no incremental checks: every query is a model of its own (a copy, or built anew over
# a concrete plan as z3's are), solved from scratch with one worker.


@dataclass
class _CpModel:
    """A CP-SAT model with the plan's unknowns (action indices per die, section indices per
    token) and the plan constraints of :func:`_plan_constraints`."""

    model: Any
    ops: CpSatOps
    plan: _PlanTerms  # CpInt terms, for the compiled rules
    variables: list[Any]  # the same unknowns as CP-SAT variables, in the plans' lexicographic order
    spans: list[int]  # their values: 0 .. span - 1


@dataclass
class _CpRounds:
    """The rounds over a :class:`_CpModel`: the draws (variables, or the card indices given),
    what the draws' legality requires and the fifth Warlord within each number of Invader turns
    (literals, or Python bools the bounds decide)."""

    draws: list[Any]
    legal: list[Any]
    won_by: list[Any]
    legal_by: list[Any]  # as :class:`_Unrolled`'s: the first t + 1 turns' draws legal, padding included


def _cp_model(question: RaceQuestion) -> _CpModel:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    ops = CpSatOps(model)
    terms: list[Any] = []
    spans: list[int] = []

    def unknown(span: int, name: str) -> Any:
        term = ops.int_var(0, span - 1, name)
        terms.append(term)
        spans.append(span)
        return term

    placements = []
    for t in range(len(question.faces)):
        a, b = unknown(len(ACTIONS), f"die{t}a"), unknown(len(ACTIONS), f"die{t}b")
        options = [(ACTIONS.index(x), ACTIONS.index(y)) for x, y in question.placement_options(t)]
        model.add_allowed_assignments([_cp_var(a), _cp_var(b)], options)
        placements.append((a, b))
    tokens = []
    if question.token_choice:
        sections = question.scenario.data.warlord_sections.value
        allowed = sorted(sections.index(t) for t in question.tokens)
        for k in range(len(question.tokens)):
            v = unknown(len(SECTION_NAMES), f"token{k}")
            model.add_allowed_assignments([_cp_var(v)], [(i,) for i in allowed])
            tokens.append(v)
        model.add_all_different([_cp_var(v) for v in tokens])
    return _CpModel(model, ops, _PlanTerms(placements, tokens), [_cp_var(t) for t in terms], spans)


def _cp_var(term: CpInt) -> Any:
    """The CP-SAT variable of a term made by ``CpSatOps.int_var``."""
    (index,) = term.coefs
    return term.ops.vars[index]


def _cp_rounds(
    question: RaceQuestion, m: _CpModel, draws: Sequence[str] | None, deadline: Deadline
) -> _CpRounds:
    """:func:`_unroll` over CP-SAT terms: the script's rounds on ``m``'s plan, the draws unknown,
    or the concrete ``draws`` (the rest drawing card index 0, as z3's counterexamples do)."""
    cards = len(question.scenario.data.action_cards)
    draw_vars = _draw_terms(question, draws, lambda t: m.ops.int_var(0, cards - 1, f"draw{t}"))
    known = len(draws) if draws is not None else None
    legal, won_by, legal_by = _rounds(question, m.ops, draw_vars, known, m.plan, deadline)
    return _CpRounds(draw_vars, legal, won_by, legal_by)


def _cp_require(model: Any, conditions: Sequence[Any]) -> bool:
    """Add every condition (a literal, or a Python bool) to ``model``; False if one is False (the
    model has no solution then: the caller does not solve it)."""
    for condition in conditions:
        if condition is False:
            return False
        if condition is not True:
            model.add_bool_or([condition.literal])
    return True


def _cp_plan_of(question: RaceQuestion, m: _CpModel, solver: Any) -> Plan:
    sections = question.scenario.data.warlord_sections.value
    values = [int(solver.value(v)) for v in m.variables]
    dice, tokens = values[: 2 * len(question.faces)], values[2 * len(question.faces) :]
    placements = tuple((ACTIONS[dice[2 * t]], ACTIONS[dice[2 * t + 1]]) for t in range(len(question.faces)))
    return Plan(placements, tuple(sections[v] for v in tokens))


def _cp_with_plan(question: RaceQuestion, plan: Plan, deadline: Deadline) -> tuple[_CpModel, _CpRounds]:
    """The rounds over ``plan``, the draws unknown (z3's :func:`_concrete_terms` unrolled)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    m = _CpModel(model, CpSatOps(model), _concrete_terms(question, plan), [], [])
    return m, _cp_rounds(question, m, None, deadline)


def _fewest_cpsat(
    question: RaceQuestion,
    m: _CpModel,
    u: _CpRounds,
    deadline: Deadline,
    found: _Found,
    progress: Progress | None = None,
) -> RaceLine | None:
    """:func:`_fewest_z3`: one feasibility query per number of turns; at the first feasible one,
    the lexicographically first plan and then its first draws (by card id) in one lexicographic
    minimisation (z3's two: the plan, then the draws over that plan, which is the same answer)."""
    for t in range(question.invader_turns):
        deadline.check()
        query = m.model.clone()
        solver = cpsat_solve(query, deadline) if _cp_require(query, [*u.legal, u.won_by[t]]) else None
        if solver is not None:
            found.at_least = t + 1
            found.saw(RaceLine(_cp_plan_of(question, m, solver), (), t + 1))
            ranks = _cp_ranks(question, query, m, u, t + 1)
            solver = cpsat_lex_min(query, [*zip(m.variables, m.spans, strict=True), *ranks], deadline)
            line = RaceLine(_cp_plan_of(question, m, solver), _cp_draws(question, solver, ranks), t + 1)
            found.fewest = line
            return line
        found.at_least = t + 2
        if progress is not None:  # one more turn count settled: no plan loses within it
            progress.step()
    return None


def _cp_ranks(
    question: RaceQuestion, query: Any, m: _CpModel, u: _CpRounds, turns: int
) -> list[tuple[Any, int]]:
    """The first ``turns`` draws as their ranks in the order of card ids (the draws' order), each
    with its span, for :func:`cpsat_lex_min`."""
    order = _card_order(question)
    ranks = []
    for t, draw in enumerate(u.draws[:turns]):
        if order == list(range(len(order))):
            rank = m.ops.expr(draw)
        else:
            rank = query.new_int_var(0, len(order) - 1, f"rank{t}")
            query.add_element(rank, order, m.ops.expr(draw))  # the card drawn is order[rank]
        ranks.append((rank, len(order)))
    return ranks


def _cp_draws(question: RaceQuestion, solver: Any, ranks: list[tuple[Any, int]]) -> tuple[str, ...]:
    order = _card_order(question)
    cards = [c.id for c in question.scenario.data.action_cards]
    return tuple(cards[order[int(solver.value(r))]] for r, _ in ranks)


def _fastest_line_cpsat(question: RaceQuestion, plan: Plan, turns: int, deadline: Deadline) -> RaceLine:
    """:func:`_fastest_line`: the lexicographically first draws (by card id) beating ``plan``
    within ``turns``."""
    m, u = _cp_with_plan(question, plan, deadline)
    if not _cp_require(m.model, [*u.legal, u.won_by[turns - 1]]):  # pragma: no cover - checked to lose
        raise OracleDisagreement("CP-SAT lost the draws beating a plan")
    ranks = _cp_ranks(question, m.model, m, u, turns)
    solver = cpsat_lex_min(m.model, ranks, deadline)
    if solver is None:  # pragma: no cover - the plan was checked to lose within `turns`
        raise OracleDisagreement("CP-SAT lost the draws beating a plan")
    return RaceLine(plan, _cp_draws(question, solver, ranks), turns)


def _beaten_cpsat(
    question: RaceQuestion, plan: Plan, turns: int, deadline: Deadline
) -> tuple[str, ...] | None:
    """:func:`_beaten`: draws giving the fifth Warlord within ``turns`` against ``plan``, or None."""
    m, u = _cp_with_plan(question, plan, deadline)
    query = m.model
    if not _cp_require(query, [*u.legal, u.won_by[turns - 1]]):
        return None
    solver = cpsat_solve(query, deadline)
    if solver is None:
        return None
    cards = [c.id for c in question.scenario.data.action_cards]
    return tuple(cards[int(solver.value(m.ops.expr(d)))] for d in u.draws[:turns])


def _furthest_cpsat(question: RaceQuestion, deadline: Deadline, progress: Progress) -> RaceLine:
    """:func:`_furthest_z3`, counterexample-guided the same way: CP-SAT proposes the
    lexicographically first plan surviving the draws found so far (the counterexamples' rounds
    join the proposer's model), a second model, the rounds over that plan, looks for draws
    beating it."""
    proposer = _cp_model(question)
    terms = list(zip(proposer.variables, proposer.spans, strict=True))
    counterexamples: list[_CpRounds] = []
    feasible = True
    best = question.plans()[0]  # every plan survives zero turns; the first is the canonical one
    for turns in range(1, question.invader_turns + 1):
        survive = [_cp_refuted_by(proposer, cx, turns) for cx in counterexamples]  # as _refuted_by
        feasible = feasible and _cp_require(proposer.model, survive)
        progress.stage(_furthest_stage("cpsat", turns, question), None, "plan(s) proposed")
        while True:
            progress.step()
            deadline.check()
            solver = cpsat_lex_min(proposer.model, terms, deadline) if feasible else None
            if solver is None:
                return _fastest_line_cpsat(question, best, turns, deadline)
            candidate = _cp_plan_of(question, proposer, solver)
            draws = _beaten_cpsat(question, candidate, turns, deadline)
            if draws is None:
                best = candidate
                break
            counter = _cp_rounds(question, proposer, draws, deadline)
            counterexamples.append(counter)
            feasible = _cp_require(proposer.model, [_cp_refuted_by(proposer, counter, turns)])
    return RaceLine(best, (), None)


def _cp_refuted_by(m: _CpModel, counter: _CpRounds, turns: int) -> Any:
    """:func:`_refuted_by` over CP-SAT terms."""
    return m.ops.not_(m.ops.and_(counter.legal_by[turns - 1], counter.won_by[turns - 1]))


def _cpsat(
    question: RaceQuestion, deadline: Deadline, progress: Progress, found: _Found
) -> tuple[RaceLine, RaceLine]:
    """The fewest, then (when some plan can lose) the furthest, over CP-SAT."""
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    m = _cp_model(question)
    u = _cp_rounds(question, m, None, deadline)
    progress.stage(_fewest_stage("cpsat"), question.invader_turns, "turns")
    fewest_line = _fewest_cpsat(question, m, u, deadline, found, progress)
    fewest = fewest_line or RaceLine(question.plans()[0], (), None)
    # No plan and no draw gives a fifth Warlord: the first plan holds out too.
    furthest = _furthest_cpsat(question, deadline, progress) if fewest_line is not None else fewest
    return fewest, furthest


# -- the answer ------------------------------------------------------------------------------------


def auto_engine(question: RaceQuestion) -> str:
    """The engine ``auto`` runs: the baseline for Pillage and for whatever else the compiled rules
    do not model (the other engines refuse it), the compiled engine otherwise."""
    # From the table "race (a) engines" of ``make bench`` (tests/vulketh/bench.py, search time
    # only, CPU, 6 December, load about 1.5): race.json's first player turn (12 plans): compiled
    # 20 ms, baseline 18, z3 115; with the token order (24): compiled 31, baseline 32, z3 117; two
    # turns (144): compiled 87, baseline 866, z3 1,769; two turns with the token order (288):
    # compiled 160, baseline 2,245, z3 2,623; the whole race (1,728 plans, the README line):
    # compiled about 1.0 s, z3 about 8.5 (idle, 3 December). The compiled engine shares each
    # position's turns across every plan prefix and both questions, and stops a set's draws at
    # its first fifth Warlord: the fastest from 24 plans on, 2 ms behind the baseline at 12, so
    # one rule for every size. CP-SAT is never picked: it solves each query afresh, and its import
    # costs about 0.55 s CPU in a fresh process.
    if question.pillage:
        return "baseline"
    try:
        Compiled(question.scenario.rules, CONCRETE).check_supported()
    except Unsupported:
        return "baseline"
    return "compiled"


def race(
    question: RaceQuestion,
    *,
    engine: str = "auto",
    seconds: float | None = None,
    progress: Progress | None = None,
    parent: Deadline | None = None,
) -> RaceAnswer:
    """Search ``question`` with ``engine``; the answers are replayed through the oracle."""
    # ``parent``: the command's deadline, whose Ctrl-C (stop_on_interrupt) stops this search too.
    deadline = Deadline(seconds, parent=parent)
    plans = len(question.plans())
    if engine == "auto":
        engine = auto_engine(question)
    if engine not in ENGINES:
        raise MalformedInputError("--engine", engine, f"the race's engines are {', '.join(ENGINES)}")
    progress = progress or (
        Progress("race: plans searched", total=plans, unit="plans")
        if engine == "baseline"
        else Progress(f"race ({engine})")
    )
    found = _Found(plans=None if engine in ("z3", "cpsat") else 0)
    try:
        if engine == "baseline":
            fewest, furthest = _baseline(question, deadline, progress, found)
        else:
            try:
                if question.pillage:
                    raise Unsupported("Pillage (a Vul'Keth-tribe player)")
                if engine == "compiled":
                    fewest, furthest = _compiled(question, deadline, progress, found)
                elif engine == "cpsat":
                    fewest, furthest = _cpsat(question, deadline, progress, found)
                else:
                    progress.stage(_fewest_stage("z3"), question.invader_turns, "turns")
                    fewest_line = _fewest_z3(question, deadline, found, progress)
                    fewest = fewest_line or RaceLine(question.plans()[0], (), None)
                    # No plan and no draw gives a fifth Warlord: the first plan holds out too.
                    furthest = (
                        _furthest_z3(question, deadline, progress) if fewest_line is not None else fewest
                    )
            except Unsupported as err:
                raise MalformedInputError(
                    question.scenario.source,
                    "$",
                    f"the {engine} engine does not model {err}; use --engine baseline",
                ) from None
    except TimeLimit:
        progress.finish()
        best = found.fewest
        if best is not None and best.turn is not None and not best.draws:
            # A plan the search saw lose by then: its first draws doing it, through the oracle
            # (without the clock: one plan).
            best = _fastest_for_plan(question, best.plan, Deadline(), best.turn)
        at_least = found.at_least
        if best is not None and best.turn is not None and found.plans == plans:
            at_least = best.turn  # every plan's fewest settled: the line's turn is the fewest
        if best is not None and best.turn is not None:
            # An upper bound on the fewest: a line the oracle confirms (replayed without the clock).
            _replay(question, best)
            return RaceAnswer(
                Status.BEST_FOUND,
                engine,
                question.invader_turns,
                best,
                None,
                plans,
                True,
                found.plans,
                min(at_least, best.turn),
            )
        return RaceAnswer(
            Status.UNKNOWN,
            engine,
            question.invader_turns,
            None,
            None,
            plans,
            False,
            found.plans,
            found.at_least,
        )
    progress.finish()
    _replay(question, fewest)
    _replay(question, furthest)
    at_least = fewest.turn if fewest.turn is not None else question.invader_turns + 1
    return RaceAnswer(
        Status.PROVEN, engine, question.invader_turns, fewest, furthest, plans, True, None, at_least
    )


def _replay(question: RaceQuestion, line: RaceLine) -> None:
    """The oracle must give the fifth Warlord exactly at ``line.turn`` with these draws (with no
    fifth Warlord, the plan is played against the first card of every draw)."""
    game = question.scenario.game()
    playthrough = replay_plan(game, question.scenario.initial, line.plan, line.draws or None, line.pillage)
    turn = _win_turn(playthrough.final, question.scenario.initial)
    if turn != line.turn:
        raise OracleDisagreement(
            f"the search says the fifth Warlord comes on Invader turn {line.turn} with {line.plan.describe()} "
            f"and draws {' '.join(line.draws)}; the oracle gives {turn}"
        )

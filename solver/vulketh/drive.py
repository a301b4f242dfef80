"""Driving the oracle for the searches: a player's plan as a decider, card draws by turn.

Every search answer is replayed through the oracle with these: the plan answers the player's
decisions (dice placements, Warlord tokens, and Pillage: declined unless the plan's ``pillage``
answers say what to take, in the order asked; other choices take the first option) and the draws
answer each Invader turn's card draw by its turn number.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from invasion_oracle.model.core.answers import FirstOutcome
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest, Option
from invasion_oracle.model.core.driver import Playthrough, play
from invasion_oracle.model.core.errors import IllegalDecisionError
from invasion_oracle.model.vulketh.game import VulkethGame
from invasion_oracle.model.vulketh.state import GameState
from invasion_oracle.solver.common import OracleDisagreement


@dataclass(frozen=True, slots=True)
class Plan:
    """The player's choices, fixed in advance: the action each die goes to, turn by turn, and
    the order in which Warlord tokens are taken (only asked under VK-POWER-UNLOCK=by-section).

    >>> Plan((("GATHER", "LEAD"),), ()).describe()
    'turn 1: GATHER+LEAD'
    """

    placements: tuple[tuple[str, str], ...]
    tokens: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"placements": [list(p) for p in self.placements], "tokens": list(self.tokens)}

    def describe(self) -> str:
        turns = "; ".join(f"turn {i}: {a}+{b}" for i, (a, b) in enumerate(self.placements, 1))
        tokens = f"; tokens {' > '.join(self.tokens)}" if self.tokens else ""
        return (turns or "no dice to place") + tokens


@dataclass(slots=True)
class PlanDecider:
    """Answers the player's decisions from a :class:`Plan` (it watches the state, as a player)."""

    plan: Plan
    turns_at_start: int  # scripted player turns still to play at the start
    board_at_start: int
    pillage: Sequence[str] = ()  # answers to the Pillage requests, in the order asked
    state: GameState | None = field(default=None)
    pillaged: int = 0

    def observe(self, state: GameState) -> None:
        self.state = state

    def decide(self, request: DecisionRequest) -> Option:
        state = self.state
        assert state is not None
        if request.kind == "place-die":
            die = dict(request.context)["die"]
            # The script's turn is taken off when the player turn starts (from a `start: invader`
            # position the first player turn comes after an Invader turn, a round later).
            return self.plan.placements[self.turns_at_start - len(state.player_turns) - 1][die - 1]
        if request.kind == "warlord-token":
            taken = self.board_at_start - len(state.warlord_board)
            return self.plan.tokens[taken]
        if request.kind == "pillage":
            self.pillaged += 1
            k = self.pillaged - 1
            return self.pillage[k] if k < len(self.pillage) else "decline"
        return request.options[0]


@dataclass(slots=True)
class DrawsByTurn:
    """Answers the card draw of Invader turn ``first_turn + k`` with ``draws[k]``."""

    draws: Sequence[str]
    first_turn: int

    def outcome(self, request: ChanceRequest) -> Option:
        if request.kind != "draw" or not request.source.startswith("invader-deck-"):
            raise IllegalDecisionError(f"the search does not model {request.describe()}")
        turn = int(request.purpose.rsplit(" ", 1)[-1])
        return self.draws[turn - self.first_turn]


def replay_plan(
    game: VulkethGame,
    state: GameState,
    plan: Plan,
    draws: Sequence[str] | None,
    pillage: Sequence[str] = (),
) -> Playthrough[GameState]:
    """Play from ``state`` with the plan and the draws (``None``: the first card of every draw)
    and the Pillage answers (declined after them); a refusal is a solver bug."""
    start, opening = game.start(state)
    decider = PlanDecider(plan, len(state.player_turns), len(state.warlord_board), pillage)
    chance: Any = DrawsByTurn(draws, state.invader_turns + 1) if draws is not None else FirstOutcome()
    try:
        return play(game, start, decider, chance, opening=opening)
    except Exception as err:  # an answer the oracle refuses is a bug in the search
        raise OracleDisagreement(f"the oracle refused the search's answer: {err}") from err


def _drawn(events: Sequence[Any]) -> tuple[str, ...]:
    return tuple(e.get("card") for e in events if e.kind == "card_drawn")


def branches(
    game: VulkethGame, state: GameState, plan: Plan, *, pillage: bool = False
) -> Iterator[tuple[tuple[str, ...], GameState, tuple[str, ...]]]:
    """Every run of the plan over every card draw (and, with ``pillage``, every answer to each
    Pillage request; otherwise Pillage is declined): ``(cards drawn by turn, final state, Pillage
    answers)``, depth first in the order of the card ids and of the Pillage options (a draw from a
    one-card pile is not asked but is listed)."""
    start, opening = game.start(state)
    decider = PlanDecider(plan, len(state.player_turns), len(state.warlord_board))
    stack: list[tuple[GameState, tuple[str, ...], tuple[str, ...]]] = [(start, _drawn(opening), ())]
    while stack:
        current, draws, taken = stack.pop()
        request = game.pending(current)
        if request is None:
            yield draws, current, taken
            continue
        if isinstance(request, DecisionRequest):
            if pillage and request.kind == "pillage":
                for option in reversed(request.options):
                    after, events = game.step(current, option)
                    stack.append((after, (*draws, *_drawn(events)), (*taken, str(option))))
                continue
            decider.observe(current)
            after, events = game.step(current, decider.decide(request))
            stack.append((after, (*draws, *_drawn(events)), taken))
            continue
        if not request.source.startswith("invader-deck-"):
            raise OracleDisagreement(f"the search does not model {request.describe()}")
        for card in sorted(set(request.outcomes), reverse=True):
            after, events = game.step(current, card)
            stack.append((after, (*draws, *_drawn(events)), taken))

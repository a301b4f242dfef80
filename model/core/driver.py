"""Play a game from a state to its end, asking deciders and chance sources, and record it.

A game is a pure, OpenSpiel-like object (see :class:`Game`): ``pending(state)`` says what the
state waits for (a decision, a chance outcome, or nothing when it is over) and
``step(state, answer)`` returns the next state and the events the answer caused. The driver
adds nothing to the rules: it only routes requests and records every step, so a
:class:`Playthrough` replays exactly through :func:`replay`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from invasion_oracle.model.core.decisions import (
    ChanceRequest,
    ChanceSource,
    Decider,
    DecisionRequest,
    Option,
    Request,
    ScriptedChance,
    ScriptedDecider,
    normalise_answer,
)
from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.core.events import Event

S = TypeVar("S")


class Game(Protocol[S]):
    """The pure game interface every game module provides."""

    def start(self, state: S) -> tuple[S, tuple[Event, ...]]:
        """Run a fresh state's automatic steps up to its first request; return the opening events."""
        ...

    def pending(self, state: S) -> Request | None:
        """What ``state`` waits for, or ``None`` when the phase is over."""
        ...

    def step(self, state: S, answer: Option) -> tuple[S, tuple[Event, ...]]:
        """Apply ``answer`` to the pending request; return the new state and its events."""
        ...


@dataclass(frozen=True, slots=True)
class Step:
    """One answered request and the events it caused."""

    request: Request
    answer: Option
    events: tuple[Event, ...]

    def to_json(self) -> dict[str, Any]:
        return {"request": self.request.to_json(), "answer": self.answer, "events": self.events}


@dataclass(frozen=True, slots=True)
class Playthrough(Generic[S]):
    """A whole run: the events before the first request, every step, and the final state."""

    opening: tuple[Event, ...]
    steps: tuple[Step, ...]
    final: S

    @property
    def events(self) -> tuple[Event, ...]:
        return self.opening + tuple(e for step in self.steps for e in step.events)

    def decisions(self) -> list[Option]:
        return [s.answer for s in self.steps if isinstance(s.request, DecisionRequest)]

    def chance_outcomes(self) -> list[Option]:
        return [s.answer for s in self.steps if isinstance(s.request, ChanceRequest)]


def play(
    game: Game[S],
    state: S,
    decider: Decider,
    chance: ChanceSource,
    *,
    opening: tuple[Event, ...] = (),
    max_steps: int = 100_000,
    on_step: Callable[[Step], None] | None = None,
) -> Playthrough[S]:
    """Run ``game`` from ``state`` until nothing is pending.

    Every answer is checked against the request's options before the game sees it, so a bad
    script stops with :class:`~invasion_oracle.model.core.errors.IllegalDecisionError` at the exact step.
    """
    steps: list[Step] = []
    for _ in range(max_steps):
        request = game.pending(state)
        if request is None:
            return Playthrough(opening, tuple(steps), state)
        if isinstance(request, DecisionRequest):
            observe = getattr(decider, "observe", None)
            if observe is not None:  # a policy that looks at the whole board, as a player can
                observe(state)
            answer = normalise_answer(request, decider.decide(request))
        else:
            answer = normalise_answer(request, chance.outcome(request))
        state, events = game.step(state, answer)
        step = Step(request, answer, events)
        steps.append(step)
        if on_step is not None:
            on_step(step)
    raise RulesError(f"the game did not end within {max_steps} steps; this is a bug in the model")


def replay(game: Game[S], state: S, playthrough: Playthrough[Any]) -> Playthrough[S]:
    """Play again from ``state`` with the recorded answers only (no fallback)."""
    return play(
        game,
        state,
        ScriptedDecider(playthrough.decisions(), label="recorded decisions"),
        ScriptedChance(playthrough.chance_outcomes(), label="recorded outcomes"),
        opening=playthrough.opening,
    )

"""A toy game on the contract, in a few lines: Nim with a die for who starts.

Two players take one or two stones in turn; whoever takes the last stone wins. The spec below
is all a game needs for simulate, replay, traces, fixtures and the generic CLI verbs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from invasion_oracle.model.core.answers import Answers
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.core.spec import GameSpec, ScenarioBase, ScenarioOptions


@dataclass(frozen=True)
class Pile:
    stones: int
    mover: str = ""  # "" until the die says who starts


class Nim:
    def start(self, state: Pile) -> tuple[Pile, tuple[Event, ...]]:
        return state, ()

    def pending(self, state: Pile) -> DecisionRequest | ChanceRequest | None:
        if not state.mover:
            return ChanceRequest("roll", "d2", ("Ann", "Bo"), "who starts")
        if state.stones == 0:
            return None
        return DecisionRequest("take", state.mover, tuple(range(1, min(2, state.stones) + 1)))

    def step(self, state: Pile, answer: Any) -> tuple[Pile, tuple[Event, ...]]:
        if not state.mover:
            return replace(state, mover=answer), (Event.make("starts", player=answer),)
        left = state.stones - answer
        other = "Bo" if state.mover == "Ann" else "Ann"
        return Pile(left, other), (Event.make("took", player=state.mover, stones=answer, left=left),)


@dataclass(frozen=True)
class NimScenario(ScenarioBase[Pile]):
    def game(self) -> Nim:
        return Nim()


def load(document: Any, source: str, options: ScenarioOptions) -> NimScenario:
    return NimScenario(
        source,
        document,
        Rulings.defaults("nim").with_choices(options.ruling_specs),
        None,
        Pile(int(document["stones"])),
        Answers.from_json(document.get("decisions"), "first-legal"),
        Answers.from_json(document.get("chance"), "first-legal"),
    )


SPEC = GameSpec(
    name="nim",
    title="Nim (a toy game in the tests)",
    seed="none",
    load=load,
    outcome=lambda scenario, state: {"winner": "Bo" if state.mover == "Ann" else "Ann"},
    render_text=lambda scenario, state: f"{state.stones} stone(s); {state.mover or 'nobody'} to move",
    examples="tests.core:toy_examples",
)

"""A toy game with rulings, for the ambiguity engine's tests: Nim with open rules.

Two players take stones in turn (a die says who starts). Three rulings:

* ``TOY-LAST``: does whoever takes the last stone win (``takes-last``) or lose (``gives-last``)?
  Its readings change the outcome.
* ``TOY-SHOUT``: does the winner shout (an event) - ``quiet`` or ``shout``? Only the events change.
* ``TOY-TAKE``: how many stones may a player take - ``one-or-two``, ``one-to-three`` or
  ``one-only``? Its bundled witness tells ``one-only`` from the others but not those two apart.

A scenario's ``broken`` field makes a deliberately ill-formed game for the well-formedness
checks: ``empty`` asks a decision with no option at two stones left; ``loop`` lets a player take
nothing, so the run can come back to a state it was in.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import strategies as st

from invasion_oracle.model import registry
from invasion_oracle.model.core.answers import Answers
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.rulings import REGISTRY, Reading, Ruling, Rulings
from invasion_oracle.model.core.spec import GameSpec, ScenarioBase, ScenarioOptions

GAME = "toy-nim"
RULINGS = (
    Ruling(
        "TOY-LAST",
        GAME,
        "toy seed, Winning",
        "Does whoever takes the last stone win?",
        (Reading("takes-last", "yes"), Reading("gives-last", "no: they lose")),
        "takes-last",
        "the usual game",
    ),
    Ruling(
        "TOY-SHOUT",
        GAME,
        "toy seed, Manners",
        "Does the winner shout?",
        (Reading("quiet", "no"), Reading("shout", "yes")),
        "quiet",
        "manners",
    ),
    Ruling(
        "TOY-TAKE",
        GAME,
        "toy seed, Taking",
        "How many stones may one take?",
        (Reading("one-or-two", "1-2"), Reading("one-to-three", "1-3"), Reading("one-only", "1")),
        "one-or-two",
        "the usual game",
    ),
)


@dataclass(frozen=True)
class Pile:
    stones: int
    mover: str = ""
    last: str = ""


class ToyNim:
    def __init__(self, rulings: Rulings, broken: str) -> None:
        self.rulings = rulings
        self.broken = broken
        self.most = {"one-or-two": 2, "one-to-three": 3, "one-only": 1}[rulings.reading("TOY-TAKE")]

    def start(self, state: Pile) -> tuple[Pile, tuple[Event, ...]]:
        return state, ()

    def pending(self, state: Pile) -> DecisionRequest | ChanceRequest | None:
        if not state.mover:
            return ChanceRequest("roll", "d2", ("Ann", "Bo"), "who starts")
        if state.stones == 0:
            return None
        if self.broken == "empty" and state.stones == 2:
            return DecisionRequest("take", state.mover, ())
        low = 0 if self.broken == "loop" else 1
        return DecisionRequest("take", state.mover, tuple(range(low, min(self.most, state.stones) + 1)))

    def step(self, state: Pile, answer: Any) -> tuple[Pile, tuple[Event, ...]]:
        if not state.mover:
            return replace(state, mover=answer), (Event.make("starts", player=answer),)
        left = state.stones - answer
        other = "Bo" if state.mover == "Ann" else "Ann"
        events = [Event.make("took", player=state.mover, stones=answer, left=left)]
        if left == 0 and self.rulings.reading("TOY-SHOUT") == "shout":
            events.append(Event.make("shouted", player=state.mover))
        return Pile(left, other, state.mover), tuple(events)


@dataclass(frozen=True)
class ToyScenario(ScenarioBase[Pile]):
    def game(self) -> ToyNim:
        return ToyNim(self.rulings, str(self.document.get("broken", "")))


def load(document: Any, source: str, options: ScenarioOptions) -> ToyScenario:
    stones = document.get("stones")
    if not isinstance(stones, int) or stones < 1:  # the searches rely on the loader to refuse
        raise MalformedInputError(source, "$.stones", "a game starts with at least one stone")
    rulings = Rulings.defaults(GAME)
    for rid, reading in document.get("rulings", {}).items():
        rulings = rulings.with_choice(rid, reading, source=f"{source}:$.rulings")
    return ToyScenario(
        source,
        document,
        rulings.with_choices(options.ruling_specs),
        None,
        Pile(int(document["stones"])),
        Answers.from_json(document.get("decisions"), "first-legal"),
        Answers.from_json(document.get("chance"), "first-legal"),
    )


def outcome(scenario: ToyScenario, state: Pile) -> dict[str, Any]:
    gives = scenario.rulings.reading("TOY-LAST") == "gives-last"
    loser = state.last
    winner = ("Bo" if loser == "Ann" else "Ann") if gives else state.last
    return {"winner": winner, "stones": state.stones}


SPEC = GameSpec(
    name=GAME,
    title="Toy Nim with open rules (tests)",
    seed="none",
    load=load,
    outcome=outcome,
    render_text=lambda scenario, state: f"{state.stones} stone(s)",
    render_svg=lambda scenario, state: (
        '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="30">'
        f'<text x="4" y="20">{state.stones} left</text></svg>'
    ),
    examples="tests.ambiguity:toy_examples",
)


def scenario_documents() -> st.SearchStrategy[dict[str, Any]]:
    """The toy's generator hook: piles of 1-7 stones, sometimes broken, random players."""
    return st.fixed_dictionaries(
        {
            "game": st.just(GAME),
            "stones": st.integers(1, 7),
            "broken": st.sampled_from(("", "", "", "empty", "loop")),
            "decisions": st.fixed_dictionaries({"then": st.just("random"), "seed": st.integers(0, 50)}),
            "chance": st.fixed_dictionaries({"then": st.just("random"), "seed": st.integers(0, 50)}),
        }
    )


WIN_CONDITIONS = {
    "Ann wins": lambda o: o["winner"] == "Ann",
    "nobody wins": lambda o: o["winner"] == "",
}


@contextmanager
def toy_game(*, hooks: bool = True) -> Iterator[None]:
    """Register the toy game and its rulings (and, with ``hooks``, its properties module)."""
    REGISTRY.register(*RULINGS)
    registry.register(SPEC)
    name = f"invasion_oracle.properties.{registry.package_of(GAME)}"
    if hooks:
        module = types.ModuleType(name)
        module.scenario_documents = scenario_documents  # type: ignore[attr-defined]
        module.WIN_CONDITIONS = WIN_CONDITIONS  # type: ignore[attr-defined]
        sys.modules[name] = module
    try:
        yield
    finally:
        sys.modules.pop(name, None)
        registry.unregister(GAME)
        REGISTRY.unregister(*(r.id for r in RULINGS))

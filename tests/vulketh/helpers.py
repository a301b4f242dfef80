"""Small builders for Vul'Keth tests: cards, scenario documents with defaults, runs, lookups."""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.decisions import (
    DecisionRequest,
    FirstLegalDecider,
    ScriptedChance,
    ScriptedDecider,
)
from invasion_oracle.model.core.driver import Playthrough
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.vulketh.scenario import Scenario, scenario_from_document
from invasion_oracle.model.vulketh.simulate import run
from invasion_oracle.model.vulketh.state import GameState


def act(action: str, face: str = "blank", direction: str = "lowest") -> dict[str, Any]:
    return {"action": action, "face": face, "direction": direction}


def card(
    card_id: str,
    first: dict[str, Any],
    second: dict[str, Any],
    *,
    deck: int = 1,
    goal: dict[str, Any] | None = None,
    reward: list[dict[str, Any]] | None = None,
    next_deck: int = 1,
) -> dict[str, Any]:
    return {
        "id": card_id,
        "deck": deck,
        "actions": [first, second],
        "goal": goal or {"goal": "none"},
        "reward": reward or [],
        "next_deck": next_deck,
    }


# A card that does nothing to the map: GATHER then LEAD with no Warlord power unlocked is not
# guaranteed, so the filler gathers twice.
def filler(deck: int) -> dict[str, Any]:
    return card(f"filler{deck}", act("GATHER", "moon"), act("GATHER", "moon"), deck=deck, next_deck=deck)


def cards_data(*cards: dict[str, Any]) -> dict[str, Any]:
    """A data override with ``cards`` plus a filler card for every deck they leave empty."""
    decks = {c["deck"] for c in cards}
    return {"action_cards": [*cards, *(filler(d) for d in (1, 2, 3) if d not in decks)]}


def doc(**fields: Any) -> dict[str, Any]:
    """A scenario document: the Invader to move, no player turns, the given fields."""
    base: dict[str, Any] = {"game": "vulketh", "start": "invader"}
    base.update(fields)
    return base


def one_card(the_card: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The Invader's first turn drawing ``the_card`` (alone in deck 1)."""
    extra_data = fields.pop("data", {})
    return doc(data={**cards_data(the_card), **extra_data}, decks={"1": [the_card["id"]]}, **fields)


def scenario(document: dict[str, Any], rulings: tuple[str, ...] = ()) -> Scenario:
    return scenario_from_document(document, "test.json", rulings)


def play(
    document: dict[str, Any],
    decisions: tuple[Any, ...] = (),
    chance: tuple[Any, ...] = (),
    rulings: tuple[str, ...] = (),
) -> tuple[Scenario, Playthrough[GameState]]:
    """Run with scripted answers, then the first legal option; chance must be scripted."""
    sc = scenario(document, rulings)
    playthrough = run(
        sc,
        ScriptedDecider(list(decisions), then=FirstLegalDecider()),
        ScriptedChance(list(chance), label="test chance"),
    )
    return sc, playthrough


def invaders(state: GameState) -> tuple[int, ...]:
    return tuple(h.invaders for h in state.hexes)


def players(state: GameState) -> tuple[int, ...]:
    return tuple(h.player for h in state.hexes)


def events(playthrough: Playthrough[GameState], kind: str) -> list[Event]:
    return [e for e in playthrough.events if e.kind == kind]


def asked(playthrough: Playthrough[GameState], kind: str) -> list[tuple[Any, ...]]:
    """The options of every decision of ``kind`` that was asked."""
    return [
        s.request.options
        for s in playthrough.steps
        if isinstance(s.request, DecisionRequest) and s.request.kind == kind
    ]


GATHER_FILLER = card("filler-turn", act("GATHER", "moon"), act("GATHER", "moon"), deck=2, next_deck=2)


def effect_turn(effects: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    """An Invader turn whose goal check (always met) applies ``effects``, then draws a card that
    only gathers (two weak GATHERs: 4 resources), so the effects can be tested alone."""
    trigger = card(
        "trigger",
        act("GATHER"),
        act("GATHER"),
        goal={"goal": "resources", "at_least": 0},
        reward=effects,
        next_deck=2,
    )
    extra_data = fields.pop("data", {})
    return doc(
        data={**cards_data(trigger, GATHER_FILLER), **extra_data},
        last_card="trigger",
        discard=["trigger"],
        decks={"1": [], "2": ["filler-turn"], "3": []},
        **fields,
    )


def player_turn(**fields: Any) -> dict[str, Any]:
    """A player turn placing a blank on GATHER and a moon on LEAD (no doubles), plus ``fields``."""
    turn: dict[str, Any] = {
        "dice": [{"face": "blank", "action": "GATHER"}, {"face": "moon", "action": "LEAD"}]
    }
    turn.update(fields)
    return turn


def player_first(*turns: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The player to move with ``turns`` scripted; Invader turns draw a card that only gathers."""
    extra_data = fields.pop("data", {})
    return doc(
        start="player",
        data={**cards_data(GATHER_FILLER), **extra_data},
        decks={"1": ["filler1"], "2": ["filler-turn"], "3": ["filler3"]},
        player_turns=list(turns),
        **fields,
    )

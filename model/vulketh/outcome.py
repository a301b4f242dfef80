"""Vul'Keth's outcome of a run, as traces record it (beside the state, not in :mod:`.simulate`:
``docs/adding-a-game.md``).
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.vulketh.action_board import ACTIONS, strength
from invasion_oracle.model.vulketh.scenario import Scenario
from invasion_oracle.model.vulketh.state import GameState


def outcome(scenario: Scenario, state: GameState) -> dict[str, Any]:
    """What the run ended with: the result, the map, both sides' tracks, the board and the decks."""
    game = scenario.game()
    result = (
        state.outcome.to_json()
        if state.outcome
        else {"result": "undecided", "reason": "the script has no more player turns", "round": state.round}
    )
    return {
        "result": result,
        "round": state.round,
        "invader_turns": state.invader_turns,
        "hexes": hexes_json(state),
        "player": {
            "score": state.score,
            "resources": state.resources.to_json(),
            "supply": state.player_supply,
            "developments": state.developments,
            "bronze": dict(state.bronze),
        },
        "invaders": {
            "resources": state.invader_resources,
            "supply": state.invader_supply,
            "reserve": state.reserve,
            "warlords": len(state.warlords()),
            "summoned": game.summoned(state),
            "warlord_board": list(state.warlord_board),
            "unlocked": list(game.unlocked(state)),
        },
        "action_board": board_json(state),
        **decks_json(state),
    }


def hexes_json(state: GameState) -> dict[str, Any]:
    """Every hex by number: the player's pieces, Invaders, a Warlord, a village, rivals."""
    return {str(n): cell.to_json() for n, cell in enumerate(state.hexes, 1)}


def board_json(state: GameState) -> dict[str, Any]:
    """The action board: each row's dice (oldest first) and strength."""
    return {
        action: {"dice": list(state.board.row(action)), "strength": strength(state.board.row(action))}
        for action in ACTIONS
    }


def decks_json(state: GameState) -> dict[str, Any]:
    """The Invader draw piles, the face-up pile, the card played last and the Invader Events."""
    return {
        "decks": {str(n): list(pile) for n, pile in enumerate(state.decks, 1)},
        "discard": list(state.discard),
        "last_card": state.last_card,
        "invader_events": {"pile": list(state.event_pile), "discard": list(state.event_discard)},
    }

"""The searches' compiled rules (solver/vulketh/compiled.py) equal the oracle, turn by turn."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from invasion_oracle.model.core.decisions import FirstLegalDecider, PreferringDecider, SeededChance
from invasion_oracle.model.core.driver import play
from invasion_oracle.model.vulketh.scenario import scenario_from_document
from invasion_oracle.model.vulketh.state import GameState
from invasion_oracle.properties.vulketh import positions
from invasion_oracle.solver.vulketh.compiled import CONCRETE, FACE_CODE, Compiled, CState, from_state

SCALE = int(os.environ.get("INVASION_HYPOTHESIS_SCALE", "1"))  # deeper sweeps on demand
FAST = settings(max_examples=25 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def observed(state: GameState, scenario: Any) -> dict[str, Any]:
    sections = scenario.data.warlord_sections.value
    cards = [c.id for c in scenario.data.action_cards]
    return {
        "inv": tuple(h.invaders for h in state.hexes),
        "ply": tuple(h.player for h in state.hexes),
        "war": tuple(h.warlord is not None for h in state.hexes),
        "board": tuple(s in state.warlord_board for s in sections),
        "rows": tuple(
            tuple(FACE_CODE[f] for f in state.board.row(a)) for a in ("GROW", "MOVE", "GATHER", "LEAD")
        ),
        "pile": tuple(any(c in p for p in state.decks) for c in cards),
        "last": cards.index(state.last_card) if state.last_card else -1,
        "supply": state.invader_supply,
        "reserve": state.reserve,
        "score": state.score,
        "res": state.invader_resources,
        "player_res": state.resources.total,
        "invader_won": state.outcome is not None and state.outcome.result == "invader-wins",
    }


def compiled_view(c: CState) -> dict[str, Any]:
    return {
        "inv": c.inv,
        "ply": c.ply,
        "war": c.war,
        "board": c.board,
        "rows": c.rows,
        "pile": c.pile,
        "last": c.last,
        "supply": c.supply,
        "reserve": c.reserve,
        "score": c.score,
        "res": c.res,
        "player_res": c.player_res,
        "invader_won": c.invader_won,
    }


@FAST
@given(positions(), st.integers(0, 10_000))
def test_one_invader_turn_matches_the_oracle(document: dict[str, Any], seed: int) -> None:
    document = {**document, "start": "invader"}
    scenario = scenario_from_document(document, "generated.json")
    game = scenario.game()
    state, opening = game.start(scenario.initial)
    decider = PreferringDecider(("decline",), FirstLegalDecider())
    playthrough = play(game, state, decider, SeededChance(seed), opening=opening)
    drawn = [e.get("card") for e in playthrough.events if e.kind == "card_drawn"]
    compiled = Compiled(scenario.rules, CONCRETE)
    cards = [c.id for c in scenario.data.action_cards]
    after, legal = compiled.invader_turn(from_state(scenario.initial, scenario.rules), cards.index(drawn[0]))
    assert legal
    assert compiled_view(after) == observed(playthrough.final, scenario)

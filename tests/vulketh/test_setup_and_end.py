"""Seed 003, Setup (each difficulty) and How to Play (the player wins at 15, the Invader at its
fifth Warlord), plus 'Appease the Volcano'."""

from __future__ import annotations

import pytest

from tests.vulketh.helpers import (
    asked,
    doc,
    effect_turn,
    events,
    invaders,
    play,
    player_first,
    player_turn,
    players,
)


@pytest.mark.parametrize(("difficulty", "per_hex"), [("easy", 1), ("normal", 2), ("difficult", 3)])
def test_setup(difficulty: str, per_hex: int) -> None:
    sc, p = play(doc(start="setup", difficulty=difficulty))
    state = p.final
    assert invaders(state) == (per_hex,) * 3 + (0,) * 6
    assert players(state) == (0,) * 8 + (2,)
    assert state.hex(1).warlord == "steal-resources"
    assert (state.score, state.reserve, state.invader_supply, state.player_supply) == (
        0,
        5,
        20 - 3 * per_hex,
        18,
    )
    assert sc.game().unlocked(state) == ("steal-resources",)
    assert state.board.row("GROW") == ("sun", "moon", "blank")


def test_setup_token_is_the_players_choice_when_sections_unlock() -> None:
    sc, p = play(doc(start="setup"), decisions=("war",), rulings=("VK-POWER-UNLOCK=by-section",))
    assert asked(p, "warlord-token") == [("steal-resources", "convert", "spread", "regress", "war")]
    assert p.final.hex(1).warlord == "war"
    assert sc.game().unlocked(p.final) == ("war",)


def test_the_player_wins_as_soon_as_the_score_reaches_15() -> None:
    document = player_first(
        player_turn(points=3),
        player_turn(),
        hexes={"4": {"village": "player", "player": 1}, "1": {"invaders": 1}},
        score=14,
    )
    _, p = play(document)
    over = events(p, "game_over")
    assert [(e.get("result"), e.get("round")) for e in over] == [("player-wins", 1)]
    assert events(p, "die_placed") == []  # it ends at the village score, before any die


def test_the_invader_wins_on_summoning_its_fifth_warlord() -> None:
    hexes = {
        n: {"warlord": w, "invaders": 1}
        for n, w in zip("1234", ("steal-resources", "convert", "spread", "regress"), strict=True)
    }
    _, p = play(effect_turn([], hexes=hexes, invader_resources=2))
    assert [e.get("result") for e in events(p, "game_over")] == ["invader-wins"]
    assert events(p, "warlord_summoned")[0].get("summoned") == 5


def test_appease_the_volcano_removes_a_warlord_the_player_chooses() -> None:
    hexes = {"1": {"warlord": "steal-resources", "invaders": 1}, "6": {"warlord": "convert"}}
    document = player_first(
        {"dice": [{"face": "moon", "action": "GATHER"}, {"face": "moon", "action": "LEAD"}]}, hexes=hexes
    )
    _, p = play(document, chance=("appease-the-volcano",), decisions=(6,))
    assert asked(p, "appease") == [(1, 6)]
    assert p.final.hex(6).warlord is None
    assert p.final.warlord_board == ("convert", "spread", "regress", "war")


def test_events_are_pluggable_effects() -> None:
    """A data file names an effect kind registered from Python; the game runs its handler."""
    from dataclasses import replace as dc_replace

    from invasion_oracle.model.vulketh.effects import EFFECT_KINDS, register_effect

    def double(game: object, state: object, effect: object, origin: str, events: list[object]) -> object:
        return dc_replace(state, invader_resources=state.invader_resources * 2)  # type: ignore[attr-defined,type-var]

    register_effect("double_resources", (), double)  # type: ignore[arg-type]
    try:
        data = {
            "invader_events": [{"id": "greed", "name": "Greed", "effects": [{"effect": "double_resources"}]}]
        }
        document = player_first(
            {"dice": [{"face": "sun", "action": "GATHER"}, {"face": "sun", "action": "LEAD"}]},
            hexes={"1": {"invaders": 1}},
            invader_resources=2,
            data=data,
        )
        _, p = play(document)
        assert events(p, "invader_event")[0].get("name") == "Greed"
        # doubled to 4; the Invader turn gathers 3 then 2 (the player's sun is in the row) and
        # pays 6 for a Warlord
        assert p.final.invader_resources == 4 + 3 + 2 - 6
        assert len(events(p, "warlord_summoned")) == 1
    finally:
        EFFECT_KINDS.pop("double_resources")

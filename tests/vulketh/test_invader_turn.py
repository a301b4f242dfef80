"""Seed 003, Invader Turn: Steps 1-4 in order, and summoning Warlords."""

from __future__ import annotations

from tests.vulketh.helpers import act, asked, card, cards_data, doc, events, one_card, play

GATHER2 = card("g", act("GATHER", "moon"), act("GATHER", "moon"), next_deck=3)  # weak, weak: 2 + 2


def kinds(p: object) -> list[str]:
    return [e.kind for e in p.events]  # type: ignore[attr-defined]


def test_first_turn_skips_the_goal_and_draws_from_deck_one() -> None:
    _, p = play(one_card(GATHER2, hexes={"1": {"invaders": 1}}))
    assert events(p, "goal_skipped")[0].get("reason") == "the Invader's first turn"
    assert events(p, "card_drawn")[0].get("deck") == 1
    assert p.final.invader_resources == 4
    assert p.final.last_card == "g" and p.final.discard == ("g",) and p.final.invader_turns == 1


def test_later_turns_check_the_goal_then_draw_from_the_deck_the_last_card_names() -> None:
    last = card(
        "last",
        act("GATHER"),
        act("GATHER"),
        goal={"goal": "hex_occupied", "hex": 4},
        reward=[{"effect": "gain_resources", "amount": 2}],
        next_deck=3,
    )
    third = card("third", act("GATHER", "moon"), act("GATHER", "moon"), deck=3)
    document = doc(
        data=cards_data(last, third),
        hexes={"4": {"invaders": 1}},
        last_card="last",
        discard=["last"],
        decks={"1": [], "3": ["third"]},
    )
    _, p = play(document)
    order = [k for k in kinds(p) if k in ("goal_checked", "resources_gained", "card_drawn")]
    assert order == ["goal_checked", "resources_gained", "card_drawn", "resources_gained", "resources_gained"]
    assert events(p, "goal_checked")[0].get("met") is True
    assert events(p, "card_drawn")[0].get("deck") == 3
    assert [e.get("change") for e in events(p, "resources_gained")] == [2, 2, 2]
    assert [e.get("hex") for e in events(p, "warlord_summoned")] == [4]  # six resources: a Warlord
    assert p.final.invader_resources == 0


def test_an_unmet_goal_gives_no_reward() -> None:
    last = card(
        "last",
        act("GATHER"),
        act("GATHER"),
        goal={"goal": "hex_occupied", "hex": 4},
        reward=[{"effect": "gain_resources", "amount": 2}],
        next_deck=2,
    )
    document = doc(data=cards_data(last), hexes={"5": {"invaders": 1}}, last_card="last", discard=["last"])
    _, p = play(document)
    assert events(p, "goal_checked")[0].get("met") is False
    assert p.final.invader_resources == 4  # deck 2's filler card: two weak GATHERs only


def test_an_emptied_deck_is_reshuffled_from_its_discards() -> None:
    a = card("a", act("GATHER"), act("GATHER"), deck=2, next_deck=2)
    b = card("b", act("GATHER"), act("GATHER"), deck=2, next_deck=2)
    document = doc(
        data=cards_data(a, b),
        hexes={"5": {"invaders": 1}},
        discard=["a", "b"],
        last_card="b",
        decks={"2": []},
    )
    _, p = play(document, chance=("a",))
    shuffled = events(p, "deck_reshuffled")
    assert shuffled[0].get("deck") == 2 and shuffled[0].get("cards") == ("a", "b")
    # The same field, the same form, in both events (issue 20: once a source name here).
    assert [e.get("deck") for e in events(p, "card_drawn")] == [2]
    assert p.steps[0].request.outcomes == ("a", "b")  # type: ignore[union-attr]
    assert p.final.decks[1] == ("b",) and p.final.discard == ("a",)


def test_the_two_actions_run_left_to_right_at_the_strength_of_the_row_after_sliding() -> None:
    two = card("two", act("GATHER", "sun"), act("GROW", "sun", "lowest"))
    document = one_card(two, hexes={"1": {"invaders": 1}}, action_board={"GATHER": ["blank", "sun", "moon"]})
    _, p = play(document)
    placed = events(p, "die_placed")
    assert [(e.get("action"), e.get("strength")) for e in placed] == [
        ("GATHER", "strong"),
        ("GROW", "standard"),
    ]
    assert kinds(p).index("resources_gained") < kinds(p).index("invaders_grown")
    assert p.final.invader_resources == 4  # strong GATHER
    assert p.final.hex(1).invaders == 1 + 3  # standard GROW


def test_the_invaders_never_trigger_events() -> None:
    suns = card("suns", act("GATHER", "sun"), act("GATHER", "sun"))
    _, p = play(one_card(suns, hexes={"1": {"invaders": 1}}))
    assert events(p, "invader_event") == [] and events(p, "doubles_rolled") == []


def test_one_warlord_per_six_resources_on_the_highest_invader_hex_without_one() -> None:
    document = one_card(
        GATHER2,
        hexes={
            "1": {"warlord": "steal-resources", "invaders": 1},
            "4": {"invaders": 2},
            "7": {"invaders": 1},
        },
        invader_resources=9,
    )
    _, p = play(document)
    summoned = events(p, "warlord_summoned")
    assert [(e.get("hex"), e.get("token")) for e in summoned] == [(7, "convert"), (4, "spread")]
    assert p.final.invader_resources == 9 + 4 - 12
    assert p.final.warlord_board == ("regress", "war")


def test_a_warlord_with_no_invader_hex_free_goes_to_the_lowest_hex_without_one() -> None:
    document = one_card(
        GATHER2, hexes={"3": {"warlord": "steal-resources", "invaders": 2}}, invader_resources=2
    )
    _, p = play(document)
    assert [e.get("hex") for e in events(p, "warlord_summoned")] == [1]


def test_the_player_chooses_the_token_only_where_it_matters() -> None:
    document = one_card(
        GATHER2, hexes={"1": {"warlord": "steal-resources", "invaders": 1}}, invader_resources=2
    )
    _, p = play(document, rulings=("VK-POWER-UNLOCK=by-section",), decisions=("war",))
    assert asked(p, "warlord-token") == [("convert", "spread", "regress", "war")]
    assert p.final.hex(1).warlord == "steal-resources"
    assert [e.get("token") for e in events(p, "warlord_summoned")] == ["war"]
    _, p = play(document, rulings=("VK-POWER-UNLOCK=by-count",))
    assert asked(p, "warlord-token") == []
    assert [e.get("token") for e in events(p, "warlord_summoned")] == ["convert"]


def test_a_goal_reward_can_pay_for_a_summon_in_the_same_turn() -> None:
    """Research notes §3.9.6: Step 4 comes after the reward of Step 1."""
    last = card(
        "last",
        act("GATHER"),
        act("GATHER"),
        goal={"goal": "resources", "at_least": 2},
        reward=[{"effect": "gain_resources", "amount": 2}],
        next_deck=2,
    )
    lead = card("lead", act("LEAD", "moon"), act("LEAD", "moon"), deck=2)
    document = doc(
        data=cards_data(last, lead),
        hexes={"2": {"invaders": 1}},
        last_card="last",
        discard=["last"],
        decks={"2": ["lead"]},
        invader_resources=4,
    )
    _, p = play(document)
    assert [e.get("hex") for e in events(p, "warlord_summoned")] == [2]
    assert p.final.invader_resources == 0

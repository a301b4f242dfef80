"""Seed 002, Invader Phase: the order of its parts, the opening Explore, several cards in a
space, Advance, Time Passes, Events; research notes §2.2 (deck), §3.1 (order)."""

from __future__ import annotations

from invasion_oracle.model.core.decisions import ChanceRequest, SeededChance
from invasion_oracle.model.spirit_island.data import default_data
from invasion_oracle.model.spirit_island.scenario import scenario_from_document
from invasion_oracle.model.spirit_island.simulate import run
from tests.spirit_island.helpers import doc, events, pieces, play

KEEP = {"A8": "C"}


def _first(kinds: list[str], kind: str) -> int:
    return kinds.index(kind)


def test_parts_of_the_phase_in_order() -> None:
    """Seed 002, Invader Phase: Blighted Island, Event, Fear, Ravage, Build, Explore, Advance."""
    document = doc(
        turn=2,
        lands={**KEEP, "A1": "E", "A4": "E"},
        blight={"card": "Encroaching Settlers", "side": "blighted"},
        events=["Omens"],
        fear={"earned": ["Blank Fear"]},
        invader_board={"ravage": ["1M"], "build": ["1S"]},
    )
    _, p = play(document)
    kinds = [e.kind for e in p.events]
    order = [
        _first(kinds, "blighted_island"),
        _first(kinds, "event_resolved"),
        _first(kinds, "fear_card_resolved"),
        _first(kinds, "ravaged"),
        _first(kinds, "built"),
        _first(kinds, "card_revealed"),
        _first(kinds, "cards_advanced"),
    ]
    assert order == sorted(order)


def test_no_event_on_the_first_turn() -> None:
    """Seed 002, Event: 'Draw and resolve one Event Card (except the first turn).'"""
    _, p = play(doc(lands=KEEP, events=["Omens"]))
    assert [e.get("reason") for e in events(p, "event_skipped")] == ["first turn"]
    assert events(p, "event_resolved") == []


def test_opening_explore_then_first_turn_builds_but_does_not_ravage() -> None:
    """Research notes §2.2: the setup Explore advances to Build, so turn 1 has no Ravage."""
    _, p = play(doc(pieces="start", start="setup", invader_deck=["1W", "1J"]))
    kinds = [e.kind for e in p.events]
    assert kinds[0] == "card_revealed" and kinds[1] == "explored"
    assert events(p, "no_card")[0].get("action") == "ravage"
    assert [e.get("land") for e in events(p, "built")] == ["A2", "A5"]  # where the opening Explore went
    assert events(p, "cards_advanced")[-1].get("ravage") == ("1W",)


def test_several_cards_in_a_space_resolve_oldest_first_each_with_its_own_actions() -> None:
    """Research notes §2.2 (querki 'multiple invader cards in a space'): a land matching two
    cards gets two actions; the cards advance together."""
    sc, p = play(
        doc(
            lands={**KEEP, "A1": "E", "A5": "E"}, invader_board={"build": ["1M", "3MW"]}, invader_deck=["3JS"]
        )
    )
    assert [(e.get("card"), e.get("land")) for e in events(p, "built")] == [
        ("1M", "A1"),
        ("3MW", "A1"),
        ("3MW", "A5"),
    ]
    assert pieces(sc, p.final, "A1") == "C T E"  # a Town, then (Towns outnumber Cities) a City
    assert events(p, "cards_advanced")[-1].get("ravage") == ("1M", "3MW")


def test_advance_slides_the_cards() -> None:
    """Seed 002, Advance Invader Cards: Ravage to the discard, Build to Ravage, Explore to Build."""
    _, p = play(
        doc(
            lands=KEEP,
            invader_board={"ravage": ["1J"], "build": ["1M"], "discard": ["1S"]},
            invader_deck=["2W"],
        )
    )
    board = p.final.invaders
    assert (board.discard, board.ravage, board.build, board.explore) == (("1S", "1J"), ("1M",), ("2W",), ())


def test_standard_deck_is_three_four_five_and_never_repeats_a_card() -> None:
    """Research notes §2.2: 3 + 4 + 5 cards, Stage I on top; one card of each stage unseen."""
    document = doc(pieces="start", start="setup", turns=11)
    document.pop("invader_deck")
    sc = scenario_from_document(document, "t")
    assert sc.initial.invaders.deck == ("stage-1",) * 3 + ("stage-2",) * 4 + ("stage-3",) * 5
    p = run(sc, chance=SeededChance(5), play_on=True)
    revealed = [e.get("card") for e in events(p, "card_revealed")]
    stages = [default_data().card_by_id(c).stage for c in revealed]
    assert stages == [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3]
    assert len(set(revealed)) == 12
    draws = [
        s.request
        for s in p.steps
        if isinstance(s.request, ChanceRequest) and s.request.source.startswith("invader")
    ]
    assert [len(r.outcomes) for r in draws] == [4, 3, 2, 5, 4, 3, 2, 6, 5, 4, 3, 2]


def test_time_passes_heals_damage_and_ends_defend() -> None:
    """Seed 002, Tracking Damage: Damage clears when Time Passes; Defend lasts one turn."""
    sc, p = play(
        doc(lands={**KEEP, "A1": {"pieces": "T@1 D@1", "defend": 3}}, turns=2, invader_deck=["3JS", "3SW"])
    )
    assert events(p, "time_passed")
    assert p.final.lands[sc.island.index("A1")].defend == 0
    assert pieces(sc, p.final, "A1") == "T D"


def test_spirit_phase_defend_applies_to_its_own_turn_only() -> None:
    _, p = play(
        doc(
            lands={**KEEP, "A1": "T"},
            turns=2,
            spirit_phases=[{"defend": {"A1": 2}}],
            invader_board={"ravage": ["1M"], "build": ["3MW"]},
            invader_deck=["3JS", "3SW"],
        )
    )
    ravaged = [e for e in events(p, "ravaged") if e.get("land") == "A1"]
    assert [e.get("hits") for e in ravaged] == [0, 5]  # turn 1 defended; turn 2 a Town and a City

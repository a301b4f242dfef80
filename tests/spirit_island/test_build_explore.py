"""Seed 002, Invader Phase 3b Build and 3c Explore, their FAQ answers, and the research notes'
fixtures (§3.4 build cases, §3.5 explore on board A)."""

from __future__ import annotations

import pytest

from invasion_oracle.model.spirit_island.data import default_data
from invasion_oracle.model.spirit_island.explore import explore_targets
from invasion_oracle.model.spirit_island.island import build_island
from invasion_oracle.model.spirit_island.pieces import parse_land
from tests.spirit_island.helpers import doc, events, pieces, play

KEEP = {"A8": "C"}


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("E", "T E"),
        ("T", "C T"),
        ("T@1", "C T"),
        ("C", "C T"),
        ("C@2", "C T"),
        ("2T C", "2C 2T"),
        ("T C", "C 2T"),
    ],
)
def test_build_cases(before: str, after: str) -> None:
    """Research notes §3.4 (RETTIG build fixtures, Sands build) and seed 002, Build: a City when
    Towns outnumber Cities, otherwise a Town; damaged pieces count; the piece is new."""
    sc, p = play(doc(lands={**KEEP, "A4": before}, invader_board={"build": ["1S"]}, invader_deck=["3MW"]))
    assert pieces(sc, p.final, "A4").replace("@1", "").replace("@2", "") == after


def test_build_keeps_damage_on_the_old_pieces() -> None:
    sc, p = play(doc(lands={**KEEP, "A4": "T@1"}, invader_board={"build": ["1S"]}, invader_deck=["3MW"]))
    assert pieces(sc, p.final, "A4") == "C T@1"


def test_no_build_without_invaders() -> None:
    """Seed 002, Build: 'Do not Build in lands without Invaders' (Dahan and Blight do not count)."""
    sc, p = play(
        doc(lands={**KEEP, "A4": "2D B", "A7": "E"}, invader_board={"build": ["1S"]}, invader_deck=["3MW"])
    )
    assert [e.get("land") for e in events(p, "built")] == ["A7"]
    assert pieces(sc, p.final, "A4") == "2D B"


def test_build_comes_after_ravage_a_land_emptied_by_dahan_does_not_build() -> None:
    """Research notes §3.4 (a known engine bug reused the pre-Ravage land set)."""
    sc, p = play(doc(lands={**KEEP, "A4": "3D E"}, invader_board={"ravage": ["1S"], "build": ["2S"]}))
    assert events(p, "built") == []
    assert pieces(sc, p.final, "A4") == "2D D@1"


def _board_a_explore(placed: dict[str, str], card: str) -> list[str]:
    data = default_data()
    island = build_island(data, ("A",))
    lands = tuple(parse_land(placed.get(name, "")) for name in island.lands)
    return [island.lands[i] for i in explore_targets(island, lands, data.card_by_id(card))]


def test_explore_board_a_explorer_alone_is_no_source() -> None:
    """Research notes §3.5: only an Explorer in A5, Wetland: only coastal A2 is explored."""
    assert _board_a_explore({"A5": "E"}, "1W") == ["A2"]


@pytest.mark.parametrize("land", ["A1", "A4", "A5", "A6", "A7", "A8"])
@pytest.mark.parametrize("source", ["T", "T@1", "C", "C@2"])
def test_explore_board_a_one_town_or_city(land: str, source: str) -> None:
    """Research notes §3.5: a Town or City (any Damage) in any of A1/A4/A5/A6/A7/A8 and a Wetland
    card explore exactly A2 and A5."""
    assert _board_a_explore({land: source}, "1W") == ["A2", "A5"]


def test_explore_adds_one_explorer_however_many_sources() -> None:
    """Seed 002, Explore: one Explorer no matter how many sources; FAQ Explorers: a Town or City
    in the land itself is a source."""
    sc, p = play(doc(lands={**KEEP, "A5": "C T", "A1": "T", "A4": "C", "A6": "2T"}, invader_deck=["1W"]))
    assert events(p, "explored")[0].get("lands") == ("A2", "A5")
    assert pieces(sc, p.final, "A5") == "C T E"
    assert pieces(sc, p.final, "A2") == "E"


def test_explorers_added_are_not_sources_for_the_same_explore() -> None:
    """Sources are judged before adding (research notes §3.5)."""
    assert _board_a_explore({}, "2C") == ["A1", "A2", "A3"]
    # a coastal Explorer added now does not make inland A4 explorable by the same card
    assert _board_a_explore({}, "3JS") == ["A3"]


CARD_LANDS = {
    "1M": ["A1", "A6"],
    "1J": ["A3", "A8"],
    "1W": ["A2", "A5"],
    "1S": ["A4", "A7"],
    "2C": ["A1", "A2", "A3"],
    "3JM": ["A1", "A3", "A6", "A8"],
    "3JS": ["A3", "A4", "A7", "A8"],
    "3JW": ["A2", "A3", "A5", "A8"],
    "3MS": ["A1", "A4", "A6", "A7"],
    "3MW": ["A1", "A2", "A5", "A6"],
    "3SW": ["A2", "A4", "A5", "A7"],
}


@pytest.mark.parametrize(("card", "lands"), sorted(CARD_LANDS.items()))
def test_card_matching_on_board_a(card: str, lands: list[str]) -> None:
    """Research notes §2.2 (RETTIG InvaderDeck_Tests fixtures)."""
    data = default_data()
    island = build_island(data, ("A",))
    c = data.card_by_id(card)
    assert [n for i, n in enumerate(island.lands) if c.matches(island.terrain[i], island.coastal[i])] == lands


def test_time_runs_out_when_no_card_is_left_to_explore() -> None:
    """Seed 002, Explore: 'If there is no card to turn up, time has run out and you lose.'"""
    _, p = play(doc(lands=KEEP, invader_deck=[]))
    assert events(p, "time_ran_out")
    assert p.final.outcome is not None and p.final.outcome.result == "loss"
    assert "time ran out" in p.final.outcome.reason


def test_an_unknown_card_is_drawn_among_unseen_cards_of_its_stage() -> None:
    """Research notes §2.2: stages never mix; a drawn card is not one already seen."""
    _, p = play(
        doc(lands=KEEP, invader_deck=["stage-1"], invader_board={"ravage": ["1J"], "build": ["1M"]}),
        chance=("1S",),
    )
    draws = [s.request for s in p.steps if s.request.kind == "draw"]
    assert draws[0].source == "invader-stage-1" and draws[0].outcomes == ("1S", "1W")
    assert events(p, "card_revealed")[0].get("card") == "1S"

"""The rest of the year: Improvement, Preparation, Cleanup, final scoring and solo play (seed 000)."""

from __future__ import annotations

from pathlib import Path

from invasion_oracle.model.stonespine.dungeon import Cell, PassageMode, Side
from invasion_oracle.model.stonespine.scenario import load_scenario
from invasion_oracle.model.stonespine.simulate import run
from invasion_oracle.model.stonespine.state import Stage
from tests.stonespine.helpers import events, first, one_player, play

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "stonespine"


def test_campaign_runs_two_years_to_final_scoring() -> None:
    """Construction adds a row a year; Cleanup empties the dungeon of figures; final scoring adds
    the guardian bonus, trophies, demerits and leftover XP (seed 000, "Final Scoring")."""
    scenario = load_scenario(str(EXAMPLES / "campaign.json"))
    p = run(scenario)
    final = p.final
    assert final.stage is Stage.DONE and final.year == 4
    assert [e.get("year") for e in events(p, "row_built")] == [3, 3, 4, 4]
    assert all(pl.dungeon.rows == 4 for pl in final.players)
    assert len(events(p, "cleaned_up")) == 2  # after year 3 only: no Cleanup in year 4
    for score, player in zip(final.final_scores, final.players, strict=True):
        assert score.trophies == sum(v for _, v in player.trophies)
        assert score.demerits == sum(v for _, v in player.demerits)
        assert score.leftover_xp == player.xp
        assert score.guardian_bonus == player.guardian.bonus()
        assert score.total == score.guardian_bonus + score.trophies - score.demerits + score.leftover_xp
    # Each year's trophy went to one player at most, and only to a player without an escape.
    for year in (3, 4):
        winners = [e for e in events(p, "trophy_awarded") if e.get("year") == year]
        escaped = {e.get("player") for e in events(p, "demerit_taken") if e.get("year") == year}
        assert len(winners) <= 1 and not {w.get("player") for w in winners} & escaped


def test_improvement_actions_and_market() -> None:
    """Buy XP takes 4 then 3 cubes then 2 from the supply for four gold; secret passages cost
    5, 6, 7, 8; rubble removal costs 3 (seed 000, "II. Improvement Phase")."""
    rows = [["cave TB rubble/kobold", "cave -"], ["cave T", "cave -"]]
    doc = one_player(
        rows,
        year=2,
        start="improvement",
        dice=["red", "red"],
        decisions=["buy-xp", "buy-passage A2:right", "buy-passage B2:left", "remove-rubble A1:1"],
    )
    doc["players"][0]["gold"] = 4 + 5 + 6 + 3
    del doc["players"][0]["placement"]
    p = play(doc)
    assert first(p, "xp_bought").get("cubes") == 4
    assert [e.get("gold") for e in events(p, "passage_bought")] == [5, 6]
    assert first(p, "rubble_removed").get("uncovered") == "kobold"
    player = p.final.players[0]
    assert player.gold == 0
    dungeon = player.dungeon
    assert (
        Side.RIGHT in dungeon.chamber(Cell(0, 1)).passages
        and Side.LEFT in dungeon.chamber(Cell(1, 1)).passages
    )
    # The two passages connect A2 and B2 (both facing edges now open).
    assert Cell(1, 1) in dungeon.neighbours(Cell(0, 1), scenario_mode())


def scenario_mode() -> PassageMode:
    return PassageMode.EDGE


def test_xp_market_then_supply_and_four_passages_a_year() -> None:
    rows = [["cave TB", "cave -"], ["cave T", "cave -"]]
    passages = ["buy-passage A1:left", "buy-passage A1:right", "buy-passage A2:left", "buy-passage A2:right"]
    doc = one_player(
        rows,
        year=2,
        guardian="Giant Troll",  # its instant (BLOW OFF STEAM) finds no element here: skipped
        start="improvement",
        dice=["red", "red"],
        decisions=["buy-xp", "buy-xp", "left", "buy-xp", *passages],
    )
    doc["players"][0]["gold"] = 12 + 5 + 6 + 7 + 8 + 3
    del doc["players"][0]["placement"]
    p = play(doc)
    assert [e.get("cubes") for e in events(p, "xp_bought")] == [4, 3, 2]
    levels = events(p, "guardian_levelled")
    assert levels  # 4 then 7: a forced level-up as soon as five cubes are in the box
    assert [e.get("gold") for e in events(p, "passage_bought")] == [5, 6, 7, 8]
    # With 3 gold left and every passage sold, passing is the only option: taken without asking.
    assert p.final.players[0].gold == 3
    # (The one rule of every game: no request, and no event for the decision itself.)
    asked = [step.answer for step in p.steps if getattr(step.request, "kind", None) == "improvement"]
    assert "pass" not in asked and len(asked) == 7  # the seven scripted purchases; no pass asked
    assert [e.get("player") for e in events(p, "improvement_passed")] == [p.final.players[0].name]
    assert not events(p, "decision_forced")


def test_preparation_asks_for_guardian_and_minions() -> None:
    """Preparation: the guardian figure(s) and every unlocked minion go into chambers."""
    rows = [["cave TB", "stone -"], ["cave T", "cave -"]]
    doc = one_player(
        rows,
        year=2,
        guardian="Dragon",
        levels=(1, 0),
        start="preparation",
        decisions=["B1", "A2"],
        dice=["red", "red"],
    )
    del doc["players"][0]["placement"]
    p = play(doc)
    kinds = [s.request.kind for s in p.steps if hasattr(s.request, "player")]
    assert kinds[:2] == ["place-guardian", "place-minion"]
    prepared = first(p, "prepared")
    assert prepared.get("guardians") == ("B1",) and prepared.get("minions") == ("A2",)


def test_solo_jael_takes_the_trophy_unless_beaten() -> None:
    """Solo: Jael defeats 3/6/9/12 heroes; the player needs more and no escape (seed 000, "Solo")."""
    scenario = load_scenario(str(EXAMPLES / "solo.json"))
    p = run(scenario)
    ann = p.final.players[0]
    assert len(ann.defeated) <= 6
    assert p.final.jael.trophies == ((2, 4),)
    assert first(p, "trophy_awarded", player="Jael").get("defeated") == 6
    assert not [e for e in events(p, "demerit_taken") if e.get("player") == "Jael"]


def test_solo_player_who_beats_jael_takes_the_trophy() -> None:
    # Year 1: one row. Each black hero (Thief, 4 health) walks past the defeated ones to the next
    # four-kobold chamber; the fourth meets the guardian.
    row = ["cave TR kobold kobold kobold kobold", "cave LR kobold kobold kobold kobold"]
    row += ["cave LR kobold kobold kobold kobold", "cave L"]
    doc = one_player(
        [row],
        year=1,
        guardians=["D1"],
        dice=["black"] * 4 + ["red"],
        decisions=["continue"] * 3 + ["close"],
        solo={},
    )
    p = play(doc)
    assert len(p.final.players[0].defeated) == 4  # more than Jael's three in year 1
    assert p.final.players[0].trophies == ((1, 2),) and p.final.jael.trophies == ()


def test_tied_trophy_goes_to_higher_priority() -> None:
    rows = [["cave TB", "cave -"], ["cave T", "cave -"]]
    doc = one_player(rows, year=2, guardians=["A1"], dice=["red", "red"], decisions=["close", "close"])
    doc["players"][0]["dungeon"]["rows"] = [["cave TB", "cave -"], ["cave T spike spike spike", "cave -"]]
    other = {**doc["players"][0], "name": "Bo", "priority": 1}
    doc["players"][0]["priority"] = 2
    doc["players"].append(other)
    p = play(doc)
    assert first(p, "trophy_awarded").get("player") == "Bo"


def test_solo_campaign_jael_collects_market_xp_and_scores_it() -> None:
    """Solo Gameplay, II. Improvement and Solo Final Scoring: Jael's XP from the market board counts
    one reputation each, with his trophies."""
    rows = [
        ["cave TB", "cave -", "cave -", "cave -"],
        ["cave TB", "cave -", "cave -", "cave -"],
        ["cave TB", "cave -", "cave -", "cave -"],
    ]
    doc = one_player(rows, year=4, start="construction", dice=["red"] * 8, decisions=["A1", "close"])
    del doc["players"][0]["placement"]
    doc["solo"] = {"jael_xp": 1}
    doc["years"] = [{"rows": {"Ann": ["cave T", "cave -", "cave -", "cave -"]}, "jael_collects": 2}]
    p = play(doc)
    collected = first(p, "jael_collected")
    assert (collected.get("times"), collected.get("xp"), collected.get("total")) == (
        2,
        4,
        5,
    )  # 2 x assumed 2 cubes
    jael = next(s for s in p.final.final_scores if s.player == "Jael")
    assert jael.leftover_xp == 5 and jael.trophies == 8  # Ann defeated 1 < 12, so Jael took the year-4 trophy
    assert jael.total == 13

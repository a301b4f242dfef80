"""Bad input: one-line errors naming the field; the command line exits 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from invasion_oracle.model.core.errors import IllegalDecisionError, MalformedInputError
from invasion_oracle.reports.cli import main
from tests.spirit_island.helpers import doc, play, scenario


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # another game's name: refused by that game (issue 36); an unknown name, by the schema
        (
            {"game": "stonespine"},
            r"\$\.game: this is a stonespine scenario, not a spirit-island one: use `invasion stonespine COMMAND",
        ),
        ({"game": "chess"}, r"\$\.game: 'spirit-island' was expected"),
        ({"island": {"boards": ["Q"]}}, r"\$\.island\.boards\[0\]: unknown island board 'Q'"),
        ({"lands": {"A9": "E"}}, r"\$\.lands\.A9: unknown land 'A9'"),
        ({"lands": {"A1": "3Q"}}, r"\$\.lands\.A1: bad piece token '3Q'"),
        ({"lands": {"A1": "T@2"}}, r"\$\.lands\.A1: T@2 has Damage 2 but Health 2"),
        ({"invader_deck": ["1Z"]}, r"\$\.invader_deck\[0\]: unknown Invader card '1Z'"),
        ({"invader_deck": ["1J", "1J"]}, r"\$\.invader_deck: Invader card 1J appears twice"),
        ({"invader_deck": ["stage-1"] * 5}, r"5 Stage 1 cards needed but only 4 exist"),
        ({"invader_board": {"ravage": ["3JS"]}}, r"appears twice \(deck and board\)"),
        (
            {"start": "setup", "invader_board": {"build": ["1J"]}},
            r"\$\.invader_board: a scenario starting at setup",
        ),
        ({"fear": {"pool": 9}}, r"\$\.fear\.pool: the pool holds 4 markers"),
        ({"fear": {"deck": ["draw"]}}, r"\$\.fear\.deck: the rest of the Fear deck has 9 cards, got 1"),
        ({"fear": {"earned": ["Nope"]}}, r"\$\.fear\.earned\[0\]: unknown Fear card 'Nope'"),
        ({"blight": {"card": "Nope"}}, r"\$\.blight\.card: unknown Blight card 'Nope'"),
        ({"adversary": "Nobody"}, r"\$\.adversary: unknown Adversary 'Nobody'"),
        (
            {"spirits": [{"name": "R", "presence": {"A12": 1}}]},
            r"\$\.spirits\[0\]\.presence\.A12: unknown land",
        ),
        ({"spirit_phases": [{"skips": [{"effect": "fear", "amount": 1}]}]}, r"only skip effects belong here"),
        (
            {"spirit_phases": [{"skips": [{"effect": "skip", "action": "dance", "scope": "card"}]}]},
            r"skip action is one of",
        ),
        ({"rulings": {"SI-NOPE": "x"}}, r"unknown spirit-island ruling 'SI-NOPE'"),
        ({"extra": 1}, r"\$: Additional properties are not allowed"),
    ],
)
def test_malformed_scenarios_name_the_field(change: dict[str, object], message: str) -> None:
    with pytest.raises(MalformedInputError, match=message):
        scenario(doc(**change))


def test_illegal_decision_names_the_request() -> None:
    with pytest.raises(IllegalDecisionError, match=r"cascade for players .origin=A1.: 'A7' is not legal"):
        play(doc(lands={"A8": "C", "A1": "T B"}, invader_board={"ravage": ["1M"]}), decisions=("A7",))


def test_cli_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc(lands={"A1": "X"})))
    assert main(["spirit-island", "simulate", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "$.lands.A1: bad piece token 'X'" in err
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert main(["spirit-island", "simulate", str(broken)]) == 2
    assert "invalid JSON" in capsys.readouterr().err


def test_card_effects_must_name_lands_on_this_island() -> None:
    data = {
        "fear_cards": [
            {
                "name": "Odd",
                "levels": [[{"effect": "defend", "amount": 1, "where": {"lands": ["Z9"]}}], [], []],
            }
        ]
    }
    with pytest.raises(
        MalformedInputError, match=r"\$\.data: Fear card Odd names land Z9, which is not on this island"
    ):
        scenario(doc(data=data, fear={"earned": ["Odd"], "deck": ["draw"] * 8}))


def test_unknown_effects_are_refused_with_their_path() -> None:
    data = {"events": [{"name": "Odd", "effects": [{"effect": "teleport"}]}]}
    with pytest.raises(
        MalformedInputError,
        match=r"test\.json:\$\.data\.events\[0\]\.effects\[0\]\.effect: unknown effect 'teleport'",
    ):
        scenario(doc(data=data))

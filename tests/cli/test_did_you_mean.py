"""Typos get the name meant (issue 36): games, commands, options, choices, example names, ruling ids
and readings, each in one line with exit 2, in one wording; a scenario of another game names its
game and the command that reads it. The library raises the same suggestion."""

from __future__ import annotations

import pytest

import invasion_oracle as io
from invasion_oracle.model.core.errors import MalformedInputError
from tests.in_process import run_invasion

PLACEMENT = "example:stonespine/placement"

TYPOS = [
    # (argv, the start of the one line on stderr, the suggestion in it)
    (["stonspine"], "invasion: error: unknown command or game 'stonspine'", "(did you mean 'stonespine'?)"),
    (["vulkth", "race"], "invasion: error: unknown command or game 'vulkth'", "(did you mean 'vulketh'?)"),
    (
        ["simulat", PLACEMENT],
        "invasion: error: unknown command or game 'simulat'",
        "(did you mean 'simulate'?)",
    ),
    (
        ["stonespine", "plac", PLACEMENT],
        "invasion stonespine: error: unknown command 'plac'",
        "(did you mean 'place'?)",
    ),
    (
        ["cloudspire", "surviv"],
        "invasion cloudspire: error: unknown command 'surviv'",
        "(did you mean 'survive'?)",
    ),
    (
        ["stonespine", "place", PLACEMENT, "--enigne", "z3"],
        "invasion stonespine place: error: unknown option '--enigne'",
        "(did you mean '--engine'?)",
    ),
    (
        ["stonespine", "place", PLACEMENT, "--eng", "z3"],
        "invasion stonespine place: error: unknown option '--eng'",
        "(did you mean '--engine'?; options are never abbreviated)",
    ),
    (
        ["stonespine", "place", PLACEMENT, "--engine", "z33"],
        "invasion stonespine place: error: argument --engine: invalid choice: 'z33'",
        "(did you mean 'z3'?)",
    ),
    (
        ["rulings", "--game", "vulkth"],
        "invasion rulings: error: argument --game: invalid choice: 'vulkth'",
        "(did you mean 'vulketh'?)",
    ),
    (
        ["stonespine", "place", "example:stonespine/placment"],
        "invasion: error: example:stonespine/placment.json:$: no such bundled example",
        "(did you mean 'example:stonespine/placement'?)",
    ),
    (
        ["simulate", "example:stonespin/default"],
        "invasion: error: example:stonespin/default.json:$: no such bundled example",
        "(did you mean 'example:stonespine/default'?)",
    ),
    (
        ["stonespine", "place", PLACEMENT, "--ruling", "SS-EXT-Y13=ignored"],
        "invasion: error: --ruling:SS-EXT-Y13: unknown stonespine ruling 'SS-EXT-Y13'",
        "(did you mean 'SS-EXIT-Y13'?)",
    ),
    (
        ["stonespine", "place", PLACEMENT, "--ruling", "SS-EXIT-Y13=ignord"],
        "invasion: error: --ruling:SS-EXIT-Y13: unknown reading of SS-EXIT-Y13 'ignord'",
        "(did you mean 'ignored'?)",
    ),
]


@pytest.mark.parametrize(("argv", "start", "hint"), TYPOS, ids=[" ".join(t[0][:3]) for t in TYPOS])
def test_a_typo_gets_the_name_meant_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], start: str, hint: str
) -> None:
    ran = run_invasion(capsys, *argv)
    assert ran.returncode == 2, ran
    assert ran.stdout == ""
    assert ran.stderr.count("\n") == 1, ran.stderr
    assert ran.stderr.startswith(start), ran.stderr
    assert hint in ran.stderr, ran.stderr


def test_a_name_with_nothing_close_lists_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    ran = run_invasion(capsys, "backgammon")  # (chess is close to changes)
    assert ran.returncode == 2 and "did you mean" not in ran.stderr
    assert "; games: stonespine, spirit-island, vulketh, cloudspire" in ran.stderr


def test_options_are_never_abbreviated(capsys: pytest.CaptureFixture[str]) -> None:
    # --form would have been --format under argparse's default prefix matching
    ran = run_invasion(capsys, "games", "--form", "json")
    assert ran.returncode == 2 and "unknown option '--form' (did you mean '--format'?" in ran.stderr
    assert run_invasion(capsys, "games", "--format=json").returncode == 0


WRONG_GAME = [
    ("stonespine", "place", "example:vulketh/race.json", "vulketh"),
    ("vulketh", "race", "example:stonespine/placement.json", "stonespine"),
    ("spirit-island", "lands", "example:cloudspire/engagement.json", "cloudspire"),
    ("cloudspire", "engagement", "example:spirit_island/island_search.json", "spirit-island"),
]


@pytest.mark.parametrize(("game", "verb", "ref", "other"), WRONG_GAME)
def test_a_scenario_of_another_game_names_its_game_and_command(
    capsys: pytest.CaptureFixture[str], game: str, verb: str, ref: str, other: str
) -> None:
    ran = run_invasion(capsys, game, verb, ref)
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1, ran
    assert ran.stderr.startswith(
        f"invasion: error: {ref}:$.game: this is a {other} scenario, not a {game} one: "
        f"use `invasion {other} COMMAND {ref}`"
    ), ran.stderr
    assert "Additional properties" not in ran.stderr


def test_the_library_raises_the_same_suggestions() -> None:
    with pytest.raises(MalformedInputError, match=r"\(did you mean 'example:stonespine/placement'\?\)"):
        io.load("example:stonespine/placment")
    with pytest.raises(
        MalformedInputError, match=r"unknown game 'stonespin' \(did you mean 'stonespine'\?\)"
    ):
        io.load({"game": "stonespin"})
    from invasion_oracle.model.stonespine.scenario import load_scenario

    with pytest.raises(
        MalformedInputError, match=r"\$\.game: this is a vulketh scenario, not a stonespine one"
    ):
        load_scenario("example:vulketh/race.json")

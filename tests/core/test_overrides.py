"""Partial data overrides (``"extends": "bundled"``) in every game, and the data in force of a run
(``--data`` on the commands that run every game, ``invasion_oracle.under_data``).

Every expected change is computed from the bundled data (the value read, then the outcome under
both data), never written in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import invasion_oracle as io
from invasion_oracle.model.core.overrides import DataInForce, canonical_text, data_in_force, in_force
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.core.spec import ScenarioOptions
from invasion_oracle.model.registry import spec
from invasion_oracle.reports.batch import Runner, run_jobs
from invasion_oracle.reports.cache import JobCache
from tests.in_process import run_invasion


def bundled_json(game: str) -> dict[str, Any]:
    data: dict[str, Any] = spec(game).build_data(Rulings.defaults(game), None, "data").to_json()
    return data


def outcome(example: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    result: dict[str, Any] = dict(io.load(example, data=data).play().outcome())
    return result


def write(tmp_path: Path, document: dict[str, Any], name: str = "d.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


# -- one field changes the outcome; the bundled value changes nothing --------------------------


def _stonespine_health() -> int:
    return next(h["health"] for h in bundled_json("stonespine")["heroes"] if h["name"] == "Barbarian")


def _town_health() -> int:
    return int(bundled_json("spirit-island")["pieces"]["town"]["health"])


def _player_members() -> int:
    return int(bundled_json("vulketh")["values"]["player_members"]["value"])


def _hit_damage() -> int:
    return int(bundled_json("cloudspire")["values"]["hit_damage"]["value"])


def _yellow_faces() -> list[str]:
    return list(bundled_json("cloudspire")["dice"]["colours"]["yellow"]["faces"])


CASES: list[tuple[str, str, Any]] = [
    # game, example, (bundled value -> override document with that value changed by a function)
    ("stonespine", "example:stonespine/default", lambda v: {"heroes": {"Barbarian": {"health": v}}}),
    ("spirit-island", "example:spirit_island/opening", lambda v: {"pieces": {"town": {"health": v}}}),
    ("vulketh", "example:vulketh/solo_game", lambda v: {"values": {"player_members": v}}),
    ("cloudspire", "example:cloudspire/setup", lambda v: {"values": {"hit_damage": v}}),
]
BUNDLED_VALUE = {
    "stonespine": _stonespine_health,
    "spirit-island": _town_health,
    "vulketh": _player_members,
    "cloudspire": _hit_damage,
}


@pytest.mark.parametrize(("game", "example", "make"), CASES, ids=[c[0] for c in CASES])
def test_one_field_changes_the_outcome_and_the_bundled_value_nothing(
    game: str, example: str, make: Any
) -> None:
    value = BUNDLED_VALUE[game]()
    base = outcome(example)
    same = outcome(example, {"extends": "bundled", **make(value)})
    changed = outcome(example, {"extends": "bundled", **make(value + 1)})
    assert same == base
    assert changed != base


def test_the_stonespine_hero_record_is_the_bundled_one_but_the_field_changed() -> None:
    health = _stonespine_health()
    data = spec("stonespine").build_data(
        Rulings.defaults("stonespine"),
        {"extends": "bundled", "heroes": {"Barbarian": {"health": health + 3}}},
        "d",
    )
    bundled = next(h for h in bundled_json("stonespine")["heroes"] if h["name"] == "Barbarian")
    mine = next(h for h in data.to_json()["heroes"] if h["name"] == "Barbarian")
    assert mine["health"] == health + 3
    assert {k: v for k, v in mine.items() if k not in ("health", "provenance", "source")} == {
        k: v for k, v in bundled.items() if k not in ("health", "provenance", "source")
    }


def test_a_cloudspire_dice_face_changes_the_outcome() -> None:
    faces = _yellow_faces()
    crits = ["crit"] * len(faces)
    assert crits != faces
    base = outcome("example:cloudspire/setup")
    assert (
        outcome(
            "example:cloudspire/setup",
            {"extends": "bundled", "dice": {"colours": {"yellow": {"faces": faces}}}},
        )
        == base
    )
    assert (
        outcome(
            "example:cloudspire/setup",
            {"extends": "bundled", "dice": {"colours": {"yellow": {"faces": crits}}}},
        )
        != base
    )


def test_the_full_form_keeps_working_and_agrees_with_the_partial_one() -> None:
    bundled = next(h for h in bundled_json("stonespine")["heroes"] if h["name"] == "Barbarian")
    whole = {k: v for k, v in bundled.items() if k not in ("provenance",)}
    whole["health"] = bundled["health"] + 2
    partial = {"extends": "bundled", "heroes": {"Barbarian": {"health": bundled["health"] + 2}}}
    assert outcome("example:stonespine/default", {"heroes": [whole]}) == outcome(
        "example:stonespine/default", partial
    )


def test_vulketh_removes_an_action_card_and_adds_one() -> None:
    cards = bundled_json("vulketh")["action_cards"]["cards"]
    first = cards[0]
    new = {**{k: v for k, v in first.items() if k not in ("provenance", "source")}, "id": "my-card"}
    data = spec("vulketh").build_data(
        Rulings.defaults("vulketh"),
        {"extends": "bundled", "remove": {"action_cards": [first["id"]]}, "action_cards": {"my-card": new}},
        "d",
    )
    ids = [c["id"] for c in data.to_json()["action_cards"]["cards"]]
    assert first["id"] not in ids and "my-card" in ids
    assert len(ids) == len(cards)


# -- bad overrides: one located line, exit 2, a suggestion ---------------------------------------

BAD: list[tuple[str, str, dict[str, Any], str]] = [
    # game, example, override, what the one line says (the file's own path and the reason)
    (
        "stonespine",
        "example:stonespine/default",
        {"heroes": {"Barbarain": {"health": 5}}},
        "$.heroes.Barbarain: no bundled hero card 'Barbarain' (did you mean 'Barbarian'?)",
    ),
    (
        "stonespine",
        "example:stonespine/default",
        {"heroes": {"Barbarian": {"helth": 5}}},
        "$.heroes.Barbarian.helth: unknown field 'helth' (did you mean 'health'?)",
    ),
    (
        "stonespine",
        "example:stonespine/default",
        {"heroes": {"Barbarian": {"health": "5"}}},
        "$.heroes.Barbarian.health: '5' is not of type 'integer'",
    ),
    (
        "stonespine",
        "example:stonespine/default",
        {"heroes": {"Barbarian": {"health": 0}}},
        "$.heroes.Barbarian.health: 0 is less than the minimum of 1",
    ),
    (
        "stonespine",
        "example:stonespine/default",
        {"heros": {}},
        "$.heros: unknown key 'heros' (did you mean 'heroes'?)",
    ),
    (
        "spirit-island",
        "example:spirit_island/opening",
        {"pieces": {"towne": {"health": 3}}},
        "$.pieces.towne: unknown piece 'towne' (did you mean 'town'?)",
    ),
    (
        "spirit-island",
        "example:spirit_island/opening",
        {"fear_cards": {"Wary Setlers": {"source": "x"}}},
        "did you mean 'Wary Settlers'?",
    ),
    (
        "spirit-island",
        "example:spirit_island/opening",
        {"pieces": {"town": {"helth": 3}}},
        "$.pieces.town.helth: unknown field 'helth' (did you mean 'health'?)",
    ),
    (
        "spirit-island",
        "example:spirit_island/opening",
        {"pieces": {"town": {"health": "2"}}},
        "$.pieces.town.health: '2' is not of type 'integer'",
    ),
    (
        "spirit-island",
        "example:spirit_island/opening",
        {"pieces": {"town": {"health": 0}}},
        "$.pieces.town.health: 0 is less than the minimum of 1",
    ),
    (
        "vulketh",
        "example:vulketh/solo_game",
        {"values": {"player_member": 3}},
        "$.values.player_member: unknown value 'player_member' (did you mean 'player_members",
    ),
    (
        "vulketh",
        "example:vulketh/solo_game",
        {"action_cards": {"1a": {"dek": 2}}},
        "$.action_cards.1a.dek: unknown field 'dek' (did you mean 'deck'?)",
    ),
    (
        "vulketh",
        "example:vulketh/solo_game",
        {"action_cards": {"1a": {"deck": "two"}}},
        "$.action_cards.1a.deck: 'two' is not one of [1, 2, 3]",
    ),
    (
        "vulketh",
        "example:vulketh/solo_game",
        {"values": {"warlords_to_win": 0}},
        "$.values.warlords_to_win: must be at least 1",
    ),
    (
        "cloudspire",
        "example:cloudspire/setup",
        {"conflict": {"Aurora-01": {"enemy": {"health": 3}}}},
        "$.conflict.Aurora-01: no bundled conflict card 'Aurora-01' (did you mean 'Aurora-1",
    ),
    (
        "cloudspire",
        "example:cloudspire/setup",
        {"conflict": {"Aurora-1": {"enemy": {"helth": 3}}}},
        "$.conflict.Aurora-1.enemy.helth: unknown field 'helth' (did you mean 'health'?)",
    ),
    (
        "cloudspire",
        "example:cloudspire/setup",
        {"conflict": {"Aurora-1": {"enemy": {"health": "x"}}}},
        "$.conflict.Aurora-1.enemy.health: 'x' is not of type 'integer'",
    ),
    (
        "cloudspire",
        "example:cloudspire/setup",
        {"values": {"hit_damage": 0}},
        "$.values.hit_damage: hit_damage must be from 1 to 99, got 0",
    ),
]


@pytest.mark.parametrize(
    ("game", "example", "override", "said"), BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)]
)
def test_a_bad_override_is_one_located_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    game: str,
    example: str,
    override: dict[str, Any],
    said: str,
) -> None:
    path = write(tmp_path, {"extends": "bundled", **override})
    ran = run_invasion(capsys, "simulate", example, "--data", path)
    assert ran.returncode == 2
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1, ran.stderr
    assert lines[0].startswith(f"invasion: error: {path}:"), lines[0]
    assert said in lines[0]
    with pytest.raises(io.MalformedInputError) as raised:  # the library: the same message
        io.load(example, data=path)
    assert said in str(raised.value)


def test_removal_is_refused_where_the_rules_name_each_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, {"extends": "bundled", "remove": {"heroes": ["Thief"]}})
    ran = run_invasion(capsys, "simulate", "example:stonespine/default", "--data", path)
    assert ran.returncode == 2
    assert "$.remove.heroes: records of 'heroes' cannot be removed" in ran.stderr


# -- the data in force for a whole run -----------------------------------------------------------


def test_under_data_is_one_call_and_ends_with_its_block() -> None:
    health = _stonespine_health()
    base = outcome("example:stonespine/default")
    with io.under_data({"extends": "bundled", "heroes": {"Barbarian": {"health": health + 1}}}, "stonespine"):
        assert in_force("stonespine") is not None
        inside = outcome("example:stonespine/default")
    assert inside != base
    assert in_force("stonespine") is None
    assert outcome("example:stonespine/default") == base


def _barbarian_health() -> int:
    return int(
        spec("stonespine").build_data(Rulings.defaults("stonespine"), None, "data").hero("Barbarian").health
    )


def test_the_cache_never_reuses_a_result_computed_under_other_data(tmp_path: Path) -> None:
    cache = JobCache(tmp_path / "cache")
    runner = Runner(workers=1, cache=cache)

    def batch() -> Any:
        return run_jobs(
            _barbarian_health, [()], runner, "health", lambda args: ("stonespine", "health"), lambda args: int
        ).results[0]

    bundled = batch()
    health = _stonespine_health()
    assert bundled == health
    changed = DataInForce(
        "stonespine",
        "d.json",
        canonical_text({"extends": "bundled", "heroes": {"Barbarian": {"health": health + 4}}}),
    )
    with data_in_force([changed]):
        assert batch() == health + 4  # not the bundled answer from the cache
    assert batch() == health  # and the bundled run is not answered from the changed one
    with data_in_force([changed]):
        assert batch() == health + 4
    assert cache.computed == ["health", "health"] and cache.reused == ["health", "health"]


def test_ambiguities_runs_a_scenario_under_data(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    health = _stonespine_health()
    path = write(
        tmp_path,
        {"extends": "bundled", "game": "stonespine", "heroes": {"Barbarian": {"health": health + 5}}},
    )

    def run(workers: str, cache: str, *data: str) -> dict[str, Any]:
        argv = ["ambiguities", "example:stonespine/default", "--json", "--no-fixtures", "--workers", workers]
        ran = run_invasion(capsys, *argv, "--cache-dir", str(tmp_path / cache), *data)
        assert ran.returncode == 0, ran.stderr
        return {k: v for k, v in json.loads(ran.stdout).items() if k != "command"}

    base = run(
        "1",
        "cache",
    )
    under = run("1", "cache", "--data", path)
    again = run("1", "cache")  # the cache holds both: each run reads back its own data's answers
    assert base != under
    assert again == base
    # a pool's processes run under the data too (a cache of their own: nothing read back)
    assert run("2", "pool-cache", "--data", path) == under


def test_rulings_under_data_finds_a_witness_that_stops_parting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    heroes = {h["name"]: {"health": 99} for h in bundled_json("stonespine")["heroes"]}
    path = write(tmp_path, {"extends": "bundled", "game": "stonespine", "heroes": heroes})
    argv = ["rulings", "--game", "stonespine", "--json", "--workers", "1", "--no-cache"]
    base = json.loads(run_invasion(capsys, *argv).stdout)["answer"]
    under = json.loads(run_invasion(capsys, *argv, "--data", path).stdout)["answer"]
    complete = lambda answer: {r["id"]: r["witnesses"]["complete"] for r in answer}  # noqa: E731
    assert complete(base) != complete(under)


def test_report_under_data_differs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Spirit Island: the game whose report without searches is the quickest (~0.3 s against
    # Vul'Keth's ~1.4 s); its rulings' witnesses replay under the town's health.
    health = _town_health()
    path = write(tmp_path, {"extends": "bundled", "pieces": {"town": {"health": health + 1}}})
    argv = [
        "report",
        "--no-search",
        "--no-long",
        "--game",
        "spirit-island",
        "--no-fixtures",
        "--workers",
        "1",
        "--no-cache",
        "--json",
    ]
    base = run_invasion(capsys, *argv)
    under = run_invasion(capsys, *argv, "--data", path)
    assert base.returncode == under.returncode == 0, under.stderr
    # the answers, not the command line (which names --data), differ
    assert json.loads(base.stdout)["answer"] != json.loads(under.stdout)["answer"]


def test_data_for_a_game_the_command_does_not_run_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, {"extends": "bundled", "game": "vulketh", "values": {"player_members": 3}})
    ran = run_invasion(capsys, "rulings", "--game", "stonespine", "--data", path)
    assert ran.returncode == 2
    assert (
        ran.stderr.strip()
        == f"invasion: error: {path}:$.game: data for vulketh, but the command runs only stonespine"
    )
    unnamed = write(tmp_path, {"values": {"player_members": 3}}, "full.json")
    ran = run_invasion(capsys, "rulings", "--data", unnamed)
    assert ran.returncode == 2 and "which game is this data for?" in ran.stderr


def test_fixtures_generate_under_data_refuses_the_checkouts_suite(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, {"extends": "bundled", "game": "vulketh", "values": {"player_members": 3}})
    root = Path(io.__file__).resolve().parents[1]
    ran = run_invasion(
        capsys, "fixtures", "generate", "--check", "--dir", str(root / "fixtures"), "--data", path
    )
    assert ran.returncode == 2
    assert "with --data, give another --dir" in ran.stderr


def test_conform_expectations_are_the_oracles_under_the_data() -> None:
    from invasion_oracle.reports.conform.runner import load_cases
    from invasion_oracle.reports.conform.under_data import cases_under_data
    from invasion_oracle.reports.suite.oracle import play

    root = Path(io.__file__).resolve().parents[1]
    # Three groups, not the game's 472 cases (~5 s of replays): cases the Barbarian's health
    # changes, cases it does not, and choice cases (left out under --data).
    groups = ("stonespine/heroes/", "stonespine/hero-order/", "stonespine/moving/")
    cases = load_cases(root / "fixtures", ("stonespine",), groups)
    health = _stonespine_health()
    entry = DataInForce(
        "stonespine",
        "d.json",
        canonical_text({"extends": "bundled", "heroes": {"Barbarian": {"health": health + 5}}}),
    )
    under, left_out = cases_under_data(cases, [entry])
    assert left_out and len(under) + left_out == len(cases)
    before = {c.id: c for c in cases}
    changed = [c for c in under if c.variants != before[c.id].variants]
    assert changed and len(changed) < len(under)  # some expectations moved with the value, not all
    for case in changed:
        assert case.scenario["data"]["heroes"] == entry.document["heroes"], case.id
        for variant in case.variants:
            reply = play(
                spec("stonespine"),
                case.scenario,
                variant.readings_map,
                variant.answers,
                variant.start,
                case.projection,
            )
            assert reply.status == variant.result, case.id


def test_data_in_force_goes_under_a_scenarios_own_data() -> None:
    """The worked example carries its own action cards; the data in force still changes a value
    the scenario does not give, and the scenario's cards still apply (its outcome differs from the
    bundled run both ways)."""
    members = _player_members()
    base = outcome("example:vulketh/worked_example")
    with io.under_data({"extends": "bundled", "values": {"player_members": members}}, "vulketh"):
        assert outcome("example:vulketh/worked_example") == base
    with io.under_data({"extends": "bundled", "values": {"player_members": members + 3}}, "vulketh"):
        assert outcome("example:vulketh/worked_example") != base


def test_removing_an_unknown_card_suggests_the_close_ids(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first = bundled_json("vulketh")["action_cards"]["cards"][0]["id"]
    typo = first + "x"
    path = write(tmp_path, {"extends": "bundled", "remove": {"action_cards": [typo]}})
    ran = run_invasion(capsys, "simulate", "example:vulketh/solo_game", "--data", path)
    assert ran.returncode == 2
    assert (
        f"{path}:$.remove.action_cards[0]: no bundled Invader Action card {typo!r} (did you mean"
        in ran.stderr
    )
    assert first in ran.stderr.split("did you mean", 1)[1]


def test_a_scenarios_own_data_is_built_once_per_data_in_force() -> None:
    """Loading a scenario with data of its own again (each reading of each ruling, in ``fixtures
    generate`` and ``invasion changes``) reuses its built data; other data in force builds it
    afresh, with the value in force; a refused data is refused at each load, not remembered."""
    from invasion_oracle.model.core import reads
    from invasion_oracle.model.core.errors import MalformedInputError

    members = _player_members()
    first = io.load("example:vulketh/worked_example").raw.data
    assert io.load("example:vulketh/worked_example").raw.data is first
    more = {"extends": "bundled", "values": {"player_members": members + 3}}
    with io.under_data(more, "vulketh"):
        other = io.load("example:vulketh/worked_example").raw.data
        assert other is not first and other.value("player_members") == members + 3
    assert io.load("example:vulketh/worked_example").raw.data is first
    with io.under_data(more, "vulketh"):
        assert io.load("example:vulketh/worked_example").raw.data is other
        with reads.recording() as made:  # emptied for a recorded job, and the data in force read
            assert io.load("example:vulketh/worked_example").raw.data is not other
            assert io.load("example:vulketh/worked_example").raw.data.value("player_members") == members + 3
        assert reads.Read("vulketh", None, reads.WHOLE) in made
    examples = Path(__file__).resolve().parents[2] / "examples" / "vulketh"
    document = json.loads((examples / "worked_example.json").read_text(encoding="utf-8"))
    document["data"]["values"] = {"warlords_to_win": 6}  # refused by the data's build itself
    for _ in range(2):
        with pytest.raises(
            MalformedInputError, match=r"w\.json:\$\.data\.values\.warlords_to_win: 6 Warlords"
        ):
            spec("vulketh").load(document, "w.json", ScenarioOptions())

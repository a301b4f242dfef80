"""Issue 34's "done when", from the installed wheel (run by .ci/wheel-test, outside the checkout).

    PYTHON_OF_THE_WHEEL_VENV .ci/wheel_changes.py INVASION_COMMAND

For each game: a one-field override (a hero's or unit's stat, a guardian's or faction's ability, a
dice face) lists, with ``invasion changes``, exactly the conformance
cases whose outcome a replay of EVERY case of the game's installed suite (each variant's answers,
under the bundled data and under the override) finds changed; the bundled value again reports
"no change" and exits 0 under ``--check``; ``--check`` exits 1 on the change and 0 after
``--accept``; bad overrides (unknown id, unknown field, wrong type, a value the rules cannot use)
exit 2 with one located line. A Stonespine override moves the best placement of
``example:stonespine/placement.json`` and ``changes`` lists it with the old and new values.

The replay plays each variant the installed suite stores, with its answers; ``changes`` compares
expectations computed afresh. The two agree unless a change alters only which rulings a case
depends on or which answers the scenario's own deciders give (its expectation changes, the stored
answers' replies do not): ``changes`` lists such a case, this replay does not find it, so the
overrides here are ones whose every change shows in the replies. ``changes`` is run over the case
producers holding a case the replay finds changed (the list must match there exactly).

Only the installed package is imported (the checkout is not on the path: this file's folder is,
and it holds no package).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from invasion_oracle import under_data
from invasion_oracle.reports.fixtures import bundled_suite
from invasion_oracle.reports.suite.oracle import replayed

INVASION = sys.argv[1]

ONE_FIELD: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    # game, what is changed, the override, the same at the bundled value
    (
        "stonespine",
        "a hero's Health (the Templar)",
        {"heroes": {"Templar": {"health": 5}}},
        {"heroes": {"Templar": {"health": 4}}},
    ),
    (
        "spirit-island",
        "a unit's Health (City)",
        {"pieces": {"city": {"health": 4}}},
        {"pieces": {"city": {"health": 3}}},
    ),
    (
        "vulketh",
        "a dice face (sun faces per die)",
        {"dice_faces": {"sun": 3, "moon": 2, "blank": 1}},
        {"dice_faces": {"sun": 2, "moon": 2, "blank": 2}},
    ),
    (
        "vulketh",
        "a faction's ability (the Vul'Keth's Pillage)",
        {"values": {"pillage_resources": 2}},
        {"values": {"pillage_resources": 1}},
    ),
    (
        "cloudspire",
        "a critical hit's damage (the dice)",
        {"values": {"crit_damage": 3}},
        {"values": {"crit_damage": 2}},
    ),
]
# INVASION_WHEEL_CHANGES=whole: every case and search of the game, not only the producers concerned
# (much longer); =skip: none of this (the default run: about 2 minutes of the wheel test, load 2)
WHOLE = os.environ.get("INVASION_WHEEL_CHANGES") == "whole"

# game, override, what the one line says after FILE: (unknown id, unknown field, wrong type, unusable value)
BAD: list[tuple[str, dict[str, Any], str]] = [
    ("stonespine", {"heroes": {"Barbarain": {"health": 5}}}, "$.heroes.Barbarain: no bundled hero card"),
    (
        "stonespine",
        {"heroes": {"Barbarian": {"helth": 5}}},
        "$.heroes.Barbarian.helth: unknown field 'helth'",
    ),
    (
        "stonespine",
        {"heroes": {"Barbarian": {"health": "5"}}},
        "$.heroes.Barbarian.health: '5' is not of type",
    ),
    ("stonespine", {"heroes": {"Barbarian": {"health": 0}}}, "$.heroes.Barbarian.health: 0 is less than"),
    ("spirit-island", {"pieces": {"towne": {"health": 3}}}, "$.pieces.towne: unknown piece 'towne'"),
    ("spirit-island", {"pieces": {"town": {"helth": 3}}}, "$.pieces.town.helth: unknown field 'helth'"),
    ("spirit-island", {"pieces": {"town": {"health": "2"}}}, "$.pieces.town.health: '2' is not of type"),
    ("spirit-island", {"pieces": {"town": {"health": 0}}}, "$.pieces.town.health: 0 is less than"),
    ("vulketh", {"action_cards": {"1z": {"deck": 2}}}, "$.action_cards.1z:"),
    ("vulketh", {"action_cards": {"1a": {"dek": 2}}}, "$.action_cards.1a.dek: unknown field 'dek'"),
    ("vulketh", {"action_cards": {"1a": {"deck": "two"}}}, "$.action_cards.1a.deck: 'two' is not one of"),
    ("vulketh", {"values": {"warlords_to_win": 0}}, "$.values.warlords_to_win: must be at least 1"),
    ("cloudspire", {"conflict": {"Aurora-01": {"enemy": {"health": 3}}}}, "$.conflict.Aurora-01: no bundled"),
    (
        "cloudspire",
        {"conflict": {"Aurora-1": {"enemy": {"helth": 3}}}},
        "$.conflict.Aurora-1.enemy.helth: unknown",
    ),
    (
        "cloudspire",
        {"conflict": {"Aurora-1": {"enemy": {"health": "x"}}}},
        "$.conflict.Aurora-1.enemy.health: 'x'",
    ),
    ("cloudspire", {"values": {"hit_damage": 0}}, "$.values.hit_damage: hit_damage must be from 1 to 99"),
]


def fail(message: str) -> None:
    print(f"wheel test (changes): {message}", file=sys.stderr)
    sys.exit(1)


def invasion(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([INVASION, *words], capture_output=True, text=True, check=False)


def write(folder: Path, name: str, document: dict[str, Any]) -> str:
    path = folder / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def suite_cases(game: str) -> list[dict[str, Any]]:
    """Every case of the game in the suite installed with the wheel."""
    suite = bundled_suite()
    if suite is None:
        fail("the suite installed with the wheel was not found")
    assert suite is not None
    return [
        case
        for path in sorted((suite / game).glob("*.cases.json"))
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]
    ]


def replayed_changes(game: str, override: dict[str, Any]) -> set[str]:
    cases = suite_cases(game)
    before = replayed(game, cases)
    with under_data(override, game):
        after = replayed(game, cases)
    return {cid for cid in before if before[cid] != after[cid]}


def producers_of(game: str, ids: set[str]) -> list[str]:
    """The case producers (``--cases`` names) that make the cases ``ids``."""
    from invasion_oracle.reports.changes import producer_name
    from invasion_oracle.reports.suite.build import producers

    return sorted(
        producer_name(made)
        for made in producers(game)
        if any(f"{game}/{spec.group}/{spec.name}" in ids for spec in made())
    )


def one_field(folder: Path, game: str, what: str, change: dict[str, Any], same: dict[str, Any]) -> str:
    """``changes`` lists exactly what a replay of every case finds changed; the bundled value is no
    change; --check fails on the change and passes once accepted."""
    override = {"extends": "bundled", "game": game, **change}
    data = write(folder, f"{game}.json", override)
    replayed = replayed_changes(game, override)
    if not replayed:
        fail(f"{game} {what}: the override changes no case (choose another)")
    scope = [] if WHOLE else [w for name in producers_of(game, replayed) for w in ("--cases", name)]
    cache = str(folder / "cache")
    ran = invasion("changes", "--data", data, *scope, "--json", "--cache-dir", cache)
    if ran.returncode != 0:
        fail(f"{game} {what}: exit {ran.returncode}: {ran.stderr.strip()}")
    listed = set(json.loads(ran.stdout)["cases"])
    if listed != replayed:
        fail(f"{game} {what}: listed {sorted(listed)}, a replay of every case finds {sorted(replayed)}")
    unchanged = write(folder, f"{game}-same.json", {"extends": "bundled", "game": game, **same})
    quiet = invasion(
        "changes", "--data", unchanged, *scope, "--check", "--format", "text", "--cache-dir", cache
    )
    if quiet.returncode != 0 or "no change" not in quiet.stdout:
        fail(f"{game} {what} at the bundled value: exit {quiet.returncode}, {quiet.stdout[:300]!r}")
    base = str(folder / f"{game}-changes.json")
    common = ("changes", "--data", data, *scope, "--cache-dir", cache, "--format", "text")
    for extra, status in (
        (("--check",), 1),
        (("--baseline", base, "--accept"), 0),
        (("--baseline", base, "--check"), 0),
    ):
        got = invasion(*common, *extra)
        if got.returncode != status:
            fail(
                f"{game} {what}: changes {' '.join(extra)}: exit {got.returncode}, expected {status}: {got.stderr.strip()}"
            )
    return f"{game}, {what}: {len(listed)} case(s) in {len(scope) // 2 or 'every'} producer(s)"


def bad_overrides(folder: Path) -> None:
    for number, (game, change, said) in enumerate(BAD):
        data = write(folder, f"bad-{number}.json", {"extends": "bundled", "game": game, **change})
        ran = invasion("changes", "--data", data, "--cases", "witnesses")
        lines = ran.stderr.strip().splitlines()
        if (
            ran.returncode != 2
            or len(lines) != 1
            or not lines[0].startswith(f"invasion: error: {data}:")
            or said not in lines[0]
        ):
            fail(
                f"bad override {change} ({game}): exit {ran.returncode}, stderr {ran.stderr!r}; expected one line with {said!r}"
            )


def placement_moves(folder: Path) -> None:
    data = write(
        folder, "minions.json", {"extends": "bundled", "game": "stonespine", "values": {"minion_damage": 4}}
    )
    ran = invasion("changes", "--data", data, "--searches", "stonespine/place", "--json")
    if ran.returncode != 0:
        fail(f"placement: exit {ran.returncode}: {ran.stderr.strip()}")
    place = json.loads(ran.stdout)["searches"].get("stonespine/place")
    plain = json.loads(invasion("stonespine", "place", "example:stonespine/placement.json", "--json").stdout)[
        "answer"
    ]
    if place is None or place["old"]["best"] != plain["best"] or place["new"]["best"] == place["old"]["best"]:
        fail(f"placement: the best placement's change is not listed: {place}")
    text = invasion("changes", "--data", data, "--searches", "stonespine/place", "--format", "text").stdout
    if f"$.best: {place['old']['best']} -> {place['new']['best']}" not in text:
        fail(f"placement: the text does not say $.best old -> new:\n{text}")


def main() -> int:
    if os.environ.get("INVASION_WHEEL_CHANGES") == "skip":  # minutes on two shared cores: a quick local run
        print("wheel test: changes proofs skipped (INVASION_WHEEL_CHANGES=skip)")
        return 0
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        counts = [one_field(folder, *entry) for entry in ONE_FIELD]
        bad_overrides(folder)
        placement_moves(folder)
    print(
        "wheel test: changes lists exactly the cases a replay of every case finds changed ("
        + "; ".join(counts)
        + "), no change at the bundled value, --check/--accept, "
        + f"{len(BAD)} bad overrides refused in one line, the best placement's move listed"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

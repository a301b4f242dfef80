"""``invasion changes``: the HTML page (pictures before and after, side by side) and the rules a
change makes dead or alive, checked against what the bundled fixtures record."""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.core.jsonio import load_schema, validate
from tests.browser import Chromium
from tests.in_process import run_invasion

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ("invasion_oracle.reports", "schemas/answer-changes.schema.json")
LIMIT_FOUR = {"extends": "bundled", "game": "vulketh", "values": {"population_limit": 4}}
LIMIT_FIVE = {"extends": "bundled", "game": "vulketh", "values": {"population_limit": 5}}  # the bundled value


def _write(tmp_path: Path, name: str, document: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def warm_grow_move(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A result cache holding what the tests here compare: the Vul'Keth grow-move cases under the
    bundled data and with the population limit 4 (the limit 5 is the bundled value: its cases
    are the bundled ones, found by their reads). Each test works on a copy: computed once."""
    from invasion_oracle.reports.batch import Runner
    from invasion_oracle.reports.cache import JobCache
    from invasion_oracle.reports.changes import load_side, side_jobs, side_results
    from invasion_oracle.reports.cli import main

    folder = tmp_path_factory.mktemp("warm-grow-move")
    runner = Runner(workers=1, cache=JobCache(folder / "cache"))
    jobs = side_jobs(["vulketh"], ["grow-move"], [], long=False)
    side_results((), jobs, runner, main)
    side_results(
        load_side(_write(folder, "four.json", LIMIT_FOUR), "--data", ["vulketh"]), jobs, runner, main
    )
    return folder / "cache"


def _changes(capsys: pytest.CaptureFixture[str], tmp_path: Path, *words: str) -> Any:
    ran = run_invasion(capsys, "changes", *words, "--cache-dir", str(tmp_path / "cache"))
    assert ran.returncode == 0, ran.stderr
    return ran


def _warm(warm: Path, tmp_path: Path) -> None:
    """The warm cache copied where :func:`_changes` looks (the test's own: it may add to it)."""
    shutil.copytree(warm, tmp_path / "cache")


def _grow_move_cases_naming(card: str) -> set[str]:
    """The bundled grow-move cases whose recorded events (any reading that plays) name ``card``."""
    document = json.loads(
        (ROOT / "fixtures" / "vulketh" / "grow-move.cases.json").read_text(encoding="utf-8")
    )
    return {
        case["id"]
        for case in document["cases"]
        for variant in case["expect"]
        if variant["result"] == "ok"
        for outcome in variant["one_of"]
        for event in outcome["events"]
        if event.get("card") == card
    }


def test_a_card_no_case_can_play_any_more_is_dead_and_alive_again_the_other_way(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, warm_grow_move: Path
) -> None:
    _warm(warm_grow_move, tmp_path)
    four, five = _write(tmp_path, "four.json", LIMIT_FOUR), _write(tmp_path, "five.json", LIMIT_FIVE)
    answer = json.loads(_changes(capsys, tmp_path, "--data", four, "--cases", "grow-move", "--json").stdout)
    validate(answer, load_schema(*SCHEMA), "answer")
    naming = _grow_move_cases_naming("grow-high")
    assert naming  # the bundled suite plays the card
    dead = answer["rules"]["vulketh/card:grow-high"]
    assert dead["kind"] == "dead" and dead["rule"] == "card" and dead["name"] == "grow-high"
    assert dead["cases"] == len(naming) and set(dead["by"]) <= naming
    for cid in naming:  # every case that played it no longer plays
        assert answer["cases"][cid]["kind"] == "became-illegal"
    assert answer["summary"]["vulketh"]["rules_dead"] == sum(
        1 for r in answer["rules"].values() if r["kind"] == "dead"
    )
    back = json.loads(
        _changes(capsys, tmp_path, "--data", five, "--against", four, "--cases", "grow-move", "--json").stdout
    )
    alive = back["rules"]["vulketh/card:grow-high"]
    assert alive["kind"] == "alive" and alive["cases"] == len(naming)
    assert {k for k, r in back["rules"].items() if r["kind"] == "alive"} == {
        k for k, r in answer["rules"].items() if r["kind"] == "dead"
    }
    text = _changes(capsys, tmp_path, "--data", four, "--cases", "grow-move", "--format", "md").stdout
    assert "## Rules dead or alive" in text and "dead: vulketh card `grow-high`" in text
    junit = _changes(capsys, tmp_path, "--data", four, "--cases", "grow-move", "--format", "junit").stdout
    assert 'classname="changes.rule" name="vulketh/card:grow-high"' in junit


def test_rules_from_sections_rulings_events_and_damage_sources() -> None:
    from invasion_oracle.reports.changes import Results, compare

    def case(result: str, depends_on: list[str], events: list[dict[str, Any]]) -> dict[str, Any]:
        variant: dict[str, Any] = {"readings": {}, "answers": [], "from": 0, "result": result}
        variant.update({"one_of": [{"events": events}]} if result == "ok" else {"reason": "no"})
        return {"section": "s", "depends_on": depends_on, "rule_refs": ["Heading A"], "expect": [variant]}

    hit = {"event": "hero_damaged", "parts": ["Barbarian:2", "bear:1"]}
    old = Results({"stonespine/t/a": case("ok", [], [hit])}, {})
    new = Results({"stonespine/t/a": case("refused", ["SS-X"], [])}, {})
    answer = compare(old, new, ["stonespine"], ("bundled", "new.json"))
    assert {k: r["kind"] for k, r in answer["rules"].items()} == {
        "stonespine/damage-source:Barbarian": "dead",
        "stonespine/damage-source:bear": "dead",
        "stonespine/event:hero_damaged": "dead",
        "stonespine/ruling:SS-X": "alive",
        "stonespine/section:Heading A": "dead",
    }
    assert answer["summary"]["stonespine"]["rules_dead"] == 4
    assert answer["summary"]["stonespine"]["rules_alive"] == 1
    same = compare(old, old, ["stonespine"], ("bundled", "same.json"))
    assert same["rules"] == {} and same["no_change"]


def _pictures(page: str, cid: str) -> list[str]:
    """The SVGs of the before/after pair under a case's heading."""
    start = page.index(f"<code>{cid}</code></h3>")
    end = page.find("<h3", start + 1)
    block = page[start : end if end > 0 else len(page)]
    pair = re.search(r'<div class="pair">(.*?)</div>\s*$', block, re.S) or re.search(
        r'<div class="pair">(.*)', block, re.S
    )
    assert pair is not None, f"no pair of pictures under {cid}"
    return [
        base64.b64decode(data).decode("utf-8")
        for data in re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', pair.group(1))
    ]


def test_the_html_page_summary_first_then_each_case_before_and_after_side_by_side(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, warm_grow_move: Path
) -> None:
    _warm(warm_grow_move, tmp_path)
    four = _write(tmp_path, "four.json", LIMIT_FOUR)
    answer = json.loads(_changes(capsys, tmp_path, "--data", four, "--cases", "grow-move", "--json").stdout)
    out = tmp_path / "changes.html"
    ran = _changes(
        capsys, tmp_path, "--data", four, "--cases", "grow-move", "--format", "html", "--out", str(out)
    )
    page = out.read_text(encoding="utf-8")
    assert ran.stdout == page
    assert page.startswith("<!DOCTYPE html>") and page.index('id="summary"') < page.index('id="cases"')
    assert page.index('id="cases"') < page.index('id="rules"')
    # self-contained: no script, nothing fetched from elsewhere
    assert "<script" not in page and not re.search(r'(src|href)="(?!data:|#)', page)
    summary = page[page.index('id="summary"') : page.index('id="cases"')]
    counts = answer["summary"]["vulketh"]
    assert (
        f"<td>{counts['became-illegal']}</td>" in summary
        and f"<td>{counts['cases_compared']}</td>" in summary
    )
    for cid in answer["cases"]:
        assert f"<code>{cid}</code></h3>" in page
    (changed,) = [cid for cid, c in answer["cases"].items() if c["kind"] == "changed"]
    before, after = _pictures(page, changed)
    assert before.startswith("<svg") and after.startswith("<svg") and before != after
    assert "Legend" in before and changed in before  # the game's picture of that case, legend included
    illegal = next(cid for cid, c in answer["cases"].items() if c["kind"] == "became-illegal")
    assert len(_pictures(page, illegal)) == 1  # only the old side plays; the new says why not
    assert "at most 4 Invaders fit in a hex" in page
    again = _changes(capsys, tmp_path, "--data", four, "--cases", "grow-move", "--format", "html").stdout
    assert again == page  # deterministic (the second run from the cache)


def test_no_change_in_html(capsys: pytest.CaptureFixture[str], tmp_path: Path, warm_grow_move: Path) -> None:
    _warm(warm_grow_move, tmp_path)
    five = _write(tmp_path, "five.json", LIMIT_FIVE)
    page = _changes(capsys, tmp_path, "--data", five, "--cases", "grow-move", "--format", "html").stdout
    assert "<strong>no change</strong>" in page and 'id="cases"' not in page


BAD_OVERRIDES: list[tuple[str, str, dict[str, Any], str]] = [
    # game, what is wrong, override, what the one line says after the file's name
    (
        "stonespine",
        "unknown id",
        {"heroes": {"Barbarain": {"health": 5}}},
        "$.heroes.Barbarain: no bundled hero",
    ),
    (
        "stonespine",
        "unknown field",
        {"heroes": {"Barbarian": {"helth": 5}}},
        "$.heroes.Barbarian.helth: unknown",
    ),
    ("stonespine", "wrong type", {"heroes": {"Barbarian": {"health": "5"}}}, "'5' is not of type 'integer'"),
    ("stonespine", "unusable", {"heroes": {"Barbarian": {"health": 0}}}, "0 is less than the minimum of 1"),
    ("spirit-island", "unknown id", {"pieces": {"towne": {"health": 3}}}, "$.pieces.towne: unknown piece"),
    (
        "spirit-island",
        "unknown field",
        {"pieces": {"town": {"helth": 3}}},
        "$.pieces.town.helth: unknown field",
    ),
    ("spirit-island", "wrong type", {"pieces": {"town": {"health": "2"}}}, "'2' is not of type 'integer'"),
    ("spirit-island", "unusable", {"pieces": {"town": {"health": 0}}}, "0 is less than the minimum of 1"),
    ("vulketh", "unknown id", {"action_cards": {"1z": {"deck": 2}}}, "$.action_cards.1z:"),
    (
        "vulketh",
        "unknown field",
        {"action_cards": {"1a": {"dek": 2}}},
        "$.action_cards.1a.dek: unknown field",
    ),
    ("vulketh", "wrong type", {"action_cards": {"1a": {"deck": "two"}}}, "'two' is not one of [1, 2, 3]"),
    (
        "vulketh",
        "unusable",
        {"values": {"warlords_to_win": 0}},
        "$.values.warlords_to_win: must be at least 1",
    ),
    (
        "cloudspire",
        "unknown id",
        {"conflict": {"Aurora-01": {"enemy": {"health": 3}}}},
        "no bundled conflict",
    ),
    (
        "cloudspire",
        "unknown field",
        {"conflict": {"Aurora-1": {"enemy": {"helth": 3}}}},
        "enemy.helth: unknown",
    ),
    (
        "cloudspire",
        "wrong type",
        {"conflict": {"Aurora-1": {"enemy": {"health": "x"}}}},
        "'x' is not of type",
    ),
    ("cloudspire", "unusable", {"values": {"hit_damage": 0}}, "hit_damage must be from 1 to 99, got 0"),
]


@pytest.mark.parametrize(
    ("game", "wrong", "override", "said"), BAD_OVERRIDES, ids=[f"{b[0]}-{b[1]}" for b in BAD_OVERRIDES]
)
@pytest.mark.parametrize("side", ["--data", "--against"])
def test_a_bad_override_stops_changes_with_one_located_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    game: str,
    wrong: str,
    override: dict[str, Any],
    said: str,
    side: str,
) -> None:
    bad = _write(tmp_path, "bad.json", {"extends": "bundled", "game": game, **override})
    good = _write(tmp_path, "good.json", {"extends": "bundled", "game": game})
    other = "--against" if side == "--data" else "--data"
    ran = run_invasion(capsys, "changes", side, bad, other, good, "--cache-dir", str(tmp_path / "c"))
    assert ran.returncode == 2 and ran.stdout == ""
    lines = ran.stderr.splitlines()
    assert len(lines) == 1, ran.stderr
    assert lines[0].startswith(f"invasion: error: {bad}:$.") and said in lines[0], lines[0]


PAIR_CHECK = """<script>
window.addEventListener("load", () => {
  const images = [...document.images];
  const broken = images.filter((i) => !(i.complete && i.naturalWidth > 0)).length;
  const pairs = [...document.querySelectorAll(".pair")];
  const apart = pairs.filter((p) => {
    const [a, b] = p.querySelectorAll("figure");
    return !(a && b && a.offsetTop === b.offsetTop && b.offsetLeft > a.offsetLeft + a.offsetWidth / 2);
  }).length;
  document.body.setAttribute("data-pair-check", `images=${images.length} broken=${broken} pairs=${pairs.length} apart=${apart}`);
});
</script>"""


def test_headless_chromium_shows_each_pair_side_by_side(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, warm_grow_move: Path, chromium: Chromium
) -> None:
    _warm(warm_grow_move, tmp_path)
    four = _write(tmp_path, "four.json", LIMIT_FOUR)
    page = _changes(capsys, tmp_path, "--data", four, "--cases", "grow-move", "--format", "html").stdout
    images, pairs = page.count("<img "), page.count('<div class="pair">')
    checked = tmp_path / "checked.html"
    checked.write_text(page.replace("</body>", PAIR_CHECK + "</body>"), encoding="utf-8")
    check = chromium.check(checked.as_uri(), "data-pair-check")  # in a 1200 x 1600 window
    assert check == f"images={images} broken=0 pairs={pairs} apart=0"
    assert images > pairs > 0

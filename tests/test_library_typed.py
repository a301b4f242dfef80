"""The library is typed for its users: ``mypy --strict`` on a user script that calls every public
search sees the solver's concrete answer types (``assert_type``), and a misspelled field or
outcome key is an error, not ``Any`` passing silently (issue 36)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Type-checked only, never run (the searches would take a minute): mypy proves each name exists.
USER_SCRIPT = """
from fractions import Fraction
from typing import assert_type

import invasion_oracle as io
from invasion_oracle import cloudspire, spirit_island, stonespine, vulketh
from invasion_oracle.solver.cloudspire.engagement import EngagementAnswer
from invasion_oracle.solver.cloudspire.spire_cover import SpireCoverAnswer
from invasion_oracle.solver.cloudspire.survival import SurvivalAnswer
from invasion_oracle.solver.spirit_island.cascade import CardCascades, CascadeAnswer
from invasion_oracle.solver.spirit_island.defend import DefendPlan
from invasion_oracle.solver.spirit_island.fear_threshold import FearPlan, FightBackPlan
from invasion_oracle.solver.spirit_island.island_search import Facts, Flip
from invasion_oracle.solver.stonespine.answers import (
    CountAnswer,
    FillAnswer,
    GeneratedAnswer,
    HealthAnswer,
    PolicyAnswer,
    RoutesAnswer,
    WaveAnswer,
)
from invasion_oracle.solver.stonespine.plan import PlanAnswer
from invasion_oracle.solver.vulketh.clear import ClearAnswer
from invasion_oracle.solver.vulketh.differ import DifferAnswer
from invasion_oracle.solver.vulketh.race import RaceAnswer


def stonespine_searches(s: io.Scenario) -> list[object]:
    placed = assert_type(stonespine.place(s), stonespine.PicturedPlacement)
    best: Fraction | int | None = placed.best
    svg: str | None = placed.svg()
    wave = assert_type(stonespine.wave(s, ["red", "red"]), WaveAnswer)
    routes = assert_type(stonespine.routes(s, "red"), RoutesAnswer)
    count = assert_type(stonespine.min_damage(s, ["red"]), CountAnswer)
    health = assert_type(stonespine.min_damage(s, ["red"], what="health"), HealthAnswer)
    plan = assert_type(stonespine.policy(s, "trophy", 4), stonespine.PolicyPlan)
    assert_type(plan.answer, PolicyAnswer)
    filled = assert_type(stonespine.escape(s, "red", ["kobold"]), FillAnswer)
    generated = assert_type(stonespine.escape_generated(s, "red", rows=2, columns=2), GeneratedAnswer)
    year = assert_type(stonespine.plan(s, "score"), PlanAnswer)
    return [
        best, svg, wave.defeated, routes.can_be_defeated, count.count, health.health,
        plan.answer.value, filled.found, generated.tried, year.best_expected, year.replayed,
    ]


def other_searches(island: io.Scenario, race: io.Scenario, fight: io.Scenario) -> list[object]:
    fear = assert_type(spirit_island.fear_threshold("T E", fear=1), FearPlan)
    back = assert_type(spirit_island.fight_back("T E", dahan=1), FightBackPlan)
    defend = assert_type(spirit_island.defend("T E 2D"), DefendPlan)
    paths = assert_type(spirit_island.cascade(island, "A1"), CascadeAnswer)
    card = assert_type(spirit_island.card_cascades(island, "1M"), CardCascades)
    facts = assert_type(spirit_island.lands(island), Facts)
    flip = assert_type(spirit_island.flip(island, "1:explore:A4"), Flip)
    fewest = assert_type(vulketh.race(race), RaceAnswer)
    cleared = assert_type(vulketh.clear(race, hex=7, members=4), ClearAnswer)
    differ = assert_type(vulketh.differ("VK-GROW-OVERFLOW"), DifferAnswer)
    engaged = assert_type(cloudspire.engagement(fight), EngagementAnswer)
    survived = assert_type(cloudspire.survive(fight, rounds=1), SurvivalAnswer)
    spires = assert_type(cloudspire.spires(fight, bound=2), SpireCoverAnswer)
    return [
        fear.damage, back.value, defend.defend, paths.presence, card.lands, facts.verdicts,
        flip.cost, fewest.fewest, cleared.members, differ.position, engaged.plans,
        survived.probability, spires.fewest,
    ]


def outcomes(s: io.Scenario) -> list[object]:
    outcome = assert_type(s.play().outcome(), io.Outcome)
    stage: str = outcome["stage"]
    return [stage, outcome["players"], outcome["year"], s.new_game().outcome()["heroes"]]
"""

# Each line a misspelling mypy must refuse: (the line's text, what mypy says about it).
MISSPELLED = [
    ("stonespine.place(s).bestt", 'has no attribute "bestt"'),
    ("stonespine.plan(s).best_expectd", 'has no attribute "best_expectd"'),
    ("spirit_island.fear_threshold('T E', fear=1).damagee", 'has no attribute "damagee"'),
    ("vulketh.differ('VK-GROW-OVERFLOW').positon", 'has no attribute "positon"'),
    ("cloudspire.survive(s).probabilty", 'has no attribute "probabilty"'),
    ('s.play().outcome()["stagee"]', '"stagee"'),
]


def _misspelled_script() -> str:
    body = "\n".join(f"    print({line})" for line, _ in MISSPELLED)
    return (
        "import invasion_oracle as io\n"
        "from invasion_oracle import cloudspire, spirit_island, stonespine, vulketh\n\n\n"
        f"def misspelled(s: io.Scenario) -> None:\n{body}\n"
    )


def test_mypy_strict_sees_every_search_typed_and_refuses_misspelled_fields() -> None:
    # The scripts at a fixed place: mypy's cache (below) knows a module by its name and reuses
    # its errors while the text is the same, with the path it had then.
    cache = ROOT / ".mypy_cache"
    scripts = cache / "library-typed"
    scripts.mkdir(parents=True, exist_ok=True)
    good, bad = scripts / "user_script.py", scripts / "misspelled.py"
    good.write_text(textwrap.dedent(USER_SCRIPT).lstrip(), encoding="utf-8")
    bad.write_text(_misspelled_script(), encoding="utf-8")
    # One run on both files (mypy is slow); the project's config for the package's own imports
    # (z3 and friends have no stubs), and the package read through the package view (cwd), as
    # `make lint` reads it: mypy does not run the editable install's import hook. `make lint`'s
    # cache too (same config, same view): mypy checks again every module whose text changed, and
    # what depends on it; a fresh cache per run cost ~9 s of CPU, an eighth of `make test`.
    view = subprocess.run(
        [str(ROOT / ".ci" / "package-view")], capture_output=True, text=True, check=True
    ).stdout.strip()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(cache),
            "--no-error-summary",
            str(good),
            str(bad),
        ],
        cwd=view,
        capture_output=True,
        text=True,
        timeout=900,
    )
    # (by file name: a cached module's errors keep the path it had, were the checkout moved)
    lines = [(Path(line.split(":", 1)[0]).name, line) for line in done.stdout.splitlines()]
    assert not [line for name, line in lines if name == good.name], done.stdout + done.stderr
    errors = [line for name, line in lines if name == bad.name and ": error:" in line]
    for number, (text, said) in enumerate(MISSPELLED, start=6):
        assert any(line.split(":")[1] == str(number) and said in line for line in errors), (
            f"mypy let `{text}` pass:\n{done.stdout}{done.stderr}"
        )
    assert len(errors) == len(MISSPELLED), done.stdout
    assert done.returncode == 1, done.stdout + done.stderr


def test_the_misspellings_are_real_mistakes_at_run_time() -> None:
    """The names the script misspells are the answers' real ones (so the mypy test means something)."""
    import invasion_oracle as io
    from invasion_oracle import spirit_island

    plan = spirit_island.fear_threshold("T E", fear=1)
    assert plan.damage == 2 and not hasattr(plan, "damagee")
    outcome = io.load("example:stonespine/default").play().outcome()
    assert outcome["stage"] == "done" and "stagee" not in outcome


def test_dir_and_all_list_the_whole_api() -> None:
    """Notebook completion reads ``dir()``: the lazily loaded names (``load``, the search modules)
    are in it, and ``__all__`` names every public function, class and module."""
    import invasion_oracle as io

    assert set(io.__all__) <= set(dir(io))
    assert {"load", "replay", "Scenario", "Outcome", "stonespine", "vulketh"} <= set(io.__all__)
    from invasion_oracle import cloudspire, spirit_island, stonespine, vulketh

    searches = {
        name for module in (stonespine, spirit_island, vulketh, cloudspire) for name in module.__all__
    }
    assert {"plan", "escape", "fight_back", "defend", "cascade", "flip", "differ"} <= searches

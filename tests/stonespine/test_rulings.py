"""Every Stonespine ruling, each reading tested on its witness scenario.

A witness (``examples/stonespine/rulings/<ID>.json``) is built so that the readings of its
ruling give different outcomes; for each reading we check the fact that reading implies.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import invasion_oracle.model.stonespine  # noqa: F401  (registers the rulings)
from invasion_oracle.model import registry
from invasion_oracle.model.core.ambiguity import ReadingSummary, summarize_readings
from invasion_oracle.model.core.jsonio import read_json_file
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.model.stonespine.simulate import summary

WITNESSES = Path(__file__).resolve().parents[2] / "examples" / "stonespine" / "rulings"

# ruling -> reading -> fragments the outcome summary must contain
EXPECTED: dict[str, dict[str, tuple[str, ...]]] = {
    "SS-EXIT-Y13": {"forced": ("escaped red@A2(exit)",), "ignored": ("defeated red@B2",)},
    "SS-EXIT-CHAMBER": {"bottom-opening": ("defeated red@B2",), "any-card": ("escaped red@A2(exit)",)},
    "SS-EXIT-DEFEATED": {
        "escapes": ("defeated black@A2;", "escaped red@A2(exit)"),
        "no-escape": ("defeated black@A2 red@B2", "trophies y2:4"),
    },
    "SS-ENTRY-UNCONNECTED": {
        "escape": ("escaped red@entrance(no-entry)", "xp 1"),
        "enter-anyway": ("defeated red@A1",),
    },
    "SS-PASSAGE": {"edge": ("escaped red@A1(no-new-chamber)",), "bridge": ("defeated red@A2",)},
    "SS-DICE-FACES": {"two-per-colour": ("purple=6",), "gray-half-blank": ("purple=5",)},
    "SS-TROPHY-VALUES": {"by-two": ("trophies y2:4",), "by-one": ("trophies y2:2",)},
    "SS-DEMERIT-VALUES": {"minus-year": ("demerits y3:3",), "minus-two-per-year": ("demerits y3:6",)},
    "SS-SIMULTANEOUS": {"entry-snapshot": ("defeated black@A1",), "ability-first": ("escaped black@A2",)},
    "SS-PURPLE-SCOPE": {"all-damage": ("defeated -",), "element-damage": ("defeated purple@A2",)},
    "SS-PURPLE-FIRST": {"used-anyway": ("defeated purple@A3",), "only-when-damaged": ("defeated -",)},
    "SS-BLACK-DEFEATED": {
        "resolves": ("spaces A1:1 spike->rubble/spike",),
        "not-if-defeated": ("trophies y1:2; demerits - |",),
    },
    "SS-TROPHY-ZERO": {
        "allowed": ("Ann: defeated -; escaped -; xp 0; trophies y2:4",),
        "needs-one": ("Ann: defeated -; escaped -; xp 0; trophies -",),
    },
    "SS-RUBBLE-REMOVE": {"uncover": ("A1:1 rubble/kobold->kobold",), "clear": ("A1:1 rubble/kobold->empty",)},
    "SS-HEALTH-TOKENS": {"uncapped": ("red=9",), "cap-at-two": ("red=8",)},
    # 4 + 3 (or 4 + 2) bought cubes, a forced level-up at 5, then two heroes enter.
    "SS-XP-MARKET": {"per-purchase": ("xp 4; levels 1/0",), "per-player": ("xp 3; levels 1/0",)},
    "SS-MINIONS": {
        "all": ("error: all 1 unlocked minion(s) must be placed",),
        "optional": ("escaped red@A2",),
    },
    "SS-TROLL-MOVE": {
        "must": ("guardian moved to A2", "defeated red@A1 black@A2"),
        "may": ("defeated red@A1;",),
    },
    "SS-HYDRA-COLLAPSE": {
        "after-crossing": ("escaped red@A2(no-new-chamber)",),
        "never": ("defeated red@B1 red@B4",),
    },
    # Four bought cubes plus two heroes make six XP: a forced level-up for whoever bought first.
    "SS-IMPROVEMENT-ORDER": {
        "richest-first": (
            "Ann: defeated red@A1; escaped red@A2(no-new-chamber); xp 2;",
            "Bo: defeated red@A1; escaped red@A2(no-new-chamber); xp 1; levels",
        ),
        "priority-order": (
            "Ann: defeated red@A1; escaped red@A2(no-new-chamber); xp 1; levels",
            "Bo: defeated red@A1; escaped red@A2(no-new-chamber); xp 2;",
        ),
    },
    # The troll defeats red in its rubble chamber A1 and moves to A2, where black arrives next.
    "SS-GUARDIAN-FIRST": {
        "again": ("defeated red@A1 black@A2;", "guardian moved to A2"),
        "once-per-phase": ("defeated red@A1;", "escaped black@A2(no-new-chamber)"),
    },
    "SS-HERO-ABILITY-CHAMBER": {
        "dangerous-only": ("Ann: defeated black@A2; escaped -; xp 1; trophies y1:2; demerits - |",),
        "any-chamber": ("spaces A1:1 chest->rubble/chest",),
    },
    "SS-RUBBLE-ELEMENT": {
        "element": ("spaces A1:1 rubble/kobold->rubble/rubble/kobold",),
        "not-rubble": ("spaces A1:2 spike->rubble/spike",),
    },
    "SS-PACT-FACE-DOWN": {
        "revealed-only": ("escaped black@A2(no-new-chamber)",),
        "face-down-too": ("defeated black@A1",),
    },
    "SS-PASSAGE-OUTER": {
        "connects": ("defeated black@A1",),
        "inner-only": ("escaped black@entrance(no-entry)",),
    },
    "SS-TROLL-RUBBLE-REMOVE": {
        "removable": ("defeated black@A1", "spaces A1:1 troll-rubble/kobold->kobold"),
        "rubble-only": ("escaped black@A2(no-new-chamber)",),
    },
    "SS-CHANGED-TYPE-DAMAGE": {
        "deals-damage": ("defeated black@A1",),
        "type-only": ("escaped black@A2(no-new-chamber)",),
    },
    "SS-INSTANT-OPTIONAL": {
        "must": ("spaces A1:1 kobold->troll-rubble/kobold", "escaped black@A2"),
        "may": ("defeated black@A1",),
    },
    "SS-UNKNOWN-ONGOING": {
        "inert": ("defeated black@A1",),
        "refuse": (
            "error: ability 'gorgon-ongoing' (ongoing) of board Gorgon is not modelled; give it in a data file",
        ),
    },
}


def test_every_ruling_has_a_witness_and_expectations_for_every_reading() -> None:
    rulings = REGISTRY.all("stonespine")
    assert {r.id for r in rulings} == set(EXPECTED)
    for ruling in rulings:
        assert (WITNESSES / f"{ruling.id}.json").exists(), ruling.id
        assert set(EXPECTED[ruling.id]) == set(ruling.reading_names), ruling.id


def _summaries(ruling_id: str) -> tuple[ReadingSummary, ...]:
    """The witness under each reading, as the one-line fingerprint the fragments above match."""
    path = str(WITNESSES / f"{ruling_id}.json")
    return summarize_readings(
        registry.spec("stonespine"),
        read_json_file(path),
        path,
        ruling_id,
        lambda sc, p: summary(p, sc.initial),
    )


@pytest.mark.parametrize("ruling_id", sorted(EXPECTED))
def test_each_reading_gives_its_outcome(ruling_id: str) -> None:
    outcomes = _summaries(ruling_id)
    assert len({o.summary for o in outcomes}) > 1, f"{ruling_id}: the witness does not separate the readings"
    for outcome in outcomes:
        for fragment in EXPECTED[ruling_id][outcome.reading]:
            assert fragment in outcome.summary, (
                f"{ruling_id}={outcome.reading}: {fragment!r} not in {outcome.summary!r}"
            )

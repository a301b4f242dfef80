"""Every VK-* ruling: a witness scenario on which each reading gives its own outcome."""

from __future__ import annotations

from pathlib import Path

import pytest

import invasion_oracle.model.vulketh  # noqa: F401  (registers the rulings)
from invasion_oracle.model import registry
from invasion_oracle.model.core.ambiguity import ReadingSummary, summarize_readings
from invasion_oracle.model.core.jsonio import read_json_file
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.model.vulketh.simulate import summary

WITNESSES = Path(__file__).resolve().parents[2] / "examples" / "vulketh" / "rulings"

# Fragments of each reading's outcome fingerprint (see model.vulketh.simulate.summary).
EXPECTED: dict[str, dict[str, tuple[str, ...]]] = {
    "VK-MOVE-DEST": {"beyond-source": ("1:0p3iW 2:0p1i 3:0p2i",), "unused": ("1:0p5iW 2:0p1i 9",)},
    "VK-MOVE-HIGHEST": {"mirror": ("4:0p2i 5:0p1i 9",), "highest-first": ("5:0p1i 8:0p2i",)},
    "VK-GROW-OVERFLOW": {
        "occupied": ("supply 10", " 2:0p5i 6:0p5iW"),
        "occupied-then-any": ("1:0p2i 2:0p5i",),
        "next-hex": ("2:0p5i 3:0p2i",),
    },
    "VK-POWER-UNLOCK": {"by-count": ("player none", "2:2p3i"), "by-section": ("player 2F 1W", "2:0p1i")},
    "VK-CONVERT-RESERVE": {"costs-points": ("score 2", "reserve 4"), "free": ("score 3", "reserve 4")},
    "VK-CONVERT-EMPTY": {"member-stays": ("3:1p4i",), "member-removed": ("3:0p4i",)},
    "VK-CONVERT-CAP": {"skip": ("2:1p1i",), "exceed": ("2:0p2i",)},
    "VK-SPREAD-WARLORD": {"members-only": ("4:2p0i 9:0p0iW",), "warlord-counts": ("7:0p1i 8:0p1i",)},
    "VK-SCORE-FLOOR": {"zero": ("score 0",), "negative": ("score -2",)},
    "VK-CONFLICT": {
        "smallest-loses": ("5:2p1i",),
        "until-one-remains": ("5:1p0i",),
        "one-each": ("5:3p1i", "4:0p1i"),
    },
    "VK-APPEASE": {"return-to-board": ("undecided", "board war"), "out-of-game": ("invader-wins",)},
    "VK-WIPEOUT-OVERLAP": {"both": ("1:0p5iW",), "once": ("1:0p4iW",)},
    "VK-EVENT-TIMING": {"after-roll": ("5:0p1i",), "end-of-turn": ("5:3p1i",)},
}


def test_every_ruling_has_a_witness_and_expectations_for_every_reading() -> None:
    rulings = REGISTRY.all("vulketh")
    assert {r.id for r in rulings} == set(EXPECTED)
    for ruling in rulings:
        assert (WITNESSES / f"{ruling.id}.json").exists(), ruling.id
        assert set(EXPECTED[ruling.id]) == set(ruling.reading_names), ruling.id


def _summaries(ruling_id: str) -> tuple[ReadingSummary, ...]:
    """The witness under each reading, as the one-line fingerprint the fragments above match."""
    path = str(WITNESSES / f"{ruling_id}.json")
    return summarize_readings(
        registry.spec("vulketh"), read_json_file(path), path, ruling_id, lambda sc, p: summary(sc, p.final)
    )


@pytest.mark.parametrize("ruling_id", sorted(EXPECTED))
def test_each_reading_gives_its_own_outcome_on_the_witness(ruling_id: str) -> None:
    outcomes = _summaries(ruling_id)
    assert len({o.summary for o in outcomes}) == len(outcomes), (
        f"{ruling_id}: the witness does not give each reading its own outcome"
    )
    for outcome in outcomes:
        for fragment in EXPECTED[ruling_id][outcome.reading]:
            assert fragment in outcome.summary, (
                f"{ruling_id}={outcome.reading}: {fragment!r} not in {outcome.summary!r}"
            )

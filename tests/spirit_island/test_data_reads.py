"""Spirit Island's name lookups under ``invasion changes``: a card, board or Adversary found by
name through the data's index records the reads its answer depends on (the list's shape and the
matched item's name), the same in every job, whether or not an earlier job built the index."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.reads import recording
from invasion_oracle.model.spirit_island.data import GameData, default_data
from tests.in_process import run_invasion


def _lookup_reads(name: str) -> tuple[str, set[str]]:
    data = default_data()
    with recording() as reads:
        found = data.fear_card(name, source="test", path="$").name
    return found, {read.path for read in reads if read.game == "spirit-island"}


def test_an_exact_name_records_the_shape_and_the_matched_cards_name_in_every_job() -> None:
    names = [card.name for card in default_data().fear_cards]
    for position in (0, len(names) - 1):
        first = _lookup_reads(names[position])
        assert first == (names[position], {"fear_cards/#shape", f"fear_cards/{position}/name"})
        assert _lookup_reads(names[position]) == first  # the index is kept: the reads are not


def test_a_name_found_by_case_or_prefix_records_every_cards_name() -> None:
    names = [card.name for card in default_data().fear_cards]
    found, reads = _lookup_reads(names[1].upper())
    assert found == names[1]
    # another card's name could make it ambiguous or match exactly: each one is read
    assert {f"fear_cards/{i}/name" for i in range(len(names))} <= reads


def test_a_tuple_whose_names_repeat_gives_the_first_as_the_scan_did() -> None:
    data = default_data()
    first, second = data.fear_cards[0], data.fear_cards[1]
    twice = GameData(**{**_fields(data), "fear_cards": (first, second, replace(second, name=first.name))})
    assert twice.fear_card(first.name) is first
    assert twice.fear_card(second.name) is second
    with pytest.raises(MalformedInputError, match="unknown Fear card 'No Such Card'"):
        twice.fear_card("No Such Card", source="test", path="$")


def _fields(data: GameData) -> dict[str, Any]:
    return {name: getattr(data, name) for name in GameData.__dataclass_fields__}


def test_changes_refuses_a_fear_card_renamed_in_place(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # why a lookup need not read the names before the match: no data in force moves a name to
    # another card (a card given again keeps its place; a new name is a new card, a new shape)
    first = default_data().fear_cards[0].name
    override = {"extends": "bundled", "game": "spirit-island", "fear_cards": {first: {"name": "Renamed"}}}
    path = tmp_path / "renamed.json"
    path.write_text(json.dumps(override), encoding="utf-8")
    ran = run_invasion(capsys, "changes", "--data", str(path), "--cases", "fear", "--no-cache")
    assert ran.returncode == 2
    assert ran.stderr.strip() == (
        f"invasion: error: {path}:$.fear_cards.{first}.name: the name is the key, {first!r}; "
        "to rename, remove it and add one"
    )

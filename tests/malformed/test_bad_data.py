"""The bad-data family of the corpus (``corpus/bad-data.json``, issue 33 part 6) through the
library: each document the command line refuses is refused by ``invasion_oracle.load`` (or the
search that cannot ask it) with the same located :class:`MalformedInputError`, since the checks
live in the games' data and scenario readers, not in the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import invasion_oracle as io
from invasion_oracle import cloudspire
from invasion_oracle.model.core.errors import MalformedInputError
from tests.malformed.corpus import FOLDER, Case, _fill, load_cases, materialise

CASES = load_cases([FOLDER / "bad-data.json"])
EXAMPLE = {"cloudspire": "example:cloudspire/round.json", "vulketh": "example:vulketh/solo_game.json"}


def _library_call(case: Case, folder: Path) -> Any:
    """What the case's command does, through the Python API."""
    argv = [_fill(word, folder) for word in case.argv]
    data = argv[argv.index("--data") + 1] if "--data" in argv else None
    if argv[0] == "simulate":
        return io.load(argv[1]).play()
    game, verb = argv[0], argv[1]
    if verb == "data":
        return io.load(EXAMPLE[game], data=data)
    if verb == "simulate":
        return io.load(argv[2], data=data).play()
    if verb == "survive":
        return cloudspire.survive(io.load(argv[2]))
    if verb == "spires":
        return cloudspire.spires(io.load(argv[2]), bound=int(argv[argv.index("--bound") + 1]))
    raise AssertionError(f"no library call for {argv}")  # a new case needs a line here


def test_the_family_covers_every_game_with_data() -> None:
    games = {c.id.split("-", 1)[0] for c in CASES}
    assert {"cs", "vk", "si"} <= games and len(CASES) >= 30


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_library_refuses_what_the_command_line_refuses(case: Case, tmp_path: Path) -> None:
    materialise(case, tmp_path)
    expected = _fill(case.stderr, tmp_path).removeprefix("invasion: error: ")
    with pytest.raises(MalformedInputError) as raised:
        _library_call(case, tmp_path)
    assert str(raised.value).startswith(expected), (str(raised.value), expected)

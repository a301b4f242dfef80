"""Every picture explains itself: each token in a bundled example's text or SVG picture has an
entry in the key under that picture.

The tokens are read back from the picture (its box cells in text; the ``class="notation"`` texts
in SVG) and the key from what is printed under it, so a renderer that draws a new mark without a
notation entry, or a key that leaves an entry out, fails here.
"""

from __future__ import annotations

import html
import re
from functools import cache

import pytest

import invasion_oracle as io
from invasion_oracle.model import registry
from invasion_oracle.model.core.bundled import examples
from invasion_oracle.model.core.jsonio import parse_json_bytes
from invasion_oracle.model.core.legend import Notation, box_cells
from invasion_oracle.model.stonespine.render import dungeon_cells

NOTATIONS = {
    "stonespine": "invasion_oracle.model.stonespine.render",
    "spirit-island": "invasion_oracle.model.spirit_island.render",
    "vulketh": "invasion_oracle.model.vulketh.render",
    "cloudspire": "invasion_oracle.model.cloudspire.render",
}


def notation(game: str) -> Notation:
    import importlib

    found: Notation = importlib.import_module(NOTATIONS[game]).NOTATION
    return found


@cache
def scenario_examples() -> tuple[tuple[str, str], ...]:
    """(game, example) for every bundled scenario (files with a ``game``), all games."""
    found = []
    for spec in registry.specs():
        for ref in examples(spec.examples) if spec.examples else ():
            document = parse_json_bytes(ref.read_bytes(), str(ref))
            if isinstance(document, dict) and document.get("game"):
                found.append((spec.name, str(ref)))
    return tuple(found)


def text_cells(game: str, picture: str) -> list[str]:
    """Where a text picture's tokens are: the dungeon from its first border to its last, or the
    boxes' cells."""
    if game == "stonespine":
        return [cell for part in picture.split("\n\n") for cell in dungeon_cells(part)]
    return box_cells(picture)


def text_key(picture: str) -> str:
    """The key printed under a text picture (``Key: ...`` and its indented lines), joined."""
    lines = picture.splitlines()
    out: list[str] = []
    for k, line in enumerate(lines):
        if line.startswith("Key: "):
            out.append(line)
            for following in lines[k + 1 :]:
                if not following.startswith("  "):
                    break
                out.append(following)
    return " ".join(out)


def svg_parts(svg: str) -> tuple[list[str], str]:
    """An SVG's notation texts and its legend's text (everything after ``Legend:``)."""
    texts = re.findall(r"<text([^>]*)>([^<]*)</text>", svg)
    notation_texts = [html.unescape(body) for attributes, body in texts if 'class="notation"' in attributes]
    bodies = [html.unescape(body) for _, body in texts]
    legend = " ".join(bodies[bodies.index("Legend:") :]) if "Legend:" in bodies else ""
    return notation_texts, legend


def test_the_examples_are_found() -> None:
    games = {game for game, _ in scenario_examples()}
    assert games == set(NOTATIONS) and len(scenario_examples()) > 40


@pytest.mark.parametrize(("game", "example"), scenario_examples())
def test_every_token_of_an_examples_text_picture_is_in_its_key(game: str, example: str) -> None:
    scenario = io.load(example)
    picture = scenario.spec.render_text(scenario.raw, scenario.raw.initial)
    cells = text_cells(game, picture)
    assert notation(game).tokens(cells), f"{example}: no tokens read from the picture"
    key = text_key(picture)
    assert notation(game).unexplained(cells, key) == [], f"{example}: tokens without a key entry"


@pytest.mark.parametrize(("game", "example"), scenario_examples())
def test_every_token_of_an_examples_svg_picture_is_in_its_legend(game: str, example: str) -> None:
    scenario = io.load(example)
    svg = scenario.spec.render_svg(scenario.raw, scenario.raw.initial)
    assert svg is not None
    texts, legend = svg_parts(svg)
    assert texts and legend, f"{example}: no notation or no legend in the SVG"
    assert notation(game).unexplained(texts, legend) == [], f"{example}: tokens without a legend entry"


def test_a_token_without_an_entry_or_a_missing_entry_is_found() -> None:
    stonespine = notation("stonespine")
    cells = ["|A1 cave    |B1 stone", "|gnl zz9    |M3"]
    assert stonespine.unexplained(cells, "") == ["A1", "B1", "gnl", "zz9", "M3"]
    key = " ".join(f"= {entry.meaning}" for entry in stonespine.entries)
    assert stonespine.unexplained(cells, key) == ["zz9"]  # notation with no entry at all
    assert stonespine.tokens(["+1  gob", "+----:::----+"]) == ["+1", "gob", ":"]  # a star is no border


@pytest.mark.parametrize(
    "args",
    [
        ["stonespine", "place", "example:stonespine/placement.json"],
        ["stonespine", "plan", "example:stonespine/plan-year3"],
    ],
    ids=["place", "plan"],
)
def test_the_search_pictures_have_keys_too(
    args: list[str], tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    from invasion_oracle.reports.cli import main

    svg_path = Path(str(tmp_path)) / "picture.svg"
    assert main([*args, "--format", "md", "--svg", str(svg_path)]) == 0
    shown = capsys.readouterr().out
    pictures = re.findall(r"```\n(.*?)```", shown, flags=re.S)
    dungeons = [p for p in pictures if "entrance" in p]
    assert dungeons, shown
    for picture in dungeons:
        assert notation("stonespine").unexplained(text_cells("stonespine", picture), text_key(picture)) == []
    texts, legend = svg_parts(svg_path.read_text(encoding="utf-8"))
    assert texts and notation("stonespine").unexplained(texts, legend) == []

"""Legends for pictures: every token a picture uses, once, in words, from one table per game.

A game writes its notation down once, as a :class:`Notation`: entries that each match a family
of tokens (``M``, ``M2``, ``M3`` are one entry, "minions in the chamber") and say what they mean.
A picture's legend is computed from the picture itself: the tokens in its cells are read back,
matched against the table, and each entry used is explained once, in the order first seen. So
a legend never explains a mark the picture does not show, and a new mark without an entry is
found by the tests (:meth:`Notation.unexplained`), never silently left out.

>>> notation = Notation(
...     "demo",
...     (Entry(r"M\\d*", "minions (M2: two)"), Entry(r"[A-D][1-4]", "chamber: column, row")),
... )
>>> notation.entries_in(["A1 M2", "B2 M"])
[(['A1', 'B2'], 'chamber: column, row'), (['M2', 'M'], 'minions (M2: two)')]
>>> notation.text_lines(["A1 M2"], width=40)
['Key: A1 = chamber: column, row; M2 =', '  minions (M2: two)']
>>> notation.unexplained(["A1 M2 zz9 troll"], "Key: M2 = minions (M2: two)")
['A1', 'zz9']
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

NOTATION_WORD = re.compile(r".*[\d\W].*")
"""A word holding a digit or a sign is notation and must have an entry; a word of letters alone
may be a plain word or a name (``cave``, ``Reed``), explained only when an entry matches it."""


SEPARATORS = frozenset({"·", "|"})


@dataclass(frozen=True, slots=True)
class Entry:
    """A family of tokens (a full-match regular expression) and what it means, in words."""

    pattern: str
    meaning: str

    def matches(self, token: str) -> bool:
        return re.fullmatch(self.pattern, token) is not None


def _words(text: str) -> list[str]:
    return text.split()


@dataclass(frozen=True, slots=True)
class Notation:
    """One game's notation: the entries, in the order a legend lists them when tied, and how a
    picture's cell text is cut into tokens (by default at white space)."""

    game: str
    entries: tuple[Entry, ...]
    split: Callable[[str], list[str]] = field(default=_words)

    def entry_of(self, token: str) -> Entry | None:
        """The first entry whose pattern matches ``token`` whole."""
        return next((e for e in self.entries if e.matches(token)), None)

    def tokens(self, cells: Iterable[str]) -> list[str]:
        """Every token of the cell texts, in order (repeats kept); a lone separator (``·``) is none."""
        return [token for text in cells for token in self.split(text) if token and token not in SEPARATORS]

    def entries_in(self, cells: Iterable[str], *, most: int = 2) -> list[tuple[list[str], str]]:
        """The entries the cells use, in the order first seen, each with up to ``most`` of its
        distinct tokens as examples."""
        seen: dict[str, list[str]] = {}
        meaning: dict[str, str] = {}
        for token in self.tokens(cells):
            entry = self.entry_of(token)
            if entry is None:
                continue
            examples = seen.setdefault(entry.pattern, [])
            meaning[entry.pattern] = entry.meaning
            if token not in examples and len(examples) < most:
                examples.append(token)
        return [(examples, meaning[pattern]) for pattern, examples in seen.items()]

    def labels(self, cells: Iterable[str]) -> list[str]:
        """One label per entry used: ``M2, M = minions (M2: two)``."""
        return [f"{', '.join(examples)} = {meaning}" for examples, meaning in self.entries_in(cells)]

    def text_lines(self, cells: Iterable[str], *, width: int = 100) -> list[str]:
        """The legend as text lines at most ``width`` wide: ``Key: TOKEN meaning; ...``."""
        items = [f"{', '.join(examples)} = {meaning}" for examples, meaning in self.entries_in(cells)]
        if not items:
            return []
        return textwrap.wrap(
            "Key: " + "; ".join(items), width=width, subsequent_indent="  ", break_on_hyphens=False
        )

    def unexplained(self, cells: Iterable[str], legend: str) -> list[str]:
        """The tokens of ``cells`` that ``legend`` does not explain: a notation word (a digit or a
        sign in it) with no entry, or a token whose entry's meaning is not in ``legend``."""
        missing: list[str] = []
        for token in self.tokens(cells):
            entry = self.entry_of(token)
            if entry is None:
                if NOTATION_WORD.fullmatch(token) and token not in missing:
                    missing.append(token)
            elif entry.meaning not in " ".join(legend.split()) and token not in missing:
                missing.append(token)
        return missing


def box_cells(picture: str) -> list[str]:
    """The text inside a box picture's cells: what stands between ``|`` (or an opening mark that
    replaces one) on every line that is not a border (``+---+``). Lines outside boxes are left
    out: they are sentences, not notation.

    >>> box_cells("+--+--+\\n|A1 |B1 x|\\n+--+--+\\ntitle")
    ['A1 ', 'B1 x']
    """
    cells: list[str] = []
    for line in picture.splitlines():
        stripped = line.strip()
        if not stripped.startswith("|") and not re.match(r"^[~\s]*\|", line):
            continue
        inner = line[line.index("|") + 1 : line.rindex("|")] if line.count("|") >= 2 else ""
        cells += inner.split("|")
    return cells


def keys_of(notation: Notation, texts: Iterable[str]) -> list[tuple[str, str]]:
    """The legend entries of an SVG's notation texts, as (tokens, meaning) labels."""
    return [(", ".join(examples), meaning) for examples, meaning in notation.entries_in(texts)]


def with_legend(
    picture: str, notation: Notation, cells: Sequence[str] | None = None, width: int = 100
) -> str:
    """``picture`` with its legend under it (computed from its box cells unless ``cells`` given)."""
    lines = notation.text_lines(box_cells(picture) if cells is None else cells, width=width)
    return picture + ("\n" + "\n".join(lines) if lines else "")

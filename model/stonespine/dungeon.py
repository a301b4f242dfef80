"""The dungeon: a grid of chamber cards and the graph of their connections.

Seed 000 builds on the base game's grid (research notes, "Dungeon geometry"): four columns, one
row built each year from the top, an entrance doorway above one column of row 1 and an exit
doorway below one column of the bottom row. Cells are named like chess squares, column letter
then row number: ``A1`` is the top-left chamber, row 1 is next to the entrance.

Two orthogonally adjacent chambers are *connected* when both facing edges are open (a doorway
or a secret passage); ruling ``SS-PASSAGE`` decides whether a passage token alone bridges the
edge. The connection graph is a :class:`networkx.Graph` over cell names.
"""

from __future__ import annotations

import enum
import string
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from invasion_oracle.model.core.frozen import by_identity, hash_by_identity, replace
from invasion_oracle.model.core.places import Places
from invasion_oracle.model.stonespine.elements import Space

if TYPE_CHECKING:  # networkx takes half a second to import: only graph() needs it
    import networkx as nx


class Side(enum.StrEnum):
    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"

    @property
    def letter(self) -> str:
        return self.value[0].upper()

    @property
    def opposite(self) -> Side:
        return _OPPOSITE[self]

    @staticmethod
    def parse_set(text: str) -> frozenset[Side]:
        """``"TBL"`` or ``"top,left"`` or ``"-"`` (none).

        >>> sorted(s.letter for s in Side.parse_set("TBL"))
        ['B', 'L', 'T']
        """
        text = text.strip()
        if text in ("", "-"):
            return frozenset()
        if "," in text or text.lower() in {s.value for s in Side}:
            words = [w.strip().lower() for w in text.split(",")]
            try:
                return frozenset(Side(w) for w in words)
            except ValueError:
                raise ValueError(f"sides are top, bottom, left, right; got {text!r}") from None
        by_letter = {s.letter: s for s in Side}
        sides = set()
        for ch in text.upper():
            if ch not in by_letter:
                raise ValueError(f"sides are written with the letters T B L R; got {text!r}")
            sides.add(by_letter[ch])
        return frozenset(sides)


_OPPOSITE = {
    Side.TOP: Side.BOTTOM,
    Side.BOTTOM: Side.TOP,
    Side.LEFT: Side.RIGHT,
    Side.RIGHT: Side.LEFT,
}
_DELTA = {Side.TOP: (0, -1), Side.BOTTOM: (0, 1), Side.LEFT: (-1, 0), Side.RIGHT: (1, 0)}
SIDE_ORDER = (Side.TOP, Side.BOTTOM, Side.LEFT, Side.RIGHT)


def sides_text(sides: frozenset[Side]) -> str:
    return "".join(s.letter for s in SIDE_ORDER if s in sides) or "-"


class ChamberType(enum.StrEnum):
    CAVE = "cave"
    STONE = "stone"


@dataclass(frozen=True, slots=True, order=True)
class Cell:
    """A grid position, 0-based internally, named ``B2`` (column B, row 2) outside.

    >>> Cell.parse("B2")
    Cell(col=1, row=1)
    >>> Cell(3, 0).name
    'D1'
    """

    col: int
    row: int

    @property
    def name(self) -> str:
        return f"{string.ascii_uppercase[self.col]}{self.row + 1}"

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def parse(text: str) -> Cell:
        text = text.strip().upper()
        if len(text) < 2 or text[0] not in string.ascii_uppercase or not text[1:].isdigit():
            raise ValueError(f"a chamber is named by column letter and row number, like B2; got {text!r}")
        row = int(text[1:])
        if row < 1:
            raise ValueError(f"rows are numbered from 1; got {text!r}")
        return Cell(string.ascii_uppercase.index(text[0]), row - 1)

    def step(self, side: Side) -> Cell:
        dc, dr = _DELTA[side]
        return Cell(self.col + dc, self.row + dr)


@dataclass(frozen=True, slots=True)
class Chamber:
    """One chamber card with whatever tokens lie on it this year.

    ``passages`` are secret passage tokens on this card's edges (bought or printed on market
    tokens); ``collapsing`` are a hydra's collapsing secret passages, which count as secret
    passages (seed 000, "Clarifications: Molten Hydra, Caustic Hydra").
    """

    type: ChamberType
    doors: frozenset[Side]
    spaces: tuple[Space, Space, Space, Space] = (Space(), Space(), Space(), Space())
    passages: frozenset[Side] = frozenset()
    collapsing: frozenset[Side] = frozenset()
    name: str = ""

    def opening(self, side: Side) -> bool:
        return side in self.doors or side in self.passages or side in self.collapsing

    def passage_on(self, side: Side) -> bool:
        return side in self.passages or side in self.collapsing

    def with_space(self, index: int, space: Space) -> Chamber:
        spaces = list(self.spaces)
        spaces[index] = space
        return replace(self, spaces=(spaces[0], spaces[1], spaces[2], spaces[3]))

    def elements_text(self) -> str:
        return " ".join(str(s) for s in self.spaces if not s.empty)

    def describe(self) -> str:
        """The compact scenario form: ``stone TBR kobold +1 passages=L``."""
        parts = [self.type.value, sides_text(self.doors)]
        parts += [str(s) for s in self.spaces if not s.empty]
        if self.passages:
            parts.append(f"passages={sides_text(self.passages)}")
        if self.collapsing:
            parts.append(f"collapsing={sides_text(self.collapsing)}")
        return " ".join(parts)


class PassageMode(enum.StrEnum):
    """Ruling ``SS-PASSAGE``: what a secret passage token on an edge does."""

    EDGE = "edge"  # it is an opening on its own card's edge; both facing edges must be open
    BRIDGE = "bridge"  # it connects the two cards whatever the other card's edge shows


@hash_by_identity  # hashed with every state that holds it (a search's memo): once
@dataclass(frozen=True, slots=True)
class Dungeon:
    """A grid of chambers with the entrance and exit columns (0-based)."""

    columns: int
    rows: int
    chambers: tuple[Chamber, ...]  # row-major: row 1 first
    entrance: int
    exit: int

    def __post_init__(self) -> None:
        if len(self.chambers) != self.columns * self.rows:
            raise ValueError("a dungeon needs a chamber in every cell of its grid")

    def cells(self) -> Iterator[Cell]:
        for row in range(self.rows):
            for col in range(self.columns):
                yield Cell(col, row)

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell.col < self.columns and 0 <= cell.row < self.rows

    def chamber(self, cell: Cell) -> Chamber:
        return self.chambers[cell.row * self.columns + cell.col]

    def with_chamber(self, cell: Cell, chamber: Chamber) -> Dungeon:
        index = cell.row * self.columns + cell.col
        chambers = self.chambers[:index] + (chamber,) + self.chambers[index + 1 :]
        return replace(self, chambers=chambers)

    @property
    def first_chamber(self) -> Cell:
        """The row-1 chamber under the entrance doorway (seed 000, "Step 2: Repel Heroes")."""
        return Cell(self.entrance, 0)

    @property
    def entrance_connected(self) -> bool:
        return self.chamber(self.first_chamber).opening(Side.TOP)

    def exit_cell(self) -> Cell:
        return Cell(self.exit, self.rows - 1)

    def connected(self, a: Cell, side: Side, mode: PassageMode) -> bool:
        """True when ``a`` connects to its neighbour on ``side``."""
        b = a.step(side)
        if not self.contains(b):
            return False
        ca, cb = self.chamber(a), self.chamber(b)
        if ca.opening(side) and cb.opening(side.opposite):
            return True
        return mode is PassageMode.BRIDGE and (ca.passage_on(side) or cb.passage_on(side.opposite))

    def neighbours(self, cell: Cell, mode: PassageMode) -> tuple[Cell, ...]:
        """Connected neighbours, in the fixed order top, bottom, left, right."""
        return _adjacency(self, mode)[cell]

    def places(self, mode: PassageMode) -> Places:
        """The chambers as the shared named places (``A1``...) with their connections."""
        return Places.from_edges(
            [cell.name for cell in self.cells()],
            [(cell.name, other.name) for cell, near in _adjacency(self, mode).items() for other in near],
        )

    def graph(self, mode: PassageMode) -> nx.Graph:
        """Chambers as nodes (named ``B2``), connections as edges; each node keeps its Chamber."""
        graph: nx.Graph = self.places(mode).graph.copy()
        for cell in self.cells():
            graph.nodes[cell.name].update(cell=cell, chamber=self.chamber(cell))
        return graph


@by_identity  # the same dungeon, step after step: no deep hash (issue 38)
@lru_cache(maxsize=4096)
def _adjacency(dungeon: Dungeon, mode: PassageMode) -> dict[Cell, tuple[Cell, ...]]:
    return {
        cell: tuple(cell.step(s) for s in SIDE_ORDER if dungeon.connected(cell, s, mode))
        for cell in dungeon.cells()
    }


def column_letter(index: int) -> str:
    return string.ascii_uppercase[index]

"""The nine hexes and their number tokens, as a networkx graph (Rise of Tribes: The Vul'Keth Invasion Rulebook, Setup).

The printed layout of the number tokens is not in the sources. The default adjacency is the one
derived in the sources outside the rulebook (§2.2, provenance ``derived``): the two-player parallelogram with
tokens numbered along its anti-diagonals, the only numbering found that fits the worked example
(hex 1 has two neighbours, 2 and 3; hex 2 touches 1, 3 and 4; 9 is the far corner). A data file
or a scenario gives another map as a list of edges (and, optionally, drawing positions).

>>> m = default_map()
>>> m.neighbours(1), m.neighbours(2), m.neighbours(9)
((2, 3), (1, 3, 4, 5), (7, 8))
>>> m.adjacent(5, 8), m.adjacent(1, 9)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import json_path
from invasion_oracle.model.core.places import Places
from invasion_oracle.model.core.provenance import Provenance

if TYPE_CHECKING:
    import networkx as nx

HEXES = tuple(range(1, 10))

DEFAULT_EDGES: tuple[tuple[int, int], ...] = (
    (1, 2),
    (1, 3),
    (2, 3),
    (2, 4),
    (2, 5),
    (3, 5),
    (3, 6),
    (4, 5),
    (4, 7),
    (5, 6),
    (5, 7),
    (5, 8),
    (6, 8),
    (7, 8),
    (7, 9),
    (8, 9),
)

# Axial (column, row) of each token on the parallelogram; rows shift right by half a hex.
DEFAULT_POSITIONS: dict[int, tuple[int, int]] = {
    1: (0, 0),
    2: (1, 0),
    4: (2, 0),
    3: (0, 1),
    5: (1, 1),
    7: (2, 1),
    6: (0, 2),
    8: (1, 2),
    9: (2, 2),
}


@dataclass(frozen=True, slots=True)
class HexMap:
    """The hexes (numbers 1-9), who touches whom, where to draw each, and where it comes from."""

    edges: tuple[tuple[int, int], ...]
    positions: tuple[tuple[int, tuple[int, int]], ...]
    provenance: Provenance
    source: str
    adjacency: tuple[tuple[int, ...], ...] = ()  # neighbours of hex n at index n - 1, ascending

    @staticmethod
    def build(
        edges: Sequence[tuple[int, int]],
        positions: dict[int, tuple[int, int]],
        provenance: Provenance,
        source: str,
    ) -> HexMap:
        pairs = tuple(sorted((min(a, b), max(a, b)) for a, b in edges))
        adjacency = tuple(
            tuple(sorted({b for a, b in pairs if a == n} | {a for a, b in pairs if b == n})) for n in HEXES
        )
        return HexMap(pairs, tuple(sorted(positions.items())), provenance, source, adjacency)

    @property
    def hexes(self) -> tuple[int, ...]:
        return HEXES

    def graph(self) -> nx.Graph:
        import networkx as nx  # imported when asked for: about a tenth of a second to import

        graph = nx.Graph()
        graph.add_nodes_from(HEXES)
        graph.add_edges_from(self.edges)
        return graph

    def places(self) -> Places:
        """The hexes as the shared named places (``"1"``..``"9"``) with their adjacency."""
        return Places.from_edges([str(h) for h in HEXES], [(str(a), str(b)) for a, b in self.edges])

    def neighbours(self, number: int) -> tuple[int, ...]:
        return self.adjacency[number - 1]

    def adjacent(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in self.edges

    def position(self, number: int) -> tuple[int, int]:
        return dict(self.positions)[number]

    def to_json(self) -> dict[str, Any]:
        return {
            "edges": [list(e) for e in self.edges],
            "positions": {str(n): list(p) for n, p in self.positions},
            "provenance": self.provenance.value,
            "source": self.source,
        }


def default_map() -> HexMap:
    return HexMap.build(
        DEFAULT_EDGES,
        DEFAULT_POSITIONS,
        Provenance.DERIVED,
        "sources outside the rulebook: the fan 9-hex parallelogram numbered along anti-diagonals to fit the Rise of Tribes: The Vul'Keth Invasion Rulebook's Invader Turn Example",
    )


def parse_map(
    raw: dict[str, Any], source: str, path: Sequence[str | int], provenance: Provenance = Provenance.USER
) -> HexMap:
    """A map from ``{"edges": [[a, b], ...], "positions": {...}}``, checked: hexes 1-9, no loops or
    repeated edges, every hex reachable (the hexes lie in one connected shape)."""
    edges: list[tuple[int, int]] = []
    for i, edge in enumerate(raw["edges"]):
        where = json_path((*path, "edges", i))
        a, b = edge
        for end in (a, b):
            if end not in HEXES:
                raise MalformedInputError(source, where, f"no hex {end}; the hexes are numbered 1-9")
        if a == b:
            raise MalformedInputError(source, where, f"hex {a} cannot be adjacent to itself")
        pair = (min(a, b), max(a, b))
        if pair in edges:
            raise MalformedInputError(source, where, f"the edge {pair[0]}-{pair[1]} is listed twice")
        edges.append(pair)
    touching = Places.from_edges(map(str, HEXES), [(str(a), str(b)) for a, b in edges])
    parts = sorted(sorted(int(h) for h in part) for part in touching.parts())
    if len(parts) > 1:
        raise MalformedInputError(
            source,
            json_path((*path, "edges")),
            f"the hexes must form one connected map; these parts do not touch: {parts}",
        )
    positions = dict(DEFAULT_POSITIONS)
    for key, value in raw.get("positions", {}).items():
        where = json_path((*path, "positions", key))
        if not key.isdigit() or int(key) not in HEXES:
            raise MalformedInputError(source, where, f"no hex {key}; the hexes are numbered 1-9")
        positions[int(key)] = (value[0], value[1])
    if len(set(positions.values())) != len(positions):
        raise MalformedInputError(source, json_path((*path, "positions")), "two hexes share a position")
    return HexMap.build(edges, positions, provenance, raw.get("source", source))

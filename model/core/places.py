"""Named places and which of them touch: the map shape every game shares.

A Stonespine dungeon's chambers, Spirit Island's lands, Vul'Keth's nine hexes and Cloudspire's
lanes and spires are all places with an adjacency. :class:`Places` keeps the names in a fixed
order (the order options and solver variables use) and the edges, gives the networkx graph, and
answers the questions rules ask of a map: neighbours in order, connected, shortest distance.

>>> hexes = Places.from_edges(["1", "2", "3"], [("1", "2"), ("2", "3")])
>>> hexes.neighbours("2")
('1', '3')
>>> hexes.index("3"), hexes.adjacent("1", "3"), hexes.distance("1", "3")
(2, False, 2)
>>> Places.from_edges(["1"], [("1", "9")])
Traceback (most recent call last):
...
ValueError: edge ('1', '9') names an unknown place '9'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class Places:
    """Places in a fixed order and the undirected edges between them."""

    names: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]
    _index: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {name: i for i, name in enumerate(self.names)})
        if len(self._index) != len(self.names):
            raise ValueError("place names must be unique")
        for a, b in self.edges:
            for end in (a, b):
                if end not in self._index:
                    raise ValueError(f"edge {(a, b)!r} names an unknown place {end!r}")
            if a == b:
                raise ValueError(f"edge {(a, b)!r} joins a place to itself")

    @staticmethod
    def from_edges(names: Iterable[str], edges: Iterable[Sequence[str]]) -> Places:
        """Places from names and pairs; each edge is kept once, in a canonical order."""
        ordered = tuple(names)
        rank = {n: i for i, n in enumerate(ordered)}

        def position(name: str) -> int:
            return rank.get(name, len(ordered))  # unknown names sort last; __post_init__ refuses them

        seen: dict[tuple[str, str], None] = {}
        for pair in edges:
            a, b = str(pair[0]), str(pair[1])
            seen[(a, b) if position(a) <= position(b) else (b, a)] = None
        return Places(ordered, tuple(sorted(seen, key=lambda e: (position(e[0]), position(e[1])))))

    def index(self, name: str) -> int:
        return self._index[name]

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def __len__(self) -> int:
        return len(self.names)

    @cached_property
    def graph(self) -> Any:
        """The networkx graph (nodes in order, each with its ``index``)."""
        import networkx as nx  # imported when asked for: it takes half a second to import

        graph = nx.Graph()
        for i, name in enumerate(self.names):
            graph.add_node(name, index=i)
        graph.add_edges_from(self.edges)
        return graph

    @cached_property
    def neighbour_indices(self) -> tuple[tuple[int, ...], ...]:
        """For each place by index, its neighbours' indices in ascending order (for solvers)."""
        out: list[set[int]] = [set() for _ in self.names]
        for a, b in self.edges:
            out[self._index[a]].add(self._index[b])
            out[self._index[b]].add(self._index[a])
        return tuple(tuple(sorted(s)) for s in out)

    def neighbours(self, name: str) -> tuple[str, ...]:
        """``name``'s neighbours in place order."""
        return tuple(self.names[i] for i in self.neighbour_indices[self._index[name]])

    def adjacent(self, a: str, b: str) -> bool:
        return self._index[b] in self.neighbour_indices[self._index[a]]

    def distance(self, a: str, b: str) -> int | None:
        """Edges on a shortest path, or None when no path joins them (breadth first)."""
        return self._distances(self._index[a]).get(self._index[b])

    def _distances(self, start: int) -> dict[int, int]:
        seen = {start: 0}
        frontier = [start]
        while frontier:
            nearer: list[int] = []
            for i in frontier:
                for j in self.neighbour_indices[i]:
                    if j not in seen:
                        seen[j] = seen[i] + 1
                        nearer.append(j)
            frontier = nearer
        return seen

    def connected(self) -> bool:
        return len(self.names) == 0 or len(self._distances(0)) == len(self.names)

    def parts(self) -> list[tuple[str, ...]]:
        """The connected parts, each in place order, in the order of their first place.

        >>> Places.from_edges(["1", "2", "3", "4"], [("1", "3")]).parts()
        [('1', '3'), ('2',), ('4',)]
        """
        seen: set[int] = set()
        out = []
        for i in range(len(self.names)):
            if i not in seen:
                reached = self._distances(i)
                seen |= reached.keys()
                out.append(tuple(self.names[j] for j in sorted(reached)))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"places": list(self.names), "edges": [list(e) for e in self.edges]}

"""The island as a graph (research notes §1: boards, lands, adjacency, the Ocean).

Nodes are lands named by board and number (``"A5"``) with ``terrain``, ``board``, ``number``
and ``coastal`` attributes, plus one Ocean node per board (``"A0"``, ``terrain="ocean"``). The
Ocean is not a land: it is kept out of every land query (:attr:`Island.lands`,
:meth:`Island.neighbours`), so nothing Ravages, Builds, Explores or Blights there; it only makes
its neighbours coastal. Lands are adjacent when they touch, also across boards; a multi-board
island takes its cross-board edges from a :class:`~invasion_oracle.model.spirit_island.data.Layout`.

Land queries use integer indices into :attr:`Island.lands` (board order as given, then land
number), which is also the order the game lists options in. :attr:`Island.graph` gives the whole
island as a frozen networkx graph, built when first asked for (networkx takes about a tenth of a
second to import, and a Spirit Island command or engine rarely needs it).

>>> from invasion_oracle.model.spirit_island.data import default_data
>>> island = build_island(default_data(), ("A",))
>>> island.neighbour_names("A1")
('A2', 'A4', 'A5', 'A6')
>>> [name for name in island.lands if island.is_coastal(name)]
['A1', 'A2', 'A3']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.places import Places
from invasion_oracle.model.spirit_island.data import BoardSpec, GameData, Layout
from invasion_oracle.model.spirit_island.pieces import Terrain

if TYPE_CHECKING:
    import networkx as nx

OCEAN = "ocean"


@dataclass(frozen=True, eq=False)
class Island:
    """A frozen island graph and fast index-based views of it."""

    boards: tuple[str, ...]
    lands: tuple[str, ...]
    terrain: tuple[Terrain, ...]
    coastal: tuple[bool, ...]
    board_of: tuple[str, ...]
    neighbours_of: tuple[tuple[int, ...], ...]
    nodes: tuple[tuple[str, dict[str, Any]], ...]  # every node (the Oceans too) and its attributes
    edges: tuple[tuple[str, str], ...]
    layout: Layout | None = None
    _index: dict[str, int] = field(default_factory=dict, repr=False)
    _graph: list[nx.Graph] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._index.update({name: i for i, name in enumerate(self.lands)})

    @property
    def graph(self) -> nx.Graph:
        """The island as a frozen networkx graph: lands and Oceans with their attributes."""
        if not self._graph:
            import networkx as nx

            graph = nx.Graph()
            for name, attributes in self.nodes:
                graph.add_node(name, **attributes)
            graph.add_edges_from(self.edges)
            self._graph.append(nx.freeze(graph))
        return self._graph[0]

    def index(self, name: str) -> int:
        return self._index[name]

    def has_land(self, name: str) -> bool:
        return name in self._index

    def neighbours(self, i: int) -> tuple[int, ...]:
        """Adjacent lands (never the Ocean), in island order."""
        return self.neighbours_of[i]

    def neighbour_names(self, name: str) -> tuple[str, ...]:
        return tuple(self.lands[j] for j in self.neighbours_of[self.index(name)])

    def is_coastal(self, name: str) -> bool:
        return self.coastal[self.index(name)]

    def terrain_of(self, name: str) -> Terrain:
        return self.terrain[self.index(name)]


class _Graph:
    """Nodes with attributes and undirected edges, in the order added (as a networkx graph keeps
    them): enough to check and index an island without importing networkx."""

    def __init__(self) -> None:
        self.nodes: dict[str, dict[str, Any]] = {}
        self.adjacent: dict[str, dict[str, None]] = {}
        self.edges: dict[tuple[str, str], None] = {}

    def add_node(self, name: str, **attributes: Any) -> None:
        self.nodes.setdefault(name, {}).update(attributes)
        self.adjacent.setdefault(name, {})

    def add_edge(self, a: str, b: str) -> None:
        for end in (a, b):
            self.add_node(end)
        self.adjacent[a][b] = self.adjacent[b][a] = None
        if (b, a) not in self.edges:
            self.edges[(a, b)] = None


def _board_graph(board: BoardSpec, graph: _Graph) -> None:
    ocean = f"{board.name}0"
    graph.add_node(ocean, terrain=OCEAN, board=board.name, number=0, coastal=False)
    for land in board.lands:
        graph.add_node(
            f"{board.name}{land.number}", terrain=land.terrain.value, board=board.name, number=land.number
        )
    for a, b in board.edges:
        graph.add_edge(f"{board.name}{a}", f"{board.name}{b}")
    for n in board.ocean:
        graph.add_edge(ocean, f"{board.name}{n}")


def _check_layout_edge(graph: _Graph, a: str, b: str, source: str, where: str) -> None:
    """A layout's edge joins two lands of the island on different boards."""
    for end in (a, b):
        if end not in graph.nodes:
            raise MalformedInputError(source, where, f"no land {end} on this island")
        if graph.nodes[end]["terrain"] == OCEAN:
            raise MalformedInputError(source, where, f"{end} is the Ocean; layouts join lands only")
    if graph.nodes[a]["board"] == graph.nodes[b]["board"]:
        raise MalformedInputError(
            source, where, f"{a}-{b} is inside one board; a layout lists cross-board edges only"
        )


def build_island(
    data: GameData,
    boards: Sequence[str],
    layout: Layout | None = None,
    *,
    source: str = "island",
    path: str = "$.island",
) -> Island:
    """The island of ``boards`` joined by ``layout``'s cross-board edges, checked for sense.

    An impossible map (an unknown board, an edge to a missing land or the Ocean, boards that do
    not touch) raises :class:`~invasion_oracle.model.core.errors.MalformedInputError` naming the field.
    """
    if not boards:
        raise MalformedInputError(source, f"{path}.boards", "an island needs at least one board")
    names = [data.board(b, source=source, path=f"{path}.boards").name for b in boards]
    if len(set(names)) != len(names):
        raise MalformedInputError(source, f"{path}.boards", f"a board is used twice: {', '.join(names)}")
    if len(names) > 1 and layout is None:
        raise MalformedInputError(
            source, f"{path}.layout", "a multi-board island needs a layout listing its cross-board edges"
        )
    graph = _Graph()
    specs = [data.board(n) for n in names]
    for spec in specs:
        _board_graph(spec, graph)
    if layout is not None:
        if len(names) > 1 and sorted(layout.boards) != sorted(names):
            raise MalformedInputError(
                source,
                f"{path}.layout",
                f"layout {layout.name} joins boards {', '.join(layout.boards)}, not {', '.join(names)}",
            )
        for i, (a, b) in enumerate(layout.edges):
            _check_layout_edge(graph, a, b, source, f"{path}.layout.edges[{i}]")
            graph.add_edge(a, b)
    lands = [f"{spec.name}{land.number}" for spec in specs for land in spec.lands]
    inland = set(lands)
    touching = Places.from_edges(lands, [(a, b) for a, b in graph.edges if a in inland and b in inland])
    if not touching.connected():
        parts = sorted(sorted(part) for part in touching.parts())
        raise MalformedInputError(
            source, path, f"the island falls apart: {' | '.join(' '.join(p) for p in parts)} do not touch"
        )
    for node, attrs in graph.nodes.items():
        if attrs["terrain"] != OCEAN:
            attrs["coastal"] = any(graph.nodes[m]["terrain"] == OCEAN for m in graph.adjacent[node])
    index = {name: i for i, name in enumerate(lands)}
    neighbours = tuple(
        tuple(sorted(index[m] for m in graph.adjacent[name] if graph.nodes[m]["terrain"] != OCEAN))
        for name in lands
    )
    return Island(
        boards=tuple(names),
        lands=tuple(lands),
        terrain=tuple(Terrain(graph.nodes[n]["terrain"]) for n in lands),
        coastal=tuple(bool(graph.nodes[n]["coastal"]) for n in lands),
        board_of=tuple(graph.nodes[n]["board"] for n in lands),
        neighbours_of=neighbours,
        nodes=tuple(graph.nodes.items()),
        edges=tuple(graph.edges),
        layout=layout,
    )

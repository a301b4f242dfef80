"""Board data and island graphs: research notes §1 (boards A-H, structural checks, layouts)."""

from __future__ import annotations

import networkx as nx
import pytest

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.provenance import Provenance
from invasion_oracle.model.spirit_island.data import build_game_data, default_data
from invasion_oracle.model.spirit_island.island import OCEAN, build_island
from invasion_oracle.model.spirit_island.pieces import PieceKind, Terrain, parse_land

BALANCED = ["A", "B", "C", "D", "E", "F", "G", "H"]
CONFIDENCE = {
    "A": "high",
    "D": "high",
    "B": "medium",
    "C": "medium",
    "E": "medium",
    "F": "medium",
    "G": "low",
    "H": "low",
}


@pytest.mark.parametrize("name", BALANCED)
def test_board_structure(name: str) -> None:
    """Research notes §1.1/§1.3: 8 lands, two of each terrain, coastal = 1-3, connected, planar,
    starting 1 City, 1 Town, 1 Blight, 6 Dahan."""
    board = default_data().board(name)
    island = build_island(default_data(), (name,))
    assert len(island.lands) == 8
    assert sorted(t.value for t in island.terrain) == sorted([t.value for t in Terrain] * 2)
    assert [n for n in island.lands if island.is_coastal(n)] == [f"{name}1", f"{name}2", f"{name}3"]
    lands = island.graph.subgraph(island.lands)
    assert nx.is_connected(lands) and nx.check_planarity(lands)[0]
    totals = {k: 0 for k in PieceKind}
    blight = 0
    for spec in board.lands:
        land = parse_land(spec.start)
        blight += land.blight
        for kind in PieceKind:
            totals[kind] += land.count(kind)
    assert (
        totals[PieceKind.CITY],
        totals[PieceKind.TOWN],
        blight,
        totals[PieceKind.DAHAN],
        totals[PieceKind.EXPLORER],
    ) == (1, 1, 1, 6, 0)
    assert board.confidence == CONFIDENCE[name]
    assert board.provenance is Provenance.ASSUMED and "outside the rulebook" in board.source


def test_board_a_edges_and_internal_edge_counts() -> None:
    """Research notes §1.2: A has 13 land edges, B-F 14."""
    assert default_data().board("A").edges == (
        (1, 2),
        (1, 4),
        (1, 5),
        (1, 6),
        (2, 3),
        (2, 4),
        (3, 4),
        (4, 5),
        (5, 6),
        (5, 7),
        (5, 8),
        (6, 8),
        (7, 8),
    )
    assert [len(default_data().board(b).edges) for b in "BCDEF"] == [14] * 5


def test_the_ocean_is_in_the_graph_but_never_a_land() -> None:
    island = build_island(default_data(), ("A",))
    assert island.graph.nodes["A0"]["terrain"] == OCEAN
    assert set(island.graph.neighbors("A0")) == {"A1", "A2", "A3"}
    assert "A0" not in island.lands
    assert all("A0" not in island.neighbour_names(n) for n in island.lands)


def test_partial_layouts_are_marked_partial_and_join_their_boards() -> None:
    """Research notes §1.6: only spot checks are known; every bundled layout says so."""
    data = default_data()
    for layout in data.layouts:
        assert layout.partial and "not a complete edge list" in layout.source
        island = build_island(data, layout.boards, layout)
        for a, b in layout.edges:
            assert b in island.neighbour_names(a)
    four = build_island(data, ("B", "A", "D", "C"), data.layout("BADC-partial"))
    assert len(four.lands) == 32 and "B1" in four.neighbour_names("A3")
    # coastal lands are still only lands 1-3 of each board
    assert sum(four.coastal) == 12


@pytest.mark.parametrize(
    ("boards", "edges", "message"),
    [
        (("A", "A"), None, "used twice"),
        (("A", "Z"), None, "unknown island board"),
        (("A", "B"), None, "needs a layout"),
        (("A", "B"), [["A1", "B0"]], "is the Ocean"),
        (("A", "B"), [["A1", "A7"]], "inside one board"),
        (("A", "B"), [["A1", "B9"]], "no land B9"),
        (("A", "B"), [], "falls apart"),
    ],
)
def test_impossible_maps_are_refused(
    boards: tuple[str, ...], edges: list[list[str]] | None, message: str
) -> None:
    from invasion_oracle.model.spirit_island.data import Layout

    data = default_data()
    layout = (
        None
        if edges is None
        else Layout("t", boards, tuple((a, b) for a, b in edges), False, Provenance.USER, "t")
    )
    with pytest.raises(MalformedInputError, match=message):
        build_island(data, boards, layout)


def test_user_boards_override_with_checks() -> None:
    data = build_game_data(
        {
            "boards": {
                "X": {
                    "lands": {"1": {"terrain": "sands", "start": "T"}, "2": {"terrain": "jungle"}},
                    "ocean": [1],
                    "edges": [[1, 2]],
                }
            }
        },
        "user.json",
    )
    island = build_island(data, ("X",))
    assert island.lands == ("X1", "X2") and island.coastal == (True, False)
    assert data.board("X").provenance is Provenance.USER
    with pytest.raises(
        MalformedInputError, match=r"user.json:\$\.boards\.X\.edges\[0\]: board X has no land 3"
    ):
        build_game_data(
            {"boards": {"X": {"lands": {"1": {"terrain": "sands"}}, "ocean": [1], "edges": [[1, 3]]}}},
            "user.json",
        )
    with pytest.raises(MalformedInputError, match=r"\$\.boards\.X\.lands\.1\.start: bad piece token"):
        build_game_data(
            {
                "boards": {
                    "X": {"lands": {"1": {"terrain": "sands", "start": "Q"}}, "ocean": [1], "edges": []}
                }
            },
            "user.json",
        )


def test_piece_numbers_are_the_seed_s_and_overridable() -> None:
    """Seed 002, Invader: Explorer 1/1/0, Town 2/2/1, City 3/3/2 (Health/Damage/Fear)."""
    stats = default_data().stats
    assert [
        (stats.of(k).health, stats.of(k).damage, stats.of(k).fear)
        for k in (PieceKind.EXPLORER, PieceKind.TOWN, PieceKind.CITY)
    ] == [(1, 1, 0), (2, 2, 1), (3, 3, 2)]
    assert (stats.dahan.health, stats.dahan.damage) == (2, 2)
    user = build_game_data({"pieces": {"town": {"health": 3}}, "values": {"fear_per_player": 5}}, "u.json")
    assert user.stats.town.health == 3 and user.stats.town.fear == 1
    assert dict(user.values)["fear_per_player"].provenance is Provenance.USER


def test_every_value_not_in_the_seed_says_where_it_comes_from() -> None:
    data = default_data()
    for key, value in data.values:
        assert value.provenance in (Provenance.SEED, Provenance.DERIVED, Provenance.ASSUMED), key
        assert value.source, key
    for card in data.fear_cards:
        assert card.provenance is Provenance.ASSUMED and "not published cards" in card.source

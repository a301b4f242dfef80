"""Game data with provenance: piece numbers, values, island boards, layouts and cards.

The bundled file ``data/spirit_island.json`` holds every value the oracle uses. Each carries its
provenance: ``seed`` (stated in seed 002, cited by section), ``derived`` (follows from the seed),
or ``assumed`` (not in the seed: taken from the research notes with their confidence, or our
own default). A user data document (``--data FILE`` or a scenario's ``data`` field, schema
``data.schema.json``) overrides any of it; overridden values are marked ``user``.

Board data carries the research notes' confidence: A and D high (several sources), B, C, E, F
medium (one engine's data, passing structural checks), G and H low.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import integers_only, json_path, load_schema, validate
from invasion_oracle.model.core.overrides import (
    Collection,
    OverrideSpec,
    build_in_force,
    data_in_force_of,
)
from invasion_oracle.model.core.provenance import Provenance, Sourced
from invasion_oracle.model.core.reads import untracked
from invasion_oracle.model.core.rulings import resolve_name
from invasion_oracle.model.spirit_island.blight import BlightCard
from invasion_oracle.model.spirit_island.effects import parse_effects
from invasion_oracle.model.spirit_island.event import EventCard
from invasion_oracle.model.spirit_island.fear import FearCard
from invasion_oracle.model.spirit_island.invader_deck import Adversary, InvaderCard
from invasion_oracle.model.spirit_island.pieces import KindStats, PieceKind, PieceStats, Terrain, parse_land
from invasion_oracle.model.spirit_island.rulings import GAME

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class LandSpec:
    number: int
    terrain: Terrain
    start: str  # land notation of the printed starting pieces


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """One island board: lands, which touch the Ocean, within-board adjacency, provenance."""

    name: str
    lands: tuple[LandSpec, ...]
    ocean: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]
    expansion: str
    confidence: str
    provenance: Provenance
    source: str

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "expansion": self.expansion,
            "confidence": self.confidence,
            "provenance": self.provenance.value,
            "source": self.source,
            "lands": {
                str(land.number): {"terrain": land.terrain.value, "start": land.start} for land in self.lands
            },
            "ocean": list(self.ocean),
            "edges": [list(e) for e in self.edges],
        }


@dataclass(frozen=True, slots=True)
class Layout:
    """How boards join: the cross-board land edges. ``partial`` when the list is known incomplete."""

    name: str
    boards: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]
    partial: bool
    provenance: Provenance
    source: str

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "boards": list(self.boards),
            "edges": [list(e) for e in self.edges],
            "partial": self.partial,
            "provenance": self.provenance.value,
            "source": self.source,
        }


T = TypeVar("T")


def _name(item: Any) -> str:
    return str(item.name)


def _id(item: Any) -> str:
    return str(item.id)


_INDEXES: dict[tuple[int, Callable[[Any], str]], tuple[tuple[Any, ...], dict[str, int] | None]] = {}
"""Per items tuple and key: where each key first sits (None when a key repeats). Not a derived
cache (``invasion changes`` need not empty it): a position is only where to look, the item found
there has its key read (and recorded) and compared before it is taken. Kept small: every scenario
with data of its own has tuples of its own."""
_INDEXES_KEPT = 64


def _index(items: tuple[T, ...], key: Callable[[T], str]) -> dict[str, int] | None:
    entry = _INDEXES.get((id(items), key))
    if entry is not None and entry[0] is items:
        return entry[1]
    with untracked():  # built once for every later job: no job owes its answer to these reads
        keys = [key(item) for item in items]
    positions = {k: i for i, k in reversed(list(enumerate(keys)))}
    index = positions if len(positions) == len(keys) else None
    if len(_INDEXES) >= _INDEXES_KEPT:
        _INDEXES.clear()
    _INDEXES[(id(items), key)] = (items, index)
    return index


def _named(
    items: tuple[T, ...], name: str, what: str, source: str, path: str, key: Callable[[T], str] = _name
) -> T:
    """The item whose ``key`` is ``name``: the first of that exact key, as :func:`resolve_name`
    takes it; else by case or a unique prefix.

    An exact key is found through an index of ``items``; of them the matched item's key is read
    (under ``invasion changes``, a recorded read: data that renames it recomputes the job) and
    the tuple's shape (read by the caller: a card added or removed recomputes the job). No earlier
    item's key is read: the data in force names each card, board and Adversary once (it is built
    from mappings by name), so no other item can take that key while this one keeps it. A tuple
    whose keys repeat (built by hand, never the data in force) is scanned as before."""
    index = _index(items, key)
    if index is None:
        for item in items:
            if key(item) == name:
                return item
    else:
        position = index.get(name)
        if position is not None and key(items[position]) == name:
            return items[position]
    resolved = resolve_name(name, [key(item) for item in items], what, source, path)
    return next(item for item in items if key(item) == resolved)


@dataclass(frozen=True, slots=True)
class GameData:
    """Everything the rules need that is data, with provenance."""

    stats: PieceStats
    stats_sources: tuple[tuple[PieceKind, Provenance, str], ...]
    values: tuple[tuple[str, Sourced[Any]], ...]
    boards: tuple[BoardSpec, ...]
    layouts: tuple[Layout, ...]
    invader_cards: tuple[InvaderCard, ...]
    invader_cards_source: str
    fear_cards: tuple[FearCard, ...]
    default_fear_deck: tuple[str, ...]
    events: tuple[EventCard, ...]
    blight_cards: tuple[BlightCard, ...]
    adversaries: tuple[Adversary, ...]

    def value(self, key: str) -> Any:
        return dict(self.values)[key].value

    def board(self, name: str, *, source: str = "data", path: str = "$") -> BoardSpec:
        return _named(self.boards, name, "island board", source, path)

    def layout(self, name: str, *, source: str = "data", path: str = "$") -> Layout:
        return _named(self.layouts, name, "layout", source, path)

    def invader_card(self, card_id: str, *, source: str = "data", path: str = "$") -> InvaderCard:
        return _named(self.invader_cards, card_id, "Invader card", source, path, key=_id)

    def card_by_id(self, card_id: str) -> InvaderCard:
        for card in self.invader_cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def fear_card(self, name: str, *, source: str = "data", path: str = "$") -> FearCard:
        return _named(self.fear_cards, name, "Fear card", source, path)

    def event(self, name: str, *, source: str = "data", path: str = "$") -> EventCard:
        return _named(self.events, name, "Event card", source, path)

    def blight_card(self, name: str, *, source: str = "data", path: str = "$") -> BlightCard:
        return _named(self.blight_cards, name, "Blight card", source, path)

    def adversary(self, name: str, *, source: str = "data", path: str = "$") -> Adversary:
        return _named(self.adversaries, name, "Adversary", source, path)

    def to_json(self) -> dict[str, Any]:
        return {
            "pieces": {
                kind.value: {
                    "health": self.stats.of(kind).health,
                    "damage": self.stats.of(kind).damage,
                    "fear": self.stats.of(kind).fear,
                    "provenance": prov.value,
                    "source": src,
                }
                for kind, prov, src in self.stats_sources
            },
            "values": {k: v.to_json() for k, v in self.values},
            "boards": [b.to_json() for b in self.boards],
            "layouts": [x.to_json() for x in self.layouts],
            "invader_cards": {
                "source": self.invader_cards_source,
                "cards": [
                    {
                        "id": c.id,
                        "stage": c.stage,
                        "terrains": [t.value for t in c.terrains],
                        "coastal": c.coastal,
                        "escalation": c.escalation,
                    }
                    for c in self.invader_cards
                ],
            },
            "fear_cards": [
                {
                    "name": c.name,
                    "levels": [[e.describe() for e in lvl] for lvl in c.levels],
                    "provenance": c.provenance.value,
                    "source": c.source,
                }
                for c in self.fear_cards
            ],
            "default_fear_deck": list(self.default_fear_deck),
            "events": [
                {
                    "name": c.name,
                    "effects": [e.describe() for e in c.effects],
                    "provenance": c.provenance.value,
                }
                for c in self.events
            ],
            "blight_cards": [
                {
                    "name": c.name,
                    "healthy_per_player": c.healthy_per_player,
                    "blighted_per_player": c.blighted_per_player,
                    "on_flip": [e.describe() for e in c.on_flip],
                    "each_phase": [e.describe() for e in c.each_phase],
                    "provenance": c.provenance.value,
                }
                for c in self.blight_cards
            ],
            "adversaries": [
                {"name": a.name, "escalation": [e.describe() for e in a.escalation]} for a in self.adversaries
            ],
        }


@cache
def _bundled() -> dict[str, Any]:
    text = (
        resources.files("invasion_oracle.model.spirit_island")
        .joinpath("data/spirit_island.json")
        .read_text("utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


def parse_board(name: str, raw: dict[str, Any], source: str, path: Path, provenance: Provenance) -> BoardSpec:
    """A board, checked: land numbers, terrains, starting pieces, Ocean lands and edges."""
    lands = []
    for number_text, land in sorted(raw["lands"].items(), key=lambda kv: int(kv[0])):
        number = int(number_text)
        try:
            terrain = Terrain(land["terrain"])
        except ValueError:
            raise MalformedInputError(
                source,
                json_path((*path, "lands", number_text, "terrain")),
                f"unknown terrain {land['terrain']!r}",
            ) from None
        start = land.get("start", "")
        try:
            parse_land(start)
        except ValueError as err:
            raise MalformedInputError(
                source, json_path((*path, "lands", number_text, "start")), str(err)
            ) from None
        lands.append(LandSpec(number, terrain, start))
    numbers = {land.number for land in lands}
    for i, n in enumerate(raw["ocean"]):
        if n not in numbers:
            raise MalformedInputError(source, json_path((*path, "ocean", i)), f"board {name} has no land {n}")
    edges = []
    for i, (a, b) in enumerate(raw["edges"]):
        for end in (a, b):
            if end not in numbers:
                raise MalformedInputError(
                    source, json_path((*path, "edges", i)), f"board {name} has no land {end}"
                )
        if a == b:
            raise MalformedInputError(
                source, json_path((*path, "edges", i)), f"land {name}{a} cannot be adjacent to itself"
            )
        edges.append((min(a, b), max(a, b)))
    if len(set(edges)) != len(edges):
        raise MalformedInputError(source, json_path((*path, "edges")), f"board {name} lists an edge twice")
    return BoardSpec(
        name,
        tuple(lands),
        tuple(sorted(raw["ocean"])),
        tuple(sorted(edges)),
        raw.get("expansion", "user"),
        raw.get("confidence", "high" if provenance is Provenance.USER else "low"),
        provenance,
        raw.get("source", ""),
    )


def parse_layout(name: str, raw: dict[str, Any], source: str, path: Path, provenance: Provenance) -> Layout:
    edges = tuple((str(a), str(b)) for a, b in raw["edges"])
    return Layout(
        name, tuple(raw["boards"]), edges, bool(raw.get("partial", False)), provenance, raw.get("source", "")
    )


def _fear_card(
    raw: dict[str, Any], source: str, path: Path, provenance: Provenance, default_source: str
) -> FearCard:
    levels = tuple(parse_effects(lvl, source, (*path, "levels", i)) for i, lvl in enumerate(raw["levels"]))
    return FearCard(
        raw["name"], (levels[0], levels[1], levels[2]), provenance, raw.get("source", default_source)
    )


OVERRIDES = OverrideSpec(
    GAME,
    (
        Collection(("pieces",), drop=("provenance", "source"), what="piece"),
        Collection(("values",), merge=False, what="value"),
        Collection(("boards",), drop=(), what="board"),
        Collection(("layouts",), drop=(), what="layout"),
        Collection(("fear_cards",), "name", drop=(), what="Fear card"),
        Collection(("events",), "name", drop=(), what="Event card"),
        Collection(("blight_cards",), "name", drop=(), what="Blight card"),
        Collection(("adversaries",), "name", drop=(), what="Adversary"),
    ),
)
"""What a partial override (``"extends": "bundled"``) names by id (model/core/overrides.py)."""


def _override_values(values: dict[str, Sourced[Any]], given: dict[str, Any], source: str) -> None:
    """A data document's ``values`` over the bundled ones: known names, an integer for an integer
    and a list for a list."""
    for key, value in given.items():
        if key not in values:
            raise MalformedInputError(
                source, json_path(("values", key)), f"unknown value; known: {', '.join(sorted(values))}"
            )
        if isinstance(values[key].value, tuple) != isinstance(value, list):
            raise MalformedInputError(
                source,
                json_path(("values", key)),
                f"must be {'a list of integers' if isinstance(values[key].value, tuple) else 'an integer'}",
            )
        values[key] = values[key].overridden(_freeze(value), source)


def build_game_data(overrides: dict[str, Any] | None = None, source: str = "data") -> GameData:
    """The data in force: the bundled file, the data a run set (``overrides.in_force``), then a
    user data document (full or partial) on top."""
    if overrides is None:  # the data in force alone: built once per data, its reads recorded
        return default_data()
    return _build_in_force(overrides, source)


def _build_in_force(overrides: dict[str, Any] | None, source: str) -> GameData:
    schema = load_schema("invasion_oracle.model.spirit_island", "data.schema.json")
    return build_in_force(OVERRIDES, _bundled(), schema, overrides, source, _build_full)


def _build_full(overrides: dict[str, Any] | None, source: str) -> GameData:
    base = _bundled()
    cards_source = base["cards_source"]
    stats: dict[PieceKind, KindStats] = {}
    stats_sources: dict[PieceKind, tuple[Provenance, str]] = {}
    for kind in PieceKind:
        raw = base["pieces"][kind.value]
        stats[kind] = KindStats(raw["health"], raw["damage"], raw["fear"])
        stats_sources[kind] = (Provenance(raw["provenance"]), raw["source"])
    values: dict[str, Sourced[Any]] = {
        k: Sourced(_freeze(v["value"]), Provenance(v["provenance"]), v["source"])
        for k, v in base["values"].items()
    }
    boards = {
        n: parse_board(n, b, "bundled data", ("boards", n), Provenance.ASSUMED)
        for n, b in base["boards"].items()
    }
    layouts = {
        n: parse_layout(n, x, "bundled data", ("layouts", n), Provenance.ASSUMED)
        for n, x in base["layouts"].items()
    }
    fear_cards = {
        c["name"]: _fear_card(c, "bundled data", ("fear_cards", i), Provenance.ASSUMED, cards_source)
        for i, c in enumerate(base["fear_cards"])
    }
    default_deck = tuple(base["default_fear_deck"])
    events = {
        c["name"]: EventCard(
            c["name"],
            parse_effects(c["effects"], "bundled data", ("events", i, "effects")),
            Provenance.ASSUMED,
            cards_source,
        )
        for i, c in enumerate(base["events"])
    }
    blight_cards = {
        c["name"]: _blight_card(c, "bundled data", ("blight_cards", i), Provenance.ASSUMED, cards_source)
        for i, c in enumerate(base["blight_cards"])
    }
    adversaries = {
        a["name"]: Adversary(
            a["name"],
            parse_effects(a["escalation"], "bundled data", ("adversaries", i, "escalation")),
            cards_source,
        )
        for i, a in enumerate(base["adversaries"])
    }
    deck_raw = base["invader_cards"]
    invader_cards = tuple(
        InvaderCard(
            c["id"],
            c["stage"],
            tuple(Terrain(t) for t in c["terrains"]),
            c.get("coastal", False),
            c.get("escalation", False),
        )
        for c in deck_raw["cards"]
    )
    if overrides:
        integers_only(overrides, source)
        validate(overrides, load_schema("invasion_oracle.model.spirit_island", "data.schema.json"), source)
        _check_unique_names(overrides, source)
        for kind_name, raw in overrides.get("pieces", {}).items():
            kind = PieceKind(kind_name)
            old = stats[kind]
            stats[kind] = KindStats(
                raw.get("health", old.health), raw.get("damage", old.damage), raw.get("fear", old.fear)
            )
            stats_sources[kind] = (Provenance.USER, source)
        _override_values(values, overrides.get("values", {}), source)
        for name, raw in overrides.get("boards", {}).items():
            boards[name] = parse_board(name, raw, source, ("boards", name), Provenance.USER)
        for name, raw in overrides.get("layouts", {}).items():
            layouts[name] = parse_layout(name, raw, source, ("layouts", name), Provenance.USER)
        for i, raw in enumerate(overrides.get("fear_cards", [])):
            fear_cards[raw["name"]] = _fear_card(raw, source, ("fear_cards", i), Provenance.USER, source)
        if "default_fear_deck" in overrides:
            default_deck = tuple(overrides["default_fear_deck"])
        for i, raw in enumerate(overrides.get("events", [])):
            events[raw["name"]] = EventCard(
                raw["name"],
                parse_effects(raw["effects"], source, ("events", i, "effects")),
                Provenance.USER,
                source,
            )
        for i, raw in enumerate(overrides.get("blight_cards", [])):
            blight_cards[raw["name"]] = _blight_card(
                raw, source, ("blight_cards", i), Provenance.USER, source
            )
        for i, raw in enumerate(overrides.get("adversaries", [])):
            adversaries[raw["name"]] = Adversary(
                raw["name"],
                parse_effects(raw["escalation"], source, ("adversaries", i, "escalation")),
                source,
            )
    for i, name in enumerate(default_deck):
        if name not in fear_cards:
            raise MalformedInputError(
                source, json_path(("default_fear_deck", i)), f"unknown Fear card {name!r}"
            )
    _check_values(values, source)
    for name, layout in layouts.items():
        if layout.provenance is Provenance.USER:
            _check_layout(layout, boards, source, ("layouts", name))
    piece_stats = PieceStats(
        stats[PieceKind.EXPLORER], stats[PieceKind.TOWN], stats[PieceKind.CITY], stats[PieceKind.DAHAN]
    )
    return GameData(
        stats=piece_stats,
        stats_sources=tuple((k, *stats_sources[k]) for k in PieceKind),
        values=tuple(sorted(values.items())),
        boards=tuple(boards[n] for n in sorted(boards)),
        layouts=tuple(layouts[n] for n in sorted(layouts)),
        invader_cards=invader_cards,
        invader_cards_source=deck_raw["source"],
        fear_cards=tuple(fear_cards.values()),
        default_fear_deck=default_deck,
        events=tuple(events.values()),
        blight_cards=tuple(blight_cards.values()),
        adversaries=tuple(adversaries.values()),
    )


def _blight_card(
    raw: dict[str, Any], source: str, path: Path, provenance: Provenance, default_source: str
) -> BlightCard:
    return BlightCard(
        raw["name"],
        raw["healthy_per_player"],
        raw["blighted_per_player"],
        parse_effects(raw.get("on_flip", []), source, (*path, "on_flip")),
        parse_effects(raw.get("each_phase", []), source, (*path, "each_phase")),
        provenance,
        raw.get("source", default_source),
    )


def _check_layout(layout: Layout, boards: dict[str, BoardSpec], source: str, path: Path) -> None:
    """A layout joins boards that exist, each once, by edges between lands of two of them."""
    for i, name in enumerate(layout.boards):
        if name not in boards:
            raise MalformedInputError(
                source,
                json_path((*path, "boards", i)),
                f"unknown board {name!r}; known: {', '.join(sorted(boards))}",
            )
    if len(set(layout.boards)) != len(layout.boards):
        raise MalformedInputError(source, json_path((*path, "boards")), "a board is listed twice")
    lands = {f"{b}{land.number}": b for b in layout.boards for land in boards[b].lands}
    for i, edge in enumerate(layout.edges):
        for end in edge:
            if end not in lands:
                raise MalformedInputError(
                    source,
                    json_path((*path, "edges", i)),
                    f"no land {end!r} on the boards {', '.join(layout.boards)} (a land is a board and a land number, like A5)",
                )
        if lands[edge[0]] == lands[edge[1]]:
            raise MalformedInputError(
                source,
                json_path((*path, "edges", i)),
                f"{edge[0]}-{edge[1]} is inside one board; a layout lists cross-board edges only",
            )


def _check_unique_names(overrides: Mapping[str, Any], source: str) -> None:
    """A card or Adversary given twice in one file: the second would silently replace the first."""
    for section in ("fear_cards", "events", "blight_cards", "adversaries"):
        seen: dict[str, int] = {}
        for i, raw in enumerate(overrides.get(section, [])):
            name = raw["name"]
            if name in seen:
                raise MalformedInputError(
                    source,
                    json_path((section, i, "name")),
                    f"{name!r} is given twice in this file (also at {section}[{seen[name]}])",
                )
            seen[name] = i


def _check_values(values: dict[str, Sourced[Any]], source: str) -> None:
    per_level = values["fear_cards_per_level"].value
    if len(per_level) != 3 or any(n < 1 for n in per_level):
        raise MalformedInputError(
            source,
            "$.values.fear_cards_per_level",
            f"three positive counts (Terror Levels I-III), got {list(per_level)}",
        )
    if values["fear_per_player"].value < 1:
        raise MalformedInputError(source, "$.values.fear_per_player", "must be at least 1")
    if values["land_damage_for_blight"].value < 1:
        raise MalformedInputError(source, "$.values.land_damage_for_blight", "must be at least 1")
    for key in ("blight_setup_extra", "blight_space_per_player"):
        if values[key].value < 0:
            raise MalformedInputError(source, f"$.values.{key}", "must be 0 or more")
    if not values["invader_deck_stages"].value:
        raise MalformedInputError(
            source, "$.values.invader_deck_stages", "the Invader deck needs at least one card"
        )
    if any(s not in (1, 2, 3) for s in values["invader_deck_stages"].value):
        raise MalformedInputError(source, "$.values.invader_deck_stages", "stages are 1, 2 or 3")


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


default_data = data_in_force_of(GAME, GameData, lambda: _build_in_force(None, "data"))
"""The data in force (the bundled data unless a run set other data), built once per data."""


def default_stats() -> PieceStats:
    """The bundled piece numbers (seed 002, Invader)."""
    return default_data().stats

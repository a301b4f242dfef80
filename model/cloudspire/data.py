"""Game data with provenance: dice faces, values and the cards.

The bundled file ``data/cloudspire.json`` holds every number the oracle uses. The dice table is
``assumed`` (research notes §4.2); the seed gives the 17 dice and the 1 Health lost on a failed
deployment. The printed cards are not in the seed: the bundled set is an **example** marked
``assumed`` (only the named cards follow the seed: Water Tower's blue and yellow blueprints,
Refractor's and Monolant's ignored blueprints, Drilling Outpost's red blueprint, Aegis backed by
Lance Launcher). ``invasion cloudspire data`` says so. A data document (``--data FILE`` or a
scenario's ``data`` field; schema ``data.schema.json``) replaces dice colours, values, heroes,
mini cards or conflict cards; what it gives is marked ``user``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from invasion_oracle.model.cloudspire.cards import (
    ALLOWED,
    Card,
    CardKind,
    Effect,
    EnemySide,
    HeroSide,
    ItemSide,
)
from invasion_oracle.model.cloudspire.dice import COLOURS, Colour, Face, die_names
from invasion_oracle.model.cloudspire.rulings import GAME
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import integers_only, json_path, load_schema, validate
from invasion_oracle.model.core.overrides import (
    Collection,
    OverrideSpec,
    build_in_force,
    data_in_force_of,
)
from invasion_oracle.model.core.provenance import Provenance, Sourced
from invasion_oracle.model.core.reads import derived_cache
from invasion_oracle.model.core.rulings import resolve_name

Path = tuple[str | int, ...]
SCHEMA = ("invasion_oracle.model.cloudspire", "data.schema.json")


@dataclass(frozen=True, slots=True)
class DiceTable:
    """How many unit dice of each colour, and the six faces of each colour."""

    counts: tuple[tuple[Colour, int], ...]
    faces: tuple[tuple[Colour, tuple[Face, ...]], ...]
    provenance: Provenance
    source: str

    def faces_of(self, colour: Colour) -> tuple[Face, ...]:
        return dict(self.faces)[colour]

    def names(self) -> tuple[str, ...]:
        return die_names(dict(self.counts))

    def to_json(self) -> dict[str, Any]:
        return {
            "provenance": self.provenance.value,
            "source": self.source,
            "colours": {
                c.value: {"count": n, "faces": [f.value for f in self.faces_of(c)]} for c, n in self.counts
            },
        }


@dataclass(frozen=True, slots=True)
class GameData:
    """Everything the rules need that is data, with provenance."""

    dice: DiceTable
    values: tuple[tuple[str, Sourced[Any]], ...]
    cards: tuple[Card, ...]
    universal: tuple[tuple[HeroSide, Provenance, str], ...]
    factions: tuple[str, ...]
    card_set: Sourced[str]  # where the card set comes from (the example set is 'assumed')

    def value(self, key: str) -> Any:
        return dict(self.values)[key].value

    def by_id(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def faction_cards(self, faction: str, kind: CardKind) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.faction == faction and c.kind is kind)

    def names(self) -> dict[str, tuple[str, ...]]:
        """Every name a card can be called by (its id and its sides' names) -> card ids."""
        found: dict[str, list[str]] = {}
        for card in self.cards:
            names = {card.id}
            for side in (card.enemy, card.item, card.hero):
                if side is not None:
                    names.add(side.name)
            for name in names:
                found.setdefault(name, []).append(card.id)
        return {k: tuple(v) for k, v in found.items()}

    def resolve(self, name: str, *, source: str, path: str, taken: frozenset[str] = frozenset()) -> str:
        """The card id ``name`` refers to: an id, or a side's name (a prefix is fine when unique).

        Two cards can share a name (the two starting spires): the first not in ``taken`` is used.
        """
        names, ordered = _card_names(self)
        key = resolve_name(name, ordered, "card", source, path)
        free = [cid for cid in names[key] if cid not in taken]
        if not free:
            raise MalformedInputError(source, path, f"card {key!r} is already used ({', '.join(names[key])})")
        return free[0]

    def universal_hero(self, name: str, *, source: str, path: str) -> HeroSide:
        known = [h.name for h, _, _ in self.universal]
        resolved = resolve_name(name, known, "universal hero", source, path)
        return next(h for h, _, _ in self.universal if h.name == resolved)

    def to_json(self) -> dict[str, Any]:
        return {
            "card_set": self.card_set.to_json(),
            "dice": self.dice.to_json(),
            "values": {k: v.to_json() for k, v in self.values},
            "factions": list(self.factions),
            "cards": [card_json(c) for c in self.cards],
            "universal_heroes": [
                {**hero_json(h), "provenance": p.value, "source": s} for h, p, s in self.universal
            ],
        }


# -- JSON forms ----------------------------------------------------------------------------------------


def _blueprint_json(blueprint: tuple[Colour | None, ...]) -> list[str]:
    return [c.value if c is not None else "wild" for c in blueprint]


def enemy_json(side: EnemySide) -> dict[str, Any]:
    out: dict[str, Any] = {"name": side.name, "health": side.health, "damage": side.damage}
    if side.additional_enemies:
        out["additional_enemies"] = side.additional_enemies
    for key, effects in (
        ("activation", side.activation),
        ("ongoing", side.ongoing),
        ("after", side.after),
        ("reward", side.reward),
        ("global", side.global_effects),
    ):
        if effects:
            out[key] = [str(e) for e in effects]
    return out


def item_json(side: ItemSide) -> dict[str, Any]:
    out: dict[str, Any] = {"name": side.name, "spire": side.spire}
    if side.spire:
        out["blueprints"] = _blueprint_json(side.blueprints)
    if side.effects:
        out["effects"] = [str(e) for e in side.effects]
    return out


def hero_json(side: HeroSide) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": side.name,
        "health": side.health,
        "strategy": side.strategy,
        "recovery": side.recovery,
        "blueprint": _blueprint_json(side.blueprint),
    }
    if side.starting_spire:
        out["starting_spire"] = side.starting_spire
    if side.ability:
        out["ability"] = [str(e) for e in side.ability]
    return out


def card_json(card: Card) -> dict[str, Any]:
    out: dict[str, Any] = {"id": card.id, "kind": card.kind.value, "faction": card.faction}
    if card.kind is CardKind.CONFLICT:
        assert card.enemy is not None and card.item is not None
        out["enemy"] = enemy_json(card.enemy)
        out["item"] = item_json(card.item)
    elif card.kind is CardKind.HERO:
        assert card.hero is not None and card.enemy is not None
        out["hero"] = hero_json(card.hero)
        out["boss"] = enemy_json(card.enemy)
    else:
        assert card.item is not None and card.enemy is not None
        out["mini_hero"] = {"name": card.item.name, "ability": [str(e) for e in card.item.effects]}
        out["mini_boss"] = enemy_json(card.enemy)
    out["provenance"] = card.provenance.value
    out["source"] = card.source
    return out


# -- building ---------------------------------------------------------------------------------------


@cache
def bundled_document() -> dict[str, Any]:
    text = (
        resources.files("invasion_oracle.model.cloudspire")
        .joinpath("data/cloudspire.json")
        .read_text(encoding="utf-8")
    )
    document: dict[str, Any] = json.loads(text)
    return document


default_data = data_in_force_of(GAME, GameData, lambda: _build_in_force(None, "data"))
"""The data in force (the bundled data unless a run set other data), built once per data."""


@cache
def _validated_bundle() -> dict[str, Any]:
    """The bundled document, checked against the schema once per process (it never changes, and
    checking it took nine tenths of every scenario load)."""
    base = bundled_document()
    validate(base, load_schema(*SCHEMA), "model/cloudspire/data/cloudspire.json")
    return base


OVERRIDES = OverrideSpec(
    GAME,
    (
        Collection(("values",), merge=False, what="value"),
        Collection(("dice", "colours"), drop=(), what="die colour"),
        Collection(("heroes",), "faction", drop=(), what="faction hero card"),
        Collection(("minis",), "faction", drop=(), what="faction mini card"),
        Collection(("conflict",), "id", drop=(), what="conflict card"),
        Collection(("universal_heroes",), "name", drop=(), what="universal hero"),
    ),
)
"""What a partial override (``"extends": "bundled"``) names by id (model/core/overrides.py)."""


_NAMES: dict[int, tuple[GameData, dict[str, tuple[str, ...]], list[str]]] = derived_cache({})


def _card_names(data: GameData) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    """:meth:`GameData.names` and its sorted keys, kept per data object (a scenario's load
    resolves every card it names: listing the names each time was a third of the load)."""
    found = _NAMES.get(id(data))
    if found is None or found[0] is not data:
        if len(_NAMES) >= 16:
            _NAMES.clear()
        names = data.names()
        found = _NAMES[id(data)] = (data, names, sorted(names))
    return found[1], found[2]


def build_game_data(overrides: dict[str, Any] | None, source: str = "data") -> GameData:
    """The bundled data, the data a run set (``overrides.in_force``), then ``overrides`` (a data
    document, full or partial, already parsed) on top."""
    if overrides is None:  # the data in force alone: built once per data, its reads recorded
        return default_data()
    return _build_in_force(overrides, source)


def _build_in_force(overrides: dict[str, Any] | None, source: str) -> GameData:
    return build_in_force(OVERRIDES, bundled_document(), load_schema(*SCHEMA), overrides, source, _build_full)


def _build_full(overrides: dict[str, Any] | None, source: str) -> GameData:
    base = _validated_bundle()
    if overrides is not None:
        validate(overrides, load_schema(*SCHEMA), source)
        integers_only(overrides, source)
    over = overrides or {}
    base_set = base["provenance"]
    card_set = Sourced(base_set["value"], Provenance(base_set["value"]), base_set["source"])

    dice = _dice(base["dice"], over.get("dice"), source)
    values = _values(base["values"], over.get("values", {}), source)
    heroes = _merge(base["heroes"], over.get("heroes", []), "faction", ("heroes", source))
    minis = _merge(base["minis"], over.get("minis", []), "faction", ("minis", source))
    conflict = _merge(base["conflict"], over.get("conflict", []), "id", ("conflict", source))
    universal = _merge(
        base["universal_heroes"], over.get("universal_heroes", []), "name", ("universal_heroes", source)
    )
    _check_unit_dice(dice, values, over, source)

    default_prov = Provenance(base_set["value"])
    cards: list[Card] = []
    factions: list[str] = []
    hero_places: list[tuple[str, Path, bool]] = []  # each hero card's document, path, whether user's
    for raw, user, index in heroes:
        where: Path = ("heroes", index)
        prov, src, doc_source = _prov(raw, user, default_prov, base_set["source"], source)
        hero_places.append((doc_source, where, user))
        faction = raw["faction"]
        if faction in factions:
            raise MalformedInputError(
                doc_source, json_path((*where, "faction")), f"faction {faction!r} twice"
            )
        factions.append(faction)
        hero = _hero(raw["hero"], doc_source, (*where, "hero"))
        boss = _enemy(raw["boss"], doc_source, (*where, "boss"), boss=True)
        cards.append(Card(f"{faction}-H", CardKind.HERO, faction, boss, None, hero, prov, src))
    for raw, user, index in minis:
        where = ("minis", index)
        prov, src, doc_source = _prov(raw, user, default_prov, base_set["source"], source)
        faction = _faction(raw["faction"], factions, doc_source, (*where, "faction"))
        mini_raw = raw["mini_hero"]
        ability = _effects(
            mini_raw.get("ability", []), "ability", doc_source, (*where, "mini_hero", "ability")
        )
        item = ItemSide(mini_raw["name"], False, (), ability)
        boss = _enemy(raw["mini_boss"], doc_source, (*where, "mini_boss"), boss=True)
        cards.append(Card(f"{faction}-M", CardKind.MINI, faction, boss, item, None, prov, src))
    for raw, user, index in conflict:
        where = ("conflict", index)
        prov, src, doc_source = _prov(raw, user, default_prov, base_set["source"], source)
        faction = _faction(raw["faction"], factions, doc_source, (*where, "faction"))
        enemy = _enemy(raw["enemy"], doc_source, (*where, "enemy"), boss=False)
        item = _item(raw["item"], doc_source, (*where, "item"))
        cards.append(Card(raw["id"], CardKind.CONFLICT, faction, enemy, item, None, prov, src))
    ids = [c.id for c in cards]
    for i, cid in enumerate(ids):
        if ids.index(cid) != i:
            raise MalformedInputError(source, "$.conflict", f"card id {cid!r} is used twice")
    _check_starting_spires(cards, hero_places, source)
    heroes_out = []
    for raw, user, index in universal:
        prov, src, doc_source = _prov(raw, user, default_prov, base_set["source"], source)
        where = ("universal_heroes", index)
        ability = _effects(raw.get("ability", []), "ability", doc_source, (*where, "ability"))
        hero = HeroSide(raw["name"], "", raw["health"], raw["strategy"], raw["recovery"], ability, (), True)
        heroes_out.append((hero, prov, src))
    replaced = sum(1 for c in cards if c.provenance is Provenance.USER)
    if replaced:
        rest = len(cards) - replaced
        value = "user" if not rest else f"{card_set.value}, {replaced} card(s) from user data"
        card_set = Sourced(
            value,
            Provenance.USER,
            f"{source}: {replaced} card(s) replaced or added; {rest} from the bundled set",
        )
    return GameData(dice, values, tuple(cards), tuple(heroes_out), tuple(factions), card_set)


def _merge(
    base: list[dict[str, Any]], over: list[dict[str, Any]], key: str, where: tuple[str, str]
) -> list[tuple[dict[str, Any], bool, int]]:
    """Base entries replaced by override entries with the same ``key``; new ones appended.

    Each entry comes with whether it is the user's and its index in its own document (for errors).
    ``where`` is the override's section and document: one key given twice there is refused (the
    second would silently replace the first).
    """
    section, source = where
    index: dict[Any, int] = {}
    for i, entry in enumerate(over):
        if entry[key] in index:
            raise MalformedInputError(
                source,
                json_path((section, i, key)),
                f"{key} {entry[key]!r} is given twice (also at {section}[{index[entry[key]]}])",
            )
        index[entry[key]] = i
    out = [
        (over[index[b[key]]], True, index[b[key]]) if b[key] in index else (b, False, i)
        for i, b in enumerate(base)
    ]
    known = {b[key] for b in base}
    out += [(o, True, i) for i, o in enumerate(over) if o[key] not in known]
    return out


def _prov(
    raw: dict[str, Any], user: bool, default: Provenance, default_source: str, source: str
) -> tuple[Provenance, str, str]:
    if user:
        return Provenance.USER, raw.get("source", source), source
    return default, raw.get("source", default_source), "model/cloudspire/data/cloudspire.json"


VALUE_RANGES: dict[str, tuple[int, int]] = {
    "unit_dice": (1, 45),  # five colours of at most 9 dice (data.schema.json)
    "hit_damage": (1, 99),
    "crit_damage": (1, 99),
    "deploy_fail_damage": (0, 99),
    "rounds_limit": (1, 1000),  # as --rounds: a game of no round answers nothing
    "inventory_limit": (0, 99),
}
"""Each number's sane range (documented in data.schema.json and docs/cloudspire.md): a value
outside it is a typo, and 0 for a count the rules divide or loop by is no game at all."""


def _check_unit_dice(
    dice: DiceTable, values: tuple[tuple[str, Sourced[Any]], ...], over: dict[str, Any], source: str
) -> None:
    """The unit dice value counts the dice table's dice: the two must agree (one changed alone is
    a half-made edit)."""
    total = sum(n for _, n in dice.counts)
    stated = dict(values)["unit_dice"].value
    if total < 1:
        raise MalformedInputError(
            source, "$.dice.colours", "the dice table has no die; give a colour a count of 1 or more"
        )
    if stated != total:
        where = "$.values.unit_dice" if "unit_dice" in over.get("values", {}) else "$.dice.colours"
        raise MalformedInputError(
            source,
            where,
            f"unit_dice is {stated} but the dice table's counts add up to {total}; set both to agree",
        )


def _check_starting_spires(cards: list[Card], places: list[tuple[str, Path, bool]], source: str) -> None:
    """Every faction hero starts with the two spire cards of its own faction named on it (seed 004,
    Setup); a name no pair of cards has is a dangling reference, refused where it is written."""
    for card, (doc_source, where, user) in zip(
        (c for c in cards if c.kind is CardKind.HERO), places, strict=True
    ):
        assert card.hero is not None
        spire = card.hero.starting_spire
        named = [
            c.id
            for c in cards
            if c.kind is CardKind.CONFLICT
            and c.faction == card.faction
            and c.item is not None
            and c.item.spire
            and c.item.name == spire
        ]
        if len(named) == 2:
            continue
        spires = sorted(
            {c.item.name for c in cards if c.faction == card.faction and c.item is not None and c.item.spire}
        )
        reason = (
            f"the {card.faction} hero starts with two {spire!r} spire cards of its faction; "
            f"the data has {len(named)} (its spires: {', '.join(spires) or 'none'})"
        )
        if user:
            raise MalformedInputError(doc_source, json_path((*where, "hero", "starting_spire")), reason)
        raise MalformedInputError(source, "$.conflict", reason)


def _faction(name: str, factions: list[str], source: str, path: Path) -> str:
    if name not in factions:
        raise MalformedInputError(
            source, json_path(path), f"faction {name!r} has no hero/boss card; known: {', '.join(factions)}"
        )
    return name


def _dice(base: dict[str, Any], over: dict[str, Any] | None, source: str) -> DiceTable:
    colours = dict(base["colours"])
    prov, src = Provenance(base["provenance"]), base["source"]
    if over is not None:
        colours.update(over.get("colours", {}))
        prov, src = Provenance.USER, over.get("source", source)
    counts, faces = [], []
    for colour in COLOURS:
        entry = colours.get(colour.value, {"count": 0, "faces": ["miss"] * 6})
        counts.append((colour, entry["count"]))
        faces.append((colour, tuple(Face(f) for f in entry["faces"])))
    return DiceTable(tuple(counts), tuple(faces), prov, src)


def _values(base: dict[str, Any], over: dict[str, Any], source: str) -> tuple[tuple[str, Sourced[Any]], ...]:
    out = {}
    for key, entry in base.items():
        out[key] = Sourced(entry["value"], Provenance(entry["provenance"]), entry["source"])
    for key, value in over.items():
        if key not in out:
            raise MalformedInputError(
                source, json_path(("values", key)), f"unknown value {key!r}; known: {', '.join(sorted(out))}"
            )
        raw = value["value"] if isinstance(value, dict) else value
        low, high = VALUE_RANGES.get(key, (0, 1000))
        if key == "inventory_limit" and raw == "strategy":
            pass
        elif not isinstance(raw, int) or isinstance(raw, bool):
            also = " or 'strategy'" if key == "inventory_limit" else ""
            raise MalformedInputError(source, json_path(("values", key)), f"{key} is a whole number{also}")
        elif not low <= raw <= high:
            raise MalformedInputError(
                source, json_path(("values", key)), f"{key} must be from {low} to {high}, got {raw}"
            )
        out[key] = out[key].overridden(
            raw, value.get("source", source) if isinstance(value, dict) else source
        )
    return tuple(sorted(out.items()))


def _effects(raw: list[str], field: str, source: str, path: Path) -> tuple[Effect, ...]:
    out = []
    for i, text in enumerate(raw):
        try:
            effect = Effect.parse(text)
        except ValueError as err:
            raise MalformedInputError(source, json_path((*path, i)), str(err)) from None
        if effect.kind not in ALLOWED[field]:
            allowed = ", ".join(sorted(k.value for k in ALLOWED[field]))
            raise MalformedInputError(
                source,
                json_path((*path, i)),
                f"{effect.kind.value} is not allowed as {field}; use one of {allowed}",
            )
        out.append(effect)
    return tuple(out)


def _blueprint(raw: list[str], source: str, path: Path) -> tuple[Colour | None, ...]:
    out: list[Colour | None] = []
    for i, text in enumerate(raw):
        if text == "wild":
            out.append(None)
            continue
        try:
            out.append(Colour.parse(text))
        except ValueError as err:
            raise MalformedInputError(source, json_path((*path, i)), f"{err}, or wild") from None
    return tuple(out)


def _enemy(raw: dict[str, Any], source: str, path: Path, *, boss: bool) -> EnemySide:
    return EnemySide(
        name=raw["name"],
        health=raw["health"],
        damage=raw["damage"],
        additional_enemies=raw.get("additional_enemies", 0),
        activation=_effects(raw.get("activation", []), "activation", source, (*path, "activation")),
        ongoing=_effects(raw.get("ongoing", []), "ongoing", source, (*path, "ongoing")),
        after=_effects(raw.get("after", []), "after", source, (*path, "after")),
        reward=_effects(raw.get("reward", []), "reward", source, (*path, "reward")),
        boss=boss,
        global_effects=_effects(raw.get("global", []), "global", source, (*path, "global")),
    )


def _item(raw: dict[str, Any], source: str, path: Path) -> ItemSide:
    spire = raw["spire"]
    blueprints = _blueprint(raw.get("blueprints", []), source, (*path, "blueprints"))
    if blueprints and not spire:
        raise MalformedInputError(source, json_path((*path, "blueprints")), "only spires have blueprints")
    return ItemSide(
        raw["name"], spire, blueprints, _effects(raw.get("effects", []), "item", source, (*path, "effects"))
    )


def _hero(raw: dict[str, Any], source: str, path: Path) -> HeroSide:
    return HeroSide(
        name=raw["name"],
        starting_spire=raw["starting_spire"],
        health=raw["health"],
        strategy=raw["strategy"],
        recovery=raw["recovery"],
        ability=_effects(raw.get("ability", []), "ability", source, (*path, "ability")),
        blueprint=_blueprint(raw.get("blueprint", []), source, (*path, "blueprint")),
    )

"""Game data with provenance: numbers, the village cost, dice, action values, the starting
action board, the Warlord Board, the map, the Invader Action cards and the Invader Events.

The bundled file ``data/vulketh.json`` holds every value the oracle uses, each with its
provenance: ``seed`` (stated in seed 003, cited by section), ``derived`` (follows from the seed
by a stated argument) or ``assumed`` (not in the seed). The Invader Action cards and Invader
Events are an **assumed example set**: the printed cards are unknown. A data document
(``--data FILE`` or a scenario's ``data`` field; schema ``data.schema.json``) overrides any of it,
and everything it gives is marked ``user``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import integers_only, json_path, load_schema, validate
from invasion_oracle.model.core.overrides import (
    Collection,
    OverrideSpec,
    build_in_force,
    data_in_force_of,
)
from invasion_oracle.model.core.provenance import Provenance, Sourced
from invasion_oracle.model.core.rulings import resolve_name
from invasion_oracle.model.vulketh.action_board import ACTIONS, FACES, STRENGTHS, ActionBoard
from invasion_oracle.model.vulketh.cards import ActionCard, Effect, EventCard, Goal, InvaderAction
from invasion_oracle.model.vulketh.effects import EFFECT_KINDS, GOAL_KINDS
from invasion_oracle.model.vulketh.hexmap import HexMap, default_map, parse_map
from invasion_oracle.model.vulketh.rulings import GAME
from invasion_oracle.model.vulketh.state import Resources

POWERS = ("steal-resources", "convert", "spread", "regress", "war")
DIFFICULTIES = ("easy", "normal", "difficult")
Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class GameData:
    """Everything the rules need that is data, with provenance."""

    values: tuple[tuple[str, Sourced[int]], ...]
    village_cost: Sourced[Resources]
    dice_faces: Sourced[tuple[tuple[str, int], ...]]
    action_values: Sourced[tuple[tuple[str, tuple[int, int, int]], ...]]
    initial_rows: Sourced[ActionBoard]
    warlord_sections: Sourced[tuple[str, ...]]
    map: HexMap
    action_cards: tuple[ActionCard, ...]
    action_cards_source: Sourced[str]
    invader_events: tuple[EventCard, ...]
    invader_events_source: Sourced[str]

    def value(self, key: str) -> int:
        return dict(self.values)[key].value

    def amount(self, action: str, strength: str) -> int:
        """What GROW / MOVE / GATHER gives at ``strength``."""
        return dict(self.action_values.value)[action][STRENGTHS.index(strength)]

    def die_outcomes(self) -> tuple[str, ...]:
        """A die's faces, repeated by count (a seeded source then has the right odds)."""
        return tuple(face for face, n in self.dice_faces.value for _ in range(n))

    def card(self, card_id: str) -> ActionCard:
        for card in self.action_cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def event(self, event_id: str) -> EventCard:
        for card in self.invader_events:
            if card.id == event_id:
                return card
        raise KeyError(event_id)

    def resolve_card(self, name: str, source: str, path: str) -> str:
        return resolve_name(name, [c.id for c in self.action_cards], "Invader Action card", source, path)

    def resolve_event(self, name: str, source: str, path: str) -> str:
        ids = [c.id for c in self.invader_events]
        names = {c.name: c.id for c in self.invader_events}
        if name in names:
            return names[name]
        return resolve_name(name, ids, "Invader Event", source, path)

    def deck(self, number: int) -> tuple[str, ...]:
        return tuple(sorted(c.id for c in self.action_cards if c.deck == number))

    def to_json(self) -> dict[str, Any]:
        faces = dict(self.dice_faces.value)
        return {
            "values": {k: v.to_json() for k, v in self.values},
            "village_cost": self.village_cost.to_json(),
            "dice_faces": {**self.dice_faces.to_json(), "value": faces},
            "action_values": {
                **self.action_values.to_json(),
                "value": {
                    action: dict(zip(STRENGTHS, numbers, strict=True))
                    for action, numbers in self.action_values.value
                },
            },
            "initial_rows": self.initial_rows.to_json(),
            "warlord_sections": self.warlord_sections.to_json(),
            "map": self.map.to_json(),
            "action_cards": {
                **self.action_cards_source.to_json(),
                "value": None,
                "cards": [c.to_json() for c in self.action_cards],
            },
            "invader_events": {
                **self.invader_events_source.to_json(),
                "value": None,
                "cards": [c.to_json() for c in self.invader_events],
            },
        }


@cache
def _bundled() -> dict[str, Any]:
    text = resources.files("invasion_oracle.model.vulketh").joinpath("data/vulketh.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _check_effects(raw: Sequence[dict[str, Any]], source: str, path: Path) -> None:
    for i, effect in enumerate(raw):
        where = (*path, i)
        kind = effect["effect"]
        if kind not in EFFECT_KINDS:
            raise MalformedInputError(
                source,
                json_path((*where, "effect")),
                f"unknown effect {kind!r}; known: {', '.join(sorted(EFFECT_KINDS))}",
            )
        for field in EFFECT_KINDS[kind].fields:
            if field not in effect:
                raise MalformedInputError(source, json_path(where), f"a {kind} effect needs {field!r}")
        if kind == "power" and effect["power"] not in POWERS:
            raise MalformedInputError(
                source, json_path((*where, "power")), f"unknown Warlord power {effect['power']!r}"
            )


def _goal(raw: dict[str, Any], source: str, path: Path) -> Goal:
    kind = raw["goal"]
    if kind not in GOAL_KINDS:
        raise MalformedInputError(
            source,
            json_path((*path, "goal")),
            f"unknown goal {kind!r}; known: {', '.join(sorted(GOAL_KINDS))}",
        )
    for field in GOAL_KINDS[kind].fields:
        if field not in raw:
            raise MalformedInputError(source, json_path(path), f"a {kind} goal needs {field!r}")
    return Goal.from_json(raw)


def _cards(
    raw: Sequence[dict[str, Any]], source: str, path: Path, provenance: Provenance
) -> tuple[ActionCard, ...]:
    cards: list[ActionCard] = []
    for i, card in enumerate(raw):
        where = (*path, i)
        if any(c.id == card["id"] for c in cards):
            raise MalformedInputError(
                source, json_path((*where, "id")), f"Invader Action card {card['id']!r} is listed twice"
            )
        _check_effects(card.get("reward", []), source, (*where, "reward"))
        first, second = (
            InvaderAction(a["action"], a["face"], a.get("direction", "lowest")) for a in card["actions"]
        )
        cards.append(
            ActionCard(
                card["id"],
                card["deck"],
                (first, second),
                _goal(card["goal"], source, (*where, "goal")),
                tuple(Effect.from_json(e) for e in card.get("reward", [])),
                card["next_deck"],
                provenance,
                card.get("source", source),
            )
        )
    for deck in (1, 2, 3):
        if not any(c.deck == deck for c in cards):
            raise MalformedInputError(source, json_path(path), f"deck {deck} has no Invader Action card")
    return tuple(cards)


def _events(
    raw: Sequence[dict[str, Any]], source: str, path: Path, provenance: Provenance
) -> tuple[EventCard, ...]:
    events: list[EventCard] = []
    for i, event in enumerate(raw):
        where = (*path, i)
        if any(e.id == event["id"] for e in events):
            raise MalformedInputError(
                source, json_path((*where, "id")), f"Invader Event {event['id']!r} is listed twice"
            )
        _check_effects(event["effects"], source, (*where, "effects"))
        events.append(
            EventCard(
                event["id"],
                event["name"],
                tuple(Effect.from_json(e) for e in event["effects"]),
                provenance,
                event.get("source", source),
            )
        )
    return tuple(events)


def _board(rows: dict[str, list[str]]) -> ActionBoard:
    r = [tuple(rows[a]) for a in ACTIONS]
    return ActionBoard(
        (
            (r[0][0], r[0][1], r[0][2]),
            (r[1][0], r[1][1], r[1][2]),
            (r[2][0], r[2][1], r[2][2]),
            (r[3][0], r[3][1], r[3][2]),
        )
    )


OVERRIDES = OverrideSpec(
    GAME,
    (
        Collection(("values",), merge=False, what="value"),
        Collection(
            ("action_cards",),
            "id",
            bundled=("action_cards", "cards"),
            whole=True,
            drop=(),
            what="Invader Action card",
        ),
        Collection(
            ("invader_events",),
            "id",
            bundled=("invader_events", "cards"),
            whole=True,
            drop=(),
            what="Invader Event",
        ),
    ),
)
"""What a partial override (``"extends": "bundled"``) names by id (model/core/overrides.py): the
Invader Action cards and Events are read as whole decks, so a record can be removed from them."""


def build_game_data(overrides: Mapping[str, Any] | None = None, source: str = "data") -> GameData:
    """The data in force: the bundled file, the data a run set (``overrides.in_force``), then a
    user data document (full or partial) on top."""
    if overrides is None:  # the data in force alone: built once per data, its reads recorded
        return default_data()
    return _build_in_force(overrides, source)


def _build_in_force(overrides: Mapping[str, Any] | None, source: str) -> GameData:
    schema = load_schema("invasion_oracle.model.vulketh", "data.schema.json")
    return build_in_force(OVERRIDES, _bundled(), schema, overrides, source, _build_full)


def _build_full(overrides: Mapping[str, Any] | None, source: str) -> GameData:
    base = _bundled()
    values = {
        k: Sourced(v["value"], Provenance(v["provenance"]), v["source"]) for k, v in base["values"].items()
    }

    def sourced(key: str) -> Sourced[Any]:
        raw = base[key]
        return Sourced(raw["value"], Provenance(raw["provenance"]), raw["source"])

    village_cost = sourced("village_cost")
    dice_faces = sourced("dice_faces")
    action_values = sourced("action_values")
    initial_rows = sourced("initial_rows")
    sections_value = sourced("warlord_sections")
    sections = tuple(sections_value.value)
    hex_map = default_map()
    cards_raw, cards_prov = base["action_cards"], Provenance(base["action_cards"]["provenance"])
    cards_source = Sourced(cards_raw["source"], cards_prov, cards_raw["source"])
    events_raw = base["invader_events"]
    events_source = Sourced(events_raw["source"], Provenance(events_raw["provenance"]), events_raw["source"])
    card_list, card_path, card_src = cards_raw["cards"], ("action_cards",), "bundled data"
    event_list, event_path, event_src = events_raw["cards"], ("invader_events",), "bundled data"
    cards_provenance = events_provenance = Provenance.ASSUMED
    if overrides:
        integers_only(overrides, source)
        validate(overrides, load_schema("invasion_oracle.model.vulketh", "data.schema.json"), source)
        for key, value in overrides.get("values", {}).items():
            if key not in values:
                raise MalformedInputError(
                    source, json_path(("values", key)), f"unknown value; known: {', '.join(sorted(values))}"
                )
            values[key] = values[key].overridden(value, source)
        if "village_cost" in overrides:
            village_cost = village_cost.overridden(
                {**{k: 0 for k in ("food", "wood", "stone")}, **overrides["village_cost"]}, source
            )
        if "dice_faces" in overrides:
            dice_faces = dice_faces.overridden(overrides["dice_faces"], source)
        if "action_values" in overrides:
            action_values = action_values.overridden(
                {**action_values.value, **overrides["action_values"]}, source
            )
        if "initial_rows" in overrides:
            initial_rows = initial_rows.overridden(overrides["initial_rows"], source)
        if "warlord_sections" in overrides:
            sections_value = sections_value.overridden(overrides["warlord_sections"], source)
            sections = tuple(sections_value.value)
        if "map" in overrides:
            hex_map = parse_map(overrides["map"], source, ("map",))
        if "action_cards" in overrides:
            card_list, card_path, card_src = overrides["action_cards"], ("action_cards",), source
            cards_provenance = Provenance.USER
            cards_source = Sourced(f"the data file {source}", Provenance.USER, source)
        if "invader_events" in overrides:
            event_list, event_path, event_src = overrides["invader_events"], ("invader_events",), source
            events_provenance = Provenance.USER
            events_source = Sourced(f"the data file {source}", Provenance.USER, source)
    if not any(dice_faces.value.values()):
        raise MalformedInputError(source, "$.dice_faces", "a die needs at least one face")
    if values["warlords_to_win"].value > len(sections):
        raise MalformedInputError(
            source,
            "$.values.warlords_to_win",
            f"{values['warlords_to_win'].value} Warlords cannot be summoned from a board of {len(sections)} sections",
        )
    for key in ("population_limit", "warlord_cost", "winning_score", "warlords_to_win", "seize_cost"):
        if values[key].value < 1:
            raise MalformedInputError(source, json_path(("values", key)), "must be at least 1")
    if not 1 <= values["start_hex"].value <= 9:
        raise MalformedInputError(source, "$.values.start_hex", "the hexes are numbered 1-9")
    _check_sizes({k: v.value for k, v in values.items()}, dice_faces.value, source)
    cards = _cards(card_list, card_src, card_path, cards_provenance)
    events = _events(event_list, event_src, event_path, events_provenance)
    return GameData(
        values=tuple(sorted(values.items())),
        village_cost=Sourced(Resources(**village_cost.value), village_cost.provenance, village_cost.source),
        dice_faces=Sourced(
            tuple((f, dice_faces.value[f]) for f in FACES), dice_faces.provenance, dice_faces.source
        ),
        action_values=Sourced(
            tuple(
                (a, tuple(action_values.value[a][s] for s in STRENGTHS)) for a in ("GROW", "MOVE", "GATHER")
            ),
            action_values.provenance,
            action_values.source,
        ),
        initial_rows=Sourced(_board(initial_rows.value), initial_rows.provenance, initial_rows.source),
        warlord_sections=Sourced(sections, sections_value.provenance, sections_value.source),
        map=hex_map,
        action_cards=cards,
        action_cards_source=cards_source,
        invader_events=events,
        invader_events_source=events_source,
    )


MAX_VALUE = 999
"""The largest number a value may hold (data.schema.json): every bundled one is in single or
double figures; beyond this a count is a typo that would make the state or a search huge."""
MAX_MEMBERS = 99
"""The most members a side may have (``player_members``, ``invader_members``): the box holds 20."""
MAX_DIE_FACES = 99
"""The most faces of one kind on a die (data.schema.json): a seeded roll lists every face."""


def _check_sizes(values: Mapping[str, int], faces: Mapping[str, int], source: str) -> None:
    """No count so large that a state or a roll list explodes (how the set-up counts fit the
    members is checked where a scenario starts at setup: a position may have fewer members)."""
    for key, value in sorted(values.items()):
        if value > MAX_VALUE:
            raise MalformedInputError(source, json_path(("values", key)), f"{value} is above {MAX_VALUE}")
    for key in ("player_members", "invader_members"):
        if values[key] > MAX_MEMBERS:
            raise MalformedInputError(
                source, json_path(("values", key)), f"at most {MAX_MEMBERS} members, got {values[key]}"
            )
    for face, count in sorted(faces.items()):
        if count > MAX_DIE_FACES:
            raise MalformedInputError(
                source,
                json_path(("dice_faces", face)),
                f"at most {MAX_DIE_FACES} faces of a kind, got {count}",
            )


default_data = data_in_force_of(GAME, GameData, lambda: _build_in_force(None, "data"))
"""The data in force (the bundled data unless a run set other data), built once per data."""

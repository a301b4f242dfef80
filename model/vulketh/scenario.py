"""Scenario files: JSON in, the rules, an initial :class:`GameState` and answerers out.

The format is the JSON Schema ``scenario.schema.json`` (``invasion schema vulketh-scenario``),
explained in ``docs/vulketh.md``. Loading checks the schema first, then what a schema cannot
say: every number an integer (``2.0`` is refused), cards and events that exist and sit in the
right deck, Warlord tokens used once, no hex above the Invader cap, supplies that add up, rival
tribes that are declared. Every error reads ``file:json.path: reason``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.codec import ScenarioCodec, embedded_data, schema_check
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import json_path
from invasion_oracle.model.core.rulings import name_hint
from invasion_oracle.model.core.spec import ScenarioBase, ScenarioInput
from invasion_oracle.model.core.suggest import did_you_mean
from invasion_oracle.model.vulketh.action_board import ACTIONS, ActionBoard
from invasion_oracle.model.vulketh.data import GameData, build_game_data, default_data
from invasion_oracle.model.vulketh.game import VULKETH, Rules, VulkethGame
from invasion_oracle.model.vulketh.hexmap import parse_map
from invasion_oracle.model.vulketh.rulings import GAME
from invasion_oracle.model.vulketh.state import (
    INVADERS,
    PLAYER,
    GameState,
    Hex,
    InvaderTurn,
    PlayerTurn,
    Resources,
    Rival,
    Round,
    ScriptedDie,
    Setup,
    Task,
)

SCHEMA = ("invasion_oracle.model.vulketh", "scenario.schema.json")
POSITION_FIELDS = (
    "hexes",
    "action_board",
    "score",
    "resources",
    "invader_resources",
    "reserve",
    "supply",
    "warlord_board",
    "discard",
    "last_card",
    "invader_turns",
)


@dataclass(frozen=True)
class Scenario(ScenarioBase[GameState]):
    """A loaded scenario: the rules in force (rulings, data, map, tribes, difficulty), the
    initial state and the answerers."""

    data: GameData
    rules: Rules

    def game(self) -> VulkethGame:
        return VulkethGame(self.rules)


def _check(document: Any, source: str) -> None:
    if not isinstance(document, dict):
        raise MalformedInputError(source, "$", "a scenario is a JSON object")
    _check_schema(document, source)


def _read(given: ScenarioInput) -> Scenario:
    document, source = given.document, given.source
    data = (
        embedded_data(given, build_game_data)
        if given.data_overrides or "data" in document
        else default_data()
    )
    hex_map = parse_map(document["map"], source, ("map",)) if "map" in document else data.map
    rivals = _rivals(document, source)
    rules = Rules.of(
        given.rulings,
        data,
        hex_map=hex_map,
        tribe=_tribe(document.get("tribe", "standard"), source),
        rivals=rivals,
        difficulty=document.get("difficulty", "normal"),
        source=source,
    )
    if document.get("start", "setup") == "setup":
        # where the data in force was written: a --data file, the scenario's data, or the bundle
        place = (given.data_source, "$") if given.data_overrides else (source, "$.data")
        _check_setup_counts(rules, place)
    initial = initial_state(document, source, rules)
    _check_chance(document, source, data)
    return Scenario.of(given, data, initial, rules=rules)


_check_schema = schema_check(*SCHEMA)
CODEC = ScenarioCodec(GAME, _check, _read)
load = CODEC.load
load_scenario = CODEC.load_scenario
scenario_from_document = CODEC.scenario_from_document


def _check_chance(document: Mapping[str, Any], source: str, data: GameData) -> None:
    """Check the chance script, each result against what chance can give in this game (a die
    face, an Invader Action card, an Invader Event), so a misspelt id is named even when the run
    never reaches it."""
    chance = document.get("chance")
    if not isinstance(chance, Mapping):
        return
    vocabulary = [
        *dict.fromkeys(data.die_outcomes()),
        *(c.id for c in data.action_cards),
        *(c.id for c in data.invader_events),
    ]
    for i, answer in enumerate(chance.get("script", [])):
        if isinstance(answer, str) and answer not in vocabulary:
            raise MalformedInputError(
                source,
                json_path(("chance", "script", i)),
                f"{answer!r} is not a die face, an Invader Action card or an Invader Event id"
                f"{name_hint(answer, vocabulary)}",
            )


TRIBES = ("standard", VULKETH)  # the tribes the model tells apart (the base game's play alike)


def _tribe(name: str, source: str) -> str:
    """``standard`` or ``vulketh`` (spelt ``Vul'Keth`` or ``vul-keth`` too); anything else is refused
    rather than played as a standard tribe without a word."""
    folded = name.casefold().replace("'", "").replace("-", "")
    if folded not in TRIBES:
        raise MalformedInputError(
            source,
            "$.tribe",
            f"unknown tribe {name!r}; one of {', '.join(TRIBES)} ('vulketh' gives Seize and Pillage; "
            "the base game's tribes play as 'standard')",
        )
    return folded


def _rivals(doc: dict[str, Any], source: str) -> tuple[Rival, ...]:
    rivals: list[Rival] = []
    for i, raw in enumerate(doc.get("rivals", [])):
        name = raw["name"]
        if name in (PLAYER, INVADERS) or any(r.name == name for r in rivals):
            raise MalformedInputError(
                source,
                json_path(("rivals", i, "name")),
                f"{name!r} is taken; give each rival tribe its own name",
            )
        rivals.append(Rival(name, raw.get("evasion", False)))
    return tuple(rivals)


def initial_state(doc: dict[str, Any], source: str, rules: Rules) -> GameState:
    """The state a scenario document describes (schema-valid input assumed)."""
    data = rules.data
    start = doc.get("start", "setup")
    turns = tuple(_player_turn(raw, source, i, rules) for i, raw in enumerate(doc.get("player_turns", [])))
    _check_technologies(doc, source)
    events_pile, events_discard = _events(doc, source, data)
    agenda: tuple[Task, ...]
    if start == "setup":
        for field in POSITION_FIELDS:
            if field in doc:
                raise MalformedInputError(
                    source,
                    json_path((field,)),
                    "a scenario starting at setup has no position yet; use start 'player' or 'invader'",
                )
        decks = tuple(data.deck(n) for n in (1, 2, 3))
        return GameState(
            hexes=tuple(Hex() for _ in range(9)),
            board=data.initial_rows.value,
            decks=(decks[0], decks[1], decks[2]),
            event_pile=events_pile,
            event_discard=events_discard,
            developments=doc.get("developments", 0),
            bronze=tuple(sorted(doc.get("bronze", {}).items())),
            player_turns=turns,
            agenda=(Setup(), Round()),
        )
    hexes = _hexes(doc, source, rules)
    sections = data.warlord_sections.value
    on_map = [h.warlord for h in hexes if h.warlord is not None]
    if "warlord_board" in doc:
        board = tuple(doc["warlord_board"])
        for i, token in enumerate(board):
            where = json_path(("warlord_board", i))
            if token not in sections:
                raise MalformedInputError(source, where, f"{token!r} is not a section of this Warlord Board")
            if token in on_map:
                raise MalformedInputError(source, where, f"the {token} token is on the map, not on the board")
        board = tuple(t for t in sections if t in board)
    else:
        board = tuple(t for t in sections if t not in on_map)
    score = doc.get("score", 0)
    if score < 0 and rules.reading("VK-SCORE-FLOOR") == "zero":
        raise MalformedInputError(
            source, "$.score", "a negative score needs the ruling VK-SCORE-FLOOR=negative"
        )
    reserve_size = data.value("reserve_size")
    reserve = doc.get("reserve", reserve_size)
    if reserve > reserve_size:
        raise MalformedInputError(
            source, "$.reserve", f"the Warlord Track holds {reserve_size} overrun Invaders, got {reserve}"
        )
    player_supply, invader_supply = _supplies(doc, source, data, hexes, reserve)
    decks, discard, last_card = _decks(doc, source, data)
    invader_turns = doc.get("invader_turns", 1 if last_card else 0)
    if last_card and invader_turns == 0:
        raise MalformedInputError(
            source,
            "$.invader_turns",
            f"a card ({last_card}, $.last_card) was played last Invader turn, so at least one was taken",
        )
    agenda = (InvaderTurn(), Round()) if start == "invader" else (Round(),)
    return GameState(
        hexes=hexes,
        board=_board(doc, data.initial_rows.value),
        score=score,
        resources=Resources(**doc.get("resources", {})),
        player_supply=player_supply,
        invader_resources=doc.get("invader_resources", 0),
        invader_supply=invader_supply,
        reserve=reserve,
        warlord_board=board,
        decks=decks,
        discard=discard,
        last_card=last_card,
        invader_turns=invader_turns,
        event_pile=events_pile,
        event_discard=events_discard,
        developments=doc.get("developments", 0),
        bronze=tuple(sorted(doc.get("bronze", {}).items())),
        round=doc.get("round", 1),
        player_turns=turns,
        agenda=agenda,
    )


def _board(doc: dict[str, Any], initial: ActionBoard) -> ActionBoard:
    raw = doc.get("action_board", {})
    rows = [tuple(raw[a]) if a in raw else initial.row(a) for a in ACTIONS]
    r = [(row[0], row[1], row[2]) for row in rows]
    return ActionBoard((r[0], r[1], r[2], r[3]))


def _hexes(doc: dict[str, Any], source: str, rules: Rules) -> tuple[Hex, ...]:
    cells = [Hex() for _ in range(9)]
    rivals = {r.name for r in rules.rivals}
    seen_tokens: dict[str, str] = {}
    for key, raw in doc.get("hexes", {}).items():
        number = int(key)
        path: tuple[str | int, ...] = ("hexes", key)
        invaders = raw.get("invaders", 0)
        if invaders > rules.cap:
            raise MalformedInputError(
                source,
                json_path((*path, "invaders")),
                f"at most {rules.cap} Invaders fit in a hex, got {invaders}",
            )
        token = raw.get("warlord")
        if token is not None:
            if token not in rules.data.warlord_sections.value:
                raise MalformedInputError(
                    source, json_path((*path, "warlord")), f"{token!r} is not a section of this Warlord Board"
                )
            if token in seen_tokens:
                raise MalformedInputError(
                    source,
                    json_path((*path, "warlord")),
                    f"the {token} token is already the Warlord in hex {seen_tokens[token]}",
                )
            seen_tokens[token] = key
        village = raw.get("village")
        if village is not None and village != PLAYER and village not in rivals:
            raise MalformedInputError(
                source,
                json_path((*path, "village")),
                f"a village belongs to 'player' or a rival tribe listed in $.rivals, not {village!r}",
            )
        cell = Hex(raw.get("player", 0), invaders, token, village)
        for name, count in raw.get("rivals", {}).items():
            if name not in rivals:
                raise MalformedInputError(
                    source,
                    json_path((*path, "rivals", name)),
                    f"unknown rival tribe {name!r}; declare it in $.rivals",
                )
            cell = cell.with_rival(name, count)
        cells[number - 1] = cell
    return tuple(cells)


def _supplies(
    doc: Mapping[str, Any], source: str, data: GameData, hexes: tuple[Hex, ...], reserve: int
) -> tuple[int, int]:
    """The player's and the Invaders' supplies: every member that exists is on the map, in a
    supply or (overrun Invaders) still on the Warlord Track, so the supplies follow from the map.
    A ``supply`` field states them; it must agree, since a member never leaves the game (seed 003,
    Invader Actions: GROW and Warlord Powers: Convert take overrun Invaders onto the map, and
    Invaders removed go back to the supply). A position with fewer members says so in its data
    (``invader_members``, ``player_members``)."""
    supply = doc.get("supply", {})
    overrun = data.value("reserve_size")
    player = _supply(supply, source, "player", "the player has", data.value("player_members"), hexes, 0, 0)
    invaders = _supply(
        supply,
        source,
        "invaders",
        "the Invaders have",
        data.value("invader_members"),
        hexes,
        overrun,
        reserve,
    )
    return player, invaders


def _supply(
    supply: Mapping[str, Any],
    source: str,
    side: str,
    subject: str,
    members: int,
    hexes: tuple[Hex, ...],
    overrun: int,
    on_track: int,
) -> int:
    """One side's supply: its pieces (members, and overrun ones for the Invaders) less those on
    the map and on the Warlord Track; a stated ``supply[side]`` must agree."""
    on_map = sum(h.player if side == "player" else h.invaders for h in hexes)
    total = members + overrun
    expected = total - on_map - on_track
    pieces = f"{total} pieces ({members} members" + (f" and {overrun} overrun)" if overrun else ")")
    where = f"{on_map} on the map" + (f" and {on_track} on the Warlord Track" if overrun else "")
    if expected < 0:
        raise MalformedInputError(source, "$.hexes", f"{subject} {pieces}; {where} are too many")
    stated = supply.get(side, expected)
    if stated != expected:
        key = "player_members" if side == "player" else "invader_members"
        raise MalformedInputError(
            source,
            json_path(("supply", side)),
            f"{subject} {pieces}; with {where} the supply holds {expected}, not {stated} (members "
            f"never leave the game; for fewer members, set data.values.{key})",
        )
    return expected


def _decks(
    doc: dict[str, Any], source: str, data: GameData
) -> tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], tuple[str, ...], str | None]:
    where_seen: dict[str, str] = {}

    def card_ids(raw: list[str], path: tuple[str | int, ...]) -> tuple[str, ...]:
        out = []
        for i, name in enumerate(raw):
            where = json_path((*path, i))
            card = data.resolve_card(name, source, where)
            if card in where_seen:
                raise MalformedInputError(source, where, f"card {card} is already in {where_seen[card]}")
            where_seen[card] = json_path(path)
            out.append(card)
        return tuple(out)

    discard = card_ids(doc.get("discard", []), ("discard",))
    last_card = doc.get("last_card")
    if last_card is not None:
        last_card = data.resolve_card(last_card, source, "$.last_card")
        if not discard:
            raise MalformedInputError(
                source,
                "$.last_card",
                f"the card played last ({last_card}) is the top (last) card of the discard, which is empty; "
                f'add it there ("discard": [..., "{last_card}"])',
            )
        if discard[-1] != last_card:
            raise MalformedInputError(
                source,
                "$.last_card",
                f"the card played last ({last_card}) is the top (last) card of the discard, which is {discard[-1]}",
            )
    piles: list[tuple[str, ...]] = []
    for number in (1, 2, 3):
        key = str(number)
        if key in doc.get("decks", {}):
            pile = card_ids(doc["decks"][key], ("decks", key))
            for i, card in enumerate(pile):
                if data.card(card).deck != number:
                    raise MalformedInputError(
                        source,
                        json_path(("decks", key, i)),
                        f"card {card} belongs to deck {data.card(card).deck}",
                    )
        else:
            pile = tuple(c for c in data.deck(number) if c not in discard)
        piles.append(tuple(sorted(pile)))
    return (piles[0], piles[1], piles[2]), discard, last_card


def _events(doc: dict[str, Any], source: str, data: GameData) -> tuple[tuple[str, ...], tuple[str, ...]]:
    raw = doc.get("events", {})
    seen: set[str] = set()

    def ids(names: list[str], key: str) -> tuple[str, ...]:
        out = []
        for i, name in enumerate(names):
            where = json_path(("events", key, i))
            event = data.resolve_event(name, source, where)
            if event in seen:
                raise MalformedInputError(source, where, f"Invader Event {event} is listed twice")
            seen.add(event)
            out.append(event)
        return tuple(out)

    discard = ids(raw.get("discard", []), "discard")
    if "pile" in raw:
        pile = ids(raw["pile"], "pile")
    else:
        pile = tuple(e.id for e in data.invader_events if e.id not in discard)
    return tuple(sorted(pile)), discard


def _check_setup_counts(rules: Rules, place: tuple[str, str]) -> None:
    """Seed 003, Setup: the start members and each start hex's Invaders come out of the members
    the data gives, and a start hex holds no more than the hex limit. ``place``: the document the
    data in force came from and the path of its data object."""
    data = rules.data
    key = f"{rules.difficulty}_invaders"
    per_hex, members, cap = data.value(key), data.value("invader_members"), rules.cap
    source, prefix = place
    if data.value("start_members") > data.value("player_members"):
        raise MalformedInputError(
            source,
            f"{prefix}.values.start_members",
            f"{data.value('start_members')} members start on the map at setup but the player has "
            f"{data.value('player_members')} (values.player_members)",
        )
    if per_hex > cap:
        raise MalformedInputError(
            source,
            f"{prefix}.values.{key}",
            f"{per_hex} Invaders on each of hexes 1-3 at setup ({rules.difficulty}), above the hex "
            f"limit of {cap} (values.population_limit)",
        )
    if 3 * per_hex > members:
        raise MalformedInputError(
            source,
            f"{prefix}.values.{key}",
            f"3 x {per_hex} Invaders at setup ({rules.difficulty}), more than the {members} Invader "
            "members (values.invader_members)",
        )


def _check_technologies(doc: Mapping[str, Any], source: str) -> None:
    """Every Bronze technology a player turn steps is one the scenario names in its ``bronze``
    (a name met only in a turn is a typo, which would silently start a new technology)."""
    known = sorted(doc.get("bronze", {}))
    for i, turn in enumerate(doc.get("player_turns", [])):
        for name in turn.get("bronze", {}):
            if name in known:
                continue
            hint = did_you_mean(name, known, n=1)
            listed = ", ".join(known) or "none"
            raise MalformedInputError(
                source,
                json_path(("player_turns", i, "bronze", name)),
                f"unknown Bronze technology {name!r}{hint}; the scenario's $.bronze names {listed}: "
                "list each technology there, at step 0 if not begun",
            )


def _player_turn(raw: dict[str, Any], source: str, index: int, rules: Rules) -> PlayerTurn:
    path = ("player_turns", index)
    for i, move in enumerate(raw.get("move", [])):
        if move["from"] == move["to"]:
            raise MalformedInputError(
                source, json_path((*path, "move", i)), "a move goes from one hex to another"
            )
    return PlayerTurn(
        path=json_path(path),
        dice=tuple(ScriptedDie(d.get("face"), d.get("action")) for d in raw["dice"]),
        grow=tuple(sorted((int(k), v) for k, v in raw.get("grow", {}).items() if v)),
        moves=tuple((m["from"], m["to"], m["count"]) for m in raw.get("move", [])),
        gather=Resources(**raw.get("gather", {})),
        villages=tuple(raw.get("villages", [])),
        seize=tuple((s["hex"], Resources(**s["pay"])) for s in raw.get("seize", [])),
        points=raw.get("points", 0),
        developments=raw.get("developments"),
        bronze=tuple(sorted(raw.get("bronze", {}).items())),
    )

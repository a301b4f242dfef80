"""Scenario files: JSON in, an initial :class:`GameState` plus answerers out.

The format is the JSON Schema ``scenario.schema.json`` (``invasion schema cloudspire-scenario``),
explained in ``docs/cloudspire.md``. A scenario starts at ``setup`` (hero, mini-heroes, renown:
the oracle builds the Market and Deployment Stacks, asking chance requests for the shuffles and
the boss) or from a described ``state`` at the start of a round, at the Strategy phase, at the
Load step (dice already rolled), at Spires Fire or at Resolve.

Loading checks the schema first, then what a schema cannot say: numbers written as integers,
cards and dice that exist and are used once, cards on the side they can show where they are
(enemies of enemy factions in lanes, allied items in the Market), loaded dice on slots that exist
and accept them, applied dice on top cards. Every error reads ``file:json.path: reason``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from invasion_oracle.model.cloudspire.area import LANES, SPIRE_SPACES
from invasion_oracle.model.cloudspire.blueprints import Slot, accepts
from invasion_oracle.model.cloudspire.cards import CardKind, HeroSide
from invasion_oracle.model.cloudspire.data import GameData, build_game_data
from invasion_oracle.model.cloudspire.dice import Face, Zone, colour_of
from invasion_oracle.model.cloudspire.game import UNIVERSAL, CloudspireGame, Rules, resolve_tasks
from invasion_oracle.model.cloudspire.piles import Pile
from invasion_oracle.model.cloudspire.rulings import GAME
from invasion_oracle.model.cloudspire.state import (
    AddMiniBosses,
    AfterLoad,
    ChooseBoss,
    Created,
    Die,
    GameState,
    LoadDice,
    PlacedSpire,
    SpiresFire,
    StartEngagement,
    StartRound,
    Task,
)
from invasion_oracle.model.core.codec import ScenarioCodec, embedded_data, schema_check
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import json_path
from invasion_oracle.model.core.rulings import resolve_name
from invasion_oracle.model.core.spec import ScenarioBase, ScenarioInput

SCHEMA = ("invasion_oracle.model.cloudspire", "scenario.schema.json")
Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Scenario(ScenarioBase[GameState]):
    """A loaded scenario: the rules in force, the initial state and its answerers."""

    data: GameData

    def game(self) -> CloudspireGame:
        return CloudspireGame(Rules.of(self.rulings, self.data))


def require_round_start(scenario: Scenario, question: str) -> None:
    """A search over the coming rounds (``survive``, ``spires``) needs a position in a round: a
    scenario starting at setup has no Deployment Stack, lanes or dice yet, so it asks nothing."""
    if scenario.document.get("start") == "setup":
        raise MalformedInputError(
            scenario.source,
            "$.start",
            f"the {question} question starts at a round with the Deployment Stack in a known order "
            "(start 'round', 'strategy', 'load', 'fire' or 'resolve'), not at setup",
        )


def _read(given: ScenarioInput) -> Scenario:
    document, source = given.document, given.source
    data = embedded_data(given, build_game_data)
    game = CloudspireGame(Rules.of(given.rulings, data))
    if document["start"] == "setup":
        initial = _setup_state(document, source, data, game)
    else:
        initial = _described_state(document, source, data, game)
    return Scenario.of(given, data, initial)


CODEC = ScenarioCodec(GAME, schema_check(*SCHEMA), _read)
load = CODEC.load
load_scenario = CODEC.load_scenario
scenario_from_document = CODEC.scenario_from_document


# -- shared helpers --------------------------------------------------------------------------------


class _Cards:
    """Resolves card names in document order, each physical card used once."""

    def __init__(self, data: GameData, source: str) -> None:
        self.data = data
        self.source = source
        self.used: dict[str, str] = {}  # card id -> path of first use

    def take(self, name: str, path: Path) -> str:
        where = json_path(path)
        card_id = self.data.resolve(name, source=self.source, path=where, taken=frozenset(self.used))
        if card_id in self.used:  # pragma: no cover - resolve() skips taken cards
            raise MalformedInputError(
                self.source, where, f"card {card_id} is already at {self.used[card_id]}"
            )
        self.used[card_id] = where
        return card_id


def _rounds(doc: dict[str, Any], data: GameData) -> int:
    limit = int(data.value("rounds_limit"))
    return int(doc.get("rounds", limit))


def _all_dice_in_pool(data: GameData) -> tuple[Die, ...]:
    return tuple(Die(name, Zone.POOL) for name in data.dice.names())


def _hero(name: str, data: GameData, source: str, path: Path) -> tuple[str, HeroSide, str | None]:
    """(state hero value, hero side, faction or None for a universal hero)."""
    heroes = {c.hero.name: c for c in data.cards if c.hero is not None}
    universal = [h.name for h, _, _ in data.universal]
    known = sorted([*heroes, *universal, *(c.id for c in heroes.values())])
    resolved = resolve_name(name, known, "hero", source, json_path(path))
    if resolved in universal:
        return UNIVERSAL + resolved, data.universal_hero(resolved, source=source, path=json_path(path)), None
    card = heroes.get(resolved) or next(c for c in heroes.values() if c.id == resolved)
    assert card.hero is not None
    return card.id, card.hero, card.faction


def _mini(name: str, data: GameData, source: str, path: Path) -> str:
    minis = [c for c in data.cards if c.kind is CardKind.MINI]
    names = sorted(
        {c.faction for c in minis} | {c.id for c in minis} | {c.item.name for c in minis if c.item}
    )
    resolved = resolve_name(name, names, "mini-hero (name or faction)", source, json_path(path))
    return next(c.faction for c in minis if resolved in (c.faction, c.id, c.item.name if c.item else ""))


def _boss(name: str, data: GameData, allied: tuple[str, ...], source: str, path: Path) -> str:
    bosses = [c for c in data.cards if c.kind is CardKind.HERO]
    names = sorted(
        {c.id for c in bosses} | {c.enemy.name for c in bosses if c.enemy} | {c.faction for c in bosses}
    )
    resolved = resolve_name(name, names, "boss (name, card id or faction)", source, json_path(path))
    card = next(c for c in bosses if resolved in (c.id, c.faction, c.enemy.name if c.enemy else ""))
    if card.faction in allied:
        raise MalformedInputError(
            source,
            json_path(path),
            f"{card.enemy.name if card.enemy else card.id} is of an allied faction ({card.faction})",
        )
    return card.id


# -- setup ----------------------------------------------------------------------------------------------


def _universal_starting_spires(
    raw: dict[str, Any], data: GameData, source: str, allied: tuple[str, ...]
) -> list[str]:
    """Universal Heroes: the two starting spires chosen, same name, of a chosen mini-hero's faction."""
    names = raw.get("starting_spires")
    if names is None or len(names) != 2:
        raise MalformedInputError(
            source,
            "$.setup.starting_spires",
            "a universal hero chooses two spire cards with the same name",
        )
    cards = _Cards(data, source)
    starting = [cards.take(n, ("setup", "starting_spires", i)) for i, n in enumerate(names)]
    picked = [data.by_id(c) for c in starting]
    if any(not c.is_spire or c.kind is not CardKind.CONFLICT for c in picked):
        raise MalformedInputError(source, "$.setup.starting_spires", "both must be spire cards")
    if picked[0].item != picked[1].item or picked[0].faction != picked[1].faction:
        raise MalformedInputError(source, "$.setup.starting_spires", "the two spires must have the same name")
    if picked[0].faction not in allied:
        raise MalformedInputError(
            source,
            "$.setup.starting_spires",
            f"the spires must match a chosen mini-hero's faction ({', '.join(allied)})",
        )
    return starting


def _setup_state(doc: dict[str, Any], source: str, data: GameData, game: CloudspireGame) -> GameState:
    """Seed 004, Setup steps 1-4, More Adversity and Universal Heroes."""
    raw = doc.get("setup")
    if raw is None:
        raise MalformedInputError(source, "$.setup", "is required when start is 'setup'")
    if "state" in doc:
        raise MalformedInputError(
            source, "$.state", "a scenario starting at setup builds its own state; remove 'state'"
        )
    hero_value, hero, faction = _hero(raw["hero"], data, source, ("setup", "hero"))
    minis = [_mini(m, data, source, ("setup", "mini_heroes", i)) for i, m in enumerate(raw["mini_heroes"])]
    for i, m in enumerate(minis):
        if minis.index(m) != i:
            raise MalformedInputError(
                source, json_path(("setup", "mini_heroes", i)), f"mini-hero of {m} chosen twice"
            )
    if faction is not None:
        if faction in minis:
            minis.remove(faction)
        if len(minis) != 2:
            raise MalformedInputError(
                source,
                "$.setup.mini_heroes",
                f"choose two mini-heroes besides {faction}'s (the hero's faction joins by itself), got {len(minis)}",
            )
        allied = (faction, *minis)
    else:
        if len(minis) != 3:
            raise MalformedInputError(
                source, "$.setup.mini_heroes", "a universal hero chooses any three mini-heroes"
            )
        allied = tuple(minis)
    allied_cards = [c for f in allied for c in data.faction_cards(f, CardKind.CONFLICT)]
    if faction is not None:
        if "starting_spires" in raw:
            raise MalformedInputError(
                source, "$.setup.starting_spires", "only a universal hero chooses its starting spires"
            )
        starting = [c.id for c in allied_cards if c.item is not None and c.item.name == hero.starting_spire]
        if len(starting) != 2:
            raise MalformedInputError(
                source,
                "$.setup.hero",
                f"setup needs exactly two allied cards with the spire {hero.starting_spire!r}; the data has {len(starting)}",
            )
    else:
        starting = _universal_starting_spires(raw, data, source, allied)
    market = sorted(
        [c.id for c in allied_cards if c.id not in starting]
        + [c.id for f in allied for c in data.faction_cards(f, CardKind.MINI)]
    )
    boss = _boss(raw["boss"], data, allied, source, ("setup", "boss")) if "boss" in raw else ""
    if boss and boss == hero_value:
        raise MalformedInputError(source, "$.setup.boss", "the hero's own card cannot be the boss")
    renown = raw.get("renown", 1)
    agenda: tuple[Task, ...] = (ChooseBoss(), AddMiniBosses(renown - 1), StartRound())
    return GameState(
        round=1,
        phase="setup",
        hero=hero_value,
        health=hero.health,
        strategy=hero.strategy,
        recovery=hero.recovery,
        allied=allied,
        boss=boss,
        dice=_all_dice_in_pool(data),
        inventory=tuple(starting),
        market=Pile(shuffled=tuple(market)),
        rounds_left=_rounds(doc, data),
        agenda=agenda,
    )


# -- a described state ----------------------------------------------------------------------------


def _pile(raw: list[str] | dict[str, list[str]], cards: _Cards, path: Path) -> Pile:
    if isinstance(raw, list):
        return Pile(top=tuple(cards.take(n, (*path, i)) for i, n in enumerate(raw)))
    parts = {
        key: tuple(cards.take(n, (*path, key, i)) for i, n in enumerate(raw.get(key, [])))
        for key in ("top", "shuffled", "bottom")
    }
    return Pile(parts["top"], tuple(sorted(parts["shuffled"])), parts["bottom"])


def _described_allied(
    raw: dict[str, Any], faction: str | None, data: GameData, source: str, base: Path
) -> tuple[str, ...]:
    """The allied factions: known, each once, the hero's own among them."""
    allied = tuple(raw["allied"])
    for i, f in enumerate(allied):
        if f not in data.factions:
            raise MalformedInputError(
                source,
                json_path((*base, "allied", i)),
                f"unknown faction {f!r}; known: {', '.join(data.factions)}",
            )
        if allied.index(f) != i:
            raise MalformedInputError(source, json_path((*base, "allied", i)), f"faction {f!r} twice")
    if faction is not None and faction not in allied:
        raise MalformedInputError(
            source, json_path((*base, "allied")), f"the hero's faction {faction} must be allied"
        )
    return allied


def _described_spires(
    raw: dict[str, Any], cards: _Cards, data: GameData, source: str, base: Path
) -> list[PlacedSpire | None]:
    """The spires on the spire spaces (a card name, or ``{card, defeated}``)."""
    spires: list[PlacedSpire | None] = [None] * len(SPIRE_SPACES)
    for space, entry in raw.get("spires", {}).items():
        path = (*base, "spires", space)
        if space not in SPIRE_SPACES:
            raise MalformedInputError(
                source, json_path(path), f"not a spire space; use {', '.join(SPIRE_SPACES)}"
            )
        name, defeated = (
            (entry, False) if isinstance(entry, str) else (entry["card"], entry.get("defeated", False))
        )
        card_id = cards.take(name, (*path, "card") if isinstance(entry, dict) else path)
        if not data.by_id(card_id).is_spire:
            raise MalformedInputError(
                source,
                json_path(path),
                f"{card_id} is not a spire card",
            )
        spires[SPIRE_SPACES.index(space)] = PlacedSpire(card_id, defeated)
    return spires


def _described_inventory(
    raw: dict[str, Any], cards: _Cards, data: GameData, allied: tuple[str, ...], source: str, base: Path
) -> list[str]:
    """The inventory: items, spires and allied mini-heroes."""
    inventory = []
    for i, name in enumerate(raw.get("inventory", [])):
        card_id = cards.take(name, (*base, "inventory", i))
        card = data.by_id(card_id)
        if card.kind is CardKind.HERO or (card.kind is CardKind.MINI and card.faction not in allied):
            raise MalformedInputError(
                source,
                json_path((*base, "inventory", i)),
                f"{card_id} cannot be in the inventory (only items, spires and allied mini-heroes)",
            )
        inventory.append(card_id)
    return inventory


def _described_state(doc: dict[str, Any], source: str, data: GameData, game: CloudspireGame) -> GameState:
    raw = doc.get("state")
    if raw is None:
        raise MalformedInputError(source, "$.state", f"is required when start is {doc['start']!r}")
    if "setup" in doc:
        raise MalformedInputError(source, "$.setup", "belongs to a scenario starting at setup")
    base: Path = ("state",)
    hero_value, hero, faction = _hero(raw["hero"], data, source, (*base, "hero"))
    allied = _described_allied(raw, faction, data, source, base)
    boss = _boss(raw["boss"], data, allied, source, (*base, "boss"))
    cards = _Cards(data, source)
    cards.used[boss] = json_path((*base, "boss"))
    if faction is not None:
        cards.used[hero_value] = json_path((*base, "hero"))

    def enemy_card(name: str, path: Path) -> str:
        if name == boss or data.resolve(name, source=source, path=json_path(path)) == boss:
            if not raw.get("boss_added", False):
                raise MalformedInputError(
                    source, json_path(path), "the boss is in play only once added (set boss_added: true)"
                )
            return boss
        card_id = cards.take(name, path)
        card = data.by_id(card_id)
        if card.kind is CardKind.HERO:
            raise MalformedInputError(
                source, json_path(path), f"{card_id} is a hero/boss card but not this game's boss"
            )
        if card.faction in allied:
            raise MalformedInputError(
                source,
                json_path(path),
                f"{card_id} is of the allied faction {card.faction}: it cannot be an enemy",
            )
        return card_id

    boss_seen: list[str] = []

    def tracked(name: str, path: Path) -> str:
        card_id = enemy_card(name, path)
        if card_id == boss:
            if boss_seen:
                raise MalformedInputError(source, json_path(path), f"the boss is already at {boss_seen[0]}")
            boss_seen.append(json_path(path))
        return card_id

    lanes_raw = raw.get("lanes", {})
    lanes = tuple(
        tuple(tracked(n, (*base, "lanes", lane, i)) for i, n in enumerate(lanes_raw.get(lane, [])))
        for lane in LANES
    )
    dep_raw = raw.get("deployment", [])
    if isinstance(dep_raw, list):
        deployment = Pile(top=tuple(tracked(n, (*base, "deployment", i)) for i, n in enumerate(dep_raw)))
    else:
        parts = {
            key: tuple(tracked(n, (*base, "deployment", key, i)) for i, n in enumerate(dep_raw.get(key, [])))
            for key in ("top", "shuffled", "bottom")
        }
        deployment = Pile(parts["top"], tuple(sorted(parts["shuffled"])), parts["bottom"])
    boss_added = bool(raw.get("boss_added", False))
    if boss_added and not boss_seen:
        raise MalformedInputError(
            source,
            json_path((*base, "boss_added")),
            "the boss was added: put it in a lane or in the Deployment Stack",
        )

    spires = _described_spires(raw, cards, data, source, base)
    inventory = _described_inventory(raw, cards, data, allied, source, base)

    market = _pile(raw.get("market", []), cards, (*base, "market"))
    for card_id in market.cards:
        card = data.by_id(card_id)
        if card.faction not in allied or card.kind is CardKind.HERO:
            raise MalformedInputError(
                source,
                json_path((*base, "market")),
                f"{card_id} is not an allied item or mini-hero: it cannot be in the Market Stack",
            )
    discard = []
    for i, entry in enumerate(raw.get("discard", [])):
        name = entry if isinstance(entry, str) else entry["card"]
        card_id = cards.take(name, (*base, "discard", i))
        side = entry.get("side") if isinstance(entry, dict) else None
        discard.append((card_id, side or game.discard_side(_stub(allied), card_id)))

    state = GameState(
        round=raw.get("round", 1),
        phase="strategy",
        hero=hero_value,
        health=raw.get("health", hero.health),
        strategy=raw.get("strategy", hero.strategy),
        recovery=raw.get("recovery", hero.recovery),
        allied=allied,
        boss=boss,
        dice=_all_dice_in_pool(data),
        lanes=lanes,
        spires=tuple(spires),
        inventory=tuple(inventory),
        deployment=deployment,
        market=market,
        discard=tuple(discard),
        boss_added=boss_added,
        rolls_used=raw.get("rolls_used", 0),
        rounds_left=_rounds(doc, data),
    )
    activated = raw.get("activated")
    if activated is None:
        tops = tuple(sorted(stack[0] for stack in lanes if stack))
    else:
        tops = tuple(
            sorted(_in_play(n, state, data, source, (*base, "activated", i)) for i, n in enumerate(activated))
        )
    created = _described_created(raw, state, data, source, base)
    state = replace(state, activated=tops, created=tuple(created))
    state = _dice(raw.get("dice", {}), state, data, game, source, (*base, "dice"))
    allowed = game.rolls_allowed(state)
    if state.rolls_used > allowed:
        raise MalformedInputError(
            source,
            json_path((*base, "rolls_used")),
            f"at most {allowed} rolls are allowed (ruling CS-ROLLS), got {state.rolls_used}",
        )
    start = doc["start"]
    agenda: tuple[Task, ...]
    if start == "round":
        agenda = (StartRound(),)
    elif start == "strategy":
        agenda = (StartEngagement(),)
    elif start == "load":
        agenda = (LoadDice(), AfterLoad())
    elif start == "fire":
        agenda = (SpiresFire(),)
    else:
        agenda = resolve_tasks()
    phase = {
        "round": "cycle",
        "strategy": "strategy",
        "load": "strategy",
        "fire": "strategy",
        "resolve": "spires-fire",
    }[start]
    return replace(state, agenda=agenda, phase=phase)


def _described_created(
    raw: dict[str, Any], state: GameState, data: GameData, source: str, base: Path
) -> list[Created]:
    """The blueprints created this round, each on an active spire, from a card in the inventory."""
    created = []
    for i, entry in enumerate(raw.get("created", [])):
        path = (*base, "created", i)
        placed = state.spire_at(entry["space"]) if entry["space"] in SPIRE_SPACES else None
        if placed is None or placed.defeated:
            raise MalformedInputError(
                source, json_path((*path, "space")), "a created blueprint needs an active spire there"
            )
        origin = _in_inventory(entry.get("source", ""), state, data, source, (*path, "source"))
        created.append(Created(entry["space"], colour_of("R1"), origin))
    return created


def _stub(allied: tuple[str, ...]) -> GameState:
    return GameState(0, "", "", 1, 0, 0, allied, "", ())


def _in_play(name: str, state: GameState, data: GameData, source: str, path: Path) -> str:
    card_id = data.resolve(name, source=source, path=json_path(path))
    if not any(card_id in stack for stack in state.lanes):
        raise MalformedInputError(source, json_path(path), f"{card_id} is not in a lane")
    return card_id


def _in_inventory(name: str, state: GameState, data: GameData, source: str, path: Path) -> str:
    if not name:
        return ""
    card_id = data.resolve(name, source=source, path=json_path(path))
    if card_id not in state.inventory:
        raise MalformedInputError(source, json_path(path), f"{card_id} is not in the inventory")
    return card_id


def _dice(
    raw: dict[str, Any], state: GameState, data: GameData, game: CloudspireGame, source: str, base: Path
) -> GameState:
    names = set(data.dice.names())
    seen: dict[str, str] = {}

    def check(die: str, path: Path) -> None:
        where = json_path(path)
        if die not in names:
            raise MalformedInputError(
                source, where, f"no die {die!r}; dice are {', '.join(data.dice.names())}"
            )
        if die in seen:
            raise MalformedInputError(source, where, f"die {die} is already listed at {seen[die]}")
        seen[die] = where

    for zone in ("exhausted", "banished"):
        for i, die in enumerate(raw.get(zone, [])):
            check(die, (*base, zone, i))
            state = state.with_die(Die(die, Zone(zone)))
    for die, face in raw.get("committed", {}).items():
        check(die, (*base, "committed", die))
        state = state.with_die(Die(die, Zone.COMMITTED, Face(face) if face else None))
    used: set[str] = set()
    for die, entry in raw.get("loaded", {}).items():
        path = (*base, "loaded", die)
        check(die, path)
        try:
            slot = Slot.parse(entry["slot"])
        except ValueError as err:
            raise MalformedInputError(source, json_path((*path, "slot")), str(err)) from None
        face = Face(entry["face"])
        wanted = dict((str(s), c) for s, c in game.slots_at(state, slot.space))
        if str(slot) not in wanted:
            raise MalformedInputError(
                source,
                json_path((*path, "slot")),
                f"no slot {slot} here; slots: {', '.join(wanted) or 'none'}",
            )
        if not accepts(slot, wanted[str(slot)], colour_of(die), face):
            raise MalformedInputError(
                source,
                json_path(path),
                f"{slot} does not take a {colour_of(die).value} {face.value} (colours must match; no misses on the hero)",
            )
        if str(slot) in used:
            raise MalformedInputError(source, json_path((*path, "slot")), f"{slot} already holds a die")
        used.add(str(slot))
        state = state.with_die(Die(die, Zone.LOADED, face, str(slot)))
    for die, entry in raw.get("applied", {}).items():
        path = (*base, "applied", die)
        check(die, path)
        card_id = data.resolve(entry["card"], source=source, path=json_path((*path, "card")))
        if card_id not in [stack[0] for stack in state.lanes if stack]:
            raise MalformedInputError(
                source,
                json_path((*path, "card")),
                f"{card_id} is not on top of an enemy stack; only top cards take dice",
            )
        face = Face(entry["face"])
        if face is Face.MISS:
            raise MalformedInputError(
                source, json_path((*path, "face")), "misses are never applied to enemies"
            )
        state = state.with_die(Die(die, Zone.APPLIED, face, "", card_id))
    for stack in state.lanes:
        if stack and game.damage_taken(state, stack[0]) >= game.enemy(stack[0]).health:
            raise MalformedInputError(
                source, json_path((*base, "applied")), f"the dice on {stack[0]} already defeat it"
            )
    return state

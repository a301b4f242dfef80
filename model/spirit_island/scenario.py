"""Scenario files: JSON in, an island, an initial :class:`IslandState` and answerers out.

The format is the JSON Schema ``scenario.schema.json`` (``invasion schema spirit-island-scenario``),
explained in ``docs/spirit_island.md``. Loading checks the schema first, then what a schema
cannot say (boards and cards that exist, lands on this island, pieces that are possible, decks
with enough cards); every error reads ``file:json.path: reason``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.codec import ScenarioCodec, embedded_data, schema_check
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.frozen import replace
from invasion_oracle.model.core.jsonio import json_path
from invasion_oracle.model.core.provenance import Provenance
from invasion_oracle.model.core.rulings import resolve_name
from invasion_oracle.model.core.spec import ScenarioBase, ScenarioInput
from invasion_oracle.model.spirit_island.blight import BLIGHTED, HEALTHY, BlightTrack, setup_pool
from invasion_oracle.model.spirit_island.data import GameData, LandSpec, Layout, build_game_data
from invasion_oracle.model.spirit_island.effects import Effect, parse_effects
from invasion_oracle.model.spirit_island.fear import DRAW, FearTrack
from invasion_oracle.model.spirit_island.game import InvaderPhaseGame, Rules
from invasion_oracle.model.spirit_island.invader_deck import InvaderBoard, entry_stage, stage_entry
from invasion_oracle.model.spirit_island.island import Island, build_island
from invasion_oracle.model.spirit_island.pieces import Land, PieceKind, check_land, parse_land
from invasion_oracle.model.spirit_island.rulings import GAME
from invasion_oracle.model.spirit_island.state import (
    Advance,
    DrawBlightCard,
    ExploreStep,
    IslandState,
    SpiritInputs,
    SpiritPhase,
    StartPhase,
    Task,
)

SCHEMA = ("invasion_oracle.model.spirit_island", "scenario.schema.json")


@dataclass(frozen=True)
class Scenario(ScenarioBase[IslandState]):
    """A loaded scenario: rules, island, initial state and answerers."""

    data: GameData
    island: Island

    def game(self, *, play_on: bool = False) -> InvaderPhaseGame:
        return InvaderPhaseGame(Rules.of(self.rulings, self.data), self.island, play_on=play_on)


def _read(given: ScenarioInput) -> Scenario:
    document, source = given.document, given.source
    data = _data(given)
    island = _island(document["island"], data, source)
    return Scenario.of(given, data, initial_state(document, source, data, island), island=island)


def _data(given: ScenarioInput) -> GameData:
    """Like :func:`~invasion_oracle.model.core.codec.embedded_data`, but the scenario's own values
    keep the scenario file itself as their source (``"source": "s.json"`` in the data in force,
    not ``s.json:$.data``): that is what Spirit Island's data output has always said."""
    if given.data_overrides:
        return embedded_data(given, build_game_data)
    try:
        return build_game_data(given.document.get("data"), given.source)
    except MalformedInputError as err:  # located inside the scenario: $.data...
        raise type(err)(given.source, "$.data" + err.path[1:], err.reason) from None


# _read, _data, _island and initial_state never consult the rulings (Rules.of reads them at game())
CODEC = ScenarioCodec(GAME, schema_check(*SCHEMA, integers_first=True), _read, rulings_free=True)
load = CODEC.load
load_scenario = CODEC.load_scenario
scenario_from_document = CODEC.scenario_from_document


def _freeze(value: Any) -> Any:
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value


def _island(raw: dict[str, Any], data: GameData, source: str) -> Island:
    boards = [
        data.board(b, source=source, path=json_path(("island", "boards", i))).name
        for i, b in enumerate(raw["boards"])
    ]
    layout_raw = raw.get("layout")
    layout: Layout | None
    if layout_raw is None:
        layout = None
    elif isinstance(layout_raw, str):
        layout = data.layout(layout_raw, source=source, path="$.island.layout")
    else:
        layout = Layout(
            "scenario",
            tuple(boards),
            tuple((str(a), str(b)) for a, b in layout_raw["edges"]),
            bool(layout_raw.get("partial", False)),
            Provenance.USER,
            layout_raw.get("source", source),
        )
    return build_island(data, boards, layout, source=source)


def _land_name(name: str, island: Island, source: str, path: tuple[str | int, ...]) -> int:
    if island.has_land(name):
        return island.index(name)
    resolved = resolve_name(name, island.lands, "land", source, json_path(path))
    return island.index(resolved)


def initial_state(doc: dict[str, Any], source: str, data: GameData, island: Island) -> IslandState:
    """The state a scenario document describes (schema-valid input assumed)."""
    stats = data.stats
    lands: list[Land] = []
    printed = doc.get("pieces", "start") == "start"
    specs: dict[str, LandSpec] = {}  # each board looked up once, not once per land
    for name in island.lands:
        if name not in specs:
            board = data.board(name[:-1])
            specs.update((f"{board.name}{land.number}", land) for land in board.lands)
        lands.append(parse_land(specs[name].start) if printed else Land())
    for name, raw in doc.get("lands", {}).items():
        path: tuple[str | int, ...] = ("lands", name)
        index = _land_name(name, island, source, path)
        text = raw if isinstance(raw, str) else raw.get("pieces", "")
        try:
            land = parse_land(text)
        except ValueError as err:
            raise MalformedInputError(source, json_path(path), str(err)) from None
        if isinstance(raw, dict):
            land = replace(land, defend=raw.get("defend", 0))
            for kind_name, delta in raw.get("health", {}).items():
                land = land.with_modifier(PieceKind(kind_name), delta)
        problem = check_land(land, stats)
        if problem:
            raise MalformedInputError(source, json_path(path), problem)
        lands[index] = land
    spirits = []
    for i, spirit in enumerate(doc.get("spirits", [])):
        name = spirit["name"]
        if name in spirits:
            raise MalformedInputError(
                source, json_path(("spirits", i, "name")), f"Spirit {name!r} is listed twice"
            )
        spirits.append(name)
        if not spirit["presence"]:
            raise MalformedInputError(
                source,
                json_path(("spirits", i, "presence")),
                f"{name} needs Presence on the island (none would be a lost game)",
            )
        for land_name, count in spirit["presence"].items():
            index = _land_name(land_name, island, source, ("spirits", i, "presence", land_name))
            lands[index] = lands[index].with_presence(name, count)
    players = doc.get("players", max(1, len(spirits)))
    start = doc.get("start", "invader-phase")
    invader_board = _invader_board(doc, source, data, start)
    fear = _fear(doc.get("fear", {}), source, data, players)
    blight, draw_blight = _blight(doc.get("blight", {}), source, data, players)
    adversary = None
    if "adversary" in doc:
        adversary = data.adversary(doc["adversary"], source=source, path="$.adversary").name
    events = tuple(
        e if e == DRAW else data.event(e, source=source, path=json_path(("events", i))).name
        for i, e in enumerate(doc.get("events", []))
    )
    spirit_phases = tuple(
        _spirit_phase(raw, source, i, island) for i, raw in enumerate(doc.get("spirit_phases", []))
    )
    _check_effect_lands(data, island, source, fear, blight, adversary, events)
    agenda: list[Task] = [DrawBlightCard()] if draw_blight else []
    if start == "setup":
        agenda += [ExploreStep(), Advance()]
    agenda += [SpiritInputs(), StartPhase()]
    return IslandState(
        lands=tuple(lands),
        spirits=tuple(spirits),
        players=players,
        turn=doc.get("turn", 1),
        invaders=invader_board,
        fear=fear,
        blight=blight,
        adversary=adversary,
        events=events,
        event_candidates=tuple(e.name for e in data.events),
        phases_left=doc.get("turns", 1),
        spirit_phases=spirit_phases,
        agenda=tuple(agenda),
    )


def _invader_board(doc: dict[str, Any], source: str, data: GameData, start: str) -> InvaderBoard:
    raw = doc.get("invader_board", {})
    slots: dict[str, tuple[str, ...]] = {}
    for slot in ("ravage", "build", "discard"):
        slots[slot] = tuple(
            data.invader_card(c, source=source, path=json_path(("invader_board", slot, i))).id
            for i, c in enumerate(raw.get(slot, []))
        )
    on_board = slots["ravage"] + slots["build"] + slots["discard"]
    if start == "setup" and on_board:
        raise MalformedInputError(
            source, "$.invader_board", "a scenario starting at setup has no Invader cards on the board yet"
        )
    stages = [c.stage for c in data.invader_cards]  # each card's stage read once, not once a stage
    stage_counts = {s: stages.count(s) for s in (1, 2, 3)}
    if "invader_deck" in doc:
        deck = []
        for i, entry in enumerate(doc["invader_deck"]):
            path = json_path(("invader_deck", i))
            if entry.startswith("stage-"):
                if entry not in ("stage-1", "stage-2", "stage-3"):
                    raise MalformedInputError(
                        source, path, f"unknown entries are stage-1, stage-2 or stage-3; got {entry!r}"
                    )
                deck.append(entry)
            else:
                deck.append(data.invader_card(entry, source=source, path=path).id)
    else:
        deck = [stage_entry(s) for s in data.value("invader_deck_stages")]
        for card_id in on_board:  # those cards came off the top of the standard deck
            stage = data.card_by_id(card_id).stage
            if stage_entry(stage) in deck:
                deck.remove(stage_entry(stage))
    known = [e for e in deck if entry_stage(e) is None] + list(on_board)
    for card_id in known:
        if known.count(card_id) > 1:
            raise MalformedInputError(
                source, "$.invader_deck", f"Invader card {card_id} appears twice (deck and board)"
            )
    known_stages = [data.card_by_id(c).stage for c in known]  # each card found once, not once a stage
    for stage, available in stage_counts.items():
        needed = sum(1 for e in deck if entry_stage(e) == stage) + known_stages.count(stage)
        if needed > available:
            raise MalformedInputError(
                source, "$.invader_deck", f"{needed} Stage {stage} cards needed but only {available} exist"
            )
    return InvaderBoard(tuple(deck), slots["ravage"], slots["build"], (), slots["discard"])


def _fear(raw: dict[str, Any], source: str, data: GameData, players: int) -> FearTrack:
    pool_size = data.value("fear_per_player") * players
    pool = raw.get("pool", pool_size)
    if pool > pool_size:
        raise MalformedInputError(
            source, "$.fear.pool", f"the pool holds {pool_size} markers ({players} player(s)), got {pool}"
        )
    per_level = tuple(data.value("fear_cards_per_level"))
    before = raw.get("earned_before", 0)
    earned = tuple(
        data.fear_card(n, source=source, path=json_path(("fear", "earned", i))).name
        for i, n in enumerate(raw.get("earned", []))
    )
    candidates = tuple(
        data.fear_card(n, source=source, path=json_path(("fear", "cards", i))).name
        for i, n in enumerate(raw.get("cards", data.default_fear_deck))
    )
    remaining = sum(per_level) - before - len(earned)
    if remaining < 0:
        raise MalformedInputError(
            source,
            "$.fear.earned_before",
            f"the Fear deck has {sum(per_level)} cards; {before} + {len(earned)} earned is too many",
        )
    if "deck" in raw:
        deck = tuple(
            n if n == DRAW else data.fear_card(n, source=source, path=json_path(("fear", "deck", i))).name
            for i, n in enumerate(raw["deck"])
        )
        if len(deck) != remaining:
            raise MalformedInputError(
                source, "$.fear.deck", f"the rest of the Fear deck has {remaining} cards, got {len(deck)}"
            )
    else:
        deck = (DRAW,) * remaining
    unknown = sum(1 for n in deck if n == DRAW)
    free = [n for n in candidates if n not in set(deck) | set(earned)]
    if unknown > len(free):
        raise MalformedInputError(
            source,
            "$.fear.cards",
            f"{unknown} unknown Fear card(s) to draw but only {len(free)} candidate card(s) left",
        )
    return FearTrack(pool_size, pool, deck, per_level, before + len(earned), earned, (), 0, candidates)


def _blight(raw: dict[str, Any], source: str, data: GameData, players: int) -> tuple[BlightTrack, bool]:
    name = raw.get("card", "draw")
    side = raw.get("side", HEALTHY)
    extra = data.value("blight_setup_extra")
    if name == "none":
        if side == BLIGHTED:
            raise MalformedInputError(
                source, "$.blight.side", "the Invader Board's Blight space has no Blighted side"
            )
        pool = raw.get("pool", setup_pool(None, players, data.value("blight_space_per_player"), extra))
        return BlightTrack(None, HEALTHY, pool), False
    if name == "draw":
        if side == BLIGHTED or "pool" in raw:
            raise MalformedInputError(
                source, "$.blight.card", "name the Blight card to give its side or pool"
            )
        return BlightTrack(DRAW, HEALTHY, 0), True
    card = data.blight_card(name, source=source, path="$.blight.card")
    default_pool = (
        setup_pool(card, players, 0, extra) if side == HEALTHY else card.blighted_per_player * players
    )
    return BlightTrack(card.name, side, raw.get("pool", default_pool)), False


def _spirit_phase(raw: dict[str, Any], source: str, i: int, island: Island) -> SpiritPhase:
    defend = tuple(
        (_land_name(name, island, source, ("spirit_phases", i, "defend", name)), amount)
        for name, amount in raw.get("defend", {}).items()
    )
    skips = parse_effects(raw.get("skips", []), source, ("spirit_phases", i, "skips"))
    for k, effect in enumerate(skips):
        if effect.kind != "skip":
            raise MalformedInputError(
                source, json_path(("spirit_phases", i, "skips", k, "effect")), "only skip effects belong here"
            )
        _check_where(effect, island, source, ("spirit_phases", i, "skips", k))
    return SpiritPhase(tuple(sorted(defend)), raw.get("fear", 0), skips)


def _check_where(effect: Effect, island: Island, source: str, path: tuple[str | int, ...]) -> None:
    for k, name in enumerate(effect.where.lands):
        if not island.has_land(name):
            raise MalformedInputError(
                source, json_path((*path, "where", "lands", k)), f"no land {name} on this island"
            )


def _check_effect_lands(
    data: GameData,
    island: Island,
    source: str,
    fear: FearTrack,
    blight: BlightTrack,
    adversary: str | None,
    events: tuple[str, ...],
) -> None:
    """Effects of the cards in play may name lands; those lands must be on this island."""
    named: list[tuple[str, Effect]] = []
    for name in {*fear.candidates, *fear.deck, *fear.earned} - {DRAW}:
        named += [(f"Fear card {name}", e) for level in data.fear_card(name).levels for e in level]
    for name in ({*events} - {DRAW}) | ({e.name for e in data.events} if DRAW in events else set()):
        named += [(f"Event {name}", e) for e in data.event(name).effects]
    if blight.card not in (None, DRAW):
        card = data.blight_card(str(blight.card))
        named += [(f"Blight card {card.name}", e) for e in (*card.on_flip, *card.each_phase)]
    if adversary is not None:
        named += [(f"Adversary {adversary}", e) for e in data.adversary(adversary).escalation]
    for what, effect in sorted(named, key=lambda ne: ne[0]):
        for land in effect.where.lands:
            if not island.has_land(land):
                raise MalformedInputError(
                    source, "$.data", f"{what} names land {land}, which is not on this island"
                )

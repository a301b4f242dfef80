"""Scenario files: JSON in, an initial :class:`GameState` plus deciders out.

The format is specified field by field in ``docs/scenarios.md`` and published as the JSON Schema
``scenario.schema.json``. Loading checks the schema first, then everything a schema cannot say
(names that must exist, cells inside the grid, placements the guardian allows); every error
reads ``file:json.path: reason``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from invasion_oracle.model.core.codec import ScenarioCodec
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import json_path, load_schema
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.core.spec import ScenarioBase, ScenarioInput
from invasion_oracle.model.stonespine.data import DataLayer, GameData, build_layered
from invasion_oracle.model.stonespine.dungeon import Cell, Chamber, ChamberType, Dungeon, Side, column_letter
from invasion_oracle.model.stonespine.elements import Space
from invasion_oracle.model.stonespine.game import StonespineGame
from invasion_oracle.model.stonespine.guardians import GuardianBoard, GuardianState
from invasion_oracle.model.stonespine.heroes import COLORS, HeroCard, HeroColor
from invasion_oracle.model.stonespine.inputs import check_document
from invasion_oracle.model.stonespine.levelling import state_at
from invasion_oracle.model.stonespine.rulings import GAME
from invasion_oracle.model.stonespine.state import GameState, Jael, Market, Placement, PlayerState, Stage

DEFAULT_HEROES = {"black": "Thief", "purple": "Paladin", "red": "Barbarian"}
START_STAGES = {
    "invasion": Stage.ROLL,
    "preparation": Stage.PREPARATION,
    "improvement": Stage.IMPROVEMENT,
    "construction": Stage.CONSTRUCTION,
}

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Scenario(ScenarioBase[GameState]):
    """A loaded scenario: the rules in force, the initial state and its answerers.

    ``chance`` holds the file's ``dice`` object: the script of hero dice results.
    """

    data: GameData

    chance_key: ClassVar[str] = "dice"

    def game(self) -> StonespineGame:
        return StonespineGame(self.rulings, self.data)


def _check(document: Any, source: str) -> None:
    check_document(document, load_schema("invasion_oracle.model.stonespine", "scenario.schema.json"), source)


def _read(given: ScenarioInput) -> Scenario:
    # The scenario's own data first (paths inside it start at the file), then a data file
    # given on the command line, which wins value by value.
    document, source = given.document, given.source
    layers = []
    if document.get("data"):
        layers.append(DataLayer(document["data"], source, ("data",)))
    if given.data_overrides:
        layers.append(DataLayer(given.data_overrides, given.data_source))
    data = build_layered(given.rulings, layers)
    return Scenario.of(given, data, _initial_state(document, source, given.rulings, data))


CODEC = ScenarioCodec(GAME, _check, _read)
load = CODEC.load
load_scenario = CODEC.load_scenario
scenario_from_document = CODEC.scenario_from_document


# -- chambers and dungeons -----------------------------------------------------------------


def parse_chamber(raw: str | dict[str, Any], source: str, path: Path) -> Chamber:
    """A chamber from its compact string or object form.

    >>> parse_chamber("stone TBR kobold +1 passages=L", "x", ()).describe()
    'stone TBR kobold +1 passages=L'
    """
    where = json_path(path)
    if isinstance(raw, str):
        words = raw.split()
        if len(words) < 2:
            raise MalformedInputError(
                source, where, f"a chamber reads 'TYPE DOORS ELEMENTS...', like 'cave TB kobold'; got {raw!r}"
            )
        kind, doors, rest = words[0], words[1], words[2:]
        passages = collapsing = "-"
        elements: list[str | None] = []
        for word in rest:
            if word.startswith("passages="):
                passages = word.partition("=")[2]
            elif word.startswith("collapsing="):
                collapsing = word.partition("=")[2]
            else:
                elements.append(word)
        name = ""
    else:
        kind, doors = raw["type"], raw["doors"]
        elements = list(raw.get("elements", []))
        passages, collapsing, name = raw.get("passages", "-"), raw.get("collapsing", "-"), raw.get("name", "")
    try:
        chamber_type = ChamberType(kind)
    except ValueError:
        raise MalformedInputError(source, where, f"chamber type is cave or stone, got {kind!r}") from None
    if len(elements) > 4:
        raise MalformedInputError(
            source, where, f"a chamber has four element spaces, got {len(elements)} elements"
        )
    spaces = []
    for i, text in enumerate(elements):
        try:
            spaces.append(Space.parse(text))
        except ValueError as err:
            sub = json_path((*path, "elements", i)) if isinstance(raw, dict) else where
            raise MalformedInputError(source, sub, str(err)) from None
    spaces += [Space()] * (4 - len(spaces))
    try:
        door_sides = Side.parse_set(doors)
        passage_sides = Side.parse_set(passages)
        collapsing_sides = Side.parse_set(collapsing)
    except ValueError as err:
        raise MalformedInputError(source, where, str(err)) from None
    return Chamber(
        chamber_type,
        door_sides,
        (spaces[0], spaces[1], spaces[2], spaces[3]),
        passage_sides,
        collapsing_sides,
        name,
    )


def parse_row(raw: list[Any], columns: int, source: str, path: Path) -> tuple[Chamber, ...]:
    if len(raw) != columns:
        raise MalformedInputError(
            source, json_path(path), f"a row needs {columns} chambers (one per column), got {len(raw)}"
        )
    return tuple(parse_chamber(c, source, (*path, i)) for i, c in enumerate(raw))


def parse_dungeon(raw: dict[str, Any], source: str, path: Path) -> Dungeon:
    rows = raw["rows"]
    columns = len(rows[0]) if rows else 4
    chambers: tuple[Chamber, ...] = ()
    for r, row in enumerate(rows):
        chambers += parse_row(row, columns, source, (*path, "rows", r))
    entrance = _column(raw["entrance"], columns, source, (*path, "entrance"))
    exit_col = _column(raw["exit"], columns, source, (*path, "exit"))
    return Dungeon(columns, len(rows), chambers, entrance, exit_col)


def _column(letter: str, columns: int, source: str, path: Path) -> int:
    index = ord(letter.upper()) - ord("A")
    if not 0 <= index < columns:
        last = column_letter(columns - 1)
        raise MalformedInputError(
            source, json_path(path), f"column {letter!r} is outside the grid (A-{last})"
        )
    return index


def _cell(text: str, dungeon: Dungeon, source: str, path: Path) -> Cell:
    try:
        cell = Cell.parse(text)
    except ValueError as err:
        raise MalformedInputError(source, json_path(path), str(err)) from None
    if not dungeon.contains(cell):
        last = (
            f"{column_letter(dungeon.columns - 1)}{dungeon.rows}"
            if dungeon.rows
            else "nothing (no rows built)"
        )
        raise MalformedInputError(
            source, json_path(path), f"chamber {text} is outside the dungeon (A1-{last})"
        )
    return cell


# -- the initial state -------------------------------------------------------------------------


GAME_COLUMNS = 4  # the game's dungeon: four columns, one row built a year (sources outside the rulebook)
GAME_ROWS = 4


def _initial_state(doc: dict[str, Any], source: str, rulings: Rulings, data: GameData) -> GameState:
    year = doc["year"]
    start = doc.get("start", "invasion")
    heroes = _hero_cards(doc.get("heroes", {}), source, data)
    bonus_raw = doc.get("health_bonus", {})
    health_bonus = (bonus_raw.get("black", 0), bonus_raw.get("purple", 0), bonus_raw.get("red", 0))
    solo = "solo" in doc
    if solo and len(doc["players"]) != 1:
        raise MalformedInputError(source, "$.solo", f"solo play has one player, got {len(doc['players'])}")
    players = tuple(
        _player(raw, i, year, start, source, rulings, data) for i, raw in enumerate(doc["players"])
    )
    _check_players_unique(players, source)
    columns = {p.dungeon.columns for p in players if p.dungeon.rows}
    construction, gold_income = _later_years(doc.get("years", []), players, columns, source)
    jael_collects = tuple(y.get("jael_collects", 0) for y in doc.get("years", []))
    if any(jael_collects) and "solo" not in doc:
        raise MalformedInputError(source, "$.years", "jael_collects belongs to a solo scenario (add 'solo')")
    if start == "construction" and not construction:
        raise MalformedInputError(
            source, "$.years", "a scenario starting at construction needs this year's rows in 'years'"
        )
    last_default = min(4, year + len(construction) - (1 if start == "construction" else 0))
    last_year = doc.get("last_year", last_default)
    if last_year < year:
        raise MalformedInputError(source, "$.last_year", f"must be at least the start year {year}")
    needed = last_year - year + (1 if start == "construction" else 0)
    if len(construction) < needed:
        raise MalformedInputError(
            source,
            "$.years",
            f"playing to year {last_year} needs {needed} later row(s), got {len(construction)}",
        )
    if len(construction) > needed:
        raise MalformedInputError(
            source,
            json_path(("years", needed)),
            f"playing to year {last_year} builds {needed} later row(s); this one is never built "
            "(raise last_year or remove it)",
        )
    wave = doc.get("wave", 0)
    if "wave" in doc and start != "invasion":
        raise MalformedInputError(source, "$.wave", "waves belong to a scenario starting at the Invasion")
    waiting = any(p.waiting for p in players)
    if waiting and wave < 1:
        raise MalformedInputError(
            source,
            "$.wave",
            "heroes wait outside a dungeon, so a wave is under way: give its number (1 or more)",
        )
    if start == "invasion" and not any(p.gate_open for p in players):
        stage = Stage.LEVEL_HEROES  # every gate closed earlier in the phase: Step 4 comes next
    elif waiting:
        stage = Stage.REPEL  # the dice of this wave are rolled: Step 2 goes on
    else:
        stage = START_STAGES[start]
    jael_raw = doc.get("solo", {})
    jael = Jael(
        tuple((t["year"], t["value"]) for t in jael_raw.get("jael_trophies", [])), jael_raw.get("jael_xp", 0)
    )
    ordered = tuple(sorted(players, key=lambda p: p.priority))
    return GameState(
        year=year,
        stage=stage,
        players=ordered,
        heroes=heroes,
        health_bonus=health_bonus,
        last_year=last_year,
        solo=solo,
        wave=wave,
        market=Market(xp_spaces=tuple(data.value("xp_market"))),
        jael=jael,
        construction=construction,
        gold_income=gold_income,
        jael_collects=jael_collects,
    )


def _hero_cards(raw: dict[str, str], source: str, data: GameData) -> tuple[HeroCard, HeroCard, HeroCard]:
    cards = []
    for color in COLORS:
        name = raw.get(color.value, DEFAULT_HEROES[color.value])
        path = json_path(("heroes", color.value))
        card = data.hero(name, source=source, path=path)
        if card.color is not color:
            raise MalformedInputError(
                source, path, f"{card.name} is a {card.color.value} hero, not {color.value}"
            )
        cards.append(card)
    return cards[0], cards[1], cards[2]


def _check_players_unique(players: tuple[PlayerState, ...], source: str) -> None:
    """No two players share a name or a priority."""
    names = [p.name for p in players]
    for i, name in enumerate(names):
        if names.index(name) != i:
            raise MalformedInputError(
                source, json_path(("players", i, "name")), f"player name {name!r} is used twice"
            )
    priorities = [p.priority for p in players]
    for i, priority in enumerate(priorities):
        if priorities.index(priority) != i:
            raise MalformedInputError(
                source, json_path(("players", i, "priority")), f"priority {priority} is used twice"
            )


def _check_figures_placed(
    board: GuardianBoard,
    guardian: GuardianState,
    placement: Placement,
    levels: list[int],
    rulings: Rulings,
    source: str,
    base: Path,
) -> None:
    """At the Invasion: every guardian figure placed, no more minions than unlocked (all of them
    under SS-MINIONS=all)."""
    if len(placement.guardians) != board.figures:
        raise MalformedInputError(
            source,
            json_path((*base, "placement", "guardians")),
            f"{board.name} has {board.figures} guardian figure(s) to place, got {len(placement.guardians)}",
        )
    unlocked = guardian.minions_unlocked
    if len(placement.minions) > unlocked:
        raise MalformedInputError(
            source,
            json_path((*base, "placement", "minions")),
            f"only {unlocked} minion(s) are unlocked at levels {levels}, got {len(placement.minions)}",
        )
    if rulings.is_("SS-MINIONS", "all") and len(placement.minions) < unlocked:
        raise MalformedInputError(
            source,
            json_path((*base, "placement", "minions")),
            f"all {unlocked} unlocked minion(s) must be placed (ruling SS-MINIONS=all), got {len(placement.minions)}",
        )


def _player(
    raw: dict[str, Any], i: int, year: int, start: str, source: str, rulings: Rulings, data: GameData
) -> PlayerState:
    base: Path = ("players", i)
    board = data.guardian(raw["guardian"], source=source, path=json_path((*base, "guardian")))
    dungeon = parse_dungeon(raw["dungeon"], source, (*base, "dungeon"))
    _check_rows(dungeon, year, start, source, (*base, "dungeon", "rows"))
    levels = raw.get("levels", [0, 0])
    try:
        guardian = state_at(board, (levels[0], levels[1]), raw.get("passage_tokens"))
    except ValueError as err:
        raise MalformedInputError(source, json_path((*base, "levels")), str(err)) from None
    _check_abilities(guardian, rulings, source, base)
    xp = raw.get("xp", 0)
    cost = data.value("level_up_cost")
    if xp >= cost and (guardian.can_advance(0) or guardian.can_advance(1)):
        raise MalformedInputError(
            source,
            json_path((*base, "xp")),
            f"{xp} cubes would already have levelled the guardian up ({cost} or more level up at once, "
            "Stonespine Architects: Invasion Rulebook, Leveling Up Guardians); give fewer, or raise 'levels'",
        )
    if start == "invasion" and dungeon.rows == 0:
        raise MalformedInputError(
            source, json_path((*base, "dungeon", "rows")), "the Invasion needs at least one built row"
        )
    placement = Placement()
    spent: tuple[tuple[int, Cell], ...] = ()
    placement_raw = raw.get("placement")
    if placement_raw is not None:
        if start != "invasion":
            raise MalformedInputError(
                source,
                json_path((*base, "placement")),
                f"a scenario starting at {start} decides placements itself; remove 'placement'",
            )
        guardians = tuple(
            _cell(c, dungeon, source, (*base, "placement", "guardians", k))
            for k, c in enumerate(placement_raw.get("guardians", []))
        )
        minions = tuple(
            _cell(c, dungeon, source, (*base, "placement", "minions", k))
            for k, c in enumerate(placement_raw.get("minions", []))
        )
        placement = Placement(guardians, minions)
        spent = _spent(
            placement_raw.get("spent", []), guardians, dungeon, source, (*base, "placement", "spent")
        )
    if start == "invasion":
        _check_figures_placed(board, guardian, placement, levels, rulings, source, base)
    for field in ("defeated", "escaped", "gate", "waiting"):
        if field in raw and start != "invasion":
            raise MalformedInputError(
                source,
                json_path((*base, field)),
                f"'{field}' says what happened earlier in this Invasion phase; it belongs to a scenario "
                "starting at the Invasion",
            )
    defeated: list[tuple[Cell, HeroColor]] = []
    for k, text in enumerate(raw.get("defeated", [])):
        colour, _, chamber = text.partition("@")
        cell = _cell(chamber, dungeon, source, (*base, "defeated", k))
        if any(c == cell for c, _ in defeated):
            raise MalformedInputError(
                source,
                json_path((*base, "defeated", k)),
                f"a chamber holds at most one defeated hero; {chamber} is listed twice",
            )
        defeated.append((cell, HeroColor(colour)))
    escaped = tuple(HeroColor(c) for c in raw.get("escaped", []))
    gate_open = raw.get("gate", "closed" if escaped else "open") == "open"
    if escaped and gate_open:
        raise MalformedInputError(
            source,
            json_path((*base, "gate")),
            'a hero escaped, so the gate closed at once (Stonespine Architects: Invasion Rulebook, Step 2: Repel Heroes); say "closed"',
        )
    waiting = tuple(HeroColor(c) for c in raw.get("waiting", []))
    if waiting and not gate_open:
        raise MalformedInputError(
            source,
            json_path((*base, "waiting")),
            "heroes wait only outside an open gate (an escape or a closing returns them to the supply)",
        )
    return PlayerState(
        name=raw["name"],
        defeated=tuple(defeated),
        escaped=escaped,
        gate_open=gate_open,
        waiting=waiting,
        guardian_defeats=spent,
        priority=raw.get("priority", i + 1),
        dungeon=dungeon,
        guardian=guardian,
        placement=placement,
        xp=xp,
        gold=raw.get("gold", 0),
        trophies=tuple((t["year"], t["value"]) for t in raw.get("trophies", [])),
        demerits=tuple((t["year"], t["value"]) for t in raw.get("demerits", [])),
    )


def _check_rows(dungeon: Dungeon, year: int, start: str, source: str, path: Path) -> None:
    """A game-sized dungeon has one row per year built so far (Stonespine Architects: Invasion Rulebook, I. Construction; the
    base game builds one row of four chambers a year). Wider or taller grids are studies."""
    if dungeon.columns != GAME_COLUMNS or dungeon.rows > GAME_ROWS:
        return
    allowed = year - (1 if start == "construction" else 0)
    if dungeon.rows > allowed:
        when = "before its Construction phase" if start == "construction" else "by then"
        raise MalformedInputError(
            source,
            json_path(path),
            f"{dungeon.rows} rows are built, but year {year} has only {allowed} built {when} "
            "(one row a year); use a later year, or a grid other than 4 columns for a study",
        )


def _check_abilities(guardian: GuardianState, rulings: Rulings, source: str, base: Path) -> None:
    """Refuse abilities that act in this run but are not known (never skip them)."""
    board = guardian.board
    for aid in sorted(guardian.unlocked):
        if board.ability(aid).unknown:
            slot, _ = board.slot_of(aid)
            raise MalformedInputError(
                source,
                json_path((*base, "levels")),
                f"these levels unlock ability {aid!r} ({slot.value}) of board {board.name}, which is not "
                "modelled; give it in a data file",
            )
    if rulings.is_("SS-UNKNOWN-ONGOING", "refuse"):
        for ability in board.abilities:
            if ability.id in board.ongoing and ability.unknown:
                raise MalformedInputError(
                    source,
                    json_path((*base, "guardian")),
                    f"ability {ability.id!r} (ongoing) of board {board.name} is not modelled; give it in a "
                    "data file (ruling SS-UNKNOWN-ONGOING=refuse)",
                )


def _spent(
    raw: list[str], guardians: tuple[Cell, ...], dungeon: Dungeon, source: str, path: Path
) -> tuple[tuple[int, Cell], ...]:
    """Guardian figures that already defeated a hero this phase, named by the chamber they stand in."""
    spent: list[tuple[int, Cell]] = []
    for k, text in enumerate(raw):
        cell = _cell(text, dungeon, source, (*path, k))
        free = [f for f, c in enumerate(guardians) if c == cell and f not in {g for g, _ in spent}]
        if not free:
            raise MalformedInputError(
                source, json_path((*path, k)), f"no guardian figure (not yet listed) stands in {text}"
            )
        spent.append((free[0], cell))
    return tuple(spent)


def _later_years(
    raw: list[dict[str, Any]], players: tuple[PlayerState, ...], columns: set[int], source: str
) -> tuple[tuple[tuple[tuple[Chamber, ...], ...], ...], tuple[tuple[int, ...], ...]]:
    names = [p.name for p in players]
    width = columns.pop() if len(columns) == 1 else 4
    construction, gold = [], []
    for y, year in enumerate(raw):
        for name in year["rows"]:
            if name not in names:
                raise MalformedInputError(
                    source, json_path(("years", y, "rows", name)), f"no player named {name!r}"
                )
        for name in year.get("gold", {}):
            if name not in names:
                raise MalformedInputError(
                    source, json_path(("years", y, "gold", name)), f"no player named {name!r}"
                )
        rows = []
        for p in players:
            if p.name not in year["rows"]:
                raise MalformedInputError(
                    source, json_path(("years", y, "rows")), f"missing the row of player {p.name!r}"
                )
            rows.append(
                parse_row(
                    year["rows"][p.name],
                    p.dungeon.columns if p.dungeon.rows else width,
                    source,
                    ("years", y, "rows", p.name),
                )
            )
        construction.append(tuple(rows))
        gold.append(tuple(year.get("gold", {}).get(p.name, 0) for p in players))
    return tuple(construction), tuple(gold)

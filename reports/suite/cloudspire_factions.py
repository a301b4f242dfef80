"""Cloudspire's faction spread (issue 18): every hero, boss, mini-hero and mini-boss of the data.

The rest of the Cloudspire suite plays one faction (the Harbor Keeper against the Driftwood
Leviathan). Here a table says, for each of the nine factions, which of its figures is exercised
and how (:data:`TABLE`), and one builder (:func:`build`) turns each row into a case, reading the
figures' values from the bundled data (``model/cloudspire/data/cloudspire.json``): the
scenarios follow the data, the expectations are the oracle's as everywhere else.

Checks (each puts the figure in the scenario where the compared outcome depends on it):

==================  =============================================================================
``hero-setup``      setup with the hero: its two starting spires, its allies' mini-heroes
``hero-rolls``      one committed die rolled as often as the hero's Strategy (and extra rolls) allow
``hero-recovery``   exhausted dice recovered by the hero's Recovery (and recovery bonus)
``mini-hero``       the mini-hero in the inventory: its ability (extra roll or recovery bonus)
``boss-attack``     the boss in a lane attacks the hero: Damage, global, ranged, after effects
``boss-defeat``     the worn-down boss takes the hero's crit: Health and armour decide the game
``mini-boss-*``     the same attack and defeat for the mini-boss, and its being a boss for
                    additional enemy icons (``mini-boss-stack``)
==================  =============================================================================

A hero plays with its own faction and the two named in its row; its opponent is the boss of the
row's ``facing`` faction, whose hero (with that row's allies) is the one the faction's boss and
mini-boss face. A figure with an ability the model has no effect kind for is refused when the
data loads (``model/cloudspire/cards.py``, ``ALLOWED``), so no row can invent one; a check that
has nothing to show for a figure (a mini-hero without an ability the builder knows) is an error
naming the figure, not a silent skip.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from invasion_oracle.model.cloudspire.cards import (
    Card,
    CardKind,
    Effect,
    EffectKind,
    EnemySide,
    HeroSide,
    has,
    total,
)
from invasion_oracle.model.cloudspire.data import GameData, default_data
from invasion_oracle.model.cloudspire.dice import Colour, colour_of
from invasion_oracle.model.core.overrides import in_force_untracked
from invasion_oracle.reports.suite.cloudspire_scenarios import DICE, GAME, case, dice, doc
from invasion_oracle.reports.suite.specs import CaseSpec, Stop

GROUP = "factions"

HERO_CHECKS = ("hero-setup", "hero-rolls", "hero-recovery", "mini-hero")
BOSS_CHECKS = ("boss-attack", "boss-defeat", "mini-boss-attack", "mini-boss-defeat", "mini-boss-stack")
EVERY_CHECK = HERO_CHECKS + BOSS_CHECKS


@dataclass(frozen=True, slots=True)
class Row:
    """One faction: the two factions its hero allies with, the faction whose hero faces its boss
    and mini-boss (and whose boss its hero faces), and the checks made."""

    faction: str
    allies: tuple[str, str]
    facing: str
    checks: tuple[str, ...] = EVERY_CHECK


TABLE: tuple[Row, ...] = (
    #   faction      its hero's allies         facing
    Row("Aurora", ("Basalt", "Cobalt"), "Driftwood"),
    Row("Basalt", ("Cobalt", "Driftwood"), "Ember"),
    Row("Cobalt", ("Driftwood", "Ember"), "Frost"),
    Row("Driftwood", ("Ember", "Frost"), "Gale"),
    Row("Ember", ("Frost", "Gale"), "Harbor"),
    Row("Frost", ("Gale", "Harbor"), "Ivory"),
    Row("Gale", ("Harbor", "Ivory"), "Aurora"),
    Row("Harbor", ("Ivory", "Aurora"), "Basalt"),
    Row("Ivory", ("Aurora", "Basalt"), "Cobalt"),
)

RECOVERY_EXHAUSTED = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3"]  # more than any Recovery total


# -- the data ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Faction:
    """A faction's four figures, as the data gives them."""

    name: str
    hero: HeroSide
    boss: EnemySide
    mini_hero: str
    mini_ability: tuple[Effect, ...]
    mini_boss: EnemySide
    icon_enemy: str  # a conflict enemy of the faction with an additional enemy icon ("" if none)


def _faction(data: GameData, name: str) -> Faction:
    def one(kind: CardKind) -> Card:
        (card,) = data.faction_cards(name, kind)
        return card

    hero_card, mini = one(CardKind.HERO), one(CardKind.MINI)
    assert hero_card.hero is not None and hero_card.enemy is not None
    assert mini.item is not None and mini.enemy is not None
    icons = [
        c.enemy.name
        for c in data.faction_cards(name, CardKind.CONFLICT)
        if c.enemy and c.enemy.additional_enemies
    ]
    return Faction(
        name,
        hero_card.hero,
        hero_card.enemy,
        mini.item.name,
        mini.item.effects,
        mini.enemy,
        icons[0] if icons else "",
    )


def factions() -> dict[str, Faction]:
    ambient = in_force_untracked(GAME)  # _factions is emptied before each recorded job (model/core/reads.py)
    return _factions(ambient.key if ambient else None)


@cache
def _factions(key: tuple[str, str] | None) -> dict[str, Faction]:
    """Per data in force (it can change between runs in one process)."""
    data = default_data()
    return {name: _faction(data, name) for name in data.factions}


def _rows() -> dict[str, Row]:
    return {row.faction: row for row in TABLE}


# -- words ----------------------------------------------------------------------------------------------


def _effects(side: EnemySide) -> str:
    parts = [str(e) for e in side.ongoing]
    parts += [f"global {e}" for e in side.global_effects]
    parts += [f"after {e}" for e in side.after]
    return f", {', '.join(parts)}" if parts else ""


def _stats(hero: HeroSide) -> str:
    ability = f", ability {', '.join(str(e) for e in hero.ability)}" if hero.ability else ""
    return f"Health {hero.health}, Strategy {hero.strategy}, Recovery {hero.recovery}{ability}"


# -- the builder -----------------------------------------------------------------------------------


def _side(row: Row, facing: bool = False) -> dict[str, Any]:
    """The hero, allies and boss of a described state: the row's own hero against the facing
    faction's boss, or (``facing``) the facing faction's hero against the row's boss."""
    everyone, rows = factions(), _rows()
    if facing:
        hero = everyone[row.facing].hero.name
        allied = [row.facing, *rows[row.facing].allies]
        boss = everyone[row.faction].boss.name
    else:
        hero = everyone[row.faction].hero.name
        allied = [row.faction, *row.allies]
        boss = everyone[row.facing].boss.name
    return {"hero": hero, "allied": allied, "boss": boss}


def _lane(enemy: EnemySide) -> str:
    """Where an enemy can reach the hero: the bottom lane, or the top one when it is ranged."""
    return "top" if has(enemy.ongoing, EffectKind.RANGED) else "bottom"


def _worn_down(hero: HeroSide, enemy: EnemySide) -> tuple[dict[str, Any], str]:
    """Dice for an enemy two damage short of defeat: hits applied to it, and a crit loaded on the
    hero's first blueprint (its colour, or purple for a wild one). Returns (dice, loaded die)."""
    colour = hero.blueprint[0] if hero.blueprint and hero.blueprint[0] is not None else Colour.PURPLE
    loaded = next(d for d in DICE if colour_of(d) is colour)
    rest = [d for d in DICE if d != loaded][: max(enemy.health - 2, 0)]
    return (
        dice(
            loaded={loaded: {"slot": "hero.bp1", "face": "crit"}},
            applied={d: {"card": enemy.name, "face": "hit"} for d in rest},
        ),
        loaded,
    )


def _armored(enemy: EnemySide) -> bool:
    return has(enemy.ongoing, EffectKind.ARMORED)


def _hero_setup(row: Row, check: str, me: Faction, rival: Faction, name: str) -> CaseSpec:
    """Setup: the hero's starting spires, the Market Stack and the boss's Deployment Stack."""
    minis = [factions()[f].mini_hero for f in row.allies]
    return case(
        GROUP,
        name,
        f"Setup with {me.hero.name} ({row.faction}): its two {me.hero.starting_spire} spires start in "
        f"the inventory; the mini-heroes {me.mini_hero}, {minis[0]} and {minis[1]} go into the Market "
        f"Stack with their factions' other conflict cards; the boss {rival.boss.name} decides the "
        "Deployment Stack (ruling CS-DEPLOYMENT-MAKEUP).",
        ("setup", "cards"),
        ("setup",),
        {
            "game": GAME,
            "start": "setup",
            "rounds": 1,
            "setup": {"hero": me.hero.name, "mini_heroes": minis, "boss": rival.boss.name},
            "decisions": {"script": [], "then": "first-legal"},
            "chance": {"script": [], "then": "first-legal"},
        },
        projection="piles",
        stop=Stop.before("cycle"),
    )


def _hero_rolls(row: Row, check: str, me: Faction, rival: Faction, name: str) -> CaseSpec:
    """The hero's Strategy and extra rolls (ruling CS-ROLLS)."""
    return case(
        GROUP,
        name,
        f"{me.hero.name} ({_stats(me.hero)}) rerolls one committed yellow die showing a miss (no "
        "blueprint takes it) as often as its Strategy and extra rolls allow (ruling CS-ROLLS).",
        ("roll", "cards"),
        ("reroll",),
        doc("strategy", **_side(row), dice=dice("Y1"), decisions=["commit yellow"]),
        projection="dice",
    )


def _hero_recovery(row: Row, check: str, me: Faction, rival: Faction, name: str) -> CaseSpec:
    """The hero's Recovery and recovery bonus."""
    return case(
        GROUP,
        name,
        f"{me.hero.name} ({_stats(me.hero)}) recovers as many of seven exhausted dice as its Recovery "
        "and recovery bonus say.",
        ("recover-rewards", "cards"),
        ("recovery",),
        doc("resolve", **_side(row), dice=dice(exhausted=RECOVERY_EXHAUSTED)),
        projection="dice",
    )


def _mini_hero(row: Row, check: str, me: Faction, rival: Faction, name: str) -> CaseSpec:
    """The mini-hero's ability in the inventory: an extra roll or a recovery bonus."""
    ability = ", ".join(str(e) for e in me.mini_ability)
    state = {**_side(row), "inventory": [me.mini_hero]}
    if total(me.mini_ability, EffectKind.EXTRA_ROLL):
        return case(
            GROUP,
            name,
            f"The mini-hero {me.mini_hero} ({ability}) in the inventory gives {me.hero.name} "
            f"({_stats(me.hero)}) its extra roll: one committed yellow die showing a miss is rerolled "
            "once more (ruling CS-ROLLS).",
            ("minis", "roll"),
            ("reroll",),
            doc("strategy", **state, dice=dice("Y1"), decisions=["commit yellow"]),
            projection="dice",
        )
    if total(me.mini_ability, EffectKind.RECOVERY_BONUS):
        return case(
            GROUP,
            name,
            f"The mini-hero {me.mini_hero} ({ability}) in the inventory adds its bonus to "
            f"{me.hero.name}'s Recovery ({_stats(me.hero)}): one more of seven exhausted dice is "
            "recovered.",
            ("minis", "recover-rewards"),
            ("recovery",),
            doc("resolve", **state, dice=dice(exhausted=RECOVERY_EXHAUSTED)),
            projection="dice",
        )
    raise ValueError(f"{GROUP}/{name}: no check shows the mini-hero {me.mini_hero}'s ability {ability!r}")


def _attack(row: Row, check: str, me: Faction, rival: Faction, name: str) -> CaseSpec:
    """The boss or mini-boss attacks the facing hero at Suffer Damage."""
    facing_hero = rival.hero
    boss = check == "boss-attack"
    enemy = me.boss if boss else me.mini_boss
    lane = _lane(enemy)
    what = "boss" if boss else "mini-boss"
    after = bool(enemy.after)
    figure = ("cards", *(("boss",) if enemy.global_effects else ())) if boss else ("minis",)
    sections = ("suffer", *(("after",) if after else ()), *figure)
    features = (
        "hero-damage",
        "boss",
        *(("ranged",) if lane == "top" else ()),
        *(("after-effect",) if after else ()),
    )
    global_note = (
        f" {me.boss.name}'s global effect ({', '.join(str(e) for e in me.boss.global_effects)}) counts as "
        "ruling CS-BOSS-GLOBAL reads."
        if not boss and me.boss.global_effects
        else ""
    )
    reach = "from the top lane, as it is ranged" if lane == "top" else "from the bottom lane"
    then = "; then its after effect costs Health too" if after else ""
    return case(
        GROUP,
        name,
        f"The {what} {enemy.name} (Health {enemy.health}, Damage {enemy.damage}{_effects(enemy)}) attacks "
        f"{facing_hero.name} (Health {facing_hero.health}) at Suffer Damage {reach}{then}.{global_note}",
        sections,
        features,
        doc(
            "resolve",
            **_side(row, facing=True),
            boss_added=boss,
            lanes={lane: [enemy.name]},
        ),
        projection="hero",
    )


def _defeat(row: Row, check: str, me: Faction, rival: Faction, name: str) -> CaseSpec:
    """The boss or mini-boss worn down, then a loaded crit applied at Spires Fire."""
    facing_hero = rival.hero
    boss = check == "boss-defeat"
    enemy = me.boss if boss else me.mini_boss
    state, loaded = _worn_down(facing_hero, enemy)
    if _armored(enemy):
        ending = "it is armored, so the crit deals only 1 and it survives with 1 Health left"
    elif boss:
        ending = "the crit defeats it and, with the Deployment Stack empty, the game is won"
    else:
        ending = "the crit defeats it; at Cleanup it goes to the discard mini-boss side up"
        if enemy.after:
            ending += "; its after effect then counts as ruling CS-AFTER-DEFEATED reads"
    return case(
        GROUP,
        name,
        f"The {'boss' if boss else 'mini-boss'} {enemy.name} (Health {enemy.health}{_effects(enemy)}) in "
        f"the bottom lane has {max(enemy.health - 2, 0)} damage on it; {facing_hero.name}'s loaded crit "
        f"is applied: {ending}.",
        ("fire", "winning" if boss else "minis", "cards"),
        ("hit", "boss", *(("win",) if boss else ())),
        doc(
            "fire",
            **_side(row, facing=True),
            boss_added=boss,
            lanes={"bottom": [enemy.name]},
            dice=state,
            decisions=[f"apply {loaded} bottom"],
        ),
        projection="lanes",
    )


def _mini_boss_stack(row: Row, check: str, me: Faction, rival: Faction, name: str) -> CaseSpec:
    """An additional enemy icon with a mini-boss next in the Deployment Stack."""
    if not me.icon_enemy:
        raise ValueError(f"{GROUP}/{name}: {row.faction} has no enemy with an additional enemy icon")
    return case(
        GROUP,
        name,
        f"{me.icon_enemy} deploys with an additional enemy icon and the next Deployment card is the "
        f"mini-boss {me.mini_boss.name}: mini-bosses count as bosses, so the icon is ignored and the "
        "mini-boss stays in the Deployment Stack.",
        ("minis", "stacks"),
        ("deploy", "stack", "boss"),
        doc("round", **_side(row, facing=True), deployment=[me.icon_enemy, me.mini_boss.name]),
        projection="piles",
    )


# One builder a check (a boss and its mini-boss share theirs: `check` tells them apart).
_BUILDERS = {
    "hero-setup": _hero_setup,
    "hero-rolls": _hero_rolls,
    "hero-recovery": _hero_recovery,
    "mini-hero": _mini_hero,
    "boss-attack": _attack,
    "mini-boss-attack": _attack,
    "boss-defeat": _defeat,
    "mini-boss-defeat": _defeat,
    "mini-boss-stack": _mini_boss_stack,
}


def build(row: Row, check: str) -> CaseSpec:
    """The case of ``check`` for ``row``'s faction."""
    me = factions()[row.faction]
    rival = factions()[row.facing]
    name = f"{row.faction.lower()}-{check}"
    builder = _BUILDERS.get(check)
    if builder is None:
        raise ValueError(f"{GROUP}: unknown check {check!r} (known: {', '.join(EVERY_CHECK)})")
    return builder(row, check, me, rival, name)


def faction_cases() -> Iterator[CaseSpec]:
    """The producer: every row of :data:`TABLE`, check by check."""
    for row in TABLE:
        for check in row.checks:
            yield build(row, check)

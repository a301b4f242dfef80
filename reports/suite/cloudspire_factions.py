"""Cloudspire's faction spread (issue 18): every hero, boss, mini-hero and mini-boss of the data.

The rest of the Cloudspire suite plays one faction (the Harbor Keeper against the Driftwood
Leviathan). Here a table (:data:`TABLE`) gives each of the nine factions the two factions its hero
allies with and the faction it faces, and :func:`faction_rows` reads each faction's figures from
the data in force into the rows of ``cases/cloudspire/factions.toml``, whose patterns say what
each check puts where (setup, rolls, recovery, the mini-hero, the boss's and mini-boss's attack
and defeat, the mini-boss in a stack). A hero plays with its own faction and the two of its row;
its opponent is the boss of the row's ``facing`` faction, whose hero (with that row's allies) is
the one the faction's boss and mini-boss face. A figure with an ability the model has no effect
kind for is refused when the data loads (``model/cloudspire/cards.py``, ``ALLOWED``); a check with
nothing to show for a figure (a mini-hero without an ability a pattern knows) is an error naming
the figure, not a silent skip.
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

GAME = "cloudspire"
GROUP = "factions"
DICE = ("Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4", "B1", "B2", "B3", "B4", "P1", "P2", "P3", "P4", "R1")


def dice(*pool: str, **zones: Any) -> dict[str, Any]:
    """A described state's dice: ``zones`` as given, the ``pool`` dice in the pool, every other die banished."""
    listed = {d for v in zones.values() for d in (v if isinstance(v, list) else v.keys())}
    return {"banished": [d for d in DICE if d not in pool and d not in listed], **zones}


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


# -- the rows ------------------------------------------------------------------------------------


def side(row: Row, facing: bool = False) -> dict[str, Any]:
    """The hero, allies and boss of a described state: the row's own hero against the facing
    faction's boss, or (``facing``) the facing faction's hero against the row's boss."""
    everyone, rows = factions(), _rows()
    if facing:
        allied = [row.facing, *rows[row.facing].allies]
        return {
            "hero": everyone[row.facing].hero.name,
            "allied": allied,
            "boss": everyone[row.faction].boss.name,
        }
    allied = [row.faction, *row.allies]
    return {"hero": everyone[row.faction].hero.name, "allied": allied, "boss": everyone[row.facing].boss.name}


def _worn_down(hero: HeroSide, enemy: EnemySide) -> dict[str, Any]:
    """Dice for an enemy two damage short of defeat: hits applied to it, and a crit loaded on the
    hero's first blueprint (its colour, or purple for a wild one)."""
    colour = hero.blueprint[0] if hero.blueprint and hero.blueprint[0] is not None else Colour.PURPLE
    loaded = next(d for d in DICE if colour_of(d) is colour)
    rest = [d for d in DICE if d != loaded][: max(enemy.health - 2, 0)]
    zones = {"loaded": {loaded: {"slot": "hero.bp1", "face": "crit"}}}
    return {
        "loaded": loaded,
        "dice": dice(**zones, applied={d: {"card": enemy.name, "face": "hit"} for d in rest}),
    }


def _mini_hero(me: Faction) -> dict[str, Any]:
    ability = ", ".join(str(e) for e in me.mini_ability)
    for kind, pattern in (
        (EffectKind.EXTRA_ROLL, "mini-hero-extra-roll"),
        (EffectKind.RECOVERY_BONUS, "mini-hero-recovery-bonus"),
    ):
        if total(me.mini_ability, kind):
            return {"pattern": pattern, "ability": ability}
    raise ValueError(
        f"{GROUP}/{me.name.lower()}-mini-hero: no check shows the mini-hero {me.mini_hero}'s ability {ability!r}"
    )


def _attack(check: str, me: Faction) -> dict[str, Any]:
    """The boss or mini-boss attacks the facing hero at Suffer Damage."""
    boss = check == "boss-attack"
    enemy = me.boss if boss else me.mini_boss
    ranged, after = has(enemy.ongoing, EffectKind.RANGED), bool(enemy.after)
    figure = ("cards", *(("boss",) if enemy.global_effects else ())) if boss else ("minis",)
    global_note = (
        f" {me.boss.name}'s global effect ({', '.join(str(e) for e in me.boss.global_effects)}) counts as "
        "ruling CS-BOSS-GLOBAL reads."
        if not boss and me.boss.global_effects
        else ""
    )
    return {
        "pattern": "attack",
        "check": check,
        "what": "boss" if boss else "mini-boss",
        "enemy": enemy.name,
    } | {
        "health": enemy.health,
        "damage": enemy.damage,
        "effects": _effects(enemy),
        "boss_added": boss,
        "lane": "top" if ranged else "bottom",
        "reach": "from the top lane, as it is ranged" if ranged else "from the bottom lane",
        "then": "; then its after effect costs Health too" if after else "",
        "global_note": global_note,
        "sections": ["suffer", *(["after"] if after else []), *figure],
        "features": [
            "hero-damage",
            "boss",
            *(["ranged"] if ranged else []),
            *(["after-effect"] if after else []),
        ],
    }


def _defeat(check: str, me: Faction, rival: Faction) -> dict[str, Any]:
    """The boss or mini-boss worn down, then a loaded crit applied at Spires Fire."""
    boss = check == "boss-defeat"
    enemy = me.boss if boss else me.mini_boss
    if has(enemy.ongoing, EffectKind.ARMORED):
        ending = "it is armored, so the crit deals only 1 and it survives with 1 Health left"
    elif boss:
        ending = "the crit defeats it and, with the Deployment Stack empty, the game is won"
    else:
        ending = "the crit defeats it; at Cleanup it goes to the discard mini-boss side up"
        if enemy.after:
            ending += "; its after effect then counts as ruling CS-AFTER-DEFEATED reads"
    return (
        {"pattern": "defeat", "check": check, "what": "boss" if boss else "mini-boss", "enemy": enemy.name}
        | {
            "health": enemy.health,
            "effects": _effects(enemy),
            "worn": max(enemy.health - 2, 0),
            "ending": ending,
            "boss_added": boss,
            "sections": ["fire", "winning" if boss else "minis", "cards"],
            "features": ["hit", "boss", *(["win"] if boss else [])],
        }
        | _worn_down(rival.hero, enemy)
    )


def faction_rows() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/cloudspire/factions.toml``: every row of :data:`TABLE`, check by check."""
    everyone = factions()
    for row in TABLE:
        me, rival = everyone[row.faction], everyone[row.facing]
        mine = {
            "id": row.faction.lower(),
            "faction": row.faction,
            "stats": _stats(me.hero),
            "mini": me.mini_hero,
        }
        theirs = {"id": row.faction.lower(), "hero_health": rival.hero.health} | side(row, facing=True)
        for check in row.checks:
            if check.startswith("boss") or check.startswith("mini-boss"):
                yield theirs | _boss_row(check, row, me, rival)
            else:
                yield mine | side(row) | _hero_row(check, row, me)


def _hero_row(check: str, row: Row, me: Faction) -> dict[str, Any]:
    if check == "hero-setup":
        minis = [factions()[f].mini_hero for f in row.allies]
        return {
            "pattern": check,
            "spire": me.hero.starting_spire,
            "minis": minis,
            "mini1": minis[0],
            "mini2": minis[1],
        }
    if check in ("hero-rolls", "hero-recovery"):
        return {"pattern": check}
    if check == "mini-hero":
        return _mini_hero(me)
    raise ValueError(f"{GROUP}: unknown check {check!r} (known: {', '.join(EVERY_CHECK)})")


def _boss_row(check: str, row: Row, me: Faction, rival: Faction) -> dict[str, Any]:
    if check.endswith("-attack"):
        return _attack(check, me)
    if check.endswith("-defeat"):
        return _defeat(check, me, rival)
    if check == "mini-boss-stack":
        if not me.icon_enemy:
            where = f"{GROUP}/{row.faction.lower()}-mini-boss-stack"
            raise ValueError(f"{where}: {row.faction} has no enemy with an additional enemy icon")
        return {"pattern": check, "icon": me.icon_enemy, "enemy": me.mini_boss.name}
    raise ValueError(f"{GROUP}: unknown check {check!r} (known: {', '.join(EVERY_CHECK)})")

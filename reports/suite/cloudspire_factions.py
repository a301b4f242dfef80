"""Cloudspire's faction spread (issue 18): every hero, boss, mini-hero and mini-boss of the data.

The rest of the Cloudspire suite plays one faction (the Harbor Keeper against the Driftwood
Leviathan). Here each faction of the data in force, in the data's order, is paired with others by
one rule (:func:`factions`): its hero allies with the next two factions and faces the boss of the
third (round the list). :func:`faction_rows` reads each faction's figures from the data into the
rows of ``cases/cloudspire/factions.toml``, whose patterns say what each check puts where (setup,
rolls, recovery, the mini-hero, the boss's and mini-boss's attack and defeat, the mini-boss in a
stack). The faction's boss and mini-boss face the hero (with its allies) of the faction three
before it. A figure with an ability the model has no effect kind for is refused when the data
loads (``model/cloudspire/cards.py``, ``ALLOWED``); a check with nothing to show for a figure (a
mini-hero without an ability a pattern knows) is an error naming the figure, not a silent skip.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from invasion_oracle.model.cloudspire.cards import CardKind, Effect, EffectKind, EnemySide, HeroSide, has
from invasion_oracle.model.cloudspire.data import default_data
from invasion_oracle.model.cloudspire.dice import Colour, colour_of
from invasion_oracle.model.core.overrides import in_force_untracked

GAME = "cloudspire"
GROUP = "factions"
DICE = ("Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4", "B1", "B2", "B3", "B4", "P1", "P2", "P3", "P4", "R1")


def dice(*pool: str, **zones: Any) -> dict[str, Any]:
    """A described state's dice: ``zones`` as given, the ``pool`` dice in the pool, every other die banished."""
    listed = {d for v in zones.values() for d in (v if isinstance(v, list) else v.keys())}
    return {"banished": [d for d in DICE if d not in pool and d not in listed], **zones}


# -- the data ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Faction:
    """A faction's four figures, as the data gives them, and its pairing: the two factions its hero
    allies with, and the faction whose hero faces its boss and mini-boss (and whose boss its hero
    faces)."""

    name: str
    hero: HeroSide
    boss: EnemySide
    mini_hero: str
    mini_ability: tuple[Effect, ...]
    mini_boss: EnemySide
    icon_enemy: str  # a conflict enemy of the faction with an additional enemy icon ("" if none)
    allies: tuple[str, str]
    facing: str


def factions() -> dict[str, Faction]:
    ambient = in_force_untracked(GAME)  # _factions is emptied before each recorded job (model/core/reads.py)
    return _factions(ambient.key if ambient else None)


@cache
def _factions(key: tuple[str, str] | None) -> dict[str, Faction]:
    """Per data in force (it can change between runs in one process), in the data's order: each
    allied with the next two factions, facing the third (round the list)."""
    data = default_data()
    names, n = list(data.factions), len(data.factions)
    if n < 4:
        raise ValueError(f"{GROUP}: the pairings need four factions or more, the data has {n}")

    def faction(i: int, name: str) -> Faction:
        (hero_card,) = data.faction_cards(name, CardKind.HERO)
        (mini,) = data.faction_cards(name, CardKind.MINI)
        assert hero_card.hero is not None and hero_card.enemy is not None
        assert mini.item is not None and mini.enemy is not None
        conflict = data.faction_cards(name, CardKind.CONFLICT)
        icons = [c.enemy.name for c in conflict if c.enemy and c.enemy.additional_enemies]
        figures = (hero_card.hero, hero_card.enemy, mini.item.name, mini.item.effects, mini.enemy)
        pairing = (names[(i + 1) % n], names[(i + 2) % n]), names[(i + 3) % n]
        return Faction(name, *figures, next(iter(icons), ""), *pairing)

    return {name: faction(i, name) for i, name in enumerate(names)}


# -- words and dice shared with the conflict-card spread ----------------------------------------------


def effect_words(effects: tuple[Effect, ...], prefix: str = "") -> list[str]:
    return [f"{prefix}{e}" for e in effects]


def when(flag: object, *tags: str) -> tuple[str, ...]:
    """``tags`` if ``flag`` holds, else none: a case's optional rule sections and features."""
    return tags if flag else ()


def crit_colour(hero: HeroSide) -> Colour:
    """The colour of the hero's first blueprint, where a loaded crit goes (purple for a wild one)."""
    return hero.blueprint[0] if hero.blueprint and hero.blueprint[0] is not None else Colour.PURPLE


def side(row: Faction, facing: bool = False) -> dict[str, Any]:
    """The hero, allies and boss of a described state: the row's own hero against the facing
    faction's boss, or (``facing``) the facing faction's hero against the row's boss."""
    everyone = factions()
    hero = everyone[row.facing] if facing else row
    boss = everyone[row.name if facing else row.facing].boss
    return {"hero": hero.hero.name, "allied": [hero.name, *hero.allies], "boss": boss.name}


# -- the rows ------------------------------------------------------------------------------------


def _effects(side: EnemySide) -> str:
    parts = [*effect_words(side.ongoing), *effect_words(side.global_effects, "global ")]
    parts += effect_words(side.after, "after ")
    return f", {', '.join(parts)}" if parts else ""


def _stats(hero: HeroSide) -> str:
    ability = f", ability {', '.join(effect_words(hero.ability))}" if hero.ability else ""
    return f"Health {hero.health}, Strategy {hero.strategy}, Recovery {hero.recovery}{ability}"


def _mini_hero(me: Faction) -> dict[str, Any]:
    ability = ", ".join(effect_words(me.mini_ability))
    for kind, check in ((EffectKind.EXTRA_ROLL, "extra-roll"), (EffectKind.RECOVERY_BONUS, "recovery-bonus")):
        if has(me.mini_ability, kind):
            return {"pattern": f"mini-hero-{check}", "ability": ability}
    where = f"{GROUP}/{me.name.lower()}-mini-hero"
    raise ValueError(f"{where}: no check shows the mini-hero {me.mini_hero}'s ability {ability!r}")


def _attack(me: Faction, boss: bool) -> dict[str, Any]:
    """The boss or mini-boss attacks the facing hero at Suffer Damage."""
    enemy = me.boss if boss else me.mini_boss
    ranged, after = has(enemy.ongoing, EffectKind.RANGED), bool(enemy.after)
    global_note = ""
    if not boss and me.boss.global_effects:
        effects = ", ".join(effect_words(me.boss.global_effects))
        global_note = f" {me.boss.name}'s global effect ({effects}) counts as ruling CS-BOSS-GLOBAL reads."
    figure = ["cards", *when(enemy.global_effects, "boss")] if boss else ["minis"]
    found = {"damage": enemy.damage, "lane": "top" if ranged else "bottom", "global_note": global_note}
    found |= {"reach": "from the top lane, as it is ranged" if ranged else "from the bottom lane"}
    found |= {"then": "; then its after effect costs Health too" if after else ""}
    sections = ["suffer", *when(after, "after"), *figure]
    features = ["hero-damage", "boss", *when(ranged, "ranged"), *when(after, "after-effect")]
    return _what("attack", boss, enemy) | found | {"sections": sections, "features": features}


def _defeat(me: Faction, rival: Faction, boss: bool) -> dict[str, Any]:
    """The boss or mini-boss worn down (hits applied) to two damage short of defeat, then a crit
    loaded on the facing hero's first blueprint applied at Spires Fire."""
    enemy = me.boss if boss else me.mini_boss
    if has(enemy.ongoing, EffectKind.ARMORED):
        ending = "it is armored, so the crit deals only 1 and it survives with 1 Health left"
    elif boss:
        ending = "the crit defeats it and, with the Deployment Stack empty, the game is won"
    else:
        ending = "the crit defeats it; at Cleanup it goes to the discard mini-boss side up"
        if enemy.after:
            ending += "; its after effect then counts as ruling CS-AFTER-DEFEATED reads"
    loaded = next(d for d in DICE if colour_of(d) is crit_colour(rival.hero))
    worn = [d for d in DICE if d != loaded][: max(enemy.health - 2, 0)]
    applied = {d: {"card": enemy.name, "face": "hit"} for d in worn}
    found = {"worn": len(worn), "ending": ending, "loaded": loaded}
    found |= {"dice": dice(loaded={loaded: {"slot": "hero.bp1", "face": "crit"}}, applied=applied)}
    sections, features = (
        ["fire", "winning" if boss else "minis", "cards"],
        ["hit", "boss", *when(boss, "win")],
    )
    return _what("defeat", boss, enemy) | found | {"sections": sections, "features": features}


def _what(pattern: str, boss: bool, enemy: EnemySide) -> dict[str, Any]:
    what = "boss" if boss else "mini-boss"
    found = {"pattern": pattern, "check": f"{what}-{pattern}", "what": what, "enemy": enemy.name}
    return found | {"health": enemy.health, "effects": _effects(enemy), "boss_added": boss}


def faction_rows() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/cloudspire/factions.toml``: every faction's checks, in the file's order."""
    everyone = factions()
    for me in everyone.values():
        rival = everyone[me.facing]
        mine = {"id": me.name.lower(), "faction": me.name, "mini": me.mini_hero} | side(me)
        minis = [me.mini_hero, *(everyone[f].mini_hero for f in me.allies)]
        setup = {"pattern": "hero-setup", "spire": me.hero.starting_spire, "minis": minis[1:]}
        setup |= {"market_minis": f"{minis[0]}, {minis[1]} and {minis[2]}"}
        for check in (setup, {"pattern": "hero-rolls"}, {"pattern": "hero-recovery"}, _mini_hero(me)):
            yield mine | {"stats": _stats(me.hero)} | check
        theirs = {"id": me.name.lower(), "hero_health": rival.hero.health} | side(me, facing=True)
        for boss in (True, False):
            yield theirs | _attack(me, boss)
            yield theirs | _defeat(me, rival, boss)
        if not me.icon_enemy:
            where = f"{GROUP}/{me.name.lower()}-mini-boss-stack"
            raise ValueError(f"{where}: {me.name} has no enemy with an additional enemy icon")
        yield theirs | {"pattern": "mini-boss-stack", "icon": me.icon_enemy, "enemy": me.mini_boss.name}

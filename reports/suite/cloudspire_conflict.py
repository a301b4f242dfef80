"""Cloudspire's conflict-card spread (issue 18): both sides of every conflict card of the data.

A conflict card is an enemy on one side and an item or spire on the other (seed 004, Components
and Card Faces). The rest of the suite plays a few of them again and again; here a table
(:data:`TABLE`) names every conflict card with the check that shows its item side, and one
builder (:func:`build`) turns each row into four cases, reading every value from the bundled data
(``model/cloudspire/data/cloudspire.json``): the scenarios follow the data, the expectations are
the oracle's as everywhere else.

Enemy side (the card plays against the hero that faces its faction's boss in
:data:`~invasion_oracle.reports.suite.cloudspire_factions.TABLE`, its own faction's boss in play):

==================  =============================================================================
``enemy-attack``    alone in the lane that reaches the hero (the bottom lane; the middle one when it
                    is ranged), it attacks at Suffer Damage: every point of its Damage (and the
                    boss's global effect) lands on the hero; then its after effect
``enemy-deploy``    on top of the Deployment Stack at the start of a round: deployed into the top
                    lane (its additional enemy icon puts the next card under it), its activation
                    effect, then its attack from the top lane: on the hero when it is ranged,
                    else on the top row's spires (loaded misses first, then a spire)
``enemy-defeat``    worn down to 1 Health in the bottom lane, the hero's loaded crit defeats it (an
                    armored one takes 1): its reward (heal, recover, draw/keep or claim)
==================  =============================================================================

Item side (the card's own faction's hero, its allies of the factions table, the facing boss),
one check per row, named in the table and refused when the data does not fit it:

==================  =============================================================================
``spire-fire``      the spire placed from the inventory, a rolled hit loaded on its first printed
                    blueprint and fired at the enemy of its row
``ignore-blueprint``  the same, the die loaded ignoring the blueprint (a colour it does not print)
``lattice``         placed beside another spire, a die loaded on the blueprint it creates
``drilling``        in the inventory at the start of a round: the red blueprint it creates on the
                    active spire takes the red die
``recovery-bonus``  in the inventory: one more exhausted die recovered
``health-on-gain``  kept from a draw/keep reward: the hero gains Health
==================  =============================================================================
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from invasion_oracle.model.cloudspire.cards import Card, CardKind, EffectKind, EnemySide, has, total
from invasion_oracle.model.cloudspire.data import GameData, default_data
from invasion_oracle.model.cloudspire.dice import Colour, colour_of
from invasion_oracle.reports.suite.cloudspire_factions import TABLE as FACTION_TABLE
from invasion_oracle.reports.suite.cloudspire_factions import factions
from invasion_oracle.reports.suite.cloudspire_scenarios import DICE, case, dice, doc
from invasion_oracle.reports.suite.specs import CaseSpec

GROUP = "conflict"

ENEMY_CHECKS = ("enemy-attack", "enemy-deploy", "enemy-defeat")
ITEM_CHECKS = ("spire-fire", "ignore-blueprint", "lattice", "drilling", "recovery-bonus", "health-on-gain")


@dataclass(frozen=True, slots=True)
class Row:
    """One conflict card: the check showing its item side, and the checks of its enemy side."""

    card: str
    item: str
    enemy: tuple[str, ...] = ENEMY_CHECKS


TABLE: tuple[Row, ...] = (
    Row("Aurora-1", "ignore-blueprint"),
    Row("Aurora-2", "ignore-blueprint"),
    Row("Aurora-3", "spire-fire"),
    Row("Aurora-4", "recovery-bonus"),
    Row("Aurora-5", "health-on-gain"),
    Row("Basalt-1", "ignore-blueprint"),
    Row("Basalt-2", "ignore-blueprint"),
    Row("Basalt-3", "drilling"),
    Row("Basalt-4", "drilling"),
    Row("Basalt-5", "recovery-bonus"),
    Row("Cobalt-1", "spire-fire"),
    Row("Cobalt-2", "spire-fire"),
    Row("Cobalt-3", "spire-fire"),
    Row("Cobalt-4", "recovery-bonus"),
    Row("Cobalt-5", "spire-fire"),
    Row("Driftwood-1", "spire-fire"),
    Row("Driftwood-2", "spire-fire"),
    Row("Driftwood-3", "spire-fire"),
    Row("Driftwood-4", "health-on-gain"),
    Row("Driftwood-5", "spire-fire"),
    Row("Ember-1", "spire-fire"),
    Row("Ember-2", "spire-fire"),
    Row("Ember-3", "spire-fire"),
    Row("Ember-4", "recovery-bonus"),
    Row("Ember-5", "health-on-gain"),
    Row("Frost-1", "spire-fire"),
    Row("Frost-2", "spire-fire"),
    Row("Frost-3", "spire-fire"),
    Row("Frost-4", "health-on-gain"),
    Row("Frost-5", "spire-fire"),
    Row("Gale-1", "lattice"),
    Row("Gale-2", "lattice"),
    Row("Gale-3", "spire-fire"),
    Row("Gale-4", "recovery-bonus"),
    Row("Gale-5", "spire-fire"),
    Row("Harbor-1", "spire-fire"),
    Row("Harbor-2", "spire-fire"),
    Row("Harbor-3", "spire-fire"),
    Row("Harbor-4", "recovery-bonus"),
    Row("Harbor-5", "health-on-gain"),
    Row("Ivory-1", "spire-fire"),
    Row("Ivory-2", "spire-fire"),
    Row("Ivory-3", "spire-fire"),
    Row("Ivory-4", "recovery-bonus"),
    Row("Ivory-5", "spire-fire"),
)

RECOVERY_EXHAUSTED = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3"]  # more than any Recovery total


# -- the data ---------------------------------------------------------------------------------------


@cache
def _data() -> GameData:
    return default_data()


def _card(card_id: str) -> Card:
    return _data().by_id(card_id)


def _enemy(card: Card) -> EnemySide:
    assert card.enemy is not None
    return card.enemy


def _conflict(faction: str) -> tuple[Card, ...]:
    return _data().faction_cards(faction, CardKind.CONFLICT)


def _faction_rows() -> dict[str, Any]:
    return {row.faction: row for row in FACTION_TABLE}


def _facing_of(faction: str) -> str:
    """The faction whose hero faces ``faction``'s boss in the factions table."""
    return str(_faction_rows()[faction].facing)


def _hero_side(faction: str) -> dict[str, Any]:
    """``faction``'s hero with its allies, against its facing faction's boss."""
    row = _faction_rows()[faction]
    return {
        "hero": factions()[faction].hero.name,
        "allied": [faction, *row.allies],
        "boss": factions()[row.facing].boss.name,
    }


def _against(faction: str) -> tuple[str, dict[str, Any]]:
    """The hero facing ``faction``'s boss (its faction, and the described state's hero, allies
    and boss): the side ``faction``'s enemies play against."""
    hero_faction = next(row.faction for row in FACTION_TABLE if row.facing == faction)
    side = _hero_side(hero_faction)
    side["boss"] = factions()[faction].boss.name
    assert faction not in side["allied"], faction
    return hero_faction, side


def _bonus(faction: str) -> int:
    """The boss's global effect on every enemy's Damage (in force from setup: ruling CS-BOSS-GLOBAL's
    default reading)."""
    return total(factions()[faction].boss.global_effects, EffectKind.ENEMY_DAMAGE)


# -- words -------------------------------------------------------------------------------------------


def _effects(side: EnemySide) -> str:
    parts = [f"on activation {e}" for e in side.activation]
    parts += [str(e) for e in side.ongoing]
    parts += [f"after {e}" for e in side.after]
    parts += [f"reward {e}" for e in side.reward]
    if side.additional_enemies:
        parts.append(f"{side.additional_enemies} additional enemy icon")
    return f", {', '.join(parts)}" if parts else ""


def _stats(side: EnemySide) -> str:
    return f"Health {side.health}, Damage {side.damage}{_effects(side)}"


def _item_words(card: Card) -> str:
    item = card.item
    assert item is not None
    parts = []
    if item.blueprints:
        parts.append("blueprints " + ", ".join(c.value if c else "wild" for c in item.blueprints))
    parts += [str(e) for e in item.effects]
    kind = "spire" if item.spire else "item"
    return f"{item.name} ({card.id}, {kind}{': ' if parts else ''}{'; '.join(parts)})"


def _points(n: int) -> str:
    return "its 1 point lands" if n == 1 else f"all {n} points land"


def _global_note(faction: str) -> str:
    bonus = _bonus(faction)
    if not bonus:
        return ""
    return (
        f" The boss {factions()[faction].boss.name}'s global effect adds {bonus} to its Damage (ruling "
        "CS-BOSS-GLOBAL)."
    )


# -- dice ---------------------------------------------------------------------------------------------


class _Dice:
    """Hands out dice by colour, each once."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def free(self, colour: Colour | None = None) -> bool:
        return any(d not in self.used and (colour is None or colour_of(d) is colour) for d in DICE)

    def like(self, colour: Colour) -> str:
        """A die of ``colour`` while one is left, else any: applied dice of one colour are recovered
        without a question."""
        return self.take(colour if self.free(colour) else None)

    def take(self, colour: Colour | None = None) -> str:
        die = next(d for d in DICE if d not in self.used and (colour is None or colour_of(d) is colour))
        self.used.add(die)
        return die


def _slots(card: Card) -> list[tuple[str, Colour | None]]:
    """The printed and ignored-blueprint slots of a spire: (slot suffix, colour or None)."""
    item = card.item
    assert item is not None and item.spire
    out: list[tuple[str, Colour | None]] = [(f"bp{i + 1}", c) for i, c in enumerate(item.blueprints)]
    out += [(f"free{i + 1}", None) for i in range(total(item.effects, EffectKind.IGNORE_BLUEPRINT))]
    return out


def _allied_spires(allied: list[str], minimum: int) -> list[Card]:
    """Allied spire cards with at least ``minimum`` slots (no created ones), in data order."""
    return [
        c
        for f in allied
        for c in _conflict(f)
        if c.is_spire
        and len(_slots(c)) >= minimum
        and c.item is not None
        and not has(c.item.effects, EffectKind.LATTICE)
    ]


def _market(allied: list[str], count: int) -> list[str]:
    """``count`` allied conflict cards with different item names, in data order."""
    seen: dict[str, str] = {}
    for c in (c for f in allied for c in _conflict(f)):
        if c.item is not None:
            seen.setdefault(c.item.name, c.id)
    return list(seen.values())[:count]


def _plain_enemy(faction: str, *, skip: tuple[str, ...] = ()) -> Card:
    """The card of ``faction`` with the fewest effects besides its reward (a quiet filler; never one
    with an additional enemy icon)."""

    def noise(c: Card) -> int:
        e = _enemy(c)
        return len(e.activation) + len(e.ongoing) + len(e.after)

    cards = [c for c in _conflict(faction) if c.id not in skip and not _enemy(c).additional_enemies]
    return min(cards, key=noise)


# -- the enemy side -----------------------------------------------------------------------------------


def _enemy_attack(card: Card) -> CaseSpec:
    enemy, faction = _enemy(card), card.faction
    hero_faction, side = _against(faction)
    hero = factions()[hero_faction].hero
    ranged = has(enemy.ongoing, EffectKind.RANGED)
    lane = "middle" if ranged else "bottom"
    damage = enemy.damage + _bonus(faction)
    after = total(enemy.after, EffectKind.DAMAGE_HERO)
    reach = (
        "from the middle lane, as it is ranged (no spire in the middle row)"
        if ranged
        else "from the bottom lane (no spire beside it)"
    )
    then = f"; at After Effects its after effect costs {after} more" if after else ""
    return case(
        GROUP,
        f"{card.id.lower()}-enemy-attack",
        f"Seed 004, Suffer Damage Step: {enemy.name} ({card.id}: {_stats(enemy)}) attacks {hero.name} "
        f"(Health {hero.health}) {reach}: {_points(damage)} on the hero{then}.{_global_note(faction)}",
        ("suffer", "cards", *(("after",) if after else ()), *(("boss",) if _bonus(faction) else ())),
        (
            "hero-damage",
            *(("ranged",) if ranged else ()),
            *(("after-effect",) if after else ()),
            *(("boss",) if _bonus(faction) else ()),
        ),
        doc("resolve", **side, lanes={lane: [enemy.name]}),
        projection="hero",
    )


def _enemy_deploy(card: Card) -> CaseSpec:
    enemy, faction = _enemy(card), card.faction
    hero_faction, side = _against(faction)
    hero = factions()[hero_faction].hero
    ranged = has(enemy.ongoing, EffectKind.RANGED)
    damage = enemy.damage + _bonus(faction)
    pool = _Dice()
    deployment = [enemy.name]
    words = [
        f"{enemy.name} ({card.id}: {_stats(enemy)}) is deployed from the Deployment Stack into the top lane"
    ]
    if enemy.additional_enemies:
        under = _plain_enemy(faction, skip=(card.id,))
        deployment.append(_enemy(under).name)
        words.append(f"its additional enemy icon puts the next card, {_enemy(under).name}, under it")
    for effect in enemy.activation:
        if effect.kind is EffectKind.DAMAGE_HERO:
            words.append(f"its activation effect costs {hero.name} {effect.amount} Health")
        elif effect.kind is EffectKind.EXHAUST_POOL:
            words.append(f"its activation effect exhausts {effect.amount} of the pool's dice")
    state: dict[str, Any] = {**side, "deployment": deployment}
    zones: dict[str, Any] = {}
    if ranged:
        words.append(
            f"at Suffer Damage, ranged, it reaches the hero from the top lane: {_points(damage)} on it"
        )
    else:
        misses = damage - 1
        spires = _allied_spires(side["allied"], 1)
        loaded: dict[str, Any] = {}
        placed: dict[str, str] = {}
        spaces = ["L-top", "R-top"]
        for spire in spires:
            if not spaces or (len(loaded) >= misses and spaces[0] != "L-top"):
                break
            wanted = _slots(spire)[: max(misses - len(loaded), 0)]
            if not all(pool.free(colour) for _, colour in wanted):
                continue  # its blueprints' colours are taken already
            space = spaces.pop(0)
            placed[space] = spire.id
            for suffix, colour in wanted:
                loaded[pool.take(colour)] = {"slot": f"{space}.{suffix}", "face": "miss"}
        if len(loaded) < misses:
            raise ValueError(f"{GROUP}/{card.id}: the allied spires hold too few misses for Damage {damage}")
        state["spires"] = placed
        zones["loaded"] = loaded
        names = ", ".join(f"{_card(c).side_name('item')} at {s}" for s, c in placed.items())
        absorbed = (
            (
                "1 loaded miss (kept from an earlier round) absorbs the first point"
                if misses == 1
                else f"{misses} loaded misses (kept from an earlier round) absorb the first {misses} points"
            )
            + " and the last defeats the spire at L-top"
            if misses
            else "its single point defeats the spire at L-top"
        )
        words.append(
            f"at Suffer Damage it deals {damage} damage to the top row's spires ({names}; the hero is "
            f"out of reach): {absorbed}"
        )
    pool_dice = []
    if any(e.kind is EffectKind.EXHAUST_POOL for e in enemy.activation):
        pool_dice = [pool.take() for _ in range(total(enemy.activation, EffectKind.EXHAUST_POOL))]
    after = total(enemy.after, EffectKind.DAMAGE_HERO)
    if after:
        words.append(f"at After Effects its after effect costs {after} Health")
    state["dice"] = dice(*pool_dice, **zones)
    sections = (
        "advance",
        *(("stacks",) if enemy.additional_enemies else ()),
        "suffer",
        *(("after",) if after else ()),
        "cards",
    )
    features = (
        "deploy",
        *(("activation",) if enemy.activation else ()),
        *(("stack",) if enemy.additional_enemies else ()),
        *(("hero-damage", "ranged") if ranged else ("miss-absorbs",)),
        *(("after-effect",) if after else ()),
        *(("boss",) if _bonus(faction) else ()),
    )
    return case(
        GROUP,
        f"{card.id.lower()}-enemy-deploy",
        "Seed 004, Advance Enemies Phase and Suffer Damage Step: "
        + "; ".join(words)
        + "."
        + _global_note(faction),
        sections,
        features,
        doc("round", **state),
        projection="hero" if ranged else "piles",
    )


def _enemy_defeat(card: Card) -> CaseSpec:
    enemy, faction = _enemy(card), card.faction
    hero_faction, side = _against(faction)
    hero = factions()[hero_faction].hero
    pool = _Dice()
    colour = hero.blueprint[0] if hero.blueprint and hero.blueprint[0] is not None else Colour.PURPLE
    crit = pool.take(colour)
    applied = {pool.like(colour): {"card": enemy.name, "face": "hit"} for _ in range(enemy.health - 1)}
    armored = has(enemy.ongoing, EffectKind.ARMORED)
    zones: dict[str, Any] = {"loaded": {crit: {"slot": "hero.bp1", "face": "crit"}}, "applied": applied}
    state: dict[str, Any] = {**side, "lanes": {"bottom": [enemy.name]}, "health": hero.health - 3}
    hit = "the crit deals only 1, as it is armored, enough" if armored else "the crit's 2 damage defeat it"
    words = []
    sections: list[str] = ["fire", "recover-rewards"]
    features: list[str] = ["hit", "reward"]
    decisions = [f"apply {crit} bottom"]
    projection = "hero"
    for effect in enemy.reward:
        if effect.kind is EffectKind.HEAL:
            words.append(f"its reward heals {hero.name} by {effect.amount} at once")
        elif effect.kind is EffectKind.RECOVER:
            zones["exhausted"] = [pool.take() for _ in range(effect.amount)]
            words.append(f"its reward recovers {effect.amount} exhausted die at once")
            features.append("recovery")
            projection = "dice"
        elif effect.kind is EffectKind.DRAW_KEEP:
            market = _market(side["allied"], effect.amount)
            state["market"] = market
            words.append(
                f"at Gain Item Rewards its draw/keep reward draws {effect.amount} Market cards "
                f"({', '.join(_item_words(_card(c)) for c in market)}) and keeps {effect.keep} (the first "
                "drawn); the rest go to the bottom of the Market Stack"
            )
            sections.append("draw-keep")
            projection = "piles"
        elif effect.kind is EffectKind.CLAIM:
            words.append(
                f"at Gain Item Rewards its claim reward gains its own item side, {_item_words(card)}, which "
                "may be activated at once"
            )
            sections.append("spires")
            projection = "piles"
    if enemy.after:
        words.append("its after effect counts only as ruling CS-AFTER-DEFEATED reads")
        sections.append("after")
    state["dice"] = dice(**zones)
    return case(
        GROUP,
        f"{card.id.lower()}-enemy-defeat",
        f"Seed 004, Spires Fire Phase; Recover Dice & Gain Item Rewards Steps: {enemy.name} ({card.id}: {_stats(enemy)}) "
        f"in the bottom lane has {enemy.health - 1} damage on it; {hero.name}'s loaded crit is applied: "
        f"{hit}; " + "; ".join(words) + ".",
        (*sections, "cards"),
        tuple(features),
        doc("fire", **state, decisions=decisions),
        projection=projection,
    )


# -- the item side ------------------------------------------------------------------------------------


def _item_fire(row: Row, card: Card) -> CaseSpec:
    item = card.item
    assert item is not None and item.spire
    side = _hero_side(card.faction)
    facing = _facing_of(card.faction)
    pool = _Dice()
    slots = _slots(card)
    if row.item == "ignore-blueprint":
        free = [s for s, _ in slots if s.startswith("free")]
        if not free:
            raise ValueError(f"{GROUP}/{card.id}: {item.name} ignores no blueprint")
        printed = {c for c in item.blueprints if c is not None}
        colour: Colour = next(c for c in Colour if c not in printed and c is not Colour.RED)
        suffix = free[0]
        how = f"a {colour.value} die (a colour it does not print) loaded ignoring its blueprint"
        features = ("place-spire", "load", "blueprint-kinds", "hit")
    else:
        if not item.blueprints:
            raise ValueError(f"{GROUP}/{card.id}: {item.name} prints no blueprint")
        suffix, wanted = slots[0]
        colour = wanted if wanted is not None else Colour.PURPLE
        kind = "wild " if wanted is None else ""
        how = f"a {colour.value} die loaded on its first printed {kind}blueprint"
        features = ("place-spire", "load", "hit", *(("blueprint-kinds",) if wanted is None else ()))
    die = pool.take(colour)
    space, lane = "R-bottom", "bottom"
    state: dict[str, Any] = {**side, "inventory": [card.id]}
    target = _conflict(facing)[0]
    worn = {
        pool.take(): {"card": _enemy(target).name, "face": "hit"} for _ in range(_enemy(target).health - 1)
    }
    state["lanes"] = {lane: [_enemy(target).name]}
    state["dice"] = dice(die, applied=worn)
    return case(
        GROUP,
        f"{card.id.lower()}-item",
        f"Seed 004, Place Spires and Apply Dice Steps, Spires Fire Phase: {_item_words(card)} "
        f"is placed from the inventory into {space}; {how} after rolling a hit; fired at "
        f"{_enemy(target).name} (1 Health left) in the {lane} lane beside it, it defeats it.",
        ("place", "apply", "fire", "spires"),
        features,
        doc(
            "strategy",
            **state,
            decisions=[
                f"place {card.id} {space}",
                f"commit {colour.value}",
                f"load {die} {space}.{suffix}",
                f"apply {die} {lane}",
            ],
            chance=["hit"],
        ),
        projection="spires",
    )


def _item_lattice(row: Row, card: Card) -> CaseSpec:
    item = card.item
    assert item is not None and item.spire
    if not has(item.effects, EffectKind.LATTICE):
        raise ValueError(f"{GROUP}/{card.id}: {item.name} has no lattice effect")
    side = _hero_side(card.faction)
    facing = _facing_of(card.faction)
    neighbour = next(c for c in _allied_spires(side["allied"], 1) if c.id != card.id and c.item != card.item)
    pool = _Dice()
    die = pool.take(Colour.YELLOW)
    target = _conflict(facing)[0]
    worn = {
        pool.take(): {"card": _enemy(target).name, "face": "hit"} for _ in range(_enemy(target).health - 1)
    }
    assert neighbour.item is not None
    return case(
        GROUP,
        f"{card.id.lower()}-item",
        f"Seed 004, Created Blueprints and Using Spires: {_item_words(card)} is placed into "
        f"R-middle beside {neighbour.item.name} at R-bottom, an adjacent spire, so it has a created wild "
        f"blueprint; a yellow hit loaded there is fired at {_enemy(target).name} (1 Health left) in the "
        "middle lane and defeats it.",
        ("apply", "spires", "place", "fire"),
        ("place-spire", "load", "blueprint-kinds", "hit"),
        doc(
            "strategy",
            **side,
            inventory=[card.id],
            spires={"R-bottom": neighbour.id},
            lanes={"middle": [_enemy(target).name]},
            dice=dice(die, applied=worn),
            decisions=[
                f"place {card.id} R-middle",
                "commit yellow",
                f"load {die} R-middle.lattice1",
                f"apply {die} middle",
            ],
            chance=["hit"],
        ),
        projection="spires",
    )


def _item_drilling(row: Row, card: Card) -> CaseSpec:
    item = card.item
    assert item is not None
    if not has(item.effects, EffectKind.DRILLING):
        raise ValueError(f"{GROUP}/{card.id}: {item.name} has no drilling effect")
    side = _hero_side(card.faction)
    facing = _facing_of(card.faction)
    active = next(
        c
        for c in _allied_spires(side["allied"], 1)
        if not has(c.item.effects if c.item else (), EffectKind.DRILLING)
    )
    filler = _plain_enemy(facing)
    assert active.item is not None
    return case(
        GROUP,
        f"{card.id.lower()}-item",
        f"Seed 004, Created Blueprints: {_item_words(card)} in the inventory at the start of "
        f"the round gives the active spire {active.item.name} (L-middle) a red blueprint for the round; "
        f"the red die, committed and rolled, loads on it and is exhausted at Cleanup ({_enemy(filler).name} "
        "deploys meanwhile).",
        ("apply", "spires", "round", "cleanup"),
        ("blueprint-kinds", "load", "deploy"),
        doc(
            "round",
            **side,
            inventory=[card.id],
            spires={"L-middle": active.id},
            deployment=[_enemy(filler).name],
            dice=dice("R1"),
            decisions=["done", "commit red", "load R1 L-middle.drill1", "done"],
            chance=["hit"],
        ),
        projection="dice",
    )


def _item_recovery(row: Row, card: Card) -> CaseSpec:
    item = card.item
    assert item is not None
    bonus = total(item.effects, EffectKind.RECOVERY_BONUS)
    if item.spire or not bonus:
        raise ValueError(f"{GROUP}/{card.id}: {item.name} is no item with a recovery bonus")
    side = _hero_side(card.faction)
    hero = factions()[card.faction].hero
    own = total(hero.ability, EffectKind.RECOVERY_BONUS)
    recovered = hero.recovery + own + bonus
    ability = f" and its ability's {own}" if own else ""
    return case(
        GROUP,
        f"{card.id.lower()}-item",
        f"Seed 004, Recover Dice Step: {_item_words(card)} in the inventory adds {bonus} to "
        f"{hero.name}'s Recovery {hero.recovery}{ability}: {recovered} of seven exhausted dice are recovered.",
        ("recover-rewards", "spires"),
        ("recovery",),
        doc("resolve", **side, inventory=[card.id], dice=dice(exhausted=RECOVERY_EXHAUSTED)),
        projection="dice",
    )


def _item_gain(row: Row, card: Card) -> CaseSpec:
    item = card.item
    assert item is not None
    gain = total(item.effects, EffectKind.HEALTH_ON_GAIN)
    if item.spire or not gain:
        raise ValueError(f"{GROUP}/{card.id}: {item.name} is no item gaining Health")
    side = _hero_side(card.faction)
    hero = factions()[card.faction].hero
    facing = _facing_of(card.faction)
    target = min(
        (c for c in _conflict(facing) if has(_enemy(c).reward, EffectKind.DRAW_KEEP)),
        key=lambda c: (bool(_enemy(c).after), _enemy(c).health),
    )
    enemy = _enemy(target)
    reward = next(e for e in enemy.reward if e.kind is EffectKind.DRAW_KEEP)
    other = next(c for c in _conflict(card.faction) if c.id != card.id)
    pool = _Dice()
    colour = hero.blueprint[0] if hero.blueprint and hero.blueprint[0] is not None else Colour.PURPLE
    crit = pool.take(colour)
    worn = {pool.like(colour): {"card": enemy.name, "face": "hit"} for _ in range(enemy.health - 1)}
    return case(
        GROUP,
        f"{card.id.lower()}-item",
        f'Seed 004, "Draw/Keep" Rewards: {hero.name}\'s loaded crit defeats {enemy.name} ({target.id}, 1 '
        f"Health left); its reward ({reward}) draws {_item_words(card)} from the top of the "
        f"Market Stack, and {_item_words(other)}; {item.name} is kept and goes to the inventory, and the hero gains "
        f"{gain} Health.",
        ("draw-keep", "recover-rewards", "spires"),
        ("reward", "hit"),
        doc(
            "fire",
            **side,
            lanes={"bottom": [enemy.name]},
            market=[card.id, other.id],
            health=hero.health - 3,
            dice=dice(loaded={crit: {"slot": "hero.bp1", "face": "crit"}}, applied=worn),
            decisions=[f"apply {crit} bottom", f"keep-card {card.id}"],
        ),
        projection="hero",
    )


# -- the builder --------------------------------------------------------------------------------------


def build(row: Row, check: str) -> CaseSpec:
    """The case of ``check`` for ``row``'s card."""
    card = _card(row.card)
    if card.kind is not CardKind.CONFLICT:
        raise ValueError(f"{GROUP}: {row.card} is not a conflict card")
    if check == "enemy-attack":
        return _enemy_attack(card)
    if check == "enemy-deploy":
        return _enemy_deploy(card)
    if check == "enemy-defeat":
        return _enemy_defeat(card)
    if check in ("spire-fire", "ignore-blueprint"):
        return _item_fire(row, card)
    if check == "lattice":
        return _item_lattice(row, card)
    if check == "drilling":
        return _item_drilling(row, card)
    if check == "recovery-bonus":
        return _item_recovery(row, card)
    if check == "health-on-gain":
        return _item_gain(row, card)
    raise ValueError(f"{GROUP}: unknown check {check!r} (known: {', '.join(ENEMY_CHECKS + ITEM_CHECKS)})")


def _checked_table() -> tuple[Row, ...]:
    wanted = [c.id for c in _data().cards if c.kind is CardKind.CONFLICT]
    listed = [row.card for row in TABLE]
    if sorted(wanted) != sorted(listed):
        missing = sorted(set(wanted) - set(listed))
        extra = sorted(set(listed) - set(wanted))
        raise ValueError(
            f"{GROUP}: the table does not match the data's conflict cards (missing {missing}, extra {extra})"
        )
    return TABLE


def conflict_enemy_cases() -> Iterator[CaseSpec]:
    """A producer: every row's enemy side, check by check."""
    for row in _checked_table():
        for check in row.enemy:
            yield build(row, check)


def conflict_item_cases() -> Iterator[CaseSpec]:
    """A producer: every row's item side."""
    for row in _checked_table():
        yield build(row, row.item)

"""Cloudspire's conflict-card spread (issue 18): both sides of every conflict card of the data.

A conflict card is an enemy on one side and an item or spire on the other (20 Strong: Cloudspire
Rulebook, Components and Card Faces). The rest of the suite plays a few of them again and again;
:func:`item_check` names the check that shows a card's item side (from its effects), and
:func:`conflict_enemies` and :func:`conflict_items` read each card's values from the data in force
into the rows of ``cases/cloudspire/conflict.toml``, whose patterns say what each check plays
(three on the enemy side, against the hero that faces the card's faction's boss by the factions'
pairings: an attack on the hero, a deployment, a defeat with its reward; one on the item side, with
the card's own faction's hero). A check the data does not fit is refused, naming the card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from invasion_oracle.model.cloudspire.cards import Card, CardKind, EffectKind, EnemySide, HeroSide, has, total
from invasion_oracle.model.cloudspire.data import default_data
from invasion_oracle.model.cloudspire.dice import Colour, colour_of
from invasion_oracle.reports.suite.cloudspire_factions import (
    DICE,
    crit_colour,
    dice,
    effect_words,
    factions,
    side,
    when,
)

GROUP = "conflict"

# -- the data ---------------------------------------------------------------------------------------


def _card(card_id: str) -> Card:
    return default_data().by_id(card_id)  # cached there, per data in force


def _enemy(card: Card) -> EnemySide:
    assert card.enemy is not None
    return card.enemy


def _conflict(faction: str) -> tuple[Card, ...]:
    return default_data().faction_cards(faction, CardKind.CONFLICT)


def _against(faction: str) -> tuple[HeroSide, dict[str, Any]]:
    """The hero facing ``faction``'s boss and the described state's hero, allies and boss: the
    side ``faction``'s enemies play against."""
    row = next(row for row in factions().values() if row.facing == faction)
    return row.hero, side(row)


def _traits(enemy: EnemySide) -> tuple[bool, int]:
    """Whether ``enemy`` is ranged, and the Health its after effect costs the hero."""
    return has(enemy.ongoing, EffectKind.RANGED), total(enemy.after, EffectKind.DAMAGE_HERO)


def _bonus(faction: str) -> int:
    """The boss's global effect on every enemy's Damage (in force from setup: ruling CS-BOSS-GLOBAL's
    default reading)."""
    return total(factions()[faction].boss.global_effects, EffectKind.ENEMY_DAMAGE)


# -- words -------------------------------------------------------------------------------------------


def _stats(side: EnemySide) -> str:
    """An enemy side's Health, Damage and effects, in words."""
    parts = [*effect_words(side.activation, "on activation "), *effect_words(side.ongoing)]
    parts += [*effect_words(side.after, "after "), *effect_words(side.reward, "reward ")]
    parts += when(side.additional_enemies, f"{side.additional_enemies} additional enemy icon")
    return "".join([f"Health {side.health}, Damage {side.damage}", *(f", {part}" for part in parts)])


def _item_words(card: Card) -> str:
    item = card.item
    assert item is not None
    printed = "blueprints " + ", ".join(c.value if c else "wild" for c in item.blueprints)
    parts = [*when(item.blueprints, printed), *(str(e) for e in item.effects)]
    kind = "spire" if item.spire else "item"
    return f"{item.name} ({card.id}, {kind}{': ' if parts else ''}{'; '.join(parts)})"


def _points(n: int) -> str:
    return "its 1 point lands" if n == 1 else f"all {n} points land"


def _global_note(faction: str) -> str:
    note = f" The boss {factions()[faction].boss.name}'s global effect adds {_bonus(faction)} to its Damage"
    return f"{note} (ruling CS-BOSS-GLOBAL)." if _bonus(faction) else ""


# -- dice ---------------------------------------------------------------------------------------------


class _Dice:
    """Hands out dice by colour, each once."""

    def __init__(self) -> None:
        self.left = list(DICE)

    def free(self, colour: Colour | None = None) -> bool:
        return any(colour is None or colour_of(d) is colour for d in self.left)

    def take(self, colour: Colour | None = None) -> str:
        die = next(d for d in self.left if colour is None or colour_of(d) is colour)
        self.left.remove(die)
        return die


def _slots(card: Card) -> list[tuple[str, Colour | None]]:
    """The printed and ignored-blueprint slots of a spire: (slot suffix, colour or None)."""
    item = card.item
    assert item is not None and item.spire
    out: list[tuple[str, Colour | None]] = [(f"bp{i + 1}", c) for i, c in enumerate(item.blueprints)]
    out += [(f"free{i + 1}", None) for i in range(total(item.effects, EffectKind.IGNORE_BLUEPRINT))]
    return out


def _allied_spires(allied: list[str]) -> list[Card]:
    """Allied spire cards with a slot of their own (not only created ones), in data order."""
    spires = [c for f in allied for c in _conflict(f) if c.is_spire and _slots(c)]
    return [c for c in spires if c.item is not None and not has(c.item.effects, EffectKind.LATTICE)]


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


def _enemy_attack(card: Card) -> dict[str, Any]:
    enemy, faction = _enemy(card), card.faction
    hero, sides = _against(faction)
    (ranged, after), boss = _traits(enemy), _bonus(faction)
    reach = "from the middle lane, as it is ranged (no spire in the middle row)"
    if not ranged:
        reach = "from the bottom lane (no spire beside it)"
    found = {"enemy": enemy.name, "stats": _stats(enemy), "hero_health": hero.health, "reach": reach}
    found |= {"lane": "middle" if ranged else "bottom", "points": _points(enemy.damage + boss)}
    found |= {"then": f"; at After Effects its after effect costs {after} more" if after else ""}
    sections = ["suffer", "cards", *when(after, "after"), *when(boss, "boss")]
    features = ["hero-damage", *when(ranged, "ranged"), *when(after, "after-effect"), *when(boss, "boss")]
    return sides | found | {"global_note": _global_note(faction), "sections": sections, "features": features}


def _enemy_deploy(card: Card) -> dict[str, Any]:
    enemy, faction = _enemy(card), card.faction
    hero, sides = _against(faction)
    (ranged, after), damage = _traits(enemy), enemy.damage + _bonus(faction)
    words = []  # what follows the deployment, in order
    state: dict[str, Any] = {**sides, "deployment": [enemy.name]}
    if enemy.additional_enemies:
        under = _enemy(_plain_enemy(faction, skip=(card.id,))).name
        state["deployment"].append(under)
        words.append(f"its additional enemy icon puts the next card, {under}, under it")
    for effect in enemy.activation:
        if effect.kind is EffectKind.DAMAGE_HERO:
            words.append(f"its activation effect costs {hero.name} {effect.amount} Health")
        elif effect.kind is EffectKind.EXHAUST_POOL:
            words.append(f"its activation effect exhausts {effect.amount} of the pool's dice")
    pool, zones = _Dice(), {}
    if ranged:
        points = _points(damage)
        words.append(f"at Suffer Damage, ranged, it reaches the hero from the top lane: {points} on it")
    else:
        state["spires"], zones["loaded"] = _spires_under_fire(card, sides["allied"], damage - 1, pool)
        names = ", ".join(f"{_card(c).side_name('item')} at {s}" for s, c in state["spires"].items())
        hits = f"at Suffer Damage it deals {damage} damage to the top row's spires ({names}; the hero is"
        words.append(f"{hits} out of reach): {_absorbed(damage - 1)}")
    exhausted = [pool.take() for _ in range(total(enemy.activation, EffectKind.EXHAUST_POOL))]
    if after:
        words.append(f"at After Effects its after effect costs {after} Health")
    state["dice"] = dice(*exhausted, **zones)
    stack = enemy.additional_enemies
    sections = ["advance", *when(stack, "stacks"), "suffer", *when(after, "after"), "cards"]
    features = ["deploy", *when(enemy.activation, "activation"), *when(stack, "stack")]
    features += [*(("hero-damage", "ranged") if ranged else ("miss-absorbs",)), *when(after, "after-effect")]
    features += when(_bonus(faction), "boss")
    found: dict[str, Any] = {"enemy": enemy.name, "stats": _stats(enemy), "state": state}
    found |= {"then": "".join(f"; {w}" for w in words), "global_note": _global_note(faction)}
    return found | {"projection": "hero" if ranged else "piles", "sections": sections, "features": features}


def _spires_under_fire(card: Card, allied: list[str], misses: int, pool: _Dice) -> tuple[dict[str, Any], ...]:
    """The top row's allied spires (L-top first) and the misses loaded on them (from an earlier
    round) that absorb all but the last point of an attack: ``(spires by space, loaded dice)``."""
    loaded: dict[str, Any] = {}
    placed: dict[str, str] = {}
    spaces = ["L-top", "R-top"]
    for spire in _allied_spires(allied):
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
        raise ValueError(f"{GROUP}/{card.id}: the allied spires hold too few misses for Damage {misses + 1}")
    return placed, loaded


def _absorbed(misses: int) -> str:
    """How the top row's spires take an attack of ``misses`` + 1 points."""
    if not misses:
        return "its single point defeats the spire at L-top"
    absorb = f"{misses} loaded misses (kept from an earlier round) absorb the first {misses} points"
    if misses == 1:
        absorb = "1 loaded miss (kept from an earlier round) absorbs the first point"
    return f"{absorb} and the last defeats the spire at L-top"


def _enemy_defeat(card: Card) -> dict[str, Any]:
    enemy, faction = _enemy(card), card.faction
    hero, sides = _against(faction)
    pool, crit, zones = _crit(hero, enemy)
    state: dict[str, Any] = {**sides, "lanes": {"bottom": [enemy.name]}, "health": hero.health - 3}
    hit = "the crit's 2 damage defeat it"
    if has(enemy.ongoing, EffectKind.ARMORED):
        hit = "the crit deals only 1, as it is armored, enough"
    words, sections, features, projection = [], ["fire", "recover-rewards"], ["hit", "reward"], "hero"
    for effect in enemy.reward:
        if effect.kind is EffectKind.HEAL:
            words.append(f"its reward heals {hero.name} by {effect.amount} at once")
        elif effect.kind is EffectKind.RECOVER:
            zones["exhausted"] = [pool.take() for _ in range(effect.amount)]
            words.append(f"its reward recovers {effect.amount} exhausted die at once")
            features.append("recovery")
            projection = "dice"
        elif effect.kind is EffectKind.DRAW_KEEP:
            state["market"] = _market(sides["allied"], effect.amount)
            drawn = ", ".join(_item_words(_card(c)) for c in state["market"])
            words.append(
                f"at Gain Item Rewards its draw/keep reward draws {effect.amount} Market cards ({drawn}) and "
                f"keeps {effect.keep} (the first drawn); the rest go to the bottom of the Market Stack"
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
    found = {"enemy": enemy.name, "stats": _stats(enemy), "worn": enemy.health - 1, "hero": hero.name}
    found |= {"hit": hit, "words": "; ".join(words), "crit": crit, "state": state, "projection": projection}
    return found | {"sections": [*sections, "cards"], "features": features}


# -- the item side ------------------------------------------------------------------------------------


def _worn(pool: _Dice, enemy: EnemySide, colour: Colour | None = None) -> dict[str, Any]:
    """Hits applied to ``enemy`` up to 1 Health left, from dice of ``colour`` while there are any:
    applied dice of one colour are recovered without a question."""
    hit = {"card": enemy.name, "face": "hit"}
    return {pool.take(colour if pool.free(colour) else None): hit for _ in range(enemy.health - 1)}


def _fired(card: Card, colour: Colour) -> dict[str, Any]:
    """A rolled hit of ``colour`` fired at the first enemy of the facing faction, worn down to 1 Health."""
    pool = _Dice()
    die = pool.take(colour)
    target = _enemy(_conflict(factions()[card.faction].facing)[0])
    return {"die": die, "target": target.name, "dice": dice(die, applied=_worn(pool, target))}


def _crit(hero: HeroSide, enemy: EnemySide) -> tuple[_Dice, str, dict[str, Any]]:
    """A crit loaded on the hero's first blueprint, ``enemy`` worn down to 1 Health: dice, crit, zones."""
    pool, colour = _Dice(), crit_colour(hero)
    crit = pool.take(colour)
    loaded = {crit: {"slot": "hero.bp1", "face": "crit"}}
    return pool, crit, {"loaded": loaded, "applied": _worn(pool, enemy, colour)}


def _item_fire(card: Card) -> dict[str, Any]:
    item = card.item
    assert item is not None and item.spire
    slots = _slots(card)
    if has(item.effects, EffectKind.IGNORE_BLUEPRINT):
        printed = {c for c in item.blueprints if c is not None}
        colour: Colour = next(c for c in Colour if c not in printed and c is not Colour.RED)
        suffix = next(s for s, _ in slots if s.startswith("free"))
        how = f"a {colour.value} die (a colour it does not print) loaded ignoring its blueprint"
        features = ["place-spire", "load", "blueprint-kinds", "hit"]
    else:
        suffix, wanted = slots[0]
        colour = wanted if wanted is not None else Colour.PURPLE
        how = f"a {colour.value} die loaded on its first printed {'wild ' if wanted is None else ''}blueprint"
        features = ["place-spire", "load", "hit", *(["blueprint-kinds"] if wanted is None else [])]
    return {"how": how, "features": features, "slot": suffix, "colour": colour.value} | _fired(card, colour)


def _item_lattice(card: Card) -> dict[str, Any]:
    allied = side(factions()[card.faction])["allied"]
    neighbour = next(c for c in _allied_spires(allied) if c.id != card.id and c.item != card.item)
    assert neighbour.item is not None
    return {"neighbour": neighbour.item.name, "neighbour_card": neighbour.id} | _fired(card, Colour.YELLOW)


def _item_drilling(card: Card) -> dict[str, Any]:
    spires, facing = _allied_spires(side(factions()[card.faction])["allied"]), factions()[card.faction].facing
    active = next(c for c in spires if c.item and not has(c.item.effects, EffectKind.DRILLING))
    assert active.item is not None
    filler = _enemy(_plain_enemy(facing)).name
    return {"active": active.item.name, "active_card": active.id, "filler": filler}


def _item_recovery(card: Card) -> dict[str, Any]:
    item = card.item
    assert item is not None
    bonus = total(item.effects, EffectKind.RECOVERY_BONUS)
    hero = factions()[card.faction].hero
    own = total(hero.ability, EffectKind.RECOVERY_BONUS)
    found = {"bonus": bonus, "recovery": hero.recovery, "recovered": hero.recovery + own + bonus}
    return found | {"ability": f" and its ability's {own}" if own else ""}


def _item_gain(card: Card) -> dict[str, Any]:
    item = card.item
    assert item is not None
    gain = total(item.effects, EffectKind.HEALTH_ON_GAIN)
    hero = factions()[card.faction].hero
    facing = factions()[card.faction].facing
    drawing = [c for c in _conflict(facing) if has(_enemy(c).reward, EffectKind.DRAW_KEEP)]
    target = min(drawing, key=lambda c: (bool(_enemy(c).after), _enemy(c).health))
    enemy = _enemy(target)
    reward = next(e for e in enemy.reward if e.kind is EffectKind.DRAW_KEEP)
    other = next(c for c in _conflict(card.faction) if c.id != card.id)
    _, crit, zones = _crit(hero, enemy)
    found: dict[str, Any] = {"enemy": enemy.name, "enemy_card": target.id, "reward": str(reward)}
    found |= {"other": other.id, "other_item": _item_words(other), "gain": gain, "crit": crit}
    return found | {"name": item.name, "health": hero.health - 3, "dice": dice(**zones)}


# -- the rows -----------------------------------------------------------------------------------------

ENEMY_SIDE = {"enemy-attack": _enemy_attack, "enemy-deploy": _enemy_deploy, "enemy-defeat": _enemy_defeat}
ITEM_CHECKS = (  # the first effect of these an item has names its check; a spire without one fires
    (EffectKind.IGNORE_BLUEPRINT, "spire-fire", True, _item_fire),  # from a die ignoring a blueprint
    (EffectKind.LATTICE, "lattice", True, _item_lattice),
    (EffectKind.DRILLING, "drilling", True, _item_drilling),
    (EffectKind.RECOVERY_BONUS, "recovery-bonus", False, _item_recovery),
    (EffectKind.HEALTH_ON_GAIN, "health-on-gain", False, _item_gain),
    (None, "spire-fire", True, _item_fire),
)


def item_check(card: Card) -> tuple[str, Callable[[Card], dict[str, Any]]]:
    """The check that shows ``card``'s item side (the pattern of its case) and its row's builder:
    the first of :data:`ITEM_CHECKS` whose effect it has (a spire or an item as the check needs),
    else ``spire-fire`` for a spire that prints a blueprint; an item none fits is refused, naming
    the card."""
    item = card.item
    assert item is not None
    for kind, check, spire, found in ITEM_CHECKS:
        if kind is None or has(item.effects, kind):
            if spire is not item.spire or (kind is None and not item.blueprints):
                break
            return check, found
    raise ValueError(f"{GROUP}/{card.id}: no check shows the {'spire' if item.spire else 'item'} {item.name}")


def conflict_enemies() -> Iterator[dict[str, Any]]:
    """The enemy-side rows of ``cases/cloudspire/conflict.toml``: every conflict card of the data
    in force (by id), check by check."""
    for card in _conflict_cards():
        for check, found in ENEMY_SIDE.items():
            yield {"pattern": check, "id": card.id.lower(), "card": card.id} | found(card)


def conflict_items() -> Iterator[dict[str, Any]]:
    """The item-side rows of ``cases/cloudspire/conflict.toml``: every conflict card's item side."""
    for card in _conflict_cards():
        row = side(factions()[card.faction]) | {"id": card.id.lower(), "card": card.id}
        check, found = item_check(card)
        yield row | {"pattern": check, "item": _item_words(card)} | found(card)


def _conflict_cards() -> list[Card]:
    return sorted((c for c in default_data().cards if c.kind is CardKind.CONFLICT), key=lambda c: c.id)

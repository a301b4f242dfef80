"""Cards as values: the two sides of every card, and the effects printed on them.

Seed 004, Components and Card Faces: 45 conflict cards (an enemy side and an item or spire side),
9 hero/boss cards and 9 mini-hero/mini-boss cards, one of each per faction. The printed cards are
not in the seed, so the bundled set (``data/cloudspire.json``) is an example marked ``assumed``;
only the named cards (Water Tower, Refractor, Monolant, Drilling Outpost, Aegis/Lance Launcher)
behave as the seed says.

Card text is modelled as a small vocabulary of :class:`Effect` values that parse and print
themselves (``"damage-hero 2"``, ``"draw-keep 3 1"``, ``"ranged"``). Where each kind may appear
is :data:`ALLOWED`.

>>> Effect.parse("draw-keep 3 1")
Effect(kind=<EffectKind.DRAW_KEEP: 'draw-keep'>, amount=3, keep=1)
>>> str(Effect.parse("damage-hero 1"))
'damage-hero 1'
>>> Effect.parse("heal")
Traceback (most recent call last):
...
ValueError: effect heal needs a number, e.g. 'heal 1'
>>> str(Effect.parse("ranged"))
'ranged'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from invasion_oracle.model.cloudspire.dice import Colour
from invasion_oracle.model.core.provenance import Provenance

MAX_AMOUNT = 99  # assumed bound on an effect's number: the rulebook's cards stay in single figures
MAX_ROLLS = 50  # extra rolls, as the scenario's rolls_used (scenario.schema.json)


class EffectKind(enum.StrEnum):
    DAMAGE_HERO = "damage-hero"  # activation / after: the hero loses `amount` Health
    EXHAUST_POOL = "exhaust-pool"  # activation: the player exhausts `amount` dice from the pool
    RANGED = "ranged"  # ongoing: the enemy may also target the hero from any lane
    ARMORED = "armored"  # ongoing: a crit applied to this enemy deals only 1 damage
    HEAL = "heal"  # reward, on defeat: the hero gains `amount` Health
    RECOVER = "recover"  # reward, on defeat: `amount` exhausted dice return to the pool
    DRAW_KEEP = "draw-keep"  # item reward: draw `amount` Market cards, keep `keep`
    CLAIM = "claim"  # item reward: gain this card's own item side
    ENEMY_DAMAGE = "enemy-damage"  # boss global effect: every active enemy deals `amount` more
    IGNORE_BLUEPRINT = "ignore-blueprint"  # spire: `amount` more dice of any colour, blueprint ignored
    DRILLING = "drilling"  # Drilling Outpost: from the inventory, a red blueprint for the round
    LATTICE = "lattice"  # spire: a created wild blueprint for each adjacent spire
    RECOVERY_BONUS = "recovery-bonus"  # passive: recover `amount` more dice
    EXTRA_ROLL = "extra-roll"  # passive: `amount` more rolls in each Engagement
    HEALTH_ON_GAIN = "health-on-gain"  # item: the hero gains `amount` Health when it is gained
    ADDS_ENEMIES = "adds-enemies"  # universal hero: adds `amount` enemies at each Engagement


# Which effect kinds a card field may carry.
ALLOWED: dict[str, frozenset[EffectKind]] = {
    "activation": frozenset({EffectKind.DAMAGE_HERO, EffectKind.EXHAUST_POOL}),
    "ongoing": frozenset({EffectKind.RANGED, EffectKind.ARMORED}),
    "after": frozenset({EffectKind.DAMAGE_HERO}),
    "reward": frozenset({EffectKind.HEAL, EffectKind.RECOVER, EffectKind.DRAW_KEEP, EffectKind.CLAIM}),
    "global": frozenset({EffectKind.ENEMY_DAMAGE}),
    "item": frozenset(
        {
            EffectKind.IGNORE_BLUEPRINT,
            EffectKind.DRILLING,
            EffectKind.LATTICE,
            EffectKind.RECOVERY_BONUS,
            EffectKind.HEALTH_ON_GAIN,
        }
    ),
    "ability": frozenset({EffectKind.RECOVERY_BONUS, EffectKind.EXTRA_ROLL, EffectKind.ADDS_ENEMIES}),
}
_NO_AMOUNT = frozenset(
    {EffectKind.RANGED, EffectKind.ARMORED, EffectKind.CLAIM, EffectKind.DRILLING, EffectKind.LATTICE}
)


@dataclass(frozen=True, slots=True)
class Effect:
    """One piece of card text: a kind and its numbers."""

    kind: EffectKind
    amount: int = 1
    keep: int = 0

    @staticmethod
    def parse(text: str) -> Effect:
        words = text.split()
        if not words:
            raise ValueError("an effect needs a kind, such as 'damage-hero 1'")
        try:
            kind = EffectKind(words[0])
        except ValueError:
            known = ", ".join(k.value for k in EffectKind)
            raise ValueError(f"unknown effect {words[0]!r}; known: {known}") from None
        numbers = []
        for word in words[1:]:
            if not word.isdigit():
                raise ValueError(f"effect {text!r}: {word!r} is not a whole number")
            numbers.append(int(word))
        if kind in _NO_AMOUNT and numbers:
            raise ValueError(f"effect {kind.value} takes no number")
        if kind is EffectKind.DRAW_KEEP:
            if len(numbers) != 2:
                raise ValueError(
                    "draw-keep takes two numbers: cards drawn and cards kept, e.g. 'draw-keep 3 1'"
                )
            if not 1 <= numbers[1] <= numbers[0]:
                raise ValueError(f"draw-keep {numbers[0]} {numbers[1]}: keep between 1 and the cards drawn")
            return Effect(kind, numbers[0], numbers[1])
        if len(numbers) > 1:
            raise ValueError(f"effect {kind.value} takes one number")
        if kind not in _NO_AMOUNT and not numbers:  # the card's number is printed, never implied
            raise ValueError(f"effect {kind.value} needs a number, e.g. '{kind.value} 1'")
        amount = numbers[0] if numbers else 0
        if kind not in _NO_AMOUNT and amount < 1:
            raise ValueError(f"effect {kind.value} needs a number of at least 1")
        most = MAX_ROLLS if kind is EffectKind.EXTRA_ROLL else MAX_AMOUNT
        if amount > most:  # far beyond any card; a search over it would never end (or recurse too deep)
            raise ValueError(f"effect {kind.value} {amount}: at most {most}")
        return Effect(kind, amount)

    def __str__(self) -> str:
        if self.kind in _NO_AMOUNT:
            return self.kind.value
        if self.kind is EffectKind.DRAW_KEEP:
            return f"{self.kind.value} {self.amount} {self.keep}"
        return f"{self.kind.value} {self.amount}"


def total(effects: tuple[Effect, ...], kind: EffectKind) -> int:
    """The summed amount of every effect of ``kind``.

    >>> total((Effect.parse("recovery-bonus 1"), Effect.parse("recovery-bonus 2")), EffectKind.RECOVERY_BONUS)
    3
    """
    return sum(e.amount for e in effects if e.kind is kind)


def has(effects: tuple[Effect, ...], kind: EffectKind) -> bool:
    return any(e.kind is kind for e in effects)


class CardKind(enum.StrEnum):
    CONFLICT = "conflict"  # enemy side / item or spire side
    HERO = "hero"  # hero side / boss side
    MINI = "mini"  # mini-hero side / mini-boss side


@dataclass(frozen=True, slots=True)
class EnemySide:
    """An opposing side: a conflict card's enemy, a boss or a mini-boss."""

    name: str
    health: int
    damage: int
    additional_enemies: int = 0  # additional enemy icons (seed 004, Additional Enemy Icons)
    activation: tuple[Effect, ...] = ()
    ongoing: tuple[Effect, ...] = ()
    after: tuple[Effect, ...] = ()
    reward: tuple[Effect, ...] = ()
    boss: bool = False  # a boss or a mini-boss (seed 004, Mini-Bosses: both count as bosses)
    global_effects: tuple[Effect, ...] = ()  # a boss's global effect


@dataclass(frozen=True, slots=True)
class ItemSide:
    """An allied side: an item or spire, or a mini-hero (``effects`` is its ability)."""

    name: str
    spire: bool
    blueprints: tuple[Colour | None, ...] = ()  # None is a wild blueprint
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class HeroSide:
    """Seed 004, Hero / Boss Cards, Hero Side."""

    name: str
    starting_spire: str
    health: int
    strategy: int
    recovery: int
    ability: tuple[Effect, ...] = ()
    blueprint: tuple[Colour | None, ...] = ()
    universal: bool = False  # a universal hero from another deck (seed 004, Universal Heroes)


@dataclass(frozen=True, slots=True)
class Card:
    """A physical card with its sides. ``id`` is ``Faction-1`` .. ``-5``, ``Faction-H``, ``Faction-M``."""

    id: str
    kind: CardKind
    faction: str
    enemy: EnemySide | None  # enemy / boss / mini-boss side
    item: ItemSide | None  # item or spire / mini-hero side
    hero: HeroSide | None
    provenance: Provenance
    source: str

    def side_name(self, side: str) -> str:
        """The name printed on ``side`` (``enemy`` or ``item``; heroes' ``hero``)."""
        if side == "enemy" and self.enemy is not None:
            return self.enemy.name
        if side == "item" and self.item is not None:
            return self.item.name
        if side == "hero" and self.hero is not None:
            return self.hero.name
        raise KeyError(f"{self.id} has no {side} side")

    @property
    def is_spire(self) -> bool:
        return self.item is not None and self.item.spire

"""Conflict: a pluggable rule (the base game's procedure is not in the sources).

What the seed does say is applied by the game around the rule (seed 003, Summoning a Warlord;
Warlord Powers: War; The Vul'Keth Tribe: Pillage): Warlords take no part and are never removed;
a hex cleared of Invaders costs the Invaders a resource; a Vul'Keth player who clears a hex of
opponents may take a resource, even if they escaped through a power such as Evasion.

A rule maps the tribes in a hex, ``(tribe, members)``, to the members each has left. The
built-in rules are the readings of ruling ``VK-CONFLICT``; Python users can pass any object with
a ``survivors`` method to :class:`invasion_oracle.model.vulketh.game.Rules`.

>>> SmallestLoses().survivors((("player", 3), ("invaders", 2)))
(('player', 1), ('invaders', 0))
>>> UntilOneRemains().survivors((("player", 4), ("invaders", 3), ("Kiror", 2)))
(('player', 1), ('invaders', 0), ('Kiror', 0))
>>> OneEach().survivors((("player", 4), ("invaders", 3)))
(('player', 3), ('invaders', 2))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

Tribes = tuple[tuple[str, int], ...]


class ConflictRule(Protocol):
    @property
    def name(self) -> str: ...

    def survivors(self, tribes: Tribes) -> Tribes:
        """The members each tribe has left, in the same order."""
        ...


@dataclass(frozen=True, slots=True)
class SmallestLoses:
    """Every tribe loses as many members as the smallest tribe has (ties wipe out all of them)."""

    name: str = "smallest-loses"

    def survivors(self, tribes: Tribes) -> Tribes:
        present = [n for _, n in tribes if n > 0]
        loss = min(present) if len(present) > 1 else 0
        return tuple((t, max(0, n - loss)) for t, n in tribes)


@dataclass(frozen=True, slots=True)
class UntilOneRemains:
    """Smallest-loses, repeated until at most one tribe is left."""

    name: str = "until-one-remains"

    def survivors(self, tribes: Tribes) -> Tribes:
        while sum(1 for _, n in tribes if n > 0) > 1:
            tribes = SmallestLoses().survivors(tribes)
        return tribes


@dataclass(frozen=True, slots=True)
class OneEach:
    """Every tribe in the hex loses one member."""

    name: str = "one-each"

    def survivors(self, tribes: Tribes) -> Tribes:
        if sum(1 for _, n in tribes if n > 0) < 2:
            return tribes
        return tuple((t, max(0, n - 1)) for t, n in tribes)


BUILT_IN: dict[str, ConflictRule] = {
    rule.name: rule for rule in (SmallestLoses(), UntilOneRemains(), OneEach())
}

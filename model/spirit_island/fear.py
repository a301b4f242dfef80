"""Fear and Terror (seed 002, Invader Phase 2 Fear; research notes §2.3).

Every Fear generated moves one marker out of the Fear pool (4 per player by default). When the
pool is empty the players earn the top Fear card face down and the pool refills; leftover Fear
carries on, so one burst can earn several cards. The Terror Level is fixed by how many cards
have been earned: with the default 3/3/3 deck it is II from the 3rd card and III from the 6th;
earning the last card is a victory.

Earned cards are resolved at the next Invader Phase's Fear step, one at a time in the order
they were earned, each with the effect of the *current* Terror Level; cards earned while
resolving join the end of the queue and resolve in the same step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from model.core.provenance import Provenance
from model.spirit_island.effects import Effect

DRAW = "draw"  # an unknown Fear deck entry: a chance draw when earned


@dataclass(frozen=True, slots=True)
class FearCard:
    name: str
    levels: tuple[tuple[Effect, ...], tuple[Effect, ...], tuple[Effect, ...]]
    provenance: Provenance = Provenance.ASSUMED
    source: str = ""

    def effects_at(self, terror_level: int) -> tuple[Effect, ...]:
        return self.levels[min(terror_level, 3) - 1]


@dataclass(frozen=True, slots=True)
class FearTrack:
    """The Fear pool, the Fear deck (top first: names or ``draw``) and the earned cards."""

    pool_size: int
    in_pool: int  # markers still in the pool before the next card is earned
    deck: tuple[str, ...]
    per_level: tuple[int, ...]  # cards per Terror Level, e.g. (3, 3, 3)
    earned_total: int = 0  # cards earned in the whole game (resolved or not)
    earned: tuple[str, ...] = ()  # earned and not yet resolved, in the order earned
    discard: tuple[str, ...] = ()
    generated: int = 0  # Fear generated during this run
    candidates: tuple[str, ...] = ()  # the cards an unknown ("draw") entry can turn out to be

    @property
    def deck_size(self) -> int:
        return sum(self.per_level)

    @property
    def terror_level(self) -> int:
        """1, 2 or 3; 4 means every card is earned (Terror Level 'Victory').

        >>> FearTrack(8, 8, (), (3, 3, 3), earned_total=3).terror_level
        2
        """
        passed = 0
        for level, size in enumerate(self.per_level, 1):
            passed += size
            if self.earned_total < passed:
                return level
        return len(self.per_level) + 1

    @property
    def all_earned(self) -> bool:
        return self.earned_total >= self.deck_size

    def take_marker(self) -> tuple[FearTrack, bool]:
        """One Fear: a marker leaves the pool. ``True`` when the pool just emptied (a card is due)."""
        left = self.in_pool - 1
        if left > 0:
            return replace(self, in_pool=left, generated=self.generated + 1), False
        return replace(self, in_pool=self.pool_size, generated=self.generated + 1), True

    def earn(self, name: str) -> FearTrack:
        """Earn the top card, which turned out to be ``name``."""
        return replace(
            self, deck=self.deck[1:], earned=(*self.earned, name), earned_total=self.earned_total + 1
        )

    def resolve_next(self) -> tuple[FearTrack, str]:
        name = self.earned[0]
        return replace(self, earned=self.earned[1:], discard=(*self.discard, name)), name


def draw_options(track: FearTrack) -> tuple[str, ...]:
    """The cards an unknown top Fear card can be: the candidates not yet seen, each once."""
    seen = set(track.deck) | set(track.earned) | set(track.discard)
    return tuple(name for name in track.candidates if name not in seen)

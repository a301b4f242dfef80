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

from dataclasses import dataclass
from functools import cache

from invasion_oracle.model.core.frozen import direct_constructor, quick_init
from invasion_oracle.model.core.provenance import Provenance
from invasion_oracle.model.spirit_island.effects import Effect

DRAW = "draw"  # an unknown Fear deck entry: a chance draw when earned


@dataclass(frozen=True, slots=True)
class FearCard:
    name: str
    levels: tuple[tuple[Effect, ...], tuple[Effect, ...], tuple[Effect, ...]]
    provenance: Provenance = Provenance.ASSUMED
    source: str = ""

    def effects_at(self, terror_level: int) -> tuple[Effect, ...]:
        return self.levels[min(terror_level, 3) - 1]


@quick_init
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
        return _terror_level(self.per_level, self.earned_total)

    @property
    def all_earned(self) -> bool:
        return self.earned_total >= self.deck_size

    def _with(self, in_pool: int, generated: int) -> FearTrack:
        return _fear_track(
            self.pool_size,
            in_pool,
            self.deck,
            self.per_level,
            self.earned_total,
            self.earned,
            self.discard,
            generated,
            self.candidates,
        )

    def take_markers(self, amount: int) -> tuple[FearTrack, int, bool]:
        """Fear: markers leave the pool, one per Fear, up to ``amount``. Stops at the marker that
        empties the pool when a card is left to earn (the pool refills; the card is due). Returns
        the track, the markers taken and whether a card is due. With no card left to earn, the
        markers just cycle.

        >>> track, taken, due = FearTrack(4, 3, ("x",), (3, 3, 3)).take_markers(5)
        >>> track.in_pool, taken, due
        (4, 3, True)
        """
        if amount < self.in_pool:
            return self._with(self.in_pool - amount, self.generated + amount), amount, False
        if self.deck:
            return self._with(self.pool_size, self.generated + self.in_pool), self.in_pool, True
        cycled = (amount - self.in_pool) % self.pool_size
        return self._with(self.pool_size - cycled, self.generated + amount), amount, False

    def earn(self, name: str) -> FearTrack:
        """Earn the top card, which turned out to be ``name``."""
        return _fear_track(
            self.pool_size,
            self.in_pool,
            self.deck[1:],
            self.per_level,
            self.earned_total + 1,
            (*self.earned, name),
            self.discard,
            self.generated,
            self.candidates,
        )

    def resolve_next(self) -> tuple[FearTrack, str]:
        name = self.earned[0]
        track = _fear_track(
            self.pool_size,
            self.in_pool,
            self.deck,
            self.per_level,
            self.earned_total,
            self.earned[1:],
            (*self.discard, name),
            self.generated,
            self.candidates,
        )
        return track, name


_fear_track = direct_constructor(FearTrack)  # every field given: no __init__ (issue 38)


@cache
def _terror_level(per_level: tuple[int, ...], earned_total: int) -> int:
    passed = 0
    for level, size in enumerate(per_level, 1):
        passed += size
        if earned_total < passed:
            return level
    return len(per_level) + 1


def draw_options(track: FearTrack) -> tuple[str, ...]:
    """The cards an unknown top Fear card can be: the candidates not yet seen, each once."""
    seen = set(track.deck) | set(track.earned) | set(track.discard)
    return tuple(name for name in track.candidates if name not in seen)

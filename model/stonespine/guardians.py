"""Guardian boards as data (seed 000, "Guardian Board" and "Leveling Up Guardians").

A board has two ability tracks. Both level markers start on the bottom space; each level-up
moves one marker up one space, and the space reached may unlock a minion, trigger the instant
ability (``instant*2``: twice) or activate an unlockable ability (``unlock:A``). Ongoing
abilities are active from the start. The scoring bonus pays ``low`` with one marker on top and
``high`` with both.

Abilities are data, written in the vocabulary of :mod:`invasion_oracle.model.stonespine.abilities`. The seed's
abilities, by id: ``troll-moves`` (Giant Troll, ongoing), ``blow-off-steam`` (instant),
``dangerous-debris`` (unlockable), ``pact-damage`` (Pact Demon, ongoing), ``forge-pact``
(instant), ``hungry-hatchlings`` (dragon, unlockable); the hydras' ``collapsing-passages`` and
``gain-collapsing-passage`` are assumed. Abilities the seed does not give are ``unknown``: the
oracle refuses a run at the moment one would act.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.frozen import by_identity, hash_by_identity
from invasion_oracle.model.core.provenance import Provenance
from invasion_oracle.model.stonespine.abilities import Ability, Do, Effect, Slot
from invasion_oracle.model.stonespine.elements import TypeChange

# The seed's abilities and the hydras' assumed ones (kept for older data files that name them).
IMPLEMENTED_ABILITIES = frozenset(
    {
        "troll-moves",
        "blow-off-steam",
        "dangerous-debris",
        "pact-damage",
        "forge-pact",
        "hungry-hatchlings",
        "collapsing-passages",
        "gain-collapsing-passage",
    }
)


class SpaceKind(enum.StrEnum):
    START = "start"
    EMPTY = "empty"
    MINION = "minion"
    INSTANT = "instant"
    UNLOCK = "unlock"


@dataclass(frozen=True, slots=True)
class TrackSpace:
    """One space of an ability track: ``start``, ``empty``, ``minion``, ``instant*N``, ``unlock:A``."""

    kind: SpaceKind
    times: int = 1
    letter: str = ""

    @staticmethod
    def parse(text: str) -> TrackSpace:
        """One space from its text.

        >>> TrackSpace.parse("instant*2")
        TrackSpace(kind=<SpaceKind.INSTANT: 'instant'>, times=2, letter='')
        """
        word, _, arg = text.replace("*", ":").partition(":")
        try:
            kind = SpaceKind(word)
        except ValueError:
            raise ValueError(
                f"track spaces are start, empty, minion, instant, instant*N, unlock:LETTER; got {text!r}"
            ) from None
        if kind is SpaceKind.INSTANT:
            if arg and not (arg.isdigit() and 1 <= int(arg) <= 9):
                raise ValueError(f"instant*N needs N from 1 to 9; got {text!r}")
            times = int(arg) if arg else 1
            return TrackSpace(kind, times=times)
        if kind is SpaceKind.UNLOCK:
            if not arg:
                raise ValueError(f"an unlock space names its ability letter, like unlock:A; got {text!r}")
            return TrackSpace(kind, letter=arg)
        if arg:
            raise ValueError(f"{word} spaces take no argument; got {text!r}")
        return TrackSpace(kind)

    def __str__(self) -> str:
        if self.kind is SpaceKind.INSTANT:
            return "instant" + (f"*{self.times}" if self.times > 1 else "")
        if self.kind is SpaceKind.UNLOCK:
            return f"unlock:{self.letter}"
        return self.kind.value


@hash_by_identity  # hashed with every state that holds it (a search's memo): once
@dataclass(frozen=True, slots=True)
class GuardianBoard:
    """One side of a guardian board.

    ``ongoing``, ``instant`` and ``unlockables`` name the abilities by id; ``abilities`` holds
    their definitions (in board order: ongoing, instant, unlockables by letter). ``origin`` is
    the data file and JSON path the board came from, for errors about its abilities.
    """

    name: str
    family: str
    figures: int
    minions: int
    tracks: tuple[tuple[TrackSpace, ...], tuple[TrackSpace, ...]]
    ongoing: frozenset[str]
    instant: str | None
    unlockables: tuple[tuple[str, str], ...]  # (letter, ability id)
    bonus: tuple[int, int]
    passage_tokens: int = 0
    provenance: tuple[tuple[str, Provenance], ...] = ()
    source: str = ""
    abilities: tuple[Ability, ...] = ()
    origin: tuple[str, str] = ("data", "$")

    def top(self, track: int) -> int:
        return len(self.tracks[track]) - 1

    def unlockable(self, letter: str) -> str | None:
        return dict(self.unlockables).get(letter)

    def ability(self, ability_id: str) -> Ability:
        for ability in self.abilities:
            if ability.id == ability_id:
                return ability
        return Ability(ability_id, unknown=True)

    def slot_of(self, ability_id: str) -> tuple[Slot, str]:
        """The slot holding ``ability_id`` and its JSON path inside the board's data."""
        for letter, aid in self.unlockables:
            if aid == ability_id:
                return Slot.UNLOCKABLE, f"unlockables.{letter}"
        if self.instant == ability_id:
            return Slot.INSTANT, "instant"
        ongoing = [a.id for a in self.abilities if a.id in self.ongoing]
        return Slot.ONGOING, f"ongoing[{ongoing.index(ability_id) if ability_id in ongoing else 0}]"

    def not_modelled(self, ability_id: str) -> MalformedInputError:
        """The error for an ability of this board that is about to act but is not known."""
        slot, where = self.slot_of(ability_id)
        source, path = self.origin
        return MalformedInputError(
            source,
            f"{path}.{where}",
            f"ability {ability_id!r} ({slot.value}) of board {self.name} is not modelled; give it in a data file",
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "family": self.family,
            "figures": self.figures,
            "minions": self.minions,
            "passage_tokens": self.passage_tokens,
            "tracks": [[str(s) for s in t] for t in self.tracks],
            "ongoing": sorted(self.ongoing),
            "instant": self.instant,
            "unlockables": dict(self.unlockables),
            "bonus": list(self.bonus),
            "abilities": [a.to_json() for a in self.abilities],
            "provenance": {k: v.value for k, v in self.provenance},
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class GuardianState:
    """A player's guardian as the game goes on: markers, unlocked minions and abilities."""

    board: GuardianBoard
    markers: tuple[int, int] = (0, 0)
    minions_unlocked: int = 0
    unlocked: frozenset[str] = frozenset()  # unlockable ability ids now active
    passage_tokens: int = 0  # collapsing passages gained (hydra)

    def has(self, ability: str) -> bool:
        return ability in self.board.ongoing or ability in self.unlocked

    @property
    def active(self) -> tuple[Ability, ...]:
        """The abilities acting now: ongoing ones and unlocked ones, in board order."""
        return _active(self.board, self.unlocked)

    def effects(self, do: Do) -> tuple[tuple[Ability, Effect], ...]:
        """Every active effect of one kind, with the ability it belongs to."""
        return tuple((a, e) for a in self.active for e in a.effects if e.do is do)

    @property
    def type_changes(self) -> tuple[TypeChange, ...]:
        """Element types changed by active abilities (DANGEROUS DEBRIS: rubble is a trap)."""
        return _type_changes(self.board, self.unlocked)

    def can_advance(self, track: int) -> bool:
        return self.markers[track] < self.board.top(track)

    @property
    def markers_on_top(self) -> int:
        return sum(1 for t in (0, 1) if self.markers[t] == self.board.top(t))

    def bonus(self) -> int:
        """Final-scoring guardian bonus (seed 000, "Final Scoring")."""
        on_top = self.markers_on_top
        return 0 if on_top == 0 else self.board.bonus[0] if on_top == 1 else self.board.bonus[1]

    def to_json(self) -> dict[str, Any]:
        return {
            "board": self.board.name,
            "markers": list(self.markers),
            "minions_unlocked": self.minions_unlocked,
            "unlocked": sorted(self.unlocked),
            "passage_tokens": self.passage_tokens,
        }


@by_identity  # the same board and unlocked set, step after step: no deep hash (issue 38)
@lru_cache(maxsize=256)
def _active(board: GuardianBoard, unlocked: frozenset[str]) -> tuple[Ability, ...]:
    return tuple(a for a in board.abilities if a.id in board.ongoing or a.id in unlocked)


@by_identity
@lru_cache(maxsize=256)
def _type_changes(board: GuardianBoard, unlocked: frozenset[str]) -> tuple[TypeChange, ...]:
    return tuple(
        e.type_change() for a in _active(board, unlocked) for e in a.effects if e.do is Do.CHANGE_TYPE
    )

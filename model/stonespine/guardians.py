"""Guardian boards as data (seed 000, "Guardian Board" and "Leveling Up Guardians").

A board has two ability tracks. Both level markers start on the bottom space; each level-up
moves one marker up one space, and the space reached may unlock a minion, trigger the instant
ability (``instant*2``: twice) or activate an unlockable ability (``unlock:A``). Ongoing
abilities are active from the start. The scoring bonus pays ``low`` with one marker on top and
``high`` with both.

Abilities the oracle implements, by id:

* ``troll-moves`` (Giant Troll, ongoing): after defeating a hero in a chamber with rubble or troll
  rubble, the troll moves to a connected adjacent chamber;
* ``blow-off-steam`` (Giant Troll, instant): place troll rubble over an element;
* ``dangerous-debris`` (Giant Troll, unlockable): rubble and troll rubble count as traps;
* ``pact-damage`` (Pact Demon, ongoing): each revealed pact token deals +1 damage;
* ``forge-pact`` (Pact Demon, instant): reveal a face-down pact token;
* ``hungry-hatchlings`` (dragon, unlockable): a minion in a stone chamber deals extra damage;
* ``collapsing-passages`` (hydras, ongoing) with ``gain-collapsing-passage`` (instant): place
  collapsing secret passages in Preparation (ruling ``SS-HYDRA-COLLAPSE`` says when they fall).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from model.core.provenance import Provenance

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
            times = int(arg) if arg else 1
            if times < 1:
                raise ValueError(f"instant*N needs N >= 1; got {text!r}")
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


@dataclass(frozen=True, slots=True)
class GuardianBoard:
    """One side of a guardian board."""

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

    def top(self, track: int) -> int:
        return len(self.tracks[track]) - 1

    def unlockable(self, letter: str) -> str | None:
        return dict(self.unlockables).get(letter)

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

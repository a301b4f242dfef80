"""Immutable state of a Cloudspire game, and the tasks it still has to do.

The state is frozen dataclasses and tuples. Dice are one record each (:class:`Die`, always all
unit dice, in a fixed order), so the 17 dice are conserved by construction and a zone count is a
filter. Lanes hold enemy stacks as tuples of card ids, top card first. Spire spaces hold
:class:`PlacedSpire` values or ``None``. The round's progress is an **agenda** of tasks, first
task first, as in the Spirit Island oracle: the game pops a task and runs it; when a task needs
an answer, ``request`` is the open decision or chance request and ``awaiting`` the task that
takes it. So a game can pause anywhere and resume from the state alone.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, fields
from typing import Any

from invasion_oracle.model.cloudspire.area import LANES, SPIRE_SPACES
from invasion_oracle.model.cloudspire.dice import Colour, Face, Zone, colour_of
from invasion_oracle.model.cloudspire.piles import Pile
from invasion_oracle.model.core.codec import fields_json
from invasion_oracle.model.core.decisions import Request
from invasion_oracle.model.core.frozen import quick_init

EMPTY_PILE = Pile()
# where a lane's stack and a space's spire sit in the state's tuples (a KeyError for a wrong name,
# as the tuples' index raised a ValueError before)
_LANE_INDEX = {lane: i for i, lane in enumerate(LANES)}
_SPIRE_INDEX = {space: i for i, space in enumerate(SPIRE_SPACES)}


@quick_init
@dataclass(frozen=True, slots=True)
class Die:
    """One unit die: its zone, the face it shows once rolled, and where it sits."""

    name: str
    zone: Zone
    face: Face | None = None
    slot: str = ""  # loaded (or applied while staying on its blueprint): the slot, e.g. L-top.bp1
    card: str = ""  # applied: the enemy card id

    @property
    def colour(self) -> Colour:
        return colour_of(self.name)

    def describe(self) -> str:
        face = f":{self.face.value}" if self.face is not None else ""
        where = f"@{self.slot or self.card}" if (self.slot or self.card) else ""
        return f"{self.name}{face}{where}"


@quick_init
@dataclass(frozen=True, slots=True)
class PlacedSpire:
    """An active spire in a spire space; a defeated one is rotated until Cleanup."""

    card: str
    defeated: bool = False


@quick_init
@dataclass(frozen=True, slots=True)
class Created:
    """A created blueprint for this round (Drilling Outpost: red, on an active spire)."""

    space: str
    colour: Colour
    source: str  # the card whose effect created it


@quick_init
@dataclass(frozen=True, slots=True)
class Outcome:
    result: str  # win, loss, stopped
    reason: str
    round: int

    def to_json(self) -> dict[str, Any]:
        return fields_json(self, "result", "reason", "round")


# -- tasks ---------------------------------------------------------------------------------------------


@quick_init
@dataclass(frozen=True, slots=True)
class ChooseBoss:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class AddMiniBosses:
    left: int


@quick_init
@dataclass(frozen=True, slots=True)
class StartRound:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class Drill:
    """A Drilling Outpost in the inventory gives an active spire a red blueprint (round start)."""

    source: str


@quick_init
@dataclass(frozen=True, slots=True)
class CycleEnemies:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class AdvanceEnemies:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class Deploy:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class AddUnder:
    """Resolve ``icons`` additional enemy icons onto the stack in ``lane``."""

    lane: str
    icons: int


@quick_init
@dataclass(frozen=True, slots=True)
class Activate:
    """``card`` activates: its activation effects trigger the first time."""

    card: str


@quick_init
@dataclass(frozen=True, slots=True)
class ExhaustPool:
    """An activation effect: the player exhausts ``left`` more dice from the pool."""

    left: int
    card: str


@quick_init
@dataclass(frozen=True, slots=True)
class EndAdvance:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class StartEngagement:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class PlaceSpires:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class CommitDice:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class RollDie:
    die: str


@quick_init
@dataclass(frozen=True, slots=True)
class LoadDice:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class AfterLoad:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class SpiresFire:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class SufferDamage:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class Attack:
    """The enemy on top in ``lane`` deals ``left`` more damage; ``on_hero`` once it hit the hero."""

    lane: str
    left: int
    on_hero: bool = False


@quick_init
@dataclass(frozen=True, slots=True)
class AfterEffects:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class ExhaustDice:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class KeepOrExhaust:
    die: str


@quick_init
@dataclass(frozen=True, slots=True)
class RecoverDice:
    left: int
    reason: str = "recovery"


@quick_init
@dataclass(frozen=True, slots=True)
class GainItemRewards:
    pass


@quick_init
@dataclass(frozen=True, slots=True)
class DrawCards:
    """Draw/keep: draw ``left`` more cards from the Market Stack into ``drawn``, keep ``keep``."""

    card: str
    left: int
    keep: int
    drawn: tuple[str, ...] = ()


@quick_init
@dataclass(frozen=True, slots=True)
class KeepCards:
    card: str
    left: int
    drawn: tuple[str, ...]
    kept: tuple[str, ...] = ()


@quick_init
@dataclass(frozen=True, slots=True)
class OrderBottom:
    """Unkept cards go to the bottom of the Market Stack in the order the player chooses."""

    rest: tuple[str, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class GainCard:
    """Gain ``card``'s item side (``via``: reward, claim, search); a spire may be activated at once."""

    card: str
    via: str


@quick_init
@dataclass(frozen=True, slots=True)
class ToInventory:
    card: str


@quick_init
@dataclass(frozen=True, slots=True)
class SearchSpire:
    """After a banished die: choose a spire from the discard or the Market Stack."""

    pass


@quick_init
@dataclass(frozen=True, slots=True)
class RevealTop:
    """The top card of a shuffled pile (``deployment`` or ``market``) is needed."""

    pile: str


@quick_init
@dataclass(frozen=True, slots=True)
class Cleanup:
    pass


Task = (
    ChooseBoss
    | AddMiniBosses
    | StartRound
    | Drill
    | CycleEnemies
    | AdvanceEnemies
    | Deploy
    | AddUnder
    | Activate
    | ExhaustPool
    | EndAdvance
    | StartEngagement
    | PlaceSpires
    | CommitDice
    | RollDie
    | LoadDice
    | AfterLoad
    | SpiresFire
    | SufferDamage
    | Attack
    | AfterEffects
    | ExhaustDice
    | KeepOrExhaust
    | RecoverDice
    | GainItemRewards
    | DrawCards
    | KeepCards
    | OrderBottom
    | GainCard
    | ToInventory
    | SearchSpire
    | RevealTop
    | Cleanup
)


@dataclass(frozen=True)
class GameState:
    """The whole game. Frozen like every value here, but not slotted: searches copy and hash states
    millions of times, and a copy of the attribute dictionary plus a cached hash are much faster
    than rebuilding forty slots (``evolve``) and rehashing every field on each memo lookup."""

    round: int
    phase: str
    hero: str  # the hero card id, or "universal:NAME"
    health: int
    strategy: int
    recovery: int
    allied: tuple[str, ...]  # the three allied factions
    boss: str  # the boss card id ("" until chosen at setup)
    dice: tuple[Die, ...]
    lanes: tuple[tuple[str, ...], ...] = ((), (), ())  # top, middle, bottom; each stack top first
    spires: tuple[PlacedSpire | None, ...] = (None,) * 6  # SPIRE_SPACES order
    inventory: tuple[str, ...] = ()
    deployment: Pile = EMPTY_PILE
    market: Pile = EMPTY_PILE
    discard: tuple[tuple[str, str], ...] = ()  # (card id, side face up), oldest first
    activated: tuple[str, ...] = ()  # sorted ids of cards activated at least once
    boss_added: bool = False
    created: tuple[Created, ...] = ()
    defeated_now: tuple[str, ...] = ()  # enemies defeated this round, discarded at Cleanup
    revealed_now: tuple[str, ...] = ()  # enemies revealed during this Spires Fire phase
    attacked: tuple[str, ...] = ()  # lanes whose enemy has attacked this Suffer Damage step
    deployed: bool = False
    rolls_used: int = 0
    rounds_left: int = 1
    health_lost: int = 0  # totals over the game, for the outcome (each equals its events' sum)
    health_gained: int = 0
    defeated: tuple[str, ...] = ()  # every enemy defeated so far, sorted
    spires_lost: int = 0
    agenda: tuple[Task, ...] = ()
    request: Request | None = None
    awaiting: Task | None = None
    outcome: Outcome | None = None

    # -- lookups ---------------------------------------------------------------------------------

    def die(self, name: str) -> Die:
        for die in self.dice:
            if die.name == name:
                return die
        raise KeyError(name)

    def in_zone(self, zone: Zone) -> tuple[Die, ...]:
        return tuple([d for d in self.dice if d.zone is zone])

    def lane(self, lane: str) -> tuple[str, ...]:
        return self.lanes[_LANE_INDEX[lane]]

    def top_of(self, lane: str) -> str | None:
        stack = self.lanes[_LANE_INDEX[lane]]
        return stack[0] if stack else None

    def spire_at(self, space: str) -> PlacedSpire | None:
        return self.spires[_SPIRE_INDEX[space]]

    def occupied_spaces(self) -> frozenset[str]:
        return frozenset(s for s, p in zip(SPIRE_SPACES, self.spires, strict=True) if p is not None)

    def lane_of(self, card: str) -> str | None:
        for name, stack in zip(LANES, self.lanes, strict=True):
            if card in stack:
                return name
        return None

    # -- changes -----------------------------------------------------------------------------------

    def evolve(self, **changes: Any) -> GameState:
        """A copy with ``changes``, like :func:`dataclasses.replace` but much faster."""
        if not _FIELD_SET.issuperset(changes):
            unknown = changes.keys() - _FIELD_SET
            raise TypeError(f"GameState has no field(s) {', '.join(sorted(unknown))}")
        attributes = self.__dict__.copy()  # one copy of the dictionary: faster than filling a new one
        attributes.pop("_hash", None)
        if "dice" in changes:
            attributes.pop("_dice_hash", None)
        attributes.update(changes)
        new = object.__new__(GameState)
        _set_attribute(new, "__dict__", attributes)
        return new

    def __hash__(self) -> int:
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            attributes = self.__dict__
            dice = attributes.get("_dice_hash")  # kept by every change that leaves the dice alone
            if dice is None:
                dice = attributes["_dice_hash"] = hash(self.dice)
            cached = hash((dice, _field_values(attributes)))
            self.__dict__["_hash"] = cached
        return cached

    def with_die(self, die: Die) -> GameState:
        dice = self.dice
        at = list(map(_die_name, dice)).index(die.name)  # in C: a tenth of a generator's time
        return self.evolve(dice=(*dice[:at], die, *dice[at + 1 :]))

    def with_lane(self, lane: str, stack: tuple[str, ...]) -> GameState:
        lanes = list(self.lanes)
        lanes[LANES.index(lane)] = stack
        return self.evolve(lanes=tuple(lanes))

    def with_spire(self, space: str, placed: PlacedSpire | None) -> GameState:
        spires = list(self.spires)
        spires[SPIRE_SPACES.index(space)] = placed
        return self.evolve(spires=tuple(spires))

    def with_agenda(self, agenda: tuple[Task, ...]) -> GameState:
        """``evolve(agenda=agenda)``, the step loop's most frequent change, without the keywords."""
        attributes = self.__dict__.copy()
        attributes.pop("_hash", None)
        attributes["agenda"] = agenda
        new = object.__new__(GameState)
        _set_attribute(new, "__dict__", attributes)
        return new

    def with_request(self, request: Request | None, awaiting: Task | None) -> GameState:
        """``evolve(request=request, awaiting=awaiting)`` (a question asked, or answered: every
        step does both) without the keywords."""
        attributes = self.__dict__.copy()
        attributes.pop("_hash", None)
        attributes["request"] = request
        attributes["awaiting"] = awaiting
        new = object.__new__(GameState)
        _set_attribute(new, "__dict__", attributes)
        return new

    def push(self, *tasks: Task) -> GameState:
        """Put ``tasks`` at the front of the agenda, in the order given."""
        return self.with_agenda((*tasks, *self.agenda))


_FIELDS = tuple(f.name for f in fields(GameState))
_set_attribute = object.__setattr__  # past the frozen class's own, which refuses
_die_name = operator.attrgetter("name")
# The fields' values in order, as one tuple (the dice apart: their hash is kept across changes).
_field_values = operator.itemgetter(*(name for name in _FIELDS if name != "dice"))
_FIELD_SET = frozenset(_FIELDS)

"""Immutable state of the Vul'Keth solo game, and the tasks it still has to do.

Frozen slotted dataclasses and tuples only. :class:`GameState` holds the nine hexes (index
``n - 1`` for hex ``n``), the action board, both sides' supplies and resources, the Warlord
Board, the Invader decks, the scripted player turns still to play and an **agenda**: the tasks
still to do, first first. A task that needs an answer parks itself in ``awaiting`` with the open
``request``; the game resumes from the state alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.codec import fields_json
from invasion_oracle.model.core.decisions import Request
from invasion_oracle.model.core.frozen import evolving, replace
from invasion_oracle.model.vulketh.action_board import ActionBoard
from invasion_oracle.model.vulketh.cards import Effect

PLAYER = "player"  # the player's tribe, in hexes, villages and conflicts
INVADERS = "invaders"


@dataclass(frozen=True, slots=True)
class Resources:
    """The player's resources by type (the Invaders' are one number: any mix pays)."""

    food: int = 0
    wood: int = 0
    stone: int = 0

    @property
    def total(self) -> int:
        return self.food + self.wood + self.stone

    def get(self, kind: str) -> int:
        value: int = getattr(self, kind)
        return value

    def add(self, kind: str, amount: int) -> Resources:
        return replace(self, **{kind: self.get(kind) + amount})

    def plus(self, other: Resources) -> Resources:
        return Resources(self.food + other.food, self.wood + other.wood, self.stone + other.stone)

    def minus(self, other: Resources) -> Resources:
        return Resources(self.food - other.food, self.wood - other.wood, self.stone - other.stone)

    def covers(self, other: Resources) -> bool:
        return self.food >= other.food and self.wood >= other.wood and self.stone >= other.stone

    def to_json(self) -> dict[str, int]:
        return fields_json(self, "food", "wood", "stone")

    def describe(self) -> str:
        return " ".join(f"{n}{k[0].upper()}" for k, n in self.to_json().items() if n) or "none"


@dataclass(frozen=True, slots=True)
class Hex:
    """One hex: the player's members, the Invaders' members, a Warlord (its Warlord Board
    section), a village (its owner: ``player`` or a rival tribe) and rival tribes' members."""

    player: int = 0
    invaders: int = 0
    warlord: str | None = None
    village: str | None = None
    rivals: tuple[tuple[str, int], ...] = ()  # (tribe, members > 0), sorted by tribe

    def rival(self, name: str) -> int:
        return dict(self.rivals).get(name, 0)

    def with_rival(self, name: str, count: int) -> Hex:
        rest = {k: v for k, v in self.rivals if k != name}
        if count > 0:
            rest[name] = count
        return replace(self, rivals=tuple(sorted(rest.items())))

    def tribes(self) -> tuple[tuple[str, int], ...]:
        """Every tribe with members here: the player, the Invaders, then rivals by name."""
        out: list[tuple[str, int]] = []
        if self.player:
            out.append((PLAYER, self.player))
        if self.invaders:
            out.append((INVADERS, self.invaders))
        return (*out, *self.rivals)

    def members(self) -> int:
        """Tribe members toward the population limit (Warlords do not count)."""
        return self.player + self.invaders + sum(n for _, n in self.rivals)

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self, "player", "invaders", "warlord", "village", "rivals", rivals=dict(self.rivals)
        )


@dataclass(frozen=True, slots=True)
class Rival:
    """Another tribe's members and villages placed by the scenario (it takes no turns)."""

    name: str
    evasion: bool = False


@dataclass(frozen=True, slots=True)
class ScriptedDie:
    """One of the player's two dice: its face and the action it goes to, either may be open
    (``None``: rolled through a chance request / chosen through a decision request)."""

    face: str | None
    action: str | None


@dataclass(frozen=True, slots=True)
class PlayerTurn:
    """A scripted player turn (the base game's turn is not in the seeds): the dice, what each
    action did, villages built, villages seized (Vul'Keth), points scored and goal progress."""

    path: str  # where the script is, for error messages: "$.player_turns[0]"
    dice: tuple[ScriptedDie, ...]
    grow: tuple[tuple[int, int], ...] = ()  # (hex, members added)
    moves: tuple[tuple[int, int, int], ...] = ()  # (from, to, members)
    gather: Resources = Resources()
    villages: tuple[int, ...] = ()
    seize: tuple[tuple[int, Resources], ...] = ()  # (hex, payment)
    points: int = 0
    developments: int | None = None  # in-progress developments after the turn
    bronze: tuple[tuple[str, int], ...] = ()  # Bronze technology steps after the turn


@dataclass(frozen=True, slots=True)
class Outcome:
    result: str  # "player-wins" / "invader-wins"
    reason: str
    round: int

    def to_json(self) -> dict[str, Any]:
        return fields_json(self, "result", "reason", "round")


# -- tasks ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setup:
    pass


@dataclass(frozen=True, slots=True)
class Round:
    pass


@dataclass(frozen=True, slots=True)
class ScoreVillages:
    pass


@dataclass(frozen=True, slots=True)
class RollDie:
    die: int


@dataclass(frozen=True, slots=True)
class CheckDoubles:
    pass


@dataclass(frozen=True, slots=True)
class PlaceDie:
    die: int


@dataclass(frozen=True, slots=True)
class PlayerAction:
    die: int


@dataclass(frozen=True, slots=True)
class PlayerConflicts:
    pass


@dataclass(frozen=True, slots=True)
class PlayerBuild:
    pass


@dataclass(frozen=True, slots=True)
class Seize:
    pass


@dataclass(frozen=True, slots=True)
class EndPlayerTurn:
    pass


@dataclass(frozen=True, slots=True)
class InvaderTurn:
    pass


@dataclass(frozen=True, slots=True)
class WipeOut:
    pass


@dataclass(frozen=True, slots=True)
class CheckGoal:
    pass


@dataclass(frozen=True, slots=True)
class DrawCard:
    pass


@dataclass(frozen=True, slots=True)
class TakeCardAction:
    card: str
    index: int


@dataclass(frozen=True, slots=True)
class Summon:
    pass


@dataclass(frozen=True, slots=True)
class EndInvaderTurn:
    pass


@dataclass(frozen=True, slots=True)
class Lead:
    cause: str


@dataclass(frozen=True, slots=True)
class Power:
    power: str
    cause: str


@dataclass(frozen=True, slots=True)
class Conflict:
    hex: int
    cause: str


@dataclass(frozen=True, slots=True)
class Pillage:
    hex: int


@dataclass(frozen=True, slots=True)
class RegressTech:
    pass


@dataclass(frozen=True, slots=True)
class DrawEvent:
    pass


@dataclass(frozen=True, slots=True)
class ApplyEffects:
    effects: tuple[Effect, ...]
    origin: str


@dataclass(frozen=True, slots=True)
class Appease:
    origin: str


@dataclass(frozen=True, slots=True)
class PlaceWarlord:
    """A Warlord token leaves the board for ``hex`` (``0``: where the summoning rule says)."""

    hex: int
    cause: str


Task = (
    Setup
    | Round
    | ScoreVillages
    | RollDie
    | CheckDoubles
    | PlaceDie
    | PlayerAction
    | PlayerConflicts
    | PlayerBuild
    | Seize
    | EndPlayerTurn
    | InvaderTurn
    | WipeOut
    | CheckGoal
    | DrawCard
    | TakeCardAction
    | Summon
    | EndInvaderTurn
    | Lead
    | Power
    | Conflict
    | Pillage
    | RegressTech
    | DrawEvent
    | ApplyEffects
    | Appease
    | PlaceWarlord
)


@evolving
@dataclass(frozen=True, slots=True)
class GameState:
    hexes: tuple[Hex, ...]  # hex n at index n - 1
    board: ActionBoard
    score: int = 0
    resources: Resources = Resources()  # the player's
    player_supply: int = 0
    invader_resources: int = 0
    invader_supply: int = 0
    reserve: int = 0  # overrun Invaders on the -1 VP spaces of the Warlord Track
    warlord_board: tuple[str, ...] = ()  # sections whose token is still on the board, top first
    decks: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] = ((), (), ())  # draw piles
    discard: tuple[str, ...] = ()  # the single face-up pile, oldest first
    last_card: str | None = None  # the card played last Invader turn (its goal is checked next)
    invader_turns: int = 0  # Invader turns taken so far
    event_pile: tuple[str, ...] = ()  # Invader Event draw pile (unordered: each draw is asked)
    event_discard: tuple[str, ...] = ()
    developments: int = 0  # the player's in-progress developments
    bronze: tuple[tuple[str, int], ...] = ()  # the player's Bronze technologies and their steps
    round: int = 1
    player_turns: tuple[PlayerTurn, ...] = ()  # scripted turns still to play
    turn: PlayerTurn | None = None  # the player turn being played
    dice: tuple[tuple[str | None, str | None], ...] = ()  # this turn's (face, action) so far
    agenda: tuple[Task, ...] = ()
    request: Request | None = None
    awaiting: Task | None = None
    outcome: Outcome | None = None

    def evolve(self, **changes: Any) -> GameState:
        """A copy with ``changes`` (the generated copier: :func:`~invasion_oracle.model.core.frozen.evolving`)."""
        return replace(self, **changes)

    def hex(self, number: int) -> Hex:
        return self.hexes[number - 1]

    def with_hex(self, number: int, cell: Hex) -> GameState:
        cells = list(self.hexes)
        cells[number - 1] = cell
        return self.evolve(hexes=tuple(cells))

    def push(self, *tasks: Task) -> GameState:
        """Put ``tasks`` at the front of the agenda, in the order given."""
        return self.evolve(agenda=(*tasks, *self.agenda))

    def invaders_on_map(self) -> int:
        return sum(h.invaders for h in self.hexes)

    def player_on_map(self) -> int:
        return sum(h.player for h in self.hexes)

    def warlords(self) -> tuple[int, ...]:
        """Hexes holding a Warlord, ascending."""
        return tuple(n for n, h in enumerate(self.hexes, 1) if h.warlord is not None)

"""Immutable game state for the Stonespine Invasion oracle.

The state is a tree of frozen dataclasses and tuples. The only way forward is
:meth:`invasion_oracle.model.stonespine.game.StonespineGame.step`, which returns a new state and its events.
``GameState.request`` is the open decision or chance request (``None`` when the game is over)
and ``GameState.task`` is what the game needs to remember to resume after it is answered.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.codec import fields_json
from invasion_oracle.model.core.decisions import Request
from invasion_oracle.model.core.frozen import evolving, replace
from invasion_oracle.model.stonespine.dungeon import Cell, Chamber, Dungeon
from invasion_oracle.model.stonespine.guardians import GuardianState
from invasion_oracle.model.stonespine.heroes import COLORS, HeroCard, HeroColor


class Stage(enum.StrEnum):
    """Where in the year the game is (seed 000, "How to Play": five phases a year)."""

    CONSTRUCTION = "construction"
    IMPROVEMENT = "improvement"
    PREPARATION = "preparation"
    ROLL = "roll"  # Invasion Step 1
    REPEL = "repel"  # Step 2
    CONTINUE = "continue"  # Step 3
    LEVEL_HEROES = "level-heroes"  # Step 4
    AWARD = "award"  # Step 5
    XP = "xp"  # Step 6
    CLEANUP = "cleanup"
    FINAL_SCORING = "final-scoring"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Placement:
    """Where the figures stand: guardian figure(s) and minions, by chamber."""

    guardians: tuple[Cell, ...] = ()
    minions: tuple[Cell, ...] = ()
    minions_held_back: int = 0  # unlocked minions kept off the board (ruling SS-MINIONS)
    passages_held_back: int = 0  # hydra passage tokens not placed this year

    def minions_in(self, cell: Cell) -> int:
        return sum(1 for m in self.minions if m == cell)

    def to_json(self) -> dict[str, Any]:
        return {"guardians": [c.name for c in self.guardians], "minions": [c.name for c in self.minions]}


@dataclass(frozen=True, slots=True)
class HeroRun:
    """The hero now inside a dungeon: where it is, where it has been, the damage it has taken."""

    color: HeroColor
    at: Cell
    visited: tuple[Cell, ...]
    damage: int = 0
    protection_used: bool = False  # purple heroes: the first-time condition has been met


@evolving
@dataclass(frozen=True, slots=True)
class PlayerState:
    name: str
    priority: int  # 1 is the highest
    dungeon: Dungeon
    guardian: GuardianState
    placement: Placement = Placement()
    xp: int = 0
    gold: int = 0
    gate_open: bool = True
    waiting: tuple[HeroColor, ...] = ()
    running: HeroRun | None = None
    defeated: tuple[tuple[Cell, HeroColor], ...] = ()  # this year's, in order
    escaped: tuple[HeroColor, ...] = ()  # this year's
    trophies: tuple[tuple[int, int], ...] = ()  # (year, value)
    demerits: tuple[tuple[int, int], ...] = ()  # (year, value)
    passages_bought: int = 0  # this year
    guardian_defeats: tuple[tuple[int, Cell], ...] = ()  # (figure index, cell) this year

    def evolve(self, **changes: Any) -> PlayerState:
        """A copy with ``changes`` (the generated copier: :func:`~invasion_oracle.model.core.frozen.evolving`)."""
        return replace(self, **changes)

    def defeated_in(self, cell: Cell) -> bool:
        return any(c == cell for c, _ in self.defeated)

    @property
    def entered(self) -> int:
        """Heroes that entered this year: defeated ones in chambers and escaped ones on the frame."""
        return len(self.defeated) + len(self.escaped)

    @property
    def had_escape(self) -> bool:
        return bool(self.escaped)


@dataclass(frozen=True, slots=True)
class Market:
    """The Invasion market board this year (seed 000, "II. Improvement Phase")."""

    xp_spaces: tuple[int, ...] = (4, 3)  # cubes still on the board, top space first
    xp_buyers: tuple[str, ...] = ()  # who bought XP this year, in order
    passages_sold: int = 0


@dataclass(frozen=True, slots=True)
class Jael:
    """The solo opponent's area (seed 000, "Solo Play")."""

    trophies: tuple[tuple[int, int], ...] = ()
    xp: int = 0


@dataclass(frozen=True, slots=True)
class FinalScore:
    """The Invasion additions to final scoring (seed 000, "Final Scoring")."""

    player: str
    guardian_bonus: int
    trophies: int
    demerits: int
    leftover_xp: int

    @property
    def total(self) -> int:
        return self.guardian_bonus + self.trophies - self.demerits + self.leftover_xp

    def to_json(self) -> dict[str, Any]:
        return fields_json(self, "player", "guardian_bonus", "trophies", "demerits", "leftover_xp", "total")


# Tasks: what an open request is about, so the game can resume when it is answered.


@dataclass(frozen=True, slots=True)
class ChooseHero:
    player: int


@dataclass(frozen=True, slots=True)
class ChooseDestroy:
    player: int
    cell: Cell


@dataclass(frozen=True, slots=True)
class ChooseMove:
    player: int


@dataclass(frozen=True, slots=True)
class ChooseTrollMove:
    player: int
    figure: int
    ability: str = "troll-moves"  # the move-figure ability that moves it


@dataclass(frozen=True, slots=True)
class ChooseContinue:
    player: int


@dataclass(frozen=True, slots=True)
class ChooseLevelUp:
    player: int


@dataclass(frozen=True, slots=True)
class ChooseTrack:
    player: int


@dataclass(frozen=True, slots=True)
class ChooseInstantTarget:
    player: int
    ability: str
    remaining: int  # uses left, this one included
    effect: int = 0  # which of the ability's effects is being targeted


@dataclass(frozen=True, slots=True)
class ChooseImprovement:
    player: int


@dataclass(frozen=True, slots=True)
class ChoosePlacement:
    player: int
    figure: str  # "guardian", "minion" or "passage"
    index: int


@dataclass(frozen=True, slots=True)
class Roll:
    purpose: str  # "wave" or "hero-level"


Task = (
    ChooseHero
    | ChooseDestroy
    | ChooseMove
    | ChooseTrollMove
    | ChooseContinue
    | ChooseLevelUp
    | ChooseTrack
    | ChooseInstantTarget
    | ChooseImprovement
    | ChoosePlacement
    | Roll
)


@evolving
@dataclass(frozen=True, slots=True)
class GameState:
    year: int
    stage: Stage
    players: tuple[PlayerState, ...]  # in priority order
    heroes: tuple[HeroCard, HeroCard, HeroCard]  # the revealed card of each colour: black, purple, red
    health_bonus: tuple[int, int, int] = (0, 0, 0)  # health tokens per colour
    last_year: int = 4  # the game stops after this year's Invasion (or final scoring in year 4)
    solo: bool = False
    wave: int = 0
    rolled: tuple[str, ...] = ()
    cursor: int = 0
    hero_rolls_done: int = 0
    request: Request | None = None
    task: Task | None = None
    market: Market = Market()
    jael: Jael = Jael()
    construction: tuple[tuple[tuple[Chamber, ...], ...], ...] = ()  # per later year, per player: the new row
    gold_income: tuple[tuple[int, ...], ...] = ()  # per later year, per player
    jael_collects: tuple[int, ...] = ()  # per later year (solo): Jael's market-board XP collections
    levelling: int | None = None  # a player who must level up before the stage goes on
    improvement_passed: tuple[str, ...] = ()  # players done with this year's Improvement
    final_scores: tuple[FinalScore, ...] = ()

    def evolve(self, **changes: Any) -> GameState:
        """A copy with ``changes`` (the generated copier: :func:`~invasion_oracle.model.core.frozen.evolving`)."""
        return replace(self, **changes)

    def card(self, color: HeroColor) -> HeroCard:
        return self.heroes[COLORS.index(color)]

    def health(self, color: HeroColor) -> int:
        return self.card(color).health + self.health_bonus[COLORS.index(color)]

    def with_player(self, index: int, player: PlayerState) -> GameState:
        players = self.players[:index] + (player,) + self.players[index + 1 :]
        return self.evolve(players=players)

    def player_index(self, name: str) -> int:
        return next(i for i, p in enumerate(self.players) if p.name == name)

"""The vocabulary of card goals and effects, and how to add to it.

Goals are predicates on the state (seed 003, Invader Turn Step 1: "Check to see if the goal ...
has been met"). Effects are what Invader Events and goal rewards do. Both are named in data
files; the data loader refuses names it does not know. Python users add kinds with
:func:`register_goal` and :func:`register_effect` (the effect's handler receives the game, the
state, the effect, where it comes from and the event list, and returns the new state).

Built-in goals: ``none``, ``occupied_hexes`` (``at_least``), ``invaders_on_map`` (``at_least``),
``hex_occupied`` (``hex``), ``player_members`` (``at_most``), ``resources`` (``at_least``).

Built-in effects (fields in brackets): ``gain_resources`` [amount], ``grow`` [amount, direction],
``move`` [amount, direction], ``lead``, ``power`` [power], ``lose_points`` [amount],
``remove_warlord`` (the player chooses which; "Appease the Volcano"), ``remove_invaders``
[amount, direction], ``player_resources`` [amount, resource], ``slide`` [face, action].
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from invasion_oracle.model.core.events import Event
from invasion_oracle.model.vulketh.cards import Effect, Goal
from invasion_oracle.model.vulketh.state import GameState


class EffectRules(Protocol):
    """What an effect's handler may ask of the game (the game itself, seen through this): apply
    another effect, so that handlers compose. Named here, not imported from the game, which
    imports this vocabulary."""

    def apply_effect(self, s: GameState, effect: Effect, origin: str, ev: list[Event]) -> GameState: ...


GoalTest = Callable[[GameState, Goal], bool]
EffectHandler = Callable[[EffectRules, GameState, Effect, str, list[Event]], GameState]


@dataclass(frozen=True, slots=True)
class GoalKind:
    name: str
    fields: tuple[str, ...]
    test: GoalTest


@dataclass(frozen=True, slots=True)
class EffectKind:
    name: str
    fields: tuple[str, ...]  # required fields besides "effect"
    handler: EffectHandler | None  # None: a built-in the game handles itself


def _occupied_hexes(state: GameState, goal: Goal) -> bool:
    return sum(1 for h in state.hexes if h.invaders > 0) >= goal.amount


def _invaders_on_map(state: GameState, goal: Goal) -> bool:
    return state.invaders_on_map() >= goal.amount


def _hex_occupied(state: GameState, goal: Goal) -> bool:
    return state.hex(goal.hex).invaders > 0


def _player_members(state: GameState, goal: Goal) -> bool:
    return state.player_on_map() <= goal.amount


def _resources(state: GameState, goal: Goal) -> bool:
    return state.invader_resources >= goal.amount


GOAL_KINDS: dict[str, GoalKind] = {
    g.name: g
    for g in (
        GoalKind("none", (), lambda state, goal: False),
        GoalKind("occupied_hexes", ("at_least",), _occupied_hexes),
        GoalKind("invaders_on_map", ("at_least",), _invaders_on_map),
        GoalKind("hex_occupied", ("hex",), _hex_occupied),
        GoalKind("player_members", ("at_most",), _player_members),
        GoalKind("resources", ("at_least",), _resources),
    )
}

EFFECT_KINDS: dict[str, EffectKind] = {
    e.name: e
    for e in (
        EffectKind("gain_resources", ("amount",), None),
        EffectKind("grow", ("amount", "direction"), None),
        EffectKind("move", ("amount", "direction"), None),
        EffectKind("lead", (), None),
        EffectKind("power", ("power",), None),
        EffectKind("lose_points", ("amount",), None),
        EffectKind("remove_warlord", (), None),
        EffectKind("remove_invaders", ("amount", "direction"), None),
        EffectKind("player_resources", ("amount", "resource"), None),
        EffectKind("slide", ("face", "action"), None),
    )
}


def goal_met(state: GameState, goal: Goal) -> bool:
    return GOAL_KINDS[goal.kind].test(state, goal)


def register_goal(name: str, fields: tuple[str, ...], test: GoalTest) -> None:
    """Add a goal kind (for data files naming it)."""
    GOAL_KINDS[name] = GoalKind(name, fields, test)


def register_effect(name: str, fields: tuple[str, ...], handler: EffectHandler) -> None:
    """Add an effect kind with its handler (for data files naming it)."""
    EFFECT_KINDS[name] = EffectKind(name, fields, handler)


def known_fields(raw: dict[str, Any], key: str) -> tuple[str, ...]:
    """The required fields of the goal or effect ``raw`` (by its ``key``: goal or effect)."""
    table: dict[str, Any] = GOAL_KINDS if key == "goal" else EFFECT_KINDS
    fields: tuple[str, ...] = table[raw[key]].fields
    return fields

"""Replaying search answers through the oracle: one task of the real game in a small state.

A search answer is only reported after the oracle reproduces it. For one-land questions the land
is put on board A (land A5, whose neighbours make cascades possible) with nothing else on the
island, and the game runs one task (a Damage effect, a fight-back, a Ravage) with the search's
decisions scripted. ``play_on`` keeps the game going even if the empty island means a victory,
so the task always resolves completely.
"""

from __future__ import annotations

from collections.abc import Sequence

from invasion_oracle.model.core.decisions import (
    Decider,
    FirstLegalDecider,
    Option,
    ScriptedChance,
    ScriptedDecider,
)
from invasion_oracle.model.core.driver import Playthrough, play
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.spirit_island.blight import HEALTHY, BlightTrack
from invasion_oracle.model.spirit_island.data import GameData, default_data
from invasion_oracle.model.spirit_island.fear import FearTrack
from invasion_oracle.model.spirit_island.game import InvaderPhaseGame, Rules
from invasion_oracle.model.spirit_island.invader_deck import InvaderBoard
from invasion_oracle.model.spirit_island.island import Island, build_island
from invasion_oracle.model.spirit_island.pieces import Land
from invasion_oracle.model.spirit_island.rulings import GAME
from invasion_oracle.model.spirit_island.state import IslandState, Task
from invasion_oracle.solver.common import OracleDisagreement

HOME = "A5"
AMPLE_BLIGHT = 1000


def one_land_state(land: Land, data: GameData, *, in_pool: int | None = None) -> tuple[IslandState, int]:
    """Board A with ``land`` on A5 and nothing else; a known Fear deck (no draws), ample Blight."""
    island = build_island(data, ("A",))
    index = island.index(HOME)
    lands = [Land() for _ in island.lands]
    lands[index] = land
    return island_state(tuple(lands), data, in_pool=in_pool), index


def island_state(
    lands: tuple[Land, ...], data: GameData, *, in_pool: int | None = None, blight: int = AMPLE_BLIGHT
) -> IslandState:
    """A state with ``lands``, no Spirits, one player, a known Fear deck and ``blight`` Blight."""
    pool_size = data.value("fear_per_player")
    fear = FearTrack(
        pool_size,
        in_pool if in_pool is not None else pool_size,
        ("Blank Fear",) * 9,
        tuple(data.value("fear_cards_per_level")),
    )
    state = IslandState(
        lands=tuple(lands),
        spirits=(),
        players=1,
        turn=1,
        invaders=InvaderBoard(()),
        fear=fear,
        blight=BlightTrack(None, HEALTHY, blight),
        phases_left=0,
    )
    return state


def run_task(
    state: IslandState,
    task: Task,
    decisions: Sequence[Option] | Decider,
    data: GameData | None = None,
    rulings: Rulings | None = None,
    *,
    first_legal_after: bool = False,
    island: Island | None = None,
) -> Playthrough[IslandState]:
    """Run ``task`` alone (on board A unless ``island`` is given) with scripted decisions (or a
    decider); when ``first_legal_after``, choices the search does not care about take the first
    legal option."""
    data = data or default_data()
    island = island or build_island(data, ("A",))
    game = InvaderPhaseGame(Rules.of(rulings or Rulings.defaults(GAME), data), island, play_on=True)
    start, opening = game.run_tasks(state._replace(agenda=()), task)
    if isinstance(decisions, Sequence):
        decisions = ScriptedDecider(
            list(decisions), then=FirstLegalDecider() if first_legal_after else None, label="search answer"
        )
    try:
        return play(game, start, decisions, ScriptedChance([], label="search (no draws)"), opening=opening)
    except Exception as err:  # an answer the oracle refuses is a solver bug
        raise OracleDisagreement(f"the oracle refused the search's answer: {err}") from err


def event_list(playthrough: Playthrough[IslandState], kind: str) -> list[Event]:
    return [e for e in playthrough.events if e.kind == kind]

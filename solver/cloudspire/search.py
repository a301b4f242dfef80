"""What the Cloudspire searches share: stepping the oracle, filtering options, memo keys.

The exhaustive engines search the oracle's own states: a state is hashable (frozen dataclasses
and tuples), so equal positions reached by different orders of answers merge in a memo. Options
a question rules out (banishing a die, rolling again) are filtered here, by verb.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterable, Iterator
from fractions import Fraction
from functools import lru_cache

from invasion_oracle.model.cloudspire.game import CloudspireGame
from invasion_oracle.model.cloudspire.options import Choice
from invasion_oracle.model.cloudspire.state import GameState
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest


def options(state: GameState, excluded: Iterable[str] = ()) -> tuple[str, ...]:
    """The pending decision's options whose verb is not in ``excluded`` (all of them if none is left)."""
    request = state.request
    assert isinstance(request, DecisionRequest)
    banned = set(excluded)
    if not banned:  # nothing ruled out: every option (the searches' most frequent call)
        return tuple(request.options)
    kept = tuple(o for o in request.options if Choice.parse(o).verb not in banned)
    return kept or tuple(request.options)


def outcomes(request: ChanceRequest) -> tuple[tuple[str, Fraction], ...]:
    """Distinct outcomes with their probabilities (a face listed twice counts twice)."""
    return _weighed(tuple(request.outcomes))


@lru_cache(maxsize=1024)
def _weighed(listed: tuple[str, ...]) -> tuple[tuple[str, Fraction], ...]:
    """:func:`outcomes` of one list of outcomes (a few lists recur: the dice's faces), computed once."""
    total = len(listed)
    return tuple((o, Fraction(listed.count(o), total)) for o in dict.fromkeys(listed))


@contextlib.contextmanager
def no_cycle_collection() -> Iterator[None]:
    """The cyclic garbage collector paused while a search runs: the states are frozen values
    without cycles (reference counting frees them), and the collector's passes over a memo of
    tens of thousands of states took about a tenth of the survival search's time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def unrecorded(game: CloudspireGame) -> CloudspireGame:
    """``game``'s rules in a game that builds no events: the searches read only the states, and
    skipping the events takes about a tenth off each step. The replays keep the recording game."""
    return CloudspireGame(game.rules, record_events=False)


def step(game: CloudspireGame, state: GameState, answer: str) -> GameState:
    return game.step(state, answer)[0]

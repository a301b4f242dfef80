"""What the Cloudspire searches share: stepping the oracle, filtering options, memo keys.

The exhaustive engines search the oracle's own states: a state is hashable (frozen dataclasses
and tuples), so equal positions reached by different orders of answers merge in a memo. Options
a question rules out (banishing a die, rolling again) are filtered here, by verb.
"""

from __future__ import annotations

from collections.abc import Iterable
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


def step(game: CloudspireGame, state: GameState, answer: str) -> GameState:
    return game.step(state, answer)[0]

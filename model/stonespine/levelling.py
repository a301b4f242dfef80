"""Leveling Up Guardians (seed 000, "Leveling Up Guardians").

At five or more XP a player returns five cubes and moves either level marker up one space;
the space reached unlocks a minion, triggers the instant ability (N times for ``instant*N``)
or activates an unlockable ability. This is forced, except during the year-4 Invasion phase.
"""

from __future__ import annotations

from invasion_oracle.model.core.frozen import replace
from invasion_oracle.model.stonespine.abilities import Do
from invasion_oracle.model.stonespine.guardians import GuardianBoard, GuardianState, SpaceKind, TrackSpace

TRACK_NAMES = ("left", "right")


def advance(state: GuardianState, track: int) -> tuple[GuardianState, TrackSpace]:
    """Move one marker up one space; returns the new state and the space reached.

    Minion and unlock effects apply here; instant abilities are returned for the caller to
    resolve, since they need the player's decisions.
    """
    if not state.can_advance(track):
        raise ValueError(f"the {TRACK_NAMES[track]} marker is already on top")
    markers = list(state.markers)
    markers[track] += 1
    space = state.board.tracks[track][markers[track]]
    new = replace(state, markers=(markers[0], markers[1]))
    if space.kind is SpaceKind.MINION:
        new = replace(new, minions_unlocked=min(new.minions_unlocked + 1, state.board.minions))
    elif space.kind is SpaceKind.UNLOCK:
        ability = state.board.unlockable(space.letter)
        if ability is not None:
            new = replace(new, unlocked=new.unlocked | {ability})
    return new, space


def state_at(
    board: GuardianBoard, markers: tuple[int, int], passage_tokens: int | None = None
) -> GuardianState:
    """The guardian state after both markers reached ``markers`` (instant effects excluded).

    Used by scenarios that start mid-game: the dungeon already shows what earlier instant
    abilities did, so only unlocks are derived. Hydra passage tokens gained by instants are
    counted unless given.

    >>> from invasion_oracle.model.stonespine.data import default_data
    >>> from invasion_oracle.model.core.rulings import Rulings
    >>> import invasion_oracle.model.stonespine
    >>> dragon = default_data(Rulings.defaults("stonespine")).guardian("Dragon")
    >>> s = state_at(dragon, (3, 0))
    >>> s.minions_unlocked, sorted(s.unlocked)
    (1, ['hungry-hatchlings'])
    """
    state = GuardianState(board)
    gained = 0
    instant = board.ability(board.instant) if board.instant else None
    per_use = sum(int(e.amount) for e in (instant.effects if instant else ()) if e.do is Do.GAIN_TOKENS)
    for track in (0, 1):
        if not 0 <= markers[track] <= board.top(track):
            raise ValueError(
                f"the {TRACK_NAMES[track]} track has spaces 0-{board.top(track)}, got {markers[track]}"
            )
        for _ in range(markers[track]):
            state, space = advance(state, track)
            if space.kind is SpaceKind.INSTANT:
                gained += space.times * per_use
    tokens = passage_tokens if passage_tokens is not None else min(gained, board.passage_tokens)
    return replace(state, passage_tokens=tokens)

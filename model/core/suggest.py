"""Did-you-mean: the close names to offer after an unknown one, in one wording everywhere.

Every "unknown ..." message of the project (games, verbs, options, example names, ruling ids and
readings, data names) ends the same way, so a user learns the form once:

>>> "unknown game 'stonspine'" + did_you_mean("stonspine", ["stonespine", "vulketh"])
"unknown game 'stonspine' (did you mean 'stonespine'?)"
>>> did_you_mean("red", ["reed", "rede", "blue"])
" (did you mean 'reed' or 'rede'?)"
>>> did_you_mean("plac", ["place", "plan", "replay"])
" (did you mean 'place'?)"
>>> did_you_mean("zzz", ["reed"])
''

Closeness is :func:`difflib.get_close_matches` (the standard library's ratio, cut off at 0.6), so
the same typo gets the same suggestion on every install; besides the closest name, only those
nearly as close are offered.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence

CUTOFF = 0.6
NEAR = 0.1
"""Names offered besides the closest are at most this much less close."""


def close_names(name: str, known: Iterable[str], *, n: int = 3) -> tuple[str, ...]:
    """The up to ``n`` names of ``known`` closest to ``name``, best first (none if none is close).

    Case is ignored in the comparison (``STONESPINE`` is close to ``stonespine``); the names are
    returned as known.
    """
    by_folded: dict[str, str] = {}
    for candidate in known:
        by_folded.setdefault(candidate.casefold(), candidate)
    asked = name.casefold()
    close = difflib.get_close_matches(asked, list(by_folded), n=n, cutoff=CUTOFF)
    if not close:
        return ()
    # only the names about as close as the best: 'plac' is 'place', not also 'plan' and 'replay'
    best = _ratio(asked, close[0])
    return tuple(by_folded[c] for c in close if _ratio(asked, c) >= best - NEAR)


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def did_you_mean(name: str, known: Iterable[str], *, n: int = 3) -> str:
    """``" (did you mean 'X'?)"`` with the close names of ``known``, or ``""`` when none is close."""
    return suggestion(close_names(name, known, n=n))


def suggestion(names: Sequence[str]) -> str:
    """``" (did you mean 'A' or 'B'?)"`` for ``names`` found close by the caller; ``""`` for none."""
    close = [repr(c) for c in names]
    if not close:
        return ""
    listed = close[0] if len(close) == 1 else f"{', '.join(close[:-1])} or {close[-1]}"
    return f" (did you mean {listed}?)"


_game_names: Callable[[], Sequence[str]] = tuple


def know_games(names: Callable[[], Sequence[str]]) -> None:
    """Let the shared core name games in its messages (another game's scenario is refused by its
    game): the registry calls this, as the core imports neither the registry nor any game."""
    global _game_names
    _game_names = names


def game_names() -> Sequence[str]:
    """Every known game's name, once the registry is imported (none before)."""
    return _game_names()

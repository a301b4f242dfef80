"""Cloudspire searches from Python: the typed answers the ``invasion cloudspire`` verbs print.

>>> import invasion_oracle as io
>>> answer = engagement(io.load("example:cloudspire/engagement"))
>>> answer.status
'proven'
"""

from __future__ import annotations

from typing import Any

from invasion_oracle._facade import deadline, raw_scenario

__all__ = ["engagement", "spires", "survive"]


def engagement(scenario: Any, *, engine: str = "auto", time_limit: float | None = None) -> Any:
    """The dice loading that defeats the most, and the one that loses the least Health.

    >>> import invasion_oracle as io
    >>> engagement(io.load("example:cloudspire/engagement"), engine="z3").replayed
    True
    """
    from invasion_oracle.solver.cloudspire.engagement import best_engagement

    return best_engagement(raw_scenario(scenario, "cloudspire"), engine, deadline(time_limit))


def survive(
    scenario: Any, rounds: int | None = None, *, engine: str = "auto", time_limit: float | None = None
) -> Any:
    """The exact chance that the hero survives under optimal play, per first choice (``survive``).

    >>> import invasion_oracle as io
    >>> survive(io.load("example:cloudspire/survive"), rounds=1).probability
    Fraction(1, 1)
    """
    from invasion_oracle.solver.cloudspire.survival import survival_probability

    return survival_probability(raw_scenario(scenario, "cloudspire"), rounds, engine, deadline(time_limit))


def spires(
    scenario: Any,
    bound: int,
    rounds: int | None = None,
    *,
    engine: str = "auto",
    time_limit: float | None = None,
) -> Any:
    """The fewest spires, and where, that keep Health above ``bound`` whatever the dice (``spires``).

    >>> import invasion_oracle as io
    >>> spires(io.load("example:cloudspire/spires"), bound=2, rounds=1).status
    'proven'
    """
    from invasion_oracle.solver.cloudspire.spire_cover import fewest_spires

    return fewest_spires(raw_scenario(scenario, "cloudspire"), bound, rounds, engine, deadline(time_limit))

"""Cloudspire searches from Python: the typed answers the ``invasion cloudspire`` verbs print.

>>> import invasion_oracle as io
>>> answer = engagement(io.load("example:cloudspire/engagement"))
>>> answer.status
'proven'
"""

from __future__ import annotations

from typing import Any

from invasion_oracle import _facade
from invasion_oracle._facade import deadline, raw_scenario
from invasion_oracle.model.core import arguments

__all__ = ["engagement", "spires", "survive"]


def engagement(scenario: Any, *, engine: str = "auto", time_limit: float | None = None) -> Any:
    """The dice loading that defeats the most, and the one that loses the least Health.

    >>> import invasion_oracle as io
    >>> engagement(io.load("example:cloudspire/engagement"), engine="z3").replayed
    True
    """
    from invasion_oracle.reports.cloudspire.cli import ENGAGEMENT_ENGINES
    from invasion_oracle.solver.cloudspire.engagement import best_engagement

    raw = raw_scenario(scenario, "cloudspire")
    return best_engagement(raw, _facade.engine(engine, ENGAGEMENT_ENGINES), deadline(time_limit))


def survive(
    scenario: Any, rounds: int | None = None, *, engine: str = "auto", time_limit: float | None = None
) -> Any:
    """The exact chance that the hero survives under optimal play, per first choice (``survive``).

    >>> import invasion_oracle as io
    >>> survive(io.load("example:cloudspire/survive"), rounds=1).probability
    Fraction(1, 1)
    """
    from invasion_oracle.reports.cloudspire.cli import SURVIVAL_ENGINES
    from invasion_oracle.solver.cloudspire.survival import survival_probability

    raw, count = raw_scenario(scenario, "cloudspire"), _rounds(rounds)
    return survival_probability(raw, count, _facade.engine(engine, SURVIVAL_ENGINES), deadline(time_limit))


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
    from invasion_oracle.reports.cloudspire.cli import SPIRES_ENGINES
    from invasion_oracle.solver.cloudspire.spire_cover import fewest_spires

    raw, most = raw_scenario(scenario, "cloudspire"), arguments.whole_number(bound, "bound")  # as --bound
    chosen = _facade.engine(engine, SPIRES_ENGINES)
    return fewest_spires(raw, most, _rounds(rounds), chosen, deadline(time_limit))


def _rounds(rounds: object) -> int | None:
    """As ``--rounds``: 1 to 1000, as many as a scenario's own ``rounds`` may be; None: the scenario's."""
    return arguments.optional_whole_number(rounds, "rounds", 1, 1000)

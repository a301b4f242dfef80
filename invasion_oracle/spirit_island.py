"""Spirit Island searches from Python: the typed answers the ``invasion spirit-island`` verbs print.

>>> plan = fear_threshold("C C@1 2T T@1 2E", fear=2)
>>> plan.status.value, plan.damage
('proven', 2)
"""

from __future__ import annotations

from typing import Any

from invasion_oracle._facade import deadline, engine, raw_scenario
from invasion_oracle.model.core import arguments

__all__ = ["fear_threshold", "lands"]


def fear_threshold(land: str, fear: int, *, engine: str = "auto", time_limit: float | None = None) -> Any:
    """The least Damage that earns ``fear`` Fear in a land given in notation (``fear-threshold``).

    ``land`` is the command's ``--land`` notation (``"C C@1 2T T@1 2E"``: cities, towns, explorers,
    ``@1`` one Damage already taken). The allocation found is replayed through the oracle.

    >>> fear_threshold("T E", fear=1).damage
    2
    """
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.spirit_island.data import default_data
    from invasion_oracle.model.spirit_island.pieces import parse_land
    from invasion_oracle.solver.spirit_island.fear_threshold import least_damage_for_fear

    try:
        parsed = parse_land(arguments.text(land, "land", what="a land in notation", max_length=1000))
    except ValueError as err:
        raise MalformedInputError("land", "$", str(err)) from None
    return least_damage_for_fear(
        parsed,
        arguments.whole_number(fear, "fear", 1),  # as --fear (reports/spirit_island/cli.py)
        data=default_data(),
        method=_engine(engine),
        deadline=deadline(time_limit),
    )


def lands(scenario: Any, *, engine: str = "auto", time_limit: float | None = None) -> Any:
    """Where the Invader cards can hit, over every draw (``spirit-island lands``): the facts found.

    >>> import invasion_oracle as io
    >>> facts = lands(io.load("example:spirit-island/island_search"))
    >>> facts.status.value
    'proven'
    """
    from invasion_oracle.solver.spirit_island.island_search import question_from_scenario, search_facts

    raw = raw_scenario(scenario, "spirit-island")
    method, limit = _engine(engine), deadline(time_limit)
    return search_facts(question_from_scenario(raw), raw.data, method=method, deadline=limit)


def _engine(value: object) -> str:
    """``--engine``'s words; ``both`` (every engine, compared) is the command line's."""
    from invasion_oracle.reports.spirit_island.cli import ENGINES

    return engine(value, tuple(e for e in ENGINES if e != "both"))

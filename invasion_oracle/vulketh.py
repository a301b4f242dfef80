"""Vul'Keth searches from Python: the typed answers the ``invasion vulketh`` verbs print.

>>> import invasion_oracle as io
>>> answer = clear(io.load("example:vulketh/clear_hex"), hex=7, members=4)
>>> answer.status.value, answer.replayed
('proven', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from invasion_oracle._facade import raw_scenario

__all__ = ["clear", "race"]


def race(scenario: Any, *, engine: str = "auto", time_limit: float | None = None) -> Any:
    """The fewest Invader turns to the fifth Warlord, and the plan pushing it furthest (``vulketh race``).

    The bundled race is large (about 15 s of CPU with z3); a one-turn position is quick:

    >>> import invasion_oracle as io
    >>> doc = io.load("example:vulketh/race").raw.document
    >>> small = io.load({**doc, "player_turns": doc["player_turns"][:1]})
    >>> race(small, engine="baseline").status.value
    'proven'
    """
    from invasion_oracle.solver.vulketh.race import question_from_scenario
    from invasion_oracle.solver.vulketh.race import race as search

    return search(
        question_from_scenario(raw_scenario(scenario, "vulketh")), engine=engine, seconds=time_limit
    )


def clear(
    scenario: Any,
    hex: int,
    members: int,
    *,
    hexes: Sequence[int] | None = None,
    engine: str = "baseline",
    time_limit: float | None = None,
) -> Any:
    """The fewest tribe members (and where) that clear ``hex`` of Invaders (``vulketh clear``).

    ``engine`` is ``baseline`` (measured faster here, the command's ``auto``), ``z3`` or both's parts.

    >>> import invasion_oracle as io
    >>> clear(io.load("example:vulketh/clear_hex"), hex=7, members=4).placement is not None
    True
    """
    from invasion_oracle.solver.vulketh.clear import clear_hex, question_from_scenario

    question = question_from_scenario(raw_scenario(scenario, "vulketh"), hex, members, hexes)
    return clear_hex(question, engine=engine, seconds=time_limit)

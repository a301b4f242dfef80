"""Vul'Keth searches from Python: the typed answers the ``invasion vulketh`` verbs print.

>>> import invasion_oracle as io
>>> answer = clear(io.load("example:vulketh/clear_hex"), hex=7, members=4)
>>> answer.status.value, answer.replayed
('proven', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from invasion_oracle._facade import engine, raw_scenario
from invasion_oracle.model.core import arguments

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
    from invasion_oracle.reports.vulketh.cli import RACE_ENGINES
    from invasion_oracle.solver.vulketh.race import question_from_scenario
    from invasion_oracle.solver.vulketh.race import race as search

    raw = raw_scenario(scenario, "vulketh")
    chosen, seconds = _engine(engine, RACE_ENGINES), arguments.optional_seconds(time_limit)
    return search(question_from_scenario(raw), engine=chosen, seconds=seconds)


def _engine(value: object, words: Sequence[str]) -> str:
    """``--engine``'s words for the search; ``both`` (every engine, compared) is the command line's."""
    return engine(value, tuple(e for e in words if e != "both"))


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
    from invasion_oracle.reports.vulketh.cli import CLEAR_ENGINES
    from invasion_oracle.solver.vulketh.clear import clear_hex, question_from_scenario

    raw = raw_scenario(scenario, "vulketh")
    # as --hex, --members and --hexes (reports/vulketh/cli.py); the range 1-9 is the question's check
    target, most = arguments.whole_number(hex, "hex", 1), arguments.whole_number(members, "members")
    allowed = None
    if hexes is not None:
        allowed = arguments.sequence_of(
            hexes, "hexes", lambda v, n: arguments.whole_number(v, n, 1), what="hexes"
        )
    chosen, seconds = _engine(engine, CLEAR_ENGINES), arguments.optional_seconds(time_limit)
    return clear_hex(question_from_scenario(raw, target, most, allowed), engine=chosen, seconds=seconds)

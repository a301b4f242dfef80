"""Vul'Keth searches from Python: the typed answers the ``invasion vulketh`` verbs print.

>>> import invasion_oracle as io
>>> answer = clear(io.load("example:vulketh/clear_hex"), hex=7, members=4)
>>> answer.status.value, answer.replayed
('proven', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from invasion_oracle._facade import engine, raw_scenario
from invasion_oracle.model.core import arguments

if TYPE_CHECKING:
    from invasion_oracle.api import Scenario
    from invasion_oracle.solver.vulketh.clear import ClearAnswer
    from invasion_oracle.solver.vulketh.differ import DifferAnswer
    from invasion_oracle.solver.vulketh.race import RaceAnswer

__all__ = ["clear", "differ", "race"]


def race(scenario: Scenario, *, engine: str = "auto", time_limit: float | None = None) -> RaceAnswer:
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
    scenario: Scenario,
    hex: int,
    members: int,
    *,
    hexes: Sequence[int] | None = None,
    engine: str = "baseline",
    time_limit: float | None = None,
) -> ClearAnswer:
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


def differ(
    ruling: str,
    readings: Sequence[str] | None = None,
    *,
    direction: str | None = None,
    amount: int | None = None,
    max_size: int = 8,
    engine: str = "auto",
    time_limit: float | None = None,
) -> DifferAnswer:
    """The smallest position where MOVE or GROW acts differently under two readings of ``ruling``
    (``invasion vulketh differ --ruling-id``; the command also loops over every pair and ruling).

    ``readings`` are two of the ruling's readings (default: its first two); ``direction`` is
    ``lowest`` or ``highest`` (default: ``highest`` for VK-MOVE-HIGHEST, else ``lowest``);
    ``amount`` the Invaders the action moves or adds (default: standard strength). Rulings other
    than ``ruling`` are at their defaults. ``engine`` ``auto`` is the baseline (measured faster).

    >>> answer = differ("VK-GROW-OVERFLOW")
    >>> answer.status.value, answer.position is not None, answer.replayed
    ('proven', True, True)
    """
    from invasion_oracle.model.core.rulings import Rulings, resolve_name
    from invasion_oracle.model.vulketh.data import default_data
    from invasion_oracle.model.vulketh.game import Rules
    from invasion_oracle.reports.vulketh.cli import ENGINES
    from invasion_oracle.solver.vulketh.differ import RULINGS, make_question, smallest_difference

    known = list(RULINGS)
    name = arguments.text(ruling, "ruling", what="a ruling id")
    rid = resolve_name(name, known, "ruling", "ruling", name)
    pair: tuple[str, str] | None = None
    if readings is not None:
        given = arguments.sequence_of(
            readings, "readings", lambda v, n: arguments.text(v, n, what="a reading"), what="readings"
        )
        if len(given) != 2:
            raise arguments.refusal("readings", f"expected two readings, got {len(given)}")
        pair = (given[0], given[1])
    question = make_question(
        Rules.of(Rulings.defaults("vulketh"), default_data()),
        rid,
        pair,
        arguments.optional_choice(direction, "direction", ("lowest", "highest")),
        arguments.optional_whole_number(amount, "amount", 1),  # as --amount and --max-size
        arguments.whole_number(max_size, "max_size", 1),
    )
    chosen = _engine(engine, ENGINES)
    return smallest_difference(
        question,
        engine="baseline" if chosen == "auto" else chosen,
        seconds=arguments.optional_seconds(time_limit),
    )

"""What the per-game search modules share: checking the scenario's game, and the time limit."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from invasion_oracle.api import Scenario
from invasion_oracle.model.core import arguments
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.solver.common import Deadline


def raw_scenario(scenario: Scenario, game: str) -> Any:
    """The game's own scenario object, after checking ``scenario`` is one of ``game``'s."""
    if not isinstance(scenario, Scenario) or scenario.game != game:
        raise MalformedInputError(
            getattr(scenario, "source", "scenario"), "$.game", f"a {game} scenario is needed (io.load(...))"
        )
    return scenario.raw


def deadline(time_limit: object) -> Deadline:
    """The search's limit: ``time_limit`` seconds (checked as ``--time-limit`` is), or none."""
    seconds = arguments.optional_seconds(time_limit)
    return Deadline(seconds) if seconds is not None else Deadline()


def engine(value: object, choices: Sequence[str]) -> str:
    """``engine``, one of the words the command's ``--engine`` takes for this search (``choices``,
    from the command's own table). ``both`` is taken only where the search itself runs every engine
    and compares them; elsewhere the command line does that (``--engine both``)."""
    return arguments.choice(value, "engine", choices)


class Pictured:
    """A search's answer with its picture: every attribute is the answer's own (``.answer`` is the
    solver's value itself); ``svg()`` draws it, and notebooks show it through ``_repr_svg_``."""

    __slots__ = ("_draw", "answer")

    def __init__(self, answer: Any, draw: Callable[[], str | None]) -> None:
        self.answer = answer
        self._draw = draw

    def __getattr__(self, name: str) -> Any:
        return getattr(self.answer, name)

    def svg(self) -> str | None:
        """The picture as SVG text (``None`` when the search found nothing to draw)."""
        return self._draw()

    def _repr_svg_(self) -> str | None:
        return self._draw()

    def to_json(self) -> Any:
        return self.answer.to_json()

    def __repr__(self) -> str:
        status = getattr(getattr(self.answer, "status", None), "value", "?")
        query = getattr(self.answer, "query", type(self.answer).__name__)
        return f"<{query} answer: {status}>"

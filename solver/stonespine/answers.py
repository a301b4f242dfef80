"""What the Stonespine searches answer: typed values that print themselves as JSON.

Every search returns one of the answers below (frozen dataclasses). Each has a ``status``:

* ``proven`` - the search finished; the value is exact;
* ``best-found`` - the search stopped early (time limit, memory bound or Ctrl-C, named in
  ``stopped``) and this is the best answer found so far, with the bound it had proved
  (``upper_bound`` for a maximum, ``lower_bound`` for a minimum);
* ``unknown`` - it stopped before finding anything: no claim is made.

Placements are values too (:class:`FigurePlacement`: figure kind and chamber), never prose. The
reports render these answers; ``to_json`` gives the ``answer`` part of a command's JSON.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from invasion_oracle.model.core.codec import field_json, fields_json
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor
from invasion_oracle.solver.common import Status
from invasion_oracle.solver.stonespine.board import Board, Layout

Roll = tuple[int, int, int]

STOPPED = {"time": "time-limit", "memory": "memory-limit", "interrupted": "interrupted"}


def stop_reason(reason: str | None) -> str | None:
    """The ``stopped`` value of an answer for a :class:`~invasion_oracle.solver.common.TimeLimit` reason."""
    return None if reason is None else STOPPED.get(reason, reason)


ROUTE_END = ("fate", "chamber", "reason", "damage", "route")
"""How a hero's route ended, as both a route outcome and a wave step write it."""


def roll_json(roll: Roll) -> dict[str, int]:
    return {c.value: n for c, n in zip(COLORS, roll, strict=True)}


class FigureKind(enum.StrEnum):
    GUARDIAN = "guardian"
    MINION = "minion"


@dataclass(frozen=True, slots=True, order=True)
class Figure:
    """One figure in one chamber."""

    kind: FigureKind
    chamber: str

    def to_json(self) -> dict[str, str]:
        return fields_json(self, "kind", "chamber")

    def __str__(self) -> str:
        return f"{self.kind.value} {self.chamber}"


@dataclass(frozen=True, slots=True)
class FigurePlacement:
    """Where every guardian figure and minion stands: guardians first, then minions, by chamber.

    It prints and parses itself:

    >>> p = FigurePlacement.parse("guardian C1; minions C2x2 D4")
    >>> [str(f) for f in p.figures]
    ['guardian C1', 'minion C2', 'minion C2', 'minion D4']
    >>> str(p)
    'guardian C1; minions C2x2 D4'
    >>> FigurePlacement.parse(str(p)) == p
    True
    >>> p.to_json()["figures"][0]
    {'kind': 'guardian', 'chamber': 'C1'}
    """

    figures: tuple[Figure, ...]

    @property
    def guardians(self) -> tuple[str, ...]:
        return tuple(f.chamber for f in self.figures if f.kind is FigureKind.GUARDIAN)

    @property
    def minions(self) -> tuple[str, ...]:
        return tuple(f.chamber for f in self.figures if f.kind is FigureKind.MINION)

    @staticmethod
    def of(board: Board, layout: Layout) -> FigurePlacement:
        return FigurePlacement(
            tuple(Figure(FigureKind(kind), chamber) for kind, chamber in layout.figures(board))
        )

    def layout(self, board: Board) -> Layout:
        counts = [0] * board.size
        for chamber in self.minions:
            counts[board.index_of(chamber)] += 1
        return Layout(tuple(sorted(board.index_of(c) for c in self.guardians)), tuple(counts))

    @staticmethod
    def parse(text: str) -> FigurePlacement:
        """Read ``guardian C1; minions C2x2 D4`` (``-`` for none), as :meth:`__str__` prints it."""
        figures: list[Figure] = []
        parts = dict.fromkeys(("guardian", "minions"), "-")
        for part in text.split(";"):
            words = part.split(None, 1)
            if len(words) != 2 or words[0] not in parts:
                raise MalformedInputError("placement", text, "write it as 'guardian C1; minions C2x2 D4'")
            parts[words[0]] = words[1]
        for kind, field in ((FigureKind.GUARDIAN, parts["guardian"]), (FigureKind.MINION, parts["minions"])):
            if field.strip() == "-":
                continue
            for item in re.split(r"[\s+]+", field.strip()):
                match = re.fullmatch(r"([A-Za-z][0-9]+)(?:x([0-9]+))?", item)
                if match is None:
                    raise MalformedInputError(
                        "placement", item, "a chamber is a letter and a row, e.g. C2 or C2x3"
                    )
                figures += [Figure(kind, match.group(1).upper())] * int(match.group(2) or 1)
        return FigurePlacement(tuple(figures))

    def __str__(self) -> str:
        guardians = "+".join(self.guardians) or "-"
        counts: dict[str, int] = {}
        for chamber in self.minions:
            counts[chamber] = counts.get(chamber, 0) + 1
        minions = " ".join(c + (f"x{n}" if n > 1 else "") for c, n in counts.items()) or "-"
        return f"guardian {guardians}; minions {minions}"

    def to_json(self) -> dict[str, Any]:
        return {"figures": [f.to_json() for f in self.figures]}


# -- query 1: routes --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RouteOutcome:
    """One end a hero can be steered to, with one route there (replayed through the oracle)."""

    fate: str  # defeated / escaped
    chamber: str | None  # None: escaped at the entrance
    reason: str  # guardian / damage / exit / no-new-chamber / no-entry
    damage: int
    route: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return fields_json(self, *ROUTE_END)


@dataclass(frozen=True, slots=True)
class RoutesAnswer:
    query: ClassVar[str] = "routes"
    status: Status
    engine: str
    hero: HeroColor
    card: str
    health: int
    outcomes: tuple[RouteOutcome, ...]
    can_be_defeated: bool | None  # None: not settled before the search stopped
    escape_forced: bool | None
    open_questions: tuple[tuple[str, str], ...] = ()  # (fate, chamber) not settled when stopped
    stopped: str | None = None
    limits: tuple[str, ...] = ()  # what the compiled board does not model across several heroes

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self,
            *("status", "engine", "hero", "card", "health", "outcomes"),
            *("can_be_defeated", "escape_forced", "open_questions", "stopped"),
            open_questions=[{"fate": f, "chamber": c} for f, c in self.open_questions],
        )


# -- query 2: waves ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WaveStep:
    """One hero of a wave plan: sent in this order, along this route, to this end."""

    hero: HeroColor
    fate: str
    chamber: str | None
    reason: str
    damage: int | None  # None when the oracle engine found the plan (it reports no damage)
    route: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return fields_json(self, "hero", *ROUTE_END)


@dataclass(frozen=True, slots=True)
class WaveAnswer:
    query: ClassVar[str] = "wave"
    status: Status
    engine: str
    heroes: tuple[HeroColor, ...]
    defeated: int | None  # heroes defeated by the plan (None: unknown)
    upper_bound: int  # proved: no plan defeats more
    escaped: bool | None
    plan: tuple[WaveStep, ...]
    states: int | None = None  # oracle states explored (engine oracle)
    stopped: str | None = None
    replayed: bool = True  # the plan was replayed through the oracle (False: no time was left)

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self,
            *("status", "engine", "replayed", "heroes", "defeated", "upper_bound"),
            *("escaped", "plan", "states", "stopped"),
        )


# -- query 3: the phase policy ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FirstWaveRoll:
    """One roll of the first wave: its chance, where the optimal routing steers it, then what."""

    roll: Roll
    probability: Fraction
    defeated_in: tuple[str, ...]  # chambers holding defeated heroes after the wave
    escaped: bool
    then: str  # continue / close
    value: Fraction

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self,
            *("roll", "probability", "defeated_in", "escaped", "then", "value"),
            roll=roll_json(self.roll),
        )


@dataclass(frozen=True, slots=True)
class PolicyAnswer:
    query: ClassVar[str] = "policy"
    status: Status
    measure: str
    target: int | None
    value: Fraction | None
    close_now: Fraction | None
    states: int
    first_wave: tuple[FirstWaveRoll, ...]
    checked: bool  # the oracle played the policy over every dice outcome and got the same value
    placement: FigurePlacement | None = None
    stopped: str | None = None

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self,
            *("status", "measure", "target", "value", "close_now", "states"),
            *("first_wave", "checked", "placement", "stopped"),
        )


# -- query 4: placement ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankedPlacement:
    placement: FigurePlacement
    value: Fraction | int

    def to_json(self) -> dict[str, Any]:
        return fields_json(self, "placement", "value")


@dataclass(frozen=True, slots=True)
class PlacementAnswer:
    query: ClassVar[str] = "place"
    status: Status
    objective: str  # guaranteed / expected MEASURE [>= TARGET]
    engine: str
    best: Fraction | int | None  # the best value found (exact when proven)
    upper_bound: Fraction | int | None  # proved: no placement does better
    tied: tuple[FigurePlacement, ...]  # placements reaching ``best`` (in search order)
    ties_complete: bool  # every placement reaching ``best`` is listed
    ranking: tuple[RankedPlacement, ...]  # best first, a few (the expected objective)
    evaluated: int  # placements evaluated in full
    unreachable: tuple[str, ...]  # chambers merged into one class (figures there do nothing)
    worst_roll: Roll | None = None
    plan: tuple[WaveStep, ...] = ()  # the first tied placement's plan for its worst roll (replayed)
    replayed: bool = False
    stopped: str | None = None

    def to_json(self) -> dict[str, Any]:
        # The expected objective ranks placements by value; under the guaranteed objective
        # every best placement has the same value and is listed in ``tied``: null, not [].
        ranked = self.objective.startswith("expected")
        return fields_json(
            self,
            *("status", "objective", "engine", "best", "upper_bound", "tied", "ties_complete"),
            *("ranking", "evaluated", "unreachable", "worst_roll", "plan", "replayed", "stopped"),
            ranking=field_json(self.ranking) if ranked else None,
            worst_roll=None if self.worst_roll is None else roll_json(self.worst_roll),
        )


# -- query 5: least force -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CountAnswer:
    query: ClassVar[str] = "min-damage"
    status: Status
    what: str  # minions / KIND tokens
    count: int | None  # the fewest that work (None: none up to ``limit``, or unknown)
    lower_bound: int  # proved: every smaller count fails
    where: tuple[str, ...]  # chamber names, one per minion / token
    limit: int
    engine: str
    stopped: str | None = None

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self, *("status", "what", "count", "lower_bound", "where", "limit", "engine", "stopped")
        )


@dataclass(frozen=True, slots=True)
class HealthAnswer:
    query: ClassVar[str] = "min-damage"
    status: Status
    hero: HeroColor
    health: int | None  # the least health that always escapes; None: none up to ``limit``
    lower_bound: int  # proved: every smaller health can be defeated
    limit: int
    escape_route: tuple[str, ...]  # a route the hero takes at that health
    engine: str
    stopped: str | None = None

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self,
            *("status", "what", "hero", "health", "lower_bound", "limit", "escape_route", "engine"),
            "stopped",
            what="health",
        )


# -- query 6: escapes ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FillAnswer:
    query: ClassVar[str] = "escape"
    status: Status
    hero: HeroColor
    found: bool
    filling: tuple[tuple[str, str], ...]  # ("B2:3", element) per free space, shrunk
    shrunk_from: tuple[tuple[str, str], ...]
    iterations: int
    engine: str
    stopped: str | None = None

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self,
            *("status", "family", "hero", "found", "filling", "shrunk_from", "iterations", "engine"),
            "stopped",
            family="free-spaces",
            filling=[{"space": s, "element": e} for s, e in self.filling],
            shrunk_from=[{"space": s, "element": e} for s, e in self.shrunk_from],
        )


@dataclass(frozen=True, slots=True)
class GeneratedAnswer:
    query: ClassVar[str] = "escape"
    status: Status
    hero: HeroColor
    seed: int | None
    tried: int
    dungeon: dict[str, Any] | None  # the shrunk witness
    original: dict[str, Any] | None
    stopped: str | None = None

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self,
            *("status", "family", "hero", "seed", "tried", "dungeon", "original", "stopped"),
            family="generated",
        )

"""Stonespine searches from Python: the same typed answers the ``invasion stonespine`` verbs print.

Each function takes a loaded :class:`~invasion_oracle.Scenario` of this game and returns the
solver's answer value (``status``, the value, the plan, ``to_json()`` as in ``--format json``).
Every answer is replayed through the oracle as the command's is. ``player`` is the dungeon's
owner by index or name; ``time_limit`` (seconds) stops a search with ``best-found`` or
``unknown``, never a wrong ``proven``.

>>> import invasion_oracle as io
>>> s = io.load("example:stonespine/placement")
>>> answer = place(s)
>>> answer.status.value, answer.best, len(answer.tied)
('proven', 3, 8)
>>> wave(s, ["red", "red", "red", "red"]).defeated
3
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, overload

from invasion_oracle.api import Scenario
from invasion_oracle.model.core import arguments
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.rulings import resolve_name
from invasion_oracle.model.stonespine.heroes import HeroColor
from invasion_oracle.solver.common import Deadline
from invasion_oracle.solver.stonespine.answers import PlacementAnswer

if TYPE_CHECKING:
    from invasion_oracle.solver.stonespine.answers import (
        CountAnswer,
        FillAnswer,
        GeneratedAnswer,
        HealthAnswer,
        PolicyAnswer,
        RoutesAnswer,
        WaveAnswer,
    )
    from invasion_oracle.solver.stonespine.plan import PlanAnswer
    from invasion_oracle.solver.stonespine.policy import InvasionDP, PolicyDecider

__all__ = [
    "PicturedPlacement",
    "PolicyPlan",
    "escape",
    "escape_generated",
    "min_damage",
    "place",
    "plan",
    "policy",
    "routes",
    "wave",
]

# ``invasion stonespine escape --elements``'s default: every element a free space can take
ESCAPE_ELEMENTS = ("gnoll", "goblin", "kobold", "ooze", "slime", "bear", "blade", "fire", "pit", "spike")


@dataclass(frozen=True, slots=True, repr=False)
class PicturedPlacement(PlacementAnswer):
    """A :class:`PlacementAnswer` that also draws itself: ``svg()``, and ``_repr_svg_`` in notebooks.

    It is the solver's answer (every field, ``to_json()`` unchanged) with its picture beside it.

    >>> import invasion_oracle as io
    >>> answer = place(io.load("example:stonespine/placement"))
    >>> isinstance(answer, PlacementAnswer), answer.to_json() == answer.answer.to_json()
    (True, True)
    """

    draw: Callable[[], str | None] | None = field(default=None, compare=False)

    @classmethod
    def of(cls, answer: PlacementAnswer, draw: Callable[[], str | None]) -> PicturedPlacement:
        values = {f.name: getattr(answer, f.name) for f in fields(PlacementAnswer)}
        return cls(**values, draw=draw)

    @property
    def answer(self) -> PlacementAnswer:
        """The solver's answer alone (without the picture)."""
        return PlacementAnswer(**{f.name: getattr(self, f.name) for f in fields(PlacementAnswer)})

    def svg(self) -> str | None:
        """The picture as SVG text (``None`` when the search found nothing to draw)."""
        return self.draw() if self.draw is not None else None

    def _repr_svg_(self) -> str | None:
        return self.svg()

    def __repr__(self) -> str:
        return f"<{self.query} answer: {self.status.value}>"


def _raw(scenario: Scenario) -> Any:
    if not isinstance(scenario, Scenario) or scenario.game != "stonespine":
        raise MalformedInputError(
            getattr(scenario, "source", "scenario"),
            "$.game",
            "a Stonespine scenario is needed (io.load(...))",
        )
    return scenario.raw


def _player(scenario: Scenario, player: object) -> int:
    names = [p.name for p in _raw(scenario).initial.players]
    if isinstance(player, int) and not isinstance(player, bool):
        if not 0 <= player < len(names):
            raise MalformedInputError(
                scenario.source, "player", f"no player {arguments.shown(player)}; players: {', '.join(names)}"
            )
        return player
    if not isinstance(player, str):
        raise arguments.refusal(
            "player",
            f"expected a player's index or name, got {arguments.shown(player)}; players: {', '.join(names)}",
        )
    name = arguments.text(player, "player", what="a player's name")
    return names.index(resolve_name(name, names, "player", "player", name))


def _deadline(time_limit: object) -> Deadline:
    from invasion_oracle._facade import deadline

    return deadline(time_limit)


def _color(hero: object, where: str) -> HeroColor:
    known = [c.value for c in HeroColor]
    name = hero.value if isinstance(hero, HeroColor) else arguments.text(hero, where, what="a hero colour")
    return HeroColor(resolve_name(name, known, "hero", where, where))


def _colors(heroes: object, where: str) -> list[HeroColor]:
    colors = list(arguments.sequence_of(heroes, where, _color, what="hero colours"))
    if not colors:
        raise arguments.refusal(where, "expected at least one hero colour (black, purple, red)")
    return colors


def _engine(engine: object, verb: str) -> dict[str, str]:
    """The solver's engine for ``engine`` in the words of ``--engine`` for ``verb`` (the command's
    own table); None is the solver's default. The library runs one engine per call."""
    from invasion_oracle.reports.stonespine.cli import AUTO, ENGINES, SOLVER_NAME

    if engine is None:
        return {}
    words = ("auto", *ENGINES[verb])
    chosen = arguments.choice(
        engine, "engine", words, {"oracle": "baseline"} if "baseline" in words else None
    )
    chosen = AUTO.get(verb, "search") if chosen == "auto" else chosen
    return {"engine": SOLVER_NAME.get(chosen, chosen)}


def _measure(measure: object, name: str = "measure") -> Any:
    from invasion_oracle.reports.stonespine.cli import MEASURES
    from invasion_oracle.solver.stonespine.policy import Measure

    return Measure(arguments.choice(measure, name, MEASURES))


def place(
    scenario: Scenario,
    objective: str = "guaranteed",
    *,
    measure: str | None = None,
    target: int | None = None,
    top: int = 10,
    player: int | str = 0,
    engine: str | None = None,
    time_limit: float | None = None,
) -> PicturedPlacement:
    """Where the guardian and minions go (``invasion stonespine place``): the ``PlacementAnswer``
    with its picture (the best placement and the routes that defeat the worst roll's heroes).

    ``objective`` is ``guaranteed`` (heroes surely defeated, over every roll) or ``expected``.

    >>> import invasion_oracle as io
    >>> answer = place(io.load("example:stonespine/placement"))
    >>> answer
    <place answer: proven>
    >>> answer.best, answer.svg().startswith("<svg")    # notebooks draw it (_repr_svg_)
    (3, True)
    """
    from invasion_oracle.reports.stonespine.cli import _place_svg
    from invasion_oracle.solver.stonespine.solve import solve_placement

    raw, index = _raw(scenario), _player(scenario, player)
    answer = solve_placement(
        raw,
        objective=arguments.choice(objective, "objective", ("guaranteed", "expected")),
        measure=_measure(measure) if measure is not None else None,
        target=arguments.optional_whole_number(target, "target"),
        top=arguments.whole_number(top, "top"),
        player=index,
        deadline=_deadline(time_limit),
        **_engine(engine, "place"),
    )
    return PicturedPlacement.of(answer, lambda: _place_svg(raw, index, answer))


def wave(
    scenario: Scenario,
    heroes: Sequence[str | HeroColor],
    *,
    player: int | str = 0,
    engine: str | None = None,
    time_limit: float | None = None,
) -> WaveAnswer:
    """One wave's best order and routes (``invasion stonespine wave``): a ``WaveAnswer``.

    >>> import invasion_oracle as io
    >>> answer = wave(io.load("example:stonespine/placement"), ["red", "red", "red", "red"])
    >>> answer.status.value, answer.defeated, answer.replayed
    ('proven', 3, True)
    """
    from invasion_oracle.solver.stonespine.waves import solve_wave

    answer: WaveAnswer = solve_wave(
        _raw(scenario),
        _colors(heroes, "heroes"),
        player=_player(scenario, player),
        deadline=_deadline(time_limit),
        **_engine(engine, "wave"),
    )
    return answer


def routes(
    scenario: Scenario,
    hero: str | HeroColor,
    *,
    player: int | str = 0,
    engine: str | None = None,
    time_limit: float | None = None,
) -> RoutesAnswer:
    """Every end one hero can be steered to, each with a route (``invasion stonespine routes``).

    >>> import invasion_oracle as io
    >>> answer = routes(io.load("example:stonespine/rulings/SS-HYDRA-COLLAPSE"), "red")
    >>> answer.status.value, answer.can_be_defeated
    ('proven', True)
    """
    from invasion_oracle.solver.stonespine.routes import solve_routes

    answer: RoutesAnswer = solve_routes(
        _raw(scenario),
        _color(hero, "hero"),
        player=_player(scenario, player),
        deadline=_deadline(time_limit),
        **_engine(engine, "routes"),
    )
    return answer


@overload
def min_damage(
    scenario: Scenario,
    heroes: Sequence[str | HeroColor],
    *,
    what: Literal["minions", "tokens"] = "minions",
    token: str = "kobold",
    limit: int = 8,
    player: int | str = 0,
    engine: str | None = None,
    time_limit: float | None = None,
) -> CountAnswer: ...


@overload
def min_damage(
    scenario: Scenario,
    heroes: Sequence[str | HeroColor],
    *,
    what: Literal["health"],
    token: str = "kobold",
    limit: int = 8,
    player: int | str = 0,
    engine: str | None = None,
    time_limit: float | None = None,
) -> HealthAnswer: ...


@overload
def min_damage(
    scenario: Scenario,
    heroes: Sequence[str | HeroColor],
    *,
    what: str,
    token: str = "kobold",
    limit: int = 8,
    player: int | str = 0,
    engine: str | None = None,
    time_limit: float | None = None,
) -> CountAnswer | HealthAnswer: ...


def min_damage(
    scenario: Scenario,
    heroes: Sequence[str | HeroColor],
    *,
    what: str = "minions",
    token: str = "kobold",
    limit: int = 8,
    player: int | str = 0,
    engine: str | None = None,
    time_limit: float | None = None,
) -> CountAnswer | HealthAnswer:
    """The least force that defeats a wave (``invasion stonespine min-damage``).

    ``what`` is ``minions`` (fewest minions), ``tokens`` (fewest ``token`` elements added) or
    ``health`` (the least health with which the first hero escapes every route): a ``CountAnswer``,
    or for ``health`` a ``HealthAnswer`` (the type checker knows which from a literal ``what``).

    >>> import invasion_oracle as io
    >>> answer = min_damage(io.load("example:stonespine/placement"), ["red"] * 4)
    >>> answer.status.value, answer.count      # 4 minions are needed, 3 are proven too few
    ('proven', 4)
    """
    from invasion_oracle.solver.stonespine.min_damage import (
        fewest_minions,
        fewest_tokens,
        least_escaping_health,
    )

    raw, index, colors = _raw(scenario), _player(scenario, player), _colors(heroes, "heroes")
    what = arguments.choice(what, "what", ("minions", "tokens", "health"))
    token = arguments.text(token, "token", what="an element's name")
    limit = arguments.whole_number(limit, "limit")
    common: dict[str, Any] = {
        "player": index,
        "deadline": _deadline(time_limit),
        **_engine(engine, "min-damage"),
    }
    if what == "minions":
        return fewest_minions(raw, colors, limit=limit, **common)
    if what == "tokens":
        return fewest_tokens(raw, colors, token, limit=limit, **common)
    return least_escaping_health(raw, colors[0], **common)


@dataclass(frozen=True, slots=True)
class PolicyPlan:
    """The optimal continue-or-close policy: its ``answer`` and a decider that plays it.

    >>> import invasion_oracle as io
    >>> s = io.load("example:stonespine/placement")
    >>> plan = policy(s, "no-escape")
    >>> plan.answer.status.value, 0 <= plan.answer.value <= 1
    ('proven', True)
    >>> s.play(decider=plan.decider()).outcome()["stage"]
    'done'
    """

    answer: PolicyAnswer
    dp: InvasionDP | None
    player: str

    def decider(self) -> PolicyDecider:
        """A decider for :meth:`Scenario.play` that routes heroes and works the gate optimally."""
        from invasion_oracle.solver.stonespine.policy import PolicyDecider

        if self.dp is None:
            raise MalformedInputError(
                "policy", "$", f"the search stopped ({self.answer.status.value}): no policy to play"
            )
        return PolicyDecider(self.dp, self.player)


def policy(
    scenario: Scenario,
    measure: str = "trophy",
    target: int | None = None,
    *,
    player: int | str = 0,
    check: bool = True,
    time_limit: float | None = None,
) -> PolicyPlan:
    """Continue or close the gate after each wave (``invasion stonespine policy``).

    >>> import invasion_oracle as io
    >>> s = io.load("example:stonespine/placement")
    >>> plan = policy(s, "trophy", 4)
    >>> plan.answer.value
    Fraction(65, 81)
    >>> played = s.play(decider=plan.decider())
    """
    from invasion_oracle.solver.stonespine.policy import solve_policy

    index = _player(scenario, player)
    dp, answer = solve_policy(  # (answer: the PolicyAnswer the solver annotates loosely)
        _raw(scenario),
        _measure(measure),
        arguments.optional_whole_number(target, "target"),
        check=arguments.flag(check, "check"),
        player=index,
        deadline=_deadline(time_limit),
    )
    return PolicyPlan(answer, dp, scenario.raw.initial.players[index].name)


def escape(
    scenario: Scenario,
    hero: str | HeroColor,
    elements: Sequence[str] = ESCAPE_ELEMENTS,
    *,
    player: int | str = 0,
    engine: str | None = None,
    time_limit: float | None = None,
) -> FillAnswer:
    """A filling of the dungeon's free spaces with which ``hero`` escapes under every route
    (``invasion stonespine escape``, ``--family free-spaces``): a ``FillAnswer``.

    ``elements`` are what a free space may take (``"empty"`` allows none), the first preferred
    when the witness is shrunk.

    >>> import invasion_oracle as io
    >>> answer = escape(io.load("example:stonespine/placement"), "red", ["kobold"])
    >>> answer.status.value, answer.found
    ('proven', False)
    """
    from invasion_oracle.solver.stonespine.escape_search import fill_free_spaces

    raw, index, color = _raw(scenario), _player(scenario, player), _color(hero, "hero")
    names = arguments.sequence_of(
        elements, "elements", lambda v, n: arguments.text(v, n, what="an element's name"), what="elements"
    )
    return fill_free_spaces(
        raw,
        color,
        list(names),
        player=index,
        deadline=_deadline(time_limit),
        **_engine(engine, "escape"),
    )


def escape_generated(
    scenario: Scenario,
    hero: str | HeroColor,
    *,
    rows: int = 4,
    columns: int = 4,
    seeds: int = 200,
    time_limit: float | None = None,
) -> GeneratedAnswer:
    """The first generated ``rows`` x ``columns`` dungeon (by seed, up to ``seeds``) where ``hero``
    escapes under every route, shrunk (``invasion stonespine escape --family generated``).

    ``scenario`` gives everything but the dungeon (players, heroes, year).

    >>> import invasion_oracle as io
    >>> answer = escape_generated(io.load("example:stonespine/placement"), "red")
    >>> answer.status.value, answer.seed, answer.dungeon["rows"]    # seed 1 of 2 tried, shrunk
    ('proven', 1, [['stone T', 'stone -', 'stone -']])
    """
    from invasion_oracle.solver.stonespine.escape_search import search_generated

    _raw(scenario)
    color = _color(hero, "hero")
    return search_generated(
        scenario.raw.document,
        color,
        rows=arguments.whole_number(rows, "rows", 1, 50),  # as --rows and --columns
        columns=arguments.whole_number(columns, "columns", 1, 26),
        seeds=arguments.whole_number(seeds, "seeds"),
        deadline=_deadline(time_limit),
        source=scenario.source,
    )


def plan(
    scenario: Scenario,
    measure: str = "score",
    target: int | None = None,
    *,
    player: int | str = 0,
    time_limit: float | None = None,
) -> PlanAnswer:
    """The year's purchases, placement and gate policy chosen together (``invasion stonespine plan``):
    a ``PlanAnswer`` with the best plan by expected and by guaranteed value, replayed.

    ``measure`` is ``score`` (this year's trophy value if taken minus its demerit on an escape),
    ``trophy``, ``defeated`` or ``demerit``, as ``--measure``.

    >>> import invasion_oracle as io
    >>> answer = plan(io.load("example:stonespine/plan-year3"))
    >>> answer.status.value, answer.replayed, answer.best_expected is not None
    ('proven', True, True)
    """
    from invasion_oracle.solver.stonespine.plan import PlanMeasure, solve_plan

    raw, index = _raw(scenario), _player(scenario, player)
    chosen = PlanMeasure(arguments.choice(measure, "measure", tuple(m.value for m in PlanMeasure)))
    answer, _best = solve_plan(
        raw, chosen, arguments.optional_whole_number(target, "target"), index, _deadline(time_limit)
    )
    return answer

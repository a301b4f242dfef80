"""Spirit Island searches from Python: the typed answers the ``invasion spirit-island`` verbs print.

>>> plan = fear_threshold("C C@1 2T T@1 2E", fear=2)
>>> plan.status.value, plan.damage
('proven', 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from invasion_oracle._facade import deadline, engine, raw_scenario
from invasion_oracle.model.core import arguments

if TYPE_CHECKING:
    from invasion_oracle.api import Scenario
    from invasion_oracle.model.spirit_island.pieces import Land
    from invasion_oracle.solver.spirit_island.cascade import CardCascades, CascadeAnswer
    from invasion_oracle.solver.spirit_island.defend import DefendPlan
    from invasion_oracle.solver.spirit_island.fear_threshold import FearPlan, FightBackPlan
    from invasion_oracle.solver.spirit_island.island_search import Facts, Flip

__all__ = ["card_cascades", "cascade", "defend", "fear_threshold", "fight_back", "flip", "lands"]


def fear_threshold(
    land: str, fear: int, *, engine: str = "auto", time_limit: float | None = None
) -> FearPlan:
    """The least Damage that earns ``fear`` Fear in a land given in notation (``fear-threshold``).

    ``land`` is the command's ``--land`` notation (``"C C@1 2T T@1 2E"``: cities, towns, explorers,
    ``@1`` one Damage already taken). The allocation found is replayed through the oracle.

    >>> fear_threshold("T E", fear=1).damage
    2
    """
    from invasion_oracle.model.spirit_island.data import default_data
    from invasion_oracle.solver.spirit_island.fear_threshold import least_damage_for_fear

    return least_damage_for_fear(
        _land(land),
        arguments.whole_number(fear, "fear", 1),  # as --fear (reports/spirit_island/cli.py)
        data=default_data(),
        method=_engine(engine),
        deadline=deadline(time_limit),
    )


def lands(scenario: Scenario, *, engine: str = "auto", time_limit: float | None = None) -> Facts:
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


def _land(land: object) -> Land:
    """A land in the command's ``--land`` notation, checked as the command checks it."""
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.spirit_island.data import default_data
    from invasion_oracle.model.spirit_island.pieces import check_land, parse_land

    try:
        parsed = parse_land(arguments.text(land, "land", what="a land in notation", max_length=1000))
    except ValueError as err:
        raise MalformedInputError("land", "$", str(err)) from None
    problem = check_land(parsed, default_data().stats)
    if problem:
        raise MalformedInputError("land", "$", problem)
    return parsed


def fight_back(
    land: str,
    dahan: int,
    objective: str = "fear",
    *,
    engine: str = "auto",
    time_limit: float | None = None,
) -> FightBackPlan:
    """Where ``dahan`` surviving Dahan deal their Damage for the most Fear (or, ``objective=
    "destroyed"``, the most Invaders destroyed) in a land given in notation (``fight-back``).

    >>> plan = fight_back("C T E", dahan=1)
    >>> plan.status.value, plan.replayed
    ('proven', True)
    """
    from invasion_oracle.model.spirit_island.data import default_data
    from invasion_oracle.reports.spirit_island.cli import OBJECTIVES
    from invasion_oracle.solver.spirit_island.fear_threshold import best_fight_back

    return best_fight_back(
        _land(land),
        arguments.whole_number(dahan, "dahan"),  # as --dahan
        arguments.choice(objective, "objective", OBJECTIVES),
        data=default_data(),
        method=_engine(engine),
        deadline=deadline(time_limit),
    )


def defend(
    land: str, goal: str = "no-blight", *, engine: str = "auto", time_limit: float | None = None
) -> DefendPlan:
    """The least Defend with which a Ravage of a land in notation adds no Blight (``goal=
    "no-blight"``) or destroys no Dahan (``"dahan-safe"``) (``invasion spirit-island defend``).

    >>> plan = defend("T E 2D", "no-blight")    # the Town and Explorer deal 3 Damage; 2 Defend leave 1
    >>> plan.status.value, plan.defend
    ('proven', 2)
    """
    from invasion_oracle.model.spirit_island.data import default_data
    from invasion_oracle.reports.spirit_island.cli import GOALS
    from invasion_oracle.solver.spirit_island.defend import least_defend

    return least_defend(
        _land(land),
        arguments.choice(goal, "goal", GOALS),  # the command's "both" is a call per goal
        data=default_data(),
        method=_engine(engine),
        deadline=deadline(time_limit),
    )


def cascade(
    scenario: Scenario, land: str, *, engine: str = "auto", time_limit: float | None = None
) -> CascadeAnswer:
    """The Blight cascade paths from a scenario's ``land`` (which has Blight) and the least harmful
    one (``invasion spirit-island cascade --land``).

    >>> import invasion_oracle as io
    >>> s = io.load("example:spirit-island/invader_phase")
    >>> answer = cascade(s, "A1")
    >>> answer.status.value, answer.presence >= 0
    ('proven', True)
    """
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.solver.spirit_island.cascade import best_cascade

    raw = raw_scenario(scenario, "spirit-island")
    name = arguments.text(land, "land", what="a land's name").upper()
    if not raw.island.has_land(name):
        raise MalformedInputError("land", "$", f"no land {land} on the scenario's island")
    if raw.initial.lands[raw.island.index(name)].blight == 0:
        raise MalformedInputError("land", "$", f"{name} has no Blight: Blight added there does not cascade")
    method, limit = _engine(engine), deadline(time_limit)
    return best_cascade(raw.island, raw.initial.lands, name, data=raw.data, method=method, deadline=limit)


def card_cascades(
    scenario: Scenario, card: str, *, engine: str = "auto", time_limit: float | None = None
) -> CardCascades:
    """Which lands a Ravage ``card`` ravages cascade Blight always, possibly or never
    (``invasion spirit-island cascade --card``).

    >>> import invasion_oracle as io
    >>> answer = card_cascades(io.load("example:spirit-island/invader_phase"), "1M")
    >>> answer.status.value
    'proven'
    """
    from invasion_oracle.solver.spirit_island.cascade import card_cascades as search

    raw = raw_scenario(scenario, "spirit-island")
    name = arguments.text(card, "card", what="an Invader card's id")
    found = raw.data.invader_card(name, source="card", path="$")
    method, limit = _engine(engine), deadline(time_limit)
    return search(raw.island, raw.initial.lands, found, data=raw.data, method=method, deadline=limit)


def flip(
    scenario: Scenario,
    fact: str,
    *,
    max_cost: int = 3,
    engine: str = "auto",
    time_limit: float | None = None,
) -> Flip:
    """The smallest starting change (pieces added or removed, up to ``max_cost``) that flips where
    the Invaders act: ``fact`` is ``TURN:ACTION:LAND`` as ``--fact`` (``invasion spirit-island flip``).

    >>> import invasion_oracle as io
    >>> answer = flip(io.load("example:spirit-island/island_search"), "1:explore:A4")
    >>> answer.status.value, answer.cost is not None
    ('proven', True)
    """
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.spirit_island.effects import ACTIONS
    from invasion_oracle.solver.spirit_island.island_search import question_from_scenario, smallest_flip

    raw = raw_scenario(scenario, "spirit-island")
    question = question_from_scenario(raw)
    text = arguments.text(fact, "fact", what="TURN:ACTION:LAND")
    turn_text, _, rest = text.partition(":")
    action, _, land = rest.partition(":")
    if not turn_text.isdigit() or action not in ACTIONS or not raw.island.has_land(land.upper()):
        raise MalformedInputError(
            "fact", text, "use TURN:ACTION:LAND with action ravage/build/explore, e.g. 2:ravage:A5"
        )
    turn = int(turn_text) - 1
    if not 0 <= turn < question.turns:
        raise MalformedInputError("fact", text, f"turn must be 1-{question.turns}")
    return smallest_flip(
        question,
        (turn, action, raw.island.index(land.upper())),
        data=raw.data,
        method=_engine(engine),
        max_cost=arguments.whole_number(max_cost, "max_cost"),  # as --max-cost
        deadline=deadline(time_limit),
    )

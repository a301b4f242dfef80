"""The game contract: what a game gives the oracle, so everything generic is written once.

A game is a :class:`GameSpec`: its name, where its rules come from, how a scenario document
becomes a :class:`Scenario` (rules in force, initial state, answerers), what a finished run's
outcome is, and how a state is drawn. Simulate, replay, traces, fixtures, ambiguity witnesses,
schemas and the command line's generic verbs read nothing else. The registry of games is
:mod:`invasion_oracle.model.registry`; ``docs/adding-a-game.md`` walks through writing a spec.

A tiny game shows the whole contract (a counter that a player raises by one or two until it
reaches three):

>>> from dataclasses import dataclass, replace
>>> from invasion_oracle.model.core.answers import Answers
>>> from invasion_oracle.model.core.decisions import DecisionRequest
>>> from invasion_oracle.model.core.events import Event
>>> from invasion_oracle.model.core.rulings import Rulings
>>> @dataclass(frozen=True)
... class Count:
...     value: int = 0
>>> class CountGame:
...     def start(self, state): return state, ()
...     def pending(self, state):
...         return None if state.value >= 3 else DecisionRequest("add", "Ann", (1, 2))
...     def step(self, state, answer):
...         return replace(state, value=state.value + answer), (Event.make("added", n=answer),)
>>> @dataclass(frozen=True)
... class CountScenario(ScenarioBase[Count]):
...     def game(self): return CountGame()
>>> def load(document, source, options):
...     return CountScenario(source, document, Rulings.defaults("count"), None, Count(),
...                          Answers.from_json(document.get("decisions"), "first-legal"),
...                          Answers.from_json(None, "first-legal"))
>>> spec = GameSpec("count", "Counting", "none", load, lambda sc, s: {"value": s.value},
...                 lambda sc, s: f"value {s.value}")
>>> scenario = spec.load({"game": "count", "decisions": {"script": [2]}}, "doc", ScenarioOptions())
>>> from invasion_oracle.model.core.play import run
>>> playthrough = run(scenario)
>>> spec.outcome(scenario, playthrough.final), len(playthrough.steps)
({'value': 3}, 2)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

if TYPE_CHECKING:  # types only: a spec read for its name and title loads no game machinery
    from invasion_oracle.model.core.answers import Answers
    from invasion_oracle.model.core.decisions import ChanceSource, Decider
    from invasion_oracle.model.core.driver import Game
    from invasion_oracle.model.core.rulings import Rulings

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)


@dataclass(frozen=True, slots=True)
class ScenarioOptions:
    """What the command line adds to a scenario file: ruling overrides and a data file.

    ``ruling_specs`` are ``ID=READING`` strings and win over the file's own ``rulings``;
    ``data_overrides`` win over the file's ``data`` key by key; ``data_source`` names the data
    file in error messages.
    """

    ruling_specs: tuple[str, ...] = ()
    data_overrides: Mapping[str, Any] | None = None
    data_source: str = "data"


@dataclass(frozen=True, slots=True)
class ScenarioInput:
    """A checked scenario document on its way in: where it came from, the rulings in force (the
    file's, then the command line's) and the command line's data (see :class:`ScenarioOptions`).
    A game's reader turns it into its scenario (:class:`ScenarioBase.of` fills the shared fields)."""

    document: dict[str, Any]
    source: str
    rulings: Rulings
    data_overrides: Mapping[str, Any] | None = None
    data_source: str = "data"


class Scenario(Protocol[S_co]):
    """A loaded scenario: the rules in force, the initial state and who answers its requests."""

    @property
    def source(self) -> str: ...

    @property
    def document(self) -> dict[str, Any]: ...

    @property
    def rulings(self) -> Rulings: ...

    @property
    def data(self) -> Any: ...

    @property
    def initial(self) -> S_co: ...

    def game(self) -> Game[Any]:
        """The pure game (start / pending / step) under this scenario's rules."""
        ...

    def decider(self) -> Decider:
        """Answers decisions as the scenario's ``decisions`` object says."""
        ...

    def chance_source(self) -> ChanceSource:
        """Answers rolls and draws as the scenario's chance object says."""
        ...


@dataclass(frozen=True)
class ScenarioBase(Generic[S]):
    """The fields every game's scenario has; a game subclasses it and adds ``game()``.

    ``decisions`` and ``chance`` are the scenario's answer scripts (:class:`Answers`).
    """

    source: str
    document: dict[str, Any]
    rulings: Rulings
    data: Any
    initial: S
    decisions: Answers
    chance: Answers

    chance_key: ClassVar[str] = "chance"
    """The scenario field holding the chance script (named in error messages)."""

    @classmethod
    def of(cls, given: ScenarioInput, data: Any, initial: S, **extra: Any) -> Self:
        """The scenario of ``given``: its data, initial state and the game's own fields
        (``extra``); the answer scripts are the document's ``decisions`` and chance objects."""
        from invasion_oracle.model.core.answers import Answers

        document = given.document
        return cls(
            source=given.source,
            document=document,
            rulings=given.rulings,
            data=data,
            initial=initial,
            decisions=Answers.from_json(document.get("decisions"), "first-legal"),
            chance=Answers.from_json(document.get(cls.chance_key), "random"),
            **extra,
        )

    def game(self) -> Game[S]:  # pragma: no cover - every game overrides it
        raise NotImplementedError

    def decider(self) -> Decider:
        return self.decisions.decider("decisions", (self.source, "$.decisions"))

    def chance_source(self) -> ChanceSource:
        return self.chance.chance(self.chance_key, (self.source, f"$.{self.chance_key}"))


@dataclass(frozen=True, slots=True)
class Deferred:
    """The function ``name`` of module ``module``, imported at its first call.

    A game's spec names its loader, outcome and pictures this way, so that reading a spec (its
    name, title, rulebook: ``invasion games``, the command line's help, an adapter's hello)
    imports none of the game's model.

    >>> import json
    >>> dumps = Deferred("json", "dumps")
    >>> dumps([1, 2])
    '[1, 2]'
    >>> dumps.target() is json.dumps
    True
    """

    module: str
    name: str

    def target(self) -> Callable[..., Any]:
        """The function itself (its module imported now if it was not yet)."""
        # sys.modules first: after the first call, a dictionary look-up rather than an import
        module = sys.modules.get(self.module) or importlib.import_module(self.module)
        found: Callable[..., Any] = getattr(module, self.name)
        return found

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.target()(*args, **kwargs)


Loader = Callable[[Any, str, ScenarioOptions], Any]
"""``load(document, source, options) -> Scenario``: check a parsed document, build the scenario."""


def _no_svg(scenario: Any, state: Any) -> str | None:
    return None


def _no_data(rulings: Rulings, overrides: Mapping[str, Any] | None, source: str) -> Any:
    return None


@dataclass(frozen=True)
class GameSpec:
    """Everything generic code needs to know about one game.

    * ``name`` - the ``game`` field of its scenarios and traces, and its command-line name;
    * ``title`` and ``seed`` - what it is and the seed file its rules come from;
    * ``load`` - :data:`Loader`;
    * ``outcome(scenario, final_state)`` - plain JSON data compared at the end of a fixture;
    * ``render_text(scenario, state)`` and ``render_svg(scenario, state)`` - pictures;
    * ``build_data(rulings, overrides, source)`` - the game's data (cards, values with
      provenance) as an object with ``to_json()``, for ``invasion GAME data``;
    * ``package`` - the model package holding ``scenario.schema.json`` and
      ``data.schema.json`` as package data (empty: the game publishes no schema);
    * ``examples`` - the folder of bundled scenarios in the ``examples`` package (witness
      scenarios of rulings in its ``rulings/`` subfolder; empty: none);
    * ``rulebook`` and ``edition`` - the rulebook the rules are read from, as ``invasion games``
      shows it (the seed file name is the project's own, which a user does not have);
    """

    name: str
    title: str
    seed: str
    load: Loader
    outcome: Callable[[Any, Any], dict[str, Any]]
    render_text: Callable[[Any, Any], str]
    render_svg: Callable[[Any, Any], str | None] = _no_svg
    build_data: Callable[[Rulings, Mapping[str, Any] | None, str], Any] = _no_data
    package: str = ""
    examples: str = ""
    rulebook: str = ""  # the rulebook's own title, as a user holding it knows it
    edition: str = "not stated in the rulebook text"

    @property
    def schemas(self) -> dict[str, tuple[str, str]]:
        """Published schema names (``stonespine-scenario``) and their package resources."""
        if not self.package:
            return {}
        return {
            f"{self.name}-scenario": (self.package, "scenario.schema.json"),
            f"{self.name}-data": (self.package, "data.schema.json"),
        }

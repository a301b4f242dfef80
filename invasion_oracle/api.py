"""Playing a game from Python: load a scenario, play it whole or one decision at a time, trace it.

The oracle never decides and never rolls on its own: a :class:`Scenario` plays with the answerers
its file names (a decision script, seeded dice), or with the ones you pass. Everything here is a
thin, typed front over the game contract in ``model/core`` (``start`` / ``pending`` / ``step`` /
``outcome``), the same one the command line and the fixtures use.

>>> import invasion_oracle as io
>>> s = io.load("example:stonespine/default")
>>> s
<Scenario stonespine 'example:stonespine/default'>
>>> p = s.play()
>>> sorted(p.outcome())
['heroes', 'players', 'stage', 'year']
>>> io.replay(p.trace()).identical
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, cast

from invasion_oracle.model import registry
from invasion_oracle.model.core import arguments
from invasion_oracle.model.core import play as core_play
from invasion_oracle.model.core.decisions import (
    ChanceRequest,
    ChanceSource,
    Decider,
    DecisionRequest,
    Option,
    Request,
    normalise_answer,
)
from invasion_oracle.model.core.driver import Playthrough as CorePlaythrough
from invasion_oracle.model.core.driver import Step, play
from invasion_oracle.model.core.errors import IllegalDecisionError, MalformedInputError
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.jsonio import integers_only, read_json_file
from invasion_oracle.model.core.spec import GameSpec, ScenarioOptions
from invasion_oracle.model.core.trace import ReplayReport

__all__ = [
    "First",
    "Game",
    "Outcome",
    "Playthrough",
    "Policy",
    "Scenario",
    "Scripted",
    "SeededRandom",
    "load",
    "replay",
    "under_data",
]


# -- answerers: each one answers decisions and chance requests alike ---------------------------


@dataclass(slots=True)
class First:
    """The first legal option of every decision, and the first outcome of every roll or draw.

    >>> First().decide(DecisionRequest("gate", "Ann", ("continue", "close")))
    'continue'
    """

    def decide(self, request: DecisionRequest) -> Option:
        return _decision(request).options[0]

    def outcome(self, request: ChanceRequest) -> Option:
        return _chance(request).outcomes[0]


@dataclass(slots=True)
class SeededRandom:
    """Uniformly random legal answers from a seeded generator: same seed, same answers.

    >>> a, b = SeededRandom(7), SeededRandom(7)
    >>> r = DecisionRequest("move", "Ann", ("A1", "A2", "B1"))
    >>> [a.decide(r) for _ in range(4)] == [b.decide(r) for _ in range(4)]
    True
    """

    seed: int
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # an int only: random.Random(None) would seed from the clock, and same seed must mean same answers
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise arguments.refusal(
                "seed", f"expected a whole number (an int), got {arguments.shown(self.seed)}"
            )
        if arguments.too_many_digits(self.seed):
            raise arguments.refusal("seed", f"an integer with more than {arguments.digits_limit()} digits")
        self._rng = random.Random(self.seed)

    def decide(self, request: DecisionRequest) -> Option:
        options = _decision(request).options
        return options[self._rng.randrange(len(options))]

    def outcome(self, request: ChanceRequest) -> Option:
        outcomes = _chance(request).outcomes
        return outcomes[self._rng.randrange(len(outcomes))]


@dataclass(slots=True)
class Scripted:
    """Answers from a list, in order; then ``then`` answers (or a script that runs out is an error).

    >>> s = Scripted(["B1"], then=First())
    >>> r = DecisionRequest("move", "Ann", ("A2", "B1"))
    >>> s.decide(r), s.decide(r)
    ('B1', 'A2')
    >>> Scripted(["C9"]).decide(r)
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.IllegalDecisionError: script answer #1: 'C9' is not one of the legal options: 'A2', 'B1'
    """

    answers: Sequence[Option]
    then: Decider | ChanceSource | None = None
    used: int = 0

    def __post_init__(self) -> None:
        arguments.one_of_types(self.answers, "answers", (list, tuple), "a list of answers")
        if self.then is not None and not any(
            callable(getattr(self.then, method, None)) for method in ("decide", "outcome")
        ):
            arguments.answerer(self.then, "then", "decide")
        arguments.whole_number(self.used, "used")

    def _next(self, request: Request, legal: tuple[Option, ...]) -> Option:
        if self.used < len(self.answers):
            answer = self.answers[self.used]
            self.used += 1
            try:
                return normalise_answer(request, answer)
            except IllegalDecisionError:
                raise IllegalDecisionError(
                    f"script answer #{self.used}: {arguments.shown(answer, None)} is not one of the legal options: "
                    + ", ".join(map(repr, legal))
                ) from None
        if isinstance(request, DecisionRequest) and hasattr(self.then, "decide"):
            return self.then.decide(request)  # type: ignore[union-attr]
        if isinstance(request, ChanceRequest) and hasattr(self.then, "outcome"):
            return self.then.outcome(request)  # type: ignore[union-attr]
        raise IllegalDecisionError(
            f"the script ran out after {len(self.answers)} answers at {request.describe()}; "
            f"add an answer (legal: {', '.join(map(repr, legal))}) or pass then=First()"
        )

    def decide(self, request: DecisionRequest) -> Option:
        return self._next(request, _decision(request).options)

    def outcome(self, request: ChanceRequest) -> Option:
        return self._next(request, _chance(request).outcomes)


@dataclass(slots=True)
class Policy:
    """A function from a decision request to an option, such as a solver's policy.

    >>> Policy(lambda r: r.options[-1]).decide(DecisionRequest("gate", "Ann", ("continue", "close")))
    'close'
    """

    choose: Callable[[DecisionRequest], Option]

    def __post_init__(self) -> None:
        arguments.callable_value(self.choose, "choose", "a function from a DecisionRequest to an option")

    def decide(self, request: DecisionRequest) -> Option:
        return self.choose(_decision(request))


def _decision(request: object) -> DecisionRequest:
    if not isinstance(request, DecisionRequest):
        raise arguments.refusal("request", f"expected a DecisionRequest, got {arguments.shown(request)}")
    return request


def _chance(request: object) -> ChanceRequest:
    if not isinstance(request, ChanceRequest):
        raise arguments.refusal("request", f"expected a ChanceRequest, got {arguments.shown(request)}")
    return request


def _answerers(decider: object, chance: object) -> None:
    arguments.answerer(decider, "decider", "decide")
    arguments.answerer(chance, "chance", "outcome")


# -- scenarios, games and playthroughs -----------------------------------------------------------


class Outcome(TypedDict, total=False):
    """A game's outcome: the plain JSON dict fixtures compare (``invasion schema trace``'s
    ``outcome``), typed so a type checker knows its keys. Which keys are present depends on the
    game (every key is optional to the checker); a misspelled key is a type error.

    >>> o = load("example:stonespine/default").play().outcome()
    >>> o["stage"], o["year"], isinstance(o, dict)
    ('done', 3, True)
    """

    # every game but Stonespine
    result: dict[str, Any]
    # Stonespine
    year: int
    stage: str
    players: list[dict[str, Any]]
    heroes: list[dict[str, Any]]
    jael: dict[str, Any]
    final_scores: list[dict[str, Any]]
    # Spirit Island
    turn: int
    lands: dict[str, Any]
    fear: dict[str, Any]
    blight: dict[str, Any]
    invader_board: dict[str, Any]
    # Vul'Keth and Cloudspire
    round: int
    discard: list[Any]
    # Vul'Keth
    invader_turns: int
    hexes: dict[str, Any]
    player: dict[str, Any]
    invaders: dict[str, Any]
    action_board: dict[str, Any]
    decks: dict[str, Any]
    last_card: str | None
    invader_events: dict[str, Any]
    # Cloudspire
    hero: dict[str, Any]
    totals: dict[str, Any]
    defeated: list[Any]
    lanes: dict[str, Any]
    damage_on_top: dict[str, Any]
    spires: dict[str, Any]
    inventory: list[Any]
    deployment: dict[str, Any]
    market: dict[str, Any]
    boss: dict[str, Any]
    dice: dict[str, Any]


def _ruling_specs(rulings: object) -> tuple[str, ...]:
    """``rulings`` as ``ID=READING`` texts, each checked as text (the readings are resolved later)."""
    if rulings is None:
        return ()
    if isinstance(rulings, Mapping):
        return tuple(
            f"{arguments.text(k, 'rulings', what='a ruling id')}={arguments.text(v, f'rulings[{k!r}]', what='a reading')}"
            for k, v in rulings.items()
        )
    if isinstance(rulings, str):
        return (arguments.text(rulings, "rulings", what="ID=READING"),)
    if not isinstance(rulings, list | tuple):
        raise arguments.refusal(
            "rulings",
            f"expected a dict of ruling id to reading, or a list of ID=READING, got {arguments.shown(rulings)}",
        )
    return arguments.sequence_of(rulings, "rulings", lambda v, n: arguments.text(v, n, what="ID=READING"))


def _document(value: Mapping[str, Any], source: str) -> dict[str, Any]:
    """A document given as a mapping, with exactly the checks a file gets as it is read."""
    document = dict(value)
    integers_only(document, source)
    return document


def _path(value: object, name: str, what: str) -> str | Path:
    if not isinstance(value, str | Path):
        raise arguments.refusal(name, f"expected {what}, got {arguments.shown(value)}")
    return value


def load(
    path_or_example: str | Path | Mapping[str, Any],
    rulings: Mapping[str, str] | Sequence[str] | None = None,
    data: Mapping[str, Any] | str | Path | None = None,
) -> Scenario:
    """Load a scenario of any game: a path, ``example:GAME/NAME``, or a parsed document.

    ``rulings`` overrides the file's readings (``{"SS-EXIT-Y13": "ignored"}`` or
    ``["SS-EXIT-Y13=ignored"]``); ``data`` overrides data values (a mapping, or a data file).
    Bad input raises :class:`~invasion_oracle.MalformedInputError` naming the file and field.

    >>> load("example:vulketh/race").game
    'vulketh'
    >>> load({"game": "chess"})
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: <document>:$.game: unknown game 'chess'; known: stonespine, spirit-island, vulketh, cloudspire
    """
    specs = _ruling_specs(rulings)
    if isinstance(path_or_example, Mapping):
        source = "<document>"
        document: Any = _document(path_or_example, source)
    else:
        what = "a path, example:GAME/NAME or a document (a dict)"
        source = str(_path(path_or_example, "path_or_example", what))
        document = read_json_file(source)
    overrides: Mapping[str, Any] | None
    data_source = "data"
    if data is None:
        overrides = None
    elif isinstance(data, Mapping):
        overrides = _document(data, data_source)
    else:
        data_source = str(_path(data, "data", "a data file's path or a dict of data values"))
        overrides = read_json_file(data_source)
        if not isinstance(overrides, dict):
            raise MalformedInputError(data_source, "$", "a data file is a JSON object of values to override")
    spec = registry.spec_for_document(document, source)
    options = ScenarioOptions(specs, overrides, data_source)
    return Scenario(spec, spec.load(document, source, options))


def under_data(data: Mapping[str, Any] | str | Path, game: str | None = None) -> AbstractContextManager[None]:
    """Run the body under a game's data (full, or partial with ``"extends": "bundled"``): every
    scenario, bundled example, search and witness of that game loaded inside reads it, as
    ``--data FILE`` does for a whole command. ``game`` is needed when the document does not name
    it (``"game"``). The data is checked first (a :class:`~invasion_oracle.MalformedInputError`
    naming the file and field, as the command line's), when it is called.

    >>> base = load("example:stonespine/default").play().outcome()["heroes"][2]["health"]
    >>> with under_data({"extends": "bundled", "heroes": {"Barbarian": {"health": 2}}}, "stonespine"):
    ...     load("example:stonespine/default").play().outcome()["heroes"][2]["health"] < base
    True
    """
    from invasion_oracle.model.core.overrides import DataInForce, canonical_text, data_in_force
    from invasion_oracle.model.core.rulings import Rulings

    if isinstance(data, Mapping):
        source = "data"
        document = _document(data, source)
    else:
        source = str(_path(data, "data", "a data file's path or a dict of data values"))
        document = read_json_file(source)
        if not isinstance(document, dict):
            raise MalformedInputError(source, "$", "a data file is a JSON object")
    named = document.get("game", game)
    if named is None:
        raise MalformedInputError(
            source, "$", 'which game is this data for? give game= or "game" in the data'
        )
    spec = registry.spec(arguments.text(named, "game", what="a game's name"), source=source, path="$.game")
    spec.build_data(Rulings.defaults(spec.name), document, source)
    return data_in_force([DataInForce(spec.name, source, canonical_text(document))])


@dataclass(frozen=True, slots=True)
class Scenario:
    """A loaded scenario: the game's own scenario object (``raw``) and its game's spec.

    >>> s = load("example:cloudspire/round")
    >>> s.game, "CS-BOSS-GLOBAL" in s.rulings
    ('cloudspire', True)
    """

    spec: GameSpec
    raw: Any

    def __post_init__(self) -> None:
        arguments.one_of_types(
            self.spec, "spec", (GameSpec,), "a game's spec (a Scenario comes from io.load)"
        )

    @property
    def game(self) -> str:
        """The game's name, as in ``invasion games``."""
        return self.spec.name

    @property
    def source(self) -> str:
        return str(self.raw.source)

    @property
    def rulings(self) -> dict[str, str]:
        """Every ruling of the game with the reading this scenario follows."""
        return dict(self.raw.rulings.to_json())

    @property
    def initial(self) -> Any:
        """The initial state (immutable)."""
        return self.raw.initial

    def play(self, decider: Decider | None = None, chance: ChanceSource | None = None) -> Playthrough:
        """Play to the end with the scenario's own answerers, or the ones given."""
        _answerers(decider, chance)
        return Playthrough(self, core_play.run(self.raw, decider, chance))

    def new_game(self) -> Game:
        """A game at its first request, to step through one answer at a time."""
        return Game(self)

    def __repr__(self) -> str:
        return f"<Scenario {self.game} {self.source!r}>"

    def _repr_svg_(self) -> str | None:
        return self.spec.render_svg(self.raw, self.raw.initial)


class Game:
    """One game in progress: ``pending()``, ``legal_decisions()``, ``step(answer)``, ``outcome()``.

    States stay immutable; the game object only remembers where it is (like a chess board's
    move stack), so ``state`` can be kept, compared and rendered at every step.

    >>> import invasion_oracle as io
    >>> g = io.load("example:stonespine/default").new_game()
    >>> g.pending().kind
    'roll'
    >>> events = g.step(g.legal_decisions()[0])
    >>> len(g.steps)
    1
    """

    def __init__(self, scenario: Scenario) -> None:
        arguments.one_of_types(scenario, "scenario", (Scenario,), "a Scenario (io.load(...))")
        self.scenario = scenario
        self._game = scenario.raw.game()
        self.state, opening = self._game.start(scenario.raw.initial)
        self._opening: tuple[Event, ...] = tuple(opening)
        self.steps: list[Step] = []

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, in order."""
        return self._opening + tuple(e for s in self.steps for e in s.events)

    def pending(self) -> Request | None:
        """The decision or chance request the state waits for, or ``None`` when it is over."""
        request: Request | None = self._game.pending(self.state)
        return request

    def legal_decisions(self) -> tuple[Option, ...]:
        """The legal answers to the pending request (a decision's options or a roll's outcomes)."""
        request = self.pending()
        if request is None:
            return ()
        return request.options if isinstance(request, DecisionRequest) else request.outcomes

    def is_over(self) -> bool:
        return self.pending() is None

    def step(self, answer: Option) -> tuple[Event, ...]:
        """Answer the pending request; an answer that is not legal raises IllegalDecisionError."""
        request = self.pending()
        if request is None:
            raise IllegalDecisionError("the game is over: nothing is pending")
        answer = normalise_answer(request, answer)
        self.state, events = self._game.step(self.state, answer)
        self.steps.append(Step(request, answer, tuple(events)))
        return tuple(events)

    def play(self, decider: Decider | None = None, chance: ChanceSource | None = None) -> Playthrough:
        """Play on to the end from here (the scenario's own answerers unless given)."""
        _answerers(decider, chance)
        rest = play(
            self._game,
            self.state,
            decider or self.scenario.raw.decider(),
            chance or self.scenario.raw.chance_source(),
        )
        self.steps.extend(rest.steps)
        self.state = rest.final
        return self.playthrough()

    def playthrough(self) -> Playthrough:
        """What was played so far, as a :class:`Playthrough`."""
        return Playthrough(self.scenario, CorePlaythrough(self._opening, tuple(self.steps), self.state))

    def outcome(self) -> Outcome:
        """The outcome (plain JSON data, as fixtures compare it) of the state reached."""
        return cast(Outcome, self.scenario.spec.outcome(self.scenario.raw, self.state))

    def __repr__(self) -> str:
        request = self.pending()
        where = "over" if request is None else f"waiting for {request.describe()}"
        return f"<Game {self.scenario.game} after {len(self.steps)} steps, {where}>"

    def _repr_svg_(self) -> str | None:
        return self.scenario.spec.render_svg(self.scenario.raw, self.state)


@dataclass(frozen=True, slots=True)
class Playthrough:
    """A whole run: its steps and events, its outcome, and its trace (the fixture format).

    >>> p = load("example:vulketh/solo_game").play()
    >>> p.trace()["game"], len(p.trace()["steps"]) == len(p.steps)
    ('vulketh', True)
    """

    scenario: Scenario
    run: CorePlaythrough[Any]

    def __post_init__(self) -> None:
        arguments.one_of_types(self.scenario, "scenario", (Scenario,), "a Scenario (io.load(...))")
        arguments.one_of_types(self.run, "run", (CorePlaythrough,), "a played run (Scenario.play())")

    @property
    def final(self) -> Any:
        return self.run.final

    @property
    def events(self) -> tuple[Event, ...]:
        return self.run.events

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.run.steps

    def outcome(self) -> Outcome:
        """The outcome (plain JSON data, as fixtures compare it) of the run's final state.

        >>> load("example:vulketh/solo_game").play().outcome()["round"] >= 1
        True
        """
        return cast(Outcome, self.scenario.spec.outcome(self.scenario.raw, self.run.final))

    def trace(self) -> dict[str, Any]:
        """The run as a trace document (``invasion schema trace``), ready for :func:`replay`."""
        document: dict[str, Any] = json.loads(self.trace_json())
        return document

    def trace_json(self) -> str:
        """The trace's canonical text, byte for byte what ``invasion simulate --trace`` writes."""
        return core_play.trace_json(self.scenario.spec, self.scenario.raw, self.run)

    def render(self) -> str:
        """The final state as text."""
        return self.scenario.spec.render_text(self.scenario.raw, self.run.final)

    def __repr__(self) -> str:
        return f"<Playthrough {self.scenario.game} {self.scenario.source!r}: {len(self.run.steps)} steps>"

    def _repr_svg_(self) -> str | None:
        return self.scenario.spec.render_svg(self.scenario.raw, self.run.final)


def replay(trace: Mapping[str, Any] | str | Path, source: str = "<trace>") -> ReplayReport:
    """Replay a trace (a document, or a file) with its recorded answers only, and compare all.

    The report's ``identical`` is True when every request, option, event and the outcome match;
    otherwise ``first_difference`` says where they part.

    >>> trace = load("example:stonespine/default").play().trace()
    >>> trace["outcome"]["year"] = 4
    >>> report = replay(trace)
    >>> report.identical, report.first_difference
    (False, 'outcome differs')
    """
    if isinstance(trace, Mapping):
        source = arguments.text(source, "source", what="a name for the trace in messages", max_length=1000)
        document: Any = _document(trace, source)
    else:
        source = str(_path(trace, "trace", "a trace document (a dict) or a trace file's path"))
        document = read_json_file(source)
    spec = registry.spec_for_document(document, source)
    return core_play.replay_trace(spec, document, source)

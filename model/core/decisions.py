"""Decision and chance requests, and the deciders and chance sources that answer them.

The oracle never chooses for a player and never rolls on its own. Whenever the rules give a
player a choice, the game asks a :class:`DecisionRequest` with every legal option; whenever the
rules call for a die roll or a card draw, it asks a :class:`ChanceRequest` with every possible
outcome. Options and outcomes are JSON values (strings, integers, tuples), so a recorded run is
a plain list of answers that replays exactly.

Who answers:

* :class:`ScriptedDecider` / :class:`ScriptedChance` - a recorded script, in order;
* :class:`FirstLegalDecider` - always the first option (options are listed in a documented,
  stable order);
* :class:`SeededRandomDecider` / :class:`SeededChance` - a seeded pseudo-random choice;
* :class:`PolicyDecider` - any function, such as a solver's policy.

A script can hand over to another answerer when it runs out (``then``), which is how a scenario
says "these first choices, then the first legal option".
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from invasion_oracle.model.core.arguments import shown
from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.core.errors import IllegalDecisionError, ScriptedAnswerError

Option = Any  # a JSON value: str, int, bool or a tuple of these


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """A choice the rules give ``player``: pick one of ``options``.

    ``kind`` names the choice (each game lists its kinds); ``context`` says what the choice is
    about, as ``(name, value)`` pairs (for example the hero and the chamber it stands in).
    """

    kind: str
    player: str
    options: tuple[Option, ...]
    context: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "request": "decision",
            "kind": self.kind,
            "player": self.player,
            "options": list(self.options),
            "context": dict(self.context),
        }

    def describe(self) -> str:
        about = " ".join(f"{k}={v}" for k, v in self.context)
        return f"{self.kind} for {self.player}" + (f" ({about})" if about else "")


@dataclass(frozen=True, slots=True)
class ChanceRequest:
    """A die roll or card draw: one of ``outcomes`` happens.

    ``source`` names the die or deck (``"white"``, ``"gray"``, ``"invader-stage-1"``), and
    ``purpose`` says why it is rolled. Repeated outcomes are allowed (a die with two red faces
    lists ``"red"`` twice): a seeded source picks a face, so repetition is the distribution.
    """

    kind: str
    source: str
    outcomes: tuple[Option, ...]
    purpose: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "request": "chance",
            "kind": self.kind,
            "source": self.source,
            "outcomes": list(self.outcomes),
            "purpose": self.purpose,
        }

    def describe(self) -> str:
        return f"{self.kind} {self.source}" + (f" ({self.purpose})" if self.purpose else "")


Request = DecisionRequest | ChanceRequest


def same_option(a: Option, b: Option) -> bool:
    """Options compare by their canonical JSON, so ``["B2"]`` from a file equals ``("B2",)``."""
    return bool(canonical_json(a) == canonical_json(b))


def normalise_answer(request: Request, answer: Option) -> Option:
    """Return the option of ``request`` equal to ``answer``, or raise IllegalDecisionError.

    >>> r = DecisionRequest("choose_move", "Ann", ("A2", "B1"))
    >>> normalise_answer(r, "B1")
    'B1'
    >>> normalise_answer(r, "C3")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.IllegalDecisionError: choose_move for Ann: 'C3' is not legal; legal: 'A2', 'B1'
    """
    choices = request.options if isinstance(request, DecisionRequest) else request.outcomes
    # A string answer among string options: two strings have the same canonical JSON exactly
    # when they are equal, so the first equal one is the option the canonical comparison finds;
    # at the first option of another type, that comparison decides (issue 38: it was a fifth of a
    # Stonespine step, with the text of every legal option built for each answer).
    if type(answer) is str:
        for option in choices:
            if type(option) is not str:
                break
            if option == answer:
                return option
    try:
        wanted = canonical_json(answer)
    except (TypeError, ValueError, RecursionError):  # no option is a float, a set, an object or 10**5000
        raise IllegalDecisionError(
            f"{request.describe()}: {shown(answer)} is not legal (not a JSON value); legal: {_legal(choices)}"
        ) from None
    for option in choices:
        if canonical_json(option) == wanted:
            return option
    raise IllegalDecisionError(
        f"{request.describe()}: {_tupled(answer)!r} is not legal; legal: {_legal(choices)}"
    )


def _legal(choices: tuple[Option, ...]) -> str:
    return ", ".join(dict.fromkeys(repr(_tupled(o)) for o in choices))


def _tupled(value: Option) -> Option:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


class Decider(Protocol):
    """Answers decision requests. ``decide`` must return one of ``request.options``."""

    def decide(self, request: DecisionRequest) -> Option: ...


class ChanceSource(Protocol):
    """Answers chance requests. ``outcome`` must return one of ``request.outcomes``."""

    def outcome(self, request: ChanceRequest) -> Option: ...


@dataclass(slots=True)
class FirstLegalDecider:
    """Always the first legal option."""

    def decide(self, request: DecisionRequest) -> Option:
        return request.options[0]


@dataclass(slots=True)
class SeededRandomDecider:
    """A uniformly random legal option from a seeded generator (same seed, same answers)."""

    seed: int
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def decide(self, request: DecisionRequest) -> Option:
        return request.options[self._rng.randrange(len(request.options))]


@dataclass(slots=True)
class PreferringDecider:
    """The first option found in ``prefer`` (in its order), otherwise ``then``'s answer.

    A scenario author's rule of thumb, such as "always close the gate":

    >>> d = PreferringDecider(("close",), FirstLegalDecider())
    >>> d.decide(DecisionRequest("gate", "Ann", ("continue", "close")))
    'close'
    >>> d.decide(DecisionRequest("move", "Ann", ("A2", "B1")))
    'A2'
    """

    prefer: tuple[Option, ...]
    then: Decider

    def decide(self, request: DecisionRequest) -> Option:
        for wanted in self.prefer:
            for option in request.options:
                if same_option(option, wanted):
                    return option
        return self.then.decide(request)


@dataclass(slots=True)
class PolicyDecider:
    """Wraps a function from request to option, such as a solver's policy."""

    policy: Callable[[DecisionRequest], Option]

    def decide(self, request: DecisionRequest) -> Option:
        return self.policy(request)


def unused_answers(
    answers: Sequence[Option], used: int, label: str, located: tuple[str, Sequence[str], str] | None
) -> ScriptedAnswerError | None:
    """A script longer than the run that read it: the run went another way than its author
    expected (or the extra answers are stray), so it is named rather than ignored.

    >>> print(unused_answers(["B1", "C2", "D3"], 1, "decisions", ("s.json", ["$.d[0]", "$.d[1]", "$.d[2]"], "$.d")))
    s.json:$.d[1]: 2 of the 3 answers in decisions were not used: the run ended after 1 ('C2' is the first left over); remove them, or check that the run goes the way the script expects
    """
    left = len(answers) - used
    if left <= 0 or located is None:
        return None
    reason = (
        f"{left} of the {len(answers)} answers in {label} were not used: the run ended after {used} "
        f"({answers[used]!r} is the first left over); remove them, or check that the run goes the "
        "way the script expects"
    )
    return ScriptedAnswerError(located[0], located[1][used], reason)


@dataclass(slots=True)
class ScriptedDecider:
    """Answers from a recorded list, in order; then hands over to ``then`` if given.

    >>> d = ScriptedDecider(["B1"], then=FirstLegalDecider())
    >>> d.decide(DecisionRequest("choose_move", "Ann", ("A2", "B1")))
    'B1'
    >>> d.decide(DecisionRequest("choose_move", "Ann", ("A2", "B1")))
    'A2'
    """

    answers: Sequence[Option]
    then: Decider | None = None
    label: str = "decision script"
    used: int = 0
    located: tuple[str, Sequence[str], str] | None = None
    """``(file, json paths, end)``: where each answer was read from, and the path named when
    the script runs out; errors then name the file and path (``s.json:$.decisions.script[2]``)."""

    def unused(self) -> ScriptedAnswerError | None:
        """The error for answers left over when a run ended (see :func:`unused_answers`)."""
        return unused_answers(self.answers, self.used, self.label, self.located)

    def decide(self, request: DecisionRequest) -> Option:
        if self.used < len(self.answers):
            answer = self.answers[self.used]
            self.used += 1
            try:
                return normalise_answer(request, answer)
            except IllegalDecisionError as err:
                if self.located is not None:
                    raise ScriptedAnswerError(
                        self.located[0], self.located[1][self.used - 1], str(err)
                    ) from None
                raise IllegalDecisionError(f"{self.label} answer #{self.used}: {err}") from None
        if self.then is not None:
            return self.then.decide(request)
        reason = (
            f"{self.label} ran out after {len(self.answers)} answers at {request.describe()}; "
            f"add an answer (legal: {', '.join(map(repr, request.options))}) or a fallback policy"
        )
        if self.located is not None:
            raise ScriptedAnswerError(self.located[0], self.located[2], reason)
        raise IllegalDecisionError(reason)


@dataclass(slots=True)
class SeededChance:
    """Rolls and draws from a seeded generator: every outcome listed is equally likely."""

    seed: int
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def outcome(self, request: ChanceRequest) -> Option:
        return request.outcomes[self._rng.randrange(len(request.outcomes))]


@dataclass(slots=True)
class ScriptedChance:
    """Outcomes from a recorded list, in order; then hands over to ``then`` if given."""

    outcomes: Sequence[Option]
    then: ChanceSource | None = None
    label: str = "dice script"
    used: int = 0
    located: tuple[str, Sequence[str], str] | None = None
    """``(file, json paths, end)``: as :attr:`ScriptedDecider.located`."""

    def unused(self) -> ScriptedAnswerError | None:
        """The error for results left over when a run ended (see :func:`unused_answers`)."""
        return unused_answers(self.outcomes, self.used, self.label, self.located)

    def outcome(self, request: ChanceRequest) -> Option:
        if self.used < len(self.outcomes):
            answer = self.outcomes[self.used]
            self.used += 1
            try:
                return normalise_answer(request, answer)
            except IllegalDecisionError as err:
                if self.located is not None:
                    raise ScriptedAnswerError(
                        self.located[0], self.located[1][self.used - 1], str(err)
                    ) from None
                raise IllegalDecisionError(f"{self.label} result #{self.used}: {err}") from None
        if self.then is not None:
            return self.then.outcome(request)
        faces = ", ".join(dict.fromkeys(repr(o) for o in request.outcomes))
        reason = (
            f"{self.label} ran out after {len(self.outcomes)} results at {request.describe()}; "
            f"add a result (one of {faces}) or a seed"
        )
        if self.located is not None:
            raise ScriptedAnswerError(self.located[0], self.located[2], reason)
        raise IllegalDecisionError(reason)

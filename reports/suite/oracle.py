"""The oracle's side of a case: play given answers (what an implementation does), or realise a
case spec (answer with the scenario's own answer objects, as the generator does).

:func:`play` is the protocol's semantics in code (``docs/conformance.md``): load the scenario
under the readings given, start, give each answer to the pending request (refusing one that is
not legal), then report the events of the compared steps, the requests they answered, what is
pending and the projection of the state. The oracle adapter, ``invasion fixtures check`` and the
generator all use it, so an expectation is exactly what the oracle answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.answers import Answers
from invasion_oracle.model.core.codec import ScenarioCodec, fields_json
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest, Request, normalise_answer
from invasion_oracle.model.core.errors import IllegalDecisionError, MalformedInputError
from invasion_oracle.model.core.spec import Deferred, GameSpec, ScenarioOptions
from invasion_oracle.reports.suite.cases import Answer, Expected, Variant, plain, request_json
from invasion_oracle.reports.suite.events import structured
from invasion_oracle.reports.suite.plugins import project
from invasion_oracle.reports.suite.specs import CaseSpec

DECISIONS_KEY = "decisions"
_RAN_OUT = object()  # a script with no answer left


@dataclass(frozen=True, slots=True)
class Reply:
    """What an implementation answers for one case (``status`` ``ok`` or ``illegal``)."""

    status: str
    events: tuple[Any, ...] = ()
    requests: tuple[Any, ...] = ()
    pending: Any = None
    state: Any = None
    step: int | None = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        written = {"ok": ("events", "requests", "pending", "state"), "illegal": ("step", "reason")}
        return fields_json(self, "status", *written.get(self.status, ("reason",)))

    def expected(self, *, with_requests: bool = True, via: Any = None) -> Expected:
        return Expected(self.events, self.pending, self.state, self.requests if with_requests else None, via)


def without_answers(document: Mapping[str, Any], key: str) -> dict[str, Any]:
    """The scenario as a case stores it: its answer objects are replaced by the case's answers."""
    return {k: v for k, v in document.items() if k not in (DECISIONS_KEY, key)}


def load(spec: GameSpec, document: Mapping[str, Any], readings: Mapping[str, str], source: str) -> Any:
    """The scenario under ``readings`` (every ruling named wins over the document's own)."""
    return spec.load(plain(dict(document)), source, ScenarioOptions(ruling_specs=_specs(readings)))


def _specs(readings: Mapping[str, str]) -> tuple[str, ...]:
    return tuple(f"{rid}={reading}" for rid, reading in sorted(readings.items()))


def _codec(spec: GameSpec) -> ScenarioCodec[Any] | None:
    """The codec behind a game's loader, if it is one (its ``load`` method)."""
    loader = spec.load
    codec = getattr(loader.target() if isinstance(loader, Deferred) else loader, "__self__", None)
    return codec if isinstance(codec, ScenarioCodec) else None


@dataclass
class Loads:
    """The scenarios loaded while one case is built, by game, document and source.

    A game whose codec reads a scenario without consulting the rulings
    (:attr:`~invasion_oracle.model.core.codec.ScenarioCodec.rulings_free`) loads a document once;
    under other readings only its rulings are read again. Kept for one case build only: the data
    in force cannot change within it, and the data reads a load makes are made (and recorded) once
    within the same job. Any other game loads every time."""

    _loaded: dict[tuple[str, int, str], tuple[Mapping[str, Any], Any]] = field(default_factory=dict)

    def load(
        self, spec: GameSpec, document: Mapping[str, Any], readings: Mapping[str, str], source: str
    ) -> Any:
        codec = _codec(spec)
        if codec is None or not codec.rulings_free:
            return load(spec, document, readings, source)
        key = (spec.name, id(document), source)  # the document is kept below, so its id stays its own
        held = self._loaded.get(key)
        if held is None:
            scenario = load(spec, document, readings, source)
            self._loaded[key] = (document, scenario)
            return scenario
        return codec.under(held[1], _specs(readings))


def _kind(request: Request) -> str:
    return "decision" if isinstance(request, DecisionRequest) else "chance"


@dataclass
class _Run:
    """A scenario played from its opening, one answer at a time: the one loop of :func:`play` and
    :func:`realise`."""

    spec: GameSpec
    scenario: Any
    game: Any
    state: Any
    steps: list[Sequence[Any]]
    requests: list[Request] = field(default_factory=list)

    @staticmethod
    def start(
        spec: GameSpec,
        document: Mapping[str, Any],
        readings: Mapping[str, str],
        source: str,
        loads: Loads | None = None,
    ) -> _Run:
        scenario = (loads.load if loads is not None else load)(spec, document, readings, source)
        game = scenario.game()
        state, opening = game.start(scenario.initial)
        return _Run(spec, scenario, game, state, [opening])

    def give(self, request: Request, raw: Any) -> Reply | None:
        """Answer the pending ``request``: ``None`` once played, else the reply that ends the run
        (the answer is illegal, or a rule reached only on this line is not in the data)."""
        try:
            value = normalise_answer(request, raw)
        except IllegalDecisionError as err:
            return Reply("illegal", step=len(self.requests) + 1, reason=str(err))
        self.requests.append(request)
        try:
            self.state, events = self.game.step(self.state, value)
        except MalformedInputError as err:
            return Reply("refused", reason=err.reason)
        self.steps.append(events)
        return None

    def reply(self, start: int, projection: str) -> Reply:
        """The ``ok`` reply: the events of steps ``start``.., the requests they answered, what is
        pending and the projected state."""
        return Reply(
            "ok",
            tuple(
                structured(self.spec.name, plain(e.to_json()))
                for events in self.steps[start:]
                for e in events
            ),
            tuple(request_json(r) for r in self.requests[max(start, 1) - 1 :]),
            request_json(self.game.pending(self.state)),
            plain(project(self.spec, projection, self.scenario, self.state)),
        )


def play(
    spec: GameSpec,
    document: Mapping[str, Any],
    readings: Mapping[str, str],
    answers: Sequence[Answer],
    start: int,
    projection: str,
    source: str = "case",
    loads: Loads | None = None,
) -> Reply:
    """Play ``answers`` from the opening; report steps ``start``.. and the projected state."""
    try:
        run = _Run.start(spec, document, readings, source, loads)
        for number, answer in enumerate(answers, 1):
            request = run.game.pending(run.state)
            if request is None:
                return Reply("illegal", step=number, reason="the run is over; nothing is pending")
            if _kind(request) != answer.request or request.kind != answer.kind:
                reason = f"pending is {_kind(request)} {request.kind!r}; the answer is for {answer.request} {answer.kind!r}"
                return Reply("illegal", step=number, reason=reason)
            ended = run.give(request, _frozen(answer.answer))
            if ended is not None:
                return ended
        return run.reply(start, projection)
    except MalformedInputError as err:
        # The scenario, or a rule it reaches (an ability the data does not give), is refused.
        return Reply("refused", reason=err.reason)


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


@dataclass(frozen=True, slots=True)
class Realised:
    """A case spec run under one set of readings: the answers it gave and where it stopped."""

    answers: tuple[Answer, ...]
    start: int
    reply: Reply
    last_request: Request | None  # the request the last answer answered
    chance_key: str  # the scenario field of the chance script


def realise(
    spec: GameSpec, case: CaseSpec, readings: Mapping[str, str], loads: Loads | None = None
) -> Realised:
    """Run ``case`` under ``readings`` with its scenario's answer objects, stopping as it says.

    A scenario the game refuses under these readings (a setup one reading forbids, or a rule it
    reaches that the data does not give) is realised as a ``refused`` reply.
    """
    try:
        return _realise(spec, case, readings, loads)
    except MalformedInputError as err:
        return Realised((), 0, Reply("refused", reason=err.reason), None, "")


def _realise(spec: GameSpec, case: CaseSpec, readings: Mapping[str, str], loads: Loads | None) -> Realised:
    source = f"{spec.name}/{case.group}/{case.name}"
    run = _Run.start(spec, case.scenario, readings, source, loads)
    key = str(getattr(run.scenario, "chance_key", "chance"))
    sources = {
        "decision": Answers.from_json(case.scenario.get(DECISIONS_KEY), "first-legal"),
        "chance": Answers.from_json(case.scenario.get(key), "random"),
    }
    scripts = {kind: iter(answers.script) for kind, answers in sources.items()}
    decide = replace(sources["decision"], script=()).decider(f"{source}: decisions")
    roll = replace(sources["chance"], script=()).chance(f"{source}: {key}")
    given: list[Answer] = []
    seen = 0
    ended: Reply | None = None
    while (request := run.game.pending(run.state)) is not None:
        if case.stop.how == "after" and len(given) >= case.stop.count:
            break
        if case.stop.matches(request):
            seen += 1
            if seen >= case.stop.count:
                break
        kind = _kind(request)
        raw: Any = next(scripts[kind], _RAN_OUT)
        if raw is _RAN_OUT:
            if sources[kind].then == "none" and not sources[kind].prefer:
                break  # the script ran out on purpose: the case stops here
            try:
                if isinstance(request, DecisionRequest):
                    raw = decide.decide(request)
                else:
                    assert isinstance(request, ChanceRequest)
                    raw = roll.outcome(request)
            except IllegalDecisionError:
                break
        given.append(Answer(kind, request.kind, plain(raw)))
        # an illegal answer, or a rule this line reaches that the data does not give, ends the
        # run with the answers that reach it (so that a replay of the variant reaches it too)
        ended = run.give(request, raw)
        if ended is not None:
            break
    start = {
        "all": 0,
        "after-opening": min(1, len(given)),
        "last": len(given),
        "choice": max(len(given) - 1, 0),
    }[case.window]
    reply = ended if ended is not None else run.reply(start, case.projection)
    return Realised(tuple(given), start, reply, run.requests[-1] if run.requests else None, key)


def replayed(game: str, cases: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Each stored case (suite-file JSON) replayed under the data in force: by case id, the reply
    of every variant's answers, and of each option of a choice (its last decision's ``via``)."""
    spec = registry.spec(game)
    out = {}
    for case in cases:
        replies = []
        for raw in case["expect"]:
            variant = Variant.from_json(raw)
            options = [variant.answers]
            for outcome in variant.one_of:
                if outcome.via is not None and variant.answers:
                    options.append((*variant.answers[:-1], replace(variant.answers[-1], answer=outcome.via)))
            for answers in options:
                reply = play(
                    spec, case["scenario"], variant.readings_map, answers, variant.start, case["projection"]
                )
                replies.append(reply.to_json())
        out[case["id"]] = replies
    return out

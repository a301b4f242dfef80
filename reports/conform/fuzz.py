"""``invasion conform --fuzz``: differential fuzzing of an implementation against the oracle.

Cases are drawn from each game's shapes (:mod:`invasion_oracle.reports.conform.shapes`, built on
the Hypothesis strategies of ``properties/``) within what the implementation's ``hello``
declares, realised by the oracle under the readings asked (every acceptable outcome of a choice
listed, as the suite does), sent as the suite's own ``case`` messages and graded at the declared
levels. A disagreement, a crash or a hang is shrunk (:func:`shrink`: fewer pieces, lands, steps,
smaller numbers, each candidate realised by the oracle and sent again; only a candidate failing the
same way is kept; :func:`_shrunk` bounds what crashes and hangs cost), re-run to confirm, grouped
with the others of its :func:`signature` (rule section, level and the field that differs) and, with ``--save DIR``, written as a suite-format case file that
``invasion conform --dir DIR`` runs again.

Determinism: case ``n`` of a game is drawn from Hypothesis's choice sequence seeded by ``(seed,
game, n)`` (:func:`draw_draft`: no engine, no database); cases go out in chunks of :data:`CHUNK`
per game, and which shapes and projections a chunk draws from depends only on the replies to the
chunks before the one in flight. The same seed and ``--examples`` give the same cases and the
same report, whatever ``--jobs`` and the timing.
"""

from __future__ import annotations

import dataclasses
import random
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis.errors import UnsatisfiedAssumption

from invasion_oracle.model import registry
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.properties.budget import document_nodes, replace_node
from invasion_oracle.reports.conform.grade import LEVELS
from invasion_oracle.reports.conform.process import Crashed
from invasion_oracle.reports.conform.runner import Options, Result, Run, Session, _judge, requested_readings
from invasion_oracle.reports.conform.shapes import SHAPES, Draft, Shape
from invasion_oracle.reports.suite.build import CaseError, boards_of, variant_of
from invasion_oracle.reports.suite.cases import Case, RuleRef
from invasion_oracle.reports.suite.oracle import realise, without_answers
from invasion_oracle.reports.suite.plugins import suite_for
from invasion_oracle.reports.suite.specs import CaseSpec, Stop

CHUNK = 25  # cases a game draws at a time: the unit of steering and of determinism
DEFAULT_EXAMPLES = 200  # per game
SHRINK_ATTEMPTS = 300  # candidates tried while shrinking one failure
SHRINK_TIMEOUT = 2.0  # seconds a candidate may take while shrinking (at most --timeout)
SHRINK_BROKEN = 20  # candidates that crash, hang or garble their reply, at most, while shrinking one failure
BROKEN = ("crashed", "timed-out", "bad-reply")  # outcomes that stop and restart the implementation
REFUSED_AFTER = 3  # unsupported replies (and none answered) after which a shape or projection is dropped
GROUP = "fuzz"


@dataclass(frozen=True)
class FuzzOptions:
    command: str
    games: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    seed: int = 0
    examples: int | None = DEFAULT_EXAMPLES  # per game; None with a budget
    budget: float | None = None  # seconds for the whole run
    save: Path | None = None
    jobs: int = 1
    timeout: float = 10.0
    start_timeout: float = 60.0
    shrink_attempts: int = SHRINK_ATTEMPTS
    shrink_timeout: float | None = None  # None: the smaller of timeout and SHRINK_TIMEOUT
    shrink_broken: int = SHRINK_BROKEN
    progress: bool = True

    @property
    def candidate_timeout(self) -> float:
        """How long a shrinking candidate may take: a hang is shrunk at this timeout (each
        hanging candidate costs it), and the shrunk case is confirmed at the run's ``timeout``."""
        chosen = SHRINK_TIMEOUT if self.shrink_timeout is None else self.shrink_timeout
        return min(self.timeout, chosen)


@dataclass
class Failure:
    """One distinct disagreement: its signature, the first case that showed it, shrunk."""

    signature: str
    game: str
    section: str
    found_at: int  # the generated case's number (1-based, in its game)
    original: Case
    original_size: int
    case: Case  # shrunk
    size: int
    detail: str
    state_diff: tuple[str, ...]
    outcome: str
    shrink_runs: int = 0
    confirmed: bool = False
    shrink_stopped: str = ""  # why shrinking stopped short ("" when no smaller candidate failed)
    seen: int = 1  # generated cases with this signature
    saved: str = ""


@dataclass
class GameTally:
    generated: int = 0
    graded: int = 0
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    oracle_refused: int = 0  # drafts the oracle itself refuses (not sent)
    by_shape: Counter[str] = field(default_factory=Counter)
    skip_reasons: Counter[str] = field(default_factory=Counter)
    dropped: list[str] = field(default_factory=list)  # shapes/projections steered away from


@dataclass
class FuzzRun:
    run: Run  # the implementation's hello and what it declared (results are not kept)
    options: FuzzOptions
    tallies: dict[str, GameTally] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    budget_reached: bool = False
    aborted: str = ""
    features: frozenset[str] | None = None  # declared (capabilities.features, else features)

    @property
    def passed(self) -> bool:
        return not self.failures and not self.aborted and any(t.graded for t in self.tallies.values())


# -- size, signature ---------------------------------------------------------------------------------

_TOKEN = re.compile(r"^(\d*)[A-Za-z]")


def _pieces_in_text(text: str) -> int:
    count = 0
    for word in text.split():
        match = _TOKEN.match(word)
        if match:
            count += int(match.group(1) or 1)
    return count


def case_size(case: Case) -> int:
    """A case's size: pieces + lands (or hexes, lanes, chambers) + answers.

    Spirit Island: every piece and Blight of the land notation, Presence counted, one per land
    listed; Vul'Keth: the members, Warlords and villages in the hexes, one per hex listed;
    Cloudspire: the cards in lanes, Deployment, spires, inventory and market and the dice applied
    or loaded, one per lane used; Stonespine: the players, heroes, guardian and minion figures,
    one per chamber. Every answer given counts one. The same measure for a generated case and a
    suite case, so that a shrunk case can be held to the hand-written one that catches its bug.
    """
    answers = max((len(v.answers) for v in case.variants), default=0)
    measure = _SIZE_OF.get(case.game)
    pieces, lands = measure(case.scenario) if measure is not None else (0, 0)
    return pieces + lands + answers


def _spirit_island_size(scenario: dict[str, Any]) -> tuple[int, int]:
    """``(pieces, lands)``: printed pieces on lands not listed, the listed lands' notation, Presence."""
    pieces = lands = 0
    listed = scenario.get("lands") or {}
    if scenario.get("pieces", "start") != "empty":  # the boards' printed pieces are on the island
        pieces += _printed_pieces(scenario, set(listed))
    for value in listed.values():
        lands += 1
        text = value.get("pieces", "") if isinstance(value, dict) else value
        pieces += _pieces_in_text(str(text)) if isinstance(text, str) else 0
    for spirit in scenario.get("spirits") or []:
        if isinstance(spirit, dict) and isinstance(spirit.get("presence"), dict):
            pieces += sum(v for v in spirit["presence"].values() if isinstance(v, int))
    return pieces, lands


def _vulketh_size(scenario: dict[str, Any]) -> tuple[int, int]:
    """``(pieces, hexes)``: members, Warlords, villages and rivals in the hexes listed."""
    pieces = lands = 0
    for cell in (scenario.get("hexes") or {}).values():
        lands += 1
        if isinstance(cell, dict):
            pieces += sum(v for k, v in cell.items() if k in ("invaders", "player") and isinstance(v, int))
            pieces += sum(1 for k in ("warlord", "village") if k in cell)
            rivals = cell.get("rivals")
            if isinstance(rivals, dict):
                pieces += sum(v for v in rivals.values() if isinstance(v, int))
    return pieces, lands


def _cloudspire_size(scenario: dict[str, Any]) -> tuple[int, int]:
    """``(cards and dice, lanes)``: cards in lanes, Deployment, spires, inventory, market; dice placed."""
    pieces = lands = 0
    state = scenario.get("state") or {}
    for lane in (state.get("lanes") or {}).values():
        lands += 1
        pieces += len(lane) if isinstance(lane, list) else 0
    for key in ("deployment", "inventory", "market"):
        pieces += len(state.get(key) or [])
    pieces += len(state.get("spires") or {})
    dice = state.get("dice") or {}
    for key in ("applied", "loaded", "committed"):
        pieces += len(dice.get(key) or {})
    return pieces, lands


def _stonespine_size(scenario: dict[str, Any]) -> tuple[int, int]:
    """``(players, figures and heroes, chambers)``."""
    pieces = lands = 0
    for player in scenario.get("players") or []:
        if not isinstance(player, dict):
            continue
        pieces += 1
        placement = player.get("placement") or {}
        pieces += sum(len(v) for v in placement.values() if isinstance(v, list))
        dungeon = player.get("dungeon") or {}
        rows = dungeon.get("rows") if isinstance(dungeon, dict) else None
        lands += sum(len(row) for row in rows if isinstance(row, list)) if isinstance(rows, list) else 0
    pieces += len(scenario.get("heroes") or [])
    return pieces, lands


_SIZE_OF: dict[str, Callable[[dict[str, Any]], tuple[int, int]]] = {
    "spirit-island": _spirit_island_size,
    "vulketh": _vulketh_size,
    "cloudspire": _cloudspire_size,
    "stonespine": _stonespine_size,
}


def _printed_pieces(scenario: dict[str, Any], listed: set[str]) -> int:
    from invasion_oracle.model.spirit_island.data import default_data

    island = scenario.get("island")
    boards = island.get("boards") if isinstance(island, dict) else None
    data = default_data()
    count = 0
    for board in boards if isinstance(boards, list) else []:
        try:
            spec = data.board(str(board))
        except (KeyError, ValueError, MalformedInputError):
            continue
        count += sum(
            _pieces_in_text(land.start) for land in spec.lands if f"{spec.name}{land.number}" not in listed
        )
    return count


_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_-]*)")


def signature(case: Case, result: Result) -> str:
    """What makes two failures the same bug: the game, the rule section, the level and the field
    that differs: the last name on the first differing state path (``$.A7.pieces`` and
    ``$.land.pieces`` are both ``pieces``), the first differing event's name and fields
    (``built.piece``), the request's fields, or the reply's status and outcome."""
    section = result.info.section or case.group
    detail = result.detail
    level = detail[1 : detail.index("]")] if detail.startswith("[") and "]" in detail else ""
    if result.outcome != "failed":
        return f"{case.game}/{section}: {result.outcome}"
    diff = result.verdict.state_diff if result.verdict else ()
    field = ""
    if diff:
        names = _STEP.findall(diff[0].split(":", 1)[0])
        field = names[-1] if names else "state"
    elif result.reply is not None and result.reply.get("status") == "ok" and level in ("events", "requests"):
        field = _differing(case, result.reply, level)
    if not field:
        body = detail.split("]", 1)[-1].strip()
        field = re.sub(r"\d+", "N", body.split(":", 1)[0])
    return f"{case.game}/{section}: [{level}] {field}"


def _fields(expected: Any, got: Any) -> str:
    if isinstance(expected, dict) and isinstance(got, dict):
        keys = sorted(k for k in set(expected) | set(got) if k != "text" and expected.get(k) != got.get(k))
        name = str(expected.get("event") or expected.get("kind") or "")
        first = keys[0] if keys else "value"
        return f"{name}.{first}" if name else first
    return "missing" if got is None else "unexpected" if expected is None else "value"


def _differing(case: Case, reply: dict[str, Any], level: str) -> str:
    """The first differing event (or request) of the outcome nearest the reply, as ``name.fields``."""
    expected = case.variants[0].one_of[0] if case.variants and case.variants[0].one_of else None
    if expected is None:
        return ""
    if level == "events":
        got = reply.get("events")
        want = list(expected.events)
        if not isinstance(got, list):
            return "no events"
        for a, b in zip(want, got, strict=False):
            if a != b and (not isinstance(a, dict) or not isinstance(b, dict) or _fields(a, b)):
                if isinstance(a, dict) and isinstance(b, dict) and a.get("event") != b.get("event"):
                    return f"{a.get('event')} expected, {b.get('event')} given"
                return _fields(a, b)
        return "event count"
    if expected.pending != reply.get("pending"):
        return "pending." + _fields(expected.pending, reply.get("pending"))
    return "requests"


# -- features ------------------------------------------------------------------------------------------

SI_EVENT_FEATURES = {
    "ravaged": "ravage",
    "dahan_fought_back": "dahan",
    "blight_added": "blight",
    "blight_cascaded": "cascade",
    "presence_destroyed": "presence",
    "built": "build",
    "explored": "explore",
    "cards_advanced": "advance",
    "fear_generated": "fear",
    "fear_card_resolved": "fear-card",
    "terror_level_raised": "terror-level",
    "event_resolved": "event",
    "blight_card_flipped": "blight-card",
    "escalation": "escalation",
    "action_skipped": "skip",
    "card_skipped": "skip",
    "health_changed": "health",
    "piece_replaced": "downgrade",
    "game_over": "victory",
    "time_passed": "multi-turn",
}
SI_ANSWER_FEATURES = {"fight-back": "fight-back", "land-order": "land-order", "cascade": "cascade"}


def derived_features(case: Case) -> tuple[str, ...]:
    """The feature tags (docs/fixtures.md) a generated case needs, read from what the oracle did:
    its events and the decisions answered (Spirit Island; other games' cases carry none)."""
    if case.game != "spirit-island":
        return ()
    found: set[str] = set()
    variant = case.variants[0]
    for expected in variant.one_of[:1]:
        for event in expected.events:
            if not isinstance(event, dict):
                continue
            kind = str(event.get("event", ""))
            if kind in SI_EVENT_FEATURES:
                found.add(SI_EVENT_FEATURES[kind])
            if kind == "ravaged":
                if event.get("dahan_damaged") or event.get("dahan_destroyed"):
                    found.add("dahan")
                if event.get("defend"):
                    found.add("defend")
    for answer in variant.answers:
        if answer.request == "decision" and answer.kind in SI_ANSWER_FEATURES:
            found.add(SI_ANSWER_FEATURES[answer.kind])
    if len(case.boards) > 1:
        found.add("multi-board")
    return tuple(sorted(found))


# -- drafts to cases -------------------------------------------------------------------------------------


def realise_draft(draft: Draft, readings: dict[str, str], number: int) -> Case | None:
    """The case the oracle makes of ``draft`` under ``readings`` (None: it refuses the scenario)."""
    spec = registry.spec(draft.game)
    name = f"{draft.shape}-{number:05d}"
    scenario = _sendable(draft)
    case_spec = CaseSpec(
        GROUP,
        name,
        f"Generated {draft.shape} (conform --fuzz).",
        (draft.section,),
        (),
        "hypothesis",
        scenario,
        draft.projection,
        draft.stop,
        draft.window,
    )
    try:
        realised = realise(spec, case_spec, readings)
        if realised.reply.status != "ok":
            return None
        variant = variant_of(spec, case_spec, {}, realised, dict(readings))
    except (CaseError, MalformedInputError):
        return None
    _CHANCE_KEYS[draft.game] = realised.chance_key
    # Realised under the readings asked only: the rulings asked at another reading than the default
    # are the ones the case depends on (a saved case is graded only where they are asked again).
    defaults = Rulings.defaults(draft.game).to_json()
    pinned = tuple(sorted(rid for rid, reading in readings.items() if defaults.get(rid) != reading))
    suite = suite_for(draft.game)
    heading = draft.section
    if suite is not None:
        try:
            heading = suite.section(draft.section).heading
        except (KeyError, ValueError):
            heading = draft.section
    case = Case(
        id=f"{draft.game}/{GROUP}/{name}",
        game=draft.game,
        kind=case_spec.kind,
        description=case_spec.description,
        rule_refs=(RuleRef(spec.seed, heading),),
        features=(),
        source="hypothesis",
        rulings=pinned,
        scenario=without_answers(scenario, realised.chance_key),
        projection=draft.projection,
        variants=(variant,),
        choice=draft.window == "choice",
        section=draft.section,
        citation={"rulebook": suite.rulebook if suite else spec.title, "section": heading},
        boards=boards_of(spec.name, scenario),
        extra={"depends_on": list(pinned), "section": draft.section},
    )
    return dataclasses.replace(case, features=derived_features(case))


def _sendable(draft: Draft) -> dict[str, Any]:
    """The draft's scenario as a case holds it, before its answers are taken out."""
    return {k: v for k, v in draft.scenario.items() if k not in ("rulings", "$schema")}


_CHANCE_KEYS: dict[str, str] = {}  # game -> the scenario field of its chance script, as realised


# -- drawing ---------------------------------------------------------------------------------------------


def draw_draft(strategy: Any, seed_parts: tuple[object, ...]) -> Draft | None:
    """One draft from ``strategy``, the same every run for the same ``seed_parts``.

    Drawn straight from Hypothesis's choice sequence seeded by the parts (no engine: a run of
    ``find`` per draft costs twice the draw itself, and the shrinking is :func:`shrink`'s), with
    the strategies' constants fixed (:func:`invasion_oracle.properties.budget.fixed_constants`).
    ``None`` when the draw is rejected (a filter, or more choices than Hypothesis allows)."""
    from hypothesis.control import BuildContext
    from hypothesis.errors import StopTest
    from hypothesis.internal.conjecture.data import ConjectureData

    from invasion_oracle.properties.budget import fixed_constants, stable_seed

    data = ConjectureData(random=random.Random(stable_seed(*map(str, seed_parts))))
    with fixed_constants():
        try:
            with BuildContext(data, is_final=False, wrapped_test=None):  # type: ignore[arg-type]
                drawn = data.draw(strategy)
        except (StopTest, UnsatisfiedAssumption):
            return None
    return drawn if isinstance(drawn, Draft) else None


def draw_drafts(strategy: Any, count: int, seed_parts: tuple[object, ...]) -> list[Draft]:
    """``count`` drafts (fewer if draws keep being rejected), the ``i``-th seeded by
    ``(*seed_parts, i)``."""
    out: list[Draft] = []
    attempt = 0
    while len(out) < count and attempt < 4 * count:
        draft = draw_draft(strategy, (*seed_parts, attempt))
        attempt += 1
        if draft is not None:
            out.append(draft)
    return out


@dataclass
class Steering:
    """What the implementation keeps refusing: shapes and projections answered ``unsupported``
    (:data:`REFUSED_AFTER` times and never answered otherwise) are drawn no more."""

    unsupported: Counter[str] = field(default_factory=Counter)
    answered: Counter[str] = field(default_factory=Counter)
    # (signature, traits of its shrunk case) of each crash or hang found, shrunk and confirmed
    broken: list[tuple[str, frozenset[str]]] = field(default_factory=list)
    passed_traits: set[str] = field(default_factory=set)  # every trait a passing case has shown

    def breaks_like(self, case: Case) -> str:
        """The signature of a known crash or hang ``case`` would most likely show again ("" when
        none): the case shows every trait of that crash's or hang's shrunk case that no passing
        case has shown (say ``cascade``). Such a case would cost a restart or a whole timeout to
        find what is known already, and could eat a budget that other bugs need."""
        traits = case_traits(case)
        for sig, known in self.broken:
            trigger = known - self.passed_traits
            if trigger and trigger <= traits:
                return sig
        return ""

    def note(self, draft: Draft, supported: bool) -> None:
        for key in self.keys(draft):
            (self.answered if supported else self.unsupported)[key] += 1

    @staticmethod
    def keys(draft: Draft) -> tuple[str, str]:
        return f"shape {draft.shape}", f"projection {draft.projection.partition(':')[0]}"

    def refused(self, key: str) -> bool:
        return self.unsupported[key] >= REFUSED_AFTER and not self.answered[key]


def _allowed(run: Run, game: str) -> frozenset[str] | None:
    declared = run.capabilities.get("projections")
    if isinstance(declared, list):
        return frozenset(str(p).partition(":")[0] for p in declared)
    return None


def case_traits(case: Case) -> frozenset[str]:
    """What a generated case shows, to steer away from a known crash or hang: its feature tags and,
    when it stops at a decision, that decision's feature (a case stopping at a cascade request
    reaches the cascade). Empty for the games whose cases carry no feature tags."""
    traits = set(case.features)
    if case.game == "spirit-island" and case.variants and case.variants[0].one_of:
        pending = case.variants[0].one_of[0].pending
        if isinstance(pending, dict) and pending.get("request") == "decision":
            kind = SI_ANSWER_FEATURES.get(str(pending.get("kind", "")))
            if kind:
                traits.add(kind)
    return frozenset(traits)


def _fits(case: Case, out: FuzzRun) -> str:
    """Why the implementation's declaration rules this case out ("" when it fits)."""
    run = out.run
    caps = run.capabilities
    if out.features is not None:
        missing = sorted(set(case.features) - out.features)
        if missing:
            return f"feature {missing[0]}"
    boards = caps.get("boards")
    if isinstance(boards, list) and case.boards and not set(case.boards) <= {str(b) for b in boards}:
        return "board"
    maps = caps.get("maps")
    scenario_map = case.scenario.get("map")
    if (
        isinstance(maps, list)
        and isinstance(scenario_map, str)
        and scenario_map not in {str(m) for m in maps}
    ):
        return "map"
    projections = caps.get("projections")
    if isinstance(projections, list):
        names = {str(p) for p in projections}
        if case.projection not in names and case.projection.partition(":")[0] not in names:
            return "projection"
    return ""


# -- shrinking -------------------------------------------------------------------------------------------


def _smaller(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(path, smaller node) edits of a draft's JSON, biggest cuts first."""
    nodes = list(document_nodes(value))
    for where, node in nodes:
        if isinstance(node, dict):
            for key in reversed(list(node)):
                if where == ("scenario",) and key == "game":
                    continue
                yield where, {k: v for k, v in node.items() if k != key}
        elif isinstance(node, list):
            for i in reversed(range(len(node))):
                yield where, node[:i] + node[i + 1 :]
    for where, node in nodes:
        if isinstance(node, str) and _NOTATION.fullmatch(node.strip()):
            words = node.split()
            for i in reversed(range(len(words))):
                rest = words[:i] + words[i + 1 :]
                yield where, " ".join(rest)
                match = re.fullmatch(r"(\d*)(\D+?)(@\d+)?", words[i])
                if match is None:
                    continue
                count, kind, damage = int(match.group(1) or 1), match.group(2), match.group(3)
                if count > 1:  # "3D" -> "2D"
                    smaller = f"{count - 1 if count > 2 else ''}{kind}{damage or ''}"
                    yield where, " ".join(words[:i] + [smaller] + words[i + 1 :])
                if damage:  # damaged -> whole
                    yield where, " ".join(words[:i] + [f"{match.group(1)}{kind}"] + words[i + 1 :])
        if isinstance(node, int) and not isinstance(node, bool) and node:
            yield where, 0
            if abs(node) > 2:
                yield where, node // 2
            if abs(node) > 1:
                yield where, node - 1 if node > 0 else node + 1


_NOTATION = re.compile(r"\d*[A-Z](@\d+)?( \d*[A-Z](@\d+)?)*")  # land notation: "2E T@1 D B"


def _shrinkable(draft: Draft) -> dict[str, Any]:
    """What the shrinker edits: the scenario and the stop's count (fewer steps)."""
    return {"scenario": draft.scenario, "steps": draft.stop.count}


def _from_shrinkable(draft: Draft, value: dict[str, Any]) -> Draft | None:
    scenario, steps = value.get("scenario"), value.get("steps")
    if not isinstance(scenario, dict) or not isinstance(steps, int) or steps < 0:
        return None
    stop = Stop(draft.stop.how, steps, draft.stop.kind) if draft.stop.how != "end" else draft.stop
    if draft.stop.how == "before" and steps < 1:
        return None
    return Draft(draft.game, draft.shape, draft.section, scenario, draft.projection, stop, draft.window)


NOT_SENT = "not sent"  # what a shrinker's ``fails`` returns for a candidate it did not send


def _measure(case: Case) -> tuple[int, int]:
    """What "smaller" means: the size (:func:`case_size`), then the length of the scenario's JSON."""
    from invasion_oracle.model.core.canonical import canonical_json

    return case_size(case), len(canonical_json(case.scenario))


def _least_measure(draft: Draft) -> tuple[int, int] | None:
    """At most the :func:`_measure` of any case the oracle realises from ``draft``, known without
    realising it (None: not known). The case's scenario is the draft's without its answer
    objects, whatever the oracle answers, so the length of its JSON and its pieces and lands are
    fixed here; only the answers, realised, can add to the size."""
    key = _CHANCE_KEYS.get(draft.game)
    size_of = _SIZE_OF.get(draft.game)
    if key is None or size_of is None:
        return None
    from invasion_oracle.model.core.canonical import canonical_json

    scenario = without_answers(_sendable(draft), key)
    try:
        pieces, lands = size_of(scenario)
        return pieces + lands, len(canonical_json(scenario))
    except (TypeError, AttributeError, ValueError):  # a candidate the oracle would refuse
        return None


def shrink(
    draft: Draft,
    case: Case,
    fails: Callable[[Draft], tuple[Case, Result] | str | None],
    attempts: int,
    spent: Callable[[], bool] | None = None,
) -> tuple[Draft, Case, int]:
    """A smaller draft that still fails the same way: greedy passes over :func:`_smaller`'s edits
    (a land or list item left out, then a piece, a count lowered, a damaged piece made whole, then
    numbers made smaller), one edit at a time; an edit is kept only when the case is smaller
    (:func:`_measure`) and fails with the same signature, and the next pass starts from it.

    ``fails`` realises and sends a candidate: the case and its result when it fails the same way,
    None when not, :data:`NOT_SENT` when it was not sent (not counted: the oracle refuses it, the
    implementation does not declare what it needs, or it is not smaller). Stops after
    ``attempts`` candidates sent, or when ``spent()``. Returns the draft, its case and the
    candidates sent."""
    best, best_case, runs = draft, case, 0
    current = _shrinkable(draft)
    improved = True
    while improved and runs < attempts and not (spent and spent()):
        improved = False
        for where, node in _smaller(current):
            if runs >= attempts or (spent and spent()):
                break
            candidate = _from_shrinkable(best, replace_node(current, where, node))
            if candidate is None:
                continue
            found = fails(candidate)
            if isinstance(found, str):
                continue
            runs += 1
            if found is None or _measure(found[0]) >= _measure(best_case):
                continue
            best, best_case = candidate, found[0]
            current = _shrinkable(best)
            improved = True
            break
    return best, best_case, runs


# -- the run --------------------------------------------------------------------------------------------


class _Sessions:
    """The implementation's processes (``--jobs``): one per job, started on first use."""

    def __init__(self, options: Options, run: Run, jobs: int) -> None:
        self.sessions = [Session(options, run) for _ in range(jobs)]
        self.lock = threading.Lock()

    def judge_all(self, cases: Sequence[Case], asked: dict[str, str]) -> list[Result]:
        def judged(session: Session, case: Case) -> Result:
            if session.run.aborted:  # five crashes, hangs or bad replies in a row: no more restarts
                return Result(case, 0, True, "not-run", session.run.aborted)
            return _judge(session, case, 0, True, asked)

        if len(self.sessions) == 1 or len(cases) <= 1:
            return [judged(self.sessions[0], c) for c in cases]
        results: list[Result | None] = [None] * len(cases)

        def work(k: int) -> None:
            for i in range(k, len(cases), len(self.sessions)):
                results[i] = judged(self.sessions[k], cases[i])

        threads = [threading.Thread(target=work, args=(k,)) for k in range(len(self.sessions))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return [r for r in results if r is not None]

    def close(self) -> None:
        for session in self.sessions:
            session.close()


def _say(options: FuzzOptions, text: str) -> None:
    if options.progress:
        print(f"fuzz: {text}", file=sys.stderr, flush=True)


def _read_hello(
    said: dict[str, Any], run: Run, options: FuzzOptions, sessions: _Sessions
) -> tuple[list[str], frozenset[str] | None]:
    """What the implementation's ``hello`` declares, recorded on ``run`` (capabilities, protocol
    version, levels, the readings asked of each game): the games to fuzz and the features declared
    (None: not declared). Refuses an implementation that plays none of the games asked."""
    caps = said.get("capabilities") if isinstance(said.get("capabilities"), dict) else {}
    run.capabilities = dict(caps or {})
    version = said.get("protocol_version", 1)
    run.protocol_version = version if isinstance(version, int) else 1
    declared_levels = said.get("levels", run.capabilities.get("levels"))
    if isinstance(declared_levels, list) and declared_levels:
        run.levels = tuple(level for level in LEVELS if level in declared_levels)
    declared_games = said.get("games")
    games = list(options.games or registry.names())
    if isinstance(declared_games, list):
        games = [g for g in games if g in {str(x) for x in declared_games}]
    if not games:
        sessions.close()
        raise MalformedInputError(
            "--cmd", options.command, "the implementation declares none of the games asked (hello: games)"
        )
    declared_rulings = said.get("rulings") if isinstance(said.get("rulings"), dict) else {}
    for game in games:
        registry.spec(game)
        run.requested[game] = requested_readings(game, options.rulings, declared_rulings or {})
    run.games_asked = tuple(games)
    for declared in (run.capabilities.get("features"), said.get("features")):
        if isinstance(declared, list):
            return games, frozenset(str(f) for f in declared)
    return games, None


def fuzz(options: FuzzOptions) -> FuzzRun:
    """Generate, send, grade, shrink and group: the whole ``--fuzz`` run of one implementation.

    While one chunk of cases is with the implementation, the next is drawn and realised (the
    implementation is another process): the chunk drawn next is steered by the replies up to the
    chunk before, which keeps the run the same whatever the timing."""
    base = Options(command=options.command, timeout=options.timeout, start_timeout=options.start_timeout)
    run = Run(options.command, folder="(generated)")
    sessions = _Sessions(base, run, max(1, options.jobs))
    first = sessions.sessions[0]
    try:
        first.ensure_started()
    except Crashed as err:
        first.impl.stop()
        raise MalformedInputError("--cmd", options.command, str(err)) from None
    games, features = _read_hello(first.hello, run, options, sessions)
    out = FuzzRun(run, options, {g: GameTally() for g in games})
    if features is not None:
        out.features = features
    state = _Loop(out, sessions, {g: Steering() for g in games}, {})
    ends = None if options.budget is None else time.monotonic() + options.budget
    started = time.monotonic()
    pending: _Pending | None = None
    try:
        active = list(games)
        while active and not out.aborted:
            for game in list(active):
                tally = out.tallies[game]
                want = options.examples
                if ends is not None and time.monotonic() >= ends:
                    out.budget_reached = True
                    active = []
                    break
                if want is not None and tally.generated >= want:
                    active.remove(game)
                    continue
                chunk = _prepare(state, game, CHUNK if want is None else min(CHUNK, want - tally.generated))
                if pending is not None:
                    pending.finish(state)
                    _progress(state, pending.game, started if ends is not None else None)
                    if out.aborted:
                        pending = None
                        break
                if chunk is None:
                    active.remove(game)
                    pending = None
                    continue
                pending = _Pending(game, chunk, sessions, run.requested[game])
        if pending is not None and not out.aborted:
            pending.finish(state)
            _progress(state, pending.game, started if ends is not None else None)
    finally:
        if pending is not None:
            pending.thread.join()
        sessions.close()
    if options.save is not None:
        save(out, options.save)
    return out


@dataclass
class _Loop:
    out: FuzzRun
    sessions: _Sessions
    steering: dict[str, Steering]
    by_signature: dict[str, Failure]


def _progress(state: _Loop, game: str, started: float | None) -> None:
    tally, out = state.out.tallies[game], state.out
    _say(
        out.options,
        f"{game}: {tally.generated} generated, {tally.graded} graded, {tally.passed} passed, "
        f"{tally.failed} failed, {tally.skipped} skipped; {len(out.failures)} distinct failure(s)"
        + (f"; {time.monotonic() - started:.0f} s" if started is not None else ""),
    )


def _prepare(state: _Loop, game: str, count: int) -> list[tuple[int, Draft, Case]] | None:
    """The next ``count`` drafts of ``game``, realised (those the implementation's declaration rules
    out or the oracle refuses are counted here, not sent); None when nothing can be drawn."""
    out = state.out
    run, tally, steering = out.run, out.tallies[game], state.steering[game]
    allowed = _allowed(run, game)
    if allowed is not None:
        allowed = frozenset(p for p in allowed if not steering.refused(f"projection {p}"))
    shapes = [s for s in SHAPES[game] if not steering.refused(f"shape {s.name}") and s.fits(allowed)]
    if not shapes:
        note = "every shape: refused, or none projects what the implementation declares"
        if note not in tally.dropped:
            tally.dropped.append(note)
        return None
    declared = run.capabilities.get("boards")
    boards = frozenset(str(b) for b in declared) if isinstance(declared, list) else None
    strategy = _strategy(shapes, allowed, boards)
    asked = run.requested[game]
    numbered: list[tuple[int, Draft, Case]] = []
    for _ in range(count):
        tally.generated += 1
        number = tally.generated
        draft = None
        for attempt in range(4):
            draft = draw_draft(strategy, ("conform-fuzz", out.options.seed, game, number, attempt))
            if draft is not None:
                break
        if draft is None:
            tally.oracle_refused += 1
            continue
        case = realise_draft(draft, asked, number)
        if case is None:
            tally.oracle_refused += 1
            continue
        why = _fits(case, out)
        if why:
            tally.skipped += 1
            tally.skip_reasons[f"{why} not declared"] += 1
            continue
        like = steering.breaks_like(case)
        if like:
            tally.skipped += 1
            tally.skip_reasons[f"not sent: shows what {like} needs (found, shrunk)"] += 1
            continue
        numbered.append((number, draft, case))
    return numbered


class _Pending:
    """A chunk with the implementation, judged on a thread."""

    def __init__(
        self, game: str, chunk: list[tuple[int, Draft, Case]], sessions: _Sessions, asked: dict[str, str]
    ) -> None:
        self.game = game
        self.chunk = chunk
        self.results: list[Result] = []
        self.error: BaseException | None = None

        def work() -> None:
            try:
                self.results = sessions.judge_all([c for _, _, c in chunk], asked)
            except BaseException as err:  # re-raised on the main thread
                self.error = err

        self.thread = threading.Thread(target=work, daemon=True)
        self.thread.start()

    def finish(self, state: _Loop) -> None:
        self.thread.join()
        if self.error is not None:
            raise self.error
        _tally(state, self.game, self.chunk, self.results)


_STRATEGIES: dict[tuple[tuple[str, ...], frozenset[str] | None, frozenset[str] | None], Any] = {}


def _strategy(
    shapes: Sequence[Shape], allowed: frozenset[str] | None, boards: frozenset[str] | None = None
) -> Any:
    """A shape, evenly (``one_of`` leans towards its first strategies), then its draft; built once
    per set of shapes and projections (Hypothesis validates a strategy object on first use)."""
    from hypothesis import strategies as st

    key = (tuple(f"{s.game}/{s.name}" for s in shapes), allowed, boards)
    if key not in _STRATEGIES:
        _STRATEGIES[key] = st.sampled_from([shape.draw(allowed, boards) for shape in shapes]).flatmap(
            lambda c: c
        )
    return _STRATEGIES[key]


def _tally(
    state: _Loop, game: str, chunk: Sequence[tuple[int, Draft, Case]], results: Sequence[Result]
) -> None:
    out = state.out
    options, tally, steering = out.options, out.tallies[game], state.steering[game]
    for (number, draft, case), result in zip(chunk, results, strict=True):
        if result.outcome == "not-run":
            break
        tally.by_shape[draft.shape] += 1
        if result.outcome == "skipped":
            tally.skipped += 1
            reason = result.detail.removeprefix("unsupported: ") or "unsupported"
            tally.skip_reasons[f"unsupported: {reason}"[:120]] += 1
            steering.note(draft, supported=False)
            for key in Steering.keys(draft):
                if steering.refused(key) and key not in tally.dropped:
                    tally.dropped.append(key)
            continue
        steering.note(draft, supported=True)
        tally.graded += 1
        if result.outcome == "passed":
            tally.passed += 1
            steering.passed_traits |= case_traits(case)
            continue
        tally.failed += 1
        sig = signature(case, result)
        if sig in state.by_signature:
            state.by_signature[sig].seen += 1
            continue
        failure = _shrunk(out, state.sessions, draft, case, result, sig, number)
        state.by_signature[sig] = failure
        out.failures.append(failure)
        traits = case_traits(failure.case)
        if failure.outcome in BROKEN and failure.confirmed and traits:
            steering.broken.append((sig, traits))
        shrunk = (
            f"shrunk from size {failure.original_size} to {failure.size} in {failure.shrink_runs} run(s)"
            + (f" ({failure.shrink_stopped})" if failure.shrink_stopped else "")
            + ("" if failure.confirmed else " (not confirmed)")
        )
        _say(options, f"FAILED {case.id} {sig}: {result.detail[:160]}; {shrunk}")
    if out.run.aborted:
        out.aborted = out.run.aborted


def _private_session(main: Session, timeout: float) -> Session:
    """A session for shrinking and confirming: the same process as ``main`` (restarted when a
    candidate crashes or hangs, as the run does), its own timeout, and its own record and count of
    failures in a row, so that the crashes and hangs shrinking provokes (expected: every candidate
    of a hang that still hangs is one) never stop the run."""
    private = dataclasses.replace(main.run, results=[], aborted="")
    session = Session(dataclasses.replace(main.options, timeout=timeout), private)
    session.impl = main.impl
    session.hello = main.hello
    return session


def _shrunk(
    out: FuzzRun, sessions: _Sessions, draft: Draft, case: Case, result: Result, sig: str, number: int
) -> Failure:
    """``case`` shrunk (:func:`shrink`) and confirmed: a disagreement, a crash, a hang or a garbled
    reply alike. Candidates are sent at :attr:`FuzzOptions.candidate_timeout`, and at most
    :attr:`FuzzOptions.shrink_broken` of them may crash, hang or garble; the shrunk case is then
    sent again at the run's timeout: twice for a disagreement, once for a crash, hang or garbled
    reply (it costs a restart or the whole timeout). A crash or hang whose shrunk case does not
    break again is reported as found, unshrunk."""
    run, options = out.run, out.options
    asked = run.requested[case.game]
    main = sessions.sessions[0]
    quick = _private_session(main, options.candidate_timeout)
    best = [_measure(case)]
    broken = [0]

    def fails(candidate: Draft) -> tuple[Case, Result] | str | None:
        least = _least_measure(candidate)
        if least is not None and least >= best[0]:
            return NOT_SENT  # not smaller, whatever the oracle makes of it: not worth realising
        realised = realise_draft(candidate, asked, number)
        if realised is None or _fits(realised, out):
            return NOT_SENT
        measure = _measure(realised)
        if measure >= best[0]:
            return NOT_SENT  # kept only if smaller: not worth a round trip
        got = _judge(quick, realised, 0, True, asked)
        if got.outcome in BROKEN:
            broken[0] += 1
        if got.outcome in ("passed", "skipped") or signature(realised, got) != sig:
            return None
        best[0] = measure
        return realised, got

    def spent() -> bool:
        return broken[0] >= options.shrink_broken

    small_draft, small, runs = shrink(draft, case, fails, options.shrink_attempts, spent)
    stopped = ""
    if spent():
        stopped = f"shrunk as far as {options.shrink_broken} crashing or hanging candidates allowed"
    elif runs >= options.shrink_attempts:
        stopped = f"shrunk as far as {options.shrink_attempts} candidates allowed"
    full = _private_session(main, options.timeout)

    def again(candidate: Draft) -> Result | None:
        realised = realise_draft(candidate, asked, number)
        if realised is None:
            return None
        got = _judge(full, realised, 0, True, asked)
        return got if got.outcome not in ("passed", "skipped") and signature(realised, got) == sig else None

    confirmations = [again(small_draft) for _ in range(2 if result.outcome == "failed" else 1)]
    confirmed = all(r is not None for r in confirmations)
    if not confirmed and result.outcome in BROKEN and small is not case:
        # shrunk at the shorter timeout, it does not break at the run's: keep the case as found
        small, stopped = case, "the shrunk case did not break again at --timeout: kept as found"
    last = confirmations[-1] if confirmations[-1] is not None else result
    return Failure(
        signature=sig,
        game=case.game,
        section=case.section,
        found_at=number,
        original=case,
        original_size=case_size(case),
        case=small,
        size=case_size(small),
        detail=last.detail,
        state_diff=tuple(last.verdict.state_diff) if last.verdict else (),
        outcome=last.outcome,
        shrink_runs=runs,
        confirmed=confirmed,
        shrink_stopped=stopped,
    )


def save(out: FuzzRun, folder: Path) -> None:
    """Each distinct failure's shrunk case, in ``FOLDER/GAME/fuzz.cases.json`` (suite format)."""
    from invasion_oracle.model.core.canonical import write_atomic
    from invasion_oracle.reports.suite.files import group_files

    by_game: dict[str, list[Case]] = {}
    for index, failure in enumerate(out.failures, 1):
        slug = re.sub(r"[^a-z0-9]+", "-", failure.signature.split(":", 1)[-1].lower()).strip("-")[:40]
        name = f"{failure.case.id.rsplit('/', 1)[1].split('-')[0]}-{index:02d}-{slug}".rstrip("-")
        case = dataclasses.replace(
            failure.case,
            id=f"{failure.game}/{GROUP}/{name}",
            description=f"Found by conform --fuzz --seed {out.options.seed}: {failure.signature} (shrunk).",
        )
        failure.saved = f"{failure.game}/{GROUP}.cases.json"
        by_game.setdefault(failure.game, []).append(case)
    for game, cases in by_game.items():
        for name, text in group_files(game, cases).items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, text + ("" if text.endswith("\n") else "\n"))

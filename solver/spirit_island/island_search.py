"""Over a whole island: where a sequence of Invader cards ravages, builds and explores, and the
smallest starting change that flips one of those facts (a boundary fixture).

The question (:class:`IslandQuestion`) is an island, the pieces on it (Explorers, Towns, Cities,
Dahan; no Damage), the cards in the Ravage and Build spaces, one Explore card per turn, and the
Defend the Spirits put down each turn. Turn by turn the cards advance as the rules say
(seed 002, Invader Phase 4), so turn ``t`` ravages with turn ``t-2``'s Explore card.

Only the players' fight-back allocations are choices that change where the Invaders go (Blight,
cascades and the order of lands never move Invaders), so each fact is one of:

* ``always`` - it happens whatever the players choose;
* ``never``  - it cannot happen;
* ``depends`` - some fight-back choices make it happen, others prevent it.

z3 unrolls the turns over piece counts: Ravage Damage less Defend, Dahan destroyed efficiently
(every 2 Damage one Dahan), the survivors' Damage spread by the players as any kill counts whose
cost fits and whose leftover Damage the survivors can absorb (a Town takes at most 1 without
dying, a City 2), then Build (City when Towns outnumber Cities) and Explore (sources judged
before adding). The baseline enumerates every reachable state and every kill choice. Every
witness (the kill counts making a fact happen, or not) is replayed through the oracle game,
whose land sets, turn by turn, must equal the model's.

Domain (checked): no Damage or Health modifiers on the island at the start, one card per action
space, no Event, Adversary or card effects. The searches are about the Invaders' reach, not the
game's end: the oracle replays in play-on mode with an ample Blight pool, so a victory or a
defeat on the way does not cut the sequence short.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest, FirstLegalDecider, Option
from invasion_oracle.model.core.errors import MalformedInputError, RulesError
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.spirit_island.blight import HEALTHY, BlightTrack
from invasion_oracle.model.spirit_island.damage import allocations
from invasion_oracle.model.spirit_island.data import GameData, default_data
from invasion_oracle.model.spirit_island.fear import FearTrack
from invasion_oracle.model.spirit_island.game import InvaderPhaseGame, Rules
from invasion_oracle.model.spirit_island.invader_deck import InvaderBoard, InvaderCard, entry_stage
from invasion_oracle.model.spirit_island.island import Island
from invasion_oracle.model.spirit_island.pieces import Land, PieceKind, PieceStats
from invasion_oracle.model.spirit_island.rulings import GAME
from invasion_oracle.model.spirit_island.scenario import Scenario
from invasion_oracle.model.spirit_island.state import IslandState, SpiritInputs, SpiritPhase, StartPhase
from invasion_oracle.solver.arith import CpSatModel, Read, Z3Model
from invasion_oracle.solver.common import Deadline, OracleDisagreement, Status, TimeLimit, load_cpsat
from invasion_oracle.solver.spirit_island.engines import portfolio
from invasion_oracle.solver.spirit_island.replay import AMPLE_BLIGHT

ACTIONS = ("ravage", "build", "explore")
Counts = tuple[int, int, int, int]  # Explorers, Towns, Cities, Dahan
Kills = tuple[int, int, int]  # Explorers, Towns, Cities destroyed by fight-back
Fact = tuple[int, str, int]  # (turn index from 0, action, land index)


@dataclass(frozen=True, slots=True)
class IslandQuestion:
    island: Island
    start: tuple[Counts, ...]
    ravage: str | None
    build: str | None
    explores: tuple[str, ...]
    defend: tuple[tuple[int, ...], ...] = ()  # per turn, per land

    @property
    def turns(self) -> int:
        return len(self.explores)

    def card(self, turn: int, action: str) -> str | None:
        """The card in ``action``'s space in ``turn`` (0-based)."""
        if action == "explore":
            return self.explores[turn]
        back = turn - (2 if action == "ravage" else 1)
        if back >= 0:
            return self.explores[back]
        if action == "ravage":
            return self.ravage if turn == 0 else self.build
        return self.build

    def defend_at(self, turn: int, land: int) -> int:
        return self.defend[turn][land] if turn < len(self.defend) else 0

    def with_start(self, start: tuple[Counts, ...]) -> IslandQuestion:
        return replace(self, start=start)


def question_from_scenario(scenario: Scenario) -> IslandQuestion:
    """The island search question a scenario poses, or an error naming what is out of domain."""
    doc, source, state = scenario.document, scenario.source, scenario.initial
    if doc.get("start", "invader-phase") != "invader-phase":
        raise MalformedInputError(
            source, "$.start", "the island search starts at an Invader Phase (start: invader-phase)"
        )
    for name in ("adversary", "events"):
        if doc.get(name):
            raise MalformedInputError(
                source, f"$.{name}", "the island search has no Adversary or Events (they move pieces)"
            )
    board = state.invaders
    if len(board.ravage) > 1 or len(board.build) > 1:
        raise MalformedInputError(
            source, "$.invader_board", "the island search takes one card per action space"
        )
    turns = doc.get("turns", 1)
    explores = board.deck[:turns]
    if len(explores) < turns or any(entry_stage(e) is not None for e in explores):
        raise MalformedInputError(
            source,
            "$.invader_deck",
            f"the island search needs a known Invader card for each of the {turns} turn(s)' Explore",
        )
    for i, land in enumerate(state.lands):
        if land.health or land.damaged:
            raise MalformedInputError(
                source,
                f"$.lands.{scenario.island.lands[i]}",
                "the island search starts without Damage or Health modifiers",
            )
    for card_name in {*state.fear.candidates, *state.fear.deck, *state.fear.earned} - {"draw"}:
        if any(level for level in scenario.data.fear_card(card_name).levels):
            raise MalformedInputError(
                source,
                "$.fear",
                f"Fear card {card_name} has effects; the island search needs effect-free Fear cards (e.g. Blank Fear)",
            )
    if state.blight.card not in (None, "draw"):
        card = scenario.data.blight_card(str(state.blight.card))
        if card.on_flip or card.each_phase:
            raise MalformedInputError(
                source,
                "$.blight.card",
                f"Blight card {card.name} has effects; use one without (e.g. Plain Blight)",
            )
    defend = []
    for phase in state.spirit_phases[:turns]:
        if phase.skips or phase.fear:
            raise MalformedInputError(
                source, "$.spirit_phases", "the island search takes Defend only in the Spirit Phases"
            )
        row = [0] * len(state.lands)
        for index, amount in phase.defend:
            row[index] += amount
        defend.append(tuple(row))
    start = tuple(_counts(land) for land in state.lands)
    return IslandQuestion(
        scenario.island,
        start,
        board.ravage[0] if board.ravage else None,
        board.build[0] if board.build else None,
        tuple(explores),
        tuple(defend),
    )


def _counts(land: Land) -> Counts:
    return (
        land.count(PieceKind.EXPLORER),
        land.count(PieceKind.TOWN),
        land.count(PieceKind.CITY),
        land.count(PieceKind.DAHAN),
    )


# -- the rules on counts (shared by the baseline) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Numbers:
    health: tuple[int, int, int, int]
    damage: tuple[int, int, int, int]

    @staticmethod
    def of(stats: PieceStats) -> _Numbers:
        kinds = (PieceKind.EXPLORER, PieceKind.TOWN, PieceKind.CITY, PieceKind.DAHAN)
        return _Numbers(
            (
                stats.of(kinds[0]).health,
                stats.of(kinds[1]).health,
                stats.of(kinds[2]).health,
                stats.of(kinds[3]).health,
            ),
            (
                stats.of(kinds[0]).damage,
                stats.of(kinds[1]).damage,
                stats.of(kinds[2]).damage,
                stats.of(kinds[3]).damage,
            ),
        )


def _fight_back(counts: Counts, defend: int, n: _Numbers) -> tuple[int, int]:
    """(surviving Dahan, Damage they deal that lands) after the Invaders strike."""
    e, t, c, d = counts
    hits = max(0, n.damage[0] * e + n.damage[1] * t + n.damage[2] * c - defend)
    survivors = d - min(d, hits // n.health[3])
    capacity = n.health[0] * e + n.health[1] * t + n.health[2] * c
    return survivors, min(n.damage[3] * survivors, capacity)


def kill_choices(counts: Counts, dealt: int, n: _Numbers) -> Iterator[Kills]:
    """Every (Explorers, Towns, Cities) destroyed that an allocation of ``dealt`` can give."""
    e, t, c, _ = counts
    for ke in range(e + 1):
        for kt in range(t + 1):
            for kc in range(c + 1):
                cost = n.health[0] * ke + n.health[1] * kt + n.health[2] * kc
                absorb = (
                    (e - ke) * (n.health[0] - 1) + (t - kt) * (n.health[1] - 1) + (c - kc) * (n.health[2] - 1)
                )
                if cost <= dealt and dealt - cost <= absorb:
                    yield ke, kt, kc


def _cards(q: IslandQuestion, data: GameData, turn: int) -> dict[str, InvaderCard | None]:
    out: dict[str, InvaderCard | None] = {}
    for action in ACTIONS:
        card_id = q.card(turn, action)
        out[action] = data.card_by_id(card_id) if card_id else None
    return out


def _matches(island: Island, card: InvaderCard | None, land: int) -> bool:
    return card is not None and card.matches(island.terrain[land], island.coastal[land])


# -- the baseline -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Facts:
    """For each fact: ``always``, ``never`` or ``depends``."""

    verdicts: tuple[tuple[Fact, str], ...]
    status: Status
    method: str
    seconds: float
    witnesses: int = 0  # fact values shown on witness trajectories replayed through the oracle

    def verdict(self, fact: Fact) -> str:
        return dict(self.verdicts)[fact]

    def lands(self, turn: int, action: str, verdict: str) -> tuple[int, ...]:
        return tuple(land for (t, a, land), v in self.verdicts if t == turn and a == action and v == verdict)


def _step_options(
    q: IslandQuestion, data: GameData, turn: int, state: tuple[Counts, ...]
) -> Iterator[tuple[dict[Fact, bool], tuple[Counts, ...], tuple[Kills, ...]]]:
    """Every outcome of one Invader Phase from ``state``: facts, the next state, the kills."""
    island, n = q.island, _Numbers.of(data.stats)
    cards = _cards(q, data, turn)
    ravaged = [_matches(island, cards["ravage"], i) and sum(state[i][:3]) > 0 for i in range(len(state))]
    per_land: list[list[tuple[Counts, Kills]]] = []
    for i, counts in enumerate(state):
        if not ravaged[i]:
            per_land.append([(counts, (0, 0, 0))])
            continue
        survivors, dealt = _fight_back(counts, q.defend_at(turn, i), n)
        e, t, c, _ = counts
        per_land.append(
            [
                ((e - ke, t - kt, c - kc, survivors), (ke, kt, kc))
                for ke, kt, kc in kill_choices(counts, dealt, n)
            ]
        )
    # What does not depend on the choices, once for every combination: the lands the cards match,
    # the coastal lands and each land's neighbours.
    lands = range(len(state))
    builds = [_matches(island, cards["build"], i) for i in lands]
    explores = [_matches(island, cards["explore"], i) for i in lands]
    coastal = [island.coastal[i] for i in lands]
    neighbours = [tuple(island.neighbours(i)) for i in lands]
    for combo in itertools.product(*per_land):
        facts: dict[Fact, bool] = {}
        built = []
        for i, ((e, t, c, d), _) in enumerate(combo):
            facts[(turn, "ravage", i)] = ravaged[i]
            does = builds[i] and e + t + c > 0
            facts[(turn, "build", i)] = does
            built.append((e, t + (1 if does and t <= c else 0), c + (1 if does and t > c else 0), d))
        sources = [t + c > 0 for _, t, c, _ in built]
        final = []
        for i, (e, t, c, d) in enumerate(built):
            does = explores[i] and (coastal[i] or sources[i] or any(sources[j] for j in neighbours[i]))
            facts[(turn, "explore", i)] = does
            final.append((e + (1 if does else 0), t, c, d))
        yield facts, tuple(final), tuple(k for _, k in combo)


Witnesses = dict[tuple[tuple[int, ...], ...], dict[Fact, bool]]  # kills -> the facts they show


def baseline_facts(
    q: IslandQuestion, data: GameData | None = None, *, deadline: Deadline | None = None, replay: bool = True
) -> Facts:
    """Every reachable state, every choice: which facts always, never or sometimes hold. A
    witness trajectory for each fact seen true and seen false is replayed through the oracle."""
    data = data or default_data()
    deadline = deadline or Deadline()
    started = time.perf_counter()
    verdicts, witnesses = _baseline_verdicts(q, data, deadline)
    facts = Facts(verdicts, Status.PROVEN, "baseline", time.perf_counter() - started)
    return _replayed(q, data, facts, witnesses, deadline) if replay else facts


def _baseline_verdicts(
    q: IslandQuestion, data: GameData, deadline: Deadline
) -> tuple[tuple[tuple[Fact, str], ...], Witnesses]:
    # For each reachable state, the kills that first reached it: enough to rebuild one trajectory
    # to every fact value seen.
    seen: dict[tuple[Fact, bool], tuple[int, tuple[Counts, ...], tuple[tuple[int, ...], ...]]] = {}
    level: dict[tuple[Counts, ...], tuple[tuple[int, ...], ...]] = {q.start: ()}
    for turn in range(q.turns):
        following: dict[tuple[Counts, ...], tuple[tuple[int, ...], ...]] = {}
        for state, history in level.items():
            for facts, nxt, chosen in _step_options(q, data, turn, state):
                deadline.check()
                kills = history + tuple((turn, i, *k) for i, k in enumerate(chosen) if any(k))
                for fact, happened in facts.items():
                    if (fact, happened) not in seen:
                        seen[(fact, happened)] = (turn + 1, nxt, kills)
                following.setdefault(nxt, kills)
        level = following
    verdicts = []
    witnesses: Witnesses = {}
    for fact in _all_facts(q):
        values = [v for v in (True, False) if (fact, v) in seen]
        verdicts.append((fact, "depends" if len(values) == 2 else "always" if values == [True] else "never"))
        for value in values:
            turn, state, kills = seen[(fact, value)]
            witnesses.setdefault(_complete(q, data, turn, state, kills), {})[fact] = value
    return tuple(verdicts), witnesses


def _replayed(
    q: IslandQuestion, data: GameData, facts: Facts, witnesses: Witnesses, deadline: Deadline
) -> Facts:
    """Replay every witness trajectory through the oracle (within ``deadline``: past it, the
    facts are ``unknown``); the oracle's land sets must be the model's, and each fact as claimed."""
    for kills, claims in sorted(witnesses.items()):
        if deadline.expired():
            return replace(facts, verdicts=(), status=Status.UNKNOWN)
        trajectory = replay_trajectory(q, data, kills)
        expected = _model_facts(q, data, kills)
        if trajectory != expected:
            raise OracleDisagreement(
                f"kills {kills}: the oracle's land sets {sorted(trajectory ^ expected)} differ from the model's"
            )
        for fact, want in claims.items():
            if (fact in trajectory) != want:
                raise OracleDisagreement(
                    f"fact {fact} should be {want} with kills {kills}; the oracle disagrees"
                )
    # Every engine shows each fact value it claims on some trajectory: counting the values, not the
    # trajectories (which differ by engine), keeps the answer the same whichever engine gave it.
    return replace(facts, witnesses=sum(len(claims) for claims in witnesses.values()))


def _all_facts(q: IslandQuestion) -> list[Fact]:
    return [(t, a, i) for t in range(q.turns) for a in ACTIONS for i in range(len(q.island.lands))]


# -- z3 and CP-SAT --------------------------------------------------------------------------------------
#
# One model for both exact engines: the turns unrolled over piece counts against the model classes
# of :mod:`invasion_oracle.solver.arith` (z3 terms or CP-SAT terms; counts the start fixes stay
# Python integers, so most of turn 1 is settled before any solver runs).

Terms = Z3Model | CpSatModel


def _terms(engine: str, simple: bool = False) -> Terms:
    return CpSatModel() if engine == "cpsat" else Z3Model(simple)


class _Unrolled:
    """The first ``turns`` turns (all, by default) unrolled over piece counts, from a start that
    may hold unknowns; ``cap`` bounds every count."""

    def __init__(
        self,
        q: IslandQuestion,
        data: GameData,
        terms: Terms,
        start: list[list[Any]],
        cap: int,
        turns: int | None = None,
    ) -> None:
        n, island, ops = _Numbers.of(data.stats), q.island, terms.ops
        self.facts: dict[Fact, Any] = {}
        self.kills: dict[tuple[int, int], tuple[Any, Any, Any]] = {}
        state = start
        for turn in range(q.turns if turns is None else turns):
            cards = _cards(q, data, turn)
            after = []
            for i, (e, t, c, d) in enumerate(state):
                ravaged = ops.and_(_matches(island, cards["ravage"], i), e + t + c > 0)
                self.facts[(turn, "ravage", i)] = ravaged
                if ravaged is False:
                    self.kills[(turn, i)] = (0, 0, 0)
                    after.append([e, t, c, d])
                    continue
                hits = ops.max2(n.damage[0] * e + n.damage[1] * t + n.damage[2] * c - q.defend_at(turn, i), 0)
                survivors = d - ops.min2(ops.div(hits, n.health[3]), d)
                capacity = n.health[0] * e + n.health[1] * t + n.health[2] * c
                dealt = ops.min2(n.damage[3] * survivors, capacity)
                ke, kt, kc = (terms.int_var(0, cap, f"k{x}_{turn}_{i}") for x in "etc")
                cost = n.health[0] * ke + n.health[1] * kt + n.health[2] * kc
                absorb = (
                    (e - ke) * (n.health[0] - 1) + (t - kt) * (n.health[1] - 1) + (c - kc) * (n.health[2] - 1)
                )
                terms.require(
                    ops.ite(
                        ravaged,
                        ops.and_(ke <= e, kt <= t, kc <= c, cost <= dealt, dealt - cost <= absorb),
                        ops.and_(ke == 0, kt == 0, kc == 0),
                    )
                )
                self.kills[(turn, i)] = (ke, kt, kc)
                after.append([e - ke, t - kt, c - kc, ops.ite(ravaged, survivors, d)])
            built = []
            for i, (e, t, c, d) in enumerate(after):
                does = ops.and_(_matches(island, cards["build"], i), e + t + c > 0)
                self.facts[(turn, "build", i)] = does
                built.append(
                    [
                        e,
                        ops.ite(ops.and_(does, t <= c), t + 1, t),
                        ops.ite(ops.and_(does, t > c), c + 1, c),
                        d,
                    ]
                )
            sources = [t + c > 0 for _, t, c, _ in built]
            state = []
            for i, (e, t, c, d) in enumerate(built):
                near = [sources[j] for j in island.neighbours(i)]
                does = ops.and_(
                    _matches(island, cards["explore"], i), ops.or_(island.coastal[i], sources[i], *near)
                )
                self.facts[(turn, "explore", i)] = does
                state.append([ops.ite(does, e + 1, e), t, c, d])


def _cap(q: IslandQuestion, change: int = 0) -> int:
    """No count exceeds this: the largest at the start, ``change`` more, one Explorer a turn."""
    return max((max(counts) for counts in q.start), default=0) + change + q.turns


def z3_facts(
    q: IslandQuestion, data: GameData | None = None, *, deadline: Deadline | None = None, replay: bool = True
) -> Facts:
    """The facts by z3; witnesses replayed through the oracle."""
    return solver_facts(q, data, "z3", deadline=deadline, replay=replay)


def solver_facts(
    q: IslandQuestion,
    data: GameData | None = None,
    engine: str = "z3",
    *,
    deadline: Deadline | None = None,
    replay: bool = True,
) -> Facts:
    """The facts by an exact engine (``z3`` or ``cpsat``); witnesses replayed through the oracle."""
    data = data or default_data()
    deadline = deadline or Deadline()
    started = time.perf_counter()
    try:
        verdicts, witnesses = _solver_verdicts(q, data, deadline, engine)
    except TimeLimit:
        return Facts((), Status.UNKNOWN, engine, time.perf_counter() - started)
    facts = Facts(verdicts, Status.PROVEN, engine, time.perf_counter() - started)
    return _replayed(q, data, facts, witnesses, deadline) if replay else facts


def _z3_verdicts(
    q: IslandQuestion, data: GameData, deadline: Deadline
) -> tuple[tuple[tuple[Fact, str], ...], Witnesses]:
    return _solver_verdicts(q, data, deadline, "z3")


def _cpsat_verdicts(
    q: IslandQuestion, data: GameData, deadline: Deadline
) -> tuple[tuple[tuple[Fact, str], ...], Witnesses]:
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    return _solver_verdicts(q, data, deadline, "cpsat")


def _solver_verdicts(
    q: IslandQuestion, data: GameData, deadline: Deadline, engine: str
) -> tuple[tuple[tuple[Fact, str], ...], Witnesses]:
    """Each fact's values: one solution, then a query for each value no solution found so far
    shows (every solution shows a value of every fact, so most values need no query of their own)."""
    deadline.check()
    terms = _terms(engine)
    model = _Unrolled(q, data, terms, [list(counts) for counts in q.start], _cap(q))
    shown: dict[tuple[Fact, bool], tuple[tuple[int, ...], ...]] = {}

    def record(read: Read) -> None:
        kills = _kills_of(read, model)
        for fact, term in model.facts.items():
            shown.setdefault((fact, bool(read(term))), kills)

    first = terms.check(deadline)
    if first is None:
        raise OracleDisagreement("the unrolled rules allow no fight-back at all")
    record(first)
    for fact in _all_facts(q):
        term = model.facts[fact]
        for want in (True, False):
            if (fact, want) not in shown and not isinstance(term, bool):
                found = terms.check(deadline, term if want else terms.ops.not_(term))
                if found is not None:
                    record(found)
    verdicts = []
    witnesses: Witnesses = {}
    for fact in _all_facts(q):
        values = [v for v in (True, False) if (fact, v) in shown]
        verdicts.append((fact, "depends" if len(values) == 2 else "always" if values == [True] else "never"))
        for value in values:
            witnesses.setdefault(shown[(fact, value)], {})[fact] = value
    return tuple(verdicts), witnesses


def _kills_of(read: Read, unrolled: _Unrolled) -> tuple[tuple[int, ...], ...]:
    """Kill counts per (turn, land) as plain ints: ((turn, land, ke, kt, kc), ...) where any is non-zero."""
    out = []
    for (turn, land), ks in sorted(unrolled.kills.items()):
        values = tuple(read(k) for k in ks)
        if any(values):
            out.append((turn, land, *values))
    return tuple(out)


def _walk(
    q: IslandQuestion, data: GameData, kills: tuple[tuple[int, ...], ...], turns: int
) -> tuple[set[Fact], tuple[Counts, ...]]:
    """The facts that hold in the first ``turns`` turns of the trajectory where fight-back destroys
    ``kills`` (baseline rules), and the state after them."""
    wanted = {(k[0], k[1]): (k[2], k[3], k[4]) for k in kills}
    state, holds = q.start, set()
    for turn in range(turns):
        for facts, nxt, chosen in _step_options(q, data, turn, state):
            if all(chosen[i] == wanted.get((turn, i), (0, 0, 0)) for i in range(len(state))):
                holds |= {f for f, v in facts.items() if v}
                state = nxt
                break
        else:
            raise OracleDisagreement(f"kills {kills} are not a legal choice in turn {turn + 1}")
    return holds, state


def _model_facts(q: IslandQuestion, data: GameData, kills: tuple[tuple[int, ...], ...]) -> set[Fact]:
    """The facts that hold on the trajectory where fight-back destroys ``kills`` (baseline rules)."""
    return _walk(q, data, kills, q.turns)[0]


# -- replay through the oracle -------------------------------------------------------------------------


def oracle_state(q: IslandQuestion, data: GameData) -> IslandState:
    """The question as an oracle state: no Spirits, a Blank Fear deck, ample Blight."""
    lands = tuple(
        Land()
        .add(PieceKind.EXPLORER, e)
        .add(PieceKind.TOWN, t)
        .add(PieceKind.CITY, c)
        .add(PieceKind.DAHAN, d)
        for e, t, c, d in q.start
    )
    fear = FearTrack(
        data.value("fear_per_player"),
        data.value("fear_per_player"),
        ("Blank Fear",) * 9,
        tuple(data.value("fear_cards_per_level")),
    )
    phases = tuple(
        SpiritPhase(tuple((i, q.defend_at(t, i)) for i in range(len(lands)) if q.defend_at(t, i)))
        for t in range(q.turns)
    )
    board = InvaderBoard(q.explores, (q.ravage,) if q.ravage else (), (q.build,) if q.build else ())
    return IslandState(
        lands=lands,
        spirits=(),
        players=1,
        turn=1,
        invaders=board,
        fear=fear,
        blight=BlightTrack(None, HEALTHY, AMPLE_BLIGHT),
        phases_left=q.turns,
        spirit_phases=phases,
        agenda=(SpiritInputs(), StartPhase()),
    )


def replay_trajectory(
    q: IslandQuestion, data: GameData, kills: tuple[tuple[int, ...], ...], rulings: Rulings | None = None
) -> set[Fact]:
    """Play the question in the oracle with fight-back choices destroying ``kills``; the facts seen."""
    game = InvaderPhaseGame(Rules.of(rulings or Rulings.defaults(GAME), data), q.island, play_on=True)
    events, _ = drive(game, oracle_state(q, data), _fight_back_chooser(q, data, kills))
    return _facts_from_events(q, events)


def _fight_back_chooser(
    q: IslandQuestion, data: GameData, kills: tuple[tuple[int, ...], ...]
) -> Callable[[IslandState, DecisionRequest], Option]:
    """Answers fight-back requests with the allocation destroying the witness's kills; else first legal."""
    wanted = {(k[0], k[1]): (k[2], k[3], k[4]) for k in kills}
    first = FirstLegalDecider()

    def choose(state: IslandState, request: DecisionRequest) -> Option:
        if request.kind != "fight-back":
            return first.decide(request)
        land = q.island.index(str(dict(request.context)["land"]))
        target = wanted.get((state.turn - 1, land), (0, 0, 0))
        for option in allocations(state.lands[land], data.stats, int(dict(request.context)["damage"])):
            got = (
                option.destroyed.count(PieceKind.EXPLORER),
                option.destroyed.count(PieceKind.TOWN),
                option.destroyed.count(PieceKind.CITY),
            )
            if got == target:
                return option.label
        raise OracleDisagreement(
            f"turn {state.turn}, {q.island.lands[land]}: no oracle allocation destroys {target}"
        )

    return choose


def drive(
    game: InvaderPhaseGame, state: IslandState, choose: Callable[[IslandState, DecisionRequest], Option]
) -> tuple[list[Event], list[Option]]:
    """Run the oracle's pure interface with a chooser that sees the state (no chance requests);
    the events and the answers given."""
    state, opening = game.start(state)
    events: list[Event] = list(opening)
    answers: list[Option] = []
    for _ in range(100_000):
        request = game.pending(state)
        if request is None:
            return events, answers
        if isinstance(request, ChanceRequest):
            raise RulesError(f"the island search needs no draws, but the oracle asked {request.describe()}")
        answer = choose(state, request)
        answers.append(answer)
        state, caused = game.step(state, answer)
        events += caused
    raise RulesError("the replay did not end; this is a bug")


def _facts_from_events(q: IslandQuestion, events: list[Event]) -> set[Fact]:
    facts: set[Fact] = set()
    turn = -1
    for event in events:
        if event.kind == "invader_phase_started":
            turn = int(event.get("turn")) - 1
        elif event.kind == "ravaged":
            facts.add((turn, "ravage", q.island.index(event.get("land"))))
        elif event.kind == "built":
            facts.add((turn, "build", q.island.index(event.get("land"))))
        elif event.kind == "explored":
            facts |= {(turn, "explore", q.island.index(name)) for name in event.get("lands")}
    return facts


def search_facts(
    q: IslandQuestion,
    data: GameData | None = None,
    *,
    method: str = "auto",
    seconds: float | None = None,
    deadline: Deadline | None = None,
) -> Facts:
    """The facts by ``method`` (``auto``: the baseline for a short budget, then z3), witnesses
    replayed, all within one time limit; ``unknown`` past it."""
    data = data or default_data()
    deadline = deadline or Deadline(seconds)
    started = time.perf_counter()
    try:
        (verdicts, witnesses), engine = portfolio(
            method,
            lambda limit: _baseline_verdicts(q, data, limit),
            lambda limit: _z3_verdicts(q, data, limit),
            deadline,
            lambda limit: _cpsat_verdicts(q, data, limit),
        )
    except TimeLimit:
        return Facts((), Status.UNKNOWN, method, time.perf_counter() - started)
    facts = Facts(verdicts, Status.PROVEN, engine, time.perf_counter() - started)
    return _replayed(q, data, facts, witnesses, deadline)


# -- the smallest starting change that flips a fact ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Flip:
    """The fewest piece changes (``(land, kind, delta)``) making an ``always`` fact avoidable or a
    ``never`` fact possible; ``changes`` is ``None`` when none within ``max_cost`` exists."""

    fact: Fact
    before: str
    changes: tuple[tuple[str, str, int], ...] | None
    cost: int | None
    kills: tuple[tuple[int, ...], ...]  # the fight-back witness under the changed start
    status: Status
    method: str
    seconds: float
    replayed: bool

    def to_json(self) -> dict[str, object]:
        turn, action, land = self.fact
        return {
            "fact": {"turn": turn + 1, "action": action, "land": land},
            "before": self.before,
            "changes": None if self.changes is None else [list(c) for c in self.changes],
            "cost": self.cost,
            "status": self.status.value,
            "engine": self.method,
            "replayed": self.replayed,
        }


KINDS = ("explorer", "town", "city", "dahan")


def _apply(start: tuple[Counts, ...], changes: tuple[tuple[int, int, int], ...]) -> tuple[Counts, ...] | None:
    rows = [list(c) for c in start]
    for land, kind, delta in changes:
        rows[land][kind] += delta
        if rows[land][kind] < 0:
            return None
    return tuple((r[0], r[1], r[2], r[3]) for r in rows)


def _flip_baseline(
    q: IslandQuestion, data: GameData, fact: Fact, want: bool, max_cost: int, deadline: Deadline
) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]] | None:
    units = [(land, kind, sign) for land in range(len(q.start)) for kind in range(4) for sign in (1, -1)]
    for cost in range(1, max_cost + 1):
        for combo in itertools.combinations_with_replacement(units, cost):
            if any((a, b, -s) in combo for a, b, s in combo):
                continue  # a change and its undoing
            deadline.check()
            merged: dict[tuple[int, int], int] = {}
            for land, kind, sign in combo:
                merged[(land, kind)] = merged.get((land, kind), 0) + sign
            changes = tuple(sorted((land, kind, d) for (land, kind), d in merged.items()))
            start = _apply(q.start, changes)
            if start is None:
                continue
            witness = _find_trajectory(q.with_start(start), data, fact, want, deadline)
            if witness is not None:
                return changes, witness
    return None


def _find_trajectory(
    q: IslandQuestion, data: GameData, fact: Fact, want: bool, deadline: Deadline
) -> tuple[tuple[int, ...], ...] | None:
    """Kill choices under which ``fact`` is ``want`` (depth-first over the baseline's steps)."""

    def go(
        turn: int, state: tuple[Counts, ...], kills: tuple[tuple[int, ...], ...]
    ) -> tuple[tuple[int, ...], ...] | None:
        deadline.check()
        if turn > fact[0]:
            return None
        for facts, nxt, chosen in _step_options(q, data, turn, state):
            taken = kills + tuple((turn, i, *k) for i, k in enumerate(chosen) if any(k))
            if turn == fact[0]:
                if facts[fact] == want:
                    return _complete(q, data, turn + 1, nxt, taken)
                continue
            found = go(turn + 1, nxt, taken)
            if found is not None:
                return found
        return None

    return go(0, q.start, ())


def _complete(
    q: IslandQuestion,
    data: GameData,
    turn: int,
    state: tuple[Counts, ...],
    kills: tuple[tuple[int, ...], ...],
) -> tuple[tuple[int, ...], ...]:
    """Extend a trajectory to the last turn with the first choice of each later step."""
    for later in range(turn, q.turns):
        _, state, chosen = next(_step_options(q, data, later, state))
        kills += tuple((later, i, *k) for i, k in enumerate(chosen) if any(k))
    return kills


def _flip_z3(
    q: IslandQuestion, data: GameData, fact: Fact, want: bool, max_change: int, deadline: Deadline
) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]] | None:
    return _flip_solver("z3", q, data, fact, want, max_change, deadline)


def _flip_cpsat(
    q: IslandQuestion, data: GameData, fact: Fact, want: bool, max_change: int, deadline: Deadline
) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]] | None:
    load_cpsat(deadline)  # OR-Tools' import is long and cannot be interrupted: under the deadline
    return _flip_solver("cpsat", q, data, fact, want, max_change, deadline)


def _flip_solver(
    engine: str,
    q: IslandQuestion,
    data: GameData,
    fact: Fact,
    want: bool,
    max_change: int,
    deadline: Deadline,
) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]] | None:
    """The least change (at most ``max_change`` pieces) under which ``fact`` is ``want``, and its
    witness, by z3 or CP-SAT: one lexicographic minimum, so both give the baseline's answer. After
    the cost, each (land, kind) in order prefers a change to none and additions to removals (the
    order in which the baseline meets candidates); then the fewest kills turn by turn, land by land
    (the order the baseline's trajectory search tries them)."""
    deadline.check()
    terms = _terms(engine, simple=True)  # every term read below is fixed by the lexicographic minimum
    ops = terms.ops
    deltas = [
        [terms.int_var(-max_change, max_change, f"delta_{i}_{k}") for k in range(4)]
        for i in range(len(q.start))
    ]
    start = []
    for counts, row in zip(q.start, deltas, strict=True):
        cells = []
        for value, delta in zip(counts, row, strict=True):
            terms.require(value + delta >= 0)
            cells.append(value + delta)
        start.append(cells)
    # Turns after the fact's cannot change it: their kills are the first choices, as the baseline's.
    unrolled = _Unrolled(q, data, terms, start, _cap(q, max_change), turns=fact[0] + 1)
    term = unrolled.facts[fact]
    terms.require(term if want else ops.not_(term))
    # |d| as an If on its sign: z3 solves the flips 10-15 % faster than with max(d, -d)
    cost = ops.total([ops.ite(d >= 0, d, -d) for row in deltas for d in row])
    terms.require(cost <= max_change)
    # a cell's rank: +max .. +1, then -max .. -1, then no change
    ranks = [
        (
            ops.ite(d > 0, max_change - d, ops.ite(d < 0, 2 * max_change + d, 2 * max_change)),
            2 * max_change + 1,
        )
        for row in deltas
        for d in row
    ]
    kills = [(k, _cap(q, max_change) + 1) for _, ks in sorted(unrolled.kills.items()) for k in ks]
    read = terms.lex_min([(cost, max_change + 1), *ranks, *kills], deadline)
    if read is None:
        return None
    changes = tuple((i, k, read(d)) for i, row in enumerate(deltas) for k, d in enumerate(row) if read(d))
    moved = _apply(q.start, changes)
    if moved is None:
        raise OracleDisagreement(f"the {engine} flip {changes} leaves a negative count")
    early = _kills_of(read, unrolled)
    after = q.with_start(moved)
    _, state = _walk(after, data, early, fact[0] + 1)
    return changes, _complete(after, data, fact[0] + 1, state, early)


def smallest_flip(
    q: IslandQuestion,
    fact: Fact,
    *,
    data: GameData | None = None,
    method: str = "auto",
    max_cost: int = 3,
    seconds: float | None = None,
    deadline: Deadline | None = None,
) -> Flip:
    """The smallest starting change making ``fact`` (now ``always`` or ``never``) turn out otherwise.

    ``auto`` gives the baseline a short budget, then z3 the time left. The answer is replayed:
    under the changed start, the oracle with the witness's fight-back choices must show the fact
    flipped, and land sets turn by turn must match the model's. The time limit covers it all.
    """
    data = data or default_data()
    deadline = deadline or Deadline(seconds)
    started = time.perf_counter()
    engine = method
    try:
        (verdicts, _), _ = portfolio(
            method,
            lambda limit: _baseline_verdicts(q, data, limit),
            lambda limit: _z3_verdicts(q, data, limit),
            deadline,
            lambda limit: _cpsat_verdicts(q, data, limit),
        )
        before = dict(verdicts)[fact]
        if before == "depends":
            raise RulesError(
                f"fact {fact} already depends on the players' choices; a flip needs an 'always' or 'never' fact"
            )
        want = before == "never"

        found, engine = portfolio(
            method,
            lambda limit: _flip_baseline(q, data, fact, want, max_cost, limit),
            lambda limit: _flip_z3(q, data, fact, want, max_cost, limit),
            deadline,
            lambda limit: _flip_cpsat(q, data, fact, want, max_cost, limit),
        )
    except TimeLimit:
        return Flip(fact, "", None, None, (), Status.UNKNOWN, engine, time.perf_counter() - started, False)
    elapsed = time.perf_counter() - started
    if found is None:
        return Flip(fact, before, None, None, (), Status.PROVEN, engine, elapsed, False)
    changes, kills = found
    changed = _apply(q.start, changes)
    assert changed is not None
    moved = q.with_start(changed)
    trajectory = replay_trajectory(moved, data, kills)
    if trajectory != _model_facts(moved, data, kills) or (fact in trajectory) != want:
        raise OracleDisagreement(
            f"flip {changes}: the oracle does not show {fact} {'happening' if want else 'avoided'}"
        )
    if deadline.expired():
        return Flip(
            fact, before, None, None, (), Status.UNKNOWN, engine, time.perf_counter() - started, False
        )
    named = tuple((q.island.lands[land], KINDS[kind], delta) for land, kind, delta in changes)
    return Flip(
        fact, before, named, sum(abs(d) for _, _, d in changes), kills, Status.PROVEN, engine, elapsed, True
    )


# -- boundary fixtures ------------------------------------------------------------------------------------


def question_document(q: IslandQuestion, description: str = "") -> dict[str, Any]:
    """A scenario document posing ``q`` in a real game: no Spirits, Blank Fear cards, the Invader
    Board's Blight space with ample Blight (so nothing ends the game early but a victory)."""
    lands = {}
    for name, (e, t, c, d) in zip(q.island.lands, q.start, strict=True):
        text = " ".join(
            f"{n}{letter}" if n > 1 else letter for n, letter in ((c, "C"), (t, "T"), (e, "E"), (d, "D")) if n
        )
        if text:
            lands[name] = text
    board: dict[str, list[str]] = {}
    if q.ravage:
        board["ravage"] = [q.ravage]
    if q.build:
        board["build"] = [q.build]
    document: dict[str, Any] = {
        "game": "spirit-island",
        "description": description,
        "island": {"boards": list(q.island.boards)},
        "pieces": "empty",
        "lands": lands,
        "players": 1,
        "turns": q.turns,
        "invader_board": board,
        "invader_deck": list(q.explores),
        "fear": {"deck": ["Blank Fear"] * 9, "cards": ["Blank Fear"]},
        "blight": {"card": "none", "pool": AMPLE_BLIGHT},
        "spirit_phases": [
            {
                "defend": {
                    q.island.lands[i]: q.defend_at(t, i) for i in range(len(q.start)) if q.defend_at(t, i)
                }
            }
            for t in range(q.turns)
        ],
    }
    if q.island.layout is not None:
        layout = q.island.layout
        document["island"]["layout"] = {
            "edges": [list(e) for e in layout.edges],
            "partial": layout.partial,
            "source": layout.source,
        }
    return document


def boundary_fixture(q: IslandQuestion, flip: Flip, data: GameData | None = None) -> dict[str, Any]:
    """The flipped start as a scenario file with the witness's decisions scripted, checked by
    running it as a real game: the fixture shows the fact flipped at the smallest change."""
    from invasion_oracle.model.core.decisions import ScriptedChance, ScriptedDecider
    from invasion_oracle.model.spirit_island.scenario import scenario_from_document
    from invasion_oracle.model.spirit_island.simulate import run

    data = data or default_data()
    if flip.changes is None:
        raise RulesError("no flip was found, so there is no boundary fixture to write")
    turn, action, land = flip.fact
    index = {name: i for i, name in enumerate(q.island.lands)}
    changes = tuple((index[name], KINDS.index(kind), delta) for name, kind, delta in flip.changes)
    start = _apply(q.start, changes)
    assert start is not None
    moved = q.with_start(start)
    game = InvaderPhaseGame(Rules.of(Rulings.defaults(GAME), data), q.island)
    _, answers = drive(game, oracle_state(moved, data), _fight_back_chooser(moved, data, flip.kills))
    what = f"turn {turn + 1} {action} in {q.island.lands[land]}"
    change_text = ", ".join(f"{name} {delta:+d} {kind}" for name, kind, delta in flip.changes)
    document = question_document(
        moved,
        f"Boundary fixture: {what} was {flip.before}; after {change_text} it is "
        f"{'avoidable' if flip.before == 'always' else 'possible'}, shown by the scripted fight-back decisions.",
    )
    document["decisions"] = {"script": answers, "then": "first-legal"}
    document["chance"] = {"then": "none"}
    scenario = scenario_from_document(document, "boundary fixture")
    playthrough = run(
        scenario, ScriptedDecider(answers, label="fixture"), ScriptedChance([], label="fixture")
    )
    happened = (turn, action, land) in _facts_from_events(q, list(playthrough.events))
    if happened != (flip.before == "never"):
        raise RulesError(
            f"in a real game (not played on) the fixture does not show {what} flipped: the game ended first"
        )
    return document

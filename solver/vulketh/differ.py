"""Search (c): the smallest positions where MOVE or GROW behave differently under two readings.

For a ruling about MOVE or GROW (``VK-MOVE-DEST``, ``VK-MOVE-HIGHEST``, ``VK-GROW-OVERFLOW``),
two of its readings, an action, a direction and an amount: the position with the fewest pieces
(Invaders plus Warlords, with at least one Warlord on the map, as in every game that has not
used 'Appease the Volcano') on which the action leaves the Invaders in different hexes. Ties go
to the lexicographically first position (Invaders by hex, then Warlords by hex). Such a position
is a boundary fixture: ``--write FILE`` saves it as a scenario whose card takes exactly that
action, to run under each reading.

Engines (exact; tests check them equal): ``z3`` minimises over symbolic positions with the
action compiled under both readings (:mod:`invasion_oracle.solver.vulketh.compiled`); ``baseline`` walks every
position by size through the oracle's own GROW and MOVE functions. The answer is replayed
through the whole oracle (a scenario per reading) before it is returned.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import z3

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.model.vulketh.action_board import ACTIONS, STRENGTHS
from invasion_oracle.model.vulketh.data import GameData, default_data
from invasion_oracle.model.vulketh.game import Rules
from invasion_oracle.model.vulketh.invader_actions import grow_targets, move_invaders
from invasion_oracle.model.vulketh.scenario import scenario_from_document
from invasion_oracle.model.vulketh.simulate import run
from invasion_oracle.solver.common import Deadline, OracleDisagreement, Progress, Status, TimeLimit, z3_check
from invasion_oracle.solver.vulketh.compiled import Z3, Compiled, CState
from invasion_oracle.solver.vulketh.race import lex_min, new_solver

ENGINES = ("z3", "baseline")
RULINGS = {"VK-MOVE-DEST": "MOVE", "VK-MOVE-HIGHEST": "MOVE", "VK-GROW-OVERFLOW": "GROW"}
SECTIONS = ("steal-resources", "convert", "spread", "regress", "war")


@dataclass(frozen=True, slots=True)
class DifferQuestion:
    ruling: str
    readings: tuple[str, str]
    action: str
    direction: str
    amount: int
    max_size: int
    rules: Rules  # everything else at the scenario's readings

    @property
    def cap(self) -> int:
        return int(self.rules.data.value("population_limit"))


def make_question(
    rules: Rules,
    ruling: str,
    readings: tuple[str, str] | None = None,
    direction: str | None = None,
    amount: int | None = None,
    max_size: int = 8,
) -> DifferQuestion:
    if ruling not in RULINGS:
        raise MalformedInputError("--ruling-id", "$", f"searches cover {', '.join(RULINGS)}; got {ruling!r}")
    names = REGISTRY.get(ruling).reading_names
    pair = readings or (names[0], names[1])
    for name in pair:
        if name not in names:
            raise MalformedInputError("--readings", "$", f"{ruling} reads {', '.join(names)}; got {name!r}")
    if pair[0] == pair[1]:
        raise MalformedInputError("--readings", "$", "give two different readings")
    action = RULINGS[ruling]
    chosen_direction = direction or ("highest" if ruling == "VK-MOVE-HIGHEST" else "lowest")
    chosen_amount = amount if amount is not None else rules.data.amount(action, "standard")
    return DifferQuestion(ruling, pair, action, chosen_direction, chosen_amount, max_size, rules)


@dataclass(frozen=True, slots=True)
class Position:
    invaders: tuple[int, ...]
    warlords: tuple[bool, ...]

    @property
    def size(self) -> int:
        return sum(self.invaders) + sum(self.warlords)

    def to_json(self) -> dict[str, Any]:
        return {
            "invaders": {str(n): c for n, c in enumerate(self.invaders, 1) if c},
            "warlords": [n for n, w in enumerate(self.warlords, 1) if w],
        }

    def describe(self) -> str:
        """``9:W+2`` is a Warlord and two Invaders on hex 9; ``7:W`` a lone Warlord; ``8:2`` Invaders.

        >>> Position((0,) * 7 + (2, 1), (False,) * 8 + (True,)).describe()
        '8:2 9:W+1'
        """
        parts = []
        for n, (c, w) in enumerate(zip(self.invaders, self.warlords, strict=True), 1):
            if w:
                parts.append(f"{n}:W+{c}" if c else f"{n}:W")
            elif c:
                parts.append(f"{n}:{c}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class DifferAnswer:
    status: Status
    engine: str
    ruling: str
    readings: tuple[str, str]
    action: str
    direction: str
    amount: int
    position: Position | None  # None: no position up to max_size separates the readings
    after: tuple[tuple[int, ...], tuple[int, ...]] | None  # Invaders by hex after, per reading
    max_size: int
    replayed: bool
    searched_up_to: int | None = None  # sizes fully refuted when the search was cut (else max_size)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "engine": self.engine,
            "ruling": self.ruling,
            "readings": list(self.readings),
            "action": f"{self.action} {self.amount} {self.direction}",
            "position": self.position.to_json() if self.position else None,
            "size": self.position.size if self.position else None,
            "after": {r: list(a) for r, a in zip(self.readings, self.after, strict=True)}
            if self.after
            else None,
            "searched_up_to_size": self.max_size if self.searched_up_to is None else self.searched_up_to,
            "replayed": self.replayed,
        }


# -- the oracle's functions -------------------------------------------------------------------------


def _readings(question: DifferQuestion, reading: str) -> dict[str, str]:
    rulings = question.rules.rulings.with_choice(question.ruling, reading)
    return {rid: rulings.reading(rid) for rid in ("VK-GROW-OVERFLOW", "VK-MOVE-DEST", "VK-MOVE-HIGHEST")}


def oracle_action(question: DifferQuestion, position: Position, reading: str) -> tuple[int, ...]:
    """The Invaders by hex after the action, by the oracle's own GROW / MOVE functions."""
    r = _readings(question, reading)
    if question.action == "GROW":
        targets, _ = grow_targets(
            position.invaders,
            position.warlords,
            min(question.amount, pieces_left(question, position)),
            question.direction,
            r["VK-GROW-OVERFLOW"],
            question.cap,
        )
        counts = list(position.invaders)
        for n, c in targets:
            counts[n - 1] += c
        return tuple(counts)
    counts2, _ = move_invaders(
        position.invaders,
        question.rules.map.adjacency,
        question.amount,
        question.direction,
        r["VK-MOVE-DEST"],
        r["VK-MOVE-HIGHEST"],
        question.cap,
    )
    return counts2


def pieces_left(question: DifferQuestion, position: Position) -> int:
    """The Invaders a GROW can still place on ``position``: the supply (the members not on the
    map, as a witness scenario gives it) and the overrun reserve. A GROW larger than that places
    what there is, in the game as here (found with huge action values in ``--data``)."""
    data = question.rules.data
    return data.value("invader_members") - sum(position.invaders) + data.value("reserve_size")


def positions_of_size(size: int, cap: int) -> Iterator[Position]:
    """Every position with ``size`` pieces, an Invader and a Warlord, lexicographically (Invaders
    by hex, then Warlords by hex, fewer first). A map with no Invader never meets a card's
    action: the Invader turn's wipe-out step refills it first (seed 003, Invader Turn, the note on
    Invaders all removed), which a witness replayed through the game would show (the search once
    found Warlords alone with a huge GROW, and the replay disagreed)."""

    def invaders(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == 9:
            yield ()
            return
        for c in range(min(cap, left) + 1):
            for rest in invaders(i + 1, left - c):
                yield (c, *rest)

    def warlords(i: int, left: int) -> Iterator[tuple[bool, ...]]:
        if i == 9:
            if left == 0:
                yield ()
            return
        for w in (False, True):
            if left - int(w) < 0 or left - int(w) > 8 - i:
                continue
            for rest in warlords(i + 1, left - int(w)):
                yield (w, *rest)

    for inv in invaders(0, size - 1):
        if not any(inv):
            continue
        for war in warlords(0, size - sum(inv)):
            if 1 <= sum(war) <= 5:
                yield Position(inv, war)


@dataclass
class _Extent:
    """The largest size every position of which the search has refuted (0: none yet)."""

    done: int = 0


def _baseline(
    question: DifferQuestion, deadline: Deadline, progress: Progress, extent: _Extent
) -> Position | None:
    for size in range(1, question.max_size + 1):
        for position in positions_of_size(size, question.cap):
            deadline.check()
            progress.step()
            a = oracle_action(question, position, question.readings[0])
            b = oracle_action(question, position, question.readings[1])
            if a != b:
                return position
        extent.done = size
    return None


# -- z3 --------------------------------------------------------------------------------------------


def _compiled(question: DifferQuestion, reading: str, deadline: Deadline) -> Compiled:
    rulings = question.rules.rulings.with_choice(question.ruling, reading)
    return Compiled(replace(question.rules, rulings=rulings), Z3, deadline.check)


def _z3(question: DifferQuestion, deadline: Deadline, extent: _Extent | None = None) -> Position | None:
    inv = [z3.Int(f"inv{n}") for n in range(1, 10)]
    war = [z3.Bool(f"war{n}") for n in range(1, 10)]
    warlords = z3.Sum(*[z3.If(w, 1, 0) for w in war])
    state = CState(
        inv=tuple(inv),
        ply=(0,) * 9,
        war=tuple(war),
        board=(True,) * 5,
        rows=((2, 2, 2),) * len(ACTIONS),
        pile=(),
        discard=(),
        last=-1,
        supply=question.rules.data.value("invader_members") - z3.Sum(*inv),  # as pieces_left
        reserve=question.rules.data.value("reserve_size"),
        score=0,
        res=0,
        player_res=0,
        turns=1,
        player_won=False,
        invader_won=False,
        summons=0,
    )
    results = []
    for reading in question.readings:
        compiled = _compiled(question, reading, deadline)
        if question.action == "GROW":
            after = compiled.grow(state, question.amount, question.direction)
        else:
            after = compiled.move(state, question.amount, question.direction, question.amount)
        results.append(after.inv)
    size = z3.Sum(*inv) + warlords
    solver = new_solver()
    solver.add(*[z3.And(x >= 0, x <= question.cap) for x in inv], warlords >= 1, warlords <= 5)
    solver.add(z3.Sum(*inv) >= 1)  # an Invader on the map (positions_of_size says why)
    solver.add(z3.Or(*[a != b for a, b in zip(results[0], results[1], strict=True)]))
    for target in range(1, question.max_size + 1):
        deadline.check()
        if z3_check(solver, deadline, size == target) != z3.sat:
            if extent is not None:
                extent.done = target
            continue
        terms = [(x, range(question.cap + 1)) for x in inv] + [(z3.If(w, 1, 0), range(2)) for w in war]
        model = lex_min([size == target], terms, deadline, solver)
        return Position(
            tuple(model.eval(x).as_long() for x in inv), tuple(z3.is_true(model.eval(w)) for w in war)
        )
    return None

    return None


# -- witness scenarios and the answer -----------------------------------------------------------------


def witness_document(question: DifferQuestion, position: Position, data: GameData) -> dict[str, Any]:
    """A scenario whose first Invader card takes exactly the action (other cards only gather)."""
    face = _face_for(question, data)
    acting = {"action": question.action, "face": face, "direction": question.direction}
    gather = {"action": "GATHER", "face": "moon", "direction": "lowest"}
    cards = [
        {"id": "witness", "deck": 1, "actions": [acting, gather], "goal": {"goal": "none"}, "next_deck": 1},
        {"id": "filler2", "deck": 2, "actions": [gather, gather], "goal": {"goal": "none"}, "next_deck": 2},
        {"id": "filler3", "deck": 3, "actions": [gather, gather], "goal": {"goal": "none"}, "next_deck": 3},
    ]
    hexes: dict[str, dict[str, Any]] = {}
    tokens = iter(SECTIONS)
    for n, (count, warlord) in enumerate(zip(position.invaders, position.warlords, strict=True), 1):
        cell: dict[str, Any] = {}
        if count:
            cell["invaders"] = count
        if warlord:
            cell["warlord"] = next(tokens)
        if cell:
            hexes[str(n)] = cell
    return {
        "game": "vulketh",
        "description": (
            f"Boundary fixture for {question.ruling}: {question.action} {question.amount} {question.direction} "
            f"on the smallest position where the readings {question.readings[0]} and {question.readings[1]} differ "
            f"(found by `invasion vulketh differ`)."
        ),
        "start": "invader",
        "data": {"action_cards": cards, **_data_the_action_reads(data)},
        "hexes": hexes,
        "rulings": {question.ruling: question.readings[0]},
    }


def _data_the_action_reads(data: GameData) -> dict[str, Any]:
    """The action's numbers and the population limit where they differ from the bundled data: a
    witness replayed without them ran the bundled numbers (an OracleDisagreement on ``--data``
    with other action values, issue 20)."""
    bundled = default_data()
    out: dict[str, Any] = {}
    if data.action_values.value != bundled.action_values.value:
        out["action_values"] = {
            action: dict(zip(STRENGTHS, numbers, strict=True)) for action, numbers in data.action_values.value
        }
    if data.value("population_limit") != bundled.value("population_limit"):
        out["values"] = {"population_limit": data.value("population_limit")}
    return out


def _face_for(question: DifferQuestion, data: GameData) -> str:
    """A face that, slid onto the starting row, gives the strength whose number is the amount."""
    start = data.initial_rows.value.row(question.action)
    from invasion_oracle.model.vulketh.action_board import push, strength

    for face in ("blank", "sun", "moon"):
        row, _ = push(start, face)
        if data.amount(question.action, strength(row)) == question.amount:
            return face
    raise MalformedInputError(
        "--amount", "$", f"{question.action} gives no {question.amount} from the starting action board"
    )


def _replay(question: DifferQuestion, position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    document = witness_document(question, position, question.rules.data)
    results = []
    for reading in question.readings:
        scenario = scenario_from_document(document, "differ witness", (f"{question.ruling}={reading}",))
        final = run(scenario).final
        acted = tuple(h.invaders for h in final.hexes)
        expected = oracle_action(question, position, reading)
        if acted != expected:
            raise OracleDisagreement(
                f"{question.ruling}={reading}: the search expects {expected} after the action, the game gives {acted}"
            )
        results.append(acted)
    if results[0] == results[1]:
        raise OracleDisagreement(
            f"the readings of {question.ruling} agree on {position.describe()} in the game"
        )
    return results[0], results[1]


def smallest_difference(
    question: DifferQuestion,
    *,
    engine: str = "z3",
    seconds: float | None = None,
    progress: Progress | None = None,
    parent: Deadline | None = None,
) -> DifferAnswer:
    # ``parent``: the command's deadline, whose Ctrl-C (stop_on_interrupt) stops this search too.
    deadline = Deadline(seconds, parent=parent)
    progress = progress or Progress("positions")
    extent = _Extent()
    try:
        position = (_baseline if engine == "baseline" else _z3_entry)(question, deadline, progress, extent)
    except TimeLimit:
        progress.finish()
        return DifferAnswer(
            Status.UNKNOWN,
            engine,
            question.ruling,
            question.readings,
            question.action,
            question.direction,
            question.amount,
            None,
            None,
            question.max_size,
            False,
            extent.done,
        )
    progress.finish()
    after = _replay(question, position) if position is not None else None
    return DifferAnswer(
        Status.PROVEN,
        engine,
        question.ruling,
        question.readings,
        question.action,
        question.direction,
        question.amount,
        position,
        after,
        question.max_size,
        after is not None,
    )


def _z3_entry(
    question: DifferQuestion, deadline: Deadline, progress: Progress, extent: _Extent
) -> Position | None:
    del progress
    return _z3(question, deadline, extent)

"""A compiled twin of the Vul'Keth rules the searches need, over plain integers or z3 terms.

The oracle (:mod:`invasion_oracle.model.vulketh.game`) is ground truth; this module restates, as straight-line
arithmetic, what the searches ask about: the player's passive turn (villages score, two dice
placed, conflicts over the population limit), the Invader turn (wipe-out, goal and reward,
draw, the card's two actions, summoning) and the single GROW or MOVE. Every step is written once
against :class:`Ops`, so the same code runs

* on Python integers (:data:`CONCRETE`): fast, and tested equal to the oracle on random states;
* on z3 terms (:data:`Z3`): the state becomes formulas in the searches' unknowns (card draws,
  dice placements, Warlord tokens, members placed, a starting position).

What it does not model is refused with :class:`Unsupported` (the searches then say so): rival
tribes' members on the map, Invader Events in the race (doubles), effects and goals added from
Python, a conflict rule that is not built in, and the 'Appease the Volcano' effect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from invasion_oracle.model.vulketh.action_board import ACTIONS, FACES
from invasion_oracle.model.vulketh.cards import ActionCard, Effect, Goal
from invasion_oracle.model.vulketh.conflict import BUILT_IN
from invasion_oracle.model.vulketh.game import Rules
from invasion_oracle.model.vulketh.invader_actions import hex_order, move_destinations
from invasion_oracle.model.vulketh.state import PLAYER, GameState

# The arithmetic the compiled rules run over (shared with other searches: solver/arith.py).
from invasion_oracle.solver.arith import CONCRETE as CONCRETE
from invasion_oracle.solver.arith import Z3 as Z3
from invasion_oracle.solver.arith import CpBool as CpBool
from invasion_oracle.solver.arith import CpInt as CpInt
from invasion_oracle.solver.arith import CpSatOps as CpSatOps
from invasion_oracle.solver.arith import Ops as Ops
from invasion_oracle.solver.arith import Z3Ops as Z3Ops
from invasion_oracle.solver.arith import same as _same

HEXES = tuple(range(1, 10))
FACE_CODE = {face: i for i, face in enumerate(FACES)}  # sun 0, moon 1, blank 2
SUN, MOON = FACE_CODE["sun"], FACE_CODE["moon"]


class Unsupported(Exception):
    """A feature of the position or the data that the compiled rules do not model."""


# -- the compiled state ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CState:
    """What the searches track, as values of one arithmetic (tuples by hex / section / card)."""

    inv: tuple[Any, ...]  # Invaders by hex
    ply: tuple[Any, ...]  # the player's members by hex
    war: tuple[Any, ...]  # a Warlord in the hex (bool)
    board: tuple[Any, ...]  # the section's token still on the Warlord Board (bool), section order
    rows: tuple[tuple[Any, Any, Any], ...]  # the action board, face codes, oldest first
    pile: tuple[Any, ...]  # the card is in its deck's draw pile (bool), data order
    discard: tuple[Any, ...]  # the card is in the face-up pile (bool)
    last: Any  # index of the card played last Invader turn, -1 for none
    supply: Any
    reserve: Any
    score: Any
    res: Any  # the Invaders' resources
    player_res: Any  # the player's resources (total; any mix is stolen alike)
    turns: int  # Invader turns taken (concrete: the searches unroll turn by turn)
    player_won: Any
    invader_won: Any
    summons: Any  # Warlords summoned so far by the Summon step (for token plans)


_FIELD_NAMES = frozenset(f.name for f in fields(CState))


def replace(s: CState, **changes: Any) -> CState:
    """``dataclasses.replace`` for a compiled state without running the generated ``__init__``
    (which took about a third of the concrete engine's time): the fields copied, then changed."""
    if not changes.keys() <= _FIELD_NAMES:
        raise TypeError(f"CState has no field {sorted(changes.keys() - _FIELD_NAMES)}")
    out = object.__new__(CState)
    out.__dict__.update(s.__dict__)
    out.__dict__.update(changes)
    return out


def merge(ops: Ops, cond: Any, a: CState, b: CState) -> CState:
    """``a`` where ``cond`` holds, else ``b``, field by field."""
    if not ops.symbolic:
        return a if cond else b
    out: dict[str, Any] = {}
    for f in fields(CState):
        x, y = getattr(a, f.name), getattr(b, f.name)
        out[f.name] = _merge_value(ops, cond, x, y)
    return CState(**out)


def _merge_value(ops: Ops, cond: Any, x: Any, y: Any) -> Any:
    if isinstance(x, tuple):
        return tuple(_merge_value(ops, cond, a, b) for a, b in zip(x, y, strict=True))
    if _same(x, y):
        return x
    merged = ops.ite(cond, x, y)
    return merged


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[index] = value
    return tuple(out)


def from_state(state: GameState, rules: Rules) -> CState:
    """The compiled view of an oracle state (concrete values)."""
    data = rules.data
    if any(h.rivals for h in state.hexes):
        raise Unsupported("rival tribes' members on the map")
    card_ids = [c.id for c in data.action_cards]
    sections = data.warlord_sections.value
    return CState(
        inv=tuple(h.invaders for h in state.hexes),
        ply=tuple(h.player for h in state.hexes),
        war=tuple(h.warlord is not None for h in state.hexes),
        board=tuple(s in state.warlord_board for s in sections),
        rows=tuple(tuple(FACE_CODE[f] for f in state.board.row(a)) for a in ACTIONS),  # type: ignore[misc]
        pile=tuple(any(c in pile for pile in state.decks) for c in card_ids),
        discard=tuple(c in state.discard for c in card_ids),
        last=card_ids.index(state.last_card) if state.last_card is not None else -1,
        supply=state.invader_supply,
        reserve=state.reserve,
        score=state.score,
        res=state.invader_resources,
        player_res=state.resources.total,
        turns=state.invader_turns,
        player_won=False,
        invader_won=False,
        summons=0,
    )


# -- the rules -----------------------------------------------------------------------------------------


def _never_stop() -> None:
    """The default :attr:`Compiled.tick`: no deadline."""


@dataclass(frozen=True)
class Compiled:
    """The rules in force, compiled once: readings, numbers, cards, adjacency."""

    rules: Rules
    ops: Ops
    # Called between the pieces of a long encoding (a search's deadline check): building the terms
    # of a few Invader turns takes seconds, and a time limit must cover it.
    tick: Callable[[], None] = _never_stop
    # The data's numbers and the readings, looked up at every step of the concrete engine: kept
    # in dicts (readings as first asked).
    _values: dict[str, int] = field(init=False, repr=False, compare=False, default_factory=dict)
    _readings: dict[str, str] = field(init=False, repr=False, compare=False, default_factory=dict)
    # MOVE's destinations by (source, direction), in the order they are tried (concrete engine)
    _destinations: dict[tuple[int, str], tuple[int, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        self._values.update((key, sourced.value) for key, sourced in self.rules.data.values)

    @property
    def data(self) -> Any:
        return self.rules.data

    def value(self, key: str) -> int:
        """The data's number ``key`` (``data.value``)."""
        return self._values[key]

    def reading(self, ruling: str) -> str:
        reading = self._readings.get(ruling)
        if reading is None:
            reading = self._readings[ruling] = self.rules.reading(ruling)
        return reading

    def check_supported(self) -> None:
        if self.rules.conflict is not BUILT_IN.get(self.rules.conflict.name):
            raise Unsupported(f"the conflict rule {self.rules.conflict.name!r} is not built in")
        for card in self.data.action_cards:
            _check_goal(card.goal)
            for effect in card.reward:
                _check_effect(effect)

    # -- small pieces --------------------------------------------------------------------------

    def cap(self) -> int:
        return int(self.value("population_limit"))

    def strength_amount(self, action: str, row: tuple[Any, Any, Any]) -> Any:
        o = self.ops
        suns = o.count([f == SUN for f in row])
        moons = o.count([f == MOON for f in row])
        weak, standard, strong = dict(self.data.action_values.value)[action]
        return o.ite(suns >= 2, strong, o.ite(moons >= 2, weak, standard))

    def slide(self, s: CState, action: str, face: Any) -> CState:
        index = ACTIONS.index(action)
        row = s.rows[index]
        return replace(s, rows=_set(s.rows, index, (row[1], row[2], face)))

    def lose_points(self, s: CState, amount: Any) -> CState:
        o = self.ops
        if not o.symbolic and amount == 0 and s.score >= 0:  # nothing lost, no floor to apply
            return s
        new = s.score - amount
        if self.reading("VK-SCORE-FLOOR") == "zero":
            new = o.max2(new, 0)
        return replace(s, score=new)

    # -- GROW, MOVE ------------------------------------------------------------------------------

    def grow(self, s: CState, amount: Any, direction: str) -> CState:
        o = self.ops
        if not o.symbolic:
            return self._grow_concrete(s, amount, direction)
        cap = self.cap()
        pieces = o.min2(amount, s.supply + s.reserve)
        order = hex_order(direction)
        occupied = {n: o.or_(s.inv[n - 1] > 0, s.war[n - 1]) for n in HEXES}
        overflow = self.reading("VK-GROW-OVERFLOW")
        passes: list[list[tuple[int, Any]]]
        if overflow == "occupied":
            passes = [[(n, occupied[n]) for n in order]]
        elif overflow == "occupied-then-any":
            passes = [[(n, occupied[n]) for n in order], [(n, o.not_(occupied[n])) for n in order]]
        else:
            started: Any = False
            steps = []
            for n in order:
                started = o.or_(started, occupied[n])
                steps.append((n, started))
            passes = [steps]
        inv = list(s.inv)
        left = pieces
        for step in passes:
            for n, allowed in step:
                room = o.max2(cap - inv[n - 1], 0)
                take = o.ite(allowed, o.min2(room, left), 0)
                inv[n - 1] = inv[n - 1] + take
                left = left - take
        placed = pieces - left
        from_supply = o.min2(placed, s.supply)
        from_reserve = placed - from_supply
        s = replace(s, inv=tuple(inv), supply=s.supply - from_supply, reserve=s.reserve - from_reserve)
        return self.lose_points(s, from_reserve)

    def _grow_concrete(self, s: CState, amount: int, direction: str) -> CState:
        """``grow`` on Python values: the same steps without a term per hex and pass (the race's
        compiled engine runs every card from every position)."""
        cap = self.cap()
        pieces = min(amount, s.supply + s.reserve)
        order = hex_order(direction)
        occupied = [n for n in order if s.inv[n - 1] > 0 or s.war[n - 1]]
        overflow = self.reading("VK-GROW-OVERFLOW")
        if overflow == "occupied":
            candidates = occupied
        elif overflow == "occupied-then-any":
            candidates = occupied + [n for n in order if n not in occupied]
        else:  # from the first occupied hex on, every hex
            candidates = list(order[order.index(occupied[0]) :]) if occupied else []
        inv = list(s.inv)
        left = pieces
        for n in candidates:
            take = min(max(cap - inv[n - 1], 0), left)
            inv[n - 1] += take
            left -= take
        placed = pieces - left
        from_supply = min(placed, s.supply)
        from_reserve = placed - from_supply
        s = replace(s, inv=tuple(inv), supply=s.supply - from_supply, reserve=s.reserve - from_reserve)
        return self.lose_points(s, from_reserve)

    def _destinations_of(self, source: int, direction: str) -> tuple[int, ...]:
        key = (source, direction)
        found = self._destinations.get(key)
        if found is None:
            neighbours = self.rules.map.adjacency[source - 1]
            dest_reading = self.reading("VK-MOVE-DEST")
            if dest_reading == "unused":
                found = tuple(sorted(neighbours, reverse=direction == "highest"))
            else:
                found = move_destinations(
                    source, neighbours, set(), direction, dest_reading, self.reading("VK-MOVE-HIGHEST")
                )
            self._destinations[key] = found
        return found

    def _move_concrete(self, s: CState, amount: int, direction: str, most: int) -> CState:
        """``move`` on Python values: each Invader to the first destination with room, the same
        steps without a term per destination."""
        cap = self.cap()
        unused = self.reading("VK-MOVE-DEST") == "unused"
        inv = list(s.inv)
        arrived = [0] * 9
        moved_out = [False] * 9
        left = amount
        for source in hex_order(direction):
            self.tick()
            destinations = self._destinations_of(source, direction)
            for _ in range(most):
                if not (left > 0 and inv[source - 1] >= 2 and inv[source - 1] - arrived[source - 1] > 0):
                    break
                for d in destinations:
                    if inv[d - 1] < cap and not (unused and moved_out[d - 1]):
                        inv[d - 1] += 1
                        arrived[d - 1] += 1
                        inv[source - 1] -= 1
                        moved_out[source - 1] = True
                        left -= 1
                        break
                else:  # nowhere to go: the steps left change nothing either
                    break
        return replace(s, inv=tuple(inv))

    def move(self, s: CState, amount: Any, direction: str, most: int) -> CState:
        """MOVE ``amount`` (at most ``most``, a concrete bound) Invaders."""
        o = self.ops
        if not o.symbolic:
            return self._move_concrete(s, amount, direction, most)
        cap = self.cap()
        adjacency = self.rules.map.adjacency
        dest_reading = self.reading("VK-MOVE-DEST")
        highest_reading = self.reading("VK-MOVE-HIGHEST")
        inv = list(s.inv)
        arrived: list[Any] = [0] * 9
        moved_out: list[Any] = [False] * 9
        left = amount
        for source in hex_order(direction):
            self.tick()
            if dest_reading == "unused":
                candidates = sorted(adjacency[source - 1], reverse=direction == "highest")
            else:
                candidates = list(
                    move_destinations(
                        source, adjacency[source - 1], set(), direction, dest_reading, highest_reading
                    )
                )
            for _ in range(most):
                can = o.and_(left > 0, inv[source - 1] >= 2, inv[source - 1] - arrived[source - 1] > 0)
                if can is False:  # a value, not a term: nothing moves now, nor in the steps left
                    break
                chosen: Any = False
                target_flags = []
                for d in candidates:
                    ok = inv[d - 1] < cap
                    if dest_reading == "unused":
                        ok = o.and_(ok, o.not_(moved_out[d - 1]))
                    here = o.and_(can, o.not_(chosen), ok)
                    target_flags.append((d, here))
                    chosen = o.or_(chosen, here)
                for d, here in target_flags:
                    inv[d - 1] = inv[d - 1] + o.ite(here, 1, 0)
                    arrived[d - 1] = arrived[d - 1] + o.ite(here, 1, 0)
                inv[source - 1] = inv[source - 1] - o.ite(chosen, 1, 0)
                moved_out[source - 1] = o.or_(moved_out[source - 1], chosen)
                left = left - o.ite(chosen, 1, 0)
        return replace(s, inv=tuple(inv))

    # -- conflict and the Warlord powers -----------------------------------------------------------

    def conflict(self, s: CState, n: int) -> CState:
        """The player and the Invaders fight in hex ``n`` (both present is the caller's guard)."""
        o = self.ops
        p, i = s.ply[n - 1], s.inv[n - 1]
        rule = self.rules.conflict.name
        loss = 1 if rule == "one-each" else o.min2(p, i)
        both = o.and_(p > 0, i > 0)
        if both is False:  # a value: no fight, nothing changes
            return s
        new_p = o.ite(both, p - loss, p)
        new_i = o.ite(both, i - loss, i)
        cleared = o.and_(both, new_i == 0)
        lose = o.ite(cleared, o.min2(s.res, self.value("cleared_hex_loss")), 0)
        return replace(
            s,
            ply=_set(s.ply, n - 1, new_p),
            inv=_set(s.inv, n - 1, new_i),
            supply=s.supply + (i - new_i),
            res=s.res - lose,
        )

    def player_conflicts(self, s: CState) -> CState:
        o = self.ops
        limit = self.cap()
        for n in HEXES:
            crowded = o.and_(s.ply[n - 1] > 0, s.inv[n - 1] > 0, s.ply[n - 1] + s.inv[n - 1] > limit)
            if crowded is not False:  # (a value False: no fight)
                s = merge(o, crowded, self.conflict(s, n), s)
        return s

    def unlocked(self, s: CState) -> list[Any]:
        o = self.ops
        sections = self.data.warlord_sections.value
        if self.reading("VK-POWER-UNLOCK") == "by-count":
            k = o.count(list(s.war))
            return [k > i for i in range(len(sections))]
        return [o.not_(flag) for flag in s.board]

    def lead(self, s: CState) -> CState:
        sections = self.data.warlord_sections.value
        flags = self.unlocked(s)
        for power, on in zip(sections, flags, strict=True):
            if on is not False:  # (a value False: the power is locked)
                s = merge(self.ops, on, self.power(s, power), s)
        return s

    def power(self, s: CState, power: str) -> CState:
        o = self.ops
        if power == "steal-resources":
            return replace(s, res=s.res + s.player_res, player_res=0)
        if power == "convert":
            return self.convert(s)
        if power == "spread" and not o.symbolic:
            return self._spread_concrete(s)
        if power == "spread":
            warlord_counts = self.reading("VK-SPREAD-WARLORD") == "warlord-counts"
            had = [o.or_(s.inv[n - 1] > 0, s.war[n - 1] if warlord_counts else False) for n in HEXES]
            adjacency = self.rules.map.adjacency
            inv, supply = list(s.inv), s.supply
            for n in HEXES:
                near = o.or_(*[had[m - 1] for m in adjacency[n - 1]])
                add = o.and_(o.not_(had[n - 1]), near, supply > 0)
                inv[n - 1] = inv[n - 1] + o.ite(add, 1, 0)
                supply = supply - o.ite(add, 1, 0)
            return replace(s, inv=tuple(inv), supply=supply)
        if power == "regress":
            return s  # developments and Bronze technologies: nothing the searches track
        for n in HEXES:  # war
            s = self.conflict(s, n)
        return s

    def _spread_concrete(self, s: CState) -> CState:
        warlord_counts = self.reading("VK-SPREAD-WARLORD") == "warlord-counts"
        had = [s.inv[n - 1] > 0 or (warlord_counts and s.war[n - 1]) for n in HEXES]
        adjacency = self.rules.map.adjacency
        inv, supply = list(s.inv), s.supply
        for n in HEXES:
            if not had[n - 1] and supply > 0 and any(had[m - 1] for m in adjacency[n - 1]):
                inv[n - 1] += 1
                supply -= 1
        return replace(s, inv=tuple(inv), supply=supply)

    def _convert_readings(self) -> tuple[bool, bool, bool]:
        """Convert's open points: a full hex skipped, a member from the reserve costing points, an
        empty conversion removing the member."""
        return (
            self.reading("VK-CONVERT-CAP") == "skip",
            self.reading("VK-CONVERT-RESERVE") == "costs-points",
            self.reading("VK-CONVERT-EMPTY") == "member-removed",
        )

    def _convert_concrete(self, s: CState) -> CState:
        adjacency = self.rules.map.adjacency
        cap = self.cap()
        skip_full, costs, removed = self._convert_readings()
        war = s.war
        for n in HEXES:
            go = (
                (war[n - 1] or any(war[m - 1] for m in adjacency[n - 1]))
                and s.ply[n - 1] > 0
                and not (skip_full and s.inv[n - 1] >= cap)
            )
            if not go:
                if costs:
                    s = self.lose_points(s, 0)
                continue
            from_supply = s.supply > 0
            from_reserve = not from_supply and s.reserve > 0
            converted = from_supply or from_reserve
            s = replace(
                s,
                supply=s.supply - (1 if from_supply else 0),
                reserve=s.reserve - (1 if from_reserve else 0),
                inv=_set(s.inv, n - 1, s.inv[n - 1] + (1 if converted else 0)),
                ply=_set(s.ply, n - 1, s.ply[n - 1] - (1 if converted or removed else 0)),
            )
            if costs:
                s = self.lose_points(s, 1 if from_reserve else 0)
        return s

    def convert(self, s: CState) -> CState:
        o = self.ops
        if not o.symbolic:
            return self._convert_concrete(s)
        adjacency = self.rules.map.adjacency
        cap = self.cap()
        skip_full, costs, removed = self._convert_readings()
        war = s.war
        for n in HEXES:
            near = o.or_(war[n - 1], *[war[m - 1] for m in adjacency[n - 1]])
            go = o.and_(near, s.ply[n - 1] > 0)
            if skip_full:
                go = o.and_(go, s.inv[n - 1] < cap)
            if go is False:  # a value: nothing converts here (the score floor still applies)
                if costs:
                    s = self.lose_points(s, 0)
                continue
            from_supply = o.and_(go, s.supply > 0)
            from_reserve = o.and_(go, o.not_(from_supply), s.reserve > 0)
            converted = o.or_(from_supply, from_reserve)
            lost_member = o.or_(converted, o.and_(go, removed)) if removed else converted
            s = replace(
                s,
                supply=s.supply - o.ite(from_supply, 1, 0),
                reserve=s.reserve - o.ite(from_reserve, 1, 0),
                inv=_set(s.inv, n - 1, s.inv[n - 1] + o.ite(converted, 1, 0)),
                ply=_set(s.ply, n - 1, s.ply[n - 1] - o.ite(lost_member, 1, 0)),
            )
            if costs:
                s = self.lose_points(s, o.ite(from_reserve, 1, 0))
        return s

    # -- effects and goals -----------------------------------------------------------------------------

    def goal(self, s: CState, goal: Goal) -> Any:
        o = self.ops
        if goal.kind == "none":
            return False
        if goal.kind == "occupied_hexes":
            return o.count([x > 0 for x in s.inv]) >= goal.amount
        if goal.kind == "invaders_on_map":
            return o.total(list(s.inv)) >= goal.amount
        if goal.kind == "hex_occupied":
            return s.inv[goal.hex - 1] > 0
        if goal.kind == "player_members":
            return o.total(list(s.ply)) <= goal.amount
        if goal.kind == "resources":
            return s.res >= goal.amount
        raise Unsupported(f"goal {goal.kind!r}")

    def effect(self, s: CState, effect: Effect) -> CState:
        o = self.ops
        kind = effect.kind
        if kind == "gain_resources":
            return replace(s, res=s.res + effect.amount)
        if kind == "grow":
            return self.grow(s, effect.amount, effect.direction)
        if kind == "move":
            return self.move(s, effect.amount, effect.direction, effect.amount)
        if kind == "lead":
            return self.lead(s)
        if kind == "power":
            return self.power(s, effect.power)
        if kind == "lose_points":
            return self.lose_points(s, effect.amount)
        if kind == "remove_invaders":
            inv, supply, left = list(s.inv), s.supply, effect.amount
            for n in hex_order(effect.direction):
                take = o.min2(inv[n - 1], left)
                inv[n - 1] = inv[n - 1] - take
                supply = supply + take
                left = left - take
            return replace(s, inv=tuple(inv), supply=supply)
        if kind == "player_resources":
            return replace(s, player_res=s.player_res + effect.amount)
        if kind == "slide":
            return self.slide(s, effect.action, FACE_CODE[effect.face])
        raise Unsupported(f"effect {kind!r}")

    # -- the Invader turn --------------------------------------------------------------------------

    def wipe_out(self, s: CState) -> CState:
        o = self.ops
        if not o.symbolic and any(s.inv):  # concrete, and Invaders on the map: nothing comes back
            return s
        empty = o.total(list(s.inv)) == 0
        per_hex = self.rules.invaders_per_start_hex
        once = self.reading("VK-WIPEOUT-OVERLAP") == "once"
        inv, supply = list(s.inv), s.supply
        for n in HEXES:
            base = per_hex if n <= 3 else 0
            extra = 0 if (once and n <= 3) else o.ite(s.war[n - 1], 1, 0)
            want = o.min2(base + extra, self.cap())
            put = o.ite(empty, o.min2(want, supply), 0)
            inv[n - 1] = inv[n - 1] + put
            supply = supply - put
        return replace(s, inv=tuple(inv), supply=supply)

    def check_goal(self, s: CState) -> CState:
        if s.turns == 0:
            return s
        o = self.ops
        cards = self.data.action_cards
        if not o.symbolic:  # concrete: only the card played last can be rewarded
            if s.last < 0:
                return s
            card = cards[s.last]
            if not card.reward or card.goal.kind == "none" or not self.goal(s, card.goal):
                return s
            for effect in card.reward:
                s = self.effect(s, effect)
            return s
        out = s
        for index, card in enumerate(cards):
            if not card.reward or card.goal.kind == "none":
                continue
            applies = o.and_(s.last == index, self.goal(s, card.goal))
            if applies is False:
                continue
            rewarded = s
            for effect in card.reward:
                rewarded = self.effect(rewarded, effect)
            out = merge(o, applies, rewarded, out)
        return out

    def deck_to_draw(self, s: CState) -> Any:
        o = self.ops
        if s.turns == 0:
            return 1
        if not o.symbolic:  # concrete: the next deck of the card played last
            return self.data.action_cards[s.last].next_deck if s.last >= 0 else 1
        deck: Any = 1  # no card played yet
        for index, card in enumerate(self.data.action_cards):
            deck = o.ite(s.last == index, card.next_deck, deck)
        return deck

    def draw(self, s: CState, drawn: Any) -> tuple[CState, Any]:
        """Take card index ``drawn`` from the deck to draw; returns the state and whether the
        draw was legal (the card is in that deck's pile, after any reshuffle)."""
        o = self.ops
        cards = self.data.action_cards
        deck = self.deck_to_draw(s)
        if not o.symbolic:
            return self._draw_concrete(s, drawn, deck)
        in_deck = [deck == c.deck for c in cards]
        empty = o.not_(o.or_(*[o.and_(in_deck[i], s.pile[i]) for i in range(len(cards))]))
        pile = tuple(o.ite(o.and_(empty, in_deck[i]), s.discard[i], s.pile[i]) for i in range(len(cards)))
        discard = tuple(o.and_(s.discard[i], o.not_(o.and_(empty, in_deck[i]))) for i in range(len(cards)))
        legal = o.or_(*[o.and_(drawn == i, in_deck[i], pile[i]) for i in range(len(cards))])
        pile = tuple(o.and_(pile[i], o.not_(drawn == i)) for i in range(len(cards)))
        discard = tuple(o.or_(discard[i], drawn == i) for i in range(len(cards)))
        return replace(s, pile=pile, discard=discard, last=drawn), legal

    def _draw_concrete(self, s: CState, drawn: int, deck: int) -> tuple[CState, bool]:
        """``draw`` on Python values, the same values without a term per card (the race's
        compiled engine draws every card from every position)."""
        cards = self.data.action_cards
        in_deck = [deck == c.deck for c in cards]
        reshuffle = not any(here and left for here, left in zip(in_deck, s.pile, strict=True))
        pile = [
            bool(discarded if reshuffle and here else left)
            for here, left, discarded in zip(in_deck, s.pile, s.discard, strict=True)
        ]
        discard = [
            bool(discarded and not (reshuffle and here))
            for here, discarded in zip(in_deck, s.discard, strict=True)
        ]
        legal = 0 <= drawn < len(cards) and in_deck[drawn] and pile[drawn]
        if 0 <= drawn < len(cards):
            pile[drawn] = False
            discard[drawn] = True
        return replace(s, pile=tuple(pile), discard=tuple(discard), last=drawn), bool(legal)

    def card_actions(self, s: CState, card: ActionCard) -> CState:
        most = max(dict(self.data.action_values.value)["MOVE"])
        for action in card.actions:
            self.tick()
            s = self.slide(s, action.action, FACE_CODE[action.face])
            if action.action == "LEAD":
                s = self.lead(s)
                continue
            amount = self.strength_amount(action.action, s.rows[ACTIONS.index(action.action)])
            if action.action == "GROW":
                s = self.grow(s, amount, action.direction)
            elif action.action == "MOVE":
                s = self.move(s, amount, action.direction, most)
            else:
                s = replace(s, res=s.res + amount)
        return s

    def summon(self, s: CState, token_choice: Callable[[Any], Any] | None = None) -> tuple[CState, Any]:
        """Step 4. ``token_choice(k)`` gives the section index the k-th summon takes (asked only
        under ``VK-POWER-UNLOCK=by-section``); otherwise the first token on the board. Returns the
        state and whether every chosen token was still on the board."""
        o = self.ops
        if not o.symbolic:
            return self._summon_concrete(s, token_choice)
        sections = self.data.warlord_sections.value
        cost = self.value("warlord_cost")
        to_win = self.value("warlords_to_win")
        legal: Any = True
        for _ in range(len(sections)):
            on_board = o.count(list(s.board))
            go = o.and_(s.res >= cost, on_board > 0, o.not_(s.invader_won), o.not_(s.player_won))
            if go is False:  # a value, not a term: no summon now, nor in the steps left
                break
            target_flags = self._warlord_target(s)
            if token_choice is None or self.reading("VK-POWER-UNLOCK") == "by-count":
                taken: list[Any] = []
                seen: Any = False
                for flag in s.board:
                    taken.append(o.and_(flag, o.not_(seen)))
                    seen = o.or_(seen, flag)
            else:
                choice = token_choice(s.summons)
                taken = [choice == i for i in range(len(sections))]
                on = o.or_(*[o.and_(t, flag) for t, flag in zip(taken, s.board, strict=True)])
                legal = o.and_(legal, o.or_(o.not_(go), on_board == 1, on))
                # with one token left the oracle does not ask: the last token goes
                taken = [o.ite(on_board == 1, flag, t) for t, flag in zip(taken, s.board, strict=True)]
            board = tuple(o.and_(flag, o.not_(o.and_(go, t))) for flag, t in zip(s.board, taken, strict=True))
            war = tuple(o.or_(w, o.and_(go, t)) for w, t in zip(s.war, target_flags, strict=True))
            summoned = len(sections) - o.count(list(board))
            s = replace(
                s,
                board=board,
                war=war,
                res=s.res - o.ite(go, cost, 0),
                summons=s.summons + o.ite(go, 1, 0),
                invader_won=o.or_(s.invader_won, o.and_(go, summoned >= to_win)),
            )
        return s, legal

    def _summon_concrete(self, s: CState, token_choice: Callable[[Any], Any] | None) -> tuple[CState, bool]:
        """``summon`` on Python values (the same steps, no term per section)."""
        sections = len(self.data.warlord_sections.value)
        cost = self.value("warlord_cost")
        to_win = self.value("warlords_to_win")
        chosen = token_choice is not None and self.reading("VK-POWER-UNLOCK") != "by-count"
        legal = True
        for _ in range(sections):
            on_board = sum(1 for flag in s.board if flag)
            if not (s.res >= cost and on_board > 0 and not s.invader_won and not s.player_won):
                break
            if chosen:
                assert token_choice is not None
                choice = token_choice(s.summons)
                taken = [choice == i for i in range(sections)]
                on = any(t and flag for t, flag in zip(taken, s.board, strict=True))
                legal = legal and (on_board == 1 or on)
                if on_board == 1:  # the oracle does not ask: the last token goes
                    taken = [bool(flag) for flag in s.board]
            else:
                first = next(i for i, flag in enumerate(s.board) if flag)
                taken = [i == first for i in range(sections)]
            target = self._warlord_target(s)
            board = tuple(bool(flag and not t) for flag, t in zip(s.board, taken, strict=True))
            s = replace(
                s,
                board=board,
                war=tuple(bool(w or t) for w, t in zip(s.war, target, strict=True)),
                res=s.res - cost,
                summons=s.summons + 1,
                invader_won=bool(s.invader_won or sections - sum(1 for flag in board if flag) >= to_win),
            )
        return s, legal

    def _warlord_target(self, s: CState) -> list[Any]:
        o = self.ops
        flags: list[Any] = [False] * 9
        if not o.symbolic:  # the highest hex with Invaders and no Warlord, else the lowest free one
            for n in hex_order("highest"):
                if s.inv[n - 1] > 0 and not s.war[n - 1]:
                    flags[n - 1] = True
                    return flags
            for n in hex_order("lowest"):
                if not s.war[n - 1]:
                    flags[n - 1] = True
                    return flags
            return flags
        found: Any = False
        for n in hex_order("highest"):
            here = o.and_(o.not_(found), s.inv[n - 1] > 0, o.not_(s.war[n - 1]))
            flags[n - 1] = here
            found = o.or_(found, here)
        for n in hex_order("lowest"):
            here = o.and_(o.not_(found), o.not_(s.war[n - 1]))
            flags[n - 1] = o.or_(flags[n - 1], here)
            found = o.or_(found, here)
        return flags

    def invader_turn(
        self, s: CState, drawn: Any, token_choice: Callable[[Any], Any] | None = None
    ) -> tuple[CState, Any]:
        """One Invader turn drawing card index ``drawn``; returns the state and the draw's legality."""
        o = self.ops
        s = self.wipe_out(s)
        s = self.check_goal(s)
        s, legal = self.draw(s, drawn)
        cards = self.data.action_cards
        if isinstance(drawn, int):
            s = self.card_actions(s, cards[drawn])
        elif isinstance(o, CpSatOps) and isinstance(drawn, CpInt) and drawn.lo >= 0 and drawn.hi < len(cards):
            s = o.select(drawn, [self.card_actions(s, card) for card in cards])
        else:
            after = s
            for index, card in enumerate(cards):
                after = merge(o, drawn == index, self.card_actions(s, card), after)
            s = after
        s, tokens_legal = self.summon(s, token_choice)
        return replace(s, turns=s.turns + 1), o.and_(legal, tokens_legal)

    def player_turn(
        self, s: CState, villages: int, faces: tuple[str, str], actions: tuple[Any, Any]
    ) -> CState:
        """A passive player turn: villages score, two dice go to ``actions`` (indices into
        ACTIONS), nothing else happens, conflicts over the limit are resolved."""
        o = self.ops
        if villages:
            s = replace(s, score=s.score + villages * self.value("village_points"))
            s = replace(s, player_won=o.or_(s.player_won, s.score >= self.value("winning_score")))
        for face, action in zip(faces, actions, strict=True):
            code = FACE_CODE[face]
            rows = []
            for index, row in enumerate(s.rows):
                here = action == index
                rows.append(
                    (o.ite(here, row[1], row[0]), o.ite(here, row[2], row[1]), o.ite(here, code, row[2]))
                )
            s = replace(s, rows=tuple(rows))
        return self.player_conflicts(s)


def _check_goal(goal: Goal) -> None:
    if goal.kind not in (
        "none",
        "occupied_hexes",
        "invaders_on_map",
        "hex_occupied",
        "player_members",
        "resources",
    ):
        raise Unsupported(f"goal {goal.kind!r}")


def _check_effect(effect: Effect) -> None:
    supported = (
        "gain_resources",
        "grow",
        "move",
        "lead",
        "power",
        "lose_points",
        "remove_invaders",
        "player_resources",
        "slide",
    )
    if effect.kind not in supported:
        raise Unsupported(f"effect {effect.kind!r} (a card reward)")


def player_villages(state: GameState) -> int:
    return sum(1 for h in state.hexes if h.village == PLAYER)

"""A player's dungeon compiled for search: nodes, neighbour lists and per-hero damage numbers.

The numbers come from the oracle's own functions (:func:`invasion_oracle.model.stonespine.entering.chamber_damage`
and :func:`~invasion_oracle.model.stonespine.entering.purple_condition`), so the compiled board cannot drift from
the rules: damage in a chamber is ``base[c] + minions[c] * unit[c]`` for each hero colour.

What the compiled board does not model is listed, with the reason, in :attr:`Board.limits` (for
searches over several heroes) and :attr:`Board.route_limits` (for one hero's routes); a search
that needs it refuses with that reason, and every answer is replayed through the oracle anyway.
Not modelled across several heroes: the Giant Troll moving (when rubble lies in the dungeon),
black heroes whose destruction changes later damage or conditions, and collapsing passages that
fall after a crossing. Not modelled even for one hero: a black hero's destruction changing its own
damage (``SS-SIMULTANEOUS=ability-first``) and chambers dealing negative damage (a data file).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from invasion_oracle.model.stonespine.abilities import Do
from invasion_oracle.model.stonespine.dungeon import Cell, Chamber, Dungeon
from invasion_oracle.model.stonespine.entering import (
    Rules,
    chamber_damage,
    chamber_has,
    entrance_open,
    exit_chamber,
    purple_condition,
)
from invasion_oracle.model.stonespine.guardians import GuardianState
from invasion_oracle.model.stonespine.heroes import COLORS, AbilityType, HeroCard, HeroColor
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.state import GameState, Placement, PlayerState
from invasion_oracle.solver.common import Deadline


@dataclass(frozen=True, slots=True)
class HeroProfile:
    """How one hero colour takes damage in each chamber.

    With ``m`` minions in chamber ``c`` the chamber deals ``base[c] + m * unit[c]``, plus
    ``jump[c]`` once there is a minion at all (a hero ability that resolves only in a dangerous
    chamber, ruling ``SS-HERO-ABILITY-CHAMBER``, starts to count), and meets a purple hero's
    condition when ``cond[c]``, or ``cond_minion[c]`` once there is a minion.
    """

    color: HeroColor
    card: str
    health: int
    base: tuple[int, ...]  # damage with no minion, per node
    unit: tuple[int, ...]  # extra damage per minion in the node
    minion_unit: tuple[
        int, ...
    ]  # the minions' own part per minion (kept under SS-PURPLE-SCOPE=element-damage)
    purple: bool
    cond: tuple[bool, ...]  # the purple condition met by the chamber with no minion
    cond_minion: tuple[bool, ...]  # the purple condition met by the chamber with a minion or more
    jump: tuple[int, ...] = ()  # extra damage once the node holds a minion (empty: none anywhere)

    def damage(self, node: int, minions: int) -> int:
        extra = self.jump[node] if self.jump and minions else 0
        return self.base[node] + minions * self.unit[node] + extra


@dataclass(frozen=True, slots=True)
class Board:
    """Everything a search needs about one dungeon in one Invasion phase."""

    cells: tuple[Cell, ...]
    neighbours: tuple[tuple[int, ...], ...]  # in the oracle's order: top, bottom, left, right
    start: int
    escape_at_entry: bool  # the first chamber is not connected and SS-ENTRY-UNCONNECTED=escape
    exit: int | None  # the exit chamber whose living heroes escape (years 1-3), if any
    exit_through_defeated: bool
    heroes: tuple[HeroProfile, HeroProfile, HeroProfile]  # black, purple, red
    purple_all_damage: bool
    purple_used_anyway: bool
    guardian_figures: int
    minions: int
    limits: tuple[str, ...]
    year: int
    route_limits: tuple[tuple[str, str], ...] = ()  # (hero colour or "all", reason)
    # per chamber, (neighbour, its bit) in reverse move order: what a walk's stack pushes
    links: tuple[tuple[tuple[int, int], ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        links = tuple(tuple((nxt, 1 << nxt) for nxt in reversed(nbs)) for nbs in self.neighbours)
        object.__setattr__(self, "links", links)

    @property
    def size(self) -> int:
        return len(self.cells)

    def hero(self, color: HeroColor) -> HeroProfile:
        return self.heroes[COLORS.index(color)]

    def index(self, cell: Cell) -> int:
        return self.cells.index(cell)

    def name(self, node: int) -> str:
        return self.cells[node].name

    def index_of(self, name: str) -> int:
        """The node of the chamber called ``name`` (``B2``)."""
        return self.cells.index(Cell.parse(name))

    def limits_for(self, color: HeroColor) -> tuple[str, ...]:
        """Why one ``color`` hero's routes are not modelled exactly on this board (empty: they are)."""
        return tuple(reason for who, reason in self.route_limits if who in ("all", color.value))

    def reachable(self) -> frozenset[int]:
        """Chambers connected to the first one (a hero could enter them, ignoring damage and the exit)."""
        return self._spread(blocked=None)

    def enterable(self) -> frozenset[int]:
        """Chambers a hero could ever enter: connected, and not only behind an exit chamber that every
        hero leaves by (with ``SS-EXIT-DEFEATED=escapes`` even an ignored exit is left by)."""
        return self._spread(blocked=self.exit if self.exit_through_defeated else None)

    def _spread(self, blocked: int | None) -> frozenset[int]:
        if self.escape_at_entry:
            return frozenset()
        seen = {self.start}
        stack = [self.start]
        while stack:
            node = stack.pop()
            if node == blocked:
                continue
            for nxt in self.neighbours[node]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return frozenset(seen)


@dataclass(frozen=True, slots=True)
class Layout:
    """A placement in node terms: guardian figure nodes and a minion count per node."""

    guardians: tuple[int, ...]
    minions: tuple[int, ...]

    def minions_at(self, node: int) -> int:
        return self.minions[node]

    @staticmethod
    def of(board: Board, placement: Placement) -> Layout:
        counts = [0] * board.size
        for cell in placement.minions:
            counts[board.index(cell)] += 1
        return Layout(tuple(board.index(c) for c in placement.guardians), tuple(counts))

    def placement(self, board: Board) -> Placement:
        minions = tuple(board.cells[n] for n in range(board.size) for _ in range(self.minions[n]))
        return Placement(tuple(board.cells[g] for g in self.guardians), minions)

    def figures(self, board: Board) -> tuple[tuple[str, str], ...]:
        """``(kind, chamber)`` per figure: guardians first, then minions, in chamber order."""
        guardians = tuple(("guardian", board.name(g)) for g in self.guardians)
        minions = tuple(("minion", board.name(n)) for n in range(board.size) for _ in range(self.minions[n]))
        return guardians + minions

    def describe(self, board: Board) -> str:
        guard = "+".join(board.name(g) for g in self.guardians) or "-"
        mins = (
            " ".join(board.name(n) + (f"x{k}" if k > 1 else "") for n, k in enumerate(self.minions) if k)
            or "-"
        )
        return f"guardian {guard}; minions {mins}"


def _black_is_inert(
    card: HeroCard, others: tuple[HeroCard, ...], dungeon: Dungeon, guardian: GuardianState
) -> bool:
    """True when the black hero's destruction can change nothing later heroes feel."""
    if card.ability.type is not AbilityType.DESTROY:
        return True
    changes = guardian.type_changes
    watched = {"monster", "trap", "pact"} | {t for o in others for t in o.ability.matches}
    for cell in dungeon.cells():
        for space in dungeon.chamber(cell).spaces:
            tags = space.tags(changes)
            if tags & card.ability.matches and (tags & watched or changes):
                return False
    return True


ChamberNumbers = tuple[int, int, int, bool, int, bool, bool]  # what chamber_numbers returns
ChamberNumbersCache = dict[tuple[GuardianState, HeroCard], dict[tuple[Cell, Chamber], ChamberNumbers]]


def chamber_numbers(
    rules: Rules, guardian: GuardianState, cell: Cell, chamber: Chamber, card: HeroCard
) -> ChamberNumbers:
    """One chamber's numbers for one hero card, read off the oracle's damage function:
    ``(base, unit, minion_unit, condition, jump, condition_with_minions, linear)`` - damage with no
    minion, the extra per minion, the minions' own part of it, whether the chamber meets a purple
    hero's condition, the extra once a minion stands there, the condition then, and whether one,
    two and three minions agree with that (else the chamber is not modelled)."""

    def damage(minions: int) -> tuple[int, tuple[tuple[str, int], ...]]:
        dealt, parts, _ = chamber_damage(
            rules, guardian, Placement(minions=(cell,) * minions), cell, chamber, card, True
        )
        return dealt, parts

    (d0, _), (d1, parts), (d2, _), (d3, _) = damage(0), damage(1), damage(2), damage(3)
    per_minion = {"minion"} | {a.id for a, e in guardian.effects(Do.ADD_DAMAGE) if e.per == "minion"}
    minion_part = sum(n for name, n in parts if name in per_minion)
    unit = d2 - d1
    purple = card.ability.type is AbilityType.NO_DAMAGE_FIRST
    cond0 = purple and purple_condition(card, chamber, guardian, 0, rules)
    cond1 = purple and purple_condition(card, chamber, guardian, 1, rules)
    cond2 = purple and purple_condition(card, chamber, guardian, 2, rules)
    linear = d3 - d2 == unit and cond2 == cond1
    return d0, unit, minion_part, cond0, d1 - d0 - unit, cond1, linear


def chamber_effect(
    rules: Rules, guardian: GuardianState, cell: Cell, chamber: Chamber, card: HeroCard, minions: int
) -> tuple[int, bool]:
    """``(damage, condition)``: what ``chamber`` deals ``card``'s hero with ``minions`` minions there
    (no protection applied), and whether it meets a purple hero's condition - the oracle's own
    numbers, for searches that change a chamber's elements."""
    placement = Placement(minions=(cell,) * minions)
    damage, _, _ = chamber_damage(rules, guardian, placement, cell, chamber, card, True)
    purple = card.ability.type is AbilityType.NO_DAMAGE_FIRST
    return damage, purple and purple_condition(card, chamber, guardian, minions, rules)


# Chamber numbers by rules in force (each a pure function of its key), for compilations without a
# cache of their own; dropped when they grow past these counts (a long report's many dungeons).
SHARED_RULES = 4
SHARED_NUMBERS = 50_000
_numbers_by_rules: dict[Rules, ChamberNumbersCache] = {}


def _shared_numbers(rules: Rules) -> ChamberNumbersCache:
    cache = _numbers_by_rules.get(rules)
    if cache is None or sum(len(known) for known in cache.values()) > SHARED_NUMBERS:
        if len(_numbers_by_rules) >= SHARED_RULES:
            _numbers_by_rules.clear()
        cache = _numbers_by_rules[rules] = {}
    return cache


def _hero_profile(
    rules: Rules,
    state: GameState,
    card: HeroCard,
    cells: tuple[Cell, ...],
    player: PlayerState,
    deadline: Deadline | None,
    cache: ChamberNumbersCache | None,
) -> tuple[HeroProfile, list[str]]:
    """One hero card's numbers in every chamber, and the chambers where its damage is not the
    same for each further minion."""
    dungeon, guardian = player.dungeon, player.guardian
    if deadline is not None:
        deadline.check()
    known = {} if cache is None else cache.setdefault((guardian, card), {})
    numbers = []
    for cell in cells:
        chamber = dungeon.chamber(cell)
        found = known.get((cell, chamber))
        if found is None:
            if deadline is not None and len(known) & 15 == 15:
                deadline.check()  # a chamber's numbers take about a millisecond: hundreds add up
            found = known[(cell, chamber)] = chamber_numbers(rules, guardian, cell, chamber, card)
        numbers.append(found)
    # One minion may change a chamber (a hero ability resolving once it is dangerous); each
    # further minion must add the same again, or the chamber is not modelled.
    nonlinear = [f"{card.name} in {cell.name}" for cell, n in zip(cells, numbers, strict=True) if not n[6]]
    purple = card.ability.type is AbilityType.NO_DAMAGE_FIRST
    jump = tuple(n[4] for n in numbers)
    profile = HeroProfile(
        card.color,
        card.name,
        state.health(card.color),
        tuple(n[0] for n in numbers),
        tuple(n[1] for n in numbers),
        tuple(n[2] for n in numbers),
        purple,
        tuple(n[3] for n in numbers),
        tuple(n[5] for n in numbers),
        jump if any(jump) else (),
    )
    return profile, nonlinear


def _board_limits(
    rules: Rules, state: GameState, player: PlayerState, cells: tuple[Cell, ...], nonlinear: list[str]
) -> list[str]:
    """What the compiled board does not model, for this dungeon and guardian (each a reason)."""
    dungeon, guardian = player.dungeon, player.guardian
    limits = []
    changes = guardian.type_changes
    for _ability, effect in guardian.effects(Do.MOVE_FIGURE):
        if any(
            chamber_has(effect.when, dungeon.chamber(c), changes, guardian.minions_unlocked) for c in cells
        ):
            where = "/".join(sorted(effect.when.has)) or "any"
            limits.append(f"the {guardian.board.name} moving after a defeat in a chamber holding {where}")
    for ability, _ in guardian.effects(Do.DEFEAT):
        limits.append(f"a guardian ability defeating heroes ({ability.id})")
    if nonlinear and guardian.minions_unlocked:
        limits.append("damage that is not the same for each further minion: " + ", ".join(nonlinear))
    if player.guardian_defeats and rules.guardian_once:
        limits.append("guardians that already defeated a hero this phase (SS-GUARDIAN-FIRST=once-per-phase)")
    black = state.heroes[0]
    if not _black_is_inert(black, state.heroes[1:], dungeon, guardian):
        limits.append(f"{black.name} destroying elements that change later damage or conditions")
    if any(dungeon.chamber(c).collapsing for c in cells) and rules.rulings.is_(
        "SS-HYDRA-COLLAPSE", "after-crossing"
    ):
        limits.append("collapsing passages falling after a crossing")
    if (
        not rules.snapshot_damage
        and black.ability.type is AbilityType.DESTROY
        and not _black_is_inert(black, (), dungeon, guardian)
    ):
        limits.append("SS-SIMULTANEOUS=ability-first for a black hero's own damage")
    return limits


def _route_limits(
    state: GameState,
    guardian: GuardianState,
    profiles: list[HeroProfile],
    limits: list[str],
    nonlinear: list[str],
) -> list[tuple[str, str]]:
    """The limits that change what one hero meets on its own route, as ``(hero colour or "all",
    reason)``; a chamber dealing negative damage is added to ``limits`` too."""
    route_limits: list[tuple[str, str]] = []
    for reason in limits:  # these change what one hero meets on its own route, too
        if reason.startswith(("a guardian ability defeating heroes", "guardians that already defeated")):
            route_limits.append(("all", reason))
    if nonlinear and guardian.minions_unlocked:
        for card in state.heroes:
            if any(entry.startswith(f"{card.name} in ") for entry in nonlinear):
                route_limits.append(
                    (
                        card.color.value,
                        f"{card.name}'s ability resolving only once a minion stands in a chamber",
                    )
                )
    if any(v < 0 for p in profiles for v in (*p.base, *p.unit, *p.minion_unit, *p.jump)):
        route_limits.append(("all", "a chamber dealing negative damage (check the data file)"))
        limits.append(route_limits[-1][1])
    if "SS-SIMULTANEOUS=ability-first for a black hero's own damage" in limits:
        route_limits.append(("black", "SS-SIMULTANEOUS=ability-first for a black hero's own damage"))
    return route_limits


def compile_board(
    rules: Rules,
    state: GameState,
    player: PlayerState,
    deadline: Deadline | None = None,
    cache: ChamberNumbersCache | None = None,
) -> Board:
    """Compile ``player``'s dungeon for the year of ``state`` under ``rules`` (``deadline`` checked
    once per hero card and every 16 chambers computed: a large dungeon takes a second or more). ``cache`` keeps each
    chamber's numbers across calls under the same ``rules`` (the planner compiles one dungeon
    after every purchase sequence, and a purchase changes one or two chambers); without one, the
    numbers kept for ``rules`` by this process (the same dungeon loaded again, by a command's
    engines or checks, is not computed again)."""
    if cache is None:
        cache = _shared_numbers(rules)
    dungeon, guardian = player.dungeon, player.guardian
    cells = tuple(dungeon.cells())
    index = {c: i for i, c in enumerate(cells)}
    neighbours = tuple(tuple(index[n] for n in dungeon.neighbours(c, rules.passage_mode)) for c in cells)
    profiles = []
    nonlinear: list[str] = []
    for card in state.heroes:
        profile, card_nonlinear = _hero_profile(rules, state, card, cells, player, deadline, cache)
        profiles.append(profile)
        nonlinear += card_nonlinear
    limits = _board_limits(rules, state, player, cells, nonlinear)
    route_limits = _route_limits(state, guardian, profiles, limits, nonlinear)
    exit_cell = exit_chamber(rules, dungeon, state.year)
    return Board(
        cells=cells,
        neighbours=neighbours,
        start=index[dungeon.first_chamber],
        escape_at_entry=not entrance_open(rules, dungeon) and rules.entry_escapes,
        exit=index[exit_cell] if exit_cell is not None else None,
        exit_through_defeated=rules.exit_through_defeated,
        heroes=(profiles[0], profiles[1], profiles[2]),
        purple_all_damage=rules.purple_all_damage,
        purple_used_anyway=rules.purple_used_anyway,
        guardian_figures=guardian.board.figures,
        minions=guardian.minions_unlocked,
        limits=tuple(limits),
        year=state.year,
        route_limits=tuple(route_limits),
    )


V = TypeVar("V")


class RecentByScenario(Generic[V]):
    """The last few values made for a scenario object and a player, by identity: a scenario is
    frozen and hashing one is deep. The engines of one question (search, z3, CP-SAT, the baseline,
    ``--engine both``) and the commands' checks each ask for the same scenario's board and
    placement space, and compiling a dungeon costs milliseconds per chamber. The scenario is held
    with its value, so its id stays its own."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[int, int], tuple[Scenario, V]] = OrderedDict()

    def get(
        self,
        scenario: Scenario,
        player: int,
        deadline: Deadline | None,
        make: Callable[[Scenario, int, Deadline | None], V],
    ) -> V:
        """The value kept for ``(scenario, player)`` (``deadline`` still checked), else ``make``'s."""
        key = (id(scenario), player)
        kept = self._kept.get(key)
        if kept is not None and kept[0] is scenario:
            self._kept.move_to_end(key)
            if deadline is not None:
                deadline.check()
            return kept[1]
        value = make(scenario, player, deadline)
        self._kept[key] = (scenario, value)
        if len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return value

    def clear(self) -> None:
        self._kept.clear()


_recent_boards: RecentByScenario[tuple[Board, Layout, int]] = RecentByScenario(8)


def board_for(
    scenario: Scenario, player: int = 0, deadline: Deadline | None = None
) -> tuple[Board, Layout, int]:
    """The compiled board of a scenario's player, its placement, and its defeated-chamber mask
    (the same objects again for the same scenario object, among the last few asked for)."""
    return _recent_boards.get(scenario, player, deadline, _compile_for)


def forget_recent_boards() -> None:
    """Drop the boards and chamber numbers kept (a benchmark timing cold runs)."""
    _recent_boards.clear()
    _numbers_by_rules.clear()


def _compile_for(scenario: Scenario, player: int, deadline: Deadline | None) -> tuple[Board, Layout, int]:
    rules = Rules.of(scenario.rulings, scenario.data)
    p = scenario.initial.players[player]
    board = compile_board(rules, scenario.initial, p, deadline)
    layout = Layout.of(board, p.placement)
    defeated = 0
    for cell, _ in p.defeated:
        defeated |= 1 << board.index(cell)
    return board, layout, defeated

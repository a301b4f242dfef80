"""The Stonespine Invasion year as a pure game: ``pending`` / ``step`` over :class:`GameState`.

The game walks the year's phases (seed 000, "How to Play"): Construction (a row of chamber
cards per player, given by the scenario), Improvement, Preparation, the six Invasion steps,
Cleanup (none in year 4) and, after year 4, the Invasion additions to final scoring. It never
chooses and never rolls: each choice is a :class:`~invasion_oracle.model.core.decisions.DecisionRequest` and
each die a :class:`~invasion_oracle.model.core.decisions.ChanceRequest`. A decision with a single legal option is
not asked and leaves no event of its own (the rule of every game; docs/fixtures.md).

Decision kinds (options are strings, listed in a stable order; the first is a sensible
default):

=====================  ===============================================================
``choose-hero``        which waiting hero enters next: a colour
``move``               where the hero moves: a chamber name such as ``C2``
``destroy``            which elements a black hero covers: space numbers ``2`` or ``1+3``
``troll-move``         where the Giant Troll moves (``stay`` when ruling allows)
``gate``               ``continue`` or ``close`` (Step 3)
``level-up``           in the year-4 Invasion phase: ``level-up`` or ``keep``
``track``              which level marker advances: ``left`` or ``right``
``instant-target``     where an instant ability acts: ``B2:3`` (chamber and space)
``improvement``        ``pass``, ``buy-xp``, ``remove-rubble B2:3``, ``buy-passage B2:left``
``place-guardian``     a chamber for a guardian figure
``place-minion``       a chamber for a minion (``none`` when ruling allows holding it back)
``place-passage``      a chamber edge for a hydra's collapsing passage, or ``none``
=====================  ===============================================================
"""

from __future__ import annotations

from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest, Option, normalise_answer
from invasion_oracle.model.core.errors import IllegalDecisionError, RulesError
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.frozen import replace
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.stonespine import levelling
from invasion_oracle.model.stonespine.abilities import Ability, Do, Effect
from invasion_oracle.model.stonespine.data import GameData, parse_face
from invasion_oracle.model.stonespine.dungeon import Cell, Dungeon, Side
from invasion_oracle.model.stonespine.elements import ElementKind, Space
from invasion_oracle.model.stonespine.entering import (
    EntryKind,
    Rules,
    chamber_has,
    cover,
    destroy_options,
    element_target,
    enter,
    entrance_open,
    escapes_by_exit,
    exit_chamber,
    next_chambers,
)
from invasion_oracle.model.stonespine.guardians import SpaceKind
from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor
from invasion_oracle.model.stonespine.state import (
    ChooseContinue,
    ChooseDestroy,
    ChooseHero,
    ChooseImprovement,
    ChooseInstantTarget,
    ChooseLevelUp,
    ChooseMove,
    ChoosePlacement,
    ChooseTrack,
    ChooseTrollMove,
    FinalScore,
    GameState,
    HeroRun,
    Market,
    Placement,
    PlayerState,
    Roll,
    Stage,
    Task,
)

Events = list[Event]


def _space_name(cell: Cell, index: int) -> str:
    return f"{cell.name}:{index + 1}"


def _parse_space(text: str) -> tuple[Cell, int]:
    cell_text, _, index = text.partition(":")
    return Cell.parse(cell_text), int(index) - 1


_STAGE_STEPS: dict[Stage, str] = {
    Stage.CONSTRUCTION: "_construction",
    Stage.IMPROVEMENT: "_improvement",
    Stage.PREPARATION: "_preparation",
    Stage.ROLL: "_roll",
    Stage.REPEL: "_repel",
    Stage.CONTINUE: "_continue",
    Stage.LEVEL_HEROES: "_level_heroes",
    Stage.AWARD: "_award",
    Stage.XP: "_xp",
    Stage.CLEANUP: "_cleanup",
    Stage.FINAL_SCORING: "_final_scoring",
}
"""The method that runs each stage's automatic steps (by name: a dictionary of bound methods
built at every turn of the advance loop was a tenth of a step)."""


class StonespineGame:
    """Rules in force (rulings and data) plus the pure step function."""

    def __init__(self, rulings: Rulings, data: GameData) -> None:
        self.rulings = rulings
        self.data = data
        self.rules = Rules.of(rulings, data)

    # -- the pure interface -------------------------------------------------------------

    def start(self, state: GameState) -> tuple[GameState, tuple[Event, ...]]:
        """Advance a fresh state to its first request; returns the opening events."""
        events: Events = []
        return self._advance(state, events), tuple(events)

    def pending(self, state: GameState) -> DecisionRequest | ChanceRequest | None:
        return state.request

    def step(self, state: GameState, answer: Option) -> tuple[GameState, tuple[Event, ...]]:
        request, task = state.request, state.task
        if request is None or task is None:
            raise RulesError("the game is over; nothing is pending")
        answer = normalise_answer(request, answer)
        events: Events = []
        state = state.evolve(request=None, task=None)
        state = self._answer(state, task, answer, events)
        return self._advance(state, events), tuple(events)

    def outcome_done(self, state: GameState) -> bool:
        return state.stage is Stage.DONE

    # -- dispatch -----------------------------------------------------------------------

    def _answer(self, s: GameState, task: object, answer: Option, ev: Events) -> GameState:
        if isinstance(task, Roll):
            return (
                s.evolve(rolled=(*s.rolled, str(answer)))
                if task.purpose == "wave"
                else self._hero_level_roll(s, str(answer), ev)
            )
        if isinstance(task, ChooseHero):
            return self._send_hero(s, task.player, HeroColor(answer), ev, chosen=True)
        if isinstance(task, ChooseDestroy):
            spaces = tuple(int(x) - 1 for x in str(answer).split("+")) if answer != "none" else ()
            return self._resolve_entry(s, task.player, task.cell, spaces, ev)
        if isinstance(task, ChooseMove):
            return self._move(s, task.player, Cell.parse(str(answer)), ev)
        if isinstance(task, ChooseTrollMove):
            return self._troll_moves(s, task.player, task.figure, str(answer), ev, task.ability)
        if isinstance(task, ChooseContinue):
            return self._gate_decision(s, task.player, str(answer), ev)
        if isinstance(task, ChooseLevelUp):
            if answer == "keep":
                p = s.players[task.player]
                ev.append(Event.make("xp_kept", player=p.name, xp=p.xp))
                return s.evolve(levelling=None)
            return self._level_up(s, task.player, None, ev)
        if isinstance(task, ChooseTrack):
            return self._level_up(s, task.player, 0 if answer == "left" else 1, ev)
        if isinstance(task, ChooseInstantTarget):
            return self._instant(s, task.player, task.ability, task.remaining, str(answer), ev, task.effect)
        if isinstance(task, ChooseImprovement):
            return self._improve(s, task.player, str(answer), ev)
        if isinstance(task, ChoosePlacement):
            return self._place(s, task, str(answer), ev)
        raise RulesError(f"unknown task {task!r}")  # pragma: no cover - a bug, not an input

    def _advance(self, s: GameState, ev: Events) -> GameState:
        """Run automatic steps until a request is open or the game is over."""
        while s.request is None and s.stage is not Stage.DONE:
            if s.levelling is not None:
                s = self._level_loop(s, ev)
                continue
            s = getattr(self, _STAGE_STEPS[s.stage])(s, ev)
        return s

    def _ask(
        self,
        s: GameState,
        task: Task,
        kind: str,
        player: str,
        options: tuple[str, ...],
        ev: Events,
        **context: object,
    ) -> GameState:
        """Open a decision request - or, with one legal option, take it: no request and no event of
        its own (the one rule of every game: docs/fixtures.md, "Single-option decisions")."""
        if len(options) == 1:
            return self._answer(s, task, options[0], ev)
        request = DecisionRequest(kind, player, options, tuple(context.items()))
        return s.evolve(request=request, task=task)

    # -- I. Construction ----------------------------------------------------------------

    def _construction(self, s: GameState, ev: Events) -> GameState:
        if not s.construction:
            raise RulesError(f"year {s.year} has no chamber row to build; the scenario must give one")
        rows, rest = s.construction[0], s.construction[1:]
        players = []
        for p, row in zip(s.players, rows, strict=True):
            d = p.dungeon
            dungeon = Dungeon(d.columns, d.rows + 1, d.chambers + row, d.entrance, d.exit)
            ev.append(
                Event.make(
                    "row_built",
                    player=p.name,
                    year=s.year,
                    row=dungeon.rows,
                    chambers=tuple(c.describe() for c in row),
                )
            )
            players.append(p.evolve(dungeon=dungeon))
        gold = s.gold_income[0] if s.gold_income else tuple(0 for _ in s.players)
        players = [p.evolve(gold=p.gold + g) for p, g in zip(players, gold, strict=True)]
        for p, g in zip(players, gold, strict=True):
            if g:
                ev.append(Event.make("gold_gained", player=p.name, gold=g, total=p.gold))
        jael = s.jael
        collects = s.jael_collects[0] if s.jael_collects else 0
        if s.solo and collects:
            # Solo Gameplay, II. Improvement: each time you have no more gold than Jael, he takes the
            # XP cubes by the market board icons (how many is a data value).
            cubes = collects * self.data.value("jael_market_xp")
            jael = replace(jael, xp=jael.xp + cubes)
            ev.append(Event.make("jael_collected", year=s.year, times=collects, xp=cubes, total=jael.xp))
        return replace(
            s,
            players=tuple(players),
            construction=rest,
            gold_income=s.gold_income[1:],
            jael=jael,
            jael_collects=s.jael_collects[1:],
            stage=Stage.IMPROVEMENT,
            improvement_passed=(),
        )

    # -- II. Improvement ----------------------------------------------------------------

    def _improvement(self, s: GameState, ev: Events) -> GameState:
        active = [i for i, p in enumerate(s.players) if p.name not in s.improvement_passed]
        if not active:
            return s.evolve(stage=Stage.PREPARATION, cursor=0)
        if self.rulings.is_("SS-IMPROVEMENT-ORDER", "richest-first"):
            index = min(active, key=lambda i: (-s.players[i].gold, s.players[i].priority))
        else:  # round the table in priority order, starting after whoever acted last
            after = [i for i in active if i >= s.cursor]
            index = after[0] if after else active[0]
        p = s.players[index]
        return self._ask(
            s,
            ChooseImprovement(index),
            "improvement",
            p.name,
            self._improvement_options(s, p),
            ev,
            gold=p.gold,
        )

    def _improvement_options(self, s: GameState, p: PlayerState) -> tuple[str, ...]:
        options = ["pass"]
        if p.gold >= self.data.value("xp_price"):
            options.append("buy-xp")
        if p.gold >= self.data.value("rubble_removal_price"):
            # Ruling SS-TROLL-RUBBLE-REMOVE: whether troll rubble is a rubble token for this action.
            removable = (
                {ElementKind.RUBBLE, ElementKind.TROLL_RUBBLE}
                if self.rulings.is_("SS-TROLL-RUBBLE-REMOVE", "removable")
                else {ElementKind.RUBBLE}
            )
            for cell in p.dungeon.cells():
                for i, space in enumerate(p.dungeon.chamber(cell).spaces):
                    if space.top is not None and space.top.kind in removable:
                        options.append(f"remove-rubble {_space_name(cell, i)}")
        prices = self.data.value("passage_prices")
        if s.market.passages_sold < len(prices) and p.gold >= prices[s.market.passages_sold]:
            for cell in p.dungeon.cells():
                chamber = p.dungeon.chamber(cell)
                for side in Side:
                    if not chamber.opening(side):
                        options.append(f"buy-passage {cell.name}:{side.value}")
        return tuple(options)

    def _improve(self, s: GameState, index: int, answer: str, ev: Events) -> GameState:
        s = s.evolve(cursor=index + 1)
        p = s.players[index]
        if answer == "pass":
            ev.append(Event.make("improvement_passed", player=p.name))
            return s.evolve(improvement_passed=(*s.improvement_passed, p.name))
        if answer == "buy-xp":
            price = self.data.value("xp_price")
            market = s.market
            first_time = p.name not in market.xp_buyers
            takes_board = market.xp_spaces and (
                self.rulings.is_("SS-XP-MARKET", "per-purchase") or first_time
            )
            if takes_board:
                cubes, spaces = market.xp_spaces[0], market.xp_spaces[1:]
            else:
                cubes, spaces = self.data.value("xp_supply_cubes"), market.xp_spaces
            p = p.evolve(gold=p.gold - price, xp=p.xp + cubes)
            ev.append(Event.make("xp_bought", player=p.name, cubes=cubes, gold=price, xp=p.xp))
            s = replace(
                s.with_player(index, p),
                market=replace(market, xp_spaces=spaces, xp_buyers=(*market.xp_buyers, p.name)),
            )
            return s.evolve(levelling=index)
        action, _, where = answer.partition(" ")
        if action == "remove-rubble":
            cell, i = _parse_space(where)
            chamber = p.dungeon.chamber(cell)
            space = chamber.spaces[i].removed(self.rulings.is_("SS-RUBBLE-REMOVE", "uncover"))
            restored = space.top
            chamber = chamber.with_space(i, space)
            price = self.data.value("rubble_removal_price")
            p = p.evolve(gold=p.gold - price, dungeon=p.dungeon.with_chamber(cell, chamber))
            ev.append(
                Event.make(
                    "rubble_removed",
                    player=p.name,
                    space=where,
                    gold=price,
                    uncovered=str(restored) if restored else None,
                )
            )
            return s.with_player(index, p)
        if action == "buy-passage":
            cell_text, _, side_text = where.partition(":")
            cell, side = Cell.parse(cell_text), Side(side_text)
            price = self.data.value("passage_prices")[s.market.passages_sold]
            chamber = p.dungeon.chamber(cell)
            chamber = replace(chamber, passages=chamber.passages | {side})
            p = replace(
                p,
                gold=p.gold - price,
                dungeon=p.dungeon.with_chamber(cell, chamber),
                passages_bought=p.passages_bought + 1,
            )
            ev.append(Event.make("passage_bought", player=p.name, edge=where, gold=price))
            return replace(
                s.with_player(index, p), market=replace(s.market, passages_sold=s.market.passages_sold + 1)
            )
        raise IllegalDecisionError(f"unknown improvement {answer!r}")  # pragma: no cover - options gate it

    # -- III. Preparation ---------------------------------------------------------------

    def _preparation(self, s: GameState, ev: Events) -> GameState:
        """Each player places guardian figure(s), unlocked minions and hydra passages, in turn."""
        while s.cursor < len(s.players):
            p = s.players[s.cursor]
            board = p.guardian.board
            cells = tuple(c.name for c in p.dungeon.cells())
            placed_g, placed_m = len(p.placement.guardians), len(p.placement.minions)
            if placed_g < board.figures:
                return self._ask(
                    s,
                    ChoosePlacement(s.cursor, "guardian", placed_g),
                    "place-guardian",
                    p.name,
                    cells,
                    ev,
                    figure=placed_g + 1,
                )
            if placed_m + p.placement.minions_held_back < p.guardian.minions_unlocked:
                options = cells + (("none",) if self.rulings.is_("SS-MINIONS", "optional") else ())
                return self._ask(
                    s,
                    ChoosePlacement(s.cursor, "minion", placed_m),
                    "place-minion",
                    p.name,
                    options,
                    ev,
                    minion=placed_m + 1,
                )
            # An ongoing or unlocked open-passage ability places the tokens in hand (the hydras).
            tokens = p.guardian.passage_tokens if p.guardian.effects(Do.OPEN_PASSAGE) else 0
            placed_c = sum(len(p.dungeon.chamber(c).collapsing) for c in p.dungeon.cells())
            if placed_c + p.placement.passages_held_back < tokens:
                edges = tuple(
                    f"{c.name}:{side.value}"
                    for c in p.dungeon.cells()
                    for side in Side
                    if not p.dungeon.chamber(c).opening(side)
                )
                if edges:
                    return self._ask(
                        s,
                        ChoosePlacement(s.cursor, "passage", placed_c),
                        "place-passage",
                        p.name,
                        ("none", *edges),
                        ev,
                        token=placed_c + 1,
                    )
            ev.append(Event.make("prepared", player=p.name, **_placement_fields(p.placement)))
            s = s.evolve(cursor=s.cursor + 1)
        players = tuple(p.evolve(gate_open=True) for p in s.players)
        return s.evolve(players=players, stage=Stage.ROLL, cursor=0, wave=0, rolled=())

    def _place(self, s: GameState, task: ChoosePlacement, answer: str, ev: Events) -> GameState:
        p = s.players[task.player]
        if task.figure == "guardian":
            p = replace(
                p, placement=replace(p.placement, guardians=(*p.placement.guardians, Cell.parse(answer)))
            )
        elif task.figure == "minion" and answer == "none":
            ev.append(Event.make("minion_held_back", player=p.name, minion=task.index + 1))
            p = replace(
                p, placement=replace(p.placement, minions_held_back=p.placement.minions_held_back + 1)
            )
        elif task.figure == "minion":
            p = p.evolve(placement=replace(p.placement, minions=(*p.placement.minions, Cell.parse(answer))))
        elif answer == "none":
            ev.append(Event.make("passage_held_back", player=p.name, token=task.index + 1))
            p = replace(
                p, placement=replace(p.placement, passages_held_back=p.placement.passages_held_back + 1)
            )
        else:
            cell_text, _, side_text = answer.partition(":")
            cell, side = Cell.parse(cell_text), Side(side_text)
            chamber = p.dungeon.chamber(cell)
            p = replace(
                p,
                dungeon=p.dungeon.with_chamber(
                    cell, replace(chamber, collapsing=chamber.collapsing | {side})
                ),
            )
            ev.append(Event.make("collapsing_passage_placed", player=p.name, edge=answer))
        return s.with_player(task.player, p)

    # -- IV. Invasion, Step 1: Roll Dice --------------------------------------------------

    def _roll(self, s: GameState, ev: Events) -> GameState:
        dice = self.data.value("dice_by_year")[s.year - 1]
        if not s.rolled:
            ev.append(
                Event.make(
                    "wave_started", wave=s.wave + 1, gates=tuple(p.name for p in s.players if p.gate_open)
                )
            )
        if len(s.rolled) < len(dice):
            die = self.data.die(dice[len(s.rolled)])
            request = ChanceRequest(
                "roll", die.name, die.labels, f"wave {s.wave + 1}, die {len(s.rolled) + 1} of {len(dice)}"
            )
            return s.evolve(request=request, task=Roll("wave"))
        heroes = tuple(c for face in s.rolled for c in parse_face(face))
        for name, face in zip(dice, s.rolled, strict=True):
            ev.append(Event.make("die_rolled", die=name, face=face))
        players = []
        for p in s.players:
            if p.gate_open:
                ev.append(Event.make("heroes_arrived", player=p.name, heroes=tuple(h.value for h in heroes)))
                p = p.evolve(waiting=heroes)
            players.append(p)
        return s.evolve(players=tuple(players), wave=s.wave + 1, rolled=(), stage=Stage.REPEL, cursor=0)

    # -- Step 2: Repel Heroes ---------------------------------------------------------------

    def _repel(self, s: GameState, ev: Events) -> GameState:
        while s.cursor < len(s.players):
            p = s.players[s.cursor]
            if p.running is not None:
                raise RulesError("a hero is mid-move with no request open")  # pragma: no cover
            if not p.gate_open or not p.waiting:
                s = s.evolve(cursor=s.cursor + 1)
                continue
            colours = tuple(c for c in COLORS if c in p.waiting)
            if len(colours) > 1:
                return self._ask(
                    s,
                    ChooseHero(s.cursor),
                    "choose-hero",
                    p.name,
                    tuple(c.value for c in colours),
                    ev,
                    waiting=tuple(h.value for h in p.waiting),
                )
            s = self._send_hero(s, s.cursor, colours[0], ev, chosen=False)
            if s.request is not None:
                return s
        return s.evolve(stage=Stage.CONTINUE, cursor=0)

    def _send_hero(
        self, s: GameState, index: int, color: HeroColor, ev: Events, *, chosen: bool
    ) -> GameState:
        p = s.players[index]
        waiting = list(p.waiting)
        waiting.remove(color)
        p = p.evolve(waiting=tuple(waiting))
        first = p.dungeon.first_chamber
        ev.append(Event.make("hero_sent", player=p.name, hero=color.value, chosen=chosen))
        if p.dungeon.rows == 0 or (not entrance_open(self.rules, p.dungeon) and self.rules.entry_escapes):
            s = s.with_player(index, p)
            return self._escape(s, index, color, None, "no-entry", ev)
        p = p.evolve(running=HeroRun(color, first, (first,)))
        return self._enter(s.with_player(index, p), index, ev)

    def _enter(self, s: GameState, index: int, ev: Events) -> GameState:
        """The running hero has just stepped into ``run.at``: ask for a black hero's choice if needed."""
        p = s.players[index]
        run = p.running
        assert run is not None
        card = s.card(run.color)
        ev.append(Event.make("hero_entered", player=p.name, hero=run.color.value, chamber=run.at.name))
        ignored = p.defeated_in(run.at) or run.at in p.placement.guardians
        if not ignored:
            minions = p.placement.minions_in(run.at)
            options = destroy_options(card, p.dungeon.chamber(run.at), p.guardian, self.rules, minions)
            if len(options) > 1:
                labels = tuple("+".join(str(i + 1) for i in o) for o in options)
                return self._ask(
                    s,
                    ChooseDestroy(index, run.at),
                    "destroy",
                    p.name,
                    labels,
                    ev,
                    hero=run.color.value,
                    chamber=run.at.name,
                )
            if options and options[0]:
                return self._resolve_entry(s, index, run.at, options[0], ev)
        return self._resolve_entry(s, index, run.at, (), ev)

    def _resolve_entry(
        self, s: GameState, index: int, cell: Cell, destroy: tuple[int, ...], ev: Events
    ) -> GameState:
        p = s.players[index]
        run = p.running
        assert run is not None
        card = s.card(run.color)
        health = s.health(run.color)
        defeated_cells = frozenset(c for c, _ in p.defeated)
        entry = enter(
            self.rules,
            p.dungeon,
            p.guardian,
            p.placement,
            defeated_cells,
            cell,
            card,
            run.protection_used,
            destroy,
            run.damage,
            health,
            frozenset(k for k, _ in p.guardian_defeats),
        )
        hero = run.color.value
        if entry.kind is EntryKind.IGNORED:
            ev.append(
                Event.make(
                    "chamber_ignored", player=p.name, hero=hero, chamber=cell.name, reason="defeated-hero"
                )
            )
            return self._after_entry(s, index, ignored=True, ev=ev)
        if entry.kind is EntryKind.GUARDIAN:
            spent = {k for k, _ in p.guardian_defeats} if self.rules.guardian_once else set()
            figure = next(k for k, c in enumerate(p.placement.guardians) if c == cell and k not in spent)
            return self._defeat(s, index, cell, "guardian", ev, figure=figure)
        if entry.kind is EntryKind.ABILITY:
            return self._defeat(s, index, cell, entry.by, ev)
        total = run.damage + entry.damage
        if entry.protected:
            ev.append(
                Event.make("hero_protected", player=p.name, hero=hero, chamber=cell.name, ability=card.name)
            )
        ev.append(
            Event.make(
                "hero_damaged",
                player=p.name,
                hero=hero,
                chamber=cell.name,
                damage=entry.damage,
                total=total,
                health=health,
                parts=tuple(f"{name}:{n}" for name, n in entry.parts),
            )
        )
        run = replace(run, damage=total, protection_used=run.protection_used or entry.protected)
        if entry.destroyed:
            chamber = cover(p.dungeon.chamber(cell), entry.destroyed)
            ev.append(
                Event.make(
                    "elements_destroyed",
                    player=p.name,
                    hero=hero,
                    chamber=cell.name,
                    spaces=tuple(i + 1 for i in entry.destroyed),
                )
            )
            p = p.evolve(dungeon=p.dungeon.with_chamber(cell, chamber))
        s = s.with_player(index, p.evolve(running=run))
        if total >= health:
            return self._defeat(s, index, cell, "damage", ev)
        return self._after_entry(s, index, ignored=False, ev=ev)

    def _defeat(
        self, s: GameState, index: int, cell: Cell, by: str, ev: Events, *, figure: int | None = None
    ) -> GameState:
        p = s.players[index]
        run = p.running
        assert run is not None
        p = p.evolve(running=None, defeated=(*p.defeated, (cell, run.color)))
        ev.append(
            Event.make(
                "hero_defeated",
                player=p.name,
                hero=run.color.value,
                chamber=cell.name,
                by=by,
                damage=run.damage,
            )
        )
        if figure is not None:
            p = p.evolve(guardian_defeats=(*p.guardian_defeats, (figure, cell)))
        s = s.with_player(index, p)
        if figure is None:
            return s
        chamber = p.dungeon.chamber(cell)
        changes, minions = p.guardian.type_changes, p.placement.minions_in(cell)
        for ability, effect in p.guardian.effects(Do.MOVE_FIGURE):
            if not chamber_has(effect.when, chamber, changes, minions):
                continue
            # A guardian moves after a defeat (Giant Troll ongoing ability; ruling SS-TROLL-MOVE).
            near = tuple(c.name for c in p.dungeon.neighbours(cell, self.rules.passage_mode))
            options = (("stay",) if self.rulings.is_("SS-TROLL-MOVE", "may") else ()) + near
            if len(options) > 1:
                return self._ask(
                    s,
                    ChooseTrollMove(index, figure, ability.id),
                    "troll-move",
                    p.name,
                    options,
                    ev,
                    chamber=cell.name,
                )
            if options:
                return self._troll_moves(s, index, figure, options[0], ev, ability.id)
            break
        return s

    def _troll_moves(
        self, s: GameState, index: int, figure: int, answer: str, ev: Events, ability: str = "troll-moves"
    ) -> GameState:
        p = s.players[index]
        origin = p.placement.guardians[figure]
        if answer == "stay":
            ev.append(Event.make("guardian_stayed", player=p.name, chamber=origin.name))
            return s
        target = Cell.parse(answer)
        guardians = list(p.placement.guardians)
        guardians[figure] = target
        ev.append(
            Event.make(
                "guardian_moved",
                player=p.name,
                origin=origin.name,
                chamber=target.name,
                ability=ability,
            )
        )
        return s.with_player(index, p.evolve(placement=replace(p.placement, guardians=tuple(guardians))))

    def _after_entry(self, s: GameState, index: int, *, ignored: bool, ev: Events) -> GameState:
        p = s.players[index]
        run = p.running
        assert run is not None
        if escapes_by_exit(self.rules, exit_chamber(self.rules, p.dungeon, s.year), run.at, ignored):
            return self._escape(s, index, run.color, run.at, "exit", ev)
        options = next_chambers(self.rules, p.dungeon, run.at, run.visited)
        if not options:
            return self._escape(s, index, run.color, run.at, "no-new-chamber", ev)
        if len(options) > 1:
            return self._ask(
                s,
                ChooseMove(index),
                "move",
                p.name,
                tuple(c.name for c in options),
                ev,
                hero=run.color.value,
                chamber=run.at.name,
                damage=run.damage,
            )
        return self._move(s, index, options[0], ev)

    def _move(self, s: GameState, index: int, target: Cell, ev: Events) -> GameState:
        p = s.players[index]
        run = p.running
        assert run is not None
        ev.append(
            Event.make(
                "hero_moved", player=p.name, hero=run.color.value, origin=run.at.name, chamber=target.name
            )
        )
        p = self._collapse_crossed(p, run.at, target, ev)
        p = p.evolve(running=replace(run, at=target, visited=(*run.visited, target)))
        return self._enter(s.with_player(index, p), index, ev)

    def _collapse_crossed(self, p: PlayerState, origin: Cell, target: Cell, ev: Events) -> PlayerState:
        """A hero crossing a collapsing secret passage makes it collapse (ruling SS-HYDRA-COLLAPSE)."""
        if not self.rulings.is_("SS-HYDRA-COLLAPSE", "after-crossing"):
            return p
        side = next(sd for sd in Side if origin.step(sd) == target)
        dungeon = p.dungeon
        for cell, edge in ((origin, side), (target, side.opposite)):
            chamber = dungeon.chamber(cell)
            if edge in chamber.collapsing:
                dungeon = dungeon.with_chamber(cell, replace(chamber, collapsing=chamber.collapsing - {edge}))
                ev.append(Event.make("passage_collapsed", player=p.name, edge=f"{cell.name}:{edge.value}"))
        return p.evolve(dungeon=dungeon)

    def _escape(
        self, s: GameState, index: int, color: HeroColor, cell: Cell | None, reason: str, ev: Events
    ) -> GameState:
        p = s.players[index]
        ev.append(
            Event.make(
                "hero_escaped",
                player=p.name,
                hero=color.value,
                chamber=cell.name if cell else None,
                reason=reason,
            )
        )
        if p.waiting:
            ev.append(Event.make("heroes_returned", player=p.name, heroes=tuple(h.value for h in p.waiting)))
        ev.append(Event.make("gate_closed", player=p.name, reason="escape"))
        p = p.evolve(running=None, escaped=(*p.escaped, color), waiting=(), gate_open=False)
        return s.with_player(index, p)

    # -- Step 3: Close Gate or Continue ---------------------------------------------------

    def _continue(self, s: GameState, ev: Events) -> GameState:
        while s.cursor < len(s.players):
            p = s.players[s.cursor]
            if p.gate_open:
                return self._ask(
                    s,
                    ChooseContinue(s.cursor),
                    "gate",
                    p.name,
                    ("continue", "close"),
                    ev,
                    defeated=len(p.defeated),
                    wave=s.wave,
                )
            s = s.evolve(cursor=s.cursor + 1)
        if any(p.gate_open for p in s.players):
            return s.evolve(stage=Stage.ROLL, cursor=0)
        return s.evolve(stage=Stage.LEVEL_HEROES, cursor=0, hero_rolls_done=0)

    def _gate_decision(self, s: GameState, index: int, answer: str, ev: Events) -> GameState:
        p = s.players[index]
        if answer == "close":
            ev.append(Event.make("gate_closed", player=p.name, reason="chosen"))
            s = s.with_player(index, p.evolve(gate_open=False))
        else:
            ev.append(Event.make("gate_kept_open", player=p.name))
        return s.evolve(cursor=index + 1)

    # -- Step 4: Level Up Heroes ------------------------------------------------------------

    def _level_heroes(self, s: GameState, ev: Events) -> GameState:
        rolls = self.data.value("hero_level_rolls")[s.year - 1]
        if s.hero_rolls_done < rolls:
            die = self.data.die("white")
            request = ChanceRequest(
                "roll", die.name, die.labels, f"hero level-up {s.hero_rolls_done + 1} of {rolls}"
            )
            return s.evolve(request=request, task=Roll("hero-level"))
        return s.evolve(stage=Stage.AWARD)

    def _hero_level_roll(self, s: GameState, face: str, ev: Events) -> GameState:
        bonus = list(s.health_bonus)
        ev.append(Event.make("die_rolled", die="white", face=face))
        for color in parse_face(face):
            i = COLORS.index(color)
            if self.rulings.is_("SS-HEALTH-TOKENS", "cap-at-two") and bonus[i] >= 2:
                ev.append(Event.make("hero_level_capped", hero=color.value, bonus=bonus[i]))
                continue
            bonus[i] += 1
            ev.append(
                Event.make(
                    "hero_levelled",
                    hero=color.value,
                    card=s.heroes[i].name,
                    bonus=bonus[i],
                    health=s.heroes[i].health + bonus[i],
                )
            )
        return s.evolve(health_bonus=(bonus[0], bonus[1], bonus[2]), hero_rolls_done=s.hero_rolls_done + 1)

    # -- Step 5: Award Trophy / Demerits, then Step 6: Gain XP ------------------------------

    def _award(self, s: GameState, ev: Events) -> GameState:
        year, players = s.year, list(s.players)
        value = self.data.trophy_value(year)
        eligible = [p for p in players if not p.had_escape]
        if self.rulings.is_("SS-TROPHY-ZERO", "needs-one"):
            eligible = [p for p in eligible if p.defeated]
        jael = s.jael
        if s.solo:
            jael_defeats = self.data.value("jael_defeats")[year - 1]
            winner = eligible[0] if eligible and len(eligible[0].defeated) > jael_defeats else None
            if winner is None:
                jael = replace(jael, trophies=(*jael.trophies, (year, value)))
                ev.append(
                    Event.make("trophy_awarded", player="Jael", year=year, value=value, defeated=jael_defeats)
                )
        else:
            winner = min(eligible, key=lambda p: (-len(p.defeated), p.priority)) if eligible else None
            if winner is None:
                ev.append(Event.make("trophy_returned", year=year, value=value))
        if winner is not None:
            i = players.index(winner)
            players[i] = replace(winner, trophies=(*winner.trophies, (year, value)))
            ev.append(
                Event.make(
                    "trophy_awarded",
                    player=winner.name,
                    year=year,
                    value=value,
                    defeated=len(winner.defeated),
                )
            )
        demerit = self.data.demerit_value(year)
        for i, p in enumerate(players):
            if p.had_escape:
                players[i] = p.evolve(demerits=(*p.demerits, (year, demerit)))
                ev.append(Event.make("demerit_taken", player=p.name, year=year, value=demerit))
        for i, p in enumerate(players):
            players[i] = p.evolve(xp=p.xp + p.entered)
            ev.append(Event.make("xp_gained", player=p.name, xp=p.entered, total=p.xp + p.entered))
        return s.evolve(players=tuple(players), jael=jael, stage=Stage.XP, cursor=0)

    def _xp(self, s: GameState, ev: Events) -> GameState:
        if s.cursor < len(s.players):
            return s.evolve(levelling=s.cursor, cursor=s.cursor + 1)
        if s.year >= s.last_year:
            if s.year >= 4:
                return s.evolve(stage=Stage.FINAL_SCORING)
            return s.evolve(stage=Stage.DONE)
        return s.evolve(stage=Stage.CLEANUP)

    # -- Leveling Up Guardians ----------------------------------------------------------

    def _level_loop(self, s: GameState, ev: Events) -> GameState:
        index = s.levelling
        assert index is not None
        p = s.players[index]
        cost = self.data.value("level_up_cost")
        can = [t for t in (0, 1) if p.guardian.can_advance(t)]
        if p.xp < cost or not can:
            if p.xp >= cost:
                ev.append(
                    Event.make("level_up_impossible", player=p.name, xp=p.xp, reason="both markers on top")
                )
            return s.evolve(levelling=None)
        if s.year == 4 and s.stage is Stage.XP:
            return self._ask(s, ChooseLevelUp(index), "level-up", p.name, ("level-up", "keep"), ev, xp=p.xp)
        return self._level_up(s, index, None, ev)

    def _level_up(self, s: GameState, index: int, track: int | None, ev: Events) -> GameState:
        p = s.players[index]
        can = [t for t in (0, 1) if p.guardian.can_advance(t)]
        if track is None:
            if len(can) > 1:
                return self._ask(s, ChooseTrack(index), "track", p.name, ("left", "right"), ev, xp=p.xp)
            track = can[0]
        guardian, space = levelling.advance(p.guardian, track)
        cost = self.data.value("level_up_cost")
        p = p.evolve(guardian=guardian, xp=p.xp - cost)
        ev.append(
            Event.make(
                "guardian_levelled",
                player=p.name,
                track=levelling.TRACK_NAMES[track],
                space=str(space),
                level=guardian.markers[track],
                xp=p.xp,
            )
        )
        if space.kind is SpaceKind.MINION:
            ev.append(Event.make("minion_unlocked", player=p.name, minions=guardian.minions_unlocked))
        board = p.guardian.board
        if space.kind is SpaceKind.UNLOCK:
            unlocked = board.unlockable(space.letter) or space.letter
            if board.ability(unlocked).unknown:
                raise board.not_modelled(unlocked)
            ev.append(Event.make("ability_unlocked", player=p.name, ability=unlocked))
        s = s.with_player(index, p)
        if space.kind is SpaceKind.INSTANT:
            if board.instant is None:  # pragma: no cover - the data loader refuses such a board
                raise RulesError(f"board {board.name} has instant spaces but no instant ability")
            return self._instant(s, index, board.instant, space.times, None, ev)
        return s

    def _instant(
        self,
        s: GameState,
        index: int,
        ability_id: str,
        uses: int,
        answer: str | None,
        ev: Events,
        effect_index: int = 0,
    ) -> GameState:
        """Resolve ``uses`` uses of an instant ability, each of its effects in turn; ``answer`` is
        the target of the effect being asked about."""
        p = s.players[index]
        board = p.guardian.board
        ability = board.ability(ability_id)
        if ability.unknown:
            raise board.not_modelled(ability_id)
        if answer == "none":
            ev.append(Event.make("instant_skipped", player=p.name, ability=ability.id, reason="declined"))
            uses, effect_index = _next_effect(ability, uses, effect_index)
        elif answer is not None:
            target = "" if answer == "use" else answer
            p = self._apply_effect(p, ability, ability.effects[effect_index], target, ev)
            s = s.with_player(index, p)
            uses, effect_index = _next_effect(ability, uses, effect_index)
        optional = self.rulings.is_("SS-INSTANT-OPTIONAL", "may")
        while uses > 0:
            effect = ability.effects[effect_index]
            targets = self._effect_targets(p, effect)
            if targets is not None and not targets:
                ev.append(
                    Event.make("instant_skipped", player=p.name, ability=ability.id, reason="no target")
                )
            elif optional:  # SS-INSTANT-OPTIONAL=may: the player may decline this use
                return self._ask(
                    s,
                    ChooseInstantTarget(index, ability.id, uses, effect_index),
                    "instant-target",
                    p.name,
                    ("none", *(targets if targets is not None else ("use",))),
                    ev,
                    ability=ability.id,
                )
            elif targets is not None and len(targets) > 1:
                return self._ask(
                    s,
                    ChooseInstantTarget(index, ability.id, uses, effect_index),
                    "instant-target",
                    p.name,
                    targets,
                    ev,
                    ability=ability.id,
                )
            else:
                p = self._apply_effect(p, ability, effect, targets[0] if targets else "", ev)
                s = s.with_player(index, p)
            uses, effect_index = _next_effect(ability, uses, effect_index)
        return s

    def _effect_targets(self, p: PlayerState, effect: Effect) -> tuple[str, ...] | None:
        """Where a one-shot effect may act (``None``: it needs no target)."""
        dungeon, changes = p.dungeon, p.guardian.type_changes
        if effect.do is Do.GAIN_TOKENS:
            return None
        if effect.do in (Do.OPEN_PASSAGE, Do.COLLAPSE_PASSAGE):
            edges = []
            for cell in dungeon.cells():
                chamber = dungeon.chamber(cell)
                for side in Side:
                    if effect.do is Do.OPEN_PASSAGE:
                        ok = not chamber.opening(side)
                    elif effect.passage == "secret":
                        ok = side in chamber.passages
                    elif effect.passage == "collapsing":
                        ok = side in chamber.collapsing
                    else:
                        ok = chamber.passage_on(side)
                    if ok:
                        edges.append(f"{cell.name}:{side.value}")
            return tuple(edges)
        targets = []
        wanted = effect.target.is_
        for cell in dungeon.cells():
            chamber = dungeon.chamber(cell)
            for i, space in enumerate(chamber.spaces):
                if not effect.target.matches(space, chamber.type, changes):
                    continue
                if effect.do is Do.REVEAL_TOKEN and not (space.top is not None and space.top.face_down):
                    continue
                if not effect.target.empty and not element_target(self.rules, space, wanted):
                    continue
                targets.append(_space_name(cell, i))
        return tuple(targets)

    def _apply_effect(
        self, p: PlayerState, ability: Ability, effect: Effect, target: str, ev: Events
    ) -> PlayerState:
        if effect.do is Do.GAIN_TOKENS:
            tokens = min(p.guardian.passage_tokens + int(effect.amount), p.guardian.board.passage_tokens)
            ev.append(
                Event.make("instant_used", player=p.name, ability=ability.id, target=None, tokens=tokens)
            )
            return p.evolve(guardian=replace(p.guardian, passage_tokens=tokens))
        if effect.do in (Do.OPEN_PASSAGE, Do.COLLAPSE_PASSAGE):
            cell_text, _, side_text = target.partition(":")
            cell, side = Cell.parse(cell_text), Side(side_text)
            chamber = p.dungeon.chamber(cell)
            if effect.do is Do.OPEN_PASSAGE and effect.passage == "collapsing":
                chamber = replace(chamber, collapsing=chamber.collapsing | {side})
            elif effect.do is Do.OPEN_PASSAGE:
                chamber = replace(chamber, passages=chamber.passages | {side})
            else:
                chamber = replace(
                    chamber, passages=chamber.passages - {side}, collapsing=chamber.collapsing - {side}
                )
            ev.append(
                Event.make(
                    "instant_used", player=p.name, ability=ability.id, target=target, effect=effect.do.value
                )
            )
            return p.evolve(dungeon=p.dungeon.with_chamber(cell, chamber))
        cell, i = _parse_space(target)
        chamber = p.dungeon.chamber(cell)
        space = chamber.spaces[i]
        covered: str | None = None
        if effect.do is Do.PLACE_TOKEN:
            assert effect.token is not None
            if space.top is None:
                space = Space(effect.token)
            else:
                covered = str(space.top)
                space = space.cover_with(effect.token)
        elif effect.do is Do.REVEAL_TOKEN:
            assert space.top is not None
            space = Space(space.top.revealed(), space.under)
        else:  # change-type: this element now counts as both types
            assert space.top is not None
            space = Space(space.top.changed_to(effect.to), space.under)
            ev.append(
                Event.make(
                    "instant_used", player=p.name, ability=ability.id, target=target, changed_to=effect.to
                )
            )
            return p.evolve(dungeon=p.dungeon.with_chamber(cell, chamber.with_space(i, space)))
        ev.append(
            Event.make("instant_used", player=p.name, ability=ability.id, target=target, covered=covered)
        )
        return p.evolve(dungeon=p.dungeon.with_chamber(cell, chamber.with_space(i, space)))

    # -- V. Cleanup and Final Scoring ----------------------------------------------------

    def _cleanup(self, s: GameState, ev: Events) -> GameState:
        players = []
        for p in s.players:
            dungeon = p.dungeon
            for cell in dungeon.cells():
                chamber = dungeon.chamber(cell)
                if chamber.collapsing:
                    dungeon = dungeon.with_chamber(cell, replace(chamber, collapsing=frozenset()))
            ev.append(Event.make("cleaned_up", player=p.name, returned_heroes=p.entered))
            players.append(
                replace(
                    p,
                    dungeon=dungeon,
                    placement=Placement(),
                    defeated=(),
                    escaped=(),
                    waiting=(),
                    running=None,
                    gate_open=True,
                    passages_bought=0,
                    guardian_defeats=(),
                )
            )
        xp_market = tuple(self.data.value("xp_market"))
        return replace(
            s,
            players=tuple(players),
            market=Market(xp_spaces=xp_market),
            year=s.year + 1,
            stage=Stage.CONSTRUCTION,
            wave=0,
            cursor=0,
        )

    def _final_scoring(self, s: GameState, ev: Events) -> GameState:
        scores = []
        for p in s.players:
            score = FinalScore(
                p.name, p.guardian.bonus(), sum(v for _, v in p.trophies), sum(v for _, v in p.demerits), p.xp
            )
            ev.append(Event.make("final_score", **{k: v for k, v in score.to_json().items()}))
            scores.append(score)
        if s.solo:
            jael = FinalScore("Jael", 0, sum(v for _, v in s.jael.trophies), 0, s.jael.xp)
            ev.append(Event.make("final_score", **{k: v for k, v in jael.to_json().items()}))
            scores.append(jael)
        return s.evolve(final_scores=tuple(scores), stage=Stage.DONE)


def _next_effect(ability: Ability, uses: int, effect_index: int) -> tuple[int, int]:
    """After one effect: the next effect of this use, or the first of the next use."""
    if effect_index + 1 < len(ability.effects):
        return uses, effect_index + 1
    return uses - 1, 0


def _placement_fields(placement: Placement) -> dict[str, tuple[str, ...]]:
    return {
        "guardians": tuple(c.name for c in placement.guardians),
        "minions": tuple(c.name for c in placement.minions),
    }

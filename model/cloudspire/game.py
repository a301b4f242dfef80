"""A Cloudspire game as a pure game: ``start`` / ``pending`` / ``step`` over :class:`GameState`.

Each round runs in the seed's order (seed 004, Round Flow): round-start effects (Drilling
Outpost), Cycle Enemies (optional), Advance Enemies (with deployment, additional enemy icons and
activation effects, and the Health lost when nothing deploys); then the Engagement: Strategy
(Place Spires, then cycles of Commit, Roll and Load, as many rolls as ruling ``CS-ROLLS``
allows), Spires Fire, and Resolve (Suffer Damage, After Effects, Exhaust Dice with the keep or
exhaust choice for loaded dice, Recover Dice, Gain Item Rewards, Cleanup). A scenario can start
at setup, at the start of a round, at the Strategy phase, at the Load step (dice rolled), at
Spires Fire or at Resolve. Victory and defeat are checked after every task.

The game never chooses and never rolls: each choice is a
:class:`~invasion_oracle.model.core.decisions.DecisionRequest` for the player ``hero`` whose options are
:class:`~invasion_oracle.model.cloudspire.options.Choice` texts, and each die roll or shuffled card a
:class:`~invasion_oracle.model.core.decisions.ChanceRequest`. A decision with one option is taken and reported
by its events. Spires can be gained by banishing a pool die "at any time": the ``banish COLOUR``
option is offered in every decision loop of a phase (cycle, place, commit, load, fire, damage)
while a spire can be found in the discard or the Market Stack.

Decision kinds (options listed in this order; the first is a sensible default):

==================  =============================================================================
``drill``           ``drill SPACE``: the active spire that gains Drilling Outpost's red blueprint
``cycle``           ``stop``, ``cycle COLOUR`` (exhaust a pool die: top Deployment card to bottom)
``place``           ``place CARD SPACE`` (an inventory spire into an open spire space), ``done``
``commit``          ``commit COLOUR``, ``roll`` (roll every committed die not loaded), ``stop``
``load``            ``load DIE SLOT``, ``done``
``fire``            ``apply DIE LANE`` (a loaded hit onto the lane's top enemy), ``done``
``attack-order``    ``attack LANE``: which enemy attacks next (bottom lane first)
``damage``          ``miss SLOT``, ``spire SPACE``, ``hero``: where one point of damage goes
``exhaust-pool``    ``exhaust-pool COLOUR``: an activation effect exhausting a pool die
``keep``            ``keep DIE``, ``exhaust DIE``: a loaded die at the Exhaust Dice step
``recover``         ``recover COLOUR``
``keep-card``       ``keep-card CARD``: a draw/keep reward
``market-bottom``   ``bottom CARD``: the next unkept card to the bottom of the Market Stack
``gain-spire``      ``gain CARD discard|market`` after banishing a die
``activate``        ``activate SPACE``, ``inventory``: a gained spire
``make-room``       ``discard CARD``, ``decline``: the inventory is full
==================  =============================================================================

Chance kinds: ``roll`` (source: the die, outcomes: its six faces), ``draw`` (sources ``boss``,
``mini-boss``, ``deployment``, ``market``: the cards that could be on top, each equally likely).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

from invasion_oracle.model.cloudspire.area import (
    HERO,
    LANES,
    SPIRE_SPACES,
    adjacent_spires,
    enemy_reach,
    hit_reach,
)
from invasion_oracle.model.cloudspire.blueprints import Slot, accepts
from invasion_oracle.model.cloudspire.cards import (
    Card,
    CardKind,
    Effect,
    EffectKind,
    EnemySide,
    HeroSide,
    has,
    total,
)
from invasion_oracle.model.cloudspire.data import GameData
from invasion_oracle.model.cloudspire.dice import COLOURS, Colour, Face, Zone, die_order
from invasion_oracle.model.cloudspire.options import Choice, choice, parse_choice
from invasion_oracle.model.cloudspire.piles import Pile
from invasion_oracle.model.cloudspire.state import (
    Activate,
    AddMiniBosses,
    AddUnder,
    AdvanceEnemies,
    AfterEffects,
    AfterLoad,
    Attack,
    ChooseBoss,
    Cleanup,
    CommitDice,
    Created,
    CycleEnemies,
    Deploy,
    Die,
    DrawCards,
    Drill,
    EndAdvance,
    ExhaustDice,
    ExhaustPool,
    GainCard,
    GainItemRewards,
    GameState,
    KeepCards,
    KeepOrExhaust,
    LoadDice,
    OrderBottom,
    Outcome,
    PlacedSpire,
    PlaceSpires,
    RecoverDice,
    RevealTop,
    RollDie,
    SearchSpire,
    SpiresFire,
    StartEngagement,
    StartRound,
    SufferDamage,
    Task,
    ToInventory,
)
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest, Option, normalise_answer
from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.frozen import by_identity
from invasion_oracle.model.core.rulings import Rulings

Events = list[Event]


class _Unrecorded(list[Event]):
    """The events of a game that does not keep them (a search's): every append is dropped."""

    __slots__ = ()

    def append(self, event: Event) -> None:
        return None


# The one list a game that does not record events writes to: each site building an event checks
# for it first, so a search's step builds no event (about a tenth of its time); the states are
# the same either way (tests/cloudspire/test_searches.py compares them).
UNRECORDED: Events = _Unrecorded()
PLAYER = "hero"
UNIVERSAL = "universal:"


@dataclass(frozen=True)
class Rules:
    """The rulings in force, read once, and the data."""

    rulings: Rulings
    data: GameData
    empty_stack_damage: str
    applied_die: str
    load_source: str
    inventory_active: str
    reveal_same_phase: str
    rolls: str
    deployment_makeup: str
    boss_timing: str
    reveal_activation: str
    after_defeated: str
    switch_from_hero: str
    spire_adjacency: str
    boss_global: str

    @staticmethod
    def of(rulings: Rulings, data: GameData) -> Rules:
        r = rulings.reading
        return Rules(
            rulings,
            data,
            r("CS-EMPTY-STACK-DAMAGE"),
            r("CS-APPLIED-DIE"),
            r("CS-LOAD-SOURCE"),
            r("CS-INVENTORY-ACTIVE"),
            r("CS-REVEAL-SAME-PHASE"),
            r("CS-ROLLS"),
            r("CS-DEPLOYMENT-MAKEUP"),
            r("CS-BOSS-TIMING"),
            r("CS-REVEAL-ACTIVATION"),
            r("CS-AFTER-DEFEATED"),
            r("CS-SWITCH-FROM-HERO"),
            r("CS-SPIRE-ADJACENCY"),
            r("CS-BOSS-GLOBAL"),
        )


def _by_slot(miss: tuple[Slot, Die]) -> Slot:
    return miss[0]


_LANE_INDEX = {lane: i for i, lane in enumerate(LANES)}
_SPIRE_OPTION = {space: choice("spire", space) for space in SPIRE_SPACES}
_HERO_OPTION = choice("hero")
_LANES_BOTTOM_FIRST = tuple(reversed(LANES))


@cache
def _enemy_reach(lane: str) -> tuple[tuple[tuple[str, int], ...], bool]:
    """:func:`enemy_reach` for :meth:`CloudspireGame.targets`: the spire spaces with their
    index in the state's ``spires``, and whether the hero is in reach."""
    reach = enemy_reach(lane)
    return tuple((sp, SPIRE_SPACES.index(sp)) for sp in reach if sp != HERO), HERO in reach


def resolve_tasks() -> tuple[Task, ...]:
    """The Resolve phase's steps (Recover Dice is pushed by Exhaust Dice)."""
    return _RESOLVE_TASKS


_RESOLVE_TASKS: tuple[Task, ...] = (
    SufferDamage(),
    AfterEffects(),
    ExhaustDice(),
    GainItemRewards(),
    Cleanup(),
)


class CloudspireGame:
    """The rules in force plus the pure step function."""

    def __init__(self, rules: Rules, record_events: bool = True) -> None:
        self.rules = rules
        # False for the searches: ``start`` and ``step`` then return no events, the states alike
        self.record_events = record_events
        self.data = rules.data
        self._cards = {c.id: c for c in rules.data.cards}
        # Each task type's handlers, found once (by name, as before: ``_task_X`` / ``_answer_X``):
        # formatting the name and looking it up cost a tenth of a search's step.
        self._task_handlers: dict[type, Callable[..., GameState] | None] = {}
        self._answer_handlers: dict[type, Callable[..., GameState] | None] = {}
        self._boss_bonus: dict[str, int] = {}
        self._spire_in = by_identity(self._spire_in_piles)
        self._rolls_allowed: dict[tuple[str, tuple[str, ...], int], int] = {}
        # every blueprint slot by the cards in play (see _slot_table)
        self._slot_tables: dict[
            tuple[str, tuple[PlacedSpire | None, ...], tuple[Created, ...]],
            tuple[tuple[str, Slot, Colour | None], ...],
        ] = {}

    # -- the pure interface -------------------------------------------------------------------------

    def start(self, state: GameState) -> tuple[GameState, tuple[Event, ...]]:
        events: Events = [] if self.record_events else UNRECORDED
        if state.health < 1 or state.boss_added:  # else _check finds no outcome
            state = self._check(state, events)
        return self._advance(state, events), tuple(events)

    def pending(self, state: GameState) -> DecisionRequest | ChanceRequest | None:
        return state.request

    def step(self, state: GameState, answer: Option) -> tuple[GameState, tuple[Event, ...]]:
        request, task = state.request, state.awaiting
        if request is None or task is None:
            raise RulesError("the game is over; nothing is pending")
        listed = request.options if isinstance(request, DecisionRequest) else request.outcomes
        if not (isinstance(answer, str) and answer in listed):
            answer = normalise_answer(request, answer)
        if answer.__class__ is not str:
            answer = str(answer)
        events: Events = [] if self.record_events else UNRECORDED
        state = state.with_request(None, None)
        if isinstance(request, DecisionRequest):
            state = self._decided(state, task, parse_choice(answer), events)
        else:
            state = self._chance(state, task, answer, events)
        if state.health < 1 or state.boss_added:  # else _check finds no outcome
            state = self._check(state, events)
        return self._advance(state, events), tuple(events)

    # -- cards ----------------------------------------------------------------------------------------

    def card(self, card_id: str) -> Card:
        return self._cards[card_id]

    def enemy(self, card_id: str) -> EnemySide:
        side = self._cards[card_id].enemy
        assert side is not None
        return side

    def hero_side(self, s: GameState) -> HeroSide:
        if s.hero.startswith(UNIVERSAL):
            return self.data.universal_hero(s.hero[len(UNIVERSAL) :], source="state", path="$.hero")
        hero = self._cards[s.hero].hero
        assert hero is not None
        return hero

    def enemy_name(self, card_id: str) -> str:
        return self.enemy(card_id).name

    def item_name(self, card_id: str) -> str:
        item = self._cards[card_id].item
        return item.name if item is not None else card_id

    def is_boss(self, card_id: str) -> bool:
        return self.enemy(card_id).boss

    # -- the loop ------------------------------------------------------------------------------------

    def _advance(self, s: GameState, ev: Events) -> GameState:
        handlers = self._task_handlers
        while s.request is None and s.agenda:
            if s.outcome is not None:
                return s.with_agenda(())
            task, s = s.agenda[0], s.with_agenda(s.agenda[1:])
            handler = handlers.get(type(task))  # the step loop's own copy of _run's lookup
            s = self._run(s, task, ev) if handler is None else handler(s, task, ev)
            if s.health < 1 or (s.boss_added and not any(s.lanes)):  # else _check finds no outcome
                s = self._check(s, ev)
        if s.outcome is not None:
            return s.evolve(agenda=(), request=None, awaiting=None, phase="over")
        return s

    def _check(self, s: GameState, ev: Events) -> GameState:
        """Seed 004, Winning & Losing and Endgame: Health below 1 loses; nothing left wins."""
        if s.outcome is not None:
            return s
        outcome = None
        if s.health < 1:
            outcome = Outcome("loss", "the hero's Health is below 1", s.round)
        elif s.boss_added and not len(s.deployment) and not any(s.lanes):
            outcome = Outcome(
                "win",
                "every enemy, the boss included, is defeated and the Deployment Stack is empty",
                s.round,
            )
        if outcome is None:
            return s
        if ev is not UNRECORDED:
            ev.append(Event.make("game_over", result=outcome.result, reason=outcome.reason, round=s.round))
        return s.evolve(outcome=outcome)

    def _ask(
        self, s: GameState, task: Task, kind: str, options: list[str], ev: Events, **context: str | int
    ) -> GameState:
        """Ask the player; a decision with a single option is taken at once, without an event of
        its own (the one rule of every game: docs/fixtures.md, "Single-option decisions")."""
        if len(options) == 1:
            return self._decided(s, task, Choice.parse(options[0]), ev)
        return s.with_request(DecisionRequest(kind, PLAYER, tuple(options), tuple(context.items())), task)

    def _run(self, s: GameState, task: Task, ev: Events) -> GameState:
        kind = type(task)
        handler = self._task_handlers.get(kind)
        if handler is None:
            handler = self._task_handlers[kind] = getattr(self, f"_task_{kind.__name__}", None)
        if handler is None:  # pragma: no cover - a bug, not an input
            raise RulesError(f"unknown task {task!r}")
        result: GameState = handler(s, task, ev)
        return result

    def _chance(self, s: GameState, task: Task, answer: str, ev: Events) -> GameState:
        if isinstance(task, RollDie):
            die = s.die(task.die)
            face = Face(answer)
            if ev is not UNRECORDED:
                ev.append(Event.make("die_rolled", die=die.name, face=face.value))
            return s.with_die(replace(die, face=face))
        if isinstance(task, RevealTop):
            pile = s.deployment if task.pile == "deployment" else s.market
            pile = pile.reveal(answer)
            if ev is not UNRECORDED:
                ev.append(Event.make("pile_revealed", pile=task.pile, card=answer))
            return s.evolve(deployment=pile) if task.pile == "deployment" else s.evolve(market=pile)
        if isinstance(task, ChooseBoss):
            return self._boss_chosen(s, answer, ev)
        if isinstance(task, AddMiniBosses):
            if ev is not UNRECORDED:
                ev.append(Event.make("mini_boss_added", card=answer, name=self.enemy_name(answer)))
            pile = s.deployment.shuffle()
            pile = replace(pile, shuffled=tuple(sorted((*pile.shuffled, answer))))
            return s.evolve(deployment=pile).push(AddMiniBosses(task.left - 1))
        raise RulesError(f"task {task!r} takes no chance outcome")  # pragma: no cover

    def _decided(self, s: GameState, task: Task, c: Choice, ev: Events) -> GameState:
        if c.verb == "banish":
            return self._banish(s, task, c.colour, ev)
        kind = type(task)
        handler = self._answer_handlers.get(kind)
        if handler is None:
            handler = self._answer_handlers[kind] = getattr(self, f"_answer_{kind.__name__}", None)
        if handler is None:  # pragma: no cover - a bug
            raise RulesError(f"task {task!r} takes no answer")
        result: GameState = handler(s, task, c, ev)
        return result

    # -- dice helpers ---------------------------------------------------------------------------------

    def _pool_die(self, s: GameState, colour: Colour) -> Die:
        return min((d for d in s.in_zone(Zone.POOL) if d.colour is colour), key=lambda d: die_order(d.name))

    def _pool_colours(self, s: GameState) -> list[Colour]:
        present = {d.colour for d in s.in_zone(Zone.POOL)}
        return [c for c in COLOURS if c in present]

    def _exhaust(self, s: GameState, die: Die, reason: str, ev: Events) -> GameState:
        if ev is not UNRECORDED:
            ev.append(Event.make("die_exhausted", die=die.name, reason=reason))
        return s.with_die(Die(die.name, Zone.EXHAUSTED))

    def damage_of(self, face: Face | None, card_id: str) -> int:
        """One die's damage to ``card_id``: a hit 1, a crit ``crit_damage`` (1 if armored)."""
        if face is None or face is Face.MISS:
            return 0
        hit = int(self.data.value("hit_damage"))
        if face is Face.CRIT and not has(self.enemy(card_id).ongoing, EffectKind.ARMORED):
            return int(self.data.value("crit_damage"))
        return hit

    def damage_taken(self, s: GameState, card_id: str) -> int:
        return sum(self.damage_of(d.face, card_id) for d in s.in_zone(Zone.APPLIED) if d.card == card_id)

    def attack_damage(self, s: GameState, card_id: str) -> int:
        """The enemy's Damage plus the boss's global effect when in force (ruling CS-BOSS-GLOBAL)."""
        bonus = 0
        if s.boss:
            effect = self._boss_bonus.get(s.boss)
            if effect is None:  # the boss card's global Damage, read once per boss
                effect = self._boss_bonus[s.boss] = total(
                    self.enemy(s.boss).global_effects, EffectKind.ENEMY_DAMAGE
                )
            if effect and (
                self.rules.boss_global == "from-setup" or any(s.boss in stack for stack in s.lanes)
            ):
                bonus = effect
        return self.enemy(card_id).damage + bonus

    def rolls_allowed(self, s: GameState) -> int:
        key = (s.hero, s.inventory, s.strategy)  # all it depends on: kept (asked at every commit)
        allowed = self._rolls_allowed.get(key)
        if allowed is None:
            extra = total(self._passive(s), EffectKind.EXTRA_ROLL)
            base = {"strategy-plus-one": s.strategy + 1, "strategy": s.strategy, "one": 1}[self.rules.rolls]
            allowed = base + extra
            if len(self._rolls_allowed) >= 4096:
                self._rolls_allowed.clear()
            self._rolls_allowed[key] = allowed
        return allowed

    def _passive(self, s: GameState) -> tuple[Effect, ...]:
        """The hero's ability and the effects of the inventory's items and mini-heroes."""
        effects = list(self.hero_side(s).ability)
        for card_id in s.inventory:
            item = self._cards[card_id].item
            if item is not None and not item.spire:
                effects.extend(item.effects)
        return tuple(effects)

    def recovery_total(self, s: GameState) -> int:
        return s.recovery + total(self._passive(s), EffectKind.RECOVERY_BONUS)

    def inventory_limit(self, s: GameState) -> int:
        raw = self.data.value("inventory_limit")
        return s.strategy if raw == "strategy" else int(raw)

    def inventory_count(self, s: GameState) -> int:
        held = sum(1 for c in s.inventory if self._cards[c].kind is not CardKind.MINI)
        if self.rules.inventory_active == "active-count":
            held += sum(1 for p in s.spires if p is not None and not p.defeated)
        return held

    # -- blueprints -------------------------------------------------------------------------------------

    def slots_at(self, s: GameState, space: str) -> tuple[tuple[Slot, Colour | None], ...]:
        """Every place a die can be loaded on the card at ``space`` (seed 004, Blueprints)."""
        if space == HERO:
            return tuple((Slot(HERO, "bp", i + 1), c) for i, c in enumerate(self.hero_side(s).blueprint))
        placed = s.spire_at(space)
        if placed is None or placed.defeated:
            return ()
        item = self._cards[placed.card].item
        assert item is not None
        out: list[tuple[Slot, Colour | None]] = [
            (Slot(space, "bp", i + 1), c) for i, c in enumerate(item.blueprints)
        ]
        out += [
            (Slot(space, "free", i + 1), None)
            for i in range(total(item.effects, EffectKind.IGNORE_BLUEPRINT))
        ]
        created = [c for c in s.created if c.space == space]
        out += [(Slot(space, "drill", i + 1), c.colour) for i, c in enumerate(created)]
        if has(item.effects, EffectKind.LATTICE):
            live = frozenset(
                sp for sp, p in zip(SPIRE_SPACES, s.spires, strict=True) if p is not None and not p.defeated
            )
            count = len(adjacent_spires(space, live, self.rules.spire_adjacency))
            out += [(Slot(space, "lattice", i + 1), None) for i in range(count)]
        return tuple(out)

    def all_slots(self, s: GameState) -> tuple[tuple[Slot, Colour | None], ...]:
        return tuple(x for space in (*SPIRE_SPACES, HERO) for x in self.slots_at(s, space))

    def used_slots(self, s: GameState) -> frozenset[str]:
        return frozenset(d.slot for d in s.dice if d.slot)

    def loadable(self, s: GameState) -> list[tuple[Die, Face]]:
        """Dice that may be loaded now, one per (colour, face): equal dice are interchangeable."""
        found: dict[tuple[Colour, Face], Die] = {}
        for die in sorted(s.in_zone(Zone.COMMITTED), key=lambda d: die_order(d.name)):
            if die.face is not None:
                found.setdefault((die.colour, die.face), die)
        out = [(d, f) for (_, f), d in found.items()]
        if self.rules.load_source == "pool-as-miss":
            out += [(self._pool_die(s, c), Face.MISS) for c in self._pool_colours(s)]
        return sorted(out, key=lambda x: (die_order(x[0].name), x[1].value))

    def _slot_table(self, s: GameState) -> tuple[tuple[str, Slot, Colour | None], ...]:
        """:meth:`all_slots` with each slot's text, kept by what they depend on (the hero, the
        spires, the created blueprints): the load step lists them at every loading decision."""
        key = (s.hero, s.spires, s.created)
        table = self._slot_tables.get(key)
        if table is None:
            if len(self._slot_tables) >= 4096:
                self._slot_tables.clear()
            table = self._slot_tables[key] = tuple(
                (str(slot), slot, want) for slot, want in self.all_slots(s)
            )
        return table

    def load_options(self, s: GameState) -> list[str]:
        used = self.used_slots(s)
        free = [(text, slot, want) for text, slot, want in self._slot_table(s) if text not in used]
        options = []
        for die, face in self.loadable(s):
            for text, slot, want in free:
                if accepts(slot, want, die.colour, face):
                    options.append(choice("load", die.name, text))
        return options

    # -- targeting -------------------------------------------------------------------------------------

    def fire_options(self, s: GameState) -> list[str]:
        options = []
        for die in sorted(s.in_zone(Zone.LOADED), key=lambda d: die_order(d.name)):
            if die.face is None or not die.face.is_hit:
                continue
            for lane in hit_reach(Slot.parse(die.slot).space):
                top = s.top_of(lane)
                if top is None:
                    continue
                if self.rules.reveal_same_phase == "next-phase" and top in s.revealed_now:
                    continue
                options.append(choice("apply", die.name, lane))
        return options

    def targets(self, s: GameState, lane: str) -> list[str]:
        """What the enemy on top in ``lane`` may hit next (seed 004, Suffer Damage Step)."""
        stack = s.lanes[_LANE_INDEX[lane]]
        if not stack:
            return []
        reach, hero_in_reach = _enemy_reach(lane)
        misses, spires = [], []
        loaded_misses: list[tuple[Slot, Die]] | None = None  # found once, at the first spire
        placed_spires = s.spires
        for space, index in reach:
            placed = placed_spires[index]
            if placed is None or placed.defeated:
                continue
            if loaded_misses is None:
                loaded_misses = [
                    (Slot.parse(d.slot), d) for d in s.dice if d.zone is Zone.LOADED and d.face is Face.MISS
                ]
            loaded = [d for _, d in sorted((m for m in loaded_misses if m[0].space == space), key=_by_slot)]
            if loaded:
                misses += [choice("miss", d.slot) for d in loaded]
            else:
                spires.append(_SPIRE_OPTION[space])
        if hero_in_reach or has(self.enemy(stack[0]).ongoing, EffectKind.RANGED):
            spires.append(_HERO_OPTION)
        return misses + spires

    def has_target(self, s: GameState, lane: str) -> bool:
        """``bool(self.targets(s, lane))`` without listing them: the hero in reach, an active
        spire in reach (its loaded misses or itself), or a ranged enemy."""
        stack = s.lanes[_LANE_INDEX[lane]]
        if not stack:
            return False
        reach, hero_in_reach = _enemy_reach(lane)
        if hero_in_reach:
            return True
        placed_spires = s.spires
        for _, index in reach:
            placed = placed_spires[index]
            if placed is not None and not placed.defeated:
                return True
        return has(self.enemy(stack[0]).ongoing, EffectKind.RANGED)

    # -- spires --------------------------------------------------------------------------------------

    def open_spaces(self, s: GameState) -> list[str]:
        return [sp for sp, p in zip(SPIRE_SPACES, s.spires, strict=True) if p is None]

    def searchable_spires(self, s: GameState) -> list[str]:
        """Spires to gain by banishing a die: face-up spire sides in the discard, spires in the Market."""
        found = [
            choice("gain", c, "discard")
            for c, side in s.discard
            if side == "item" and self._cards[c].is_spire
        ]
        found += [choice("gain", c, "market") for c in sorted(s.market.cards) if self._cards[c].is_spire]
        return found

    def _spire_to_find(self, s: GameState) -> bool:
        """``bool(self.searchable_spires(s))`` without listing them (asked at every decision; the
        discard and the market pass unchanged from state to state: remembered by identity)."""
        return self._spire_in(s.discard, s.market)

    def _spire_in_piles(self, discard: tuple[tuple[str, str], ...], market: Pile) -> bool:
        cards = self._cards
        return any(side == "item" and cards[c].is_spire for c, side in discard) or any(
            cards[c].is_spire for c in market.cards
        )

    def banish_options(self, s: GameState) -> list[str]:
        if not self._spire_to_find(s) or not s.in_zone(Zone.POOL):
            return []
        return [choice("banish", c.value) for c in self._pool_colours(s)]

    def _banish(self, s: GameState, task: Task, colour: Colour, ev: Events) -> GameState:
        """Seed 004, Gaining & Placing Spires: banish a pool die to search for a spire, any time."""
        die = self._pool_die(s, colour)
        if ev is not UNRECORDED:
            ev.append(Event.make("die_banished", die=die.name))
        return s.with_die(Die(die.name, Zone.BANISHED)).push(SearchSpire(), task)

    def discard_side(self, s: GameState, card_id: str) -> str:
        """Seed 004, The Discard: allied items item side up, enemy-faction cards enemy side up."""
        card = self._cards[card_id]
        if card.kind is CardKind.HERO:
            return "boss"
        if card.kind is CardKind.MINI:
            return "mini-hero" if card.faction in s.allied else "mini-boss"
        return "item" if card.faction in s.allied else "enemy"

    def _to_discard(self, s: GameState, card_id: str, reason: str, ev: Events) -> GameState:
        side = self.discard_side(s, card_id)
        if ev is not UNRECORDED:
            ev.append(Event.make("card_discarded", card=card_id, side=side, reason=reason))
        return s.evolve(discard=(*s.discard, (card_id, side)))

    # -- the boss ------------------------------------------------------------------------------------------

    def _maybe_add_boss(self, s: GameState, ev: Events) -> GameState:
        """Seed 004, Endgame: after the last enemy has activated from the stack, add the boss."""
        if s.boss_added or not s.boss or len(s.deployment):
            return s
        if self.rules.boss_timing == "last-activated":
            hidden = [c for stack in s.lanes for c in stack[1:] if c not in s.activated]
            if hidden:
                return s
        if ev is not UNRECORDED:
            ev.append(Event.make("boss_added", card=s.boss, name=self.enemy_name(s.boss)))
        return s.evolve(boss_added=True, deployment=s.deployment.add_on_top(s.boss))

    # -- setup -------------------------------------------------------------------------------------------

    def _task_ChooseBoss(self, s: GameState, task: ChooseBoss, ev: Events) -> GameState:
        if s.boss:
            return self._boss_chosen(s, s.boss, ev)
        eligible = sorted(
            c.id
            for c in self.data.cards
            if c.kind is CardKind.HERO and c.faction not in s.allied and c.id != s.hero
        )
        if not eligible:
            raise RulesError("no boss can be chosen: every faction is allied")
        request = ChanceRequest(
            "draw", "boss", tuple(eligible), "Setup step 3: the boss, at random among the non-allied factions"
        )
        return s.evolve(request=request, awaiting=task)

    def _boss_chosen(self, s: GameState, boss: str, ev: Events) -> GameState:
        if ev is not UNRECORDED:
            ev.append(Event.make("boss_chosen", card=boss, name=self.enemy_name(boss)))
        faction = self._cards[boss].faction
        reading = self.rules.deployment_makeup
        if reading == "all-enemy-factions":
            factions = [f for f in self.data.factions if f not in s.allied]
        else:
            factions = [faction]
        cards = [c.id for f in factions for c in self.data.faction_cards(f, CardKind.CONFLICT)]
        if reading == "boss-faction":
            cards += [c.id for c in self.data.faction_cards(faction, CardKind.MINI)]
        if ev is not UNRECORDED:
            ev.append(Event.make("deployment_built", reading=reading, cards=len(cards)))
        return s.evolve(boss=boss, deployment=replace(s.deployment, shuffled=tuple(sorted(cards))).shuffle())

    def _task_AddMiniBosses(self, s: GameState, task: AddMiniBosses, ev: Events) -> GameState:
        """Seed 004, More Adversity: 1-3 more random mini-bosses (without their conflict cards)."""
        if task.left <= 0:
            return s
        in_stack = set(s.deployment.cards)
        eligible = sorted(
            c.id
            for c in self.data.cards
            if c.kind is CardKind.MINI and c.faction not in s.allied and c.id not in in_stack
        )
        if not eligible:
            if ev is not UNRECORDED:
                ev.append(Event.make("mini_boss_skipped", reason="no mini-boss left"))
            return s
        request = ChanceRequest("draw", "mini-boss", tuple(eligible), "More Adversity: a random mini-boss")
        return s.evolve(request=request, awaiting=task)

    # -- round start ---------------------------------------------------------------------------------------

    def _task_StartRound(self, s: GameState, task: StartRound, ev: Events) -> GameState:
        if ev is not UNRECORDED:
            ev.append(Event.make("round_started", round=s.round))
        s = s.evolve(
            phase="cycle",
            created=(),
            defeated_now=(),
            revealed_now=(),
            attacked=(),
            deployed=False,
            rolls_used=0,
        )
        s = self._maybe_add_boss(s, ev)  # a state whose stack is already empty gets its boss now
        drills = [c for c in s.inventory if has(self._item_effects(c), EffectKind.DRILLING)]
        return s.push(*(Drill(c) for c in drills), CycleEnemies(), AdvanceEnemies(), StartEngagement())

    def _item_effects(self, card_id: str) -> tuple[Effect, ...]:
        item = self._cards[card_id].item
        return item.effects if item is not None else ()

    def _live_spires(self, s: GameState) -> list[str]:
        return [sp for sp, p in zip(SPIRE_SPACES, s.spires, strict=True) if p is not None and not p.defeated]

    def _task_Drill(self, s: GameState, task: Drill, ev: Events) -> GameState:
        """Drilling Outpost (seed 004, Created Blueprints): a red blueprint on an active spire."""
        spaces = self._live_spires(s)
        if not spaces:
            if ev is not UNRECORDED:
                ev.append(Event.make("effect_skipped", card=task.source, reason="no active spire"))
            return s
        if len(spaces) == 1:
            return self._drill(s, task, spaces[0], ev)
        return self._ask(s, task, "drill", [choice("drill", sp) for sp in spaces], ev, card=task.source)

    def _answer_Drill(self, s: GameState, task: Drill, c: Choice, ev: Events) -> GameState:
        return self._drill(s, task, c.space, ev)

    def _drill(self, s: GameState, task: Drill, space: str, ev: Events) -> GameState:
        if ev is not UNRECORDED:
            ev.append(Event.make("blueprint_created", space=space, colour=Colour.RED.value, card=task.source))
        return s.evolve(created=(*s.created, Created(space, Colour.RED, task.source)))

    # -- Cycle Enemies ----------------------------------------------------------------------------------

    def _task_CycleEnemies(self, s: GameState, task: CycleEnemies, ev: Events) -> GameState:
        """Seed 004, Cycle Enemies Phase: exhaust a pool die to move the top card to the bottom."""
        s = s.evolve(phase="cycle")
        if len(s.deployment) < 2 or not s.in_zone(Zone.POOL):
            return s
        if s.deployment.needs_reveal:
            return s.push(RevealTop("deployment"), task)
        options = [choice("stop")] + [choice("cycle", c.value) for c in self._pool_colours(s)]
        options += self.banish_options(s)
        return self._ask(s, task, "cycle", options, ev, top=s.deployment.top[0])

    def _answer_CycleEnemies(self, s: GameState, task: CycleEnemies, c: Choice, ev: Events) -> GameState:
        if c.verb == "stop":
            return s
        die = self._pool_die(s, c.colour)
        card, pile = s.deployment.take_top()
        if ev is not UNRECORDED:
            ev.append(Event.make("enemy_cycled", card=card, name=self.enemy_name(card), die=die.name))
        s = self._exhaust(s, die, "cycle", ev)
        return s.evolve(deployment=pile.to_bottom(card)).push(task)

    def _task_RevealTop(self, s: GameState, task: RevealTop, ev: Events) -> GameState:
        pile = s.deployment if task.pile == "deployment" else s.market
        if not pile.needs_reveal:
            return s
        purpose = (
            f"the top card of the {'Deployment' if task.pile == 'deployment' else 'Market'} Stack (shuffled)"
        )
        return s.evolve(request=ChanceRequest("draw", task.pile, pile.shuffled, purpose), awaiting=task)

    # -- Advance Enemies -----------------------------------------------------------------------------------

    def _task_AdvanceEnemies(self, s: GameState, task: AdvanceEnemies, ev: Events) -> GameState:
        """Seed 004, Advance Enemies Phase: middle to bottom, top to middle, unless occupied."""
        s = s.evolve(phase="advance")
        for src, dst in (("middle", "bottom"), ("top", "middle")):
            stack = s.lane(src)
            if not stack:
                continue
            if s.lane(dst):
                if ev is not UNRECORDED:
                    ev.append(Event.make("advance_blocked", card=stack[0], lane=src, to=dst))
                continue
            if ev is not UNRECORDED:
                ev.append(
                    Event.make(
                        "enemy_advanced",
                        card=stack[0],
                        name=self.enemy_name(stack[0]),
                        lane=src,
                        to=dst,
                        stack=len(stack),
                    )
                )
            s = s.with_lane(dst, stack).with_lane(src, ())
        return s.push(Deploy(), EndAdvance())

    def _task_Deploy(self, s: GameState, task: Deploy, ev: Events) -> GameState:
        if s.lane("top"):
            if ev is not UNRECORDED:
                ev.append(Event.make("deployment_blocked", lane="top", by=s.lane("top")[0]))
            return s
        if not len(s.deployment):
            return s
        if s.deployment.needs_reveal:
            return s.push(RevealTop("deployment"), task)
        card, pile = s.deployment.take_top()
        if ev is not UNRECORDED:
            ev.append(Event.make("enemy_deployed", card=card, name=self.enemy_name(card), lane="top"))
        s = s.evolve(deployment=pile, deployed=True).with_lane("top", (card,))
        icons = self.enemy(card).additional_enemies
        return s.push(*((AddUnder("top", icons),) if icons else ()), Activate(card))

    def _task_AddUnder(self, s: GameState, task: AddUnder, ev: Events) -> GameState:
        """Seed 004, Additional Enemy Icons: the next card goes under, chained; ignored when the
        Deployment Stack is empty or the next card is a mini-boss (or the boss)."""
        if task.icons <= 0:
            return s
        if not s.lane(task.lane):
            return s
        if not len(s.deployment):
            if ev is not UNRECORDED:
                ev.append(
                    Event.make(
                        "additional_enemy_ignored",
                        lane=task.lane,
                        reason="deployment-empty",
                        icons=task.icons,
                    )
                )
            return s
        if s.deployment.needs_reveal:
            return s.push(RevealTop("deployment"), task)
        nxt = s.deployment.top[0]
        if self.is_boss(nxt):
            if ev is not UNRECORDED:
                ev.append(
                    Event.make(
                        "additional_enemy_ignored",
                        lane=task.lane,
                        reason="next-is-boss",
                        icons=task.icons,
                        card=nxt,
                    )
                )
            return s
        card, pile = s.deployment.take_top()
        stack = s.lane(task.lane)
        if ev is not UNRECORDED:
            ev.append(
                Event.make(
                    "enemy_added", card=card, name=self.enemy_name(card), lane=task.lane, under=stack[-1]
                )
            )
        s = s.evolve(deployment=pile).with_lane(task.lane, (*stack, card))
        return s.push(AddUnder(task.lane, task.icons - 1 + self.enemy(card).additional_enemies))

    def _task_Activate(self, s: GameState, task: Activate, ev: Events) -> GameState:
        """Seed 004, Activation Effects Trigger Now: on an enemy's first activation only."""
        if task.card in s.activated:
            return s
        s = s.evolve(activated=tuple(sorted((*s.activated, task.card))))
        ignore = task.card in s.revealed_now and self.rules.reveal_activation == "ignored"
        effects = self.enemy(task.card).activation
        if ev is not UNRECORDED:
            ev.append(
                Event.make(
                    "enemy_activated",
                    card=task.card,
                    name=self.enemy_name(task.card),
                    effects_ignored=bool(ignore and effects),
                )
            )
        s = self._maybe_add_boss(s, ev)
        if ignore:
            return s
        pushed: list[Task] = []
        for effect in effects:
            if effect.kind is EffectKind.DAMAGE_HERO:
                s = self._lose_health(s, effect.amount, "activation", task.card, ev)
            elif effect.kind is EffectKind.EXHAUST_POOL:
                pushed.append(ExhaustPool(effect.amount, task.card))
        return s.push(*pushed)

    def _lose_health(self, s: GameState, amount: int, cause: str, card: str, ev: Events) -> GameState:
        lost = min(amount, s.health)
        if ev is not UNRECORDED:
            ev.append(Event.make("health_lost", amount=lost, cause=cause, card=card))
        return s.evolve(health=s.health - lost, health_lost=s.health_lost + lost)

    def _gain_health(self, s: GameState, amount: int, cause: str, card: str, ev: Events) -> GameState:
        if ev is not UNRECORDED:
            ev.append(Event.make("health_gained", amount=amount, cause=cause, card=card))
        return s.evolve(health=s.health + amount, health_gained=s.health_gained + amount)

    def _task_ExhaustPool(self, s: GameState, task: ExhaustPool, ev: Events) -> GameState:
        if task.left <= 0 or not s.in_zone(Zone.POOL):
            return s
        colours = self._pool_colours(s)
        if len(colours) == 1:
            return self._exhaust_pool(s, task, colours[0], ev)
        return self._ask(
            s, task, "exhaust-pool", [choice("exhaust-pool", c.value) for c in colours], ev, card=task.card
        )

    def _answer_ExhaustPool(self, s: GameState, task: ExhaustPool, c: Choice, ev: Events) -> GameState:
        return self._exhaust_pool(s, task, c.colour, ev)

    def _exhaust_pool(self, s: GameState, task: ExhaustPool, colour: Colour, ev: Events) -> GameState:
        s = self._exhaust(s, self._pool_die(s, colour), f"effect of {task.card}", ev)
        return s.push(ExhaustPool(task.left - 1, task.card))

    def _task_EndAdvance(self, s: GameState, task: EndAdvance, ev: Events) -> GameState:
        """If Deployment Fails, Suffer Damage (ruling CS-EMPTY-STACK-DAMAGE for an empty stack)."""
        s = self._maybe_add_boss(s, ev)
        if s.deployed:
            return s
        blocked = bool(s.lane("top"))
        if not blocked and self.rules.empty_stack_damage == "blocked-only":
            if ev is not UNRECORDED:
                ev.append(Event.make("deployment_failed", reason="deployment-empty", damage=0))
            return s
        damage = int(self.data.value("deploy_fail_damage"))
        if ev is not UNRECORDED:
            ev.append(
                Event.make(
                    "deployment_failed", reason="blocked" if blocked else "deployment-empty", damage=damage
                )
            )
        return self._lose_health(s, damage, "deployment-failed", "", ev)

    # -- Strategy phase -------------------------------------------------------------------------------------

    def _task_StartEngagement(self, s: GameState, task: StartEngagement, ev: Events) -> GameState:
        s = s.evolve(phase="strategy")
        pushed: list[Task] = []
        adds = total(self.hero_side(s).ability, EffectKind.ADDS_ENEMIES)
        if adds:
            # Seed 004, Universal Heroes: as if added by the icon of the non-boss enemy closest to the hero.
            lane = next(
                (ln for ln in reversed(LANES) if s.top_of(ln) and not self.is_boss(s.lane(ln)[0])), None
            )
            if lane is None:
                if ev is not UNRECORDED:
                    ev.append(
                        Event.make(
                            "additional_enemy_ignored", lane="", reason="no-non-boss-enemy", icons=adds
                        )
                    )
            else:
                pushed.append(AddUnder(lane, adds))
        return s.push(*pushed, PlaceSpires(), CommitDice())

    def _task_PlaceSpires(self, s: GameState, task: PlaceSpires, ev: Events) -> GameState:
        """Seed 004, Place Spires Step: inventory spires into open spire spaces."""
        s = self._maybe_add_boss(s, ev)
        spires: dict[str, str] = {}
        for card_id in s.inventory:
            if self._cards[card_id].is_spire:
                spires.setdefault(self.item_name(card_id), card_id)
        spaces = self.open_spaces(s)
        options = [choice("place", cid, sp) for cid in sorted(spires.values()) for sp in spaces]
        if not options:
            return s
        return self._ask(s, task, "place", [*options, choice("done"), *self.banish_options(s)], ev)

    def _answer_PlaceSpires(self, s: GameState, task: PlaceSpires, c: Choice, ev: Events) -> GameState:
        if c.verb == "done":
            return s
        return self._place(s, c.card, c.space, ev).push(task)

    def _place(self, s: GameState, card_id: str, space: str, ev: Events) -> GameState:
        if ev is not UNRECORDED:
            ev.append(Event.make("spire_placed", card=card_id, name=self.item_name(card_id), space=space))
        inventory = tuple(x for x in s.inventory if x != card_id)
        return s.evolve(inventory=inventory).with_spire(space, PlacedSpire(card_id))

    def _task_CommitDice(self, s: GameState, task: CommitDice, ev: Events) -> GameState:
        """Commit Dice & Roll Dice Steps, repeated while rolls remain (ruling CS-ROLLS)."""
        if s.rolls_used >= self.rolls_allowed(s):
            return s.push(LoadDice(), SpiresFire())
        committed = s.in_zone(Zone.COMMITTED)
        options = [choice("commit", c.value) for c in self._pool_colours(s)]
        if committed:
            options.append(choice("roll"))
        if not any(d.face is None for d in committed):
            options.append(choice("stop"))
        options += self.banish_options(s)
        if options == [choice("stop")]:
            return s.push(LoadDice(), SpiresFire())
        return self._ask(s, task, "commit", options, ev, roll=s.rolls_used + 1, rolls=self.rolls_allowed(s))

    def _answer_CommitDice(self, s: GameState, task: CommitDice, c: Choice, ev: Events) -> GameState:
        if c.verb == "commit":
            die = self._pool_die(s, c.colour)
            if ev is not UNRECORDED:
                ev.append(Event.make("die_committed", die=die.name))
            return s.with_die(Die(die.name, Zone.COMMITTED)).push(task)
        if c.verb == "stop":
            return s.push(LoadDice(), SpiresFire())
        dice = sorted(s.in_zone(Zone.COMMITTED), key=lambda d: die_order(d.name))
        if ev is not UNRECORDED:
            ev.append(Event.make("dice_rolled", roll=s.rolls_used + 1, dice=tuple(d.name for d in dice)))
        for die in dice:
            s = s.with_die(replace(die, face=None))
        return s.evolve(rolls_used=s.rolls_used + 1).push(
            *(RollDie(d.name) for d in dice), LoadDice(), AfterLoad()
        )

    def _task_RollDie(self, s: GameState, task: RollDie, ev: Events) -> GameState:
        die = s.die(task.die)
        faces = tuple(f.value for f in self.data.dice.faces_of(die.colour))
        request = ChanceRequest("roll", die.name, faces, f"Strategy phase roll {s.rolls_used}")
        return s.with_request(request, task)

    def _task_LoadDice(self, s: GameState, task: LoadDice, ev: Events) -> GameState:
        """Seed 004, Apply Dice Step: colours must match; only spires accept misses."""
        options = self.load_options(s)
        if not options:
            return s
        return self._ask(s, task, "load", [*options, choice("done"), *self.banish_options(s)], ev)

    def _answer_LoadDice(self, s: GameState, task: LoadDice, c: Choice, ev: Events) -> GameState:
        if c.verb == "done":
            return s
        die = s.die(c.die)
        face = die.face if die.zone is Zone.COMMITTED and die.face is not None else Face.MISS
        if ev is not UNRECORDED:
            ev.append(
                Event.make(
                    "die_loaded",
                    die=die.name,
                    face=face.value,
                    slot=str(c.slot),
                    unrolled=die.zone is Zone.POOL,
                )
            )
        return s.with_die(Die(die.name, Zone.LOADED, face, str(c.slot))).push(task)

    def _task_AfterLoad(self, s: GameState, task: AfterLoad, ev: Events) -> GameState:
        more = bool(s.in_zone(Zone.COMMITTED)) or bool(s.in_zone(Zone.POOL))
        if s.rolls_used < self.rolls_allowed(s) and more:
            return s.push(CommitDice())
        return s.push(SpiresFire())

    # -- Spires Fire ----------------------------------------------------------------------------------

    def _task_SpiresFire(self, s: GameState, task: SpiresFire, ev: Events) -> GameState:
        """Seed 004, Spires Fire Phase: loaded hits onto orthogonally adjacent enemies."""
        if s.phase != "spires-fire":
            if ev is not UNRECORDED:
                ev.append(Event.make("phase_started", phase="spires-fire", round=s.round))
            s = s.evolve(phase="spires-fire", revealed_now=())
        options = self.fire_options(s)
        if not options:
            return s.push(*resolve_tasks())
        return self._ask(s, task, "fire", [*options, choice("done"), *self.banish_options(s)], ev)

    def _answer_SpiresFire(self, s: GameState, task: SpiresFire, c: Choice, ev: Events) -> GameState:
        if c.verb == "done":
            return s.push(*resolve_tasks())
        die = s.die(c.die)
        card = s.top_of(c.lane)
        assert card is not None and die.face is not None
        damage = self.damage_of(die.face, card)
        if ev is not UNRECORDED:
            ev.append(
                Event.make(
                    "die_applied",
                    die=die.name,
                    face=die.face.value,
                    slot=die.slot,
                    lane=c.lane,
                    card=card,
                    damage=damage,
                )
            )
        slot = die.slot if self.rules.applied_die == "stays" else ""
        s = s.with_die(Die(die.name, Zone.APPLIED, die.face, slot, card)).push(task)
        if self.damage_taken(s, card) >= self.enemy(card).health:
            s = self._defeat(s, c.lane, ev)  # its tasks (reveal, rewards) come before the loop goes on
        return s

    def _defeat(self, s: GameState, lane: str, ev: Events) -> GameState:
        """The top enemy of ``lane`` is defeated: the next card is revealed and activates."""
        stack = s.lane(lane)
        card = stack[0]
        if ev is not UNRECORDED:
            ev.append(
                Event.make(
                    "enemy_defeated",
                    card=card,
                    name=self.enemy_name(card),
                    lane=lane,
                    boss=self.is_boss(card),
                )
            )
        defeated = tuple(sorted((*s.defeated, card)))
        s = s.evolve(defeated_now=(*s.defeated_now, card), defeated=defeated).with_lane(lane, stack[1:])
        pushed: list[Task] = []
        for effect in self.enemy(card).reward:
            if effect.kind is EffectKind.HEAL:
                s = self._gain_health(s, effect.amount, "reward", card, ev)
            elif effect.kind is EffectKind.RECOVER:
                pushed.append(RecoverDice(effect.amount, f"reward of {card}"))
        if len(stack) > 1:
            nxt = stack[1]
            if ev is not UNRECORDED:
                ev.append(Event.make("enemy_revealed", card=nxt, name=self.enemy_name(nxt), lane=lane))
            s = s.evolve(revealed_now=(*s.revealed_now, nxt))
            pushed.append(Activate(nxt))
        return s.push(*pushed)

    # -- Resolve phase --------------------------------------------------------------------------------

    def _attackers(self, s: GameState) -> list[str]:
        lanes = []
        for lane in _LANES_BOTTOM_FIRST:
            top = s.top_of(lane)
            if top is None or lane in s.attacked or self.attack_damage(s, top) <= 0:
                continue
            if self.has_target(s, lane):
                lanes.append(lane)
        return lanes

    def _task_SufferDamage(self, s: GameState, task: SufferDamage, ev: Events) -> GameState:
        """Seed 004, Suffer Damage Step: each enemy with a target attacks, in the player's order."""
        if s.phase != "resolve":
            if ev is not UNRECORDED:
                ev.append(Event.make("phase_started", phase="resolve", round=s.round))
            s = s.evolve(phase="resolve", attacked=())
        lanes = self._attackers(s)
        if not lanes:
            return s
        if len(lanes) == 1:
            return self._attack(s, lanes[0], ev)
        return self._ask(s, task, "attack-order", [choice("attack", ln) for ln in lanes], ev)

    def _answer_SufferDamage(self, s: GameState, task: SufferDamage, c: Choice, ev: Events) -> GameState:
        return self._attack(s, c.lane, ev)

    def _attack(self, s: GameState, lane: str, ev: Events) -> GameState:
        top = s.top_of(lane)
        assert top is not None
        damage = self.attack_damage(s, top)
        if ev is not UNRECORDED:
            ev.append(
                Event.make("attack_started", lane=lane, card=top, name=self.enemy_name(top), damage=damage)
            )
        s = s.evolve(attacked=(*s.attacked, lane), agenda=(SufferDamage(), *s.agenda))
        # the attack at once, as the loop would run it next (pushed, then popped: two copies of the
        # state fewer, the hottest path of a search); nothing between them changes the state
        return self._task_Attack(s, Attack(lane, damage), ev)

    def _task_Attack(self, s: GameState, task: Attack, ev: Events) -> GameState:
        if task.left <= 0:
            return s
        options = self.targets(s, task.lane)
        if not options:
            if ev is not UNRECORDED:
                ev.append(Event.make("attack_ended", lane=task.lane, reason="no-target", unused=task.left))
            return s
        if task.on_hero and self.rules.switch_from_hero == "sticky" and _HERO_OPTION in options:
            options = [_HERO_OPTION]
        banish = self.banish_options(s)
        if len(options) == 1 and not banish:
            return self._hit(s, task, Choice.parse(options[0]), ev)
        return self._ask(s, task, "damage", [*options, *banish], ev, lane=task.lane, left=task.left)

    def _answer_Attack(self, s: GameState, task: Attack, c: Choice, ev: Events) -> GameState:
        return self._hit(s, task, c, ev)

    def _hit(self, s: GameState, task: Attack, c: Choice, ev: Events) -> GameState:
        card = s.top_of(task.lane)
        assert card is not None
        on_hero = False
        if c.verb == "miss":
            die = next(d for d in s.in_zone(Zone.LOADED) if d.slot == str(c.slot))
            if ev is not UNRECORDED:
                ev.append(Event.make("miss_removed", die=die.name, slot=die.slot, card=card))
            s = self._exhaust(s, die, "absorbed damage", ev)
        elif c.verb == "spire":
            placed = s.spire_at(c.space)
            assert placed is not None
            if ev is not UNRECORDED:
                ev.append(
                    Event.make(
                        "spire_defeated",
                        space=c.space,
                        card=placed.card,
                        name=self.item_name(placed.card),
                        by=card,
                    )
                )
            s = s.with_spire(c.space, PlacedSpire(placed.card, True)).evolve(spires_lost=s.spires_lost + 1)
        else:
            s = self._lose_health(s, 1, "attack", card, ev)
            on_hero = True
        if task.left <= 1:  # the attack with nothing left would do nothing (_task_Attack): not pushed
            return s
        return s.push(Attack(task.lane, task.left - 1, on_hero))

    def _task_AfterEffects(self, s: GameState, task: AfterEffects, ev: Events) -> GameState:
        """Seed 004, After Effects Step (ruling CS-AFTER-DEFEATED for enemies defeated this round)."""
        s = s.evolve(phase="after-effects")
        cards = [s.top_of(ln) for ln in reversed(LANES)]
        sources = [c for c in cards if c is not None]
        if self.rules.after_defeated == "all-engaged":
            sources += list(s.defeated_now)
        for card in sources:
            for effect in self.enemy(card).after:
                if effect.kind is EffectKind.DAMAGE_HERO:
                    s = self._lose_health(s, effect.amount, "after-effect", card, ev)
        return s

    def _task_ExhaustDice(self, s: GameState, task: ExhaustDice, ev: Events) -> GameState:
        """Seed 004, Exhaust Dice Step."""
        s = s.evolve(phase="exhaust")
        defeated_now = s.defeated_now
        exhausted = [
            d
            for d in s.dice
            if (d.zone is Zone.APPLIED and d.card in defeated_now) or d.zone is Zone.COMMITTED
        ]
        for die in sorted(exhausted, key=lambda d: die_order(d.name)):
            if die.zone is Zone.APPLIED:
                s = self._exhaust(s, die, "on a defeated enemy", ev)
            else:
                s = self._exhaust(s, die, "committed, not loaded", ev)
        keep: list[Task] = []
        for die in sorted(s.in_zone(Zone.LOADED), key=lambda d: die_order(d.name)):
            slot = Slot.parse(die.slot)
            placed = s.spire_at(slot.space) if slot.on_spire else None
            if slot.kind == "drill" or (placed is not None and placed.defeated):
                continue  # exhausted at Cleanup in any case
            keep.append(KeepOrExhaust(die.name))
        return s.push(*keep, RecoverDice(self.recovery_total(s)))

    def _task_KeepOrExhaust(self, s: GameState, task: KeepOrExhaust, ev: Events) -> GameState:
        die = s.die(task.die)
        return self._ask(
            s, task, "keep", [choice("keep", die.name), choice("exhaust", die.name)], ev, slot=die.slot
        )

    def _answer_KeepOrExhaust(self, s: GameState, task: KeepOrExhaust, c: Choice, ev: Events) -> GameState:
        die = s.die(task.die)
        if c.verb == "keep":
            if ev is not UNRECORDED:
                ev.append(Event.make("die_kept", die=die.name, slot=die.slot))
            return s
        return self._exhaust(s, die, "chosen", ev)

    def _task_RecoverDice(self, s: GameState, task: RecoverDice, ev: Events) -> GameState:
        """Recover Dice: up to ``left`` exhausted dice back to the pool, chosen by colour."""
        exhausted = sorted(s.in_zone(Zone.EXHAUSTED), key=lambda d: die_order(d.name))
        if task.left <= 0 or not exhausted:
            return s
        if len(exhausted) <= task.left or len({d.colour for d in exhausted}) == 1:
            for die in exhausted[: task.left]:
                if ev is not UNRECORDED:
                    ev.append(Event.make("die_recovered", die=die.name, reason=task.reason))
                s = s.with_die(Die(die.name, Zone.POOL))
            return s
        present = {d.colour for d in exhausted}
        return self._ask(
            s,
            task,
            "recover",
            [choice("recover", c.value) for c in COLOURS if c in present],
            ev,
            left=task.left,
        )

    def _answer_RecoverDice(self, s: GameState, task: RecoverDice, c: Choice, ev: Events) -> GameState:
        die = min(
            (d for d in s.in_zone(Zone.EXHAUSTED) if d.colour is c.colour), key=lambda d: die_order(d.name)
        )
        if ev is not UNRECORDED:
            ev.append(Event.make("die_recovered", die=die.name, reason=task.reason))
        return s.with_die(Die(die.name, Zone.POOL)).push(RecoverDice(task.left - 1, task.reason))

    # -- rewards ------------------------------------------------------------------------------------

    def _task_GainItemRewards(self, s: GameState, task: GainItemRewards, ev: Events) -> GameState:
        s = s.evolve(phase="rewards")
        pushed: list[Task] = []
        for card in s.defeated_now:
            if self._cards[card].kind is not CardKind.CONFLICT:
                continue
            for effect in self.enemy(card).reward:
                if effect.kind is EffectKind.DRAW_KEEP:
                    pushed.append(DrawCards(card, effect.amount, effect.keep))
                elif effect.kind is EffectKind.CLAIM:
                    pushed.append(GainCard(card, "claim"))
        return s.push(*pushed)

    def _task_DrawCards(self, s: GameState, task: DrawCards, ev: Events) -> GameState:
        """Seed 004, "Draw/Keep" Rewards."""
        if task.left <= 0 or not len(s.market):
            return s.push(KeepCards(task.card, min(task.keep, len(task.drawn)), task.drawn))
        if s.market.needs_reveal:
            return s.push(RevealTop("market"), task)
        card, pile = s.market.take_top()
        if ev is not UNRECORDED:
            ev.append(Event.make("card_drawn", card=card, name=self.item_name(card), reward_of=task.card))
        return s.evolve(market=pile).push(DrawCards(task.card, task.left - 1, task.keep, (*task.drawn, card)))

    def _task_KeepCards(self, s: GameState, task: KeepCards, ev: Events) -> GameState:
        rest = tuple(c for c in task.drawn if c not in task.kept)
        if task.left <= 0 or not rest:
            return s.push(OrderBottom(rest), *(GainCard(c, "reward") for c in task.kept))
        if len(rest) == 1:
            return self._keep_card(s, task, rest[0], ev)
        return self._ask(
            s, task, "keep-card", [choice("keep-card", c) for c in rest], ev, reward_of=task.card
        )

    def _answer_KeepCards(self, s: GameState, task: KeepCards, c: Choice, ev: Events) -> GameState:
        return self._keep_card(s, task, c.card, ev)

    def _keep_card(self, s: GameState, task: KeepCards, card: str, ev: Events) -> GameState:
        if ev is not UNRECORDED:
            ev.append(Event.make("card_kept", card=card, name=self.item_name(card)))
        return s.push(KeepCards(task.card, task.left - 1, task.drawn, (*task.kept, card)))

    def _task_OrderBottom(self, s: GameState, task: OrderBottom, ev: Events) -> GameState:
        if not task.rest:
            return s
        if len(task.rest) == 1:
            return self._bottom(s, task, task.rest[0], ev)
        return self._ask(s, task, "market-bottom", [choice("bottom", c) for c in task.rest], ev)

    def _answer_OrderBottom(self, s: GameState, task: OrderBottom, c: Choice, ev: Events) -> GameState:
        return self._bottom(s, task, c.card, ev)

    def _bottom(self, s: GameState, task: OrderBottom, card: str, ev: Events) -> GameState:
        if ev is not UNRECORDED:
            ev.append(Event.make("card_to_market_bottom", card=card, name=self.item_name(card)))
        s = s.evolve(market=s.market.to_bottom(card))
        return s.push(OrderBottom(tuple(c for c in task.rest if c != card)))

    def _task_GainCard(self, s: GameState, task: GainCard, ev: Events) -> GameState:
        """A gained spire may be activated at once (seed 004, Gaining & Placing Spires)."""
        if task.via == "claim":
            s = s.evolve(defeated_now=tuple(c for c in s.defeated_now if c != task.card))
        if ev is not UNRECORDED:
            ev.append(Event.make("card_gained", card=task.card, name=self.item_name(task.card), via=task.via))
        spaces = self.open_spaces(s)
        if self._cards[task.card].is_spire and spaces:
            options = [choice("activate", sp) for sp in spaces] + [choice("inventory")]
            return self._ask(s, task, "activate", options, ev, card=task.card)
        return s.push(ToInventory(task.card))

    def _answer_GainCard(self, s: GameState, task: GainCard, c: Choice, ev: Events) -> GameState:
        if c.verb == "inventory":
            return s.push(ToInventory(task.card))
        if ev is not UNRECORDED:
            ev.append(
                Event.make("spire_placed", card=task.card, name=self.item_name(task.card), space=c.space)
            )
        return s.with_spire(c.space, PlacedSpire(task.card))

    def _task_ToInventory(self, s: GameState, task: ToInventory, ev: Events) -> GameState:
        """Mini-heroes do not count against the inventory limit (seed 004, Mini-Heroes)."""
        card = self._cards[task.card]
        if card.kind is not CardKind.MINI and self.inventory_count(s) >= self.inventory_limit(s):
            options = [choice("discard", c) for c in s.inventory if self._cards[c].kind is not CardKind.MINI]
            return self._ask(s, task, "make-room", [*options, choice("decline")], ev, card=task.card)
        return self._store(s, task.card, ev)

    def _answer_ToInventory(self, s: GameState, task: ToInventory, c: Choice, ev: Events) -> GameState:
        if c.verb == "decline":
            return self._to_discard(s, task.card, "inventory full", ev)
        s = s.evolve(inventory=tuple(x for x in s.inventory if x != c.card))
        s = self._to_discard(s, c.card, "made room", ev)
        return self._store(s, task.card, ev)

    def _store(self, s: GameState, card_id: str, ev: Events) -> GameState:
        if ev is not UNRECORDED:
            ev.append(Event.make("card_to_inventory", card=card_id, name=self.item_name(card_id)))
        s = s.evolve(inventory=(*s.inventory, card_id))
        gain = total(self._item_effects(card_id), EffectKind.HEALTH_ON_GAIN)
        return self._gain_health(s, gain, "item", card_id, ev) if gain else s

    def _task_SearchSpire(self, s: GameState, task: SearchSpire, ev: Events) -> GameState:
        options = self.searchable_spires(s)
        if not options:  # pragma: no cover - banishing is only offered with a spire to find
            return s
        if len(options) == 1:
            return self._searched(s, Choice.parse(options[0]), ev)
        return self._ask(s, task, "gain-spire", options, ev)

    def _answer_SearchSpire(self, s: GameState, task: SearchSpire, c: Choice, ev: Events) -> GameState:
        return self._searched(s, c, ev)

    def _searched(self, s: GameState, c: Choice, ev: Events) -> GameState:
        if c.source == "discard":
            index = next(i for i, (card, side) in enumerate(s.discard) if card == c.card and side == "item")
            s = s.evolve(discard=s.discard[:index] + s.discard[index + 1 :])
        else:
            s = s.evolve(market=s.market.remove(c.card).shuffle())
            if ev is not UNRECORDED:
                ev.append(Event.make("market_shuffled", cards=len(s.market)))
        return s.push(GainCard(c.card, f"search-{c.source}"))

    # -- Cleanup --------------------------------------------------------------------------------------

    def _task_Cleanup(self, s: GameState, task: Cleanup, ev: Events) -> GameState:
        """Seed 004, Cleanup Step: defeated enemies and spires to the discard; the round ends."""
        s = s.evolve(phase="cleanup")
        for card in s.defeated_now:
            s = self._to_discard(s, card, "defeated", ev)
        for space in SPIRE_SPACES:
            placed = s.spire_at(space)
            if placed is None or not placed.defeated:
                continue
            on_spire = [d for d in s.dice if d.slot and Slot.parse(d.slot).space == space]
            for die in sorted(on_spire, key=lambda d: die_order(d.name)):
                s = self._exhaust(s, die, "on a defeated spire", ev)
            s = self._to_discard(s.with_spire(space, None), placed.card, "spire defeated", ev)
        drilled = [d for d in s.dice if d.zone is Zone.LOADED and Slot.parse(d.slot).kind == "drill"]
        for die in sorted(drilled, key=lambda d: die_order(d.name)):
            s = self._exhaust(s, die, "created blueprint ends", ev)
        if ev is not UNRECORDED:
            ev.append(Event.make("round_ended", round=s.round))
        s = s.evolve(defeated_now=(), revealed_now=(), attacked=(), created=(), rounds_left=s.rounds_left - 1)
        if s.rounds_left <= 0:
            outcome = Outcome("stopped", "the scenario's rounds are played", s.round)
            if ev is not UNRECORDED:
                ev.append(
                    Event.make("game_over", result=outcome.result, reason=outcome.reason, round=s.round)
                )
            return s.evolve(outcome=outcome)
        return s.evolve(round=s.round + 1).push(StartRound())

"""The Invader Phase as a pure game: ``pending`` / ``step`` over :class:`IslandState`.

Each Invader Phase runs, in order (seed 002, Invader Phase): Blighted Island (if the Blight card
has flipped), Event (when an Event deck is in play, not on the first turn), Fear (earned cards in
the order earned, at the current Terror Level), Ravage, Build, Explore, Advance. Between phases
Time Passes (Damage heals, Defend, Health modifiers and skips end) and the scenario's Spirit Phase
inputs apply. A scenario starting at ``setup`` first makes the opening Explore and advances that
card to Build. Victory and defeat are checked after every task, so they happen when they happen.

The game never chooses and never draws: each choice is a
:class:`~model.core.decisions.DecisionRequest`, each draw a
:class:`~model.core.decisions.ChanceRequest`. A decision with a single legal option is not
asked; the events say what happened. Options are listed in a stable order whose first entry is
a sensible default.

Decision kinds (player ``players``: the Spirits decide together):

================  ===============================================================================
``land-order``    the land a Ravage card resolves next (ruling ``SI-LAND-ORDER``): land names
``cascade``       where a cascading Blight goes (ruling ``SI-CASCADE-CHOOSER``): adjacent land
                  names, lands without Blight first
``fight-back``    how the surviving Dahan's Damage is spread: allocation labels such as
                  ``C0+3 T1+1`` (see :mod:`model.spirit_island.damage`), most Fear first
``damage``        the same for Damage from a Fear card or Event
``choose-piece``  which piece an effect touches when they differ in Damage: ``T``, ``T@1``...
================  ===============================================================================

Chance kinds (``draw``): sources ``invader-stage-N`` (the top Invader card), ``fear-deck``,
``event-deck``, ``blight-cards``; every listed outcome is equally likely.

With ``play_on=True`` the game records the first outcome and goes on resolving the Invader
Phases (Blight from an empty card comes from the box). This is for what-if searches only
(:mod:`solver.spirit_island.island_search`); a real game stops at its outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from model.core.decisions import ChanceRequest, DecisionRequest, Option, normalise_answer
from model.core.errors import RulesError
from model.core.events import Event
from model.core.rulings import Rulings
from model.spirit_island import victory
from model.spirit_island.blight import BLIGHTED, BlightCard, take_blight
from model.spirit_island.build import build_targets, built_piece
from model.spirit_island.damage import Allocation, allocations, apply_allocation
from model.spirit_island.data import GameData
from model.spirit_island.effects import Effect, Where
from model.spirit_island.explore import explore_targets
from model.spirit_island.fear import DRAW, draw_options
from model.spirit_island.invader_deck import InvaderCard, entry_stage
from model.spirit_island.invader_deck import draw_options as invader_draw_options
from model.spirit_island.island import Island
from model.spirit_island.pieces import INVADERS, Land, Piece, PieceKind, PieceStats, describe, time_passes
from model.spirit_island.ravage import fight_back_damage, invaders_strike, ravage_targets
from model.spirit_island.state import (
    BUILD,
    EXPLORE,
    RAVAGE,
    AddBlight,
    Advance,
    ApplyEffects,
    BlightedIsland,
    BuildLand,
    CardAction,
    Cascade,
    DamageLand,
    DrawBlightCard,
    EndPhase,
    Escalate,
    EventStep,
    ExploreCard,
    ExploreStep,
    FearStep,
    FightBack,
    GenerateFear,
    IslandState,
    Outcome,
    PieceEffect,
    RavageLand,
    Skip,
    Slot,
    SpiritInputs,
    StartPhase,
    Task,
    TimePasses,
)
from model.spirit_island.upgrade_downgrade import Change, change_health, destroy, downgrade, remove, upgrade

Events = list[Event]
PLAYERS = "players"


@dataclass(frozen=True)
class Rules:
    """The rulings in force, read once, plus the data."""

    rulings: Rulings
    data: GameData
    stats: PieceStats
    blight_threshold: int
    escalation_timing: str
    coastal_flag: str
    cascade_chooser: str
    land_order: str
    skip_scope: str
    downgrade_damage: str
    blight_empty: str

    @staticmethod
    def of(rulings: Rulings, data: GameData) -> Rules:
        return Rules(
            rulings,
            data,
            data.stats,
            data.value("land_damage_for_blight"),
            rulings.reading("SI-ESCALATION-TIMING"),
            rulings.reading("SI-COASTAL-FLAG"),
            rulings.reading("SI-CASCADE-CHOOSER"),
            rulings.reading("SI-LAND-ORDER"),
            rulings.reading("SI-SKIP-SCOPE"),
            rulings.reading("SI-DOWNGRADE-DAMAGE"),
            rulings.reading("SI-BLIGHT-EMPTY"),
        )


class InvaderPhaseGame:
    """Rules in force on one island, plus the pure step function."""

    def __init__(self, rules: Rules, island: Island, *, play_on: bool = False) -> None:
        self.rules = rules
        self.island = island
        self.play_on = play_on
        self._cards = {c.id: c for c in rules.data.invader_cards}

    # -- the pure interface -----------------------------------------------------------------

    def start(self, state: IslandState) -> tuple[IslandState, tuple[Event, ...]]:
        """Run a fresh state to its first request; returns the opening events."""
        events: Events = []
        state = self._check(state, events)
        return self._advance(state, events), tuple(events)

    def pending(self, state: IslandState) -> DecisionRequest | ChanceRequest | None:
        return state.request

    def step(self, state: IslandState, answer: Option) -> tuple[IslandState, tuple[Event, ...]]:
        request, task = state.request, state.awaiting
        if request is None or task is None:
            raise RulesError("the Invader Phase is over; nothing is pending")
        answer = normalise_answer(request, answer)
        events: Events = []
        state = replace(state, request=None, awaiting=None)
        state = self._answer(state, task, answer, events)
        state = self._check(state, events)
        return self._advance(state, events), tuple(events)

    # -- the loop -------------------------------------------------------------------------------

    def _advance(self, s: IslandState, ev: Events) -> IslandState:
        while s.request is None and s.agenda:
            if s.outcome is not None and not self.play_on:
                return replace(s, agenda=())
            task, s = s.agenda[0], replace(s, agenda=s.agenda[1:])
            s = self._run(s, task, ev)
            s = self._check(s, ev)
        if s.outcome is not None and not self.play_on:
            return replace(s, agenda=(), request=None, awaiting=None)
        return s

    def _check(self, s: IslandState, ev: Events) -> IslandState:
        """Victory and defeat, right after each change; a simultaneous win and loss is a win."""
        if s.outcome is not None:
            return s
        win, loss = victory.judge(s)
        if win is None and loss is None:
            return s
        if win is not None:
            reason = (
                win if loss is None else f"{win} (at the same moment as a loss: {loss}; a sacrifice victory)"
            )
            outcome = Outcome("win", reason, s.turn)
        else:
            assert loss is not None
            outcome = Outcome("loss", loss, s.turn)
        ev.append(Event.make("game_over", result=outcome.result, reason=outcome.reason, turn=s.turn))
        return replace(s, outcome=outcome)

    def _ask(
        self, s: IslandState, task: Task, kind: str, options: tuple[str, ...], **context: str | int
    ) -> IslandState:
        return replace(
            s, request=DecisionRequest(kind, PLAYERS, options, tuple(context.items())), awaiting=task
        )

    def _draw(
        self, s: IslandState, task: Task, source: str, outcomes: tuple[str, ...], purpose: str
    ) -> IslandState:
        return replace(s, request=ChanceRequest("draw", source, outcomes, purpose), awaiting=task)

    def _run(self, s: IslandState, task: Task, ev: Events) -> IslandState:
        if isinstance(task, StartPhase):
            return self._start_phase(s, ev)
        if isinstance(task, EndPhase):
            return self._end_phase(s, ev)
        if isinstance(task, TimePasses):
            return self._time_passes(s, ev)
        if isinstance(task, SpiritInputs):
            return self._spirit_inputs(s, ev)
        if isinstance(task, BlightedIsland):
            return self._blighted_island(s, ev)
        if isinstance(task, EventStep):
            return self._event_step(s, task, ev)
        if isinstance(task, FearStep):
            return self._fear_step(s, ev)
        if isinstance(task, Slot):
            return self._slot(s, task, ev)
        if isinstance(task, CardAction):
            return self._card_action(s, task, ev)
        if isinstance(task, RavageLand):
            return self._ravage_land(s, task, ev)
        if isinstance(task, AddBlight):
            return self._add_blight(s, task, ev)
        if isinstance(task, Cascade):
            return self._cascade(s, task, None, ev)
        if isinstance(task, FightBack):
            return self._fight_back(s, task, None, ev)
        if isinstance(task, BuildLand):
            return self._build_land(s, task, ev)
        if isinstance(task, ExploreStep):
            return self._explore_step(s, task, None, ev)
        if isinstance(task, Escalate):
            return self._escalate(s, task, ev)
        if isinstance(task, ExploreCard):
            return self._explore_card(s, task, ev)
        if isinstance(task, Advance):
            return self._advance_cards(s, ev)
        if isinstance(task, GenerateFear):
            return self._generate_fear(s, task, None, ev)
        if isinstance(task, ApplyEffects):
            return (
                s.push(*(ApplyEffects((e,), task.origin, task.card) for e in task.effects))
                if len(task.effects) > 1
                else self._effect(s, task, ev)
            )
        if isinstance(task, PieceEffect):
            return self._piece_effect(s, task, None, ev)
        if isinstance(task, DamageLand):
            return self._damage_land(s, task, None, ev)
        if isinstance(task, DrawBlightCard):
            return self._draw_blight_card(s, task, None, ev)
        raise RulesError(f"unknown task {task!r}")  # pragma: no cover - a bug, not an input

    def _answer(self, s: IslandState, task: Task, answer: Option, ev: Events) -> IslandState:
        text = str(answer)
        if isinstance(task, CardAction):
            return self._land_chosen(s, task, text, ev)
        if isinstance(task, Cascade):
            return self._cascade(s, task, text, ev)
        if isinstance(task, FightBack):
            return self._fight_back(s, task, text, ev)
        if isinstance(task, ExploreStep):
            return self._explore_step(s, task, text, ev)
        if isinstance(task, GenerateFear):
            return self._generate_fear(s, task, text, ev)
        if isinstance(task, EventStep):
            return self._event_step(s, task, ev, drawn=text)
        if isinstance(task, PieceEffect):
            return self._piece_effect(s, task, text, ev)
        if isinstance(task, DamageLand):
            return self._damage_land(s, task, text, ev)
        if isinstance(task, DrawBlightCard):
            return self._draw_blight_card(s, task, text, ev)
        raise RulesError(f"task {task!r} takes no answer")  # pragma: no cover - a bug

    # -- phases and turns ---------------------------------------------------------------------

    def _start_phase(self, s: IslandState, ev: Events) -> IslandState:
        ev.append(Event.make("invader_phase_started", turn=s.turn, terror_level=s.fear.terror_level))
        return s.push(
            BlightedIsland(),
            EventStep(),
            FearStep(),
            Slot(RAVAGE),
            Slot(BUILD),
            ExploreStep(),
            Advance(),
            EndPhase(),
        )

    def _end_phase(self, s: IslandState, ev: Events) -> IslandState:
        left = s.phases_left - 1
        ev.append(Event.make("invader_phase_ended", turn=s.turn))
        s = replace(s, phases_left=left)
        if left > 0:
            return s.push(TimePasses(), SpiritInputs(), StartPhase())
        return s

    def _time_passes(self, s: IslandState, ev: Events) -> IslandState:
        ev.append(Event.make("time_passed", turn=s.turn))
        return replace(s, lands=tuple(time_passes(land) for land in s.lands), skips=(), turn=s.turn + 1)

    def _spirit_inputs(self, s: IslandState, ev: Events) -> IslandState:
        if not s.spirit_phases:
            return s
        inputs, rest = s.spirit_phases[0], s.spirit_phases[1:]
        s = replace(s, spirit_phases=rest)
        for index, amount in inputs.defend:
            land = s.lands[index]
            s = s.with_land(index, replace(land, defend=land.defend + amount))
            ev.append(
                Event.make("defend_added", land=self.island.lands[index], amount=amount, cause="spirit phase")
            )
        tasks: list[Task] = []
        if inputs.skips:
            tasks.append(ApplyEffects(inputs.skips, "spirit phase"))
        if inputs.fear:
            tasks.append(GenerateFear(inputs.fear, "spirit phase"))
        return s.push(*tasks)

    # -- 1. Blighted Island, Event, 2. Fear -------------------------------------------------------

    def _blight_card(self, s: IslandState) -> BlightCard | None:
        if s.blight.card is None or s.blight.card == DRAW:
            return None
        return self.rules.data.blight_card(s.blight.card)

    def _blighted_island(self, s: IslandState, ev: Events) -> IslandState:
        card = self._blight_card(s)
        if card is None or s.blight.side != BLIGHTED or not card.each_phase:
            return s
        ev.append(Event.make("blighted_island", card=card.name))
        return s.push(ApplyEffects(card.each_phase, f"Blight card {card.name}"))

    def _event_step(
        self, s: IslandState, task: EventStep, ev: Events, drawn: str | None = None
    ) -> IslandState:
        if drawn is None:
            if not s.events:
                return s
            if s.turn <= 1:
                ev.append(Event.make("event_skipped", reason="first turn"))
                return s
            top = s.events[0]
            if top == DRAW:
                seen = set(s.events) | set(s.event_discard)
                options = tuple(name for name in s.event_candidates if name not in seen)
                if not options:
                    raise RulesError("the Event deck has an unknown card but no Event card is left to draw")
                if len(options) > 1:
                    return self._draw(s, task, "event-deck", options, f"Event, turn {s.turn}")
                drawn = options[0]
            else:
                drawn = top
        card = self.rules.data.event(drawn)
        ev.append(Event.make("event_resolved", card=card.name, turn=s.turn))
        s = replace(s, events=s.events[1:], event_discard=(*s.event_discard, card.name))
        return s.push(ApplyEffects(card.effects, f"Event {card.name}"))

    def _fear_step(self, s: IslandState, ev: Events) -> IslandState:
        if not s.fear.earned:
            return s
        track, name = s.fear.resolve_next()
        level = min(track.terror_level, 3)
        card = self.rules.data.fear_card(name)
        effects = card.effects_at(level)
        ev.append(
            Event.make(
                "fear_card_resolved",
                card=name,
                terror_level=level,
                effects=tuple(e.describe() for e in effects),
            )
        )
        s = replace(s, fear=track)
        # FearStep again afterwards: cards earned while resolving join the queue and resolve now.
        return s.push(ApplyEffects(effects, f"Fear card {name}"), FearStep())

    def _generate_fear(
        self, s: IslandState, task: GenerateFear, drawn: str | None, ev: Events
    ) -> IslandState:
        """Move ``task.amount`` markers out of the pool, earning a card each time it empties."""
        if drawn is not None:
            return self._earn(s, drawn, task, ev)
        amount, track, start = task.amount, s.fear, task.amount
        while amount > 0:
            track, due = track.take_marker()
            amount -= 1
            if not due or not track.deck:  # every card earned already: the markers just cycle
                continue
            s = replace(s, fear=track)
            ev.append(
                Event.make("fear_generated", amount=start - amount, cause=task.cause, pool=track.in_pool)
            )
            rest = GenerateFear(amount, task.cause)
            top = track.deck[0]
            if top == DRAW:
                options = draw_options(track)
                if not options:
                    raise RulesError("the Fear deck has an unknown card but no Fear card is left to draw")
                if len(options) > 1:
                    return self._draw(s, rest, "fear-deck", options, f"Fear card {track.earned_total + 1}")
                return self._earn(s, options[0], rest, ev)
            return self._earn(s, top, rest, ev)
        ev.append(Event.make("fear_generated", amount=start, cause=task.cause, pool=track.in_pool))
        return replace(s, fear=track)

    def _earn(self, s: IslandState, name: str, rest: GenerateFear, ev: Events) -> IslandState:
        before = s.fear.terror_level
        track = s.fear.earn(name)
        s = replace(s, fear=track)
        ev.append(
            Event.make(
                "fear_card_earned",
                card=name,
                earned=track.earned_total,
                terror_level=min(track.terror_level, 3),
            )
        )
        if track.terror_level != before and track.terror_level <= 3:
            ev.append(Event.make("terror_level_raised", terror_level=track.terror_level))
        return s.push(rest) if rest.amount > 0 else s

    # -- 3. Invader actions ---------------------------------------------------------------------

    def card(self, card_id: str) -> InvaderCard:
        return self._cards[card_id]

    def _slot(self, s: IslandState, task: Slot, ev: Events) -> IslandState:
        cards = s.invaders.ravage if task.action == RAVAGE else s.invaders.build
        if not cards:
            ev.append(Event.make("no_card", action=task.action))
            return s
        kept: list[str] = []
        skips = list(s.skips)
        for card in cards:
            skip = Skip(task.action)
            if skip in skips:
                if self.rules.skip_scope == "one-action":
                    skips.remove(skip)
                ev.append(Event.make("card_skipped", action=task.action, card=card))
                continue
            kept.append(card)
        if self.rules.skip_scope == "whole":
            skips = [k for k in skips if k != Skip(task.action)] if len(kept) < len(cards) else skips
        s = replace(s, skips=tuple(skips))
        return s.push(*(CardAction(task.action, c) for c in kept))

    def _card_action(self, s: IslandState, task: CardAction, ev: Events) -> IslandState:
        card = self.card(task.card)
        lands = task.lands
        if lands is None:
            finder = ravage_targets if task.action == RAVAGE else build_targets
            lands = finder(self.island, s.lands, card)
            ev.append(Event.make("card_lands", action=task.action, card=card.id, lands=self._names(lands)))
        if not lands:
            return s
        if task.action == BUILD:
            return s.push(*(BuildLand(card.id, i) for i in lands))
        if len(lands) > 1 and self.rules.land_order == "players-choose":
            return self._ask(
                s, replace(task, lands=lands), "land-order", self._names(lands), action=RAVAGE, card=card.id
            )
        return s.push(RavageLand(card.id, lands[0]), CardAction(task.action, task.card, lands[1:]))

    def _land_chosen(self, s: IslandState, task: CardAction, name: str, ev: Events) -> IslandState:
        assert task.lands is not None
        index = self.island.index(name)
        ev.append(Event.make("land_chosen", card=task.card, land=name))
        rest = tuple(i for i in task.lands if i != index)
        return s.push(RavageLand(task.card, index), CardAction(task.action, task.card, rest))

    def _skipped_in(self, s: IslandState, action: str, index: int, ev: Events) -> IslandState | None:
        """The state with a land skip used up, if one stops ``action`` in land ``index``."""
        skip = Skip(action, index)
        if skip not in s.skips:
            return None
        ev.append(Event.make("action_skipped", action=action, land=self.island.lands[index]))
        if self.rules.skip_scope == "whole":
            return s
        skips = list(s.skips)
        skips.remove(skip)
        return replace(s, skips=tuple(skips))

    def _ravage_land(self, s: IslandState, task: RavageLand, ev: Events) -> IslandState:
        name = self.island.lands[task.land]
        skipped = self._skipped_in(s, RAVAGE, task.land, ev)
        if skipped is not None:
            return skipped
        land = s.lands[task.land]
        if not land.has_invaders:
            ev.append(Event.make("ravage_nothing", card=task.card, land=name))
            return s
        strike = invaders_strike(land, self.rules.stats, self.rules.blight_threshold)
        ev.append(
            Event.make(
                "ravaged",
                card=task.card,
                land=name,
                damage=strike.damage,
                defend=strike.defend,
                hits=strike.hits,
                dahan_destroyed=strike.harm.destroyed,
                dahan_damaged=strike.harm.damaged,
                land_blighted=strike.blight,
            )
        )
        s = s.with_land(task.land, strike.land)
        tasks: list[Task] = [AddBlight(task.land, "ravage")] if strike.blight else []
        return s.push(*tasks, FightBack(task.land))

    def _add_blight(self, s: IslandState, task: AddBlight, ev: Events) -> IslandState:
        name = self.island.lands[task.land]
        card = self._blight_card(s)
        taken = take_blight(s.blight, card, s.players, self.rules.blight_empty)
        s = replace(s, blight=taken.track)
        if not taken.available and not self.play_on:
            ev.append(Event.make("blight_unavailable", land=name, cause=task.cause))
            return replace(s, blight_ran_out=True)
        land = s.lands[task.land]
        had = land.blight > 0
        land = replace(land, blight=land.blight + 1)
        ev.append(
            Event.make(
                "blight_added", land=name, cause=task.cause, pool=taken.track.pool, side=taken.track.side
            )
        )
        for spirit, _ in land.presence:
            land = land.with_presence(spirit, -1)
            ev.append(Event.make("presence_destroyed", land=name, spirit=spirit, cause="blight added"))
        s = s.with_land(task.land, land)
        tasks: list[Task] = []
        if taken.flipped:
            ev.append(Event.make("blight_card_flipped", card=s.blight.card, pool=taken.track.pool))
            if card is not None and card.on_flip:
                tasks.append(ApplyEffects(card.on_flip, f"Blight card {card.name} (flip)"))
        if taken.lost:
            s = replace(s, blight_ran_out=True)
        # In play-on analysis the game is already lost once the card runs out; Blight past that
        # point does not cascade, or a fully blighted island would cascade for ever.
        if had and not (self.play_on and s.blight_ran_out):
            tasks.append(Cascade(task.land))
        return s.push(*tasks)

    def _cascade_options(self, s: IslandState, origin: int) -> tuple[str, ...]:
        near = self.island.neighbours(origin)
        clear = [i for i in near if s.lands[i].blight == 0]
        blighted = [i for i in near if s.lands[i].blight > 0]
        return self._names(tuple(clear + blighted))

    def _cascade(self, s: IslandState, task: Cascade, chosen: str | None, ev: Events) -> IslandState:
        origin = self.island.lands[task.origin]
        if chosen is None:
            options = self._cascade_options(s, task.origin)
            if not options:
                ev.append(Event.make("cascade_impossible", origin=origin))
                return s
            if len(options) > 1 and self.rules.cascade_chooser == "players":
                return self._ask(s, task, "cascade", options, origin=origin)
            chosen = options[0]
        ev.append(Event.make("blight_cascaded", origin=origin, land=chosen))
        return s.push(AddBlight(self.island.index(chosen), f"cascade from {origin}"))

    def _fight_back(self, s: IslandState, task: FightBack, chosen: str | None, ev: Events) -> IslandState:
        name = self.island.lands[task.land]
        land = s.lands[task.land]
        damage = fight_back_damage(land, self.rules.stats)
        if damage == 0 or not land.has_invaders:
            return s
        options = allocations(land, self.rules.stats, damage)
        if chosen is None:
            if len(options) > 1:
                return self._ask(
                    s,
                    task,
                    "fight-back",
                    tuple(a.label for a in options),
                    land=name,
                    damage=damage,
                    pieces=describe(land),
                )
            allocation = options[0]
        else:
            allocation = next(a for a in options if a.label == chosen)
        ev.append(
            Event.make(
                "dahan_fought_back",
                land=name,
                dahan=land.count(PieceKind.DAHAN),
                damage=damage,
                allocation=allocation.label,
            )
        )
        return self._deal(s, task.land, allocation, "dahan", ev)

    def _deal(
        self, s: IslandState, index: int, allocation: Allocation, cause: str, ev: Events
    ) -> IslandState:
        name = self.island.lands[index]
        land, destroyed = apply_allocation(s.lands[index], self.rules.stats, allocation)
        s = s.with_land(index, land)
        fear = 0
        for kind in destroyed:
            piece_fear = self.rules.stats.of(kind).fear
            fear += piece_fear
            ev.append(
                Event.make(
                    "invader_destroyed",
                    land=name,
                    piece=kind.value,
                    cause=cause,
                    fear=piece_fear,
                    was=kind.value,
                )
            )
        return s.push(GenerateFear(fear, f"destroyed in {name}")) if fear else s

    def _build_land(self, s: IslandState, task: BuildLand, ev: Events) -> IslandState:
        name = self.island.lands[task.land]
        skipped = self._skipped_in(s, BUILD, task.land, ev)
        if skipped is not None:
            return skipped
        land = s.lands[task.land]
        if not land.has_invaders:
            ev.append(Event.make("build_nothing", card=task.card, land=name))
            return s
        piece = built_piece(land)
        ev.append(Event.make("built", card=task.card, land=name, piece=piece.value))
        return s.with_land(task.land, land.add(piece))

    def _explore_step(self, s: IslandState, task: ExploreStep, drawn: str | None, ev: Events) -> IslandState:
        if drawn is None:
            if not s.invaders.deck:
                ev.append(Event.make("time_ran_out", turn=s.turn))
                return replace(s, time_ran_out=True)
            top = s.invaders.deck[0]
            stage = entry_stage(top)
            if stage is not None:
                options = invader_draw_options(s.invaders, stage, self.rules.data.invader_cards)
                if not options:
                    raise RulesError(
                        f"the Invader deck needs a Stage {stage} card but every Stage {stage} card is already seen"
                    )
                if len(options) > 1:
                    return self._draw(
                        s, task, f"invader-stage-{stage}", options, f"Explore card, turn {s.turn}"
                    )
                drawn = options[0]
            else:
                drawn = top
        card = self.card(drawn)
        board = replace(s.invaders, deck=s.invaders.deck[1:], explore=(*s.invaders.explore, card.id))
        s = replace(s, invaders=board)
        ev.append(Event.make("card_revealed", card=card.id, stage=card.stage, turn=s.turn))
        escalate = s.adversary is not None and card.escalates(self.rules.coastal_flag)
        if not escalate:
            return s.push(ExploreCard(card.id))
        if self.rules.escalation_timing == "before-explore":
            return s.push(Escalate(card.id), ExploreCard(card.id))
        return s.push(ExploreCard(card.id), Escalate(card.id))

    def _escalate(self, s: IslandState, task: Escalate, ev: Events) -> IslandState:
        assert s.adversary is not None
        adversary = self.rules.data.adversary(s.adversary)
        ev.append(Event.make("escalation", adversary=adversary.name, card=task.card))
        return s.push(ApplyEffects(adversary.escalation, f"Escalation ({adversary.name})", task.card))

    def _explore_card(self, s: IslandState, task: ExploreCard, ev: Events) -> IslandState:
        card = self.card(task.card)
        skip = Skip(EXPLORE)
        if skip in s.skips:
            skips = list(s.skips)
            if self.rules.skip_scope == "one-action":
                skips.remove(skip)
            ev.append(Event.make("card_skipped", action=EXPLORE, card=card.id))
            return replace(s, skips=tuple(skips))
        targets = explore_targets(self.island, s.lands, card)
        explored = []
        for i in targets:
            skipped = self._skipped_in(s, EXPLORE, i, ev)
            if skipped is not None:
                s = skipped
                continue
            s = s.with_land(i, s.lands[i].add(PieceKind.EXPLORER))
            explored.append(i)
        ev.append(Event.make("explored", card=card.id, lands=self._names(tuple(explored))))
        return s

    def _advance_cards(self, s: IslandState, ev: Events) -> IslandState:
        board = s.invaders.advance()
        ev.append(
            Event.make("cards_advanced", ravage=board.ravage, build=board.build, discard=len(board.discard))
        )
        return replace(s, invaders=board)

    def _draw_blight_card(
        self, s: IslandState, task: DrawBlightCard, drawn: str | None, ev: Events
    ) -> IslandState:
        if drawn is None:
            options = tuple(c.name for c in self.rules.data.blight_cards)
            if len(options) > 1:
                return self._draw(s, task, "blight-cards", options, "Blight card at setup")
            drawn = options[0]
        card = self.rules.data.blight_card(drawn)
        pool = card.healthy_per_player * s.players + self.rules.data.value("blight_setup_extra")
        ev.append(Event.make("blight_card_drawn", card=card.name, pool=pool))
        return replace(s, blight=replace(s.blight, card=card.name, pool=pool))

    # -- effects -----------------------------------------------------------------------------------

    def _matching(self, s: IslandState, where: Where, card_id: str) -> tuple[int, ...]:
        card = self.card(card_id) if card_id else None
        out = []
        for i, name in enumerate(self.island.lands):
            if where.terrains and self.island.terrain[i] not in where.terrains:
                continue
            if where.coastal is not None and self.island.coastal[i] != where.coastal:
                continue
            if where.lands and name not in where.lands:
                continue
            if where.card and (
                card is None or not card.matches(self.island.terrain[i], self.island.coastal[i])
            ):
                continue
            if where.has and not any(_holds(s.lands[i], word) for word in where.has):
                continue
            out.append(i)
        return tuple(out)

    def _effect(self, s: IslandState, task: ApplyEffects, ev: Events) -> IslandState:
        if not task.effects:
            return s
        effect = task.effects[0]
        ev.append(Event.make("effect", origin=task.origin, effect=effect.describe()))
        if effect.kind == "fear":
            return s.push(GenerateFear(effect.amount, task.origin))
        lands = self._matching(s, effect.where, task.card)
        if effect.kind == "defend":
            for i in lands:
                s = s.with_land(i, replace(s.lands[i], defend=s.lands[i].defend + effect.amount))
                ev.append(
                    Event.make(
                        "defend_added", land=self.island.lands[i], amount=effect.amount, cause=task.origin
                    )
                )
            return s
        if effect.kind == "skip":
            if effect.scope == "card":
                ev.append(Event.make("skip_added", action=effect.action, land=None))
                return replace(s, skips=(*s.skips, Skip(effect.action)))
            for i in lands:
                ev.append(Event.make("skip_added", action=effect.action, land=self.island.lands[i]))
            return replace(s, skips=s.skips + tuple(Skip(effect.action, i) for i in lands))
        if effect.kind == "add":
            if effect.piece == "blight":
                return s.push(*(AddBlight(i, task.origin) for i in lands for _ in range(effect.count)))
            kind = effect.piece_kind
            for i in lands:
                s = s.with_land(i, s.lands[i].add(kind, effect.count))
                ev.append(
                    Event.make(
                        "piece_added",
                        land=self.island.lands[i],
                        piece=kind.value,
                        count=effect.count,
                        cause=task.origin,
                    )
                )
            return s
        if effect.kind == "damage":
            return s.push(
                *(DamageLand(effect.amount, i, task.origin) for i in lands if s.lands[i].has_invaders)
            )
        if effect.kind == "health":
            fear_tasks: list[Task] = []
            for i in lands:
                land, changes = change_health(s.lands[i], effect.piece_kind, effect.delta, self.rules.stats)
                s = s.with_land(i, land)
                ev.append(
                    Event.make(
                        "health_changed", land=self.island.lands[i], piece=effect.piece, delta=effect.delta
                    )
                )
                fear = self._report_changes(i, changes, task.origin, ev)
                if fear:
                    fear_tasks.append(GenerateFear(fear, f"destroyed in {self.island.lands[i]}"))
            return s.push(*fear_tasks)
        # remove / destroy / downgrade / upgrade: piece by piece, the players choosing among
        # pieces that differ in Damage.
        return s.push(*(PieceEffect(effect, task.origin, i, effect.count) for i in lands))

    def _piece_effect(self, s: IslandState, task: PieceEffect, chosen: str | None, ev: Events) -> IslandState:
        land = s.lands[task.land]
        kind = task.effect.piece_kind
        candidates = tuple(dict.fromkeys(p.label for p in land.pieces if p.kind is kind))
        if task.left <= 0 or not candidates:
            return s
        if chosen is None:
            if len(candidates) > 1:
                return self._ask(
                    s,
                    task,
                    "choose-piece",
                    candidates,
                    land=self.island.lands[task.land],
                    effect=task.effect.describe(),
                )
            chosen = candidates[0]
        piece = next(p for p in land.pieces if p.label == chosen)
        operation = task.effect.kind
        if operation == "remove":
            land, change = remove(land, piece)
        elif operation == "destroy":
            land, change = destroy(land, piece)
        elif operation == "upgrade":
            land, change = upgrade(land, piece, self.rules.stats, self.rules.downgrade_damage)
        else:
            land, change = downgrade(land, piece, self.rules.stats, self.rules.downgrade_damage)
        s = s.with_land(task.land, land)
        fear = self._report_changes(task.land, (change,), task.origin, ev)
        rest = replace(task, left=task.left - 1)
        name = self.island.lands[task.land]
        return s.push(*((GenerateFear(fear, f"destroyed in {name}"),) if fear else ()), rest)

    def _report_changes(self, index: int, changes: tuple[Change, ...], origin: str, ev: Events) -> int:
        name = self.island.lands[index]
        fear = 0
        for change in changes:
            if change.result == "destroyed":
                assert change.destroyed_kind is not None
                piece_fear = self.rules.stats.of(change.destroyed_kind).fear
                fear += piece_fear
                # ``piece`` is what was destroyed (a downgraded City is destroyed as a Town); ``was``
                # is the piece that left the board
                ev.append(
                    Event.make(
                        "invader_destroyed",
                        land=name,
                        piece=change.destroyed_kind.value,
                        cause=origin,
                        fear=piece_fear,
                        was=change.before.kind.value,
                    )
                )
            elif change.result == "removed":
                ev.append(
                    Event.make("piece_removed", land=name, piece=change.before.kind.value, cause=origin)
                )
            else:
                assert change.after is not None
                ev.append(
                    Event.make(
                        "piece_replaced",
                        land=name,
                        piece=change.before.label,
                        becomes=change.after.label,
                        cause=origin,
                    )
                )
        return fear

    def _damage_land(self, s: IslandState, task: DamageLand, chosen: str | None, ev: Events) -> IslandState:
        name = self.island.lands[task.land]
        land = s.lands[task.land]
        if not land.has_invaders:
            return s
        options = allocations(land, self.rules.stats, task.amount)
        if chosen is None:
            if len(options) > 1:
                return self._ask(
                    s,
                    task,
                    "damage",
                    tuple(a.label for a in options),
                    land=name,
                    damage=task.amount,
                    pieces=describe(land),
                )
            allocation = options[0]
        else:
            allocation = next(a for a in options if a.label == chosen)
        ev.append(
            Event.make(
                "damage_dealt", land=name, damage=task.amount, allocation=allocation.label, cause=task.origin
            )
        )
        return self._deal(s, task.land, allocation, task.origin, ev)

    def _names(self, lands: tuple[int, ...]) -> tuple[str, ...]:
        return tuple(self.island.lands[i] for i in lands)


def _holds(land: Land, word: str) -> bool:
    if word == "blight":
        return land.blight > 0
    if word == "invaders":
        return land.has_invaders
    kind = PieceKind(word)
    return any(p.kind is kind for p in land.pieces)


def effect_lands(effect: Effect) -> tuple[str, ...]:
    """Land names an effect names explicitly (the scenario loader checks they exist)."""
    return effect.where.lands


__all__ = ["INVADERS", "InvaderPhaseGame", "Piece", "Rules", "effect_lands"]

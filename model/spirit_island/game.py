"""The Invader Phase as a pure game: ``pending`` / ``step`` over :class:`IslandState`.

Each Invader Phase runs, in order (seed 002, Invader Phase): Blighted Island (if the Blight card
has flipped), Event (when an Event deck is in play, not on the first turn), Fear (earned cards in
the order earned, at the current Terror Level), Ravage, Build, Explore, Advance. Between phases
Time Passes (Damage heals, Defend, Health modifiers and skips end) and the scenario's Spirit Phase
inputs apply. A scenario starting at ``setup`` first makes the opening Explore and advances that
card to Build. Victory and defeat are checked after every task, so they happen when they happen.

The game never chooses and never draws: each choice is a
:class:`~invasion_oracle.model.core.decisions.DecisionRequest`, each draw a
:class:`~invasion_oracle.model.core.decisions.ChanceRequest`. A decision with a single legal option is not
asked; the events say what happened. Options are listed in a stable order whose first entry is
a sensible default.

Decision kinds (player ``players``: the Spirits decide together):

================  ===============================================================================
``land-order``    the land a Ravage card resolves next (ruling ``SI-LAND-ORDER``): land names
``cascade``       where a cascading Blight goes (ruling ``SI-CASCADE-CHOOSER``): adjacent land
                  names, lands without Blight first
``fight-back``    how the surviving Dahan's Damage is spread: allocation labels such as
                  ``C0+3 T1+1`` (see :mod:`invasion_oracle.model.spirit_island.damage`), most Fear first
``damage``        the same for Damage from a Fear card or Event
``choose-piece``  which piece an effect touches when they differ in Damage: ``T``, ``T@1``...
================  ===============================================================================

Chance kinds (``draw``): sources ``invader-stage-N`` (the top Invader card), ``fear-deck``,
``event-deck``, ``blight-cards``; every listed outcome is equally likely.

With ``play_on=True`` the game records the first outcome and goes on resolving the Invader
Phases (Blight from an empty card comes from the box). This is for what-if searches only
(:mod:`invasion_oracle.solver.spirit_island.island_search`); a real game stops at its outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.arguments import shown
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest, Option, normalise_answer
from invasion_oracle.model.core.errors import MalformedInputError, RulesError
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.frozen import direct_constructor, replace
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.spirit_island import victory
from invasion_oracle.model.spirit_island.blight import (
    BLIGHTED,
    BlightCard,
    BlightTrack,
    blight_taken,
)
from invasion_oracle.model.spirit_island.build import build_targets, built_piece
from invasion_oracle.model.spirit_island.damage import Allocation, allocations, apply_allocation
from invasion_oracle.model.spirit_island.data import GameData
from invasion_oracle.model.spirit_island.effects import Effect, Where
from invasion_oracle.model.spirit_island.explore import explore_targets, explorers_reach
from invasion_oracle.model.spirit_island.fear import DRAW, FearTrack, draw_options
from invasion_oracle.model.spirit_island.invader_deck import InvaderCard, entry_stage
from invasion_oracle.model.spirit_island.invader_deck import draw_options as invader_draw_options
from invasion_oracle.model.spirit_island.island import Island
from invasion_oracle.model.spirit_island.pieces import (
    CITY,
    DAHAN,
    EXPLORER,
    INVADERS,
    TOWN,
    Damaged,
    Land,
    Piece,
    PieceKind,
    PieceStats,
    describe,
    make_land,
    time_passes,
)
from invasion_oracle.model.spirit_island.ravage import (
    StrikeParts,
    fight_back_damage,
    ravage_targets,
    strike_parts,
)
from invasion_oracle.model.spirit_island.state import (
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
    Draft,
    DrawBlightCard,
    EndPhase,
    Escalate,
    EventStep,
    ExploreCard,
    ExploreLand,
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
    check_agenda,
)
from invasion_oracle.model.spirit_island.upgrade_downgrade import (
    Change,
    change_health,
    destroy,
    downgrade,
    remove,
    upgrade,
)

Events = list[Event]
Quick = tuple[tuple[Land, ...], BlightTrack, FearTrack, tuple[Event, ...]]
"""What a task played without a draft changed: the lands, the Blight and Fear tracks; its events."""
PLAYERS = "players"
_PHASE = (
    BlightedIsland(),
    EventStep(),
    FearStep(),
    Slot(RAVAGE),
    Slot(BUILD),
    ExploreStep(),
    Advance(),
    EndPhase(),
)
_NEXT_TURN = (TimePasses(), SpiritInputs(), StartPhase())


# Events built with every field given and checked by construction: no ``__init__`` (issue 38).
_new_event = direct_constructor(Event)
_blight_track = direct_constructor(BlightTrack)
_fear_track = direct_constructor(FearTrack)


def _event(kind: str, **fields: Any) -> Event:
    """An event from the game's own fields, which are JSON scalars and tuples by construction
    (``Event.make`` checks every field; the oracle's hot path need not)."""
    return _new_event(kind, tuple(fields.items()))


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
    winning_fear: str
    fear_earned_during: str
    over_allocation: bool  # SI-OVER-ALLOCATION=excess-allowed: a piece may take more than it needs

    @staticmethod
    def of(rulings: Rulings, data: GameData) -> Rules:
        floor = 0 if rulings.reading("SI-HEALTH-FLOOR") == "to-zero" else 1
        return Rules(
            rulings,
            data,
            data.stats if data.stats.health_floor == floor else replace(data.stats, health_floor=floor),
            data.value("land_damage_for_blight"),
            rulings.reading("SI-ESCALATION-TIMING"),
            rulings.reading("SI-COASTAL-FLAG"),
            rulings.reading("SI-CASCADE-CHOOSER"),
            rulings.reading("SI-LAND-ORDER"),
            rulings.reading("SI-SKIP-SCOPE"),
            rulings.reading("SI-DOWNGRADE-DAMAGE"),
            rulings.reading("SI-BLIGHT-EMPTY"),
            rulings.reading("SI-WINNING-FEAR"),
            rulings.reading("SI-FEAR-EARNED-DURING"),
            rulings.reading("SI-OVER-ALLOCATION") == "excess-allowed",
        )


class InvaderPhaseGame:
    """Rules in force on one island, plus the pure step function.

    ``start``, ``step`` and ``run_tasks`` take an immutable :class:`IslandState` and return a new
    one with the events caused; inside one call the tasks work on a :class:`Draft` of it.
    """

    def __init__(self, rules: Rules, island: Island, *, play_on: bool = False) -> None:
        self.rules = rules
        self.island = island
        self.play_on = play_on
        self._cards = {c.id: c for c in rules.data.invader_cards}
        self._land_count = len(island.lands)
        self._blight_cards = {c.name: c for c in rules.data.blight_cards}
        self._destroyed_in = tuple(f"destroyed in {name}" for name in island.lands)  # Fear causes
        self._judged_clear: tuple[tuple[Land, ...], FearTrack, tuple[str, ...]] | None = None
        self._judged_before: tuple[tuple[Land, ...], FearTrack, tuple[str, ...]] | None = None
        self._allocation_cache: dict[tuple[object, ...], tuple[Allocation, ...]] = {}
        self._strikes: dict[tuple[Any, ...], tuple[int, int, bool, Event]] = {}
        self._fights: dict[
            tuple[Any, ...], tuple[int, int, int, int, tuple[Event, ...], bool] | bool | None
        ] = {}
        self._destroyed_events: dict[tuple[int, PieceKind], Event] = {}
        self._land_events: dict[tuple[Any, ...], Event] = {}
        stats = rules.stats
        # The numbers of a Ravage on counts (see _quick_ravage); None: a Dahan Health of 0 or
        # less, which only the piece-by-piece walk reads as the rules do.
        self._counted: tuple[int, int, int, int, int] | None = (
            (
                stats.explorer.damage,
                stats.town.damage,
                stats.city.damage,
                stats.dahan.health,
                stats.dahan.damage,
            )
            if stats.dahan.health > 0
            else None
        )
        build_on_draft = self._one_land(BUILD, self._build_in)
        explore_on_draft = self._one_land(EXPLORE, self._explore_in)
        self._runners: dict[type, Callable[[Draft, Any, Events], None]] = {
            StartPhase: self._start_phase,
            EndPhase: self._end_phase,
            TimePasses: self._time_passes,
            SpiritInputs: self._spirit_inputs,
            BlightedIsland: self._blighted_island,
            EventStep: self._event_step,
            FearStep: self._fear_step,
            Slot: self._slot,
            CardAction: self._card_action,
            RavageLand: self._ravage_land,
            AddBlight: self._add_blight,
            Cascade: self._cascade,
            FightBack: self._fight_back,
            BuildLand: build_on_draft,
            ExploreStep: self._explore_step,
            Escalate: self._escalate,
            ExploreCard: self._explore_card,
            ExploreLand: explore_on_draft,
            Advance: self._advance_cards,
            GenerateFear: self._generate_fear,
            ApplyEffects: self._apply_effects,
            PieceEffect: self._piece_effect,
            DamageLand: self._damage_land,
            DrawBlightCard: self._draw_blight_card,
        }
        # The quick path's Builds and Explores: the land after (None: unchanged) and the event;
        # a Ravage (None) is _quick_ravage's.
        self._quick_change: dict[type, Callable[[Any, Any], tuple[Land | None, Event]] | None] = {
            BuildLand: self._build_in,
            ExploreLand: self._explore_in,
            RavageLand: None,
        }
        self._answerers: dict[type, Callable[[Draft, Any, Events, str], None]] = {
            CardAction: self._land_chosen,
            Cascade: self._cascade,
            FightBack: self._fight_back,
            ExploreStep: self._explore_step,
            GenerateFear: self._generate_fear,
            EventStep: self._event_step,
            PieceEffect: self._piece_effect,
            DamageLand: self._damage_land,
            DrawBlightCard: self._draw_blight_card,
        }

    # -- the pure interface -----------------------------------------------------------------

    def start(
        self, state: IslandState, agenda: tuple[Task, ...] | None = None
    ) -> tuple[IslandState, tuple[Event, ...]]:
        """Run a fresh state to its first request; returns the opening events.

        ``agenda``: the tasks to do, first task first, in place of the state's own agenda; the
        answer is exactly ``start(state._replace(agenda=agenda))``'s, without that intermediate
        state (a twenty-field copy, a fifth of a single-land action's time: issue 38). This is how
        a caller plays one Invader Action in one land on a state, or a few tasks in a row. A task
        or a field that does not fit the game (an unknown card, a land index off the island, not
        a task) is a :class:`~invasion_oracle.model.core.errors.MalformedInputError` naming it,
        raised before anything is played.

        >>> from invasion_oracle.model.spirit_island.scenario import load_scenario
        >>> from invasion_oracle.model.spirit_island.state import RavageLand
        >>> scenario = load_scenario("example:spirit_island/invader_phase")
        >>> game, state = scenario.game(), scenario.initial._replace(agenda=())
        >>> a7 = scenario.island.index("A7")
        >>> after, events = game.start(state, agenda=(RavageLand("1M", a7),))
        >>> [event.kind for event in events], after.agenda, game.pending(after)
        (['ravaged', 'dahan_fought_back', 'invader_destroyed'], (), None)
        >>> (after, events) == game.start(state._replace(agenda=(RavageLand("1M", a7),)))
        True
        >>> game.start(state, agenda=(RavageLand("1M", 99),))
        Traceback (most recent call last):
        ...
        invasion_oracle.model.core.errors.MalformedInputError: agenda:$[0].land: expected a land index of this island, 0 to 7, got 99
        """
        if agenda is None:
            done = self._quick_one(state, None)  # one task on the agenda, played quickly, or None
            return done if done is not None else self.run_tasks(state)
        if type(agenda) is tuple and len(agenda) == 1:  # the usual call: checked as it is played
            done = self._quick_one(state, agenda[0])
            if done is not None:
                return done
        if type(state) is not IslandState:
            raise MalformedInputError("state", "$", f"expected an IslandState, got {shown(state)}")
        check_agenda(agenda, self._land_count, self._cards)
        return self.run_tasks(state._replace(agenda=agenda))

    def run_tasks(self, state: IslandState, *tasks: Task) -> tuple[IslandState, tuple[Event, ...]]:
        """Put ``tasks`` at the front of ``state``'s agenda and run until a request or the end.

        This is how one Invader Action in one land is played on its own (``RavageLand``,
        ``BuildLand``, ``ExploreLand``), as searches and benchmarks do.
        """
        if len(tasks) == 1 and not state.agenda:
            done = self._quick_one(state, tasks[0])
            if done is not None:
                return done
        events: Events = []
        draft = self._draft(state)
        if tasks:
            draft.push(*tasks)
        if draft.judged != draft.version:  # not judged yet (see _draft)
            self._check(draft, events)
        self._advance(draft, events)
        return self._freeze(draft), tuple(events)

    def _quick_one(
        self, state: IslandState, task: Task | None
    ) -> tuple[IslandState, tuple[Event, ...]] | None:
        """One task that is all there is to do (``task``, or with ``None`` the only task on the
        agenda, as :meth:`start` asks), played without a :class:`Draft` when it is a
        single-land Invader Action: a Build, an Explore, or a Ravage that asks nothing and ends
        nothing (:meth:`_quick_ravage`); ``None``: the general path plays it.

        Why: a call of the general path costs about 5 us before any rule runs (the draft, the
        loop, the freeze), as much as the Build itself (issue 22). The answers are the general
        path's: the same runner code (``_build_in``, ``_ravaged`` ...) makes the lands and the
        events; no skip is in force; the state is judged first as the general path does
        (anything to report, and the general path reports it); and, as there, a Build or an
        Explore, which only adds pieces, needs no victory check after it (see
        :meth:`Draft.put`). ``tests/spirit_island/test_quick_path.py`` compares both paths on the
        states of generated games.
        """
        if type(state) is not IslandState:  # start's agenda path: refused by the general path
            return None
        # The fields at once (one unpacking, not an attribute read each), and the new state built
        # from them in one tuple (issue 38).
        (
            lands,
            spirits,
            players,
            turn,
            invaders,
            fear,
            blight,
            adversary,
            events,
            event_discard,
            event_candidates,
            skips,
            phases_left,
            spirit_phases,
            agenda,
            request,
            awaiting,
            outcome,
            blight_ran_out,
            time_ran_out,
        ) = state
        if task is None:  # start: the agenda's only task
            if len(agenda) != 1:
                return None
            task = agenda[0]
        if request is not None or skips or outcome is not None or blight_ran_out or time_ran_out:
            return None
        change = self._quick_change.get(type(task), _UNSEEN)  # None: a Ravage
        if change is _UNSEEN:
            return None
        # A task handed to start is checked here, as it is read (an agenda that does not fit the
        # game is refused on the general path, by check_agenda).
        card, index = task.card, task.land  # type: ignore[union-attr]  # a single-land action
        if not (
            type(card) is str and card in self._cards and type(index) is int and 0 <= index < self._land_count
        ):
            return None
        clear = self._judged_clear
        judged = clear is not None and clear[0] is lands and clear[1] is fear and clear[2] is spirits
        if not judged:
            # Also remembered: the last state the quick path judged clear before playing. A
            # search branching from one state, or a caller replaying from one start, plays
            # from it again and again (the benchmark's reset judged 2,000 times).
            seen = self._judged_before
            if not (seen is not None and seen[0] is lands and seen[1] is fear and seen[2] is spirits):
                win, loss = victory.judge(lands, fear, spirits, False, False)
                if win is not None or loss is not None:
                    return None
                self._judged_before = (lands, fear, spirits)
        before_lands, before_fear = lands, fear
        if change is not None:  # a Build or an Explore: one land and one event
            land, event = change(lands, task)
            if land is not None:
                changed = list(lands)
                changed[index] = land
                lands = tuple(changed)
            changes: tuple[Event, ...] = (event,)
        else:
            done = self._quick_ravage(state, task, lands, index)  # type: ignore[arg-type]  # a RavageLand
            if done is None:
                return None
            lands, blight, fear, changes = done
        if not judged or lands is not before_lands or fear is not before_fear:  # else: as it was
            self._judged_clear = (lands, fear, spirits)
        after = (
            lands,
            spirits,
            players,
            turn,
            invaders,
            fear,
            blight,
            adversary,
            events,
            event_discard,
            event_candidates,
            skips,
            phases_left,
            spirit_phases,
            (),
            request,
            awaiting,
            outcome,
            blight_ran_out,
            time_ran_out,
        )
        return _new_state(IslandState, after), changes

    def pending(self, state: IslandState) -> DecisionRequest | ChanceRequest | None:
        return state.request

    def step(self, state: IslandState, answer: Option) -> tuple[IslandState, tuple[Event, ...]]:
        request, task = state.request, state.awaiting
        if request is None or task is None:
            raise RulesError("the Invader Phase is over; nothing is pending")
        choices = request.options if isinstance(request, DecisionRequest) else request.outcomes
        # Every option the game lists is a string: a string answer among them is already the
        # option (the canonical comparison is for answers read from JSON).
        if not (type(answer) is str and answer in choices):
            answer = normalise_answer(request, answer)
        events: Events = []
        draft = self._draft(state)
        draft.request = None
        draft.awaiting = None
        self._answerers[type(task)](draft, task, events, str(answer))
        self._check(draft, events)
        self._advance(draft, events)
        return self._freeze(draft), tuple(events)

    def _draft(self, state: IslandState) -> Draft:
        draft = Draft(state)
        # A state this game returned last, with no outcome, has been judged already: the victory
        # check need not look at it again until something changes.
        clear = self._judged_clear
        if (
            clear is not None
            and clear[0] is state.lands
            and clear[1] is state.fear
            and clear[2] is state.spirits
            and state.outcome is None
            and not (state.blight_ran_out or state.time_ran_out)
        ):
            draft.judged, draft.judged_fear = draft.version, state.fear
        return draft

    def _freeze(self, draft: Draft) -> IslandState:
        state = draft.freeze()
        if state.outcome is None and not (state.blight_ran_out or state.time_ran_out):
            self._judged_clear = (state.lands, state.fear, state.spirits)
        return state

    # -- the loop -------------------------------------------------------------------------------

    def _advance(self, s: Draft, ev: Events) -> None:
        runners = self._runners
        agenda = s.agenda
        while s.request is None and agenda:
            if s.outcome is not None and not self.play_on:
                self._game_over(s, ev)
                return
            task = agenda.pop()
            runners[type(task)](s, task, ev)
            if s.judged != s.version or s.judged_fear is not s.fear or s.blight_ran_out or s.time_ran_out:
                self._check(s, ev)
        if s.outcome is not None and not self.play_on:
            self._game_over(s, ev)
            s.request = None
            s.awaiting = None

    def _game_over(self, s: Draft, ev: Events) -> None:
        """The game is over: nothing left on the agenda happens. Fear still owed for destroyed
        pieces is reported as not generated, so the events add up to the outcome."""
        for task in reversed(s.agenda):
            if isinstance(task, GenerateFear) and task.destruction:
                ev.append(
                    _event("fear_not_generated", amount=task.amount, cause=task.cause, reason="game over")
                )
        if isinstance(s.awaiting, GenerateFear) and s.awaiting.destruction and s.awaiting.amount:
            task = s.awaiting
            ev.append(_event("fear_not_generated", amount=task.amount, cause=task.cause, reason="game over"))
        s.agenda.clear()

    def _check(self, s: Draft, ev: Events) -> None:
        """Victory and defeat, right after each change; a simultaneous win and loss is a win."""
        if s.outcome is not None:
            return
        if self.rules.winning_fear == "generated" and s.agenda:
            top = s.agenda[-1]
            if type(top) is GenerateFear and top.destruction:
                return  # the destruction's Fear is part of the same change: judge after it
        fear = s.fear
        if s.judged == s.version and s.judged_fear is fear and not (s.blight_ran_out or s.time_ran_out):
            return  # nothing a victory or a defeat depends on changed since the last look
        s.judged, s.judged_fear = s.version, fear
        win, loss = victory.judge(s.lands, fear, s.spirits, s.blight_ran_out, s.time_ran_out)
        if win is None and loss is None:
            return
        if win is not None:
            reason = (
                win if loss is None else f"{win} (at the same moment as a loss: {loss}; a sacrifice victory)"
            )
            outcome = Outcome("win", reason, s.turn)
        else:
            assert loss is not None
            outcome = Outcome("loss", loss, s.turn)
        ev.append(_event("game_over", result=outcome.result, reason=outcome.reason, turn=s.turn))
        s.outcome = outcome

    def _ask(self, s: Draft, task: Task, kind: str, options: tuple[str, ...], **context: str | int) -> None:
        s.request = DecisionRequest(kind, PLAYERS, options, tuple(context.items()))
        s.awaiting = task

    def _draw(self, s: Draft, task: Task, source: str, outcomes: tuple[str, ...], purpose: str) -> None:
        s.request = ChanceRequest("draw", source, outcomes, purpose)
        s.awaiting = task

    # -- phases and turns ---------------------------------------------------------------------

    def _start_phase(self, s: Draft, task: StartPhase, ev: Events) -> None:
        ev.append(_event("invader_phase_started", turn=s.turn, terror_level=s.fear.terror_level))
        s.push(*_PHASE)

    def _end_phase(self, s: Draft, task: EndPhase, ev: Events) -> None:
        left = s.phases_left - 1
        ev.append(_event("invader_phase_ended", turn=s.turn))
        s.phases_left = left
        if left > 0:
            s.push(*_NEXT_TURN)

    def _time_passes(self, s: Draft, task: TimePasses, ev: Events) -> None:
        ev.append(_event("time_passed", turn=s.turn))
        s.lands = [time_passes(land) for land in s.lands]
        s.version += 1
        s.skips = ()
        s.turn += 1

    def _spirit_inputs(self, s: Draft, task: SpiritInputs, ev: Events) -> None:
        if not s.spirit_phases:
            return
        inputs = s.spirit_phases[0]
        s.spirit_phases = s.spirit_phases[1:]
        for index, amount in inputs.defend:
            land = s.lands[index]
            s.put(index, land.with_defend(land.defend + amount), victory=False)
            ev.append(
                _event("defend_added", land=self.island.lands[index], amount=amount, cause="spirit phase")
            )
        tasks: list[Task] = []
        if inputs.skips:
            tasks.append(ApplyEffects(inputs.skips, "spirit phase"))
        if inputs.fear:
            tasks.append(GenerateFear(inputs.fear, "spirit phase"))
        s.push(*tasks)

    # -- 1. Blighted Island, Event, 2. Fear -------------------------------------------------------

    def _blight_card(self, s: Draft) -> BlightCard | None:
        return self._blight_card_of(s.blight)

    def _blight_card_of(self, track: BlightTrack) -> BlightCard | None:
        name = track.card
        if name is None or name == DRAW:
            return None
        card = self._blight_cards.get(name)
        return card if card is not None else self.rules.data.blight_card(name)

    def _blighted_island(self, s: Draft, task: BlightedIsland, ev: Events) -> None:
        card = self._blight_card(s)
        if card is None or s.blight.side != BLIGHTED or not card.each_phase:
            return
        ev.append(_event("blighted_island", card=card.name))
        s.push(ApplyEffects(card.each_phase, f"Blight card {card.name}"))

    def _event_step(self, s: Draft, task: EventStep, ev: Events, drawn: str | None = None) -> None:
        if drawn is None:
            if not s.events:
                return
            if s.turn <= 1:
                ev.append(_event("event_skipped", reason="first turn"))
                return
            top = s.events[0]
            if top == DRAW:
                seen = set(s.events) | set(s.event_discard)
                options = tuple(name for name in s.event_candidates if name not in seen)
                if not options:
                    raise RulesError("the Event deck has an unknown card but no Event card is left to draw")
                if len(options) > 1:
                    self._draw(s, task, "event-deck", options, f"Event, turn {s.turn}")
                    return
                drawn = options[0]
            else:
                drawn = top
        card = self.rules.data.event(drawn)
        ev.append(_event("event_resolved", card=card.name, turn=s.turn))
        s.events = s.events[1:]
        s.event_discard = (*s.event_discard, card.name)
        s.push(ApplyEffects(card.effects, f"Event {card.name}"))

    def _fear_step(self, s: Draft, task: FearStep, ev: Events) -> None:
        left = task.left
        if left < 0 and self.rules.fear_earned_during == "next-phase":
            left = len(s.fear.earned)  # the stack picked up now; cards earned meanwhile wait
        if not s.fear.earned or left == 0:
            return
        track, name = s.fear.resolve_next()
        level = min(track.terror_level, 3)
        card = self.rules.data.fear_card(name)
        effects = card.effects_at(level)
        ev.append(
            _event(
                "fear_card_resolved",
                card=name,
                terror_level=level,
                effects=tuple(e.describe() for e in effects),
            )
        )
        s.fear = track
        # FearStep again afterwards, for the next card (and, by default, cards earned meanwhile).
        s.push(ApplyEffects(effects, f"Fear card {name}"), task if left < 0 else FearStep(left - 1))

    def _generate_fear(self, s: Draft, task: GenerateFear, ev: Events, drawn: str | None = None) -> None:
        """Move ``task.amount`` markers out of the pool, earning a card each time it empties."""
        if drawn is not None:
            self._earn(s, drawn, task, ev)
            return
        track, taken, due = s.fear.take_markers(task.amount)
        s.fear = track
        if not due:
            ev.append(_fear_generated(task.amount, task.cause, track.in_pool))
            return
        ev.append(_fear_generated(taken, task.cause, track.in_pool))
        rest = GenerateFear(task.amount - taken, task.cause, task.destruction)
        top = track.deck[0]
        if top == DRAW:
            options = draw_options(track)
            if not options:
                raise RulesError("the Fear deck has an unknown card but no Fear card is left to draw")
            if len(options) > 1:
                self._draw(s, rest, "fear-deck", options, f"Fear card {track.earned_total + 1}")
                return
            top = options[0]
        self._earn(s, top, rest, ev)

    def _earn(self, s: Draft, name: str, rest: GenerateFear, ev: Events) -> None:
        before = s.fear.terror_level
        track = s.fear.earn(name)
        s.fear = track
        ev.append(
            _event(
                "fear_card_earned",
                card=name,
                earned=track.earned_total,
                terror_level=min(track.terror_level, 3),
            )
        )
        if track.terror_level != before and track.terror_level <= 3:
            ev.append(_event("terror_level_raised", terror_level=track.terror_level))
        if rest.amount > 0:
            s.push(rest)

    # -- 3. Invader actions ---------------------------------------------------------------------

    def card(self, card_id: str) -> InvaderCard:
        return self._cards[card_id]

    def _slot(self, s: Draft, task: Slot, ev: Events) -> None:
        cards = s.invaders.ravage if task.action == RAVAGE else s.invaders.build
        if not cards:
            ev.append(_event("no_card", action=task.action))
            return
        kept: list[str] = []
        skips = list(s.skips)
        skip = Skip(task.action)
        for card in cards:
            if skip in skips:
                if self.rules.skip_scope == "one-action":
                    skips.remove(skip)
                ev.append(_event("card_skipped", action=task.action, card=card))
                continue
            kept.append(card)
        if self.rules.skip_scope == "whole":
            skips = [k for k in skips if k != skip] if len(kept) < len(cards) else skips
        s.skips = tuple(skips)
        s.push(*(CardAction(task.action, c) for c in kept))

    def _card_action(self, s: Draft, task: CardAction, ev: Events) -> None:
        card = self.card(task.card)
        lands = task.lands
        if lands is None:
            finder = ravage_targets if task.action == RAVAGE else build_targets
            lands = finder(self.island, s.lands, card)
            ev.append(_event("card_lands", action=task.action, card=card.id, lands=self._names(lands)))
        if not lands:
            return
        if task.action == BUILD:
            s.push(*(BuildLand(card.id, i) for i in lands))
            return
        if len(lands) > 1 and self.rules.land_order == "players-choose":
            self._ask(
                s, replace(task, lands=lands), "land-order", self._names(lands), action=RAVAGE, card=card.id
            )
            return
        s.push(RavageLand(card.id, lands[0]), CardAction(task.action, task.card, lands[1:]))

    def _land_chosen(self, s: Draft, task: CardAction, ev: Events, name: str) -> None:
        assert task.lands is not None
        index = self.island.index(name)
        ev.append(_event("land_chosen", card=task.card, land=name))
        rest = tuple(i for i in task.lands if i != index)
        s.push(RavageLand(task.card, index), CardAction(task.action, task.card, rest))

    def _skipped_in(self, s: Draft, action: str, index: int, ev: Events) -> bool:
        """Whether a land skip stops ``action`` in land ``index`` (using the skip up)."""
        if not s.skips:
            return False
        skip = Skip(action, index)
        if skip not in s.skips:
            return False
        ev.append(_event("action_skipped", action=action, land=self.island.lands[index]))
        if self.rules.skip_scope != "whole":
            skips = list(s.skips)
            skips.remove(skip)
            s.skips = tuple(skips)
        return True

    def _quick_ravage(
        self, state: IslandState, task: RavageLand, lands: tuple[Land, ...], index: int
    ) -> Quick | None:
        """:meth:`_quick_ravage_pieces` on counts alone, for a land without damaged pieces or
        Health modifiers (the usual land: Damage and modifiers end when Time Passes): the Dahan
        hit, the Blight, the fight-back and its Fear worked out as numbers, as the plain engines
        do, and one new land built at the end, where the general functions built one per step.
        The same events with the same fields; ``tests/spirit_island/test_quick_path.py``
        compares it with the general path. ``lands`` and ``index``: the state's lands and the
        task's land, as the caller read them."""
        land = lands[index]
        cities, towns, explorers = land.city_count, land.town_count, land.explorer_count
        if not (cities or towns or explorers):
            key = ("ravage_nothing", task.card, index, "")
            return lands, state.blight, state.fear, (self._land_events.get(key) or self._land_event(*key),)
        if land.damaged or land.health or self._counted is None:
            return self._quick_ravage_pieces(state, task)
        strike_key = (task.card, index, cities, towns, explorers, land.dahan_count, land.defend)
        strike = self._strikes.get(strike_key) or self._counted_strike(strike_key)
        dahan, hurt, blighted, event = strike
        events = [event]
        blight = state.blight
        if blighted:
            if land.blight or land.presence:
                return None  # a cascade or Presence destroyed: the general path
            taken = self._counted_blight(state, index)
            if taken is None:
                return None
            blight, event = taken
            events.append(event)
        elif not land.dahan_count:
            return lands, blight, state.fear, tuple(events)  # no Dahan, no Blight: the same land
        hurt_dahan = ((DAHAN, hurt, 1),) if hurt else ()
        land_blight = 1 if blighted else land.blight  # an int, as the land writes it
        fear = state.fear
        if not (dahan and self._counted[4]):  # no Dahan left to fight back (or they deal none)
            after = make_land(
                cities, towns, explorers, dahan, hurt_dahan, land_blight, land.presence, land.defend, ()
            )
            changed = list(lands)
            changed[index] = after
            return tuple(changed), blight, fear, tuple(events)
        struck = (cities, towns, explorers, dahan, hurt_dahan, land_blight)
        fought = self._counted_fight_back(index, land, struck, fear, events)
        if fought is None:
            return None
        after, fear, destroyed = fought
        changed = list(lands)
        changed[index] = after
        lands = tuple(changed)
        # Invaders gone: a Terror Level victory can follow. Nothing else can: the state was judged
        # clear before (_quick_one), and a counted Ravage earns no Fear card (the general path
        # does) and changes no Presence, so what victory.judge adds would find what it found.
        if destroyed and victory.terror_victory(lands, fear.terror_level) is not None:
            return None
        return lands, blight, fear, tuple(events)

    def _counted_strike(self, key: tuple[Any, ...]) -> tuple[int, int, bool, Event]:
        """The Invaders' half on counts, ``key`` being the card, the land index, its Cities,
        Towns, Explorers, Dahan and Defend: the Dahan left, the Damage on the one hurt (0: none),
        whether the land takes Blight, and the ``ravaged`` event. Remembered by ``key``
        (bounded): the same numbers strike the same way in every state, branch and turn."""
        card, index, cities, towns, explorers, dahan, defend = key
        per_explorer, per_town, per_city, dahan_health, _ = self._counted  # type: ignore[misc]
        damage = explorers * per_explorer + towns * per_town + cities * per_city
        hits = damage - defend if damage > defend else 0
        destroyed = hurt = 0
        if hits and dahan:  # efficient Damage: whole Dahan first, the rest on one survivor
            destroyed = min(dahan, hits // dahan_health)
            dahan -= destroyed
            left = hits - destroyed * dahan_health
            if left and dahan:
                hurt = left
        blighted = hits >= self.rules.blight_threshold
        shared = ("ravaged", card, index, damage, defend, hits, destroyed, 1 if hurt else 0, blighted)
        strike = (dahan, hurt, blighted, self._land_events.get(shared) or self._share(shared))
        if len(self._strikes) >= 4096:  # bounded
            self._strikes.clear()
        self._strikes[key] = strike
        return strike

    def _counted_blight(self, state: IslandState, index: int) -> tuple[BlightTrack, Event] | None:
        """A Blight taken for land ``index`` (which had none and no Presence): the track and the
        event; ``None`` when the card flips, runs out or loses (the general path)."""
        track = state.blight
        pool = track.pool
        if pool > 1:  # blight_taken's answer under either reading of SI-BLIGHT-EMPTY, without the card
            blight = _blight_track(track.card, track.side, pool - 1)
        else:
            card = self._blight_card_of(track)
            blight, available, flipped, lost = blight_taken(
                track, card, state.players, self.rules.blight_empty
            )
            if not available or flipped or lost:
                return None
        key = ("blight_added", index, "ravage", blight.pool, blight.side)
        return blight, self._land_events.get(key) or self._share(key)

    def _counted_fight_back(
        self, index: int, land: Land, struck: tuple[Any, ...], fear: FearTrack, events: Events
    ) -> tuple[Land, FearTrack, bool] | None:
        """The surviving Dahan fight back in land ``index``, struck to ``struck`` (the counts,
        the hurt Dahan and the Blight after the Invaders' half): the land after, the Fear track
        and whether Invaders were destroyed, the events appended; ``None`` for a choice or a
        Fear card earned (the general path)."""
        cities, towns, explorers, dahan, hurt_dahan, land_blight = struck
        key: tuple[Any, ...] = (index, cities, towns, explorers, dahan)
        fight = self._fights.get(key, _UNSEEN)
        if fight is _UNSEEN:
            fight = self._fight_on_counts(key, land, hurt_dahan)
        if not fight:  # a choice (the general path) or Damage left on a piece (piece by piece)
            return None if fight is None else self._fight_on_pieces(index, land, struck, fear, events)
        cities, towns, explorers, gained, fought, destroyed = fight
        events += fought
        after = make_land(
            cities, towns, explorers, dahan, hurt_dahan, land_blight, land.presence, land.defend, ()
        )
        if gained:
            in_pool = fear.in_pool
            if gained < in_pool:  # FearTrack.take_markers when the pool does not empty, without the calls
                fear = _fear_track(
                    fear.pool_size,
                    in_pool - gained,
                    fear.deck,
                    fear.per_level,
                    fear.earned_total,
                    fear.earned,
                    fear.discard,
                    fear.generated + gained,
                    fear.candidates,
                )
            else:
                fear, _taken, due = fear.take_markers(gained)
                if due:
                    return None
            key = ("fear_generated", gained, index, fear.in_pool)
            events.append(self._land_events.get(key) or self._share(key))
        return after, fear, destroyed

    def _fight_on_counts(
        self, key: tuple[Any, ...], land: Land, hurt_dahan: Damaged
    ) -> tuple[int, int, int, int, tuple[Event, ...], bool] | bool | None:
        """The fight-back of ``key``'s Dahan (land index, Cities, Towns, Explorers, Dahan, no
        Invader damaged) when it has one allocation that destroys every piece it hits: the counts
        after, the Fear gained, the events (``dahan_fought_back``, then each piece destroyed) and
        whether any was destroyed. ``None``: a choice; ``False``: the allocation leaves Damage on a
        piece. Remembered by ``key`` (bounded, like the allocations): the same numbers fight back
        the same way in every state, branch and turn."""
        index, cities, towns, explorers, dahan = key
        amount = self._counted[4] * dahan  # type: ignore[index]
        options = self._allocation_cache.get((cities, towns, explorers, (), (), amount))  # _allocations' key
        if options is None:
            options = self._allocations(land.with_counts(cities, towns, explorers, dahan, hurt_dahan), amount)
        fight: tuple[int, int, int, int, tuple[Event, ...], bool] | bool | None
        if len(options) > 1:
            fight = None
        elif len(options[0].destroyed) != len(options[0].parts):
            fight = False
        else:
            allocation = options[0]
            shared = ("dahan_fought_back", index, dahan, amount, allocation.label)
            fought = [self._land_events.get(shared) or self._share(shared)]
            for kind in allocation.destroyed:
                if kind is CITY:
                    cities -= 1
                elif kind is TOWN:
                    towns -= 1
                else:
                    explorers -= 1
                fought.append(self._destroyed_by_dahan(index, kind))
            fight = (cities, towns, explorers, allocation.fear, tuple(fought), bool(allocation.destroyed))
        if len(self._fights) >= 4096:  # bounded
            self._fights.clear()
        self._fights[key] = fight
        return fight

    def _fight_on_pieces(
        self, index: int, land: Land, struck: tuple[Any, ...], fear: FearTrack, events: Events
    ) -> tuple[Land, FearTrack, bool] | None:
        """:meth:`_counted_fight_back` when its one allocation leaves Damage on a piece: dealt
        piece by piece (:meth:`_dealt`)."""
        cities, towns, explorers, dahan, hurt_dahan, _land_blight = struck
        amount = self._counted[4] * dahan  # type: ignore[index]
        allocation = self._allocations(land.with_counts(cities, towns, explorers, dahan, hurt_dahan), amount)[
            0
        ]
        key: tuple[Any, ...] = ("dahan_fought_back", index, dahan, amount, allocation.label)
        events.append(self._land_events.get(key) or self._share(key))
        struck_land = make_land(*struck, land.presence, land.defend, ())
        after, gained = self._dealt(index, struck_land, allocation, "dahan", events)
        if gained:
            fear, _taken, due = fear.take_markers(gained)
            if due:
                return None
            key = ("fear_generated", gained, index, fear.in_pool)
            events.append(self._land_events.get(key) or self._share(key))
        return after, fear, bool(allocation.destroyed)

    def _destroyed_by_dahan(self, index: int, kind: PieceKind) -> Event:
        """The event of a ``kind`` destroyed by fighting Dahan in land ``index``: the same value
        every time, so it is made once per land and kind."""
        key = (index, kind)
        event = self._destroyed_events.get(key)
        if event is None:
            value = _KIND_VALUE[kind]
            event = self._destroyed_events[key] = _new_event(
                "invader_destroyed",
                (
                    ("land", self.island.lands[index]),
                    ("piece", value),
                    ("cause", "dahan"),
                    ("fear", self.rules.stats.of(kind).fear),
                    ("was", value),
                ),
            )
        return event

    def _quick_ravage_pieces(self, state: IslandState, task: RavageLand) -> Quick | None:
        """A Ravage in one land as the general path plays it (:meth:`_ravage_land`, then
        :meth:`_add_blight`, :meth:`_fight_back` and :meth:`_generate_fear`), when it asks
        nothing and ends nothing: ``None`` (the general path plays it, from the start) at a
        cascade, Presence destroyed, the Blight card flipping or running out, a fight-back
        choice, a Fear card earned, or a victory or defeat. Judging once at the end is enough:
        a Ravage only removes pieces and Presence and raises the Terror Level, so anything an
        earlier look would have found, the last one finds."""
        lands = state.lands
        index = task.land
        land = lands[index]
        if not land.has_invaders:
            return lands, state.blight, state.fear, (self._ravage_nothing(task),)
        rules = self.rules
        strike = strike_parts(land, rules.stats, rules.blight_threshold)
        events = [self._ravaged(task, strike)]
        land = strike[4]
        blight = state.blight
        if strike[3]:  # the land takes Blight
            if land.blight or land.presence:
                return None
            card = self._blight_card_of(blight)
            blight, available, flipped, lost = blight_taken(blight, card, state.players, rules.blight_empty)
            if not available or flipped or lost:
                return None
            land = land.with_blight(1)
            events.append(self._blight_added(index, "ravage", blight))
        fear = state.fear
        if land.has_invaders:
            damage = fight_back_damage(land, rules.stats)
            if damage:
                options = self._allocations(land, damage)
                if len(options) > 1:
                    return None
                events.append(self._fought_back(index, land, damage, options[0]))
                land, amount = self._dealt(index, land, options[0], "dahan", events)
                if amount:
                    track, _taken, due = fear.take_markers(amount)
                    if due:
                        return None
                    fear = track
                    events.append(_fear_generated(amount, self._destroyed_in[index], track.in_pool))
                lands = _with_land(lands, index, land)
                win, loss = victory.judge(lands, fear, state.spirits, False, False)
                if win is not None or loss is not None:
                    return None
                return lands, blight, fear, tuple(events)
        return _with_land(lands, index, land), blight, fear, tuple(events)

    def _ravage_nothing(self, task: RavageLand) -> Event:
        key = ("ravage_nothing", task.card, task.land, "")
        return self._land_events.get(key) or self._land_event(*key)

    def _share(self, key: tuple[Any, ...]) -> Event:
        """The event a counted Ravage (:meth:`_quick_ravage`) keys as ``(kind, *values)``, made
        once and kept in ``_land_events`` like :meth:`_land_event`'s: a Ravage's events follow
        from a handful of numbers that recur from turn to turn and from branch to branch of a
        search. Every value keeps its type at its place in the key (a bool is never where an int
        is), so equal keys make identical events."""
        kind, *values = key
        names = self.island.lands
        if kind == "ravaged":
            card, index, damage, defend, hits, destroyed, damaged, blighted = values
            event = _new_event(
                kind,
                (
                    ("card", card),
                    ("land", names[index]),
                    ("damage", damage),
                    ("defend", defend),
                    ("hits", hits),
                    ("dahan_destroyed", destroyed),
                    ("dahan_damaged", damaged),
                    ("land_blighted", blighted),
                ),
            )
        elif kind == "blight_added":
            index, cause, pool, side = values
            event = _new_event(
                kind, (("land", names[index]), ("cause", cause), ("pool", pool), ("side", side))
            )
        elif kind == "dahan_fought_back":
            index, dahan, damage, label = values
            event = _new_event(
                kind, (("land", names[index]), ("dahan", dahan), ("damage", damage), ("allocation", label))
            )
        else:  # fear_generated
            amount, index, pool = values
            event = _fear_generated(amount, self._destroyed_in[index], pool)
        if len(self._land_events) >= 4096:  # bounded
            self._land_events.clear()
        self._land_events[key] = event
        return event

    def _land_event(self, kind: str, card: str, index: int, detail: str = "") -> Event:
        """The event of a single-land action whose fields follow from its card, its land and
        ``detail`` alone (a Ravage or Build finding no Invaders, a Build's piece, an Explore in
        the land, ``detail`` "here", or not): made once and shared, as events are immutable
        values (building one cost as much as the rest of a Build). Callers look the key up in
        ``_land_events`` first (an event is never false) and call this when it is not there."""
        key = (kind, card, index, detail)
        event = self._land_events.get(key)
        if event is None:
            name = self.island.lands[index]
            if kind == "built":
                fields: tuple[tuple[str, Any], ...] = (("card", card), ("land", name), ("piece", detail))
            elif kind == "explored":
                fields = (("card", card), ("lands", (name,) if detail else ()))
            else:
                fields = (("card", card), ("land", name))
            if len(self._land_events) >= 4096:  # bounded: card ids come from data
                self._land_events.clear()
            event = self._land_events[key] = _new_event(kind, fields)
        return event

    def _ravaged(self, task: RavageLand, strike: StrikeParts) -> Event:
        damage, defend, hits, blight, _land, destroyed, damaged = strike
        return _new_event(
            "ravaged",
            (
                ("card", task.card),
                ("land", self.island.lands[task.land]),
                ("damage", damage),
                ("defend", defend),
                ("hits", hits),
                ("dahan_destroyed", destroyed),
                ("dahan_damaged", damaged),
                ("land_blighted", blight),
            ),
        )

    def _ravage_land(self, s: Draft, task: RavageLand, ev: Events) -> None:
        if s.skips and self._skipped_in(s, RAVAGE, task.land, ev):
            return
        land = s.lands[task.land]
        if not land.has_invaders:
            ev.append(self._ravage_nothing(task))
            return
        rules = self.rules
        strike = strike_parts(land, rules.stats, rules.blight_threshold)
        ev.append(self._ravaged(task, strike))
        s.put(task.land, strike[4], victory=False)  # only its Dahan changed
        if strike[3]:  # the land takes Blight
            s.push(AddBlight(task.land, "ravage"), FightBack(task.land))
        else:
            s.push(FightBack(task.land))

    def _blight_added(self, index: int, cause: str, track: BlightTrack) -> Event:
        return _new_event(
            "blight_added",
            (
                ("land", self.island.lands[index]),
                ("cause", cause),
                ("pool", track.pool),
                ("side", track.side),
            ),
        )

    def _add_blight(self, s: Draft, task: AddBlight, ev: Events) -> None:
        name = self.island.lands[task.land]
        card = self._blight_card(s)
        track, available, flipped, lost = blight_taken(s.blight, card, s.players, self.rules.blight_empty)
        s.blight = track
        if not available and not self.play_on:
            ev.append(_event("blight_unavailable", land=name, cause=task.cause))
            s.blight_ran_out = True
            return
        land = s.lands[task.land]
        had = land.blight > 0
        presence = land.presence
        land = land.with_blight(land.blight + 1)
        ev.append(self._blight_added(task.land, task.cause, track))
        for spirit, _ in presence:
            land = land.with_presence(spirit, -1)
            ev.append(_event("presence_destroyed", land=name, spirit=spirit, cause="blight added"))
        # Blight itself decides no victory or defeat; Presence destroyed can (a Spirit gone).
        s.put(task.land, land, victory=bool(presence))
        tasks: list[Task] = []
        if flipped:
            ev.append(_event("blight_card_flipped", card=s.blight.card, pool=track.pool))
            if card is not None and card.on_flip:
                tasks.append(ApplyEffects(card.on_flip, f"Blight card {card.name} (flip)"))
        if lost:
            s.blight_ran_out = True
        # In play-on analysis the game is already lost once the card runs out; Blight past that
        # point does not cascade, or a fully blighted island would cascade for ever.
        if had and not (self.play_on and s.blight_ran_out):
            tasks.append(Cascade(task.land))
        if tasks:
            s.push(*tasks)

    def _cascade_options(self, s: Draft, origin: int) -> tuple[str, ...]:
        near = self.island.neighbours(origin)
        clear = [i for i in near if s.lands[i].blight == 0]
        blighted = [i for i in near if s.lands[i].blight > 0]
        return self._names(tuple(clear + blighted))

    def _cascade(self, s: Draft, task: Cascade, ev: Events, chosen: str | None = None) -> None:
        origin = self.island.lands[task.origin]
        if chosen is None:
            options = self._cascade_options(s, task.origin)
            if not options:
                ev.append(_event("cascade_impossible", origin=origin))
                return
            if len(options) > 1 and self.rules.cascade_chooser == "players":
                self._ask(s, task, "cascade", options, origin=origin)
                return
            chosen = options[0]
        ev.append(_event("blight_cascaded", origin=origin, land=chosen))
        s.push(AddBlight(self.island.index(chosen), f"cascade from {origin}"))

    def _fought_back(self, index: int, land: Land, damage: int, allocation: Allocation) -> Event:
        return _new_event(
            "dahan_fought_back",
            (
                ("land", self.island.lands[index]),
                ("dahan", land.count(DAHAN)),
                ("damage", damage),
                ("allocation", allocation.label),
            ),
        )

    def _fight_back(self, s: Draft, task: FightBack, ev: Events, chosen: str | None = None) -> None:
        land = s.lands[task.land]
        if not land.has_invaders:
            return
        damage = fight_back_damage(land, self.rules.stats)
        if damage == 0:
            return
        options = self._allocations(land, damage)
        if chosen is None:
            if len(options) > 1:
                self._ask(
                    s,
                    task,
                    "fight-back",
                    tuple(a.label for a in options),
                    land=self.island.lands[task.land],
                    damage=damage,
                    pieces=describe(land),
                )
                return
            allocation = options[0]
        else:
            allocation = next(a for a in options if a.label == chosen)
        ev.append(self._fought_back(task.land, land, damage, allocation))
        self._deal(s, task.land, allocation, "dahan", ev)

    def _allocations(self, land: Land, amount: int) -> tuple[Allocation, ...]:
        """:func:`allocations` with this game's piece numbers, remembered per pieces and amount
        (a fight-back lists them again and again for the same few lands)."""
        # The Invaders' counts and Damage (the Dahan take none of it): plain ints and tuples,
        # hashed in C, where a tuple of Piece values called a Python __hash__ per piece.
        damaged = land.damaged
        if damaged and damaged[-1][0] is DAHAN:  # Dahan sort last
            damaged = tuple(entry for entry in damaged if entry[0] is not DAHAN)
        key = (land.city_count, land.town_count, land.explorer_count, damaged, land.health, amount)
        found = self._allocation_cache.get(key)
        if found is None:
            if len(self._allocation_cache) >= 4096:  # bounded memory in long searches
                self._allocation_cache.clear()
            found = self._allocation_cache[key] = allocations(
                land, self.rules.stats, amount, over=self.rules.over_allocation
            )
        return found

    def _dealt(
        self, index: int, land: Land, allocation: Allocation, cause: str, ev: Events
    ) -> tuple[Land, int]:
        """``allocation`` dealt to ``land`` (land ``index``): the land after, and the Fear of the
        pieces it destroyed (their events appended to ``ev``)."""
        stats = self.rules.stats
        land, destroyed = apply_allocation(land, stats, allocation)
        name = self.island.lands[index]
        fear = 0
        for kind in destroyed:
            piece_fear = stats.of(kind).fear
            fear += piece_fear
            value = _KIND_VALUE[kind]
            ev.append(
                _new_event(
                    "invader_destroyed",
                    (
                        ("land", name),
                        ("piece", value),
                        ("cause", cause),
                        ("fear", piece_fear),
                        ("was", value),
                    ),
                )
            )
        return land, fear

    def _deal(self, s: Draft, index: int, allocation: Allocation, cause: str, ev: Events) -> None:
        land, fear = self._dealt(index, s.lands[index], allocation, cause, ev)
        s.put(index, land)
        if fear:
            s.push(GenerateFear(fear, self._destroyed_in[index], destruction=True))

    # A Build or an Explore in one land: ``change(lands, task)`` gives the land after it (``None``:
    # unchanged) and its event; the draft path (skips honoured) and the quick path share it.
    def _one_land(
        self,
        action: str,
        change: Callable[[Any, Any], tuple[Land | None, Event]],
    ) -> Callable[[Draft, Any, Events], None]:
        def on_draft(s: Draft, task: Any, ev: Events) -> None:
            if s.skips and self._skipped_in(s, action, task.land, ev):
                return
            land, event = change(s.lands, task)
            ev.append(event)
            if land is not None:
                s.put(task.land, land, victory=False)

        return on_draft

    def _build_in(self, lands: tuple[Land, ...] | list[Land], task: BuildLand) -> tuple[Land | None, Event]:
        """A Build in one land: the land after it (``None``: unchanged) and the event."""
        land = lands[task.land]
        cities, towns = land.city_count, land.town_count
        if not (cities or towns or land.explorer_count):
            key = ("build_nothing", task.card, task.land, "")
            return None, self._land_events.get(key) or self._land_event(*key)
        piece = built_piece(land)
        if piece is CITY:  # Land.add on the counts at hand
            cities += 1
        else:
            towns += 1
        key = ("built", task.card, task.land, _KIND_VALUE[piece])
        event = self._land_events.get(key) or self._land_event(*key)
        after = make_land(
            cities,
            towns,
            land.explorer_count,
            land.dahan_count,
            land.damaged,
            land.blight,
            land.presence,
            land.defend,
            land.health,
        )
        return after, event

    def _explore_step(self, s: Draft, task: ExploreStep, ev: Events, drawn: str | None = None) -> None:
        if drawn is None:
            if not s.invaders.deck:
                ev.append(_event("time_ran_out", turn=s.turn))
                s.time_ran_out = True
                return
            top = s.invaders.deck[0]
            stage = entry_stage(top)
            if stage is not None:
                options = invader_draw_options(s.invaders, stage, self.rules.data.invader_cards)
                if not options:
                    raise RulesError(
                        f"the Invader deck needs a Stage {stage} card but every Stage {stage} card is already seen"
                    )
                if len(options) > 1:
                    self._draw(s, task, f"invader-stage-{stage}", options, f"Explore card, turn {s.turn}")
                    return
                drawn = options[0]
            else:
                drawn = top
        card = self.card(drawn)
        s.invaders = replace(s.invaders, deck=s.invaders.deck[1:], explore=(*s.invaders.explore, card.id))
        ev.append(_event("card_revealed", card=card.id, stage=card.stage, turn=s.turn))
        escalate = s.adversary is not None and card.escalates(self.rules.coastal_flag)
        if not escalate:
            s.push(ExploreCard(card.id))
        elif self.rules.escalation_timing == "before-explore":
            s.push(Escalate(card.id), ExploreCard(card.id))
        else:
            s.push(ExploreCard(card.id), Escalate(card.id))

    def _escalate(self, s: Draft, task: Escalate, ev: Events) -> None:
        assert s.adversary is not None
        adversary = self.rules.data.adversary(s.adversary)
        ev.append(_event("escalation", adversary=adversary.name, card=task.card))
        s.push(ApplyEffects(adversary.escalation, f"Escalation ({adversary.name})", task.card))

    def _explore_card(self, s: Draft, task: ExploreCard, ev: Events) -> None:
        card = self.card(task.card)
        skip = Skip(EXPLORE)
        if skip in s.skips:
            skips = list(s.skips)
            if self.rules.skip_scope == "one-action":
                skips.remove(skip)
            ev.append(_event("card_skipped", action=EXPLORE, card=card.id))
            s.skips = tuple(skips)
            return
        targets = explore_targets(self.island, s.lands, card)
        explored = []
        for i in targets:
            if self._skipped_in(s, EXPLORE, i, ev):
                continue
            s.put(i, s.lands[i].add(EXPLORER), victory=False)
            explored.append(i)
        ev.append(_event("explored", card=card.id, lands=self._names(tuple(explored))))

    def _explore_in(
        self, lands: tuple[Land, ...] | list[Land], task: ExploreLand
    ) -> tuple[Land | None, Event]:
        """An Explore in one land: the land after it (``None``: unchanged) and the event."""
        index = task.land
        if not explorers_reach(self.island, lands, index):
            key = ("explored", task.card, index, "")
            return None, self._land_events.get(key) or self._land_event(*key)
        key = ("explored", task.card, index, "here")
        event = self._land_events.get(key) or self._land_event(*key)
        land = lands[index]
        after = make_land(  # Land.add(EXPLORER) without the call
            land.city_count,
            land.town_count,
            land.explorer_count + 1,
            land.dahan_count,
            land.damaged,
            land.blight,
            land.presence,
            land.defend,
            land.health,
        )
        return after, event

    def _advance_cards(self, s: Draft, task: Advance, ev: Events) -> None:
        board = s.invaders.advance()
        ev.append(
            _event("cards_advanced", ravage=board.ravage, build=board.build, discard=len(board.discard))
        )
        s.invaders = board

    def _draw_blight_card(self, s: Draft, task: DrawBlightCard, ev: Events, drawn: str | None = None) -> None:
        if drawn is None:
            options = tuple(c.name for c in self.rules.data.blight_cards)
            if len(options) > 1:
                self._draw(s, task, "blight-cards", options, "Blight card at setup")
                return
            drawn = options[0]
        card = self.rules.data.blight_card(drawn)
        pool = card.healthy_per_player * s.players + self.rules.data.value("blight_setup_extra")
        ev.append(_event("blight_card_drawn", card=card.name, pool=pool))
        s.blight = replace(s.blight, card=card.name, pool=pool)

    # -- effects -----------------------------------------------------------------------------------

    def _matching(self, s: Draft, where: Where, card_id: str) -> tuple[int, ...]:
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

    def _apply_effects(self, s: Draft, task: ApplyEffects, ev: Events) -> None:
        if len(task.effects) > 1:
            s.push(*(ApplyEffects((e,), task.origin, task.card) for e in task.effects))
        elif task.effects:
            self._effect(s, task, ev)

    def _effect(self, s: Draft, task: ApplyEffects, ev: Events) -> None:
        effect = task.effects[0]
        ev.append(_event("effect", origin=task.origin, effect=effect.describe()))
        if effect.kind == "fear":
            s.push(GenerateFear(effect.amount, task.origin))
            return
        lands = self._matching(s, effect.where, task.card)
        if effect.kind == "defend":
            for i in lands:
                s.put(i, s.lands[i].with_defend(s.lands[i].defend + effect.amount), victory=False)
                ev.append(
                    _event("defend_added", land=self.island.lands[i], amount=effect.amount, cause=task.origin)
                )
            return
        if effect.kind == "skip":
            if effect.scope == "card":
                ev.append(_event("skip_added", action=effect.action, land=None))
                s.skips = (*s.skips, Skip(effect.action))
                return
            for i in lands:
                ev.append(_event("skip_added", action=effect.action, land=self.island.lands[i]))
            s.skips = s.skips + tuple(Skip(effect.action, i) for i in lands)
            return
        if effect.kind == "add":
            if effect.piece == "blight":
                s.push(*(AddBlight(i, task.origin) for i in lands for _ in range(effect.count)))
                return
            kind = effect.piece_kind
            for i in lands:
                s.put(i, s.lands[i].add(kind, effect.count), victory=False)
                ev.append(
                    _event(
                        "piece_added",
                        land=self.island.lands[i],
                        piece=kind.value,
                        count=effect.count,
                        cause=task.origin,
                    )
                )
            return
        if effect.kind == "damage":
            s.push(*(DamageLand(effect.amount, i, task.origin) for i in lands if s.lands[i].has_invaders))
            return
        if effect.kind == "health":
            fear_tasks: list[Task] = []
            for i in lands:
                land, changes = change_health(s.lands[i], effect.piece_kind, effect.delta, self.rules.stats)
                s.put(i, land)
                ev.append(
                    _event(
                        "health_changed", land=self.island.lands[i], piece=effect.piece, delta=effect.delta
                    )
                )
                fear = self._report_changes(i, changes, task.origin, ev)
                if fear:
                    fear_tasks.append(
                        GenerateFear(fear, f"destroyed in {self.island.lands[i]}", destruction=True)
                    )
            s.push(*fear_tasks)
            return
        # remove / destroy / downgrade / upgrade: piece by piece, the players choosing among
        # pieces that differ in Damage.
        s.push(*(PieceEffect(effect, task.origin, i, effect.count) for i in lands))

    def _piece_effect(self, s: Draft, task: PieceEffect, ev: Events, chosen: str | None = None) -> None:
        land = s.lands[task.land]
        kind = task.effect.piece_kind
        candidates = tuple(dict.fromkeys(p.label for p in land.pieces if p.kind is kind))
        if task.left <= 0 or not candidates:
            return
        if chosen is None:
            if len(candidates) > 1:
                self._ask(
                    s,
                    task,
                    "choose-piece",
                    candidates,
                    land=self.island.lands[task.land],
                    effect=task.effect.describe(),
                )
                return
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
        s.put(task.land, land)
        fear = self._report_changes(task.land, (change,), task.origin, ev)
        rest = replace(task, left=task.left - 1)
        name = self.island.lands[task.land]
        s.push(*((GenerateFear(fear, f"destroyed in {name}", destruction=True),) if fear else ()), rest)

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
                    _event(
                        "invader_destroyed",
                        land=name,
                        piece=change.destroyed_kind.value,
                        cause=origin,
                        fear=piece_fear,
                        was=change.before.kind.value,
                    )
                )
            elif change.result == "removed":
                ev.append(_event("piece_removed", land=name, piece=change.before.kind.value, cause=origin))
            else:
                assert change.after is not None
                ev.append(
                    _event(
                        "piece_replaced",
                        land=name,
                        piece=change.before.label,
                        becomes=change.after.label,
                        cause=origin,
                    )
                )
        return fear

    def _damage_land(self, s: Draft, task: DamageLand, ev: Events, chosen: str | None = None) -> None:
        name = self.island.lands[task.land]
        land = s.lands[task.land]
        if not land.has_invaders:
            return
        options = self._allocations(land, task.amount)
        if chosen is None:
            if len(options) > 1:
                self._ask(
                    s,
                    task,
                    "damage",
                    tuple(a.label for a in options),
                    land=name,
                    damage=task.amount,
                    pieces=describe(land),
                )
                return
            allocation = options[0]
        else:
            allocation = next(a for a in options if a.label == chosen)
        ev.append(
            _event(
                "damage_dealt", land=name, damage=task.amount, allocation=allocation.label, cause=task.origin
            )
        )
        self._deal(s, task.land, allocation, task.origin, ev)

    def _names(self, lands: tuple[int, ...]) -> tuple[str, ...]:
        names = self.island.lands
        return tuple(names[i] for i in lands)


_KIND_VALUE = {kind: kind.value for kind in PieceKind}  # ``kind.value`` is a Python-level property


def _fear_generated(amount: int, cause: str, pool: int) -> Event:
    return _new_event("fear_generated", (("amount", amount), ("cause", cause), ("pool", pool)))


_UNSEEN: Any = object()  # a memo's answer not worked out yet (None is an answer)

_new_state = tuple.__new__  # an IslandState from its field values in one go (see state.py)


def _with_land(lands: tuple[Land, ...], index: int, land: Land) -> tuple[Land, ...]:
    changed = list(lands)
    changed[index] = land
    return tuple(changed)


def _holds(land: Land, word: str) -> bool:
    if word == "blight":
        return land.blight > 0
    if word == "invaders":
        return land.has_invaders
    kind = PieceKind(word)
    return land.count(kind) > 0


def effect_lands(effect: Effect) -> tuple[str, ...]:
    """Land names an effect names explicitly (the scenario loader checks they exist)."""
    return effect.where.lands


__all__ = ["INVADERS", "InvaderPhaseGame", "Piece", "Rules", "effect_lands"]

"""The Vul'Keth solo game as a pure game: ``start`` / ``pending`` / ``step`` over :class:`GameState`.

Rounds alternate a scripted player turn and an Invader turn, player first (seed 003, How to
Play). The player turn follows the base game's order as far as it is known (research notes
§1.3): score villages, roll two dice (doubles trigger an Invader Event, ruling
``VK-EVENT-TIMING``), place each die and take its action, resolve conflicts, build villages and
score goals, and, for the Vul'Keth tribe, Seize. The Invader turn runs the seed's steps in order:
re-place after a wipe-out, check last turn's goal, draw, take the card's two actions, summon.
The win is checked after every task: the player at the winning score, the Invader at its fifth
Warlord. The game stops when it is won or when the script has no player turn left.

The game never chooses and never rolls. Decision kinds (player ``player``):

==================  ==============================================================================
``place-die``       the action a die goes to, when the script leaves it open: action names
``warlord-token``   which token of the Warlord Board becomes the Warlord (asked only under
                    ``VK-POWER-UNLOCK=by-section``, where it matters): section names, board order
``pillage``         the resource Pillage takes: ``food``, ``wood``, ``stone``, or ``decline``
``appease``         which Warlord an 'Appease the Volcano' effect removes: hex numbers
``regress-tech``    which Bronze technology turns back a step: technology names
==================  ==============================================================================

Chance kinds: ``roll`` (source ``die``: a face, repeated by its count on the die) and ``draw``
(sources ``invader-deck-1`` / ``-2`` / ``-3`` and ``invader-events``: card ids, equally likely).
A request with one option is not asked; the events say what happened.
"""

from __future__ import annotations

from dataclasses import dataclass

from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest, Option, normalise_answer
from invasion_oracle.model.core.errors import MalformedInputError, RulesError
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.frozen import replace
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.vulketh.action_board import ACTIONS, strength
from invasion_oracle.model.vulketh.cards import RESOURCE_KINDS, Effect
from invasion_oracle.model.vulketh.conflict import BUILT_IN, ConflictRule
from invasion_oracle.model.vulketh.data import GameData
from invasion_oracle.model.vulketh.effects import EFFECT_KINDS, goal_met
from invasion_oracle.model.vulketh.hexmap import HexMap
from invasion_oracle.model.vulketh.invader_actions import (
    grouped,
    grow_targets,
    hex_order,
    move_invaders,
    warlord_target,
)
from invasion_oracle.model.vulketh.state import (
    INVADERS,
    PLAYER,
    Appease,
    ApplyEffects,
    CheckDoubles,
    CheckGoal,
    Conflict,
    DrawCard,
    DrawEvent,
    EndInvaderTurn,
    EndPlayerTurn,
    GameState,
    Hex,
    InvaderTurn,
    Lead,
    Outcome,
    Pillage,
    PlaceDie,
    PlaceWarlord,
    PlayerAction,
    PlayerBuild,
    PlayerConflicts,
    Power,
    RegressTech,
    Resources,
    Rival,
    RollDie,
    Round,
    ScoreVillages,
    Seize,
    Setup,
    Summon,
    TakeCardAction,
    Task,
    WipeOut,
)

Events = list[Event]
VULKETH = "vulketh"
PILLAGE_OPTIONS = (*RESOURCE_KINDS, "decline")


@dataclass(frozen=True)
class Rules:
    """The rulings in force (read once), the data, the map, the conflict rule, the player's tribe,
    the rival tribes, the difficulty and the scenario file (for error messages)."""

    rulings: Rulings
    data: GameData
    map: HexMap
    conflict: ConflictRule
    tribe: str = "standard"
    rivals: tuple[Rival, ...] = ()
    difficulty: str = "normal"
    source: str = "scenario"

    @staticmethod
    def of(
        rulings: Rulings,
        data: GameData,
        *,
        hex_map: HexMap | None = None,
        conflict: ConflictRule | None = None,
        tribe: str = "standard",
        rivals: tuple[Rival, ...] = (),
        difficulty: str = "normal",
        source: str = "scenario",
    ) -> Rules:
        rule = conflict or BUILT_IN[rulings.reading("VK-CONFLICT")]
        return Rules(rulings, data, hex_map or data.map, rule, tribe, rivals, difficulty, source)

    def reading(self, ruling_id: str) -> str:
        return self.rulings.reading(ruling_id)

    @property
    def cap(self) -> int:
        return self.data.value("population_limit")

    @property
    def invaders_per_start_hex(self) -> int:
        return self.data.value(f"{self.difficulty}_invaders")


class VulkethGame:
    """Rules in force for one game, plus the pure step function."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.data = rules.data
        self.map = rules.map

    # -- the pure interface ---------------------------------------------------------------------

    def start(self, state: GameState) -> tuple[GameState, tuple[Event, ...]]:
        """Run a fresh state to its first request; returns the opening events."""
        events: Events = []
        return self._advance(state, events), tuple(events)

    def pending(self, state: GameState) -> DecisionRequest | ChanceRequest | None:
        return state.request

    def step(self, state: GameState, answer: Option) -> tuple[GameState, tuple[Event, ...]]:
        request, task = state.request, state.awaiting
        if request is None or task is None:
            raise RulesError("the game is over; nothing is pending")
        answer = normalise_answer(request, answer)
        events: Events = []
        state = state.evolve(request=None, awaiting=None)
        state = self._check(self._answer(state, task, answer, events), events)
        return self._advance(state, events), tuple(events)

    # -- the loop ---------------------------------------------------------------------------------

    def _advance(self, s: GameState, ev: Events) -> GameState:
        while s.request is None and s.agenda and s.outcome is None:
            task, s = s.agenda[0], s.evolve(agenda=s.agenda[1:])
            s = self._check(self._run(s, task, ev), ev)
        if s.outcome is not None:
            return s.evolve(agenda=(), request=None, awaiting=None)
        return s

    def summoned(self, s: GameState) -> int:
        """Warlords summoned so far: tokens no longer on the Warlord Board."""
        return len(self.data.warlord_sections.value) - len(s.warlord_board)

    def _check(self, s: GameState, ev: Events) -> GameState:
        if s.outcome is not None:
            return s
        outcome = None
        if s.score >= self.data.value("winning_score"):
            outcome = Outcome("player-wins", f"the player reached {s.score} points", s.round)
        elif self.summoned(s) >= self.data.value("warlords_to_win"):
            outcome = Outcome("invader-wins", f"the Invader summoned Warlord {self.summoned(s)}", s.round)
        if outcome is None:
            return s
        ev.append(Event.make("game_over", result=outcome.result, reason=outcome.reason, round=s.round))
        return s.evolve(outcome=outcome)

    def _ask(
        self, s: GameState, task: Task, kind: str, options: tuple[Option, ...], **context: object
    ) -> GameState:
        request = DecisionRequest(kind, PLAYER, options, tuple(context.items()))
        return s.evolve(request=request, awaiting=task)

    def _chance(
        self, s: GameState, task: Task, kind: str, source: str, outcomes: tuple[Option, ...], purpose: str
    ) -> GameState:
        return s.evolve(request=ChanceRequest(kind, source, outcomes, purpose), awaiting=task)

    def _error(self, path: str, reason: str) -> MalformedInputError:
        return MalformedInputError(self.rules.source, path, reason)

    def _run(self, s: GameState, task: Task, ev: Events) -> GameState:
        if isinstance(task, Setup):
            return self._setup(s, ev)
        if isinstance(task, Round):
            return self._round(s, ev)
        if isinstance(task, ScoreVillages):
            return self._score_villages(s, ev)
        if isinstance(task, CheckDoubles):
            return self._check_doubles(s, ev)
        if isinstance(task, PlayerConflicts):
            return self._player_conflicts(s, ev)
        if isinstance(task, PlayerBuild):
            return self._player_build(s, ev)
        if isinstance(task, Seize):
            return self._seize(s, ev)
        if isinstance(task, EndPlayerTurn):
            return self._end_player_turn(s, ev)
        if isinstance(task, InvaderTurn):
            return self._invader_turn(s, ev)
        if isinstance(task, WipeOut):
            return self._wipe_out(s, ev)
        if isinstance(task, CheckGoal):
            return self._check_goal(s, ev)
        if isinstance(task, Summon):
            return self._summon(s, ev)
        if isinstance(task, EndInvaderTurn):
            return self._end_invader_turn(s, ev)
        if isinstance(task, RollDie):
            return self._roll(s, task, None, ev)
        if isinstance(task, PlaceDie):
            return self._place_die(s, task, None, ev)
        if isinstance(task, PlayerAction):
            return self._player_action(s, task, ev)
        if isinstance(task, DrawCard):
            return self._draw_card(s, task, None, ev)
        if isinstance(task, TakeCardAction):
            return self._card_action(s, task, ev)
        if isinstance(task, Lead):
            return self._lead(s, task, ev)
        if isinstance(task, Power):
            return self._power(s, task, ev)
        if isinstance(task, Conflict):
            return self._conflict(s, task, ev)
        if isinstance(task, Pillage):
            return self._pillage(s, task, None, ev)
        if isinstance(task, RegressTech):
            return self._regress_tech(s, task, None, ev)
        if isinstance(task, DrawEvent):
            return self._draw_event(s, task, None, ev)
        if isinstance(task, ApplyEffects):
            return self._apply_effects(s, task, ev)
        if isinstance(task, Appease):
            return self._appease(s, task, None, ev)
        if isinstance(task, PlaceWarlord):
            return self._place_warlord(s, task, None, ev)
        raise RulesError(f"unknown task {task!r}")  # pragma: no cover - a bug, not an input

    def _answer(self, s: GameState, task: Task, answer: Option, ev: Events) -> GameState:
        if isinstance(task, RollDie):
            return self._roll(s, task, str(answer), ev)
        if isinstance(task, PlaceDie):
            return self._place_die(s, task, str(answer), ev)
        if isinstance(task, DrawCard):
            return self._draw_card(s, task, str(answer), ev)
        if isinstance(task, Pillage):
            return self._pillage(s, task, str(answer), ev)
        if isinstance(task, RegressTech):
            return self._regress_tech(s, task, str(answer), ev)
        if isinstance(task, DrawEvent):
            return self._draw_event(s, task, str(answer), ev)
        if isinstance(task, Appease):
            return self._appease(s, task, int(answer), ev)
        if isinstance(task, PlaceWarlord):
            return self._place_warlord(s, task, str(answer), ev)
        raise RulesError(f"task {task!r} takes no answer")  # pragma: no cover - a bug

    # -- setup and rounds ---------------------------------------------------------------------------

    def _setup(self, s: GameState, ev: Events) -> GameState:
        """Seed 003, Setup: two members on hex 9, 1/2/3 Invaders on hexes 1-3, the first Warlord."""
        data = self.data
        start, members = data.value("start_hex"), data.value("start_members")
        per_hex = self.rules.invaders_per_start_hex
        cells = [Hex() for _ in range(9)]
        cells[start - 1] = replace(cells[start - 1], player=members)
        for number in (1, 2, 3):
            cells[number - 1] = replace(cells[number - 1], invaders=cells[number - 1].invaders + per_hex)
        s = replace(
            s,
            hexes=tuple(cells),
            player_supply=data.value("player_members") - members,
            invader_supply=data.value("invader_members") - 3 * per_hex,
            reserve=data.value("reserve_size"),
            score=0,
            warlord_board=tuple(data.warlord_sections.value),
        )
        ev.append(
            Event.make(
                "setup",
                difficulty=self.rules.difficulty,
                invaders_per_hex=per_hex,
                player_hex=start,
                player_members=members,
                reserve=s.reserve,
            )
        )
        return s.push(PlaceWarlord(1, "setup"))

    def _round(self, s: GameState, ev: Events) -> GameState:
        if not s.player_turns:
            ev.append(Event.make("script_ended", round=s.round))
            return s
        turn, rest = s.player_turns[0], s.player_turns[1:]
        if len(turn.dice) != 2:
            raise self._error(f"{turn.path}.dice", "the player places exactly two dice")
        ev.append(Event.make("player_turn_started", round=s.round))
        s = s.evolve(player_turns=rest, turn=turn, dice=((None, None), (None, None)))
        after_roll = self.rules.reading("VK-EVENT-TIMING") == "after-roll"
        return s.push(
            ScoreVillages(),
            RollDie(0),
            RollDie(1),
            *([CheckDoubles()] if after_roll else []),
            PlaceDie(0),
            PlayerAction(0),
            PlaceDie(1),
            PlayerAction(1),
            PlayerConflicts(),
            PlayerBuild(),
            Seize(),
            *([] if after_roll else [CheckDoubles()]),
            EndPlayerTurn(),
            InvaderTurn(),
            Round(),
        )

    # -- the player's turn ------------------------------------------------------------------------------

    def _score_villages(self, s: GameState, ev: Events) -> GameState:
        villages = tuple(n for n, h in enumerate(s.hexes, 1) if h.village == PLAYER)
        if not villages:
            return s
        points = len(villages) * self.data.value("village_points")
        s = s.evolve(score=s.score + points)
        ev.append(Event.make("villages_scored", hexes=villages, change=points, score=s.score))
        return s

    def _roll(self, s: GameState, task: RollDie, face: str | None, ev: Events) -> GameState:
        assert s.turn is not None
        scripted = s.turn.dice[task.die].face
        if face is None:
            if scripted is None:
                outcomes = self.data.die_outcomes()
                if len(set(outcomes)) > 1:
                    return self._chance(
                        s, task, "roll", "die", outcomes, f"player die {task.die + 1}, round {s.round}"
                    )
                face = outcomes[0]
            else:
                face = scripted
        dice = list(s.dice)
        dice[task.die] = (face, dice[task.die][1])
        ev.append(Event.make("die_rolled", die=task.die + 1, face=face, scripted=scripted is not None))
        return s.evolve(dice=tuple(dice))

    def _check_doubles(self, s: GameState, ev: Events) -> GameState:
        (first, _), (second, _) = s.dice
        if first is None or first != second:
            return s
        ev.append(Event.make("doubles_rolled", face=first))
        return s.push(DrawEvent())

    def _place_die(self, s: GameState, task: PlaceDie, action: str | None, ev: Events) -> GameState:
        assert s.turn is not None
        turn = s.turn
        other = turn.dice[1 - task.die].action if task.die == 0 else s.dice[0][1]
        if action is None:
            action = turn.dice[task.die].action
            if action is None:
                options = tuple(a for a in ACTIONS if a != other)
                face = s.dice[task.die][0]
                return self._ask(s, task, "place-die", options, die=task.die + 1, face=face or "")
            if action == other:
                raise self._error(
                    f"{turn.path}.dice[{task.die}].action",
                    f"both dice go to {action}; the player takes two different actions",
                )
        face = s.dice[task.die][0]
        assert face is not None
        board, out, strength = s.board.place(action, face)
        dice = list(s.dice)
        dice[task.die] = (face, action)
        ev.append(
            Event.make(
                "die_placed",
                by=PLAYER,
                action=action,
                face=face,
                pushed_out=out,
                row=board.row(action),
                strength=strength,
            )
        )
        return s.evolve(board=board, dice=tuple(dice))

    def _strength(self, s: GameState, action: str) -> str:
        return strength(s.board.row(action))

    def _player_action(self, s: GameState, task: PlayerAction, ev: Events) -> GameState:
        assert s.turn is not None
        turn = s.turn
        action = s.dice[task.die][1]
        assert action is not None
        strength = self._strength(s, action)
        if action == "GROW":
            return self._player_grow(s, self.data.amount(action, strength), strength, ev)
        if action == "MOVE":
            return self._player_move(s, self.data.amount(action, strength), strength, ev)
        if action == "GATHER":
            limit = self.data.amount(action, strength)
            if turn.gather.total > limit:
                raise self._error(
                    f"{turn.path}.gather",
                    f"GATHER at {strength} strength gives {limit} resources; the script takes {turn.gather.total}",
                )
            s = s.evolve(resources=s.resources.plus(turn.gather))
            ev.append(
                Event.make(
                    "player_gathered",
                    gained=turn.gather.describe(),
                    change=turn.gather.total,
                    strength=strength,
                )
            )
            return s
        ev.append(Event.make("player_led", strength=strength))
        return s

    def _player_grow(self, s: GameState, limit: int, strength: str, ev: Events) -> GameState:
        turn = s.turn
        assert turn is not None
        total = sum(n for _, n in turn.grow)
        path = f"{turn.path}.grow"
        if total > limit:
            raise self._error(
                path, f"GROW at {strength} strength adds {limit} members; the script adds {total}"
            )
        if total > s.player_supply:
            raise self._error(
                path, f"the player's supply has {s.player_supply} members; the script adds {total}"
            )
        occupied = {n for n, h in enumerate(s.hexes, 1) if h.player > 0}
        for number, count in turn.grow:
            if number not in occupied:
                raise self._error(
                    f"{path}.{number}",
                    f"the player has no members in hex {number} to grow from (assumed rule)",
                )
            s = s.with_hex(number, replace(s.hex(number), player=s.hex(number).player + count))
            s = s.evolve(player_supply=s.player_supply - count)
            ev.append(Event.make("player_grew", hex=number, count=count, strength=strength))
        return s

    def _player_move(self, s: GameState, limit: int, strength: str, ev: Events) -> GameState:
        turn = s.turn
        assert turn is not None
        total = sum(n for _, _, n in turn.moves)
        if total > limit:
            raise self._error(
                f"{turn.path}.move",
                f"MOVE at {strength} strength moves {limit} members; the script moves {total}",
            )
        for i, (source, target, count) in enumerate(turn.moves):
            path = f"{turn.path}.move[{i}]"
            if not self.map.adjacent(source, target):
                raise self._error(path, f"hexes {source} and {target} are not adjacent")
            if s.hex(source).player < count:
                raise self._error(
                    path, f"hex {source} has {s.hex(source).player} of the player's members, not {count}"
                )
            s = s.with_hex(source, replace(s.hex(source), player=s.hex(source).player - count))
            s = s.with_hex(target, replace(s.hex(target), player=s.hex(target).player + count))
            ev.append(
                Event.make("player_moved", source=source, target=target, count=count, strength=strength)
            )
        return s

    def _player_conflicts(self, s: GameState, ev: Events) -> GameState:
        turn = s.turn
        assert turn is not None
        taken = {a for _, a in s.dice}
        for action, given in (("GROW", turn.grow), ("MOVE", turn.moves), ("GATHER", turn.gather.total)):
            if given and action not in taken:
                raise self._error(
                    f"{turn.path}.{action.lower() if action != 'MOVE' else 'move'}",
                    f"the script gives {action} effects but no die went to {action}",
                )
        limit = self.rules.cap
        crowded = tuple(n for n, h in enumerate(s.hexes, 1) if len(h.tribes()) > 1 and h.members() > limit)
        return s.push(*(Conflict(n, "population limit") for n in crowded))

    def _conflict(self, s: GameState, task: Conflict, ev: Events) -> GameState:
        cell = s.hex(task.hex)
        before = cell.tribes()
        if len(before) < 2:
            return s
        after = dict(self.rules.conflict.survivors(before))
        evading = {r.name for r in self.rules.rivals if r.evasion}
        escaped = tuple(t for t, n in before if t in evading and n > 0 and after.get(t, 0) == 0)
        new = replace(cell, player=after.get(PLAYER, 0), invaders=after.get(INVADERS, 0))
        for tribe, _ in cell.rivals:
            new = new.with_rival(tribe, after.get(tribe, 0))
        s = s.with_hex(task.hex, new)
        s = replace(
            s,
            player_supply=s.player_supply + cell.player - new.player,
            invader_supply=s.invader_supply + cell.invaders - new.invaders,
        )
        ev.append(
            Event.make(
                "conflict",
                hex=task.hex,
                cause=task.cause,
                before=tuple(f"{t}:{n}" for t, n in before),
                after=tuple(f"{t}:{after.get(t, 0)}" for t, _ in before),
                escaped=escaped,
            )
        )
        if cell.invaders > 0 and new.invaders == 0 and s.invader_resources > 0:
            loss = min(s.invader_resources, self.data.value("cleared_hex_loss"))
            s = s.evolve(invader_resources=s.invader_resources - loss)
            ev.append(
                Event.make(
                    "invaders_lost_resources", hex=task.hex, change=-loss, resources=s.invader_resources
                )
            )
        opponents = [t for t, n in before if t != PLAYER]
        cleared = cell.player > 0 and opponents and all(after.get(t, 0) == 0 for t in opponents)
        if cleared and self.rules.tribe == VULKETH:
            return s.push(Pillage(task.hex))
        return s

    def _pillage(self, s: GameState, task: Pillage, choice: str | None, ev: Events) -> GameState:
        if choice is None:
            return self._ask(s, task, "pillage", PILLAGE_OPTIONS, hex=task.hex)
        if choice == "decline":
            ev.append(Event.make("pillage_declined", hex=task.hex))
            return s
        amount = self.data.value("pillage_resources")
        s = s.evolve(resources=s.resources.add(choice, amount))
        ev.append(Event.make("pillaged", hex=task.hex, resource=choice, change=amount))
        return s

    def _player_build(self, s: GameState, ev: Events) -> GameState:
        turn = s.turn
        assert turn is not None
        cost = self.data.village_cost.value
        for i, number in enumerate(turn.villages):
            path = f"{turn.path}.villages[{i}]"
            cell = s.hex(number)
            problem = (
                "the player has no members there"
                if cell.player == 0
                else "a Warlord stands there"
                if cell.warlord is not None
                else f"it already has a village ({cell.village})"
                if cell.village is not None
                else f"the village costs {cost.describe()} and the player has {s.resources.describe()}"
                if not s.resources.covers(cost)
                else ""
            )
            if problem:
                raise self._error(path, f"cannot build a village in hex {number}: {problem}")
            s = s.with_hex(number, replace(cell, village=PLAYER))
            s = s.evolve(resources=s.resources.minus(cost))
            ev.append(Event.make("village_built", hex=number, paid=cost.describe(), change=-cost.total))
        if turn.points:
            s = s.evolve(score=s.score + turn.points)
            ev.append(Event.make("points_scored", change=turn.points, score=s.score, cause="goals"))
        if turn.developments is not None and turn.developments != s.developments:
            s = s.evolve(developments=turn.developments)
            ev.append(Event.make("developments_set", developments=s.developments))
        if turn.bronze:
            techs = dict(s.bronze)
            techs.update(dict(turn.bronze))
            s = s.evolve(bronze=tuple(sorted(techs.items())))
            ev.append(Event.make("bronze_set", techs=tuple(f"{k}:{v}" for k, v in s.bronze)))
        return s

    def _seize(self, s: GameState, ev: Events) -> GameState:
        """The Vul'Keth Tribe: Seize, at the end of the turn, 9 resources for an opponent's village."""
        turn = s.turn
        assert turn is not None
        cost = self.data.value("seize_cost")
        for i, (number, pay) in enumerate(turn.seize):
            path = f"{turn.path}.seize[{i}]"
            cell = s.hex(number)
            problem = (
                f"only the Vul'Keth tribe can Seize (the player's tribe is {self.rules.tribe})"
                if self.rules.tribe != VULKETH
                else f"the player does not occupy hex {number}"
                if cell.player == 0
                else f"hex {number} has no opponent's village"
                if cell.village in (None, PLAYER)
                else f"Seize costs {cost} resources; the payment totals {pay.total}"
                if pay.total != cost
                else f"the player has {s.resources.describe()}, not {pay.describe()}"
                if not s.resources.covers(pay)
                else ""
            )
            if problem:
                raise self._error(path, problem)
            s = s.with_hex(number, replace(cell, village=PLAYER))
            s = s.evolve(resources=s.resources.minus(pay))
            ev.append(
                Event.make(
                    "village_seized",
                    hex=number,
                    owner=cell.village or "",
                    paid=pay.describe(),
                    change=-pay.total,
                )
            )
        return s

    def _end_player_turn(self, s: GameState, ev: Events) -> GameState:
        ev.append(Event.make("player_turn_ended", round=s.round, score=s.score))
        return s.evolve(turn=None, dice=())

    def _draw_event(self, s: GameState, task: DrawEvent, drawn: str | None, ev: Events) -> GameState:
        if drawn is None:
            if not s.event_pile and s.event_discard:
                ev.append(Event.make("event_deck_reshuffled", cards=tuple(sorted(s.event_discard))))
                s = s.evolve(event_pile=tuple(sorted(s.event_discard)), event_discard=())
            if not s.event_pile:
                ev.append(Event.make("no_invader_event", reason="the Invader Event deck is empty"))
                return s
            if len(s.event_pile) > 1:
                return self._chance(
                    s, task, "draw", "invader-events", s.event_pile, f"Invader Event, round {s.round}"
                )
            drawn = s.event_pile[0]
        card = self.data.event(drawn)
        s = replace(
            s,
            event_pile=tuple(c for c in s.event_pile if c != drawn),
            event_discard=(*s.event_discard, drawn),
        )
        ev.append(Event.make("invader_event", card=card.id, name=card.name))
        return s.push(ApplyEffects(card.effects, f"Invader Event {card.name}"))

    # -- the Invader turn -----------------------------------------------------------------------------

    def _invader_turn(self, s: GameState, ev: Events) -> GameState:
        ev.append(Event.make("invader_turn_started", turn=s.invader_turns + 1, round=s.round))
        return s.push(WipeOut(), CheckGoal(), DrawCard(), Summon(), EndInvaderTurn())

    def _wipe_out(self, s: GameState, ev: Events) -> GameState:
        """Seed 003, Invader Turn Example NOTE: every Invader removed, so re-place them."""
        if s.invaders_on_map() > 0:
            return s
        per_hex = self.rules.invaders_per_start_hex
        once = self.rules.reading("VK-WIPEOUT-OVERLAP") == "once"
        wanted: list[tuple[int, int]] = []
        for number in range(1, 10):
            count = per_hex if number <= 3 else 0
            if s.hex(number).warlord is not None and not (once and number <= 3):
                count += 1
            if count:
                wanted.append((number, min(count, self.rules.cap)))
        placed: list[tuple[int, int]] = []
        for number, count in wanted:
            count = min(count, s.invader_supply)
            if count:
                s = s.with_hex(number, replace(s.hex(number), invaders=count))
                s = s.evolve(invader_supply=s.invader_supply - count)
                placed.append((number, count))
        ev.append(
            Event.make(
                "invaders_replaced",
                hexes=tuple(n for n, _ in placed),
                counts=tuple(c for _, c in placed),
                change=sum(c for _, c in placed),
            )
        )
        return s

    def _check_goal(self, s: GameState, ev: Events) -> GameState:
        if s.invader_turns == 0:
            ev.append(Event.make("goal_skipped", reason="the Invader's first turn"))
            return s
        if s.last_card is None:
            ev.append(Event.make("goal_skipped", reason="no card was played last turn"))
            return s
        card = self.data.card(s.last_card)
        met = goal_met(s, card.goal)
        ev.append(Event.make("goal_checked", card=card.id, goal=card.goal.describe(), met=met))
        if met and card.reward:
            return s.push(ApplyEffects(card.reward, f"reward of card {card.id}"))
        return s

    def _draw_card(self, s: GameState, task: DrawCard, drawn: str | None, ev: Events) -> GameState:
        first = s.invader_turns == 0 or s.last_card is None
        deck = 1 if first else self.data.card(s.last_card).next_deck  # type: ignore[arg-type]
        if drawn is None:
            pile = s.decks[deck - 1]
            if not pile:
                back = tuple(sorted(c for c in s.discard if self.data.card(c).deck == deck))
                if not back:
                    raise RulesError(f"Invader deck {deck} and its discards are empty")
                ev.append(Event.make("deck_reshuffled", deck=deck, cards=back))
                s = replace(
                    s,
                    decks=_with_pile(s.decks, deck, back),
                    discard=tuple(c for c in s.discard if c not in back),
                )
                pile = back
            if len(pile) > 1:
                return self._chance(
                    s, task, "draw", f"invader-deck-{deck}", pile, f"Invader turn {s.invader_turns + 1}"
                )
            drawn = pile[0]
        pile = tuple(c for c in s.decks[deck - 1] if c != drawn)
        s = s.evolve(decks=_with_pile(s.decks, deck, pile), discard=(*s.discard, drawn), last_card=drawn)
        card = self.data.card(drawn)
        ev.append(
            Event.make("card_drawn", deck=deck, card=drawn, actions=tuple(a.describe() for a in card.actions))
        )
        return s.push(TakeCardAction(drawn, 0), TakeCardAction(drawn, 1))

    def _card_action(self, s: GameState, task: TakeCardAction, ev: Events) -> GameState:
        """Step 3: slide the die shown into the action, then take it at the row's strength."""
        action = self.data.card(task.card).actions[task.index]
        board, out, strength = s.board.place(action.action, action.face)
        s = s.evolve(board=board)
        ev.append(
            Event.make(
                "die_placed",
                by=INVADERS,
                action=action.action,
                face=action.face,
                pushed_out=out,
                row=board.row(action.action),
                strength=strength,
            )
        )
        cause = f"card {task.card}"
        if action.action == "GROW":
            return self.grow(s, self.data.amount("GROW", strength), action.direction, cause, ev)
        if action.action == "MOVE":
            return self.move(s, self.data.amount("MOVE", strength), action.direction, cause, ev)
        if action.action == "GATHER":
            return self._gain(s, self.data.amount("GATHER", strength), cause, ev)
        return s.push(Lead(cause))

    def _gain(self, s: GameState, amount: int, cause: str, ev: Events) -> GameState:
        s = s.evolve(invader_resources=s.invader_resources + amount)
        ev.append(Event.make("resources_gained", change=amount, resources=s.invader_resources, cause=cause))
        return s

    def grow(self, s: GameState, amount: int, direction: str, cause: str, ev: Events) -> GameState:
        """GROW: fill the lowest (highest) occupied hex to five, then overflow; pieces come from
        the supply, then the overrun reserve at a point each."""
        pieces = min(amount, s.invader_supply + s.reserve)
        counts = tuple(h.invaders for h in s.hexes)
        warlords = tuple(h.warlord is not None for h in s.hexes)
        targets, unplaced = grow_targets(
            counts, warlords, pieces, direction, self.rules.reading("VK-GROW-OVERFLOW"), self.rules.cap
        )
        placed = sum(n for _, n in targets)
        from_supply = min(placed, s.invader_supply)
        from_reserve = placed - from_supply
        for number, count in targets:
            s = s.with_hex(number, replace(s.hex(number), invaders=s.hex(number).invaders + count))
            ev.append(Event.make("invaders_grown", hex=number, count=count, cause=cause))
        s = s.evolve(invader_supply=s.invader_supply - from_supply, reserve=s.reserve - from_reserve)
        if amount > placed:
            ev.append(
                Event.make(
                    "grow_short",
                    wanted=amount,
                    placed=placed,
                    no_room=unplaced,
                    no_pieces=amount - pieces,
                    cause=cause,
                )
            )
        if from_reserve:
            ev.append(Event.make("reserve_used", count=from_reserve, reserve=s.reserve, cause=cause))
            s = self.lose_points(s, from_reserve, f"overrun reserve ({cause})", ev)
        return s

    def move(self, s: GameState, amount: int, direction: str, cause: str, ev: Events) -> GameState:
        counts, moves = move_invaders(
            tuple(h.invaders for h in s.hexes),
            self.map.adjacency,
            amount,
            direction,
            self.rules.reading("VK-MOVE-DEST"),
            self.rules.reading("VK-MOVE-HIGHEST"),
            self.rules.cap,
        )
        s = s.evolve(hexes=tuple(replace(h, invaders=c) for h, c in zip(s.hexes, counts, strict=True)))
        for source, target, count in grouped(moves):
            ev.append(Event.make("invaders_moved", source=source, target=target, count=count, cause=cause))
        if len(moves) < amount:
            ev.append(Event.make("move_short", wanted=amount, moved=len(moves), cause=cause))
        return s

    def lose_points(self, s: GameState, amount: int, cause: str, ev: Events) -> GameState:
        new = s.score - amount
        if self.rules.reading("VK-SCORE-FLOOR") == "zero":
            new = max(0, new)
        ev.append(Event.make("points_lost", change=new - s.score, score=new, cause=cause))
        return s.evolve(score=new)

    def unlocked(self, s: GameState) -> tuple[str, ...]:
        """The Warlord powers LEAD runs, top to bottom (ruling ``VK-POWER-UNLOCK``)."""
        sections = self.data.warlord_sections.value
        if self.rules.reading("VK-POWER-UNLOCK") == "by-count":
            return tuple(sections[: len(s.warlords())])
        return tuple(p for p in sections if p not in s.warlord_board)

    def _lead(self, s: GameState, task: Lead, ev: Events) -> GameState:
        powers = self.unlocked(s)
        ev.append(Event.make("lead", powers=powers, cause=task.cause))
        return s.push(*(Power(p, task.cause) for p in powers))

    def _power(self, s: GameState, task: Power, ev: Events) -> GameState:
        if task.power == "steal-resources":
            taken = s.resources.total
            s = s.evolve(resources=Resources(), invader_resources=s.invader_resources + taken)
            ev.append(Event.make("resources_stolen", change=taken, resources=s.invader_resources))
            return s
        if task.power == "convert":
            return self._convert(s, ev)
        if task.power == "spread":
            return self._spread(s, ev)
        if task.power == "regress":
            if s.developments:
                ev.append(Event.make("developments_returned", count=s.developments))
                s = s.evolve(developments=0)
            return s.push(RegressTech())
        shared = tuple(n for n, h in enumerate(s.hexes, 1) if h.player > 0 and h.invaders > 0)
        ev.append(Event.make("war", hexes=shared))
        return s.push(*(Conflict(n, "War") for n in shared))

    def _take_invader(
        self, s: GameState, cause: str, ev: Events, *, reserve_costs: bool
    ) -> tuple[GameState, str]:
        """One Invader from the supply, else the overrun reserve; ``""`` when both are empty."""
        if s.invader_supply > 0:
            return s.evolve(invader_supply=s.invader_supply - 1), "supply"
        if s.reserve > 0:
            s = s.evolve(reserve=s.reserve - 1)
            ev.append(Event.make("reserve_used", count=1, reserve=s.reserve, cause=cause))
            if reserve_costs:
                s = self.lose_points(s, 1, f"overrun reserve ({cause})", ev)
            return s, "reserve"
        return s, ""

    def _convert(self, s: GameState, ev: Events) -> GameState:
        """Convert one player member in each hex holding or next to a Warlord."""
        warlords = set(s.warlords())
        costs = self.rules.reading("VK-CONVERT-RESERVE") == "costs-points"
        for number in range(1, 10):
            cell = s.hex(number)
            near = number in warlords or any(n in warlords for n in self.map.neighbours(number))
            if not near or cell.player == 0:
                continue
            if cell.invaders >= self.rules.cap and self.rules.reading("VK-CONVERT-CAP") == "skip":
                ev.append(Event.make("convert_skipped", hex=number, reason="five Invaders already"))
                continue
            s, taken = self._take_invader(s, "Convert", ev, reserve_costs=costs)
            cell = s.hex(number)
            if not taken:
                if self.rules.reading("VK-CONVERT-EMPTY") == "member-stays":
                    ev.append(
                        Event.make("convert_skipped", hex=number, reason="no Invader left to convert into")
                    )
                    continue
                s = s.with_hex(number, replace(cell, player=cell.player - 1))
                s = s.evolve(player_supply=s.player_supply + 1)
                ev.append(Event.make("member_removed", hex=number, cause="Convert without an Invader"))
                continue
            s = s.with_hex(number, replace(cell, player=cell.player - 1, invaders=cell.invaders + 1))
            s = s.evolve(player_supply=s.player_supply + 1)
            ev.append(Event.make("converted", hex=number, source=taken))
        return s

    def _spread(self, s: GameState, ev: Events) -> GameState:
        """Add one Invader to each hex without Invaders next to a hex that had them before."""
        warlord_counts = self.rules.reading("VK-SPREAD-WARLORD") == "warlord-counts"
        had = {
            n
            for n, h in enumerate(s.hexes, 1)
            if h.invaders > 0 or (warlord_counts and h.warlord is not None)
        }
        for number in range(1, 10):
            if number in had or not any(n in had for n in self.map.neighbours(number)):
                continue
            if s.invader_supply == 0:
                ev.append(Event.make("spread_short", hex=number, reason="the Invader supply is empty"))
                break
            cell = s.hex(number)
            s = s.with_hex(number, replace(cell, invaders=cell.invaders + 1))
            s = s.evolve(invader_supply=s.invader_supply - 1)
            ev.append(Event.make("spread", hex=number))
        return s

    def _regress_tech(self, s: GameState, task: RegressTech, choice: str | None, ev: Events) -> GameState:
        if choice is None:
            movable = tuple(name for name, step in s.bronze if step > 0)
            if not movable:
                if s.bronze:
                    ev.append(
                        Event.make("tech_not_regressed", reason="no Bronze technology can go back a step")
                    )
                return s
            if len(movable) > 1:
                return self._ask(s, task, "regress-tech", movable)
            choice = movable[0]
        techs = dict(s.bronze)
        techs[choice] -= 1
        s = s.evolve(bronze=tuple(sorted(techs.items())))
        ev.append(Event.make("tech_regressed", tech=choice, step=techs[choice]))
        return s

    def _summon(self, s: GameState, ev: Events) -> GameState:
        """Step 4: a Warlord for every six resources while tokens remain."""
        if s.invader_resources < self.data.value("warlord_cost") or not s.warlord_board:
            return s
        return s.push(PlaceWarlord(0, "summon"), Summon())

    def _place_warlord(self, s: GameState, task: PlaceWarlord, token: str | None, ev: Events) -> GameState:
        if token is None:
            if self.rules.reading("VK-POWER-UNLOCK") == "by-section" and len(s.warlord_board) > 1:
                return self._ask(s, task, "warlord-token", s.warlord_board, cause=task.cause)
            token = s.warlord_board[0]
        target = task.hex or warlord_target(
            tuple(h.invaders for h in s.hexes), tuple(h.warlord is not None for h in s.hexes)
        )
        if target is None:
            raise RulesError("every hex already has a Warlord")  # pragma: no cover - at most 5 tokens
        paid = self.data.value("warlord_cost") if task.cause == "summon" else 0
        s = s.evolve(invader_resources=s.invader_resources - paid)
        s = s.with_hex(target, replace(s.hex(target), warlord=token))
        s = s.evolve(warlord_board=tuple(t for t in s.warlord_board if t != token))
        ev.append(
            Event.make(
                "warlord_summoned",
                hex=target,
                token=token,
                cause=task.cause,
                change=-paid,
                resources=s.invader_resources,
                summoned=self.summoned(s),
            )
        )
        return s

    def _end_invader_turn(self, s: GameState, ev: Events) -> GameState:
        ev.append(Event.make("invader_turn_ended", turn=s.invader_turns + 1))
        return s.evolve(invader_turns=s.invader_turns + 1, round=s.round + 1)

    # -- effects of events and rewards -------------------------------------------------------------

    def _apply_effects(self, s: GameState, task: ApplyEffects, ev: Events) -> GameState:
        if len(task.effects) > 1:
            return s.push(*(ApplyEffects((e,), task.origin) for e in task.effects))
        if not task.effects:
            return s
        return self.apply_effect(s, task.effects[0], task.origin, ev)

    def apply_effect(self, s: GameState, effect: Effect, origin: str, ev: Events) -> GameState:
        kind = effect.kind
        if kind == "gain_resources":
            return self._gain(s, effect.amount, origin, ev)
        if kind == "grow":
            return self.grow(s, effect.amount, effect.direction, origin, ev)
        if kind == "move":
            return self.move(s, effect.amount, effect.direction, origin, ev)
        if kind == "lead":
            return s.push(Lead(origin))
        if kind == "power":
            return s.push(Power(effect.power, origin))
        if kind == "lose_points":
            return self.lose_points(s, effect.amount, origin, ev)
        if kind == "remove_warlord":
            return s.push(Appease(origin))
        if kind == "remove_invaders":
            return self._remove_invaders(s, effect.amount, effect.direction, origin, ev)
        if kind == "player_resources":
            s = s.evolve(resources=s.resources.add(effect.resource, effect.amount))
            ev.append(
                Event.make(
                    "player_resources_gained", resource=effect.resource, change=effect.amount, cause=origin
                )
            )
            return s
        if kind == "slide":
            board, out, strength = s.board.place(effect.action, effect.face)
            ev.append(
                Event.make(
                    "die_placed",
                    by=origin,
                    action=effect.action,
                    face=effect.face,
                    pushed_out=out,
                    row=board.row(effect.action),
                    strength=strength,
                )
            )
            return s.evolve(board=board)
        handler = EFFECT_KINDS[kind].handler
        if handler is None:  # pragma: no cover - every built-in is handled above
            raise RulesError(f"effect {kind!r} has no handler")
        return handler(self, s, effect, origin, ev)

    def _remove_invaders(
        self, s: GameState, amount: int, direction: str, origin: str, ev: Events
    ) -> GameState:
        left = amount
        for number in hex_order(direction):
            cell = s.hex(number)
            count = min(cell.invaders, left)
            if count:
                s = s.with_hex(number, replace(cell, invaders=cell.invaders - count))
                s = s.evolve(invader_supply=s.invader_supply + count)
                ev.append(Event.make("invaders_removed", hex=number, count=count, cause=origin))
                left -= count
        return s

    def _appease(self, s: GameState, task: Appease, choice: int | None, ev: Events) -> GameState:
        if choice is None:
            hexes = s.warlords()
            if not hexes:
                ev.append(Event.make("no_warlord_removed", reason="no Warlord on the map", cause=task.origin))
                return s
            if len(hexes) > 1:
                return self._ask(s, task, "appease", hexes, cause=task.origin)
            choice = hexes[0]
        cell = s.hex(choice)
        token = cell.warlord
        assert token is not None
        s = s.with_hex(choice, replace(cell, warlord=None))
        back = self.rules.reading("VK-APPEASE") == "return-to-board"
        if back:
            sections = self.data.warlord_sections.value
            s = s.evolve(warlord_board=tuple(t for t in sections if t in s.warlord_board or t == token))
        ev.append(
            Event.make(
                "warlord_removed",
                hex=choice,
                token=token,
                to="warlord board" if back else "out of the game",
                cause=task.origin,
                summoned=self.summoned(s),
            )
        )
        return s


def _with_pile(
    decks: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], deck: int, pile: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    out = list(decks)
    out[deck - 1] = pile
    return (out[0], out[1], out[2])

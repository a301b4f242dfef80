"""The Vul'Keth conformance cases: rule by rule (seed 003), the seed's worked Invader turn, the
readings that part, answers to refuse and the solvers' boundaries (``docs/fixtures.md``).

Single actions are cut out of an Invader turn by its card draw: the position has the Invader to
move and two cards in the deck to draw from, so the opening (re-placing, the goal check) stops at
the ``draw``; answering it with the card under test is the compared step (its two actions and the
summoning after them). Cards are given in the scenario's ``data`` so each case says exactly what
the Invader does; the bundled example cards are used where the case is about them.

Projections: ``hexes`` (every hex), ``hex:N`` (one hex), ``tracks`` (score, resources, supplies,
reserve, Warlord Board), ``board`` (the action board), ``decks`` (draw piles, face-up pile, last
card, Invader Events) and ``result``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import Any

from invasion_oracle.reports.suite.casefile import DataCases
from invasion_oracle.reports.suite.plugins import GameSuite, Projection, Section
from invasion_oracle.reports.suite.specs import CaseMaker, CaseSpec, Stop

GAME = "vulketh"

SECTIONS = (
    Section("map", "Components; Setup (hexes and number tokens)"),
    Section(
        "setup", "Setup (members on hex 9, Warlord on hex 1, overrun reserve, 1/2/3 Invaders by difficulty)"
    ),
    Section(
        "how-to-play", "How to Play (turn order, the player wins at 15, the Invader at its fifth Warlord)"
    ),
    Section(
        "player-turn",
        'Player Turn ("exactly the same as in the multiplayer game"; doubles trigger an Invader Event)',
    ),
    Section("action-board", "The action board (base game, research §1.2)"),
    Section("check-goal", "Invader Turn Step 1: Check Goal"),
    Section(
        "draw", "Step 2: Draw an Action Card (deck 1 first, then the deck the last card names; reshuffle)"
    ),
    Section("place-dice", "Step 3: Place Dice (two actions left to right, sliding the face shown)"),
    Section("grow-move", "Invader Actions: GROW, MOVE (where the pieces go)"),
    Section("gather-lead", "Invader Actions: GATHER, LEAD"),
    Section("summon", "Step 4: Summoning a Warlord (one per six resources; where it goes)"),
    Section(
        "warlords",
        "Warlords and conflict (never removed, no population, no villages, a cleared hex costs a resource)",
    ),
    Section("wipe-out", "Invader Turn Example NOTE (all Invaders removed)"),
    Section("powers", "Warlord Powers (Steal Resources, Convert, Spread, Regress, War)"),
    Section("events", 'Invader Events (replace standard events), "Appease the Volcano"'),
    Section("vulketh", "The Vul'Keth Tribe: Seize, Pillage"),
)

FEATURES = {
    "grow": "the Invaders GROW",
    "move": "the Invaders MOVE",
    "gather": "the Invaders GATHER",
    "lead": "LEAD runs the unlocked Warlord powers",
    "warlord-power": "a Warlord power (Steal Resources, Convert, Spread, Regress, War)",
    "summon": "Warlords summoned for resources",
    "goal": "the goal of last turn's card and its reward",
    "reshuffle": "an emptied Invader deck reshuffled from the face-up pile",
    "overrun-reserve": "Invaders taken from the overrun reserve (a point each)",
    "wipe-out": "the Invaders re-placed after none is left",
    "conflict": "conflict between tribes in a hex",
    "player-script": "a scripted player turn (dice, actions, villages, points)",
    "doubles": "the player's doubles draw an Invader Event",
    "invader-event": "Invader Event effects",
    "appease": "'Appease the Volcano' removes a Warlord",
    "village": "the player's villages (built, scored)",
    "pillage": "the Vul'Keth take a resource when conflict clears a hex",
    "seize": "the Vul'Keth take over a village",
    "rival": "another tribe's members or villages on the map",
    "evasion": "a tribe escaping conflict by Evasion",
    "setup": "the game set up by difficulty",
    "custom-map": "a map other than the derived default",
    "illegal-answer": "an answer the implementation must refuse",
    "whole-run": "a whole run compared from the opening",
    "playthrough": "cut from a recorded or random playthrough",
    "ruling-witness": "a ruling's witness scenario",
}

# -- projections ----------------------------------------------------------------------------------


def _hex_json(state: Any, number: int) -> dict[str, Any]:
    return dict(state.hex(number).to_json())


def _hex(scenario: Any, state: Any, argument: str) -> Any:
    from invasion_oracle.model.core.errors import MalformedInputError

    if not argument.isdigit() or not 1 <= int(argument) <= 9:
        raise MalformedInputError("projection", f"hex:{argument}", "the hexes are numbered 1-9")
    return _hex_json(state, int(argument))


def _hexes(scenario: Any, state: Any, argument: str) -> Any:
    return {str(n): _hex_json(state, n) for n in range(1, 10)}


def _tracks(scenario: Any, state: Any, argument: str) -> Any:
    game = scenario.game()
    return {
        "score": state.score,
        "player_resources": state.resources.to_json(),
        "player_supply": state.player_supply,
        "invader_resources": state.invader_resources,
        "invader_supply": state.invader_supply,
        "reserve": state.reserve,
        "warlord_board": list(state.warlord_board),
        "summoned": game.summoned(state),
        "developments": state.developments,
        "bronze": dict(state.bronze),
    }


def _board(scenario: Any, state: Any, argument: str) -> Any:
    from invasion_oracle.model.vulketh.action_board import ACTIONS, strength

    return {a: {"dice": list(state.board.row(a)), "strength": strength(state.board.row(a))} for a in ACTIONS}


def _decks(scenario: Any, state: Any, argument: str) -> Any:
    return {
        "decks": {str(n): list(pile) for n, pile in enumerate(state.decks, 1)},
        "discard": list(state.discard),
        "last_card": state.last_card,
        "invader_events": {"pile": list(state.event_pile), "discard": list(state.event_discard)},
    }


def _result(scenario: Any, state: Any, argument: str) -> Any:
    if state.outcome is None:
        return {"result": "undecided", "round": state.round}
    return state.outcome.to_json()


PROJECTIONS = (
    Projection("hexes", "every hex: player, invaders, warlord, village, rivals", _hexes),
    Projection("hex", "one hex, as `hexes` gives it", _hex, "hex number"),
    Projection("tracks", "score, resources, supplies, overrun reserve, Warlord Board, summoned", _tracks),
    Projection("board", "the action board: each row's dice (oldest first) and strength", _board),
    Projection(
        "decks", "the Invader draw piles, the face-up pile, the last card, the Invader Events", _decks
    ),
    Projection("result", "player-wins, invader-wins or undecided, with the reason and round", _result),
)

# -- scenario builders --------------------------------------------------------------------------------


def act(action: str, face: str = "blank", direction: str = "lowest") -> dict[str, str]:
    return {"action": action, "face": face, "direction": direction}


def card(
    card_id: str,
    first: dict[str, str],
    second: dict[str, str],
    *,
    deck: int = 1,
    goal: dict[str, Any] | None = None,
    reward: list[dict[str, Any]] | None = None,
    next_deck: int = 2,
) -> dict[str, Any]:
    return {
        "id": card_id,
        "deck": deck,
        "actions": [first, second],
        "goal": goal or {"goal": "none"},
        "reward": reward or [],
        "next_deck": next_deck,
    }


GATHERS = (act("GATHER", "moon"), act("GATHER", "moon"))
FILLERS = [card(f"f{d}", *GATHERS, deck=d, next_deck=d) for d in (1, 2, 3)]


def data(*cards: dict[str, Any]) -> dict[str, Any]:
    return {"action_cards": [*cards, *FILLERS]}


def answers(script: Sequence[Any]) -> dict[str, Any]:
    return {"script": list(script), "then": "first-legal"}


def invader_doc(the_card: dict[str, Any], hexes: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The Invader's first turn; deck 1 holds the card and a filler, so the draw is asked."""
    base: dict[str, Any] = {
        "game": GAME,
        "start": "invader",
        "data": data(the_card),
        "hexes": copy.deepcopy(hexes),
        "decks": {"1": [the_card["id"], "f1"]},
        "decisions": answers([]),
        "chance": answers([the_card["id"]]),
    }
    for key, value in fields.items():
        base[key] = answers(value) if key in ("decisions", "chance") else copy.deepcopy(value)
    return base


def player_doc(turn: dict[str, Any], hexes: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The player to move with one scripted turn; the Invader's deck 1 holds two fillers, so the
    run stops at its draw (the player's turn alone is compared)."""
    base: dict[str, Any] = {
        "game": GAME,
        "start": "player",
        "data": data(card("f1b", *GATHERS)),
        "hexes": copy.deepcopy(hexes),
        "decks": {"1": ["f1", "f1b"]},
        "player_turns": [copy.deepcopy(turn)],
        "decisions": answers([]),
        "chance": answers([]),
    }
    for key, value in fields.items():
        base[key] = answers(value) if key in ("decisions", "chance") else copy.deepcopy(value)
    return base


def dice(first: tuple[str, str], second: tuple[str, str], **effects: Any) -> dict[str, Any]:
    return {
        "dice": [{"face": first[0], "action": first[1]}, {"face": second[0], "action": second[1]}],
        **effects,
    }


PASSIVE = dice(("blank", "GATHER"), ("moon", "LEAD"))


spec = CaseMaker(projection="hexes", stop=Stop.after(1), window="last")


OPENING = Stop.before("draw")  # with window "all": the opening alone, to the next draw


# -- GROW and MOVE ------------------------------------------------------------------------------------

GROW_LOW = card("grow-low", act("GROW", "blank"), act("GATHER", "moon"))  # GROW 3
GROW_HIGH = card("grow-high", act("GROW", "blank", "highest"), act("GATHER", "moon"))
MOVE_LOW = card("move-low", act("MOVE", "blank"), act("GATHER", "moon"))  # MOVE 4
MOVE_HIGH = card("move-high", act("MOVE", "blank", "highest"), act("GATHER", "moon"))

GROW_GRID: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    (
        "fills-then-overflows",
        GROW_LOW,
        {"1": {"invaders": 4}, "3": {"invaders": 1}},
        "hex 1 to five, the rest to the next occupied hex",
    ),
    (
        "warlord-hex-counts",
        GROW_LOW,
        {"2": {"warlord": "war"}, "5": {"invaders": 1}},
        "a lone Warlord makes hex 2 the lowest occupied",
    ),
    (
        "highest",
        GROW_HIGH,
        {"4": {"invaders": 2}, "7": {"invaders": 5}},
        "the highest occupied hex is full: on to hex 4",
    ),
    ("nothing-fits", GROW_LOW, {"1": {"invaders": 5}, "2": {"invaders": 5}}, "every occupied hex is full"),
    ("full-start-hex", GROW_LOW, {"8": {"invaders": 5, "warlord": "war"}}, "the only occupied hex is full"),
    ("empty-hex-between", GROW_LOW, {"2": {"invaders": 5}, "6": {"invaders": 3}}, "hexes 3-5 are empty"),
    ("single", GROW_LOW, {"9": {"invaders": 1}}, "three Invaders on the only occupied hex"),
]

MOVE_GRID: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    (
        "last-invader-stays",
        MOVE_LOW,
        {"1": {"invaders": 1}, "2": {"invaders": 3}},
        "hex 1's only Invader stays; arrivals do not move on",
    ),
    (
        "full-destinations",
        MOVE_LOW,
        {"4": {"invaders": 3}, "5": {"invaders": 5}, "7": {"invaders": 5}},
        "hex 4's higher neighbours are full: continue from hex 5",
    ),
    ("highest-mirror", MOVE_HIGH, {"9": {"invaders": 3}}, "from hex 9 down"),
    ("from-hex-9", MOVE_LOW, {"9": {"invaders": 3, "warlord": "war"}}, "hex 9 has no neighbour above it"),
    (
        "lower-neighbour-empty",
        MOVE_LOW,
        {"1": {"warlord": "war"}, "2": {"invaders": 3}},
        "hex 1 (a lone Warlord) has room below hex 2",
    ),
    (
        "chain",
        MOVE_LOW,
        {"1": {"invaders": 3}, "2": {"invaders": 2}, "4": {"invaders": 4}},
        "moves pass along the hexes",
    ),
    (
        "highest-chain",
        MOVE_HIGH,
        {"8": {"invaders": 3}, "9": {"invaders": 2}, "6": {"invaders": 5}},
        "from the highest hex down",
    ),
]


# The rulings a GROW or a MOVE can depend on, varied together (flipping every ruling in groups
# can hide one reading behind another: VK-MOVE-HIGHEST matters only under one VK-MOVE-DEST).
GROW_RULINGS = ("VK-GROW-OVERFLOW", "VK-SCORE-FLOOR")
MOVE_RULINGS = ("VK-MOVE-DEST", "VK-MOVE-HIGHEST")


def _move_rulings(direction: str) -> tuple[str, ...]:
    """A MOVE highest is varied in VK-MOVE-HIGHEST alone: flipped together with VK-MOVE-DEST, the
    group can change nothing (``unused`` ignores VK-MOVE-HIGHEST) and hide the dependency."""
    return ("VK-MOVE-HIGHEST",) if direction == "highest" else MOVE_RULINGS


# -- the player's turn, events, the Vul'Keth ---------------------------------------------------------------


def solver() -> Iterator[CaseSpec]:
    """The smallest positions separating the MOVE and GROW readings (search (c)), as cases."""
    from invasion_oracle.model.core.rulings import REGISTRY, Rulings
    from invasion_oracle.model.vulketh.data import default_data
    from invasion_oracle.model.vulketh.game import Rules
    from invasion_oracle.solver.vulketh.differ import (
        RULINGS,
        make_question,
        smallest_difference,
        witness_document,
    )

    rules = Rules.of(Rulings.defaults(GAME), default_data())
    for rid in RULINGS:
        names = REGISTRY.get(rid).reading_names
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                for direction in ("highest",) if rid == "VK-MOVE-HIGHEST" else ("lowest", "highest"):
                    question = make_question(rules, rid, (a, b), direction)
                    answer = smallest_difference(question, engine="baseline")
                    if answer.position is None:
                        continue
                    document = witness_document(question, answer.position, rules.data)
                    document.pop("rulings")
                    document.pop("description")
                    document["data"]["action_cards"].append(card("witness2", *GATHERS))
                    document["decks"] = {"1": ["witness", "witness2"]}
                    document["decisions"] = answers([])
                    document["chance"] = answers(["witness"])
                    yield spec(
                        "solver",
                        f"{rid.lower()}-{a}-{b}-{direction}",
                        f"The smallest position where {rid}'s readings {a} and {b} part for "
                        f"{question.action} {question.amount} {direction}: {answer.position.describe()}.",
                        ("grow-move",),
                        ("grow" if question.action == "GROW" else "move",),
                        document,
                        source="solver",
                        rulings=(
                            (_move_rulings(direction) if rid == "VK-MOVE-HIGHEST" else MOVE_RULINGS)
                            if question.action == "MOVE"
                            else GROW_RULINGS
                        ),
                        command=f"invasion vulketh differ --ruling-id {rid} --readings {a},{b} --direction {direction}",
                    )


# -- boundaries, rule by rule (single actions) ---------------------------------------------------------
#
# Each case below is one rules action at a boundary the seed draws (a strength, a cap of five, a
# cost of six, an empty pile, a tie in "lowest" / "highest"); the description cites the seed 003
# section the expectation was checked against.


# -- every bundled action card and Invader Event (case tables, one builder each) --------------------------

CARD_POSITIONS: tuple[tuple[dict[str, Any], dict[str, Any], str], ...] = (
    ({"1": {"invaders": 2}, "4": {"invaders": 1}, "9": {"player": 2}}, {}, "hexes"),
    (
        {
            "2": {"invaders": 3, "warlord": "steal-resources"},
            "5": {"player": 2, "invaders": 1},
            "7": {"invaders": 2},
            "9": {"player": 1},
        },
        {"invader_resources": 4, "resources": {"food": 2}},
        "tracks",
    ),
)
"""The positions each bundled action card is drawn in: (hexes, other fields, projection)."""
ACTION_SECTIONS = {"GROW": "grow-move", "MOVE": "grow-move", "GATHER": "gather-lead", "LEAD": "gather-lead"}


def action_card_spread() -> Iterator[CaseSpec]:
    """Every action card of the bundled data drawn and played in each of :data:`CARD_POSITIONS`,
    after a different bundled card naming its deck (so the bundled data, not a scenario's, is
    graded): Step 2's draw and Step 3's two actions, then Step 4."""
    from invasion_oracle.model.vulketh.data import default_data

    cards = default_data().action_cards
    for the_card in cards:
        before = [c for c in cards if c.next_deck == the_card.deck and c.id != the_card.id]
        actions = [a.describe() for a in the_card.actions]
        for k, (hexes, fields, projection) in enumerate(CARD_POSITIONS):
            last = before[k % len(before)]
            yield spec(
                "action-cards",
                f"{the_card.id}-after-{last.id}",
                f"Seed 003, Step 2: after card {last.id} (next deck {the_card.deck}) the Invader draws the "
                f"bundled card {the_card.id} from deck {the_card.deck}; Step 3 places its dice, "
                f"{actions[0]} then {actions[1]}; then Step 4.",
                ("draw", "place-dice", *dict.fromkeys(ACTION_SECTIONS[a.action] for a in the_card.actions)),
                tuple(dict.fromkeys(a.action.lower() for a in the_card.actions)),
                {
                    "game": GAME,
                    "start": "invader",
                    "hexes": copy.deepcopy(hexes),
                    "discard": [last.id],
                    "last_card": last.id,
                    "decisions": answers([]),
                    "chance": answers([the_card.id]),
                    **copy.deepcopy(fields),
                },
                projection=projection,
            )


EVENT_POSITION = {
    "3": {"player": 2, "invaders": 1},
    "6": {"invaders": 3, "warlord": "war"},
    "9": {"player": 1},
}
"""The second position each bundled Invader Event is drawn in (``events`` draws seven in another)."""
HEX_EFFECTS = {"grow", "move", "remove_invaders", "spread", "war"}


def invader_event_spread() -> Iterator[CaseSpec]:
    """Every Invader Event of the bundled data drawn by a player's moon doubles in
    :data:`EVENT_POSITION`: a Warlord on hex 6 (alone, so Appease the Volcano has no choice)."""
    from invasion_oracle.model.vulketh.data import default_data

    for event in default_data().invader_events:
        on_hexes = any(e.kind in HEX_EFFECTS or e.power in HEX_EFFECTS for e in event.effects)
        yield spec(
            "events",
            f"moon-doubles-{event.id}",
            f"Seed 003, Player Turn (doubles trigger an Invader Event): two moons draw the bundled Invader "
            f"Event {event.name}, resolved with a lone Warlord on hex 6 and Invaders on hexes 3 and 6.",
            ("events", "player-turn"),
            ("doubles", "invader-event", "player-script"),
            player_doc(
                dice(("moon", "GATHER"), ("moon", "LEAD")),
                EVENT_POSITION,
                chance=[event.id],
                resources={"wood": 1},
                score=4,
                invader_resources=2,
            ),
            projection="hexes" if on_hexes else "tracks",
        )


def cases(topic: str) -> DataCases:
    """The cases of ``reports/suite/cases/vulketh/TOPIC.toml``."""
    return DataCases(GAME, topic)


SUITE = GameSuite(
    game=GAME,
    sections=SECTIONS,
    projections=PROJECTIONS,
    features=FEATURES,
    producers=(
        cases("worked-examples"),
        cases("grow-move"),
        cases("gather-lead"),
        cases("place-dice"),
        cases("check-goal-and-draw"),
        cases("summon"),
        cases("warlords"),
        cases("wipe-out"),
        cases("powers"),
        cases("player-turn"),
        cases("events"),
        cases("vulketh"),
        cases("setup"),
        cases("illegal"),
        solver,
        cases("grow-move-strengths"),
        cases("lead-strengths"),
        cases("summon-boundaries"),
        cases("goals"),
        cases("draw-reshuffle"),
        cases("conflict"),
        cases("power-boundaries"),
        cases("event-effects"),
        cases("wipe-out-boundaries"),
        cases("villages"),
        action_card_spread,
        invader_event_spread,
    ),
    notes={"run-sections": "how-to-play player-turn check-goal draw place-dice grow-move summon"},
)

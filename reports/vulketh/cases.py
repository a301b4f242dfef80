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

from reports.suite.plugins import GameSuite, Projection, Section
from reports.suite.specs import CaseSpec, Stop

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
    from model.core.errors import MalformedInputError

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
    from model.vulketh.action_board import ACTIONS, strength

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


def effect_doc(effects: list[dict[str, Any]], hexes: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """Last turn's card met its goal (always) and gives ``effects``: the opening applies them and
    stops at the next draw (two cards in deck 2)."""
    trigger = card(
        "trigger", *GATHERS, goal={"goal": "resources", "at_least": 0}, reward=effects, next_deck=2
    )
    base: dict[str, Any] = {
        "game": GAME,
        "start": "invader",
        "data": data(trigger),
        "hexes": copy.deepcopy(hexes),
        "last_card": "trigger",
        "decks": {"1": [], "2": ["f2", "f2b"]},
        "decisions": answers([]),
        "chance": answers([]),
    }
    base["data"]["action_cards"].append(card("f2b", *GATHERS, deck=2, next_deck=2))
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


def spec(
    group: str,
    name: str,
    description: str,
    sections: Sequence[str],
    features: Sequence[str],
    document: dict[str, Any],
    *,
    projection: str = "hexes",
    stop: Stop | None = None,
    window: str = "last",
    source: str = "rule",
    **kw: Any,
) -> CaseSpec:
    return CaseSpec(
        group,
        name,
        description,
        tuple(sections),
        tuple(features),
        source,
        document,
        projection,
        stop if stop is not None else Stop.after(1),
        window,
        **kw,
    )


OPENING = Stop.before("draw")  # with window "all": the opening alone, to the next draw


# -- the seed's worked example ---------------------------------------------------------------------


def worked_examples() -> Iterator[CaseSpec]:
    example = card("example", act("GROW", "blank"), act("MOVE", "blank"))
    yield spec(
        "worked-examples",
        "invader-turn-example",
        "Seed 003, Invader Turn Example: GROW 3 lowest puts three Invaders on hex 1 (a Warlord, no "
        "Invaders); MOVE 4 lowest moves one from 1 to 2, then three unmoved Invaders from 2 to 4.",
        ("grow-move", "place-dice"),
        ("grow", "move"),
        invader_doc(
            example, {"1": {"warlord": "steal-resources"}, "2": {"invaders": 4}, "3": {"invaders": 5}}
        ),
        source="worked-example",
    )


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


def grow_move() -> Iterator[CaseSpec]:
    for name, the_card, hexes, why in GROW_GRID:
        yield spec(
            "grow-move",
            f"grow-{name}",
            f"GROW 3 ({the_card['actions'][0]['direction']}): {why}.",
            ("grow-move",),
            ("grow",),
            invader_doc(the_card, hexes),
            rulings=GROW_RULINGS,
        )
    for name, the_card, hexes, why in MOVE_GRID:
        yield spec(
            "grow-move",
            f"move-{name}",
            f"MOVE 4 ({the_card['actions'][0]['direction']}): {why}.",
            ("grow-move",),
            ("move",),
            invader_doc(the_card, hexes),
            rulings=_move_rulings(the_card["actions"][0]["direction"]),
        )
    yield spec(
        "grow-move",
        "grow-overrun-reserve",
        "The supply holds one Invader: GROW 3 takes two from the overrun reserve, a point each.",
        ("grow-move",),
        ("grow", "overrun-reserve"),
        invader_doc(GROW_LOW, {"1": {"invaders": 1}}, supply={"invaders": 1}, score=4),
        projection="tracks",
    )
    yield spec(
        "grow-move",
        "grow-nothing-left",
        "Supply and overrun reserve are empty: GROW places nothing and costs nothing.",
        ("grow-move",),
        ("grow", "overrun-reserve"),
        invader_doc(GROW_LOW, {"1": {"invaders": 1}}, supply={"invaders": 0}, reserve=0, score=4),
        projection="tracks",
    )
    line = [[n, n + 1] for n in range(1, 9)]
    yield spec(
        "grow-move",
        "move-on-a-line",
        "A user map (hexes in a line): MOVE lowest follows it.",
        ("grow-move", "map"),
        ("move", "custom-map"),
        invader_doc(MOVE_LOW, {"2": {"invaders": 3}, "5": {"invaders": 2}}, map={"edges": line}),
    )


# -- GATHER, LEAD, Place Dice, the action board --------------------------------------------------------


def gather_lead() -> Iterator[CaseSpec]:
    for face, row, strength in (
        ("moon", None, "weak"),
        ("blank", None, "standard"),
        ("sun", ["blank", "sun", "moon"], "strong"),
    ):
        the_card = card("gather", act("GATHER", face), act("LEAD", "moon"))
        fields: dict[str, Any] = {"action_board": {"GATHER": row}} if row else {}
        yield spec(
            "gather-lead",
            f"gather-{strength}",
            f"A {face} slid into GATHER makes it {strength}.",
            ("gather-lead", "place-dice", "action-board"),
            ("gather",),
            invader_doc(the_card, {"1": {"invaders": 1}}, **fields),
            projection="tracks",
        )
    lead = card("lead", act("LEAD", "sun"), act("GATHER", "moon"))
    yield spec(
        "gather-lead",
        "lead-two-powers",
        "Two Warlords: LEAD runs Steal Resources, then Convert next to each Warlord.",
        ("gather-lead", "powers"),
        ("lead", "warlord-power"),
        invader_doc(
            lead,
            {
                "1": {"warlord": "steal-resources", "invaders": 1},
                "9": {"warlord": "convert"},
                "2": {"player": 2},
                "8": {"player": 1},
            },
            resources={"food": 3},
        ),
        projection="tracks",
    )
    yield spec(
        "gather-lead",
        "lead-two-powers-map",
        "The same LEAD: the map after Convert.",
        ("gather-lead", "powers"),
        ("lead", "warlord-power"),
        invader_doc(
            lead,
            {
                "1": {"warlord": "steal-resources", "invaders": 1},
                "9": {"warlord": "convert"},
                "2": {"player": 2},
                "8": {"player": 1},
            },
        ),
    )


def place_dice() -> Iterator[CaseSpec]:
    order = card("order", act("GATHER", "sun"), act("GROW", "sun"))
    yield spec(
        "place-dice",
        "left-to-right",
        "The card's actions in order: GATHER (made strong by the sun) then GROW (standard).",
        ("place-dice", "action-board", "gather-lead"),
        ("gather", "grow"),
        invader_doc(order, {"1": {"invaders": 1}}, action_board={"GATHER": ["blank", "sun", "moon"]}),
        projection="board",
    )
    yield spec(
        "place-dice",
        "left-to-right-tracks",
        "The same card: 4 resources (strong GATHER).",
        ("place-dice", "gather-lead"),
        ("gather", "grow"),
        invader_doc(order, {"1": {"invaders": 1}}, action_board={"GATHER": ["blank", "sun", "moon"]}),
        projection="tracks",
    )
    for row, face in (
        (["moon", "moon", "sun"], "sun"),
        (["sun", "sun", "moon"], "moon"),
        (["blank", "moon", "sun"], "moon"),
    ):
        slide = card("slide", act("GROW", face), act("GATHER", "blank"))
        yield spec(
            "action-board",
            f"push-{'-'.join(row)}-{face}",
            f"A {face} slid onto {' '.join(row)} pushes the oldest die out; the strength is read after.",
            ("action-board", "place-dice"),
            ("grow",),
            invader_doc(slide, {"1": {"invaders": 1}}, action_board={"GROW": row}),
            projection="board",
        )


# -- Steps 1, 2 and 4 -----------------------------------------------------------------------------------


def check_goal_and_draw() -> Iterator[CaseSpec]:
    met = card(
        "last",
        *GATHERS,
        goal={"goal": "hex_occupied", "hex": 4},
        reward=[{"effect": "gain_resources", "amount": 2}],
        next_deck=3,
    )
    for occupied in (True, False):
        hexes = {"4" if occupied else "5": {"invaders": 1}}
        yield spec(
            "check-goal",
            f"goal-{'met' if occupied else 'unmet'}",
            f"Last turn's goal (Invaders in hex 4) is {'met: 2 resources' if occupied else 'not met: nothing'}.",
            ("check-goal",),
            ("goal",),
            {
                "game": GAME,
                "start": "invader",
                "data": {
                    "action_cards": [
                        met,
                        card("t1", *GATHERS, deck=3, next_deck=3),
                        card("t2", *GATHERS, deck=3, next_deck=3),
                        *FILLERS,
                    ]
                },
                "hexes": hexes,
                "last_card": "last",
                "decks": {"3": ["t1", "t2"]},
                "decisions": answers([]),
                "chance": answers([]),
            },
            projection="tracks",
            stop=OPENING,
            window="all",
        )
    yield spec(
        "check-goal",
        "first-turn-skips-the-goal",
        "The Invader's first turn checks no goal and draws from deck 1.",
        ("check-goal", "draw"),
        ("goal",),
        invader_doc(card("first", *GATHERS), {"1": {"invaders": 1}}),
        projection="decks",
    )
    yield spec(
        "draw",
        "next-deck",
        "After card 1d (next deck 3) the Invader draws from deck 3 (the example cards).",
        ("draw",),
        (),
        {
            "game": GAME,
            "start": "invader",
            "hexes": {"5": {"invaders": 1}},
            "last_card": "1d",
            "decisions": answers([]),
            "chance": answers(["3c"]),
        },
        projection="decks",
    )
    yield spec(
        "draw",
        "reshuffle",
        "Deck 2's pile is empty: its cards in the face-up pile are reshuffled into it before the draw.",
        ("draw",),
        ("reshuffle",),
        {
            "game": GAME,
            "start": "invader",
            "data": {"action_cards": [card("a", *GATHERS, deck=2), card("b", *GATHERS, deck=2), *FILLERS]},
            "hexes": {"5": {"invaders": 1}},
            "discard": ["a", "b"],
            "last_card": "b",
            "decks": {"2": []},
            "decisions": answers([]),
            "chance": answers(["a"]),
        },
        projection="decks",
        window="all",
    )


def summon() -> Iterator[CaseSpec]:
    gather = card("gather", *GATHERS)
    yield spec(
        "summon",
        "two-warlords",
        "13 resources: two Warlords, on the highest hexes with Invaders and no Warlord (7, then 4).",
        ("summon",),
        ("summon",),
        invader_doc(
            gather,
            {"1": {"warlord": "steal-resources", "invaders": 1}, "4": {"invaders": 2}, "7": {"invaders": 1}},
            invader_resources=9,
        ),
    )
    yield spec(
        "summon",
        "no-invader-hex-free",
        "Every hex with Invaders has a Warlord: the new one goes to the lowest hex without one.",
        ("summon",),
        ("summon",),
        invader_doc(gather, {"3": {"warlord": "steal-resources", "invaders": 2}}, invader_resources=2),
    )
    yield spec(
        "summon",
        "two-warlords-tracks",
        "13 resources: two tokens leave the Warlord Board, one resource is left.",
        ("summon",),
        ("summon",),
        invader_doc(
            gather,
            {"1": {"warlord": "steal-resources", "invaders": 1}, "4": {"invaders": 2}, "7": {"invaders": 1}},
            invader_resources=9,
        ),
        projection="tracks",
    )
    yield spec(
        "summon",
        "token-chosen",
        "Under VK-POWER-UNLOCK=by-section the player chooses the token: War leaves the board.",
        ("summon",),
        ("summon",),
        invader_doc(
            gather,
            {"1": {"warlord": "steal-resources", "invaders": 1}},
            invader_resources=2,
            rulings={"VK-POWER-UNLOCK": "by-section"},
            decisions=["war"],
        ),
        projection="tracks",
        stop=Stop.after(2),
        rulings=(),
    )


# -- conflict, Warlords, wipe-out -------------------------------------------------------------------------


def warlords() -> Iterator[CaseSpec]:
    yield spec(
        "warlords",
        "conflict-over-the-limit",
        "Hex 5 (3 + 3 members) is over the limit; hex 7 (2 + 3 and a Warlord) is not: Warlords do not count.",
        ("warlords", "player-turn"),
        ("conflict", "player-script"),
        player_doc(
            PASSIVE,
            {"5": {"player": 3, "invaders": 3}, "7": {"player": 2, "invaders": 3, "warlord": "war"}},
            invader_resources=2,
        ),
        stop=OPENING,
        window="all",
    )
    yield spec(
        "warlords",
        "cleared-hex-costs-a-resource",
        "Hex 5 is cleared of Invaders in conflict: the Invaders lose a resource.",
        ("warlords",),
        ("conflict", "player-script"),
        player_doc(PASSIVE, {"5": {"player": 4, "invaders": 2}, "1": {"invaders": 1}}, invader_resources=2),
        projection="tracks",
        stop=OPENING,
        window="all",
    )
    yield spec(
        "warlords",
        "warlord-survives-conflict",
        "Conflict clears hex 5's Invaders; its Warlord stays.",
        ("warlords",),
        ("conflict", "player-script"),
        player_doc(PASSIVE, {"5": {"player": 4, "invaders": 2, "warlord": "convert"}, "1": {"invaders": 1}}),
        projection="hex:5",
        stop=OPENING,
        window="all",
    )
    war = [{"effect": "power", "power": "war"}]
    yield spec(
        "warlords",
        "war-below-the-limit",
        "War: conflict in every shared hex, even below the limit; Warlords stay.",
        ("warlords", "powers"),
        ("conflict", "warlord-power"),
        effect_doc(
            war,
            {"2": {"warlord": "convert", "player": 1, "invaders": 2}, "4": {"player": 3, "invaders": 1}},
            invader_resources=3,
        ),
        stop=OPENING,
        window="all",
    )
    yield spec(
        "warlords",
        "three-tribes",
        "Three tribes in hex 5 over the limit.",
        ("warlords",),
        ("conflict", "rival", "player-script"),
        player_doc(
            PASSIVE,
            {"5": {"player": 4, "invaders": 3, "rivals": {"Kiror": 2}}, "1": {"invaders": 1}},
            rivals=[{"name": "Kiror"}],
        ),
        projection="hex:5",
        stop=OPENING,
        window="all",
    )


def wipe_out() -> Iterator[CaseSpec]:
    for difficulty, warlords in (
        ("easy", {"1": {"warlord": "steal-resources"}}),
        ("difficult", {"1": {"warlord": "steal-resources"}, "6": {"warlord": "convert"}}),
    ):
        yield spec(
            "wipe-out",
            f"{difficulty}",
            f"No Invader is left ({difficulty}): they return on hexes 1-3 and one on each Warlord hex.",
            ("wipe-out",),
            ("wipe-out",),
            invader_doc(card("gather", *GATHERS), {**warlords, "9": {"player": 2}}, difficulty=difficulty),
            stop=OPENING,
            window="all",
        )


# -- the Warlord powers ------------------------------------------------------------------------------------


def powers() -> Iterator[CaseSpec]:
    def power(name: str) -> list[dict[str, str]]:
        return [{"effect": "power", "power": name}]

    yield spec(
        "powers",
        "steal-resources",
        "Steal Resources takes every resource the player has.",
        ("powers",),
        ("warlord-power",),
        effect_doc(power("steal-resources"), {"1": {"invaders": 1}}, resources={"food": 2, "wood": 1}),
        projection="tracks",
        stop=OPENING,
        window="all",
    )
    convert_hexes = {
        "1": {"warlord": "war", "player": 1},
        "2": {"player": 2},
        "3": {"player": 1, "invaders": 1},
        "5": {"player": 2},
    }
    yield spec(
        "powers",
        "convert",
        "Convert: one member in each hex holding or next to a Warlord becomes an Invader.",
        ("powers",),
        ("warlord-power",),
        effect_doc(power("convert"), convert_hexes),
        stop=OPENING,
        window="all",
    )
    reserve_hexes = {
        "1": {"warlord": "war", "player": 1},
        "2": {"player": 1},
        "3": {"player": 1},
        "9": {"invaders": 1},
    }
    yield spec(
        "powers",
        "convert-from-the-reserve",
        "Convert with one Invader in the supply: the next two come from the overrun reserve.",
        ("powers",),
        ("warlord-power", "overrun-reserve"),
        effect_doc(power("convert"), reserve_hexes, supply={"invaders": 1}, score=5),
        projection="tracks",
        stop=OPENING,
        window="all",
    )
    yield spec(
        "powers",
        "convert-full-hex",
        "Convert next to a Warlord in a hex already holding five Invaders.",
        ("powers",),
        ("warlord-power",),
        effect_doc(
            power("convert"), {"1": {"warlord": "war", "invaders": 1}, "2": {"player": 1, "invaders": 5}}
        ),
        projection="hex:2",
        stop=OPENING,
        window="all",
    )
    yield spec(
        "powers",
        "spread",
        "Spread: the hexes next to hexes that had Invaders before it started get one.",
        ("powers",),
        ("warlord-power",),
        effect_doc(power("spread"), {"1": {"invaders": 2}, "9": {"warlord": "war"}}),
        stop=OPENING,
        window="all",
    )
    yield spec(
        "powers",
        "regress-choice",
        "Regress returns developments and turns back a Bronze technology the player chooses; an engine may "
        "choose itself: every choice's outcome is acceptable.",
        ("powers",),
        ("warlord-power",),
        effect_doc(power("regress"), {"1": {"invaders": 1}}, developments=3, bronze={"Axe": 2, "Kiln": 1}),
        projection="tracks",
        stop=Stop.after(1),
        window="choice",
    )
    yield spec(
        "powers",
        "regress-nothing-to-turn-back",
        "Regress with a technology at step 0: it is not discarded.",
        ("powers",),
        ("warlord-power",),
        effect_doc(power("regress"), {"1": {"invaders": 1}}, bronze={"Axe": 0}),
        projection="tracks",
        stop=OPENING,
        window="all",
    )


# -- the player's turn, events, the Vul'Keth ---------------------------------------------------------------


def player_turn() -> Iterator[CaseSpec]:
    turn = dice(("sun", "GROW"), ("moon", "MOVE"), grow={"9": 3}, move=[{"from": 9, "to": 7, "count": 2}])
    yield spec(
        "player-turn",
        "grow-and-move",
        "The player's dice set GROW (standard 3) and MOVE (weak 3); the scripted members follow.",
        ("player-turn", "action-board"),
        ("player-script",),
        player_doc(turn, {"9": {"player": 2}, "1": {"invaders": 1}}),
        stop=OPENING,
        window="all",
    )
    yield spec(
        "player-turn",
        "village-built",
        "A village is paid for with 2 food, 2 wood, 2 stone.",
        ("player-turn", "warlords"),
        ("player-script", "village"),
        player_doc(
            dice(("blank", "GATHER"), ("moon", "LEAD"), villages=[7]),
            {"7": {"player": 1}, "1": {"invaders": 1}},
            resources={"food": 2, "wood": 2, "stone": 3},
        ),
        projection="tracks",
        stop=OPENING,
        window="all",
    )
    yield spec(
        "player-turn",
        "village-scores",
        "A village scores a point at the start of the player's turn.",
        ("player-turn",),
        ("player-script", "village"),
        player_doc(PASSIVE, {"4": {"village": "player", "player": 1}, "1": {"invaders": 1}}, score=3),
        projection="tracks",
        stop=OPENING,
        window="all",
    )
    yield spec(
        "player-turn",
        "open-die-choice",
        "A die the script leaves open: the player chooses its action; an engine may choose itself: every "
        "action's outcome is acceptable.",
        ("player-turn", "action-board"),
        ("player-script",),
        player_doc({"dice": [{"face": "sun"}, {"face": "moon", "action": "LEAD"}]}, {"1": {"invaders": 1}}),
        projection="board",
        stop=Stop.after(1),
        window="choice",
    )
    yield spec(
        "player-turn",
        "rolled-die",
        "A die the script does not give a face is rolled (each face listed as often as it appears).",
        ("player-turn",),
        ("player-script",),
        player_doc(
            {"dice": [{"action": "GATHER"}, {"face": "moon", "action": "LEAD"}]},
            {"1": {"invaders": 1}},
            chance=["sun"],
        ),
        projection="board",
    )
    yield spec(
        "how-to-play",
        "player-wins-at-15",
        "Score 14 and a village: the player wins at the start of the turn, before any die.",
        ("how-to-play", "player-turn"),
        ("village", "player-script"),
        player_doc(PASSIVE, {"4": {"village": "player", "player": 1}, "1": {"invaders": 1}}, score=14),
        projection="result",
        window="all",
        stop=Stop.end(),
    )
    hexes = {
        n: {"warlord": w, "invaders": 1}
        for n, w in zip("1234", ("steal-resources", "convert", "spread", "regress"), strict=True)
    }
    yield spec(
        "how-to-play",
        "invader-wins-at-the-fifth-warlord",
        "The fifth Warlord is summoned: the Invader wins.",
        ("how-to-play", "summon"),
        ("summon",),
        invader_doc(card("gather", *GATHERS), hexes, invader_resources=2),
        projection="result",
    )
    yield spec(
        "how-to-play",
        "turn-order",
        "A round is the player's turn, then the Invader's.",
        ("how-to-play",),
        ("player-script",),
        player_doc(PASSIVE, {"1": {"invaders": 1}}),
        projection="decks",
        stop=Stop.after(1),
        window="all",
    )


def events() -> Iterator[CaseSpec]:
    doubles = dice(("sun", "GATHER"), ("sun", "LEAD"))
    for event in ("tribute", "reinforcements", "respite", "dark-omen", "forced-march", "scouts", "raid"):
        yield spec(
            "events",
            f"doubles-{event}",
            f"The player's doubles draw the Invader Event {event} (an example card).",
            ("events", "player-turn"),
            ("doubles", "invader-event", "player-script"),
            player_doc(
                doubles,
                {"5": {"player": 3, "invaders": 2}, "2": {"invaders": 1}, "8": {"player": 1}},
                chance=[event],
                resources={"food": 1},
                score=2,
            ),
            projection="hexes"
            if event in ("reinforcements", "respite", "forced-march", "scouts")
            else "tracks",
        )
    appease = {"1": {"warlord": "steal-resources", "invaders": 1}, "6": {"warlord": "convert"}}
    yield spec(
        "events",
        "appease-the-volcano-choice",
        "'Appease the Volcano' removes the Warlord the player chooses; an engine may choose itself: every "
        "Warlord's outcome is acceptable.",
        ("events", "warlords"),
        ("doubles", "appease", "player-script"),
        player_doc(dice(("moon", "GATHER"), ("moon", "LEAD")), appease, chance=["appease-the-volcano"]),
        projection="tracks",
        stop=Stop.after(2),
        window="choice",
    )


def vulketh() -> Iterator[CaseSpec]:
    vk = {"tribe": "vulketh"}
    yield spec(
        "vulketh",
        "pillage-choice",
        "The Vul'Keth clear hex 5 of Invaders: they may take a resource of their choice; an engine may choose "
        "itself: every choice's outcome is acceptable.",
        ("vulketh", "warlords"),
        ("pillage", "conflict", "player-script"),
        player_doc(PASSIVE, {"5": {"player": 4, "invaders": 2}}, invader_resources=1, **vk),
        projection="tracks",
        stop=Stop.after(1),
        window="choice",
        rulings=(),  # under VK-CONFLICT=one-each nobody is cleared and nothing is chosen
    )
    yield spec(
        "vulketh",
        "pillage-both-wiped-out",
        "Both sides are wiped out in hex 5: Pillage counts whether the player survives or not.",
        ("vulketh",),
        ("pillage", "conflict", "player-script"),
        player_doc(
            PASSIVE, {"5": {"player": 3, "invaders": 3}, "1": {"invaders": 1}}, decisions=["food"], **vk
        ),
        projection="tracks",
        stop=Stop.after(1),
    )
    yield spec(
        "vulketh",
        "pillage-evasion",
        "A rival escapes by Evasion: the hex is still cleared of opponents, and Pillage counts.",
        ("vulketh",),
        ("pillage", "evasion", "rival", "conflict", "player-script"),
        player_doc(
            PASSIVE,
            {"5": {"player": 3, "rivals": {"Kiror": 3}}, "1": {"invaders": 1}},
            decisions=["wood"],
            rivals=[{"name": "Kiror", "evasion": True}],
            **vk,
        ),
        projection="tracks",
        stop=Stop.after(1),
    )
    yield spec(
        "vulketh",
        "seize",
        "At the end of the turn the Vul'Keth pay nine resources for the rival's village in hex 8.",
        ("vulketh",),
        ("seize", "rival", "village", "player-script"),
        player_doc(
            dice(
                ("blank", "GATHER"),
                ("moon", "LEAD"),
                seize=[{"hex": 8, "pay": {"food": 4, "wood": 3, "stone": 2}}],
            ),
            {"8": {"player": 1, "village": "Kiror"}, "1": {"invaders": 1}},
            rivals=[{"name": "Kiror"}],
            resources={"food": 5, "wood": 3, "stone": 2},
            **vk,
        ),
        projection="hex:8",
        stop=OPENING,
        window="all",
    )


def setup() -> Iterator[CaseSpec]:
    for difficulty in ("easy", "normal", "difficult"):
        yield spec(
            "setup",
            difficulty,
            f"Setup for a{'n' if difficulty == 'easy' else ''} {difficulty} game.",
            ("setup", "map"),
            ("setup",),
            {
                "game": GAME,
                "start": "setup",
                "difficulty": difficulty,
                "decisions": answers([]),
                "chance": answers([]),
            },
            window="all",
            stop=Stop.end(),
        )
    yield spec(
        "setup",
        "tracks",
        "Setup's tracks: score 0, the overrun reserve full, one token on hex 1.",
        ("setup",),
        ("setup",),
        {"game": GAME, "start": "setup", "decisions": answers([]), "chance": answers([])},
        projection="tracks",
        window="all",
        stop=Stop.end(),
    )


def illegal() -> Iterator[CaseSpec]:
    yield spec(
        "illegal",
        "card-not-in-the-pile",
        "The draw is answered with a card that is not in deck 1's pile: refuse it.",
        ("draw",),
        ("illegal-answer",),
        invader_doc(card("real", *GATHERS), {"1": {"invaders": 1}}, chance=["2a"]),
        source="rule",
    )


def solver() -> Iterator[CaseSpec]:
    """The smallest positions separating the MOVE and GROW readings (search (c)), as cases."""
    from model.core.rulings import REGISTRY, Rulings
    from model.vulketh.data import default_data
    from model.vulketh.game import Rules
    from solver.vulketh.differ import RULINGS, make_question, smallest_difference, witness_document

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


SUITE = GameSuite(
    game=GAME,
    sections=SECTIONS,
    projections=PROJECTIONS,
    features=FEATURES,
    producers=(
        worked_examples,
        grow_move,
        gather_lead,
        place_dice,
        check_goal_and_draw,
        summon,
        warlords,
        wipe_out,
        powers,
        player_turn,
        events,
        vulketh,
        setup,
        illegal,
        solver,
    ),
    notes={"run-sections": "how-to-play player-turn check-goal draw place-dice grow-move summon"},
)

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
    from invasion_oracle.reports.suite.events import coded_result

    return coded_result(GAME, state.outcome.to_json())  # the reason as a code (and its ids), never prose


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


def short_supply(document: dict[str, Any], invaders: int) -> dict[str, Any]:
    """``document`` with ``invaders`` in the Invaders' supply. Members never leave the game, so a
    short supply is a smaller set of Invader members (``data.values.invader_members``): the
    map, the supply and the overrun reserve still hold every piece."""
    from invasion_oracle.model.vulketh.data import default_data

    reserve_size = default_data().value("reserve_size")
    on_map = sum(cell.get("invaders", 0) for cell in document["hexes"].values())
    members = invaders + on_map + document.get("reserve", reserve_size) - reserve_size
    if members < 0:
        raise ValueError(f"{on_map} Invaders on the map cannot include the overrun ones pulled")
    document["supply"] = {"invaders": invaders}
    document["data"].setdefault("values", {})["invader_members"] = members
    return document


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
        "discard": ["trigger"],
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


spec = CaseMaker(projection="hexes", stop=Stop.after(1), window="last")


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
        short_supply(invader_doc(GROW_LOW, {"1": {"invaders": 1}}, score=4), 1),
        projection="tracks",
    )
    yield spec(
        "grow-move",
        "grow-nothing-left",
        "Supply and overrun reserve are empty: GROW places nothing and costs nothing.",
        ("grow-move",),
        ("grow", "overrun-reserve"),
        # the five overrun Invaders pulled earlier are on the map (hex 7)
        short_supply(
            invader_doc(GROW_LOW, {"1": {"invaders": 1}, "7": {"invaders": 4}}, reserve=0, score=4), 0
        ),
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
                "discard": ["last"],
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
            "discard": ["1d"],
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
        short_supply(effect_doc(power("convert"), reserve_hexes, score=5), 1),
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
        "The draw is answered with a card of this game that is not in deck 1's pile (deck 2's f2): refuse it.",
        ("draw",),
        ("illegal-answer",),
        invader_doc(card("real", *GATHERS), {"1": {"invaders": 1}}, chance=["f2"]),
        source="rule",
    )


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


def _strong(action: str) -> dict[str, Any]:
    """An action board whose ``action`` row turns strong when a sun slides in."""
    return {"action_board": {action: ["blank", "sun", "moon"]}}


def grow_move_strengths() -> Iterator[CaseSpec]:
    """GROW and MOVE at each strength, and at the cap of five (Invader Actions: GROW, MOVE)."""
    grow_weak = card("grow-weak", act("GROW", "moon"), act("GATHER", "moon"))
    grow_strong = card("grow-strong", act("GROW", "sun"), act("GATHER", "moon"))
    grow_strong_high = card("grow-strong-high", act("GROW", "sun", "highest"), act("GATHER", "moon"))
    grow_weak_high = card("grow-weak-high", act("GROW", "moon", "highest"), act("GATHER", "moon"))
    grow_cases: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any], str]] = [
        (
            "grow-weak",
            grow_weak,
            {"3": {"invaders": 1}},
            {},
            "GROW (moon slid in: weak, 2) lowest puts two Invaders on hex 3, the only occupied hex",
        ),
        (
            "grow-strong",
            grow_strong,
            {"2": {"invaders": 1}},
            _strong("GROW"),
            "GROW (sun slid in beside a sun: strong, 4) lowest fills hex 2 to exactly five",
        ),
        (
            "grow-strong-overflow",
            grow_strong,
            {"2": {"invaders": 3}, "6": {"invaders": 1}},
            _strong("GROW"),
            "GROW 4 lowest: two fill hex 2 to five, the other two go to the next occupied hex, 6",
        ),
        (
            "grow-strong-highest",
            grow_strong_high,
            {"9": {"invaders": 2}, "4": {"invaders": 1}},
            _strong("GROW"),
            "GROW 4 highest: three fill hex 9 to five, the last goes to the next highest occupied hex, 4",
        ),
        (
            "grow-weak-highest",
            grow_weak_high,
            {"9": {"invaders": 4}, "5": {"invaders": 1}},
            {},
            "GROW 2 highest: one fills hex 9, one goes down to hex 5",
        ),
        (
            "grow-exact-fill",
            GROW_LOW,
            {"1": {"invaders": 2}, "5": {"invaders": 1}},
            {},
            "GROW 3 lowest on a hex of two: exactly five, nothing left to overflow to hex 5",
        ),
        (
            "grow-warlord-not-counted",
            GROW_LOW,
            {"4": {"invaders": 4, "warlord": "war"}, "8": {"invaders": 1}},
            {},
            "GROW 3 lowest: hex 4 holds a Warlord and four Invaders; the Warlord is not counted "
            "toward five, so one more fits there and two go to hex 8",
        ),
        (
            "grow-highest-lone-warlord",
            GROW_HIGH,
            {"9": {"warlord": "war"}, "3": {"invaders": 2}},
            {},
            "GROW 3 highest: hex 9 holds only a Warlord and is the highest occupied hex",
        ),
    ]
    for name, the_card, hexes, fields, why in grow_cases:
        yield spec(
            "grow-move-boundaries",
            name,
            f"Seed 003, Invader Actions: GROW; Step 3: Place Dice. {why}.",
            ("grow-move", "place-dice", "action-board"),
            ("grow",),
            invader_doc(the_card, hexes, **fields),
            rulings=GROW_RULINGS,
        )
    move_weak = card("move-weak", act("MOVE", "moon"), act("GATHER", "moon"))
    move_strong = card("move-strong", act("MOVE", "sun"), act("GATHER", "moon"))
    move_cases: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any], str]] = [
        (
            "move-weak",
            move_weak,
            {"1": {"invaders": 5}},
            {},
            "MOVE (weak, 3) lowest: three of hex 1's five go to hex 2, its next lowest neighbour",
        ),
        (
            "move-strong-last-stays",
            move_strong,
            {"1": {"invaders": 5}},
            _strong("MOVE"),
            "MOVE (strong, 5) lowest: only four of hex 1's five may leave (never the last), and the "
            "arrivals in hex 2 do not move again: one move is left unused",
        ),
        (
            "move-into-warlord-hex",
            MOVE_LOW,
            {"2": {"invaders": 2}, "3": {"invaders": 5}, "4": {"invaders": 4, "warlord": "war"}},
            {},
            "MOVE 4 lowest: hex 2's mover skips full hex 3 and goes to hex 4, whose Warlord does not "
            "count toward five; hex 3 then sends three to hex 5",
        ),
        (
            "move-to-exactly-five",
            MOVE_LOW,
            {"1": {"invaders": 3}, "2": {"invaders": 4}, "3": {"invaders": 4}},
            {},
            "MOVE 4 lowest: hex 1 fills hex 2 and hex 3 to exactly five and keeps its last; the rest "
            "of the move continues from hex 2",
        ),
        (
            "move-last-with-warlord",
            MOVE_LOW,
            {"1": {"invaders": 1, "warlord": "war"}, "2": {"invaders": 2}},
            {},
            "MOVE 4 lowest: hex 1's only Invader stays although a Warlord is there; hex 2 sends one",
        ),
        (
            "move-highest-from-hex-1",
            MOVE_HIGH,
            {"1": {"invaders": 3}},
            {},
            "MOVE 4 highest with Invaders only on hex 1, which has no lower neighbour",
        ),
        (
            "move-source-full-neighbours",
            MOVE_LOW,
            {"1": {"invaders": 5}, "2": {"invaders": 5}, "3": {"invaders": 5}},
            {},
            "MOVE 4 lowest: hex 1's neighbours are full, so the move continues from hex 2",
        ),
    ]
    for name, the_card, hexes, fields, why in move_cases:
        yield spec(
            "grow-move-boundaries",
            name,
            f"Seed 003, Invader Actions: MOVE; Step 3: Place Dice. {why}.",
            ("grow-move", "place-dice", "action-board"),
            ("move",),
            invader_doc(the_card, hexes, **fields),
            rulings=_move_rulings(the_card["actions"][0]["direction"]),
        )


def lead_strengths() -> Iterator[CaseSpec]:
    """LEAD ignores its strength and runs the unlocked powers top to bottom (Invader Actions: LEAD)."""
    hexes = {"1": {"warlord": "steal-resources", "invaders": 1}, "2": {"player": 1}}
    for strength, face, fields in (
        ("weak", "moon", {}),
        ("strong", "sun", _strong("LEAD")),
    ):
        yield spec(
            "lead-strengths",
            f"lead-{strength}",
            f"Seed 003, Invader Actions: LEAD: the die combination does not change LEAD; at {strength} "
            "strength one Warlord still runs Steal Resources alone.",
            ("gather-lead", "powers", "action-board"),
            ("lead", "warlord-power"),
            invader_doc(
                card(f"lead-{strength}", act("LEAD", face), act("GATHER", "moon")),
                hexes,
                resources={"food": 1, "stone": 2},
                **fields,
            ),
            projection="tracks",
        )
    three = {
        "1": {"warlord": "steal-resources", "invaders": 1},
        "5": {"warlord": "convert", "invaders": 2},
        "9": {"warlord": "spread", "invaders": 1},
        "8": {"player": 2},
        "2": {"player": 1},
    }
    yield spec(
        "lead-strengths",
        "lead-three-powers-in-order",
        "Seed 003, Invader Actions: LEAD; Warlord Powers: three Warlords run Steal Resources, Convert "
        "(hexes 8 and 2 touch Warlords) and then Spread from the hexes that had Invaders before it.",
        ("gather-lead", "powers"),
        ("lead", "warlord-power"),
        invader_doc(card("lead3", act("LEAD", "blank"), act("GATHER", "moon")), three, resources={"wood": 1}),
    )
    yield spec(
        "lead-strengths",
        "steal-then-summon",
        "Seed 003, Step 3: Place Dice; Step 4: LEAD (left) steals the player's 4 resources, then GATHER "
        "(weak) adds 2: exactly six, so a Warlord is summoned in Step 4.",
        ("place-dice", "gather-lead", "summon"),
        ("lead", "gather", "warlord-power", "summon"),
        invader_doc(
            card("lead-gather", act("LEAD", "blank"), act("GATHER", "moon")),
            {"1": {"warlord": "steal-resources", "invaders": 1}, "4": {"invaders": 1}},
            resources={"food": 3, "wood": 1},
        ),
        projection="tracks",
    )


def summon_boundaries() -> Iterator[CaseSpec]:
    """Step 4 at six, twelve and just below (Step 4: Summoning a Warlord)."""
    gather = card("gather", *GATHERS)  # two weak GATHERs: +4 resources
    one = {"1": {"warlord": "steal-resources", "invaders": 1}, "5": {"invaders": 2}}
    for name, resources, hexes, why in (
        (
            "at-six",
            2,
            one,
            "exactly six: one Warlord on hex 5 (highest with Invaders, no Warlord), none left",
        ),
        ("at-five", 1, one, "five: no Warlord; the resources stay"),
        (
            "at-twelve",
            8,
            {"1": {"warlord": "steal-resources", "invaders": 1}, "3": {"invaders": 1}, "6": {"invaders": 2}},
            "exactly twelve: two Warlords, on hex 6 then hex 3, nothing left",
        ),
        ("at-eleven", 7, one, "eleven: one Warlord, five resources kept for later"),
        (
            "three-one-hex-free",
            14,
            {"1": {"warlord": "steal-resources", "invaders": 2}, "4": {"invaders": 1}},
            "eighteen: three Warlords; the first on hex 4, then no hex with Invaders is free, so the "
            "lowest hexes without a Warlord, 2 and 3",
        ),
    ):
        yield spec(
            "summon-boundaries",
            name,
            f"Seed 003, Step 4: Summoning a Warlord: GATHER twice brings {resources + 4} resources; {why}.",
            ("summon",),
            ("summon", "gather"),
            invader_doc(gather, hexes, invader_resources=resources),
        )
    four = {
        n: {"warlord": w, "invaders": 1}
        for n, w in zip("1357", ("steal-resources", "convert", "spread", "regress"), strict=True)
    }
    yield spec(
        "summon-boundaries",
        "fifth-ends-the-game",
        "Seed 003, How to Play; Step 4: twelve resources with four Warlords out: the fifth is summoned and "
        "the Invader wins at once, keeping the other six resources.",
        ("summon", "how-to-play"),
        ("summon",),
        invader_doc(gather, four, invader_resources=8),
        projection="tracks",
    )
    yield spec(
        "summon-boundaries",
        "token-choice",
        "Seed 003, Step 4: the player chooses which token becomes the Warlord (VK-POWER-UNLOCK=by-section); "
        "an engine may choose itself: every token's outcome is acceptable.",
        ("summon",),
        ("summon",),
        invader_doc(
            gather,
            {"1": {"warlord": "steal-resources", "invaders": 1}, "2": {"invaders": 1}},
            invader_resources=2,
            rulings={"VK-POWER-UNLOCK": "by-section"},
        ),
        projection="tracks",
        stop=Stop.after(2),
        window="choice",
        rulings=(),
    )
    yield spec(
        "summon-boundaries",
        "token-by-count-takes-the-top",
        "Seed 003, Step 4; Setup (one token per section): under VK-POWER-UNLOCK=by-count the token makes "
        "no difference, so the top one left on the board (Steal Resources, above the Convert on the map) goes.",
        ("summon",),
        ("summon",),
        invader_doc(gather, {"1": {"warlord": "convert", "invaders": 1}}, invader_resources=2),
        projection="tracks",
        rulings=(),
    )


def _goal_doc(
    goal: dict[str, Any],
    reward: list[dict[str, Any]],
    hexes: dict[str, Any],
    drawn: tuple[dict[str, str], dict[str, str]] = GATHERS,
    **fields: Any,
) -> dict[str, Any]:
    """Last turn's card has ``goal`` and ``reward``; deck 3 (two cards, the first doing ``drawn``)
    is drawn next."""
    last = card("last", *GATHERS, goal=goal, reward=reward, next_deck=3)
    base: dict[str, Any] = {
        "game": GAME,
        "start": "invader",
        "data": {
            "action_cards": [
                last,
                card("t1", *drawn, deck=3, next_deck=3),
                card("t2", *GATHERS, deck=3, next_deck=3),
                *FILLERS,
            ]
        },
        "hexes": copy.deepcopy(hexes),
        "discard": ["last"],
        "last_card": "last",
        "decks": {"3": ["t1", "t2"]},
        "decisions": answers([]),
        "chance": answers([]),
    }
    base.update(copy.deepcopy(fields))
    return base


def goals() -> Iterator[CaseSpec]:
    """Step 1: Check Goal at each goal's boundary, and each kind of reward."""
    gain = [{"effect": "gain_resources", "amount": 2}]
    cases: list[
        tuple[str, dict[str, Any], list[dict[str, Any]], dict[str, Any], dict[str, Any], str, str]
    ] = [
        (
            "occupied-hexes-exactly",
            {"goal": "occupied_hexes", "at_least": 3},
            gain,
            {"1": {"invaders": 1}, "4": {"invaders": 1}, "9": {"invaders": 2}},
            {},
            "Invaders in exactly three hexes meet 'at least 3': 2 resources",
            "tracks",
        ),
        (
            "occupied-hexes-warlord-not-counted",
            {"goal": "occupied_hexes", "at_least": 3},
            gain,
            {"1": {"invaders": 1}, "4": {"invaders": 1}, "9": {"warlord": "war"}},
            {},
            "two hexes with Invaders and one with a lone Warlord: 'Invaders in at least 3 hexes' is not met",
            "tracks",
        ),
        (
            "invaders-on-map-one-short",
            {"goal": "invaders_on_map", "at_least": 8},
            gain,
            {"1": {"invaders": 5}, "2": {"invaders": 2}},
            {},
            "seven Invaders on the map: 'at least 8' is not met, nothing is gained",
            "tracks",
        ),
        (
            "player-members-at-most-exactly",
            {"goal": "player_members", "at_most": 2},
            [{"effect": "lose_points", "amount": 1}],
            {"9": {"player": 2}, "1": {"invaders": 1}},
            {"score": 3},
            "the player has exactly two members on the map: 'at most 2' is met and costs a point",
            "tracks",
        ),
        (
            "resources-exactly",
            {"goal": "resources", "at_least": 3},
            [{"effect": "grow", "amount": 2, "direction": "lowest"}],
            {"4": {"invaders": 1}},
            {"invader_resources": 3},
            "the Invaders hold exactly 3 resources: the reward GROW 2 lowest lands on hex 4",
            "hexes",
        ),
        (
            "hex-occupied-warlord-only",
            {"goal": "hex_occupied", "hex": 4},
            gain,
            {"4": {"warlord": "war"}, "1": {"invaders": 1}},
            {},
            "hex 4 holds a Warlord but no Invader: 'Invaders in hex 4' is not met",
            "tracks",
        ),
        (
            "reward-lead",
            {"goal": "hex_occupied", "hex": 1},
            [{"effect": "lead"}],
            {"1": {"warlord": "steal-resources", "invaders": 1}},
            {"resources": {"wood": 2}},
            "the goal is met and the reward is a LEAD: the unlocked power (Steal Resources) runs at once",
            "tracks",
        ),
    ]
    for name, goal, reward, hexes, fields, why, projection in cases:
        yield spec(
            "goals",
            name,
            f"Seed 003, Invader Turn Step 1: Check Goal: {why}.",
            ("check-goal",),
            ("goal",),
            _goal_doc(goal, reward, hexes, **fields),
            projection=projection,
            stop=OPENING,
            window="all",
            rulings=("VK-SCORE-FLOOR", "VK-POWER-UNLOCK", "VK-GROW-OVERFLOW"),
        )
    yield spec(
        "goals",
        "reward-pays-for-summon",
        "Seed 003, Invader Turn Step 1: Check Goal; Step 4: the reward brings the Invaders from 5 to 6 "
        "resources; the card drawn after (GROW, MOVE) gathers nothing, and Step 4 summons a Warlord with "
        "what the reward paid.",
        ("check-goal", "summon"),
        ("goal", "summon"),
        _goal_doc(
            {"goal": "hex_occupied", "hex": 1},
            [{"effect": "gain_resources", "amount": 1}],
            {"1": {"warlord": "steal-resources", "invaders": 1}, "2": {"invaders": 1}},
            (act("GROW", "blank"), act("MOVE", "blank")),
            invader_resources=5,
            chance=answers(["t1"]),
        ),
        projection="tracks",
        stop=Stop.after(1),
        window="all",
        rulings=(),
    )


def draw_reshuffle() -> Iterator[CaseSpec]:
    """Step 2: Draw an Action Card when the named deck is empty (Step 2's reshuffle sentence)."""
    deck_cards = [
        card("one-a", *GATHERS, deck=1, next_deck=1),
        card("one-b", *GATHERS, deck=1, next_deck=1),
        card("two-a", *GATHERS, deck=2, next_deck=2),
        card("three-a", *GATHERS, deck=3, next_deck=1),
    ]
    yield spec(
        "draw-reshuffle",
        "only-that-decks-cards",
        "Seed 003, Step 2: deck 1 is empty; only deck 1's cards in the face-up pile are reshuffled into "
        "it (deck 2's and the last card, of deck 3, stay in the pile).",
        ("draw",),
        ("reshuffle",),
        {
            "game": GAME,
            "start": "invader",
            "data": {"action_cards": [*deck_cards, *FILLERS]},
            "hexes": {"5": {"invaders": 1}},
            "discard": ["one-a", "two-a", "one-b", "three-a"],
            "last_card": "three-a",
            "decks": {"1": [], "2": ["f2"], "3": ["f3"]},
            "decisions": answers([]),
            "chance": answers(["one-b"]),
        },
        projection="decks",
        window="all",
        rulings=(),
    )
    yield spec(
        "draw-reshuffle",
        "one-card-back",
        "Seed 003, Step 2: deck 2 is empty and the face-up pile holds one deck 2 card: it is reshuffled "
        "back and drawn with no choice to make.",
        ("draw",),
        ("reshuffle",),
        {
            "game": GAME,
            "start": "invader",
            "data": {"action_cards": [*deck_cards, *FILLERS]},
            "hexes": {"5": {"invaders": 1}},
            "discard": ["one-a", "two-a"],
            "last_card": "two-a",
            "decks": {"1": ["one-b"], "2": [], "3": ["f3"]},
            "decisions": answers([]),
            "chance": answers([]),
        },
        projection="decks",
        stop=OPENING,
        window="all",
        rulings=(),
    )
    yield spec(
        "draw-reshuffle",
        "next-deck-1",
        "Seed 003, Step 2: the last card names deck 1, so the Invader draws from deck 1 again.",
        ("draw",),
        (),
        {
            "game": GAME,
            "start": "invader",
            "data": {"action_cards": [*deck_cards, *FILLERS]},
            "hexes": {"5": {"invaders": 1}},
            "discard": ["three-a"],
            "last_card": "three-a",
            "decks": {"1": ["one-a", "one-b"], "2": ["two-a"], "3": ["f3"]},
            "decisions": answers([]),
            "chance": answers(["one-a"]),
        },
        projection="decks",
        rulings=(),
    )


def conflict() -> Iterator[CaseSpec]:
    """Conflict at the population limit and a cleared hex's cost (Summoning a Warlord, last lines)."""
    cases: list[tuple[str, dict[str, Any], dict[str, Any], str, str]] = [
        (
            "at-the-limit",
            {"5": {"player": 3, "invaders": 2}, "1": {"invaders": 1}},
            {"invader_resources": 2},
            "hex 5 holds exactly five members (3 + 2): not over the limit, no conflict",
            "hex:5",
        ),
        (
            "one-over-the-limit",
            {"5": {"player": 5, "invaders": 1}, "1": {"invaders": 1}},
            {"invader_resources": 1},
            "hex 5 holds six (5 + 1): conflict clears its Invader and the Invaders lose their one resource",
            "tracks",
        ),
        (
            "cleared-without-resources",
            {"5": {"player": 4, "invaders": 2}, "1": {"invaders": 1}},
            {"invader_resources": 0},
            "hex 5 is cleared of Invaders but the Invaders hold nothing: no resource is lost ('if possible')",
            "tracks",
        ),
        (
            "two-cleared-one-resource",
            {"4": {"player": 4, "invaders": 2}, "6": {"player": 5, "invaders": 1}, "1": {"invaders": 1}},
            {"invader_resources": 1},
            "hexes 4 and 6 are both cleared: the first costs the Invaders' only resource, the second nothing",
            "tracks",
        ),
        (
            "warlord-hex-no-members",
            {"7": {"player": 5, "warlord": "war"}, "1": {"invaders": 1}},
            {"invader_resources": 2},
            "hex 7 holds five members and a Warlord: Warlords are not members, so there is no conflict",
            "hex:7",
        ),
    ]
    for name, hexes, fields, why, projection in cases:
        yield spec(
            "conflict",
            name,
            f"Seed 003, Summoning a Warlord (Warlords have no effect on conflict; a cleared hex costs a "
            f"resource); Player Turn: {why}.",
            ("warlords", "player-turn"),
            ("conflict", "player-script"),
            player_doc(PASSIVE, hexes, **fields),
            projection=projection,
            stop=OPENING,
            window="all",
        )
    yield spec(
        "conflict",
        "rivals-without-the-player",
        "Seed 003, Summoning a Warlord; The Vul'Keth Tribe: Pillage: a rival and the Invaders fight in "
        "hex 6 without the player; the Invaders lose a resource, and Pillage does not apply.",
        ("warlords", "vulketh"),
        ("conflict", "rival", "player-script"),
        player_doc(
            PASSIVE,
            {"6": {"invaders": 3, "rivals": {"Kiror": 3}}, "1": {"invaders": 1}},
            rivals=[{"name": "Kiror"}],
            invader_resources=2,
            tribe="vulketh",
        ),
        projection="tracks",
        stop=OPENING,
        window="all",
    )


def _power(name: str) -> list[dict[str, str]]:
    return [{"effect": "power", "power": name}]


def _power_doc(power: str, hexes: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    supply = fields.get("supply")
    document = effect_doc(_power(power), hexes, **{k: v for k, v in fields.items() if k != "supply"})
    return document if supply is None else short_supply(document, supply["invaders"])


def power_boundaries() -> Iterator[CaseSpec]:
    """Each Warlord power at its edges (Warlord Powers), applied as a goal reward."""
    cases: list[tuple[str, str, dict[str, Any], dict[str, Any], str, str, tuple[str, ...]]] = [
        (
            "steal-nothing",
            "steal-resources",
            {"1": {"invaders": 1}},
            {},
            "Steal Resources with the player holding nothing: nothing changes hands",
            "tracks",
            (),
        ),
        (
            "convert-two-warlords-one-member",
            "convert",
            {"1": {"warlord": "war", "invaders": 1}, "3": {"player": 3}, "6": {"warlord": "spread"}},
            {},
            "hex 3 touches two Warlords (hexes 1 and 6): still one member converted there",
            "hexes",
            ("VK-CONVERT-CAP", "VK-CONVERT-EMPTY", "VK-CONVERT-RESERVE"),
        ),
        (
            "convert-not-adjacent",
            "convert",
            {"1": {"warlord": "war", "invaders": 1}, "4": {"player": 2}, "9": {"player": 2}},
            {},
            "hexes 4 and 9 do not touch hex 1's Warlord: nobody is converted",
            "hexes",
            ("VK-CONVERT-CAP", "VK-CONVERT-EMPTY", "VK-CONVERT-RESERVE"),
        ),
        (
            "convert-supply-and-reserve-empty",
            "convert",
            {"1": {"warlord": "war", "invaders": 1, "player": 2}, "9": {"invaders": 4}},
            {"supply": {"invaders": 0}, "reserve": 0},
            "no Invader left in the supply or the overrun reserve",
            "hexes",
            ("VK-CONVERT-CAP", "VK-CONVERT-EMPTY", "VK-CONVERT-RESERVE"),
        ),
        (
            "spread-supply-runs-out",
            "spread",
            {"1": {"invaders": 2}},
            {"supply": {"invaders": 1}},
            "hexes 2 and 3 qualify but the supply holds one Invader: hex 2 gets it, the rest is short",
            "hexes",
            ("VK-SPREAD-WARLORD",),
        ),
        (
            "spread-only-from-before",
            "spread",
            {"1": {"invaders": 1}, "2": {"invaders": 1}},
            {},
            "only hexes next to hexes that had Invaders before Spread get one; a hex filled by Spread does "
            "not spread further",
            "hexes",
            ("VK-SPREAD-WARLORD",),
        ),
        (
            "war-nothing-shared",
            "war",
            {
                "1": {"invaders": 2, "warlord": "war"},
                "9": {"player": 2},
                "4": {"player": 1, "warlord": "spread"},
            },
            {"invader_resources": 2},
            "War with no hex holding both members and Invaders (hex 4's Warlord is no Invader): no conflict",
            "hexes",
            ("VK-CONFLICT",),
        ),
        (
            "war-clears-a-hex",
            "war",
            {"3": {"player": 3, "invaders": 1}, "1": {"invaders": 1}},
            {"invader_resources": 2},
            "War in hex 3 (3 members against 1 Invader, below the limit) clears it: a resource is lost",
            "tracks",
            ("VK-CONFLICT",),
        ),
        (
            "regress-one-technology",
            "regress",
            {"1": {"invaders": 1}},
            {"developments": 2, "bronze": {"Axe": 0, "Kiln": 2}},
            "developments go back and the only technology that can turn back (Kiln) does, without a choice",
            "tracks",
            (),
        ),
        (
            "regress-nothing",
            "regress",
            {"1": {"invaders": 1}},
            {},
            "no development in progress and no Bronze technology: nothing happens",
            "tracks",
            (),
        ),
    ]
    for name, power, hexes, fields, why, projection, rulings in cases:
        yield spec(
            "power-boundaries",
            name,
            f"Seed 003, Warlord Powers: {why}.",
            ("powers",),
            ("warlord-power",),
            _power_doc(power, hexes, fields),
            projection=projection,
            stop=OPENING,
            window="all",
            rulings=rulings,
        )


def event_effects() -> Iterator[CaseSpec]:
    """Invader Event and reward effects one by one, and the doubles that draw an Event."""
    cases: list[
        tuple[str, list[dict[str, Any]], dict[str, Any], dict[str, Any], str, str, tuple[str, ...]]
    ] = [
        (
            "slide-a-die",
            [{"effect": "slide", "face": "sun", "action": "GROW"}],
            {"1": {"invaders": 1}},
            {},
            "a sun slid into GROW pushes out its oldest die, as an Invader card's die would",
            "board",
            (),
        ),
        (
            "remove-across-hexes",
            [{"effect": "remove_invaders", "amount": 3, "direction": "lowest"}],
            {"1": {"invaders": 2}, "2": {"invaders": 2}, "5": {"invaders": 1}},
            {},
            "remove 3 lowest: both of hex 1's, then one of hex 2's, back to the supply",
            "hexes",
            (),
        ),
        (
            "remove-more-than-there-are",
            [{"effect": "remove_invaders", "amount": 2, "direction": "highest"}],
            {"4": {"invaders": 1, "warlord": "war"}},
            {},
            "remove 2 highest with one Invader on the map: it goes, the Warlord stays",
            "hexes",
            (),
        ),
        (
            "player-gains-a-resource",
            [{"effect": "player_resources", "amount": 2, "resource": "stone"}],
            {"1": {"invaders": 1}},
            {"resources": {"stone": 1}},
            "the player gains two stone",
            "tracks",
            (),
        ),
        (
            "lose-points-below-zero",
            [{"effect": "lose_points", "amount": 2}],
            {"1": {"invaders": 1}},
            {"score": 1},
            "a score of 1 loses two points",
            "tracks",
            ("VK-SCORE-FLOOR",),
        ),
        (
            "appease-only-warlord",
            [{"effect": "remove_warlord"}],
            {"6": {"invaders": 2, "warlord": "convert"}},
            {},
            "'Appease the Volcano' with one Warlord on the map removes it without a choice",
            "tracks",
            ("VK-APPEASE",),
        ),
        (
            "appease-no-warlord",
            [{"effect": "remove_warlord"}],
            {"6": {"invaders": 2}},
            {},
            "'Appease the Volcano' with no Warlord on the map removes nothing",
            "tracks",
            ("VK-APPEASE",),
        ),
        (
            "move-effect-highest",
            [{"effect": "move", "amount": 3, "direction": "highest"}],
            {"9": {"invaders": 4}, "8": {"invaders": 4}},
            {},
            "MOVE 3 highest as an effect: hex 9 fills hex 8 to five, then hex 9 sends on to 7",
            "hexes",
            MOVE_RULINGS,
        ),
    ]
    for name, effects, hexes, fields, why, projection, rulings in cases:
        yield spec(
            "event-effects",
            name,
            f"Seed 003, Invader Events (replace standard events): {why}.",
            ("events",),
            ("invader-event",),
            effect_doc(effects, hexes, **fields),
            projection=projection,
            stop=OPENING,
            window="all",
            rulings=rulings,
        )
    table = {"5": {"player": 3, "invaders": 2}, "2": {"invaders": 1}, "8": {"player": 1}}
    yield spec(
        "event-effects",
        "doubles-war-drums",
        "Seed 003, Player Turn (doubles trigger an Invader Event): War Drums (an example card) is War: "
        "conflict in hex 5, shared by the player and the Invaders.",
        ("events", "player-turn", "powers"),
        ("doubles", "invader-event", "player-script", "conflict"),
        player_doc(
            dice(("sun", "GATHER"), ("sun", "LEAD")), table, chance=["war-drums"], invader_resources=1
        ),
        stop=Stop.before("invader-deck-1"),
        window="all",
    )
    yield spec(
        "event-effects",
        "doubles-of-blanks",
        "Seed 003, Player Turn: two blanks are doubles too: an Invader Event is drawn.",
        ("events", "player-turn"),
        ("doubles", "invader-event", "player-script"),
        player_doc(dice(("blank", "GATHER"), ("blank", "LEAD")), table, chance=["tribute"]),
        projection="tracks",
        stop=Stop.before("invader-deck-1"),
        window="all",
    )
    yield spec(
        "event-effects",
        "no-doubles-no-event",
        "Seed 003, Player Turn: a sun and a moon are not doubles: no Invader Event.",
        ("events", "player-turn"),
        ("player-script",),
        player_doc(dice(("sun", "GATHER"), ("moon", "LEAD")), table),
        projection="decks",
        stop=OPENING,
        window="all",
    )
    yield spec(
        "event-effects",
        "event-pile-reshuffled",
        "Seed 003, Player Turn; Invader Events: doubles with the Event pile empty: its discards are "
        "reshuffled and the only card, Tribute, is drawn.",
        ("events", "player-turn"),
        ("doubles", "invader-event", "player-script"),
        player_doc(
            dice(("moon", "GATHER"), ("moon", "LEAD")),
            table,
            events={"pile": [], "discard": ["tribute"]},
        ),
        projection="decks",
        stop=OPENING,
        window="all",
    )


def wipe_out_boundaries() -> Iterator[CaseSpec]:
    """Invader Turn Example NOTE: re-placing after a wipe-out, at normal difficulty and short of pieces."""
    warlords = {"1": {"warlord": "steal-resources"}, "7": {"warlord": "convert"}, "9": {"player": 2}}
    yield spec(
        "wipe-out-boundaries",
        "normal",
        "Seed 003, Invader Turn Example NOTE: no Invader left (normal game): two on each of hexes 1-3 "
        "and one on each Warlord hex (hex 1 gets both).",
        ("wipe-out",),
        ("wipe-out",),
        invader_doc(card("gather", *GATHERS), warlords),
        stop=OPENING,
        window="all",
    )
    yield spec(
        "wipe-out-boundaries",
        "supply-short",
        "Seed 003, Invader Turn Example NOTE: no Invader left and four in the supply: hexes are filled in "
        "order until the supply runs out.",
        ("wipe-out",),
        ("wipe-out",),
        short_supply(invader_doc(card("gather", *GATHERS), warlords), 4),
        stop=OPENING,
        window="all",
    )


def villages() -> Iterator[CaseSpec]:
    """The player's villages: cost paid exactly, two villages scoring, one village per hex."""
    yield spec(
        "villages",
        "exact-cost",
        "Seed 003, Player Turn; Summoning a Warlord (no village in a Warlord hex): the player pays "
        "exactly 2 food, 2 wood, 2 stone for a village in hex 7 and has nothing left.",
        ("player-turn",),
        ("player-script", "village"),
        player_doc(
            dice(("blank", "GATHER"), ("moon", "LEAD"), villages=[7]),
            {"7": {"player": 1}, "1": {"invaders": 1}},
            resources={"food": 2, "wood": 2, "stone": 2},
        ),
        projection="tracks",
        stop=OPENING,
        window="all",
    )
    yield spec(
        "villages",
        "two-score-two",
        "Seed 003, Player Turn: two villages score two points at the start of the turn.",
        ("player-turn",),
        ("player-script", "village"),
        player_doc(
            PASSIVE,
            {
                "4": {"village": "player", "player": 1},
                "8": {"village": "player", "player": 1},
                "1": {"invaders": 1},
            },
            score=5,
        ),
        projection="tracks",
        stop=OPENING,
        window="all",
    )
    yield spec(
        "villages",
        "thirteen-and-two-villages",
        "Seed 003, How to Play: 13 points and two villages: the turn starts at 15 and the player wins.",
        ("how-to-play", "player-turn"),
        ("player-script", "village"),
        player_doc(
            PASSIVE,
            {
                "4": {"village": "player", "player": 1},
                "8": {"village": "player", "player": 1},
                "1": {"invaders": 1},
            },
            score=13,
        ),
        projection="result",
        stop=OPENING,
        window="all",
    )
    yield spec(
        "villages",
        "player-grow-weak",
        "Seed 003, Player Turn (the base game's GROW, research notes §1.2): a moon makes GROW weak, 2 members.",
        ("player-turn", "action-board"),
        ("player-script",),
        player_doc(
            dice(("moon", "GROW"), ("blank", "LEAD"), grow={"9": 2}),
            {"9": {"player": 2}, "1": {"invaders": 1}},
        ),
        stop=OPENING,
        window="all",
    )


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
        grow_move_strengths,
        lead_strengths,
        summon_boundaries,
        goals,
        draw_reshuffle,
        conflict,
        power_boundaries,
        event_effects,
        wipe_out_boundaries,
        villages,
        action_card_spread,
        invader_event_spread,
    ),
    notes={"run-sections": "how-to-play player-turn check-goal draw place-dice grow-move summon"},
)

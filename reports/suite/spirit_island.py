"""Spirit Island's cases: rule by rule (Spirit Island Rulebook), the FAQ's and sources outside the rulebook' worked examples,
the rulings, the solvers' edge cases, hypothesis-shrunk boundaries and seeded playthroughs.

Single actions are cut out of one Invader Phase by its requests:

* **one Ravage in one land**: a Stage III Ravage card (``3MW``: mountains and wetlands, lands
  A1, A2, A5, A6 of board A) with Invaders in three of its lands asks the ``land-order``; the case
  answers the land under test and stops at the next ``land-order``, so the compared step is that
  land's Ravage alone (Blight, cascade, fight-back, Fear);
* **a Build card, Fear cards, Events**: the Invader deck's top is an unknown Stage I card, so the
  phase stops at its ``draw`` after Ravage and Build; the compared step is the opening;
* **one Explore card and the advance**: the answer to that ``draw`` (the card) is the step.

A City on A8 keeps Invaders on the island so Terror Level I is not won by accident.

Projections (``docs/fixtures.md``): ``land:<NAME>`` (one land: pieces in land notation, Presence,
Defend), ``lands`` (every land), ``fear`` (the Fear track), ``blight`` (the Blight card and pool),
``invader-board`` (deck, Ravage, Build, discard) and ``result``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from invasion_oracle.reports.suite.plugins import GameSuite, Projection, Section
from invasion_oracle.reports.suite.specs import CaseMaker, CaseSpec, Stop

GAME = "spirit-island"

SECTIONS = (
    Section("pieces", "Invader (pieces, Health, Damage, Fear), Tracking Damage"),
    Section("upgrade", "Upgrade & Downgrade (and destroy, remove, replace)"),
    Section("island", "Island boards A–H, adjacency, the Ocean, layouts"),
    Section("blighted-island", "Invader Phase 1 Blighted Island; Blight and the Blight card"),
    Section("event", "Event"),
    Section("fear", "Invader Phase 2 Fear; Fear and Terror"),
    Section("ravage", "3a Ravage"),
    Section("build", "3b Build"),
    Section("explore", "3c Explore (and Escalation)"),
    Section("advance", "4 Advance Invader Cards; the Invader deck"),
    Section("victory", "Victory and defeat"),
    Section("phase", "The phase in order (the pure game)"),
    Section("effects", "Fear card / Event / Blight card / Escalation effects"),
)

FEATURES = {
    "ravage": "Invaders Ravage a land",
    "dahan": "Dahan take Damage and fight back",
    "defend": "Defend reduces Ravage Damage",
    "blight": "Blight added to a land",
    "cascade": "Blight cascading into an adjacent land",
    "presence": "Spirit Presence destroyed by Blight",
    "fight-back": "the players spread the surviving Dahan's Damage",
    "build": "Invaders Build",
    "explore": "Invaders Explore",
    "advance": "Invader cards advance",
    "fear": "Fear generated and Fear cards earned",
    "fear-card": "Fear card effects at a Terror Level",
    "terror-level": "the Terror Level rises",
    "event": "Event cards",
    "blight-card": "the Blight card flips and its effects",
    "escalation": "the Adversary's Escalation",
    "skip": "skipped actions",
    "health": "Health modifiers",
    "downgrade": "upgrading and downgrading Invaders",
    "victory": "victory and defeat",
    "multi-board": "islands of more than one board",
    "multi-turn": "more than one Invader Phase (Time Passes)",
    "land-order": "the players order a Ravage card's lands",
    "illegal-answer": "an answer the implementation must refuse",
    "whole-run": "a whole run compared from the opening",
    "playthrough": "cut from a recorded or random playthrough",
    "ruling-witness": "a ruling's witness scenario",
}

# -- projections ----------------------------------------------------------------------------------


def _land_json(scenario: Any, state: Any, index: int) -> dict[str, Any]:
    from invasion_oracle.model.spirit_island.pieces import describe

    land = state.lands[index]
    return {"pieces": describe(land), "presence": dict(land.presence), "defend": land.defend}


def _land(scenario: Any, state: Any, argument: str) -> Any:
    from invasion_oracle.model.core.errors import MalformedInputError

    if not scenario.island.has_land(argument):
        raise MalformedInputError("projection", f"land:{argument}", f"no land {argument} on this island")
    return _land_json(scenario, state, scenario.island.index(argument))


def _lands(scenario: Any, state: Any, argument: str) -> Any:
    return {name: _land_json(scenario, state, i) for i, name in enumerate(scenario.island.lands)}


def _fear(scenario: Any, state: Any, argument: str) -> Any:
    fear = state.fear
    return {
        "pool": fear.in_pool,
        "pool_size": fear.pool_size,
        "earned_total": fear.earned_total,
        "terror_level": min(fear.terror_level, 3),
        "unresolved": list(fear.earned),
        "resolved": list(fear.discard),
        "generated": fear.generated,
    }


def _blight(scenario: Any, state: Any, argument: str) -> Any:
    blighted = {
        name: state.lands[i].blight for i, name in enumerate(scenario.island.lands) if state.lands[i].blight
    }
    return {
        "card": state.blight.card,
        "side": state.blight.side,
        "pool": state.blight.pool,
        "lands": blighted,
    }


def _board(scenario: Any, state: Any, argument: str) -> Any:
    board = state.invaders
    return {
        "deck": list(board.deck),
        "ravage": list(board.ravage),
        "build": list(board.build),
        "explore": list(board.explore),
        "discard": list(board.discard),
    }


def _result(scenario: Any, state: Any, argument: str) -> Any:
    from invasion_oracle.reports.suite.events import coded_result

    if state.outcome is None:
        return {"result": "running", "reason": "", "turn": state.turn}
    return coded_result(GAME, state.outcome.to_json())  # the reason as a code (and its ids), never prose


def _action(scenario: Any, state: Any, argument: str) -> Any:
    """One land and what its action sends off the land: Fear (pool and cards earned) and the Blight
    pool (a Blight added comes from it)."""
    return {
        "land": _land(scenario, state, argument),
        "fear": {"pool": state.fear.in_pool, "earned": state.fear.earned_total},
        "blight_pool": state.blight.pool,
    }


def _goal(scenario: Any, state: Any, argument: str) -> Any:
    """What a least-Defend goal is about in one land: its Blight and its Dahan (count, damaged)."""
    _land(scenario, state, argument)  # checks the name
    land = state.lands[scenario.island.index(argument)]
    dahan = land.dahan
    return {"blight": land.blight, "dahan": len(dahan), "dahan_damaged": sum(1 for d in dahan if d.damage)}


PROJECTIONS = (
    Projection("land", "one land: pieces (land notation), Presence by Spirit, Defend", _land, "land name"),
    Projection("lands", "every land, as `land` gives it, by name", _lands),
    Projection("fear", "the Fear track: pool, cards earned, Terror Level, generated", _fear),
    Projection("blight", "the Blight card, its side and pool; Blight by land", _blight),
    Projection("invader-board", "the Invader deck and the cards in each space", _board),
    Projection("result", "win, loss or running, with the reason (a code) and turn", _result),
    Projection(
        "action",
        "one land as `land` gives it, with the Fear pool and cards earned and the Blight pool",
        _action,
        "land name",
    ),
    Projection(
        "goal", "one land's Blight and Dahan (count, damaged): what least Defend is about", _goal, "land name"
    ),
)

# -- scenario builders -------------------------------------------------------------------------------

FEAR_CARDS = [
    "Blank Fear",
    "Wary Settlers",
    "Coastal Flight",
    "Halted Expansion",
    "Crumbling Outposts",
    "Dahan Raid",
    "Rising Dread",
    "Stalled Ravage",
    "Frail Outposts",
    "Scattered Explorers",
]
KEEP = {"A8": "C"}  # a City far from the action: Terror Level I is not won by accident


def doc(lands: dict[str, Any] | None = None, *, keep: bool = True, **fields: Any) -> dict[str, Any]:
    """Board A, no printed pieces, the Plain Blight card, a known Fear deck, an unknown Stage I
    card on top of the Invader deck (the phase stops at its draw)."""
    base: dict[str, Any] = {
        "game": GAME,
        "island": {"boards": ["A"]},
        "pieces": "empty",
        "lands": {**(KEEP if keep else {}), **(lands or {})},
        "blight": {"card": "Plain Blight"},
        "fear": {"deck": ["Blank Fear"] + ["draw"] * 8, "cards": FEAR_CARDS},
        "invader_deck": ["stage-1"],
        "decisions": {"script": [], "then": "first-legal"},
        "chance": {"script": [], "then": "first-legal"},
    }
    for key, value in fields.items():
        if key in ("decisions", "chance"):
            base[key] = {"script": list(value), "then": "first-legal"}
        else:
            base[key] = copy.deepcopy(value)
    return base


spec = CaseMaker(projection="lands", stop=Stop.before("draw"), window="all")


ALL_BUT_LAND_ORDER = tuple(
    r
    for r in (
        "SI-ESCALATION-TIMING",
        "SI-COASTAL-FLAG",
        "SI-CASCADE-CHOOSER",
        "SI-SKIP-SCOPE",
        "SI-DOWNGRADE-DAMAGE",
        "SI-BLIGHT-EMPTY",
    )
)
ALL_BUT_LAND_ORDER_AND_CASCADE = tuple(r for r in ALL_BUT_LAND_ORDER if r != "SI-CASCADE-CHOOSER")
OTHERS = {"A1": "E", "A6": "E"}
NEXT_LAND = Stop.before(
    "land-order", 2
)  # the land under test's Ravage, fight-back included  # the other lands of 3MW with Invaders: the land order is asked


def one_ravage(
    target: str, pieces: Any, *, others: dict[str, Any] | None = None, **fields: Any
) -> dict[str, Any]:
    """Ravage card 3MW with Invaders in A1, A6 and ``target`` (A2 or A5): the players order them."""
    lands = {**(OTHERS if others is None else others), target: pieces}
    return doc(lands, invader_board={"ravage": ["3MW"]}, decisions=[target], **fields)


def single_ravage(target: str, pieces: Any, card: str = "3MW", **fields: Any) -> dict[str, Any]:
    """Ravage card ``card`` with Invaders in ``target`` only: no land order is asked (the Ravage is
    one land's, whatever order a reading gives the card's lands)."""
    return doc({target: pieces}, invader_board={"ravage": [card]}, **fields)


def _slug(text: str) -> str:
    return text.replace("@", "at").replace(" ", "-").lower() or "empty"


# -- 3a Ravage -----------------------------------------------------------------------------------------


RAVAGE_GRID = [
    ("E", "an Explorer deals 1: no Blight"),
    ("2E", "two Explorers deal 2: Blight (the threshold)"),
    ("T", "a Town deals 2: Blight"),
    ("C", "a City deals 3"),
    ("E T C", "one of each: 6 Damage"),
    ("D E", "1 Damage damages the Dahan; it fights back and destroys the Explorer"),
    ("D@1 E", "a damaged Dahan dies to 1 Damage; nobody fights back"),
    ("D 2E", "2 Damage destroys the Dahan"),
    ("D T", "a Town's 2 Damage destroys a Dahan"),
    ("3D E T", "3 Damage: one Dahan destroyed, one damaged; two fight back"),
    ("3D 2T@1", "4 Damage: two Dahan die; the last destroys both damaged Towns"),
    ("2D C", "3 Damage: one Dahan destroyed, one damaged; 2 Damage to the City is not enough"),
    ("4D C", "3 Damage: one Dahan destroyed, one damaged; three fight back and destroy the City"),
    ("2D T@1 E", "3 Damage; the survivor destroys the damaged Town (Fear)"),
    ("D 2C", "6 Damage: the Dahan dies at once"),
    ("2D@1 E", "1 Damage destroys a damaged Dahan; the other fights back"),
    ("E 3D", "1 Damage damages one of three Dahan; all three fight back"),
    ("T@1 C@2", "damaged pieces deal full Damage"),
]


def ravage() -> Iterator[CaseSpec]:
    for pieces, why in RAVAGE_GRID:
        yield spec(
            "ravage",
            f"a5-{_slug(pieces)}",
            f"One Ravage in A5 ({pieces}): {why}.",
            ("ravage", "pieces"),
            ("ravage", "dahan") + (("blight",) if pieces not in ("E", "3D") else ()),
            single_ravage("A5", pieces),
            projection="action:A5",
        )
    for defend, pieces in ((1, "T"), (2, "T"), (3, "C"), (1, "D 2E"), (4, "C T")):
        yield spec(
            "ravage",
            f"defend-{defend}-{_slug(pieces)}",
            f"Defend {defend} against {pieces} in A5: the Damage left decides Blight and Dahan; "
            "the Dahan fight back even when nothing got through.",
            ("ravage",),
            ("ravage", "defend"),
            single_ravage("A5", {"pieces": pieces, "defend": defend}),
            projection="action:A5",
        )
    yield spec(
        "ravage",
        "land-order-choice",
        "The players order the Ravage card's lands; an engine may take the order itself: every first "
        "land's Ravage is acceptable.",
        ("ravage", "phase"),
        ("ravage", "land-order"),
        doc({"A1": "E", "A5": "2E D", "A6": "T"}, invader_board={"ravage": ["3MW"]}, decisions=["A1"]),
        stop=Stop.after(1),
        window="choice",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "ravage",
        "whole-card",
        "A Ravage card in all its lands, in the order the players choose, to the Explore draw.",
        ("ravage", "phase"),
        ("ravage", "land-order", "dahan", "blight"),
        doc(
            {"A1": "E D", "A5": "2E D", "A6": "T 2D"},
            invader_board={"ravage": ["3MW"]},
            decisions=["A6", "A1"],
        ),
    )
    yield spec(
        "ravage",
        "two-cards-in-space",
        "Two cards in the Ravage space (a 2W and a 1M): both Ravage, the older first.",
        ("ravage", "advance"),
        ("ravage",),
        doc(
            {"A5": "2E", "A1": "T"},
            invader_board={"ravage": ["1M", "2W"]},
            invader_deck=["stage-1", "stage-2"],
        ),
    )
    yield spec(
        "ravage",
        "no-card",
        "No card in the Ravage space: no Ravage anywhere.",
        ("ravage", "phase"),
        ("ravage",),
        doc({"A5": "2E 2D"}),
    )


def fight_back() -> Iterator[CaseSpec]:
    # Each leaves the surviving Dahan more Invaders than their Damage destroys: a real choice.
    for pieces, defend in (("3D C T 2E", 7), ("2D C@1 T E", 6), ("4D 2T E", 0), ("3D C 2E", 0)):
        yield spec(
            "fight-back",
            f"choice-{_slug(pieces)}",
            f"The Dahan surviving in A5 ({pieces}, Defend {defend}) spread their Damage as the players like; an engine "
            "may allocate it itself: every allocation's outcome is acceptable.",
            ("ravage", "pieces"),
            ("ravage", "dahan", "fight-back", "fear"),
            single_ravage("A5", {"pieces": pieces, "defend": defend}),
            projection="land:A5",
            stop=Stop.after(1),
            window="choice",
        )


def blight() -> Iterator[CaseSpec]:
    yield spec(
        "blight",
        "presence-destroyed",
        "Blight added to A5 destroys one Presence of each Spirit there.",
        ("blighted-island", "ravage"),
        ("blight", "presence", "land-order"),
        one_ravage(
            "A5",
            "2E",
            spirits=[
                {"name": "River", "presence": {"A5": 2, "A4": 1}},
                {"name": "Earth", "presence": {"A5": 1, "A7": 1}},
            ],
        ),
        projection="land:A5",
        stop=NEXT_LAND,
        window="after-opening",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "blight",
        "last-presence-loss",
        "A Spirit's last Presence is destroyed by Blight: the players lose at once.",
        ("blighted-island", "victory"),
        ("blight", "presence", "victory", "land-order"),
        one_ravage("A5", "2E", spirits=[{"name": "River", "presence": {"A5": 1}}]),
        projection="result",
        stop=NEXT_LAND,
        window="after-opening",
        rulings=ALL_BUT_LAND_ORDER,
    )
    for origin_blight, cascade in (("B", "a cascade"), ("", "no cascade")):
        yield spec(
            "blight",
            f"cascade-{'yes' if origin_blight else 'no'}",
            f"A5 {'already has' if origin_blight else 'has no'} Blight: the Ravage's Blight makes {cascade}.",
            ("blighted-island", "ravage"),
            ("blight", "cascade", "land-order"),
            one_ravage("A5", f"2E {origin_blight}".strip()),
            projection="blight",
            stop=Stop.after(1),
            window="last",
            rulings=ALL_BUT_LAND_ORDER,
        )
    yield spec(
        "blight",
        "cascade-choice",
        "Cascading Blight goes to an adjacent land the players choose; an engine may choose itself: "
        "every adjacent land's outcome is acceptable.",
        ("blighted-island",),
        ("blight", "cascade", "land-order"),
        one_ravage("A5", "2E B") | {"decisions": {"script": ["A5", "A4"], "then": "first-legal"}},
        projection="blight",
        stop=Stop.after(2),
        window="choice",
        rulings=ALL_BUT_LAND_ORDER_AND_CASCADE,
    )
    yield spec(
        "blight",
        "chain-cascade",
        "A cascade into a land that also has Blight cascades again (A5 to A6 to A8).",
        ("blighted-island",),
        ("blight", "cascade", "land-order"),
        one_ravage("A5", "2E B", others={"A1": "E", "A6": "E B"})
        | {"decisions": {"script": ["A5", "A6", "A8"], "then": "first-legal"}},
        projection="blight",
        stop=Stop.after(3),
        window="all",
        rulings=ALL_BUT_LAND_ORDER_AND_CASCADE,
    )
    yield spec(
        "blight",
        "card-flips",
        "The Blight pool's last Blight is taken: the Blight card flips to its Blighted side "
        "(ruling SI-BLIGHT-EMPTY).",
        ("blighted-island",),
        ("blight", "blight-card", "land-order"),
        one_ravage("A5", "2E", blight={"card": "Plain Blight", "pool": 1}),
        projection="blight",
        stop=NEXT_LAND,
        window="after-opening",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "blight",
        "runs-out-loss",
        "On its Blighted side the card's last Blight is taken: the Blight card runs out, a loss.",
        ("blighted-island", "victory"),
        ("blight", "blight-card", "victory", "land-order"),
        one_ravage("A5", "2E", blight={"card": "Plain Blight", "side": "blighted", "pool": 1}),
        projection="result",
        stop=NEXT_LAND,
        window="after-opening",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "blight",
        "encroaching-settlers-each-phase",
        "The Blight card Encroaching Settlers on its Blighted side: each Invader Phase begins by adding "
        "an Explorer to every coastal land.",
        ("blighted-island", "effects", "phase"),
        ("blight-card",),
        doc({}, blight={"card": "Encroaching Settlers", "side": "blighted"}),
    )
    yield spec(
        "blight",
        "restless-blight-flip",
        "Restless Blight flips: its flip effect adds an Explorer to every land with Blight.",
        ("blighted-island", "effects"),
        ("blight-card", "blight", "land-order"),
        one_ravage(
            "A5", "2E", others={"A1": "E B", "A6": "E"}, blight={"card": "Restless Blight", "pool": 1}
        ),
        projection="lands",
        stop=NEXT_LAND,
        window="after-opening",
        rulings=ALL_BUT_LAND_ORDER,
    )


# -- 3b Build, 3c Explore, 4 Advance -----------------------------------------------------------------------


def build() -> Iterator[CaseSpec]:
    grid = [
        ("E", "only an Explorer: a Town"),
        ("T", "more Towns than Cities: a City"),
        ("T C", "as many Towns as Cities: a Town"),
        ("2T C", "more Towns: a City"),
        ("C", "a City alone: a Town"),
        ("D", "no Invaders: no Build"),
        ("2E D@1", "Explorers and Dahan: a Town"),
    ]
    for pieces, why in grid:
        yield spec(
            "build",
            f"a5-{_slug(pieces)}",
            f"Build in A5 ({pieces}): {why}.",
            ("build",),
            ("build",),
            doc({"A5": pieces}, invader_board={"build": ["1W"]}),
            projection="land:A5",
        )
    yield spec(
        "build",
        "every-land-of-the-card",
        "A Build card builds in every land of its terrain that has Invaders (A2 and A5 are wetlands).",
        ("build",),
        ("build",),
        doc({"A5": "E", "A2": "T", "A3": "E"}, invader_board={"build": ["1W"]}),
    )
    yield spec(
        "build",
        "coastal-card",
        "The Stage II Coastal Lands card builds in every coastal land with Invaders.",
        ("build", "island"),
        ("build",),
        doc(
            {"A1": "E", "A2": "T", "A3": "C", "A5": "E"},
            invader_board={"build": ["2C"]},
            invader_deck=["stage-2"],
        ),
    )


def explore() -> Iterator[CaseSpec]:
    cases = [
        ("1W", {}, "only the Ocean: coastal A2 gets an Explorer, inland A5 none"),
        ("1W", {"A4": "T"}, "a Town in A4 is a source for adjacent A2 and A5"),
        ("1W", {"A5": "C"}, "a City in the land itself is a source"),
        ("1W", {"A6": "2E"}, "Explorers are not a source"),
        ("1J", {"A4": "T", "A8": "C 2T"}, "one Explorer per land however many sources"),
        ("1S", {"A5": "T"}, "sands A4 and A7 both next to the Town"),
        ("1M", {"A5": "T", "A6": "E"}, "mountains: A1 coastal, A6 next to the Town"),
    ]
    for card, lands, why in cases:
        yield spec(
            "explore",
            f"{card.lower()}-{'-'.join(f'{k.lower()}-{_slug(v)}' for k, v in lands.items()) or 'ocean-only'}",
            f"The Explore card {card}: {why}; then the cards advance.",
            ("explore", "island", "advance"),
            ("explore", "advance"),
            doc(lands, keep="A8" not in lands, chance=[card]),
            stop=Stop.after(1),
            window="last",
        )
    yield spec(
        "explore",
        "draw-choice",
        "The Explore card is a chance draw: every unseen Stage I card is a possible outcome.",
        ("explore", "advance"),
        ("explore",),
        doc({"A4": "T"}),
        projection="invader-board",
        stop=Stop.after(0),
    )
    yield spec(
        "explore",
        "time-runs-out",
        "No Invader card left to Explore with: time has run out, the players lose.",
        ("explore", "victory"),
        ("explore", "victory"),
        doc({"A4": "T"}, invader_deck=[]),
        projection="result",
        stop=Stop.end(),
    )
    yield spec(
        "explore",
        "escalation-before",
        "With an Adversary, a flagged Stage II card escalates first: a Town joins each of its lands "
        "with an Explorer, then the Explore (ruling SI-ESCALATION-TIMING).",
        ("explore", "effects"),
        ("explore", "escalation"),
        doc({"A2": "E", "A5": "T"}, adversary="Generic Escalation", invader_deck=["2W"]),
        stop=Stop.end(),
    )
    yield spec(
        "explore",
        "coastal-card-escalation",
        "The Stage II Coastal Lands card with an Adversary: does it carry the Escalation flag "
        "(ruling SI-COASTAL-FLAG)?",
        ("explore", "effects"),
        ("explore", "escalation"),
        doc({"A1": "E", "A5": "T"}, adversary="Generic Escalation", invader_deck=["2C"]),
        stop=Stop.end(),
    )
    for slots in (
        {"ravage": ["1M"], "build": ["1S"]},
        {"build": ["1S"]},
        {"ravage": ["1M"], "discard": ["1J"]},
    ):
        label = "-".join(f"{k}-{v[0].lower()}" for k, v in slots.items())
        yield spec(
            "advance",
            label,
            "After Explore the cards slide: Ravage to the discard, Build to Ravage, the explored card to Build.",
            ("advance",),
            ("advance", "explore"),
            doc({"A3": "T"}, invader_board=slots, chance=["1W"]),
            projection="invader-board",
            stop=Stop.after(1),
            window="last",
        )


# -- every board: single-land Ravage, Build and Explore (a case table, one builder) -----------------------

SPREAD_RAVAGE = ("E", "2E", "T", "C", "D E", "D T", "2D C", "D@1 E")
SPREAD_BUILD = ("E", "T", "T C", "C", "2E D", "2T C", "E", "T")
SPREAD_SOURCES = ("T", "C", "2T", "C T")
TERRAIN_CARD = {"mountain": "1M", "wetland": "1W", "jungle": "1J", "sands": "1S"}


def _boards() -> dict[str, dict[int, str]]:
    from invasion_oracle.model.spirit_island.data import default_data

    data = default_data()
    boards = data.boards.values() if isinstance(data.boards, dict) else data.boards
    return {
        board.name: {
            land.number: str(land.terrain.value) for land in sorted(board.lands, key=lambda x: x.number)
        }
        for board in sorted(boards, key=lambda b: b.name)
    }


def board_spread() -> Iterator[CaseSpec]:
    """On every board A-H: a Ravage and a Build in each of its eight lands (alone on its card's
    terrain) and an Explore card per terrain, so an engine that knows one board is graded on it."""
    for b, (letter, terrains) in enumerate(_boards().items()):
        board: dict[str, Any] = {"island": {"boards": [letter]}}
        for n, terrain in terrains.items():
            land = f"{letter}{n}"
            card = TERRAIN_CARD[terrain]
            keep = next(f"{letter}{k}" for k, t in terrains.items() if t != terrain)
            pieces = SPREAD_RAVAGE[(b + n) % len(SPREAD_RAVAGE)]
            yield spec(
                "boards",
                f"{land.lower()}-ravage-{_slug(pieces)}",
                f"Board {letter}: one Ravage in {land} ({terrain}, {pieces}), alone on the Ravage card {card}.",
                ("ravage", "pieces", "island"),
                ("ravage", "dahan", "blight"),
                doc({keep: "C", land: pieces}, invader_board={"ravage": [card]}, keep=False, **board),
                projection=f"action:{land}",
            )
            pieces = SPREAD_BUILD[(b + n) % len(SPREAD_BUILD)]
            yield spec(
                "boards",
                f"{land.lower()}-build-{_slug(pieces)}",
                f"Board {letter}: Build in {land} ({terrain}, {pieces}), alone on the Build card {card}.",
                ("build", "island"),
                ("build",),
                doc({keep: "C", land: pieces}, invader_board={"build": [card]}, keep=False, **board),
                projection=f"land:{land}",
            )
        for k, (terrain, card) in enumerate(TERRAIN_CARD.items()):
            source_n = (b + 3 * k) % 8 + 1
            source = SPREAD_SOURCES[(b + k) % len(SPREAD_SOURCES)]
            yield spec(
                "boards",
                f"{letter.lower()}-explore-{card.lower()}-{letter.lower()}{source_n}-{_slug(source)}",
                f"Board {letter}: the Explore card {card} ({terrain}) with {source} in {letter}{source_n}: an "
                "Explorer in each land of that terrain next to a source or the Ocean; then the cards advance.",
                ("explore", "island", "advance"),
                ("explore", "advance"),
                doc({f"{letter}{source_n}": source}, keep=False, chance=[card], **board),
                projection="lands",
                stop=Stop.after(1),
                window="last",
            )


# -- every invader card, layout, Event and Fear card of the data (case tables, one builder each) ----------

CARD_ACTIONS = ("ravage", "build", "explore")


def _and(words: list[str]) -> str:
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def _card_rows() -> Iterator[tuple[Any, str, str, str, str, str]]:
    """The card table: ``(card, terrain, action, board, land, pieces)`` for every Stage II and III
    card of the data that names terrains, each of its terrains and each action, on a board of the
    rotation. ``land`` is the card's land under test (Ravage, Build) or, for Explore, the land of a
    terrain off the card holding the source."""
    from invasion_oracle.model.spirit_island.data import default_data
    from invasion_oracle.model.spirit_island.island import build_island

    data = default_data()
    boards = _boards()
    letters = list(boards)
    cards = [c for c in data.invader_cards if c.stage > 1 and c.terrains]
    for c, card in enumerate(cards):
        names = [str(t.value) for t in card.terrains]
        for k, terrain in enumerate(names):
            for a, action in enumerate(CARD_ACTIONS):
                letter = letters[(3 * c + 2 * k + a) % len(letters)]
                island = build_island(data, (letter,))
                lands = boards[letter]
                if action == "explore":
                    off = [n for n, t in lands.items() if t not in names]
                    inland = [n for n in off if not island.is_coastal(f"{letter}{n}")] or off
                    land = f"{letter}{inland[(c + k) % len(inland)]}"
                    pieces = SPREAD_SOURCES[(c + k) % len(SPREAD_SOURCES)]
                else:
                    on = [n for n, t in lands.items() if t == terrain]
                    land = f"{letter}{on[(c + k + a) % len(on)]}"
                    table = SPREAD_RAVAGE if action == "ravage" else SPREAD_BUILD
                    pieces = table[(c + 2 * k) % len(table)]
                yield card, terrain, action, letter, land, pieces


def card_spread() -> Iterator[CaseSpec]:
    """Every Stage II and III card with terrains: for each of its terrains a Ravage and a Build in
    one land of that terrain (a City in a land of a terrain off the card does nothing) and an
    Explore, so a two-terrain card is seen to match lands of both its terrains and of no other."""
    from invasion_oracle.model.spirit_island.data import default_data
    from invasion_oracle.model.spirit_island.island import build_island

    data = default_data()
    boards = _boards()
    for card, terrain, action, letter, land, pieces in _card_rows():
        names = [str(t.value) for t in card.terrains]
        terrains = boards[letter]
        island = build_island(data, (letter,))
        board: dict[str, Any] = {"island": {"boards": [letter]}}
        what = f"{card.id} (Stage {card.stage}: {_and(names)})"
        if action == "explore":
            source = island.index(land)
            explored = [
                n
                for i, n in enumerate(island.lands)
                if str(island.terrain[i].value) in names
                and (island.coastal[i] or source in island.neighbours(i))
            ]
            flag = "; no Adversary, so no Escalation" if card.escalation else ""
            yield spec(
                "invader-cards",
                f"{card.id.lower()}-explore-{land.lower()}-{_slug(pieces)}",
                f"Board {letter}: the Explore card {what} with {pieces} in {land} ({terrains[int(land[1:])]}, "
                f"off the card): an Explorer in {_and(explored) or 'no land'}, the lands of "
                f"{'either of its terrains' if len(names) > 1 else 'its terrain'} coastal or next to the "
                f"source, and in no land of another terrain{flag}; then the cards advance.",
                ("explore", "island", "advance"),
                ("explore", "advance"),
                doc(
                    {land: pieces},
                    keep=False,
                    chance=[card.id],
                    invader_deck=[f"stage-{card.stage}"],
                    **board,
                ),
                projection="lands",
                stop=Stop.after(1),
                window="last",
            )
            continue
        keep = next(f"{letter}{n}" for n, t in terrains.items() if t not in names)
        other = f"the City in {keep} ({terrains[int(keep[1:])]}) is off the card"
        if action == "ravage":
            yield spec(
                "invader-cards",
                f"{card.id.lower()}-ravage-{land.lower()}-{_slug(pieces)}",
                f"Board {letter}: the Ravage card {what} Ravages {land} ({terrain}, {pieces}), its only land "
                f"with Invaders; {other} and does not Ravage.",
                ("ravage", "pieces", "island"),
                ("ravage", "dahan", "blight"),
                doc({keep: "C", land: pieces}, invader_board={"ravage": [card.id]}, keep=False, **board),
                projection=f"action:{land}",
            )
        else:
            yield spec(
                "invader-cards",
                f"{card.id.lower()}-build-{land.lower()}-{_slug(pieces)}",
                f"Board {letter}: the Build card {what} Builds in {land} ({terrain}, {pieces}), its only "
                f"land with Invaders; {other} and does not Build.",
                ("build", "island"),
                ("build",),
                doc({keep: "C", land: pieces}, invader_board={"build": [card.id]}, keep=False, **board),
                projection="lands",
            )


def _seams(layout: Any, island: Any) -> tuple[tuple[str, str], tuple[str, str]]:
    """Two of ``layout``'s cross-board edges, each as ``(near, far)``: for the Explore, the first
    whose far end is inland and of another terrain than the near end (a source on one board, the
    land it explores on the other); for the cascade, the last edge that is not that one."""
    ends = [(a, b) for a, b in layout.edges] + [(b, a) for a, b in layout.edges]
    explore = next(
        (x, y) for x, y in ends if not island.is_coastal(y) and island.terrain_of(x) != island.terrain_of(y)
    )
    cascade = next((b, a) for a, b in reversed(layout.edges) if {a, b} != set(explore))
    return explore, cascade


def layout_spread() -> Iterator[CaseSpec]:
    """Every layout of the data: an Explore and a cascade across one of its seams (cross-board
    edges), which only the layout makes adjacent."""
    from invasion_oracle.model.spirit_island.data import default_data
    from invasion_oracle.model.spirit_island.island import build_island

    data = default_data()
    for layout in data.layouts:
        island = build_island(data, layout.boards, layout)
        where = {"island": {"boards": list(layout.boards), "layout": layout.name}}
        joins = f"Layout {layout.name} (boards {_and(list(layout.boards))})"
        (source, far), (origin, target) = _seams(layout, island)
        card = TERRAIN_CARD[str(island.terrain_of(far).value)]
        yield spec(
            "layouts",
            f"{layout.name.lower()}-explore-{source.lower()}-{far.lower()}",
            f"{joins}: {source} and {far} touch across the seam; the Town in {source} is a source for "
            f"inland {far} ({island.terrain_of(far).value}), so the Explore card {card} puts an Explorer "
            "there; then the cards advance.",
            ("island", "explore"),
            ("explore", "multi-board"),
            doc({source: "T"}, keep=False, chance=[card], **where),
            projection="lands",
            stop=Stop.after(1),
            window="last",
        )
        card = TERRAIN_CARD[str(island.terrain_of(origin).value)]
        neighbours = island.neighbour_names(origin)  # none has Blight: the first is the first without
        yield spec(
            "layouts",
            f"{layout.name.lower()}-cascade-{origin.lower()}-{target.lower()}",
            f"{joins}: the Ravage card {card} Ravages {origin} (2E, already blighted); the Blight "
            f"cascades and the players send it across the seam to {target}, one of the adjacent lands "
            f"({_and(list(neighbours))}); read as going to the first adjacent land without Blight "
            f"(SI-CASCADE-CHOOSER), it goes to {neighbours[0]}.",
            ("island", "blighted-island", "ravage"),
            ("blight", "cascade", "multi-board"),
            doc(
                {origin: "2E B"},
                keep=False,
                invader_board={"ravage": [card]},
                decisions=[target],
                **where,
            ),
            projection="blight",
        )


FEAR_SPREAD = {"A2": "E T D", "A3": "C", "A5": "2E T D", "A4": "E T D", "A7": "E"}
"""Terror Level II: coastal and inland lands, with and without Dahan, a Ravage card (1W: A2 and A5,
so the players order them) and a Build card (1S: A4 and A7), so every Fear card's Level II effect
has something to act on."""
EVENT_SPREAD = {"B1": "E", "B3": "2E D", "B6": "T", "B8": "C"}
"""Board B, turn 3: coastal B1 and B3, a Ravage card (1S: B3 only, of B3 and B5, has Invaders) and
a Build card (1W: B1 and B6)."""


def data_card_spread() -> Iterator[CaseSpec]:
    """Every Fear card of the data resolved at Terror Level II, and every Event on turn 3 on board B
    (the other fear and event cases are at Terror Level I, turn 2, board A)."""
    from invasion_oracle.model.spirit_island.data import default_data

    data = default_data()
    for fear_card in data.fear_cards:
        yield spec(
            "fear",
            f"{_slug(fear_card.name)}-at-level-2",
            f"The Fear card {fear_card.name} resolves at Terror Level II (3 cards earned before), before "
            "the Ravage (1W: A2, then A5) and the Build (1S: A4 and A7) its Level II effect may change.",
            ("fear", "effects"),
            ("fear-card", "terror-level"),
            doc(
                FEAR_SPREAD,
                fear={
                    "earned_before": 3,
                    "earned": [fear_card.name],
                    "deck": ["Blank Fear"] * 5,
                    "cards": FEAR_CARDS,
                },
                invader_board={"ravage": ["1W"], "build": ["1S"]},
            ),
            projection="lands",
        )
    for event in data.events:
        fear_only = all(effect.kind == "fear" for effect in event.effects)
        yield spec(
            "event",
            f"{_slug(event.name)}-turn-3",
            f"Turn 3 on board B: the Event {event.name} resolves after Blighted Island and before Fear, "
            "then the Ravage (1S) and the Build (1W).",
            ("event", "effects"),
            ("event",),
            doc(
                EVENT_SPREAD,
                keep=False,
                island={"boards": ["B"]},
                events=[event.name],
                turn=3,
                invader_board={"ravage": ["1S"], "build": ["1W"]},
            ),
            projection="fear" if fear_only else "lands",
        )


# -- 2 Fear, Event, effects --------------------------------------------------------------------------------


def fear() -> Iterator[CaseSpec]:
    for pool, pieces in ((4, "3D T"), (1, "3D T"), (2, "4D C"), (1, "4D C 2T")):
        yield spec(
            "fear",
            f"pool-{pool}-{_slug(pieces)}",
            f"Dahan destroy Towns and Cities in A5 ({pieces}) with {pool} marker(s) in the Fear pool: "
            "1 Fear per Town, 2 per City; an empty pool earns a Fear card and refills.",
            ("fear", "pieces"),
            ("fear", "dahan", "land-order"),
            one_ravage("A5", pieces, fear={"pool": pool, "deck": ["Blank Fear"] * 9, "cards": FEAR_CARDS}),
            projection="fear",
            stop=NEXT_LAND,
            window="after-opening",
            rulings=ALL_BUT_LAND_ORDER,
        )
    levels = [(0, 1), (3, 2), (6, 3)]
    for before, level in levels:
        yield spec(
            "fear",
            f"wary-settlers-level-{level}",
            f"An earned Wary Settlers resolves at Terror Level {level} ({before} cards earned before): "
            f"Defend {level} in every land.",
            ("fear", "effects"),
            ("fear-card", "terror-level", "defend"),
            doc(
                {"A5": "T"},
                fear={
                    "earned_before": before,
                    "earned": ["Wary Settlers"],
                    "deck": ["Blank Fear"] * (8 - before),
                    "cards": FEAR_CARDS,
                },
            ),
            projection="lands",
        )
    for card, placed in (
        ("Coastal Flight", {"A2": "E T", "A3": "C"}),
        ("Crumbling Outposts", {"A5": "T D", "A4": "T"}),
        ("Dahan Raid", {"A5": "T D", "A4": "C"}),
        ("Scattered Explorers", {"A5": "2E D", "A4": "E"}),
        ("Frail Outposts", {"A5": "T@1 D"}),
        ("Rising Dread", {}),
        ("Halted Expansion", {"A1": "E", "A6": "E"}),
        ("Stalled Ravage", {"A5": "2E D", "A2": "2E"}),
    ):
        yield spec(
            "fear",
            f"{_slug(card)}",
            f"The Fear card {card} resolves at Terror Level I.",
            ("fear", "effects", "upgrade"),
            ("fear-card",),
            doc(
                placed,
                fear={"earned": [card], "deck": ["Blank Fear"] * 8, "cards": FEAR_CARDS},
                invader_board={"ravage": ["1W"], "build": ["1M"]}
                if card in ("Halted Expansion", "Stalled Ravage")
                else {},
            ),
            projection="lands",
        )
    yield spec(
        "fear",
        "terror-level-rises",
        "The third Fear card earned raises the Terror Level to II.",
        ("fear",),
        ("fear", "terror-level", "land-order"),
        one_ravage(
            "A5",
            "3D T",
            fear={"pool": 1, "earned_before": 2, "deck": ["Blank Fear"] * 7, "cards": FEAR_CARDS},
        ),
        projection="fear",
        stop=Stop.after(1),
        window="last",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "fear",
        "two-cards-in-order",
        "Two earned Fear cards resolve in the order earned.",
        ("fear", "effects"),
        ("fear-card",),
        doc(
            {"A5": "T D", "A2": "E"},
            fear={
                "earned": ["Coastal Flight", "Crumbling Outposts"],
                "deck": ["Blank Fear"] * 7,
                "cards": FEAR_CARDS,
            },
        ),
        projection="lands",
    )
    yield spec(
        "fear",
        "spirit-phase-fear",
        "Fear from the Spirit Phase (the scenario's inputs) earns a card before the Invader Phase.",
        ("fear", "phase"),
        ("fear",),
        doc(
            {"A5": "T"},
            fear={"pool": 2, "deck": ["Blank Fear"] * 9, "cards": FEAR_CARDS},
            spirit_phases=[{"fear": 2}],
        ),
        projection="fear",
    )
    yield spec(
        "fear",
        "every-card-earned-victory",
        "The last Fear card earned: Terror Level Victory.",
        ("fear", "victory"),
        ("fear", "victory"),
        doc(
            {"A5": "T"},
            fear={"pool": 1, "earned_before": 8, "deck": ["Blank Fear"], "cards": FEAR_CARDS},
            spirit_phases=[{"fear": 1}],
        ),
        projection="result",
        stop=Stop.end(),
    )


def effects_and_events() -> Iterator[CaseSpec]:
    yield spec(
        "event",
        "first-turn-skipped",
        "Events are not drawn on the first turn.",
        ("event", "phase"),
        ("event",),
        doc({"A2": "E"}, events=["Settlers Arrive"]),
    )
    for card in ("Settlers Arrive", "Peaceful Season", "Omens"):
        yield spec(
            "event",
            _slug(card),
            f"Turn 2: the Event {card} resolves after Blighted Island and before Fear.",
            ("event", "effects"),
            ("event",),
            doc({"A2": "E", "A5": "T"}, events=[card], turn=2),
            projection="lands" if card != "Omens" else "fear",
        )
    yield spec(
        "effects",
        "skip-build-in-land",
        "A Spirit Phase skip stops the Build in one land only; the other land of the card still builds.",
        ("effects", "build"),
        ("skip", "build"),
        doc(
            {"A2": "E", "A5": "E"},
            invader_board={"build": ["1W"]},
            spirit_phases=[
                {
                    "skips": [
                        {"effect": "skip", "action": "build", "scope": "lands", "where": {"lands": ["A5"]}}
                    ]
                }
            ],
        ),
    )
    yield spec(
        "effects",
        "skip-explore-card",
        "A skip of the whole Explore: the card is revealed but explores nowhere (ruling SI-SKIP-SCOPE).",
        ("effects", "explore"),
        ("skip", "explore"),
        doc(
            {"A4": "T"},
            chance=["1W"],
            spirit_phases=[{"skips": [{"effect": "skip", "action": "explore", "scope": "card"}]}],
        ),
        stop=Stop.after(1),
        window="last",
    )
    yield spec(
        "effects",
        "spirit-phase-defend",
        "Defend from the Spirit Phase protects A5 in this phase's Ravage.",
        ("effects", "ravage"),
        ("defend", "ravage", "land-order"),
        one_ravage("A5", "T D", spirit_phases=[{"defend": {"A5": 2}}]),
        projection="land:A5",
        stop=NEXT_LAND,
        window="after-opening",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "effects",
        "health-modifier",
        "A Town with Health 1 (a modifier) dies to one Dahan's Damage... and the modifier ends with the turn.",
        ("effects", "pieces"),
        ("health", "ravage", "dahan", "land-order"),
        one_ravage("A5", {"pieces": "T C D", "health": {"town": -1}}),
        projection="land:A5",
        stop=NEXT_LAND,
        window="after-opening",
        rulings=ALL_BUT_LAND_ORDER,
    )


# -- Upgrade & Downgrade, pieces, island, victory, the phase ---------------------------------------------


def downgrade() -> Iterator[CaseSpec]:
    for pieces in ("T@1 D", "C@2 D", "C@1 D", "T D"):
        before = 6 if pieces.startswith("C") else 3  # Terror Level III downgrades Cities, II Towns
        yield spec(
            "upgrade",
            f"downgrade-{_slug(pieces)}",
            f"Crumbling Outposts at Terror Level {'III' if before == 6 else 'II'} downgrades a piece ({pieces}): it keeps its "
            "Damage, which may destroy it as its new type (ruling SI-DOWNGRADE-DAMAGE).",
            ("upgrade", "effects"),
            ("downgrade", "fear-card"),
            doc(
                {"A5": pieces},
                fear={
                    "earned_before": before,
                    "earned": ["Crumbling Outposts"],
                    "deck": ["Blank Fear"] * (8 - before),
                    "cards": FEAR_CARDS,
                },
            ),
            projection="land:A5",
        )
    yield spec(
        "upgrade",
        "downgrade-choice-of-piece",
        "Two Towns differ in Damage: the players choose which one the effect touches.",
        ("upgrade", "effects"),
        ("downgrade", "fear-card"),
        doc(
            {"A5": "T T@1 D"},
            fear={"earned": ["Crumbling Outposts"], "deck": ["Blank Fear"] * 8, "cards": FEAR_CARDS},
            decisions=["T@1"],
        ),
        projection="land:A5",
        stop=Stop.after(1),
        window="choice",
    )


def island_victory_phase() -> Iterator[CaseSpec]:
    yield spec(
        "island",
        "two-boards-explore",
        "Boards B and D joined by their partial layout: a Town on one board is a source across the seam.",
        ("island", "explore"),
        ("explore", "multi-board"),
        {
            **doc({}, keep=False),
            "island": {"boards": ["B", "D"], "layout": "BD-partial"},
            "lands": {"B2": "C", "D8": "C"},
            "chance": {"script": ["1J"], "then": "first-legal"},
        },
        stop=Stop.after(1),
        window="last",
    )
    yield spec(
        "victory",
        "no-invaders-win",
        "Terror Level I: the Dahan destroy the last Invaders on the island: the players win at once.",
        ("victory", "ravage"),
        ("victory", "dahan", "land-order"),
        one_ravage("A5", "3D E", others={"A1": "E 2D", "A6": "E 2D"}, keep=False),
        projection="result",
        stop=Stop.end(),
        window="after-opening",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "victory",
        "terror-level-2-cities-remain",
        "Terror Level II: Towns gone but Explorers remain: no victory yet (Cities or Towns must go).",
        ("victory", "fear"),
        ("victory", "terror-level", "land-order"),
        one_ravage(
            "A5",
            "3D T",
            others={"A1": "E", "A6": "E"},
            keep=False,
            fear={"earned_before": 3, "deck": ["Blank Fear"] * 6, "cards": FEAR_CARDS},
        ),
        projection="result",
        stop=NEXT_LAND,
        window="after-opening",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "phase",
        "two-turns-time-passes",
        "Two Invader Phases: Damage heals and Defend ends when Time Passes; the cards advance twice.",
        ("phase", "advance", "pieces"),
        ("multi-turn", "advance", "explore", "build", "ravage"),
        doc(
            {"A5": {"pieces": "C@2 T D", "defend": 1}},
            turns=2,
            invader_board={"build": ["1W"]},
            invader_deck=["1J", "1S"],
        ),
        projection="lands",
        stop=Stop.end(),
    )
    yield spec(
        "phase",
        "setup-opening-explore",
        "A scenario starting at setup makes the opening Explore and advances it to Build first.",
        ("phase", "explore", "advance"),
        ("explore", "advance"),
        {
            **doc({}, keep=False),
            "pieces": "start",
            "start": "setup",
            "invader_deck": ["1W", "stage-1"],
            "lands": {},
        },
        projection="lands",
    )


def ruling_actions() -> Iterator[CaseSpec]:
    yield spec(
        "rulings",
        "land-order-board-order",
        "A Ravage card in three lands: the players choose the order, or an engine takes board order "
        "(SI-LAND-ORDER).",
        ("ravage", "phase"),
        ("ravage", "land-order", "blight", "cascade"),
        doc(
            {"A1": "2E B", "A5": "2E", "A6": "2E"}, invader_board={"ravage": ["3MW"]}, decisions=["A6", "A5"]
        ),
        projection="blight",
    )
    yield spec(
        "rulings",
        "cascade-chooser",
        "Blight cascades from A5: the players choose where, or it goes to the first adjacent land "
        "without Blight (SI-CASCADE-CHOOSER).",
        ("blighted-island", "ravage"),
        ("blight", "cascade", "land-order"),
        one_ravage("A5", "2E B", others={"A1": "E B", "A6": "E"}),
        projection="blight",
        stop=Stop.after(1),
        window="last",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "rulings",
        "skip-scope-whole",
        "Two Build cards and one card skip: does the skip stop one card or both (SI-SKIP-SCOPE)?",
        ("effects", "build"),
        ("skip", "build"),
        doc(
            {"A2": "E", "A5": "E", "A1": "T"},
            invader_board={"build": ["1W", "1M"]},
            spirit_phases=[{"skips": [{"effect": "skip", "action": "build", "scope": "card"}]}],
        ),
    )
    yield spec(
        "rulings",
        "blight-empty-when-needed",
        "The Blight pool empties with this Blight: the card flips now, or only when the next Blight is "
        "needed (SI-BLIGHT-EMPTY).",
        ("blighted-island",),
        ("blight", "blight-card", "land-order"),
        one_ravage("A5", "2E", blight={"card": "Plain Blight", "pool": 1}),
        projection="blight",
        stop=NEXT_LAND,
        window="after-opening",
        rulings=ALL_BUT_LAND_ORDER,
    )


ILLEGAL_ALLOCATION = "C0+3 T0+2 E0+1"  # 6 Damage: every piece destroyed, more than two Dahan deal


def illegal() -> Iterator[CaseSpec]:
    yield spec(
        "illegal",
        "land-not-on-card",
        "A8 is a jungle: it is not among the 3MW Ravage's lands and must be refused as the next land.",
        ("ravage",),
        ("illegal-answer", "land-order"),
        one_ravage("A5", "2E") | {"decisions": {"script": ["A8"], "then": "first-legal"}},
        stop=Stop.after(1),
        window="last",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "illegal",
        "allocation-not-listed",
        "Two Dahan survive a Ravage in A5 (Defend 6) and fight back with 4 Damage: an allocation of 6 "
        "(more Damage than the Dahan have) is not among the fight-back options and must be refused.",
        ("ravage",),
        ("illegal-answer", "fight-back", "defend"),
        # One land with Invaders: no land order is asked, so the script's first answer meets the
        # fight-back request itself.
        single_ravage("A5", {"pieces": "2D C T E", "defend": 6}, decisions=[ILLEGAL_ALLOCATION]),
        stop=Stop.after(1),
        window="last",
    )
    yield spec(
        "illegal",
        "card-already-seen",
        "The Explore draw cannot give a card already on the Invader board (1W is in the Build space).",
        ("explore", "advance"),
        ("illegal-answer", "explore"),
        doc({"A4": "T"}, invader_board={"build": ["1W"]}, chance=["1W"]),
        stop=Stop.after(1),
        window="last",
    )


# -- solver-found edge cases ---------------------------------------------------------------------------


def solver_cases() -> Iterator[CaseSpec]:
    """Fight-back optima, least Defend, least harmful cascades and smallest flips, each replayed here."""
    from invasion_oracle.model.spirit_island.pieces import parse_land
    from invasion_oracle.solver.spirit_island.defend import least_defend
    from invasion_oracle.solver.spirit_island.fear_threshold import best_fight_back

    for pieces, dahan in (("C 2T E", 2), ("2C T", 3), ("C T@1 2E", 1)):
        plan = best_fight_back(parse_land(pieces), dahan, "fear", method="baseline")
        land = parse_land(pieces)
        damage = sum({"E": 1, "T": 2, "C": 3}[p.label[0]] for p in land.invaders)
        full = f"{pieces} {dahan}D" if dahan > 1 else f"{pieces} D"
        yield spec(
            "solver",
            f"most-fear-fight-back-{_slug(pieces)}-{dahan}d",
            f"{dahan} Dahan fight back in A5 ({pieces}, Defend {damage} so none die): the allocation the "
            f"solver proves gives the most Fear ({plan.value}): {plan.allocation}.",
            ("ravage", "fear", "pieces"),
            ("fight-back", "fear", "defend"),
            single_ravage("A5", {"pieces": full, "defend": damage}, decisions=[plan.allocation]),
            projection="action:A5",
            stop=Stop.after(1),
            window="last",
            source="solver",
            command=f"invasion spirit-island fight-back --land '{pieces}' --dahan {dahan} --objective fear",
        )
    for pieces, goal in (("C T 2D", "no-blight"), ("C T 2D@1", "dahan-safe"), ("2C E D", "dahan-safe")):
        answer = least_defend(parse_land(pieces), goal, method="baseline")
        for defend in (answer.defend - 1, answer.defend):
            met = defend == answer.defend
            yield spec(
                "solver",
                f"least-defend-{goal}-{_slug(pieces)}-{defend}",
                f"The least Defend for {goal} against {pieces} is {answer.defend} (solver): with {defend} the "
                f"goal is {'met' if met else 'missed'}.",
                ("ravage",),
                ("defend", "ravage", "dahan"),
                # The goal is settled by the Invaders' Damage: the case stops at the fight-back
                # request (no answer pinned: `goal:` does not compare the allocation), or at the
                # Explore draw when no Dahan survive to fight back.
                single_ravage("A5", {"pieces": pieces, "defend": defend})
                | {"decisions": {"script": [], "then": "none"}},
                projection="goal:A5",
                source="solver",
                command=f"invasion spirit-island defend --land '{pieces}' --goal {goal}",
            )
    yield from _cascade_cases()
    yield from _flip_cases()


def _cascade_cases() -> Iterator[CaseSpec]:
    from invasion_oracle.model.spirit_island.data import default_data
    from invasion_oracle.model.spirit_island.island import build_island
    from invasion_oracle.model.spirit_island.pieces import parse_land
    from invasion_oracle.solver.spirit_island.cascade import best_cascade

    data = default_data()
    island = build_island(data, ("A",))
    layout = {"A1": "B", "A5": "B", "A6": "B", "A4": "D"}
    presence = {"A4": 1, "A8": 1, "A2": 2}
    lands = tuple(parse_land(layout.get(n, "")) for n in island.lands)
    with_presence = tuple(
        land.with_presence("River", presence[n]) if n in presence else land
        for n, land in zip(island.lands, lands, strict=True)
    )
    answer = best_cascade(island, with_presence, "A5", method="baseline")
    path = list(answer.best)
    yield spec(
        "solver",
        "least-harmful-cascade",
        f"Blight cascades from A5 (A1 and A6 blighted too): the path the solver proves destroys the least "
        f"Presence is {' '.join(path)} ({answer.presence} Presence).",
        ("blighted-island", "ravage"),
        ("blight", "cascade", "presence", "land-order"),
        one_ravage(
            "A5", "2E B", others={"A1": "E B", "A6": "E B"}, spirits=[{"name": "River", "presence": presence}]
        )
        | {"decisions": {"script": ["A5", *path], "then": "first-legal"}},
        projection="blight",
        stop=Stop.after(1 + len(path)),
        window="all",
        source="solver",
        rulings=ALL_BUT_LAND_ORDER_AND_CASCADE,
        command="invasion spirit-island cascade SCENARIO --land A5",
    )


def _flip_cases() -> Iterator[CaseSpec]:
    from invasion_oracle.model.core.bundled import ExampleRef
    from invasion_oracle.model.core.jsonio import parse_json_bytes
    from invasion_oracle.model.spirit_island.scenario import scenario_from_document
    from invasion_oracle.solver.spirit_island.island_search import (
        boundary_fixture,
        question_from_scenario,
        smallest_flip,
    )

    ref = ExampleRef.parse("example:spirit_island/island_search.json")
    scenario = scenario_from_document(parse_json_bytes(ref.read_bytes(), str(ref)), str(ref))
    question = question_from_scenario(scenario)
    for text in ("1:explore:A4", "1:build:A2"):
        turn, action, land = text.split(":")
        fact = (int(turn) - 1, action, scenario.island.index(land))
        try:
            flip = smallest_flip(question, fact, data=scenario.data, method="baseline")
        except Exception:  # a fact that already depends on the players has no flip
            continue
        if flip.changes is None:
            continue
        fixture = boundary_fixture(question, flip, scenario.data)
        yield spec(
            "solver",
            f"flip-{text.replace(':', '-').lower()}",
            f"{fixture.get('description', '')} (the smallest starting change the island search finds)",
            ("phase", action if action != "ravage" else "ravage", "island"),
            (action, "multi-turn"),
            fixture,
            stop=Stop.end(),
            source="solver",
            command=f"invasion spirit-island flip {ref} --fact {text} --write FILE",
        )


# -- hypothesis-shrunk boundaries ------------------------------------------------------------------------


def _lands_after_ravage(pieces: str) -> Any:
    from invasion_oracle.model import registry
    from invasion_oracle.model.core.play import run
    from invasion_oracle.model.core.spec import ScenarioOptions

    document = doc({"A5": pieces}, invader_board={"ravage": ["1W"]})
    scenario = registry.spec(GAME).load(document, "suite", ScenarioOptions())
    return run(scenario)


def _notation(counts: tuple[int, int, int, int, int]) -> str:
    e, t, c, d, damaged = counts
    parts = [
        f"{n}{x}" if n > 1 else x for n, x in ((e, "E"), (t, "T"), (c, "C"), (d, "D"), (damaged, "D@1")) if n
    ]
    return " ".join(parts)


def shrunk_cases() -> Iterator[CaseSpec]:
    """The smallest lands (hypothesis-shrunk) where a Ravage crosses a boundary."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis import strategies as st

    from invasion_oracle.properties.budget import fixed_constants

    counts = st.tuples(*(st.integers(0, 2) for _ in range(3)), st.integers(0, 4), st.integers(0, 2))
    quiet = settings(
        database=None,
        derandomize=True,
        max_examples=100,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )

    def events(c: Any, kind: str) -> list[Any]:
        return [e for e in _lands_after_ravage(_notation(c)).events if e.kind == kind]

    conditions = {
        "all-dahan-die-and-blight": (
            "every Dahan dies and the land is blighted",
            lambda c: (
                c[3] + c[4] > 0
                and any(
                    e.get("land_blighted") and e.get("dahan_destroyed") == c[3] + c[4]
                    for e in events(c, "ravaged")
                )
            ),
        ),
        "fight-back-destroys-city": (
            "the surviving Dahan destroy a City",
            lambda c: any(e.get("piece") == "city" for e in events(c, "invader_destroyed")),
        ),
        "dahan-survive-blight": (
            "the land is blighted and a Dahan survives",
            lambda c: any(
                e.get("land_blighted") and e.get("dahan_destroyed") < c[3] + c[4]
                for e in events(c, "ravaged")
            ),
        ),
        "town-destroyed-fear": (
            "the Dahan destroy a Town, which generates Fear",
            lambda c: any(e.get("piece") == "town" for e in events(c, "invader_destroyed")),
        ),
    }
    for name, (what, condition) in conditions.items():
        with fixed_constants():  # the same draws whatever ran before (properties/budget.py)
            found = find(counts, condition, settings=quiet)
        pieces = _notation(found)
        yield spec(
            "boundaries",
            f"smallest-{name}",
            f"The smallest land (hypothesis-shrunk over Explorers, Towns, Cities, Dahan) where {what}: {pieces}.",
            ("ravage", "pieces"),
            ("ravage", "dahan", "land-order"),
            one_ravage("A5", pieces),
            projection="land:A5",
            stop=NEXT_LAND,
            window="after-opening",
            source="hypothesis",
            rulings=ALL_BUT_LAND_ORDER,
            command="hypothesis.find over the counts of Explorers, Towns, Cities, Dahan and damaged Dahan",
        )


def worked_examples() -> Iterator[CaseSpec]:
    """The rulebook's FAQ answers and the sources outside the rulebook' fixtures, as cases."""
    yield spec(
        "worked-examples",
        "faq-damaged-pieces-deal-full",
        "FAQ Invaders: a damaged Invader deals its full Damage (1 per Explorer, 2 per Town, 3 per City).",
        ("ravage", "pieces"),
        ("ravage", "land-order"),
        one_ravage("A5", "T@1 C@2 2D"),
        projection="land:A5",
        stop=NEXT_LAND,
        window="after-opening",
        source="worked-example",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "worked-examples",
        "faq-note-lands-first",
        "FAQ Invaders: a card's lands are noted first, then resolved; a Town built in A2 does not make "
        "A5's Build happen.",
        ("build", "phase"),
        ("build",),
        doc({"A2": "E", "A5": ""}, invader_board={"build": ["1W"]}),
    )
    yield spec(
        "worked-examples",
        "explore-example-a",
        "Explore Example A (Spirit Island Rulebook, 3c Explore): a Town in the land itself is a source.",
        ("explore",),
        ("explore",),
        doc({"A5": "T"}, chance=["1W"]),
        stop=Stop.after(1),
        window="last",
        source="worked-example",
    )
    yield spec(
        "worked-examples",
        "rettig-three-dahan",
        "Research notes §3.3 (RETTIG): 3 Dahan, an Explorer and a Town: 3 Damage, one Dahan destroyed, "
        "one damaged, Blight; the two survivors destroy both Invaders (1 Fear).",
        ("ravage", "fear"),
        ("ravage", "dahan", "blight", "land-order"),
        one_ravage("A5", "3D E T"),
        projection="land:A5",
        stop=NEXT_LAND,
        window="after-opening",
        source="worked-example",
        rulings=ALL_BUT_LAND_ORDER,
    )
    yield spec(
        "worked-examples",
        "fear-not-from-remove",
        "FAQ Towns: removing a Town (Coastal Flight at Terror Level II) gives no Fear; destroying one does.",
        ("fear", "upgrade", "effects"),
        ("fear-card", "fear"),
        doc(
            {"A2": "T", "A3": "T"},
            fear={
                "earned_before": 3,
                "earned": ["Coastal Flight"],
                "deck": ["Blank Fear"] * 5,
                "cards": FEAR_CARDS,
            },
        ),
        projection="fear",
        source="worked-example",
    )


SUITE = GameSuite(
    game=GAME,
    sections=SECTIONS,
    projections=PROJECTIONS,
    features=FEATURES,
    producers=(
        ravage,
        fight_back,
        blight,
        build,
        explore,
        fear,
        effects_and_events,
        downgrade,
        island_victory_phase,
        ruling_actions,
        illegal,
        worked_examples,
        solver_cases,
        shrunk_cases,
        board_spread,
        card_spread,
        layout_spread,
        data_card_spread,
    ),
    notes={
        "run-sections": "phase ravage build explore advance",
        "step-sections": "phase",
        "ruling:SI-ESCALATION-TIMING": "explore effects",
        "ruling:SI-COASTAL-FLAG": "explore effects",
        "ruling:SI-CASCADE-CHOOSER": "blighted-island",
        "ruling:SI-LAND-ORDER": "ravage phase",
        "ruling:SI-SKIP-SCOPE": "effects",
        "ruling:SI-DOWNGRADE-DAMAGE": "upgrade",
        "ruling:SI-BLIGHT-EMPTY": "blighted-island",
        "ruling:SI-OVER-ALLOCATION": "ravage",
    },
)

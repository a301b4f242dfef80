"""Stonespine's cases: rule by rule (Stonespine Architects: Invasion Rulebook), the worked examples, the rulings, the solvers'
edge cases, hypothesis-shrunk boundaries and seeded playthroughs.

Most cases are single actions: a small dungeon whose first step (the die answer, or a ``move``
after it) sends one hero into one chamber and stops at the next request. Dungeons fork after the
first chamber (``A1`` opens right and down) so that the step ends there: the ``move`` request
that follows shows where the hero stands and with what damage.

Projections (``docs/fixtures.md`` has their exact shape): ``heroes`` (per player: the gate, the
heroes waiting, running, defeated and escaped), ``dungeon`` (element spaces and passages by
chamber, figures), ``guardian`` (board, markers, unlocks, XP, gold), ``scores`` (trophies,
demerits, XP, final scores, Jael, hero health) and ``market`` (the Invasion market and gold).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from invasion_oracle.model.stonespine.dungeon import sides_text
from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor
from invasion_oracle.reports.suite.plugins import GameSuite, Projection, Section
from invasion_oracle.reports.suite.specs import CaseMaker, CaseSpec, Stop

GAME = "stonespine"

SECTIONS = (
    Section("components", "Components; Icon Key"),
    Section("dungeon", "(base game) dungeon grid, doorways, entrance and exit"),
    Section("heroes", "Heroes (black, purple, red); Clarifications: Barbarian..., Cleric..."),
    Section("guardian-board", "Guardian Board; Leveling Up Guardians"),
    Section("construction", "I. Construction Phase"),
    Section("improvement", "II. Improvement Phase (Buy XP, Remove Rubble, Buy a Secret Passage)"),
    Section("preparation", "III. Preparation Phase"),
    Section("roll", "IV. Invasion, Step 1: Roll Dice"),
    Section("repel", "IV. Invasion, Step 2: Repel Heroes"),
    Section("gate", "IV. Invasion, Step 3: Close Gate or Continue"),
    Section("level-heroes", "IV. Invasion, Step 4: Level Up Heroes"),
    Section("award", "IV. Invasion, Step 5: Award Trophy / Demerits"),
    Section("xp", "IV. Invasion, Step 6: Gain XP"),
    Section("cleanup", "V. Cleanup"),
    Section("final-scoring", "Final Scoring (Invasion additions)"),
    Section("solo", "Solo Play"),
    Section("terms", "Game Terms: Damage, Escape, Figure, Rubble"),
    Section("tokens", "Clarifications: Hex-Shape Tokens; Giant Troll, Deceitful Demon"),
)

FEATURES = {
    "monster": "monster elements deal damage",
    "trap": "trap elements deal damage",
    "minion": "minion figures (2 damage each)",
    "guardian": "a guardian figure defeats the first hero entering its chamber",
    "defeated-hero": "a chamber holding a defeated hero is ignored",
    "hero-ability": "hero card abilities (black destroy, purple protection, red extra damage)",
    "rubble": "rubble tokens",
    "escape": "heroes escaping (no new chamber, the exit)",
    "move-choice": "the player routes the hero",
    "hero-order": "the player chooses which waiting hero enters",
    "dice": "invasion dice by year",
    "multi-player": "two or more players",
    "multi-wave": "more than one wave in a year",
    "gate": "close gate or continue",
    "hero-levels": "hero level-up rolls and health tokens",
    "trophy": "trophies and demerits",
    "xp": "XP and guardian level-ups",
    "instant-ability": "instant guardian abilities",
    "unlockable-ability": "unlockable guardian abilities",
    "ongoing-ability": "ongoing guardian abilities",
    "secret-passage": "secret passages and collapsing passages",
    "improvement": "the Improvement phase market",
    "preparation": "placing figures in the Preparation phase",
    "construction": "building a row in the Construction phase",
    "cleanup": "the Cleanup phase and later years",
    "final-scoring": "the Invasion additions to final scoring",
    "solo": "solo play against Jael",
    "illegal-answer": "an answer the implementation must refuse",
    "whole-run": "a whole run compared from the opening",
    "playthrough": "cut from a recorded or random playthrough",
    "ruling-witness": "a ruling's witness scenario",
}

# -- projections --------------------------------------------------------------------------------


def _heroes(scenario: Any, state: Any, argument: str) -> Any:
    out = []
    for p in state.players:
        running = None
        if p.running is not None:
            run = p.running
            running = {
                "hero": run.color.value,
                "chamber": run.at.name,
                "damage": run.damage,
                "visited": [c.name for c in run.visited],
            }
        out.append(
            {
                "name": p.name,
                "gate_open": p.gate_open,
                "waiting": [h.value for h in p.waiting],
                "running": running,
                "defeated": [{"chamber": c.name, "hero": h.value} for c, h in p.defeated],
                "escaped": [h.value for h in p.escaped],
            }
        )
    return {"players": out}


def _dungeon(scenario: Any, state: Any, argument: str) -> Any:
    out = []
    for p in state.players:
        chambers = {}
        for cell in p.dungeon.cells():
            chamber = p.dungeon.chamber(cell)
            entry: dict[str, Any] = {"spaces": [str(s) for s in chamber.spaces]}
            if chamber.passages:
                entry["passages"] = sides_text(chamber.passages)
            if chamber.collapsing:
                entry["collapsing"] = sides_text(chamber.collapsing)
            chambers[cell.name] = entry
        out.append(
            {
                "name": p.name,
                "rows": p.dungeon.rows,
                "chambers": chambers,
                "guardians": [c.name for c in p.placement.guardians],
                "minions": [c.name for c in p.placement.minions],
            }
        )
    return {"players": out}


def _guardian(scenario: Any, state: Any, argument: str) -> Any:
    return {
        "players": [
            {"name": p.name, "guardian": p.guardian.to_json(), "xp": p.xp, "gold": p.gold}
            for p in state.players
        ]
    }


def _scores(scenario: Any, state: Any, argument: str) -> Any:
    out: dict[str, Any] = {
        "players": [
            {
                "name": p.name,
                "trophies": [{"year": y, "value": v} for y, v in p.trophies],
                "demerits": [{"year": y, "value": v} for y, v in p.demerits],
                "xp": p.xp,
            }
            for p in state.players
        ],
        "heroes": [{"color": c.value, "health": state.health(c)} for c in COLORS],
        "final_scores": [s.to_json() for s in state.final_scores],
    }
    if state.solo:
        out["jael"] = {
            "trophies": [{"year": y, "value": v} for y, v in state.jael.trophies],
            "xp": state.jael.xp,
        }
    return out


def _market(scenario: Any, state: Any, argument: str) -> Any:
    return {
        "year": state.year,
        "stage": state.stage.value,
        "xp_spaces": list(state.market.xp_spaces),
        "passages_sold": state.market.passages_sold,
        "players": [{"name": p.name, "gold": p.gold, "xp": p.xp} for p in state.players],
    }


PROJECTIONS = (
    Projection("heroes", "per player: gate, heroes waiting, the running hero, defeated and escaped", _heroes),
    Projection("dungeon", "per player: each chamber's four element spaces and passages; figures", _dungeon),
    Projection("guardian", "per player: guardian board state (markers, unlocks), XP and gold", _guardian),
    Projection("scores", "trophies, demerits and XP per player; hero health; final scores; Jael", _scores),
    Projection(
        "market", "the year, the stage, the market's XP spaces and passages sold; gold and XP", _market
    ),
)

# -- scenario builders ---------------------------------------------------------------------------

FORK = ["cave TRB", "cave L", "cave T", "cave -"]  # A1 opens right (B1) and down (A2); B2 is closed


def fork(first: str, *, b1: str = "cave L", a2: str = "cave T", b2: str = "cave -") -> list[list[str]]:
    """A 2x2 dungeon entered at A1 (``first`` names its type and elements: ``stone kobold``);
    after A1 the hero may go right (B1) or down (A2), so the step ends with a ``move`` request."""
    kind, _, elements = first.partition(" ")
    return [[f"{kind} TRB {elements}".strip(), b1], [a2, b2]]


def player(
    rows: Sequence[Sequence[str]],
    *,
    name: str = "Ann",
    # The Pact Demon: its ongoing and instant abilities are in the rulebook (they act only on pact
    # tokens), so a case never rests on an ability the rulebook leaves out (SS-UNKNOWN-ONGOING).
    guardian: str = "Pact Demon",
    levels: tuple[int, int] = (0, 0),
    guardians: Sequence[str] | None = None,
    minions: Sequence[str] = (),
    entrance: str = "A",
    exit: str = "B",
    placed: bool = True,
    **extra: Any,
) -> dict[str, Any]:
    """A player; the guardian stands in the bottom-right chamber unless told (``placed=False``:
    no placement, for scenarios that start before the Preparation phase)."""
    if guardians is None:
        guardians = (f"{chr(ord('A') + len(rows[0]) - 1)}{len(rows)}",)
    doc: dict[str, Any] = {
        "name": name,
        "guardian": guardian,
        "levels": list(levels),
        "dungeon": {"entrance": entrance, "exit": exit, "rows": [list(r) for r in rows]},
    }
    if placed:
        doc["placement"] = {"guardians": list(guardians), "minions": list(minions)}
    doc.update(extra)
    return doc


def scenario(
    players: Sequence[dict[str, Any]],
    *,
    year: int = 1,
    dice: Sequence[str] = (),
    decisions: Sequence[Any] = (),
    then: str = "first-legal",
    description: str = "",
    **extra: Any,
) -> dict[str, Any]:
    doc: dict[str, Any] = {"game": GAME, "year": year, "players": [copy.deepcopy(p) for p in players]}
    if description:
        doc["description"] = description
    doc["dice"] = {"script": list(dice), "then": "first-legal"}
    doc["decisions"] = {"script": list(decisions), "then": then}
    doc.update(copy.deepcopy(extra))
    return doc


def one(
    rows: Sequence[Sequence[str]], *, year: int = 1, dice: Sequence[str] = ("red",), **kw: Any
) -> dict[str, Any]:
    """One player Ann (Pact Demon in B2 unless told) with scripted dice and decisions."""
    top = {
        k: kw.pop(k)
        for k in (
            "decisions",
            "heroes",
            "health_bonus",
            "then",
            "last_year",
            "solo",
            "years",
            "start",
            "data",
        )
        if k in kw
    }
    placed = top.get("start", "invasion") == "invasion"
    return scenario([player(rows, placed=placed, **kw)], year=year, dice=dice, **top)


def kill(rows: int = 4) -> list[list[str]]:
    """Column A of four-kobold chambers (column B closed): with four-health heroes each hero is
    defeated in the first chamber without a defeated hero, so no routing is ever asked."""
    column = [["cave TB kobold kobold kobold kobold", "cave -"] for _ in range(rows)]
    column[-1][0] = "cave T kobold kobold kobold kobold"
    return column


FOUR = {"purple": "Cleric"}  # black Thief and purple Cleric both have four health


spec = CaseMaker(projection="heroes", stop=Stop.after(1), window="last")


HEALTH = {
    "Thief": 4,
    "Black Hero 2": 4,
    "Black Hero 3": 4,
    "Black Hero 4": 5,
    "Cleric": 4,
    "Crusader": 4,
    "Paladin": 5,
    "Templar": 4,
    "Barbarian": 6,
    "Fighter": 6,
    "Knight": 6,
    "Warrior": 6,
}
COLOUR = {
    "Thief": "black",
    "Black Hero 2": "black",
    "Black Hero 3": "black",
    "Black Hero 4": "black",
    "Cleric": "purple",
    "Crusader": "purple",
    "Paladin": "purple",
    "Templar": "purple",
    "Barbarian": "red",
    "Fighter": "red",
    "Knight": "red",
    "Warrior": "red",
}
MONSTERS = ("gnoll", "goblin", "kobold", "ooze", "slime")
TRAPS = ("bear", "blade", "fire", "pit", "spike")


def _slug(text: str) -> str:
    return text.lower().replace(" ", "-").replace("+", "plus").replace("/", "-over-").replace("?", "-hidden")


# -- IV. Step 2: Repel Heroes -----------------------------------------------------------------------


def entering() -> Iterator[CaseSpec]:
    """One hero enters the first chamber: each element, figure and their sums."""
    for element in (*MONSTERS, *TRAPS):
        kind = "monster" if element in MONSTERS else "trap"
        for hero in ("black", "purple"):
            card = {"black": "Thief", "purple": "Cleric"}[hero]
            yield spec(
                "entering",
                f"{element}-{hero}",
                f"A {hero} hero ({card}, no ability on a {kind}) enters A1 holding a {element}: one damage.",
                ("repel", "components", "terms"),
                (kind,),
                one(fork(f"cave {element}"), dice=[hero], heroes={hero: card}),
            )
    for elements, total in (
        ("kobold slime", 2),
        ("kobold spike pit", 3),
        ("gnoll goblin ooze bear", 4),
        ("chest +1", 0),
        ("-2 +3", 0),
        ("chest", 0),
    ):
        yield spec(
            "entering",
            f"sum-{_slug(elements)}",
            f"A red Knight (no minion here, so no bonus) enters A1 with {elements}: monsters and traps "
            f"deal one each, chests and stars none ({total} in all).",
            ("repel", "components", "terms"),
            ("monster", "trap"),
            one(fork(f"cave {elements}"), dice=["red"], heroes={"red": "Knight"}),
        )
    for count in (1, 2, 3):
        minions = ["A1"] * count
        yield spec(
            "entering",
            f"minions-{count}",
            f"A black Thief enters A1 with {count} minion(s) of the Pact Demon: two damage each.",
            ("repel", "terms"),
            ("minion",),
            one(
                fork("cave kobold"),
                dice=["black"],
                guardian="Pact Demon",
                levels=(3, 2),
                minions=minions + ["B1"] * (3 - count),
            ),
        )
    yield spec(
        "entering",
        "guardian-first-chamber",
        "A red hero enters the chamber of the guardian: defeated at once, no damage counted.",
        ("repel", "terms"),
        ("guardian",),
        one(fork("cave spike spike"), dice=["red"], guardians=["A1"]),
    )
    yield spec(
        "entering",
        "guardian-stops-black-ability",
        "A black Thief enters the guardian's chamber with a chest: defeated, the chest is not destroyed.",
        ("repel", "heroes", "terms"),
        ("guardian", "hero-ability"),
        one(fork("cave chest chest"), dice=["black"], guardians=["A1"]),
        projection="dungeon",
    )
    yield spec(
        "entering",
        "guardian-and-minion",
        "A guardian and a minion share A1: the guardian defeats the hero; the minion's damage is not dealt.",
        ("repel", "terms"),
        ("guardian", "minion"),
        one(fork("cave kobold"), dice=["purple"], guardians=["A1"], levels=(1, 0), minions=["A1"]),
    )
    yield spec(
        "entering",
        "defeated-hero-ignored",
        "A1 holds a defeated hero from an earlier wave: the red hero ignores its traps and figures.",
        ("repel", "terms"),
        ("defeated-hero", "trap", "minion"),
        one(fork("cave spike blade"), dice=["red"], levels=(1, 0), minions=["A1"], defeated=["purple@A1"]),
    )
    yield spec(
        "entering",
        "defeated-hero-ignores-guardian",
        "A1 holds a defeated hero and the guardian: the new hero ignores the guardian too.",
        ("repel", "terms"),
        ("defeated-hero", "guardian"),
        one(fork("cave kobold"), dice=["black"], guardians=["A1"], defeated=["red@A1"]),
    )
    # Damage reaching the health defeats; one less does not (Game Terms: Damage).
    for damage, bonus in ((5, 0), (6, 0), (6, 1), (7, 1)):
        slimes, placed = {5: (3, 1), 6: (4, 1), 7: (3, 2)}[damage]
        health = 6 + bonus
        fate = "defeated" if damage >= health else "survives"
        yield spec(
            "boundaries",
            f"health-{health}-damage-{damage}",
            f"A Fighter ({health} health, {bonus} health token(s)) takes {damage} damage in A1 "
            f"({slimes} slimes, {placed} minion(s)): {fate}.",
            ("repel", "terms", "heroes"),
            ("monster", "minion"),
            one(
                fork("cave " + " ".join(["slime"] * slimes)),
                dice=["red"],
                heroes={"red": "Fighter"},
                health_bonus={"red": bonus},
                levels=(3, 2),
                minions=["A1"] * placed + ["B1"] * (3 - placed),
            ),
            source="rule",
        )


WALK_SEEDS = range(120)
"""Seeds of the generated walks: 120 small dungeons (a spread of layouts, elements and heroes)."""


def walks() -> Iterator[CaseSpec]:
    """A hero's walk through a generated 3x3 dungeon of caves (seeded): random doorways, monsters and
    traps, a hero of each colour with no ability on them (no chests, stars or minions);
    the step ends at the hero's first choice of route, or its defeat or escape. The guardian stands
    in the exit chamber (C3)."""
    for seed in WALK_SEEDS:
        draw = random.Random(f"stonespine-walk-{seed}")
        rows = []
        for r in range(3):
            row = []
            for c in range(3):
                doors = "".join(d for d in "TBLR" if draw.random() < 0.6) or "-"
                if r == 0 and c == 0 and "T" not in doors:
                    doors = "T" + doors.strip("-")  # the entrance chamber opens to the entrance
                elements = [draw.choice((*MONSTERS, *TRAPS)) for _ in range(draw.randint(0, 3))]
                # caves only: a chamber's type changes nothing for these heroes (it matters to
                # guardian abilities, which the guardian-board cases cover)
                row.append(" ".join(["cave", doors, *elements]))
            rows.append(row)
        colour = draw.choice(("black", "purple", "red"))
        card = {"black": "Thief", "purple": "Cleric", "red": "Knight"}[colour]
        yield spec(
            "walks",
            f"walk-{seed:03d}",
            f"A {colour} {card} walks a generated 3x3 dungeon (seed {seed}): a damage per monster and "
            "trap of each chamber entered, defeat at its health, escape where no new chamber connects.",
            ("repel", "terms"),
            ("monster", "trap"),
            one(rows, dice=[colour], heroes={colour: card}, entrance="A", exit="C"),
            source="random",
        )


GUARDIAN_WALKS = (
    # (name, the first chamber's elements, dice, hero card, with minions, why)
    ("monster", "cave kobold", "black", "Thief", False, "a monster deals one damage"),
    ("trap", "cave spike pit", "purple", "Cleric", False, "a trap deals one damage"),
    ("minion", "cave gnoll", "red", "Knight", True, "a minion of the guardian adds its damage"),
    ("walk", "cave kobold", "red", "Knight", True, "the hero walks on to the guardian's chamber"),
)


def guardian_boards() -> Iterator[CaseSpec]:
    """Every guardian board the data models: a hero entering, with and without its minions, and a
    hero's walk to the guardian (a case table read by one builder)."""
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.model.stonespine.data import default_data

    for board in default_data(Rulings.defaults(GAME)).guardians:
        name = board.name
        for label, first, hero, card, with_minions, why in GUARDIAN_WALKS:
            minions = ["A1"] if with_minions and board.minions else []
            yield spec(
                "guardian-boards",
                f"{_slug(name)}-{label}",
                f"With the {name} guardian board: a {hero} {card} enters A1 ({first.removeprefix('cave ')}"
                f"{', one minion' if minions else ''}): {why}.",
                ("repel", "guardian-board"),
                ("monster",) if label != "trap" else ("trap",),
                one(
                    fork(first),
                    dice=[hero],
                    heroes={hero: card},
                    guardian=name,
                    levels=(1, 0) if minions else (0, 0),
                    minions=minions,
                    guardians=("B2", "A2")[: board.figures],
                ),
                stop=Stop.after(2) if label == "walk" else Stop.after(1),
            )


def heroes_abilities() -> Iterator[CaseSpec]:
    """Each hero card's ability in a chamber that matches it, and in one that does not."""
    matching = {
        "Thief": "chest kobold",
        "Black Hero 2": "spike kobold",
        "Black Hero 3": "kobold chest",
        "Black Hero 4": "+2 kobold",
        "Cleric": "+1 kobold spike",
        "Crusader": "pit kobold",
        "Paladin": "kobold",
        "Templar": "slime spike",
        "Barbarian": "bear spike",
        "Fighter": "gnoll goblin",
        "Knight": "kobold",
        "Warrior": "ooze slime",
    }
    plain = {
        "Thief": "kobold",
        "Black Hero 2": "kobold",
        "Black Hero 3": "chest",
        "Black Hero 4": "-1 kobold",
        "Cleric": "-1 kobold",
        "Crusader": "kobold",
        "Paladin": "kobold",
        "Templar": "spike",
        "Barbarian": "kobold",
        "Fighter": "slime",
        "Knight": "kobold",
        "Warrior": "kobold",
    }
    needs_minion = {"Paladin", "Knight"}
    for card, elements in matching.items():
        colour = COLOUR[card]
        minions = ["A1"] if card in needs_minion else []
        levels = (1, 0) if minions else (0, 0)
        projection = "dungeon" if colour == "black" else "heroes"
        yield spec(
            "heroes",
            f"{_slug(card)}-ability",
            f"{card} ({colour}) enters A1 ({elements}{' and a minion' if minions else ''}): its ability applies.",
            ("heroes", "repel"),
            ("hero-ability",) + (("minion",) if minions else ()),
            one(
                fork(f"cave {elements}"), dice=[colour], heroes={colour: card}, levels=levels, minions=minions
            ),
            projection=projection,
        )
        other = plain[card]
        yield spec(
            "heroes",
            f"{_slug(card)}-no-match",
            f"{card} ({colour}) enters A1 ({other}) where its ability finds nothing to act on.",
            ("heroes", "repel"),
            ("hero-ability",),
            one(fork(f"cave {other}"), dice=[colour], heroes={colour: card}),
            projection=projection,
        )
    # Purple protection is used once: the first matching chamber only.
    yield spec(
        "heroes",
        "cleric-second-star-chamber",
        "The Cleric is protected in A1 (a +1 star) and takes full damage in B1 (another +1 star): "
        "the protection is spent in the first applicable chamber.",
        ("heroes", "repel"),
        ("hero-ability", "move-choice"),
        one(
            fork("cave +1 kobold kobold", b1="cave L +1 kobold spike"),
            dice=["purple"],
            heroes={"purple": "Cleric"},
            decisions=["B1"],
        ),
        stop=Stop.after(2),
    )
    yield spec(
        "heroes",
        "thief-two-chests",
        "The Thief (destroys one chest per chamber) enters A1 with two chests: the player picks which.",
        ("heroes", "repel", "terms"),
        ("hero-ability", "rubble"),
        one(fork("cave chest kobold chest"), dice=["black"], decisions=["3"]),
        projection="dungeon",
        stop=Stop.after(2),
        window="choice",
    )
    yield spec(
        "heroes",
        "black-hero-3-rubble-not-monster",
        "Black Hero 3 destroys a monster: the kobold becomes rubble/kobold and, read with the entry "
        "snapshot, still deals its damage.",
        ("heroes", "repel", "terms"),
        ("hero-ability", "rubble", "monster"),
        one(fork("cave kobold chest"), dice=["black"], heroes={"black": "Black Hero 3"}),
        projection="dungeon",
    )
    yield spec(
        "heroes",
        "rubble-deals-no-damage",
        "A1 holds rubble over a kobold and rubble over a spike: covered elements deal no damage.",
        ("repel", "terms"),
        ("rubble",),
        one(fork("cave rubble/kobold rubble/spike rubble slime"), dice=["red"]),
    )


def moving() -> Iterator[CaseSpec]:
    """The hero moves on: forced moves, the player's routing, no revisits, escapes."""
    rows = [["cave TRB kobold", "cave LB spike"], ["cave TR slime", "cave TL pit"]]
    for target in ("A2", "B1"):
        yield spec(
            "moving",
            f"route-to-{target.lower()}",
            f"After A1 the player sends the red hero to {target}; it enters and takes that chamber's damage.",
            ("repel", "dungeon"),
            ("move-choice", "monster", "trap"),
            one(rows, dice=["red"], decisions=[target], guardians=["B2"]),
            stop=Stop.after(2),
        )
    yield spec(
        "moving",
        "route-choice-any",
        "The routing choice after A1 may be taken by an engine itself: every destination is acceptable.",
        ("repel",),
        ("move-choice",),
        one(rows, dice=["red"], decisions=["A2"], guardians=["B2"]),
        stop=Stop.after(2),
        window="choice",
    )
    loop = [["cave TRB kobold", "cave LB"], ["cave TR", "cave TL kobold"]]
    yield spec(
        "moving",
        "no-revisit-loop",
        "A ring of four chambers: the hero walks it once and escapes from the last, never re-entering A1.",
        ("repel", "terms"),
        ("escape", "move-choice", "monster"),
        one(
            [[*row, "cave -"] for row in loop],
            dice=["purple"],
            decisions=["B1"],
            guardians=["C1"],
            exit="A",
            heroes={"purple": "Paladin"},
        ),
        stop=Stop.after(2),
    )
    corridor = [["cave TR", "cave LR kobold", "cave LR slime", "cave L spike"]]
    yield spec(
        "moving",
        "forced-corridor",
        "A corridor: every move is forced (one new chamber), so one step walks the hero to its end.",
        ("repel", "dungeon"),
        ("monster", "trap", "escape"),
        one(corridor, dice=["purple"], guardians=["A1"], defeated=["black@A1"], exit="A"),
    )
    yield spec(
        "moving",
        "doors-must-face",
        "A1 opens right but B1 has no left door: not connected, so the hero cannot move and escapes.",
        ("repel", "dungeon", "terms"),
        ("escape",),
        one([["cave TR kobold", "cave RB"], ["cave -", "cave T"]], dice=["black"], exit="A"),
    )
    yield spec(
        "escape",
        "dead-end-escape",
        "A hero alive in a chamber with no new connected chamber escapes; the gate closes and the other "
        "waiting hero goes back to the supply (year 2, two heroes).",
        ("repel", "terms", "gate"),
        ("escape", "hero-order"),
        one([["cave T kobold", "cave -"]], year=2, dice=["red", "black"], decisions=["red"], exit="A"),
        stop=Stop.after(3),
        projection="heroes",
    )
    yield spec(
        "escape",
        "exit-chamber-years-1-3",
        "Year 2: a hero surviving the chamber connected to the exit escapes there (ruling SS-EXIT-Y13).",
        ("repel", "terms"),
        ("escape",),
        one(
            [["cave TB kobold", "cave -"], ["cave TBR", "cave L"]],
            year=2,
            dice=["red", "red"],
            exit="A",
        ),
        stop=Stop.after(2),
    )
    yield spec(
        "escape",
        "exit-ignored-year-4",
        "Year 4: the exit doorway is ignored; the hero goes on while it can enter a new chamber.",
        ("repel", "terms"),
        ("escape",),
        one(
            [["cave TB kobold", "cave -"], ["cave TBR", "cave L spike spike spike spike"]],
            year=4,
            dice=["red", "red", "red", "red"],
            exit="A",
            guardians=["B1"],
        ),
        stop=Stop.after(4),
    )
    yield spec(
        "escape",
        "no-entry-chamber",
        "The first chamber under the entrance has no top doorway: the hero cannot enter and escapes "
        "(ruling SS-ENTRY-UNCONNECTED).",
        ("repel", "dungeon"),
        ("escape",),
        one([["cave RB kobold", "cave L"], ["cave T", "cave -"]], dice=["red"]),
    )


def choose_hero() -> Iterator[CaseSpec]:
    """Year 2 and later: several heroes wait; the player picks the order when colours differ."""
    rows = fork("cave kobold")
    for first in ("black", "red"):
        yield spec(
            "hero-order",
            f"sends-{first}-first",
            f"A black and a red hero wait; the player sends the {first} one first.",
            ("repel", "roll"),
            ("hero-order", "dice"),
            one(rows, year=2, dice=["black", "red"], decisions=[first]),
            stop=Stop.after(3),
        )
    yield spec(
        "hero-order",
        "same-colour-not-asked",
        "Two red heroes wait: no choice is asked (both are the same); the first enters.",
        ("repel", "roll"),
        ("dice",),
        one(rows, year=2, dice=["red", "red"]),
        stop=Stop.after(2),
    )
    yield spec(
        "hero-order",
        "order-choice-any",
        "Which waiting hero enters first may be taken by an engine itself: every order is acceptable.",
        ("repel",),
        ("hero-order",),
        one(rows, year=3, dice=["black", "purple", "red"], decisions=["purple"]),
        stop=Stop.after(4),
        window="choice",
    )


# -- Step 1 dice, Step 3 gate -----------------------------------------------------------------------


def dice() -> Iterator[CaseSpec]:
    rows = [["cave T kobold", "cave -"]]
    for year in (1, 2, 3, 4):
        yield spec(
            "dice",
            f"year-{year}-dice",
            f"Year {year}: the wave starts with the first of this year's dice (1/2/3/4 dice, white then gray).",
            ("roll",),
            ("dice",),
            one(rows, year=year, dice=[]),
            stop=Stop.after(0),
            window="all",
        )
        faces = ["black", "purple", "red", "red"][:year]
        yield spec(
            "dice",
            f"year-{year}-heroes-arrive",
            f"Year {year}: the dice show {', '.join(faces)}; those heroes wait outside the entrance.",
            ("roll",),
            ("dice", "escape"),
            one([["cave T", "cave -"]], year=year, dice=faces, decisions=[], exit="A", then="none"),
            stop=Stop.after(year),
        )
    two = [
        player(fork("cave kobold"), name="Ann", priority=1),
        player(fork("cave slime"), name="Bo", priority=2, guardian="Dragon"),
    ]
    yield spec(
        "dice",
        "shared-by-every-open-gate",
        "Two players: the same roll sends the same heroes into both dungeons, in priority order.",
        ("roll", "repel"),
        ("dice", "multi-player"),
        scenario(two, year=1, dice=["purple"]),
        stop=Stop.after(1),
    )
    yield spec(
        "dice",
        "illegal-face",
        "Year 1 rolls the white die only; a 'blank' result is not one of its faces.",
        ("roll", "components"),
        ("dice", "illegal-answer"),
        one(rows, dice=["blank"]),
    )


def gate() -> Iterator[CaseSpec]:
    rows = fork("cave kobold kobold kobold kobold", b1="cave L", a2="cave T")
    for answer in ("continue", "close"):
        yield spec(
            "gate",
            answer,
            f"After a wave, the player chooses to {answer}: "
            + ("the dice are rolled again" if answer == "continue" else "the Invasion phase ends for them"),
            ("gate",),
            ("gate", "multi-wave"),
            one(rows, dice=["black", "red"], decisions=[answer], guardians=["A1"]),
            stop=Stop.after(2),
            projection="heroes",
        )
    two = [
        player([["cave T kobold", "cave -"]], name="Ann", priority=1, exit="A"),
        player(fork("cave kobold"), name="Bo", priority=2, guardians=["A1"]),
    ]
    yield spec(
        "gate",
        "escape-forces-close",
        "Ann's hero escapes (her gate closes, no choice); Bo is asked and continues: only Bo gets the next wave.",
        ("gate", "roll", "repel"),
        ("gate", "escape", "multi-player", "multi-wave"),
        scenario(two, year=1, dice=["red", "purple"], decisions=["continue"]),
        stop=Stop.after(3),
    )
    three = [
        player(fork("cave kobold"), name="Cy", priority=3, guardians=["A1"]),
        player(fork("cave kobold"), name="Ann", priority=1, guardians=["A1"]),
        player(fork("cave kobold"), name="Bo", priority=2, guardians=["A1"]),
    ]
    yield spec(
        "gate",
        "priority-order",
        "Three players decide in priority order (Ann 1, Bo 2, Cy 3), whatever order the file lists them.",
        ("gate",),
        ("gate", "multi-player"),
        scenario(three, year=1, dice=["red"], decisions=["close", "continue", "close"]),
        stop=Stop.after(3),
        window="all",
    )
    yield spec(
        "gate",
        "illegal-open",
        "The gate decision has two options, continue and close; 'open' must be refused.",
        ("gate",),
        ("gate", "illegal-answer"),
        one(rows, dice=["black"], decisions=["open"], guardians=["A1"]),
        stop=Stop.after(2),
    )


# -- Steps 4-6 ---------------------------------------------------------------------------------------


def after_waves() -> Iterator[CaseSpec]:
    def year_end(year: int, dice: Sequence[str], **kw: Any) -> dict[str, Any]:
        faces = ["black"] * year  # one colour: no choice of order; each hero dies in its own chamber
        decisions = kw.pop("decisions", ["close"])
        return one(
            kill(),
            year=year,
            dice=faces + list(dice),
            decisions=decisions,
            heroes=FOUR,
            guardians=["B1"],
            **kw,
        )

    for year in (1, 2, 3):
        rolls = ["red", "purple", "red"][:year]
        yield spec(
            "level-heroes",
            f"year-{year}-rolls",
            f"Year {year}: after the gates close the white die is rolled {year} time(s) ({', '.join(rolls)}); "
            "each result adds health to that colour's card.",
            ("level-heroes",),
            ("hero-levels", "dice"),
            year_end(year, rolls),
            projection="scores",
            stop=Stop.end(),
            window="last",
        )
    yield spec(
        "level-heroes",
        "token-flips-to-two",
        "Year 3: red rolled twice: the first adds a +1 token, the second flips it to +2.",
        ("level-heroes",),
        ("hero-levels",),
        year_end(3, ["red", "red", "black"]),
        projection="scores",
        stop=Stop.end(),
        window="all",
    )
    yield spec(
        "level-heroes",
        "third-token",
        "Year 2 with red at +2 already: another red roll adds a new +1 token (ruling SS-HEALTH-TOKENS).",
        ("level-heroes",),
        ("hero-levels",),
        year_end(2, ["red", "black"], health_bonus={"red": 2}),
        projection="scores",
        stop=Stop.end(),
        window="all",
    )
    yield spec(
        "level-heroes",
        "year-4-no-rolls",
        "Year 4: heroes do not level up; the trophy follows straight after the gates close.",
        ("level-heroes", "award"),
        ("hero-levels", "trophy"),
        year_end(4, [], decisions=["close", "keep"]),
        projection="scores",
        stop=Stop.end(),
        window="last",
    )
    # Step 5
    two_defeat = [
        player(kill(1), name="Ann", priority=1, guardians=["B1"]),
        player(kill(1), name="Bo", priority=2, guardians=["B1"]),
    ]
    yield spec(
        "award",
        "tie-to-priority",
        "Both players defeat one hero: the tie goes to the higher priority (Ann).",
        ("award",),
        ("trophy", "multi-player"),
        scenario(two_defeat, dice=["black", "red"], decisions=["close", "close"], heroes=FOUR),
        projection="scores",
        stop=Stop.end(),
        window="last",
    )
    more = [
        player(kill(2), name="Ann", priority=1, guardians=["B1"]),
        player(kill(2), name="Bo", priority=2, guardians=["B1"], defeated=["black@A1"]),
    ]
    yield spec(
        "award",
        "most-defeated",
        "Bo has two heroes defeated this year (one from an earlier wave), Ann one: Bo takes the trophy.",
        ("award",),
        ("trophy", "multi-player", "defeated-hero"),
        scenario(more, dice=["black", "red"], decisions=["close", "close"], heroes=FOUR),
        projection="scores",
        stop=Stop.end(),
        window="last",
    )
    escape_and_defeat = [
        player([["cave T", "cave -"]], name="Ann", priority=1, exit="A"),
        player(kill(2), name="Bo", priority=2, guardians=["B1"]),
    ]
    yield spec(
        "award",
        "escape-takes-demerit",
        "Year 2: Ann's hero escapes (a year-2 demerit); Bo, with no escape, takes the trophy.",
        ("award",),
        ("trophy", "escape", "multi-player"),
        scenario(
            escape_and_defeat, year=2, dice=["black", "black", "red", "red"], decisions=["close"], heroes=FOUR
        ),
        projection="scores",
        stop=Stop.end(),
        window="last",
    )
    yield spec(
        "award",
        "all-escaped-trophy-returned",
        "Every player had an escape: the year's trophy goes back to the box; each takes a demerit.",
        ("award",),
        ("trophy", "escape"),
        one(
            [["cave T kobold", "cave -"]],
            year=3,
            dice=["red", "red", "red", "black", "black", "black"],
            exit="A",
        ),
        projection="scores",
        stop=Stop.end(),
        window="last",
    )
    # Step 6
    for year in (1, 3):
        yield spec(
            "xp",
            f"xp-year-{year}",
            f"Year {year}: {year} hero(es) entered (and were defeated): that many XP cubes.",
            ("xp",),
            ("xp",),
            year_end(year, ["red"] * year),
            projection="guardian",
            stop=Stop.end(),
            window="last",
        )
    yield spec(
        "xp",
        "escaped-hero-counts",
        "An escaped hero counts for XP like a defeated one; a hero sent back to the supply does not.",
        ("xp",),
        ("xp", "escape"),
        one([["cave T", "cave -"]], year=2, dice=["red", "black", "red", "red"], decisions=["red"], exit="A"),
        projection="guardian",
        stop=Stop.end(),
        window="last",
    )
    yield spec(
        "xp",
        "forced-level-up",
        "Year 1: with 4 XP and one more, the guardian must level up (five cubes back, a marker up): "
        "the player picks the track.",
        ("xp", "guardian-board"),
        ("xp",),
        year_end(1, ["red"], decisions=["close", "left"], xp=4),
        projection="guardian",
        stop=Stop.end(),
        window="last",
    )
    yield spec(
        "xp",
        "year-4-keep-xp",
        "Year 4: with five or more XP the player may keep the cubes for final scoring.",
        ("xp", "guardian-board", "final-scoring"),
        ("xp", "final-scoring"),
        year_end(4, [], decisions=["close", "keep"], xp=4),
        projection="scores",
        stop=Stop.end(),
        window="last",
    )
    yield spec(
        "xp",
        "year-4-level-up",
        "Year 4: the player levels up instead, spending five cubes.",
        ("xp", "guardian-board"),
        ("xp",),
        year_end(4, [], decisions=["close", "level-up", "right"], xp=4),
        projection="guardian",
        stop=Stop.end(),
        window="last",
    )


# -- guardians: ongoing, instant and unlockable abilities ---------------------------------------------


def guardians() -> Iterator[CaseSpec]:
    yield spec(
        "guardians",
        "hungry-hatchlings-stone",
        "The Dragon's HUNGRY HATCHLINGS (unlocked): a minion in a stone chamber deals one extra damage.",
        ("guardian-board", "repel", "preparation"),
        ("minion", "unlockable-ability"),
        one(fork("stone kobold"), dice=["red"], guardian="Dragon", levels=(3, 0), minions=["A1"]),
    )
    yield spec(
        "guardians",
        "hungry-hatchlings-cave",
        "HUNGRY HATCHLINGS in a cave chamber: the minion deals its two only.",
        ("guardian-board", "repel"),
        ("minion", "unlockable-ability"),
        one(fork("cave kobold"), dice=["red"], guardian="Dragon", levels=(3, 0), minions=["A1"]),
    )
    yield spec(
        "guardians",
        "hatchlings-locked",
        "The Dragon below its unlock space: a minion in a stone chamber deals two.",
        ("guardian-board", "repel"),
        ("minion",),
        one(fork("stone kobold"), dice=["red"], guardian="Dragon", levels=(1, 0), minions=["A1"]),
    )
    yield spec(
        "guardians",
        "pact-revealed",
        "The Pact Demon's ongoing ability: a revealed pact token deals one damage; a face-down one none.",
        ("guardian-board", "repel", "tokens"),
        ("ongoing-ability",),
        one(fork("cave pact pact? kobold"), dice=["purple"], guardian="Pact Demon"),
    )
    yield spec(
        "guardians",
        "pact-without-demon",
        "A pact token in the dungeon of a player without the Pact Demon deals no damage.",
        ("guardian-board", "repel"),
        ("ongoing-ability",),
        one(fork("cave pact kobold"), dice=["purple"], guardian="Giant Troll"),
    )
    yield spec(
        "guardians",
        "dangerous-debris-trap",
        "The Giant Troll's DANGEROUS DEBRIS (unlocked): rubble counts as a trap, so it deals one "
        "damage and the Barbarian's +1 per trap applies.",
        ("guardian-board", "repel", "heroes", "tokens"),
        ("unlockable-ability", "rubble", "trap", "hero-ability"),
        one(fork("cave rubble troll-rubble/kobold"), dice=["red"], guardian="Giant Troll", levels=(3, 0)),
    )
    yield spec(
        "guardians",
        "debris-locked",
        "Without DANGEROUS DEBRIS rubble deals nothing.",
        ("guardian-board", "repel", "terms", "tokens"),
        ("rubble",),
        one(fork("cave rubble troll-rubble/kobold"), dice=["red"], guardian="Giant Troll", levels=(1, 0)),
    )
    troll_rows = [["cave TRB rubble", "cave LB"], ["cave TR", "cave TL"]]
    yield spec(
        "guardians",
        "troll-moves-choice",
        "The Giant Troll defeats a hero in a rubble chamber and moves to a connected chamber of the "
        "player's choice.",
        ("guardian-board", "repel"),
        ("guardian", "ongoing-ability", "rubble"),
        one(troll_rows, dice=["red"], guardian="Giant Troll", guardians=["A1"], decisions=["B1"]),
        projection="dungeon",
        stop=Stop.after(2),
    )
    yield spec(
        "guardians",
        "troll-moves-forced",
        "One connected neighbour: the troll's move is forced (not asked).",
        ("guardian-board", "repel"),
        ("guardian", "ongoing-ability", "rubble"),
        one(
            [["cave TR rubble", "cave L"], ["cave -", "cave -"]],
            dice=["red"],
            guardian="Giant Troll",
            guardians=["A1"],
        ),
        projection="dungeon",
    )
    yield spec(
        "guardians",
        "troll-stays-without-rubble",
        "No rubble in the chamber: the troll defeats the hero and stays.",
        ("guardian-board", "repel"),
        ("guardian", "ongoing-ability"),
        one(
            [["cave TRB kobold", "cave LB"], ["cave TR", "cave TL"]],
            dice=["red"],
            guardian="Giant Troll",
            guardians=["A1"],
        ),
        projection="dungeon",
    )
    # Five columns: a study grid, so two rows may stand in year 1 (one row a year in the game).
    corridor = [
        ["cave TB kobold kobold kobold kobold", "cave - -1", "cave - +2", "cave -", "cave -"],
        ["cave T kobold kobold kobold kobold", "cave -", "cave -", "cave -", "cave -"],
    ]
    yield spec(
        "guardians",
        "blow-off-steam",
        "The Giant Troll levels up to an instant space: BLOW OFF STEAM covers an element of the "
        "player's choice with troll rubble.",
        ("guardian-board", "xp"),
        ("instant-ability", "xp"),
        one(
            corridor,
            dice=["black", "red"],
            decisions=["close", "left", "B1:1"],
            guardian="Giant Troll",
            guardians=["D1"],
            xp=4,
            exit="A",
        ),
        projection="dungeon",
        stop=Stop.end(),
    )
    yield spec(
        "guardians",
        "forge-pact",
        "The Pact Demon levels up to an instant space: FORGE PACT reveals a face-down pact token.",
        ("guardian-board", "xp"),
        ("instant-ability", "xp"),
        one(
            [
                ["cave TB kobold kobold kobold kobold", "cave - pact?"],
                ["cave T kobold kobold kobold kobold", "cave - pact?"],
            ],
            dice=["black", "red"],
            decisions=["close", "right", "B1:1"],
            guardian="Pact Demon",
            guardians=["B2"],
            xp=4,
            exit="A",
        ),
        projection="dungeon",
        stop=Stop.end(),
    )
    yield spec(
        "guardians",
        "minion-unlock",
        "The Pact Demon levels up onto a minion space: one more minion is unlocked for later years.",
        ("guardian-board", "xp"),
        ("xp",),
        one(fork("cave kobold"), dice=["red", "red"], decisions=["close", "left"], guardians=["A1"], xp=4),
        projection="guardian",
        stop=Stop.end(),
    )
    yield spec(
        "guardians",
        "two-level-ups",
        "Ten XP at once: the guardian levels up twice (five cubes each).",
        ("guardian-board", "xp"),
        ("xp",),
        one(
            kill(3),
            year=3,
            dice=["black"] * 3 + ["red"] * 3,
            decisions=["close", "left", "right"],
            guardians=["B1"],
            xp=4,  # and six heroes enter: ten cubes at once (more than four to start would have levelled)
        ),
        projection="guardian",
        stop=Stop.end(),
    )
    hydra_rows = [["cave TB collapsing=R", "cave L kobold kobold kobold kobold"], ["cave T", "cave -"]]
    yield spec(
        "guardians",
        "collapsing-passage",
        "A hydra's collapsing passage on A1's right edge opens the way to B1; it collapses once the "
        "hero crosses (ruling SS-HYDRA-COLLAPSE).",
        ("guardian-board", "repel", "dungeon"),
        ("secret-passage",),
        one(
            hydra_rows,
            year=1,
            dice=["black"],
            decisions=["B1"],
            guardian="Molten Hydra",
            guardians=["A2", "A2"],
            levels=(1, 1),
            minions=["A2", "A2"],
            exit="A",
        ),
        projection="dungeon",
        stop=Stop.after(2),
    )
    yield spec(
        "guardians",
        "two-hydra-figures",
        "A hydra has two guardian figures; each defeats the first hero entering its chamber.",
        ("guardian-board", "repel"),
        ("guardian", "multi-wave"),
        one(
            [["cave TR", "cave L"]],
            year=2,
            dice=["red", "red"],
            decisions=[],
            guardian="Molten Hydra",
            guardians=["A1", "B1"],
            levels=(0, 0),
            exit="B",
        ),
        stop=Stop.after(2),
    )


# -- the other phases ----------------------------------------------------------------------------------


def improvement() -> Iterator[CaseSpec]:
    base = [["cave TB rubble/kobold", "cave -"], ["cave T", "cave -"]]

    def improving(gold: int, decisions: Sequence[str], **kw: Any) -> dict[str, Any]:
        return one(
            base,
            year=2,
            dice=[],
            start="improvement",
            decisions=decisions,
            then="none",
            gold=gold,
            guardians=[],
            **kw,
        )

    yield spec(
        "improvement",
        "buy-xp-four-cubes",
        "The first XP purchase of the year costs four gold and takes the four cubes.",
        ("improvement",),
        ("improvement", "xp"),
        improving(8, ["buy-xp"]),
        projection="market",
    )
    yield spec(
        "improvement",
        "buy-xp-three-then-two",
        "Three purchases in a row: four cubes, three cubes, then two from the supply "
        "(ruling SS-XP-MARKET; XP reaching five forces a level-up).",
        ("improvement", "guardian-board"),
        ("improvement", "xp"),
        improving(12, ["buy-xp", "buy-xp", "left", "buy-xp"]),
        projection="market",
        stop=Stop.after(4),
        window="all",
    )
    yield spec(
        "improvement",
        "remove-rubble",
        "Removing rubble costs three gold; the kobold under it is active again (ruling SS-RUBBLE-REMOVE).",
        ("improvement", "terms"),
        ("improvement", "rubble"),
        improving(3, ["remove-rubble A1:1"]),
        projection="dungeon",
    )
    yield spec(
        "improvement",
        "buy-passage",
        "The first secret passage of the year costs five gold and opens the chosen edge.",
        ("improvement", "dungeon"),
        ("improvement", "secret-passage"),
        improving(5, ["buy-passage A1:right"]),
        projection="dungeon",
    )
    yield spec(
        "improvement",
        "passage-prices-rise",
        "Passages cost 5, 6, 7, 8 in a year: with 11 gold the second purchase is the last.",
        ("improvement",),
        ("improvement", "secret-passage"),
        improving(11, ["buy-passage A1:right", "buy-passage B1:left"]),
        projection="market",
        stop=Stop.after(2),
        window="all",
    )
    yield spec(
        "improvement",
        "too-poor",
        "With three gold XP (four) is not on offer: 'buy-xp' must be refused.",
        ("improvement",),
        ("improvement", "illegal-answer"),
        improving(3, ["buy-xp"]),
        projection="market",
    )
    two = [
        player(base, name="Ann", priority=1, placed=False, gold=4),
        player(base, name="Bo", priority=2, placed=False, gold=8),
    ]
    yield spec(
        "improvement",
        "richest-first",
        "Bo has more gold than Ann: Bo takes the first Improvement turn (ruling SS-IMPROVEMENT-ORDER).",
        ("improvement",),
        ("improvement", "multi-player"),
        scenario(two, year=2, start="improvement", decisions=[], then="none"),
        projection="market",
        stop=Stop.after(0),
        window="all",
    )


def preparation() -> Iterator[CaseSpec]:
    rows = fork("stone kobold")

    def preparing(decisions: Sequence[str], **kw: Any) -> dict[str, Any]:
        return one(
            rows, year=3, dice=[], start="preparation", decisions=decisions, then="none", guardians=[], **kw
        )

    yield spec(
        "preparation",
        "place-guardian",
        "The Preparation phase asks where the guardian stands: any chamber.",
        ("preparation",),
        ("preparation", "guardian"),
        preparing(["A2"]),
        projection="dungeon",
    )
    yield spec(
        "preparation",
        "place-unlocked-minions",
        "Jeremy's example: one minion unlocked (two still locked) goes into a chamber after the guardian.",
        ("preparation", "guardian-board"),
        ("preparation", "minion"),
        preparing(["B2", "A1"], guardian="Dragon", levels=(3, 0)),
        projection="dungeon",
        stop=Stop.after(2),
        window="all",
        source="worked-example",
    )
    yield spec(
        "preparation",
        "figures-share-chambers",
        "Figures do not take element spaces: the guardian and two minions may share one chamber.",
        ("preparation", "terms"),
        ("preparation", "minion"),
        preparing(["A1", "A1", "A1"], levels=(1, 1)),
        projection="dungeon",
        stop=Stop.after(3),
        window="all",
    )
    yield spec(
        "preparation",
        "hydra-passage",
        "A hydra places a collapsing passage token on a closed edge, or none.",
        ("preparation", "guardian-board"),
        ("preparation", "secret-passage"),
        preparing(["A2", "A2", "A1:left"], guardian="Molten Hydra", passage_tokens=1),
        projection="dungeon",
        stop=Stop.after(3),
        window="all",
    )
    yield spec(
        "preparation",
        "outside-grid",
        "A guardian cannot stand outside the dungeon: 'C3' must be refused.",
        ("preparation",),
        ("preparation", "illegal-answer"),
        preparing(["C3"]),
        projection="dungeon",
    )


def construction_cleanup() -> Iterator[CaseSpec]:
    rows = [["cave TB kobold", "cave -"]]
    new_row = ["cave T spike", "stone -"]
    yield spec(
        "construction",
        "row-built",
        "The Construction phase adds the year's row under the others; the Improvement phase follows.",
        ("construction",),
        ("construction",),
        one(
            rows,
            year=2,
            dice=[],
            start="construction",
            guardians=[],
            decisions=[],
            then="none",
            years=[{"rows": {"Ann": new_row}, "gold": {"Ann": 0}}],
        ),
        projection="dungeon",
        stop=Stop.after(0),
        window="all",
    )
    yield spec(
        "cleanup",
        "figures-return",
        "Cleanup after year 1: heroes and figures leave the dungeon, the market refills, and year 2 "
        "begins with its row.",
        ("cleanup", "construction"),
        ("cleanup", "construction"),
        one(
            fork("cave kobold"),
            year=1,
            dice=["red", "red"],
            decisions=["close", "pass", "A1"],
            guardians=["A1"],
            last_year=2,
            years=[{"rows": {"Ann": ["cave T", "cave -"]}, "gold": {"Ann": 0}}],
        ),
        projection="dungeon",
        stop=Stop.after(3),
    )
    yield spec(
        "cleanup",
        "market-refills",
        "Bought XP cubes come back to the market board in Cleanup: next year's first buyer takes four.",
        ("cleanup", "improvement"),
        ("cleanup", "improvement"),
        one(
            fork("cave kobold"),
            year=1,
            dice=["red", "red"],
            decisions=["close", "buy-xp"],
            guardians=["A1"],
            last_year=2,
            gold=0,
            years=[{"rows": {"Ann": ["cave T", "cave -"]}, "gold": {"Ann": 4}}],
        ),
        projection="market",
        stop=Stop.after(3),
    )


def final_scoring() -> Iterator[CaseSpec]:
    faces = ["black"] * 4
    yield spec(
        "final-scoring",
        "leftover-xp-and-trophies",
        "After year 4: trophies add, demerits subtract, unspent XP add one each; no guardian bonus "
        "below the top of the tracks.",
        ("final-scoring", "award"),
        ("final-scoring", "trophy"),
        one(
            kill(),
            year=4,
            dice=faces,
            decisions=["close", "keep"],
            heroes=FOUR,
            guardians=["B1"],
            xp=3,
            trophies=[{"year": 1, "value": 2}],
            demerits=[{"year": 2, "value": 2}],
        ),
        projection="scores",
        stop=Stop.end(),
        window="last",
    )
    for levels, minions, what in (((4, 0), 2, "one marker"), ((4, 4), 3, "both markers")):
        yield spec(
            "final-scoring",
            f"guardian-bonus-{'both' if levels[1] else 'one'}-top",
            f"{what.capitalize()} at the top of the tracks: the "
            f"{'higher' if levels[1] else 'lower'} scoring bonus.",
            ("final-scoring", "guardian-board"),
            ("final-scoring",),
            one(
                kill(),
                year=4,
                dice=faces,
                decisions=["close"],
                heroes=FOUR,
                guardians=["B1"],
                levels=levels,
                minions=["B2"] * minions,
                # The tracks' tops unlock the Pact Demon's unlockable, which the rulebook does not give:
                # a stand-in that does nothing in this dungeon (no pact tokens) lets the year be scored.
                data={"abilities": [UNLOCKABLE_STAND_IN]},
            ),
            projection="scores",
            stop=Stop.end(),
            window="last",
        )


UNLOCKABLE_STAND_IN = {
    "id": "pact-demon-unlockable",
    "name": "Pact Demon unlockable (a test stand-in)",
    "text": "A stand-in for the unlockable ability the rulebook does not give: one damage per pact token.",
    "effects": [{"do": "add-damage", "amount": "pact_damage", "per": {"is": ["pact"]}}],
}


def solo() -> Iterator[CaseSpec]:
    closed = ["B1", "C1", "D1", "B2", "C2", "D2"]
    # Five columns: a study grid, so two rows may stand in year 1 (one row a year in the game).
    rows = [
        ["cave TB", "cave -", "cave -", "cave -", "cave -"],
        ["cave T kobold kobold kobold kobold", "cave -", "cave -", "cave -", "cave -"],
    ]
    for year, jael in ((1, 3), (2, 6)):
        wave = year  # heroes defeated in this year's one wave (one die in year 1, two in year 2)
        for mine in (jael, jael + 1):
            yield spec(
                "solo",
                f"year-{year}-defeat-{mine}",
                f"Solo, year {year}: Jael defeats {jael}; you defeat {mine} ({mine - wave} in earlier waves): "
                + ("a tie goes to Jael." if mine == jael else "more than Jael, the trophy is yours."),
                ("solo", "award"),
                ("solo", "trophy", "defeated-hero"),
                one(
                    rows,
                    year=year,
                    dice=["purple"] * year + ["red"] * year,
                    decisions=["close"],
                    guardians=["A1"],
                    heroes={"purple": "Cleric"},
                    exit="A",
                    defeated=[f"black@{c}" for c in closed[: mine - wave]],
                    solo={},
                ),
                projection="scores",
                stop=Stop.end(),
            )
    yield spec(
        "solo",
        "escape-gives-jael-trophy",
        "Solo: a hero escapes your dungeon, so the trophy goes to Jael whatever the count.",
        ("solo", "award"),
        ("solo", "trophy", "escape"),
        one([["cave T", "cave -"]], year=1, dice=["red", "red"], exit="A", solo={}),
        projection="scores",
        stop=Stop.end(),
    )
    yield spec(
        "solo",
        "jael-collects-xp",
        "Solo: Jael collects market XP cubes when you have no more gold than him (two per collection).",
        ("solo", "construction"),
        ("solo", "construction"),
        one(
            [["cave TB", "cave -"]],
            year=2,
            dice=[],
            start="construction",
            guardians=[],
            decisions=[],
            then="none",
            solo={"jael_xp": 1},
            years=[{"rows": {"Ann": ["cave T", "cave -"]}, "jael_collects": 2}],
        ),
        projection="scores",
        stop=Stop.after(0),
        window="all",
    )


# -- the rulebook's worked examples -------------------------------------------------------------------------


def worked_examples() -> Iterator[CaseSpec]:
    rows = [
        ["stone TB", "cave -", "cave -", "cave -"],
        ["stone TB", "cave -", "cave -", "cave -"],
        ["cave T", "cave -", "cave -", "cave -"],
    ]
    yield spec(
        "worked-examples",
        "jeremy-hungry-hatchlings",
        "III. Preparation example: Jeremy's year-3 Dragon has one minion unlocked and HUNGRY HATCHLINGS; "
        "the minion in the stone chamber deals 2 + 1 to the red hero.",
        ("preparation", "guardian-board", "repel"),
        ("minion", "unlockable-ability"),
        one(
            rows,
            year=3,
            dice=["red", "purple", "black"],
            decisions=["red"],
            guardian="Dragon",
            levels=(3, 0),
            guardians=["D3"],
            minions=["A1"],
            exit="A",
        ),
        stop=Stop.after(4),
        source="worked-example",
    )
    yield spec(
        "worked-examples",
        "defeated-purple-then-guardian",
        "Step 2 example: the purple hero lies defeated in the first chamber; the red hero ignores it "
        "(traps and ability included) and is defeated at once by the guardian next door.",
        ("repel", "terms"),
        ("defeated-hero", "guardian", "trap", "hero-order"),
        one(
            [["cave TR spike spike blade pit", "stone L"]],
            year=2,
            dice=["purple", "red"],
            decisions=["purple"],
            guardians=["B1"],
            heroes={"purple": "Templar"},
            exit="A",
        ),
        stop=Stop.before("gate"),
        window="all",
        source="worked-example",
    )
    yield spec(
        "worked-examples",
        "kobold-escape",
        "Step 2 example: the red hero moves right, takes one damage from the kobold, cannot move to a new "
        "chamber and escapes; the gate closes and the waiting hero returns to the supply.",
        ("repel", "terms", "gate"),
        ("escape", "monster", "hero-order"),
        one(
            [["cave TR", "cave L kobold", "cave -", "cave -"]],
            year=2,
            dice=["red", "black"],
            decisions=["red"],
            guardians=["D1"],
            exit="A",
        ),
        stop=Stop.after(3),
        source="worked-example",
    )
    yield spec(
        "worked-examples",
        "kobold-escape-year-end",
        "The same escape to the end of the year: a year-2 demerit, the trophy returned, one XP.",
        ("award", "xp"),
        ("escape", "trophy", "xp"),
        one(
            [["cave TR", "cave L kobold", "cave -", "cave -"]],
            year=2,
            dice=["red", "black", "red", "red"],
            decisions=["red"],
            guardians=["D1"],
            exit="A",
        ),
        projection="scores",
        stop=Stop.end(),
        source="worked-example",
    )
    yield spec(
        "worked-examples",
        "cleric-and-barbarian",
        "Step 4 example: the Cleric is defeated by the guardian despite the positive star; the "
        "Barbarian ignores that chamber, takes 1 + 2 and then 1 + 2 (his trap bonus): six, defeated.",
        ("repel", "heroes"),
        ("guardian", "minion", "hero-ability", "defeated-hero"),
        one(
            [
                ["cave TB", "stone TB +1", "cave -", "cave -"],
                ["cave -", "stone TR slime", "stone L slime spike", "cave -"],
            ],
            year=2,
            entrance="B",
            exit="D",
            guardian="Dragon",
            levels=(1, 0),
            guardians=["B1"],
            minions=["B2"],
            dice=["purple", "red", "black", "black"],
            decisions=["purple", "close"],
            heroes={"purple": "Cleric", "red": "Barbarian"},
        ),
        stop=Stop.before("gate"),
        window="all",
        source="worked-example",
    )
    corridor = [["cave TB kobold kobold kobold kobold", "cave - -1", "cave - +2", "cave -"]]
    corridor += [["cave TB kobold kobold kobold kobold", "cave -", "cave -", "cave -"]] * 5
    corridor += [["cave T kobold kobold kobold kobold", "cave -", "cave -", "cave -"]]
    yield spec(
        "worked-examples",
        "jordy-eleven-xp",
        "Leveling Up Guardians example: Jordy's Giant Troll has 4 XP and earns 7; he levels up on the "
        "left track (BLOW OFF STEAM covers a negative star), still has 6, levels up again, keeps 1.",
        ("guardian-board", "xp"),
        ("xp", "instant-ability", "multi-wave"),
        one(
            corridor,
            year=1,
            guardian="Giant Troll",
            xp=4,
            guardians=["D1"],
            exit="A",
            dice=["black"] * 7 + ["red"],
            decisions=["continue"] * 6 + ["close", "left", "B1:1", "right", "C1:1"],
        ),
        projection="guardian",
        stop=Stop.after(8),
        window="all",
        source="worked-example",
    )


# -- rulings at the level of one action -----------------------------------------------------------------


def ruling_actions() -> Iterator[CaseSpec]:
    """Single actions whose outcome depends on a ruling: a variant per reading."""
    yield spec(
        "rulings",
        "exit-y13-action",
        "Year 2, A2 is the exit chamber and B2 is open to the hero: it escapes at once or goes on "
        "(SS-EXIT-Y13).",
        ("repel", "terms"),
        ("escape",),
        one(
            [["cave TB", "stone -"], ["cave TBR kobold", "cave L spike spike spike"]],
            year=2,
            dice=["red", "red"],
            exit="A",
            guardians=["B1"],
        ),
        stop=Stop.after(2),
    )
    yield spec(
        "rulings",
        "simultaneous-black-destroys",
        "A black hero that destroys a trap enters four spikes with four health: does the destroyed spike "
        "still hurt (SS-SIMULTANEOUS), and is it destroyed if the hero dies (SS-BLACK-DEFEATED)?",
        ("repel", "heroes"),
        ("trap", "hero-ability", "rubble"),
        one(
            fork("cave spike spike spike spike"),
            dice=["black"],
            heroes={"black": "Black Hero 2"},
            decisions=["1"],
        ),
        projection="dungeon",
        stop=Stop.after(2),
    )
    yield spec(
        "rulings",
        "purple-scope-minion",
        "The Templar's first monster chamber also holds a minion: no damage at all, or the minion's two "
        "(SS-PURPLE-SCOPE).",
        ("heroes", "repel"),
        ("hero-ability", "minion"),
        one(
            fork("cave kobold"), dice=["purple"], heroes={"purple": "Templar"}, levels=(1, 0), minions=["A1"]
        ),
    )
    yield spec(
        "rulings",
        "purple-first-harmless",
        "The Cleric's first star chamber deals nothing; the next star chamber has kobolds: is the "
        "protection already spent (SS-PURPLE-FIRST)?",
        ("heroes", "repel"),
        ("hero-ability", "move-choice"),
        one(
            fork("cave +1", b1="cave L +2 kobold kobold"),
            dice=["purple"],
            decisions=["B1"],
            heroes={"purple": "Cleric"},
        ),
        stop=Stop.after(2),
    )
    yield spec(
        "rulings",
        "troll-may-stay",
        "The troll defeats a hero in a rubble chamber: it must move, or may stay (SS-TROLL-MOVE); the "
        "first option is taken.",
        ("guardian-board", "repel"),
        ("guardian", "ongoing-ability", "rubble"),
        one(
            [["cave TRB rubble", "cave LB"], ["cave TR", "cave TL"]],
            dice=["red"],
            guardian="Giant Troll",
            guardians=["A1"],
        ),
        projection="dungeon",
        stop=Stop.after(2),
    )
    yield spec(
        "rulings",
        "passage-bridge",
        "A secret passage on A1's right edge faces B1's closed left edge: connected only if a passage "
        "bridges the cards (SS-PASSAGE).",
        ("repel", "dungeon"),
        ("secret-passage", "escape"),
        one(
            [["cave T kobold passages=R", "cave B spike"], ["cave -", "cave T"]],
            dice=["red"],
            exit="A",
            guardians=["B2"],
        ),
    )
    yield spec(
        "rulings",
        "exit-defeated-pass-through",
        "Year 3: the exit chamber A2 holds a defeated hero; a hero passing through it escapes or moves "
        "on (SS-EXIT-DEFEATED).",
        ("repel", "terms"),
        ("escape", "defeated-hero"),
        one(
            [["cave TB", "cave -"], ["cave TR", "cave L kobold kobold kobold kobold"]],
            year=3,
            dice=["purple", "purple", "purple"],
            exit="A",
            guardians=["B1"],
            defeated=["black@A2"],
            heroes={"purple": "Crusader"},
        ),
        stop=Stop.after(3),
    )
    yield spec(
        "rulings",
        "entry-unconnected-enter",
        "No top doorway in A1: escape at once or enter anyway (SS-ENTRY-UNCONNECTED); A1 holds the guardian.",
        ("repel", "dungeon"),
        ("escape", "guardian"),
        one([["cave RB kobold", "cave L"], ["cave T", "cave -"]], dice=["purple"], guardians=["A1"]),
    )
    yield spec(
        "rulings",
        "health-token-cap",
        "Year 1, the red card already at +2: the level-up roll shows red (SS-HEALTH-TOKENS).",
        ("level-heroes",),
        ("hero-levels",),
        one(
            fork("cave kobold"),
            dice=["black", "red"],
            decisions=["close"],
            guardians=["A1"],
            health_bonus={"red": 2},
        ),
        projection="scores",
        stop=Stop.end(),
    )
    yield spec(
        "rulings",
        "exit-chamber-short-dungeon",
        "Two rows built, the exit column's lowest chamber A2 has no bottom doorway: is it the exit "
        "chamber (SS-EXIT-CHAMBER)?",
        ("repel", "dungeon"),
        ("escape",),
        one(
            [["cave TB", "cave -"], ["cave TR", "cave L spike spike spike spike"]],
            year=2,
            dice=["red", "red"],
            exit="A",
            guardians=["B1"],
        ),
        stop=Stop.after(2),
    )
    yield spec(
        "rulings",
        "minions-optional-hold-back",
        "Preparation with one unlocked minion: must it be placed (SS-MINIONS)? The script holds it back.",
        ("preparation",),
        ("preparation", "minion"),
        one(
            fork("cave kobold"),
            year=2,
            dice=[],
            start="preparation",
            guardians=[],
            levels=(1, 0),
            decisions=["B2", "none"],
            then="none",
        ),
        projection="dungeon",
        stop=Stop.after(2),
        window="all",
    )
    yield spec(
        "rulings",
        "demerit-and-trophy-values",
        "Year 3, Ann defeats a hero and Bo's escapes: the trophy's and the demerit's values "
        "(SS-TROPHY-VALUES, SS-DEMERIT-VALUES).",
        ("award",),
        ("trophy", "escape", "multi-player"),
        scenario(
            [
                player(fork("cave kobold"), name="Ann", priority=1, guardians=["A1"]),
                player([["cave T", "cave -"]], name="Bo", priority=2, exit="A"),
            ],
            year=3,
            dice=["red"] * 6,
            decisions=["close"],
        ),
        projection="scores",
        stop=Stop.end(),
    )


# -- answers that must be refused --------------------------------------------------------------------------


def illegal() -> Iterator[CaseSpec]:
    rows = [["cave TRB kobold", "cave LB spike"], ["cave TR slime", "cave TL pit"]]
    yield spec(
        "illegal",
        "move-not-adjacent",
        "After A1 the hero can go to A2 or B1; B2 is not adjacent to A1 and must be refused.",
        ("repel", "dungeon"),
        ("illegal-answer", "move-choice"),
        one(rows, dice=["red"], decisions=["B2"], guardians=["B2"]),
        stop=Stop.after(2),
    )
    yield spec(
        "illegal",
        "move-revisit",
        "A hero never enters the same chamber twice: going back to A1 from B1 must be refused.",
        ("repel", "terms"),
        ("illegal-answer", "move-choice"),
        one(
            [
                ["cave TRB kobold", "cave LB"],
                ["cave TR", "cave TL"],
            ],
            dice=["red"],
            decisions=["B1", "A1"],
            guardians=["A2"],
            exit="A",
        ),
        stop=Stop.after(3),
    )
    yield spec(
        "illegal",
        "hero-not-waiting",
        "A black and a red hero wait; sending the purple one must be refused.",
        ("repel",),
        ("illegal-answer", "hero-order"),
        one(fork("cave kobold"), year=2, dice=["black", "red"], decisions=["purple"]),
        stop=Stop.after(3),
    )
    yield spec(
        "illegal",
        "track-name",
        "A guardian levels up on 'left' or 'right'; 'up' must be refused.",
        ("guardian-board", "xp"),
        ("illegal-answer", "xp"),
        one(fork("cave kobold"), dice=["red", "red"], decisions=["close", "up"], guardians=["A1"], xp=4),
        stop=Stop.after(4),
        projection="guardian",
    )


# -- solver-found edge cases -------------------------------------------------------------------------------


def _load(doc: dict[str, Any]) -> Any:
    from invasion_oracle.model import registry
    from invasion_oracle.model.core.spec import ScenarioOptions

    return registry.spec(GAME).load(copy.deepcopy(doc), "suite", ScenarioOptions())


def solver_cases() -> Iterator[CaseSpec]:
    """Placements, minions and health found by the solvers (each replayed by the oracle here)."""
    from invasion_oracle.model.stonespine.heroes import HeroColor
    from invasion_oracle.solver.stonespine.min_damage import fewest_minions, least_escaping_health
    from invasion_oracle.solver.stonespine.placement import search_guaranteed

    # Guaranteed defeats: the placement with the most heroes defeated on the worst roll (year 1).
    rows = [["cave TRB kobold", "cave LB slime"], ["cave TR spike", "cave TL"]]
    doc = one(rows, year=1, dice=[], levels=(1, 0), guardians=["A1"], minions=["A1"], exit="A")
    answer = search_guaranteed(_load(doc))
    board_doc = copy.deepcopy(doc)
    if answer.tied:
        first = answer.tied[0]  # a FigurePlacement: chamber names by figure kind
        board_doc["players"][0]["placement"] = {
            "guardians": list(first.guardians),
            "minions": list(first.minions),
        }
    for face in ("black", "purple", "red"):
        case_doc = copy.deepcopy(board_doc)
        case_doc["dice"] = {"script": [face], "then": "first-legal"}
        yield spec(
            "solver",
            f"best-placement-{face}",
            f"The placement the solver proves best for guaranteed defeats (year 1, guardian and one "
            f"minion): a {face} hero's wave.",
            ("preparation", "repel"),
            ("guardian", "minion"),
            case_doc,
            stop=Stop.before("gate"),
            window="all",
            source="solver",
            command="invasion stonespine placement SCENARIO --objective guaranteed",
        )
    # Fewest minions that defeat a red hero on its route (Pact Demon, three minions available).
    lane = [["cave TB kobold", "cave -"], ["cave TB slime", "cave -"], ["cave T spike", "cave -"]]
    doc = one(
        lane, year=1, dice=["red"], levels=(3, 2), guardians=["B1"], minions=["B2", "B2", "B2"], exit="B"
    )
    doc["rulings"] = {"SS-MINIONS": "optional"}
    fewest = fewest_minions(_load(doc), [HeroColor.RED], limit=3)
    if fewest.count is not None:
        placed = copy.deepcopy(doc)
        placed["players"][0]["placement"]["minions"] = list(fewest.where)
        yield spec(
            "solver",
            f"fewest-minions-{fewest.count}",
            f"The fewest minions that defeat the red Barbarian in a three-chamber lane: {fewest.count} "
            f"(in {', '.join(fewest.where) or 'none'}).",
            ("repel", "terms"),
            ("minion", "monster", "trap"),
            placed,
            stop=Stop.before("gate"),
            window="all",
            source="solver",
            command="invasion stonespine min-damage SCENARIO --hero red --minions",
        )
        if fewest.count:
            fewer = copy.deepcopy(placed)
            fewer["players"][0]["placement"]["minions"] = list(fewest.where[:-1])
            yield spec(
                "solver",
                f"fewest-minions-{fewest.count - 1}-escapes",
                f"One minion fewer ({fewest.count - 1}): the red Barbarian survives the lane and escapes.",
                ("repel", "terms"),
                ("minion", "escape"),
                fewer,
                stop=Stop.before("gate"),
                window="all",
                source="solver",
                command="invasion stonespine min-damage SCENARIO --hero red --minions",
            )
    # The least health with which a red hero escapes every route (forced escapes).
    maze = [["cave TRB kobold", "cave LB spike"], ["cave TR slime", "cave TL pit"]]
    doc = one(maze, year=1, dice=["red"], guardians=["B2"], exit="A", defeated=[])
    health = least_escaping_health(_load(doc), HeroColor.RED)
    if health.health is not None:
        route = list(health.escape_route)
        escaping = copy.deepcopy(doc)
        escaping["health_bonus"] = {"red": health.health - 6}
        escaping["decisions"] = {"script": route[1:], "then": "first-legal"}
        yield spec(
            "solver",
            "least-escaping-health",
            f"The least red health that escapes on every route: {health.health}; the solver's escape "
            f"route {' '.join(route)}.",
            ("repel", "terms", "heroes"),
            ("escape", "move-choice"),
            escaping,
            stop=Stop.before("gate"),
            window="all",
            source="solver",
            command="invasion stonespine min-damage SCENARIO --hero red --least-escaping-health",
        )


# -- hypothesis-shrunk boundaries ---------------------------------------------------------------------------


def _first_chamber_check(card: str) -> Callable[[tuple[int, list[str]]], bool]:
    """Whether ``card`` is defeated entering A1 with these elements and minions, by the model's
    own entering rule (``invasion_oracle.model.stonespine.entering.enter``): cheap enough for a hypothesis
    search. Every case found is then played through the whole game by the generator."""
    from dataclasses import replace

    from invasion_oracle.model.stonespine.dungeon import Cell
    from invasion_oracle.model.stonespine.entering import EntryKind, Rules, enter
    from invasion_oracle.model.stonespine.scenario import parse_chamber

    colour = HeroColor(COLOUR[card])
    base = _load(
        one(fork("cave"), dice=[colour.value], heroes={colour.value: card}, levels=(3, 2), minions=["B1"] * 3)
    )
    state = base.initial
    owner = state.players[0]
    rules = Rules.of(base.rulings, base.data)
    hero = state.card(colour)
    health = state.health(colour)
    first, second = Cell(0, 0), Cell(1, 0)

    def defeated(chamber: tuple[int, list[str]]) -> bool:
        minions, elements = chamber
        room = parse_chamber(" ".join(["cave", "TRB", *elements]), "suite", ())
        placement = replace(owner.placement, minions=(first,) * minions + (second,) * (3 - minions))
        dungeon = owner.dungeon.with_chamber(first, room)
        entry = enter(
            rules, dungeon, owner.guardian, placement, frozenset(), first, hero, False, (), 0, health
        )
        return entry.kind is EntryKind.GUARDIAN or entry.damage >= health

    return defeated


def _defeated_in_first_chamber(elements: Sequence[str], minions: int, card: str) -> bool:
    """The same question answered by playing the whole game (the generator's check)."""
    from invasion_oracle.model.core.play import run

    colour = COLOUR[card]
    doc = one(
        fork("cave " + " ".join(elements)),
        dice=[colour],
        heroes={colour: card},
        levels=(3, 2),
        minions=["A1"] * minions + ["B1"] * (3 - minions),
    )
    playthrough = run(_load(doc))
    return any(e.kind == "hero_defeated" and e.get("chamber") == "A1" for e in playthrough.events)


def shrunk_cases() -> Iterator[CaseSpec]:
    """The smallest first chambers (hypothesis-shrunk) that defeat each red and purple card."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    from invasion_oracle.properties.budget import fixed_constants

    elements = st.lists(st.sampled_from(("chest", "+1", "kobold", "spike", "slime")), max_size=4)
    searches = {
        "": st.tuples(st.integers(0, 2), elements),  # with minions: the shortest chamber
        "-no-minions": st.tuples(st.just(0), elements),  # elements only
    }
    quiet = settings(
        database=None,
        derandomize=True,
        max_examples=200,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    for card in ("Barbarian", "Knight", "Cleric", "Templar", "Thief"):
        for suffix, chamber in searches.items():
            try:
                with fixed_constants():  # the same draws whatever ran before (properties/budget.py)
                    found = find(chamber, _first_chamber_check(card), settings=quiet)
            except NoSuchExample:
                continue  # four elements cannot defeat this hero without minions
            minions, items = found[0], list(found[1])
            if not _defeated_in_first_chamber(items, minions, card):  # the game must agree
                raise AssertionError(f"{card}: the entering rule and the game disagree on {found}")
            colour = COLOUR[card]
            yield spec(
                "boundaries",
                f"smallest-defeat-{_slug(card)}{suffix}",
                f"The smallest first chamber (hypothesis-shrunk{', no minions' if suffix else ''}) that "
                f"defeats the {card}: {' '.join(items) or 'no elements'} with {minions} minion(s).",
                ("repel", "heroes", "terms"),
                ("minion", "monster", "trap", "hero-ability"),
                one(
                    fork("cave " + " ".join(items)),
                    dice=[colour],
                    heroes={colour: card},
                    levels=(3, 2),
                    minions=["A1"] * minions + ["B1"] * (3 - minions),
                ),
                source="hypothesis",
                command="hypothesis.find over (minions, elements) in the first chamber",
            )


SUITE = GameSuite(
    game=GAME,
    sections=SECTIONS,
    projections=PROJECTIONS,
    features=FEATURES,
    producers=(
        entering,
        heroes_abilities,
        moving,
        choose_hero,
        dice,
        gate,
        after_waves,
        guardians,
        improvement,
        preparation,
        construction_cleanup,
        final_scoring,
        solo,
        worked_examples,
        ruling_actions,
        illegal,
        solver_cases,
        shrunk_cases,
        guardian_boards,
        walks,
    ),
    notes={
        "run-sections": "roll repel gate level-heroes award xp",
        "step-sections": "roll repel gate",
        "ruling:SS-DEMERIT-VALUES": "award final-scoring",
        "ruling:SS-DICE-FACES": "roll components",
        "ruling:SS-HEALTH-TOKENS": "level-heroes",
        "ruling:SS-HYDRA-COLLAPSE": "guardian-board repel",
        "ruling:SS-IMPROVEMENT-ORDER": "improvement",
        "ruling:SS-MINIONS": "preparation",
        "ruling:SS-PASSAGE": "improvement dungeon",
        "ruling:SS-PURPLE-FIRST": "heroes",
        "ruling:SS-PURPLE-SCOPE": "heroes",
        "ruling:SS-RUBBLE-REMOVE": "improvement terms",
        "ruling:SS-TROLL-MOVE": "guardian-board",
        "ruling:SS-TROPHY-VALUES": "award",
        "ruling:SS-TROPHY-ZERO": "award",
        "ruling:SS-XP-MARKET": "improvement",
        "ruling:SS-BLACK-DEFEATED": "repel heroes",
        "ruling:SS-SIMULTANEOUS": "repel heroes",
        "ruling:SS-ENTRY-UNCONNECTED": "repel dungeon",
        "ruling:SS-EXIT-CHAMBER": "repel dungeon",
        "ruling:SS-EXIT-DEFEATED": "repel",
        "ruling:SS-EXIT-Y13": "repel",
    },
)

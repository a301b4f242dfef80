"""Cloudspire's cases: rule by rule (seed 004), the rulings' readings, the searches' answers.

Each case is a small described state (the Harbor Keeper with Harbor, Gale and Basalt allied, the
Driftwood Leviathan as boss, the dice not listed banished) started as close as the format allows
to the rule under test (``round``, ``strategy``, ``load``, ``fire`` or ``resolve``), one round
long, with the decisions and rolls that matter scripted and the first legal option after them.

Projections (``docs/fixtures.md``): ``lanes`` (each lane's stack, top first, with the top card's
damage), ``dice`` (every die by zone with face and place), ``hero`` (Health, Strategy, Recovery,
totals), ``spires`` (the spire spaces), ``piles`` (Deployment and Market Stacks, discard,
inventory) and ``result``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import Any

from reports.suite.plugins import GameSuite, Projection, Section
from reports.suite.specs import CaseSpec, Stop

GAME = "cloudspire"

SECTIONS = (
    Section("cards", "Components; Card Faces"),
    Section("winning", "Winning & Losing; Endgame"),
    Section("area", "Orientation; Table Setup Diagram"),
    Section("setup", "Setup; More Adversity; Universal Heroes"),
    Section("round", "Round Structure; Round Flow"),
    Section("cycle", "Cycle Enemies Phase"),
    Section("advance", "Advance Enemies Phase"),
    Section("stacks", "Enemy Stacks (Additional Enemy Icons; Enemy Stacks)"),
    Section("place", "Place Spires Step"),
    Section("roll", "Commit Dice & Roll Dice Steps"),
    Section("apply", "Apply Dice Step; Blueprints; Ignoring and Created Blueprints"),
    Section("fire", "Spires Fire Phase"),
    Section("suffer", "Suffer Damage Step"),
    Section("after", "After Effects Step"),
    Section("exhaust", "Exhaust Dice Step"),
    Section("recover-rewards", "Recover Dice & Gain Item Rewards Steps"),
    Section("cleanup", "Cleanup Step"),
    Section("spires", "Spires: Gaining & Placing, Using, Inventory"),
    Section("minis", "Mini-Heroes; Mini-Bosses"),
    Section("discard", "The Discard"),
    Section("draw-keep", '"Draw/Keep" Rewards'),
    Section("dice", "Dice and zones (research §4.2, §4.4)"),
    Section("boss", "Hero / Boss Cards, Boss Side: global effect"),
)

FEATURES = {
    "cycle": "a Deployment card cycled to the bottom for a pool die",
    "deploy": "an enemy deployed from the Deployment Stack",
    "deploy-fail": "no deployment: the hero loses Health",
    "activation": "an enemy's activation effect",
    "stack": "an enemy stack (additional enemy icons, reveal)",
    "place-spire": "a spire placed from the inventory",
    "reroll": "more than one roll in an Engagement",
    "load": "dice loaded onto blueprints",
    "blueprint-kinds": "wild, ignored or created blueprints",
    "hit": "a loaded hit applied to an enemy",
    "carry-over": "damage carried over on an undefeated enemy",
    "miss-absorbs": "a loaded miss or a spire absorbing damage",
    "hero-damage": "the hero taking damage",
    "ranged": "an enemy reaching the hero from any lane",
    "after-effect": "an after effect",
    "keep": "the keep-or-exhaust choice for a loaded die",
    "recovery": "exhausted dice recovered",
    "reward": "a reward (instant, draw/keep, claim)",
    "inventory-limit": "a full inventory",
    "banish": "a die banished to gain a spire",
    "discard-face": "the side a card lies in the discard",
    "boss": "the boss added, deployed, defeated or its global effect",
    "setup": "setup: boss, Deployment and Market Stacks",
    "win": "the game won",
    "loss": "the game lost",
    "whole-run": "a whole run compared from the opening",
    "playthrough": "cut from a recorded or random playthrough",
    "ruling-witness": "a ruling's witness scenario",
}

# -- projections -------------------------------------------------------------------------------------


def _lanes(scenario: Any, state: Any, argument: str) -> Any:
    game = scenario.game()
    out = {}
    for lane, stack in zip(("top", "middle", "bottom"), state.lanes, strict=True):
        out[lane] = {"stack": list(stack), "damage": game.damage_taken(state, stack[0]) if stack else 0}
    return out


def _dice(scenario: Any, state: Any, argument: str) -> Any:
    def where(d: Any) -> str:
        face = f" {d.face.value}" if d.face is not None else ""
        place = f" @{d.slot or d.card}" if (d.slot or d.card) else ""
        return f"{d.zone.value}{face}{place}"

    return {d.name: where(d) for d in state.dice}


def _hero(scenario: Any, state: Any, argument: str) -> Any:
    return {
        "health": state.health,
        "strategy": state.strategy,
        "recovery": state.recovery,
        "health_lost": state.health_lost,
        "health_gained": state.health_gained,
        "defeated": list(state.defeated),
    }


def _spires(scenario: Any, state: Any, argument: str) -> Any:
    spaces = ("L-top", "L-middle", "L-bottom", "R-top", "R-middle", "R-bottom")
    held: dict[str, list[str]] = {}
    for die in state.dice:
        if die.slot:
            held.setdefault(die.slot.split(".")[0], []).append(die.describe())
    return {
        space: {"card": placed.card, "defeated": placed.defeated, "dice": sorted(held.get(space, []))}
        for space, placed in zip(spaces, state.spires, strict=True)
        if placed is not None
    }


def _piles(scenario: Any, state: Any, argument: str) -> Any:
    return {
        "deployment": state.deployment.to_json(),
        "market": state.market.to_json(),
        "discard": [[card, side] for card, side in state.discard],
        "inventory": list(state.inventory),
        "boss_added": state.boss_added,
    }


def _result(scenario: Any, state: Any, argument: str) -> Any:
    if state.outcome is None:
        return {"result": "running", "reason": "", "round": state.round}
    return state.outcome.to_json()


PROJECTIONS = (
    Projection("lanes", "each lane's enemy stack (top card first) and the damage on its top card", _lanes),
    Projection("dice", "every unit die: zone, face and place; counts by zone", _dice),
    Projection("hero", "Health, Strategy, Recovery, Health lost and gained, enemies defeated", _hero),
    Projection("spires", "the occupied spire spaces: card, defeated, the dice on it", _spires),
    Projection("piles", "Deployment and Market Stacks, discard (card, side), inventory, boss added", _piles),
    Projection("result", "win, loss, stopped or running, with the reason and round", _result),
)

# -- scenario builders --------------------------------------------------------------------------------

DICE = ("Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4", "B1", "B2", "B3", "B4", "P1", "P2", "P3", "P4", "R1")


def dice(*pool: str, **zones: Any) -> dict[str, Any]:
    listed = {d for v in zones.values() for d in (v if isinstance(v, list) else v.keys())}
    return {"banished": [d for d in DICE if d not in pool and d not in listed], **zones}


def doc(
    start: str = "round",
    *,
    decisions: Sequence[str] = (),
    chance: Sequence[str] = (),
    rulings: dict[str, str] | None = None,
    **state: Any,
) -> dict[str, Any]:
    base: dict[str, Any] = {
        "hero": "Harbor Keeper",
        "allied": ["Harbor", "Gale", "Basalt"],
        "boss": "Driftwood Leviathan",
        "dice": dice(),
    }
    base.update(copy.deepcopy(state))
    document: dict[str, Any] = {
        "game": GAME,
        "start": start,
        "rounds": 1,
        "state": base,
        "decisions": {"script": list(decisions), "then": "first-legal"},
        "chance": {"script": list(chance), "then": "first-legal"},
    }
    if rulings:
        document["rulings"] = dict(rulings)
    return document


def case(
    group: str,
    name: str,
    description: str,
    sections: Sequence[str],
    features: Sequence[str],
    document: dict[str, Any],
    *,
    projection: str = "lanes",
    stop: Stop | None = None,
    window: str = "all",
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
        stop if stop is not None else Stop.end(),
        window,
        **kw,
    )


# -- activation ----------------------------------------------------------------------------------------


def activation() -> Iterator[CaseSpec]:
    yield case(
        "cycle",
        "one-cycle",
        "Cycle Enemies: a yellow pool die is exhausted to move Aegis to the bottom; Tide Lancer deploys.",
        ("cycle", "advance"),
        ("cycle", "deploy"),
        doc(
            deployment=["Aegis", "Tide Lancer", "Riptide Skiff"],
            dice=dice("Y1", "G1"),
            decisions=["cycle yellow", "stop", "stop"],
        ),
        projection="piles",
    )
    yield case(
        "cycle",
        "as-many-as-pool-dice",
        "Cycling stops when the pool is empty: two dice, two cycles.",
        ("cycle",),
        ("cycle", "deploy"),
        doc(
            deployment=["Aegis", "Tide Lancer", "Riptide Skiff"],
            dice=dice("Y1", "G1"),
            decisions=["cycle yellow", "cycle green", "stop"],
        ),
        projection="piles",
    )
    yield case(
        "advance",
        "move-and-deploy",
        "Advance Enemies: middle to bottom, top to middle, then the top card deploys.",
        ("advance",),
        ("deploy",),
        doc(lanes={"top": ["Reed Archer"], "middle": ["Moss Lurker"]}, deployment=["Bark Brute"]),
    )
    yield case(
        "advance",
        "blocked",
        "Every lane full: no move happens, nothing deploys, the hero loses 1 Health.",
        ("advance", "round"),
        ("deploy-fail", "hero-damage"),
        doc(
            lanes={"top": ["Reed Archer"], "middle": ["Moss Lurker"], "bottom": ["Bark Brute"]},
            deployment=["Snow Mite"],
        ),
        projection="hero",
    )
    yield case(
        "advance",
        "partly-blocked",
        "The bottom lane is full, the middle free: the top enemy moves and a new one deploys.",
        ("advance",),
        ("deploy",),
        doc(lanes={"top": ["Reed Archer"], "bottom": ["Bark Brute"]}, deployment=["Snow Mite"]),
    )
    yield case(
        "advance",
        "activation-once",
        "A Halo Drone's activation effect costs 1 Health when it deploys, not when it advances.",
        ("advance",),
        ("activation", "hero-damage", "deploy"),
        {**doc(deployment=["Halo Drone", "Bark Brute"]), "rounds": 2},
        projection="hero",
    )
    yield case(
        "advance",
        "exhaust-pool",
        "A Hail Caller's activation exhausts a pool die of the player's choice.",
        ("advance", "dice"),
        ("activation",),
        doc(deployment=["Hail Caller"], dice=dice("Y1", "B1"), decisions=["exhaust-pool blue"]),
        projection="dice",
    )


def stacks() -> Iterator[CaseSpec]:
    yield case(
        "stacks",
        "one-icon",
        "Prism Wisp's additional enemy icon puts the next card under it; that card's effects are ignored.",
        ("stacks",),
        ("stack", "deploy"),
        doc(deployment=["Prism Wisp", "Glare Knight", "Halo Drone"]),
    )
    yield case(
        "stacks",
        "chain",
        "Icons chain while the added cards have icons: four cards in one stack.",
        ("stacks",),
        ("stack", "deploy"),
        doc(deployment=["Bone Acolyte", "Spark Imp", "Snow Mite", "Bark Brute", "Reed Archer"]),
    )
    yield case(
        "stacks",
        "empty-stack",
        "An icon with an empty Deployment Stack is ignored.",
        ("stacks",),
        ("stack",),
        doc(deployment=["Prism Wisp"]),
    )
    yield case(
        "stacks",
        "mini-boss-next",
        "An icon that would deploy a mini-boss is ignored (mini-bosses count as bosses).",
        ("stacks", "minis"),
        ("stack",),
        doc(deployment=["Prism Wisp", "Cobalt Warden"]),
    )
    yield case(
        "stacks",
        "advance-as-group",
        "A stack advances as a group; icons are not resolved when it moves.",
        ("stacks", "advance"),
        ("stack",),
        doc(
            lanes={"top": ["Prism Wisp"], "middle": ["Glare Knight", "Brine Serpent"]},
            activated=["Prism Wisp", "Glare Knight"],
            deployment=["Bark Brute", "Reed Archer"],
        ),
    )
    yield case(
        "stacks",
        "top-deals-damage",
        "Only the top card of a stack attacks.",
        ("stacks", "suffer"),
        ("stack", "hero-damage"),
        doc("resolve", lanes={"bottom": ["Glare Knight", "Brine Serpent"]}),
        projection="hero",
    )
    yield case(
        "stacks",
        "reveal",
        "Defeating a stack's top card reveals the next, which activates with its icons ignored.",
        ("stacks", "fire"),
        ("stack", "hit"),
        doc(
            "fire",
            lanes={"bottom": ["Reed Archer", "Prism Wisp"]},
            deployment=["Bark Brute"],
            dice=dice(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
            decisions=["apply B1 bottom", "done"],
        ),
    )


# -- the Engagement ---------------------------------------------------------------------------------


WATER = {"L-top": "Water Tower"}


def strategy() -> Iterator[CaseSpec]:
    yield case(
        "place",
        "from-inventory",
        "Place Spires: an inventory spire into an open space, one card per space.",
        ("place", "spires"),
        ("place-spire",),
        doc(
            "strategy",
            inventory=["Water Tower", "Tide Chart"],
            spires={"L-middle": "Lighthouse"},
            decisions=["place Harbor-1 R-bottom"],
        ),
        projection="spires",
    )
    yield case(
        "roll",
        "three-rolls",
        "Strategy 2: a first roll and two rerolls of a committed die that is never loaded.",
        ("roll",),
        ("reroll",),
        doc("strategy", dice=dice("Y1"), decisions=["commit yellow", "roll", "roll", "roll"]),
        projection="dice",
    )
    yield case(
        "apply",
        "colours",
        "Colours must match: a blue hit loads on a blue blueprint; a green die has nowhere to go.",
        ("apply",),
        ("load",),
        doc(
            "load",
            spires=WATER,
            dice=dice(committed={"B1": "hit", "G1": "hit"}),
            decisions=["load B1 L-top.bp1"],
        ),
        projection="spires",
    )
    yield case(
        "apply",
        "misses-on-spires",
        "Only spires accept misses: a blue miss loads on the Water Tower, not on the hero.",
        ("apply", "spires"),
        ("load",),
        doc("load", spires=WATER, dice=dice(committed={"B1": "miss"}), decisions=["load B1 L-top.bp1"]),
        projection="spires",
    )
    yield case(
        "apply",
        "wild",
        "A wild blueprint takes a purple die.",
        ("apply",),
        ("load", "blueprint-kinds"),
        doc(
            "load",
            spires={"R-middle": "Lighthouse"},
            dice=dice(committed={"P1": "hit"}),
            decisions=["load P1 R-middle.bp2"],
        ),
        projection="spires",
    )
    yield case(
        "apply",
        "ignore-blueprint",
        "Monolant: dice of any colour loaded ignoring its blueprint, then fired at the bottom lane.",
        ("apply", "fire"),
        ("load", "blueprint-kinds", "hit"),
        doc(
            "load",
            spires={"L-bottom": "Monolant"},
            lanes={"bottom": ["Moss Lurker"]},
            dice=dice(committed={"G1": "crit", "R1": "hit"}),
            decisions=[
                "load G1 L-bottom.free1",
                "load R1 L-bottom.free2",
                "apply G1 bottom",
                "apply R1 bottom",
            ],
        ),
    )
    yield case(
        "apply",
        "drilling-outpost",
        "Drilling Outpost in the inventory: a red blueprint on the active spire for the round; its die is exhausted at the end.",
        ("apply", "cleanup", "spires"),
        ("blueprint-kinds", "load"),
        doc(
            inventory=["Drilling Outpost"],
            spires={"L-middle": "Water Tower"},
            dice=dice("R1"),
            decisions=["done", "commit red", "load R1 L-middle.drill1", "done"],
            chance=["hit"],
        ),
        projection="dice",
    )


def fire_and_resolve() -> Iterator[CaseSpec]:
    yield case(
        "fire",
        "hero-reaches-bottom",
        "A hit on the hero reaches the bottom lane only.",
        ("fire", "area"),
        ("hit",),
        doc(
            "fire",
            lanes={"middle": ["Bark Brute"], "bottom": ["Moss Lurker"]},
            dice=dice(loaded={"B1": {"slot": "hero.bp1", "face": "hit"}}),
        ),
    )
    yield case(
        "fire",
        "spire-reaches-its-row",
        "A hit on a spire reaches its row's lane only.",
        ("fire", "area"),
        ("hit",),
        doc(
            "fire",
            spires={"R-middle": "Water Tower"},
            lanes={"middle": ["Bark Brute"], "bottom": ["Moss Lurker"]},
            dice=dice(loaded={"B1": {"slot": "R-middle.bp1", "face": "crit"}}),
        ),
    )
    yield case(
        "fire",
        "carry-over",
        "Dice on an undefeated enemy stay with their damage.",
        ("fire", "exhaust"),
        ("hit", "carry-over"),
        doc(
            "fire",
            lanes={"bottom": ["Bark Brute"]},
            dice=dice(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
        ),
        projection="dice",
    )
    yield case(
        "suffer",
        "miss-then-spire",
        "Damage removes the loaded miss first, then the bare spire; the hero is spared; the spire is discarded item side up.",
        ("suffer", "cleanup", "discard"),
        ("miss-absorbs",),
        doc(
            "resolve",
            spires={"L-bottom": "Water Tower"},
            lanes={"bottom": ["Bark Brute"]},
            dice=dice(loaded={"B1": {"slot": "L-bottom.bp1", "face": "miss"}}),
            decisions=["miss L-bottom.bp1", "spire L-bottom"],
        ),
        projection="piles",
    )
    yield case(
        "suffer",
        "order",
        "Each enemy deals all its damage before the next attacks; the player picks the order.",
        ("suffer",),
        ("hero-damage", "miss-absorbs"),
        doc(
            "resolve",
            spires={"L-bottom": "Water Tower", "R-top": "Lighthouse"},
            lanes={"top": ["Reed Archer"], "bottom": ["Bark Brute"]},
            decisions=["attack top", "spire R-top", "hero", "hero"],
        ),
        projection="hero",
    )
    yield case(
        "suffer",
        "middle-cannot-reach",
        "An enemy in the middle lane with no spire in its row attacks nobody.",
        ("suffer", "area"),
        ("hero-damage",),
        doc("resolve", lanes={"middle": ["Bark Brute"]}),
        projection="hero",
    )
    yield case(
        "suffer",
        "ranged",
        "A ranged enemy hits the hero from the top lane.",
        ("suffer",),
        ("ranged", "hero-damage"),
        doc("resolve", lanes={"top": ["Tide Lancer"]}),
        projection="hero",
    )
    yield case(
        "suffer",
        "no-targets-left",
        "A Brine Serpent destroys the middle-row spire, then has no target left.",
        ("suffer",),
        ("miss-absorbs",),
        doc("resolve", spires={"L-middle": "Water Tower"}, lanes={"middle": ["Brine Serpent"]}),
        projection="spires",
    )
    yield case(
        "after",
        "after-effect",
        "A Moss Lurker in play: the hero loses 1 Health in the After Effects step.",
        ("after",),
        ("after-effect",),
        doc("resolve", lanes={"middle": ["Moss Lurker"]}),
        projection="hero",
    )
    yield case(
        "exhaust",
        "keep-or-exhaust",
        "Dice on defeated enemies and committed dice not loaded are exhausted; a loaded miss is kept.",
        ("exhaust", "dice"),
        ("keep", "hit"),
        doc(
            "fire",
            spires=WATER,
            lanes={"top": ["Reed Archer"], "bottom": ["Bark Brute"]},
            dice=dice(
                committed={"G1": "hit"},
                loaded={
                    "B1": {"slot": "L-top.bp1", "face": "crit"},
                    "Y1": {"slot": "L-top.bp2", "face": "miss"},
                    "B2": {"slot": "hero.bp1", "face": "hit"},
                },
            ),
            decisions=["apply B1 top", "apply B2 bottom", "keep Y1"],
        ),
        projection="dice",
    )
    yield case(
        "recover-rewards",
        "recovery-bonus",
        "Recovery 3 plus the Tide Chart's bonus: four exhausted dice return, chosen by colour.",
        ("recover-rewards", "spires"),
        ("recovery",),
        doc(
            "resolve",
            inventory=["Tide Chart"],
            dice=dice(exhausted=["Y1", "Y2", "G1", "G2", "B1", "R1"]),
            decisions=["recover red", "recover blue", "recover green", "recover yellow"],
        ),
        projection="dice",
    )
    yield case(
        "recover-rewards",
        "instant-heal",
        "A heal reward resolves when the enemy is defeated.",
        ("recover-rewards",),
        ("reward", "hit"),
        doc(
            "fire",
            health=10,
            lanes={"bottom": ["Log Runner"]},
            dice=dice(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
        ),
        projection="hero",
    )
    yield case(
        "draw-keep",
        "three-keep-one",
        "Draw three from the Market Stack, keep one; the others to the bottom in the chosen order.",
        ("draw-keep", "recover-rewards"),
        ("reward",),
        doc(
            "fire",
            lanes={"bottom": ["Corona Beast"]},
            market=["Lighthouse", "Tide Chart", "Salt Pork", "Kite String"],
            dice=dice(
                applied={"P1": {"card": "Corona Beast", "face": "crit"}},
                loaded={"B1": {"slot": "hero.bp1", "face": "crit"}},
            ),
            decisions=["apply B1 bottom", "keep-card Harbor-5", "bottom Harbor-4"],
        ),
        projection="piles",
    )
    yield case(
        "recover-rewards",
        "claim",
        "Aegis's claim reward gains its own spire side, Lance Launcher, placed at once; crits count 1 on the armored Aegis.",
        ("recover-rewards", "spires"),
        ("reward", "hit"),
        doc(
            "fire",
            recovery=0,
            lanes={"bottom": ["Aegis"]},
            spires={"L-bottom": "Monolant"},
            dice=dice(
                applied={"P1": {"card": "Aegis", "face": "crit"}, "P2": {"card": "Aegis", "face": "hit"}},
                loaded={
                    "B1": {"slot": "hero.bp1", "face": "hit"},
                    "B2": {"slot": "L-bottom.free1", "face": "hit"},
                },
            ),
            decisions=["apply B1 bottom", "apply B2 bottom", "activate R-bottom"],
        ),
        projection="spires",
    )
    yield case(
        "cleanup",
        "dice-on-defeated-spire",
        "Cleanup exhausts the dice left on a defeated spire and discards it.",
        ("cleanup", "exhaust"),
        ("miss-absorbs",),
        doc(
            "resolve",
            recovery=0,
            spires={"L-bottom": "Water Tower"},
            lanes={"bottom": ["Bark Brute"]},
            dice=dice(loaded={"B1": {"slot": "L-bottom.bp1", "face": "hit"}}),
            decisions=["spire L-bottom"],
        ),
        projection="dice",
    )


def spires_and_discard() -> Iterator[CaseSpec]:
    yield case(
        "spires",
        "banish-market",
        "A pool die banished to take a spire from the Market Stack, which is then shuffled; the spire is activated at once.",
        ("spires", "dice"),
        ("banish",),
        doc(
            "strategy",
            discard=["Water Tower"],
            market=["Tide Chart", "Lattice", "Kite String"],
            dice=dice("Y1"),
            decisions=["banish yellow", "gain Gale-1 market", "activate L-top"],
        ),
        projection="piles",
    )
    yield case(
        "spires",
        "banish-discard",
        "A spire taken from the discard by banishing a die goes to the inventory.",
        ("spires", "discard"),
        ("banish",),
        doc("strategy", discard=["Water Tower"], dice=dice("Y1"), decisions=["banish yellow", "inventory"]),
        projection="piles",
    )
    yield case(
        "spires",
        "inventory-full",
        "A full inventory (Strategy 2) asks which card to discard to make room.",
        ("spires", "draw-keep"),
        ("inventory-limit", "reward"),
        doc(
            "fire",
            inventory=["Tide Chart", "Kite String"],
            lanes={"bottom": ["Prism Wisp"]},
            market=["Salt Pork", "Ore Satchel"],
            dice=dice(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
            decisions=["apply B1 bottom", "keep-card Harbor-5", "discard Harbor-4"],
        ),
        projection="piles",
    )
    yield case(
        "minis",
        "not-counted",
        "Mini-heroes in the inventory do not count against its limit.",
        ("minis", "spires"),
        ("inventory-limit", "reward"),
        doc(
            "fire",
            inventory=["Gale Kite", "Tide Chart"],
            lanes={"bottom": ["Prism Wisp"]},
            market=["Salt Pork", "Ore Satchel"],
            dice=dice(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
            decisions=["apply B1 bottom", "keep-card Harbor-5"],
        ),
        projection="piles",
    )
    yield case(
        "minis",
        "ability",
        "A mini-hero's recovery bonus works from the inventory.",
        ("minis", "recover-rewards"),
        ("recovery",),
        doc(
            "resolve",
            inventory=["Gale Kite"],
            dice=dice(exhausted=["Y1", "Y2", "Y3", "Y4", "G1"]),
            decisions=["recover yellow"] * 4,
        ),
        projection="dice",
    )
    yield case(
        "discard",
        "face-down-side",
        "A defeated Aegis lies enemy side up: its Lance Launcher cannot be searched for, so banishing is not offered.",
        ("discard", "spires"),
        ("discard-face",),
        doc("strategy", discard=["Aegis"], dice=dice("Y1"), decisions=["commit yellow", "stop"]),
        projection="piles",
    )
    yield case(
        "discard",
        "claimed-card",
        "An enemy-faction card serving as a spire is discarded enemy side up when defeated.",
        ("discard", "suffer"),
        ("discard-face", "miss-absorbs"),
        doc(
            "resolve",
            spires={"L-bottom": "Aegis"},
            lanes={"bottom": ["Bark Brute"]},
            decisions=["spire L-bottom"],
        ),
        projection="piles",
    )


def endgame_and_setup() -> Iterator[CaseSpec]:
    yield case(
        "winning",
        "boss-added",
        "The boss joins the Deployment Stack after the last enemy activates.",
        ("winning",),
        ("boss", "deploy"),
        doc(deployment=["Bark Brute"]),
        projection="piles",
    )
    yield case(
        "winning",
        "win",
        "The worn-down boss is defeated with nothing left to deploy: the game is won.",
        ("winning", "fire"),
        ("win", "boss", "hit"),
        doc(
            "fire",
            boss_added=True,
            lanes={"bottom": ["Driftwood Leviathan"]},
            dice=dice(
                applied={f"P{i}": {"card": "Driftwood Leviathan", "face": "crit"} for i in range(1, 5)},
                loaded={"B1": {"slot": "hero.bp1", "face": "crit"}},
            ),
            decisions=["apply B1 bottom"],
        ),
        projection="result",
    )
    yield case(
        "winning",
        "loss",
        "Health below 1 loses at once.",
        ("winning", "suffer"),
        ("loss", "hero-damage"),
        doc("resolve", health=1, lanes={"bottom": ["Bark Brute"]}),
        projection="result",
    )
    yield case(
        "boss",
        "global-effect",
        "The Cobalt Admiral's global effect: every enemy deals 1 more damage.",
        ("boss", "suffer"),
        ("boss", "hero-damage"),
        doc("resolve", boss="Cobalt Admiral", lanes={"bottom": ["Bark Brute"]}),
        projection="hero",
    )
    yield case(
        "setup",
        "boss-and-stacks",
        "Setup with a random boss (the first eligible drawn), its faction's cards and mini-boss shuffled into the Deployment Stack, renown 2.",
        ("setup", "cards", "round"),
        ("setup", "boss", "whole-run"),
        {
            "game": GAME,
            "start": "setup",
            "rounds": 1,
            "setup": {"hero": "Harbor Keeper", "mini_heroes": ["Gale", "Basalt"], "renown": 2},
            "decisions": {"script": [], "then": "first-legal"},
            "chance": {"script": [], "then": "first-legal"},
        },
        projection="piles",
        stop=Stop.before("cycle"),
    )
    yield case(
        "setup",
        "universal-hero",
        "A universal hero: three chosen mini-heroes and two same-name spires; no blueprint; enemies added to the closest non-boss enemy.",
        ("setup", "stacks"),
        ("setup", "stack"),
        doc(
            "strategy",
            hero="Wayfarer",
            lanes={"middle": ["Reed Archer"], "bottom": ["Driftwood Hulk"]},
            deployment=["Snow Mite", "Tide Lancer", "Bark Brute"],
        ),
    )


SUITE = GameSuite(
    game=GAME,
    sections=SECTIONS,
    projections=PROJECTIONS,
    features=FEATURES,
    producers=(activation, stacks, strategy, fire_and_resolve, spires_and_discard, endgame_and_setup),
    notes={
        "run-sections": "round advance fire suffer",
        "step-sections": "round",
        "ruling:CS-EMPTY-STACK-DAMAGE": "advance winning",
        "ruling:CS-APPLIED-DIE": "fire exhaust",
        "ruling:CS-LOAD-SOURCE": "apply",
        "ruling:CS-INVENTORY-ACTIVE": "spires",
        "ruling:CS-REVEAL-SAME-PHASE": "stacks fire",
        "ruling:CS-ROLLS": "roll",
        "ruling:CS-DEPLOYMENT-MAKEUP": "setup",
        "ruling:CS-BOSS-TIMING": "winning stacks",
        "ruling:CS-REVEAL-ACTIVATION": "stacks advance",
        "ruling:CS-AFTER-DEFEATED": "after",
        "ruling:CS-SWITCH-FROM-HERO": "suffer",
        "ruling:CS-SPIRE-ADJACENCY": "spires apply",
        "ruling:CS-BOSS-GLOBAL": "boss",
    },
)

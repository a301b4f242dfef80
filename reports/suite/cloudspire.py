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

from collections.abc import Iterator
from typing import Any

from invasion_oracle.reports.suite.cloudspire_conflict import conflict_enemy_cases, conflict_item_cases
from invasion_oracle.reports.suite.cloudspire_factions import faction_cases
from invasion_oracle.reports.suite.cloudspire_scenarios import GAME, case, dice, doc
from invasion_oracle.reports.suite.plugins import GameSuite, Projection, Section
from invasion_oracle.reports.suite.specs import CaseSpec, Stop

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
    from invasion_oracle.reports.suite.events import coded_result

    return coded_result(GAME, state.outcome.to_json())  # the reason as a code (and its ids), never prose


PROJECTIONS = (
    Projection("lanes", "each lane's enemy stack (top card first) and the damage on its top card", _lanes),
    Projection("dice", "every unit die: zone, face and place; counts by zone", _dice),
    Projection("hero", "Health, Strategy, Recovery, Health lost and gained, enemies defeated", _hero),
    Projection("spires", "the occupied spire spaces: card, defeated, the dice on it", _spires),
    Projection("piles", "Deployment and Market Stacks, discard (card, side), inventory, boss added", _piles),
    Projection("result", "win, loss, stopped or running, with the reason and round", _result),
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


# -- single actions, rule by rule -----------------------------------------------------------------------
#
# Each case below compares one rules action: one answer's step (``Stop.after(n)``, window
# ``last``), or a phase cut off at the next request it leads to (window ``all``, ``Stop.before``).
# Where a phase would otherwise run on to the end of the round, a *sentinel* gives it a request
# right after: a loaded miss on a spire away from the action (the Exhaust Dice step asks to keep
# it), an inventory spire and an open space (Place Spires asks), or a second round whose Cycle
# Enemies phase asks. The description cites the seed 004 section the expectation was checked
# against.

SUITE_HEADINGS = {
    "suffer": "Suffer Damage Step",
    "after": "After Effects Step",
    "winning": "Winning & Losing",
    "boss": "Hero / Boss Cards, Boss Side",
}
SENTINEL_SPIRE = {"R-top": "Wind Vane"}  # green and yellow blueprints, row top
SENTINEL_MISS = {"Y4": {"slot": "R-top.bp2", "face": "miss"}}
KEEP = Stop.before("keep")  # the Exhaust Dice step's keep-or-exhaust question for the sentinel miss
ONE = Stop.after(1)


def _next_round(**state: Any) -> dict[str, Any]:
    """A two-round document whose second round opens with the Cycle Enemies question (two cards
    in the Deployment Stack, a pool die)."""
    document = doc("resolve", **state)
    document["rounds"] = 2
    return document


def load_steps() -> Iterator[CaseSpec]:
    """Apply Dice Step; Blueprints: one load at a time, colours and misses at their limits."""
    cases: list[tuple[str, str, dict[str, Any], Stop, str]] = [
        (
            "blue-hit-on-hero",
            "a blue hit loads onto the hero's blue blueprint; the yellow one still waits",
            {"dice": dice(committed={"B1": "hit", "Y1": "crit"}), "decisions": ["load B1 hero.bp1"]},
            ONE,
            "last",
        ),
        (
            "miss-offered-on-spires-only",
            "a yellow miss may go onto the Water Tower's yellow blueprint but not onto the hero's",
            {"spires": {"L-top": "Water Tower"}, "dice": dice(committed={"Y1": "miss"})},
            Stop.before("load"),
            "all",
        ),
        (
            "crit-on-hero",
            "a blueprint limits the colour, not the face: a yellow crit loads onto the hero",
            {"dice": dice(committed={"Y1": "crit"}), "decisions": ["load Y1 hero.bp2"]},
            ONE,
            "last",
        ),
        (
            "wild-takes-red",
            "the Lighthouse's wild blueprint takes the red die; its yellow one does not",
            {"spires": {"R-middle": "Lighthouse"}, "dice": dice(committed={"R1": "hit"})},
            Stop.before("load"),
            "all",
        ),
        (
            "one-die-per-blueprint",
            "after a blue hit fills the hero's blue blueprint, the second blue die may only go to the "
            "Water Tower",
            {
                "spires": {"L-bottom": "Water Tower"},
                "dice": dice(committed={"B1": "hit", "B2": "hit"}),
                "decisions": ["load B1 hero.bp1"],
            },
            ONE,
            "last",
        ),
        (
            "green-has-no-blueprint",
            "a green hit matches no blueprint (hero and Water Tower take blue and yellow): no load is "
            "offered (the player may only reroll it, and stops) and the Spires Fire phase begins",
            {
                "spires": {"L-bottom": "Water Tower"},
                "lanes": {"bottom": ["Bark Brute"]},
                "dice": dice(committed={"G1": "hit"}, loaded={"B2": {"slot": "hero.bp1", "face": "hit"}}),
                "decisions": ["stop"],
            },
            Stop.before("fire"),
            "all",
        ),
        (
            "monolant-two-free-places",
            "Monolant ignores blueprints for two dice of any colour: the third die finds no place",
            {
                "spires": {"L-bottom": "Monolant"},
                "dice": dice(committed={"G1": "hit", "P1": "hit", "R1": "crit"}),
                "decisions": ["load G1 L-bottom.free1", "load P1 L-bottom.free2"],
            },
            Stop.after(2),
            "last",
        ),
        (
            "lattice-created-blueprint",
            "Lattice, next to one spire in its column, has its wild blueprint and one created wild blueprint",
            {
                "spires": {"L-middle": "Lattice", "L-top": "Water Tower"},
                "dice": dice(committed={"G1": "hit", "G2": "miss"}),
            },
            Stop.before("load"),
            "all",
        ),
        (
            "pool-die-as-miss",
            "a pool die that was never committed: loadable (as a miss) only under CS-LOAD-SOURCE=pool-as-miss",
            {
                "spires": {"L-top": "Water Tower"},
                "dice": dice("Y1", committed={"B1": "hit"}),
            },
            Stop.before("load"),
            "all",
        ),
    ]
    for name, why, state, stop, window in cases:
        decisions = state.pop("decisions", [])
        yield case(
            "load-steps",
            name,
            f"Seed 004, Apply Dice Step; Blueprints: {why}.",
            ("apply",),
            ("load",),
            doc("load", decisions=decisions, **state),
            projection="dice" if window == "last" else "spires",
            stop=stop,
            window=window,
        )


def fire_steps() -> Iterator[CaseSpec]:
    """Spires Fire Phase: one hit at a time, at the edge of its reach and of an enemy's Health."""
    three_lanes = {"top": ["Reed Archer"], "middle": ["Bark Brute"], "bottom": ["Moss Lurker"]}
    cases: list[tuple[str, str, dict[str, Any], Stop, str, str]] = [
        (
            "spire-reaches-its-row-only",
            "a hit on the L-top spire can be applied to the top lane only, though all three lanes hold enemies",
            {
                "spires": {"L-top": "Water Tower"},
                "lanes": three_lanes,
                "dice": dice(loaded={"B1": {"slot": "L-top.bp1", "face": "hit"}}),
            },
            Stop.before("fire"),
            "all",
            "lanes",
        ),
        (
            "hero-reaches-bottom-only",
            "a hit on the hero reaches only the bottom lane, though all three lanes hold enemies",
            {"lanes": three_lanes, "dice": dice(loaded={"B1": {"slot": "hero.bp1", "face": "hit"}})},
            Stop.before("fire"),
            "all",
            "lanes",
        ),
        (
            "right-column-reaches-its-row",
            "a crit on the R-middle spire is applied to the middle lane",
            {
                "spires": {"R-middle": "Water Tower"},
                "lanes": {"middle": ["Bark Brute"]},
                "dice": dice(loaded={"B1": {"slot": "R-middle.bp1", "face": "crit"}}),
                "decisions": ["apply B1 middle"],
            },
            ONE,
            "last",
            "lanes",
        ),
        (
            "defeat-at-exactly-its-health",
            "a crit (2) on a Reed Archer (Health 2) defeats it exactly",
            {
                "lanes": {"bottom": ["Reed Archer"]},
                "dice": dice(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
                "decisions": ["apply B1 bottom"],
            },
            ONE,
            "last",
            "lanes",
        ),
        (
            "one-short",
            "a Bark Brute (Health 4) already carrying a crit takes a hit: 3 damage, not defeated",
            {
                "lanes": {"bottom": ["Bark Brute"]},
                "dice": dice(
                    applied={"P1": {"card": "Bark Brute", "face": "crit"}},
                    loaded={"B1": {"slot": "hero.bp1", "face": "hit"}},
                ),
                "decisions": ["apply B1 bottom"],
            },
            ONE,
            "last",
            "lanes",
        ),
        (
            "armored-crit-counts-one",
            "a crit applied to an armored Glare Knight deals 1",
            {
                "lanes": {"bottom": ["Glare Knight"]},
                "dice": dice(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
                "decisions": ["apply B1 bottom"],
            },
            ONE,
            "last",
            "lanes",
        ),
        (
            "misses-are-not-fired",
            "a loaded miss is not applied in the Spires Fire phase: only the hit beside it is offered",
            {
                "spires": {"L-top": "Water Tower"},
                "lanes": {"top": ["Reed Archer"]},
                "dice": dice(
                    loaded={
                        "B1": {"slot": "L-top.bp1", "face": "miss"},
                        "Y1": {"slot": "L-top.bp2", "face": "hit"},
                    }
                ),
            },
            Stop.before("fire"),
            "all",
            "lanes",
        ),
        (
            "two-dice-to-exactly",
            "a crit then a hit on a Moss Lurker (Health 3): defeated by the second die exactly",
            {
                "lanes": {"bottom": ["Moss Lurker"]},
                "dice": dice(
                    loaded={
                        "B1": {"slot": "hero.bp1", "face": "crit"},
                        "Y1": {"slot": "hero.bp2", "face": "hit"},
                    }
                ),
                "decisions": ["apply B1 bottom", "apply Y1 bottom"],
            },
            Stop.after(2),
            "last",
            "lanes",
        ),
        (
            "overkill",
            "a crit on a Snow Mite (Health 1): defeated, the extra point is lost",
            {
                "lanes": {"bottom": ["Snow Mite"]},
                "dice": dice(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
                "decisions": ["apply B1 bottom"],
            },
            ONE,
            "last",
            "hero",
        ),
        (
            "stack-reveal-then-next-target",
            "the Reed Archer on top of a stack is defeated; the Bark Brute under it is revealed, "
            "activates, and (CS-REVEAL-SAME-PHASE) may take the second hit in this phase",
            {
                "lanes": {"bottom": ["Reed Archer", "Bark Brute"]},
                "dice": dice(
                    loaded={
                        "B1": {"slot": "hero.bp1", "face": "crit"},
                        "Y1": {"slot": "hero.bp2", "face": "hit"},
                    }
                ),
                "decisions": ["apply B1 bottom"],
            },
            ONE,
            "last",
            "lanes",
        ),
        (
            "done-keeps-the-hit-loaded",
            "'done' with a hit still loaded ends the phase; the die stays on its blueprint and the "
            "Exhaust Dice step asks whether to keep it",
            {
                "lanes": {"bottom": ["Bark Brute"]},
                "dice": dice(loaded={"B1": {"slot": "hero.bp1", "face": "hit"}}),
                "decisions": ["done"],
            },
            ONE,
            "last",
            "dice",
        ),
    ]
    for name, why, state, stop, window, projection in cases:
        decisions = state.pop("decisions", [])
        if window == "last" and name != "done-keeps-the-hit-loaded":
            # A sentinel: a yellow hit on the L-top Lighthouse with an Ice Warden in the top lane,
            # so the phase asks again after the answer under test.
            state["spires"] = {**state.get("spires", {}), "L-top": "Lighthouse"}
            state["lanes"] = {**state["lanes"], "top": ["Ice Warden"]}
            state["dice"]["loaded"] = {
                **state["dice"].get("loaded", {}),
                "Y4": {"slot": "L-top.bp1", "face": "hit"},
            }
            state["dice"]["banished"].remove("Y4")
            state.setdefault("deployment", ["Tusk Behemoth"])
        yield case(
            "fire-steps",
            name,
            f"Seed 004, Spires Fire Phase: {why}.",
            ("fire",),
            ("hit",),
            doc("fire", decisions=decisions, **state),
            projection=projection,
            stop=stop,
            window=window,
        )


def suffer_steps() -> Iterator[CaseSpec]:
    """Suffer Damage Step: one Resolve phase's attacks, cut off at the sentinel's keep question."""
    cases: list[tuple[str, str, dict[str, Any], Stop, str, str, tuple[str, ...]]] = [
        (
            "health-to-exactly-one",
            "Health 3 and a Bark Brute (2) in the bottom lane: Health 1, the game goes on",
            {"health": 3, "lanes": {"bottom": ["Bark Brute"]}},
            KEEP,
            "all",
            "result",
            ("hero-damage",),
        ),
        (
            "health-to-zero-loses",
            "Health 2 and a Bark Brute (2): Health 0 is below 1, the game is lost at once",
            {"health": 2, "lanes": {"bottom": ["Bark Brute"]}},
            KEEP,
            "all",
            "result",
            ("hero-damage", "loss"),
        ),
        (
            "spire-takes-one-point",
            "a bare spire is defeated by 1 point; the Bark Brute's second point goes to the hero",
            {
                "spires": {"L-bottom": "Water Tower"},
                "lanes": {"bottom": ["Bark Brute"]},
                "decisions": ["spire L-bottom"],
            },
            KEEP,
            "all",
            "hero",
            ("miss-absorbs", "hero-damage"),
        ),
        (
            "misses-before-the-spire",
            "a spire with two loaded misses: the first point may go to either miss or the hero, never "
            "to the spire itself",
            {
                "spires": {"L-bottom": "Water Tower"},
                "lanes": {"bottom": ["Bark Brute"]},
                "dice": dice(
                    loaded={
                        "B1": {"slot": "L-bottom.bp1", "face": "miss"},
                        "Y1": {"slot": "L-bottom.bp2", "face": "miss"},
                    }
                ),
            },
            Stop.before("damage"),
            "all",
            "spires",
            ("miss-absorbs",),
        ),
        (
            "two-misses-absorb-two",
            "a Bark Brute's 2 damage removes both loaded misses; the spire stands",
            {
                "spires": {"L-bottom": "Water Tower"},
                "lanes": {"bottom": ["Bark Brute"]},
                "dice": dice(
                    loaded={
                        "B1": {"slot": "L-bottom.bp1", "face": "miss"},
                        "Y1": {"slot": "L-bottom.bp2", "face": "miss"},
                    }
                ),
                "decisions": ["miss L-bottom.bp1", "miss L-bottom.bp2"],
            },
            Stop.after(2),
            "all",
            "spires",
            ("miss-absorbs",),
        ),
        (
            "after-the-hero",
            "a Bark Brute's first point goes to the hero; whether its second may still go to the "
            "spire is ruling CS-SWITCH-FROM-HERO",
            {
                "spires": {"L-bottom": "Water Tower"},
                "lanes": {"bottom": ["Bark Brute"]},
                "decisions": ["hero"],
            },
            ONE,
            "last",
            "hero",
            ("hero-damage",),
        ),
        (
            "middle-lane-both-spires",
            "a Brine Serpent (3) in the middle lane reaches both middle-row spires and not the hero: "
            "two points defeat them, the third is unused",
            {
                "spires": {"L-middle": "Water Tower", "R-middle": "Lighthouse"},
                "lanes": {"middle": ["Brine Serpent"]},
                "decisions": ["spire L-middle"],
            },
            KEEP,
            "all",
            "spires",
            ("miss-absorbs",),
        ),
        (
            "ranged-from-the-top",
            "a ranged Tide Lancer in the top lane may hit the miss loaded on the R-top spire, the bare "
            "L-top spire or the hero",
            {"spires": {"L-top": "Lighthouse"}, "lanes": {"top": ["Tide Lancer"]}},
            Stop.before("damage"),
            "all",
            "spires",
            ("ranged",),
        ),
        (
            "attack-order-asked",
            "a ranged Reed Archer (top) and a Bark Brute (bottom) both have targets: the player picks "
            "which attacks first",
            {"lanes": {"top": ["Reed Archer"], "bottom": ["Bark Brute"]}},
            Stop.before("attack-order"),
            "all",
            "hero",
            ("ranged", "hero-damage"),
        ),
        (
            "after-effect-to-zero",
            "Health 1 and a Moss Lurker in the middle lane (no target): its after effect takes the last "
            "Health and the game is lost",
            {"health": 1, "lanes": {"middle": ["Moss Lurker"]}},
            KEEP,
            "all",
            "result",
            ("after-effect", "loss"),
        ),
        (
            "boss-global-effect",
            "the Cobalt Admiral (boss, not yet deployed) adds 1 to every enemy: a Reed Archer deals 2 "
            "(CS-BOSS-GLOBAL)",
            {"boss": "Cobalt Admiral", "lanes": {"bottom": ["Reed Archer"]}},
            KEEP,
            "all",
            "hero",
            ("boss", "hero-damage"),
        ),
    ]
    for name, why, state, stop, window, projection, features in cases:
        decisions = state.pop("decisions", [])
        spires = {**SENTINEL_SPIRE, **state.pop("spires", {})}
        dice_state = state.pop("dice", dice())
        dice_state.setdefault("loaded", {}).update(SENTINEL_MISS)
        dice_state["banished"] = [d for d in dice_state["banished"] if d not in SENTINEL_MISS]
        sections = ("suffer", "after") if "after-effect" in features else ("suffer",)
        if "loss" in features:
            sections = (*sections, "winning")
        if "boss" in features:
            sections = (*sections, "boss")
        cited = "; ".join(
            SUITE_HEADINGS[key] for key in sections if key in ("suffer", "after", "winning", "boss")
        )
        yield case(
            "suffer-steps",
            name,
            f"Seed 004, {cited}: {why}.",
            sections,
            features,
            doc("resolve", decisions=decisions, spires=spires, dice=dice_state, **state),
            projection=projection,
            stop=stop,
            window=window,
        )


PLACE = Stop.before("place")  # the Strategy phase's first question (an inventory spire, open spaces)


def advance_steps() -> Iterator[CaseSpec]:
    """Advance Enemies Phase (and the stacks it deploys), cut off at the Place Spires question."""
    cases: list[tuple[str, str, dict[str, Any], tuple[str, ...], tuple[str, ...]]] = [
        (
            "all-lanes-empty",
            "empty lanes: the top card of the Deployment Stack deploys to the top lane",
            {"deployment": ["Bark Brute", "Reed Archer"]},
            ("advance",),
            ("deploy",),
        ),
        (
            "chain-blocked",
            "all three lanes hold enemies: none moves, nothing deploys, the hero loses 1 Health",
            {
                "lanes": {"top": ["Reed Archer"], "middle": ["Moss Lurker"], "bottom": ["Bark Brute"]},
                "deployment": ["Snow Mite", "Log Runner"],
            },
            ("advance",),
            ("deploy-fail", "hero-damage"),
        ),
        (
            "deployment-fail-at-health-1",
            "Health 1 and every lane full: nothing deploys, and the 1 Health this costs loses the game",
            {
                "lanes": {"top": ["Reed Archer"], "middle": ["Moss Lurker"], "bottom": ["Bark Brute"]},
                "deployment": ["Lava Titan"],
                "health": 1,
            },
            ("advance", "winning"),
            ("deploy-fail", "hero-damage", "loss"),
        ),
        (
            "bottom-frees-nothing",
            "an enemy in the bottom lane stays there; the middle one is blocked, the top lane is empty: "
            "a new enemy deploys",
            {
                "lanes": {"middle": ["Moss Lurker"], "bottom": ["Bark Brute"]},
                "deployment": ["Lava Titan", "Frost Wyrm"],
            },
            ("advance",),
            ("deploy",),
        ),
        (
            "gap-closes",
            "enemies in the top and bottom lanes, the middle free: the top one moves down, then a new one "
            "deploys",
            {
                "lanes": {"top": ["Reed Archer"], "bottom": ["Bark Brute"]},
                "deployment": ["Lava Titan", "Frost Wyrm"],
            },
            ("advance",),
            ("deploy",),
        ),
        (
            "empty-deployment-stack",
            "the boss is already in the bottom lane and the Deployment Stack is empty: nothing deploys "
            "(CS-EMPTY-STACK-DAMAGE: does the hero still lose 1 Health?)",
            {"boss_added": True, "lanes": {"bottom": ["Driftwood Leviathan"]}, "deployment": []},
            ("advance", "winning"),
            ("deploy-fail",),
        ),
        (
            "boss-deploys",
            "the boss is the last card of the Deployment Stack: it deploys to the top lane like any enemy",
            {"boss_added": True, "deployment": ["Driftwood Leviathan"]},
            ("advance", "winning"),
            ("deploy", "boss"),
        ),
        (
            "activation-takes-the-last-health",
            "Health 1: a Depth Charger deploys and its activation effect takes the last Health",
            {"health": 1, "deployment": ["Depth Charger", "Bark Brute"]},
            ("advance", "winning"),
            ("deploy", "activation", "loss"),
        ),
        (
            "icon-stops-at-the-boss",
            "a Riptide Skiff's additional enemy icon would deploy the boss, which is never pulled under a "
            "stack: the icon is ignored",
            {"boss_added": True, "deployment": ["Riptide Skiff", "Driftwood Leviathan"]},
            ("stacks", "advance"),
            ("stack", "deploy"),
        ),
        (
            "icon-with-two-cards-left",
            "a Snow Mite's icon takes the next card under it; that card's own icon (Spark Imp) takes the "
            "last one: the Deployment Stack is empty and the boss is added",
            {"deployment": ["Snow Mite", "Spark Imp", "Bark Brute"]},
            ("stacks", "advance", "winning"),
            ("stack", "deploy", "boss"),
        ),
        (
            "added-card-no-activation",
            "a Prism Wisp's icon puts a Halo Drone under it: only the top card activates, so the Halo "
            "Drone's activation damage does not happen",
            {"deployment": ["Prism Wisp", "Halo Drone", "Bark Brute"]},
            ("stacks", "advance"),
            ("stack", "deploy", "activation"),
        ),
    ]
    for name, why, state, sections, features in cases:
        yield case(
            "advance-steps",
            name,
            f"Seed 004, Advance Enemies Phase; Enemy Stacks: {why}.",
            sections,
            features,
            doc(inventory=["Water Tower"], **state),
            projection="lanes",
            stop=PLACE,
        )
    yield case(
        "advance-steps",
        "cycle-options",
        "Seed 004, Cycle Enemies Phase: two cards in the Deployment Stack and a yellow and a green pool "
        "die: stop, or cycle with either colour.",
        ("cycle",),
        ("cycle",),
        doc(deployment=["Bark Brute", "Reed Archer"], dice=dice("Y1", "G1")),
        projection="piles",
        stop=Stop.before("cycle"),
    )
    yield case(
        "advance-steps",
        "cycle-one",
        "Seed 004, Cycle Enemies Phase: one cycle moves the Bark Brute under the Reed Archer, which "
        "then deploys; the pool is empty, so cycling ends.",
        ("cycle", "advance"),
        ("cycle", "deploy"),
        doc(
            inventory=["Water Tower"],
            deployment=["Bark Brute", "Reed Archer"],
            dice=dice("Y1"),
            decisions=["cycle yellow"],
        ),
        projection="piles",
        stop=ONE,
        window="last",
    )
    yield case(
        "advance-steps",
        "no-cycle-with-one-card",
        "Seed 004, Cycle Enemies Phase: one card in the Deployment Stack (cycling it would change "
        "nothing): no cycle question; the card deploys.",
        ("cycle", "advance"),
        ("deploy",),
        doc(inventory=["Water Tower"], deployment=["Bark Brute"], dice=dice("Y1")),
        projection="piles",
        stop=PLACE,
    )


def resolve_steps() -> Iterator[CaseSpec]:
    """Exhaust Dice, Recover Dice and Gain Item Rewards, Cleanup: one step each."""
    deployment = ["Snow Mite", "Log Runner"]
    yield case(
        "resolve-steps",
        "keep-a-loaded-miss",
        "Seed 004, Exhaust Dice Step: a loaded miss the player keeps stays on its blueprint.",
        ("exhaust",),
        ("keep",),
        doc(
            "resolve",
            spires={"L-top": "Water Tower"},
            dice=dice(loaded={"B1": {"slot": "L-top.bp1", "face": "miss"}}),
            decisions=["keep B1"],
        ),
        projection="dice",
        stop=ONE,
        window="last",
    )
    yield case(
        "resolve-steps",
        "exhaust-a-loaded-hit",
        "Seed 004, Exhaust Dice Step: a loaded hit the player chooses to exhaust goes to the exhausted "
        "dice (and comes back at once with Recovery 3).",
        ("exhaust", "recover-rewards"),
        ("keep", "recovery"),
        doc(
            "resolve", dice=dice(loaded={"B1": {"slot": "hero.bp1", "face": "hit"}}), decisions=["exhaust B1"]
        ),
        projection="dice",
        stop=ONE,
        window="last",
    )
    yield case(
        "resolve-steps",
        "applied-stay-committed-go",
        "Seed 004, Exhaust Dice Step: dice applied to an undefeated Bark Brute stay with their damage; a "
        "committed die never loaded is exhausted.",
        ("exhaust",),
        ("carry-over",),
        doc(
            "resolve",
            recovery=0,
            spires=SENTINEL_SPIRE,
            lanes={"middle": ["Bark Brute"]},
            dice={
                **dice(
                    committed={"G1": "hit"},
                    applied={"P1": {"card": "Bark Brute", "face": "crit"}},
                    loaded=dict(SENTINEL_MISS),
                ),
            },
        ),
        projection="dice",
        stop=KEEP,
    )
    yield case(
        "resolve-steps",
        "recover-all-at-recovery",
        "Seed 004, Recover Dice Step: three exhausted dice and Recovery 3: all return, no question; "
        "Cleanup ends the round.",
        ("recover-rewards", "cleanup"),
        ("recovery",),
        _next_round(dice=dice(exhausted=["Y1", "G1", "B1"]), deployment=deployment),
        projection="dice",
        stop=Stop.before("cycle"),
    )
    yield case(
        "resolve-steps",
        "recover-one-too-many",
        "Seed 004, Recover Dice Step: four exhausted dice of three colours and Recovery 3: the player "
        "chooses, by colour.",
        ("recover-rewards",),
        ("recovery",),
        doc("resolve", dice=dice(exhausted=["Y1", "G1", "B1", "B2"])),
        projection="dice",
        stop=Stop.before("recover"),
    )
    yield case(
        "resolve-steps",
        "recover-one-colour",
        "Seed 004, Recover Dice Step: four exhausted yellow dice and Recovery 3: three return with no "
        "question (equal dice).",
        ("recover-rewards", "cleanup"),
        ("recovery",),
        _next_round(dice=dice(exhausted=["Y1", "Y2", "Y3", "Y4"]), deployment=deployment),
        projection="dice",
        stop=Stop.before("cycle"),
    )
    yield case(
        "resolve-steps",
        "recovery-zero",
        "Seed 004, Recover Dice Step: Recovery 0: the two exhausted dice stay exhausted into the next "
        "round; banished dice never return.",
        ("recover-rewards", "dice"),
        ("recovery",),
        _next_round(recovery=0, dice=dice("Y2", exhausted=["Y1", "G1"]), deployment=deployment),
        projection="dice",
        stop=Stop.before("cycle"),
    )
    yield case(
        "resolve-steps",
        "recover-reward",
        "Seed 004, Recover Dice & Gain Item Rewards Steps: a Reed Archer's 'recover 1' reward returns "
        "an exhausted die the moment it is defeated.",
        ("recover-rewards", "fire"),
        ("reward", "hit", "recovery"),
        doc(
            "fire",
            lanes={"bottom": ["Reed Archer"]},
            dice=dice(exhausted=["G1"], loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
            decisions=["apply B1 bottom"],
        ),
        projection="dice",
        stop=ONE,
        window="last",
    )
    yield case(
        "resolve-steps",
        "cleanup-undefeated-stay",
        "Seed 004, Cleanup Step: an undefeated enemy stays in its lane with its applied die; a "
        "defeated spire goes to the discard item side up.",
        ("cleanup",),
        ("carry-over", "miss-absorbs", "discard-face"),
        _next_round(
            recovery=0,
            spires={"L-middle": {"card": "Water Tower", "defeated": True}},
            lanes={"middle": ["Bark Brute"]},
            dice=dice("Y1", applied={"P1": {"card": "Bark Brute", "face": "crit"}}),
            deployment=deployment,
        ),
        projection="lanes",
        stop=Stop.before("cycle"),
    )
    yield case(
        "resolve-steps",
        "defeated-enemy-discarded",
        "Seed 004, The Discard; Exhaust Dice Step; Cleanup Step: a defeated enemy's dice are exhausted "
        "and at Cleanup it goes to the discard enemy side up.",
        ("discard", "exhaust", "cleanup"),
        ("hit", "discard-face"),
        {
            **doc(
                "fire",
                recovery=0,
                lanes={"bottom": ["Bark Brute"]},
                deployment=deployment,
                dice=dice(
                    "Y1",
                    applied={"P1": {"card": "Bark Brute", "face": "crit"}},
                    loaded={"B1": {"slot": "hero.bp1", "face": "crit"}},
                ),
                decisions=["apply B1 bottom"],
            ),
            "rounds": 2,
        },
        projection="piles",
        stop=Stop.before("cycle"),
    )


def endgame_steps() -> Iterator[CaseSpec]:
    """Winning & Losing; Endgame; the boss: at the boundaries."""
    yield case(
        "endgame-steps",
        "boss-defeated-enemy-left",
        "Seed 004, Winning & Losing; Endgame: the boss is defeated but a Reed Archer is still active: "
        "the game goes on.",
        ("winning", "fire"),
        ("boss", "hit"),
        doc(
            "fire",
            boss_added=True,
            lanes={"top": ["Reed Archer"], "bottom": ["Driftwood Leviathan"]},
            dice=dice(
                applied={f"P{i}": {"card": "Driftwood Leviathan", "face": "crit"} for i in range(1, 5)},
                loaded={"B1": {"slot": "hero.bp1", "face": "crit"}},
            ),
            decisions=["apply B1 bottom"],
        ),
        projection="result",
        stop=ONE,
        window="last",
    )
    yield case(
        "endgame-steps",
        "win-at-exactly-the-boss-health",
        "Seed 004, Endgame: the boss (Health 10) carries 9 damage; a hit defeats it with nothing left "
        "to deploy: the game is won at once.",
        ("winning", "fire"),
        ("boss", "hit", "win"),
        doc(
            "fire",
            boss_added=True,
            lanes={"bottom": ["Driftwood Leviathan"]},
            dice=dice(
                applied={
                    **{f"P{i}": {"card": "Driftwood Leviathan", "face": "crit"} for i in range(1, 5)},
                    "G1": {"card": "Driftwood Leviathan", "face": "hit"},
                },
                loaded={"B1": {"slot": "hero.bp1", "face": "hit"}},
            ),
            decisions=["apply B1 bottom"],
        ),
        projection="result",
        stop=ONE,
        window="last",
    )
    yield case(
        "endgame-steps",
        "boss-one-short",
        "Seed 004, Endgame: the boss carries 8 damage and takes a hit: 9 of 10, the game goes on.",
        ("winning", "fire"),
        ("boss", "hit"),
        doc(
            "fire",
            boss_added=True,
            lanes={"bottom": ["Driftwood Leviathan"]},
            dice=dice(
                applied={f"P{i}": {"card": "Driftwood Leviathan", "face": "crit"} for i in range(1, 5)},
                loaded={"B1": {"slot": "hero.bp1", "face": "hit"}},
            ),
            decisions=["apply B1 bottom"],
        ),
        projection="lanes",
        stop=ONE,
        window="last",
    )
    yield case(
        "endgame-steps",
        "boss-added-after-last-activation",
        "Seed 004, Endgame: the last card of the Deployment Stack deploys and activates; the boss is "
        "added to the empty stack.",
        ("winning", "advance"),
        ("boss", "deploy"),
        doc(inventory=["Water Tower"], deployment=["Bark Brute"]),
        projection="piles",
        stop=PLACE,
    )
    yield case(
        "endgame-steps",
        "boss-attacks-with-its-damage",
        "Seed 004, Hero / Boss Cards, Boss Side: the Driftwood Leviathan in the bottom lane deals its "
        "Damage 2, then its after effect costs 1 more Health.",
        ("boss", "suffer", "after"),
        ("boss", "hero-damage", "after-effect"),
        doc(
            "resolve",
            boss_added=True,
            spires=SENTINEL_SPIRE,
            lanes={"bottom": ["Driftwood Leviathan"]},
            dice=dice(loaded=dict(SENTINEL_MISS)),
        ),
        projection="hero",
        stop=KEEP,
    )


def spire_steps() -> Iterator[CaseSpec]:
    """Place Spires Step; Spires: Gaining & Placing, at the limits of the six spaces."""
    five = {
        "L-top": "Water Tower",
        "L-middle": "Lighthouse",
        "L-bottom": "Monolant",
        "R-top": "Wind Vane",
        "R-middle": "Gale Chime",
    }
    yield case(
        "spire-steps",
        "one-space-left",
        "Seed 004, Place Spires Step: five spaces hold spires; the inventory's Water Tower may go only "
        "to R-bottom (one card per space).",
        ("place", "spires"),
        ("place-spire",),
        doc("strategy", spires=five, inventory=["Water Tower"], deployment=["Lava Titan"]),
        projection="spires",
        stop=Stop.before("place"),
    )
    yield case(
        "spire-steps",
        "placed-into-the-last-space",
        "Seed 004, Place Spires Step: the Water Tower goes into the last open space; no space is left, "
        "so placing ends.",
        ("place", "spires"),
        ("place-spire",),
        doc(
            "strategy",
            spires=five,
            inventory=["Water Tower", "Lattice"],
            decisions=["place Harbor-2 R-bottom"],
        ),
        projection="spires",
        stop=ONE,
        window="last",
    )
    yield case(
        "spire-steps",
        "gained-with-no-space",
        "Seed 004, Spires: Gaining & Placing: a spire gained by banishing a die when every space is "
        "taken goes to the inventory, without a question.",
        ("spires", "dice"),
        ("banish",),
        doc(
            "strategy",
            spires={**five, "R-bottom": "Drilling Outpost"},
            deployment=["Lava Titan"],
            discard=["Water Tower"],
            dice=dice("Y1", "G1"),
            decisions=["banish yellow"],
        ),
        projection="piles",
        stop=ONE,
        window="last",
    )


SUITE = GameSuite(
    game=GAME,
    sections=SECTIONS,
    projections=PROJECTIONS,
    features=FEATURES,
    producers=(
        activation,
        stacks,
        strategy,
        fire_and_resolve,
        spires_and_discard,
        endgame_and_setup,
        load_steps,
        fire_steps,
        suffer_steps,
        advance_steps,
        resolve_steps,
        endgame_steps,
        spire_steps,
        faction_cases,  # every faction's hero, boss, mini-hero and mini-boss (issue 18)
        conflict_enemy_cases,  # every conflict card's enemy side (issue 18)
        conflict_item_cases,  # every conflict card's item side (issue 18)
    ),
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

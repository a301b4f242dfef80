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

from typing import Any

from invasion_oracle.reports.suite.casefile import DataCases
from invasion_oracle.reports.suite.cloudspire_conflict import conflict_enemy_cases, conflict_item_cases
from invasion_oracle.reports.suite.cloudspire_factions import faction_cases
from invasion_oracle.reports.suite.cloudspire_scenarios import GAME
from invasion_oracle.reports.suite.plugins import GameSuite, Projection, Section
from invasion_oracle.reports.suite.specs import Stop

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

# -- the Engagement ---------------------------------------------------------------------------------


WATER = {"L-top": "Water Tower"}


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


PLACE = Stop.before("place")  # the Strategy phase's first question (an inventory spire, open spaces)


def cases(topic: str) -> DataCases:
    """The cases of ``reports/suite/cases/cloudspire/TOPIC.toml``."""
    return DataCases(GAME, topic)


SUITE = GameSuite(
    game=GAME,
    sections=SECTIONS,
    projections=PROJECTIONS,
    features=FEATURES,
    producers=(
        cases("activation"),
        cases("stacks"),
        cases("strategy"),
        cases("fire-and-resolve"),
        cases("spires-and-discard"),
        cases("endgame-and-setup"),
        cases("load-steps"),
        cases("fire-steps"),
        cases("suffer-steps"),
        cases("advance-steps"),
        cases("resolve-steps"),
        cases("endgame-steps"),
        cases("spire-steps"),
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

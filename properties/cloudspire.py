"""Hypothesis strategies for Cloudspire scenarios, and the invariants every game keeps.

Strategies build scenario *documents* (plain JSON), so generated cases go through the same loader
as user files and a failing case can be saved and rerun with ``invasion cloudspire simulate``.
Rulings are drawn too: the invariants hold under every reading. Decisions and chance are seeded
random answers.

Invariants (seed 004), checked by :func:`invariant_violations` before and after every step:

1. a lane holds at most one enemy stack, and no card is in two places at once (lanes, Deployment
   and Market Stacks, inventory, spire spaces, discard, the round's defeated enemies);
2. only a stack's top card deals or takes damage: every die applied, every attack and every
   point of damage comes from or goes to the top card of its lane, and applied dice sit only on
   top cards (or on enemies defeated this round, until Cleanup);
3. the unit dice are conserved across the zones: always the same dice, each in one zone, and a
   banished die never returns;
4. a miss is never loaded on the hero;
5. hits only reach adjacent enemies: a die is applied only to the lane next to its card;
6. replaying the recorded answers gives the same run (:func:`replay_violations`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import strategies as st

import invasion_oracle.model.cloudspire  # noqa: F401  (registers the rulings)
from invasion_oracle.model.cloudspire.area import HERO, LANES, SPIRE_SPACES, hit_reach
from invasion_oracle.model.cloudspire.blueprints import Slot
from invasion_oracle.model.cloudspire.cards import CardKind
from invasion_oracle.model.cloudspire.data import GameData, default_data
from invasion_oracle.model.cloudspire.dice import Face, Zone
from invasion_oracle.model.cloudspire.rulings import GAME
from invasion_oracle.model.cloudspire.scenario import Scenario
from invasion_oracle.model.cloudspire.simulate import run
from invasion_oracle.model.cloudspire.state import GameState
from invasion_oracle.model.core.driver import Playthrough, replay
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.properties import built

# (hero, allied factions)
HEROES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Harbor Keeper", ("Harbor", "Gale", "Basalt")),
    ("Frost Seer", ("Frost", "Cobalt", "Gale")),
    ("Wayfarer", ("Aurora", "Basalt", "Ivory")),
)


def _draw_lanes(draw: st.DrawFn, chosen: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """The Play Area: up to two of the chosen enemies a lane; the rest wait in the Deployment Stack."""
    lanes: dict[str, list[str]] = {}
    rest = list(chosen)
    for lane in LANES:
        size = draw(built.integers(0, min(2, len(rest))))
        if size:
            lanes[lane], rest = rest[:size], rest[size:]
    return lanes, rest


def _draw_allied_cards(
    draw: st.DrawFn, data: GameData, allied: tuple[str, ...]
) -> tuple[dict[str, str], list[str], list[str]]:
    """The spires placed, the inventory and the market, from the allied factions' conflict cards."""
    allied_cards = sorted(c.id for c in data.cards if c.faction in allied and c.kind is CardKind.CONFLICT)
    spire_cards = [c for c in allied_cards if data.by_id(c).is_spire]
    placed = draw(built.sampled_lists(tuple(spire_cards), max_size=3, unique=True)) if spire_cards else []
    spaces = draw(built.permutations(SPIRE_SPACES))
    spires = dict(zip(spaces, placed, strict=False))
    others = [c for c in allied_cards if c not in placed]
    inventory = draw(built.sampled_lists(tuple(others), max_size=2, unique=True)) if others else []
    market = [c for c in others if c not in inventory]
    market = draw(built.sampled_lists(tuple(market), max_size=4, unique=True)) if market else []
    return spires, inventory, market


def _draw_dice(draw: st.DrawFn, names: tuple[str, ...]) -> dict[str, list[str]]:
    zones = draw(
        st.lists(
            built.sampled(("pool", "pool", "pool", "exhausted", "banished")),
            min_size=len(names),
            max_size=len(names),
        )
    )
    return {
        "exhausted": [d for d, z in zip(names, zones, strict=True) if z == "exhausted"],
        "banished": [d for d, z in zip(names, zones, strict=True) if z == "banished"],
    }


def _draw_endgame(
    draw: st.DrawFn, data: GameData, hero: str, boss: str, dice: dict[str, list[str]]
) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """The endgame: the boss alone in the bottom lane, worn down by crits applied earlier (one or
    two Health left), nothing left to deploy; sometimes a hit already on the hero. Returns the
    applied and loaded dice, and takes them out of ``dice``'s other zones."""
    side = data.by_id(boss).enemy
    assert side is not None
    crits = min(4, (side.health - 1) // 2)
    applied = {f"P{i}": {"card": boss, "face": "crit"} for i in range(1, crits + 1)}
    loaded: dict[str, dict[str, str]] = {}
    if hero != "Wayfarer" and draw(built.BOOLEANS):
        loaded = {"B1": {"slot": "hero.bp1", "face": draw(built.sampled(("hit", "crit")))}}
    for key in ("exhausted", "banished"):
        dice[key] = [d for d in dice[key] if d not in applied and d not in loaded]
    return applied, loaded


@st.composite
def scenario_documents(draw: st.DrawFn, *, max_rounds: int = 3, drawn_rulings: bool = True) -> dict[str, Any]:
    """A small described-state scenario with random rulings and seeded random answers."""
    data = default_data()
    hero, allied = draw(built.sampled(HEROES))
    enemies = sorted(
        c.id for c in data.cards if c.faction not in allied and c.kind in (CardKind.CONFLICT, CardKind.MINI)
    )
    bosses = sorted(c.id for c in data.cards if c.kind is CardKind.HERO and c.faction not in allied)
    boss = draw(built.sampled(tuple(bosses)))
    chosen = draw(built.sampled_lists(tuple(enemies), max_size=9, unique=True))
    lanes, rest = _draw_lanes(draw, chosen)
    spires, inventory, market = _draw_allied_cards(draw, data, allied)
    dice = _draw_dice(draw, data.dice.names())
    rulings = {
        r.id: draw(built.sampled(tuple(r.reading_names)))
        for r in REGISTRY.all(GAME)
        if r.id != "CS-DEPLOYMENT-MAKEUP" and drawn_rulings
    }
    boss_in_play = draw(built.BOOLEANS)
    applied: dict[str, dict[str, str]] = {}
    loaded: dict[str, dict[str, str]] = {}
    if boss_in_play:
        lanes, rest = {"bottom": [boss]}, []
        applied, loaded = _draw_endgame(draw, data, hero, boss, dice)
    state: dict[str, Any] = {
        "hero": hero,
        "allied": list(allied),
        "boss": boss,
        "boss_added": boss_in_play,
        "health": draw(built.integers(2, 15)),
        "lanes": lanes,
        "deployment": rest,
        "spires": spires,
        "inventory": inventory,
        "market": market,
        "dice": {
            **dice,
            **({"applied": applied} if applied else {}),
            **({"loaded": loaded} if loaded else {}),
        },
    }
    return {
        "game": "cloudspire",
        "start": draw(built.sampled(("round", "round", "strategy"))),
        "rounds": draw(built.integers(1, max_rounds)),
        "state": state,
        "rulings": rulings,
        "decisions": {"then": "random", "seed": draw(built.integers(0, 10**6))},
        "chance": {"then": "random", "seed": draw(built.integers(0, 10**6))},
    }


WIN_CONDITIONS = {
    "the hero wins: every enemy and the boss defeated, the Deployment Stack empty": lambda outcome: (
        outcome["result"]["result"] == "win"
    ),
}


# -- invariants -------------------------------------------------------------------------------------------


def state_violations(scenario: Scenario, s: GameState) -> list[str]:
    """Invariants 1-4 on one state."""
    game = scenario.game()
    out = []
    places: list[str] = [c for stack in s.lanes for c in stack]
    places += list(s.deployment.cards) + list(s.market.cards) + list(s.inventory)
    places += [p.card for p in s.spires if p is not None] + [c for c, _ in s.discard] + list(s.defeated_now)
    twice = [c for c, n in Counter(places).items() if n > 1]
    if twice:
        out.append(f"cards in two places: {twice}")
    if len(s.lanes) != len(LANES):
        out.append("the play area has three lanes")
    names = [d.name for d in s.dice]
    if names != list(scenario.data.dice.names()):
        out.append("the unit dice changed")
    tops = {stack[0] for stack in s.lanes if stack}
    for die in s.dice:
        if die.zone is Zone.APPLIED and die.card not in tops and die.card not in s.defeated_now:
            out.append(f"{die.name} is applied to {die.card}, which is not a top card")
        if die.zone is Zone.LOADED and die.face is Face.MISS and Slot.parse(die.slot).space == HERO:
            out.append(f"a miss ({die.name}) is loaded on the hero")
        if die.zone in (Zone.POOL, Zone.EXHAUSTED, Zone.BANISHED) and (die.slot or die.card or die.face):
            out.append(f"{die.name} in {die.zone.value} still has a face or a place")
    del game
    return out


def _follow_lanes(stacks: dict[str, list[str]], event: Event) -> None:
    """The lanes as one event leaves them (Deployment, Advance, a defeat)."""
    lane = event.get("lane")
    if event.kind == "enemy_deployed":
        stacks[lane] = [event.get("card")]
    elif event.kind == "enemy_added":
        stacks[lane].append(event.get("card"))
    elif event.kind == "enemy_advanced":
        stacks[event.get("to")], stacks[lane] = stacks[lane], []
    elif event.kind == "enemy_defeated":
        stacks[lane] = stacks[lane][1:]


def _top_card_violations(stacks: dict[str, list[str]], event: Event) -> list[str]:
    """Only a lane's top card is defeated, takes dice, attacks or deals damage (invariants 2, 3)."""
    out = []
    lane = event.get("lane")
    if event.kind == "enemy_defeated":
        if not stacks[lane] or stacks[lane][0] != event.get("card"):
            out.append(f"{event.get('card')} was defeated in {lane} without being on top")
    elif event.kind == "die_applied":
        space = Slot.parse(event.get("slot")).space if event.get("slot") else ""
        if space and lane not in hit_reach(space):
            out.append(f"{event.get('die')} on {space} was applied to the {lane} lane, not adjacent")
        if not stacks[lane] or event.get("card") != stacks[lane][0]:
            out.append(f"{event.get('die')} applied to {event.get('card')}, not the top of {lane}")
    elif event.kind == "attack_started":
        if not stacks[lane] or event.get("card") != stacks[lane][0]:
            out.append(f"{event.get('card')} attacked from {lane} without being on top")
    elif event.kind in ("miss_removed", "spire_defeated") or (
        event.kind == "health_lost" and event.get("cause") == "attack"
    ):
        attacker = event.get("card") if event.kind != "spire_defeated" else event.get("by")
        if attacker not in [st[0] for st in stacks.values() if st]:
            out.append(f"{attacker} dealt damage without being a top card")
    return out


def step_violations(
    scenario: Scenario, before: GameState, after: GameState, events: tuple[Event, ...]
) -> list[str]:
    """Invariants 2, 3 and 5 on one step's events."""
    out = []
    banished = {d.name for d in before.in_zone(Zone.BANISHED)}
    back = [d.name for d in after.dice if d.name in banished and d.zone is not Zone.BANISHED]
    if back:
        out.append(f"banished dice returned: {back}")
    # The lanes as the events tell them, so a card revealed earlier in the same step counts as top.
    stacks = {lane: list(before.lane(lane)) for lane in LANES}
    for event in events:
        out += _top_card_violations(stacks, event)
        _follow_lanes(stacks, event)
    after_lanes = {lane: list(after.lane(lane)) for lane in LANES}
    if stacks != after_lanes:
        out.append(f"the lanes do not follow from the events: {stacks} but the state has {after_lanes}")
    return out


def invariant_violations(scenario: Scenario, playthrough: Playthrough[GameState]) -> list[str]:
    """Replays ``playthrough`` step by step, checking every state and step."""
    game = scenario.game()
    state, _ = game.start(scenario.initial)
    out = state_violations(scenario, state)
    for step in playthrough.steps:
        after, events = game.step(state, step.answer)
        out += step_violations(scenario, state, after, events)
        out += state_violations(scenario, after)
        state = after
    return out


def replay_violations(scenario: Scenario, playthrough: Playthrough[GameState]) -> list[str]:
    again = replay(scenario.game(), scenario.game().start(scenario.initial)[0], playthrough)
    if again.steps != playthrough.steps or again.final != playthrough.final:
        return ["replaying the recorded answers gave a different run"]
    return []


def check(scenario: Scenario) -> list[str]:
    playthrough = run(scenario)
    return invariant_violations(scenario, playthrough) + replay_violations(scenario, playthrough)


ROUND_RULINGS = (
    "CS-REVEAL-SAME-PHASE",
    "CS-REVEAL-ACTIVATION",
    "CS-AFTER-DEFEATED",
    "CS-LOAD-SOURCE",
    "CS-SPIRE-ADJACENCY",
    "CS-BOSS-GLOBAL",
    "CS-APPLIED-DIE",
)


@st.composite
def engagement_documents(draw: st.DrawFn, *, max_dice: int = 4, drawn_rulings: bool = True) -> dict[str, Any]:
    """A scenario at the Load step with the last roll made: small enough for the exhaustive search."""
    data = default_data()
    hero, allied = draw(built.sampled(tuple(HEROES[:2])))
    enemies = sorted(c.id for c in data.cards if c.faction not in allied and c.kind is CardKind.CONFLICT)
    bosses = sorted(c.id for c in data.cards if c.kind is CardKind.HERO and c.faction not in allied)
    chosen = draw(built.sampled_lists(tuple(enemies), min_size=1, max_size=4, unique=True))
    lanes: dict[str, list[str]] = {}
    rest = list(chosen)
    for lane in draw(built.permutations(LANES)):
        size = draw(built.integers(0, min(2, len(rest))))
        if size:
            lanes[lane], rest = rest[:size], rest[size:]
    spire_cards = sorted(
        c.id for c in data.cards if c.faction in allied and c.kind is CardKind.CONFLICT and c.is_spire
    )
    placed = draw(built.sampled_lists(tuple(spire_cards), max_size=2, unique=True))
    spaces = draw(built.permutations(SPIRE_SPACES))
    names = data.dice.names()
    committed_names = draw(built.sampled_lists(tuple(names), min_size=1, max_size=max_dice, unique=True))
    faces = ["miss", "hit", "crit"]
    committed = {d: draw(built.sampled(tuple(faces))) for d in committed_names}
    pool = draw(built.sampled_lists(tuple(d for d in names if d not in committed), max_size=1, unique=True))
    banished = [d for d in names if d not in committed and d not in pool]
    rulings = {
        rid: draw(built.sampled(tuple(REGISTRY.get(rid).reading_names)))
        for rid in ROUND_RULINGS
        if drawn_rulings
    }
    return {
        "game": "cloudspire",
        "start": "load",
        "rounds": 1,
        "rulings": rulings,
        "state": {
            "hero": hero,
            "allied": list(allied),
            "boss": draw(built.sampled(tuple(bosses))),
            "health": draw(built.integers(1, 8)),
            "rolls_used": 3,
            "lanes": lanes,
            "deployment": rest,
            "spires": dict(zip(spaces, placed, strict=False)),
            "dice": {"committed": committed, "banished": banished},
        },
    }


@st.composite
def tiny_round_documents(draw: st.DrawFn, *, spires: int = 2) -> dict[str, Any]:
    """One round, at most two dice in the pool, a few enemies and up to ``spires`` inventory
    spires: small enough for (b) and (c)."""
    data = default_data()
    hero, allied = HEROES[0]
    enemies = sorted(c.id for c in data.cards if c.faction not in allied and c.kind is CardKind.CONFLICT)
    chosen = draw(built.sampled_lists(tuple(enemies), min_size=1, max_size=3, unique=True))
    lanes = {"bottom": chosen[:1]}
    if len(chosen) > 1:
        lanes[draw(built.sampled(("top", "middle")))] = chosen[1:2]
    names = data.dice.names()
    pool = draw(built.sampled_lists(tuple(names), max_size=2, unique=True))
    spire_cards = sorted(
        c.id for c in data.cards if c.faction in allied and c.kind is CardKind.CONFLICT and c.is_spire
    )
    inventory = draw(built.sampled_lists(tuple(spire_cards), min_size=1, max_size=spires, unique=True))
    return {
        "game": "cloudspire",
        "start": "round",
        "rounds": 1,
        "rulings": {"CS-ROLLS": draw(built.sampled(("one", "strategy-plus-one")))},
        "state": {
            "hero": hero,
            "allied": list(allied),
            "boss": "Driftwood-H",
            "health": draw(built.integers(1, 4)),
            "strategy": 0,
            "recovery": 1,
            "lanes": lanes,
            "deployment": chosen[2:],
            "inventory": inventory,
            "dice": {"banished": [d for d in names if d not in pool]},
        },
    }

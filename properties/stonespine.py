"""Hypothesis strategies for Stonespine scenarios, and the invariants every invasion keeps.

Strategies build scenario *documents* (plain JSON), so generated cases go through the same
loader as user files and a failing case can be saved and rerun with ``invasion stonespine
simulate``. Rulings are drawn too: the invariants must hold under every reading. The guardian
abilities the seed does not give are drawn from the ability vocabulary (a scenario ``data``
object), so generated runs exercise every kind of effect.

Invariants (seed 000, "IV. Invasion Phase"), checked by :func:`invariant_violations`:

1. no hero enters a chamber twice;
2. a hero is defeated exactly when its damage reaches its health, or when it enters a chamber
   holding a guardian (and no defeated hero), or by a guardian's defeat ability - never otherwise;
3. a chamber holds at most one defeated hero;
4. a guardian figure defeats at most one hero a year unless it moved;
5. the XP a player gains equals the heroes that entered its dungeon;
6. an escape closes the gate at once and bars the trophy;
7. replaying the recorded answers gives the same run.

And :func:`outcome_mismatches`: every total in the outcome equals what the initial state and
the events that changed it add up to (XP, trophies, demerits, defeated and escaped heroes,
gates, guardian levels and figures, hero health, Jael's area, final scores).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import strategies as st

import invasion_oracle.model.stonespine  # noqa: F401  (registers the rulings)
from invasion_oracle.model.core.driver import Playthrough, replay
from invasion_oracle.model.core.rulings import REGISTRY, Rulings
from invasion_oracle.model.stonespine.data import default_data
from invasion_oracle.model.stonespine.game import StonespineGame
from invasion_oracle.model.stonespine.levelling import state_at
from invasion_oracle.model.stonespine.outcome import outcome
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.state import GameState

ELEMENTS = (
    "gnoll",
    "goblin",
    "kobold",
    "ooze",
    "slime",
    "bear",
    "blade",
    "fire",
    "pit",
    "spike",
    "chest",
    "+1",
    "+2",
    "-1",
    "rubble/kobold",
    "troll-rubble/spike",
    "troll-rubble/rubble/ooze",
    "pact",
    "pact?",
    "gorgon-token",
    "gorgon-token?",
    "kobold>trap",
)
GUARDIANS = ("Giant Troll", "Pact Demon", "Dragon", "Molten Hydra", "Gorgon")
HEROES = {
    "black": ("Thief", "Black Hero 2", "Black Hero 3", "Black Hero 4"),
    "purple": ("Cleric", "Crusader", "Paladin", "Templar"),
    "red": ("Barbarian", "Fighter", "Knight", "Warrior"),
}
# Effects for the abilities the seed does not give, by the slots they may sit in.
LASTING_EFFECTS: tuple[dict[str, Any], ...] = (
    {"do": "add-damage", "amount": 1, "per": {"is": ["gorgon-token"]}},
    {"do": "change-type", "target": {"is": ["chest"]}, "to": "trap"},
    {"do": "add-damage", "amount": "pact_damage", "per": "chamber", "in": "cave", "heroes": ["red"]},
    {"do": "defeat", "if": {"has": ["gorgon-token"]}},
    {"do": "move-figure", "figure": "guardian", "after": "defeat", "if": {"has": ["monster"]}},
    {"do": "open-passage", "passage": "collapsing"},
)
ONE_SHOT_EFFECTS: tuple[dict[str, Any], ...] = (
    {"do": "place-token", "token": "gorgon-token", "target": {"empty": True}},
    {"do": "place-token", "token": "rubble", "target": {"not": ["chest"]}},
    {"do": "change-type", "target": {"is": ["monster"]}, "to": "trap"},
    {"do": "reveal-token"},
    {"do": "open-passage", "passage": "secret"},
    {"do": "collapse-passage", "passage": "any"},
    {"do": "gain-tokens", "token": "collapsing-passage", "amount": 1},
)
UNKNOWN_ABILITIES = {
    "dragon-ongoing": LASTING_EFFECTS,
    "dragon-instant": ONE_SHOT_EFFECTS,
    "gorgon-ongoing": LASTING_EFFECTS,
    "gorgon-instant": ONE_SHOT_EFFECTS,
    "gorgon-unlockable": LASTING_EFFECTS,
    "pact-demon-unlockable": LASTING_EFFECTS,
    "molten-hydra-unlockable": LASTING_EFFECTS,
}


@st.composite
def ability_data(draw: st.DrawFn) -> dict[str, Any]:
    """A data object giving every ability the seed leaves out, from the vocabulary."""
    abilities = []
    for ability_id, pool in UNKNOWN_ABILITIES.items():
        # Two cheap draws rather than a list: generation is most of these tests' time.
        first, second = draw(st.integers(0, len(pool) - 1)), draw(st.integers(0, len(pool)))
        effects = [pool[first]]
        if second < len(pool) and pool[second]["do"] != pool[first]["do"]:
            effects.append(pool[second])
        abilities.append({"id": ability_id, "effects": effects})
    return {"abilities": abilities}


@st.composite
def chambers(draw: st.DrawFn) -> str:
    # Few draws per chamber (a bit mask for the type and doors, one number for passages):
    # generating dungeons is most of the property tests' time.
    bits = draw(st.integers(0, 31))
    kind = "stone" if bits & 16 else "cave"
    doors = "".join(s for i, s in enumerate("TBLR") if bits & (1 << i)) or "-"
    elements = draw(st.lists(st.sampled_from(ELEMENTS), max_size=4))
    passage_bits = draw(st.integers(0, 63))  # about one chamber in four has a passage
    passages = "".join(s for i, s in enumerate("TBLR") if passage_bits < 16 and passage_bits & (1 << i))
    text = " ".join([kind, doors, *elements])
    return text + (f" passages={passages}" if passages else "")


@st.composite
def dungeons(draw: st.DrawFn, rows: int, columns: int) -> dict[str, Any]:
    letters = "ABCDEFGH"[:columns]
    grid = [[draw(chambers()) for _ in range(columns)] for _ in range(rows)]
    # Mostly open the entrance, so heroes usually get in.
    entrance = draw(st.integers(0, columns - 1))
    if draw(st.integers(0, 4)) and "T" not in grid[0][entrance].split()[1]:
        words = grid[0][entrance].split()
        words[1] = "T" + (words[1] if words[1] != "-" else "")
        grid[0][entrance] = " ".join(words)
    return {"entrance": letters[entrance], "exit": draw(st.sampled_from(letters)), "rows": grid}


@st.composite
def scenarios(draw: st.DrawFn, max_players: int = 2) -> dict[str, Any]:
    """A valid Invasion scenario document with random rulings, seeded dice and decisions."""
    year = draw(st.integers(1, 4))
    columns = draw(st.integers(2, 4))
    rows = draw(st.integers(1, 4))
    if columns == 4:
        rows = min(rows, year)  # a game dungeon has one row a year
    boards = default_data(Rulings.defaults("stonespine"))
    players = []
    for index in range(draw(st.integers(1, max_players))):
        guardian = draw(st.sampled_from(GUARDIANS))
        board = boards.guardian(guardian)
        levels = [draw(st.integers(0, board.top(t))) for t in (0, 1)]
        unlocked = state_at(board, (levels[0], levels[1])).minions_unlocked
        dungeon = draw(dungeons(rows, columns))
        cells = [f"{'ABCDEFGH'[c]}{r + 1}" for r in range(rows) for c in range(columns)]
        placement = {
            "guardians": draw(
                st.lists(
                    st.sampled_from(cells),
                    min_size=board.figures,
                    max_size=board.figures,
                )
            ),
            "minions": draw(st.lists(st.sampled_from(cells), min_size=unlocked, max_size=unlocked)),
        }
        players.append(
            {
                "name": f"P{index + 1}",
                "guardian": guardian,
                "levels": levels,
                "xp": draw(st.integers(0, 4)),
                "dungeon": dungeon,
                "placement": placement,
            }
        )
    rulings = {r.id: draw(st.sampled_from(r.reading_names)) for r in REGISTRY.all("stonespine")}
    rulings["SS-MINIONS"] = "all"
    doc: dict[str, Any] = {
        "game": "stonespine",
        "year": year,
        "heroes": {c: draw(st.sampled_from(names)) for c, names in HEROES.items()},
        "health_bonus": {c: draw(st.integers(0, 2)) for c in HEROES},
        "players": players,
        "rulings": rulings,
        "dice": {"then": "random", "seed": draw(st.integers(0, 2**16))},
        "decisions": {"then": "random", "seed": draw(st.integers(0, 2**16))},
        "data": draw(ability_data()),
    }
    if len(players) == 1 and draw(st.integers(0, 4)) == 0:
        doc["solo"] = {}
    where = draw(st.integers(0, 7))
    if where == 0:
        # Start earlier, in Improvement (XP bought, rubble removed, passages bought; level-ups and
        # instant abilities) or Preparation (the decider places figures and passages).
        doc["start"] = draw(st.sampled_from(("improvement", "preparation")))
        for player in players:
            del player["placement"]
            if doc["start"] == "improvement":
                player["gold"] = draw(st.integers(0, 14))
    elif where < 3:
        # Start later in the phase: a wave under way, heroes still waiting, some gates closed.
        doc["wave"] = 1
        for player in players:
            if draw(st.integers(0, 3)) == 0:
                player["gate"] = "closed"
            else:
                player["waiting"] = draw(st.lists(st.sampled_from(("black", "purple", "red")), max_size=3))
    return doc


def scenario_documents() -> st.SearchStrategy[dict[str, Any]]:
    """The generic searches' hook (``properties/hooks.py``): :func:`scenarios`, one or two players."""
    return scenarios()


WIN_CONDITIONS = {
    # The ways an Invasion goes well for a dungeon, over the outcome (``properties/hooks.py``).
    "a player takes the trophy": lambda o: any(p["trophies"] for p in o["players"]),
    "a dungeon repels every hero it receives": lambda o: any(
        p["defeated"] and not p["escaped"] for p in o["players"]
    ),
    "solo: the player takes the trophy from Jael": lambda o: (
        "jael" in o and any(p["trophies"] for p in o["players"])
    ),
}


def invariant_violations(scenario: Scenario, playthrough: Playthrough[GameState]) -> list[str]:
    """Every invariant the run breaks, as readable sentences (empty when all hold)."""
    problems: list[str] = []
    state = scenario.initial
    health = {c.color.value: state.health(c.color) for c in state.heroes}
    guardians: dict[str, list[str]] = {p.name: [c.name for c in p.placement.guardians] for p in state.players}
    visited: dict[str, list[str]] = {}
    damage: dict[str, int] = {}
    defeated_in: dict[str, Counter[str]] = {p.name: Counter() for p in state.players}
    guardian_defeats: dict[str, Counter[str]] = {p.name: Counter() for p in state.players}
    moved: set[str] = set()
    closed: set[str] = {p.name for p in state.players if not p.gate_open}
    escaped: set[str] = {p.name for p in state.players if p.escaped}
    entered: Counter[str] = Counter({p.name: p.entered for p in state.players})
    for event in playthrough.events:
        kind, who = event.kind, event.get("player")
        if kind == "hero_sent":
            visited[who], damage[who] = [], 0
            if who in closed:
                problems.append(f"{who}: a hero was sent through a closed gate")
        elif kind == "hero_entered":
            chamber = event.get("chamber")
            if chamber in visited[who]:
                problems.append(f"{who}: a {event.get('hero')} hero entered {chamber} twice")
            visited[who].append(chamber)
        elif kind == "hero_damaged":
            if damage[who] >= health[event.get("hero")]:
                problems.append(f"{who}: a hero at {damage[who]} damage kept moving")
            damage[who] = event.get("total")
        elif kind == "hero_defeated":
            chamber, by = event.get("chamber"), event.get("by")
            entered[who] += 1
            defeated_in[who][chamber] += 1
            if defeated_in[who][chamber] > 1:
                problems.append(f"{who}: two defeated heroes lie in {chamber}")
            if by == "damage" and damage[who] < health[event.get("hero")]:
                problems.append(f"{who}: defeated by damage at {damage[who]} < {health[event.get('hero')]}")
            if by == "guardian":
                if chamber not in guardians[who]:
                    problems.append(f"{who}: defeated by a guardian in {chamber}, where none stands")
                guardian_defeats[who][chamber] += 1
                if guardian_defeats[who][chamber] > 1 and who not in moved:
                    problems.append(f"{who}: a guardian defeated twice in {chamber} without moving")
        elif kind == "hero_levelled":
            health[event.get("hero")] = event.get("health")
        elif kind == "prepared":
            guardians[who] = list(event.get("guardians"))
            closed.discard(who)
        elif kind == "cleaned_up":
            # A new year: figures and heroes go back, the gate opens at the next Preparation.
            defeated_in[who], guardian_defeats[who] = Counter(), Counter()
            moved.discard(who)
            escaped.discard(who)
            entered[who] = 0
        elif kind == "guardian_moved":
            moved.add(who)
            figures = guardians[who]
            figures[figures.index(event.get("origin"))] = event.get("chamber")
        elif kind == "hero_escaped":
            entered[who] += 1
            escaped.add(who)
            if damage.get(who, 0) >= health[event.get("hero")]:
                problems.append(f"{who}: a hero escaped with damage {damage[who]} >= its health")
        elif kind == "gate_closed":
            closed.add(who)
        elif kind == "trophy_awarded" and who in escaped:
            problems.append(f"{who}: took the trophy after an escape")
        elif kind == "xp_gained" and event.get("xp") != entered[who]:
            problems.append(f"{who}: gained {event.get('xp')} XP for {entered[who]} heroes entered")
        elif kind == "wave_started":
            for name in escaped - closed:
                problems.append(f"{name}: escaped but the gate stayed open")
    # Each escape closed the gate at once (the next events of that player say so).
    events = playthrough.events
    for i, event in enumerate(events):
        if event.kind == "hero_escaped":
            after = [e for e in events[i + 1 : i + 3] if e.get("player") == event.get("player")]
            if not any(e.kind == "gate_closed" for e in after):
                problems.append(f"{event.get('player')}: an escape did not close the gate at once")
    game = StonespineGame(scenario.rulings, scenario.data)
    start, _ = game.start(scenario.initial)
    again = replay(game, start, playthrough)
    if again.events != playthrough.events or again.final != playthrough.final:
        problems.append("replaying the recorded answers gave a different run")
    return problems


def outcome_mismatches(scenario: Scenario, playthrough: Playthrough[GameState]) -> list[str]:
    """Every outcome total that differs from the initial state plus the events that changed it."""
    problems: list[str] = []
    state = scenario.initial
    cost = scenario.data.value("level_up_cost")
    result = outcome(playthrough.final)
    players = {p.name: p for p in state.players}
    xp = {n: p.xp for n, p in players.items()}
    trophies = {n: [(y, v) for y, v in p.trophies] for n, p in players.items()}
    demerits = {n: [(y, v) for y, v in p.demerits] for n, p in players.items()}
    defeated = {n: [(c.name, h.value) for c, h in p.defeated] for n, p in players.items()}
    escaped = {n: [h.value for h in p.escaped] for n, p in players.items()}
    gate = {n: p.gate_open for n, p in players.items()}
    markers = {n: list(p.guardian.markers) for n, p in players.items()}
    minions = {n: p.guardian.minions_unlocked for n, p in players.items()}
    unlocked = {n: set(p.guardian.unlocked) for n, p in players.items()}
    tokens = {n: p.guardian.passage_tokens for n, p in players.items()}
    guardians = {n: [c.name for c in p.placement.guardians] for n, p in players.items()}
    placed = {n: [c.name for c in p.placement.minions] for n, p in players.items()}
    health = {c.color.value: state.health(c.color) for c in state.heroes}
    jael_trophies = list(state.jael.trophies)
    jael_xp = state.jael.xp
    scores: list[dict[str, Any]] = []

    def total(name: str, value: int, said: Any, kind: str) -> None:
        if said is not None and said != value:
            problems.append(f"{name}: {kind} says {said} XP, the events add up to {value}")

    for event in playthrough.events:
        kind, who = event.kind, event.get("player")
        if kind == "xp_gained":
            xp[who] += event.get("xp")
            total(who, xp[who], event.get("total"), kind)
        elif kind == "xp_bought":
            xp[who] += event.get("cubes")
            total(who, xp[who], event.get("xp"), kind)
        elif kind == "guardian_levelled":
            xp[who] -= cost
            total(who, xp[who], event.get("xp"), kind)
            track = 0 if event.get("track") == "left" else 1
            markers[who][track] += 1
            if markers[who][track] != event.get("level"):
                problems.append(f"{who}: guardian_levelled says level {event.get('level')}")
        elif kind == "minion_unlocked":
            minions[who] += 1
        elif kind == "ability_unlocked":
            unlocked[who].add(event.get("ability"))
        elif kind == "instant_used" and event.get("tokens") is not None:
            tokens[who] = event.get("tokens")
        elif kind == "trophy_awarded" and who == "Jael":
            jael_trophies.append((event.get("year"), event.get("value")))
        elif kind == "trophy_awarded":
            trophies[who].append((event.get("year"), event.get("value")))
        elif kind == "demerit_taken":
            demerits[who].append((event.get("year"), event.get("value")))
        elif kind == "jael_collected":
            jael_xp += event.get("xp")
            if jael_xp != event.get("total"):
                problems.append(
                    f"Jael: jael_collected says {event.get('total')} XP, the events add up to {jael_xp}"
                )
        elif kind == "hero_defeated":
            defeated[who].append((event.get("chamber"), event.get("hero")))
        elif kind == "hero_escaped":
            escaped[who].append(event.get("hero"))
        elif kind == "gate_closed":
            gate[who] = False
        elif kind == "prepared":
            gate[who] = True
            guardians[who] = list(event.get("guardians"))
            placed[who] = list(event.get("minions"))
        elif kind == "guardian_moved":
            figures = guardians[who]
            figures[figures.index(event.get("origin"))] = event.get("chamber")
        elif kind == "cleaned_up":
            defeated[who], escaped[who], guardians[who], placed[who] = [], [], [], []
        elif kind == "hero_levelled":
            health[event.get("hero")] = event.get("health")
        elif kind == "final_score":
            scores.append({k: event.get(k) for k in event.to_json() if k != "event"})
    cleanups = sum(1 for e in playthrough.events if e.kind == "cleaned_up") // max(1, len(players))
    year = state.year + cleanups
    if result["year"] != year:
        problems.append(f"outcome year {result['year']}, the events say {year}")
    for out in result["players"]:
        name = out["name"]
        expected: dict[str, Any] = {
            "xp": xp[name],
            "trophies": [{"year": y, "value": v} for y, v in trophies[name]],
            "demerits": [{"year": y, "value": v} for y, v in demerits[name]],
            "defeated": [{"chamber": c, "hero": h} for c, h in defeated[name]],
            "escaped": escaped[name],
            "entered": len(defeated[name]) + len(escaped[name]),
            "gate_open": gate[name],
        }
        for key, value in expected.items():
            if out[key] != value:
                problems.append(f"{name}: outcome {key} {out[key]!r}, the events say {value!r}")
        g = out["guardian"]
        if g["markers"] != markers[name] or g["minions_unlocked"] != minions[name]:
            problems.append(f"{name}: outcome guardian {g}, the events say markers {markers[name]}")
        if g["passage_tokens"] != tokens[name]:
            problems.append(
                f"{name}: outcome passage tokens {g['passage_tokens']}, the events say {tokens[name]}"
            )
        if set(g["unlocked"]) != unlocked[name]:
            problems.append(
                f"{name}: outcome unlocked {g['unlocked']}, the events say {sorted(unlocked[name])}"
            )
        if out["placement"] != {"guardians": guardians[name], "minions": placed[name]}:
            problems.append(f"{name}: outcome placement {out['placement']}, the events say {guardians[name]}")
    for hero in result["heroes"]:
        if hero["health"] != health[hero["color"]]:
            problems.append(
                f"outcome {hero['color']} health {hero['health']}, the events say {health[hero['color']]}"
            )
    if "jael" in result:
        want = {"trophies": [{"year": y, "value": v} for y, v in jael_trophies], "xp": jael_xp}
        if result["jael"] != want:
            problems.append(f"outcome Jael {result['jael']}, the events say {want}")
    if result.get("final_scores", []) != scores:
        problems.append(f"outcome final scores {result.get('final_scores')}, the events say {scores}")
    for score in scores:
        if (
            score["total"]
            != score["guardian_bonus"] + score["trophies"] - score["demerits"] + score["leftover_xp"]
        ):
            problems.append(
                f"{score['player']}: final score total {score['total']} is not the sum of its parts"
            )
        out_player = next((o for o in result["players"] if o["name"] == score["player"]), None)
        if out_player is not None:
            if score["trophies"] != sum(t["value"] for t in out_player["trophies"]):
                problems.append(f"{score['player']}: final score trophies differ from the trophies taken")
            if score["demerits"] != sum(t["value"] for t in out_player["demerits"]):
                problems.append(f"{score['player']}: final score demerits differ from the demerits taken")
            if score["leftover_xp"] != out_player["xp"]:
                problems.append(f"{score['player']}: final score leftover XP differs from the XP left")
    return problems

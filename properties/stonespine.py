"""Hypothesis strategies for Stonespine scenarios, and the invariants every invasion keeps.

Strategies build scenario *documents* (plain JSON), so generated cases go through the same
loader as user files and a failing case can be saved and rerun with ``invasion stonespine
simulate``. Rulings are drawn too: the invariants must hold under every reading.

Invariants (seed 000, "IV. Invasion Phase"), checked by :func:`invariant_violations`:

1. no hero enters a chamber twice;
2. a hero is defeated exactly when its damage reaches its health, or when it enters a chamber
   holding a guardian (and no defeated hero) - and never otherwise;
3. a chamber holds at most one defeated hero;
4. a guardian figure defeats at most one hero a year unless it moved;
5. the XP a player gains equals the heroes that entered its dungeon;
6. an escape closes the gate at once and bars the trophy;
7. replaying the recorded answers gives the same run.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import strategies as st

import model.stonespine  # noqa: F401  (registers the rulings)
from model.core.driver import Playthrough, replay
from model.core.rulings import REGISTRY
from model.stonespine.game import StonespineGame
from model.stonespine.scenario import Scenario
from model.stonespine.state import GameState

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
    "pact",
    "pact?",
)
GUARDIANS = ("Giant Troll", "Pact Demon", "Dragon", "Molten Hydra", "Gorgon")
TRACK_TOPS = {
    "Giant Troll": (4, 4),
    "Pact Demon": (4, 4),
    "Dragon": (4, 4),
    "Molten Hydra": (4, 4),
    "Gorgon": (4, 4),
}
FIGURES = {"Molten Hydra": 2}
MINIONS_AT = {  # minions unlocked at each (left, right) level, from the bundled tracks
    "Giant Troll": ((0, 0, 0, 0, 0), (0, 0, 0, 0, 0)),
    "Pact Demon": ((0, 1, 1, 2, 2), (0, 0, 1, 1, 1)),
    "Dragon": ((0, 1, 1, 1, 2), (0, 1, 1, 1, 1)),
    "Molten Hydra": ((0, 1, 2, 2, 2), (0, 1, 1, 2, 2)),
    "Gorgon": ((0, 1, 1, 2, 2), (0, 1, 1, 1, 1)),
}
HEROES = {
    "black": ("Thief", "Black Hero 2", "Black Hero 3", "Black Hero 4"),
    "purple": ("Cleric", "Crusader", "Paladin", "Templar"),
    "red": ("Barbarian", "Fighter", "Knight", "Warrior"),
}


@st.composite
def chambers(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(("cave", "stone")))
    doors = "".join(s for s in "TBLR" if draw(st.booleans())) or "-"
    elements = draw(st.lists(st.sampled_from(ELEMENTS), max_size=4))
    passages = "".join(s for s in "TBLR" if draw(st.integers(0, 9)) == 0)
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
    players = []
    for index in range(draw(st.integers(1, max_players))):
        guardian = draw(st.sampled_from(GUARDIANS))
        levels = [draw(st.integers(0, TRACK_TOPS[guardian][t])) for t in (0, 1)]
        unlocked = MINIONS_AT[guardian][0][levels[0]] + MINIONS_AT[guardian][1][levels[1]]
        dungeon = draw(dungeons(rows, columns))
        cells = [f"{'ABCDEFGH'[c]}{r + 1}" for r in range(rows) for c in range(columns)]
        placement = {
            "guardians": draw(
                st.lists(
                    st.sampled_from(cells),
                    min_size=FIGURES.get(guardian, 1),
                    max_size=FIGURES.get(guardian, 1),
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
    }
    if len(players) == 1 and draw(st.integers(0, 4)) == 0:
        doc["solo"] = {}
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
    closed: set[str] = set()
    escaped: set[str] = set()
    entered: Counter[str] = Counter()
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

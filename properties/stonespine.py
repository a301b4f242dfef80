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
from dataclasses import dataclass, field
from functools import cache
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
from invasion_oracle.properties import built

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
    return _ability_data(draw)


def _ability_data(draw: st.DrawFn) -> dict[str, Any]:
    abilities = []
    for ability_id, pool in UNKNOWN_ABILITIES.items():
        # Two cheap draws rather than a list: generation is most of these tests' time.
        first, second = draw(built.integers(0, len(pool) - 1)), draw(built.integers(0, len(pool)))
        effects = [pool[first]]
        if second < len(pool) and pool[second]["do"] != pool[first]["do"]:
            effects.append(pool[second])
        abilities.append({"id": ability_id, "effects": effects})
    return {"abilities": abilities}


@cache
def ability_sets() -> tuple[dict[str, Any], ...]:
    """A few data objects (shared: copy one before changing it) that together give every effect of the vocabulary in every slot: the
    ``k``-th gives each ability the ``k``-th effect of its pool and, when it differs in kind, the
    one three further on. ``invasion conform --fuzz`` draws its Stonespine data from these, so
    its scenarios meet the same data again and again (a data document is checked once)."""
    size = max(len(pool) for pool in UNKNOWN_ABILITIES.values())
    sets = []
    for k in range(size):
        abilities = []
        for ability_id, pool in UNKNOWN_ABILITIES.items():
            first, second = pool[k % len(pool)], pool[(k + 3) % len(pool)]
            effects = [first] + ([second] if second["do"] != first["do"] else [])
            abilities.append({"id": ability_id, "effects": effects})
        sets.append({"abilities": abilities})
    return tuple(sets)


@st.composite
def chambers(draw: st.DrawFn) -> str:
    return _chamber(draw)


_ELEMENT_LISTS = built.sampled_lists(ELEMENTS, max_size=4)


def _chamber(draw: st.DrawFn) -> str:
    # Few draws per chamber (a bit mask for the type and doors, one number for passages):
    # generating dungeons is most of the property tests' time. Drawn in the caller's draw (no
    # strategy object a chamber: the same choices, a third of the time).
    bits = draw(built.integers(0, 31))
    kind = "stone" if bits & 16 else "cave"
    doors = "".join(s for i, s in enumerate("TBLR") if bits & (1 << i)) or "-"
    elements = draw(_ELEMENT_LISTS)
    passage_bits = draw(built.integers(0, 63))  # about one chamber in four has a passage
    passages = "".join(s for i, s in enumerate("TBLR") if passage_bits < 16 and passage_bits & (1 << i))
    text = " ".join([kind, doors, *elements])
    return text + (f" passages={passages}" if passages else "")


@st.composite
def dungeons(draw: st.DrawFn, rows: int, columns: int) -> dict[str, Any]:
    return _dungeon(draw, rows, columns)


def _dungeon(draw: st.DrawFn, rows: int, columns: int) -> dict[str, Any]:
    letters = "ABCDEFGH"[:columns]
    grid = [[_chamber(draw) for _ in range(columns)] for _ in range(rows)]
    # Mostly open the entrance, so heroes usually get in.
    entrance = draw(built.integers(0, columns - 1))
    if draw(built.integers(0, 4)) and "T" not in grid[0][entrance].split()[1]:
        words = grid[0][entrance].split()
        words[1] = "T" + (words[1] if words[1] != "-" else "")
        grid[0][entrance] = " ".join(words)
    return {"entrance": letters[entrance], "exit": draw(built.sampled(tuple(letters))), "rows": grid}


@st.composite
def scenarios(
    draw: st.DrawFn, max_players: int = 2, *, drawn_rulings: bool = True, drawn_abilities: bool = True
) -> dict[str, Any]:
    """A valid Invasion scenario document with random rulings, seeded dice and decisions.

    ``drawn_rulings=False`` / ``drawn_abilities=False``: no ``rulings`` / ``data`` object, and none
    of their draws (``conform --fuzz`` sends the readings asked and its own data)."""
    year = draw(built.integers(1, 4))
    columns = draw(built.integers(2, 4))
    rows = draw(built.integers(1, 4))
    if columns == 4:
        rows = min(rows, year)  # a game dungeon has one row a year
    boards = default_data(Rulings.defaults("stonespine"))
    players = []
    for index in range(draw(built.integers(1, max_players))):
        guardian = draw(built.sampled(GUARDIANS))
        board = boards.guardian(guardian)
        levels = [draw(built.integers(0, board.top(t))) for t in (0, 1)]
        unlocked = state_at(board, (levels[0], levels[1])).minions_unlocked
        dungeon = _dungeon(draw, rows, columns)
        cells = tuple(f"{'ABCDEFGH'[c]}{r + 1}" for r in range(rows) for c in range(columns))
        placement = {
            "guardians": draw(built.sampled_lists(cells, board.figures, board.figures)),
            "minions": draw(built.sampled_lists(cells, unlocked, unlocked)),
        }
        players.append(
            {
                "name": f"P{index + 1}",
                "guardian": guardian,
                "levels": levels,
                "xp": draw(built.integers(0, 4)),
                "dungeon": dungeon,
                "placement": placement,
            }
        )
    rulings = (
        {r.id: draw(built.sampled(tuple(r.reading_names))) for r in REGISTRY.all("stonespine")}
        if drawn_rulings
        else {}
    )
    if drawn_rulings:
        rulings["SS-MINIONS"] = "all"
    doc: dict[str, Any] = {
        "game": "stonespine",
        "year": year,
        "heroes": {c: draw(built.sampled(names)) for c, names in HEROES.items()},
        "health_bonus": {c: draw(built.integers(0, 2)) for c in HEROES},
        "players": players,
        "rulings": rulings,
        "dice": {"then": "random", "seed": draw(built.integers(0, 2**16))},
        "decisions": {"then": "random", "seed": draw(built.integers(0, 2**16))},
        "data": _ability_data(draw) if drawn_abilities else {},
    }
    if not drawn_rulings:
        del doc["rulings"]
    if not drawn_abilities:
        del doc["data"]
    if len(players) == 1 and draw(built.integers(0, 4)) == 0:
        doc["solo"] = {}
    where = draw(built.integers(0, 7))
    if where == 0:
        # Start earlier, in Improvement (XP bought, rubble removed, passages bought; level-ups and
        # instant abilities) or Preparation (the decider places figures and passages).
        doc["start"] = draw(built.sampled(("improvement", "preparation")))
        for player in players:
            del player["placement"]
            if doc["start"] == "improvement":
                player["gold"] = draw(built.integers(0, 14))
    elif where < 3:
        # Start later in the phase: a wave under way, heroes still waiting, some gates closed.
        doc["wave"] = 1
        for player in players:
            if draw(built.integers(0, 3)) == 0:
                player["gate"] = "closed"
            else:
                player["waiting"] = draw(built.sampled_lists(("black", "purple", "red"), max_size=3))
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


@dataclass(slots=True)
class _InvasionWatch:
    """What :func:`invariant_violations` follows through the events, player by player."""

    health: dict[str, int]
    guardians: dict[str, list[str]]
    closed: set[str]
    escaped: set[str]
    entered: Counter[str]
    defeated_in: dict[str, Counter[str]]
    guardian_defeats: dict[str, Counter[str]]
    visited: dict[str, list[str]] = field(default_factory=dict)
    damage: dict[str, int] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, state: GameState) -> _InvasionWatch:
        return cls(
            health={c.color.value: state.health(c.color) for c in state.heroes},
            guardians={p.name: [c.name for c in p.placement.guardians] for p in state.players},
            closed={p.name for p in state.players if not p.gate_open},
            escaped={p.name for p in state.players if p.escaped},
            entered=Counter({p.name: p.entered for p in state.players}),
            defeated_in={p.name: Counter() for p in state.players},
            guardian_defeats={p.name: Counter() for p in state.players},
        )


# Invariants 1-6 (the module docstring), one step per event kind that can break or set them up.
def _hero_sent(w: _InvasionWatch, event: Any, who: str) -> None:
    w.visited[who], w.damage[who] = [], 0
    if who in w.closed:
        w.problems.append(f"{who}: a hero was sent through a closed gate")


def _hero_entered(w: _InvasionWatch, event: Any, who: str) -> None:
    # Invariant 1: no hero enters a chamber twice.
    chamber = event.get("chamber")
    if chamber in w.visited[who]:
        w.problems.append(f"{who}: a {event.get('hero')} hero entered {chamber} twice")
    w.visited[who].append(chamber)


def _hero_damaged(w: _InvasionWatch, event: Any, who: str) -> None:
    # Invariant 2: a hero whose damage reached its health is defeated, not moving on.
    if w.damage[who] >= w.health[event.get("hero")]:
        w.problems.append(f"{who}: a hero at {w.damage[who]} damage kept moving")
    w.damage[who] = event.get("total")


def _hero_defeated(w: _InvasionWatch, event: Any, who: str) -> None:
    # Invariants 2-4: why a hero falls, one defeated hero a chamber, a guardian's one defeat a year.
    chamber, by = event.get("chamber"), event.get("by")
    w.entered[who] += 1
    w.defeated_in[who][chamber] += 1
    if w.defeated_in[who][chamber] > 1:
        w.problems.append(f"{who}: two defeated heroes lie in {chamber}")
    if by == "damage" and w.damage[who] < w.health[event.get("hero")]:
        w.problems.append(f"{who}: defeated by damage at {w.damage[who]} < {w.health[event.get('hero')]}")
    if by == "guardian":
        if chamber not in w.guardians[who]:
            w.problems.append(f"{who}: defeated by a guardian in {chamber}, where none stands")
        w.guardian_defeats[who][chamber] += 1
        if w.guardian_defeats[who][chamber] > 1 and who not in w.moved:
            w.problems.append(f"{who}: a guardian defeated twice in {chamber} without moving")


def _hero_levelled(w: _InvasionWatch, event: Any, who: str) -> None:
    w.health[event.get("hero")] = event.get("health")


def _prepared(w: _InvasionWatch, event: Any, who: str) -> None:
    w.guardians[who] = list(event.get("guardians"))
    w.closed.discard(who)


def _cleaned_up(w: _InvasionWatch, event: Any, who: str) -> None:
    # A new year: figures and heroes go back, the gate opens at the next Preparation.
    w.defeated_in[who], w.guardian_defeats[who] = Counter(), Counter()
    w.moved.discard(who)
    w.escaped.discard(who)
    w.entered[who] = 0


def _guardian_moved(w: _InvasionWatch, event: Any, who: str) -> None:
    w.moved.add(who)
    figures = w.guardians[who]
    figures[figures.index(event.get("origin"))] = event.get("chamber")


def _hero_escaped(w: _InvasionWatch, event: Any, who: str) -> None:
    w.entered[who] += 1
    w.escaped.add(who)
    if w.damage.get(who, 0) >= w.health[event.get("hero")]:
        w.problems.append(f"{who}: a hero escaped with damage {w.damage[who]} >= its health")


def _gate_closed(w: _InvasionWatch, event: Any, who: str) -> None:
    w.closed.add(who)


def _trophy_awarded(w: _InvasionWatch, event: Any, who: str) -> None:
    # Invariant 6: an escape bars the trophy.
    if who in w.escaped:
        w.problems.append(f"{who}: took the trophy after an escape")


def _xp_gained(w: _InvasionWatch, event: Any, who: str) -> None:
    # Invariant 5: the XP gained equals the heroes that entered.
    if event.get("xp") != w.entered[who]:
        w.problems.append(f"{who}: gained {event.get('xp')} XP for {w.entered[who]} heroes entered")


def _wave_started(w: _InvasionWatch, event: Any, who: str) -> None:
    for name in w.escaped - w.closed:
        w.problems.append(f"{name}: escaped but the gate stayed open")


_INVASION_STEPS = {
    "hero_sent": _hero_sent,
    "hero_entered": _hero_entered,
    "hero_damaged": _hero_damaged,
    "hero_defeated": _hero_defeated,
    "hero_levelled": _hero_levelled,
    "prepared": _prepared,
    "cleaned_up": _cleaned_up,
    "guardian_moved": _guardian_moved,
    "hero_escaped": _hero_escaped,
    "gate_closed": _gate_closed,
    "trophy_awarded": _trophy_awarded,
    "xp_gained": _xp_gained,
    "wave_started": _wave_started,
}


def _escapes_close_the_gate_at_once(playthrough: Playthrough[GameState]) -> list[str]:
    # Invariant 6: each escape closed the gate at once (the next events of that player say so).
    problems: list[str] = []
    events = playthrough.events
    for i, event in enumerate(events):
        if event.kind == "hero_escaped":
            after = [e for e in events[i + 1 : i + 3] if e.get("player") == event.get("player")]
            if not any(e.kind == "gate_closed" for e in after):
                problems.append(f"{event.get('player')}: an escape did not close the gate at once")
    return problems


def _replay_gives_the_same_run(scenario: Scenario, playthrough: Playthrough[GameState]) -> list[str]:
    # Invariant 7: replaying the recorded answers gives the same run.
    game = StonespineGame(scenario.rulings, scenario.data)
    start, _ = game.start(scenario.initial)
    again = replay(game, start, playthrough)
    if again.events != playthrough.events or again.final != playthrough.final:
        return ["replaying the recorded answers gave a different run"]
    return []


def invariant_violations(scenario: Scenario, playthrough: Playthrough[GameState]) -> list[str]:
    """Every invariant the run breaks, as readable sentences (empty when all hold)."""
    watch = _InvasionWatch.of(scenario.initial)
    for event in playthrough.events:
        step = _INVASION_STEPS.get(event.kind)
        if step is not None:
            step(watch, event, event.get("player"))
    return (
        watch.problems
        + _escapes_close_the_gate_at_once(playthrough)
        + _replay_gives_the_same_run(scenario, playthrough)
    )


@dataclass(slots=True)
class _Tally:
    """The outcome's totals as the initial state plus the events add them up."""

    cost: int
    xp: dict[str, int]
    trophies: dict[str, list[tuple[Any, Any]]]
    demerits: dict[str, list[tuple[Any, Any]]]
    defeated: dict[str, list[tuple[Any, Any]]]
    escaped: dict[str, list[Any]]
    gate: dict[str, bool]
    markers: dict[str, list[int]]
    minions: dict[str, int]
    unlocked: dict[str, set[Any]]
    tokens: dict[str, Any]
    guardians: dict[str, list[str]]
    placed: dict[str, list[str]]
    health: dict[str, int]
    jael_trophies: list[tuple[Any, Any]]
    jael_xp: int
    scores: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, scenario: Scenario) -> _Tally:
        state = scenario.initial
        players = {p.name: p for p in state.players}
        return cls(
            cost=scenario.data.value("level_up_cost"),
            xp={n: p.xp for n, p in players.items()},
            trophies={n: [(y, v) for y, v in p.trophies] for n, p in players.items()},
            demerits={n: [(y, v) for y, v in p.demerits] for n, p in players.items()},
            defeated={n: [(c.name, h.value) for c, h in p.defeated] for n, p in players.items()},
            escaped={n: [h.value for h in p.escaped] for n, p in players.items()},
            gate={n: p.gate_open for n, p in players.items()},
            markers={n: list(p.guardian.markers) for n, p in players.items()},
            minions={n: p.guardian.minions_unlocked for n, p in players.items()},
            unlocked={n: set(p.guardian.unlocked) for n, p in players.items()},
            tokens={n: p.guardian.passage_tokens for n, p in players.items()},
            guardians={n: [c.name for c in p.placement.guardians] for n, p in players.items()},
            placed={n: [c.name for c in p.placement.minions] for n, p in players.items()},
            health={c.color.value: state.health(c.color) for c in state.heroes},
            jael_trophies=list(state.jael.trophies),
            jael_xp=state.jael.xp,
        )

    def total(self, name: str, value: int, said: Any, kind: str) -> None:
        if said is not None and said != value:
            self.problems.append(f"{name}: {kind} says {said} XP, the events add up to {value}")


# Experience and Levelling Up: the XP a player gains, buys and spends.
def _add_xp_gained(t: _Tally, event: Any, who: str) -> None:
    t.xp[who] += event.get("xp")
    t.total(who, t.xp[who], event.get("total"), event.kind)


def _add_xp_bought(t: _Tally, event: Any, who: str) -> None:
    t.xp[who] += event.get("cubes")
    t.total(who, t.xp[who], event.get("xp"), event.kind)


def _add_guardian_levelled(t: _Tally, event: Any, who: str) -> None:
    t.xp[who] -= t.cost
    t.total(who, t.xp[who], event.get("xp"), event.kind)
    track = 0 if event.get("track") == "left" else 1
    t.markers[who][track] += 1
    if t.markers[who][track] != event.get("level"):
        t.problems.append(f"{who}: guardian_levelled says level {event.get('level')}")


def _add_minion_unlocked(t: _Tally, event: Any, who: str) -> None:
    t.minions[who] += 1


def _add_ability_unlocked(t: _Tally, event: Any, who: str) -> None:
    t.unlocked[who].add(event.get("ability"))


def _add_instant_used(t: _Tally, event: Any, who: str) -> None:
    if event.get("tokens") is not None:
        t.tokens[who] = event.get("tokens")


# Trophies, demerits and Jael's area.
def _add_trophy_awarded(t: _Tally, event: Any, who: str) -> None:
    taken = (event.get("year"), event.get("value"))
    (t.jael_trophies if who == "Jael" else t.trophies[who]).append(taken)


def _add_demerit_taken(t: _Tally, event: Any, who: str) -> None:
    t.demerits[who].append((event.get("year"), event.get("value")))


def _add_jael_collected(t: _Tally, event: Any, who: str) -> None:
    t.jael_xp += event.get("xp")
    if t.jael_xp != event.get("total"):
        t.problems.append(
            f"Jael: jael_collected says {event.get('total')} XP, the events add up to {t.jael_xp}"
        )


# The Invasion Phase and Clean Up: heroes, gates and figures.
def _add_hero_defeated(t: _Tally, event: Any, who: str) -> None:
    t.defeated[who].append((event.get("chamber"), event.get("hero")))


def _add_hero_escaped(t: _Tally, event: Any, who: str) -> None:
    t.escaped[who].append(event.get("hero"))


def _add_gate_closed(t: _Tally, event: Any, who: str) -> None:
    t.gate[who] = False


def _add_prepared(t: _Tally, event: Any, who: str) -> None:
    t.gate[who] = True
    t.guardians[who] = list(event.get("guardians"))
    t.placed[who] = list(event.get("minions"))


def _add_guardian_moved(t: _Tally, event: Any, who: str) -> None:
    figures = t.guardians[who]
    figures[figures.index(event.get("origin"))] = event.get("chamber")


def _add_cleaned_up(t: _Tally, event: Any, who: str) -> None:
    t.defeated[who], t.escaped[who], t.guardians[who], t.placed[who] = [], [], [], []


def _add_hero_levelled(t: _Tally, event: Any, who: str) -> None:
    t.health[event.get("hero")] = event.get("health")


def _add_final_score(t: _Tally, event: Any, who: str) -> None:
    t.scores.append({k: event.get(k) for k in event.to_json() if k != "event"})


_TALLY_STEPS = {
    "xp_gained": _add_xp_gained,
    "xp_bought": _add_xp_bought,
    "guardian_levelled": _add_guardian_levelled,
    "minion_unlocked": _add_minion_unlocked,
    "ability_unlocked": _add_ability_unlocked,
    "instant_used": _add_instant_used,
    "trophy_awarded": _add_trophy_awarded,
    "demerit_taken": _add_demerit_taken,
    "jael_collected": _add_jael_collected,
    "hero_defeated": _add_hero_defeated,
    "hero_escaped": _add_hero_escaped,
    "gate_closed": _add_gate_closed,
    "prepared": _add_prepared,
    "guardian_moved": _add_guardian_moved,
    "cleaned_up": _add_cleaned_up,
    "hero_levelled": _add_hero_levelled,
    "final_score": _add_final_score,
}


def _player_mismatches(t: _Tally, out: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    name = out["name"]
    expected: dict[str, Any] = {
        "xp": t.xp[name],
        "trophies": [{"year": y, "value": v} for y, v in t.trophies[name]],
        "demerits": [{"year": y, "value": v} for y, v in t.demerits[name]],
        "defeated": [{"chamber": c, "hero": h} for c, h in t.defeated[name]],
        "escaped": t.escaped[name],
        "entered": len(t.defeated[name]) + len(t.escaped[name]),
        "gate_open": t.gate[name],
    }
    for key, value in expected.items():
        if out[key] != value:
            problems.append(f"{name}: outcome {key} {out[key]!r}, the events say {value!r}")
    problems += _guardian_mismatches(t, name, out["guardian"])
    if out["placement"] != {"guardians": t.guardians[name], "minions": t.placed[name]}:
        problems.append(f"{name}: outcome placement {out['placement']}, the events say {t.guardians[name]}")
    return problems


def _guardian_mismatches(t: _Tally, name: str, g: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    if g["markers"] != t.markers[name] or g["minions_unlocked"] != t.minions[name]:
        problems.append(f"{name}: outcome guardian {g}, the events say markers {t.markers[name]}")
    if g["passage_tokens"] != t.tokens[name]:
        problems.append(
            f"{name}: outcome passage tokens {g['passage_tokens']}, the events say {t.tokens[name]}"
        )
    if set(g["unlocked"]) != t.unlocked[name]:
        problems.append(
            f"{name}: outcome unlocked {g['unlocked']}, the events say {sorted(t.unlocked[name])}"
        )
    return problems


def _final_score_mismatches(result: dict[str, Any], scores: list[dict[str, Any]]) -> list[str]:
    # Final Scoring: the total is the sum of its parts, and the parts are what the player holds.
    problems: list[str] = []
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


def outcome_mismatches(scenario: Scenario, playthrough: Playthrough[GameState]) -> list[str]:
    """Every outcome total that differs from the initial state plus the events that changed it."""
    state = scenario.initial
    result = outcome(playthrough.final)
    tally = _Tally.of(scenario)
    for event in playthrough.events:
        step = _TALLY_STEPS.get(event.kind)
        if step is not None:
            step(tally, event, event.get("player"))
    problems = tally.problems
    cleanups = sum(1 for e in playthrough.events if e.kind == "cleaned_up") // max(1, len(state.players))
    year = state.year + cleanups
    if result["year"] != year:
        problems.append(f"outcome year {result['year']}, the events say {year}")
    for out in result["players"]:
        problems += _player_mismatches(tally, out)
    for hero in result["heroes"]:
        if hero["health"] != tally.health[hero["color"]]:
            problems.append(
                f"outcome {hero['color']} health {hero['health']}, the events say {tally.health[hero['color']]}"
            )
    if "jael" in result:
        want = {"trophies": [{"year": y, "value": v} for y, v in tally.jael_trophies], "xp": tally.jael_xp}
        if result["jael"] != want:
            problems.append(f"outcome Jael {result['jael']}, the events say {want}")
    if result.get("final_scores", []) != tally.scores:
        problems.append(f"outcome final scores {result.get('final_scores')}, the events say {tally.scores}")
    return problems + _final_score_mismatches(result, tally.scores)

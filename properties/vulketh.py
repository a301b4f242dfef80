"""Hypothesis strategies for Vul'Keth positions and games, and the invariants every run keeps.

Strategies build scenario *documents* (plain JSON), so generated cases go through the same
loader as user files and a failing case can be saved and rerun with ``invasion vulketh
simulate``. Rulings are drawn too: the invariants hold under every reading (the five-Invader cap
except under ``VK-CONVERT-CAP=exceed``, which lets Convert break it on purpose).

Invariants (seed 003), checked by :func:`invariant_violations` after every step:

1. no hex holds more than five Invaders (the population limit);
2. Warlords are never removed, except by an ``warlord_removed`` event ('Appease the Volcano');
3. tribe members are conserved: the Invaders' supply, overrun reserve and map always add up to
   the same total, and so do the player's supply and map; rival members only leave in conflict;
4. the action board holds twelve dice (three per action);
5. totals equal the sum of the events that changed them: the score, the Invaders' resources,
   the player's resources;
6. replaying the recorded answers gives the same run (:func:`replay_violations`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

import invasion_oracle.model.vulketh  # noqa: F401  (registers the rulings)
from invasion_oracle.model.core.driver import Playthrough, replay
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.model.vulketh.action_board import ACTIONS, FACES
from invasion_oracle.model.vulketh.data import default_data
from invasion_oracle.model.vulketh.scenario import Scenario
from invasion_oracle.model.vulketh.simulate import run
from invasion_oracle.model.vulketh.state import GameState
from invasion_oracle.properties import built

SECTIONS = ("steal-resources", "convert", "spread", "regress", "war")
_SCORES = st.one_of(st.integers(0, 6), st.integers(12, 14))


@st.composite
def rulings(draw: st.DrawFn, *, allow_exceed: bool = True) -> dict[str, str]:
    chosen = {}
    for ruling in REGISTRY.all("vulketh"):
        readings = [
            r for r in ruling.reading_names if allow_exceed or (ruling.id, r) != ("VK-CONVERT-CAP", "exceed")
        ]
        chosen[ruling.id] = draw(built.sampled(tuple(readings)))
    return chosen


@st.composite
def positions(
    draw: st.DrawFn,
    *,
    rivals: bool = False,
    allow_exceed: bool = True,
    max_invaders: int = 5,
    drawn_rulings: bool = True,
) -> dict[str, Any]:
    """A scenario document at a position: pieces, Warlords, tracks, board, last card, rulings
    (none, and none of their draws, with ``drawn_rulings=False``)."""
    hexes: dict[str, dict[str, Any]] = {}
    tokens = draw(built.sampled_lists(SECTIONS, min_size=1, max_size=4, unique=True))
    warlord_hexes = draw(built.integer_lists(1, 9, len(tokens), len(tokens), unique=True))
    room, player_room = 20, 20  # each tribe's members: all of them may be on the map, no more
    for number in range(1, 10):
        cell: dict[str, Any] = {}
        invaders = min(room, draw(built.integers(0, max_invaders)))
        room -= invaders
        player = min(player_room, draw(built.integers(0, 4)))
        player_room -= player
        if invaders:
            cell["invaders"] = invaders
        if player:
            cell["player"] = player
        if number in warlord_hexes:
            cell["warlord"] = tokens[warlord_hexes.index(number)]
        elif player and draw(built.integers(0, 2)) == 0:
            cell["village"] = "player"
        if rivals and draw(built.integers(0, 3)) == 0:
            cell["rivals"] = {"Kiror": draw(built.integers(1, 3))}
        if cell:
            hexes[str(number)] = cell
    if not any(c.get("invaders") for c in hexes.values()) and draw(built.BOOLEANS):
        hexes.setdefault("1", {})["invaders"] = 1  # room is 20 here: nothing was placed
    document: dict[str, Any] = {
        "game": "vulketh",
        "start": draw(built.sampled(("player", "invader"))),
        "difficulty": draw(built.sampled(("easy", "normal", "difficult"))),
        "hexes": hexes,
        "action_board": {a: [draw(built.sampled(FACES)) for _ in range(3)] for a in ACTIONS},
        "score": draw(_SCORES),  # near a win, sometimes
        "resources": {k: draw(built.integers(0, 3)) for k in ("food", "wood", "stone")},
        "invader_resources": draw(built.integers(0, 14)),
        "reserve": draw(built.integers(0, 5)),
        "developments": draw(built.integers(0, 2)),
        "bronze": {"Axe": draw(built.integers(0, 2)), "Kiln": draw(built.integers(0, 1))},
        "rulings": draw(rulings(allow_exceed=allow_exceed)) if drawn_rulings else {},
        "tribe": draw(built.sampled(("standard", "vulketh"))),
    }
    if not drawn_rulings:
        del document["rulings"]
    # The supply follows from the map (members never leave the game); a short supply is a
    # smaller set of Invader members, stated in the data as a user would.
    on_map = sum(c.get("invaders", 0) for c in hexes.values())
    fewest = max(0, on_map + document["reserve"] - 5)
    members = draw(built.integers(fewest, 20))
    if members != 20:
        document["data"] = {"values": {"invader_members": members}}
    if draw(built.BOOLEANS):
        last = draw(built.sampled(tuple(c.id for c in default_data().action_cards)))
        document["last_card"] = last
        document["discard"] = [last]
    if rivals:
        document["rivals"] = [{"name": "Kiror", "evasion": draw(built.BOOLEANS)}]
    return document


@st.composite
def games(draw: st.DrawFn, *, allow_exceed: bool = True, drawn_rulings: bool = True) -> dict[str, Any]:
    """A position plus a few player turns that only roll and place dice (open faces and
    actions: chance and decisions answered at random from seeds)."""
    document = draw(
        positions(rivals=draw(built.BOOLEANS), allow_exceed=allow_exceed, drawn_rulings=drawn_rulings)
    )
    turns = []
    for _ in range(draw(built.integers(0, 3))):
        dice = []
        for _ in range(2):
            die: dict[str, str] = {}
            if draw(built.BOOLEANS):
                die["face"] = draw(built.sampled(FACES))
            dice.append(die)
        turns.append({"dice": dice})
    document["player_turns"] = turns
    document["decisions"] = {"then": "random", "seed": draw(built.integers(0, 10_000))}
    document["chance"] = {"then": "random", "seed": draw(built.integers(0, 10_000))}
    return document


def scenario_documents() -> st.SearchStrategy[dict[str, Any]]:
    """The generic searches' hook (``properties/hooks.py``): small seeded games, rulings drawn."""
    return games()


def _result(outcome: Any) -> str:
    return str(outcome["result"]["result"])


WIN_CONDITIONS = {
    "the player reaches the winning score": lambda outcome: _result(outcome) == "player-wins",
    "the Invader summons its fifth Warlord": lambda outcome: _result(outcome) == "invader-wins",
}


def _led(power: str) -> Callable[[Any], bool]:
    return lambda event: event.get("event") == "lead" and power in event.get("powers", ())


# The rules the dead-rule check watches (properties/dead_rules.py): seed 003's sections, as the rows
# of docs/vulketh.md's rule map name them, and the event that shows each one ran.
RULE_EVENTS: dict[str, Callable[[Any], bool]] = {
    "Invader Actions: GROW": lambda event: event.get("event") == "invaders_grown",
    "Invader Actions: MOVE": lambda event: event.get("event") == "invaders_moved",
    "Invader Actions: LEAD": lambda event: event.get("event") == "lead" and bool(event.get("powers")),
    "Step 4: Summoning a Warlord": lambda event: (
        event.get("event") == "warlord_summoned" and event.get("cause") == "summon"
    ),
    "Warlord Powers: Steal Resources": _led("steal-resources"),
    "Warlord Powers: Convert": _led("convert"),
    "Warlord Powers: Spread": _led("spread"),
    "Warlord Powers: Regress": _led("regress"),
    "Warlord Powers: War": _led("war"),
    "The Vul'Keth Tribe: Pillage": lambda event: event.get("event") == "pillaged",
}


# -- invariants ---------------------------------------------------------------------------------


def _totals(state: GameState) -> tuple[int, int]:
    return (
        state.invader_supply + state.reserve + state.invaders_on_map(),
        state.player_supply + state.player_on_map(),
    )


def _rivals(state: GameState) -> int:
    return sum(n for h in state.hexes for _, n in h.rivals)


def step_violations(
    scenario: Scenario, before: GameState, after: GameState, events: tuple[Event, ...]
) -> list[str]:
    problems = []
    cap = scenario.data.value("population_limit")
    exceed = scenario.rulings.reading("VK-CONVERT-CAP") == "exceed"
    for n, cell in enumerate(after.hexes, 1):
        if cell.invaders > cap and not exceed:
            problems.append(f"hex {n} holds {cell.invaders} Invaders")
    removed = {e.get("hex") for e in events if e.kind == "warlord_removed"}
    for n in before.warlords():
        if after.hex(n).warlord != before.hex(n).warlord and n not in removed:
            problems.append(f"the Warlord of hex {n} disappeared without an event")
    if _totals(after) != _totals(before):
        problems.append(f"members not conserved: {_totals(before)} -> {_totals(after)}")
    if _rivals(after) > _rivals(before):
        problems.append("rival members appeared")
    if after.board.dice() != 12:
        problems.append(f"the board holds {after.board.dice()} dice")
    score = before.score + sum(
        e.get("change") for e in events if e.kind in ("villages_scored", "points_scored", "points_lost")
    )
    if score != after.score:
        problems.append(f"score {after.score} but the events say {score}")
    gained = sum(
        e.get("change")
        for e in events
        if e.kind in ("resources_gained", "resources_stolen", "invaders_lost_resources", "warlord_summoned")
    )
    if before.invader_resources + gained != after.invader_resources:
        problems.append(
            f"Invader resources {after.invader_resources} but the events say {before.invader_resources + gained}"
        )
    player = sum(
        e.get("change")
        for e in events
        if e.kind
        in ("player_gathered", "pillaged", "village_built", "village_seized", "player_resources_gained")
    ) - sum(e.get("change") for e in events if e.kind == "resources_stolen")
    if before.resources.total + player != after.resources.total:
        problems.append(
            f"player resources {after.resources.total} but the events say {before.resources.total + player}"
        )
    return problems


def invariant_violations(scenario: Scenario, playthrough: Playthrough[GameState]) -> list[str]:
    """Every invariant broken by any step of the run (empty when all hold)."""
    game = scenario.game()
    state, opening = game.start(scenario.initial)
    problems = step_violations(scenario, scenario.initial, state, opening)
    for step in playthrough.steps:
        after, events = game.step(state, step.answer)
        problems += step_violations(scenario, state, after, events)
        state = after
    return problems


def replay_violations(scenario: Scenario) -> list[str]:
    first = run(scenario)
    game = scenario.game()
    state, _ = game.start(scenario.initial)
    again = replay(game, state, first)
    if again.steps != first.steps or again.final != first.final:
        return ["a replay of the recorded answers differs"]
    return []

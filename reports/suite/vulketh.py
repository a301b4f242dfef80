"""The Vul'Keth conformance cases: rule by rule (Rise of Tribes: The Vul'Keth Invasion Rulebook), the rulebook's worked Invader turn, the
readings that part, answers to refuse and the solvers' boundaries (``docs/fixtures.md``).

Single actions are cut out of an Invader turn by its card draw: the position has the Invader to
move and two cards in the deck to draw from, so the opening (re-placing, the goal check) stops at
the ``draw``; answering it with the card under test is the compared step (its two actions and the
summoning after them). Cards are given in the scenario's ``data`` so each case says exactly what
the Invader does; the bundled example cards are used where the case is about them.

Projections: :data:`PROJECTIONS`, each with what it shows (their exact shape: ``docs/fixtures.md``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from invasion_oracle.model.core.codec import fields_json
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.rulings import REGISTRY, Rulings
from invasion_oracle.model.vulketh.data import default_data
from invasion_oracle.model.vulketh.game import Rules
from invasion_oracle.model.vulketh.outcome import board_json, decks_json, hexes_json
from invasion_oracle.reports.suite.casefile import game_suite
from invasion_oracle.reports.suite.common import result

GAME = "vulketh"

# -- projections ----------------------------------------------------------------------------------


def _hex(scenario: Any, state: Any, argument: str) -> Any:
    if not argument.isdigit() or not 1 <= int(argument) <= 9:
        raise MalformedInputError("projection", f"hex:{argument}", "the hexes are numbered 1-9")
    return state.hex(int(argument)).to_json()


def _tracks(scenario: Any, state: Any, argument: str) -> Any:
    tracks = ("score", "player_supply", "invader_resources", "invader_supply", "reserve", "warlord_board")
    return fields_json(state, *tracks, "developments") | {
        "player_resources": state.resources.to_json(),
        "summoned": scenario.game().summoned(state),
        "bronze": dict(state.bronze),
    }


PROJECTIONS = {  # what each shows: cases/vulketh.toml, [projections]
    "hexes": lambda scenario, state, argument: hexes_json(state),
    "hex": _hex,
    "tracks": _tracks,
    "board": lambda scenario, state, argument: board_json(state),
    "decks": lambda scenario, state, argument: decks_json(state),
    "result": result(GAME, lambda s: {"result": "undecided", "round": s.round}),
}

# -- scenario builders --------------------------------------------------------------------------------

SECOND_CARD = {  # drawn after a witness card (it gathers twice), so the witness's draw is asked
    "id": "witness2",
    "deck": 1,
    "actions": [{"action": "GATHER", "face": "moon", "direction": "lowest"}] * 2,
    "goal": {"goal": "none"},
    "reward": [],
    "next_deck": 2,
}


# The rulings a GROW or a MOVE can depend on, varied together (flipping every ruling in groups
# can hide one reading behind another: VK-MOVE-HIGHEST matters only under one VK-MOVE-DEST).
GROW_RULINGS = ("VK-GROW-OVERFLOW", "VK-SCORE-FLOOR")
MOVE_RULINGS = ("VK-MOVE-DEST", "VK-MOVE-HIGHEST")
# VK-MOVE-HIGHEST's witnesses (a MOVE highest) are varied in it alone: flipped together with
# VK-MOVE-DEST, the group can change nothing (``unused`` ignores VK-MOVE-HIGHEST) and hide it.


# -- the player's turn, events, the Vul'Keth ---------------------------------------------------------------


def differ_witnesses() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/vulketh/solver.toml``: the smallest positions separating the MOVE and
    GROW readings (search (c)), each the Invader's first turn drawing the witness card."""
    from invasion_oracle.solver.vulketh import differ

    rules = Rules.of(Rulings.defaults(GAME), default_data())
    for rid in differ.RULINGS:
        for a, b in combinations(REGISTRY.get(rid).reading_names, 2):
            for direction in ("highest",) if rid == "VK-MOVE-HIGHEST" else ("lowest", "highest"):
                question = differ.make_question(rules, rid, (a, b), direction)
                answer = differ.smallest_difference(question, engine="baseline")
                if answer.position is None:
                    continue
                document = differ.witness_document(question, answer.position, rules.data)
                del document["rulings"], document["description"]
                document["data"]["action_cards"].append(copy.deepcopy(SECOND_CARD))  # solver.toml draws both
                move = question.action == "MOVE"
                rulings = ((rid,) if rid == "VK-MOVE-HIGHEST" else MOVE_RULINGS) if move else GROW_RULINGS
                found: dict[str, Any] = {"ruling": rid, "ruling_id": rid.lower(), "a": a, "b": b}
                found |= {"direction": direction, "action": question.action, "amount": question.amount}
                found |= {"position": answer.position.describe(), "features": [question.action.lower()]}
                yield found | {"rulings": list(rulings), "scenario": document}


# -- every bundled action card and Invader Event (case tables, one builder each) --------------------------

ACTION_SECTIONS = {"GROW": "grow-move", "MOVE": "grow-move", "GATHER": "gather-lead", "LEAD": "gather-lead"}
HEX_EFFECTS = {"grow", "move", "remove_invaders", "spread", "war"}


def action_cards() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/vulketh/action-cards.toml``: every action card of the data in force in
    each of its two positions, after a different card of the data naming its deck."""
    cards = default_data().action_cards
    for the_card in cards:
        before = [c for c in cards if c.next_deck == the_card.deck and c.id != the_card.id]
        first, second = (a.describe() for a in the_card.actions)
        sections = ["draw", "place-dice", *dict.fromkeys(ACTION_SECTIONS[a.action] for a in the_card.actions)]
        features = list(dict.fromkeys(a.action.lower() for a in the_card.actions))
        found = {"card": the_card.id, "deck": the_card.deck, "first": first, "second": second}
        for k, pattern in enumerate(("quiet", "warlord")):
            last = before[k % len(before)].id
            yield found | {"pattern": pattern, "last": last, "sections": sections, "features": features}


def invader_events() -> Iterator[dict[str, Any]]:
    """The rows of ``cases/vulketh/invader-events.toml``: every Invader Event of the data in force;
    one acting on the hexes compares them, any other the tracks."""
    for event in default_data().invader_events:
        on_hexes = any(e.kind in HEX_EFFECTS or e.power in HEX_EFFECTS for e in event.effects)
        yield {"id": event.id, "name": event.name, "projection": "hexes" if on_hexes else "tracks"}


SUITE = game_suite(GAME, PROJECTIONS, (), (differ_witnesses, action_cards, invader_events))

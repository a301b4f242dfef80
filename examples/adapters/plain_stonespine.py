"""A plain Stonespine hero walk behind the conformance protocol, at the state level only.

Written separately from the oracle, from ``docs/conformance.md`` and the projections of
``docs/fixtures.md``: it imports nothing of this project (standard library only), keeps no event
log and carries its own data (hero health and the damage of each element, as the suite's
``index.json`` lists the bundled values). It models one player in year 1: a hero arriving by the
white die, entering the entrance chamber, taking a damage per monster and trap there, moving
through connected doorways (the player chooses when there are several new chambers, the walk
goes on by itself when there is one), defeated when its damage reaches its health, escaping from
a chamber with no new connected chamber or an entrance chamber with no doorway to the entrance
(the gate then closes). Everything else (guardians and
minions in its way, the exit, hero abilities that would act, other years, several players) gets
``unsupported``: it is skipped, not guessed.

    invasion conform --cmd "python3 examples/adapters/plain_stonespine.py" --game stonespine
"""

from __future__ import annotations

import json
import sys
from typing import Any

MONSTERS = {"gnoll", "goblin", "kobold", "ooze", "slime"}
TRAPS = {"bear", "blade", "fire", "pit", "spike"}
HARMLESS = {"chest"}  # and the star tokens (+N, -N): no damage when a hero enters
# colour -> hero -> (health, the elements its ability acts on: a case with one of them is unsupported)
HEROES: dict[str, dict[str, tuple[int, frozenset[str]]]] = {
    "black": {"Thief": (4, frozenset({"chest"}))},
    "purple": {"Cleric": (4, frozenset({"+", "-"}))},
    "red": {"Knight": (6, frozenset({"minion"}))},
}
FIRST_HERO = {"black": "Thief", "purple": "Cleric", "red": "Knight"}
WHITE_DIE = ("black", "black", "purple", "purple", "red", "red")
SIDES = {"T": (-1, 0, "B"), "B": (1, 0, "T"), "L": (0, -1, "R"), "R": (0, 1, "L")}
PROJECTIONS = ("heroes",)


class Unsupported(Exception):
    """A case this implementation does not model."""


class Illegal(Exception):
    def __init__(self, step: int, reason: str) -> None:
        super().__init__(reason)
        self.step = step


def cell_name(row: int, col: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


class Dungeon:
    def __init__(self, raw: dict[str, Any]) -> None:
        if set(raw) - {"entrance", "exit", "rows"}:
            raise Unsupported("dungeon fields beyond entrance, exit and rows")
        self.rows: list[list[tuple[str, list[str]]]] = []
        for row in raw["rows"]:
            cells = []
            for text in row:
                words = str(text).split()
                if not words or words[0] != "cave":
                    raise Unsupported("a chamber other than a cave")
                doors = words[1] if len(words) > 1 else "-"
                cells.append((doors if doors != "-" else "", words[2:]))
            self.rows.append(cells)
        self.entrance = (0, ord(str(raw["entrance"])) - ord("A"))
        self.exit = (len(self.rows) - 1, ord(str(raw["exit"])) - ord("A"))

    def chamber(self, at: tuple[int, int]) -> tuple[str, list[str]]:
        return self.rows[at[0]][at[1]]

    def neighbours(self, at: tuple[int, int]) -> list[tuple[int, int]]:
        doors, _ = self.chamber(at)
        out = []
        for side in doors:
            if side not in SIDES:
                raise Unsupported(f"a doorway {side!r}")
            dr, dc, facing = SIDES[side]
            r, c = at[0] + dr, at[1] + dc
            if 0 <= r < len(self.rows) and 0 <= c < len(self.rows[r]) and facing in self.chamber((r, c))[0]:
                out.append((r, c))
        return out


def damage_of(elements: list[str], ability: frozenset[str]) -> int:
    total = 0
    for element in elements:
        star = element[:1] in "+-" and element[1:].isdigit()
        if element in ability or (star and element[:1] in ability):
            raise Unsupported("the hero's ability would act here")
        if element in MONSTERS or element in TRAPS:
            total += 1
        elif not (element in HARMLESS or star):
            raise Unsupported(f"an element {element!r}")
    return total


def play(case: dict[str, Any]) -> dict[str, Any]:
    scenario = case["scenario"]
    if case["projection"] not in PROJECTIONS:
        raise Unsupported(f"the projection {case['projection']}")
    if set(scenario) - {"game", "heroes", "players", "year"} or scenario.get("year") != 1:
        raise Unsupported("only year 1 with dungeon, heroes and players")
    players = scenario["players"]
    if len(players) != 1 or set(players[0]) - {"dungeon", "guardian", "levels", "name", "placement"}:
        raise Unsupported("one player only")
    player = players[0]
    placement = player.get("placement", {})
    if placement.get("minions"):
        raise Unsupported("minions")
    guardians = {(int(g[1:]) - 1, ord(g[0]) - ord("A")) for g in placement.get("guardians", [])}
    dungeon = Dungeon(player["dungeon"])
    answers = list(case["answers"])
    if not answers or answers[0]["kind"] != "roll":
        raise Unsupported("a case that does not start with the hero's die")
    colour = answers[0]["answer"]
    if colour not in WHITE_DIE:
        raise Illegal(1, "not a face of the white die")
    hero = dict(scenario.get("heroes") or {}).get(colour, FIRST_HERO[colour])
    if hero not in HEROES[colour]:
        raise Unsupported(f"the hero {hero}")
    health, ability = HEROES[colour][hero]
    state: dict[str, Any] = {
        "name": player["name"],
        "gate_open": True,
        "waiting": [],
        "defeated": [],
        "escaped": [],
    }
    at = dungeon.entrance
    if "T" not in dungeon.chamber(at)[0]:  # no doorway to the entrance: the hero escapes at once
        state.update(escaped=[colour], gate_open=False, running=None)
        return {"players": [{k: state[k] for k in sorted(state)}]} if len(answers) == 1 else _more()
    visited = [at]
    damage = 0
    step = 1
    while True:
        if at in guardians:
            raise Unsupported("a guardian in the hero's way")
        if at == dungeon.exit:
            raise Unsupported("the exit")
        damage += damage_of(dungeon.chamber(at)[1], ability)
        if damage >= health:
            state["defeated"].append({"chamber": cell_name(*at), "hero": colour})
            state["running"] = None
            break
        options = [n for n in dungeon.neighbours(at) if n not in visited]
        if not options:
            state["escaped"].append(colour)
            state["gate_open"] = False
            state["running"] = None
            break
        if len(options) > 1:
            if step >= len(answers):
                state["running"] = {
                    "chamber": cell_name(*at),
                    "damage": damage,
                    "hero": colour,
                    "visited": [cell_name(*v) for v in visited],
                }
                break
            answer = answers[step]
            step += 1
            names = {cell_name(*o): o for o in options}
            if answer["request"] != "decision" or answer["kind"] != "move" or answer["answer"] not in names:
                raise Illegal(step, "not a move to a new connected chamber")
            at = names[answer["answer"]]
        else:
            at = options[0]
        visited.append(at)
    if step < len(answers):
        raise Unsupported("what comes after the hero's walk")
    return {"players": [{k: state[k] for k in sorted(state)}]}


def _more() -> dict[str, Any]:
    raise Unsupported("what comes after the hero's walk")


def main() -> int:
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            hello = {
                "type": "hello",
                "name": "plain-stonespine",
                "version": "1.0",
                "protocol_version": 2,
                "games": ["stonespine"],
                "levels": ["state"],
                "capabilities": {"projections": list(PROJECTIONS)},
            }
            print(json.dumps(hello), flush=True)
        elif kind == "bye":
            return 0
        elif kind == "case":
            head = {"type": "reply", "id": message["id"], "variant": message["variant"]}
            try:
                reply = {**head, "status": "ok", "state": play(message)}
            except Unsupported as why:
                reply = {**head, "status": "unsupported", "reason": str(why)}
            except Illegal as bad:
                reply = {**head, "status": "illegal", "step": bad.step, "reason": str(bad)}
            except (KeyError, TypeError, ValueError, IndexError) as err:
                reply = {**head, "status": "unsupported", "reason": f"not understood: {err!r}"}
            print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

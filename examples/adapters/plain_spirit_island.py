"""A plain Spirit Island Ravage behind the conformance protocol, at the state level only.

Written separately from the oracle, from ``docs/conformance.md`` and the ``land:NAME``
projection of ``docs/fixtures.md``: it imports nothing of this project (standard library only),
keeps no event log and carries its own data (each piece's Health and Damage). It models the
Build in one land (a City where Towns outnumber Cities, else a Town) and the Ravage in one land, the way a plain engine writes it: piece counts in mutable lists, changed in
place; the Invaders deal their Damage (less Defend) to the Dahan (damaged Dahan first, then
whole ones, the rest damaging one), Blight when they dealt 2 or more, then the surviving Dahan
fight back with 2 Damage each, destroying the weakest Invaders first (any spread the players
could choose is accepted when the case says ``choice``). Everything else (other projections,
Presence, more answers, Explore cards, several cards, data overrides) gets ``unsupported``.

    invasion conform --cmd "python3 examples/adapters/plain_spirit_island.py" --game spirit-island
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

# kind -> (Health, Damage dealt in a Ravage); the order is the notation's
PIECES = {"C": (3, 3), "T": (2, 2), "E": (1, 1), "D": (2, 2)}
INVADERS = ("C", "T", "E")
SCENARIO_KEYS = {"blight", "fear", "game", "invader_board", "invader_deck", "island", "lands", "pieces"}
TOKEN = re.compile(r"(\d*)([CTEDB])(?:@(\d+))?")


class Unsupported(Exception):
    """A case this implementation does not model."""


def parse(text: str) -> tuple[dict[str, list[int]], int]:
    """``"C 2T@1 3D B"`` -> ({kind: [damage of each piece]}, blight)."""
    pieces: dict[str, list[int]] = {k: [] for k in PIECES}
    blight = 0
    for word in text.split():
        if word == "-":
            continue
        match = TOKEN.fullmatch(word)
        if match is None:
            raise Unsupported(f"the piece notation {word!r}")
        count = int(match.group(1) or 1)
        if match.group(2) == "B":
            blight += count
        else:
            pieces[match.group(2)] += [int(match.group(3) or 0)] * count
    return pieces, blight


def notation(pieces: dict[str, list[int]], blight: int) -> str:
    words = []
    for kind in PIECES:
        for damage in sorted(set(pieces[kind])):
            n = pieces[kind].count(damage)
            words.append(f"{n if n > 1 else ''}{kind}{f'@{damage}' if damage else ''}")
    if blight:
        words.append(f"{blight if blight > 1 else ''}B")
    return " ".join(words) or "-"


def ravage(pieces: dict[str, list[int]], blight: int, defend: int) -> int:
    """One Ravage in a land, in place; returns the land's Blight after."""
    if not any(pieces[k] for k in INVADERS):
        return blight
    damage = max(0, sum(PIECES[k][1] * len(pieces[k]) for k in INVADERS) - defend)
    if damage >= 2:
        blight += 1
    dahan = sorted(pieces["D"], reverse=True)  # damaged ones first
    left = damage
    alive = []
    for hurt in dahan:
        need = PIECES["D"][0] - hurt
        if left >= need:
            left -= need
        else:
            alive.append(hurt)
    if left and alive:
        alive.sort()
        alive[0] += left  # the rest damages one whole Dahan
    pieces["D"] = alive
    fight = PIECES["D"][1] * len(alive)
    invaders = sorted(
        ((PIECES[k][0] - hurt, k, hurt) for k in INVADERS for hurt in pieces[k]), key=lambda p: p[0]
    )
    survivors: dict[str, list[int]] = {k: [] for k in INVADERS}
    for health, kind, hurt in invaders:
        if fight >= health:
            fight -= health
        else:
            survivors[kind].append(hurt + fight)
            fight = 0
    pieces.update(survivors)
    return blight


def build(pieces: dict[str, list[int]]) -> None:
    """One Build in a land with Invaders, in place: a City where Towns outnumber Cities, else a Town."""
    if any(pieces[k] for k in INVADERS):
        pieces["C" if len(pieces["T"]) > len(pieces["C"]) else "T"].append(0)


def _land(scenario: dict[str, Any], name: str) -> tuple[str, int]:
    raw = scenario["lands"].get(name, "-")
    if isinstance(raw, dict):
        if set(raw) - {"pieces", "defend"}:
            raise Unsupported("land fields beyond pieces and Defend")
        return str(raw.get("pieces", "-")), int(raw.get("defend", 0))
    return str(raw), 0


# One player (the cases name no others): 4 Fear markers in the pool per player; the Plain Blight
# card puts 2 Blight per player and 1 more on it (our own reading of the rulebook's setup).
FEAR_PER_PLAYER = 4
FEAR_OF = {"T": 1, "C": 2}


def _blight_pool(scenario: dict[str, Any]) -> int:
    if scenario.get("blight", {}).get("card") != "Plain Blight":
        raise Unsupported("a Blight card other than Plain Blight")
    return 2 * 1 + 1


def _wide(scenario: dict[str, Any], land: dict[str, Any], fear: int, blighted: int) -> dict[str, Any]:
    """The ``action:LAND`` view: the land, the Fear pool and cards earned, the Blight pool."""
    pool, earned = FEAR_PER_PLAYER, 0
    for _ in range(fear):
        pool -= 1
        if pool == 0:
            earned, pool = earned + 1, FEAR_PER_PLAYER
    return {
        "blight_pool": _blight_pool(scenario) - blighted,
        "fear": {"earned": earned, "pool": pool},
        "land": land,
    }


def play(case: dict[str, Any]) -> dict[str, Any]:
    projection = case["projection"]
    kind, _, name = projection.partition(":")
    if kind == "action":
        return _play_wide(case, name)
    if kind != "land":
        raise Unsupported(f"the projection {projection}")
    return _play_land(case)


def _play_wide(case: dict[str, Any], name: str) -> dict[str, Any]:
    scenario = case["scenario"]
    text, _ = _land(scenario, name)
    before, blight_before = parse(text)
    land = _play_land({**case, "projection": f"land:{name}"})
    after, blight_after = parse(land["pieces"])
    if blight_after > blight_before and blight_before:
        raise Unsupported("a Blight cascade")
    fear = sum(FEAR_OF[k] * (len(before[k]) - len(after[k])) for k in FEAR_OF)
    return _wide(scenario, land, fear, blight_after - blight_before)


def _play_land(case: dict[str, Any]) -> dict[str, Any]:
    scenario = case["scenario"]
    projection = case["projection"]
    if set(scenario) - SCENARIO_KEYS or scenario.get("pieces", "empty") != "empty":
        raise Unsupported("scenario fields beyond the lands and the Invader board")
    board = scenario.get("invader_board", {})
    action = next(iter(board)) if len(board) == 1 else ""
    if action not in ("ravage", "build") or len(board[action]) != 1:
        raise Unsupported("anything but one Ravage or one Build card")
    name = projection.partition(":")[2]
    answers = case["answers"]
    if action == "build":
        if answers:
            raise Unsupported("a Build with answers")
        text, defend = _land(scenario, name)
        pieces, blight = parse(text)
        build(pieces)
        return {"defend": defend, "pieces": notation(pieces, blight), "presence": {}}
    if case.get("choice") and len(answers) == 2:
        answers = answers[:1]  # the players' spread of Damage: ours is as good
    if answers and (len(answers) != 1 or answers[0]["kind"] != "land-order" or answers[0]["answer"] != name):
        raise Unsupported("anything but the projected land ravaged first")
    text, defend = _land(scenario, name)
    pieces, blight = parse(text)
    blight = ravage(pieces, blight, defend)
    return {"defend": defend, "pieces": notation(pieces, blight), "presence": {}}


def main() -> int:
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            hello = {
                "type": "hello",
                "name": "plain-spirit-island",
                "version": "1.0",
                "protocol_version": 2,
                "games": ["spirit-island"],
                "levels": ["state"],
                "capabilities": {"projections": ["land", "action"]},
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
            except (KeyError, TypeError, ValueError, IndexError) as err:
                reply = {**head, "status": "unsupported", "reason": f"not understood: {err!r}"}
            print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

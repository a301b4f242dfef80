"""z3 encodings of Stonespine rulings for the divergence search (``solver/divergence.py``).

``SS-HEALTH-TOKENS`` (seed 000, IV. Invasion Phase, Step 4: Level Up Heroes): in years 1-3 the
white die is rolled once per year number, and each result gives that colour's card one more
health token (+1, or a flip to +2). Read ``uncapped``, a card gains a point per roll; read
``cap-at-two``, it stops at +2. The readings differ exactly when some colour's starting bonus
plus its rolls exceeds 2. z3 picks the year, the starting bonuses and the rolls, minimising the
year first and the bonuses next; the scenario around them is the smallest Invasion (one player,
a guardian under the entrance, the gate closed after the first wave).
"""

from __future__ import annotations

from typing import Any

import z3

from invasion_oracle.model.stonespine.heroes import COLORS
from invasion_oracle.solver.common import Deadline, z3_check

MOST_BONUS = 2  # the highest starting health token a scenario gives (+2)


def health_tokens(deadline: Deadline) -> dict[str, Any] | None:
    """The smallest Invasion whose hero health depends on SS-HEALTH-TOKENS."""
    year = z3.Int("year")
    bonus = {c: z3.Int(f"bonus_{c.value}") for c in COLORS}
    rolls = [z3.Int(f"roll_{i}") for i in range(3)]  # colour index of each level-up roll
    opt = z3.Optimize()
    opt.add(year >= 1, year <= 3)
    for value in bonus.values():
        opt.add(value >= 0, value <= MOST_BONUS)
    for roll in rolls:
        opt.add(roll >= 0, roll < len(COLORS))
    gained = {
        c: z3.Sum([z3.If(z3.And(i < year, rolls[i] == k), 1, 0) for i in range(3)])
        for k, c in enumerate(COLORS)
    }
    opt.add(z3.Or([bonus[c] + gained[c] > MOST_BONUS for c in COLORS]))  # the readings differ
    opt.minimize(year)
    opt.minimize(z3.Sum(list(bonus.values())))
    if z3_check(opt, deadline) != z3.sat:
        return None
    model = opt.model()
    years = model.eval(year).as_long()
    faces = [COLORS[model.eval(rolls[i]).as_long()].value for i in range(years)]
    bonuses = {c.value: model.eval(bonus[c]).as_long() for c in COLORS if model.eval(bonus[c]).as_long()}
    return {
        "game": "stonespine",
        "description": "Found by z3 (SS-HEALTH-TOKENS): the smallest year, starting health tokens and "
        "level-up rolls for which a card would pass +2.",
        "year": years,
        "players": [
            {
                "name": "Ann",
                "guardian": "Gorgon",
                "levels": [0, 0],
                "dungeon": {"entrance": "A", "exit": "A", "rows": [["cave T"]] * 1},
                "placement": {"guardians": ["A1"], "minions": []},
            }
        ],
        **({"health_bonus": bonuses} if bonuses else {}),
        # the first wave's dice (one per year), then the level-up rolls; the gate closes after it
        "dice": {"script": [faces[0]] * years + faces, "then": "first-legal"},
        "decisions": {"prefer": ["close"], "then": "first-legal"},
    }


ENCODINGS = {"SS-HEALTH-TOKENS": health_tokens}

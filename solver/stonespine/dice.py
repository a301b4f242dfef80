"""The distribution of a wave's heroes: this year's dice, each face equally likely.

Faces come from the data in force (ruling ``SS-DICE-FACES`` or a data file); probabilities are
exact fractions, so values computed from them are exact too.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

from invasion_oracle.model.stonespine.data import GameData, parse_face
from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor

Roll = tuple[int, int, int]  # heroes of each colour: black, purple, red


def roll_distribution(data: GameData, year: int) -> tuple[tuple[Roll, Fraction], ...]:
    """Every multiset of heroes this year's dice can show, with its probability (sorted by roll).

    >>> import invasion_oracle.model.stonespine
    >>> from invasion_oracle.model.core.rulings import Rulings
    >>> from invasion_oracle.model.stonespine.data import default_data
    >>> dist = roll_distribution(default_data(Rulings.defaults("stonespine")), 1)
    >>> [(r, str(p)) for r, p in dist]
    [((0, 0, 1), '1/3'), ((0, 1, 0), '1/3'), ((1, 0, 0), '1/3')]
    """
    dice = [data.die(name) for name in data.value("dice_by_year")[year - 1]]
    # Each face as a (black, purple, red) count vector; a roll is the sum over the dice.
    vectors = [[tuple(parse_face(label).count(c) for c in COLORS) for label in die.labels] for die in dice]
    total: Counter[Roll] = Counter()
    for faces in product(*vectors):
        total[(sum(f[0] for f in faces), sum(f[1] for f in faces), sum(f[2] for f in faces))] += 1
    count = sum(total.values())
    return tuple((roll, Fraction(n, count)) for roll, n in sorted(total.items()))


def roll_heroes(roll: Roll) -> tuple[HeroColor, ...]:
    return tuple(c for c, n in zip(COLORS, roll, strict=True) for _ in range(n))


def describe_roll(roll: Roll) -> str:
    return " ".join(f"{n} {c.value}" for c, n in zip(COLORS, roll, strict=True) if n) or "no heroes"

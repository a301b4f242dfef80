"""The action board (research notes §1.2): four rows of three dice, GROW, MOVE, GATHER, LEAD.

A row holds its three dice oldest first. Placing (or, for the Invaders, sliding) a die into a
row pushes the oldest die out, so the board always holds twelve dice. The strength of the action
is read from the row *after* the new die is in: two or more suns make it strong, two or more
moons weak, anything else standard.

>>> row = ("sun", "moon", "blank")
>>> pushed, out = push(row, "sun")
>>> pushed, out, strength(pushed)
(('moon', 'blank', 'sun'), 'sun', 'standard')
>>> strength(push(pushed, "sun")[0])
'strong'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.frozen import replace

ACTIONS = ("GROW", "MOVE", "GATHER", "LEAD")
FACES = ("sun", "moon", "blank")
STRENGTHS = ("weak", "standard", "strong")
ROW_LENGTH = 3

Row = tuple[str, str, str]


def push(row: Row, face: str) -> tuple[Row, str]:
    """The row after ``face`` goes in at the newest end, and the face pushed out (the oldest)."""
    return (row[1], row[2], face), row[0]


def strength(row: Row) -> str:
    """Two or more suns: strong; two or more moons: weak; otherwise standard."""
    if row.count("sun") >= 2:
        return "strong"
    if row.count("moon") >= 2:
        return "weak"
    return "standard"


@dataclass(frozen=True, slots=True)
class ActionBoard:
    """The four rows, in the order of :data:`ACTIONS`."""

    rows: tuple[Row, Row, Row, Row]

    def row(self, action: str) -> Row:
        return self.rows[ACTIONS.index(action)]

    def place(self, action: str, face: str) -> tuple[ActionBoard, str, str]:
        """Place ``face`` in ``action``'s row: the new board, the face pushed out, the strength."""
        index = ACTIONS.index(action)
        row, out = push(self.rows[index], face)
        rows = list(self.rows)
        rows[index] = row
        board = replace(self, rows=(rows[0], rows[1], rows[2], rows[3]))
        return board, out, strength(row)

    def dice(self) -> int:
        return sum(len(r) for r in self.rows)

    def to_json(self) -> dict[str, Any]:
        return {action: list(row) for action, row in zip(ACTIONS, self.rows, strict=True)}

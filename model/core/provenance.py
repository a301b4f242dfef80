"""Data values that say where they come from.

The seeds do not give every number (most hero health values, dice faces, trophy values...).
Each such value is a :class:`Sourced` with a :class:`Provenance`:

* ``seed`` - stated in the rulebook text (cite the seed file and section);
* ``derived`` - follows from seed facts by a stated argument;
* ``assumed`` - our default where nothing is known; users should override it;
* ``user`` - set by the user's data file.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Provenance(enum.StrEnum):
    SEED = "seed"
    DERIVED = "derived"
    ASSUMED = "assumed"
    USER = "user"


@dataclass(frozen=True, slots=True)
class Sourced(Generic[T]):
    """A value and where it comes from.

    >>> Sourced(6, Provenance.SEED, "000 Step 4 example").to_json()
    {'value': 6, 'provenance': 'seed', 'source': '000 Step 4 example'}
    """

    value: T
    provenance: Provenance
    source: str

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "provenance": self.provenance.value, "source": self.source}

    def overridden(self, value: T, source: str) -> Sourced[T]:
        return Sourced(value, Provenance.USER, source)

"""The scenario builders of Cloudspire's cases, shared by the plug-in's modules.

:func:`doc` is a described state, one round long, with the Harbor Keeper (Harbor, Gale and Basalt
allied) against the Driftwood Leviathan unless the case says otherwise; :func:`dice` banishes
every die not listed; :data:`case` is a :class:`CaseSpec` with Cloudspire's defaults.
Used by :mod:`invasion_oracle.reports.suite.cloudspire`,
:mod:`invasion_oracle.reports.suite.cloudspire_factions` and
:mod:`invasion_oracle.reports.suite.cloudspire_conflict`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from invasion_oracle.reports.suite.specs import CaseMaker, Stop

GAME = "cloudspire"

DICE = ("Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4", "B1", "B2", "B3", "B4", "P1", "P2", "P3", "P4", "R1")


def dice(*pool: str, **zones: Any) -> dict[str, Any]:
    listed = {d for v in zones.values() for d in (v if isinstance(v, list) else v.keys())}
    return {"banished": [d for d in DICE if d not in pool and d not in listed], **zones}


def doc(
    start: str = "round",
    *,
    decisions: Sequence[str] = (),
    chance: Sequence[str] = (),
    rulings: dict[str, str] | None = None,
    **state: Any,
) -> dict[str, Any]:
    base: dict[str, Any] = {
        "hero": "Harbor Keeper",
        "allied": ["Harbor", "Gale", "Basalt"],
        "boss": "Driftwood Leviathan",
        "dice": dice(),
    }
    base.update(copy.deepcopy(state))
    document: dict[str, Any] = {
        "game": GAME,
        "start": start,
        "rounds": 1,
        "state": base,
        "decisions": {"script": list(decisions), "then": "first-legal"},
        "chance": {"script": list(chance), "then": "first-legal"},
    }
    if rulings:
        document["rulings"] = dict(rulings)
    return document


case = CaseMaker(projection="lanes", stop=Stop.end(), window="all")

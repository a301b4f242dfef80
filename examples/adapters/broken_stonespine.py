"""A deliberately broken Stonespine implementation: the oracle with faults the runner must catch.

* minions deal one damage instead of two (a data override slipped into every Stonespine case);
* the exit is ignored in years 1-3 as in year 4 (it plays ``SS-EXIT-Y13=ignored`` whatever it is
  asked): the compliance statement must say it follows ``ignored``;
* it crashes on ``stonespine/solo/jael-collects-xp``, hangs on ``stonespine/gate/continue`` and
  prints garbage for ``stonespine/gate/close``; the runner must restart it and go on.

``tests/conform/test_broken_adapters.py`` names the cases that must fail.
"""

from __future__ import annotations

import sys
from typing import Any

from invasion_oracle.reports.conform.adapter import Fault, levels_from_argv, serve


def _minions_deal_one(message: dict[str, Any]) -> dict[str, Any]:
    if message["game"] != "stonespine":
        return message
    scenario = dict(message["scenario"])
    data = dict(scenario.get("data", {}))
    data["values"] = {**data.get("values", {}), "minion_damage": 1}
    scenario["data"] = data
    return {**message, "scenario": scenario}


def _exit_ignored(message: dict[str, Any]) -> dict[str, Any]:
    if message["game"] != "stonespine":
        return message
    return {**message, "rulings": {**message["rulings"], "SS-EXIT-Y13": "ignored"}}


MISBEHAVE = {
    "stonespine/solo/jael-collects-xp": "crash",
    "stonespine/gate/continue": "hang",
    "stonespine/gate/close": "garbage",
}

FAULTS = (
    Fault("misbehaves", misbehave=lambda message: MISBEHAVE.get(message["id"], "")),
    Fault("minions deal one damage", before=_minions_deal_one),
    Fault("the exit is ignored in years 1-3", before=_exit_ignored),
)

if __name__ == "__main__":
    sys.exit(serve(name="broken-stonespine", faults=FAULTS, levels=levels_from_argv()))

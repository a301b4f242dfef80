"""Where a game's report parts live: the optional package ``reports.<game>``.

A game on the contract may add, in ``reports/<package>/``:

* ``cli.py`` with ``register(commands)``: its own verbs (searches); argument parsing only;
* ``render.py`` with any of ``before(scenario)``, ``after(scenario, final)`` (Markdown shown
  around a simulation's trace) and ``data_report(data)`` (``invasion GAME data``);
* ``sections.py`` with ``SECTIONS`` and ``LONG_SECTIONS``: functions returning Markdown
  sections for the main job (``make run``) and the full report (``make report``).

A game without them still gets every generic verb, with plain renderings.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from invasion_oracle.model.registry import package_of


def part(game: str, name: str) -> ModuleType | None:
    """``reports.<game package>.<name>``, or None when the game does not have it."""
    module = f"invasion_oracle.reports.{package_of(game)}.{name}"
    try:
        found = importlib.util.find_spec(module)
    except ModuleNotFoundError:  # the game has no reports package at all
        return None
    return importlib.import_module(module) if found is not None else None

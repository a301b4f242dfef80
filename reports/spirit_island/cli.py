"""``invasion spirit-island ...``: the verbs only Spirit Island has (its searches).

Argument parsing lives in :mod:`reports.cli_spirit_island`; this module is the game's entry
point for the shared command line (:mod:`reports.games`).
"""

from __future__ import annotations

from typing import Any


def register(commands: Any) -> None:
    from reports import cli_spirit_island

    cli_spirit_island.register(commands)

"""The games the oracle knows. Importing this module registers every game's rulings."""

from __future__ import annotations

import importlib

GAMES: dict[str, str] = {
    "stonespine": "model.stonespine",
    "spirit-island": "model.spirit_island",
}


def load_all() -> None:
    for module in GAMES.values():
        importlib.import_module(module)

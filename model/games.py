"""The games the oracle knows. Importing this module registers every game's rulings."""

from __future__ import annotations

import importlib

GAMES: dict[str, str] = {
    "stonespine": "model.stonespine",
}


def load_all() -> None:
    for module in GAMES.values():
        importlib.import_module(module)

"""The games the oracle knows: one line per game, imported only when first asked for.

``BUILTIN`` maps a game's name (the ``game`` field of its scenarios and traces) to the module
that defines its ``SPEC``. Everything generic - simulate, replay, fixtures, witnesses, schemas,
the command line - reads games from here, so adding a game is one line below plus its packages
(``docs/adding-a-game.md``). :func:`register` adds a game at run time (a plug-in, or a toy game
in the tests).

>>> names()[:2]
('stonespine', 'spirit-island')
>>> spec("stone").name
'stonespine'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.rulings import resolve_name
from invasion_oracle.model.core.suggest import did_you_mean, know_games

if TYPE_CHECKING:
    from invasion_oracle.model.core.spec import GameSpec

BUILTIN: dict[str, tuple[str, str]] = {
    # name: (module defining SPEC, title shown by `invasion --help` without importing the game)
    "stonespine": ("invasion_oracle.model.stonespine.spec", "Stonespine Architects: Invasion"),
    "spirit-island": ("invasion_oracle.model.spirit_island.spec", "Spirit Island: the Invader Phase"),
    "vulketh": ("invasion_oracle.model.vulketh.spec", "Rise of Tribes: The Vul'Keth Invasion"),
    "cloudspire": ("invasion_oracle.model.cloudspire.spec", "20 Strong: Cloudspire"),
}

_registered: dict[str, GameSpec] = {}


def register(game: GameSpec) -> None:
    """Add (or replace) a game known by ``game.name``."""
    from invasion_oracle.model.core.bundled import allow_package

    allow_package(game.examples)
    _registered[game.name] = game


def unregister(name: str) -> None:
    _registered.pop(name, None)


def names() -> tuple[str, ...]:
    """Every game's name: the built-in ones in their order, then registered ones."""
    return (*BUILTIN, *(n for n in _registered if n not in BUILTIN))


def spec(name: str, *, source: str = "game", path: str = "$") -> GameSpec:
    """The spec of game ``name`` (exact, case-insensitive or a unique prefix)."""
    resolved = resolve_name(name, names(), "game", source, path)
    if resolved in _registered:
        return _registered[resolved]
    module = importlib.import_module(BUILTIN[resolved][0])
    found: GameSpec = module.SPEC
    return found


def specs() -> tuple[GameSpec, ...]:
    """Every game's spec (imports them all)."""
    return tuple(spec(n) for n in names())


def title(name: str) -> str:
    """A game's title, without importing it when it is built in."""
    return BUILTIN[name][1] if name in BUILTIN else _registered[name].title


def package_of(name: str) -> str:
    """The Python package name of a game's parts: ``spirit-island`` -> ``spirit_island``."""
    return name.replace("-", "_")


def spec_for_document(document: Any, source: str) -> GameSpec:
    """The game a scenario or trace document belongs to, from its ``game`` field."""
    if not isinstance(document, dict):
        raise MalformedInputError(source, "$", "expected a JSON object with a 'game' field")
    game = document.get("game")
    if not isinstance(game, str) or not game:
        raise MalformedInputError(
            source, "$.game", f"names the game this file is for; one of {', '.join(names())}"
        )
    if game not in names():
        raise MalformedInputError(
            source,
            "$.game",
            f"unknown game {game!r}{did_you_mean(game, names())}; known: {', '.join(names())}",
        )
    return spec(game)


know_games(
    names
)  # so that a scenario of another game is refused by its game (model.core.jsonio.refuse_other_game)


def load_all() -> None:
    """Import every game, registering all rulings (for ``invasion rulings``)."""
    specs()

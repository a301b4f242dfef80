"""invasion-oracle: a reference oracle, fixtures and searches for four board games' invasion rules.

The public API, python-chess style (everything else is internal and may change):

>>> import invasion_oracle as io
>>> io.games()
('stonespine', 'spirit-island', 'vulketh', 'cloudspire')
>>> s = io.load("example:stonespine/default")
>>> p = s.play()                       # the scenario's own decision script and dice
>>> [d["hero"] for d in p.outcome()["players"][0]["defeated"]]
['black', 'purple', 'purple']
>>> io.replay(p.trace()).identical      # a trace is the fixture other engines run against
True

Play one decision at a time with :meth:`Scenario.new_game` (a :class:`Game`); answer with
:class:`First`, :class:`SeededRandom`, :class:`Scripted` or :class:`Policy`; search with the
per-game modules :mod:`invasion_oracle.stonespine`, :mod:`~invasion_oracle.spirit_island`,
:mod:`~invasion_oracle.vulketh` and :mod:`~invasion_oracle.cloudspire`. Documented in
``docs/api.md``. The heavy parts (solvers) load only when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from invasion_oracle.model.core.errors import (
    AmbiguousInputError,
    IllegalDecisionError,
    InvasionError,
    MalformedInputError,
    MissingEngineError,
    OutputError,
    RulesError,
    ScriptedAnswerError,
)

if TYPE_CHECKING:
    from invasion_oracle import cloudspire, spirit_island, stonespine, vulketh
    from invasion_oracle.api import (
        First,
        Game,
        Outcome,
        Playthrough,
        Policy,
        Scenario,
        Scripted,
        SeededRandom,
        load,
        replay,
        under_data,
    )
    from invasion_oracle.model.core.rulings import Ruling

# Loaded on first use, so that `invasion --help` (which imports this package) stays fast.
_API = (
    "First",
    "Game",
    "Outcome",
    "Playthrough",
    "Policy",
    "Scenario",
    "Scripted",
    "SeededRandom",
    "load",
    "replay",
    "under_data",
)
# the per-game search modules load solvers (z3, networkx): only when first asked for
_SEARCHES = ("cloudspire", "spirit_island", "stonespine", "vulketh")

__all__ = [
    "AmbiguousInputError",
    "First",
    "Game",
    "IllegalDecisionError",
    "InvasionError",
    "MalformedInputError",
    "MissingEngineError",
    "Outcome",
    "OutputError",
    "Playthrough",
    "Policy",
    "RulesError",
    "Ruling",
    "Scenario",
    "Scripted",
    "ScriptedAnswerError",
    "SeededRandom",
    "__version__",
    "cloudspire",
    "games",
    "load",
    "replay",
    "rulings",
    "schema",
    "schemas",
    "spirit_island",
    "stonespine",
    "under_data",
    "vulketh",
]


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("invasion-oracle")
    except metadata.PackageNotFoundError:  # pragma: no cover - a checkout that was never installed
        return "0+unknown"


def games() -> tuple[str, ...]:
    """The games this oracle knows, by the name their files and commands use.

    >>> games()[0]
    'stonespine'
    """
    from invasion_oracle.model import registry

    return registry.names()


def rulings(game: str) -> tuple[Ruling, ...]:
    """Every named ruling of ``game``: its id, question, readings and default.

    >>> r = {r.id: r for r in rulings("stonespine")}["SS-EXIT-Y13"]
    >>> r.default, r.reading_names
    ('forced', ('forced', 'ignored'))
    """
    from invasion_oracle.model import registry
    from invasion_oracle.model.core import arguments
    from invasion_oracle.model.core.rulings import REGISTRY

    registry.spec(arguments.text(game, "game", what="a game's name"), source="rulings", path="game")
    return REGISTRY.all(game)


def schemas() -> tuple[str, ...]:
    """The names of every published JSON Schema (``invasion schema``).

    >>> {"trace", "envelope", "vulketh-scenario"} <= set(schemas())
    True
    """
    from invasion_oracle.reports.verbs import schema_names

    return tuple(sorted(schema_names()))


def schema(name: str) -> dict[str, Any]:
    """A published JSON Schema by name, such as ``trace`` or ``stonespine-scenario``.

    >>> schema("trace")["title"]
    'invasion-oracle trace'
    """
    from invasion_oracle.model.core import arguments
    from invasion_oracle.model.core.jsonio import load_schema
    from invasion_oracle.model.core.rulings import resolve_name
    from invasion_oracle.reports.verbs import schema_names

    known = schema_names()
    name = arguments.text(name, "name", what="a schema's name")
    package, resource = known[resolve_name(name, sorted(known), "schema", "schema", "name")]
    return load_schema(package, resource)


def __getattr__(name: str) -> Any:
    import importlib

    if name == "Ruling":
        from invasion_oracle.model.core.rulings import Ruling

        return Ruling
    if name == "__version__":
        return _version()
    if name in _API:
        return getattr(importlib.import_module("invasion_oracle.api"), name)
    if name in _SEARCHES:
        return importlib.import_module(f"invasion_oracle.{name}")
    raise AttributeError(f"module 'invasion_oracle' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The whole API, the lazily loaded names included (notebook completion reads this)."""
    return sorted({*globals(), *__all__})

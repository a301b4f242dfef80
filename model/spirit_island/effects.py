"""Pluggable effects for Fear cards, Events, Blight cards and Escalation (seed 002, Fear; Event).

An effect is data (a JSON object with an ``effect`` field); the game resolves it as a task, so
every choice it needs becomes a decision. Effects last until Time Passes (seed 002, Fear: 'Fear
effects last only for the current turn'). The kinds:

==============  ===========================================================================
``fear``        generate ``amount`` Fear (explicit Fear, not from destruction)
``defend``      Defend ``amount`` in each matching land
``add``         add ``count`` ``piece`` (explorer/town/city/dahan/blight) to each matching land
``remove``      remove up to ``count`` ``piece`` from each matching land (no Fear)
``destroy``     destroy up to ``count`` ``piece`` in each matching land (Fear for Towns/Cities)
``downgrade``   downgrade up to ``count`` ``piece`` (town/city) in each matching land
``upgrade``     upgrade up to ``count`` ``piece`` (explorer/town) in each matching land
``damage``      ``amount`` Damage to the Invaders of each matching land, allocated by the players
``health``      Health of ``piece`` changes by ``delta`` in each matching land
``skip``        skip ``action`` (ravage/build/explore): ``scope`` ``card`` (the next card) or
                ``lands`` (the action in matching lands)
==============  ===========================================================================

``where`` narrows the lands: ``terrain`` (list), ``coastal`` (bool), ``has`` (the land holds at
least one of these: ``explorer``, ``town``, ``city``, ``dahan``, ``blight``, ``invaders``),
``lands`` (names), ``card`` (true: lands matching the Invader card being escalated).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import json_path
from invasion_oracle.model.spirit_island.pieces import PieceKind, Terrain

KINDS = ("fear", "defend", "add", "remove", "destroy", "downgrade", "upgrade", "damage", "health", "skip")
HAS_WORDS = ("explorer", "town", "city", "dahan", "blight", "invaders")
_PIECES = {
    "add": ("explorer", "town", "city", "dahan", "blight"),
    "remove": ("explorer", "town", "city", "dahan"),
    "destroy": ("explorer", "town", "city"),
    "downgrade": ("explorer", "town", "city"),
    "upgrade": ("explorer", "town"),
    "health": ("explorer", "town", "city", "dahan"),
}
ACTIONS = ("ravage", "build", "explore")


@dataclass(frozen=True, slots=True)
class Where:
    """Which lands an effect touches; empty means every land."""

    terrains: tuple[Terrain, ...] = ()
    coastal: bool | None = None
    has: tuple[str, ...] = ()
    lands: tuple[str, ...] = ()
    card: bool = False

    def describe(self) -> str:
        """Lands in words.

        >>> Where(coastal=True, has=("dahan",)).describe()
        'coastal lands with dahan'
        """
        if self == Where():
            return "every land"
        words = []
        if self.coastal is not None:
            words.append("coastal" if self.coastal else "inland")
        if self.terrains:
            words.append("/".join(t.value for t in self.terrains))
        words.append("lands")
        if self.lands:
            words.append(" ".join(self.lands))
        if self.has:
            words.append("with " + "/".join(self.has))
        if self.card:
            words.append("of the card")
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class Effect:
    kind: str
    amount: int = 0
    piece: str = ""
    count: int = 1
    delta: int = 0
    action: str = ""
    scope: str = ""
    where: Where = Where()

    @property
    def piece_kind(self) -> PieceKind:
        return PieceKind(self.piece)

    def describe(self) -> str:
        where = self.where.describe()
        if self.kind == "fear":
            return f"{self.amount} Fear"
        if self.kind == "defend":
            return f"Defend {self.amount} in {where}"
        if self.kind == "damage":
            return f"{self.amount} Damage in {where}"
        if self.kind == "health":
            return f"{self.piece} Health {self.delta:+d} in {where}"
        if self.kind == "skip":
            return (
                f"skip the next {self.action} card"
                if self.scope == "card"
                else f"skip {self.action} in {where}"
            )
        return f"{self.kind} {self.count} {self.piece} in {where}"


def parse_effect(raw: Any, source: str, path: tuple[str | int, ...]) -> Effect:
    """An effect from JSON, checked field by field."""
    if not isinstance(raw, dict) or raw.get("effect") not in KINDS:
        got = raw.get("effect") if isinstance(raw, dict) else raw
        raise MalformedInputError(
            source, json_path((*path, "effect")), f"unknown effect {got!r}; known: {', '.join(KINDS)}"
        )
    kind = raw["effect"]
    allowed = {"effect", "amount", "piece", "count", "delta", "action", "scope", "where"}
    extra = sorted(set(raw) - allowed)
    if extra:
        raise MalformedInputError(
            source,
            json_path((*path, extra[0])),
            f"unknown field for an effect; allowed: {', '.join(sorted(allowed))}",
        )
    amount = _int(raw, "amount", 0, source, path)
    count = _int(raw, "count", 1, source, path)
    delta = _int(raw, "delta", 0, source, path)
    if kind in ("fear", "defend", "damage") and amount < 1:
        raise MalformedInputError(
            source, json_path((*path, "amount")), f"a {kind} effect needs an amount of at least 1"
        )
    if count < 1:
        raise MalformedInputError(source, json_path((*path, "count")), "count must be at least 1")
    for key in ("piece", "action", "scope"):
        if not isinstance(raw.get(key, ""), str):
            raise MalformedInputError(source, json_path((*path, key)), "must be a name (a string)")
    piece = raw.get("piece", "")
    if kind in _PIECES and piece not in _PIECES[kind]:
        raise MalformedInputError(
            source,
            json_path((*path, "piece")),
            f"a {kind} effect takes piece {', '.join(_PIECES[kind])}; got {piece!r}",
        )
    if kind == "health" and delta == 0:
        raise MalformedInputError(
            source, json_path((*path, "delta")), "a health effect needs a non-zero delta"
        )
    action, scope = raw.get("action", ""), raw.get("scope", "")
    if kind == "skip":
        if action not in ACTIONS:
            raise MalformedInputError(
                source,
                json_path((*path, "action")),
                f"skip action is one of {', '.join(ACTIONS)}; got {action!r}",
            )
        if scope not in ("card", "lands"):
            raise MalformedInputError(
                source, json_path((*path, "scope")), f"skip scope is 'card' or 'lands'; got {scope!r}"
            )
    where = parse_where(raw.get("where", {}), source, (*path, "where"))
    return Effect(kind, amount, piece, count, delta, action, scope, where)


def _int(raw: dict[str, Any], key: str, default: int, source: str, path: tuple[str | int, ...]) -> int:
    value = raw.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedInputError(source, json_path((*path, key)), f"must be an integer, got {value!r}")
    return value


def parse_where(raw: Any, source: str, path: tuple[str | int, ...]) -> Where:
    if not isinstance(raw, dict):
        raise MalformedInputError(source, json_path(path), "'where' is an object")
    allowed = {"terrain", "coastal", "has", "lands", "card"}
    extra = sorted(set(raw) - allowed)
    if extra:
        raise MalformedInputError(
            source, json_path((*path, extra[0])), f"unknown field; allowed: {', '.join(sorted(allowed))}"
        )
    for key in ("terrain", "has", "lands"):
        names = raw.get(key, [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise MalformedInputError(source, json_path((*path, key)), "a list of names")
    if not isinstance(raw.get("card", False), bool):
        raise MalformedInputError(source, json_path((*path, "card")), "must be true or false")
    terrains = []
    for i, name in enumerate(raw.get("terrain", [])):
        try:
            terrains.append(Terrain(name))
        except ValueError:
            raise MalformedInputError(
                source,
                json_path((*path, "terrain", i)),
                f"unknown terrain {name!r}; known: {', '.join(t.value for t in Terrain)}",
            ) from None
    for i, word in enumerate(raw.get("has", [])):
        if word not in HAS_WORDS:
            raise MalformedInputError(
                source, json_path((*path, "has", i)), f"unknown piece {word!r}; known: {', '.join(HAS_WORDS)}"
            )
    coastal = raw.get("coastal")
    if coastal is not None and not isinstance(coastal, bool):
        raise MalformedInputError(source, json_path((*path, "coastal")), "must be true or false")
    return Where(
        tuple(terrains),
        coastal,
        tuple(raw.get("has", [])),
        tuple(raw.get("lands", [])),
        bool(raw.get("card", False)),
    )


def parse_effects(raw: Any, source: str, path: tuple[str | int, ...]) -> tuple[Effect, ...]:
    if not isinstance(raw, list):
        raise MalformedInputError(source, json_path(path), "a list of effects")
    return tuple(parse_effect(e, source, (*path, i)) for i, e in enumerate(raw))

"""Events as the suite publishes them: structured compared fields, prose in ``text``.

The oracle's events carry a few prose values (``cause: "destroyed in A5"``, ``reason: "game
over"``). The suite compares structured values only: :func:`structured` turns each prose field
into codes and ids (``cause: "destroyed", land: "A5"``) and keeps the prose, for people, in the
event's ``text`` field, which is never compared (:func:`compared`). Every event kind of a game has
a JSON Schema (:func:`event_schema`, ``invasion schema events-GAME``), inferred from every event
the suite's cases hold, with the meaning of each kind and field.

>>> structured("spirit-island", {"event": "fear_generated", "fear": 1, "cause": "destroyed in A5"})
{'event': 'fear_generated', 'fear': 1, 'cause': 'destroyed', 'cause_land': 'A5', 'text': 'cause: destroyed in A5'}
>>> compared({"event": "x", "n": 1, "text": "anything"})
{'event': 'x', 'n': 1}
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from importlib.resources import files
from typing import Any

_TABLES = tomllib.loads(files("invasion_oracle.reports.suite").joinpath("events.toml").read_text("utf-8"))

PROSE_FIELDS: tuple[str, ...] = tuple(_TABLES["prose_fields"])
"""Fields whose values may be prose: parsed into codes and ids, the prose kept in ``text``."""

RESOURCE_FIELDS = ("paid", "gained")  # Vul'Keth's "2F 1W 2S" resource notation
RESOURCE = {"F": "food", "W": "wood", "S": "stone"}

PATTERNS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(row["prose"]), row["code"], row.get("id_field", "")) for row in _TABLES["pattern"]
)
"""(pattern, code, the field the captured id goes to), first match wins: ``events.toml``."""
SACRIFICE = re.compile(r"^(.+) \(at the same moment as a loss: (.+); a sacrifice victory\)$")
"""Spirit Island's win at the moment of a loss: ``sacrifice-victory`` with the win's and the loss's
codes (``reason_win``, ``reason_loss``) and their ids."""

ROMAN = {"I": 1, "II": 2, "III": 3}


def slug(text: str) -> str:
    """A prose value as a code: lower case words joined by ``-``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "none"


def _resources(text: str) -> dict[str, int] | None:
    found = [re.fullmatch(r"(\d+)([FWS])", part) for part in text.split()]
    return {RESOURCE[f[2]]: int(f[1]) for f in found if f} if all(found) else None


def _parse(field: str, text: str) -> dict[str, Any]:
    sacrifice = SACRIFICE.match(text) if field == "reason" else None
    if sacrifice is not None:
        win = _parse("reason_win", sacrifice.group(1))
        loss = _parse("reason_loss", sacrifice.group(2))
        ids = {
            f"{field}_{k.split('_', 2)[2]}": v for k, v in (*win.items(), *loss.items()) if k.count("_") > 1
        }
        return {
            field: "sacrifice-victory",
            "reason_win": win["reason_win"],
            "reason_loss": loss["reason_loss"],
            **ids,
        }
    for pattern, code, key in PATTERNS:
        found = pattern.match(text)
        if found is None:
            continue
        if not key:
            return {field: code}
        value = found[1]
        return {
            field: code,
            f"{field}_{key}": ROMAN.get(value) or (int(value) if value.isdigit() else value),
        }
    return {field: slug(text)}


def structured(game: str, event: Mapping[str, Any]) -> dict[str, Any]:
    """``event`` (an oracle event as JSON) with its prose fields made structured."""
    out: dict[str, Any] = {}
    prose: list[str] = []
    for key, value in event.items():
        if key in PROSE_FIELDS and isinstance(value, str) and (" " in value or value[:1].isupper()):
            for k, v in _parse(key, value).items():
                out.setdefault(k, v)
            prose.append(f"{key}: {value}")
        else:
            resources = _resources(value) if key in RESOURCE_FIELDS and isinstance(value, str) else None
            out[key] = value if resources is None else resources
    if prose:
        out["text"] = "; ".join(prose)
    return out


def coded_result(game: str, result: Mapping[str, Any]) -> dict[str, Any]:
    """A game's result document (``{"result", "reason", ...}``) with its reason as a code and ids,
    without the prose (``outcome``'s ``result`` and the ``result`` projections).

    >>> coded_result("spirit-island", {"result": "loss", "reason": "Shadows has no Presence left on the island", "turn": 2})
    {'result': 'loss', 'reason': 'no-presence', 'reason_spirit': 'Shadows', 'turn': 2}
    """
    out = structured(game, result)
    out.pop("text", None)
    return out


def compared(event: Any) -> Any:
    """What of an event is compared: everything but ``text``."""
    if isinstance(event, dict):
        return {k: v for k, v in event.items() if k != "text"}
    return event


# -- schemas -----------------------------------------------------------------------------------------

MEANINGS: dict[str, str] = dict(_TABLES["meanings"])  # events.toml: the schemas' field descriptions


def _type(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return "null" if value is None else "boolean"
    names = ((int, "integer"), (str, "string"), (list, "array"))
    return next((name for kind, name in names if isinstance(value, kind)), "object")


def event_schema(game: str, title: str, events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The JSON Schema of ``game``'s events: one definition per kind, its fields and their types as
    every event of the suite shows them (a field absent from some events of a kind is optional)."""
    kinds: dict[str, list[Mapping[str, Any]]] = {}
    for event in events:
        kinds.setdefault(str(event["event"]), []).append(event)
    defs: dict[str, Any] = {}
    for kind, seen in sorted(kinds.items()):
        types: dict[str, set[str]] = {}
        for event in seen:
            for key, value in event.items():
                types.setdefault(key, set()).add(_type(value))
        properties: dict[str, Any] = {"event": {"const": kind}}
        for key in sorted(types.keys() - {"event"}):
            listed = sorted(types[key])
            properties[key] = {"type": listed[0] if len(listed) == 1 else listed}
            if key in MEANINGS:
                properties[key]["description"] = MEANINGS[key]
        properties.setdefault("text", {"type": "string", "description": MEANINGS["text"]})
        always = sorted(key for key in types if key != "text" and all(key in event for event in seen))
        defs[kind] = {
            "type": "object",
            "description": f"{kind.replace('_', ' ')} (fields as every case of the suite shows them)",
            "additionalProperties": False,
            "required": ["event", *(key for key in always if key != "event")],
            "properties": properties,
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://invasion-oracle.example/schemas/events-{game}.schema.json",
        "title": f"{title}: the events a case compares",
        "description": "One event of a step: `event` names its kind; every other field but `text` is "
        "compared. Published by `invasion schema events-" + game + "`; docs/fixtures.md, Events.",
        "type": "object",
        "required": ["event"],
        "properties": {"event": {"enum": sorted(kinds)}},
        "oneOf": [{"$ref": f"#/$defs/{kind}"} for kind in sorted(kinds)],
        "$defs": defs,
    }

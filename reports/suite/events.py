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
from collections.abc import Iterable, Mapping
from typing import Any

PROSE_FIELDS = ("cause", "reason", "origin", "effect", "by", "goal", "to")
"""Fields whose values may be prose: parsed into codes and ids, the prose kept in ``text``."""

RESOURCE_FIELDS = ("paid", "gained")  # Vul'Keth's "2F 1W 2S" resource notation
RESOURCE = {"F": "food", "W": "wood", "S": "stone"}

# (pattern, code, the field the captured id goes to)
PATTERNS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(p), code, key)
    for p, code, key in (
        (r"^destroyed in (\S+)$", "destroyed", "land"),
        (r"^cascade from (\S+)$", "cascade", "land"),
        (r"^Fear card (.+)$", "fear-card", "card"),
        (r"^Blight card (.+) \(flip\)$", "blight-card-flip", "card"),
        (r"^Event (.+)$", "event-card", "card"),
        (r"^Escalation \((.+)\)$", "escalation", "adversary"),
        (r"^Invader Event (.+)$", "invader-event", "card"),
        (r"^reward of card (\S+)$", "reward", "card"),
        (r"^overrun reserve \(card (\S+)\)$", "overrun-reserve", "card"),
        (r"^card (\S+)$", "card", "card"),
        (r"^reward of (\S+)$", "reward", "card"),
        (r"^Terror Level (I|II|III): .+$", "terror-level", "terror_level"),
        (r"^(\S+) has no Presence left on the island$", "no-presence", "spirit"),
        (r"^the Invader summoned Warlord (\d+)$", "warlord-summoned", "warlord"),
        (r"^the player reached (\d+) points$", "points-reached", "points"),
        (r"^Invaders in hex (\d+)$", "invaders-in-hex", "hex"),
        (r"^at least (\d+) Invaders on the map$", "invaders-on-map", "count"),
        # how a game ends (``docs/fixtures.md``, "Reason codes"): exact texts, no id
        (r"^every Fear card earned \(Terror Level: Victory\)$", "every-fear-card-earned", ""),
        (r"^the Blight card ran out$", "blight-ran-out", ""),
        (r"^time ran out: no Invader card left to Explore with$", "time-ran-out", ""),
        (r"^the script has no more player turns$", "script-ended", ""),
        (r"^the hero's Health is below 1$", "hero-defeated", ""),
        (
            r"^every enemy, the boss included, is defeated and the Deployment Stack is empty$",
            "all-defeated",
            "",
        ),
        (r"^the scenario's rounds are played$", "rounds-played", ""),
    )
)
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

MEANINGS: dict[str, str] = {
    "cause": "what set the event off, as a code (the prose is in `text`)",
    "cause_land": "the land the cause happened in (`destroyed`, `cascade`)",
    "cause_card": "the card that is the cause",
    "reason": "why, as a code (the prose is in `text`)",
    "origin": "where the effect comes from, as a code",
    "effect": "the effect, as a code",
    "land": "a land name (Spirit Island: board letter and number)",
    "card": "a card id or name",
    "hex": "a hex number",
    "text": "prose for people: never compared",
    "player": "a player's name",
    "fear": "Fear generated",
    "count": "a count",
}


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

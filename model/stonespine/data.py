"""Game data with provenance: hero cards, guardian boards, dice, trophies, demerits, numbers.

The bundled file ``data/stonespine.json`` holds every value the oracle uses, each marked
``seed``, ``derived`` or ``assumed``. Rulings ``SS-DICE-FACES``, ``SS-TROPHY-VALUES`` and
``SS-DEMERIT-VALUES`` pick among bundled alternatives; a user data file (``--data FILE`` or a
scenario's ``data`` field) overrides any of it, and overridden values are marked ``user``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from model.core.errors import MalformedInputError
from model.core.jsonio import json_path, load_schema, validate
from model.core.provenance import Provenance, Sourced
from model.core.rulings import Rulings, resolve_name
from model.stonespine.guardians import IMPLEMENTED_ABILITIES, GuardianBoard, SpaceKind, TrackSpace
from model.stonespine.heroes import (
    ABILITY_COLOR,
    KNOWN_TAGS,
    AbilityType,
    HeroAbility,
    HeroCard,
    HeroColor,
)

Face = tuple[HeroColor, ...]


def face_label(face: Face) -> str:
    """``()`` -> ``blank``; ``(BLACK, RED)`` -> ``black+red``."""
    return "+".join(c.value for c in face) or "blank"


def parse_face(text: str) -> Face:
    """The colours a die face shows.

    >>> parse_face("black+red")
    (<HeroColor.BLACK: 'black'>, <HeroColor.RED: 'red'>)
    """
    if text == "blank":
        return ()
    try:
        return tuple(HeroColor(part) for part in text.split("+"))
    except ValueError:
        raise ValueError(
            f"a die face is 'blank' or colours joined by '+', like 'black+red'; got {text!r}"
        ) from None


@dataclass(frozen=True, slots=True)
class Die:
    """An invasion die: ``faces`` in printed order (a repeated face is more likely)."""

    name: str
    faces: tuple[Face, ...]
    provenance: Provenance = Provenance.ASSUMED

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(face_label(f) for f in self.faces)


@dataclass(frozen=True, slots=True)
class GameData:
    """Everything numeric or card-based the rules need, with provenance."""

    heroes: tuple[HeroCard, ...]
    guardians: tuple[GuardianBoard, ...]
    values: tuple[tuple[str, Sourced[Any]], ...]
    dice: tuple[Die, ...]
    trophies: Sourced[tuple[int, ...]]
    demerits: Sourced[tuple[int, ...]]

    def hero(self, name: str, *, source: str = "data", path: str = "$") -> HeroCard:
        resolved = resolve_name(name, [h.name for h in self.heroes], "hero card", source, path)
        return next(h for h in self.heroes if h.name == resolved)

    def guardian(self, name: str, *, source: str = "data", path: str = "$") -> GuardianBoard:
        resolved = resolve_name(name, [g.name for g in self.guardians], "guardian board", source, path)
        return next(g for g in self.guardians if g.name == resolved)

    def value(self, key: str) -> Any:
        return dict(self.values)[key].value

    def die(self, name: str) -> Die:
        return next(d for d in self.dice if d.name == name)

    def trophy_value(self, year: int) -> int:
        return self.trophies.value[year - 1]

    def demerit_value(self, year: int) -> int:
        return self.demerits.value[year - 1]

    def to_json(self) -> dict[str, Any]:
        return {
            "heroes": [h.to_json() for h in self.heroes],
            "guardians": [g.to_json() for g in self.guardians],
            "values": {k: v.to_json() for k, v in self.values},
            "dice": {d.name: {"faces": list(d.labels), "provenance": d.provenance.value} for d in self.dice},
            "trophies": self.trophies.to_json(),
            "demerits": self.demerits.to_json(),
        }


@cache
def _bundled() -> dict[str, Any]:
    text = resources.files("model.stonespine").joinpath("data/stonespine.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _provenance_map(
    raw: dict[str, Any], fields: tuple[str, ...], user: bool
) -> tuple[tuple[str, Provenance], ...]:
    """User data is ``user`` throughout; bundled data says per field where it comes from."""
    if user:
        return tuple((f, Provenance.USER) for f in fields)
    return tuple(sorted((k, Provenance(v)) for k, v in raw.get("provenance", {}).items()))


def parse_hero(raw: dict[str, Any], source: str, path: tuple[str | int, ...], user: bool) -> HeroCard:
    ability_raw = raw["ability"]
    ability = HeroAbility(
        AbilityType(ability_raw["type"]),
        frozenset(ability_raw.get("matches", ())),
        int(ability_raw.get("amount", 0)),
    )
    unknown = ability.matches - KNOWN_TAGS
    if unknown:
        raise MalformedInputError(
            source,
            json_path((*path, "ability", "matches")),
            f"unknown tag(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(KNOWN_TAGS))}",
        )
    color = HeroColor(raw["color"])
    expected = ABILITY_COLOR.get(ability.type)
    if expected is not None and expected is not color:
        raise MalformedInputError(
            source,
            json_path((*path, "ability", "type")),
            f"a {ability.type.value} ability belongs to a {expected.value} hero, not {color.value}",
        )
    provenance = _provenance_map(raw, ("name", "color", "health", "ability"), user)
    return HeroCard(raw["name"], color, int(raw["health"]), ability, provenance, raw.get("source", ""))


def parse_guardian(
    raw: dict[str, Any], source: str, path: tuple[str | int, ...], user: bool
) -> GuardianBoard:
    tracks: list[tuple[TrackSpace, ...]] = []
    for t, track in enumerate(raw["tracks"]):
        spaces = []
        for s, text in enumerate(track):
            try:
                spaces.append(TrackSpace.parse(text))
            except ValueError as err:
                raise MalformedInputError(source, json_path((*path, "tracks", t, s)), str(err)) from None
        if spaces[0].kind is not SpaceKind.START or any(sp.kind is SpaceKind.START for sp in spaces[1:]):
            raise MalformedInputError(
                source, json_path((*path, "tracks", t)), "a track starts with 'start' and has it only once"
            )
        tracks.append(tuple(spaces))
    unlockables = tuple(sorted(raw.get("unlockables", {}).items()))
    abilities = [
        *raw.get("ongoing", []),
        *([raw["instant"]] if raw.get("instant") else []),
        *(a for _, a in unlockables),
    ]
    for ability in abilities:
        if ability not in IMPLEMENTED_ABILITIES:
            raise MalformedInputError(
                source,
                json_path(path),
                f"ability {ability!r} is not implemented; known: {', '.join(sorted(IMPLEMENTED_ABILITIES))}",
            )
    letters = {sp.letter for t in tracks for sp in t if sp.kind is SpaceKind.UNLOCK}
    missing = letters - {k for k, _ in unlockables}
    if missing:
        raise MalformedInputError(
            source,
            json_path((*path, "unlockables")),
            f"no ability for unlock letter(s) {', '.join(sorted(missing))}",
        )
    minion_spaces = sum(1 for t in tracks for sp in t if sp.kind is SpaceKind.MINION)
    if minion_spaces != raw["minions"]:
        raise MalformedInputError(
            source,
            json_path((*path, "minions")),
            f"the board has {raw['minions']} minions but {minion_spaces} minion spaces on its tracks",
        )
    provenance = _provenance_map(raw, ("name", "abilities", "tracks", "bonus", "figures"), user)
    low, high = raw["bonus"]
    return GuardianBoard(
        raw["name"],
        raw["family"],
        int(raw["figures"]),
        int(raw["minions"]),
        (tracks[0], tracks[1]),
        frozenset(raw.get("ongoing", [])),
        raw.get("instant"),
        unlockables,
        (int(low), int(high)),
        int(raw.get("passage_tokens", 0)),
        provenance,
        raw.get("source", ""),
    )


def build_game_data(
    rulings: Rulings, overrides: dict[str, Any] | None = None, source: str = "data"
) -> GameData:
    """The data in force for ``rulings``, with a user data document applied on top."""
    base = _bundled()
    heroes = {
        h["name"]: parse_hero(h, "bundled data", ("heroes", i), False) for i, h in enumerate(base["heroes"])
    }
    guardians = {
        g["name"]: parse_guardian(g, "bundled data", ("guardians", i), False)
        for i, g in enumerate(base["guardians"])
    }
    values: dict[str, Sourced[Any]] = {
        k: Sourced(_freeze(v["value"]), Provenance(v["provenance"]), v["source"])
        for k, v in base["values"].items()
    }
    dice_reading = rulings.reading("SS-DICE-FACES")
    dice = {
        name: Die(name, tuple(parse_face(f) for f in faces), Provenance.ASSUMED)
        for name, faces in base["dice"][dice_reading].items()
    }
    trophy_reading = rulings.reading("SS-TROPHY-VALUES")
    trophies: Sourced[tuple[int, ...]] = Sourced(
        tuple(base["trophies"][trophy_reading]),
        Provenance.ASSUMED,
        f"ruling SS-TROPHY-VALUES={trophy_reading}",
    )
    demerit_reading = rulings.reading("SS-DEMERIT-VALUES")
    demerits: Sourced[tuple[int, ...]] = Sourced(
        tuple(base["demerits"][demerit_reading]),
        Provenance.ASSUMED,
        f"ruling SS-DEMERIT-VALUES={demerit_reading}",
    )
    if overrides:
        validate(overrides, load_schema("model.stonespine", "data.schema.json"), source)
        for i, raw in enumerate(overrides.get("heroes", [])):
            heroes[raw["name"]] = parse_hero(raw, source, ("heroes", i), True)
        for i, raw in enumerate(overrides.get("guardians", [])):
            guardians[raw["name"]] = parse_guardian(raw, source, ("guardians", i), True)
        for key, value in overrides.get("values", {}).items():
            if key not in values:
                raise MalformedInputError(
                    source, json_path(("values", key)), f"unknown value; known: {', '.join(sorted(values))}"
                )
            values[key] = values[key].overridden(_freeze(value), source)
        for name, faces in overrides.get("dice", {}).items():
            parsed = []
            for i, text in enumerate(faces):
                try:
                    parsed.append(parse_face(text))
                except ValueError as err:
                    raise MalformedInputError(source, json_path(("dice", name, i)), str(err)) from None
            dice[name] = Die(name, tuple(parsed), Provenance.USER)
        if "trophies" in overrides:
            trophies = trophies.overridden(tuple(overrides["trophies"]), source)
        if "demerits" in overrides:
            demerits = demerits.overridden(tuple(overrides["demerits"]), source)
    return GameData(
        tuple(heroes.values()),
        tuple(guardians.values()),
        tuple(sorted(values.items())),
        tuple(dice[n] for n in sorted(dice)),
        trophies,
        demerits,
    )


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@cache
def default_data(rulings: Rulings) -> GameData:
    return build_game_data(rulings)

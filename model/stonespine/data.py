"""Game data with provenance: hero cards, guardian boards and abilities, dice, trophies, numbers.

The bundled file ``data/stonespine.json`` holds every value the oracle uses, each marked
``seed``, ``derived`` or ``assumed``. Rulings ``SS-DICE-FACES``, ``SS-TROPHY-VALUES`` and
``SS-DEMERIT-VALUES`` pick among bundled alternatives; a user data file (``--data FILE`` or a
scenario's ``data`` field) overrides any of it, and overridden values are marked ``user``.

Guardian abilities are written in the vocabulary of :mod:`invasion_oracle.model.stonespine.abilities`. A data
file can define abilities under ``abilities`` (an ability with the id of a bundled one replaces
it on every board that names it, which is how an ability the seed does not give is supplied)
and boards under ``guardians`` (naming abilities by id or giving them inline).

A data document is checked as a whole before anything reaches the rules: the schema (whole
numbers only, lists long enough for every year, no negative damage or costs), then what a
schema cannot say (names that exist, track spaces matching the abilities); every error reads
``file:json.path: reason`` with the path counted from the top of the file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import json_path, load_schema
from invasion_oracle.model.core.overrides import (
    Collection,
    DataInForce,
    OverrideSpec,
    expand,
    in_force,
    in_force_untracked,
    located,
)
from invasion_oracle.model.core.provenance import Provenance, Sourced
from invasion_oracle.model.core.reads import register_game_data, tracked, untracked
from invasion_oracle.model.core.rulings import Rulings, resolve_name
from invasion_oracle.model.stonespine.abilities import (
    Ability,
    AbilityLibrary,
    Slot,
    check_slot,
    parse_ability,
)
from invasion_oracle.model.stonespine.guardians import GuardianBoard, SpaceKind, TrackSpace
from invasion_oracle.model.stonespine.heroes import (
    ABILITY_COLOR,
    KNOWN_TAGS,
    AbilityType,
    HeroAbility,
    HeroCard,
    HeroColor,
)
from invasion_oracle.model.stonespine.inputs import check_document

Face = tuple[HeroColor, ...]
Path = tuple[str | int, ...]
BUNDLED = "model/stonespine/data/stonespine.json"
OVERRIDES = OverrideSpec(
    "stonespine",
    (
        Collection(("heroes",), "name", what="hero card"),
        Collection(("abilities",), "id", what="guardian ability"),
        Collection(("guardians",), "name", what="guardian board"),
        Collection(("values",), merge=False, what="value"),
        Collection(("dice",), bundled=("dice", "two-per-colour"), merge=False, what="die"),
    ),
)
"""What a partial override (``"extends": "bundled"``) names by id (model/core/overrides.py)."""


def face_label(face: Face) -> str:
    """``()`` -> ``blank``; ``(BLACK, RED)`` -> ``black+red``."""
    return "+".join(face) or "blank"  # a colour is a str (StrEnum): its text, no ``.value`` look-up


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
    abilities: tuple[Ability, ...] = ()

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

    def amount(self, amount: int | str) -> int:
        """An ability's amount: a number, or the key of a data value (``hatchlings_extra``)."""
        return amount if isinstance(amount, int) else int(self.value(amount))

    def to_json(self) -> dict[str, Any]:
        return {
            "heroes": [h.to_json() for h in self.heroes],
            "abilities": [a.to_json() for a in self.abilities],
            "guardians": [g.to_json() for g in self.guardians],
            "values": {k: v.to_json() for k, v in self.values},
            "dice": {d.name: {"faces": list(d.labels), "provenance": d.provenance.value} for d in self.dice},
            "trophies": self.trophies.to_json(),
            "demerits": self.demerits.to_json(),
        }


@cache
def _bundled() -> dict[str, Any]:
    text = (
        resources.files("invasion_oracle.model.stonespine")
        .joinpath("data/stonespine.json")
        .read_text("utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


def _provenance_map(
    raw: dict[str, Any], fields: tuple[str, ...], user: bool
) -> tuple[tuple[str, Provenance], ...]:
    """User data is ``user`` throughout; bundled data says per field where it comes from."""
    if user:
        return tuple((f, Provenance.USER) for f in fields)
    return tuple(sorted((k, Provenance(v)) for k, v in raw.get("provenance", {}).items()))


def parse_hero(raw: dict[str, Any], source: str, path: Path, user: bool) -> HeroCard:
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


def _slot_ability(
    ref: Any,
    slot: Slot,
    library: AbilityLibrary,
    source: str,
    path: Path,
    value_keys: frozenset[str],
    user: bool,
) -> Ability:
    """An ability named by id (from the library) or given inline, checked for its slot."""
    if isinstance(ref, str):
        ability = library.get(ref, source, path)
    else:
        ability = parse_ability(
            ref, source, path, value_keys, "user" if user else ref.get("provenance", "assumed")
        )
    check_slot(ability, slot, source, path)
    return ability


def _parse_track(track: Any, source: str, path: Path) -> tuple[TrackSpace, ...]:
    """One levelling track of a guardian board: its spaces, starting with 'start' (only there)."""
    spaces = []
    for s, text in enumerate(track):
        try:
            spaces.append(TrackSpace.parse(text))
        except ValueError as err:
            raise MalformedInputError(source, json_path((*path, s)), str(err)) from None
    if spaces[0].kind is not SpaceKind.START or any(sp.kind is SpaceKind.START for sp in spaces[1:]):
        raise MalformedInputError(source, json_path(path), "a track starts with 'start' and has it only once")
    return tuple(spaces)


def parse_guardian(
    raw: dict[str, Any],
    source: str,
    path: Path,
    user: bool,
    library: AbilityLibrary | None = None,
    value_keys: frozenset[str] = frozenset(),
) -> GuardianBoard:
    library = library or bundled_library()
    value_keys = value_keys or frozenset(_bundled()["values"])
    tracks: list[tuple[TrackSpace, ...]] = []
    for t, track in enumerate(raw["tracks"]):
        tracks.append(_parse_track(track, source, (*path, "tracks", t)))
    ongoing = [
        _slot_ability(ref, Slot.ONGOING, library, source, (*path, "ongoing", i), value_keys, user)
        for i, ref in enumerate(raw.get("ongoing", []))
    ]
    instant_raw = raw.get("instant")
    instant = (
        _slot_ability(instant_raw, Slot.INSTANT, library, source, (*path, "instant"), value_keys, user)
        if instant_raw is not None
        else None
    )
    unlockables = [
        (
            letter,
            _slot_ability(
                ref, Slot.UNLOCKABLE, library, source, (*path, "unlockables", letter), value_keys, user
            ),
        )
        for letter, ref in sorted(raw.get("unlockables", {}).items())
    ]
    letters = {sp.letter for t in tracks for sp in t if sp.kind is SpaceKind.UNLOCK}
    missing = letters - {k for k, _ in unlockables}
    if missing:
        raise MalformedInputError(
            source,
            json_path((*path, "unlockables")),
            f"no ability for unlock letter(s) {', '.join(sorted(missing))}",
        )
    unused = {k for k, _ in unlockables} - letters
    if unused:
        raise MalformedInputError(
            source,
            json_path((*path, "unlockables", sorted(unused)[0])),
            "no track space unlocks this letter; add unlock:" + sorted(unused)[0] + " to a track",
        )
    if instant is None and any(sp.kind is SpaceKind.INSTANT for t in tracks for sp in t):
        raise MalformedInputError(
            source,
            json_path((*path, "instant")),
            'the tracks have instant spaces but the board has no instant ability; give one (or {"id": ..., '
            '"unknown": true} if it is not known)',
        )
    minion_spaces = sum(1 for t in tracks for sp in t if sp.kind is SpaceKind.MINION)
    if minion_spaces != raw["minions"]:
        raise MalformedInputError(
            source,
            json_path((*path, "minions")),
            f"the board has {raw['minions']} minions but {minion_spaces} minion spaces on its tracks",
        )
    every = [*ongoing, *([instant] if instant else []), *(a for _, a in unlockables)]
    ids = [a.id for a in every]
    for i, aid in enumerate(ids):
        if ids.index(aid) != i:
            raise MalformedInputError(
                source, json_path(path), f"ability {aid!r} sits in two slots of one board"
            )
    provenance = _provenance_map(raw, ("name", "abilities", "tracks", "bonus", "figures"), user)
    low, high = raw["bonus"]
    return GuardianBoard(
        raw["name"],
        raw["family"],
        int(raw["figures"]),
        int(raw["minions"]),
        (tracks[0], tracks[1]),
        frozenset(a.id for a in ongoing),
        instant.id if instant else None,
        tuple((letter, a.id) for letter, a in unlockables),
        (int(low), int(high)),
        int(raw.get("passage_tokens", 0)),
        provenance,
        raw.get("source", ""),
        tuple(every),
        (source, json_path(path)),
    )


@cache
def bundled_library() -> AbilityLibrary:
    base = _bundled()
    keys = frozenset(base["values"])
    return AbilityLibrary(
        {
            a["id"]: parse_ability(a, BUNDLED, ("abilities", i), keys, a.get("provenance", "assumed"))
            for i, a in enumerate(base["abilities"])
        }
    )


@dataclass(frozen=True, slots=True)
class DataLayer:
    """One data document applied over the bundled data: where it is and where it sits in its file."""

    document: Any
    source: str
    path: Path = ()


def build_game_data(
    rulings: Rulings, overrides: dict[str, Any] | None = None, source: str = "data", path: Path = ()
) -> GameData:
    """The data in force for ``rulings``, with a user data document applied on top."""
    layers = [DataLayer(overrides, source, path)] if overrides else []
    return build_layered(rulings, layers)


def build_layered(rulings: Rulings, layers: Sequence[DataLayer]) -> GameData:
    """Bundled data, then the data in force (:func:`invasion_oracle.model.core.overrides.in_force`),
    then each layer in turn (a later layer wins value by value). A layer in the override form is
    expanded first; errors about its records name its own places. Without layers: the data in
    force alone, :func:`default_data` (built once per data, its reads recorded field by field)."""
    if not layers:
        return default_data(rulings)
    return _build_over(rulings, layers, in_force(OVERRIDES.game))


def _build_over(rulings: Rulings, layers: Sequence[DataLayer], ambient: DataInForce | None) -> GameData:
    every = [*([DataLayer(ambient.document, ambient.source)] if ambient else []), *layers]
    key = _layered_key(rulings, every)
    found = _LAYERED.get(key) if key is not None else None
    if found is not None:
        return found
    data = _checked_layers(rulings, every)
    if key is not None:
        if len(_LAYERED) >= 64:
            _LAYERED.clear()
        _LAYERED[key] = data
    return data


_SOURCED = ("values", "trophies", "demerits")  # what a layer gives that keeps its file's name
_LAYERED: dict[tuple[Any, ...], GameData] = {}


def _layered_key(rulings: Rulings, layers: Sequence[DataLayer]) -> tuple[Any, ...] | None:
    """What :func:`build_layered` gives depends on: the rulings and each layer's text and place
    (its file's name too when the data keeps it: overridden values name it). ``None``: a layer
    that is not JSON (it is refused, never remembered). A run of generated scenarios meets the
    same few data documents again and again, each in another case file."""
    parts: list[Any] = [rulings.game, rulings.choices]
    for layer in layers:
        try:
            text = json.dumps(layer.document, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError):
            return None
        named = isinstance(layer.document, dict) and any(k in layer.document for k in _SOURCED)
        parts.append((text, layer.path, layer.source if named else ""))
    return tuple(parts)


def _checked_layers(rulings: Rulings, every: Sequence[DataLayer]) -> GameData:
    schema = load_schema("invasion_oracle.model.stonespine", "data.schema.json")
    with contextlib.ExitStack() as stack:
        full = []
        for layer in every:
            if not isinstance(layer.document, dict):
                raise MalformedInputError(
                    layer.source, json_path(layer.path), "a data document is a JSON object"
                )
            expanded = expand(layer.document, _bundled(), OVERRIDES, schema, layer.source, layer.path)
            stack.enter_context(located(expanded, layer.source))
            full.append(DataLayer(expanded.document, layer.source, layer.path))
        return _build_layered(rulings, full)


def _build_layered(rulings: Rulings, layers: Sequence[DataLayer]) -> GameData:
    base = _bundled()
    value_keys = frozenset(base["values"])
    heroes = dict(_bundled_heroes())
    library = dict(bundled_library().abilities)
    redefined: set[str] = set()
    # Boards are resolved last, so a layer's ability replaces the bundled one on every board.
    boards: dict[str, tuple[dict[str, Any], str, Path, bool]] = {
        g["name"]: (g, BUNDLED, ("guardians", i), False) for i, g in enumerate(base["guardians"])
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
    for layer in layers:
        doc, source, at = layer.document, layer.source, layer.path
        check_data_document(doc, source, at, value_keys)
        for i, raw in enumerate(doc.get("heroes", [])):
            heroes[raw["name"]] = parse_hero(raw, source, (*at, "heroes", i), True)
        for i, raw in enumerate(doc.get("abilities", [])):
            library[raw["id"]] = parse_ability(raw, source, (*at, "abilities", i), value_keys, "user")
            redefined.add(raw["id"])
        for i, raw in enumerate(doc.get("guardians", [])):
            boards[raw["name"]] = (raw, source, (*at, "guardians", i), True)
        for key, value in doc.get("values", {}).items():
            values[key] = values[key].overridden(_freeze(value), source)
        for name, faces in doc.get("dice", {}).items():
            dice[name] = Die(name, tuple(parse_face(text) for text in faces), Provenance.USER)
        if "trophies" in doc:
            trophies = trophies.overridden(tuple(doc["trophies"]), source)
        if "demerits" in doc:
            demerits = demerits.overridden(tuple(doc["demerits"]), source)
    lib = AbilityLibrary(library)
    bundled_boards = _bundled_boards()
    guardians = {
        name: (
            bundled_boards[name]
            if not user and not redefined & _referenced(raw)
            else parse_guardian(raw, source, at, user, lib, value_keys)
        )
        for name, (raw, source, at, user) in boards.items()
    }
    return GameData(
        tuple(heroes.values()),
        tuple(guardians.values()),
        tuple(sorted(values.items())),
        tuple(dice[n] for n in sorted(dice)),
        trophies,
        demerits,
        tuple(library[k] for k in sorted(library)),
    )


@cache
def _bundled_heroes() -> tuple[tuple[str, HeroCard], ...]:
    return tuple(
        (h["name"], parse_hero(h, BUNDLED, ("heroes", i), False)) for i, h in enumerate(_bundled()["heroes"])
    )


@cache
def _bundled_boards() -> dict[str, GuardianBoard]:
    return {
        g["name"]: parse_guardian(g, BUNDLED, ("guardians", i), False)
        for i, g in enumerate(_bundled()["guardians"])
    }


def _referenced(raw: dict[str, Any]) -> set[str]:
    """Ability ids a board's data names (not inline definitions)."""
    refs = [*raw.get("ongoing", []), raw.get("instant"), *raw.get("unlockables", {}).values()]
    return {r for r in refs if isinstance(r, str)}


def check_data_document(doc: Any, source: str, at: Path, value_keys: frozenset[str]) -> None:
    """Everything about one data document that does not need the other layers.

    A document found good once is not checked again (by its text: the schema's check is most of
    a small scenario's load, and a run of generated scenarios meets the same data again and
    again); only a good one is remembered, so every error still names its own file."""
    if not isinstance(doc, dict):
        raise MalformedInputError(source, json_path(at), "a data document is a JSON object")
    key = (json.dumps(doc, sort_keys=True), at, value_keys)
    if key in _GOOD_DATA:
        return
    _check_data_document(doc, source, at, value_keys)
    if len(_GOOD_DATA) >= _GOOD_DATA_KEPT:
        _GOOD_DATA.clear()
    _GOOD_DATA.add(key)


_GOOD_DATA: set[tuple[str, Path, frozenset[str]]] = set()
_GOOD_DATA_KEPT = 256


def _check_data_document(doc: dict[str, Any], source: str, at: Path, value_keys: frozenset[str]) -> None:
    values = doc.get("values")
    if isinstance(values, dict):
        for key in values:
            if key not in value_keys:
                raise MalformedInputError(
                    source,
                    json_path((*at, "values", key)),
                    f"unknown value; known: {', '.join(sorted(value_keys))}",
                )
    check_document(doc, load_schema("invasion_oracle.model.stonespine", "data.schema.json"), source, at)
    for kind, key in (("heroes", "name"), ("guardians", "name"), ("abilities", "id")):
        seen: set[str] = set()
        for i, raw in enumerate(doc.get(kind, [])):
            if raw[key] in seen:
                raise MalformedInputError(
                    source, json_path((*at, kind, i, key)), f"{raw[key]!r} is given twice in this file"
                )
            seen.add(raw[key])
    for i, raw in enumerate(doc.get("abilities", [])):
        parse_ability(raw, source, (*at, "abilities", i), value_keys, "user")


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


DATA_RULINGS = ("SS-DEMERIT-VALUES", "SS-DICE-FACES", "SS-TROPHY-VALUES")
"""The rulings the game data is built under (:func:`_build_layered` reads no other; a test holds
it to that): the data in force under any rulings is the one under these readings alone."""


def data_choices(rulings: Rulings) -> tuple[tuple[str, str], ...]:
    """The readings of :data:`DATA_RULINGS` under ``rulings``, the defaults left out."""
    read = [(rid, rulings.reading(rid)) for rid in DATA_RULINGS]
    return tuple((rid, reading) for rid, reading in read if reading != rulings.registry.get(rid).default)


def default_data(rulings: Rulings) -> GameData:
    """The data in force (the bundled data unless a run set other data)."""
    ambient = in_force_untracked(OVERRIDES.game)
    # keyed on the data's own rulings: one object per data under every combination of the other
    # rulings, so a record is read at a few places, not at one per combination (model/core/reads.py)
    return _default_data(data_choices(rulings), ambient.key if ambient else None)


@cache
def _default_data(choices: tuple[tuple[str, str], ...], key: tuple[str, str] | None) -> GameData:
    rulings = dataclasses.replace(Rulings.defaults(OVERRIDES.game), choices=choices)
    with untracked():  # its fields are recorded as they are read (model/core/reads.py)
        built = _build_over(rulings, [], in_force_untracked(OVERRIDES.game))
    return tracked(built, OVERRIDES.game, choices)


def _data_under(choices: tuple[tuple[str, str], ...]) -> GameData:
    return default_data(dataclasses.replace(Rulings.defaults(OVERRIDES.game), choices=choices))


register_game_data(OVERRIDES.game, GameData, _data_under)

"""Guardian abilities as data: a small vocabulary the seed's abilities are written in.

Seed 000, "Guardian Board" and "Leveling Up Guardians": every board has an ongoing ability
(active from the start), an instant ability (it acts when a level marker reaches a lightning
bolt, N times for a bolt numbered N) and an unlockable ability (active for the rest of the game
once a marker reaches its letter). The slot an ability sits in says *when it triggers*; the
ability itself is a list of *effects*, each saying what it targets and what it does:

=====================  ==========================  ===============================================
effect (``do``)        slot                        what it does
=====================  ==========================  ===============================================
``place-token``        instant                     put ``token`` over an element matching
                                                   ``target`` (or in an empty space: ``empty``)
``reveal-token``       instant                     turn a face-down token matching ``target`` up
``change-type``        any                         elements matching ``target`` also count as
                                                   ``to`` (both types); an instant changes one
``add-damage``         ongoing, unlockable         ``amount`` more damage per thing counted
                                                   (``per``: matching elements, ``minion``, or
                                                   ``chamber``) where a hero is dealt damage
``move-figure``        ongoing, unlockable         after the guardian defeats a hero in a chamber
                                                   matching ``if``, move it to a connected,
                                                   adjacent chamber
``defeat``             ongoing, unlockable         a hero entering a chamber matching ``if`` is
                                                   defeated (as by a guardian)
``open-passage``       any                         instant: put a ``passage`` on a closed edge now;
                                                   ongoing: place the tokens in hand in Preparation
``collapse-passage``   instant                     remove a secret passage token from an edge
``gain-tokens``        instant                     take ``amount`` passage tokens into hand
=====================  ==========================  ===============================================

Filters: a *space filter* ``{"is": [tags], "not": [tags], "empty": bool, "in": "cave"|"stone"}``
picks element spaces (``is``: any of the tags; ``not``: none of them; ``empty``: an empty space
instead of an element; ``in``: the chamber's type); a *chamber filter* ``{"has": [tags], "in":
...}`` picks chambers holding an element (or a ``minion``) with any of the tags. Tags are
element names (``kobold``), types (``monster``, ``trap``, ``rubble``, ``star+``, ``chest``,
``guardian-token``), ``face-down`` and ``KIND-face-down`` (``pact-face-down``).

An ability whose text is not known is written ``{"id": ..., "unknown": true}``; the oracle
refuses a run at the moment such an ability would act (``not modelled; give it in a data
file``), and never skips it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import json_path
from invasion_oracle.model.stonespine.dungeon import ChamberType
from invasion_oracle.model.stonespine.elements import (
    CHANGE_TYPES,
    MONSTERS,
    TRAPS,
    Element,
    ElementKind,
    Space,
    TypeChange,
)
from invasion_oracle.model.stonespine.heroes import HeroColor

Path = tuple[str | int, ...]


class Slot(enum.StrEnum):
    """Where an ability sits on the board, which says when it triggers."""

    ONGOING = "ongoing"
    INSTANT = "instant"
    UNLOCKABLE = "unlockable"


class Do(enum.StrEnum):
    PLACE_TOKEN = "place-token"
    REVEAL_TOKEN = "reveal-token"
    CHANGE_TYPE = "change-type"
    ADD_DAMAGE = "add-damage"
    MOVE_FIGURE = "move-figure"
    DEFEAT = "defeat"
    OPEN_PASSAGE = "open-passage"
    COLLAPSE_PASSAGE = "collapse-passage"
    GAIN_TOKENS = "gain-tokens"


ONE_SHOT = frozenset({Do.PLACE_TOKEN, Do.REVEAL_TOKEN, Do.COLLAPSE_PASSAGE, Do.GAIN_TOKENS})
LASTING = frozenset({Do.ADD_DAMAGE, Do.MOVE_FIGURE, Do.DEFEAT})

_KINDS = [k.value for k in ElementKind if k is not ElementKind.STAR]
ELEMENT_TAGS = frozenset(
    {
        *_KINDS,
        *MONSTERS,
        *TRAPS,
        "monster",
        "trap",
        "star",
        "star+",
        "star-",
        "guardian-token",
        "face-down",
        *(f"{k}-face-down" for k in _KINDS),
    }
)
CHAMBER_TAGS = ELEMENT_TAGS | {"minion"}


def _bad(source: str, path: Path, reason: str) -> MalformedInputError:
    return MalformedInputError(source, json_path(path), reason)


def _tags(raw: Any, known: frozenset[str], source: str, path: Path) -> frozenset[str]:
    tags = frozenset(raw)
    unknown = tags - known
    if unknown:
        raise _bad(
            source, path, f"unknown tag(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}"
        )
    return tags


@dataclass(frozen=True, slots=True)
class SpaceFilter:
    """Element spaces an effect targets or counts.

    >>> f = SpaceFilter(frozenset({"trap"}), frozenset({"rubble"}))
    >>> f.matches(Space.parse("spike"), ChamberType.CAVE, ())
    True
    >>> f.matches(Space.parse("rubble/spike"), ChamberType.CAVE, ())
    False
    """

    is_: frozenset[str] = frozenset()  # any of these (none given: any element)
    not_: frozenset[str] = frozenset()  # none of these
    empty: bool = False  # an empty element space instead of an element
    in_: ChamberType | None = None  # only in chambers of this type

    def matches(self, space: Space, chamber_type: ChamberType, changes: tuple[TypeChange, ...]) -> bool:
        if self.in_ is not None and chamber_type is not self.in_:
            return False
        if self.empty:
            return space.empty
        if space.empty:
            return False
        tags = space.tags(changes)
        return (not self.is_ or not tags.isdisjoint(self.is_)) and tags.isdisjoint(self.not_)

    @staticmethod
    def parse(raw: dict[str, Any], source: str, path: Path) -> SpaceFilter:
        return SpaceFilter(
            _tags(raw.get("is", ()), ELEMENT_TAGS, source, (*path, "is")),
            _tags(raw.get("not", ()), ELEMENT_TAGS, source, (*path, "not")),
            bool(raw.get("empty", False)),
            ChamberType(raw["in"]) if "in" in raw else None,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.is_:
            out["is"] = sorted(self.is_)
        if self.not_:
            out["not"] = sorted(self.not_)
        if self.empty:
            out["empty"] = True
        if self.in_ is not None:
            out["in"] = self.in_.value
        return out

    def describe(self) -> str:
        what = "an empty space" if self.empty else ("/".join(sorted(self.is_)) or "an element")
        if self.not_:
            what += f" (not {'/'.join(sorted(self.not_))})"
        if self.in_ is not None:
            what += f" in a {self.in_.value} chamber"
        return what


@dataclass(frozen=True, slots=True)
class ChamberFilter:
    """Chambers holding an element (or a minion) with any of ``has``, of type ``in_``."""

    has: frozenset[str] = frozenset()
    in_: ChamberType | None = None

    @staticmethod
    def parse(raw: dict[str, Any], source: str, path: Path) -> ChamberFilter:
        return ChamberFilter(
            _tags(raw.get("has", ()), CHAMBER_TAGS, source, (*path, "has")),
            ChamberType(raw["in"]) if "in" in raw else None,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.has:
            out["has"] = sorted(self.has)
        if self.in_ is not None:
            out["in"] = self.in_.value
        return out

    def describe(self) -> str:
        parts = []
        if self.in_ is not None:
            parts.append(f"a {self.in_.value} chamber")
        if self.has:
            parts.append(f"holding {'/'.join(sorted(self.has))}")
        return " ".join(parts) or "any chamber"


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of an ability; which fields matter depends on ``do`` (see the module table)."""

    do: Do
    token: Element | None = None  # place-token
    target: SpaceFilter = SpaceFilter()  # place-token, reveal-token, change-type
    to: str = ""  # change-type: the type elements also count as
    amount: int | str = 1  # add-damage (a number or a data value's key), gain-tokens
    per: str | SpaceFilter = "chamber"  # add-damage: "minion", "chamber" or matching elements
    in_: ChamberType | None = None  # add-damage: only in chambers of this type
    heroes: frozenset[HeroColor] = frozenset()  # add-damage, defeat: only these heroes (none: all)
    when: ChamberFilter = ChamberFilter()  # move-figure, defeat: the chamber condition (``if``)
    passage: str = "secret"  # open-passage, collapse-passage: "secret", "collapsing" ("any")

    def type_change(self) -> TypeChange:
        return TypeChange(self.target.is_, self.target.not_, self.to)

    def applies_to(self, color: HeroColor) -> bool:
        return not self.heroes or color in self.heroes

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.do.value}
        if self.do is Do.PLACE_TOKEN:
            out["token"] = str(self.token)
        if self.do in (Do.PLACE_TOKEN, Do.REVEAL_TOKEN, Do.CHANGE_TYPE):
            out["target"] = self.target.to_json()
        if self.do is Do.CHANGE_TYPE:
            out["to"] = self.to
        if self.do in (Do.ADD_DAMAGE, Do.GAIN_TOKENS):
            out["amount"] = self.amount
        if self.do is Do.ADD_DAMAGE:
            out["per"] = self.per if isinstance(self.per, str) else self.per.to_json()
            if self.in_ is not None:
                out["in"] = self.in_.value
        if self.do in (Do.ADD_DAMAGE, Do.DEFEAT) and self.heroes:
            out["heroes"] = sorted(h.value for h in self.heroes)
        if self.do in (Do.MOVE_FIGURE, Do.DEFEAT):
            out["if"] = self.when.to_json()
        if self.do is Do.MOVE_FIGURE:
            out.update(figure="guardian", after="defeat", to="connected-adjacent")
        if self.do in (Do.OPEN_PASSAGE, Do.COLLAPSE_PASSAGE):
            out["passage"] = self.passage
        if self.do is Do.GAIN_TOKENS:
            out["token"] = "collapsing-passage"
        return out

    def describe(self) -> str:
        """One line of plain text.

        >>> Effect(Do.CHANGE_TYPE, target=SpaceFilter(frozenset({"rubble"})), to="trap").describe()
        'rubble also counts as trap'
        """
        heroes = f" ({'/'.join(sorted(h.value for h in self.heroes))} heroes)" if self.heroes else ""
        if self.do is Do.PLACE_TOKEN:
            where = "in" if self.target.empty else "over"
            return f"place {self.token} {where} {self.target.describe()}"
        if self.do is Do.REVEAL_TOKEN:
            return f"reveal {self.target.describe()}"
        if self.do is Do.CHANGE_TYPE:
            return f"{self.target.describe()} also counts as {self.to}"
        if self.do is Do.ADD_DAMAGE:
            per = self.per if isinstance(self.per, str) else self.per.describe()
            where = f" in a {self.in_.value} chamber" if self.in_ is not None else ""
            return f"+{self.amount} damage per {per}{where}{heroes}"
        if self.do is Do.MOVE_FIGURE:
            return f"after defeating a hero in {self.when.describe()}, move to a connected adjacent chamber"
        if self.do is Do.DEFEAT:
            return f"defeat a hero entering {self.when.describe()}{heroes}"
        if self.do is Do.OPEN_PASSAGE:
            return f"open a {self.passage} passage"
        if self.do is Do.COLLAPSE_PASSAGE:
            return f"collapse a {self.passage} passage"
        return f"gain {self.amount} collapsing passage token(s)"


@dataclass(frozen=True, slots=True)
class Ability:
    """A guardian ability: its id (used in events), name, effects, or ``unknown``."""

    id: str
    name: str = ""
    effects: tuple[Effect, ...] = ()
    unknown: bool = False
    text: str = ""  # a paraphrase of the printed text, with its source
    provenance: str = "assumed"

    def __str__(self) -> str:
        return self.id

    def has(self, do: Do) -> bool:
        return any(e.do is do for e in self.effects)

    def describe(self) -> str:
        if self.unknown:
            return "not modelled"
        return "; ".join(e.describe() for e in self.effects) or "nothing"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "provenance": self.provenance}
        if self.unknown:
            out["unknown"] = True
        else:
            out["effects"] = [e.to_json() for e in self.effects]
        if self.text:
            out["text"] = self.text
        return out


@dataclass(frozen=True, slots=True)
class AbilityLibrary:
    """Abilities by id, so boards can refer to them (bundled ones, then a data file's)."""

    abilities: dict[str, Ability] = field(default_factory=dict)

    def get(self, ability_id: str, source: str, path: Path) -> Ability:
        try:
            return self.abilities[ability_id]
        except KeyError:
            known = ", ".join(sorted(self.abilities))
            raise _bad(
                source, path, f"unknown ability {ability_id!r}; define it under 'abilities' (known: {known})"
            ) from None


def parse_effect(raw: dict[str, Any], source: str, path: Path, value_keys: frozenset[str]) -> Effect:
    """One effect from its JSON object (the schema has checked the field types)."""
    do = Do(raw["do"])
    allowed = _FIELDS[do]
    extra = sorted(set(raw) - allowed - {"do"})
    if extra:
        raise _bad(
            source,
            (*path, extra[0]),
            f"a {do.value} effect takes {', '.join(sorted(allowed)) or 'no other field'}; not {extra[0]!r}",
        )
    target = SpaceFilter.parse(raw.get("target", {}), source, (*path, "target"))
    heroes = frozenset(HeroColor(h) for h in raw.get("heroes", ()))
    if do is Do.PLACE_TOKEN:
        try:
            token = Element.parse(raw["token"])
        except KeyError:
            raise _bad(source, path, "a place-token effect names its 'token'") from None
        except ValueError as err:
            raise _bad(source, (*path, "token"), str(err)) from None
        if not target.empty and not token.covers:
            raise _bad(
                source,
                (*path, "token"),
                f"only rubble and guardian tokens go over an element; put {token} in an empty space "
                '(target {"empty": true})',
            )
        return Effect(do, token=token, target=target)
    if do is Do.REVEAL_TOKEN:
        if "target" not in raw:
            target = SpaceFilter(frozenset({"face-down"}))
        return Effect(do, target=target)
    if do is Do.CHANGE_TYPE:
        to = raw.get("to")
        if to not in CHANGE_TYPES:
            raise _bad(
                source, (*path, "to"), f"change-type needs 'to': one of {', '.join(sorted(CHANGE_TYPES))}"
            )
        if target.empty or target.in_ is not None:
            raise _bad(source, (*path, "target"), "change-type targets elements by tag ('is', 'not') only")
        return Effect(do, target=target, to=to)
    if do is Do.ADD_DAMAGE:
        amount = raw.get("amount", 1)
        if isinstance(amount, str) and amount not in value_keys:
            raise _bad(
                source,
                (*path, "amount"),
                f"unknown data value {amount!r}; known: {', '.join(sorted(value_keys))}",
            )
        per_raw = raw.get("per", "chamber")
        per: str | SpaceFilter = (
            per_raw if isinstance(per_raw, str) else SpaceFilter.parse(per_raw, source, (*path, "per"))
        )
        in_ = ChamberType(raw["in"]) if "in" in raw else None
        return Effect(do, amount=amount, per=per, in_=in_, heroes=heroes)
    if do is Do.MOVE_FIGURE and raw.get("to", "connected-adjacent") != "connected-adjacent":
        raise _bad(
            source, (*path, "to"), "a guardian moves to a connected adjacent chamber: 'connected-adjacent'"
        )
    if do in (Do.MOVE_FIGURE, Do.DEFEAT):
        when = ChamberFilter.parse(raw.get("if", {}), source, (*path, "if"))
        return Effect(do, when=when, heroes=heroes)
    if do in (Do.OPEN_PASSAGE, Do.COLLAPSE_PASSAGE):
        return Effect(do, passage=raw.get("passage", "secret" if do is Do.OPEN_PASSAGE else "any"))
    return Effect(do, amount=int(raw.get("amount", 1)))


_FIELDS: dict[Do, frozenset[str]] = {
    Do.PLACE_TOKEN: frozenset({"token", "target"}),
    Do.REVEAL_TOKEN: frozenset({"target"}),
    Do.CHANGE_TYPE: frozenset({"target", "to"}),
    Do.ADD_DAMAGE: frozenset({"amount", "per", "in", "heroes"}),
    Do.MOVE_FIGURE: frozenset({"figure", "after", "to", "if"}),
    Do.DEFEAT: frozenset({"if", "heroes"}),
    Do.OPEN_PASSAGE: frozenset({"passage"}),
    Do.COLLAPSE_PASSAGE: frozenset({"passage"}),
    Do.GAIN_TOKENS: frozenset({"token", "amount"}),
}


def parse_ability(
    raw: dict[str, Any], source: str, path: Path, value_keys: frozenset[str], provenance: str
) -> Ability:
    """An ability definition: ``{"id", "name", "text", "effects": [...]}`` or ``{"id", "unknown": true}``."""
    if raw.get("unknown"):
        if raw.get("effects"):
            raise _bad(source, (*path, "effects"), "an unknown ability has no effects; remove one of the two")
        return Ability(raw["id"], raw.get("name", ""), (), True, raw.get("text", ""), provenance)
    if "effects" not in raw:
        raise _bad(source, path, "an ability lists its 'effects' (or says \"unknown\": true)")
    effects = tuple(
        parse_effect(e, source, (*path, "effects", i), value_keys) for i, e in enumerate(raw["effects"])
    )
    return Ability(raw["id"], raw.get("name", ""), effects, False, raw.get("text", ""), provenance)


def check_slot(ability: Ability, slot: Slot, source: str, path: Path) -> None:
    """Refuse effects that cannot act from ``slot`` (a one-shot effect in an ongoing slot...)."""
    for effect in ability.effects:
        if slot is Slot.INSTANT and effect.do in LASTING:
            raise _bad(
                source,
                path,
                f"ability {ability.id!r}: a {effect.do.value} effect lasts; it belongs in an ongoing or "
                "unlockable slot, not the instant",
            )
        if slot is not Slot.INSTANT and effect.do in ONE_SHOT:
            raise _bad(
                source,
                path,
                f"ability {ability.id!r}: a {effect.do.value} effect acts once; it belongs in the instant slot",
            )

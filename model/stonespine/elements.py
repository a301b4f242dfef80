"""Elements in a chamber's four element spaces (seed 000, "Icon Key", "Rubble", "Hex-Shape Tokens").

An element is written as a short string in scenario files:

* monsters ``gnoll goblin kobold ooze slime``, traps ``bear blade fire pit spike``;
* ``chest``; reputation stars ``+1`` ... ``+3`` and ``-1`` ... ``-3``;
* ``rubble`` and ``troll-rubble`` (hex tokens placed over an element);
* guardian tokens: ``pact`` (a revealed Pact Demon token), ``dragon-token``, ``gorgon-token``,
  ``sludge-token``; a trailing ``?`` marks one lying face down (``pact?``);
* ``X>T``: element ``X`` that an ability changed to also count as type ``T`` (``kobold>trap``);
* ``X/Y``: token ``X`` placed over ``Y``, as in ``rubble/kobold`` (the kobold is covered: it deals
  no damage and scores nothing, but comes back if a ruling says removing rubble uncovers it).
  Tokens stack: ``troll-rubble/rubble/kobold``.

An element carries *tags* used by hero abilities and guardian abilities: a kobold has
``{kobold, monster}``, ``+2`` has ``{star, star+}``, troll rubble has ``{troll-rubble, rubble,
guardian-token}``. Guardian abilities can add tags (DANGEROUS DEBRIS makes rubble a ``trap``);
an element that changes type counts as both (seed 000, "Clarifications: Giant Troll, Deceitful
Demon").
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

MONSTERS = ("gnoll", "goblin", "kobold", "ooze", "slime")
TRAPS = ("bear", "blade", "fire", "pit", "spike")


class ElementKind(enum.StrEnum):
    GNOLL = "gnoll"
    GOBLIN = "goblin"
    KOBOLD = "kobold"
    OOZE = "ooze"
    SLIME = "slime"
    BEAR = "bear"
    BLADE = "blade"
    FIRE = "fire"
    PIT = "pit"
    SPIKE = "spike"
    CHEST = "chest"
    STAR = "star"
    RUBBLE = "rubble"
    TROLL_RUBBLE = "troll-rubble"
    PACT = "pact"
    DRAGON_TOKEN = "dragon-token"
    GORGON_TOKEN = "gorgon-token"
    SLUDGE_TOKEN = "sludge-token"


RUBBLE_KINDS = frozenset({ElementKind.RUBBLE, ElementKind.TROLL_RUBBLE})
# Guardian tokens (seed 000, Components: 63 guardian tokens; "Hex-Shape Tokens"): the demon's
# are pact tokens, the troll's troll rubble, the hydra's collapsing passages (edges, not here).
GUARDIAN_TOKEN_KINDS = frozenset(
    {
        ElementKind.PACT,
        ElementKind.TROLL_RUBBLE,
        ElementKind.DRAGON_TOKEN,
        ElementKind.GORGON_TOKEN,
        ElementKind.SLUDGE_TOKEN,
    }
)
# Hex tokens lie over another element; printed elements and market tokens never do.
COVERING_KINDS = RUBBLE_KINDS | GUARDIAN_TOKEN_KINDS
FACE_DOWN_KINDS = GUARDIAN_TOKEN_KINDS - {ElementKind.TROLL_RUBBLE}


def type_tags(name: str) -> frozenset[str]:
    """The tags a type name carries: ``spike`` -> ``{spike, trap}``; ``trap`` -> ``{trap}``.

    >>> sorted(type_tags("ooze"))
    ['monster', 'ooze']
    """
    if name in MONSTERS:
        return frozenset({name, "monster"})
    if name in TRAPS:
        return frozenset({name, "trap"})
    if name == "troll-rubble":
        return frozenset({name, "rubble"})
    return frozenset({name})


@dataclass(frozen=True, slots=True)
class Element:
    """One element token or printed element.

    >>> sorted(Element.parse("kobold").tags)
    ['kobold', 'monster']
    >>> str(Element.parse("-2"))
    '-2'
    >>> sorted(Element.parse("chest>trap").tags)
    ['chest', 'trap']
    """

    kind: ElementKind
    value: int = 0  # reputation stars only: +n or -n
    face_down: bool = False  # guardian tokens placed face down (Pact Demon: FORGE PACT reveals)
    also: tuple[str, ...] = ()  # types an instant ability added (it counts as both)

    @staticmethod
    def parse(text: str) -> Element:
        """Parse one element name; raises ValueError with the reason."""
        word, *changes = text.strip().split(">")
        for change in changes:
            if change not in CHANGE_TYPES:
                raise ValueError(f"an element changes into a type such as trap or kobold; got {text!r}")
        base = Element._parse_word(word)
        if changes:
            return Element(base.kind, base.value, base.face_down, tuple(changes))
        return base

    @staticmethod
    def _parse_word(word: str) -> Element:
        if word.endswith("?"):
            base = Element._parse_word(word[:-1])
            if base.kind not in FACE_DOWN_KINDS:
                raise ValueError(
                    f"only guardian tokens lie face down ('pact?', 'gorgon-token?'), got {word!r}"
                )
            return Element(base.kind, face_down=True)
        if word[:1] in "+-" and word[1:].isdigit():
            value = int(word)
            if value == 0 or abs(value) > 3:
                raise ValueError(f"reputation stars are +1..+3 or -1..-3, got {word!r}")
            return Element(ElementKind.STAR, value=value)
        try:
            return Element(ElementKind(word))
        except ValueError:
            known = ", ".join([k.value for k in ElementKind if k is not ElementKind.STAR])
            raise ValueError(f"unknown element {word!r}; known: {known}, +1..+3, -1..-3, pact?") from None

    def __str__(self) -> str:
        if self.kind is ElementKind.STAR:
            text = f"{self.value:+d}"
        else:
            text = self.kind.value + ("?" if self.face_down else "")
        return text + "".join(f">{t}" for t in self.also)

    @property
    def is_rubble(self) -> bool:
        return self.kind in RUBBLE_KINDS

    @property
    def covers(self) -> bool:
        """True for hex tokens, which may lie over another element."""
        return self.kind in COVERING_KINDS

    @property
    def tags(self) -> frozenset[str]:
        """The printed types of this element plus any an instant ability added."""
        tags = self._printed_tags()
        for extra in self.also:
            tags |= type_tags(extra)
        return tags

    def _printed_tags(self) -> frozenset[str]:
        kind = self.kind.value
        token = {"guardian-token"} if self.kind in GUARDIAN_TOKEN_KINDS else set()
        if self.face_down:
            # A face-down token shows no item (seed 000, "Hex-Shape Tokens": the depicted item counts).
            return frozenset({"face-down", f"{kind}-face-down", *token})
        if kind in MONSTERS or kind in TRAPS or self.kind is ElementKind.TROLL_RUBBLE:
            return type_tags(kind) | token
        if self.kind is ElementKind.STAR:
            return frozenset({"star", "star+" if self.value > 0 else "star-"})
        return frozenset({kind, *token})

    def revealed(self) -> Element:
        return Element(self.kind, self.value, False, self.also)

    def changed_to(self, kind: str) -> Element:
        return Element(self.kind, self.value, self.face_down, (*self.also, kind))


# Types an element may be changed into: element names and the categories.
CHANGE_TYPES = frozenset(
    {*MONSTERS, *TRAPS, "monster", "trap", "chest", "rubble", "troll-rubble", "pact", "star+", "star-"}
)


@dataclass(frozen=True, slots=True)
class TypeChange:
    """While an ability is active, elements with any tag in ``matches`` (and none in ``unless``)
    also count as type ``to`` (seed 000, "Clarifications: Giant Troll, Deceitful Demon").

    >>> debris = TypeChange(frozenset({"rubble"}), frozenset(), "trap")
    >>> sorted(Space.parse("rubble/kobold").tags((debris,)))
    ['rubble', 'trap']
    """

    matches: frozenset[str]
    unless: frozenset[str]
    to: str

    def applies(self, tags: frozenset[str]) -> bool:
        return not tags.isdisjoint(self.matches) and tags.isdisjoint(self.unless)


DANGEROUS_DEBRIS = TypeChange(frozenset({"rubble"}), frozenset(), "trap")


@dataclass(frozen=True, slots=True)
class Space:
    """An element space: the element on top, and what it covers (nearest first)."""

    top: Element | None = None
    under: tuple[Element, ...] = ()

    @staticmethod
    def parse(text: str | None) -> Space:
        """``None`` or ``""`` is empty; ``"rubble/kobold"`` is rubble over a kobold.

        >>> str(Space.parse("troll-rubble/-1").covered)
        '-1'
        >>> Space.parse("troll-rubble/rubble/kobold").under[-1].kind.value
        'kobold'
        """
        if text is None or text.strip() == "":
            return Space()
        words = text.split("/")
        stack = tuple(Element.parse(w) for w in words)
        for element in stack[:-1]:
            if not element.covers:
                raise ValueError(
                    f"only rubble and guardian tokens lie over an element ('rubble/kobold'), got {text!r}"
                )
        return Space(stack[0], stack[1:])

    def __str__(self) -> str:
        if self.top is None:
            return ""
        return "/".join(str(e) for e in (self.top, *self.under))

    @property
    def empty(self) -> bool:
        return self.top is None

    @property
    def covered(self) -> Element | None:
        """The element directly under the top token, if any."""
        return self.under[0] if self.under else None

    def tags(self, changes: Iterable[TypeChange] | bool = ()) -> frozenset[str]:
        """Types of the element on top; covered elements have none (seed 000, "Rubble").

        ``changes`` are the type changes of the guardian's active abilities (``True`` is the
        older spelling of DANGEROUS DEBRIS alone: rubble counts as a trap).
        """
        if self.top is None:
            return frozenset()
        tags = self.top.tags
        if changes is True:
            changes = (DANGEROUS_DEBRIS,)
        elif changes is False:
            changes = ()
        for change in changes:
            if change.applies(tags):
                tags |= type_tags(change.to)
        return tags

    def cover_with(self, token: Element) -> Space:
        """Place a token over the top element (the element stays underneath)."""
        if self.top is None:
            raise ValueError("a token goes over an element")
        return Space(token, (self.top, *self.under))

    def removed(self, uncover: bool) -> Space:
        """The top token taken away: what it covered comes back, or the space empties."""
        if uncover and self.under:
            return Space(self.under[0], self.under[1:])
        return Space()

"""Elements in a chamber's four element spaces (seed 000, "Icon Key", "Rubble", "Hex-Shape Tokens").

An element is written as a short string in scenario files:

* monsters ``gnoll goblin kobold ooze slime``, traps ``bear blade fire pit spike``;
* ``chest``; reputation stars ``+1`` ... ``+3`` and ``-1`` ... ``-3``;
* ``rubble`` and ``troll-rubble`` (hex tokens placed over an element);
* ``pact`` (a revealed Pact Demon token) and ``pact?`` (one still face down);
* ``X/Y``: ``X`` placed over ``Y``, as in ``rubble/kobold`` (the kobold is covered: it deals no
  damage and scores nothing, but comes back if a ruling says removing rubble uncovers it).

An element carries *tags* used by hero abilities and guardian abilities: a kobold has
``{kobold, monster}``, ``+2`` has ``{star, star+}``, troll rubble has ``{troll-rubble, rubble}``.
Guardian abilities can add tags (DANGEROUS DEBRIS adds ``trap`` to rubble); an element that
changes type counts as both (seed 000, "Clarifications: Giant Troll, Deceitful Demon").
"""

from __future__ import annotations

import enum
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


@dataclass(frozen=True, slots=True)
class Element:
    """One element token or printed element.

    >>> sorted(Element.parse("kobold").tags)
    ['kobold', 'monster']
    >>> str(Element.parse("-2"))
    '-2'
    """

    kind: ElementKind
    value: int = 0  # reputation stars only: +n or -n
    face_down: bool = False  # Pact Demon tokens before FORGE PACT reveals them

    @staticmethod
    def parse(text: str) -> Element:
        """Parse one element name; raises ValueError with the reason."""
        word = text.strip()
        if word.endswith("?"):
            base = Element.parse(word[:-1])
            if base.kind is not ElementKind.PACT:
                raise ValueError(f"only pact tokens can be face down ('pact?'), got {text!r}")
            return Element(ElementKind.PACT, face_down=True)
        if word[:1] in "+-" and word[1:].isdigit():
            value = int(word)
            if value == 0 or abs(value) > 3:
                raise ValueError(f"reputation stars are +1..+3 or -1..-3, got {text!r}")
            return Element(ElementKind.STAR, value=value)
        try:
            return Element(ElementKind(word))
        except ValueError:
            known = ", ".join([k.value for k in ElementKind if k is not ElementKind.STAR])
            raise ValueError(f"unknown element {text!r}; known: {known}, +1..+3, -1..-3, pact?") from None

    def __str__(self) -> str:
        if self.kind is ElementKind.STAR:
            return f"{self.value:+d}"
        return self.kind.value + ("?" if self.face_down else "")

    @property
    def is_rubble(self) -> bool:
        return self.kind in (ElementKind.RUBBLE, ElementKind.TROLL_RUBBLE)

    @property
    def tags(self) -> frozenset[str]:
        """The printed types of this element (abilities may add more; see ``Space.tags``)."""
        kind = self.kind.value
        if kind in MONSTERS:
            return frozenset({kind, "monster"})
        if kind in TRAPS:
            return frozenset({kind, "trap"})
        if self.kind is ElementKind.STAR:
            return frozenset({"star", "star+" if self.value > 0 else "star-"})
        if self.kind is ElementKind.TROLL_RUBBLE:
            return frozenset({"troll-rubble", "rubble"})
        if self.kind is ElementKind.PACT:
            return frozenset({"pact-face-down"} if self.face_down else {"pact"})
        return frozenset({kind})


@dataclass(frozen=True, slots=True)
class Space:
    """An element space: the element on top, and the one under it if the top is rubble."""

    top: Element | None = None
    covered: Element | None = None

    @staticmethod
    def parse(text: str | None) -> Space:
        """``None`` or ``""`` is empty; ``"rubble/kobold"`` is rubble over a kobold.

        >>> Space.parse("troll-rubble/-1")
        Space(top=Element(kind=<ElementKind.TROLL_RUBBLE: 'troll-rubble'>, value=0, face_down=False), covered=Element(kind=<ElementKind.STAR: 'star'>, value=-1, face_down=False))
        """
        if text is None or text.strip() == "":
            return Space()
        top_text, sep, under_text = text.partition("/")
        top = Element.parse(top_text)
        if not sep:
            return Space(top)
        if not top.is_rubble:
            raise ValueError(f"only rubble covers an element ('rubble/kobold'), got {text!r}")
        under = Element.parse(under_text)
        if under.is_rubble:
            raise ValueError(f"rubble cannot cover rubble, got {text!r}")
        return Space(top, under)

    def __str__(self) -> str:
        if self.top is None:
            return ""
        return str(self.top) + (f"/{self.covered}" if self.covered is not None else "")

    @property
    def empty(self) -> bool:
        return self.top is None

    def tags(self, rubble_is_trap: bool) -> frozenset[str]:
        """Types of the element on top; covered elements have none (seed 000, "Rubble")."""
        if self.top is None:
            return frozenset()
        tags = self.top.tags
        if rubble_is_trap and self.top.is_rubble:
            tags |= {"trap"}
        return tags

    def cover_with(self, rubble: Element) -> Space:
        """Place rubble over the top element (the element stays underneath)."""
        if self.top is None or self.top.is_rubble:
            raise ValueError("rubble goes over an element")
        return Space(rubble, self.top)

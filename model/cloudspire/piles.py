"""The Deployment Stack and the Market Stack: cards in a known order around a shuffled middle.

A shuffled pile is not shuffled by the oracle (it never rolls or draws on its own). A
:class:`Pile` keeps the cards whose order is known on top (``top``, top first), the cards of
unknown order under them (``shuffled``, kept sorted) and known cards under those (``bottom``,
such as a card cycled to the bottom). When the top card is needed and ``top`` is empty, the game
asks a chance request ("which card is on top?") over ``shuffled``, and :meth:`reveal` records
the answer.

>>> p = Pile(shuffled=("a", "b"), bottom=("c",))
>>> p.needs_reveal, len(p)
(True, 3)
>>> p = p.reveal("b")
>>> p.take_top()
('b', Pile(top=(), shuffled=('a',), bottom=('c',)))
>>> Pile(top=("x",), bottom=("y",)).to_bottom("x")
Pile(top=('y', 'x'), shuffled=(), bottom=())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Pile:
    top: tuple[str, ...] = ()
    shuffled: tuple[str, ...] = ()
    bottom: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Keep one form per content: a pile with nothing shuffled is all 'top'.
        if not self.shuffled and self.bottom:
            object.__setattr__(self, "top", self.top + self.bottom)
            object.__setattr__(self, "bottom", ())

    def __len__(self) -> int:
        return len(self.top) + len(self.shuffled) + len(self.bottom)

    def __contains__(self, card: object) -> bool:
        return card in self.top or card in self.shuffled or card in self.bottom

    @property
    def cards(self) -> tuple[str, ...]:
        return self.top + self.shuffled + self.bottom

    @property
    def needs_reveal(self) -> bool:
        """True when the top card is one of the shuffled cards, not yet known."""
        return not self.top and bool(self.shuffled)

    @property
    def known_top(self) -> str | None:
        return self.top[0] if self.top else None

    def reveal(self, card: str) -> Pile:
        """``card`` (one of the shuffled cards) turns out to be on top."""
        if card not in self.shuffled:
            raise ValueError(f"{card!r} is not among the shuffled cards")
        rest = tuple(c for c in self.shuffled if c != card)
        return Pile(self.top + (card,), rest, self.bottom)

    def take_top(self) -> tuple[str, Pile]:
        if not self.top:
            raise ValueError("the top card is not known yet (reveal it first) or the pile is empty")
        return self.top[0], Pile(self.top[1:], self.shuffled, self.bottom)

    def to_bottom(self, card: str) -> Pile:
        """Put ``card`` (taken from elsewhere, or this pile's top) under everything."""
        top = tuple(c for c in self.top if c != card)
        bottom = tuple(c for c in self.bottom if c != card)
        return Pile(top, self.shuffled, bottom + (card,))

    def add_on_top(self, card: str) -> Pile:
        return Pile((card, *self.top), self.shuffled, self.bottom)

    def shuffle(self) -> Pile:
        """Every card in an unknown order (seed 004, Gaining & Placing Spires: shuffle the Market)."""
        return Pile((), tuple(sorted(self.cards)), ())

    def remove(self, card: str) -> Pile:
        return Pile(
            tuple(c for c in self.top if c != card),
            tuple(c for c in self.shuffled if c != card),
            tuple(c for c in self.bottom if c != card),
        )

    def to_json(self) -> dict[str, Any]:
        return {"top": list(self.top), "shuffled": list(self.shuffled), "bottom": list(self.bottom)}

"""Decision options as values that parse and print themselves.

Every option the game offers is a :class:`Choice`: a verb and typed arguments, written as
words. The game builds them, lists their text in a request, and reads an answer back with
:meth:`Choice.parse`, so no code splits option strings by hand.

>>> c = Choice.parse("load B2 L-top.bp1")
>>> c.die, str(c.slot)
('B2', 'L-top.bp1')
>>> Choice.parse("apply P1 bottom").lane
'bottom'
>>> str(Choice("cycle", ("yellow",)))
'cycle yellow'
>>> Choice.parse("cycle mauve")
Traceback (most recent call last):
...
ValueError: 'cycle mauve': unknown die colour 'mauve'; use yellow, green, blue, purple or red
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from invasion_oracle.model.cloudspire.area import LANES, SPIRE_SPACES
from invasion_oracle.model.cloudspire.blueprints import Slot
from invasion_oracle.model.cloudspire.dice import Colour, colour_of
from invasion_oracle.model.core.frozen import quick_init

# verb -> argument kinds
VERBS: dict[str, tuple[str, ...]] = {
    "done": (),
    "stop": (),
    "roll": (),
    "hero": (),
    "inventory": (),
    "decline": (),
    "cycle": ("colour",),
    "commit": ("colour",),
    "recover": ("colour",),
    "exhaust-pool": ("colour",),
    "banish": ("colour",),
    "drill": ("spire-space",),
    "place": ("card", "spire-space"),
    "activate": ("spire-space",),
    "load": ("die", "slot"),
    "apply": ("die", "lane"),
    "attack": ("lane",),
    "miss": ("slot",),
    "spire": ("spire-space",),
    "keep": ("die",),
    "exhaust": ("die",),
    "keep-card": ("card",),
    "bottom": ("card",),
    "gain": ("card", "source"),
    "discard": ("card",),
}


def _check(kind: str, word: str) -> None:
    if kind == "colour":
        Colour.parse(word)
    elif kind == "spire-space":
        if word not in SPIRE_SPACES:
            raise ValueError(f"{word!r} is not a spire space ({', '.join(SPIRE_SPACES)})")
    elif kind == "die":
        colour_of(word)
    elif kind == "slot":
        Slot.parse(word)
    elif kind == "lane":
        if word not in LANES:
            raise ValueError(f"{word!r} is not a lane ({', '.join(LANES)})")
    elif kind == "source" and word not in ("discard", "market"):
        raise ValueError(f"{word!r}: search the discard or the market")


@quick_init
@dataclass(frozen=True, slots=True)
class Choice:
    verb: str
    args: tuple[str, ...] = ()

    @staticmethod
    def parse(text: str) -> Choice:
        return _parse(str(text))

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))

    def _arg(self, kind: str) -> str:
        return self.args[VERBS[self.verb].index(kind)]

    @property
    def colour(self) -> Colour:
        return Colour.parse(self._arg("colour"))

    @property
    def die(self) -> str:
        return self._arg("die")

    @property
    def slot(self) -> Slot:
        return Slot.parse(self._arg("slot"))

    @property
    def lane(self) -> str:
        return self._arg("lane")

    @property
    def space(self) -> str:
        return self._arg("spire-space")

    @property
    def card(self) -> str:
        return self._arg("card")

    @property
    def source(self) -> str:
        return self._arg("source")


@lru_cache(maxsize=4096)
def _parse(text: str) -> Choice:
    """Parsing is pure, and searches parse the same few options again and again."""
    words = str(text).split()
    if not words or words[0] not in VERBS:
        raise ValueError(f"{text!r}: unknown decision; verbs: {', '.join(VERBS)}")
    verb, args = words[0], tuple(words[1:])
    kinds = VERBS[verb]
    if len(args) != len(kinds):
        raise ValueError(f"{text!r}: {verb} takes {len(kinds)} argument(s) ({' '.join(kinds) or 'none'})")
    for kind, word in zip(kinds, args, strict=True):
        try:
            _check(kind, word)
        except ValueError as err:
            raise ValueError(f"{text!r}: {err}") from None
    return Choice(verb, args)


# Choice.parse of a str, without the method's own call (the step parses every answer)
parse_choice = _parse


def choice(verb: str, *args: object) -> str:
    """The text of a choice (the form requests list): ``str(Choice(verb, args))`` without
    building the Choice (the searches list options on every step)."""
    return " ".join((verb, *[str(a) for a in args]))

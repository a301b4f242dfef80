"""SVG pictures built with drawsvg: text escaped and measured, the canvas sized to what is drawn.

Every game's picture is a :class:`Canvas`. Text is set in a monospace font, so its width is
known without the font file (every common monospace face advances 0.6 em a character; a wide
East Asian character takes two), and the canvas grows to hold every shape and every measured
text: nothing is cut off at an edge. :meth:`Canvas.legend` explains the picture's marks under
it. drawsvg escapes all text; its element ids are numbered, never random, so the same picture
is the same bytes.

>>> canvas = Canvas("a <small> picture")
>>> canvas.text(0, 12, "Ann & Bo")
59.52
>>> canvas.legend([Key("fill", "#e8d8bf", "cave chamber")])
>>> svg = canvas.svg()
>>> "Ann &amp; Bo" in svg and "&lt;small&gt;" in svg and svg == canvas.svg()
True
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

FONT = "DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace"
ADVANCE = 0.62
"""Width of one character in em: 0.6 in the common monospace faces, a little more for safety."""
MARGIN = 12


def text_width(text: str, size: float) -> float:
    """The drawn width of ``text`` at font ``size`` in the monospace font.

    >>> text_width("abcd", 10)
    24.8
    """
    columns = sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text
    )
    return round(columns * ADVANCE * size, 2)


def wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` broken at spaces into lines at most ``width`` wide (a longer word is cut).

    >>> wrap("one two three", 50, 10)
    ['one two', 'three']
    """
    lines: list[str] = []
    for word in text.split(" "):
        while text_width(word, size) > width and len(word) > 1:
            keep = max(1, int(width // (ADVANCE * size)))
            if lines and text_width(lines[-1] + " " + word[:keep], size) <= width:
                lines[-1] += " " + word[:keep]
            else:
                lines.append(word[:keep])
            word = word[keep:]
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return [line for line in lines if line] or [""]


@dataclass(frozen=True, slots=True)
class Key:
    """One legend entry: a mark (``fill`` swatch, ``line``, ``dash``, ``dot``, ``circle``, a
    ``letter`` in a disc, or ``text``: no mark) in ``colour``, and what it means."""

    mark: str
    colour: str
    label: str
    letter: str = ""
    stroke: str = "#333333"


class Canvas:
    """Shapes and text in picture coordinates; :meth:`svg` sizes the picture to hold them all."""

    def __init__(self, title: str, *, size: float = 12) -> None:
        # drawsvg imported here, not with the module: its import (urllib, http.client, xml) was
        # about a sixth of the start-up of every process loading a game, and few of them draw
        import drawsvg

        self._drawsvg: ModuleType = drawsvg
        self.title = title
        self.size = size
        self._elements: list[Any] = []
        self._box = [math.inf, math.inf, -math.inf, -math.inf]
        self.notation: list[str] = []  # the texts drawn as notation, for the picture's key

    def _extend(self, x1: float, y1: float, x2: float, y2: float) -> None:
        box = self._box
        box[0], box[1] = min(box[0], x1, x2), min(box[1], y1, y2)
        box[2], box[3] = max(box[2], x1, x2), max(box[3], y1, y2)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of everything drawn so far."""
        if self._box[0] == math.inf:
            return (0.0, 0.0, 0.0, 0.0)
        left, top, right, bottom = self._box
        return (left, top, right, bottom)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: float | None = None,
        anchor: str = "start",
        bold: bool = False,
        fill: str = "#1d1d1f",
        strike: bool = False,
        notation: bool = False,
    ) -> float:
        """``text`` with its baseline at ``y``; returns its measured width. A ``notation`` text
        (tokens a legend must explain) is kept in :attr:`notation` and drawn with
        ``class="notation"``, so a reader of the SVG can find the tokens too."""
        size = size or self.size
        if not text:
            return 0.0
        width = text_width(text, size)
        left = x - (width if anchor == "end" else width / 2 if anchor == "middle" else 0)
        self._extend(left, y - 0.95 * size, left + width, y + 0.3 * size)
        extra: dict[str, Any] = {"text_anchor": anchor} if anchor != "start" else {}
        if bold:
            extra["font_weight"] = "bold"
        if strike:
            extra["text_decoration"] = "line-through"
        if notation:
            extra["class_"] = "notation"
            self.notation.append(text)
        self._elements.append(self._drawsvg.Text(text, size, x, y, fill=fill, **extra))
        return width

    def lines(
        self, x: float, y: float, lines: Sequence[str], *, step: float | None = None, **kw: Any
    ) -> None:
        """Several lines of text, the first baseline at ``y``."""
        step = step or (kw.get("size") or self.size) * 1.3
        for k, line in enumerate(lines):
            if line:
                self.text(x, y + k * step, line, **kw)

    def rect(self, x: float, y: float, w: float, h: float, fill: str, **kw: Any) -> None:
        self._extend(x, y, x + w, y + h)
        self._elements.append(self._drawsvg.Rectangle(x, y, w, h, fill=fill, **kw))

    def circle(self, cx: float, cy: float, r: float, fill: str, **kw: Any) -> None:
        self._extend(cx - r, cy - r, cx + r, cy + r)
        self._elements.append(self._drawsvg.Circle(cx, cy, r, fill=fill, **kw))

    def line(
        self, x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1, **kw: Any
    ) -> None:
        self._extend(x1, y1, x2, y2)
        self._elements.append(self._drawsvg.Line(x1, y1, x2, y2, stroke=stroke, stroke_width=width, **kw))

    def polyline(
        self, points: Sequence[tuple[float, float]], stroke: str, width: float = 1, **kw: Any
    ) -> None:
        for x, y in points:
            self._extend(x, y, x, y)
        flat = [v for p in points for v in p]
        self._elements.append(
            self._drawsvg.Lines(
                *flat, fill="none", stroke=stroke, stroke_width=width, stroke_linejoin="round", **kw
            )
        )

    def polygon(self, points: Sequence[tuple[float, float]], fill: str, **kw: Any) -> None:
        for x, y in points:
            self._extend(x, y, x, y)
        flat = [v for p in points for v in p]
        self._elements.append(self._drawsvg.Lines(*flat, close=True, fill=fill, **kw))

    def arrow(
        self, x1: float, y1: float, x2: float, y2: float, colour: str = "#333333", width: float = 2
    ) -> None:
        """A line from (x1, y1) with an arrowhead at (x2, y2)."""
        self.line(x1, y1, x2, y2, colour, width)
        angle = math.atan2(y2 - y1, x2 - x1)
        head = [
            (x2, y2),
            (x2 - 9 * math.cos(angle - 0.45), y2 - 9 * math.sin(angle - 0.45)),
            (x2 - 9 * math.cos(angle + 0.45), y2 - 9 * math.sin(angle + 0.45)),
        ]
        self.polygon([(round(x, 2), round(y, 2)) for x, y in head], colour)

    def legend(self, keys: Sequence[Key], *, title: str = "Legend") -> None:
        """The keys in rows under everything drawn so far, as wide as the picture (at least 360)."""
        if not keys:
            return
        left, _, right, bottom = self.bounds
        size = self.size
        limit = max(right - left, 360.0)
        y = bottom + 2 * size
        x = left
        self.text(x, y, title + ":", bold=True)
        x += text_width(title + ": ", size) + 4
        for key in keys:
            need = 22 + text_width(key.label, size) + 18
            if x + need > left + limit and x > left + text_width(title + ": ", size) + 4:
                x, y = left + text_width(title + ": ", size) + 4, y + 1.9 * size
            self._mark(key, x + 8, y - 0.35 * size)
            self.text(x + 22, y, key.label)
            x += need

    def _mark(self, key: Key, cx: float, cy: float) -> None:
        if key.mark == "fill":
            self.rect(cx - 8, cy - 6, 16, 12, key.colour, stroke=key.stroke, stroke_width=1)
        elif key.mark in ("line", "dash", "dot"):
            dash = {"line": None, "dash": "8 4", "dot": "2 4"}[key.mark]
            extra = {"stroke_dasharray": dash} if dash else {}
            self.line(cx - 9, cy, cx + 9, cy, key.colour, 3, **extra)
        elif key.mark == "text":
            return  # the label says it all
        elif key.mark == "circle":
            self.circle(cx, cy, 7, key.colour, stroke=key.stroke, stroke_width=2)
        else:  # a letter in a disc
            self.circle(cx, cy, 8, key.colour)
            self.text(cx, cy + 4, key.letter, anchor="middle", bold=True, fill="#ffffff", size=10)

    def svg(self) -> str:
        """The picture: every shape and text inside, a margin round it, on white."""
        left, top, right, bottom = self.bounds
        left, top = math.floor(left - MARGIN), math.floor(top - MARGIN)
        width, height = math.ceil(right + MARGIN) - left, math.ceil(bottom + MARGIN) - top
        drawing = self._drawsvg.Drawing(
            width, height, origin=(left, top), font_family=FONT, font_size=self.size
        )
        drawing.append(self._drawsvg.Title(self.title))
        drawing.append(self._drawsvg.Rectangle(left, top, width, height, fill="#ffffff"))
        for element in self._elements:
            drawing.append(element)
        made: str = drawing.as_svg(randomize_ids=False, header="")
        return made.rstrip("\n") + "\n"

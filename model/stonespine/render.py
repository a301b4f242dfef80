"""The dungeon as a text picture (monospace), with figures, defeated heroes and routes.

Each chamber is a box 13 characters wide and 4 lines high::

    +-----   -----+
    |B1 stone     |
    |kob +1       |
    |G M2 x:red   |
    +-----   -----+

A gap in a border is an opening on that edge (a doorway or a passage); ``:`` marks a secret
passage, ``~`` a collapsing one. Where two cards meet, the shared border shows a gap only when
the two are connected. ``G`` is a guardian, ``M`` a minion (``M2``: two), ``x:red`` a defeated
hero. A route is drawn as step numbers (``1>``, ``2>``...) inside the chambers it visits;
several heroes' routes as a letter per hero and its step (``a1``, ``b3``). :data:`NOTATION` says
what each token means; every picture ends with a key to the tokens it shows
(:func:`invasion_oracle.model.core.legend.with_legend`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from invasion_oracle.model.core.legend import Entry, Notation
from invasion_oracle.model.stonespine.dungeon import Cell, Dungeon, PassageMode, Side
from invasion_oracle.model.stonespine.elements import Space

WIDTH = 13
SHORT = {
    "gnoll": "gnl",
    "goblin": "gob",
    "kobold": "kob",
    "ooze": "ooz",
    "slime": "slm",
    "bear": "bear",
    "blade": "bld",
    "fire": "fire",
    "pit": "pit",
    "spike": "spk",
    "chest": "chst",
    "rubble": "rub",
    "troll-rubble": "trub",
    "pact": "pact",
    "pact?": "pct?",
    "dragon-token": "drg",
    "gorgon-token": "gor",
    "sludge-token": "sldg",
    "monster": "mon",
    "trap": "trap",
}


WORDS = {
    "gnoll": "gnoll (monster)",
    "goblin": "goblin (monster)",
    "kobold": "kobold (monster)",
    "ooze": "ooze (monster)",
    "slime": "slime (monster)",
    "bear": "bear trap (trap)",
    "blade": "blade trap (trap)",
    "fire": "fire trap (trap)",
    "pit": "pit trap (trap)",
    "spike": "spike trap (trap)",
    "chest": "treasure chest",
    "rubble": "rubble token",
    "troll-rubble": "troll rubble token (the Giant Troll's)",
    "pact": "pact token (the Pact Demon's), face up",
    "pact?": "pact token lying face down",
    "dragon-token": "dragon token",
    "gorgon-token": "gorgon token",
    "sludge-token": "sludge token",
    "monster": "monster",
    "trap": "trap",
}


def _split(text: str) -> list[str]:
    """Tokens of a dungeon picture's line: ``trub*`` is ``trub`` and ``*``, ``kob>trap`` is ``kob``
    and ``>trap``, ``a1,b1`` is ``a1`` and ``b1``; a passage mark (``:``, ``~``) stands alone."""
    if re.fullmatch(r"\+[-+:~ ]*", text.strip()):  # a border: only its opening marks are tokens
        return [m[0][0] for m in re.finditer(r"[:~]+", text)]
    tokens: list[str] = []
    for word in text.replace("|", " ").split():
        if word[0] in ":~" and not word.startswith("~~"):
            tokens.append(word[0])
            word = word[1:]
        if word.endswith(":") or word.endswith("~"):
            tokens.append(word[-1])
            word = word[:-1]
        if word.endswith("*"):
            word = word[:-1]
            tokens.append("*")
        if re.fullmatch(r"[\d,]+>", word):
            tokens += word[:-1].split(",")
            continue
        head, *also = word.split(">")
        tokens += [t for t in head.split(",") if t]
        tokens += [">" + a for a in also]
    return tokens


NOTATION = Notation(
    "stonespine",
    (
        Entry("EX", "the chamber joined to the dungeon exit this year"),
        *(Entry(re.escape(short), WORDS[kind]) for kind, short in SHORT.items()),
        Entry(r"[a-z]+\?", "a guardian token lying face down"),
        Entry(r"[+-]\d", "reputation star token, positive or negative (+2: worth two)"),
        Entry(r"\*", "covers another element (rubble over it)"),
        Entry(r">[a-z]+", "also counts as this type (kob>trap: a kobold that also counts as a trap)"),
        Entry(r"G\d*", "guardian figure (G2: two)"),
        Entry(r"M\d*", "minion figures (M3: three)"),
        Entry(r"[A-Z]\d+", "chamber (column letter, row number)"),
        Entry(r"x:\w+", "a hero of this colour defeated here"),
        Entry(r"\d+", "step of the route: the order in which the hero enters chambers"),
        Entry(r"[a-z]\d+", "route: hero (letter, as in the table) and step (number) entering here"),
        Entry(":", "secret passage in the wall (a gap: a doorway)"),
        Entry("~", "collapsing secret passage in the wall"),
    ),
    _split,
)


def dungeon_cells(picture: str) -> list[str]:
    """The lines of a dungeon picture from its first border to its last, where the tokens are."""
    lines = picture.splitlines()
    borders = [i for i, line in enumerate(lines) if line.startswith("+")]
    return lines[borders[0] : borders[-1] + 1] if borders else []


def _space_text(space: Space) -> str:
    """The top element, short: ``kob``, ``pct?``, ``kob>trap``; ``*`` when it covers another."""
    top = space.top
    if top is None:
        return ""
    if top.kind.value == "star":
        text = f"{top.value:+d}"
    else:
        kind = top.kind.value
        text = SHORT.get(kind + "?", SHORT.get(kind, kind) + "?") if top.face_down else SHORT.get(kind, kind)
    text += "".join(">" + SHORT.get(t, t) for t in top.also)
    return text + ("*" if space.covered is not None else "")


def render_dungeon(
    dungeon: Dungeon,
    mode: PassageMode,
    *,
    guardians: Sequence[Cell] = (),
    minions: Sequence[Cell] = (),
    defeated: Mapping[Cell, str] | None = None,
    route: Sequence[Cell] = (),
    routes: Sequence[Sequence[Cell]] = (),
    exit_cell: Cell | None = None,
    title: str = "",
) -> str:
    """A text picture of ``dungeon``; ``*`` after an element means rubble covers something."""
    defeated = defeated or {}
    inner = WIDTH - 2
    lines: list[str] = []
    if title:
        lines.append(title)
    top = [" "] * (dungeon.columns * (WIDTH - 1) + 1)
    mid = (WIDTH - 1) // 2
    arrow_at = dungeon.entrance * (WIDTH - 1) + mid
    top[arrow_at - 4 : arrow_at + 5] = list("entrance ")[:9]
    lines.append("".join(top).rstrip())
    lines.append(" " * arrow_at + "v")
    steps: dict[Cell, list[str]] = {}
    for n, cell in enumerate(route, 1):
        steps.setdefault(cell, []).append(str(n))
    for h, hero_route in enumerate(routes):
        letter = "abcdefghijklmnopqrstuvwxyz"[h % 26]
        for n, cell in enumerate(hero_route, 1):
            steps.setdefault(cell, []).append(f"{letter}{n}")
    for row in range(dungeon.rows):
        lines.append(_horizontal(dungeon, mode, row))
        bodies = []
        for col in range(dungeon.columns):
            cell = Cell(col, row)
            chamber = dungeon.chamber(cell)
            figures = []
            if cell in steps:
                figures.append(",".join(steps[cell]) + (">" if route else ""))
            if cell in guardians:
                figures.append(
                    "G" + (str(list(guardians).count(cell)) if list(guardians).count(cell) > 1 else "")
                )
            count = list(minions).count(cell)
            if count:
                figures.append("M" + (str(count) if count > 1 else ""))
            if cell in defeated:
                figures.append(f"x:{defeated[cell]}")
            label = f"{cell.name} {chamber.type.value}" + (" EX" if cell == exit_cell else "")
            elements = " ".join(t for t in (_space_text(s) for s in chamber.spaces) if t)
            bodies.append([label, elements, " ".join(figures)])
        for line_no in range(3):
            text = ""
            for col in range(dungeon.columns):
                cell = Cell(col, row)
                text += _vertical(dungeon, mode, cell, Side.LEFT, line_no)
                text += bodies[col][line_no][:inner].ljust(inner)
            text += _vertical(dungeon, mode, Cell(dungeon.columns - 1, row), Side.RIGHT, line_no)
            lines.append(text)
    lines.append(_horizontal(dungeon, mode, dungeon.rows))
    exit_at = dungeon.exit * (WIDTH - 1) + mid
    lines.append(" " * exit_at + "v")
    lines.append(" " * max(0, exit_at - 2) + "exit")
    lines += NOTATION.text_lines(dungeon_cells("\n".join(lines)), width=max(72, *map(len, lines)))
    return "\n".join(lines)


def _edge_mark(dungeon: Dungeon, mode: PassageMode, cell: Cell, side: Side) -> str:
    """What to draw on ``cell``'s ``side``: ' ' open, ':' passage, '~' collapsing, '' closed."""
    if not dungeon.contains(cell):
        return ""
    other = cell.step(side)
    chamber = dungeon.chamber(cell)
    if dungeon.contains(other):
        if not dungeon.connected(cell, side, mode):
            return ""
        other_chamber = dungeon.chamber(other)
        if side.opposite in other_chamber.collapsing or side in chamber.collapsing:
            return "~"
        if side.opposite in other_chamber.passages or side in chamber.passages:
            return ":"
        return " "
    if side in chamber.collapsing:
        return "~"
    if side in chamber.passages:
        return ":"
    return " " if side in chamber.doors else ""


def _horizontal(dungeon: Dungeon, mode: PassageMode, boundary: int) -> str:
    """The border line above row ``boundary`` (``boundary == rows`` is the bottom)."""
    text = ""
    for col in range(dungeon.columns):
        if boundary < dungeon.rows:
            mark = _edge_mark(dungeon, mode, Cell(col, boundary), Side.TOP)
        else:
            mark = _edge_mark(dungeon, mode, Cell(col, boundary - 1), Side.BOTTOM)
        gap = (mark * 3) if mark else "---"
        text += "+" + "-" * 4 + gap + "-" * 4
    return text + "+"


def _vertical(dungeon: Dungeon, mode: PassageMode, cell: Cell, side: Side, line_no: int) -> str:
    if line_no != 1:
        return "|"
    mark = _edge_mark(dungeon, mode, cell, side)
    return mark if mark else "|"

"""Table and section rendering shared by the command line and the Markdown reports."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from typing import Any

from tabulate import tabulate


class TableStyle(enum.Enum):
    """How tables print: Markdown (files, pipes, ``--format md``, and a terminal, where
    :func:`~invasion_oracle.reports.output.emit` draws it) or wrapped text grids (``--format text``
    in a pipe or a file)."""

    MARKDOWN = "md"
    TEXT = "text"


_style: ContextVar[tuple[TableStyle, int]] = ContextVar("table_style", default=(TableStyle.MARKDOWN, 100))


def set_table_style(style: TableStyle, width: int = 100) -> None:
    """Tables from now on in this context: ``style``, text tables wrapped to ``width`` columns."""
    _style.set((style, max(40, width)))


def table(rows: Iterable[Sequence[Any]], headers: Sequence[str]) -> str:
    """A Markdown (GitHub) table; empty input gives a one-line note instead of an empty grid.

    Cells are text from scenarios too, so a ``|`` is escaped (it would split the cell). In text
    style (a terminal), long cells wrap so the table fits the width.

    >>> print(table([("Ann", 3)], ["player", "defeated"]))
    | player   |   defeated |
    |----------|------------|
    | Ann      |          3 |
    >>> print(table([("A|B", 1)], ["player", "n"]))
    | player   |   n |
    |----------|-----|
    | A\\|B     |   1 |
    """
    body = [list(r) for r in rows]
    if not body:
        return "_(none)_"
    style, width = _style.get()
    if style is TableStyle.TEXT:
        return _wrapped(body, headers, width)
    cells = [[_cell(v) for v in row] for row in body]
    return tabulate(cells, headers=[_cell(h) for h in headers], tablefmt="github")


def _cell(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("|", "\\|")
    return value


def _wrapped(body: list[list[Any]], headers: Sequence[str], width: int) -> str:
    """A grid table whose columns are narrowed (widest first) until it fits ``width``."""
    columns = len(headers)
    natural = [
        max([len(str(h)), *(max((len(x) for x in str(r[i]).splitlines()), default=0) for r in body)])
        for i, h in enumerate(headers)
    ]
    limits = list(natural)
    overhead = 3 * columns + 1  # borders and padding of a grid
    while sum(limits) + overhead > width and max(limits) > 8:
        widest = limits.index(max(limits))
        limits[widest] -= 1
    text_rows = [[str(v) for v in row] for row in body]
    return tabulate(
        text_rows,
        headers=list(headers),
        tablefmt="simple_grid",
        maxcolwidths=[w if w < n else None for w, n in zip(limits, natural, strict=True)],
        disable_numparse=True,
    )


def section(title: str, body: str, *, command: str | None = None, level: int = 2) -> str:
    """A Markdown section; ``command`` is the command line that reproduces the claim."""
    parts = [f"{'#' * level} {title}", ""]
    if command:
        from invasion_oracle.reports.output import md_code

        parts += [f"Reproduce: {md_code(command)}", ""]
    parts.append(body.rstrip())
    return "\n".join(parts) + "\n"


def fenced(text: str) -> str:
    """Text in a fenced block, for dungeon and island pictures inside Markdown."""
    return "```\n" + text.rstrip("\n") + "\n```"

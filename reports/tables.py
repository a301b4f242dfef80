"""Table and section rendering shared by the command line and the Markdown reports."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tabulate import tabulate


def table(rows: Iterable[Sequence[Any]], headers: Sequence[str]) -> str:
    """A Markdown (GitHub) table; empty input gives a one-line note instead of an empty grid.

    >>> print(table([("Ann", 3)], ["player", "defeated"]))
    | player   |   defeated |
    |----------|------------|
    | Ann      |          3 |
    """
    body = [list(r) for r in rows]
    if not body:
        return "_(none)_"
    return tabulate(body, headers=list(headers), tablefmt="github")


def section(title: str, body: str, *, command: str | None = None, level: int = 2) -> str:
    """A Markdown section; ``command`` is the command line that reproduces the claim."""
    parts = [f"{'#' * level} {title}", ""]
    if command:
        parts += [f"Reproduce: `{command}`", ""]
    parts.append(body.rstrip())
    return "\n".join(parts) + "\n"


def fenced(text: str) -> str:
    """Text in a fenced block, for dungeon and island pictures inside Markdown."""
    return "```\n" + text.rstrip("\n") + "\n```"

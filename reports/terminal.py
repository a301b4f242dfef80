"""Markdown shown on a terminal: headings, emphasis and tables drawn by rich, no Markdown syntax.

Every verb writes Markdown (:func:`invasion_oracle.reports.output.emit`); on a terminal, and only
there, that Markdown is parsed (markdown-it, as report.html) and drawn here, so no fence, ``**``,
``<br>``, ``\\_`` escape or ``|`` pipe row reaches the user, and everything fits the terminal's
width. A pipe, ``--format md`` and ``--out FILE`` get the Markdown itself, unchanged.

Layout rules, the same for every verb:

- a table that fits the width, with at most its widest column wrapped (to no fewer than
  :data:`MIN_WRAPPED_COLUMN` characters), is a table; a wider one becomes one block per row, the
  first cell as its title and every other cell under it, ``header  value`` (``invasion rulings``
  then shows one ruling per block instead of seven narrow columns);
- a picture (a fenced block) keeps its lines, wrapped only where one is wider than the terminal;
- a line break inside a paragraph stays a line break (the text was laid out by line).
"""

from __future__ import annotations

import io
import re
import textwrap
from collections.abc import Sequence
from typing import TextIO

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

MIN_WRAPPED_COLUMN = 12
"""The narrowest a wrapped table column may be before the table is shown as blocks instead."""

MAX_WIDTH = 100
"""Prose is laid out at most this wide, even on a wider terminal (as the text tables were)."""

_BREAK_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)
_TRAILING_BLANKS = re.compile(r"[ \t]+((?:\x1b\[[0-9;]*m)*)$", re.MULTILINE)
_PARSER = MarkdownIt("commonmark").enable("table")


def console(file: TextIO, width: int, *, color: bool | None = None) -> Console:
    """A rich console drawing on ``file`` at ``width`` columns; ``color`` None: as the terminal says
    (rich honours ``NO_COLOR`` and ``TERM=dumb``)."""
    return Console(
        file=file,
        width=width,
        force_terminal=color,
        no_color=False if color else None,
        color_system="standard" if color else ("auto" if color is None else None),
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=False,
    )


def render(markdown: str, width: int, *, color: bool = False) -> str:
    """``markdown`` as a terminal shows it, ``width`` columns wide (with ``color``, ANSI styles).

    >>> print(render("## Best\\n\\nValue: **3** in `C1` (seed 003\\\\_a)<br>next", 40), end="")
    Best
    <BLANKLINE>
    Value: 3 in C1 (seed 003_a)
    next
    """
    buffer = io.StringIO()
    show(markdown, console(buffer, width, color=color))
    return buffer.getvalue()


def show(markdown: str, out: Console) -> None:
    """Draw ``markdown`` on ``out``: its blocks one after another, a blank line between them."""
    blocks = _blocks(SyntaxTreeNode(_PARSER.parse(markdown)).children, min(out.width, MAX_WIDTH))
    with out.capture() as captured:
        for index, block in enumerate(blocks):
            if index:
                out.print()
            out.print(block, width=min(out.width, MAX_WIDTH), crop=False)
    # rich pads table cells to their column's width: no trailing blanks reach the user
    out.file.write(_TRAILING_BLANKS.sub(r"\1", captured.get()))
    out.file.flush()


def wrap_plain(text: str, width: int) -> str:
    """Plain lines (not Markdown) wrapped to ``width``; a ``- item`` line's continuation indented.

    >>> print(wrap_plain("check: clean\\n- one problem with a long explanation", 20), end="")
    check: clean
    - one problem with a
      long explanation
    """
    lines: list[str] = []
    for line in text.rstrip("\n").split("\n"):
        indent = " " * (len(line) - len(line.lstrip(" ")) + (2 if line.lstrip().startswith("- ") else 0))
        lines += textwrap.wrap(
            line,
            width,
            subsequent_indent=indent,
            break_long_words=True,
            break_on_hyphens=False,
            drop_whitespace=True,
        ) or [""]
    return "\n".join(lines) + "\n"


# -- blocks ------------------------------------------------------------------------------------


def _blocks(nodes: Sequence[SyntaxTreeNode], width: int) -> list[RenderableType]:
    blocks: list[RenderableType] = []
    for node in nodes:
        block = _block(node, width)
        if block is not None:
            blocks.append(block)
    return blocks


def _block(node: SyntaxTreeNode, width: int) -> RenderableType | None:
    kind = node.type
    if kind == "heading":
        style = {"h1": "bold underline", "h2": "bold underline"}.get(node.tag, "bold")
        return _inline(node.children[0] if node.children else None, style)
    if kind == "paragraph":
        return _inline(node.children[0] if node.children else None)
    if kind in ("fence", "code_block"):
        # A picture: its lines as they are; only a line wider than the terminal is wrapped (the
        # bundled pictures fit 80 columns: tests/cli/test_terminal.py).
        return Text(node.content.rstrip("\n"), overflow="fold", no_wrap=False)
    if kind in ("bullet_list", "ordered_list"):
        return _list(node, width)
    if kind == "table":
        return _table(node, width)
    if kind == "hr":
        return Rule(style="dim")
    if kind == "blockquote":
        return Padding(Group(*_blocks(node.children, width - 2)), (0, 0, 0, 2))
    if kind == "html_block":
        return Text(_BREAK_TAG.sub("\n", node.content).rstrip("\n"))
    return Text(node.content) if node.content else None


def _list(node: SyntaxTreeNode, width: int) -> RenderableType:
    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    start = int(str(node.attrs.get("start", 1))) if node.type == "ordered_list" else 1
    for number, item in enumerate(node.children, start):
        mark = f"{number}." if node.type == "ordered_list" else "-"
        inner = _blocks(item.children, width - len(mark) - 1)
        grid.add_row(mark, Group(*inner) if len(inner) != 1 else inner[0])
    return grid


# -- tables ------------------------------------------------------------------------------------


def _table(node: SyntaxTreeNode, width: int) -> RenderableType:
    rows: list[list[Text]] = []
    headers: list[Text] = []
    for part in node.children:  # thead, tbody
        for line in part.children:
            cells = [_inline(cell.children[0] if cell.children else None) for cell in line.children]
            if part.type == "thead":
                headers = cells
            else:
                rows.append(cells)
    if _fits(headers, rows, width):
        table = Table(
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            header_style="bold",
            expand=False,
        )
        widths = _widths(headers, rows)
        widest = widths.index(max(widths)) if widths else 0
        for index, header in enumerate(headers):  # only the widest column wraps
            table.add_column(header, overflow="fold", no_wrap=index != widest)
        for cells in rows:
            table.add_row(*cells)
        return table
    return _records(headers, rows)


def _natural(cell: Text) -> int:
    return max((len(line) for line in cell.plain.split("\n")), default=0)


def _widths(headers: Sequence[Text], rows: Sequence[Sequence[Text]]) -> list[int]:
    """Each column's natural width: its longest line."""
    return [
        max([_natural(headers[i]), *(_natural(row[i]) for row in rows if i < len(row))])
        for i in range(len(headers))
    ]


def _fits(headers: Sequence[Text], rows: Sequence[Sequence[Text]], width: int) -> bool:
    """Whether the table fits ``width`` with at most its widest column wrapped, that column
    keeping at least :data:`MIN_WRAPPED_COLUMN` characters (two wrapped columns read worse than
    blocks)."""
    natural = _widths(headers, rows)
    gaps = 3 * (len(headers) - 1)  # SIMPLE_HEAD without edges: a blank rule and two pads
    if sum(natural) + gaps <= width:
        return True
    widest = max(natural)
    return width - (sum(natural) - widest) - gaps >= min(widest, MIN_WRAPPED_COLUMN)


def _records(headers: Sequence[Text], rows: Sequence[Sequence[Text]]) -> RenderableType:
    """A table too wide for the terminal: one block per row, its first cell as the title."""
    blocks: list[RenderableType] = []
    labels = max((len(header.plain) for header in headers[1:]), default=0)
    for index, row in enumerate(rows):
        if index:
            blocks.append(Text(""))
        first = headers[0].plain if headers else ""
        title = Text("#" if first == "#" else (f"{first}: " if first else ""))
        title.append_text(row[0])
        title.stylize("bold")
        blocks.append(title)
        grid = Table.grid(padding=(0, 2, 0, 0))
        grid.add_column(style="dim", no_wrap=True, min_width=labels)  # aligned across the blocks
        grid.add_column(overflow="fold")
        for header, cell in zip(headers[1:], row[1:], strict=False):
            if cell.plain.strip():
                grid.add_row(header.plain, cell)
        blocks.append(Padding(grid, (0, 0, 0, 2)))
    return Group(*blocks)


# -- inline text -------------------------------------------------------------------------------


def _inline(node: SyntaxTreeNode | None, style: str = "") -> Text:
    text = Text(style=style, overflow="fold")
    if node is not None:
        _append(text, node.children, style)
    return text


def _append(text: Text, nodes: Sequence[SyntaxTreeNode], style: str) -> None:
    for node in nodes:
        kind = node.type
        if kind == "text":
            text.append(node.content, style or None)
        elif kind == "code_inline":
            text.append(node.content, _join(style, "cyan"))
        elif kind in ("softbreak", "hardbreak"):
            text.append("\n")
        elif kind == "em":
            _append(text, node.children, _join(style, "italic"))
        elif kind == "strong":
            _append(text, node.children, _join(style, "bold"))
        elif kind == "link":
            before = len(text.plain)
            _append(text, node.children, _join(style, "underline"))
            href = str(node.attrs.get("href", ""))
            if href and href != text.plain[before:] and not href.startswith("#"):
                text.append(f" ({href})", _join(style, "dim"))
        elif kind == "image":
            alt = "".join(child.content for child in node.children) or "picture"
            text.append(f"[{alt}: {node.attrs.get('src', '')}]", _join(style, "dim"))
        elif kind == "html_inline":
            text.append("\n" if _BREAK_TAG.fullmatch(node.content) else node.content, style or None)
        else:
            _append(text, node.children, style)


def _join(style: str, more: str) -> str:
    return f"{style} {more}".strip()

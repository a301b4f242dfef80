"""One self-contained HTML page from Markdown blocks and SVG pictures (``report.html``).

The page needs nothing from outside: styles are inline, every picture is an ``<img>`` whose
source is the SVG itself as a ``data:`` URI (so a picture's text can never run as script), and
raw HTML in the Markdown is shown as text, not interpreted, but for ``<br>`` (a line break in a
table cell, as GitHub renders it). Markdown is rendered by
markdown-it-py (CommonMark with GitHub tables), the same reading GitHub gives ``report.md``.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt


@dataclass(frozen=True, slots=True)
class Picture:
    """An SVG picture with a caption and the file name it has beside ``report.md``."""

    name: str
    caption: str
    svg: str

    def data_uri(self) -> str:
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode("utf-8")).decode("ascii")


Block = str | Picture
"""Markdown text, or a picture."""

_EMBEDDED = re.compile(r"^```svg-picture (\S+) ([^\n]*)\n(.*?)\n```$", re.MULTILINE | re.DOTALL)


def embed(picture: Picture, command: str | None = None) -> str:
    """A picture inside a Markdown section (a fenced ``svg-picture NAME CAPTION`` block), for
    sections made as text (batch jobs); :func:`split_pictures` turns it back into a picture.
    ``command`` is printed under it as the command that draws it.

    >>> picture, text = split_pictures(embed(Picture("a.svg", "cap", "<svg/>"), "invasion x --svg a.svg"))
    >>> picture, text.strip()
    (Picture(name='a.svg', caption='cap', svg='<svg/>\\n'), 'Reproduce: `invasion x --svg a.svg`')
    """
    from invasion_oracle.reports.output import md_code

    block = f"```svg-picture {picture.name} {' '.join(picture.caption.split())}\n{picture.svg.strip()}\n```"
    return block + (f"\n\nReproduce: {md_code(command)}" if command else "")


def split_pictures(markdown: str) -> list[Block]:
    """Markdown with embedded pictures (:func:`embed`) as text blocks and pictures."""
    out: list[Block] = []
    last = 0
    for match in _EMBEDDED.finditer(markdown):
        if markdown[last : match.start()].strip():
            text = markdown[last : match.start()]
            out.append(text.lstrip("\n") if out and isinstance(out[-1], Picture) else text)
        out.append(Picture(match.group(1), match.group(2), match.group(3) + "\n"))
        last = match.end()
    if markdown[last:].strip() or not out:
        out.append(markdown[last:].lstrip("\n") if out else markdown[last:])
    return out


def picture_links(markdown: str, folder: str = "pictures") -> str:
    """Markdown with each embedded picture (:func:`embed`) as a link to its file in ``folder``.

    >>> picture_links(embed(Picture("a.svg", "cap", "<svg/>")))
    '![cap](pictures/a.svg)'
    """
    from invasion_oracle.reports.output import md_escape

    return _EMBEDDED.sub(lambda m: f"![{md_escape(m.group(2))}]({folder}/{m.group(1)})", markdown)


STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 1em 2em;
       color: #1d1d1f; line-height: 1.45; }
nav { background: #f4f4f6; padding: 0.5em 1em; border-radius: 6px; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.88em; display: block; overflow-x: auto; }
th, td { border: 1px solid #c8c8cc; padding: 0.25em 0.5em; vertical-align: top; text-align: left; }
th { background: #ececf0; }
code { background: #f1f1f4; padding: 0 0.2em; border-radius: 3px; font-size: 0.92em; }
pre { background: #f6f6f8; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
pre code { background: none; }
figure { margin: 1em 0; overflow-x: auto; }
figure img { border: 1px solid #d0d0d4; max-width: 100%; height: auto; box-sizing: border-box; }
figcaption { color: #555; font-size: 0.9em; }
h1 { border-bottom: 2px solid #333; } h2 { border-bottom: 1px solid #999; margin-top: 2em; }
"""

_markdown = MarkdownIt("commonmark", {"html": True}).enable("table")
_LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)


def _html_inline(renderer: Any, tokens: Sequence[Any], idx: int, options: Any, env: Any) -> str:
    """Raw inline HTML: a ``<br>`` (a line break in a table cell) is kept, anything else shown as text."""
    content: str = tokens[idx].content
    return "<br>" if _LINE_BREAK.fullmatch(content) else html.escape(content)


def _html_block(renderer: Any, tokens: Sequence[Any], idx: int, options: Any, env: Any) -> str:
    return "<p>" + html.escape(tokens[idx].content) + "</p>\n"


_markdown.add_render_rule("html_inline", _html_inline)
_markdown.add_render_rule("html_block", _html_block)


def markdown_html(text: str) -> str:
    """Markdown as HTML; raw HTML in the text is escaped, but for ``<br>`` (a line break in a cell).

    >>> markdown_html("| a |\\n|---|\\n| <b> |")
    '<table>\\n<thead>\\n<tr>\\n<th>a</th>\\n</tr>\\n</thead>\\n<tbody>\\n<tr>\\n<td>&lt;b&gt;</td>\\n</tr>\\n</tbody>\\n</table>\\n'
    >>> markdown_html("| a |\\n|---|\\n| one<br>two <i>x</i> |").split("<td>")[1].split("</td>")[0]
    'one<br>two &lt;i&gt;x&lt;/i&gt;'
    """
    rendered: str = _markdown.render(text)
    return rendered


def _anchor(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "section"


def page(title: str, blocks: Sequence[Block]) -> str:
    """The whole page: a contents list of the level-2 headings, then every block in order."""
    body: list[str] = []
    contents: list[tuple[str, str]] = []
    used: set[str] = set()
    for block in blocks:
        if isinstance(block, Picture):
            body.append(
                f'<figure><img src="{block.data_uri()}" alt="{html.escape(block.caption)}">'
                f"<figcaption>{html.escape(block.caption)}</figcaption></figure>"
            )
            continue
        rendered = markdown_html(block)

        def name_heading(match: re.Match[str]) -> str:
            level, inner = match.group(1), match.group(2)
            anchor = _anchor(re.sub(r"<[^>]+>", "", inner))
            while anchor in used:
                anchor += "-x"
            used.add(anchor)
            if level == "2":
                contents.append((anchor, re.sub(r"<[^>]+>", "", inner)))
            return f'<h{level} id="{anchor}">{inner}</h{level}>'

        body.append(re.sub(r"<h([1-6])>(.*?)</h\1>", name_heading, rendered))
    nav = "".join(f'<li><a href="#{a}">{t}</a></li>' for a, t in contents)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        + (f"<nav><strong>Contents</strong><ul>{nav}</ul></nav>\n" if nav else "")
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )

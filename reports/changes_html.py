"""``invasion changes --format html``: one self-contained page of what a change of data does.

The summary first (per game, how many of each kind of change), then the details: each changed
case with its changed fields and, side by side, the picture of the case under the old data and
under the new (the game's own SVG picture, legend included, of the state the case's answers
reach), then the search answers, rulings and rules. The page needs nothing from outside, as
``report.html`` (:mod:`invasion_oracle.reports.html`): styles inline, each picture an ``<img>``
whose source is the SVG as a ``data:`` URI, every text escaped. The same answer and data give the
same bytes.

A case is drawn by replaying its default variant (the first: every ruling at the reading its file
stores first) with the data of that side in force, as far as its answers are legal; a case the
data refuses outright has no picture, its reason instead.
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.reports.html import STYLE, Picture

if TYPE_CHECKING:
    from invasion_oracle.model.core.overrides import DataInForce

PICTURED_CASES = 60  # changed cases drawn (each two pictures); the rest are listed without pictures
VALUE_WIDTH = 160  # characters of a value shown in a table cell

PAIR_STYLE = """
.pair { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.pair figure { flex: 1 1 420px; min-width: 0; margin: 0.4em 0; }
.note { border: 1px dashed #b0b0b4; padding: 1em; color: #555; background: #fafafa; }
.kind { font-weight: 600; }
"""


@dataclass(frozen=True, slots=True)
class Drawn:
    """A case drawn under one side's data: the SVG (None when there is nothing to draw) and a
    caption saying what state it shows."""

    svg: str | None
    caption: str


@dataclass(frozen=True, slots=True)
class Side:
    """One side of the comparison: its label, its cases (as :func:`changes.side_results` keeps
    them) and the data it ran under (empty: the bundled data)."""

    label: str
    cases: Mapping[str, Mapping[str, Any]]
    entries: tuple[DataInForce, ...]


def draw_case(game: str, cid: str, case: Mapping[str, Any]) -> Drawn:
    """The case's default variant replayed under the data in force, as far as its answers are
    legal, and drawn; its outcome (ok, illegal at a step, refused) in the caption."""
    from invasion_oracle.model import registry
    from invasion_oracle.model.core.decisions import normalise_answer
    from invasion_oracle.model.core.errors import InvasionError
    from invasion_oracle.reports.report import picture_of
    from invasion_oracle.reports.suite.cases import Variant
    from invasion_oracle.reports.suite.oracle import load

    scenario_document = case.get("scenario")
    variants = case.get("expect") or []
    if not variants or not isinstance(variants[0], dict):
        return Drawn(None, "no outcome to draw")
    if not isinstance(scenario_document, dict) or "answers" not in variants[0]:
        # refused before it could be played (the data makes its scenario unplayable)
        return Drawn(None, f"{variants[0].get('result', 'refused')} ({variants[0].get('reason', '')})")
    variant = Variant.from_json(variants[0])
    outcome = _outcome_words(variant)
    spec = registry.spec(game)
    try:
        scenario = load(spec, scenario_document, variant.readings_map, cid)
        play = scenario.game()
        state, _ = play.start(scenario.initial)
    except InvasionError as err:
        return Drawn(None, f"{outcome}: {getattr(err, 'reason', str(err))}")
    steps = 0
    for answer in variant.answers:
        request = play.pending(state)
        if request is None:
            break
        try:
            state, _ = play.step(state, normalise_answer(request, _frozen(answer.answer)))
        except InvasionError:
            break  # drawn where the answer was refused (the caption says why)
        steps += 1
    svg = picture_of(spec)(scenario, state)
    where = "after the opening" if steps == 0 else f"after {steps} answer(s)"
    return Drawn(svg, f"{outcome}; the state {where}")


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def _outcome_words(variant: Any) -> str:
    if variant.result == "ok":
        return "plays"
    if variant.result == "illegal":
        return f"illegal at step {variant.step} ({variant.reason})"
    return f"refused ({variant.reason})"


def drawer(old: Side, new: Side) -> Callable[[str], tuple[Drawn, Drawn]]:
    """Draws a case id under each side's data (a side without the case: a note)."""
    from invasion_oracle.model.core.overrides import data_in_force, no_data_in_force

    def on(side: Side, cid: str) -> Drawn:
        case = side.cases.get(cid)
        if case is None:
            return Drawn(None, f"no such case under {side.label}")
        game = cid.split("/", 1)[0]
        with contextlib.ExitStack() as stack:
            stack.enter_context(data_in_force(side.entries) if side.entries else no_data_in_force())
            return draw_case(game, cid, case)

    return lambda cid: (on(old, cid), on(new, cid))


# -- the page ----------------------------------------------------------------------------------------


def _cell(value: Any) -> str:
    text = canonical_json(value)
    text = text if len(text) <= VALUE_WIDTH else text[: VALUE_WIDTH - 3] + "..."
    return f"<code>{html.escape(text)}</code>"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table whose cells are already HTML (escaped by the caller)."""
    out = ["<table>", "<thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr></thead>"]
    out.append("<tbody>")
    out += ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows]
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def _anchor(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.casefold()).strip("-") or "x"


def _figure(drawn: Drawn, side: str) -> str:
    caption = html.escape(f"{side}: {drawn.caption}")
    if drawn.svg is None:
        return f'<figure><div class="note">{caption}</div></figure>'
    uri = Picture("case.svg", caption, drawn.svg).data_uri()
    return f'<figure><img src="{uri}" alt="{caption}"><figcaption>{caption}</figcaption></figure>'


def _summary(answer: Mapping[str, Any]) -> str:
    from invasion_oracle.reports.changes_rules import KINDS

    head = [
        "game",
        "cases compared",
        *KINDS,
        "searches changed",
        "rulings changed",
        "rules dead",
        "rules alive",
    ]
    rows = [
        [
            html.escape(game),
            *(
                str(s.get(k, 0))
                for k in (
                    "cases_compared",
                    *KINDS,
                    "searches_changed",
                    "rulings_changed",
                    "rules_dead",
                    "rules_alive",
                )
            ),
        ]
        for game, s in answer["summary"].items()
    ]
    return _table(head, rows)


def _cases(answer: Mapping[str, Any], draw: Callable[[str], tuple[Drawn, Drawn]]) -> list[str]:
    out = ['<h2 id="cases">Cases</h2>']
    cases = answer["cases"]
    if len(cases) > PICTURED_CASES:
        out.append(
            f"<p>{len(cases)} cases changed; the first {PICTURED_CASES} (by id) are drawn, "
            "the rest listed with their fields.</p>"
        )
    for number, (cid, entry) in enumerate(cases.items()):
        out.append(f'<h3 id="case-{_anchor(cid)}"><code>{html.escape(cid)}</code></h3>')
        out.append(
            f'<p><span class="kind">{html.escape(entry["kind"])}</span>; rule section: '
            f"{html.escape(entry.get('section') or 'none')}</p>"
        )
        fields = entry.get("fields", [])
        if fields:
            rows = [[_cell_path(f["path"]), _cell(f["old"]), _cell(f["new"])] for f in fields]
            out.append(_table(["field", "old", "new"], rows))
        if entry.get("more_fields"):
            out.append(f"<p>... and {entry['more_fields']} more changed fields.</p>")
        if number < PICTURED_CASES:
            before, after = draw(cid)
            labels = (f"before ({answer['against']})", f"after ({answer['data']})")
            out.append(f'<div class="pair">{_figure(before, labels[0])}{_figure(after, labels[1])}</div>')
    return out


def _cell_path(path: str) -> str:
    return f"<code>{html.escape(path)}</code>"


def _searches(answer: Mapping[str, Any]) -> list[str]:
    from invasion_oracle.reports.changes_rules import leaf_changes

    out = ['<h2 id="searches">Search answers</h2>']
    for name, entry in answer["searches"].items():
        out.append(f"<h3><code>{html.escape(name)}</code></h3>")
        rows = [
            [_cell_path(p), _cell(a), _cell(b)] for p, a, b in leaf_changes(entry["old"], entry["new"], "$")
        ]
        out.append(_table(["field", "old", "new"], rows))
    return out


def _rulings(answer: Mapping[str, Any]) -> list[str]:
    out = ['<h2 id="rulings">Rulings</h2>']
    rows = [
        [
            f"<code>{html.escape(rid)}</code>",
            html.escape(r["game"]),
            html.escape(r["kind"]),
            html.escape(", ".join(r["old_witnesses"]) or "none"),
            html.escape(", ".join(r["new_witnesses"]) or "none"),
        ]
        for rid, r in answer["rulings"].items()
    ]
    out.append(_table(["ruling", "game", "change", "witnesses parting before", "after"], rows))
    return out


def _rules(answer: Mapping[str, Any]) -> list[str]:
    from invasion_oracle.reports.changes_rules import rule_evidence

    out = ['<h2 id="rules">Rules dead or alive</h2>']
    rows = [
        [
            html.escape(r["kind"]),
            html.escape(r["game"]),
            html.escape(r["rule"]),
            f"<code>{html.escape(r['name'])}</code>",
            html.escape(rule_evidence(r)),
        ]
        for r in answer.get("rules", {}).values()
    ]
    out.append(_table(["change", "game", "rule", "name", "cases"], rows))
    return out


def render_html(answer: Mapping[str, Any], draw: Callable[[str], tuple[Drawn, Drawn]]) -> str:
    """The page: title, contents, summary, then cases (pictures side by side), searches, rulings, rules."""
    title = f"Changes: {answer['data']} against {answer['against']}"
    body = [f"<h1>{html.escape(title)}</h1>"]
    if answer["no_change"]:
        body.append("<p><strong>no change</strong></p>")
    body += ['<h2 id="summary">Summary</h2>', _summary(answer)]
    parts = [("summary", "Summary")]
    if answer["cases"]:
        body += _cases(answer, draw)
        parts.append(("cases", "Cases"))
    if answer["searches"]:
        body += _searches(answer)
        parts.append(("searches", "Search answers"))
    if answer["rulings"]:
        body += _rulings(answer)
        parts.append(("rulings", "Rulings"))
    if answer.get("rules"):
        body += _rules(answer)
        parts.append(("rules", "Rules dead or alive"))
    nav = "".join(f'<li><a href="#{a}">{t}</a></li>' for a, t in parts)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}{PAIR_STYLE}</style>\n</head>\n<body>\n"
        f"<nav><strong>Contents</strong><ul>{nav}</ul></nav>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )

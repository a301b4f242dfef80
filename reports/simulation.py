"""The report of one simulated run, for any game: pictures, decisions, trace, outcome.

The tables of requests and events are the same for every game; the pictures and outcome
tables come from the game's ``reports/<game>/render.py`` when it has one (see
:mod:`invasion_oracle.reports.games`), otherwise from its spec's text renderer and its outcome as JSON.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.core.decisions import DecisionRequest
from invasion_oracle.model.core.driver import Playthrough
from invasion_oracle.model.core.spec import GameSpec
from invasion_oracle.reports.games import part
from invasion_oracle.reports.output import md_code, md_escape
from invasion_oracle.reports.tables import fenced, table


def decisions_table(playthrough: Playthrough[Any]) -> str:
    """Every request of the run: what was asked, of whom or why, the options and the answer."""
    rows = []
    for n, step in enumerate(playthrough.steps, 1):
        request = step.request
        if isinstance(request, DecisionRequest):
            about = " ".join(f"{k}={_show(v)}" for k, v in request.context)
            who = f"{request.player}" + (f" ({about})" if about else "")
            options = " / ".join(_show(o) for o in request.options)
            rows.append((n, "decision", request.kind, md_escape(who), options, _show(step.answer)))
        else:
            outcomes = " ".join(dict.fromkeys(_show(o) for o in request.outcomes))
            rows.append(
                (
                    n,
                    "chance",
                    f"{request.kind} {request.source}",
                    request.purpose,
                    outcomes,
                    _show(step.answer),
                )
            )
    return table(rows, ["step", "type", "request", "who / why", "options", "answer"])


def events_table(playthrough: Playthrough[Any]) -> str:
    """Every event, numbered by the step that caused it (0: before the first request)."""
    rows = [(0, e.kind, md_escape(e.describe())) for e in playthrough.opening]
    for n, step in enumerate(playthrough.steps, 1):
        rows += [(n, e.kind, md_escape(e.describe())) for e in step.events]
    return table(rows, ["step", "event", "details"])


def _show(value: Any) -> str:
    if isinstance(value, tuple | list):
        return "(" + " ".join(_show(v) for v in value) + ")"
    return str(value)


def simulation_report(spec: GameSpec, scenario: Any, playthrough: Playthrough[Any], command: str) -> str:
    """Markdown: reproduce command, description, before, requests, trace, after, rulings."""
    render = part(spec.name, "render")
    parts = [f"Reproduce: {md_code(command)}", ""]
    description = scenario.document.get("description")
    if description:
        parts += [md_escape(str(description)), ""]
    if render is not None and hasattr(render, "before"):
        parts += [render.before(scenario), ""]
    else:
        parts += ["Before:", "", fenced(spec.render_text(scenario, scenario.initial)), ""]
    parts += ["Decisions and chance:", "", decisions_table(playthrough), ""]
    parts += ["Trace:", "", events_table(playthrough), ""]
    if render is not None and hasattr(render, "after"):
        parts += [render.after(scenario, playthrough.final), ""]
    else:
        parts += ["After:", "", fenced(spec.render_text(scenario, playthrough.final)), ""]
        outcome = canonical_json(spec.outcome(scenario, playthrough.final), indent=1)
        parts += ["Outcome:", "", fenced(outcome), ""]
    changed = scenario.rulings.non_default()
    if changed:
        parts += [
            "Rulings changed from the default: " + ", ".join(f"{k}={v}" for k, v in sorted(changed.items())),
            "",
        ]
    return "\n".join(parts)


def data_report(spec: GameSpec, data: Any) -> str:
    """``invasion GAME data`` as Markdown tables, or the data as JSON when the game has no tables."""
    render = part(spec.name, "render")
    if render is not None and hasattr(render, "data_report"):
        text: str = render.data_report(data)
        return text
    return fenced(canonical_json(data.to_json() if data is not None else None, indent=1))

"""The main job (``make run``): each game's sections on bundled default data, as Markdown.

Sections come from each game's ``reports/<game>/sections.py`` (``SECTIONS``; the full report
adds ``LONG_SECTIONS``); every section prints the command that reproduces it.
"""

from __future__ import annotations

from collections.abc import Callable

from invasion_oracle.model import registry
from invasion_oracle.reports.games import part

Section = Callable[[], str]


def sections(kind: str = "SECTIONS") -> tuple[Section, ...]:
    """Every game's sections of one kind, in registry order."""
    found: list[Section] = []
    for name in registry.names():
        module = part(name, "sections")
        if module is not None:
            found += getattr(module, kind, ())
    return tuple(found)


def main_job() -> str:
    parts = ["# invasion-oracle: main job on bundled default data", ""]
    parts += [make() for make in sections()]
    from invasion_oracle.reports.ambiguity.markdown import summary_section

    parts.append(summary_section())  # every game's rulings, written once (reports/ambiguity)
    return "\n".join(parts)


def full_report() -> str:
    """``make report``: the main job, then the searches too long for it."""
    return "\n".join([main_job(), *(make() for make in sections("LONG_SECTIONS"))])

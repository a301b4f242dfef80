"""The main job (`make run`): each game's report on bundled default data, as Markdown.

Each game contributes sections; every section prints the command that reproduces it.
"""

from __future__ import annotations

from collections.abc import Callable

from reports import spirit_island_report, stonespine_report

SECTIONS: tuple[Callable[[], str], ...] = (
    *stonespine_report.SECTIONS,
    *spirit_island_report.SECTIONS,
)


def main_job() -> str:
    parts = ["# invasion-oracle: main job on bundled default data", ""]
    for make in SECTIONS:
        parts.append(make())
    return "\n".join(parts)


def full_report() -> str:
    """`make report`: the main job, then the searches too long for it."""
    parts = [main_job()]
    for make in LONG_SECTIONS:
        parts.append(make())
    return "\n".join(parts)


LONG_SECTIONS: tuple[Callable[[], str], ...] = (*stonespine_report.LONG_SECTIONS,)

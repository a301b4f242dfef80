"""The full report (``invasion report``, ``make report``): a section per game, as Markdown,
self-contained HTML and diffable JSON.

Per game: what it is (rulebook, rulings, bundled examples, fixture cases); a picture of each bundled
example's end (SVG: the game's ``reports/<pkg>/svg.py: render_svg`` or its spec's, under it the
``simulate --svg`` command that draws it); the game's own report sections
(``reports/<pkg>/sections.py``: the bundled dungeon's placements and escape analysis, fear
thresholds, ...; a section may hold a picture, :func:`invasion_oracle.reports.html.embed`); the rule-ambiguity register with every witness's difference
between readings, the divergence searches and the well-formedness checks; and the fixtures that
depend on each ruling. Everything comes from bundled files, so it runs from any install, and
every claim prints the command that reproduces it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.bundled import examples
from invasion_oracle.model.core.jsonio import parse_json_bytes, read_json_file
from invasion_oracle.model.core.play import run
from invasion_oracle.model.core.spec import GameSpec, ScenarioOptions
from invasion_oracle.reports.ambiguity.analysis import Analysis, Options, analyse
from invasion_oracle.reports.ambiguity.jobs import section_job as section_job  # re-exported
from invasion_oracle.reports.ambiguity.markdown import fixtures_md, game_md
from invasion_oracle.reports.batch import Runner
from invasion_oracle.reports.games import part
from invasion_oracle.reports.html import Block, Picture, page, picture_links, split_pictures
from invasion_oracle.reports.html import _anchor as anchor
from invasion_oracle.reports.output import command_line, md_code, md_escape
from invasion_oracle.reports.tables import table

TITLE = "invasion-oracle report"
LONG_FIRST = {  # measured CPU seconds of the longest sections (docs/performance.md): started first
    "expected_placement": 100,
    "race_search": 90,
    "survival_search": 80,
    "spires_search": 70,
    "differ_search": 60,
    "island_search": 50,
    "phase_policy": 40,
    "escape_analysis": 30,
}


@dataclass(frozen=True, slots=True)
class ReportOptions:
    games: tuple[str, ...]
    command: str
    search: bool = True
    long_sections: bool = True
    examples: int = 200
    time_limit: float | None = None
    fixtures: Path | None = None
    runner: Runner = field(default_factory=Runner)
    witnesses: Path | None = None  # where found witnesses are written (DIR/witnesses)


@dataclass(frozen=True, slots=True)
class GameReport:
    spec: GameSpec
    pictures: tuple[tuple[str, Picture], ...]  # (example, picture)
    sections: tuple[str, ...]  # the game's own Markdown sections
    manifest_cases: int | None


@dataclass(frozen=True, slots=True)
class Report:
    options: ReportOptions
    games: tuple[GameReport, ...]
    analysis: Analysis
    written: dict[str, str]
    # What the writers share, made once: report.md, report.html and the pictures written all
    # read the same blocks (the register's Markdown rendered three times was a third of a report).
    _made: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def blocks(self, picture_folder: str = "pictures") -> list[Block]:
        """The report as Markdown blocks and pictures, in order."""
        if "blocks" not in self._made:
            self._made["blocks"] = self._blocks()
        return list(self._made["blocks"])

    def _fixtures(self) -> str:
        if "fixtures" not in self._made:
            self._made["fixtures"] = "## Fixtures that depend on rulings\n\n" + fixtures_md(self.analysis)
        text: str = self._made["fixtures"]
        return text

    def _blocks(self) -> list[Block]:
        names = ", ".join(f"{g.spec.title} (`{g.spec.name}`)" for g in self.games)
        partial = (
            "**Partial report: interrupted (Ctrl-C).** What had finished is shown; every section or "
            "answer not computed says _(interrupted)_ or unknown.\n\n"
            if self.analysis.interrupted
            else ""
        )
        out: list[Block] = [
            f"# {TITLE}\n\n{partial}Reproduce: {md_code(self.options.command)}\n\nGames: {names}. Every section "
            "prints the command that reproduces it; every search answer was replayed through the oracle.\n"
        ]
        out.append(self._summary())
        for game in self.games:
            out += self._game_blocks(game)
        return out

    def _summary(self) -> str:
        """What a designer came for, per game, first: the rulings whose readings change outcomes,
        the rules a reading leaves dead, and what fails; each links to its details below."""

        def link(text: str, heading: str) -> str:
            return f"[{md_escape(text)}](#{anchor(heading)})"

        rows = []
        for game in self.games:
            spec = game.spec
            rulings = [r for r in self.analysis.rulings if r.game == spec.name]
            changing, failures = [], 0
            for ruling in rulings:
                cover = self.analysis.coverage.get(ruling.id)
                if cover is not None and any(d.kind == "outcome" for d in cover.differences):
                    changing.append(link(ruling.id, ruling.id))
                failures += 1 if cover is None else len(cover.missing())
            dead = [
                f"{link(d.ruling, d.ruling)}={md_escape(d.reading)}: {md_escape(d.rule)}"
                for r in rulings
                for d in self.analysis.never_fired(r.id)
            ]
            failures += sum(
                1
                for check in self.analysis.wellformed.get(spec.name, ())
                if check.status == "found" and not check.check.startswith("reach: ")
            )
            failures += sum(1 for r in rulings for d in self.analysis.never_fired(r.id) if d.default)
            rows.append(
                [
                    link(spec.title, f"{spec.title} ({spec.name})"),
                    f"{len(changing)} of {len(rulings)}: " + (", ".join(changing) or "none"),
                    "<br>".join(dead) or ("none" if self.analysis.dead_rules is not None else "not searched"),
                    str(failures) if failures else "none",
                ]
            )
        body = table(
            rows,
            ["game", "rulings whose readings change the outcome", "dead rules (reading: rule)", "failures"],
        )
        return (
            "## Summary\n\nPer game: the open rules whose readings change who wins or what is left on the "
            "board (the others change only the events, or nothing), the rules a reading leaves dead, and "
            "the failures (a reading without a witness, a well-formedness problem, a default reading "
            "under which a rule never fires). Each name links to its details below.\n\n" + body + "\n"
        )

    def _game_blocks(self, game: GameReport) -> list[Block]:
        spec = game.spec
        rulings = [r for r in self.analysis.rulings if r.game == spec.name]
        cases = "not read" if game.manifest_cases is None else str(game.manifest_cases)
        summary = table(
            [
                ["rulebook", md_escape(spec.rulebook or spec.title)],
                ["rulings", str(len(rulings))],
                ["bundled examples", str(len(examples(spec.examples)) if spec.examples else 0)],
                ["fixture cases (manifest)", cases],
            ],
            ["fact", "value"],
        )
        out: list[Block] = [f"## {md_escape(spec.title)} ({spec.name})\n\n{summary}\n"]
        if game.pictures:
            out.append("### Pictures: each bundled example at its end\n")
            for example, picture in game.pictures:
                out.append(picture)
                command = command_line(["invasion", spec.name, "simulate", example, "--svg", picture.name])
                out.append(f"Reproduce: {md_code(command)}\n")
        for section in game.sections:  # a section may hold pictures (reports.html.embed)
            out += split_pictures(demote(section))
        heading = f"{md_escape(spec.title)}: rule ambiguities"
        out.append(game_md(self.analysis, spec.name, self.written, level=3, heading=heading))
        return out

    def all_pictures(self) -> list[Picture]:
        """Every picture the report shows (the examples' and the sections'), in order."""
        return [block for block in self.blocks() if isinstance(block, Picture)]

    def markdown(self, picture_folder: str = "pictures") -> str:
        parts = []
        for block in self.blocks():
            if isinstance(block, Picture):
                parts.append(f"![{md_escape(block.caption)}]({picture_folder}/{block.name})\n")
            else:
                parts.append(block)
        parts.append(self._fixtures() + "\n")
        return "\n".join(parts)

    def html(self) -> str:
        blocks = [*self.blocks(), self._fixtures()]
        return page(TITLE, blocks)

    def to_json(self) -> dict[str, Any]:
        answer = self.analysis.to_json()
        games = []
        for game in self.games:
            name = game.spec.name
            games.append(
                {
                    "game": name,
                    "title": game.spec.title,
                    "rulebook": game.spec.rulebook or game.spec.title,
                    "pictures": [
                        {
                            "example": example,
                            "file": picture.name,
                            "sha256": hashlib.sha256(picture.svg.encode("utf-8")).hexdigest(),
                        }
                        for example, picture in game.pictures
                    ],
                    "sections": [picture_links(section) for section in game.sections],
                    "rulings": [r for r in answer["rulings"] if r["game"] == name],
                    "wellformed": answer["wellformed"].get(name),
                    "fixture_cases": game.manifest_cases,
                }
            )
        found = {"games": games, "fixtures": answer["fixtures"], "problems": answer["problems"]}
        if self.analysis.interrupted:
            found["interrupted"] = True
        return found


def demote(markdown: str) -> str:
    """Every heading one level deeper (outside fenced blocks): a game's sections under its heading.

    >>> demote("## A\\n```\\n## not a heading\\n```")
    '### A\\n```\\n## not a heading\\n```'
    """
    out, fenced = [], False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,5} ", line):
            line = "#" + line
        out.append(line)
    return "\n".join(out)


def picture_of(spec: GameSpec) -> Callable[[Any, Any], str | None]:
    """The game's SVG renderer: its reports part ``svg.render_svg`` or its spec's."""
    module = part(spec.name, "svg")
    found: Callable[[Any, Any], str | None] = (
        getattr(module, "render_svg", spec.render_svg) if module else spec.render_svg
    )
    return found


def pictures(spec: GameSpec) -> tuple[tuple[str, Picture], ...]:
    """A picture of each bundled (top-level) example scenario at its end."""
    if not spec.examples:
        return ()
    folder = spec.examples.rpartition(":")[2]
    render = picture_of(spec)
    found = []
    for ref in examples(spec.examples, recursive=False):
        document = parse_json_bytes(ref.read_bytes(), str(ref))
        if not isinstance(document, dict) or document.get("game") != spec.name:
            continue
        scenario = spec.load(document, str(ref), ScenarioOptions())
        svg = render(scenario, run(scenario).final)
        if svg is None:
            continue
        stem = ref.relative.removeprefix(f"{folder}/").removesuffix(".json")
        name = f"{registry.package_of(spec.name)}-{stem}.svg"
        found.append((str(ref), Picture(name, f"{spec.name}: {stem} at its end", svg)))
    return tuple(found)


def game_sections(game: str, long_sections: bool) -> list[tuple[str, str]]:
    module = part(game, "sections")
    if module is None:
        return []
    kinds = ("SECTIONS", "LONG_SECTIONS") if long_sections else ("SECTIONS",)
    return [(module.__name__, make.__name__) for kind in kinds for make in getattr(module, kind, ())]


def manifest_counts(folder: Path | None) -> dict[str, int] | None:
    if folder is None:
        return None
    manifest = read_json_file(folder / "manifest.json")
    counts: dict[str, int] = {}
    for case in manifest.get("cases", []) if isinstance(manifest, dict) else []:
        if isinstance(case, dict):
            counts[str(case.get("game"))] = counts.get(str(case.get("game")), 0) + 1
    return counts


def build(options: ReportOptions) -> Report:
    """Run everything the report shows (the sections and searches as one batch each)."""
    from invasion_oracle.reports.ambiguity.write import write_witnesses

    registry.load_all()
    specs = [registry.spec(g) for g in options.games]
    # The analysis first: it reads the fixtures folder, so a broken one is refused before the
    # sections' work starts.
    counts = manifest_counts(options.fixtures)
    work = [pair for spec in specs for pair in game_sections(spec.name, options.long_sections)]
    # One batch: the sections (a few long searches) first, then the many short ambiguity jobs,
    # so that on two cores the long ones run side by side with the rest.
    ordered = sorted(range(len(work)), key=lambda i: (-LONG_FIRST.get(work[i][1], 0), i))
    analysis = analyse(
        Options(
            options.games,
            fixtures=options.fixtures,
            search=options.search,
            wellformed=options.search,
            dead_rules=options.search,
            examples=options.examples,
            time_limit=options.time_limit,
            runner=options.runner,
        ),
        tuple(("section", work[i]) for i in ordered),
    )
    sections: list[Any] = [None] * len(work)
    for position, i in enumerate(ordered):
        sections[i] = analysis.extra[position]
    by_module: dict[str, list[str]] = {}
    for (module, _), text in zip(work, sections, strict=True):
        by_module.setdefault(module, []).append(text if text is not None else "_(interrupted)_")
    written = write_witnesses(analysis, options.witnesses) if options.witnesses else {}
    games = []
    for spec in specs:
        module = f"invasion_oracle.reports.{registry.package_of(spec.name)}.sections"
        games.append(
            GameReport(
                spec,
                pictures(spec),
                tuple(by_module.get(module, [])),
                None if counts is None else counts.get(spec.name, 0),
            )
        )
    return Report(options, tuple(games), analysis, written)

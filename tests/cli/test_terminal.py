"""What a user sees on a terminal (issue 36): the verbs' answers drawn by rich, with no Markdown
syntax and no line wider than the terminal; in a pipe, the Markdown itself, unchanged.

The first test runs the real command in an 80-column tmux pane and reads the pane back, as a
person would see it.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from invasion_oracle.reports import output, terminal
from invasion_oracle.reports.cli import main
from invasion_oracle.reports.tables import table

WIDTH = 80
INVASION = [sys.executable, "-m", "invasion_oracle.reports.cli"]
FENCE = re.compile(r"^\s*```")  # (a Spirit Island picture draws the Ocean with ~~~)
TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$")  # | --- | --- |
HEADING = re.compile(r"^#{1,6} \S")


def markdown_seen(lines: list[str]) -> list[str]:
    """The lines showing Markdown syntax: a fence, ``**``, ``<br>``, a ``\\_`` escape, a table's
    ``|---|`` rule or its pipe row, a ``#`` heading."""
    seen = []
    for line in lines:
        if (
            FENCE.match(line)
            or "**" in line
            or "<br>" in line
            or "\\_" in line
            or TABLE_RULE.match(line)
            or HEADING.match(line)
        ):
            seen.append(line)
    return seen


def too_wide(lines: list[str], width: int = WIDTH) -> list[str]:
    return [line for line in lines if len(line.rstrip()) > width]


# -- on a real terminal: tmux ------------------------------------------------------------------

COMMANDS = {
    "rulings": (["rulings", "--game", "vulketh", "--no-cache"], 0, "id: VK-APPEASE"),
    "place": (["stonespine", "place", "example:stonespine/placement.json"], 0, "guardian"),
    "plan": (["stonespine", "plan", "example:stonespine/plan-year3"], 0, "purchases"),
    # the scenario's outcome depends on rulings it does not declare: the check fails (exit 1)
    "check": (
        ["ambiguities", "example:stonespine/rulings/SS-PASSAGE.json", "--check", "--no-cache"],
        1,
        "ambiguities check: FAILED",
    ),
}


# The tests reading the panes (a module fixture) run in one worker under `make test` (--dist
# loadgroup): the commands run in tmux once, not once per worker.
ONE_TMUX = pytest.mark.xdist_group("terminal-tmux")


@pytest.fixture(scope="module")
def panes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[int, list[str]]]]:
    """Each command of COMMANDS run in its own 80-column tmux pane (all at once): its exit status
    and the lines the pane shows, scrollback included (long lines joined back: ``-J``)."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it from Debian's packages)")
    folder = tmp_path_factory.mktemp("tmux")
    socket = f"invasion-test-{uuid.uuid4().hex[:8]}"
    tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "TMUX")}
    env["INVASION_CACHE_DIR"] = str(folder / "cache")
    root = Path(__file__).parents[2]
    try:
        for name, (argv, _, _) in COMMANDS.items():
            words = " ".join(_quote(w) for w in [*INVASION, *argv])
            rc = _quote(str(folder / f"{name}.rc"))
            # written whole, then renamed: the file is there only once its status is
            script = f"cd {_quote(str(root))} && {words}; echo $? > {rc}.part && mv {rc}.part {rc}"
            subprocess.run(
                [
                    *tmux,
                    "new-session",
                    "-d",
                    "-s",
                    name,
                    "-x",
                    str(WIDTH),
                    "-y",
                    "50",
                    "sh",
                    "-c",
                    f"{script}; sleep 60",
                ],
                env=env,
                check=True,
            )
            subprocess.run([*tmux, "set-option", "-t", name, "history-limit", "10000"], check=True)
        ends = time.monotonic() + 240
        while time.monotonic() < ends and not all((folder / f"{n}.rc").exists() for n in COMMANDS):
            time.sleep(0.02)  # each command writes its status file as it ends
        seen: dict[str, tuple[int, list[str]]] = {}
        for name in COMMANDS:
            rc = (folder / f"{name}.rc").read_text(encoding="utf-8").strip()
            pane = subprocess.run(
                [*tmux, "capture-pane", "-p", "-J", "-S", "-", "-t", name],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            seen[name] = (int(rc), pane.rstrip("\n").split("\n"))
        yield seen
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


def _quote(word: str) -> str:
    import shlex

    return shlex.quote(word)


@ONE_TMUX
@pytest.mark.parametrize("name", list(COMMANDS))
def test_on_an_80_column_terminal_no_markdown_and_no_line_too_wide(
    panes: dict[str, tuple[int, list[str]]], name: str
) -> None:
    rc, lines = panes[name]
    _, expected_rc, shown = COMMANDS[name]
    text = "\n".join(lines)
    assert rc == expected_rc, text
    assert shown in text, text
    assert markdown_seen(lines) == [], text
    assert too_wide(lines) == [], text


@ONE_TMUX
def test_a_ruling_per_block_on_the_terminal(panes: dict[str, tuple[int, list[str]]]) -> None:
    _, lines = panes["rulings"]
    titles = [line for line in lines if line.startswith("id: VK-")]
    assert len(titles) >= 10  # every Vul'Keth ruling, each a block with its own title line
    assert len(lines) < 250  # 349 lines as seven narrow columns before


# -- the renderer ------------------------------------------------------------------------------


def test_headings_emphasis_code_escapes_and_breaks_are_drawn_not_shown() -> None:
    shown = terminal.render("## Best plan\n\nValue **3** in `C1`, *seed* 003\\_a<br>next\n", WIDTH)
    assert shown.splitlines() == ["Best plan", "", "Value 3 in C1, seed 003_a", "next"]


def test_styles_reach_the_terminal_as_styles() -> None:
    shown = terminal.render("Value **3**", WIDTH, color=True)
    assert "\x1b[1m3" in shown and "**" not in shown


def test_a_table_that_fits_is_a_table_without_pipes() -> None:
    shown = terminal.render(table([("Ann", 3), ("Bo", 12)], ["player", "defeated"]), WIDTH).splitlines()
    assert shown[0].split() == ["player", "defeated"] and set(shown[1]) == {"─"}
    assert shown[2].split() == ["Ann", "3"] and not markdown_seen(shown)


def test_a_table_too_wide_becomes_one_block_per_row_within_the_width() -> None:
    rows = [(f"R-{i}", "a question " * 8, "one<br>two", "why " * 30, "`example:x/y.json`") for i in range(3)]
    markdown = table(rows, ["id", "question", "readings", "why", "witnesses"])
    for width in (40, 80, 100):
        shown = terminal.render(markdown, width).splitlines()
        assert [line for line in shown if line.startswith("id: ")] == ["id: R-0", "id: R-1", "id: R-2"]
        assert too_wide(shown, width) == [] and markdown_seen(shown) == []
        readings = shown.index(next(line for line in shown if "readings" in line))
        assert shown[readings].split()[-1] == "one" and shown[readings + 1].split() == ["two"]


def test_a_picture_keeps_its_lines() -> None:
    picture = "+--+--+\n|A1|B1|\n+--+--+"
    shown = terminal.render(f"Dungeon:\n\n```\n{picture}\n```\n", WIDTH)
    assert picture in shown and "```" not in shown


def test_a_long_word_is_folded_to_the_width() -> None:
    shown = terminal.render("see " + "x" * 150, 60).splitlines()
    assert too_wide(shown, 60) == [] and "".join(shown).count("x") == 150


def test_lists_and_plain_lines() -> None:
    shown = terminal.render("- one **a**\n- two", WIDTH).splitlines()
    assert shown == ["- one a", "- two"]
    assert terminal.wrap_plain("- " + "word " * 30, 40).splitlines()[1].startswith("  word")


def test_emit_draws_only_on_a_terminal_and_never_touches_raw_output(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    markdown = "## T\n\n**x**"
    document = json.dumps({"a": "**b**"}, indent=2)
    for width, expected in ((None, "## T\n\n**x**\n"), (WIDTH, "T\n\nx\n")):
        stdout = io.StringIO()
        monkeypatch.setattr(sys, "stdout", stdout)
        output.set_terminal(width)
        output.emit(markdown)
        output.emit(document, kind="raw")
        assert stdout.getvalue() == expected + document + "\n"
    output.set_terminal(None)


@pytest.mark.parametrize(
    "argv",
    [
        ["games"],
        ["examples"],
        ["rulings", "--no-cache"],
        ["stonespine", "data"],
        ["simulate", "example:stonespine/default.json"],
        ["simulate", "example:spirit_island/invader_phase.json"],
        ["simulate", "example:cloudspire/round.json"],
    ],
    ids=" ".join,
)
def test_every_verb_drawn_at_80_columns_has_no_markdown_and_fits(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--format", "md"]) == 0
    markdown = capsys.readouterr().out
    shown = terminal.render(markdown, WIDTH).splitlines()
    assert markdown_seen(shown) == [] and too_wide(shown) == []


# -- in a pipe ---------------------------------------------------------------------------------


def test_in_a_pipe_a_search_prints_plain_progress_lines_and_the_same_markdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["stonespine", "place", "example:stonespine/placement.json"]
    env = {**os.environ, "INVASION_PROGRESS_SECONDS": "0"}  # a line at every step
    ticking = subprocess.run([*INVASION, *argv], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert ticking.returncode == 0, ticking.stderr
    assert main(argv) == 0  # (the tests' stdout is no terminal either, and no line is due)
    quiet = capsys.readouterr()
    assert ticking.stdout == quiet.out and quiet.err == ""
    assert "```" in ticking.stdout and "|---" in ticking.stdout  # the Markdown, as --format md gives it
    lines = ticking.stderr.splitlines()
    assert lines and all(line.startswith("invasion: placements") for line in lines), lines
    assert "\x1b" not in ticking.stderr + ticking.stdout  # no bar, no style: plain text


# -- progress on a terminal --------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_shows_done_of_total_and_time_left_or_without_a_total_what_is_known() -> None:
    from invasion_oracle.solver.common import Progress

    stream = _Terminal()
    progress = Progress("plan: purchase sequences", total=10, stream=stream, unit="sequences")
    progress.step(4)
    progress._bar.draw()
    progress.stage("race (z3): latest loss, turn 1 of 3", None, "plan(s) proposed")
    progress.step(7)
    progress._bar.draw()
    progress.finish()
    drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())
    assert "4/10 sequences · about " in drawn and " left · " in drawn, drawn
    assert "7 plan(s) proposed so far · " in drawn, drawn
    unknown = drawn.rsplit("turn 1 of 3", 1)[-1]
    assert "/" not in unknown.replace("plan(s)", "") and "left" not in unknown, drawn  # no made-up total


def test_a_search_inside_a_batch_draws_no_second_bar() -> None:
    from invasion_oracle.solver.progress_bar import TerminalBar

    outer = TerminalBar("witness runs", 3, _Terminal(), "jobs")
    inner_stream = _Terminal()
    inner = TerminalBar("placements", None, inner_stream)  # rich allows one live display at once
    inner.update(5)
    inner.close()
    outer.close()
    assert outer.drawing and not inner.drawing and inner_stream.getvalue() == ""
    again = TerminalBar("placements", None, _Terminal())  # the batch's bar is gone: it draws
    assert again.drawing
    again.close()

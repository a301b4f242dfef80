"""A long search in a pipe or a CI log says it is alive: a plain progress line on stderr about
every ten seconds (issue 36), and nothing on stdout; on a terminal a rich bar is drawn instead."""

from __future__ import annotations

import io
import json

import pytest

from invasion_oracle.reports.cli import main
from invasion_oracle.solver import common
from invasion_oracle.solver.common import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_quick_search_in_a_pipe_prints_nothing() -> None:
    stream = io.StringIO()
    progress = Progress("states", stream=stream)
    progress.step(1000)
    progress.finish()
    assert stream.getvalue() == ""


def test_in_a_pipe_a_line_comes_after_each_tick_with_counts_and_time_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(common, "PIPE_TICK_SECONDS", 0.0)
    stream = io.StringIO()
    progress = Progress("placements", total=400, stream=stream)
    progress.step(100)
    progress.step(100)
    progress.finish()
    progress.step(100)  # finished: quiet
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("invasion: placements: 100/400 done, about ") and " s left, " in lines[0]
    assert lines[1].startswith("invasion: placements: 200/400 done")


def test_without_a_total_the_line_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "PIPE_TICK_SECONDS", 0.0)
    stream = io.StringIO()
    Progress("states", stream=stream).step(12_345)
    assert stream.getvalue().startswith("invasion: states: 12,345 done (total not known in advance), ")


def test_on_a_terminal_no_plain_line_is_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "PIPE_TICK_SECONDS", 0.0)
    stream = Terminal()
    progress = Progress("states", total=10, stream=stream)
    progress.step(5)
    progress.finish()
    assert "invasion: states:" not in stream.getvalue()


def test_a_search_in_a_pipe_keeps_stdout_byte_identical(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["cloudspire", "survive", "example:cloudspire/survive.json", "--rounds", "1", "--json"]
    assert main(argv) == 0
    quiet = capsys.readouterr()
    monkeypatch.setattr(common, "PIPE_TICK_SECONDS", 0.0)
    assert main(argv) == 0
    ticking = capsys.readouterr()
    assert ticking.out == quiet.out and json.loads(ticking.out)["answer"]
    assert quiet.err == "" and ticking.err.startswith("invasion: survival states: ")

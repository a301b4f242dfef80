"""The progress bar a long stage draws on a terminal (rich), shared by the searches and the report's
job batches.

With a total it shows done/total and the time left, estimated from the average so far (as the pipe
lines do); without one, never a made-up total: the stage, what it has counted so far and the time
elapsed. The bar is transient (the terminal keeps the answer, not the bar), draws only on the
stream it was given (stderr: stdout stays the answer's), and is stopped at exit even when a search
was cut short by an exception, so the cursor is never left hidden.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
from functools import cache
from typing import Any, TextIO

_LIVE: list[TerminalBar] = []
_LIVE_LOCK = threading.Lock()


def duration(seconds: float) -> str:
    """A duration as a person reads it.

    >>> duration(7.4), duration(125), duration(7384)
    ('7 s', '2 min 05 s', '2 h 03 min')
    """
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


def time_left(done: int, total: int | None, elapsed: float) -> str:
    """What is known of the time left: an estimate from the average so far, or why there is none.

    >>> time_left(25, 100, 10.0)
    'about 30 s left'
    >>> time_left(0, 100, 3.0), time_left(5, None, 3.0)
    ('time left: estimating', 'total not known in advance')
    """
    if not total:
        return "total not known in advance"
    if done <= 0:
        return "time left: estimating"
    if done >= total:
        return "done"
    return f"about {duration(elapsed * (total - done) / done)} left"


BAR_WIDTH = 12


def status_line(label: str, done: int, total: int | None, elapsed: float, unit: str, width: int) -> str:
    """The bar's one line, at most ``width`` columns: the stage's name gives way (an ellipsis)
    before the counts and the time do.

    >>> status_line("race: plans searched", 3, 12, 6.0, "plans", 80)
    'race: plans searched ━━━───────── 3/12 plans · about 18 s left · 6 s'
    >>> status_line("survival states", 1234, None, 3.0, "states", 50)
    'survival states 1,234 states so far · 3 s'
    >>> status_line("survival states", 1234, None, 3.0, "states", 36)
    'survival … 1,234 states so far · 3 s'
    """
    unit = f" {unit}" if unit else ""
    if total is None:
        tail = f"{done:,}{unit} so far · {duration(elapsed)}"
    else:
        filled = min(BAR_WIDTH, BAR_WIDTH * done // total) if total > 0 else BAR_WIDTH
        bar = "━" * filled + "─" * (BAR_WIDTH - filled)
        tail = f"{bar} {done:,}/{total:,}{unit} · {time_left(done, total, elapsed)} · {duration(elapsed)}"
    room = width - len(tail) - 1
    if room < len(label):
        label = label[: max(room - 1, 0)] + "…" if room > 1 else ""
    return f"{label} {tail}" if label else tail[:width]


@cache
def _line_column() -> Any:
    """The rich column drawing :func:`status_line` (rich is imported only on a terminal)."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class Line(ProgressColumn):
        def __init__(self, unit: str, width: Any) -> None:
            super().__init__()
            self.unit = unit
            self.width = width

        def render(self, task: Task) -> Text:
            total = None if task.total is None else int(task.total)
            line = status_line(
                task.description, int(task.completed), total, task.elapsed or 0.0, self.unit, self.width() - 1
            )
            return Text(line)

    return Line


class TerminalBar:
    """One stage's bar on ``stream`` (a terminal): ``update`` counts, ``restart`` names a new stage
    (its own total, or None), ``close`` removes the bar.

    One bar at a time: a search run inside a batch whose bar is showing (in the same process, or
    in a pool worker forked from it) draws none, so two bars never overwrite each other's line;
    the batch's bar counts its jobs."""

    def __init__(self, label: str, total: int | None, stream: TextIO, unit: str = "") -> None:
        self._pid = os.getpid()
        self._progress: Any = None
        with _LIVE_LOCK:
            if _LIVE:
                return
            _LIVE.append(self)
        from rich.console import Console
        from rich.progress import Progress as RichProgress

        console = Console(file=stream, highlight=False, markup=False, emoji=False)
        self._line = _line_column()(unit, lambda: console.width)
        self._progress = RichProgress(
            self._line,
            console=console,
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
            refresh_per_second=5,
        )
        self._task = self._progress.add_task(label, total=total)
        self._progress.start()

    @property
    def drawing(self) -> bool:
        """Whether this bar draws (no other bar was showing when it was made)."""
        return self._progress is not None

    def update(self, n: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, n)

    def draw(self) -> None:
        """Draw the line now (it is otherwise redrawn five times a second)."""
        if self._progress is not None:
            self._progress.refresh()

    def restart(self, label: str, total: int | None, unit: str = "") -> None:
        """A new stage on the same line: the counts, the clock and the kind of bar start again."""
        if self._progress is not None:
            self._line.unit = unit
            self._progress.remove_task(self._task)  # (reset cannot take a total away)
            self._task = self._progress.add_task(label, total=total)

    def close(self) -> None:
        if self._progress is None or self._pid != os.getpid():  # a forked copy: the parent's bar
            return
        with _LIVE_LOCK:
            if self not in _LIVE:
                return
            _LIVE.remove(self)
        with contextlib.suppress(OSError, ValueError):  # a closed terminal stops nothing
            self._progress.stop()


@atexit.register
def _stop_all() -> None:
    for bar in list(_LIVE):
        bar.close()

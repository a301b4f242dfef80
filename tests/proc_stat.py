"""A process's status line from ``/proc`` (Linux), for tests that watch processes they started."""

from __future__ import annotations

from pathlib import Path


def stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (the state first); None once gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()  # the name in parentheses may hold spaces

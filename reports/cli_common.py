"""Small helpers the per-game command modules share (output, data files, reproduce lines)."""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.reports.output import command_line as _command_line
from invasion_oracle.reports.output import emit

__all__ = ["command_line", "emit", "parse_data_file"]


def command_line(argv: list[str]) -> str:
    """The command as typed after ``invasion``, shell-quoted, to print beside its output."""
    return _command_line(["invasion", *argv])


def parse_data_file(path: str | None) -> dict[str, Any] | None:
    """A ``--data`` file: a JSON object of data overrides (or None without the option)."""
    if path is None:
        return None
    from invasion_oracle.model.core.jsonio import read_json_file

    data = read_json_file(path)
    if not isinstance(data, dict):
        raise MalformedInputError(path, "$", "a data file is a JSON object")
    return data

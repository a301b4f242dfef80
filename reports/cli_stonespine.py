"""Kept for ``reports.cli_stonespine_solve`` until it moves into ``reports/stonespine/``."""

from __future__ import annotations

from reports.cli_common import command_line

__all__ = ["command_line"]

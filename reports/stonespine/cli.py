"""``invasion stonespine ...``: the verbs only Stonespine has (the searches).

Argument parsing only; the work happens in handlers that import the solvers when called, so
building the parser stays cheap.
"""

from __future__ import annotations

from typing import Any


def register(commands: Any) -> None:
    # `invasion stonespine ambiguities` is the generic verb (reports/ambiguity/cli.py) now.
    from reports import cli_stonespine_solve

    cli_stonespine_solve.register(commands)

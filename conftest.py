"""Collection for the whole repository (the tests' own fixtures live in ``tests/conftest.py``).

``--doctest-modules`` collects every module of the packages; a module without a ``>>>`` example
has no doctest to find, and walking its members for none cost about 2.5 s per worker.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

PACKAGE = "invasion_oracle"  # its folders are links to model/, solver/, ... at the top

# Bytecode is cached even where the environment turns it off (PYTHONDONTWRITEBYTECODE), as
# `make test` does: otherwise every run rewrites and compiles every test module again in each
# worker, and the commands the tests start compile what changed since `make`, each of them.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix != ".py" or collection_path.name == "conftest.py":
        return None
    relative = collection_path.relative_to(config.rootpath).parts
    if relative and relative[0] == PACKAGE and ">>>" not in collection_path.read_text(encoding="utf-8"):
        return True
    return None

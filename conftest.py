"""Collection for the whole repository (the tests' own fixtures live in ``tests/conftest.py``).

Doctests: every module of the package with a ``>>>`` example is collected, and imported by its
package name (``invasion_oracle.model.core.jsonio``), never by its path. The folders model/,
solver/, ... sit at the top of the repository and are mapped to ``invasion_oracle.*`` by setup.py;
imported by path they would become a second copy of the module (``model.core.jsonio``). A module
without an example is not collected: walking its members for none cost about 2.5 s per worker.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from _pytest.doctest import DoctestModule

PACKAGE = "invasion_oracle"
MAPPED_FOLDERS = ("model", "solver", "reports", "properties", "examples")  # setup.py's package_dir

# Bytecode is cached even where the environment turns it off (PYTHONDONTWRITEBYTECODE), as
# `make test` does: otherwise every run rewrites and compiles every test module again in each
# worker, and the commands the tests start compile what changed since `make`, each of them.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def module_name(path: Path, root: Path) -> str | None:
    """The import name of a package file, or None for a file outside the package."""
    parts = path.relative_to(root).with_suffix("").parts
    if not parts or parts[0] not in (PACKAGE, *MAPPED_FOLDERS):
        return None
    if parts[0] != PACKAGE:
        parts = (PACKAGE, *parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


class PackageDoctests(DoctestModule):
    """The doctests of one module, imported by its package name."""

    def _getobj(self) -> ModuleType:
        name = module_name(self.path, self.config.rootpath)
        assert name is not None
        return importlib.import_module(name)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix != ".py" or module_name(file_path, parent.config.rootpath) is None:
        return None
    if ">>>" not in file_path.read_text(encoding="utf-8"):
        return None
    collector: pytest.Collector = PackageDoctests.from_parent(parent, path=file_path)
    return collector

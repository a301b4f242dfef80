"""The library under its own name: the README's library section and docs/api.md run as written."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["README.md", "docs/api.md"])
def test_library_examples_run(name: str) -> None:
    """The README's library section and every example of docs/api.md run as doctests."""

    result = doctest.testfile(str(ROOT / name), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, (
        f"{name}: {result.failed} of {result.attempted} failed"
    )


def test_the_readme_library_section_is_short() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## From Python", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python", 1)[1].split("```", 1)[0].strip().splitlines()
    assert 0 < len(code) <= 15, len(code)


def test_no_module_imports_the_folders_by_their_old_top_level_names() -> None:
    """In a checkout `model`, `solver`, ... are importable too (the repository root is on the path);
    a module importing them so would load a second copy of the package beside invasion_oracle."""
    import re

    old = re.compile(r"^\s*(from|import) (model|solver|reports|properties|examples)\b", re.M)
    offenders = [
        str(path.relative_to(ROOT))
        for top in ("model", "solver", "properties", "reports", "examples", "tests", "invasion_oracle")
        for path in (ROOT / top).rglob("*.py")
        if not path.is_symlink() and old.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_the_public_api_is_importable_without_loading_the_solvers() -> None:
    code = (
        "import sys, invasion_oracle as io\n"
        "assert callable(io.load) and io.games()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('z3', 'networkx', 'ortools')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_every_public_name_has_a_docstring_with_an_example() -> None:
    import invasion_oracle as io
    from invasion_oracle import cloudspire, spirit_island, stonespine, vulketh

    missing = [
        name
        for name in io.__all__
        if name != "__version__" and ">>>" not in (getattr(io, name).__doc__ or "")
    ] + [
        f"{module.__name__}.{name}"
        for module in (stonespine, spirit_island, vulketh, cloudspire)
        for name in module.__all__
        if ">>>" not in (getattr(module, name).__doc__ or "")
    ]
    assert missing == []


def test_the_lazily_loaded_names_are_the_api_modules_own() -> None:
    # invasion_oracle lists them without importing api (to keep `invasion --help` fast): one list
    # must not drift from the other
    import invasion_oracle
    from invasion_oracle import api

    assert set(invasion_oracle._API) == set(api.__all__)

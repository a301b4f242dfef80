"""The layers hold for every game, including ones added later (the design card).

``make lint`` runs import-linter's contracts from ``pyproject.toml``; these tests check what a
contract would have to list game by game: the shared core imports no other part of ``model``,
and the modules of ``reports`` import each other without a circle.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from tests.import_graph import import_edges

ROOT = Path(__file__).resolve().parents[1]
MAPPED_FOLDERS = ("model", "solver", "reports", "properties", "examples")  # setup.py's package_dir


def test_the_shared_core_imports_nothing_of_model_outside_it() -> None:
    offending = [
        (importer, imported)
        for importer, imported in import_edges()
        if (importer == "invasion_oracle.model.core" or importer.startswith("invasion_oracle.model.core."))
        and imported.startswith("invasion_oracle.model.")
        and not imported.startswith("invasion_oracle.model.core")
    ]
    assert offending == []


def test_the_package_has_no_import_circle_even_for_type_checking() -> None:
    # `make lint` refuses run-time circles (.ci/import-circles); the typing-only ones are gone too.
    assert list(nx.simple_cycles(nx.DiGraph(list(import_edges())))) == []


def _circle_lint(tmp_path: Path, modules: dict[str, str]) -> subprocess.CompletedProcess[str]:
    package = tmp_path / "circled"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name, text in modules.items():
        (package / f"{name}.py").write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "import-circles"), "circled"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_circle_lint_refuses_a_run_time_circle_and_allows_a_typing_only_one(tmp_path: Path) -> None:
    refused = _circle_lint(
        tmp_path / "run",
        {
            "spec": "from circled.simulate import run\n",
            "simulate": "def run():\n    from circled import spec\n",
        },
    )
    assert refused.returncode == 1
    assert "import circle: circled.simulate <-> circled.spec" in refused.stdout
    allowed = _circle_lint(
        tmp_path / "typing",
        {
            "spec": "from circled.simulate import run\n",
            "simulate": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from circled import spec\ndef run(): ...\n",
        },
    )
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr


def _complexity_lint(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "complexity"), *map(str, paths)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_complexity_lint_refuses_a_function_above_30_branches(tmp_path: Path) -> None:
    def branches(count: int) -> str:
        return "".join(f"    if x == {n}:\n        return {n}\n" for n in range(count))

    planted = tmp_path / "tangled.py"
    planted.write_text(
        f"def held(x):\n{branches(29)}    return -1\n\ndef tangled(x):\n{branches(31)}    return -1\n",
        encoding="utf-8",
    )
    refused = _complexity_lint(planted)
    assert refused.returncode == 1
    # One line per block above the limit, file:line name complexity (31 ifs + 1); held is at 30.
    assert f"{planted}:62 tangled 32" in refused.stdout.splitlines()
    assert "held" not in refused.stdout


@pytest.mark.slow  # `make lint` (CI) runs the same check; the planted-file test above runs in `make test`
def test_every_function_of_the_repository_stays_within_the_complexity_limit() -> None:
    held = _complexity_lint()
    assert held.returncode == 0, held.stdout + held.stderr


def test_the_repository_holds_no_symbolic_link() -> None:
    # Links break on checkouts without link support and make one module reachable by two paths;
    # setup.py maps the folders to the package instead.
    listed = subprocess.run(
        ["git", "ls-files", "--stage"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert [line for line in listed if line.startswith("120000")] == []
    on_disk = [
        path
        for folder in ("invasion_oracle", *MAPPED_FOLDERS)
        for path in (ROOT / folder).rglob("*")
        if path.is_symlink()
    ]
    assert on_disk == []


def test_every_folder_of_the_mapped_tree_is_a_package_of_the_install() -> None:
    # The editable install serves setup.py's mapping: every module imports by its package name
    # from the folder the repository keeps it in.
    for folder in MAPPED_FOLDERS:
        module = importlib.import_module(f"invasion_oracle.{folder}")
        assert [Path(entry).resolve() for entry in module.__path__] == [(ROOT / folder).resolve()]
    spec = importlib.util.find_spec("invasion_oracle.model.stonespine.spec")
    assert spec is not None and spec.origin == str(ROOT / "model" / "stonespine" / "spec.py")

"""The package's import graph as grimp reads it, for the layer and circle tests.

grimp finds modules by walking the package's folder. The repository maps model/, solver/, ... to
``invasion_oracle.*`` without links (setup.py), so the graph is built in a child process that sees
the package through the package view (``.ci/package-view``), as ``make lint`` does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_BUILD = """
import json, sys
import grimp
graph = grimp.build_graph("invasion_oracle", exclude_type_checking_imports=sys.argv[1] == "run", cache_dir=None)
print(json.dumps(sorted([a, b] for a in graph.modules for b in graph.find_modules_directly_imported_by(a))))
"""


def import_edges(*, run_time_only: bool = False) -> set[tuple[str, str]]:
    """Every (importer, imported) pair among the package's modules; typing-only imports left out on request."""
    view = subprocess.run(
        [str(ROOT / ".ci" / "package-view")], capture_output=True, text=True, check=True
    ).stdout.strip()
    done = subprocess.run(
        [sys.executable, "-c", _BUILD, "run" if run_time_only else "all"],
        cwd=view,
        env={**os.environ, "PYTHONPATH": view},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    edges = {(a, b) for a, b in json.loads(done.stdout)}
    # The graph must hold the mapped folders, or every test over it would pass on nothing.
    assert any(a.startswith("invasion_oracle.model.") for a, _ in edges), "the import graph misses model/"
    return edges

"""An ``example:`` reference resolves only inside the bundled examples: it never imports a module."""

from __future__ import annotations

import subprocess
import sys


def test_an_example_reference_never_imports_the_module_it_names() -> None:
    probe = (
        "import contextlib, io, sys\n"
        "from invasion_oracle.reports.cli import main\n"
        "with contextlib.redirect_stderr(io.StringIO()):\n"
        "    codes = [main(['simulate', ref]) for ref in ('example:this:x.json', 'example:antigravity:x')]\n"
        "print(codes, 'this' in sys.modules, 'antigravity' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[2, 2] False False"

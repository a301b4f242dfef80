"""The invasion oracle behind the conformance protocol: it passes every case.

Run it with the runner from a checkout (after ``make test`` or ``pip install -e .``)::

    invasion conform --cmd "python3 examples/adapters/oracle.py"

It reads one JSON message per line from standard input and writes one per line to standard
output (``docs/conformance.md``); the work is done by ``invasion_oracle.reports.conform.adapter.serve``.
"""

from __future__ import annotations

import sys

from invasion_oracle.reports.conform.adapter import levels_from_argv, serve

if __name__ == "__main__":
    sys.exit(serve(levels=levels_from_argv()))

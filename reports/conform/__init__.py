"""The conformance runner: another implementation against the suite, over a line protocol.

``invasion conform --cmd "COMMAND"`` starts COMMAND once (split like a shell would, run without
one), says hello, sends each case as one JSON line and reads one JSON line back
(``docs/conformance.md``; schema ``invasion fixtures schema conform-protocol``). A crash, a hang
or a garbled line is reported for that case and the implementation is restarted; every read and
write has a deadline, so the runner never hangs.

* :mod:`invasion_oracle.reports.conform.protocol` - the messages and their schema;
* :mod:`invasion_oracle.reports.conform.process` - the implementation's process, with deadlines;
* :mod:`invasion_oracle.reports.conform.runner` - selecting cases, sending them, judging the replies;
* :mod:`invasion_oracle.reports.conform.report` - the table, the failures and the compliance statement;
* :mod:`invasion_oracle.reports.conform.cli` - ``invasion conform``'s options to a run and its report;
* :mod:`invasion_oracle.reports.conform.adapter` - the oracle itself behind the protocol (``examples/adapters``).
"""

from __future__ import annotations

import math

MAX_TIMEOUT = 86_400.0  # a day: a bigger deadline is a typo (and 1e300 s overflows the clock)
SMOKE_PER_GAME = 20  # cases a game in ``--smoke``


def timeout_seconds(text: str) -> float:
    """A deadline in seconds (``--timeout``): finite, above 0, at most a day.

    >>> timeout_seconds("2.5")
    2.5
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    # argparse here, not at the top: an adapter imports this package and parses no option
    import argparse

    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds above 0, got {text!r}")
    if value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_TIMEOUT:g} seconds (a day), got {text!r}")
    return value

"""One JSON shape for the answer of every verb of every game (``--format json``).

::

    {"game": "stonespine", "query": "place", "command": "invasion stonespine place ...",
     "status": "proven", "answer": {...}, "replayed": true}

``status`` says how far to trust ``answer``: ``proven`` (a search finished: the answer is
exact), ``best-found`` (a limit stopped it: the best answer so far, and the bound proved, are
in ``answer``), ``unknown`` (stopped before any answer), ``done`` (not a search: a run, a
listing). ``stopped`` (only in the envelope of a search cut short) says why: ``time-limit``,
``memory-limit`` or ``interrupted`` (Ctrl-C; the command then exits 130). ``replayed`` is true when the oracle replayed the answer and agreed, false when it
was not replayed, and null when there is nothing to replay. The schema is published as
``invasion schema envelope``.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.canonical import canonical_json

STATUSES = ("proven", "best-found", "unknown", "done")


def envelope(
    game: str, query: str, command: str, answer: Any, *, status: str = "done", replayed: bool | None = None
) -> dict[str, Any]:
    """The envelope as plain data.

    >>> envelope("stonespine", "data", "invasion stonespine data --json", {"a": 1})["status"]
    'done'
    """
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
    doc = {
        "game": game,
        "query": query,
        "command": command,
        "status": status,
        "answer": answer,
        "replayed": replayed,
    }
    from invasion_oracle.reports.options import stopped_reason

    stopped = stopped_reason()
    if stopped is not None:  # a search cut short: by its time limit, its memory bound or Ctrl-C
        doc["stopped"] = stopped
    return doc


def envelope_json(
    game: str, query: str, command: str, answer: Any, *, status: str = "done", replayed: bool | None = None
) -> str:
    """The canonical text of :func:`envelope`."""
    doc = envelope(game, query, command, answer, status=status, replayed=replayed)
    return canonical_json(doc, indent=1) + "\n"

"""One JSON shape for the answer of every verb of every game (``--format json``).

::

    {"game": "stonespine", "query": "place", "command": "invasion stonespine place ...",
     "status": "proven", "answer": {...}, "replayed": true}

``status`` says how far to trust ``answer``: ``proven`` (a search finished: the answer is
exact), ``best-found`` (a limit stopped it: the best answer so far, and the bound proved, are
in ``answer``), ``unknown`` (stopped before any answer), ``done`` (not a search: a run, a
listing). ``stopped`` (only in the envelope of a search cut short) says why: ``time-limit``,
``memory-limit`` or ``interrupted`` (Ctrl-C; the command then exits 130). ``engines`` (only with
``--engine both``) lists the engines that ``finished`` and those ``unfinished``, each with why it
``stopped`` and whether it ``started``; ``status`` is ``proven`` only when every one finished and
they agreed, and "agree" is said only of those that finished. ``replayed`` is true
when the oracle replayed the answer and agreed, false when it was not replayed, and null when
there is nothing to replay; it is said here only, never inside ``answer``. The schema is
published as ``invasion schema envelope``; each query's ``answer`` has its own schema,
``invasion schema answer-GAME-QUERY`` (``invasion schema`` lists them).
"""

from __future__ import annotations

import os
from importlib.resources import files
from typing import Any

from invasion_oracle.model.core.canonical import canonical_json, to_jsonable
from invasion_oracle.model.core.errors import MalformedInputError

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
    answer = to_jsonable(answer)  # an answer object's fields, to see a nested "replayed"
    if isinstance(answer, dict) and "replayed" in answer:  # said once, in the envelope
        inner = answer["replayed"]
        answer = {key: value for key, value in answer.items() if key != "replayed"}
        if replayed is None and isinstance(inner, bool):
            replayed = inner
    if os.environ.get("INVASION_DEBUG"):  # the tests: every answer a verb writes meets its schema
        check_answer(game, query, answer)
    doc = {
        "game": game,
        "query": query,
        "command": command,
        "status": status,
        "answer": answer,
        "replayed": replayed,
    }
    from invasion_oracle.reports.options import stopped_reason
    from invasion_oracle.solver.common import recorded_engines

    stopped = stopped_reason()
    if stopped is not None:  # a search cut short: by its time limit, its memory bound or Ctrl-C
        doc["stopped"] = stopped
    runs = recorded_engines()
    if runs is not None:  # --engine both: which engines finished; proven only if every one did
        doc["engines"] = runs.to_json()
        doc["status"] = runs.status(status)
        why = [
            r.stopped for r in runs.unfinished if r.stopped in ("time-limit", "memory-limit", "interrupted")
        ]
        if why and "stopped" not in doc:  # an engine that saw its time run out without tripping
            doc["stopped"] = why[0]
    return doc


def answer_schema_name(game: str, query: str) -> str:
    """The published schema of a query's answer: ``answer-GAME-QUERY``."""
    return f"answer-{game}-{query}"


def check_answer(game: str, query: str, answer: Any) -> None:
    """Raise ``RuntimeError`` (our bug, not the user's) when the answer does not meet its query's
    published schema; a verb without one (a listing, a run) is not checked."""
    resource = f"schemas/{answer_schema_name(game, query)}.schema.json"
    if not files("invasion_oracle.reports").joinpath(resource).is_file():
        return
    # here, not at the top: jsonio brings jsonschema, which only this check (the tests') needs
    from invasion_oracle.model.core.jsonio import load_schema, validate

    schema = load_schema("invasion_oracle.reports", resource)
    try:
        validate(answer, schema, f"the answer of invasion {game} {query}")
    except MalformedInputError as err:
        raise RuntimeError(f"{err} (schema {answer_schema_name(game, query)})") from None


def envelope_json(
    game: str, query: str, command: str, answer: Any, *, status: str = "done", replayed: bool | None = None
) -> str:
    """The canonical text of :func:`envelope`."""
    doc = envelope(game, query, command, answer, status=status, replayed=replayed)
    return canonical_json(doc, indent=1) + "\n"

"""The oracle itself behind the conformance protocol: the reference adapter.

:func:`serve` reads the runner's messages from a binary stream and answers each ``case`` with
what :func:`invasion_oracle.reports.suite.oracle.play` gives, so it passes every case. ``examples/adapters/``
runs it (``oracle.py``) and wraps it with deliberate faults (``broken_*.py``): a :class:`Fault`
may change a case before the oracle plays it, change the reply after, or misbehave (crash,
hang, print garbage) on the cases it picks.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.errors import InvasionError

Message = dict[str, Any]


@dataclass(frozen=True)
class Fault:
    """A deliberate deviation: ``before`` edits the case message, ``after`` edits the reply,
    ``misbehave`` returns ``"crash"``, ``"hang"`` or ``"garbage"`` for the cases it picks."""

    name: str
    before: Callable[[Message], Message] = lambda message: message
    after: Callable[[Message, Message], Message] = lambda message, reply: reply
    misbehave: Callable[[Message], str] = lambda message: ""


def answer_case(message: Message) -> Message:
    """The oracle's reply to one ``case`` message."""
    # here, not at the top: the oracle's player brings the codecs and the schema checks, which
    # an adapter needs from its first case on, not to say hello
    from invasion_oracle.reports.suite.cases import Answer
    from invasion_oracle.reports.suite.oracle import play

    head = {"type": "reply", "id": message["id"], "variant": message["variant"]}
    if message["game"] not in registry.names():
        return {**head, "status": "unsupported", "reason": f"no game {message['game']!r}"}
    spec = registry.spec(message["game"])
    answers = [Answer.from_json(a) for a in message["answers"]]
    try:
        reply = play(
            spec,
            message["scenario"],
            message["rulings"],
            answers,
            message["from"],
            message["projection"],
            source=message["id"],
        )
    except InvasionError as err:
        return {**head, "status": "error", "reason": str(err)}
    return {**head, **reply.to_json()}


def levels_from_argv(argv: list[str] | None = None) -> tuple[str, ...] | None:
    """``--levels state,requests`` on an adapter's command line (``None``: every level).

    >>> levels_from_argv(["adapter.py", "--levels", "state"])
    ('state',)
    """
    argv = sys.argv if argv is None else argv
    if "--levels" in argv[:-1]:
        return tuple(argv[argv.index("--levels") + 1].split(","))
    return None


def at_levels(reply: Message, levels: tuple[str, ...] | None) -> Message:
    """The reply with only what the levels declared need (a state-only reply has no events)."""
    if levels is None:
        return reply
    out = dict(reply)
    if "events" not in levels:
        out.pop("events", None)
    if "requests" not in levels:
        out.pop("requests", None)
        out.pop("pending", None)
    return out


def serve(
    source: IO[bytes] | None = None,
    sink: IO[bytes] | None = None,
    *,
    name: str = "invasion-oracle",
    faults: tuple[Fault, ...] = (),
    levels: tuple[str, ...] | None = None,
) -> int:
    """Answer messages until ``bye`` or the end of input; returns the exit status.

    With ``levels`` it declares those levels (protocol 2) and leaves out of each reply what they
    do not need; without, it declares every level. It is the adapter process's whole life: when
    it ends (``bye``, the end of input, or a case that crashes the adapter) the process exits, so
    it leaves the garbage collector frozen (:func:`gc.freeze`): the interpreter's collections at
    exit then skip the games' modules and data, about a seventh of a run that starts, plays one
    case and stops (what the runner and the fuzzer do after each crash)."""
    try:
        return _serve(source, sink, name, faults, levels)
    finally:
        gc.freeze()


def _serve(
    source: IO[bytes] | None,
    sink: IO[bytes] | None,
    name: str,
    faults: tuple[Fault, ...],
    levels: tuple[str, ...] | None,
) -> int:
    from invasion_oracle.model.core.trace import ORACLE_VERSION

    source = source or sys.stdin.buffer
    sink = sink or sys.stdout.buffer
    # a game loads at its first case (registry.spec imports it): a run of one game's cases
    # starts in a tenth of the time that loading all four takes

    def send(message: Message) -> None:
        sink.write(json.dumps(message, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n")
        sink.flush()

    for line in source:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send(
                {
                    "type": "hello",
                    "name": name,
                    "version": ORACLE_VERSION,
                    "protocol_version": 2,
                    "games": list(registry.names()),
                    "levels": list(levels or ("state", "requests", "events")),
                }
            )
        elif kind == "bye":
            return 0
        elif kind == "case":
            for fault in faults:
                behaviour = fault.misbehave(message)
                if behaviour == "crash":
                    sys.exit(70)
                if behaviour == "hang":
                    time.sleep(3600)
                if behaviour == "garbage":
                    sink.write(b"this is not JSON\n")
                    sink.flush()
                    break
                message = fault.before(message)
            else:
                reply = answer_case(message)
                for fault in faults:
                    reply = fault.after(message, reply)
                send(at_levels(reply, levels))
    return 0

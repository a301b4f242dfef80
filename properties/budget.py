"""How much a generated-scenario search may spend, and the search itself under that budget.

Every search here is "a small generated scenario such that ...": hypothesis draws up to
``examples`` scenarios from a game's strategy; the first that satisfies the condition is then
made smaller by :func:`reduce_document`, at most ``shrinks`` runs of the condition (a fixed work
count, so the answer is the same every run). Hypothesis's own shrinker is not used: on these
scenario documents it spent most of a search's time (a thousand runs of the condition and many
thousand draws for one witness; docs/performance.md, "The full report"). The random source is
seeded from the search's name, so a search gives the same answer every run, in any process or on
any Dask worker. ``seconds`` caps the wall-clock time: past it the condition answers no without
running, so the search ends with what it has (the budget spent is reported).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # hypothesis is imported by the search itself: a command that searches nothing
    # (an `ambiguities` or `report` without --search, which import this module) does not load it
    from hypothesis import strategies as st


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """Scenarios to draw (``examples``), runs of the condition while making the first found
    smaller (``shrinks``), and an optional wall-clock cap (``seconds``)."""

    examples: int = 100
    seconds: float | None = None
    shrinks: int = 150

    def to_json(self) -> dict[str, Any]:
        return {"examples": self.examples, "seconds": self.seconds, "shrinks": self.shrinks}


@dataclass(slots=True)
class Spent:
    """What a search used: scenarios run, and whether the time cap cut it short."""

    runs: int = 0
    shrink_runs: int = 0  # of ``runs``, those spent making the found draw smaller
    reducing: bool = False  # the condition is running on a reduction, not on a draw
    timed_out: bool = False
    notes: dict[str, int] = field(default_factory=dict)

    def note(self, name: str) -> None:
        self.notes[name] = self.notes.get(name, 0) + 1


_CONSTANTS_CACHE: dict[Any, Any] = {}  # hypothesis's constant choices, without the loaded modules'


@contextmanager
def fixed_constants() -> Iterator[None]:
    """Draws that depend on the seed only, not on what the process imported before.

    Hypothesis (6.13x and later) mixes into about one draw in twenty the literal constants it
    finds in the modules loaded so far; in a report's worker process, or a test run, that set
    depends on which jobs ran before, so the same seeded search drew different scenarios (two
    report runs gave different witnesses). Inside this block hypothesis uses only its own global
    constants. It reaches into hypothesis's internals (``providers._get_local_constants``,
    ``CONSTANTS_CACHE``); with a hypothesis that has neither, it does nothing.
    """
    try:
        from hypothesis.internal.conjecture import providers as module
    except ImportError:  # pragma: no cover - another hypothesis layout
        yield
        return
    providers: Any = module
    get = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    local = getattr(providers, "_local_constants", None)
    if get is None or cache is None or local is None:  # pragma: no cover - another hypothesis
        yield
        return
    sets = type(local.integers)
    empty = type(local)(integers=sets(), floats=sets(key=local.floats.key), bytes=sets(), strings=sets())
    providers._get_local_constants = lambda: empty
    providers.CONSTANTS_CACHE = _CONSTANTS_CACHE
    try:
        yield
    finally:
        providers._get_local_constants = get
        providers.CONSTANTS_CACHE = cache


def stable_seed(*names: str) -> int:
    """A seed from names, the same in every process (``hash()`` is salted per process)."""
    return int.from_bytes(hashlib.sha256("\x00".join(names).encode("utf-8")).digest()[:8], "big")


def smallest(
    strategy: st.SearchStrategy[Any],
    condition: Callable[[Any], bool],
    budget: SearchBudget,
    seed_names: tuple[str, ...],
    spent: Spent,
) -> Any | None:
    """The first draw satisfying ``condition``, made smaller (:func:`reduce_document`), or None
    when none was found within the budget."""
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis.errors import NoSuchExample, Unsatisfiable

    # properties cannot import solver.common.Deadline (sibling layers); this is the same clock.
    ends = None if budget.seconds is None else time.perf_counter() + budget.seconds

    def out_of_time() -> bool:
        if ends is not None and time.perf_counter() >= ends:
            spent.timed_out = True
        return spent.timed_out

    def counted(value: Any) -> bool:
        if out_of_time():
            return False
        spent.runs += 1
        return bool(condition(value))

    chosen = settings(
        max_examples=budget.examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        print_blob=False,
    )
    try:
        with fixed_constants():
            found = find(strategy, counted, settings=chosen, random=random.Random(stable_seed(*seed_names)))
    except (NoSuchExample, Unsatisfiable):
        return None

    def still_holds(candidate: Any) -> bool:
        if out_of_time():
            return False
        spent.runs += 1
        spent.shrink_runs += 1
        spent.reducing = True
        try:
            return bool(condition(copy.deepcopy(candidate)))  # a condition may change its document
        except Exception:  # a reduction the loader or the rules refuse is no witness
            return False
        finally:
            spent.reducing = False

    return reduce_document(found, still_holds, budget.shrinks)


def _key(value: Any) -> str:
    """A draw's identity (documents are JSON; anything else by its repr)."""
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


def _size(value: Any) -> tuple[int, str]:
    text = _key(value)
    return len(text), text


def _smaller(value: Any) -> Iterator[Any]:
    """Documents one edit smaller than ``value``, biggest cuts first: a list item or a dict entry
    left out (outer ones first), then a number made 0, halved or one nearer 0, then a word left out of a
    text of three words or more (a chamber's elements)."""
    paths = list(document_nodes(value, ()))
    for path, node in paths:
        if isinstance(node, list):
            for i in reversed(range(len(node))):
                yield replace_node(value, path, node[:i] + node[i + 1 :])
        elif isinstance(node, dict):
            for k in reversed(list(node)):
                yield replace_node(value, path, {key: v for key, v in node.items() if key != k})
    for path, node in paths:
        if isinstance(node, int) and not isinstance(node, bool) and node:
            yield replace_node(value, path, 0)
            if abs(node) > 2:
                yield replace_node(value, path, node // 2)
            if abs(node) > 1:
                yield replace_node(value, path, node - 1 if node > 0 else node + 1)
    for path, node in paths:
        if isinstance(node, str) and node.count(" ") >= 2:
            words = node.split(" ")
            for i in reversed(range(2, len(words))):
                yield replace_node(value, path, " ".join(words[:i] + words[i + 1 :]))


def document_nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every node of a JSON document with its path (the document first, then depth first)."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from document_nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from document_nodes(v, (*path, i))


def replace_node(value: Any, path: tuple[Any, ...], node: Any) -> Any:
    """``value`` with the node at ``path`` replaced (the rest shared, not copied)."""
    if not path:
        return node
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (replace_node(v, rest, node) if k == head else v) for k, v in value.items()}
    return [(replace_node(v, rest, node) if i == head else v) for i, v in enumerate(value)]


def reduce_document(value: Any, holds: Callable[[Any], bool], attempts: int) -> Any:
    """A smaller ``value`` for which ``holds`` is still true, trying at most ``attempts`` candidates.

    Greedy, in passes over :func:`_smaller`'s candidates; a pass goes on from where the last
    accepted edit was made, and a new pass starts while edits are accepted. Only strictly smaller
    candidates (shorter canonical JSON, then lexicographically) are tried, so it always ends.

    >>> reduce_document({"n": [5, 1, 7], "x": 9}, lambda d: 7 in d.get("n", []), 50)
    {'n': [7]}
    """
    current, tried = value, 0
    improved = True
    while improved and tried < attempts:
        improved = False
        position = 0
        while tried < attempts:
            candidates = [c for c in _smaller(current) if _size(c) < _size(current)]
            if position >= len(candidates):
                break
            for index in range(position, len(candidates)):
                if tried >= attempts:
                    break
                tried += 1
                if holds(candidates[index]):
                    current, position, improved = candidates[index], index, True
                    break
            else:
                break
    return current

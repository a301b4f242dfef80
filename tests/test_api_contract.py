"""The library's contract (docs/api.md, "Errors"): every public function and method, given wrong
types and values, answers or raises one of the documented ``InvasionError`` subclasses, and does
so within a time budget: never a bare TypeError, ValueError, AttributeError, OSError or
RecursionError, never a hang.

The functions are found through the ``__all__`` of ``invasion_oracle`` and of its per-game modules,
and the methods through the public classes there, so a new one is covered as soon as it is
exported; :data:`GOOD` gives each a small, fast valid call, whose arguments the property replaces
one at a time with bad values (a test fails when a new function has no entry there).
"""

from __future__ import annotations

import inspect
import json
import math
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import invasion_oracle as io
from invasion_oracle import cloudspire, spirit_island, stonespine, vulketh
from invasion_oracle.model.core.decisions import ChanceRequest, DecisionRequest

MODULES: tuple[ModuleType, ...] = (io, stonespine, spirit_island, vulketh, cloudspire)
BUDGET = 8.0
"""Seconds one call may take: generous (a valid call here takes well under a second alone) so a
machine under load does not fail the test, and far below what an unchecked value costs (a document
nested 100,000 deep took 16 s before it was refused, a search with a wrong count ran on)."""
SCALE = int(os.environ.get("INVASION_HYPOTHESIS_SCALE", "1"))  # deeper sweeps on demand
FAST_LIMIT = 0.5
"""The ``time_limit`` of a search whose other argument is the one under test, so that a wrong value
the search takes (a huge count is a valid count) stops soon and answers ``unknown``."""


class TookTooLong(BaseException):
    """Raised by the alarm inside a call that overran its budget (a BaseException, so that no
    ``except Exception`` in the library can swallow it)."""


def _deep(levels: int) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for _ in range(levels):
        document = {"a": document}
    return document


class _Opaque:
    """An object of no JSON type, whose repr is long."""

    def __repr__(self) -> str:
        return "<opaque " + "x" * 200 + ">"


BAD_VALUES: tuple[object, ...] = (
    None,
    0,
    -1,
    1,
    True,
    math.nan,
    math.inf,
    -math.inf,
    -0.5,
    2.5,
    10**5000,
    -(10**5000),
    2**64,
    "",
    "\x00",
    "a\x00b.json",
    "\ud800",
    "x" * 5000,
    "example:stonespine/" + "x" * 5000,
    "example:os:x.json",
    "/dev/zero",
    "/",
    _deep(100_000),
    {"game": "stonespine", "players": _deep(200)},
    {"game": 5},
    {1: 2},
    {"\ud800": 1},
    [],
    [None],
    ["red", 5],
    [[[]]],
    (1, 2),
    {},
    b"bytes",
    _Opaque(),
    object(),
    {"a", "b"},
    DecisionRequest("gate", "Ann", ("continue", "close")),
)
"""Wrong types and values: None, ints (negative, huge), nan and inf, strings with NUL or a lone
surrogate or absurdly long, paths to devices and folders, deep and odd dicts, lists, objects."""

bad_values = st.one_of(
    st.sampled_from(BAD_VALUES),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(),
    st.text(max_size=6),
    st.lists(st.integers() | st.text(max_size=3), max_size=3),
)


# -- valid calls -------------------------------------------------------------------------------


@cache
def _scenario(name: str) -> io.Scenario:
    return io.load(name)


@cache
def _small_race() -> io.Scenario:
    document = _scenario("example:vulketh/race").raw.document
    return io.load({**document, "player_turns": document["player_turns"][:1]})


@cache
def _one_round_survival() -> io.Scenario:
    """The bundled survival question over its first round only (1,552 states): a wrong ``rounds``
    the search takes (None: the scenario's rounds) then ends in a tenth of a second, where the
    bundled three rounds ran until the time limit."""
    return io.load({**_scenario("example:cloudspire/survive").raw.document, "rounds": 1})


@cache
def _trace() -> dict[str, Any]:
    return _scenario("example:vulketh/solo_game").play().trace()


@cache
def _played() -> io.Playthrough:
    return _scenario("example:vulketh/solo_game").play()


@cache
def _plan() -> stonespine.PolicyPlan:
    return stonespine.policy(_scenario("example:stonespine/placement"), "no-escape")


@cache
def _placed() -> stonespine.PicturedPlacement:
    return stonespine.place(_scenario("example:stonespine/placement"), top=1)


def _request() -> DecisionRequest:
    return DecisionRequest("gate", "Ann", ("continue", "close"))


def _chance() -> ChanceRequest:
    return ChanceRequest("roll", "white", ("black", "red"))


Call = Callable[[], dict[str, Any]]
"""A valid call's arguments by name (made fresh for every call: a Game is used up by stepping)."""

GOOD: dict[str, Call] = {
    "invasion_oracle.games": lambda: {},
    "invasion_oracle.rulings": lambda: {"game": "vulketh"},
    "invasion_oracle.schemas": lambda: {},
    "invasion_oracle.schema": lambda: {"name": "trace"},
    "invasion_oracle.load": lambda: {
        "path_or_example": "example:stonespine/default",
        "rulings": None,
        "data": None,
    },
    "invasion_oracle.replay": lambda: {"trace": _trace(), "source": "<trace>"},
    "invasion_oracle.under_data": lambda: {
        "data": {"extends": "bundled", "heroes": {"Barbarian": {"health": 5}}},
        "game": "stonespine",
    },
    "invasion_oracle.First": lambda: {},
    "invasion_oracle.SeededRandom": lambda: {"seed": 1},
    "invasion_oracle.Scripted": lambda: {"answers": ["close"], "then": io.First(), "used": 0},
    "invasion_oracle.Policy": lambda: {"choose": lambda request: request.options[0]},
    "invasion_oracle.Scenario": lambda: {
        "spec": _scenario("example:stonespine/default").spec,
        "raw": _scenario("example:stonespine/default").raw,
    },
    "invasion_oracle.Game": lambda: {"scenario": _scenario("example:stonespine/default")},
    "invasion_oracle.Playthrough": lambda: {
        "scenario": _scenario("example:vulketh/solo_game"),
        "run": _played().run,
    },
    "invasion_oracle.Ruling": lambda: {
        field.name: getattr(io.rulings("vulketh")[0], field.name) for field in fields(io.Ruling)
    },
    "invasion_oracle.stonespine.place": lambda: {
        "scenario": _scenario("example:stonespine/placement"),
        "objective": "guaranteed",
        "measure": None,
        "target": None,
        "top": 3,
        "player": 0,
        "engine": None,
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.stonespine.wave": lambda: {
        "scenario": _scenario("example:stonespine/placement"),
        "heroes": ["red", "red"],
        "player": 0,
        "engine": None,
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.stonespine.routes": lambda: {
        "scenario": _scenario("example:stonespine/rulings/SS-HYDRA-COLLAPSE"),
        "hero": "red",
        "player": 0,
        "engine": None,
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.stonespine.min_damage": lambda: {
        "scenario": _scenario("example:stonespine/placement"),
        "heroes": ["red"],
        "what": "minions",
        "token": "kobold",
        "limit": 2,
        "player": 0,
        "engine": None,
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.stonespine.policy": lambda: {
        "scenario": _scenario("example:stonespine/placement"),
        "measure": "trophy",
        "target": 4,
        "player": 0,
        "check": True,
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.stonespine.PolicyPlan": lambda: {"answer": None, "dp": None, "player": "Ann"},
    "invasion_oracle.stonespine.PicturedPlacement": lambda: {
        field.name: getattr(_placed(), field.name) for field in fields(stonespine.PicturedPlacement)
    },
    "invasion_oracle.stonespine.escape": lambda: {
        "scenario": _scenario("example:stonespine/placement"),
        "hero": "red",
        "elements": ["kobold"],
        "player": 0,
        "engine": None,
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.stonespine.escape_generated": lambda: {
        "scenario": _scenario("example:stonespine/placement"),
        "hero": "red",
        "rows": 2,
        "columns": 2,
        "seeds": 2,
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.stonespine.plan": lambda: {
        "scenario": _scenario("example:stonespine/plan-year3"),
        "measure": "score",
        "target": None,
        "player": 0,
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.spirit_island.fight_back": lambda: {
        "land": "T E",
        "dahan": 1,
        "objective": "fear",
        "engine": "auto",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.spirit_island.defend": lambda: {
        "land": "T E 2D",
        "goal": "no-blight",
        "engine": "auto",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.spirit_island.cascade": lambda: {
        "scenario": _scenario("example:spirit-island/invader_phase"),
        "land": "A1",
        "engine": "auto",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.spirit_island.card_cascades": lambda: {
        "scenario": _scenario("example:spirit-island/invader_phase"),
        "card": "1M",
        "engine": "auto",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.spirit_island.flip": lambda: {
        "scenario": _scenario("example:spirit-island/island_search"),
        "fact": "1:explore:A4",
        "max_cost": 1,
        "engine": "auto",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.vulketh.differ": lambda: {
        "ruling": "VK-GROW-OVERFLOW",
        "readings": None,
        "direction": None,
        "amount": None,
        "max_size": 4,
        "engine": "auto",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.Outcome": lambda: {},
    "invasion_oracle.spirit_island.fear_threshold": lambda: {
        "land": "T E",
        "fear": 1,
        "engine": "auto",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.spirit_island.lands": lambda: {
        "scenario": _scenario("example:spirit-island/island_search"),
        "engine": "auto",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.vulketh.race": lambda: {
        "scenario": _small_race(),
        "engine": "baseline",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.vulketh.clear": lambda: {
        "scenario": _scenario("example:vulketh/clear_hex"),
        "hex": 7,
        "members": 2,
        "hexes": None,
        "engine": "baseline",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.cloudspire.engagement": lambda: {
        "scenario": _scenario("example:cloudspire/engagement"),
        "engine": "baseline",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.cloudspire.survive": lambda: {
        "scenario": _one_round_survival(),
        "rounds": 1,
        "engine": "auto",
        "time_limit": FAST_LIMIT,
    },
    "invasion_oracle.cloudspire.spires": lambda: {
        "scenario": _scenario("example:cloudspire/spires"),
        "bound": 2,
        "rounds": 1,
        "engine": "baseline",
        "time_limit": FAST_LIMIT,
    },
}

INSTANCES: dict[str, Callable[[], object]] = {
    "invasion_oracle.First": io.First,
    "invasion_oracle.SeededRandom": lambda: io.SeededRandom(3),
    "invasion_oracle.Scripted": lambda: io.Scripted(["close"], then=io.First()),
    "invasion_oracle.Policy": lambda: io.Policy(lambda request: request.options[-1]),
    "invasion_oracle.Scenario": lambda: _scenario("example:stonespine/default"),
    "invasion_oracle.Game": lambda: _scenario("example:stonespine/default").new_game(),
    "invasion_oracle.Playthrough": lambda: _played(),
    "invasion_oracle.Ruling": lambda: io.rulings("vulketh")[0],
    "invasion_oracle.stonespine.PolicyPlan": lambda: _plan(),
}
"""An instance of each public class, whose public methods are called (with arguments valid for
their kind: a request for an answerer, the scenario's own answerers for play)."""

METHOD_GOOD: dict[str, Call] = {
    "decide": lambda: {"request": _request()},
    "outcome": lambda: {"request": _chance()},
    "play": lambda: {"decider": io.First(), "chance": io.First()},
    "step": lambda: {"answer": "red"},
}


@dataclass(frozen=True)
class Target:
    """A public callable, its valid arguments and how to reach it on each call."""

    name: str
    reach: Callable[[], Callable[..., Any]]
    good: Call | None


def _exported() -> Iterator[tuple[str, object]]:
    for module in MODULES:
        for name in module.__all__:
            yield f"{module.__name__}.{name}", getattr(module, name)


def _is_error_class(value: object) -> bool:
    return isinstance(value, type) and issubclass(value, BaseException)


def targets() -> list[Target]:
    """Every exported function and class (errors aside: making one checks nothing), and every
    public method of the exported classes."""
    found: list[Target] = []
    for name, value in _exported():
        if not callable(value) or _is_error_class(value):
            continue
        found.append(Target(name, lambda value=value: value, GOOD.get(name)))
        if isinstance(value, type) and name in INSTANCES:
            for method, member in inspect.getmembers(value):
                if method.startswith("_") or not callable(member) or isinstance(member, type):
                    continue
                found.append(
                    Target(
                        f"{name}().{method}",
                        lambda make=INSTANCES[name], method=method: getattr(make(), method),
                        METHOD_GOOD.get(method, lambda: {}),
                    )
                )
    return found


TARGETS = targets()


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise TookTooLong(f"no answer within {BUDGET} s")


def call_within_budget(function: Callable[..., Any], kwargs: dict[str, Any]) -> BaseException | None:
    """Call ``function(**kwargs)`` under an alarm of :data:`BUDGET` seconds; the exception it raised."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, BUDGET)
    started = time.perf_counter()
    try:
        function(**kwargs)
    except Exception as err:
        return err
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        elapsed = time.perf_counter() - started
    assert elapsed < BUDGET, f"took {elapsed:.1f} s"
    return None


def test_every_export_has_a_valid_call() -> None:
    """A new public function or class needs a small valid call in GOOD (and an instance in
    INSTANCES when it has methods), so that the property below checks each of its arguments."""
    missing = [
        name
        for name, value in _exported()
        if callable(value) and not _is_error_class(value) and name not in GOOD
    ]
    assert missing == []
    assert {"invasion_oracle.stonespine.place", "invasion_oracle.vulketh.clear"} <= {t.name for t in TARGETS}


def _parameters(function: Callable[..., Any]) -> list[inspect.Parameter]:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return []
    return [
        p
        for p in signature.parameters.values()
        if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    ]


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
@settings(max_examples=12 * SCALE)
@given(data=st.data())
def test_wrong_arguments_raise_only_documented_errors(target: Target, data: st.DataObject) -> None:
    function = target.reach()
    parameters = _parameters(function)
    if not parameters:
        error = call_within_budget(function, {})
        assert error is None or isinstance(error, io.InvasionError), repr(error)
        return
    good = target.good() if target.good is not None else {}
    # one argument wrong, the others valid (or, with no valid call known, every required one wrong)
    wrong = data.draw(st.sampled_from([p.name for p in parameters]), label="wrong argument")
    kwargs = {name: value for name, value in good.items() if name != wrong}
    kwargs[wrong] = data.draw(bad_values, label=wrong)
    for p in parameters:
        if p.name not in kwargs and p.default is inspect.Parameter.empty:
            kwargs[p.name] = data.draw(bad_values, label=p.name)
    error = call_within_budget(function, kwargs)
    assert error is None or isinstance(error, io.InvasionError), (
        f"{target.name}({', '.join(f'{k}=...' for k in kwargs)}) with {wrong}={kwargs[wrong]!r:.80}: "
        f"{type(error).__name__}: {error}"
    )


# -- the regressions of issue 33, one by one ------------------------------------------------------


def _refused(call: Callable[[], object], argument: str, reason: str) -> io.MalformedInputError:
    """``call`` raises MalformedInputError naming ``argument`` with ``reason`` in its message."""
    with pytest.raises(io.MalformedInputError) as caught:
        call()
    assert caught.value.source == argument or argument in caught.value.path, str(caught.value)
    assert reason in caught.value.reason, str(caught.value)
    return caught.value


def test_searches_refuse_what_the_command_line_refuses() -> None:
    clear_hex = _scenario("example:vulketh/clear_hex")
    _refused(
        lambda: vulketh.clear(clear_hex, hex=7, members=-1), "members", "a whole number 0 or more, got -1"
    )
    _refused(lambda: spirit_island.fear_threshold("T E", fear=-1), "fear", "a whole number 1 or more, got -1")
    placement = _scenario("example:stonespine/placement")
    for limit in (-1, 0, math.nan, math.inf, "5", True):
        _refused(
            lambda limit=limit: stonespine.place(placement, time_limit=limit), "time_limit", "finite number"
        )
        _refused(
            lambda limit=limit: vulketh.clear(clear_hex, 7, 4, time_limit=limit), "time_limit", "seconds"
        )
    _refused(lambda: stonespine.policy(placement, "bogus", 4), "measure", "invalid choice: 'bogus'")
    _refused(
        lambda: cloudspire.survive(_scenario("example:cloudspire/survive"), rounds=0),
        "rounds",
        "from 1 to 1000",
    )
    _refused(lambda: spirit_island.fear_threshold("T E", fear=1, engine="bogus"), "engine", "invalid choice")


@pytest.mark.parametrize(
    ("argv", "call", "argument"),
    [
        (
            ["vulketh", "clear", "example:vulketh/clear_hex", "--hex", "7", "--members", "-1"],
            lambda: vulketh.clear(_scenario("example:vulketh/clear_hex"), hex=7, members=-1),
            "members",
        ),
        (
            ["spirit-island", "fear-threshold", "--land", "T E", "--fear", "-1"],
            lambda: spirit_island.fear_threshold("T E", fear=-1),
            "fear",
        ),
        (
            ["stonespine", "place", "example:stonespine/placement", "--time-limit", "nan"],
            lambda: stonespine.place(_scenario("example:stonespine/placement"), time_limit=math.nan),
            "time_limit",
        ),
        (
            ["cloudspire", "survive", "example:cloudspire/survive", "--rounds", "0"],
            lambda: cloudspire.survive(_scenario("example:cloudspire/survive"), rounds=0),
            "rounds",
        ),
    ],
)
def test_the_library_and_the_command_line_give_one_reason(
    argv: list[str], call: Callable[[], object], argument: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """One check for both: the command line's usage error says what the library's error says."""
    from invasion_oracle.reports.cli import main

    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    error = _refused(call, argument, "expected")
    stderr = capsys.readouterr().err
    assert error.reason.split(", got")[0] in stderr, stderr


def test_wrong_types_are_documented_errors() -> None:
    scenario = _scenario("example:stonespine/default")
    _refused(lambda: scenario.play(decider=5), "decider", "decide() method")
    _refused(lambda: scenario.play(chance="dice"), "chance", "outcome() method")
    _refused(lambda: io.rulings(None), "game", "a string")  # type: ignore[arg-type]
    _refused(lambda: io.schema(5), "name", "a string")  # type: ignore[arg-type]
    _refused(lambda: io.SeededRandom(None), "seed", "whole number")  # type: ignore[arg-type]
    _refused(lambda: io.load(5), "path_or_example", "a path")  # type: ignore[arg-type]
    _refused(lambda: io.load("example:stonespine/default", rulings=5), "rulings", "ID=READING")  # type: ignore[arg-type]
    _refused(lambda: stonespine.wave(_scenario("example:stonespine/placement"), "red"), "heroes", "a list")
    with pytest.raises(io.IllegalDecisionError):
        scenario.new_game().step(math.nan)
    for answer in (10**5000, math.nan, object(), [[]]):  # a script of answers no option can equal
        with pytest.raises(io.IllegalDecisionError):
            io.Scripted([answer]).decide(_request())
        with pytest.raises(io.IllegalDecisionError):
            scenario.play(decider=io.Scripted([answer]), chance=io.Scripted([answer]))


def test_bad_paths_are_located_errors() -> None:
    _refused(lambda: io.load("a\x00b.json"), "$", "NUL character")
    error = _refused(lambda: io.load("example:stonespine/" + "x" * 5000), "$", "bytes long")
    assert len(str(error)) < 200
    _refused(lambda: io.load("x" * 300 + ".json"), "$", "a file name in it is 305 bytes long")
    _refused(lambda: io.replay("a\x00b.json"), "$", "NUL character")


def test_dict_documents_get_the_checks_of_a_file(tmp_path: Path) -> None:
    """Deep nesting and huge integers fail fast as located errors before any schema sees them; a
    NUL or lone surrogate in a name is refused from a dict exactly as from a file."""
    document = _scenario("example:stonespine/default").raw.document
    started = time.perf_counter()
    _refused(lambda: io.load({**document, "heroes": _deep(100_000)}), "$.heroes", "nested deeper than")
    _refused(
        lambda: io.load({**document, "dice": {"seed": 10**5000}}), "$.dice.seed", "more than 4300 digits"
    )
    assert time.perf_counter() - started < BUDGET
    for name, reason in (("A\x00", "NUL character"), ("A\ud800", "lone surrogate")):
        players = [{**document["players"][0], "name": name}, *document["players"][1:]]
        changed = {**document, "players": players}
        from_dict = _refused(lambda changed=changed: io.load(changed), "$.players[0].name", reason)
        path = tmp_path / "s.json"
        path.write_text(json.dumps(changed), encoding="utf-8")  # escapes both: \\u0000, \\ud800
        from_file = _refused(lambda path=path: io.load(path), "$.players[0].name", reason)
        assert from_dict.reason == from_file.reason
    _refused(lambda: io.load({**document, "year": object()}), "$.year", "not a JSON value")
    _refused(lambda: io.load({**document, 3: 1}), "$", "not a string")
    _refused(lambda: io.load("example:stonespine/default", data={"x": math.nan}), "$.x", "not an integer")
    trace = _trace()
    _refused(lambda: io.replay({**trace, "steps": _deep(1000)}), "$.steps", "nested deeper than")

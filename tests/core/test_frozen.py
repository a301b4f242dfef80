"""The generated ``replace`` and ``direct_constructor`` (model/core/frozen.py, issue 38) build the
very values the dataclass's own ``__init__`` and ``dataclasses.replace`` build: same type, equal,
same hash, still frozen, picklable; classes they cannot build (a ``__post_init__``, a base class)
go to the dataclass's own path, with its checks."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import FrozenInstanceError, dataclass, field

import pytest

from invasion_oracle.model.core.events import Event
from invasion_oracle.model.core.frozen import (
    by_identity,
    direct_constructor,
    evolving,
    hash_by_identity,
    quick_init,
    replace,
)
from invasion_oracle.model.core.reads import clear_derived_caches
from invasion_oracle.model.spirit_island.fear import FearTrack
from invasion_oracle.model.spirit_island.pieces import Land, make_land, parse_land
from invasion_oracle.model.stonespine.dungeon import Dungeon
from invasion_oracle.model.vulketh.scenario import load_scenario


@quick_init
@dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()
    c: str = "x"


@dataclass(frozen=True, slots=True)
class Awkward:
    """Fields named like the generated functions' locals would be, were they not ``_frozen_``."""

    value: int
    new: int
    make: int = 0
    replace: int = 0


@dataclass(frozen=True, slots=True)
class Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a must not be negative")


@dataclass(frozen=True, slots=True)
class Base:
    a: int


@dataclass(frozen=True, slots=True)
class Derived(Base):
    b: int = 0


@dataclass(frozen=True, slots=True)
class WithInitFalse:
    a: int
    b: int = field(init=False, default=3)


def same_value(x: object, y: object) -> None:
    assert type(x) is type(y)
    assert x == y and hash(x) == hash(y) and repr(x) == repr(y)
    assert [getattr(x, f.name) for f in dataclasses.fields(x)] == [  # type: ignore[arg-type]
        getattr(y, f.name)
        for f in dataclasses.fields(y)  # type: ignore[arg-type]
    ]


def test_replace_builds_what_dataclasses_replace_builds() -> None:
    value = Plain(1, (2, 3))
    for changes in ({}, {"a": 5}, {"b": (), "c": "y"}, {"a": 0, "b": (1,), "c": ""}):
        same_value(replace(value, **changes), dataclasses.replace(value, **changes))
    assert value == Plain(1, (2, 3))  # the original is untouched


def test_fields_named_like_locals_are_plain_fields() -> None:
    awkward = Awkward(1, 2, 3, 4)
    same_value(replace(awkward, value=5), Awkward(5, 2, 3, 4))
    same_value(replace(awkward, new=6, make=7, replace=8), Awkward(1, 6, 7, 8))
    same_value(direct_constructor(Awkward)(1, 2, 3, 4), awkward)


def test_replaced_values_stay_frozen_and_pickle() -> None:
    changed = replace(Plain(1), a=2)
    with pytest.raises(FrozenInstanceError):
        changed.a = 3  # type: ignore[misc]
    same_value(pickle.loads(pickle.dumps(changed)), changed)


def test_replace_refuses_an_unknown_field() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        replace(Plain(1), z=2)
    with pytest.raises(TypeError):
        replace(Plain(1), 2)  # type: ignore[call-arg]


def test_classes_it_cannot_build_keep_their_own_path() -> None:
    with pytest.raises(ValueError, match="must not be negative"):
        replace(Checked(1), a=-1)  # the __post_init__ still runs
    same_value(replace(Derived(1, 2), a=5), Derived(5, 2))
    with pytest.raises(ValueError, match="init=False"):
        replace(WithInitFalse(1), b=4)
    same_value(replace(WithInitFalse(1), a=2), WithInitFalse(2))
    with pytest.raises(TypeError):
        replace((1, 2), a=1)  # type: ignore[type-var]  # not a dataclass: dataclasses' own error
    with pytest.raises(TypeError):
        replace(Plain, a=1)  # a class, not a value
    assert direct_constructor(Checked) is Checked  # its constructor, checks and all


def test_a_stonespine_dungeon_keeps_its_check() -> None:
    dungeon = Dungeon(1, 1, (object(),), 0, 0)  # type: ignore[arg-type]  # the check is on the count
    with pytest.raises(ValueError, match="chamber in every cell"):
        replace(dungeon, rows=2)


def test_direct_constructors_build_what_init_builds() -> None:
    make = direct_constructor(Plain)
    same_value(make(1, (2,), "z"), Plain(1, (2,), "z"))
    with pytest.raises(TypeError):
        make(1)  # every field is given: no defaults
    land = parse_land("C 2T@1 E 3D B")
    counts = (land.city_count, land.town_count, land.explorer_count, land.dahan_count, land.damaged)
    same_value(make_land(*counts, 2, (("River", 1),), 1, ()), Land(*counts, 2, (("River", 1),), 1, ()))
    track = FearTrack(4, 3, ("x",), (3, 3, 3))
    same_value(track.take_markers(1)[0], dataclasses.replace(track, in_pool=2, generated=1))
    same_value(
        Event.make("built", land="A1", piece="town"), Event("built", (("land", "A1"), ("piece", "town")))
    )


def test_a_game_state_replaced_equals_the_dataclass_replace() -> None:
    state = load_scenario("example:vulketh/clear_hex.json").initial
    for changes in ({"score": 3}, {"agenda": (), "request": None, "awaiting": None}):
        same_value(replace(state, **changes), dataclasses.replace(state, **changes))


def test_by_identity_answers_as_the_function_does() -> None:
    calls: list[tuple[object, object]] = []

    def joined(a: tuple[str, ...], b: str) -> str:
        calls.append((a, b))
        return b.join(a)

    quick = by_identity(joined, size=2)
    first = ("x", "y")
    assert quick(first, "-") == "x-y" and quick(first, "-") == "x-y"
    assert len(calls) == 1  # the same objects: remembered
    assert quick(("x", "y"), "+") == "x+y" and quick(("p",), "-") == "p"
    assert quick(first, "-") == "x-y"  # forgotten at two entries: asked again, the same answer
    assert len(calls) == 4


@dataclass(frozen=True, slots=True)
class Grid:
    cells: tuple[int, ...]
    name: str = ""


HashedGrid = hash_by_identity(Grid)


class Counted:
    """A value whose own hash counts its calls."""

    calls = 0

    def __init__(self, key: int) -> None:
        self.key = key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counted) and other.key == self.key

    def __hash__(self) -> int:
        Counted.calls += 1
        return hash(self.key)


def test_a_hash_by_identity_is_computed_once_per_instance_while_remembered() -> None:
    hash_by_identity(Counted, size=3)
    first, second = Counted(1), Counted(1)
    assert hash(first) == hash(first) == hash(second) == hash(1)
    assert Counted.calls == 2  # once for each instance
    for key in range(3):
        hash(Counted(key))  # the memory starts over past three
    assert hash(first) == hash(1) and Counted.calls == 6
    clear_derived_caches()  # emptied before a job whose reads are recorded
    assert hash(first) == hash(1) and Counted.calls == 7


def test_a_hash_by_identity_is_the_class_hash() -> None:
    grids = [HashedGrid((i, i + 1), "g") for i in range(600)]  # more than the memory holds
    for grid in grids * 2:
        assert hash(grid) == hash((grid.cells, grid.name))  # the dataclass's own: hash of the fields
        assert hash(grid) == hash(HashedGrid(grid.cells, grid.name))  # equal values, equal hashes
    assert {grid: n for n, grid in enumerate(grids)}[HashedGrid((5, 6), "g")] == 5
    clear_derived_caches()  # emptied before a recorded job: the hash is computed again, the same
    assert hash(grids[0]) == hash(((0, 1), "g"))
    with pytest.raises(TypeError, match="the class's own __hash__"):
        hash_by_identity(type("NoHash", (), {}))


def test_stonespine_and_vulketh_states_evolve_as_dataclasses_replace() -> None:
    from invasion_oracle.model.stonespine.scenario import load_scenario as stonespine_scenario

    vulketh = load_scenario("example:vulketh/clear_hex.json").initial
    for changes in ({"score": 3}, {"agenda": (), "request": None, "awaiting": None}):
        same_value(vulketh.evolve(**changes), dataclasses.replace(vulketh, **changes))
    stonespine = stonespine_scenario("example:stonespine/default.json").initial
    player = stonespine.players[0]
    same_value(stonespine.evolve(year=2, task=None), dataclasses.replace(stonespine, year=2, task=None))
    same_value(player.evolve(xp=9), dataclasses.replace(player, xp=9))
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        player.evolve(colour="red")


def test_evolving_keeps_the_method_of_a_class_it_cannot_build() -> None:
    @evolving
    @dataclass(frozen=True, slots=True)
    class Guarded:
        a: int

        def __post_init__(self) -> None:
            if self.a < 0:
                raise ValueError("a must not be negative")

        def evolve(self, **changes: int) -> Guarded:
            return replace(self, **changes)

    assert Guarded(1).evolve(a=2) == Guarded(2)
    with pytest.raises(ValueError, match="must not be negative"):
        Guarded(1).evolve(a=-1)
    with pytest.raises(TypeError, match="needs an evolve method"):
        evolving(Plain)

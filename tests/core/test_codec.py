"""The shared codec (model/core/codec.py, issue 37): a scenario read through a game's declared
``check`` and ``read`` with its errors located (file, JSON path, reason), and values written by
their declared fields that survive a canonical round trip unchanged."""

from __future__ import annotations

import enum
import importlib
import json
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.core.canonical import canonical_json, write_atomic
from invasion_oracle.model.core.codec import ScenarioCodec, embedded_data, fields_json, schema_check
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.model.core.spec import Deferred, ScenarioBase, ScenarioInput, ScenarioOptions
from invasion_oracle.model.registry import load_all, spec


class Fate(enum.Enum):
    DEFEATED = "defeated"
    ESCAPED = "escaped"


@dataclass(frozen=True, slots=True)
class Leg:
    chamber: str
    damage: int

    def to_json(self) -> dict[str, Any]:
        return fields_json(self, "chamber", "damage")

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Leg:
        return Leg(raw["chamber"], raw["damage"])


@dataclass(frozen=True, slots=True)
class Route:
    fate: Fate
    legs: tuple[Leg, ...]
    notes: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return fields_json(self, "fate", "legs", "notes", notes=dict(self.notes))

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Route:
        legs = tuple(Leg.from_json(leg) for leg in raw["legs"])
        return Route(Fate(raw["fate"]), legs, tuple(sorted(raw["notes"].items())))


def test_a_value_written_by_its_fields_reads_back_equal_and_writes_the_same_bytes() -> None:
    route = Route(Fate.ESCAPED, (Leg("A1", 0), Leg("B2", 3)), (("hp", 2), ("gold", 1)))
    text = canonical_json(route)
    assert text == (
        '{"fate":"escaped","legs":[{"chamber":"A1","damage":0},{"chamber":"B2","damage":3}],'
        '"notes":{"gold":1,"hp":2}}'
    )
    again = Route.from_json(json.loads(text))
    assert again == Route(Fate.ESCAPED, route.legs, (("gold", 1), ("hp", 2)))
    assert canonical_json(again) == text
    # the fields come out in the order declared, not sorted: the dictionary is the declaration
    assert list(route.to_json()) == ["fate", "legs", "notes"]


def test_a_written_name_that_is_not_declared_is_refused() -> None:
    with pytest.raises(TypeError, match="'legz' is written but not among the names"):
        fields_json(Route(Fate.DEFEATED, ()), "fate", "legs", legz=[])


@dataclass(frozen=True)
class CountScenario(ScenarioBase[int]):
    pass


def _read(given: ScenarioInput) -> CountScenario:
    data = embedded_data(given, _build_data)
    start = given.document.get("start", 0)
    if start > data["most"]:
        raise MalformedInputError(given.source, "$.start", f"at most {data['most']}, got {start}")
    return CountScenario.of(given, data, start)


def _build_data(raw: Any, source: str) -> dict[str, int]:
    most = (raw or {}).get("most", 10)
    if most < 0:
        raise MalformedInputError(source, "$.most", f"a count cannot be negative, got {most}")
    return {"most": most}


def _check(document: Any, source: str) -> None:
    if not isinstance(document, dict):
        raise MalformedInputError(source, "$", "a scenario is a JSON object")


COUNT = ScenarioCodec("count", _check, _read)


def test_errors_carry_their_file_path_and_reason(tmp_path: Path) -> None:
    with pytest.raises(MalformedInputError) as refused:
        COUNT.scenario_from_document({"start": 11}, "c.json")
    assert (refused.value.source, refused.value.path, refused.value.reason) == (
        "c.json",
        "$.start",
        "at most 10, got 11",
    )
    # the scenario's own data: located inside the scenario file
    with pytest.raises(MalformedInputError) as refused:
        COUNT.scenario_from_document({"data": {"most": -1}}, "c.json")
    assert str(refused.value) == "c.json:$.data.most: a count cannot be negative, got -1"
    # data given on the command line: named by its own file, and it wins over the scenario's
    options = ScenarioOptions(data_overrides={"most": -2}, data_source="d.json")
    with pytest.raises(MalformedInputError, match=r"^d\.json:\$\.most: a count cannot be negative, got -2$"):
        COUNT.load({"data": {"most": 5}}, "c.json", options)
    with pytest.raises(MalformedInputError, match=r"^c\.json:\$: a scenario is a JSON object$"):
        COUNT.scenario_from_document([1], "c.json")


def test_a_scenario_file_and_its_document_read_the_same(tmp_path: Path) -> None:
    document = {"start": 3, "data": {"most": 4}, "decisions": {"script": [1, 2], "then": "random"}}
    path = tmp_path / "c.json"
    write_atomic(path, canonical_json(document))
    from_file = COUNT.load_scenario(str(path))
    from_document = COUNT.scenario_from_document(document, str(path))
    assert from_file == from_document
    assert (from_file.initial, from_file.data, from_file.decisions.script) == (3, {"most": 4}, (1, 2))
    assert from_file.decisions.then == "random" and from_file.chance.then == "random"


EXAMPLES = {
    "stonespine": "stonespine/default.json",
    "spirit-island": "spirit_island/opening.json",
    "vulketh": "vulketh/race.json",
    "cloudspire": "cloudspire/round.json",
}


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_every_game_reads_through_the_codec_with_located_errors(game: str) -> None:
    """Each game's loader is its codec's: a bundled scenario reads, and the same scenario with a
    bad field is refused with its file and field, not a traceback."""
    load_all()
    game_spec = spec(game)
    module = importlib.import_module(f"{game_spec.package}.scenario")
    assert isinstance(module.CODEC, ScenarioCodec)
    # the spec names its loader (Deferred: the model loads at the first scenario)
    assert isinstance(game_spec.load, Deferred) and game_spec.load.target() == module.CODEC.load
    path = Path(__file__).parents[2] / "examples" / EXAMPLES[game]
    document = json.loads(path.read_text(encoding="utf-8"))
    scenario = module.load_scenario(str(path))
    assert scenario.source == str(path) and scenario.document == document
    assert scenario.rulings == module.scenario_from_document(document, "x.json").rulings
    with pytest.raises(MalformedInputError) as refused:
        game_spec.load({**document, "rulings": 7}, "bad.json", ScenarioOptions())
    assert (refused.value.source, refused.value.path) == ("bad.json", "$.rulings")


def test_schema_check_order_decides_which_fault_is_named_first() -> None:
    document = {"game": "cloudspire", "start": "nowhere", "seed": 1.5}
    with pytest.raises(MalformedInputError) as schema_first:
        schema_check("invasion_oracle.model.cloudspire", "scenario.schema.json")(document, "s.json")
    with pytest.raises(MalformedInputError) as integers_first:
        schema_check("invasion_oracle.model.cloudspire", "scenario.schema.json", integers_first=True)(
            document, "s.json"
        )
    assert integers_first.value.path == "$.seed" and "1.5 is not an integer" in integers_first.value.reason
    assert schema_first.value.path != "$.seed"


def test_a_rulings_free_scenario_under_other_readings_is_the_scenario_loaded_under_them() -> None:
    """Spirit Island's read consults no ruling (issue 38: a case build loads its document once):
    the scenario re-labelled by ``under`` equals a fresh load, for every reading of every ruling."""
    load_all()
    module = importlib.import_module("invasion_oracle.model.spirit_island.scenario")
    assert module.CODEC.rulings_free
    path = Path(__file__).parents[2] / "examples" / EXAMPLES["spirit-island"]
    document = json.loads(path.read_text(encoding="utf-8"))
    base = module.CODEC.scenario_from_document(document, "si.json")
    tried = 0
    for ruling in REGISTRY.all("spirit-island"):
        for name in ruling.reading_names:
            specs = (f"{ruling.id}={name}",)
            again = module.CODEC.under(base, specs)
            fresh = module.CODEC.scenario_from_document(document, "si.json", specs)
            # an Island compares by identity (eq=False): compared by its fields here
            assert replace(again, island=None) == replace(fresh, island=None)
            assert _island_fields(again.island) == _island_fields(fresh.island)
            assert again.rulings.reading(ruling.id) == name
            tried += 1
    assert tried > len(REGISTRY.all("spirit-island"))
    with pytest.raises(MalformedInputError) as refused:
        module.CODEC.under(base, ("SI-NO-SUCH=x",))
    assert refused.value.source == "--ruling"


def _island_fields(island: Any) -> tuple[Any, ...]:
    return tuple(getattr(island, f.name) for f in fields(island) if not f.name.startswith("_"))


def test_a_codec_whose_read_may_consult_rulings_refuses_to_relabel() -> None:
    scenario = COUNT.scenario_from_document({"start": 1}, "c.json")
    with pytest.raises(TypeError, match="depends on its rulings"):
        COUNT.under(scenario, ())

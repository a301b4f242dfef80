"""One codec for every game: the shape of reading a scenario and of writing a value, written once.

A game declares only what is its own; the shape is here:

* **Reading.** :class:`ScenarioCodec` checks a document (the game's ``check``: its schema,
  integers only), reads the rulings in force (the file's ``rulings``, then the command line's
  ``ID=READING``) and hands a :class:`~invasion_oracle.model.core.spec.ScenarioInput` to the
  game's ``read``, which builds the data, the initial state and the scenario
  (:meth:`~invasion_oracle.model.core.spec.ScenarioBase.of` fills the fields every scenario has).
  A game's ``load``, ``load_scenario`` and ``scenario_from_document`` are the codec's methods.
* **Located errors.** A refusal is a
  :class:`~invasion_oracle.model.core.errors.MalformedInputError` that carries its file, JSON path
  and reason (``s.json:$.start: ...``); :func:`embedded_data` reads the scenario's own ``data``
  so its errors are located in the scenario file (``s.json:$.data.values.x``).
* **Writing.** :func:`fields_json` writes a frozen value's fields as a JSON object, in the order
  named, each by :func:`field_json`; a value's ``to_json`` names its fields instead of spelling
  out the dictionary. :mod:`~invasion_oracle.model.core.canonical` turns the result into the one
  byte form; :mod:`~invasion_oracle.model.core.frozen` makes the values themselves fast.

A tiny game's codec (a counter that starts at ``start``):

>>> from dataclasses import dataclass
>>> from invasion_oracle.model.core.errors import MalformedInputError
>>> from invasion_oracle.model.core.spec import ScenarioBase
>>> @dataclass(frozen=True)
... class CountScenario(ScenarioBase[int]):
...     pass
>>> def check(document, source):
...     if not isinstance(document, dict):
...         raise MalformedInputError(source, "$", "a scenario is a JSON object")
>>> def read(given):
...     start = given.document.get("start", 0)
...     if start < 0:
...         raise MalformedInputError(given.source, "$.start", f"a count starts at 0 or more, got {start}")
...     return CountScenario.of(given, None, start)
>>> CODEC = ScenarioCodec("count", check, read)
>>> scenario = CODEC.scenario_from_document({"start": 2, "decisions": {"script": [1]}}, "c.json")
>>> scenario.initial, scenario.decisions.script, scenario.chance.then
(2, (1,), 'random')
>>> CODEC.scenario_from_document({"start": -1}, "c.json")
Traceback (most recent call last):
...
invasion_oracle.model.core.errors.MalformedInputError: c.json:$.start: a count starts at 0 or more, got -1
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from invasion_oracle.model.core.jsonio import (
    integers_only,
    load_schema,
    located_inside,
    read_json_file,
    validate,
)
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.core.spec import ScenarioInput, ScenarioOptions

Sc = TypeVar("Sc")
D = TypeVar("D")

Check = Callable[[Any, str], None]
"""``check(document, source)``: refuse a document the game cannot read (schema, integers)."""


@dataclass(frozen=True, slots=True)
class ScenarioCodec(Generic[Sc]):
    """How one game reads a scenario document: ``game`` (its rulings' game name), ``check`` and
    ``read`` (from a checked :class:`ScenarioInput` to the game's scenario)."""

    game: str
    check: Check
    read: Callable[[ScenarioInput], Sc]
    rulings_free: bool = False
    """``read`` never consults the rulings (only stores them): a scenario loaded under other
    readings differs only in its ``rulings`` field (:meth:`under`)."""

    def scenario_from_document(
        self,
        document: Any,
        source: str,
        ruling_specs: Sequence[str] = (),
        data_overrides: Mapping[str, Any] | None = None,
        data_source: str = "data",
    ) -> Sc:
        """Check and read a parsed document; ``ruling_specs`` (``ID=READING``) win over its rulings,
        ``data_overrides`` (named ``data_source`` in errors) over its data, key by key."""
        self.check(document, source)
        rulings = self.rulings_of(document, source, ruling_specs)
        return self.read(ScenarioInput(document, source, rulings, data_overrides, data_source))

    def rulings_of(self, document: Any, source: str, ruling_specs: Sequence[str] = ()) -> Rulings:
        """The rulings in force for a checked document: its own, then ``ruling_specs``."""
        rulings = Rulings.defaults(self.game).with_object(document.get("rulings", {}), source)
        return rulings.with_choices(ruling_specs)

    def under(self, scenario: Sc, ruling_specs: Sequence[str]) -> Sc:
        """``scenario`` (loaded by this codec, without data overrides) as loading its document
        under ``ruling_specs`` instead gives it: only for a codec whose ``read`` is
        :attr:`rulings_free`, which this refuses otherwise."""
        if not self.rulings_free:
            raise TypeError(f"{self.game}: the scenario's reading depends on its rulings; load it again")
        loaded: Any = scenario  # a ScenarioBase: its source, document and rulings
        rulings = self.rulings_of(loaded.document, loaded.source, ruling_specs)
        again: Sc = dataclasses.replace(loaded, rulings=rulings)
        return again

    def load(self, document: Any, source: str, options: ScenarioOptions) -> Sc:
        """The contract's loader (:data:`invasion_oracle.model.core.spec.Loader`)."""
        return self.scenario_from_document(
            document, source, options.ruling_specs, options.data_overrides, options.data_source
        )

    def load_scenario(
        self,
        path: str,
        ruling_specs: Sequence[str] = (),
        data_overrides: Mapping[str, Any] | None = None,
        data_source: str = "data",
    ) -> Sc:
        """Read and check a scenario file; ``ruling_specs`` (``ID=READING``) win over the file's."""
        return self.scenario_from_document(
            read_json_file(path), path, ruling_specs, data_overrides, data_source
        )


def schema_check(package: str, name: str, *, integers_first: bool = False) -> Check:
    """The check of a game whose scenarios are read against the schema ``name`` shipped in
    ``package``, every number an integer. ``integers_first``: a float is refused before a schema
    error (which of two faults a document names first is part of its game's messages)."""

    def check(document: Any, source: str) -> None:
        if integers_first:
            integers_only(document, source)
        validate(document, load_schema(package, name), source)
        if not integers_first:
            integers_only(document, source)

    return check


def embedded_data(given: ScenarioInput, build: Callable[[Any, str], D]) -> D:
    """The game's data for a scenario: ``build(data_document, source)`` over the scenario's own
    ``data`` object, its errors located inside the scenario (``s.json:$.data.values.x``); with a
    data file given on the command line, the two merged key by key (the file wins) and errors named
    by that file.

    >>> from invasion_oracle.model.core.errors import MalformedInputError
    >>> def build(raw, source):
    ...     if "x" in (raw or {}):
    ...         raise MalformedInputError(source, "$.x", "no x here")
    ...     return raw
    >>> given = ScenarioInput({"data": {"x": 1}}, "s.json", Rulings.defaults("count"))
    >>> embedded_data(given, build)
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: s.json:$.data.x: no x here
    >>> embedded_data(ScenarioInput({"data": {"y": 1}}, "s.json", given.rulings, {"z": 2}, "d.json"), build)
    {'y': 1, 'z': 2}
    """
    if given.data_overrides:
        return build({**given.document.get("data", {}), **given.data_overrides}, given.data_source)
    with located_inside(given.source, "$.data") as inner:
        return build(given.document.get("data"), inner)


def field_json(value: object) -> Any:
    """One field's value as JSON data: an enum by its value, a tuple as a list (each item written
    the same way), a value with ``to_json`` by it; anything else as it is (a ``Fraction`` stays
    exact until :func:`~invasion_oracle.model.core.canonical.canonical_json` writes it).

    >>> from fractions import Fraction
    >>> class Fate(enum.Enum):
    ...     ESCAPED = "escaped"
    >>> field_json((Fate.ESCAPED, ("A1", "B2"))), field_json(Fraction(1, 3))
    (['escaped', ['A1', 'B2']], Fraction(1, 3))
    """
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [field_json(item) for item in value]
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    return value


def fields_json(value: object, *names: str, **written: Any) -> dict[str, Any]:
    """The fields ``names`` of ``value`` as a JSON object, in that order: each written by
    :func:`field_json`, or as given in ``written`` (a field written another way, or a computed
    entry); a ``written`` name that is not in ``names`` is a mistake and refused.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Route:
    ...     fate: str
    ...     chamber: str | None
    ...     steps: tuple[str, ...]
    >>> route = Route("escaped", None, ("A1", "B1"))
    >>> fields_json(route, "fate", "chamber", "steps", "length", length=len(route.steps))
    {'fate': 'escaped', 'chamber': None, 'steps': ['A1', 'B1'], 'length': 2}
    >>> fields_json(route, "fate", lenght=2)
    Traceback (most recent call last):
    ...
    TypeError: fields_json: 'lenght' is written but not among the names ('fate',)
    """
    for name in written:
        if name not in names:
            raise TypeError(f"fields_json: {name!r} is written but not among the names {names!r}")
    return {name: written[name] if name in written else field_json(getattr(value, name)) for name in names}

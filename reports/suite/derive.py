"""Variants realised on demand: a case past ``MAX_PRODUCT`` rulings under any combination.

A whole run that depends on six to eleven rulings would need 64 to 2,048 stored variants of tens
of kilobytes each; its file stores each reading alone (from the document's own readings) and a
:class:`~invasion_oracle.reports.suite.cases.Derivation`: the scenario's own answer sources,
where the run stops and which steps are compared. :func:`derived_variant` realises the case
under the readings asked exactly as the generator realises it, so ``invasion conform`` grades
every combination of readings the register lists, and ``invasion fixtures check`` checks that a
derivation reproduces the stored variant of the document's own readings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from invasion_oracle.model import registry
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.reports.suite.build import variant_of
from invasion_oracle.reports.suite.cases import Case, Variant
from invasion_oracle.reports.suite.oracle import realise
from invasion_oracle.reports.suite.specs import CaseSpec, Stop


def case_spec(case: Case) -> CaseSpec:
    """The spec the generator built ``case`` from (its answer sources put back)."""
    if case.derive is None:
        raise ValueError(f"{case.id}: the case stores every combination; nothing to derive")
    derive = case.derive
    _game, group, name = case.id.split("/")
    stop = Stop(str(derive.stop["how"]), int(derive.stop["count"]), str(derive.stop["kind"]))
    return CaseSpec(
        group,
        name,
        case.description,
        (case.section or "case",),
        case.features,
        case.source,
        {**case.scenario, **derive.answer_sources},
        case.projection,
        stop,
        derive.window,
    )


def derived_variant(case: Case, readings: Mapping[str, str]) -> Variant:
    """``case`` under ``readings`` (full ruling ids; rulings not named at their defaults).

    The document's own readings of the rulings the case does not depend on stay (a replay must
    use them); every other reading asked is used, so a ruling that matters only under this
    combination is honoured too. The variant names the readings of ``case.rulings``, the
    document's own and any other non-default reading asked.
    """
    spec = registry.spec(case.game)
    made = case_spec(case)
    own = case.variants[0].readings_map
    fixed = {rid: name for rid, name in own.items() if rid not in case.rulings}
    defaults = {r.id: r.default for r in REGISTRY.all(case.game)}
    asked = {rid: readings.get(rid, default) for rid, default in defaults.items()}
    asked.update(fixed)
    depends = {rid: asked[rid] for rid in case.rulings}
    others = {rid: name for rid, name in asked.items() if rid not in depends and name != defaults[rid]}
    return variant_of(spec, made, depends, realise(spec, made, asked), others)


DerivedCache = dict[tuple[str, tuple[tuple[str, str], ...]], Variant]
"""Variants already derived, by case id and readings (a run of several implementations asks once)."""


def with_derived(case: Case, readings: Mapping[str, str], cache: DerivedCache | None = None) -> Case:
    """``case`` with the variant of ``readings`` derived and appended (the last variant)."""
    key = (case.id, tuple(sorted(readings.items())))
    cache = {} if cache is None else cache
    if key not in cache:
        cache[key] = derived_variant(case, readings)
    return dataclasses.replace(case, variants=(*case.variants, cache[key]))

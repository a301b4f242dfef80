"""Every combination of readings is graded (issue 18): a case past MAX_PRODUCT rulings stores each
reading alone and its ``derive``; the oracle realises any other combination on demand."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from invasion_oracle.model import registry
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.reports.conform.grade import variant_for, verdict
from invasion_oracle.reports.conform.protocol import readings_for
from invasion_oracle.reports.conform.runner import Options, info_of, run_cases
from invasion_oracle.reports.suite.build import MAX_PRODUCT, derived_variant, with_derived
from invasion_oracle.reports.suite.cases import Case
from invasion_oracle.reports.suite.oracle import play
from tests.suite_cases import all_cases

ROOT = Path(__file__).resolve().parents[2]
ORACLE = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'adapters' / 'oracle.py'))}"
CASE = "stonespine/witnesses/ss-minions"  # a whole run that depends on six rulings


def _case(case_id: str) -> Case:
    (case,) = [c for c in all_cases() if c.id == case_id]
    return case


def _two_other_readings(case: Case) -> dict[str, str]:
    """Non-default readings of two of the case's rulings: a combination no stored variant has."""
    registry.load_all()  # the rulings register as their games load
    own = case.variants[0].readings_map
    picked: dict[str, str] = {}
    for rid in case.rulings:
        others = [n for n in REGISTRY.get(rid).reading_names if n != own[rid]]
        if others and len(picked) < 2:
            picked[rid] = others[0]
    assert len(picked) == 2
    return picked


def test_every_case_past_the_product_limit_can_derive_and_only_those() -> None:
    registry.load_all()
    for case in all_cases():
        assert (case.derive is not None) == (len(case.rulings) > MAX_PRODUCT), case.id


def test_a_derivation_reproduces_every_stored_variant_of_its_case() -> None:
    case = _case(CASE)
    assert case.derive is not None and len(case.rulings) > MAX_PRODUCT
    for variant in case.variants:
        assert derived_variant(case, variant.readings_map).to_json() == variant.to_json()


def test_a_derived_combination_is_what_the_oracle_plays_under_those_readings() -> None:
    case = _case(CASE)
    asked = {**case.variants[0].readings_map, **_two_other_readings(case)}
    variant = derived_variant(case, asked)
    assert {rid: variant.readings_map[rid] for rid in asked} == asked
    assert all(v.readings != variant.readings for v in case.variants)  # a new combination
    spec = registry.spec(case.game)
    reply = play(
        spec,
        case.scenario,
        readings_for(case, variant.readings_map, {}),
        variant.answers,
        variant.start,
        case.projection,
    )
    assert verdict(variant, reply.to_json()).passed
    assert with_derived(case, asked).variants[-1] == variant


def test_conform_grades_a_combination_the_file_does_not_store() -> None:
    case = _case(CASE)
    asked = {r.id: r.default for r in REGISTRY.all(case.game)} | _two_other_readings(case)
    assert variant_for(case, info_of(case), asked) is None  # no stored variant: it used to be skipped
    specs = tuple(f"{rid}={name}" for rid, name in _two_other_readings(case).items())
    run = run_cases(all_cases(), Options(ORACLE, cases=(CASE,), rulings=specs, graded_only=True))
    (result,) = run.graded
    assert result.outcome == "passed", result.detail
    assert result.variant == len(case.variants)  # the derived variant, after the stored ones
    assert all(result.readings[s.split("=")[0]] == s.split("=")[1] for s in specs)

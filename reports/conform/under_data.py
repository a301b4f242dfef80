"""``invasion conform --data FILE``: the suite's cases with the oracle's expectations under a
designer's data.

Each case of a game with data in force is sent with that data in its scenario's ``data`` field
(over the scenario's own data, key by key, as ``--data`` wins everywhere), and each variant's
expectation is the oracle's answer to exactly that scenario (:func:`~invasion_oracle.reports.suite.oracle.play`,
the function the generator and ``fixtures check`` use). A case where an engine may take a choice
itself (several acceptable outcomes) is left out under ``--data``: which outcomes stay acceptable
is the generator's search, not one replay; how many were left out is said on stderr.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.overrides import DataInForce, no_data_in_force
from invasion_oracle.reports.suite.cases import Case, Variant
from invasion_oracle.reports.suite.oracle import play


def with_data(case: Case, entry: DataInForce) -> Case:
    """``case`` under ``entry``'s data: the scenario carries it, every expectation recomputed."""
    scenario: dict[str, Any] = dict(case.scenario)
    own = scenario.get("data")
    scenario["data"] = {**own, **entry.document} if isinstance(own, dict) else dict(entry.document)
    spec = registry.spec(case.game)
    variants = []
    with no_data_in_force():  # the scenario carries the data: not applied a second time
        for variant in case.variants:
            variants.append(_replayed(spec, case, scenario, variant))
    return replace(case, scenario=scenario, variants=tuple(variants))


def _replayed(spec: Any, case: Case, scenario: dict[str, Any], variant: Variant) -> Variant:
    reply = play(
        spec, scenario, variant.readings_map, variant.answers, variant.start, case.projection, case.id
    )
    if reply.status == "ok":
        return replace(
            variant,
            result="ok",
            one_of=(
                reply.expected(
                    with_requests=variant.one_of[0].requests is not None if variant.one_of else True
                ),
            ),
            step=None,
            reason="",
        )
    if reply.status == "illegal":
        return replace(variant, result="illegal", one_of=(), step=reply.step, reason=reply.reason)
    return replace(variant, result=reply.status, one_of=(), step=None, reason=reply.reason)


def cases_under_data(cases: Sequence[Case], entries: Sequence[DataInForce]) -> tuple[list[Case], int]:
    """The cases under the data in force (cases of other games unchanged) and how many choice
    cases were left out."""
    by_game = {e.game: e for e in entries}
    out: list[Case] = []
    left_out = 0
    for case in cases:
        entry = by_game.get(case.game)
        if entry is None:
            out.append(case)
        elif case.choice or any(len(v.one_of) > 1 for v in case.variants):
            left_out += 1
        else:
            out.append(with_data(case, entry))
    return out, left_out

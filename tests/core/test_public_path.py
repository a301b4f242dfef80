"""The public contract plays what the core driver plays (the public-API benches, issue 22, time
the two side by side and are only meaningful if both end in the same state)."""

from __future__ import annotations

from tests.bench.bench_public_api import cloudspire_rounds, vulketh_invader_turn


def test_a_vulketh_invader_turn_through_the_public_api_ends_where_the_driver_ends() -> None:
    measures = vulketh_invader_turn(4)  # raises when a seed's two final states differ
    assert [m.unit for m in measures] == ["units/s", "units/s"] and all(m.ratio for m in measures)


def test_cloudspire_rounds_through_the_public_api_end_where_the_driver_ends() -> None:
    (measure,) = cloudspire_rounds(1)
    assert measure.value > 0 and measure.ratio

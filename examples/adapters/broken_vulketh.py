"""A deliberately broken Rise of Tribes: The Vul'Keth Invasion implementation: the oracle with one
rules bug the runner must catch.

* GROW fills a hex to six Invaders, not five (the population limit off by one in the Invaders'
  GROW; Convert, Spread and the other actions keep the limit).

``tests/conform/test_broken_adapters.py`` names the suite case that catches it;
``tests/quality/test_fuzz_quality.py`` checks that ``invasion conform --fuzz`` finds it and
shrinks it to a case no larger than that one.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import invasion_oracle.model.vulketh.game as game
from invasion_oracle.model.vulketh.invader_actions import grow_targets
from invasion_oracle.reports.conform.adapter import levels_from_argv, serve


def _grow_past_the_limit(
    invaders: Sequence[int], warlords: Sequence[bool], amount: int, direction: str, overflow: str, cap: int
) -> tuple[tuple[tuple[int, int], ...], int]:
    return grow_targets(invaders, warlords, amount, direction, overflow, cap + 1)


if __name__ == "__main__":
    game.grow_targets = _grow_past_the_limit  # the engine's GROW, broken
    sys.exit(serve(name="broken-vulketh", levels=levels_from_argv()))

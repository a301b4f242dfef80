"""A deliberately broken 20 Strong: Cloudspire implementation: the oracle with one rules bug the
runner must catch.

* Armored is ignored: a crit applied to an Armored enemy deals the full crit damage, not 1.

``tests/conform/test_broken_adapters.py`` names the suite case that catches it;
``tests/quality/test_fuzz_quality.py`` checks that ``invasion conform --fuzz`` finds it and
shrinks it to a case no larger than that one.
"""

from __future__ import annotations

import sys

from invasion_oracle.model.cloudspire.dice import Face
from invasion_oracle.model.cloudspire.game import CloudspireGame
from invasion_oracle.reports.conform.adapter import levels_from_argv, serve


def _armor_ignored(self: CloudspireGame, face: Face | None, card_id: str) -> int:
    if face is None or face is Face.MISS:
        return 0
    return int(self.data.value("crit_damage" if face is Face.CRIT else "hit_damage"))


if __name__ == "__main__":
    CloudspireGame.damage_of = _armor_ignored  # type: ignore[method-assign]  # the engine's damage rule, broken
    sys.exit(serve(name="broken-cloudspire", levels=levels_from_argv()))

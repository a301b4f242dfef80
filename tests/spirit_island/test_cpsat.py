"""CP-SAT engines (issue 22) answer as the baseline and z3 do, replayed through the oracle."""

from __future__ import annotations

import pytest

from invasion_oracle.model.spirit_island.pieces import parse_land
from invasion_oracle.solver.spirit_island.defend import least_defend
from invasion_oracle.solver.spirit_island.fear_threshold import least_damage_for_fear

ENGINES = ("baseline", "z3", "cpsat")


@pytest.mark.parametrize("land", ["C T@1 E", "2C C@1 2T T@1 E", "2C 2C@1 C@2 2T T@1", "E D"])
def test_fear_threshold_engines_agree(land: str) -> None:
    pieces = parse_land(land)
    for wanted in range(7):
        plans = [least_damage_for_fear(pieces, wanted, method=m) for m in ENGINES]
        assert len({(p.damage, p.destroy, p.allocation, p.status) for p in plans}) == 1, plans
        assert plans[-1].method == "cpsat"
        assert plans[-1].replayed == (plans[-1].damage is not None)


@pytest.mark.parametrize("land", ["C T 2D", "C T 2D@1", "3C 2T 4E 3D", "E D", "D"])
@pytest.mark.parametrize("goal", ["no-blight", "dahan-safe"])
def test_least_defend_engines_agree(land: str, goal: str) -> None:
    plans = [least_defend(parse_land(land), goal, method=m) for m in ENGINES]
    assert len({(p.defend, p.status) for p in plans}) == 1, plans
    assert plans[-1].replayed


def test_the_cli_runs_every_engine_with_both(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from invasion_oracle.reports.cli import main

    assert main(["spirit-island", "defend", "--land", "C T 2D", "--engine", "both", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)["answer"]
    assert answer["engine"] == "z3+cpsat+baseline"
    assert main(["spirit-island", "fight-back", "--land", "C T 2D", "--dahan", "1", "--engine", "cpsat"]) == 2

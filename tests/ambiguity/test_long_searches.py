"""The searches with real budgets (``make report`` runs them; ``make test`` does not): they find
witnesses for rulings whose readings a generated scenario can tell apart, and no problem in the
games' rules."""

from __future__ import annotations

import pytest

from invasion_oracle.properties.budget import SearchBudget
from invasion_oracle.properties.divergence import FOUND, search
from invasion_oracle.properties.wellformed import CANNOT_END, NO_LEGAL_DECISION, run_check

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("ruling", ["SS-PASSAGE", "SS-DICE-FACES", "SS-DEMERIT-VALUES"])
def test_the_divergence_search_finds_stonespine_witnesses(ruling: str) -> None:
    result = search("stonespine", ruling, SearchBudget(300))
    assert result.status == FOUND and result.difference is not None and result.difference.kind == "outcome"


@pytest.mark.parametrize("game", ["stonespine", "spirit-island"])
@pytest.mark.parametrize("check", [NO_LEGAL_DECISION, CANNOT_END])
def test_no_ill_formed_state_in_generated_scenarios(game: str, check: str) -> None:
    result = run_check(game, check, SearchBudget(200))
    assert result.status == "none-found", result.detail


def test_spirit_island_win_conditions_are_reached() -> None:
    for condition in (
        "Terror Level II: no Towns or Cities",
        "Terror Level III: no Cities",
        "every Fear card earned",
    ):
        assert run_check("spirit-island", f"reach: {condition}", SearchBudget(600)).status == FOUND, condition

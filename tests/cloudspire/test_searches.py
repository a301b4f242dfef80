"""Questions (b) survival and (c) fewest spires on small instances whose answers can be worked out
by hand; both engines of each must agree and the answers replay through the oracle. Question (a),
the engagement: CP-SAT plays z3's plans and agrees with the baseline, and a cut search says unknown."""

from __future__ import annotations

from fractions import Fraction

import pytest

from invasion_oracle.model.cloudspire.scenario import Scenario
from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.solver.cloudspire.engagement import best_engagement
from invasion_oracle.solver.cloudspire.spire_cover import fewest_spires
from invasion_oracle.solver.cloudspire.survival import survival_probability
from invasion_oracle.solver.common import Deadline
from tests.cloudspire.helpers import doc, only_pool, scenario


def _one_die(strategy: int) -> dict[str, object]:
    """Health 1, a Log Runner (Health 2, Damage 1) in the bottom lane and one blue die: only a crit
    (1 face in 6) defeats it before it attacks."""
    return doc(
        health=1,
        strategy=strategy,
        lanes={"bottom": ["Log Runner"]},
        deployment=["Bark Brute"],
        dice=only_pool("B1"),
    )


@pytest.mark.parametrize(
    ("strategy", "expected"),
    [(0, Fraction(1, 6)), (1, Fraction(11, 36)), (2, Fraction(91, 216))],
)
def test_survival_is_the_chance_of_a_crit_within_the_rolls(strategy: int, expected: Fraction) -> None:
    """1 - (5/6)^rolls, rolls = Strategy + 1 (ruling CS-ROLLS default): rerolling beats loading a hit."""
    answer = survival_probability(scenario(_one_die(strategy)), engine="both")
    assert answer.probability == expected
    assert answer.agree and answer.replayed and answer.status == "proven"


def test_the_rolls_ruling_changes_the_survival_probability() -> None:
    answer = survival_probability(scenario(_one_die(2), ("CS-ROLLS=one",)), engine="per-die")
    assert answer.probability == Fraction(1, 6)


def test_grouped_and_per_die_engines_agree_with_several_dice_of_a_colour() -> None:
    d = doc(
        health=2,
        strategy=0,
        spires={"L-bottom": "Water Tower"},
        lanes={"bottom": ["Bark Brute"]},
        deployment=["Reed Archer"],
        dice=only_pool("B1", "B2"),
    )
    answer = survival_probability(scenario(d), engine="both")
    assert answer.agree and answer.probability is not None and 0 < answer.probability < 1
    assert max(v for _, v in answer.first_decision) == answer.probability


def test_survival_needs_a_known_deployment_order() -> None:
    d = doc(deployment={"shuffled": ["Bark Brute", "Reed Archer"]}, dice=only_pool("B1"))
    with pytest.raises(RulesError, match="known deployment order"):
        survival_probability(scenario(d))


def _spires(damage_enemy: str) -> dict[str, object]:
    """No dice at all: only spires in the bottom row can take the bottom enemy's damage."""
    return doc(
        health=2,
        inventory=["Water Tower", "Gale Chime"],
        lanes={"bottom": [damage_enemy]},
        deployment=["Aegis"],
        dice=only_pool(),
    )


def test_one_bottom_row_spire_absorbs_one_point() -> None:
    answer = fewest_spires(scenario(_spires("Log Runner")), bound=1, engine="both")
    assert answer.fewest == 1 and answer.agree and answer.replayed
    assert len(answer.safe_placements) == 4  # either spire, either bottom spire space
    assert {p[0][0] for p in answer.safe_placements} == {"L-bottom", "R-bottom"}


def test_two_points_need_both_bottom_spaces() -> None:
    answer = fewest_spires(scenario(_spires("Bark Brute")), bound=1, engine="both")
    assert answer.fewest == 2 and answer.agree
    assert all({sp for sp, _ in p} == {"L-bottom", "R-bottom"} for p in answer.safe_placements)


def test_no_placement_when_the_damage_is_too_much() -> None:
    answer = fewest_spires(scenario(_spires("Brine Serpent")), bound=1, engine="both")
    assert answer.fewest is None and answer.agree is not False


class _TripOnce(Deadline):
    """A work-count budget: the ``n``-th check stops the search (once: the replay runs after)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.left = n

    def stopped(self) -> bool:
        self.left -= 1
        return self.left == 0


def test_a_cut_spire_search_returns_the_smallest_safe_set_found() -> None:
    full = fewest_spires(scenario(_spires("Bark Brute")), bound=1, engine="baseline")
    assert full.fewest == 2 and full.status == "proven"
    answers = [
        fewest_spires(scenario(_spires("Bark Brute")), bound=1, engine="baseline", deadline=_TripOnce(n))
        for n in range(1, 78, 7)  # past about 60 checks the search finishes before the budget trips
    ]
    cut = [a for a in answers if a.status == "best-found"]
    assert cut, "no budget stopped the search after a safe placement"
    assert all(a.fewest == 2 and a.replayed and a.placement in full.safe_placements for a in cut)
    assert all(a.status in ("unknown", "best-found", "proven") for a in answers)
    assert {a.status for a in answers} == {"unknown", "best-found", "proven"}  # every kind of stop seen


@pytest.mark.parametrize("enemy", ["Log Runner", "Bark Brute", "Brine Serpent"])
def test_cpsat_proposes_what_z3_proposes(enemy: str) -> None:
    """The two counterexample-guided engines propose the same placements in the same order
    (fewest spires, then the lexicographically first), so they check the same and answer the same."""
    z3_answer = fewest_spires(scenario(_spires(enemy)), bound=1, engine="z3")
    cpsat_answer = fewest_spires(scenario(_spires(enemy)), bound=1, engine="cpsat")
    assert (cpsat_answer.fewest, cpsat_answer.placement) == (z3_answer.fewest, z3_answer.placement)
    assert cpsat_answer.checked == z3_answer.checked and cpsat_answer.engine == "cpsat"


# -- (a) the engagement: CP-SAT beside z3 and the baseline (issue 22) ------------------------------------

ENGAGEMENT = "example:cloudspire/engagement.json"
# The bundled engagement cut to three dice (one in the pool), under the non-default readings of the
# rulings its models branch on, so that the baseline takes a tenth of a second. The bundled one
# itself: tests/quality/test_cloudspire_searches.py; generated ones: test_solver_agreement.py (their
# `both` runs all three engines).
ENGAGEMENT_RULINGS = [
    ("CS-REVEAL-SAME-PHASE=next-phase", "CS-AFTER-DEFEATED=all-engaged", "CS-LOAD-SOURCE=pool-as-miss"),
]


def _engagement(rulings: tuple[str, ...] = ()) -> Scenario:
    from invasion_oracle.model.cloudspire.data import default_data
    from invasion_oracle.model.core.jsonio import read_json_file

    document = read_json_file(ENGAGEMENT)
    committed = {"B1": "hit", "Y1": "crit", "G1": "miss"}
    banished = [d for d in default_data().dice.names() if d not in committed and d != "B2"]
    document["state"]["dice"] = {"committed": committed, "banished": banished}  # B2 in the pool
    return scenario(document, rulings)


@pytest.mark.parametrize("rulings", ENGAGEMENT_RULINGS, ids=lambda r: ",".join(r))
def test_engagement_cpsat_plays_z3s_plans_and_agrees_with_the_baseline(rulings: tuple[str, ...]) -> None:
    s = _engagement(rulings)
    both = best_engagement(s, "both")  # z3's and CP-SAT's plans must be equal, their values the baseline's
    assert both.agree is True and both.method == "z3+cpsat+baseline" and both.status == "proven"
    cpsat = best_engagement(s, "cpsat")
    assert cpsat.method == "cpsat" and cpsat.replayed and cpsat.plans == both.plans  # the same plans as z3's
    assert cpsat.to_json() == {**both.to_json(), "engine": "cpsat", "agree": None, "baseline_states": 0}


def test_a_cut_cpsat_engagement_is_unknown_never_a_wrong_answer() -> None:
    s = _engagement()
    full = best_engagement(s, "cpsat")
    answers = [best_engagement(s, "cpsat", deadline=_TripOnce(n)) for n in range(1, 12)]
    assert answers[0].status == "unknown" and not answers[0].plans and not answers[0].replayed
    assert {a.status for a in answers} == {"unknown", "proven"}
    assert all(a.status == "unknown" or a.plans == full.plans for a in answers)
    tiny = best_engagement(s, "cpsat", deadline=Deadline(1e-4))  # CP-SAT's own time limit
    assert tiny.status == "unknown" or tiny.plans == full.plans

"""Rules a reading makes dead (issue 20): ``ambiguities --check`` flags a default reading under which
a rule of the rule map never fires, and the report lists every other reading that does so."""

from __future__ import annotations

from invasion_oracle.model import registry
from invasion_oracle.model.core.ambiguity import Coverage
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.properties.budget import SearchBudget
from invasion_oracle.properties.dead_rules import FIRES, NEVER_FIRED, DeadRule, dead_rules
from invasion_oracle.reports.ambiguity.analysis import Analysis

WAR = "Warlord Powers: War"


def test_by_count_unlocking_never_lets_war_fire_and_by_section_kills_nothing() -> None:
    """Seed 003, Setup and Warlord Powers: by count, War needs a fifth Warlord, which ends the game."""
    registry.load_all()
    found = dead_rules(REGISTRY.get("VK-POWER-UNLOCK"), SearchBudget(60))
    by_reading = {(d.reading, d.rule): d for d in found}
    war = by_reading[("by-count", WAR)]
    assert war.status == NEVER_FIRED and war.runs == 60 and not war.default
    assert war.alive_under == ("by-section",)
    assert not [d for d in found if d.reading == "by-section" and d.status == NEVER_FIRED]
    # Steal Resources (the top power) is unlocked by count in the witness, and by section in a
    # generated game the search finds: alive under both.
    steal = by_reading[("by-section", "Warlord Powers: Steal Resources")]
    assert steal.status == FIRES and steal.document is not None


def test_a_ruling_without_rule_events_has_no_suspects() -> None:
    registry.load_all()
    ruling = next(r for r in REGISTRY.all("stonespine"))
    assert dead_rules(ruling, SearchBudget(5)) == ()


def _analysis(found: DeadRule) -> Analysis:
    ruling = REGISTRY.get(found.ruling)
    cover = Coverage(ruling, (), ())
    return Analysis(
        ("vulketh",), (ruling,), {ruling.id: cover}, None, (), (), {}, {}, dead_rules={ruling.id: (found,)}
    )


def test_only_a_default_reading_that_kills_a_rule_fails_the_check() -> None:
    registry.load_all()
    base = DeadRule(
        "vulketh", "VK-POWER-UNLOCK", "by-count", False, WAR, ("by-section",), "w.json", NEVER_FIRED, 40, None
    )
    assert not [p for p in _analysis(base).problems() if WAR in p]
    as_default = DeadRule(*[True if f == "default" else getattr(base, f) for f in DeadRule.__slots__])
    problems = [p for p in _analysis(as_default).problems() if WAR in p]
    assert problems == [
        "VK-POWER-UNLOCK=by-count (the default): the rule 'Warlord Powers: War' never fired in 40 generated "
        "scenarios; it fires under by-section in w.json"
    ]

"""Read recording (model/core/reads.py) stays sound past the project's own hand-written caches:
a job that finds a value in a cache filled by an earlier job still records the reads behind it."""

from __future__ import annotations

import pytest

from invasion_oracle.model.cloudspire.data import default_data
from invasion_oracle.model.core.reads import recording


def _resolve_first_card() -> set[str]:
    data = default_data()
    card = data.cards[0]
    with recording() as reads:
        data.resolve(card.id, source="test", path="$")
    return {read.path for read in reads}


def test_a_card_name_found_in_the_names_cache_still_records_the_cards_read() -> None:
    first = _resolve_first_card()
    assert any(path.startswith("cards") for path in first), first
    # the second lookup would find the names cache filled by the first
    assert _resolve_first_card() == first


def test_stonespine_data_is_built_under_its_data_rulings_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stonespine's data in force is one object per reading of its DATA_RULINGS (a record read
    once per such object, not once per combination of every ruling): sound only while building
    the data consults no other ruling, and each of those readings gives other data."""
    import invasion_oracle.model.stonespine.data as data
    from invasion_oracle.model.core.rulings import Rulings

    consulted: set[str] = set()
    reading = Rulings.reading

    def noted(self: Rulings, ruling_id: str) -> str:
        consulted.add(ruling_id)
        return reading(self, ruling_id)

    monkeypatch.setattr(Rulings, "reading", noted)
    defaults = Rulings.defaults("stonespine")
    everything = [
        defaults.with_choice(r.id, name)
        for r in defaults.registry.all("stonespine")
        for name in r.reading_names
    ]
    for rulings in everything:
        # built afresh, past every cache: what the build itself consults
        data._build_layered(rulings, [])
    assert consulted == set(data.DATA_RULINGS)
    # every other ruling's reading gives the very object of the defaults
    for rulings in everything:
        if not data.data_choices(rulings):
            assert data.default_data(rulings) is data.default_data(defaults)
        else:
            assert data.default_data(rulings) != data.default_data(defaults), rulings.choices

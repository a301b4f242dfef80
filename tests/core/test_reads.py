"""Read recording (model/core/reads.py) stays sound past the project's own hand-written caches:
a job that finds a value in a cache filled by an earlier job still records the reads behind it."""

from __future__ import annotations

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

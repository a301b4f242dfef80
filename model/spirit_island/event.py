"""Events (seed 002, Invader Phase, 'Event'): from Branch & Claw on, one Event card is drawn and
resolved each Invader Phase after the Blighted Island step and before the Fear step, except on
the first turn. Events are optional here: a scenario without an event deck has none.
"""

from __future__ import annotations

from dataclasses import dataclass

from invasion_oracle.model.core.provenance import Provenance
from invasion_oracle.model.spirit_island.effects import Effect


@dataclass(frozen=True, slots=True)
class EventCard:
    name: str
    effects: tuple[Effect, ...]
    provenance: Provenance = Provenance.ASSUMED
    source: str = ""

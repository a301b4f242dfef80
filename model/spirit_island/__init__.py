"""Spirit Island: the Invader Phase (seed ``002_e6736f3c5c17c7be.txt``).

Where each rulebook section lives:

* Invader (pieces, Health, Damage, Fear), Tracking Damage: :mod:`invasion_oracle.model.spirit_island.pieces`,
  :mod:`invasion_oracle.model.spirit_island.damage`;
* Upgrade & Downgrade (and destroy / remove / replace): :mod:`invasion_oracle.model.spirit_island.upgrade_downgrade`;
* the island boards and their adjacency: :mod:`invasion_oracle.model.spirit_island.island`, data in
  ``data/spirit_island.json`` (:mod:`invasion_oracle.model.spirit_island.data`);
* Invader Phase 1 Blighted Island, and Blight: :mod:`invasion_oracle.model.spirit_island.blight`;
* Event: :mod:`invasion_oracle.model.spirit_island.event`;
* Invader Phase 2 Fear, and Fear and Terror: :mod:`invasion_oracle.model.spirit_island.fear`;
* 3a Ravage: :mod:`invasion_oracle.model.spirit_island.ravage`; 3b Build: :mod:`invasion_oracle.model.spirit_island.build`;
  3c Explore: :mod:`invasion_oracle.model.spirit_island.explore`;
* 4 Advance Invader Cards, the deck and Escalation: :mod:`invasion_oracle.model.spirit_island.invader_deck`;
* victory and defeat: :mod:`invasion_oracle.model.spirit_island.victory`;
* the phase in order, as a pure game: :mod:`invasion_oracle.model.spirit_island.game`;
* Fear card / Event / Blight card effects: :mod:`invasion_oracle.model.spirit_island.effects`;
* open points: :mod:`invasion_oracle.model.spirit_island.rulings`;
* scenario files: :mod:`invasion_oracle.model.spirit_island.scenario`; runs and traces:
  :mod:`invasion_oracle.model.spirit_island.simulate`; pictures: :mod:`invasion_oracle.model.spirit_island.render`.
"""

from invasion_oracle.model.spirit_island import rulings as _rulings  # registers the SI-* rulings

del _rulings

"""Stonespine Architects: Invasion (seed ``000_316842920c166c7e.txt``).

Where each rulebook section lives:

* Components, Icon Key: :mod:`invasion_oracle.model.stonespine.elements`, :mod:`invasion_oracle.model.stonespine.heroes`,
  :mod:`invasion_oracle.model.stonespine.guardians`, bundled data in ``data/stonespine.json``;
* dungeon geometry (base game): :mod:`invasion_oracle.model.stonespine.dungeon`;
* IV. Invasion Phase, Step 2 (entering, moving, escaping): :mod:`invasion_oracle.model.stonespine.entering`;
* the year's phases, Invasion Steps 1-6, Cleanup, Final Scoring, Solo Play:
  :mod:`invasion_oracle.model.stonespine.game`;
* Leveling Up Guardians: :mod:`invasion_oracle.model.stonespine.levelling`;
* open points: :mod:`invasion_oracle.model.stonespine.rulings`;
* scenario files: :mod:`invasion_oracle.model.stonespine.scenario`; runs and traces:
  :mod:`invasion_oracle.model.stonespine.simulate`.
"""

from invasion_oracle.model.stonespine import rulings as _rulings  # registers the SS-* rulings

del _rulings

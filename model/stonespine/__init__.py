"""Stonespine Architects: Invasion (seed ``000_316842920c166c7e.txt``).

Where each rulebook section lives:

* Components, Icon Key: :mod:`model.stonespine.elements`, :mod:`model.stonespine.heroes`,
  :mod:`model.stonespine.guardians`, bundled data in ``data/stonespine.json``;
* dungeon geometry (base game): :mod:`model.stonespine.dungeon`;
* IV. Invasion Phase, Step 2 (entering, moving, escaping): :mod:`model.stonespine.entering`;
* the year's phases, Invasion Steps 1-6, Cleanup, Final Scoring, Solo Play:
  :mod:`model.stonespine.game`;
* Leveling Up Guardians: :mod:`model.stonespine.levelling`;
* open points: :mod:`model.stonespine.rulings`;
* scenario files: :mod:`model.stonespine.scenario`; runs and traces:
  :mod:`model.stonespine.simulate`.
"""

from model.stonespine import rulings as _rulings  # registers the SS-* rulings

del _rulings

"""20 Strong: Cloudspire (seed ``004_9bb22f109adedf2e.txt``): lanes, spires, enemy stacks, dice.

Where each rulebook section lives:

* Components, Card Faces: :mod:`model.cloudspire.cards`, bundled example set in
  ``data/cloudspire.json`` (:mod:`model.cloudspire.data`);
* Orientation, Table Setup Diagram, Spires Fire targeting, spire adjacency:
  :mod:`model.cloudspire.area`;
* unit dice and zones: :mod:`model.cloudspire.dice`;
* blueprints (colours, misses, wild, ignoring and created blueprints): :mod:`model.cloudspire.blueprints`;
* the Deployment and Market Stacks and the Discard: :mod:`model.cloudspire.piles`;
* Setup, Round Structure (Activation, Enemy Stacks, Engagement), Spires, Mini-Heroes, the
  Discard, Draw/Keep rewards, Endgame, Universal Heroes, More Adversity: :mod:`model.cloudspire.game`;
* decision options as values: :mod:`model.cloudspire.options`;
* open points: :mod:`model.cloudspire.rulings`;
* scenario files: :mod:`model.cloudspire.scenario`; runs and traces: :mod:`model.cloudspire.simulate`;
  pictures: :mod:`model.cloudspire.render`.
"""

from model.cloudspire import rulings as _rulings  # registers the CS-* rulings

del _rulings

"""20 Strong: Cloudspire (seed ``004_9bb22f109adedf2e.txt``): lanes, spires, enemy stacks, dice.

Where each rulebook section lives:

* Components, Card Faces: :mod:`invasion_oracle.model.cloudspire.cards`, bundled example set in
  ``data/cloudspire.json`` (:mod:`invasion_oracle.model.cloudspire.data`);
* Orientation, Table Setup Diagram, Spires Fire targeting, spire adjacency:
  :mod:`invasion_oracle.model.cloudspire.area`;
* unit dice and zones: :mod:`invasion_oracle.model.cloudspire.dice`;
* blueprints (colours, misses, wild, ignoring and created blueprints): :mod:`invasion_oracle.model.cloudspire.blueprints`;
* the Deployment and Market Stacks and the Discard: :mod:`invasion_oracle.model.cloudspire.piles`;
* Setup, Round Structure (Activation, Enemy Stacks, Engagement), Spires, Mini-Heroes, the
  Discard, Draw/Keep rewards, Endgame, Universal Heroes, More Adversity: :mod:`invasion_oracle.model.cloudspire.game`;
* decision options as values: :mod:`invasion_oracle.model.cloudspire.options`;
* open points: :mod:`invasion_oracle.model.cloudspire.rulings`;
* scenario files: :mod:`invasion_oracle.model.cloudspire.scenario`; runs and traces: :mod:`invasion_oracle.model.cloudspire.simulate`;
  pictures: :mod:`invasion_oracle.model.cloudspire.render`.
"""

from invasion_oracle.model.cloudspire import rulings as _rulings  # registers the CS-* rulings

del _rulings

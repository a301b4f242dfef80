"""Searches over the Cloudspire oracle.

* :mod:`invasion_oracle.solver.cloudspire.engagement` - (a) given the board and the rolled dice, the loading and
  targeting that defeats the most enemies, and the one that loses the least Health this round;
* :mod:`invasion_oracle.solver.cloudspire.survival` - (b) the exact probability of surviving the next N rounds
  under optimal play, every dice outcome enumerated;
* :mod:`invasion_oracle.solver.cloudspire.spire_cover` - (c) the fewest spires, and where, that keep the hero's
  Health above a bound against a known deployment order whatever the dice show.

Each has two engines that must agree and replays its answer through the oracle.
"""

"""Searches over the Spirit Island Invader Phase oracle, each with z3, CP-SAT and an exhaustive baseline.

* :mod:`invasion_oracle.solver.spirit_island.fear_threshold` - the least Damage that yields k Fear (or earns the
  next Fear card) in a land; the Dahan fight-back allocation with the most Fear or kills;
* :mod:`invasion_oracle.solver.spirit_island.defend` - the least Defend that prevents Blight or keeps every Dahan;
* :mod:`invasion_oracle.solver.spirit_island.cascade` - the cascade paths the players can choose, and which lands
  of a Ravage card can cascade;
* :mod:`invasion_oracle.solver.spirit_island.island_search` - over a whole island, the lands a card sequence can or
  must ravage, build and explore, and the smallest starting change that flips one of them.

Every answer is replayed through :class:`invasion_oracle.model.spirit_island.game.InvaderPhaseGame`
(:mod:`invasion_oracle.solver.spirit_island.replay`); a disagreement raises
:class:`invasion_oracle.solver.common.OracleDisagreement`. z3 and CP-SAT time-outs are reported as ``unknown``.
"""

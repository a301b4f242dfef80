"""Searches over the oracles: z3 encodings with exhaustive baselines.

Every answer is replayed through the game's oracle before it is reported; a disagreement is a
bug and raises :class:`invasion_oracle.solver.common.OracleDisagreement`. A search that hits its time limit
answers "unknown", never a guess.
"""

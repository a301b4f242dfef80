"""Stonespine searches: guardian and minion placements, escapes, year plans, divergences (the dice and
the board compiled for the solvers, the exact engines and their baselines)."""

"""Hypothesis strategies for valid game states, and each game's invariants."""

"""Strategies built once: the small strategies the scenario strategies draw from, by their arguments.

A call like ``st.integers(0, 3)`` or ``st.sampled_from([...])`` inside a ``@st.composite`` builds
a strategy object every draw, and Hypothesis validates each new object (and, for a list or a
sampled list, cannot cache it): on the scenario documents that was over half of a draw's time
(``invasion conform --fuzz`` profiles, issue 35). These builders return one object per set of
arguments, so each is validated once. They draw exactly what the strategy they stand for
draws: the choice sequence, and so every seeded search's examples, stay what they were. The
caches are bounded (the strategies here draw from a few hundred sets of values at most).
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from typing import TypeVar

from hypothesis import strategies as st

T = TypeVar("T", bound=Hashable)


@lru_cache(maxsize=4096)
def integers(low: int, high: int) -> st.SearchStrategy[int]:
    """``st.integers(low, high)``."""
    return st.integers(low, high)


@lru_cache(maxsize=4096)
def sampled(values: tuple[T, ...]) -> st.SearchStrategy[T]:
    """``st.sampled_from(values)``."""
    return st.sampled_from(values)


@lru_cache(maxsize=4096)
def sampled_lists(
    values: tuple[T, ...], min_size: int = 0, max_size: int | None = None, unique: bool = False
) -> st.SearchStrategy[list[T]]:
    """``st.lists(st.sampled_from(values), min_size=, max_size=, unique=)``."""
    return st.lists(st.sampled_from(values), min_size=min_size, max_size=max_size, unique=unique)


@lru_cache(maxsize=4096)
def integer_lists(
    low: int, high: int, min_size: int = 0, max_size: int | None = None, unique: bool = False
) -> st.SearchStrategy[list[int]]:
    """``st.lists(st.integers(low, high), min_size=, max_size=, unique=)``."""
    return st.lists(st.integers(low, high), min_size=min_size, max_size=max_size, unique=unique)


@lru_cache(maxsize=4096)
def permutations(values: tuple[T, ...]) -> st.SearchStrategy[list[T]]:
    """``st.permutations(values)``."""
    return st.permutations(values)


BOOLEANS: st.SearchStrategy[bool] = st.booleans()

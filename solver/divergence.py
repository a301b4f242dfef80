"""z3 for the divergence search, where a ruling's rule encodes: the smallest witness, solved.

A game may give, in ``solver/<pkg>/divergence.py``, ``ENCODINGS = {ruling_id: encode}`` where
``encode(deadline)`` models the rule the ruling is about in z3, minimises the scenario's size in
the encoding's terms (``z3.Optimize``, lexicographic objectives) and returns the scenario
document of the optimum, or None when the readings cannot differ within the encoding. The
oracle is the judge: the caller runs the document under every reading and raises
:class:`~invasion_oracle.solver.common.OracleDisagreement` when the outcomes do not differ as the encoding
claims. Rulings without an encoding are searched by hypothesis (``properties/divergence.py``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from typing import Any

from invasion_oracle.model.registry import package_of
from invasion_oracle.solver.common import Deadline

Encoding = Callable[[Deadline], dict[str, Any] | None]


def encodings(game: str) -> Mapping[str, Encoding]:
    """The z3 encodings a game gives (empty when none)."""
    name = f"invasion_oracle.solver.{package_of(game)}.divergence"
    try:
        if importlib.util.find_spec(name) is None:
            return {}
    except ModuleNotFoundError:  # the game has no solver package at all
        return {}
    found: Mapping[str, Encoding] = getattr(importlib.import_module(name), "ENCODINGS", {})
    return found

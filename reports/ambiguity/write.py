"""Witnesses found by the searches, written out as scenario files (the per-reading form).

For a divergence witness of ruling ``ID`` whose scenario tells every reading apart, one file per
reading, ``DIR/<pkg>/rulings/<ID>/<READING>.json``: the scenario with that reading set in its
``rulings``. Copied into ``examples/<pkg>/rulings/`` they are witnesses *for* each reading
(``docs/adding-a-game.md``), and the fixtures turn each into a case with that reading's outcome.
A scenario that tells only some readings apart is written once, ``<ID>/found.json``, with the
ruling left open. Well-formedness witnesses go to ``DIR/<pkg>/wellformed/<check>.json``.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from invasion_oracle.model.core.canonical import canonical_json, write_atomic
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.model.registry import package_of
from invasion_oracle.reports.ambiguity.analysis import Analysis


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def _write(path: Path, document: dict[str, Any]) -> str:
    write_atomic(path, canonical_json(document, indent=2) + "\n")
    return str(path)


def write_witnesses(analysis: Analysis, folder: Path) -> dict[str, str]:
    """Write every witness found; returns the file a report names for each (ruling id or game:check)."""
    written: dict[str, str] = {}
    for rid, result in sorted(analysis.divergences.items()):
        if result.document is None or result.difference is None:
            continue
        ruling = REGISTRY.get(rid)
        base = folder / package_of(result.game) / "rulings" / rid
        groups = result.difference.groups
        if all(len(group) == 1 for group in groups):
            for reading in ruling.reading_names:
                document = copy.deepcopy(result.document)
                document["description"] = (
                    f"Found by `invasion ambiguities --search`: a smallest generated scenario whose outcome "
                    f"depends on {rid}; this file reads it as {reading}."
                )
                document["rulings"] = {**document.get("rulings", {}), rid: reading}
                name = _write(base / f"{reading}.json", document)
                if reading == ruling.default:
                    written[rid] = name
        else:
            document = copy.deepcopy(result.document)
            document["description"] = (
                f"Found by `invasion ambiguities --search`: a smallest generated scenario whose outcome depends "
                f"on {rid} (it tells {' | '.join(' = '.join(g) for g in groups)} apart)."
            )
            written[rid] = _write(base / "found.json", document)
    for game, checks in sorted(analysis.wellformed.items()):
        for check in checks:
            if check.document is not None:
                target = folder / package_of(game) / "wellformed" / f"{_slug(check.check)}.json"
                document = {
                    **check.document,
                    "description": f"Found by `invasion ambiguities --wellformed`: {check.check}.",
                }
                written[f"{game}:{check.check}"] = _write(target, document)
    return written

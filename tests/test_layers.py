"""The layers hold for every game, including ones added later (the design card).

``make lint`` runs import-linter's contracts from ``pyproject.toml``; these tests check what a
contract would have to list game by game: the shared core imports no other part of ``model``,
and the modules of ``reports`` import each other without a circle.
"""

from __future__ import annotations

import grimp
import networkx as nx


def test_the_shared_core_imports_nothing_of_model_outside_it() -> None:
    graph = grimp.build_graph("invasion_oracle")
    offending = [
        (importer, imported)
        for importer in graph.find_descendants("invasion_oracle.model.core") | {"invasion_oracle.model.core"}
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported.startswith("invasion_oracle.model.")
        and not imported.startswith("invasion_oracle.model.core")
    ]
    assert offending == []


def test_reports_modules_import_each_other_without_a_circle() -> None:
    graph = grimp.build_graph("invasion_oracle")
    edges = nx.DiGraph()
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            if importer.startswith("invasion_oracle.reports") and imported.startswith(
                "invasion_oracle.reports"
            ):
                edges.add_edge(importer, imported)
    assert list(nx.simple_cycles(edges)) == []

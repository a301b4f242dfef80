"""A simple path over named places, encoded for z3: the shape every route search shares.

Heroes walking a dungeon, Invaders moving between hexes and enemies advancing down a lane all
take routes over :class:`model.core.places.Places`. :class:`SimplePath` encodes "a path that
starts at ``start``, never revisits a place and stops somewhere" with

* ``visited[p]`` - the path enters place ``p``;
* ``end[p]`` - the path stops at ``p`` (exactly one);
* ``step[p, q]`` - the path goes from ``p`` to its neighbour ``q``;
* ``order[p]`` - the position of ``p`` on the path (0 at the start), which rules out cycles
  (Miller-Tucker-Zemlin);

and leaves the game's rules (who stops a walker, what a place costs) to the caller, who adds
constraints over these variables. :func:`decode` reads the path back from a model.

>>> import z3
>>> from model.core.places import Places
>>> line = Places.from_edges("abcd", ["ab", "bc", "cd"])
>>> path = SimplePath(line.neighbour_indices, start=0, tag="demo")
>>> solver = z3.Solver()
>>> solver.add(path.constraints())
>>> solver.add(path.end[3])
>>> solver.check() == z3.sat, decode(path, solver.model())
(True, (0, 1, 2, 3))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3


class SimplePath:
    """The variables and structural constraints of one simple path from ``start``."""

    def __init__(
        self,
        neighbours: Sequence[Sequence[int]],
        start: int,
        tag: str,
        *,
        blocked: Sequence[bool] | None = None,
    ) -> None:
        n = len(neighbours)
        self.neighbours = neighbours
        self.start = start
        self.visited = [z3.Bool(f"{tag}_v{p}") for p in range(n)]
        self.end = [z3.Bool(f"{tag}_e{p}") for p in range(n)]
        self.order = [z3.Int(f"{tag}_o{p}") for p in range(n)]
        self.step = {(p, q): z3.Bool(f"{tag}_x{p}_{q}") for p in range(n) for q in neighbours[p]}
        self._blocked = blocked or [False] * n

    def length(self) -> Any:
        """The number of places entered (a z3 integer term)."""
        return z3.Sum([z3.If(v, 1, 0) for v in self.visited])

    def interior(self, place: int) -> Any:
        """The path enters ``place`` and leaves it again."""
        return z3.And(self.visited[place], z3.Not(self.end[place]))

    def constraints(self) -> list[Any]:
        """A simple path from ``start``: one end, each interior place left by one step, no cycle."""
        n = len(self.neighbours)
        out: list[Any] = [self.visited[self.start], self.order[self.start] == 0]
        out.append(z3.PbEq([(e, 1) for e in self.end], 1))
        incoming: list[list[Any]] = [[] for _ in range(n)]
        for (p, q), x in self.step.items():
            incoming[q].append(x)
            out.append(z3.Implies(x, self.order[q] == self.order[p] + 1))
        for p in range(n):
            leaving = [self.step[p, q] for q in self.neighbours[p]]
            out.append(z3.Implies(self.end[p], self.visited[p]))
            if self._blocked[p]:
                out.append(z3.Not(self.interior(p)))
            if leaving:
                out.append(z3.Implies(self.interior(p), z3.PbEq([(x, 1) for x in leaving], 1)))
                out.append(z3.Implies(z3.Not(self.interior(p)), z3.And([z3.Not(x) for x in leaving])))
            else:
                out.append(z3.Not(self.interior(p)))
            if p == self.start:
                out.append(z3.And([z3.Not(x) for x in incoming[p]]))
            elif incoming[p]:
                out.append(z3.Implies(self.visited[p], z3.PbEq([(x, 1) for x in incoming[p]], 1)))
                out.append(z3.Implies(z3.Not(self.visited[p]), z3.And([z3.Not(x) for x in incoming[p]])))
            else:
                out.append(z3.Not(self.visited[p]))
            out.append(z3.Implies(self.visited[p], z3.And(self.order[p] >= 0, self.order[p] < n)))
        return out


def decode(path: SimplePath, model: Any) -> tuple[int, ...]:
    """The places of the path in order, read from a z3 model."""
    here = path.start
    route = [here]
    while not z3.is_true(model.eval(path.end[here], model_completion=True)):
        nxt = next(
            q
            for q in path.neighbours[here]
            if z3.is_true(model.eval(path.step[here, q], model_completion=True))
        )
        route.append(nxt)
        here = nxt
    return tuple(route)

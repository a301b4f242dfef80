"""A simple path over named places, encoded for z3: the shape every route search shares.

Heroes walking a dungeon, Invaders moving between hexes and enemies advancing down a lane all
take routes over :class:`invasion_oracle.model.core.places.Places`. :class:`SimplePath` encodes "a path that
starts at ``start``, never revisits a place and stops somewhere" with

* ``visited[p]`` - the path enters place ``p``;
* ``end[p]`` - the path stops at ``p`` (exactly one);
* ``step[p, q]`` - the path goes from ``p`` to its neighbour ``q``;
* ``order[p]`` - the position of ``p`` on the path (0 at the start), which rules out cycles
  (Miller-Tucker-Zemlin), with the redundant "length = last position + 1" that kills detached
  cycles quickly;

and leaves the game's rules (who stops a walker, what a place costs) to the caller, who adds
constraints over these variables. Places outside ``live`` (ones a walker can never enter) get
constants instead of variables. :func:`decode` reads the path back from a model. The Stonespine
route searches (:mod:`invasion_oracle.solver.stonespine.routes`) build on it.

>>> import z3
>>> from invasion_oracle.model.core.places import Places
>>> line = Places.from_edges("abcd", ["ab", "bc", "cd"])
>>> path = SimplePath(line.neighbour_indices, start=0, tag="demo")
>>> solver = z3.Solver()
>>> solver.add(path.constraints())
>>> solver.add(path.end[3])
>>> solver.check() == z3.sat, decode(path, solver.model())
(True, (0, 1, 2, 3))
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

import z3


def _nothing() -> None:
    return None


class SimplePath:
    """The variables and structural constraints of one simple path from ``start``."""

    def __init__(
        self,
        neighbours: Sequence[Sequence[int]],
        start: int,
        tag: str,
        *,
        live: Collection[int] | None = None,
    ) -> None:
        n = len(neighbours)
        self.neighbours = neighbours
        self.start = start
        self.live = sorted(range(n) if live is None else live)
        alive = set(self.live)
        self.visited: list[Any] = [z3.Bool(f"{tag}_v{p}") if p in alive else False for p in range(n)]
        self.end: list[Any] = [z3.Bool(f"{tag}_e{p}") if p in alive else False for p in range(n)]
        self.order: list[Any] = [z3.Int(f"{tag}_o{p}") if p in alive else 0 for p in range(n)]
        self.step = {
            (p, q): z3.Bool(f"{tag}_x{p}_{q}") for p in self.live for q in neighbours[p] if q in alive
        }

    def length(self) -> Any:
        """The number of places entered (a z3 integer term)."""
        return z3.Sum([z3.If(self.visited[p], 1, 0) for p in self.live])

    def interior(self, place: int) -> Any:
        """The path enters ``place`` and leaves it again."""
        return z3.And(self.visited[place], z3.Not(self.end[place]))

    def leaving(self, place: int) -> list[Any]:
        """The step variables out of ``place``."""
        return [self.step[place, q] for q in self.neighbours[place] if (place, q) in self.step]

    def constraints(self, check: Callable[[], None] = _nothing) -> list[Any]:
        """A simple path from ``start``: one end, each interior place left by one step, no cycle.

        ``check`` is called once per place (a deadline's check: building a large encoding takes
        a while). With no live place there is no path at all.
        """
        if not self.live:
            return [z3.BoolVal(False)]
        out: list[Any] = [z3.And(self.visited[self.start], self.order[self.start] == 0)]
        out.append(z3.PbEq([(self.end[p], 1) for p in self.live], 1))
        incoming: dict[int, list[Any]] = {p: [] for p in self.live}
        for (p, q), x in self.step.items():
            incoming[q].append(x)
            out.append(z3.Implies(x, self.order[q] == self.order[p] + 1))
        for p in self.live:
            check()
            interior = self.interior(p)
            leaving = self.leaving(p)
            out.append(z3.Implies(self.end[p], self.visited[p]))
            # A place the path leaves has exactly one chosen step out; any other has none.
            if leaving:
                out.append(z3.Implies(interior, z3.PbEq([(x, 1) for x in leaving], 1)))
                out.append(z3.Implies(z3.Not(interior), z3.And([z3.Not(x) for x in leaving])))
            else:
                out.append(z3.Not(interior))
            # A visited place other than the start is entered by exactly one chosen step.
            if p == self.start:
                out.append(z3.And([z3.Not(x) for x in incoming[p]]))
            elif incoming[p]:
                out.append(z3.Implies(self.visited[p], z3.PbEq([(x, 1) for x in incoming[p]], 1)))
                out.append(z3.Implies(z3.Not(self.visited[p]), z3.And([z3.Not(x) for x in incoming[p]])))
            else:
                out.append(z3.Not(self.visited[p]))
            out.append(z3.And(self.order[p] >= 0, self.order[p] < len(self.live)))
        # Redundant but strong: a simple path numbers its places 0..k, so the number visited is the
        # end's number plus one, and every visited place's number is below it.
        length = self.length()
        out.append(length == z3.Sum([z3.If(self.end[p], self.order[p], 0) for p in self.live]) + 1)
        out += [z3.Implies(self.visited[p], self.order[p] < length) for p in self.live]
        return out


def decode(path: SimplePath, model: Any) -> tuple[int, ...]:
    """The places of the path in order, read from a z3 model."""
    visited = [p for p in path.live if z3.is_true(model.eval(path.visited[p], model_completion=True))]
    return tuple(sorted(visited, key=lambda p: model.eval(path.order[p], model_completion=True).as_long()))

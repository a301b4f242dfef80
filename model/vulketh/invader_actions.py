"""Where the Invader actions put Invaders (seed 003, Invader Actions: GROW, MOVE; Summoning a
Warlord), as pure functions of the counts on the map.

Counts are indexed by hex number minus one. The game (:mod:`invasion_oracle.model.vulketh.game`) takes the
Invaders from the supply or the overrun reserve and reports the events; these functions only
say where the pieces go, under the rulings in force:

* GROW fills the lowest (highest) hex holding Invaders or a Warlord up to the cap, then
  overflows (ruling ``VK-GROW-OVERFLOW``);
* MOVE walks the hexes from the lowest (highest), moving unmoved Invaders one at a time to the
  next adjacent hex with room (rulings ``VK-MOVE-DEST`` and ``VK-MOVE-HIGHEST``), never the last
  Invader of a hex and never an Invader twice;
* a summoned Warlord goes to the highest-numbered hex with Invaders and no Warlord, else the
  lowest-numbered hex without a Warlord.

The seed's worked example (Invader Turn Example), on the default map with hex 1 holding a
Warlord, hex 2 four Invaders and hex 3 five:

>>> from invasion_oracle.model.vulketh.hexmap import default_map
>>> counts = (0, 4, 5, 0, 0, 0, 0, 0, 0)
>>> warlords = (True,) + (False,) * 8
>>> grow_targets(counts, warlords, 3, "lowest", "occupied", 5)
(((1, 3),), 0)
>>> after_grow = (3, 4, 5, 0, 0, 0, 0, 0, 0)
>>> move_invaders(after_grow, default_map().adjacency, 4, "lowest", "beyond-source", "mirror", 5)
((2, 2, 5, 3, 0, 0, 0, 0, 0), ((1, 2), (2, 4), (2, 4), (2, 4)))
"""

from __future__ import annotations

from collections.abc import Sequence

HEX_COUNT = 9


def hex_order(direction: str) -> tuple[int, ...]:
    """Hex numbers from the lowest up (``lowest``) or from the highest down (``highest``)."""
    numbers = tuple(range(1, HEX_COUNT + 1))
    return numbers if direction == "lowest" else tuple(reversed(numbers))


def grow_targets(
    invaders: Sequence[int], warlords: Sequence[bool], amount: int, direction: str, overflow: str, cap: int
) -> tuple[tuple[tuple[int, int], ...], int]:
    """Where GROW puts ``amount`` Invaders: ``(hex, count)`` in placement order, and how many do
    not fit anywhere (they stay in the supply)."""
    order = hex_order(direction)
    occupied = [n for n in order if invaders[n - 1] > 0 or warlords[n - 1]]
    if overflow == "occupied":
        candidates = occupied
    elif overflow == "occupied-then-any":
        candidates = occupied + [n for n in order if n not in occupied]
    elif overflow == "next-hex":
        candidates = list(order[order.index(occupied[0]) :]) if occupied else []
    else:
        raise ValueError(f"unknown GROW overflow reading {overflow!r}")
    placed: list[tuple[int, int]] = []
    left = amount
    for number in candidates:
        if left == 0:
            break
        room = max(0, cap - invaders[number - 1])
        count = min(room, left)
        if count:
            placed.append((number, count))
            left -= count
    return tuple(placed), left


def move_destinations(
    source: int,
    neighbours: Sequence[int],
    moved_out: set[int] | frozenset[int],
    direction: str,
    dest_reading: str,
    highest_reading: str,
) -> tuple[int, ...]:
    """The neighbours of ``source`` an Invader may move to, in the order they are tried."""
    if dest_reading == "beyond-source":
        upward = direction == "lowest" or highest_reading == "highest-first"
        pool = [d for d in neighbours if (d > source if upward else d < source)]
    elif dest_reading == "unused":
        pool = [d for d in neighbours if d not in moved_out]
    else:
        raise ValueError(f"unknown MOVE destination reading {dest_reading!r}")
    return tuple(sorted(pool, reverse=direction == "highest"))


def move_invaders(
    invaders: Sequence[int],
    adjacency: Sequence[Sequence[int]],
    amount: int,
    direction: str,
    dest_reading: str,
    highest_reading: str,
    cap: int,
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """MOVE ``amount`` Invaders: the counts after, and each single move ``(from, to)`` in order."""
    counts = list(invaders)
    arrived = [0] * HEX_COUNT
    moved_out: set[int] = set()
    moves: list[tuple[int, int]] = []
    left = amount
    for source in hex_order(direction):
        while left > 0:
            here = counts[source - 1]
            if here <= 1 or here - arrived[source - 1] <= 0:
                break  # never the last Invader; never an Invader that already moved
            options = move_destinations(
                source, adjacency[source - 1], moved_out, direction, dest_reading, highest_reading
            )
            target = next((d for d in options if counts[d - 1] < cap), None)
            if target is None:
                break
            counts[source - 1] -= 1
            counts[target - 1] += 1
            arrived[target - 1] += 1
            moved_out.add(source)
            moves.append((source, target))
            left -= 1
    return tuple(counts), tuple(moves)


def grouped(moves: Sequence[tuple[int, int]]) -> tuple[tuple[int, int, int], ...]:
    """Consecutive equal single moves as ``(from, to, count)``.

    >>> grouped(((1, 2), (2, 4), (2, 4)))
    ((1, 2, 1), (2, 4, 2))
    """
    out: list[tuple[int, int, int]] = []
    for a, b in moves:
        if out and out[-1][:2] == (a, b):
            out[-1] = (a, b, out[-1][2] + 1)
        else:
            out.append((a, b, 1))
    return tuple(out)


def warlord_target(invaders: Sequence[int], warlords: Sequence[bool]) -> int | None:
    """Where a summoned Warlord goes: the highest-numbered hex with Invaders and no Warlord, else
    the lowest-numbered hex without a Warlord (``None`` if every hex has one)."""
    for number in hex_order("highest"):
        if invaders[number - 1] > 0 and not warlords[number - 1]:
            return number
    for number in hex_order("lowest"):
        if not warlords[number - 1]:
            return number
    return None

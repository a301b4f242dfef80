"""Wave values for thousands of placements at once: the placement search's refutations, vectorised.

The search must refute every placement class whose value is below the best found, tens of
thousands of them on an 8x8 grid; one at a time, Python spends tens of microseconds on each (a
walk per hero colour and defeated mask, a dictionary per placement). Here the same question -
"can the player defeat ``cut`` heroes of this roll?" - is asked of a whole block of placements in
one pass of numpy array operations:

* the walks of :func:`invasion_oracle.solver.stonespine.fast._walk` follow the simple paths from
  the first chamber; :class:`PathTree` is the tree of those paths (each node a path, its chamber
  the last one entered), grown only as far as some hero of the block is still alive;
* a walk of one colour for many (placement, defeated mask) items is one table look-up per tree
  node and item: the code of :class:`~invasion_oracle.solver.stonespine.fast.EntryTable` (the one
  tabulation of the route rules) for the chamber's contents and the state carried from the parent
  node; where the code is a defeat, the chamber joins the item's defeat set;
* the wave is then a breadth-first search over (placement, defeated mask, heroes left), shared by
  the rolls: one hero defeated per step, states met twice kept once, ``cut`` steps deep. A
  placement whose every roll reaches depth ``cut`` can defeat ``cut`` heroes whatever the dice;
  one that some roll cannot take there is refuted.

It answers what :meth:`LayoutEvaluator.value(roll) >= cut
<invasion_oracle.solver.stonespine.fast.LayoutEvaluator.value>` answers for every roll (tests check
both on every class, roll and cut of several dungeons), except that a placement with too many
states is answered "reaches", undecided, never "refuted". The search evaluates every placement
that is not refuted one by one, so values, ties and their order are unchanged.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from invasion_oracle.solver.common import Deadline
from invasion_oracle.solver.stonespine.board import Board, Layout
from invasion_oracle.solver.stonespine.dice import Roll
from invasion_oracle.solver.stonespine.fast import BY_DAMAGE, BY_GUARDIAN, EntryTables

if TYPE_CHECKING:
    from invasion_oracle.solver.stonespine.space import Space

Ints = npt.NDArray[np.int64]
Masks = npt.NDArray[np.uint64]
Bools = npt.NDArray[np.bool_]
Small = npt.NDArray[np.int8]  # chamber contents: minions * 4 + guardian * 2 (at most 4 * 31)

UNREACHED = -4  # filler: the codes of states a colour never carries (its health is lower)

# The batch gives way to the one-at-a-time evaluation (raising TooLarge) past these sizes: the
# paths of a wide-open dungeon grow exponentially, and one step of the walk holds an array entry
# per (item, path). Counts, not seconds, so every run takes the same way.
TREE_CAP = 50_000
LEVEL_CAP = 1 << 23
# States (defeated mask, heroes left) one placement may have after a defeat before it leaves the
# breadth-first search undecided (see WaveBatch.reaches).
SPREAD = 16


class TooLarge(Exception):
    """The paths or a level's array grew past the caps: evaluate these placements one by one."""


class PathTree:
    """Every simple path from the first chamber, as a tree grown on demand: node 0 is the first
    chamber alone; a node's children extend its path by one unvisited neighbour (consecutive
    numbers from ``first[node]``, ``count[node]`` of them; ``-1`` until grown)."""

    __slots__ = ("chamber", "chambers", "count", "counts", "first", "firsts", "neighbours", "visited")

    def __init__(self, board: Board) -> None:
        self.neighbours = board.neighbours
        self.chamber = [board.start]
        self.visited = [1 << board.start]
        self.first = [-1]
        self.count = [-1]
        self._arrays()

    def _arrays(self) -> None:
        self.chambers: Ints = np.array(self.chamber, dtype=np.int64)
        self.firsts: Ints = np.array(self.first, dtype=np.int64)
        self.counts: Ints = np.array(self.count, dtype=np.int64)

    def grow(self, nodes: Sequence[int]) -> None:
        for node in nodes:
            here, visited = self.chamber[node], self.visited[node]
            self.first[node], before = len(self.chamber), len(self.chamber)
            for nxt in self.neighbours[here]:
                if not visited >> nxt & 1:
                    self.chamber.append(nxt)
                    self.visited.append(visited | 1 << nxt)
                    self.first.append(-1)
                    self.count.append(-1)
            self.count[node] = len(self.chamber) - before
        if len(self.chamber) > TREE_CAP:
            raise TooLarge
        self._arrays()


class WaveBatch:
    """The wave question for blocks of placements on one board.

    A placement of the block is a row of ``contents``: per chamber ``minions * 4 + guardian * 2``
    (the index :class:`~invasion_oracle.solver.stonespine.fast.EntryTable` files its rows under,
    less the ``ignored`` bit, which comes from each item's defeated mask).
    """

    def __init__(self, board: Board, tables: EntryTables, top: int, deadline: Deadline | None = None) -> None:
        if board.size > 64 or top > 30:
            raise TooLarge  # defeated masks are 64-bit words, contents 8-bit
        self.board = board
        self.deadline = deadline
        self.tree = PathTree(board)
        self.kinds = (top + 1) * 4  # (minions 0..top) x guardian x ignored
        self.width = max(t.states for t in tables.by_color)
        reach = board.reachable()
        codes = []
        for table in tables.by_color:
            flat = np.full(board.size * self.kinds * self.width, UNREACHED, dtype=np.int64)
            for node in reach:
                for kind in range(self.kinds):
                    row = table.row(node, kind >> 2, bool(kind & 2), bool(kind & 1))
                    at = (node * self.kinds + kind) * self.width
                    flat[at : at + len(row)] = row
            codes.append(flat)
        self.codes = tuple(codes)
        self.bits = np.left_shift(np.uint64(1), np.arange(board.size, dtype=np.uint64))

    def defeats(self, color: int, contents: Small, items: Ints, masks: Masks) -> Masks:
        """Per item (a row of ``contents`` and a defeated mask), the chambers where a hero of
        colour index ``color`` can be defeated, as a bit mask (what ``_walk`` yields).

        The walk keeps one entry per (item, path) still alive: its item, its tree node and the
        state carried; each step enters every next chamber of every entry at once."""
        found = np.zeros(len(items), dtype=np.uint64)
        if self.board.escape_at_entry or not len(items):
            return found
        codes, width, kinds, bits, tree = self.codes[color], self.width, self.kinds, self.bits, self.tree
        one = np.uint64(1)
        start = self.board.start
        kind = contents[items, start] + ((masks >> np.uint64(start)) & one).astype(np.int64)
        code = codes[(start * kinds + kind) * width]
        found[(code == BY_GUARDIAN) | (code == BY_DAMAGE)] = bits[start]
        walking = code >= 0
        who = np.flatnonzero(walking)  # per entry: its item's index in ``items``
        node = np.zeros(len(who), dtype=np.int64)
        state = code[walking]
        while len(who):
            if self.deadline is not None:
                self.deadline.check()
            many = tree.counts[node]
            if (many < 0).any():
                tree.grow(np.unique(node[many < 0]).tolist())
                many = tree.counts[node]
            total = int(many.sum())
            if not total:
                break
            if total > LEVEL_CAP:
                raise TooLarge
            parent = np.repeat(np.arange(len(node)), many)
            kid = tree.firsts[node][parent] + (np.arange(total) - (np.cumsum(many) - many)[parent])
            chamber = tree.chambers[kid]
            who = who[parent]
            ignored = (masks[who] >> chamber.astype(np.uint64)) & one
            kind = contents[items[who], chamber] + ignored.astype(np.int64)
            code = codes[(chamber * kinds + kind) * width + state[parent]]
            ends = (code == BY_GUARDIAN) | (code == BY_DAMAGE)
            if ends.any():
                np.bitwise_or.at(found, who[ends], bits[chamber[ends]])
            walking = code >= 0
            who, node, state = who[walking], kid[walking], code[walking]
        return found

    def reaches(
        self,
        contents: Small,
        rolls: Sequence[Roll],
        cut: int,
        defeated: int,
        among: Bools | None = None,
        spread: int | None = SPREAD,
    ) -> Bools:
        """Per placement (row of ``contents``; only those in ``among``), whether the player can
        defeat ``cut`` heroes of every roll of ``rolls`` with heroes already defeated in
        ``defeated``.

        One breadth-first search for all the rolls: a state is (placement, defeated mask, heroes
        left) with the set of rolls that lead to it; one walk per (placement, mask) serves every
        state and roll. A placement that some roll can no longer follow is dropped at once. A
        placement with more than ``spread`` states after some defeat (heroes that can be defeated
        almost anywhere: the one-by-one search finds its defeats at once, the breadth-first
        search would list every way) leaves the search and is answered True, undecided: the
        caller evaluates it exactly. ``None``: every placement decided."""
        count = contents.shape[0]
        chosen = np.ones(count, dtype=np.bool_) if among is None else among
        if cut <= 0 or not rolls:
            return chosen.copy()
        if any(sum(roll) < cut for roll in rolls):
            return np.zeros(count, dtype=np.bool_)
        if len(rolls) > 63:  # the set of rolls is a 64-bit word
            first = self.reaches(contents, rolls[:63], cut, defeated, among, spread)
            return self.reaches(contents, rolls[63:], cut, defeated, first, spread)
        every = np.uint64((1 << len(rolls)) - 1)
        undecided = np.zeros(count, dtype=np.bool_)
        placements = np.flatnonzero(chosen).astype(np.int64)
        items = np.repeat(placements, len(rolls))  # sorted by placement, then mask (all equal)
        masks = np.full(len(items), defeated, dtype=np.uint64)
        left = np.tile(np.array(rolls, dtype=np.int64), (len(placements), 1))
        tags = np.tile(np.left_shift(np.uint64(1), np.arange(len(rolls), dtype=np.uint64)), len(placements))
        for _ in range(cut):
            grown: list[tuple[Ints, Masks, Ints, Masks]] = []
            for color in range(3):
                picked = np.flatnonzero(left[:, color] > 0)
                if len(picked):
                    grown.extend(self._grow(color, contents, picked, items, masks, left, tags))
            if not grown:
                return undecided
            items, masks, left, tags = _merge(*(np.concatenate(part) for part in zip(*grown, strict=True)))
            reached = np.zeros(count, dtype=np.uint64)
            np.bitwise_or.at(reached, items, tags)
            going = reached == every
            if spread is not None:
                wide = going & (np.bincount(items, minlength=count) > spread)
                undecided |= wide
                going &= ~wide
            keep = going[items]
            items, masks, left, tags = items[keep], masks[keep], left[keep], tags[keep]
        answer = undecided
        answer[items] = True
        return answer

    def _grow(
        self, color: int, contents: Small, picked: Ints, items: Ints, masks: Masks, left: Ints, tags: Masks
    ) -> Iterator[tuple[Ints, Masks, Ints, Masks]]:
        """The states after one more hero of ``color`` is defeated, from the states ``picked``
        (sorted by placement and mask, so equal pairs are neighbours and walked once)."""
        who, mask = items[picked], masks[picked]
        fresh = np.ones(len(picked), dtype=np.bool_)
        fresh[1:] = (who[1:] != who[:-1]) | (mask[1:] != mask[:-1])
        group = np.cumsum(fresh) - 1
        firsts = np.flatnonzero(fresh)
        found = self.defeats(color, contents, who[firsts], mask[firsts])[group]
        present = int(np.bitwise_or.reduce(found)) if len(found) else 0
        if not present:
            return
        chambers = np.array([n for n in range(self.board.size) if present >> n & 1], dtype=np.uint64)
        state, column = np.nonzero((found[:, None] >> chambers[None, :]) & np.uint64(1))
        source = picked[state]
        fewer = left[source]
        fewer[:, color] -= 1
        yield items[source], masks[source] | self.bits[chambers[column].astype(np.int64)], fewer, tags[source]


def _merge(items: Ints, masks: Masks, left: Ints, tags: Masks) -> tuple[Ints, Masks, Ints, Masks]:
    """The (placement, mask, heroes left) states once each, sorted, with the rolls leading to each
    (defeats in another order, or of another roll, lead to the same state: walked once)."""
    order = np.lexsort((left[:, 2], left[:, 1], left[:, 0], masks, items))
    items, masks, left, tags = items[order], masks[order], left[order], tags[order]
    fresh = np.ones(len(items), dtype=np.bool_)
    fresh[1:] = (items[1:] != items[:-1]) | (masks[1:] != masks[:-1]) | (left[1:] != left[:-1]).any(axis=1)
    starts = np.flatnonzero(fresh)
    return items[starts], masks[starts], left[starts], np.bitwise_or.reduceat(tags, starts)


def contents_of(size: int, guardians: Sequence[int], minions: Ints) -> Small:
    """The ``contents`` rows of a block: ``minions`` holds each placement's minion chambers (one
    column per minion), the guardians are the block's own."""
    block = np.zeros((minions.shape[0], size), dtype=np.int8)
    rows = np.arange(minions.shape[0])
    for column in range(minions.shape[1]):  # one chamber per row in a column: no collisions
        block[rows, minions[:, column]] += 4
    for node in set(guardians):
        block[:, node] += 2
    return block


_COMBINATIONS: dict[tuple[int, int], Ints] = {}


def _combinations(n: int, k: int) -> Ints:
    """``itertools.combinations_with_replacement(range(n), k)`` as rows, in its order."""
    found = _COMBINATIONS.get((n, k))
    if found is None:
        every = list(itertools.combinations_with_replacement(range(n), k))
        found = _COMBINATIONS[(n, k)] = np.array(every, dtype=np.int64).reshape(len(every), k)
    return found


def _less(image: Ints, mine: Ints) -> Bools:
    """Row by row, whether ``image`` comes before ``mine`` (tuples compared lexicographically)."""
    differ = image != mine
    first = differ.argmax(axis=1)
    rows = np.arange(len(image))
    earlier: Bools = differ.any(axis=1) & (image[rows, first] < mine[rows, first])
    return earlier


def class_blocks(space: Space) -> Iterator[tuple[tuple[int, ...], Ints]]:
    """:meth:`Space.classes <invasion_oracle.solver.stonespine.space.Space.classes>` in
    blocks, in the same order: per guardian placement and minion count, the minion chambers of
    every class (a row each, one column per minion)."""
    position = np.array(space.position, dtype=np.int64)
    perms = [np.array(p, dtype=np.int64) for p in space.symmetries]
    for guardians in itertools.combinations_with_replacement(
        space.guardian_nodes(), space.board.guardian_figures
    ):
        if space.symmetries and space._guardians_not_first(guardians):
            continue
        nodes = np.array(space.minion_nodes(guardians), dtype=np.int64)
        ours = tuple(sorted(space.position[g] for g in guardians))
        # As in Space.is_first: a symmetry moving the guardians later says nothing; one moving them
        # earlier rules out the whole block; one keeping them rules out the minions it moves earlier.
        theirs = [(tuple(sorted(space.position[p[g]] for g in guardians)), p) for p in perms]
        if any(image < ours for image, _ in theirs):
            continue
        keeping = [p for image, p in theirs if image == ours]
        for count in space.counts:
            minions = nodes[_combinations(len(nodes), count)]
            if keeping and count:
                mine = np.sort(position[minions], axis=1)
                first = np.ones(len(minions), dtype=np.bool_)
                for perm in keeping:
                    first &= ~_less(np.sort(position[perm[minions]], axis=1), mine)
                minions = minions[first]
            yield tuple(sorted(guardians)), minions


def _layout(size: int, guardians: tuple[int, ...], minions: Sequence[int]) -> Layout:
    counts = [0] * size
    for node in minions:
        counts[node] += 1
    return Layout(guardians, tuple(counts))


def screened(
    space: Space,
    rolls: Sequence[Roll],
    cut: Callable[[], int],
    deadline: Deadline | None = None,
    first: int = 64,
    most: int = 16_384,
    after: int = 0,
) -> Iterator[Layout | int]:
    """Every placement class in search order, with runs of classes that cannot reach ``cut()``
    (read before each chunk: the caller's cut only rises) folded into their number.

    A class is yielded as a :class:`Layout` when every roll of ``rolls`` lets it reach the cut -
    the caller evaluates it exactly - and counted into an ``int`` when some roll keeps it below
    (the caller would have dropped it). Chunks grow from ``first`` to ``most`` classes, so that
    the cut found on the first classes screens the many later ones; after a chunk where most
    classes reached the cut, the next ones pass unscreened for a while. Past the caps of
    :class:`WaveBatch` every class is yielded as it comes. The first ``after`` classes are left
    out (the caller took them one by one).
    """
    board = space.board
    wave: WaveBatch | None = None
    usable = True  # until the caps are met
    source = _Classes(space, after)
    size, passed, held_back = first, 0, 0
    while chunk := source.take(passed or size):
        reaching: Bools | None = None
        if usable and not passed and cut() > 0:  # at cut 0 or less every class reaches it
            try:
                wave = wave or WaveBatch(board, space.tables, max(space.counts, default=0), deadline)
                reaching = _screen(wave, space, chunk, rolls, cut())
            except TooLarge:
                usable = False
        if reaching is None:
            passed = 0
            for guardians, minions in chunk:
                for row in minions.tolist():
                    yield _layout(board.size, guardians, row)
            continue
        # A screen that drops few classes cost more than it saved (every roll walked for classes
        # that are evaluated one by one anyway, ties being listed say): the next classes pass
        # unscreened, twice as many each time, until a screen pays again.
        if int(reaching.sum()) * 2 > len(reaching):
            size, held_back = first, 2 * held_back or first
            passed = held_back
        else:
            size, held_back = min(2 * size, most), 0
        offset = 0
        for guardians, minions in chunk:
            done = 0
            for index in np.flatnonzero(reaching[offset : offset + len(minions)]).tolist():
                if index > done:
                    yield index - done
                yield _layout(board.size, guardians, minions[index].tolist())
                done = index + 1
            if len(minions) > done:
                yield len(minions) - done
            offset += len(minions)


Segment = tuple[tuple[int, ...], Ints]  # guardians, and a row of minion chambers per class


class _Classes:
    """The classes of :func:`class_blocks` after the first ``after``, taken in chunks of any
    size (a chunk may span blocks)."""

    def __init__(self, space: Space, after: int) -> None:
        self.blocks = class_blocks(space)
        self.after = after
        self.held: list[Segment] = []

    def take(self, count: int) -> list[Segment]:
        chunk: list[Segment] = []
        while count:
            if not self.held:
                block = next(self.blocks, None)
                if block is None:
                    break
                guardians, minions = block
                if self.after >= len(minions):
                    self.after -= len(minions)
                    continue
                self.held, self.after = [(guardians, minions[self.after :])], 0
            guardians, minions = self.held.pop()
            if len(minions) > count:
                self.held.append((guardians, minions[count:]))
                minions = minions[:count]
            if len(minions):
                chunk.append((guardians, minions))
            count -= len(minions)
        return chunk


def _screen(wave: WaveBatch, space: Space, chunk: list[Segment], rolls: Sequence[Roll], cut: int) -> Bools:
    """Which classes of ``chunk`` every roll lets reach ``cut``: the hardest roll alone first (it
    drops most classes), then the others together for the classes left."""
    contents = np.concatenate([contents_of(space.board.size, g, m) for g, m in chunk])
    reaching = wave.reaches(contents, rolls[:1], cut, space.defeated)
    if len(rolls) > 1 and reaching.any():
        reaching = wave.reaches(contents, rolls[1:], cut, space.defeated, reaching)
    return reaching


__all__ = ["PathTree", "TooLarge", "WaveBatch", "class_blocks", "contents_of", "screened"]

"""Retrograde build of the Mancala endgame tables, level by level (Numba, ``prange``).

Table value of a position (one signed byte)::

    V(x, y) = what the side to move will still add to his store minus what the opponent will,
              from now to the end of the game, both playing perfectly (stores ignored: they
              never affect play, DECISIONS.md).

    x or y empty (game over):  V = sum(x) - sum(y)        the sweep (``kernels.mancala.score``)
    otherwise:                 V = max over moves of  gain + V(child)   if the move keeps the turn
                                                      gain - V(child)   if it hands it over
    gain:   what the move banks for the mover (own store minus the opponent's), read from
            ``play``'s info bits above GAIN_SHIFT; a move that ends the game has already swept
            the pits into the stores, so its gain is the whole rest of the game and its child
            (all pits empty, level 0) is worth 0.

So the exact value of any position is its store difference plus V, and AlphaBeta's exact value
of a position with both stores 0 is V itself.

Order of the build. Stones leave the pits only into the stores, so a child's level is at most its
parent's: the levels are built from 1 up, each with every lower level in memory. A child in the
*same* level comes from a move whose stones all stay in the mover's own pits (no store, no
capture): those stones move toward his store, so the *distance* of the position, the sum over all
stones of the pits still to pass before their owner's store (6 - lane), strictly falls (by
k(k+1)/2 for k stones sown). A level is therefore built in buckets of equal distance, from the
smallest (the level itself: every stone next to its store) to the largest (6 times the level):
every same-level child lies in an earlier bucket, and the positions of one bucket never depend on
each other, so each bucket is one ``prange`` over its positions.

Enumerating a bucket. A position's distance is the sum of its two sides' distances, so a bucket
is a union of rectangles {mover sides of s stones at distance da} x {other sides of n - s stones
at distance D - da}. The half tables list every side of s stones sorted by distance, so each
rectangle is two index ranges. Within a level, same-level moves keep the unordered split
{s, n - s} (see ``tables.index``): the build can be restricted to a range of such groups, which
is what one distributed task computes.

Memory: the level being built and every level below it (a capture can take any number of stones
off the board, so any lower level may be read), one byte per position.

The rules come from ``kernels.mancala`` only (``legal_moves``, ``play``, ``score``): nothing here
re-implements sowing, capturing or the end of the game.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, NamedTuple

import numba
import numpy as np
from numba import prange, types

from kernels import mancala as game
from kernels._jit import kernel, parallel_kernel
from tables.index import (BLOCK, HALF_SIZE, LEVEL_SIZE, PIT_LANES, PITS, level_offsets,
                          rank_half, stones_of, unrank_half)

STATE = game.STATE
_BEST_START = -(1 << 20)  # below any value: the first move always improves on it
_MIN_SLICE = 4096         # positions per prange task: enough to amortise finding its start
_MAX_SLICES = 1024
_SERIAL_LIMIT = 1 << 16   # buckets up to this many positions run in the calling thread


def config_word(capture_empty: bool) -> np.uint64:
    """The rule lane (and pit count) every packed word of a Kalah(6, n) position carries."""
    return game.pack_side([0] * PITS, 0, PITS, capture_empty)


# --- the sides of s stones, sorted by distance ---------------------------------------------------

class HalfTables(NamedTuple):
    """Every distribution of s stones over one side's six pits, for s = 0..max_stones.

    ``words[j]``: the pit lanes of entry j; ``ranks[j]``: its rank6 (``tables.index``).
    Entries are grouped by s, then by distance d = sum of (6 - lane) * stones, then by rank6;
    ``start[s, d]`` .. ``start[s, d + 1]`` are the entries of s stones at distance d
    (shape (max_stones + 1, 6 * max_stones + 2); empty where no side has that distance)."""

    words: np.ndarray
    ranks: np.ndarray
    start: np.ndarray


@kernel(types.int64(types.uint64))
def side_distance(pits):
    """Sum over the side's stones of the holes each must still pass to reach its store: the
    sum of the six prefix sums of the pit lanes (a stone in lane i counts in 6 - i of them)."""
    prefix = pits * np.uint64(0x0000010101010101)
    total = np.int64(0)
    for i in range(PITS):
        total += np.int64((prefix >> np.uint64(8 * i)) & np.uint64(0xFF))
    return total


@kernel(types.Tuple((types.uint64[::1], types.int64[::1], types.int64[:, ::1]))(types.int64))
def _half_tables(max_stones):
    size = np.int64(0)
    for s in range(max_stones + 1):
        size += HALF_SIZE[s]
    words = np.empty(size, np.uint64)
    ranks = np.empty(size, np.int64)
    width = 6 * max_stones + 2
    start = np.empty((max_stones + 1, width), np.int64)
    base = np.int64(0)
    for s in range(max_stones + 1):
        # Step 1. Count the sides of s stones at every distance.
        counts = np.zeros(width, np.int64)
        for r in range(HALF_SIZE[s]):
            counts[side_distance(unrank_half(s, r))] += 1
        start[s, 0] = base
        for d in range(width - 1):
            start[s, d + 1] = start[s, d] + counts[d]
        # Step 2. Place them (a stable counting sort: rank6 order within a distance).
        fill = start[s].copy()
        for r in range(HALF_SIZE[s]):
            pits = unrank_half(s, r)
            d = side_distance(pits)
            words[fill[d]] = pits
            ranks[fill[d]] = r
            fill[d] += 1
        base += HALF_SIZE[s]
    return words, ranks, start


@lru_cache(maxsize=4)
def half_tables(max_stones: int) -> HalfTables:
    return HalfTables(*_half_tables(max_stones))


# --- one position --------------------------------------------------------------------------------

_LOOKUP_SIGNATURE = types.int64(STATE, types.int64, types.int8[::1], types.int64[::1],
                                types.int8[::1], types.int64[::1])


@kernel(_LOOKUP_SIGNATURE)
def child_table_value(child, level, current, block_base, tables, offsets):
    """V of a child that is not game over: from the level being built (``current``, whose
    block of mover's stone count s starts at ``block_base[s]``) when the child kept every stone
    in the pits, else from a lower level of ``tables`` (level l at ``offsets[l]``)."""
    mover = child[0] & PIT_LANES
    other = child[1] & PIT_LANES
    s = stones_of(mover)
    child_level = s + stones_of(other)
    within = rank_half(mover) * HALF_SIZE[child_level - s] + rank_half(other)
    if child_level == level:
        return np.int64(current[block_base[s] + within])
    return np.int64(tables[offsets[child_level] + BLOCK[child_level, s] + within])


@kernel(types.int64(STATE, types.int64, types.int8[::1], types.int64[::1], types.int8[::1],
                    types.int64[::1], types.int64[::1]))
def position_value(state, level, current, block_base, tables, offsets, moves):
    """V of one position (stores 0), every child already known; ``moves``: int64[>= 6] scratch."""
    count = game.legal_moves(state, moves)
    if count == 0:
        return game.score(state)
    best = np.int64(_BEST_START)
    for i in range(count):
        child, info = game.play(state, moves[i])
        value = (info >> game.GAIN_SHIFT) - game.GAIN_BIAS
        if not info & game.GAME_OVER:
            later = child_table_value(child, level, current, block_base, tables, offsets)
            value += later if info & game.EXTRA_TURN else -later
        if value > best:
            best = value
    return best


# --- one bucket ----------------------------------------------------------------------------------

_BUCKET_SIGNATURE = types.int64(
    types.int64, types.int64, types.int64, types.int64, types.uint64,
    types.uint64[::1], types.int64[::1], types.int64[:, ::1],
    types.int8[::1], types.int64[::1], types.int8[::1], types.int64[::1])
A_LO, A_HI, B_LO, B_HI, MOVER_STONES = range(5)


@kernel(types.int64[:, ::1](types.int64, types.int64, types.int64, types.int64,
                            types.int64[:, ::1]))
def bucket_rectangles(level, distance, group_lo, group_hi, start):
    """The rectangles of the bucket: rows ``A_LO, A_HI`` (mover sides), ``B_LO, B_HI`` (other
    sides) as half-table ranges, and the mover's stone count; groups ``group_lo..group_hi-1``."""
    out = np.empty((2 * (group_hi - group_lo) * (6 * level + 1), 5), np.int64)
    n = 0
    for group in range(group_lo, group_hi):
        blocks = 1 if 2 * group == level else 2  # the middle group has one block
        for side in range(blocks):
            mover_stones = group if side == 0 else level - group
            other_stones = level - mover_stones
            low = max(mover_stones, distance - 6 * other_stones)
            high = min(6 * mover_stones, distance - other_stones)
            for da in range(low, high + 1):
                db = distance - da
                a_lo, a_hi = start[mover_stones, da], start[mover_stones, da + 1]
                b_lo, b_hi = start[other_stones, db], start[other_stones, db + 1]
                if a_hi > a_lo and b_hi > b_lo:
                    out[n, A_LO], out[n, A_HI] = a_lo, a_hi
                    out[n, B_LO], out[n, B_HI] = b_lo, b_hi
                    out[n, MOVER_STONES] = mover_stones
                    n += 1
    return out[:n]


@kernel(types.void(types.int64, types.int64, types.int64, types.int64[:, ::1], types.int64[::1],
                   types.uint64, types.uint64[::1], types.int64[::1], types.int8[::1],
                   types.int64[::1], types.int8[::1], types.int64[::1]))
def fill_positions(level, begin, end, rectangles, first, config, words, ranks, current,
                   block_base, tables, offsets):
    """Positions ``begin..end-1`` of a bucket (counted through its rectangles, ``first[r]``:
    the count before rectangle r): each one's two sides, its value, its place in ``current``."""
    r = np.searchsorted(first, begin, side="right") - 1
    moves = np.empty(PITS, np.int64)
    for p in range(begin, end):
        while p >= first[r + 1]:
            r += 1
        width = rectangles[r, B_HI] - rectangles[r, B_LO]
        a = rectangles[r, A_LO] + (p - first[r]) // width
        b = rectangles[r, B_LO] + (p - first[r]) % width
        mover_stones = rectangles[r, MOVER_STONES]
        state = (words[a] | config, words[b] | config)
        value = position_value(state, level, current, block_base, tables, offsets, moves)
        current[block_base[mover_stones] + ranks[a] * HALF_SIZE[level - mover_stones]
                + ranks[b]] = np.int8(value)


@parallel_kernel(_BUCKET_SIGNATURE)
def build_bucket(level, distance, group_lo, group_hi, config, words, ranks, start,
                 current, block_base, tables, offsets):
    """Fill ``current`` for every position of ``level`` at ``distance`` in the groups
    ``group_lo..group_hi-1``; return how many positions that was.

    ``current``: the level being built, its block of mover's stone count s at ``block_base[s]``
    (only the groups' blocks need to exist). ``tables``/``offsets``: every lower level.
    ``config``: the rule lane of every packed word (``config_word``)."""
    # Step 1. The bucket as rectangles of half-table ranges, and where each starts in the
    # bucket's position count.
    rectangles = bucket_rectangles(level, distance, group_lo, group_hi, start)
    count = rectangles.shape[0]
    first = np.zeros(count + 1, np.int64)
    for r in range(count):
        first[r + 1] = first[r] + ((rectangles[r, A_HI] - rectangles[r, A_LO])
                                   * (rectangles[r, B_HI] - rectangles[r, B_LO]))
    total = first[count]

    # Step 2. A small bucket in this thread: waking the pool costs more than it saves, and
    # far more when other processes share the cores.
    if total <= _SERIAL_LIMIT:
        fill_positions(level, 0, total, rectangles, first, config, words, ranks, current,
                       block_base, tables, offsets)
        return total

    # Step 3. Equal slices of the bucket's positions, one prange task each.
    slices = min(_MAX_SLICES, (total + _MIN_SLICE - 1) // _MIN_SLICE)
    for j in prange(slices):
        fill_positions(level, total * j // slices, total * (j + 1) // slices, rectangles, first,
                       config, words, ranks, current, block_base, tables, offsets)
    return total


# --- a level -------------------------------------------------------------------------------------

Progress = Callable[[int, int], None]  # (positions done in this level, positions in the level)


def group_count(level: int) -> int:
    """Independent groups of a level: the splits {s, level - s} for s = 0..level // 2."""
    return level // 2 + 1


def group_blocks(level: int, group: int) -> list[int]:
    """The mover's stone counts whose blocks make up ``group`` (one block in the middle)."""
    return [group] if 2 * group == level else [group, level - group]


def group_size(level: int, group: int) -> int:
    return sum(int(HALF_SIZE[s] * HALF_SIZE[level - s]) for s in group_blocks(level, group))


def build_level(level: int, capture_empty: bool, tables: np.ndarray, offsets: np.ndarray,
                current: np.ndarray, block_base: np.ndarray, groups: tuple[int, int] | None = None,
                progress: Progress | None = None) -> int:
    """Compute ``level`` (all groups, or ``groups = (lo, hi)``) into ``current``, one distance
    bucket after another; lower levels are read from ``tables``/``offsets``. Returns positions
    computed. ``progress(done, total)`` is called after every bucket."""
    lo, hi = groups if groups is not None else (0, group_count(level))
    _check_arrays(level, range(lo, hi), tables, offsets, current, block_base)
    halves = half_tables(level)
    config = config_word(capture_empty)
    total = sum(group_size(level, g) for g in range(lo, hi))
    done = 0
    # Hand the slices of a bucket out one at a time, not in one equal share per thread: a
    # thread that the OS deschedules (shared cores) then delays its share, not the bucket.
    previous_chunk = numba.set_parallel_chunksize(1)
    try:
        for distance in range(level, 6 * level + 1):
            done += build_bucket(level, distance, lo, hi, config, halves.words, halves.ranks,
                                 halves.start, current, block_base, tables, offsets)
            if progress is not None:
                progress(done, total)
    finally:
        numba.set_parallel_chunksize(previous_chunk)
    if done != total:
        raise RuntimeError(f"level {level}: {done} positions computed, {total} expected")
    return done


def _check_arrays(level, groups, tables, offsets, current, block_base) -> None:
    """The kernels index without bounds checks: make sure every place they touch exists."""
    if len(offsets) < level + 1 or offsets[level] > tables.size or any(
            offsets[lv + 1] - offsets[lv] != LEVEL_SIZE[lv] for lv in range(level)):
        raise ValueError(f"tables/offsets do not hold every level below {level}")
    if len(block_base) < level + 1:
        raise ValueError(f"block_base needs {level + 1} entries")
    for group in groups:
        for s in group_blocks(level, group):
            size = HALF_SIZE[s] * HALF_SIZE[level - s]
            if not 0 <= block_base[s] <= current.size - size:
                raise ValueError(f"block {s} of level {level} does not fit in current")


def full_block_base(level: int) -> np.ndarray:
    """Where each block of ``level`` starts when the whole level is one array."""
    return BLOCK[level, :level + 1].copy()


def build_in_memory(max_level: int, capture_empty: bool = True, progress=None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Every level 0..max_level, end to end in one int8 array, and its ``level_offsets``.
    ``progress(level, done, total)`` after every bucket. No files: for tests and benches."""
    offsets = level_offsets(max_level)
    tables = np.zeros(offsets[-1], np.int8)  # level 0 (all pits empty) is worth 0
    for level in range(1, max_level + 1):
        current = tables[offsets[level]:offsets[level + 1]]
        report = None if progress is None else (lambda d, t, lv=level: progress(lv, d, t))
        build_level(level, capture_empty, tables, offsets, current, full_block_base(level),
                    progress=report)
    return tables, offsets


def get_threads() -> int:
    return numba.get_num_threads()


def set_threads(workers: int | None) -> None:
    """Use ``workers`` Numba threads (None: all cores)."""
    limit = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(limit if workers is None else min(int(workers), limit))

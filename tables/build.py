"""Retrograde build of the Mancala endgame tables, one distance bucket at a time (Numba).

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
parent's: the levels are built from 1 up, each reading every lower level. A child in the *same*
level comes from a move whose stones all stay in the mover's own pits (no store, no capture):
those stones move toward his store, so the *distance* of the position, the sum over all stones
of the holes still to pass before their owner's store (m - lane), strictly falls. A level is
therefore built in buckets of equal distance, from the smallest (the level itself: every stone
next to its store) to the largest (m times the level): every same-level child lies in an earlier
bucket, and the positions of one bucket never depend on each other. A bucket's positions are
numbered 0..count-1 (its *bucket order*); any range of them can be computed apart (a piece of
the level: one prange here, one task on a cluster), into an array in bucket order, and then
*scattered* to their places in the level.

Enumerating a bucket. A position's distance is the sum of its two sides' distances, so a bucket
is a union of rectangles {mover sides of s stones at distance da} x {other sides of n - s stones
at distance D - da}. The half tables list every side of s stones sorted by distance, so each
rectangle is two index ranges; bucket order runs through the rectangles, each row by row.

Where values are read (``data``, ``offsets``, the layout of ``tables.probe``): every lower level
and the level being built, each anywhere in one int8 array (memory-mapped files in a build).

Where the rules come from. The retrograde step of one position, ``position_value``, takes them
from ``kernels.mancala`` only (``legal_moves``, ``play``, ``score``); ``verify`` and the tests use
it. The build's kernel, ``compute_range``, works a tile of positions at a time and so derives
what the common moves do (sowing along the mover's own side, the store, a capture, a few stones
sown past the store) from the pit counts itself, in ``x_words`` and ``y_words``; moves that sow
round the board still go through ``play``. The tests hold it to ``position_value`` on every
position of small levels of every board, both rules (``compute_range_by_position``), and
``benches/recompute_tables.py`` to stored tables up to 30 stones.
"""
from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from numba import prange, types

from kernels import mancala as game
from kernels._intrinsics import prefetch_item
from kernels._jit import kernel, parallel_kernel
from tables.index import BLOCK, HALF_SIZE, LEVEL_SIZE, PIT_LANES, level_offsets
from tables.rank import level_index, rank_half, stones_of, unrank_half

STATE = game.STATE
_BEST_START = -(1 << 20)  # below any value: the first move always improves on it
_MIN_SLICE = 4096         # positions per prange task: enough to amortise finding its start
_MAX_SLICES = 1024
_SERIAL_LIMIT = 1 << 16   # ranges up to this many positions run in the calling thread


def config_word(capture_empty: bool, pits: int = 6) -> np.uint64:
    """The rule lane (and pit count) every packed word of a Kalah(pits, n) position carries."""
    return game.pack_side([0] * pits, 0, pits, capture_empty)


def distances(pits: int, level: int) -> range:
    """The buckets of a level, in build order."""
    return range(level, pits * level + 1)


# --- the sides of s stones, sorted by distance ---------------------------------------------------

class HalfTables(NamedTuple):
    """Every distribution of s stones over one side's m pits, for s = 0..max_stones.

    ``words[j]``: the pit lanes of entry j; ``ranks[j]``: its rank (``tables.index``).
    Entries are grouped by s, then by distance d = sum of (m - lane) * stones, then by rank;
    ``start[s, d]`` .. ``start[s, d + 1]`` are the entries of s stones at distance d
    (shape (max_stones + 1, m * max_stones + 2); empty where no side has that distance)."""

    words: np.ndarray
    ranks: np.ndarray
    start: np.ndarray


@kernel()
def side_distance(pits, m):
    """Sum over the side's stones of the holes each must still pass to reach its store: the
    sum of the m prefix sums of the pit lanes (a stone in lane i counts in m - i of them)."""
    prefix = pits * np.uint64(0x0000010101010101)
    total = np.int64(0)
    for i in range(m):
        total += np.int64((prefix >> np.uint64(8 * i)) & np.uint64(0xFF))
    return total


@kernel(types.Tuple((types.uint64[::1], types.int64[::1], types.int64[:, ::1]))(types.int64,
                                                                                types.int64))
def _half_tables(m, max_stones):
    size = np.int64(0)
    for s in range(max_stones + 1):
        size += HALF_SIZE[m, s]
    words = np.empty(size, np.uint64)
    ranks = np.empty(size, np.int64)
    width = m * max_stones + 2
    start = np.empty((max_stones + 1, width), np.int64)
    base = np.int64(0)
    for s in range(max_stones + 1):
        # Step 1. Count the sides of s stones at every distance.
        counts = np.zeros(width, np.int64)
        for r in range(HALF_SIZE[m, s]):
            counts[side_distance(unrank_half(m, s, r), m)] += 1
        start[s, 0] = base
        for d in range(width - 1):
            start[s, d + 1] = start[s, d] + counts[d]
        # Step 2. Place them (a stable counting sort: rank order within a distance).
        fill = start[s].copy()
        for r in range(HALF_SIZE[m, s]):
            pits = unrank_half(m, s, r)
            d = side_distance(pits, m)
            words[fill[d]] = pits
            ranks[fill[d]] = r
            fill[d] += 1
        base += HALF_SIZE[m, s]
    return words, ranks, start


_largest_half_tables: dict[int, tuple[int, HalfTables]] = {}


def half_tables(pits: int, max_stones: int) -> HalfTables:
    """The sides of up to ``max_stones`` stones, or of more: the tables of a larger count list
    the same sides at the same places for every s <= max_stones (groups by s come in order, so a
    smaller table is a prefix of a larger one), so the largest computed so far serves every
    smaller count. A build asks for its top level first and computes them once."""
    largest = _largest_half_tables.get(pits)
    if largest is None or largest[0] < max_stones:
        largest = (max_stones, HalfTables(*_half_tables(pits, max_stones)))
        _largest_half_tables[pits] = largest
    return largest[1]


# --- one position --------------------------------------------------------------------------------

@kernel()
def table_value(state, data, offsets):
    """V of a position that is not game over, read from ``data``/``offsets`` (unchecked: the
    caller holds its level)."""
    m = offsets[0]
    mover = state[0] & PIT_LANES[m]
    other = state[1] & PIT_LANES[m]
    level = stones_of(mover) + stones_of(other)
    return np.int64(data[offsets[level + 1] + level_index(m, level, mover, other)])


@kernel(types.int64(STATE, types.int8[::1], types.int64[::1], types.int64[::1]))
def position_value(state, data, offsets, moves):
    """V of one position (stores 0), every child already known; ``moves``: int64[>= 6] scratch.
    The retrograde step itself: ``verify`` calls it too."""
    count = game.legal_moves(state, moves)
    if count == 0:
        return game.score(state)
    best = np.int64(_BEST_START)
    for i in range(count):
        child, info = game.play(state, moves[i])
        value = (info >> game.GAIN_SHIFT) - game.GAIN_BIAS
        if not info & game.GAME_OVER:
            later = table_value(child, data, offsets)
            value += later if info & game.EXTRA_TURN else -later
        if value > best:
            best = value
    return best


# --- one bucket ----------------------------------------------------------------------------------

A_LO, A_HI, B_LO, B_HI, MOVER_STONES = range(5)


@kernel(types.int64[:, ::1](types.int64, types.int64, types.int64, types.int64[:, ::1]))
def bucket_rectangles(m, level, distance, start):
    """The rectangles of a bucket in bucket order: rows ``A_LO, A_HI`` (mover sides), ``B_LO,
    B_HI`` (other sides) as half-table ranges, and the mover's stone count."""
    out = np.empty(((level + 1) * (m * level + 1), 5), np.int64)
    n = 0
    for mover_stones in range(level + 1):
        other_stones = level - mover_stones
        low = max(mover_stones, distance - m * other_stones)
        high = min(m * mover_stones, distance - other_stones)
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


class Bucket(NamedTuple):
    """One distance bucket of a level: its rectangles and where each starts in bucket order
    (``first[r]``; ``first[-1]`` = the bucket's positions)."""

    pits: int
    level: int
    distance: int
    rectangles: np.ndarray
    first: np.ndarray

    @property
    def size(self) -> int:
        return int(self.first[-1])


def bucket(pits: int, level: int, distance: int) -> Bucket:
    halves = half_tables(pits, level)
    rectangles = bucket_rectangles(pits, level, distance, halves.start)
    widths = ((rectangles[:, A_HI] - rectangles[:, A_LO])
              * (rectangles[:, B_HI] - rectangles[:, B_LO]))
    first = np.concatenate([[0], np.cumsum(widths)]).astype(np.int64)
    return Bucket(pits, level, distance, rectangles, first)


_RANGE_ARGS = (types.int64, types.int64, types.int64, types.int64, types.int64[:, ::1],
               types.int64[::1], types.uint64[::1], types.int64[::1])


@kernel()
def compute_range_by_position(m, level, begin, end, rectangles, first, words, ranks, config,
                              data, offsets, out):
    """``compute_range`` one position at a time through ``position_value`` (``play`` and a
    probe for every child): the plain retrograde step the tests hold the fast kernel to."""
    r = np.searchsorted(first, begin, side="right") - 1
    moves = np.empty(6, np.int64)
    for p in range(begin, end):
        while p >= first[r + 1]:
            r += 1
        width = rectangles[r, B_HI] - rectangles[r, B_LO]
        a = rectangles[r, A_LO] + (p - first[r]) // width
        b = rectangles[r, B_LO] + (p - first[r]) % width
        state = (words[a] | config, words[b] | config)
        out[p - begin] = np.int8(position_value(state, data, offsets, moves))


@kernel(types.void(*_RANGE_ARGS, types.int8[::1], types.int8[::1]))
def scatter_range(m, level, begin, end, rectangles, first, words, ranks, values, current):
    """Put ``values`` (positions ``begin..end-1`` of a bucket, bucket order) at their places in
    ``current`` (the level, index order)."""
    r = np.searchsorted(first, begin, side="right") - 1
    for p in range(begin, end):
        while p >= first[r + 1]:
            r += 1
        width = rectangles[r, B_HI] - rectangles[r, B_LO]
        a = rectangles[r, A_LO] + (p - first[r]) // width
        b = rectangles[r, B_LO] + (p - first[r]) % width
        s = rectangles[r, MOVER_STONES]
        current[BLOCK[m, level, s] + ranks[a] * HALF_SIZE[m, level - s] + ranks[b]] = \
            values[p - begin]


# --- the fast kernel: tiles of a rectangle ------------------------------------------------------
#
# In a rectangle the mover's side x runs down the rows and the other side y along the columns,
# and every position has the same stone split (sx, sy). A move's child index is then a sum of a
# part that depends on x only and a part that depends on y only, once the move's *slot* is known
# from x (sowing k stones from pit p of m):
#   STAY    k < m - p, last stone on an own pit that held stones: child (y, x'), same level
#   LAND l  k < m - p, last stone on the own empty pit l: captures the facing pit of y (or, that
#           pit empty and no capture_empty rule, a STAY)
#   STORE   k = m - p: last stone in the store, the mover moves again: child (x', y)
#   PAST j  m - p < k <= 2m - p: one stone banked, j = k - (m - p) sown into y's pits 0..j-1
#   OTHER   more stones (the sowing comes round again): ``play`` and a probe, as the reference
# A tile of TILE rows by TILE columns is worked out in two passes: each row once (``x_words``:
# per move, its slot and the x parts of its child's index) and each column once (``y_words``:
# per slot, the y part of the child's index, what the move banks, and how the child's value
# counts), then a position is one read of the table per move and a few adds.
#
#   x word:  slot (4 bits) | capture part << 4 (22 bits: rank(x'') of x' less its landing
#            stone) | part << 26 (rank(x'), times the width of a row of the child for STORE;
#            both fit for every level up to MAX_LEVEL: H(6, 48) < 2^22, H * H < 2^37)
#   y word:  sign + 1 (2 bits) | captures << 2 | (gain + GAIN_ZERO) << 3 (11 bits) | base << 14
#            the move is worth gain + sign * V(child), the child read at base + part (base +
#            capture part if it captures); sign 0: the move ends the game, +1: the mover moves
#            again, -1: the turn passes. No branch on them in the loop over positions: which
#            kind comes next is as good as random there, and a mispredicted branch costs more
#            than the arithmetic.

TILE = 64
AHEAD = 1            # columns: the reads of column j + AHEAD start while column j is computed
EMPTY, STAY, STORE = 0, 1, 2
PAST0 = 2            # PAST j is slot PAST0 + j, j = 1..6
LAND0 = 9            # LAND l is slot LAND0 + l, l = 0..5
OTHER = 15
SLOTS = 16
COUNTS_NOT, COUNTS_PLUS, COUNTS_MINUS, COUNTS_CAPTURE = 1, 2, 0, 4
GAIN_ZERO = 1024
_NO_MOVE = -1000     # the gain of no move: below every value
_NONE = -128         # below every value (|V| <= 48), and an int8
_CAPTURE_BITS = 22
_CAPTURE_MASK = np.int64((1 << _CAPTURE_BITS) - 1)


@kernel()
def pack_y_word(how, gain, base):
    """A y word (see above) from its sign and capture bits, the gain and the base."""
    return how | ((gain + GAIN_ZERO) << 3) | (base << 14)


@kernel(inline="always")
def move_value(y_word, child_value):
    """What a move is worth: its gain + sign * V(child), both read from its y word."""
    return ((y_word >> 3) & 2047) - GAIN_ZERO + ((y_word & 3) - 1) * child_value


@kernel()
def x_words(m, x, store_width, words):
    """Row side x: the x word of each of its moves into ``words`` (see above; an OTHER move
    carries its pit lane as its part), returns how many; ``store_width``: a STORE child's row
    width."""
    n = 0
    for p in range(m):
        shift = np.uint64(8 * p)
        k = np.int64((x >> shift) & np.uint64(0xFF))
        if k == 0:
            continue
        n += 1
        if k > 2 * m - p:
            words[n - 1] = OTHER | (p << 26)
            continue
        own = min(k, m - 1 - p)         # stones sown into the pits after p
        after = x - (np.uint64(k) << shift) + (game.PIT_ONES[own] << np.uint64(8 * (p + 1)))
        part = rank_half(after, m)
        if k < m - p:
            landing = p + k
            if (x >> np.uint64(8 * landing)) & np.uint64(0xFF) == 0:
                without = rank_half(after - (np.uint64(1) << np.uint64(8 * landing)), m)
                words[n - 1] = (LAND0 + landing) | (without << 4) | (part << 26)
            else:
                words[n - 1] = STAY | (part << 26)
        elif k == m - p:
            words[n - 1] = STORE | (part * store_width << 26)
        else:
            words[n - 1] = (PAST0 + k - (m - p)) | (part << 26)
    return n


@kernel()
def child_at(x_word, y_word):
    """Where in ``data`` the child of a move (its x word, the y word of its slot) lies."""
    part = x_word >> 26
    captures = -((y_word >> 2) & 1)
    part ^= (part ^ ((x_word >> 4) & _CAPTURE_MASK)) & captures
    return np.uint64((y_word >> 14) + part)


@kernel()
def y_words(m, level, sx, y, rank_y, capture_empty, offsets, words):
    """Column side y (``sx`` stones on the mover's side, the rest of ``level`` on y's): the y
    word of every slot (see above)."""
    sy = level - sx
    same_row = offsets[level + 1] + BLOCK[m, level, sy] + rank_y * HALF_SIZE[m, sx]
    words[EMPTY] = pack_y_word(COUNTS_NOT, _NO_MOVE, 0)
    words[OTHER] = pack_y_word(COUNTS_NOT, _NO_MOVE, 0)     # done apart: ``other_move``
    words[STAY] = pack_y_word(COUNTS_MINUS, 0, same_row)
    if sx == 1:   # the last stone banked: the other side sweeps his
        words[STORE] = pack_y_word(COUNTS_NOT, 1 - sy, 0)
    else:
        words[STORE] = pack_y_word(COUNTS_PLUS, 1,
                                   offsets[level] + BLOCK[m, level - 1, sx - 1] + rank_y)
    for j in range(1, m + 1):
        left_x = sx - 1 - j
        if left_x <= 0:    # (< 0: no side of sx stones has this move)
            words[PAST0 + j] = pack_y_word(COUNTS_NOT, 1 - sy - j, 0)
        else:
            grown = y + game.PIT_ONES[j]
            words[PAST0 + j] = pack_y_word(COUNTS_MINUS, 1, offsets[level]
                                           + BLOCK[m, level - 1, sy + j]
                                           + rank_half(grown, m) * HALF_SIZE[m, left_x])
    for landing in range(m):
        facing_shift = np.uint64(8 * (m - 1 - landing))
        facing = np.int64((y >> facing_shift) & np.uint64(0xFF))
        left_x = sx - 1
        left_y = sy - facing
        if facing == 0 and not capture_empty:
            words[LAND0 + landing] = words[STAY]
        elif left_x == 0 or left_y == 0:
            words[LAND0 + landing] = pack_y_word(COUNTS_NOT, facing + 1 + left_x - left_y,
                                                 0)
        else:
            to = level - facing - 1
            taken = y - (np.uint64(facing) << facing_shift)
            words[LAND0 + landing] = pack_y_word(COUNTS_MINUS | COUNTS_CAPTURE, facing + 1,
                                                 offsets[to + 1] + BLOCK[m, to, left_y]
                                                 + rank_half(taken, m) * HALF_SIZE[m, left_x])


@kernel()
def other_move(x, y, lane, data, offsets):
    """gain +- V(child) of a move whose sowing comes round again (``play`` and a probe)."""
    child, info = game.play((x, y), lane)
    value = (info >> game.GAIN_SHIFT) - game.GAIN_BIAS
    if not info & game.GAME_OVER:
        later = table_value(child, data, offsets)
        value += later if info & game.EXTRA_TURN else -later
    return value


@kernel(inline="always")
def tile_rows(m, level, sx, first_row, rows, words, ranks, xw, moves, place_row):
    """Rows ``first_row`` .. ``first_row + rows - 1`` of a rectangle (mover's sides of ``sx``
    stones): row i's ``moves[i]`` x words into ``xw[8 i:8 i + 8]``, its place in the level
    (``place_row[i]``, plus the column's rank). Returns how many of the moves sow round the
    board (OTHER)."""
    others = 0
    sy = level - sx
    for i in range(rows):
        a = first_row + i
        moves[i] = x_words(m, words[a], HALF_SIZE[m, sy], xw[8 * i:8 * i + 8])
        place_row[i] = BLOCK[m, level, sx] + ranks[a] * HALF_SIZE[m, sy]
        for k in range(moves[i]):
            others += (xw[8 * i + k] & 15) == OTHER
    return others


@kernel(inline="always")
def tile_columns(m, level, sx, first_column, cols, words, ranks, capture_empty, offsets, yw):
    """Columns ``first_column`` .. ``first_column + cols - 1`` of a rectangle: column j's y words
    into ``yw[SLOTS j:SLOTS (j + 1)]``."""
    for j in range(cols):
        b = first_column + j
        y_words(m, level, sx, words[b], ranks[b], capture_empty, offsets,
                yw[SLOTS * j:SLOTS * j + SLOTS])


@kernel(inline="always")
def other_moves(xw, i, count, x, y, data, offsets):
    """The best of row i's OTHER moves (``other_move``) at the position (x, y); _NONE if none."""
    best = np.int64(_NONE)
    for k in range(count):
        if (xw[8 * i + k] & 15) == OTHER:
            best = max(best, other_move(x, y, xw[8 * i + k] >> 26, data, offsets))
    return best


@kernel()
def compute_range(m, level, begin, end, rectangles, first, words, ranks, config, data, offsets,
                  out, current):
    """Values of positions ``begin..end-1`` of a bucket (bucket order) into ``out[0:end-begin]``:
    ``position_value`` of each, a tile at a time (see the slots above). Unless ``current`` is
    empty, each value also goes to its place in it (the level, index order): what
    ``scatter_range`` does, here while the value is at hand."""
    capture_empty = (config & game.CAPTURE_EMPTY_BIT) != 0
    places = current.size > 0
    place_row = np.zeros(TILE, np.int64)
    xw = np.zeros(TILE * 8, np.int64)
    moves = np.zeros(TILE, np.int64)
    yw = np.zeros(TILE * SLOTS, np.int64)
    r = np.searchsorted(first, begin, side="right") - 1
    p = begin
    while p < end:
        while p >= first[r + 1]:
            r += 1
        # The positions p..stop-1 of rectangle r: rows row0..row1, columns 0..width-1 (the first
        # row from col0, the last up to col1).
        stop = min(end, first[r + 1])
        width = rectangles[r, B_HI] - rectangles[r, B_LO]
        row0, col0 = divmod(p - first[r], width)
        row1, col1 = divmod(stop - 1 - first[r], width)
        sx = rectangles[r, MOVER_STONES]
        sy = level - sx
        a_lo = rectangles[r, A_LO]
        b_lo = rectangles[r, B_LO]
        if sx == 0 or sy == 0:        # a side without stones: the game is over, V = the sweep
            out[p - begin:stop - begin] = sx - sy
            if places:
                scatter_range(m, level, p, stop, rectangles, first, words, ranks,
                              out[p - begin:stop - begin], current)
            p = stop
            continue
        for tile_row in range(row0, row1 + 1, TILE):
            rows = min(TILE, row1 + 1 - tile_row)
            others = tile_rows(m, level, sx, a_lo + tile_row, rows, words, ranks, xw, moves,
                               place_row)
            # A tile of one row spans only its columns; a taller one skips the cut ends of its
            # first and last rows position by position.
            low, high = 0, width
            if rows == 1:
                low = col0 if tile_row == row0 else 0
                high = col1 + 1 if tile_row == row1 else width
            for tile_col in range(low, high, TILE):
                cols = min(TILE, width - tile_col)
                tile_columns(m, level, sx, b_lo + tile_col, cols, words, ranks, capture_empty,
                             offsets, yw)
                for j in range(cols):
                    column = tile_col + j
                    if j + AHEAD < cols:    # start the reads of a later column (memory-bound)
                        for i in range(rows):
                            for k in range(moves[i]):
                                x_word = xw[8 * i + k]
                                y_word = yw[SLOTS * (j + AHEAD) + (x_word & 15)]
                                prefetch_item(data, child_at(x_word, y_word))
                    for i in range(rows):
                        row = tile_row + i
                        if (row == row0 and column < col0) or (row == row1 and column > col1):
                            continue
                        best = np.int64(_NONE)
                        for k in range(moves[i]):
                            x_word = xw[8 * i + k]
                            y_word = yw[SLOTS * j + (x_word & 15)]
                            best = max(best, move_value(
                                y_word, np.int64(data[child_at(x_word, y_word)])))
                        out[first[r] + row * width + column - begin] = np.int8(best)
                        if places:
                            current[place_row[i] + ranks[b_lo + column]] = np.int8(best)
                if others:   # moves that sow round again, apart: a call in the loop above slows it
                    for i in range(rows):
                        row = tile_row + i
                        for j in range(cols):
                            column = tile_col + j
                            if (row == row0 and column < col0) or (row == row1 and column > col1):
                                continue
                            at = first[r] + row * width + column - begin
                            best = max(np.int64(out[at]),
                                       other_moves(xw, i, moves[i], words[a_lo + row] | config,
                                                   words[b_lo + column] | config, data, offsets))
                            out[at] = np.int8(best)
                            if places:
                                current[place_row[i] + ranks[b_lo + column]] = np.int8(best)
        p = stop


@parallel_kernel(types.void(*_RANGE_ARGS, types.uint64, types.int8[::1], types.int64[::1],
                            types.int8[::1], types.int8[::1], types.int64))
def compute_range_parallel(m, level, begin, end, rectangles, first, words, ranks, config, data,
                           offsets, out, current, serial_limit):
    """``compute_range`` as equal slices on every thread (ranges up to ``serial_limit``
    positions in this thread)."""
    total = end - begin
    if total <= serial_limit:
        compute_range(m, level, begin, end, rectangles, first, words, ranks, config, data,
                      offsets, out, current)
        return
    slices = min(_MAX_SLICES, (total + _MIN_SLICE - 1) // _MIN_SLICE)
    for j in prange(slices):
        lo = begin + total * j // slices
        hi = begin + total * (j + 1) // slices
        compute_range(m, level, lo, hi, rectangles, first, words, ranks, config, data, offsets,
                      out[lo - begin:hi - begin], current)


def compute(part: Bucket, begin: int, end: int, capture_empty: bool, data: np.ndarray,
            offsets: np.ndarray, serial_limit: int = _SERIAL_LIMIT,
            current: np.ndarray | None = None) -> np.ndarray:
    """int8[end - begin]: the values of positions begin..end-1 of the bucket (all threads;
    ranges up to ``serial_limit`` positions in this thread: waking the pool costs more than it
    saves, and far more when other processes share the cores). With ``current`` (the level),
    they are also placed there, as ``scatter`` would."""
    check_layout(part.pits, part.level, data, offsets)
    if not 0 <= begin <= end <= part.size:
        raise ValueError(f"positions {begin}..{end} are not in a bucket of {part.size}")
    if current is None:
        current = np.empty(0, np.int8)
    elif current.size != LEVEL_SIZE[part.pits, part.level]:
        raise ValueError("the level does not fit the bucket")
    halves = half_tables(part.pits, part.level)
    out = np.empty(end - begin, np.int8)
    previous_chunk = numba.set_parallel_chunksize(1)  # slices handed out one at a time
    try:
        compute_range_parallel(part.pits, part.level, begin, end, part.rectangles, part.first,
                               halves.words, halves.ranks, config_word(capture_empty, part.pits),
                               data, offsets, out, current, serial_limit)
    finally:
        numba.set_parallel_chunksize(previous_chunk)
    return out


def check_layout(pits: int, level: int, data: np.ndarray, offsets: np.ndarray) -> None:
    """The kernels index without bounds checks: make sure every level up to ``level`` they may
    read lies inside ``data``."""
    if len(offsets) < level + 2 or offsets[0] != pits or offsets[1] < level or any(
            not 0 <= offsets[lv + 1] <= data.size - LEVEL_SIZE[pits, lv]
            for lv in range(1, level + 1)):
        raise ValueError(f"data/offsets do not hold every level up to {level} of {pits} pits")


def scatter(part: Bucket, begin: int, values: np.ndarray, current: np.ndarray) -> None:
    if current.size != LEVEL_SIZE[part.pits, part.level] or not \
            0 <= begin <= begin + len(values) <= part.size:
        raise ValueError("the values or the level do not fit the bucket")
    halves = half_tables(part.pits, part.level)
    scatter_range(part.pits, part.level, begin, begin + len(values), part.rectangles, part.first,
                  halves.words, halves.ranks, values, current)


# --- the whole table in memory (tests and benches) -----------------------------------------------

class InMemoryTables(NamedTuple):
    """Levels 0..max_level end to end: ``data`` and ``offsets`` in the probe layout; ``level(l)``
    is one level's values in index order."""

    pits: int
    max_level: int
    data: np.ndarray
    offsets: np.ndarray
    starts: np.ndarray   # starts[l]: where level l begins in data

    def level(self, level: int) -> np.ndarray:
        return self.data[self.starts[level]:self.starts[level] + LEVEL_SIZE[self.pits, level]]


def probe_offsets(pits: int, starts) -> np.ndarray:
    """The probe layout (``tables.probe``) of levels 1..L starting at ``starts[1..L]``."""
    top = len(starts) - 1
    return np.array([pits, top] + [int(s) for s in starts[1:]], np.int64)


def build_in_memory(max_level: int, capture_empty: bool = True, pits: int = 6,
                    progress=None) -> InMemoryTables:
    """Every level 0..max_level in one int8 array, bucket after bucket. ``progress(level, done,
    total)`` after every bucket. No files: for tests and benches."""
    starts = level_offsets(max_level, pits)
    half_tables(pits, max_level)          # once, for every level (see half_tables)
    data = np.zeros(starts[-1], np.int8)  # level 0 (all pits empty) is worth 0
    for level in range(1, max_level + 1):
        offsets = probe_offsets(pits, starts[:level + 1])
        current = data[starts[level]:starts[level + 1]]
        done = 0
        for distance in distances(pits, level):
            part = bucket(pits, level, distance)
            compute(part, 0, part.size, capture_empty, data, offsets, current=current)
            done += part.size
            if progress is not None:
                progress(level, done, int(LEVEL_SIZE[pits, level]))
        if done != LEVEL_SIZE[pits, level]:
            raise RuntimeError(f"level {level}: {done} positions computed")
    return InMemoryTables(pits, max_level, data, probe_offsets(pits, starts[:max_level + 1]),
                          starts)


def get_threads() -> int:
    return numba.get_num_threads()


def set_threads(workers: int | None) -> None:
    """Use ``workers`` Numba threads (None: all cores)."""
    limit = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(limit if workers is None else min(int(workers), limit))

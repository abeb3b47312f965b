"""Combinatorial index of Mancala endgame positions: rank and unrank of stone distributions.

A table position is the stones in the 12 pits of Kalah(6, n), seen from the side to move: the
mover's six pits ``x`` and the other side's six pits ``y``, each in its own sowing order (the
packed state's pit lanes 0..5, ``kernels.mancala``). Stores are not part of it. Level ``n``
holds every distribution of ``n`` stones over the 12 pits: C(n + 11, 11) positions.

Index scheme ``split6-colex-v1`` (written into every table header)::

    level n, mover's pits x = (x0..x5) holding s stones, other's pits y holding n - s:

    index(x, y) = BLOCK[n, s] + rank6(x) * H(n - s) + rank6(y)

    H(t)        = C(t + 5, 5)                    distributions of t stones over 6 pits
    BLOCK[n, s] = sum over t < s of H(t) H(n-t)  blocks by the mover's stone count s = 0..n
    rank6(x)    = sum over i = 0..4 of C(q_i, i + 1),   q_i = x0 + ... + xi + i

    level n:  | block s=0 | block s=1 |   ...   | block s=n |
    block s:  | row rank6(x)=0: H(n-s) entries, by rank6(y) | row 1 | ... | row H(s)-1 |

``rank6`` is the combinatorial number system on the five "bars" q_0 < ... < q_4 that cut s
stones into six pits (stars and bars): a bijection onto 0..H(s)-1, in colex order of the bars.

Why blocks by the mover's stone count: a move that keeps every stone in the pits only moves the
mover's stones along his own side, then hands the turn over, so the child is (y, x') with
``sum(x') = sum(x)``. The unordered split {s, n - s} never changes inside a level: the blocks s
and n - s form an independent *group* (DESIGN.md, Endgame tables), two contiguous byte ranges of
the level file, which is what a distributed build computes as one task.

Every rank is a handful of table lookups; the sums of 8-bit lanes use the packed state's SWAR
layout (a multiply by 0x0101... gives prefix sums in every lane).
"""
from __future__ import annotations

from math import comb

import numpy as np
from numba import types

from kernels._jit import kernel

INDEX_SCHEME = "split6-colex-v1"
PITS = 6                        # the tables are for Kalah(6, n) only
MAX_LEVEL = 48                  # Kalah(6,4) holds 48 stones; level 48 has 1.3e12 entries
_LANES = 256                    # every value an 8-bit lane can hold, so no lookup runs out

# H(t) for every t a lane sum can reach below MAX_LEVEL.
HALF_SIZE = np.array([comb(t + 5, 5) for t in range(MAX_LEVEL + 1)], np.int64)
LEVEL_SIZE = np.array([comb(n + 11, 11) for n in range(MAX_LEVEL + 1)], np.int64)
# BAR_RANK[i, p] = C(p + i, i + 1): the rank6 term of bar i when the prefix sum x0..xi is p.
BAR_RANK = np.array([[comb(p + i, i + 1) for p in range(_LANES)] for i in range(5)], np.int64)
# BLOCK[n, s]: where the block of mover's stone count s starts in level n (s = n + 1: the end).
BLOCK = np.zeros((MAX_LEVEL + 1, MAX_LEVEL + 2), np.int64)
for _n in range(MAX_LEVEL + 1):
    for _s in range(_n + 1):
        BLOCK[_n, _s + 1] = BLOCK[_n, _s] + HALF_SIZE[_s] * HALF_SIZE[_n - _s]
    BLOCK[_n, _n + 2:] = BLOCK[_n, _n + 1]
assert all(BLOCK[n, n + 1] == LEVEL_SIZE[n] for n in range(MAX_LEVEL + 1))

# The six pit lanes of a packed side, and 0x01 in each of them (prefix sums by one multiply).
PIT_LANES = np.uint64(0x0000FFFFFFFFFFFF)
_PIT_ONES = np.uint64(0x0000010101010101)
_BYTE = np.uint64(0xFF)


def level_size(level: int) -> int:
    """Positions in ``level``: C(level + 11, 11)."""
    return comb(level + 11, 11)


def level_offsets(levels: int) -> np.ndarray:
    """int64[levels + 2]: where each level 0..levels starts when they are laid end to end
    (the last entry is the total)."""
    return np.concatenate([[0], np.cumsum(LEVEL_SIZE[:levels + 1])]).astype(np.int64)


@kernel(types.int64(types.uint64))
def stones_of(pits):
    """Stones in a side's pit lanes (the caller masks the word to its pits)."""
    return np.int64((pits * np.uint64(0x0101010101010101)) >> np.uint64(56))


@kernel(types.int64(types.uint64))
def rank_half(pits):
    """rank6 of one side's six pit lanes (other lanes zero): 0..H(stones) - 1."""
    prefix = pits * _PIT_ONES  # lane i now holds x0 + ... + xi
    rank = np.int64(0)
    for i in range(5):
        rank += BAR_RANK[i, np.int64((prefix >> np.uint64(8 * i)) & _BYTE)]
    return rank


@kernel(types.int64(types.int64, types.uint64, types.uint64))
def level_index(level, mover_pits, other_pits):
    """Index within ``level`` of the position whose pit lanes are ``mover_pits`` and
    ``other_pits`` (both masked to PIT_LANES; their stones must add up to ``level``)."""
    s = stones_of(mover_pits)
    return BLOCK[level, s] + rank_half(mover_pits) * HALF_SIZE[level - s] + rank_half(other_pits)


@kernel(types.uint64(types.int64, types.int64))
def unrank_half(stones, rank):
    """The six pit lanes of the distribution of ``stones`` whose rank6 is ``rank``."""
    bars = np.zeros(5, np.int64)
    q = stones + 4
    for i in range(4, -1, -1):  # greedy: the largest bar first (combinatorial number system)
        while BAR_RANK[i, q - i] > rank:
            q -= 1
        rank -= BAR_RANK[i, q - i]
        bars[i] = q
        q -= 1
    pits = np.uint64(0)
    before = np.int64(0)
    for i in range(5):
        prefix = bars[i] - i
        pits |= np.uint64(prefix - before) << np.uint64(8 * i)
        before = prefix
    return pits | (np.uint64(stones - before) << np.uint64(40))


@kernel(types.UniTuple(types.uint64, 2)(types.int64, types.int64))
def unrank(level, index):
    """(mover_pits, other_pits) lanes of the position at ``index`` in ``level``."""
    s = 0
    while BLOCK[level, s + 1] <= index:
        s += 1
    within = index - BLOCK[level, s]
    width = HALF_SIZE[level - s]
    return unrank_half(s, within // width), unrank_half(level - s, within % width)


# --- plain-Python views, for codecs and tests ----------------------------------------------------

def pits_word(counts) -> np.uint64:
    """Pit lanes of one side from its six counts (sowing order)."""
    if len(counts) != PITS or any(c < 0 or c > 255 for c in counts):
        raise ValueError(f"a side needs six counts 0..255, got {counts!r}")
    return np.uint64(sum(int(c) << (8 * i) for i, c in enumerate(counts)))


def counts_of_word(word) -> tuple[int, ...]:
    return tuple((int(word) >> (8 * i)) & 0xFF for i in range(PITS))


def index_of(counts) -> tuple[int, int]:
    """(level, index) of 12 pit counts: the mover's six in sowing order, then the other's."""
    mover, other = pits_word(counts[:PITS]), pits_word(counts[PITS:])
    level = sum(int(c) for c in counts)
    if level > MAX_LEVEL:
        raise ValueError(f"{level} stones in pits; the index covers at most {MAX_LEVEL}")
    return level, int(level_index(level, mover, other))


def counts_at(level: int, index: int) -> tuple[int, ...]:
    """The 12 pit counts at ``index`` of ``level`` (inverse of :func:`index_of`)."""
    if not 0 <= level <= MAX_LEVEL or not 0 <= index < LEVEL_SIZE[level]:
        raise ValueError(f"no index {index} in level {level}")
    mover, other = unrank(level, index)
    return counts_of_word(mover) + counts_of_word(other)

"""Compiled rank and unrank of the endgame-table index (the scheme and its plain-Python
reference are in ``tables.index``): builds and probes work on the packed state's pit lanes, and a
rank is a handful of table lookups with the SWAR prefix sums of 8-bit lanes."""
import numpy as np
from numba import types

from kernels._jit import kernel
from tables.index import BAR_RANK, BLOCK, HALF_SIZE, MAX_PITS

_PIT_ONES = np.uint64(0x0000010101010101)
_BYTE = np.uint64(0xFF)


@kernel(types.int64(types.uint64))
def stones_of(pits):
    """Stones in a side's pit lanes (the caller masks the word to its pits)."""
    return np.int64((pits * np.uint64(0x0101010101010101)) >> np.uint64(56))


@kernel()
def rank_half(pits, m):
    """rank of one side's m pit lanes (other lanes zero): 0..H(m, stones) - 1."""
    prefix = pits * _PIT_ONES  # lane i now holds x0 + ... + xi
    rank = np.int64(0)
    for i in range(m - 1):
        rank += BAR_RANK[i, np.int64((prefix >> np.uint64(8 * i)) & _BYTE)]
    return rank


@kernel(types.int64(types.int64, types.int64, types.uint64, types.uint64))
def level_index(m, level, mover_pits, other_pits):
    """Index within ``level`` of the position whose pit lanes are ``mover_pits`` and
    ``other_pits`` (both masked to PIT_LANES[m]; their stones must add up to ``level``)."""
    s = stones_of(mover_pits)
    return (BLOCK[m, level, s] + rank_half(mover_pits, m) * HALF_SIZE[m, level - s]
            + rank_half(other_pits, m))


@kernel()
def unrank_half(m, stones, rank):
    """The m pit lanes of the distribution of ``stones`` whose rank is ``rank``."""
    bars = np.zeros(MAX_PITS, np.int64)
    q = stones + m - 2
    for i in range(m - 2, -1, -1):  # greedy: the largest bar first (combinatorial number system)
        while BAR_RANK[i, q - i] > rank:
            q -= 1
        rank -= BAR_RANK[i, q - i]
        bars[i] = q
        q -= 1
    pits = np.uint64(0)
    before = np.int64(0)
    for i in range(m - 1):
        prefix = bars[i] - i
        pits |= np.uint64(prefix - before) << np.uint64(8 * i)
        before = prefix
    return pits | (np.uint64(stones - before) << np.uint64(8 * (m - 1)))


@kernel(types.UniTuple(types.uint64, 2)(types.int64, types.int64, types.int64))
def unrank(m, level, index):
    """(mover_pits, other_pits) lanes of the position at ``index`` in ``level``."""
    s = 0
    while BLOCK[m, level, s + 1] <= index:
        s += 1
    within = index - BLOCK[m, level, s]
    width = HALF_SIZE[m, level - s]
    return unrank_half(m, s, within // width), unrank_half(m, level - s, within % width)

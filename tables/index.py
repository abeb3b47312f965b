"""Combinatorial index of Mancala endgame positions: rank and unrank of stone distributions.

A table position is the stones in the 2m pits of Kalah(m, n) (m = 1..6), seen from the side to
move: the mover's m pits ``x`` and the other side's m pits ``y``, each in its own sowing order
(the packed state's pit lanes 0..m-1, ``kernels.mancala``). Stores are not part of it. Level
``n`` holds every distribution of ``n`` stones over the 2m pits: C(n + 2m - 1, 2m - 1) positions.

Index scheme ``split{m}-colex-v1`` (written into every table header; ``split6-colex-v1`` for
six pits, the scheme of the first six-pit tables, unchanged)::

    level n, mover's pits x = (x0..x{m-1}) holding s stones, other's pits y holding n - s:

    index(x, y) = BLOCK[m, n, s] + rank(x) * H(m, n - s) + rank(y)

    H(m, t)        = C(t + m - 1, m - 1)                 distributions of t stones over m pits
    BLOCK[m, n, s] = sum over t < s of H(m, t) H(m, n-t)  blocks by the mover's stone count s
    rank(x)        = sum over i = 0..m-2 of C(q_i, i + 1),  q_i = x0 + ... + xi + i

    level n:  | block s=0 | block s=1 |   ...   | block s=n |
    block s:  | row rank(x)=0: H(m, n-s) entries, by rank(y) | row 1 | ... | row H(m, s)-1 |

``rank`` is the combinatorial number system on the m - 1 "bars" q_0 < ... < q_{m-2} that cut s
stones into m pits (stars and bars): a bijection onto 0..H(m, s)-1, in colex order of the bars.
The bar terms C(q_i, i + 1) do not depend on m, so one table ``BAR_RANK`` serves every board.

Why blocks by the mover's stone count: a move that keeps every stone in the pits only moves the
mover's stones along his own side, then hands the turn over, so the child is (y, x') with
``sum(x') = sum(x)``: the unordered split {s, n - s} never changes inside a level.

Every rank is a handful of table lookups; the sums of 8-bit lanes use the packed state's SWAR
layout (a multiply by 0x0101... gives prefix sums in every lane).
"""
from __future__ import annotations

from math import comb

import numpy as np
from numba import types

from kernels._jit import kernel

MAX_PITS = 6                    # the packed state holds at most six pits a side
PITS = 6                        # the default board
MAX_LEVEL = 48                  # Kalah(6,4) holds 48 stones; level 48 of 6 pits has 1.3e12 entries
_LANES = 256                    # every value an 8-bit lane can hold, so no lookup runs out


def scheme(pits: int) -> str:
    """The index scheme written into the headers of ``pits``-pit tables."""
    return f"split{pits}-colex-v1"


INDEX_SCHEME = scheme(PITS)

# HALF_SIZE[m, t] = H(m, t); LEVEL_SIZE[m, n] = C(n + 2m - 1, 2m - 1) (m = 0: unused zeros).
HALF_SIZE = np.array([[comb(t + m - 1, m - 1) if m else 0 for t in range(MAX_LEVEL + 1)]
                      for m in range(MAX_PITS + 1)], np.int64)
LEVEL_SIZE = np.array([[comb(n + 2 * m - 1, 2 * m - 1) if m else 0 for n in range(MAX_LEVEL + 1)]
                       for m in range(MAX_PITS + 1)], np.int64)
# BAR_RANK[i, p] = C(p + i, i + 1): the rank term of bar i when the prefix sum x0..xi is p.
BAR_RANK = np.array([[comb(p + i, i + 1) for p in range(_LANES)] for i in range(MAX_PITS - 1)],
                    np.int64)
# BLOCK[m, n, s]: where the block of mover's stone count s starts in level n (s = n + 1: the end).
BLOCK = np.zeros((MAX_PITS + 1, MAX_LEVEL + 1, MAX_LEVEL + 2), np.int64)
for _m in range(1, MAX_PITS + 1):
    for _n in range(MAX_LEVEL + 1):
        for _s in range(_n + 1):
            BLOCK[_m, _n, _s + 1] = BLOCK[_m, _n, _s] + HALF_SIZE[_m, _s] * HALF_SIZE[_m, _n - _s]
        BLOCK[_m, _n, _n + 2:] = BLOCK[_m, _n, _n + 1]
        assert BLOCK[_m, _n, _n + 1] == LEVEL_SIZE[_m, _n]

# The m pit lanes of a packed side (PIT_LANES[m]), and 0x01 in each of the six lanes.
PIT_LANES = np.array([(1 << (8 * m)) - 1 for m in range(MAX_PITS + 1)], np.uint64)
_PIT_ONES = np.uint64(0x0000010101010101)
_BYTE = np.uint64(0xFF)


def check_pits(pits) -> int:
    """``pits`` as an int 1..6, or ValueError."""
    if isinstance(pits, bool) or not isinstance(pits, (int, np.integer)) \
            or not 1 <= pits <= MAX_PITS:
        raise ValueError(f"pits must be a whole number 1..{MAX_PITS}, got {pits!r}")
    return int(pits)


def level_size(level: int, pits: int = PITS) -> int:
    """Positions in ``level`` of ``pits``-pit tables: C(level + 2 pits - 1, 2 pits - 1)."""
    return comb(level + 2 * pits - 1, 2 * pits - 1)


def level_offsets(levels: int, pits: int = PITS) -> np.ndarray:
    """int64[levels + 2]: where each level 0..levels starts when they are laid end to end
    (the last entry is the total); what ``build_in_memory`` returns."""
    return np.concatenate([[0], np.cumsum(LEVEL_SIZE[pits, :levels + 1])]).astype(np.int64)


@kernel(types.int64(types.uint64))
def stones_of(pits):
    """Stones in a side's pit lanes (the caller masks the word to its pits)."""
    return np.int64((pits * np.uint64(0x0101010101010101)) >> np.uint64(56))


@kernel(types.int64(types.uint64, types.int64))
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


@kernel(types.uint64(types.int64, types.int64, types.int64))
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


# --- plain-Python views, for codecs and tests ----------------------------------------------------

def pits_word(counts) -> np.uint64:
    """Pit lanes of one side from its m counts (sowing order)."""
    if not 1 <= len(counts) <= MAX_PITS or any(c < 0 or c > 255 for c in counts):
        raise ValueError(f"a side needs 1..6 counts 0..255, got {counts!r}")
    return np.uint64(sum(int(c) << (8 * i) for i, c in enumerate(counts)))


def counts_of_word(word, pits: int = PITS) -> tuple[int, ...]:
    return tuple((int(word) >> (8 * i)) & 0xFF for i in range(pits))


def index_of(counts) -> tuple[int, int]:
    """(level, index) of 2m pit counts: the mover's m in sowing order, then the other's."""
    pits = len(counts) // 2
    if len(counts) != 2 * pits or not 1 <= pits <= MAX_PITS:
        raise ValueError(f"a position needs 2m pit counts, m = 1..6, got {len(counts)}")
    mover, other = pits_word(counts[:pits]), pits_word(counts[pits:])
    level = sum(int(c) for c in counts)
    if level > MAX_LEVEL:
        raise ValueError(f"{level} stones in pits; the index covers at most {MAX_LEVEL}")
    return level, int(level_index(pits, level, mover, other))


def counts_at(level: int, index: int, pits: int = PITS) -> tuple[int, ...]:
    """The 2m pit counts at ``index`` of ``level`` (inverse of :func:`index_of`)."""
    if not 0 <= level <= MAX_LEVEL or not 0 <= index < LEVEL_SIZE[pits, level]:
        raise ValueError(f"no index {index} in level {level}")
    mover, other = unrank(pits, level, index)
    return counts_of_word(mover, pits) + counts_of_word(other, pits)

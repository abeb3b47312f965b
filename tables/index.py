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

This module is plain Python (numbers, sizes and the rank of a list of counts), so reading a
table header or naming a position compiles nothing; ``tables.rank`` holds the compiled rank and
unrank on packed pit lanes that builds and probes use, and the tests check the two agree. There
every rank is a handful of table lookups; the sums of 8-bit lanes use the packed state's SWAR
layout (a multiply by 0x0101... gives prefix sums in every lane).
"""
from __future__ import annotations

import numbers
from math import comb

from tables.errors import shown

MAX_PITS = 6                    # the packed state holds at most six pits a side
PITS = 6                        # the default board
MAX_LEVEL = 48                  # Kalah(6,4) holds 48 stones; level 48 of 6 pits has 1.3e12 entries
SAMPLE_MAX = 10**6              # verify's samples: about 2 ms each (an exact search), so a
                                # million is most of an hour; more would look like a hang
_LANES = 256                    # every value an 8-bit lane can hold, so no lookup runs out


def scheme(pits: int) -> str:
    """The index scheme written into the headers of ``pits``-pit tables."""
    return f"split{pits}-colex-v1"


INDEX_SCHEME = scheme(PITS)

# The arrays below are NumPy arrays for the compiled kernels (which read them as globals); they
# are built on first use (``__getattr__``), so listing tables and refusing input never import
# NumPy. HALF_SIZE[m, t] = H(m, t); LEVEL_SIZE[m, n] = C(n + 2m - 1, 2m - 1) (m = 0: zeros);
# BAR_RANK[i, p] = C(p + i, i + 1), the rank term of bar i when the prefix sum x0..xi is p;
# BLOCK[m, n, s]: where the block of mover's stone count s starts in level n (s = n + 1: the
# end); PIT_LANES[m]: the m pit lanes of a packed side.
_ARRAYS = ("HALF_SIZE", "LEVEL_SIZE", "BAR_RANK", "BLOCK", "PIT_LANES")


def _build_arrays() -> dict:
    import numpy as np
    half = np.array([[_half(m, t) if m else 0 for t in range(MAX_LEVEL + 1)]
                     for m in range(MAX_PITS + 1)], np.int64)
    level = np.array([[level_size(n, m) if m else 0 for n in range(MAX_LEVEL + 1)]
                      for m in range(MAX_PITS + 1)], np.int64)
    bar = np.array([[comb(p + i, i + 1) for p in range(_LANES)] for i in range(MAX_PITS - 1)],
                   np.int64)
    block = np.zeros((MAX_PITS + 1, MAX_LEVEL + 1, MAX_LEVEL + 2), np.int64)
    for m in range(1, MAX_PITS + 1):
        for n in range(MAX_LEVEL + 1):
            for s in range(n + 1):
                block[m, n, s + 1] = block[m, n, s] + half[m, s] * half[m, n - s]
            block[m, n, n + 2:] = block[m, n, n + 1]
            assert block[m, n, n + 1] == level[m, n]
    lanes = np.array([(1 << (8 * m)) - 1 for m in range(MAX_PITS + 1)], np.uint64)
    return dict(HALF_SIZE=half, LEVEL_SIZE=level, BAR_RANK=bar, BLOCK=block, PIT_LANES=lanes)


def __getattr__(name: str):
    if name in _ARRAYS:
        if name not in globals():
            globals().update(_build_arrays())
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _half(pits: int, stones: int) -> int:
    """H(m, t): the sides of t stones over m pits (HALF_SIZE[m, t], in plain Python)."""
    return comb(stones + pits - 1, pits - 1)


def _block_size(pits: int, level: int, s: int) -> int:
    """Positions of ``level`` whose mover holds ``s`` stones: H(m, s) H(m, n - s)."""
    return _half(pits, s) * _half(pits, level - s)


def _block(pits: int, level: int, s: int) -> int:
    """BLOCK[m, n, s] in plain Python."""
    return sum(_block_size(pits, level, t) for t in range(s))


def check_pits(pits) -> int:
    """``pits`` as an int 1..6, or ValueError."""
    if isinstance(pits, bool) or not isinstance(pits, numbers.Integral) \
            or not 1 <= pits <= MAX_PITS:
        raise ValueError(f"pits must be a whole number 1..{MAX_PITS}, got {shown(pits)}")
    return int(pits)


def level_size(level: int, pits: int = PITS) -> int:
    """Positions in ``level`` of ``pits``-pit tables: C(level + 2 pits - 1, 2 pits - 1)."""
    return comb(level + 2 * pits - 1, 2 * pits - 1)


def level_offsets(levels: int, pits: int = PITS):
    """int64[levels + 2]: where each level 0..levels starts when they are laid end to end
    (the last entry is the total); what ``build_in_memory`` returns."""
    import numpy as np
    return np.concatenate([[0], np.cumsum(__getattr__("LEVEL_SIZE")[pits, :levels + 1])]
                          ).astype(np.int64)


# --- plain-Python views, for codecs and tests ----------------------------------------------------

def pits_word(counts):
    """Pit lanes of one side from its m counts (sowing order)."""
    if not 1 <= len(counts) <= MAX_PITS or any(c < 0 or c > 255 for c in counts):
        raise ValueError(f"a side needs 1..6 counts 0..255, got {shown(counts)}")
    import numpy as np
    return np.uint64(sum(int(c) << (8 * i) for i, c in enumerate(counts)))


def counts_of_word(word, pits: int = PITS) -> tuple[int, ...]:
    return tuple((int(word) >> (8 * i)) & 0xFF for i in range(pits))


def rank_of(counts) -> int:
    """rank(x) of one side's m counts (sowing order): the colex rank of its bars."""
    rank, prefix = 0, 0
    for i, count in enumerate(counts[:-1]):
        prefix += int(count)
        rank += comb(prefix + i, i + 1)
    return rank


def counts_of_rank(m: int, stones: int, rank: int) -> tuple[int, ...]:
    """The m counts of ``stones`` whose rank is ``rank`` (inverse of :func:`rank_of`): the
    largest bar first, as in the combinatorial number system."""
    bars, q = [0] * (m - 1), stones + m - 2
    for i in range(m - 2, -1, -1):
        while comb(q, i + 1) > rank:
            q -= 1
        rank -= comb(q, i + 1)
        bars[i] = q
        q -= 1
    prefixes = [bar - i for i, bar in enumerate(bars)] + [stones]
    return tuple(b - a for a, b in zip([0] + prefixes, prefixes))


def index_of(counts) -> tuple[int, int]:
    """(level, index) of 2m pit counts: the mover's m in sowing order, then the other's."""
    pits = len(counts) // 2
    if len(counts) != 2 * pits or not 1 <= pits <= MAX_PITS:
        raise ValueError(f"a position needs 2m pit counts, m = 1..6, got {len(counts)}")
    mover, other = counts[:pits], counts[pits:]
    if any(not 0 <= c <= 255 for c in counts):
        raise ValueError(f"pit counts must be 0..255, got {shown(counts)}")
    level = sum(int(c) for c in counts)
    if level > MAX_LEVEL:
        raise ValueError(f"{level} stones in pits; the index covers at most {MAX_LEVEL}")
    s = sum(int(c) for c in mover)
    return level, (_block(pits, level, s) + rank_of(mover) * _half(pits, level - s)
                   + rank_of(other))


def counts_at(level: int, index: int, pits: int = PITS) -> tuple[int, ...]:
    """The 2m pit counts at ``index`` of ``level`` (inverse of :func:`index_of`)."""
    if not 0 <= level <= MAX_LEVEL or not 0 <= index < level_size(level, pits):
        raise ValueError(f"no index {index} in level {level}")
    s, start = 0, 0
    while start + _block_size(pits, level, s) <= index:
        start += _block_size(pits, level, s)
        s += 1
    row, column = divmod(index - start, _half(pits, level - s))
    return counts_of_rank(pits, s, row) + counts_of_rank(pits, level - s, column)

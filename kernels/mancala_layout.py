"""Mancala's packed state without Numba (numpy only): the word layout, the sowing tables and
plain-Python packing, shared by the Numba kernel (``kernels/mancala.py``, which re-exports all
of this and draws the layout) and the Cython alpha-beta (``kernels/mancala_ab.pyx``, which
copies the tables into C arrays when it is imported)."""
import numpy as np

MAX_PITS = 6
CONFIG_SHIFT = 56
CAPTURE_EMPTY_BIT = np.uint64(1 << 59)
CONFIG_MASK = np.uint64(0xFF << CONFIG_SHIFT)


def _lane_ones(lanes):
    return sum(1 << (8 * i) for i in lanes)


def _sowing_tables():
    """OWN_ADD[m, p, r], OPP_ADD[m, p, r]: the 0x01 bytes the last r stones sown from pit p add
    to the mover's and the opponent's word; LAST[m, p, r]: the cycle position the last stone of
    a sowing with remainder r reaches (0..m-1 own pit, m own store, m+1.. opponent pit)."""
    own = np.zeros((MAX_PITS + 1, MAX_PITS, 2 * MAX_PITS + 1), np.uint64)
    opp = np.zeros_like(own)
    last = np.zeros(own.shape, np.int64)
    for m in range(1, MAX_PITS + 1):
        cycle = 2 * m + 1
        for p in range(m):
            for r in range(cycle):
                holes = [(p + j) % cycle for j in range(1, r + 1)]
                own[m, p, r] = _lane_ones(h for h in holes if h <= m)
                opp[m, p, r] = _lane_ones(h - m - 1 for h in holes if h > m)
                last[m, p, r] = (p + r) % cycle
    return own, opp, last


OWN_ADD, OPP_ADD, LAST = _sowing_tables()
# Per m: 0x01 in every pit lane, in every pit+store lane, and 0xFF in every pit lane.
PIT_ONES = np.array([_lane_ones(range(m)) for m in range(MAX_PITS + 1)], np.uint64)
CYCLE_ONES = np.array([_lane_ones(range(m + 1)) for m in range(MAX_PITS + 1)], np.uint64)
PIT_MASK = PIT_ONES * np.uint64(0xFF)
# Division by 2m+1 for every stone count a lane can hold: laps and remainder.
LAPS = np.array([[k // (2 * m + 1) if m else 0 for k in range(256)]
                 for m in range(MAX_PITS + 1)], np.uint64)
REST = np.array([[k % (2 * m + 1) if m else 0 for k in range(256)]
                 for m in range(MAX_PITS + 1)], np.int64)



def pack_side(pits, store, m, capture_empty):
    """One side's word from its pits (sowing order) and store; plain Python, for codecs."""
    word = sum(int(c) << (8 * i) for i, c in enumerate(pits)) + (int(store) << (8 * m))
    return np.uint64(word | (m << CONFIG_SHIFT) | (int(bool(capture_empty)) << 59))


def unpack_side(word):
    """(pits, store, m, capture_empty) of one side's word; plain Python, for codecs."""
    word = int(word)
    m = (word >> CONFIG_SHIFT) & 7
    pits = [(word >> (8 * i)) & 0xFF for i in range(m)]
    return pits, (word >> (8 * m)) & 0xFF, m, bool((word >> 59) & 1)


def pits_per_side(word):
    """m, the pits per side, from a word's rule lane; plain Python."""
    return (int(word) >> CONFIG_SHIFT) & 7

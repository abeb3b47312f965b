"""Table probes usable inside Numba kernels (alpha-beta leaves), and the layout they read.

The tables arrive as two arrays, so a compiled search can take them as arguments::

    data:    int8[...]      levels 1..L, each in ``tables.index`` order, anywhere in the array
                            (in a search: memory-mapped level files, ``tables.mapping``)
    offsets: int64[>= L+2]  offsets[0] = m, the pits a side of the tables;
                            offsets[1] = L, the highest level held;
                            offsets[l + 1] = where level l starts in data, l = 1..L;
                            entries after offsets[L + 1] may be anything (zeros, e.g. a padded
                            row of a search workspace): L says where the layout ends

    probe(state, data, offsets) -> int64
        V, the side to move's future store gain minus the opponent's under perfect play, of
        a packed Kalah(m, n) state (``kernels.mancala``: (mover, other) words; stores are
        ignored): 0 for level 0, NO_ENTRY when its level n > L, its board is not m pits a
        side, or a level's range does not fit in data. Exact value = ``store_difference + V``.

The capture rule is not checked here: the caller loads the tables of the rule its states carry
(``tables.api.load_for_search``).
"""
import numpy as np
from numba import types

from kernels import mancala as game
from kernels._jit import kernel
from tables.index import LEVEL_SIZE, MAX_LEVEL, PIT_LANES
from tables.rank import level_index, stones_of

NO_ENTRY = -32768  # never a value: |V| <= stones in the pits <= 48
PROBE_SIGNATURE = types.int64(game.STATE, types.int8[::1], types.int64[::1])


@kernel(PROBE_SIGNATURE)
def probe(state, data, offsets):
    """V of ``state`` from the tables, or NO_ENTRY (see the module docstring)."""
    m = game.pits_of(state[0])
    if offsets.shape[0] < 2 or m != offsets[0] or m < 1:
        return NO_ENTRY
    mover = state[0] & PIT_LANES[m]
    other = state[1] & PIT_LANES[m]
    level = stones_of(mover) + stones_of(other)
    if level == 0:
        return 0
    if level > MAX_LEVEL or level > offsets[1] or level + 1 >= offsets.shape[0]:
        return NO_ENTRY
    begin = offsets[level + 1]
    if begin < 0 or begin + LEVEL_SIZE[m, level] > data.shape[0]:
        return NO_ENTRY
    return np.int64(data[begin + level_index(m, level, mover, other)])

"""Table probes usable inside Numba kernels (alpha-beta leaves).

The tables arrive as two arrays, so a compiled search can take them as arguments::

    data:    int8[total]    levels 0..L end to end, each in ``tables.index`` order
    offsets: int64[>= L+2]  level l is data[offsets[l] : offsets[l + 1]]; entries after
                            offsets[L + 1] may be anything that is not a next level's range
                            (zeros, e.g. a padded row of a search workspace)

    probe(state, data, offsets) -> int64
        V, the side to move's future store gain minus the opponent's under perfect play, of
        a packed Kalah(6, n) state (``kernels.mancala``: (mover, other) words; stores are
        ignored), or NO_ENTRY when its level n > L or the board is not 6 pits a side.
        Every level's range is checked against its size, so no padding is ever read as data.
        Exact value of the state = ``store_difference(state) + V``.

The capture rule is not checked here: the caller loads the tables of the rule its states carry
(``tables.api.load_for_search(directory, capture_empty)``).
"""
import numpy as np
from numba import types

from kernels import mancala as game
from kernels._jit import kernel
from tables.index import LEVEL_SIZE, MAX_LEVEL, PIT_LANES, PITS, level_index, stones_of

NO_ENTRY = -32768  # never a value: |V| <= stones in the pits <= 48
PROBE_SIGNATURE = types.int64(game.STATE, types.int8[::1], types.int64[::1])


@kernel(PROBE_SIGNATURE)
def probe(state, data, offsets):
    """V of ``state`` from the tables, or NO_ENTRY (see the module docstring)."""
    if game.pits_of(state[0]) != PITS:
        return NO_ENTRY
    mover = state[0] & PIT_LANES
    other = state[1] & PIT_LANES
    level = stones_of(mover) + stones_of(other)
    if level > MAX_LEVEL or level + 1 >= offsets.shape[0]:
        return NO_ENTRY
    begin, end = offsets[level], offsets[level + 1]
    if end - begin != LEVEL_SIZE[level] or end > data.shape[0]:  # padding after the last level
        return NO_ENTRY
    return np.int64(data[begin + level_index(level, mover, other)])

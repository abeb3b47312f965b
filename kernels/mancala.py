"""Mancala, Kalah(m, n) with m <= 6: packed state and move generation (Numba).

Packed state: a pair of uint64 words ``(mover, other)``, the side to move first. Each word holds
one side, one 8-bit lane per hole, in that side's sowing order::

    bit  63   59 58 56 55      48 47     40 39     32 31     24 23     16 15      8 7       0
        +------+-----+----------+---------+---------+---------+---------+---------+---------+
        | rule |  m  |  lane 6  | lane 5  | lane 4  | lane 3  | lane 2  | lane 1  | lane 0  |
        +------+-----+----------+---------+---------+---------+---------+---------+---------+
         lane 7: rule flags     lanes 0..m-1: the side's pits in sowing order, lane m: its store
         (bit 59 = capture_empty, bits 56-58 = m), the same in both words; lanes above m are 0.

Bits 60-63 are never used here; the MCTS states of ``kernels.mancala_playout`` mark side B's word
with bit 60 (the kernel needs to know whose turn it is, which the pair does not record).

For player A the lanes 0..m-1 are bins 1..m; for B they are bins m+1..2m. Pit lane i of one side
faces pit lane m-1-i of the other. Every count is below 256 (at most 255 stones in the game), so
adding into a lane never carries into the next.

Sowing k stones from lane p walks the cycle of 2m+1 holes ``own pits, own store, their pits``:
``q = k // (2m+1)`` whole laps add q to every lane of the cycle at once (one multiply-add per
word), and the remaining ``r = k % (2m+1)`` stones are one masked add of 0x01 bytes per word,
taken from a precomputed table. Captures and the end test are mask operations.

After a move the pair is turned round (the opponent becomes the mover) unless the last stone fell
into the mover's store. A move that ends the game also sweeps: each side's pits go to its store.
"""
import numpy as np
from numba import types

from kernels._jit import kernel
# play() reports what happened in these bits of its second result (kernels/contract.py):
# EXTRA_TURN: the last stone fell into the mover's store, the same side moves again; CAPTURE:
# the last stone captured; GAME_OVER: the move ended the game (and swept the pits); above
# GAIN_SHIFT: GAIN_BIAS + the mover's store gain minus the opponent's.
from kernels.contract import (CAPTURE, CHILD0, CHILD1, EXTRA_TURN, GAIN_BIAS,  # noqa: F401
                              GAIN_SHIFT, GAME_OVER, HINT_MASK, HINT_SHIFT, INFO, MOVE)
# The layout constants, the sowing tables and plain-Python packing live in a module that needs
# no Numba (the codecs and the Cython alpha-beta read them too); re-exported here.
from kernels.mancala_layout import (CAPTURE_EMPTY_BIT, CONFIG_MASK, CONFIG_SHIFT,  # noqa: F401
                                    CYCLE_ONES, LAPS, LAST, MAX_PITS, OPP_ADD, OWN_ADD, PIT_MASK,
                                    PIT_ONES, REST, pack_side, unpack_side)

STATE = types.UniTuple(types.uint64, 2)

_ALL_ONES = np.uint64(0x0101010101010101)
_BYTE = np.uint64(0xFF)
_U8 = np.uint64(8)


@kernel(types.int64(types.uint64))
def pits_of(word):
    """Number of pits per side, m, read from a word's rule lane."""
    return np.int64((word >> np.uint64(CONFIG_SHIFT)) & np.uint64(7))


@kernel(types.int64(types.uint64))
def lane_sum(lanes):
    """Sum of the 8-bit lanes of ``lanes`` (the caller masks; the sum must stay below 256)."""
    return np.int64((lanes * _ALL_ONES) >> np.uint64(56))


@kernel(types.int64(STATE))
def store_difference(state):
    """Mover's store minus the other's: the part of the value already banked."""
    shift = np.uint64(8 * pits_of(state[0]))
    return np.int64((state[0] >> shift) & _BYTE) - np.int64((state[1] >> shift) & _BYTE)


@kernel(types.int64(STATE, types.int64[::1]))
def legal_moves(state, out):
    """Write the mover's non-empty pit lanes (0..m-1) into ``out``; return how many. None once
    the game is over."""
    mover, other = state
    m = pits_of(mover)
    mask = PIT_MASK[m]
    if (mover & mask) == 0 or (other & mask) == 0:
        return 0
    n = 0
    for lane in range(m):
        if (mover >> np.uint64(8 * lane)) & _BYTE:
            out[n] = lane
            n += 1
    return n


@kernel(types.Tuple((STATE, types.int64))(STATE, types.int64))
def play(state, lane):
    """Sow the mover's pit ``lane``. Returns the next state (turned round unless EXTRA_TURN)
    and the info: EXTRA_TURN | CAPTURE | GAME_OVER bits, and the store gain above GAIN_SHIFT.
    The lane must hold stones."""
    mover, other = state
    m = pits_of(mover)
    before = store_difference(state)
    shift = np.uint64(8 * lane)
    stones = (mover >> shift) & _BYTE
    mover -= stones << shift
    laps = LAPS[m, stones]
    rest = REST[m, stones]
    mover += laps * CYCLE_ONES[m] + OWN_ADD[m, lane, rest]
    other += laps * PIT_ONES[m] + OPP_ADD[m, lane, rest]
    last = LAST[m, lane, rest]
    info = 0
    store_shift = np.uint64(8 * m)
    if last == m:
        info = EXTRA_TURN
    elif last < m:
        last_shift = np.uint64(8 * last)
        if (mover >> last_shift) & _BYTE == 1:  # the last stone fell into an empty own pit
            facing_shift = np.uint64(8 * (m - 1 - last))
            facing = (other >> facing_shift) & _BYTE
            if facing != 0 or (mover & CAPTURE_EMPTY_BIT) != 0:
                mover -= np.uint64(1) << last_shift
                other -= facing << facing_shift
                mover += (facing + np.uint64(1)) << store_shift
                info = CAPTURE
    mask = PIT_MASK[m]
    if (mover & mask) == 0 or (other & mask) == 0:
        mover += np.uint64(lane_sum(mover & mask)) << store_shift
        other += np.uint64(lane_sum(other & mask)) << store_shift
        mover &= ~mask
        other &= ~mask
        info |= GAME_OVER
    gain = (np.int64((mover >> store_shift) & _BYTE) - np.int64((other >> store_shift) & _BYTE)
            - before)
    info |= (gain + GAIN_BIAS) << GAIN_SHIFT
    if info & EXTRA_TURN:
        return (mover, other), info
    return (other, mover), info


@kernel(types.boolean(STATE))
def is_terminal(state):
    """True once either side's pits are all empty."""
    mask = PIT_MASK[pits_of(state[0])]
    return (state[0] & mask) == 0 or (state[1] & mask) == 0


@kernel(types.int64(STATE))
def stones_in_pits(state):
    """Stones not yet in a store: the most the store difference can still change by."""
    mask = PIT_MASK[pits_of(state[0])]
    return lane_sum(state[0] & mask) + lane_sum(state[1] & mask)


@kernel(types.int64(STATE))
def score(state):
    """Final store difference, mover minus other, of a finished game (pits swept to stores)."""
    mask = PIT_MASK[pits_of(state[0])]
    return store_difference(state) + lane_sum(state[0] & mask) - lane_sum(state[1] & mask)


@kernel(types.int64(STATE, types.int64[::1]))
def expand(state, row):
    """Play every legal move; write moves, info and children into ``row`` (kernels/contract.py
    layout). Returns how many; 0 once the game is over. The order hint: with captures from an
    empty opposite pit, the fewer stones a pit sows the sooner it is tried (a small sowing
    feeds the opponent nothing; benches/README.md, twenty-seventh session: exact proofs took
    9 % fewer nodes from Kalah(6,4)'s start and 21 % fewer over 80 positions from play; under
    the other rule it cost 1-4 %, so none there)."""
    mover = state[0]
    m = pits_of(mover)
    mask = PIT_MASK[m]
    if (mover & mask) == 0 or (state[1] & mask) == 0:
        return 0
    hinted = (mover & CAPTURE_EMPTY_BIT) != 0
    count = 0
    for lane in range(m):
        stones = (mover >> np.uint64(8 * lane)) & _BYTE
        if stones:
            child, info = play(state, lane)
            if hinted:
                info |= (HINT_MASK - min(np.int64(stones), HINT_MASK)) << HINT_SHIFT
            row[MOVE + count] = lane
            row[INFO + count] = info
            row[CHILD0 + count] = np.int64(child[0])
            row[CHILD1 + count] = np.int64(child[1])
            count += 1
    return count


@kernel(types.UniTuple(types.int64, 2)(STATE))
def bounds(state):
    """(banked, swing): the store difference, and the stones still in pits, the most it can
    still change by. The final value lies in banked +- swing."""
    return store_difference(state), stones_in_pits(state)


@kernel(STATE(STATE))
def key_mask(state):
    """The bits of each word that the rest of the game depends on: all but the stores."""
    keep = ~(np.uint64(0xFF) << np.uint64(8 * pits_of(state[0])))
    return (keep, keep)

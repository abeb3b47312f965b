"""Mancala for Monte Carlo search: whole random playouts and the MCTS game contract (Numba).

Built on ``kernels.mancala``: its packed state, helpers and sowing tables. The playout's sowing
(:func:`sow`) is ``kernels.mancala.play`` without the bookkeeping a playout does not need (the
info bits, the store gain) and with the capture done without branches; tests check it against
``play`` on random games.

The MCTS kernel needs the seat to move, which the packed pair ``(mover, other)`` does not
record, so the MCTS state marks side B's word with SIDE_BIT (bit 60, in the rule lane that
``kernels.mancala`` leaves unused and never touches: the mark travels with B's word through
``play`` and :func:`sow`, extra turns and the end-of-game sweep)::

    bit  63 62 61 60 59      56 55 .. 0
        +--+--+--+---+-----------+-------+
        | 0| 0| 0|B? | rule lane | lanes |    B? = 1 in side B's word: to_move = bit 60 of word 0
        +--+--+--+---+-----------+-------+

Outcomes, for seat s: reward 1 / 0.5 / 0 for a win / draw / loss by the final store difference,
and score = the final store difference, s minus the other (the current stores included).
"""
import numpy as np
from numba import types

from kernels._jit import kernel
from kernels._random import below, splitmix64
from kernels.mancala import (CAPTURE_EMPTY_BIT, CYCLE_ONES, LAPS, LAST, MAX_PITS, OPP_ADD, OWN_ADD,
                             PIT_MASK, PIT_ONES, REST, STATE, lane_sum, pits_of, score)

SIDE_BIT = np.uint64(1 << 60)
_BYTE = np.uint64(0xFF)
_LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_HIGH = np.uint64(0x8080808080808080)
_GATHER = np.uint64(0x0002040810204081)   # moves bit 7 of byte i to bit 56 + i
_U56 = np.uint64(56)


def _pick_table():
    """PICK[mask, j]: the (j mod popcount(mask))-th set bit of a 6-bit mask of non-empty pits.
    60 = lcm(1..6), so j uniform in 0..59 picks every non-empty pit with the same chance."""
    pick = np.zeros((1 << MAX_PITS, PICK_SPAN), np.int8)   # bytes: it stays cached beside the tree
    for mask in range(1, 1 << MAX_PITS):
        lanes = [lane for lane in range(MAX_PITS) if mask >> lane & 1]
        for j in range(PICK_SPAN):
            pick[mask, j] = lanes[j % len(lanes)]
    return pick


def _sowing_by_stones():
    """kernels.mancala's sowing tables indexed by the stone count itself (laps folded in):
    SOW_OWN[m, p, k] / SOW_OPP[m, p, k], what sowing k stones from pit p adds to the mover's /
    the opponent's word, and SOW_LAST[m, p, k] where the last stone lands. One load instead of
    two dependent ones (k -> remainder -> addend) on the playout's critical path. SOW_LAST holds
    bytes, to leave more of the cache to the search tree."""
    own = np.zeros((MAX_PITS + 1, MAX_PITS, 256), np.uint64)
    opp = np.zeros_like(own)
    last = np.zeros(own.shape, np.int8)
    for m in range(1, MAX_PITS + 1):
        for p in range(m):
            for k in range(256):
                laps, rest = LAPS[m, k], REST[m, k]
                own[m, p, k] = laps * CYCLE_ONES[m] + OWN_ADD[m, p, rest]
                opp[m, p, k] = laps * PIT_ONES[m] + OPP_ADD[m, p, rest]
                last[m, p, k] = LAST[m, p, rest]
    return own, opp, last


PICK_SPAN = 60
PICK = _pick_table()
SOW_OWN, SOW_OPP, SOW_LAST = _sowing_by_stones()


def mark_sides(state, to_move):
    """The MCTS state of a kernel state whose mover is seat ``to_move`` (0 = A, 1 = B)."""
    mover, other = np.uint64(state[0]), np.uint64(state[1])
    if to_move == 1:
        return mover | SIDE_BIT, other
    return mover, other | SIDE_BIT


@kernel(types.int64(STATE))
def to_move(state):
    """Seat to move: 0 (A) or 1 (B)."""
    return np.int64((state[0] >> np.uint64(60)) & np.uint64(1))


@kernel(types.int64(types.uint64, types.uint64))
def random_lane(pits, r):
    """A uniformly random non-empty lane of ``pits`` (a word's pit lanes, at least one
    non-empty): flag the non-empty lanes in bit 7 of each byte, gather the flags into a 6-bit
    mask (one multiply) and look the choice up."""
    non_empty = (((pits & _LOW7) + _LOW7) | pits) & _HIGH
    mask = (non_empty * _GATHER) >> _U56
    return PICK[mask, below(r, PICK_SPAN)]


@kernel(types.Tuple((STATE, types.boolean))(STATE, types.int64))
def sow(state, lane):
    """``kernels.mancala.play(state, lane)``'s next state, and whether the game is over, with
    the capture applied arithmetically (times 0 or 1) rather than by branches: in a random
    playout those branches are unpredictable. Tests check it against ``play``."""
    mover, other = state
    m = pits_of(mover)
    shift = np.uint64(8 * lane)
    stones = (mover >> shift) & _BYTE
    mover = mover - (stones << shift) + SOW_OWN[m, lane, stones]
    other += SOW_OPP[m, lane, stones]
    last = SOW_LAST[m, lane, stones]
    own_pit = last < m
    at = last if own_pit else 0
    last_shift = np.uint64(8 * at)
    facing_shift = np.uint64(8 * (m - 1 - at))
    facing = (other >> facing_shift) & _BYTE
    landed_in_empty = ((mover >> last_shift) & _BYTE) == 1
    allowed = (facing != 0) | ((mover & CAPTURE_EMPTY_BIT) != 0)
    take = np.uint64(own_pit & landed_in_empty & allowed)
    store_shift = np.uint64(8 * m)
    mover += ((facing + np.uint64(1)) * take << store_shift) - (take << last_shift)
    other -= (facing * take) << facing_shift
    mask = PIT_MASK[m]
    over = (mover & mask) == 0 or (other & mask) == 0
    if over:  # the sweep: each side's pits go to its store
        mover += np.uint64(lane_sum(mover & mask)) << store_shift
        other += np.uint64(lane_sum(other & mask)) << store_shift
        mover &= ~mask
        other &= ~mask
    extra_turn = last == m
    first = mover if extra_turn else other
    second = other if extra_turn else mover
    return (first, second), over


@kernel(types.Tuple((STATE, types.int64, types.uint64))(STATE, types.uint64))
def random_playout(state, rng):
    """Uniformly random sowings to the end of the game: (final state, plies, generator)."""
    plies = 0
    mask = PIT_MASK[pits_of(state[0])]
    if (state[0] & mask) == 0 or (state[1] & mask) == 0:
        return state, plies, rng
    while True:
        rng, r = splitmix64(rng)
        state, over = sow(state, random_lane(state[0] & mask, r))
        plies += 1
        if over:
            return state, plies, rng


@kernel(types.int64(STATE, types.float64[::1]))
def returns(state, out):
    """Rewards and scores of a finished game (see the module docstring); 2 players."""
    seat = to_move(state)
    difference = score(state)
    reward = 1.0 if difference > 0 else 0.5 if difference == 0 else 0.0
    out[seat] = reward
    out[1 - seat] = 1.0 - reward
    out[2 + seat] = difference
    out[3 - seat] = -difference
    return 2


@kernel(types.uint64(STATE, types.uint64, types.float64[::1]))
def rollout(state, rng, out):
    """The MCTS rollout: a random playout, then its returns."""
    final, _, rng = random_playout(state, rng)
    returns(final, out)
    return rng


@kernel(types.Tuple((types.int64, types.int64))(STATE, types.int64, types.uint64))
def playout_stats(state, count, rng):
    """Run ``count`` random playouts from ``state``: (plies played, sum of the final store
    differences from the mover of ``state``). For benchmarks and tests."""
    plies, total = 0, 0
    seat = to_move(state)
    for _ in range(count):
        final, n, rng = random_playout(state, rng)
        plies += n
        difference = score(final)
        total += difference if to_move(final) == seat else -difference
    return plies, total

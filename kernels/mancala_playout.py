"""Mancala for Monte Carlo search: whole random playouts and the MCTS game contract (Numba).

Built on ``kernels.mancala``: its packed state, helpers and sowing tables. The playout's sowing
(:func:`sow_code`, :func:`sow`) is ``kernels.mancala.play`` without the bookkeeping a playout
does not need (the info bits, the store gain), with the capture done by selects rather than
branches and tables laid out for the shortest chain of dependent instructions per ply (see
"the playout's tables" below); tests check :func:`sow` against ``play`` on random positions, and
:func:`random_playout` against a plain replay with ``random_lane`` and ``play``.

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
from kernels._random import splitmix64
from kernels.mancala import (CYCLE_ONES, LAPS, LAST, MAX_PITS, OPP_ADD, OWN_ADD, PIT_MASK,
                             PIT_ONES, REST, STATE, lane_sum, pits_of, score)

SIDE_BIT = np.uint64(1 << 60)
_BYTE = np.uint64(0xFF)
_LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_GATHER = np.uint64(0x0002040810204081)   # moves bit 7 of byte i to bit 56 + i
_U56 = np.uint64(56)
_U59 = np.uint64(59)


# --- the playout's tables ---------------------------------------------------------------------
#
# A ply is a chain of dependent steps: which pits are non-empty -> the chosen pit -> its stones ->
# what sowing them does -> the capture -> which of the next mover's pits are non-empty. The
# tables are laid out so that each arrow is as few instructions as possible (a ply's instruction
# count is what limits a playout: two playouts interleaved in one loop ran no faster, and fewer
# generator steps a ply made it faster; benches/README.md):
#
# - A pit is named by its *lane code* ``code = lane * CODE_STRIDE``. CODE_STRIDE = 264 = 4 * 64
#   + 8, so ``code & 63 == 8 * lane`` (the lane's bit offset: a shift uses it as it is) and
#   ``code + stones`` indexes the sowing tables (stones <= 255 < CODE_STRIDE: the rows of two
#   lanes never overlap). One add takes a chosen pit and its stones to a table row.
# - PICK_FLAT[64 j + mask] is the lane code of the (j mod popcount(mask))-th non-empty pit of a
#   6-bit mask (60 = lcm(1..6): j uniform in 0..59 picks every non-empty pit with the same
#   chance). The random j is drawn before the ply needs it, so the mask is one add from the load.
# - j takes 21 random bits (:func:`pick_index`), so one SplitMix64 word serves three plies: the
#   generator's instructions were a tenth of a ply's (13 % more plies/s with three draws a word
#   than with one, 8 % with two). The draw is uniform to within 60 / 2**21 (a relative bias
#   under 3e-5, far below what any playout statistic resolves).
# - SOW_OWN[m, code + k] / SOW_OPP[m, code + k]: what sowing k stones from the pit adds to the
#   mover's / the opponent's word (whole laps folded in); SOW_INFO[m, code + k] where the last
#   stone lands. One load each, all in parallel.
#
# SOW_INFO word:
#
#     bit  17      16   14 13   8 7  6 5    0
#         +-------+-------+------+-------+------+
#         | EXTRA |   0   | face |  0    |  at  |   at = 8 * own pit lane of the last stone
#         +-------+-------+------+-------+------+   (0 if it is not an own pit), face = 8 *
#                                                   the lane facing it; EXTRA: it is the store
#
# Pit masks: the playout keeps M = (mover's non-empty pits) | (other's non-empty pits) << 8 beside
# the words and updates it from tables, so the next ply's choice never waits for the words: for
# the sowing of row = code + k,
#
#     M' = (M & MASK_KEEP) | MASK_RECEIVE                 the emptied pit; the pits that get stones
#     capture iff ((M | MASK_NO_CAPTURE) & MASK_LAND) == 0      the last pit was empty (and is
#                                                                 one that can capture)
#             and ((M | MASK_ALWAYS | capture_empty * MASK_CAPTURE_EMPTY) & MASK_FACE) != 0
#                                                                 the facing pit has stones (or
#                                                                 gets some, or need not)
#     M'' = M' & ~MASK_CLEAR on a capture                 the last pit and the facing pit
#
# MASK_LAND is MASK_NO_CAPTURE for a sowing that cannot capture, so the first test fails. The
# capture itself (the words) is decided by the same test.
CODE_STRIDE = 264
PICK_SPAN = 60
PICK_BITS = 21                 # random bits a lane draw takes: 3 draws a 64-bit word
DRAWS_PER_WORD = 64 // PICK_BITS
MASK_NO_CAPTURE = 1 << 7
MASK_CAPTURE_EMPTY = 1 << 30
MASK_ALWAYS = 1 << 31
INFO_FACE_SHIFT = 8
INFO_EXTRA = 1 << 17


def _pick_table():
    """PICK_CODE[j, mask] (PICK_FLAT's rows), as above. uint16: small enough to stay cached
    beside the tree."""
    pick = np.zeros((PICK_SPAN, 1 << MAX_PITS), np.uint16)
    for mask in range(1, 1 << MAX_PITS):
        lanes = [lane for lane in range(MAX_PITS) if mask >> lane & 1]
        for j in range(PICK_SPAN):
            pick[j, mask] = lanes[j % len(lanes)] * CODE_STRIDE
    return pick


def _sowing_by_code():
    """kernels.mancala's sowing tables indexed by ``code + stones`` (laps folded in)."""
    size = (MAX_PITS - 1) * CODE_STRIDE + 256
    own = np.zeros((MAX_PITS + 1, size), np.uint64)
    opp = np.zeros_like(own)
    info = np.zeros_like(own)
    for m in range(1, MAX_PITS + 1):
        for p in range(m):
            for k in range(256):
                laps, rest = LAPS[m, k], REST[m, k]
                i = p * CODE_STRIDE + k
                own[m, i] = laps * CYCLE_ONES[m] + OWN_ADD[m, p, rest]
                opp[m, i] = laps * PIT_ONES[m] + OPP_ADD[m, p, rest]
                last = int(LAST[m, p, rest])
                if last < m:
                    info[m, i] = 8 * last | 8 * (m - 1 - last) << INFO_FACE_SHIFT
                elif last == m:
                    info[m, i] = INFO_EXTRA
    return own, opp, info


def _mask_tables():
    """The pit-mask side of a sowing, indexed like the sowing tables (see "pit masks" above)."""
    size = (MAX_PITS - 1) * CODE_STRIDE + 256
    keep = np.zeros((MAX_PITS + 1, size), np.uint32)
    recv, clear, land, face = (np.zeros_like(keep) for _ in range(4))
    for m in range(1, MAX_PITS + 1):
        cycle = 2 * m + 1
        for p in range(m):
            for k in range(256):
                laps, rest = int(LAPS[m, k]), int(REST[m, k])
                holes = {(p + j) % cycle for j in range(1, rest + 1)}
                if laps:
                    holes = set(range(cycle))
                own = sum(1 << h for h in holes if h < m)
                opp = sum(1 << (h - m - 1) for h in holes if h > m)
                i = p * CODE_STRIDE + k
                keep[m, i] = (0xFF & ~(1 << p)) | 0xFF00
                recv[m, i] = own | opp << 8
                land[m, i] = MASK_NO_CAPTURE
                face[m, i] = MASK_CAPTURE_EMPTY
                last = (p + rest) % cycle
                if last < m:
                    facing = 1 << (m - 1 - last)
                    clear[m, i] = 1 << last | facing << 8
                    # the last pit ends with exactly one stone if it was empty: no whole lap
                    # passed it, or it is the emptied pit itself and exactly one lap did
                    if laps == (1 if last == p else 0):
                        land[m, i] = (1 << last) & ~(1 << p)
                    face[m, i] |= facing << 8 | (MASK_ALWAYS if opp & facing else 0)
    return keep, recv, clear, land, face


PICK_CODE = _pick_table()
PICK_FLAT = PICK_CODE.ravel()     # [64 j + mask]: the add of j's row comes before the mask is known
SOW_OWN, SOW_OPP, SOW_INFO = _sowing_by_code()
MASK_KEEP, MASK_RECEIVE, MASK_CLEAR, MASK_LAND, MASK_FACE = _mask_tables()
# Per m: 0x80 in every pit lane.
PIT_HIGH = PIT_ONES * np.uint64(0x80)
_U63 = np.uint64(63)
_PICK_BITS = np.uint64(PICK_BITS)
_PICK_SHIFT = np.uint64(64 - PICK_BITS)
_PICK_SPAN = np.uint64(PICK_SPAN)
_U6 = np.uint64(6)
_U8 = np.uint64(8)
_ONE = np.uint64(1)
_INFO_EXTRA = np.uint64(INFO_EXTRA)
_NO_CAPTURE = np.uint64(MASK_NO_CAPTURE)
_CAPTURE_EMPTY = np.uint64(MASK_CAPTURE_EMPTY)
_ALWAYS = np.uint64(MASK_ALWAYS)


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
def pit_mask(word, high):
    """The mask of ``word``'s non-empty pits (bit i: lane i); ``high`` = PIT_HIGH[m]. Flags each
    non-empty pit in bit 7 of its byte, then gathers the flags with one multiply."""
    flags = ((word & _LOW7) + _LOW7) | word
    return np.int64(((flags & high) * _GATHER) >> _U56)


@kernel(inline="always")
def pick_index(word):
    """j in 0..PICK_SPAN-1 from the top PICK_BITS bits of a random word (scaled by a multiply,
    not a division)."""
    return ((word >> _PICK_SHIFT) * _PICK_SPAN) >> _PICK_BITS


@kernel(types.int64(types.uint64, types.uint64))
def random_lane(pits, word):
    """A uniformly random non-empty lane of ``pits`` (a word, at least one non-empty pit; lanes
    above the pits must be empty): the lane of PICK_CODE[j, pit_mask], j from the top
    PICK_BITS bits of the random ``word``."""
    mask = pit_mask(pits, PIT_HIGH[MAX_PITS])
    return np.int64(PICK_CODE[pick_index(word), mask]) // CODE_STRIDE


@kernel()
def sow_code(mover, other, masks, m, code, face_bits):
    """Sow the mover's pit of lane code ``code`` (it must hold stones), with ``masks`` = M (see
    "pit masks" above) and ``face_bits`` = MASK_ALWAYS | capture_empty * MASK_CAPTURE_EMPTY:
    the mover's and the other's word after the sowing and any capture, neither turned round nor
    swept; INFO_EXTRA if the last stone fell into the mover's store (else 0); and M after the
    move, in the same orientation. The capture is decided on the masks (the next choice does not
    wait for the words) and applied by selects, not branches: in a random playout those
    branches are unpredictable."""
    shift = code & _U63
    stones = (mover >> shift) & _BYTE
    row = code + stones           # unsigned: no negative-index wraparound on the critical path
    take = ((((masks | _NO_CAPTURE) & np.uint64(MASK_LAND[m, row])) == 0)
            & (((masks | face_bits) & np.uint64(MASK_FACE[m, row])) != 0))
    sown = (masks & np.uint64(MASK_KEEP[m, row])) | np.uint64(MASK_RECEIVE[m, row])
    captured = sown & ~np.uint64(MASK_CLEAR[m, row])
    masks = captured if take else sown
    mover = mover - (stones << shift) + SOW_OWN[m, row]
    other = other + SOW_OPP[m, row]
    info = SOW_INFO[m, row]
    at = info & _U63
    face = (info >> _U8) & _U63
    facing = (other >> face) & _BYTE
    captured_mover = mover - (_ONE << at) + ((facing + _ONE) << np.uint64(8 * m))
    captured_other = other - (facing << face)
    mover = captured_mover if take else mover
    other = captured_other if take else other
    return mover, other, info & _INFO_EXTRA, masks


@kernel()
def pit_masks(mover, other, m):
    """M of a pair of words (see "pit masks" above)."""
    high = PIT_HIGH[m]
    return np.uint64(pit_mask(mover, high)) | np.uint64(pit_mask(other, high)) << _U8


@kernel()
def face_bits(mover):
    """sow_code's ``face_bits`` for the capture rule in a word's rule lane."""
    return _ALWAYS | ((mover >> _U59) & _ONE) * _CAPTURE_EMPTY


@kernel()
def _finish(mover, other, m, extra):
    """The end of a move that ended the game: the sweep (each side's pits to its store), and
    the words turned round unless the last stone fell into the mover's store."""
    mask = PIT_MASK[m]
    store_shift = np.uint64(8 * m)
    mover = (mover & ~mask) + (np.uint64(lane_sum(mover & mask)) << store_shift)
    other = (other & ~mask) + (np.uint64(lane_sum(other & mask)) << store_shift)
    if extra:
        return mover, other
    return other, mover


@kernel(inline="always")
def sow(state, lane):
    """``kernels.mancala.play(state, lane)``'s next state, and whether the game is over: one
    step of :func:`random_playout` (:func:`sow_code`, the end test, the turn). Tests check it
    against ``play``."""
    mover, other = state
    m = pits_of(mover)
    mover, other, extra, masks = sow_code(mover, other, pit_masks(mover, other, m), m,
                                          np.uint64(lane * CODE_STRIDE), face_bits(mover))
    if (masks & _BYTE) == 0 or (masks >> _U8) == 0:
        return _finish(mover, other, m, extra), True
    if extra:
        return (mover, other), False
    return (other, mover), False


@kernel(inline="always")
def _playout_loop(mover, other, rng, m):
    """:func:`random_playout` from a game not over, the pit masks M kept beside the words."""
    masks, bits = pit_masks(mover, other, m), face_bits(mover)
    plies, word, draws = 0, np.uint64(0), 0
    while True:
        if draws == 0:
            rng, word = splitmix64(rng)
            draws = DRAWS_PER_WORD
        code = PICK_FLAT[(pick_index(word) << _U6) + (masks & _BYTE)]
        word <<= _PICK_BITS             # the next draw's bits on top
        draws -= 1
        mover, other, extra, masks = sow_code(mover, other, masks, m, np.uint64(code), bits)
        plies += 1
        if (masks & _BYTE) == 0 or (masks >> _U8) == 0:
            return _finish(mover, other, m, extra), plies, rng
        if not extra:
            mover, other = other, mover
            masks = ((masks & _BYTE) << _U8) | (masks >> _U8)


@kernel(types.Tuple((STATE, types.int64))(STATE, types.int64))
def play(state, lane):
    """The MCTS contract's ``play``: :func:`sow`'s next state (``kernels.mancala.play``'s, as
    tests check), without the info bits the search does not use (info 0)."""
    return sow(state, lane)[0], 0


@kernel(inline="always")
def random_playout(state, rng):
    """Uniformly random sowings to the end of the game: (final state, plies, generator).

    Each ply: j = :func:`pick_index` of the random word (a SplitMix64 step every
    DRAWS_PER_WORD plies; off the critical path), the lane code PICK_FLAT[64 j + mover's pit
    mask], :func:`sow_code`, the end test on the pit masks, the turn (selects). Inlined into
    its callers (``rollout``): a call that passes ``out`` beside it would cost reference
    counts."""
    mover, other = state
    m = pits_of(mover)
    mask = PIT_MASK[m]
    if (mover & mask) == 0 or (other & mask) == 0:
        return state, 0, rng
    return _playout_loop(mover, other, rng, m)


@kernel()
def outcome(state):
    """A finished game's (seat of word 0, its reward, its final store difference)."""
    difference = score(state)
    return to_move(state), 1.0 if difference > 0 else 0.5 if difference == 0 else 0.0, difference


@kernel(types.int64(STATE, types.float64[::1]))
def returns(state, out):
    """Rewards and scores of a finished game (see the module docstring); 2 players."""
    seat, reward, difference = outcome(state)
    out[seat] = reward
    out[1 - seat] = 1.0 - reward
    out[2 + seat] = difference
    out[3 - seat] = -difference
    return 2


@kernel(types.uint64(STATE, types.uint64, types.float64[::1]))
def rollout(state, rng, out):
    """The MCTS rollout: a random playout, then its returns. (``returns`` written out here: a
    call that passes the array costs two atomic reference counts a simulation.)"""
    final, _, rng = random_playout(state, rng)
    seat, reward, difference = outcome(final)
    out[seat] = reward
    out[1 - seat] = 1.0 - reward
    out[2 + seat] = difference
    out[3 - seat] = -difference
    return rng


@kernel()
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

"""Generic negamax alpha-beta with a transposition table (Numba). Knows no game.

The game's functions arrive as arguments (``numba.types.FunctionType``), so this module never
imports a game and its compiled code is cached on disk per state type (see ``kernels._jit``).

Game contract, for a 2-player zero-sum game whose state is a pair of uint64 words ``S``
(coarse functions: an indirect call costs a few ns and is never inlined, so a node makes two):

    expand(S, row: int64[::1]) -> int64     play every legal move into ``row`` (layout and
                                            info bits in kernels/contract.py); 0 = game over
    bounds(S) -> (banked, swing)            the value already fixed (Mancala: the store
                                            difference) and the most it can still change by
    evaluate(S) -> int64                    heuristic value, side to move's view
    score(S) -> int64                       exact value of a finished game
    probe(S, data: int8[::1],               exact value net of banked from endgame tables, or
          offsets: int64[::1]) -> int64     NO_ENTRY; tried where swing <= stats PROBE_MAX
                                            (``no_probe`` and PROBE_MAX = -1 without tables)

and, passed as plain words, ``key_mask``: the bits of each state word the rest of the game
depends on (the table stores values net of ``banked``, keyed by ``S & key_mask``).

Values are from the side to move's view. Depth ``EXACT`` means "to the end of the game": no
heuristic leaf is used, and every TT entry written under it is a proven bound.

Transposition table: ``tt`` is uint64[n, 4], n a power of two, used as 2-entry buckets
(entries 2i and 2i+1). An entry is ``key word 0, key word 1, data, unused``. Keys are compared
whole, so two positions never share an entry by a hash collision. The data word::

    bit 63      56 55      48 47      40 39      32 31              16 15               0
        +--------+----------+----------+----------+------------------+------------------+
        |1 h 0 ..|   work   | move + 1 |  depth   | upper + 32768    | lower + 32768    |
        +--------+----------+----------+----------+------------------+------------------+
    bit 63: entry in use. bit 62 (h): heuristic, the bounds rest on a heuristic leaf or on
    another heuristic entry; clear: they are proven game values (always so at depth EXACT).
    A search that takes a bound from a heuristic entry counts a heuristic leaf, so a later
    search on the same table cannot report a value guessed by an earlier one as exact.
    lower/upper: bounds on the value net of banked() (0 / 0xFFFF: none).
    depth: remaining plies searched (255 = EXACT). move: best or refuting move (0 = none; a
    search where every move failed low names none and keeps the move an earlier search of the
    same depth stored: its fail-soft best is noise, and overwriting the stored move cost MTD(f)
    about 2 % more nodes on Kalah(6,4), benches/README.md).
    work: log2 of the nodes the entry's search took; replacement keeps the deeper, then the
    costlier entry of a bucket.

Scratch: one int64 array ``work`` of shape WORK_SHAPE (see :func:`new_workspace`), so the
recursion passes few arguments. Row ``ply`` < MAX_PLY is that ply's expansion
(kernels/contract.py) plus a BUCKET block; the search writes the ORDER and BUCKET blocks. Row MAX_PLY holds the
history counters (columns 0..63) and the stats (``STATS + NODES``, ...).
"""
import numpy as np
from numba import types

from kernels._intrinsics import prefetch_row
from kernels._jit import fn, kernel
# The constants, stats slots and layouts live in a module that needs no Numba (the driver and the
# Cython kernel read them too); re-exported here, so ``kernels.alphabeta.NODES`` still works.
from kernels.alphabeta_layout import (  # noqa: F401
    ABORTED, ABORTED_MOVE, BIG_GAIN, BOUND_BIAS, BUCKET, ETC_CUTOFFS, ETC_MIN_SWING, ETC_SWING, EXACT,
    EXPANDED,
    HEURISTIC_BIT, HEURISTIC_LEAVES, HISTORY, HISTORY_LIMIT, IN_USE_BIT, INFINITY, MAX_PLY,
    MAX_PLY_SEEN, NO_ENTRY, NO_ETC, NO_LOWER, NO_MOVE, NO_ORDERING, NO_TABLE, NO_UPPER,
    NODE_LIMIT, NODES, OPTIONS, PEEK_MARGIN, PROBE_MAX, ROOT_MOVE, STATS, STATS_SIZE, TABLE_HITS,
    TABLE_OFFSETS, TT_HITS, TT_MIN_SWING, WORK_SHAPE, new_table, new_workspace, stats_of)
from kernels.contract import (CHILD0, CHILD1, EXPANSION_WIDTH, EXTRA_TURN, GAIN_BIAS, GAIN_SHIFT,
                              GAME_OVER, HINT_MASK, HINT_SHIFT, INFO, MAX_MOVES, MOVE, ORDER)

STATE = types.UniTuple(types.uint64, 2)

_IN_USE = np.uint64(1 << IN_USE_BIT)
_HEURISTIC = np.uint64(1 << HEURISTIC_BIT)
_NO_LOWER = NO_LOWER
_NO_UPPER = NO_UPPER
_BIAS = BOUND_BIAS
_U16 = np.uint64(0xFFFF)
_U8 = np.uint64(0xFF)


def game_signatures(state_type):
    """The signatures a game's functions must be compiled for to be passed to this kernel."""
    return dict(
        expand=types.int64(state_type, types.int64[::1]),
        bounds=types.UniTuple(types.int64, 2)(state_type),
        evaluate=types.int64(state_type),
        score=types.int64(state_type),
        probe=types.int64(state_type, types.int8[::1], types.int64[::1]),
    )


@kernel(types.uint64(types.uint64, types.uint64))
def mix(word0, word1):
    """64-bit hash of a two-word key (multiply-xorshift; the low bits pick the bucket)."""
    x = word0 * np.uint64(0x9E3779B97F4A7C15)
    x ^= (word1 ^ (x >> np.uint64(29))) * np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(32)
    x *= np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(29))


@kernel(types.int64(types.uint64))
def _priority(data):
    """Which entry of a full bucket to keep: the deeper search, then the costlier one."""
    return np.int64(((data >> np.uint64(32)) & _U8) * np.uint64(256) + ((data >> np.uint64(48)) & _U8))


@kernel(types.int64(types.uint64, types.uint64, types.uint64[:, ::1]))
def bucket_of(word0, word1, tt):
    """First entry of the bucket a key hashes to."""
    return np.int64(mix(word0, word1) & np.uint64(tt.shape[0] - 2))


@kernel(types.int64(types.uint64[:, ::1], types.int64))
def grow_table(tt, entries):
    """Double a table used as ``tt[:entries]`` into ``tt[:2 * entries]`` (zero there): every
    entry whose key hashes into the new half under the wider bucket mask moves to its bucket
    there, the others stay. Nothing is lost: one old bucket maps to each new one, so both of a
    bucket's entries fit. Returns how many moved."""
    mask = np.uint64(2 * entries - 2)
    moved = 0
    for slot in range(entries):
        if tt[slot, 2] & _IN_USE:
            bucket = np.int64(mix(tt[slot, 0], tt[slot, 1]) & mask)
            if bucket >= entries:
                to = bucket + 1 if tt[bucket, 2] & _IN_USE else bucket
                for word in range(4):
                    tt[to, word] = tt[slot, word]
                    tt[slot, word] = 0
                moved += 1
    return moved


@kernel(types.int64(types.uint64[:, ::1], types.int64, types.uint64, types.uint64))
def tt_find(tt, bucket, word0, word1):
    """Index of the entry holding this key in its bucket, or -1."""
    for slot in range(bucket, bucket + 2):
        if tt[slot, 0] == word0 and tt[slot, 1] == word1 and tt[slot, 2] & _IN_USE:
            return slot
    return -1


@kernel(types.void(types.uint64[:, ::1], types.int64, types.uint64, types.uint64, types.int64,
                   types.int64, types.int64, types.int64, types.int64, types.boolean))
def tt_store(tt, bucket, word0, word1, lower, upper, depth, move, work, heuristic):
    """Record bounds (net values; +-INFINITY = none) found by a search of ``depth``;
    ``heuristic``: they rest on a heuristic value. The key is looked for again: the subtree's
    stores may have replaced the entry found before it."""
    flag = _HEURISTIC if heuristic else np.uint64(0)
    slot = -1
    for s in range(bucket, bucket + 2):
        if tt[s, 0] == word0 and tt[s, 1] == word1 and tt[s, 2] & _IN_USE:
            slot = s
    if slot >= 0:
        old = tt[slot, 2]
        old_depth = np.int64((old >> np.uint64(32)) & _U8)
        if old_depth > depth:
            return  # a deeper search's bounds are worth more
        if old_depth == depth:  # same search horizon: the bounds combine
            old_lower = np.int64(old & _U16) - _BIAS
            old_upper = np.int64((old >> np.uint64(16)) & _U16) - _BIAS
            if old_lower != _NO_LOWER - _BIAS and old_lower > lower:
                lower = old_lower
            if old_upper != _NO_UPPER - _BIAS and old_upper < upper:
                upper = old_upper
            if move < 0:
                move = np.int64((old >> np.uint64(40)) & _U8) - 1
            flag |= old & _HEURISTIC  # combined bounds are proven only if both were
    else:
        slot = bucket
        for s in range(bucket, bucket + 2):
            if not tt[s, 2] & _IN_USE:
                slot = s
                break
            if _priority(tt[s, 2]) < _priority(tt[slot, 2]):
                slot = s
    lower_field = _NO_LOWER if lower <= -INFINITY else lower + _BIAS
    upper_field = _NO_UPPER if upper >= INFINITY else upper + _BIAS
    tt[slot, 0] = word0
    tt[slot, 1] = word1
    tt[slot, 2] = (_IN_USE | flag | np.uint64(lower_field)
                   | (np.uint64(upper_field) << np.uint64(16))
                   | (np.uint64(depth) << np.uint64(32)) | (np.uint64(move + 1) << np.uint64(40))
                   | (np.uint64(min(work, 255)) << np.uint64(48)))


@kernel(types.int64(types.int64))
def log2_floor(n):
    bits = 0
    while n > 1:
        n >>= 1
        bits += 1
    return bits


GAME = game_signatures(STATE)
_SEARCH_SIGNATURE = types.int64(
    STATE, types.int64, types.int64, types.int64, types.int64, types.int64,
    fn(GAME["expand"]), fn(GAME["bounds"]), fn(GAME["evaluate"]), fn(GAME["score"]),
    fn(GAME["probe"]), types.uint64, types.uint64, types.uint64[:, ::1], types.int64[:, ::1],
    types.int8[::1])

@kernel(types.void(types.int64[::1], types.int64))
def _sort_moves(row, count):
    """Insertion sort of one ply's moves by descending order key (few moves: no faster sort)."""
    for i in range(1, count):
        order = row[ORDER + i]
        j = i
        while j > 0 and row[ORDER + j - 1] < order:
            j -= 1
        if j == i:
            continue
        for block in range(0, EXPANSION_WIDTH + MAX_MOVES, MAX_MOVES):
            held = row[block + i]
            for k in range(i, j, -1):
                row[block + k] = row[block + k - 1]
            row[block + j] = held


@kernel(types.void(types.int64[:, ::1], types.int64, types.int64))
def _reward_history(work, move, bonus):
    """Credit a move that refuted a position; halve all credits before they could outgrow the
    order keys' history field (24 bits)."""
    history = work[MAX_PLY]
    history[HISTORY + move] += bonus
    if history[HISTORY + move] >= HISTORY_LIMIT:
        for m in range(MAX_MOVES):
            history[HISTORY + m] >>= 1


@kernel(types.UniTuple(types.int64, 2)(types.int64[::1], types.int64, types.int64, types.int64,
                                       fn(GAME["bounds"]), types.uint64, types.uint64,
                                       types.uint64[:, ::1]))
def _etc_cutoff(row, count, depth, beta, bounds, mask0, mask1, tt):
    """(value, heuristic) from the first child of an expanded ply whose stored bound proves
    the parent's value >= ``beta`` (an extra-turn child's lower bound, a turned-round child's
    upper bound negated), from a search at least as deep as the child's; (-INFINITY, 0) if no
    child's entry does. ``heuristic``: 1 when that entry's bounds rest on a guess."""
    child_depth = depth if depth == EXACT else depth - 1
    for i in range(count):
        bucket = row[BUCKET + i]
        if bucket < 0:  # a finished game, or no table
            continue
        child = (np.uint64(row[CHILD0 + i]), np.uint64(row[CHILD1 + i]))
        slot = tt_find(tt, bucket, child[0] & mask0, child[1] & mask1)
        if slot < 0:
            continue
        data = tt[slot, 2]
        if np.int64((data >> np.uint64(32)) & _U8) < child_depth:
            continue
        fixed, _ = bounds(child)
        if row[INFO + i] & EXTRA_TURN:
            field = np.int64(data & _U16)
            if field == _NO_LOWER:
                continue
            value = field - _BIAS + fixed
        else:
            field = np.int64((data >> np.uint64(16)) & _U16)
            if field == _NO_UPPER:
                continue
            value = -(field - _BIAS + fixed)
        if value >= beta:
            return value, np.int64(1) if data & _HEURISTIC else np.int64(0)
    return np.int64(-INFINITY), np.int64(0)


@kernel(types.int64(types.int64[::1], types.int64, types.int64, fn(GAME["bounds"])))
def _floor_cutoff(row, count, beta, bounds):
    """The best of the children's guaranteed values (each child's ``bounds``: banked - swing
    for a child that keeps the turn, -(banked + swing) for one turned round), if it reaches
    ``beta``; -INFINITY if it does not. Sound for any game whose bounds hold; for Mancala a
    move banking g stones guarantees banked - swing + 2 g (benches/README.md: 8 % fewer nodes
    on Kalah(6,4), 10 % under no-capture-empty)."""
    floor = np.int64(-INFINITY)
    for i in range(count):
        fixed, swing = bounds((np.uint64(row[CHILD0 + i]), np.uint64(row[CHILD1 + i])))
        value = fixed - swing if row[INFO + i] & EXTRA_TURN else -(fixed + swing)
        if value > floor:
            floor = value
    return floor if floor >= beta else np.int64(-INFINITY)


@kernel(types.int64(types.int64[::1], types.int64, types.int64, fn(GAME["bounds"]),
                    fn(GAME["probe"]), types.int64, types.int8[::1], types.int64[::1]))
def _peek_cutoff(row, count, beta, bounds, probe, probe_max, tables, offsets):
    """The endgame tables' value of the first child within ``probe_max`` stones that proves the
    parent's value >= ``beta``; -INFINITY if none does. A finished game is skipped: the floor
    (:func:`_floor_cutoff`, which runs first) has its exact value already."""
    for i in range(count):
        info = row[INFO + i]
        if info & GAME_OVER:
            continue
        child = (np.uint64(row[CHILD0 + i]), np.uint64(row[CHILD1 + i]))
        fixed, spread = bounds(child)
        if spread > probe_max:
            continue
        value = probe(child, tables, offsets)
        if value == NO_ENTRY:
            continue
        value += fixed
        if not info & EXTRA_TURN:
            value = -value
        if value >= beta:
            return value
    return np.int64(-INFINITY)


@kernel(GAME["probe"])
def no_probe(state, data, offsets):
    """The probe of a search without endgame tables."""
    return NO_ENTRY


@kernel(_SEARCH_SIGNATURE)
def search(state, depth, alpha, beta, ply, bucket, expand, bounds, evaluate, score, probe, mask0,
           mask1, tt, work, tables):
    """Fail-soft negamax value of ``state`` within (alpha, beta) at ``depth`` plies (EXACT: to
    the end of the game). ``bucket``: the state's TT bucket if the caller knows it, else -1. Aborts (returns 0, stats ABORTED = 1) once stats NODES passes
    NODE_LIMIT; an aborted search stores nothing. At ply 0 the best move goes to stats
    ROOT_MOVE (-1 if the window was decided without trying a move)."""
    stats = work[MAX_PLY, STATS:]
    stats[NODES] += 1
    if stats[NODES] > stats[NODE_LIMIT]:
        stats[ABORTED] = 1
        return 0
    if ply > stats[MAX_PLY_SEEN]:
        stats[MAX_PLY_SEEN] = ply
        if ply >= MAX_PLY - 1:  # deeper than any game we play: give up rather than overflow
            stats[ABORTED] = 1
            return 0
    if ply == 0:
        stats[ROOT_MOVE] = -1
    heuristic_before = stats[HEURISTIC_LEAVES]

    # Step 1. The value range the game guarantees may already decide the window.
    fixed, spread = bounds(state)
    if fixed - spread >= beta:
        return fixed - spread
    if fixed + spread <= alpha:
        return fixed + spread
    if spread <= stats[PROBE_MAX]:  # endgame tables know the exact value
        value = probe(state, tables, work[MAX_PLY, TABLE_OFFSETS:])
        if value != NO_ENTRY:
            stats[TABLE_HITS] += 1
            return fixed + value

    # Step 2. Transposition table: bounds from a search at least as deep narrow the window.
    word0 = state[0] & mask0
    word1 = state[1] & mask1
    use_tt = spread > TT_MIN_SWING and not stats[OPTIONS] & NO_TABLE
    slot = -1
    if use_tt:
        if bucket < 0:
            bucket = bucket_of(word0, word1, tt)
        slot = tt_find(tt, bucket, word0, word1)
    tt_move = -1
    if slot >= 0:
        stats[TT_HITS] += 1
        data = tt[slot, 2]
        tt_move = np.int64((data >> np.uint64(40)) & _U8) - 1
        if np.int64((data >> np.uint64(32)) & _U8) >= depth and ply > 0:
            if data & _HEURISTIC:  # its bounds are guesses: so is what follows from them
                stats[HEURISTIC_LEAVES] += 1
            lower_field = np.int64(data & _U16)
            upper_field = np.int64((data >> np.uint64(16)) & _U16)
            if lower_field != _NO_LOWER:
                lower = lower_field - _BIAS + fixed
                if lower >= beta:
                    return lower
                if lower > alpha:
                    alpha = lower
            if upper_field != _NO_UPPER:
                upper = upper_field - _BIAS + fixed
                if upper <= alpha:
                    return upper
                if upper < beta:
                    beta = upper
    if depth == 0:
        stats[HEURISTIC_LEAVES] += 1
        return evaluate(state)

    # Step 3. Expand, and order the moves: the TT move, then moves that bank at least BIG_GAIN,
    # then moves that keep the turn (nearest the goal first: they leave the others playable),
    # then by what they bank, then the game's hint (kernels/contract.py), then history.
    row = work[ply]
    count = expand(state, row)
    if count == 0:
        return score(state)
    stats[EXPANDED] += 1
    history = work[MAX_PLY]
    for i in range(count):
        move = row[MOVE + i]
        info = row[INFO + i]
        if info & EXTRA_TURN:
            order = (1 << 40) + (move << 32)
        else:
            gain = (info >> GAIN_SHIFT) - GAIN_BIAS
            order = ((gain + 1024) << 24) + (((info >> HINT_SHIFT) & HINT_MASK) << 19)
            if gain >= BIG_GAIN:
                order += 1 << 41
        order += history[HISTORY + move]
        if move == tt_move:
            order = 1 << 50
        row[ORDER + i] = order
        row[BUCKET + i] = -1
        if use_tt and not info & GAME_OVER:  # the child will likely be searched: load its
            child_bucket = bucket_of(np.uint64(row[CHILD0 + i]) & mask0,  # bucket now
                                     np.uint64(row[CHILD1 + i]) & mask1, tt)
            prefetch_row(tt, child_bucket)
            row[BUCKET + i] = child_bucket
    # Step 3a. The children's floor (not at the root): what a move already banks (a big
    # capture, a game it ends) can settle the node before any child is searched.
    if ply > 0:
        refuted = _floor_cutoff(row, count, beta, bounds)
        if refuted > -INFINITY:
            return refuted
    # Step 3b. Peek (with endgame tables, a few stones above them, not at the root): a child
    # the tables value that already refutes this window settles the node.
    if ply > 0 and stats[PROBE_MAX] >= 0 and spread <= stats[PROBE_MAX] + PEEK_MARGIN:
        peeked = _peek_cutoff(row, count, beta, bounds, probe, stats[PROBE_MAX], tables,
                              work[MAX_PLY, TABLE_OFFSETS:])
        if peeked > -INFINITY:
            stats[TABLE_HITS] += 1
            return peeked
    # Step 3c. Enhanced transposition cutoff: a child whose stored bound already refutes this
    # window (value >= beta) settles the node without searching anything. Done after every
    # child's bucket was prefetched, so the loads overlap, and only where the subtree is worth
    # it (spread > stats ETC_SWING) and not at the root (the root must name its move).
    if use_tt and ply > 0 and spread > stats[ETC_SWING] and not stats[OPTIONS] & NO_ETC:
        refuted, guessed = _etc_cutoff(row, count, depth, beta, bounds, mask0, mask1, tt)
        if refuted > -INFINITY:
            stats[ETC_CUTOFFS] += 1
            stats[HEURISTIC_LEAVES] += guessed  # a guess in, a guess out
            return refuted
    if not stats[OPTIONS] & NO_ORDERING:
        _sort_moves(row, count)

    # Step 4. Search the children: a turned-round child's value is negated.
    original_alpha = alpha
    best = -INFINITY
    best_move = -1
    next_depth = depth if depth == EXACT else depth - 1
    nodes_before = stats[NODES]
    for i in range(count):
        child = (np.uint64(row[CHILD0 + i]), np.uint64(row[CHILD1 + i]))
        info = row[INFO + i]
        same_side = info & EXTRA_TURN
        if info & GAME_OVER:  # a finished game is a node too, valued without a call
            stats[NODES] += 1
            value = score(child) if same_side else -score(child)
        elif same_side:
            value = search(child, next_depth, alpha, beta, ply + 1, row[BUCKET + i], expand,
                           bounds, evaluate, score, probe, mask0, mask1, tt, work, tables)
        else:
            value = -search(child, next_depth, -beta, -alpha, ply + 1, row[BUCKET + i], expand,
                            bounds, evaluate, score, probe, mask0, mask1, tt, work, tables)
        if stats[ABORTED]:
            return 0
        if value > best:
            best = value
            best_move = row[MOVE + i]
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    _reward_history(work, best_move, 64 if depth == EXACT else depth * depth)
                    break

    # Step 5. Store what was learnt, net of the banked part.
    if use_tt:
        work_done = log2_floor(stats[NODES] - nodes_before + 1)
        guessed = stats[HEURISTIC_LEAVES] != heuristic_before
        if best <= original_alpha:  # every move failed low: no best move to remember
            tt_store(tt, bucket, word0, word1, -INFINITY, best - fixed, depth, -1, work_done,
                     guessed)
        elif best >= beta:
            tt_store(tt, bucket, word0, word1, best - fixed, INFINITY, depth, best_move, work_done,
                     guessed)
        else:
            tt_store(tt, bucket, word0, word1, best - fixed, best - fixed, depth, best_move,
                     work_done, guessed)
    if ply == 0:
        stats[ROOT_MOVE] = best_move
    return best


_GAME_ARGS = (fn(GAME["expand"]), fn(GAME["bounds"]), fn(GAME["evaluate"]), fn(GAME["score"]),
              fn(GAME["probe"]), types.uint64, types.uint64, types.uint64[:, ::1],
              types.int64[:, ::1], types.int8[::1])


@kernel(types.UniTuple(types.int64, 4)(STATE, types.int64, *_GAME_ARGS))
def prove(state, guess, expand, bounds, evaluate, score, probe, mask0, mask1, tt, work, tables):
    """MTD(f): the exact value by null-window searches from ``guess``, a move achieving it
    (NO_MOVE when the game is over), and the bounds proven: (value, move, lower, upper). When
    the node limit stops it: (0, ABORTED_MOVE, lower, upper), the bounds proven so far.

    The move comes from the last root search that failed high: it proved the final lower
    bound, which equals the value. One loop in compiled code: a call from Python costs ~75 us,
    a null-window search of a small position less."""
    stats = work[MAX_PLY, STATS:]
    lower, upper = -INFINITY, INFINITY
    value, best = guess, NO_MOVE
    while lower < upper:
        beta = value + 1 if value == lower else value
        value = search(state, EXACT, beta - 1, beta, 0, -1, expand, bounds, evaluate, score, probe,
                       mask0, mask1, tt, work, tables)
        if stats[ABORTED]:
            return 0, ABORTED_MOVE, lower, upper
        if value >= beta:
            lower = value
            best = stats[ROOT_MOVE]
        else:
            upper = value
    if best < 0:  # decided without trying a move (bounds or table): ask for one that reaches it
        search(state, EXACT, value - 1, value, 0, -1, expand, bounds, evaluate, score, probe, mask0,
               mask1, tt, work, tables)
        best = stats[ROOT_MOVE]
        if best < 0:
            row = np.empty(EXPANSION_WIDTH, np.int64)
            if expand(state, row) > 0:  # every move reaches it (the value was forced)
                best = row[MOVE]
    return value, best, lower, upper


@kernel(types.boolean(STATE, types.int64, types.int64, *_GAME_ARGS))
def keeps_value(child, info, value, expand, bounds, evaluate, score, probe, mask0, mask1, tt,
                work, tables):
    """Is the parent's exact value ``value`` reached by this child? (two null-window tests)"""
    same_side = info & EXTRA_TURN
    if info & GAME_OVER:
        final = score(child)
        return (final if same_side else -final) == value
    target = value if same_side else -value
    low = search(child, EXACT, target - 1, target, 0, -1, expand, bounds, evaluate, score, probe,
                 mask0, mask1, tt, work, tables)
    high = search(child, EXACT, target, target + 1, 0, -1, expand, bounds, evaluate, score, probe,
                  mask0, mask1, tt, work, tables)
    return low >= target and high <= target


@kernel(types.int64(STATE, types.uint64, types.uint64, types.uint64[:, ::1]))
def _table_move(state, mask0, mask1, tt):
    """The best move the table holds for ``state``, or NO_MOVE."""
    word0, word1 = state[0] & mask0, state[1] & mask1
    slot = tt_find(tt, bucket_of(word0, word1, tt), word0, word1)
    if slot < 0:
        return NO_MOVE
    return np.int64((tt[slot, 2] >> np.uint64(40)) & _U8) - 1


@kernel(types.int64(STATE, types.int64, types.int64[::1], *_GAME_ARGS))
def exact_line(state, value, line, expand, bounds, evaluate, score, probe, mask0, mask1, tt,
               work, tables):
    """Fill ``line`` with optimal moves from ``state`` (exact value ``value``), to the end of
    the game or of ``line``: at each step the first move, the table's first, whose child keeps
    the value. Returns the length; -1 if the node limit stopped it."""
    stats = work[MAX_PLY, STATS:]
    row = np.empty(EXPANSION_WIDTH, np.int64)
    length = 0
    while length < line.shape[0]:
        count = expand(state, row)
        if count == 0:
            break
        table_move = _table_move(state, mask0, mask1, tt)
        start = 0
        for i in range(count):
            if row[MOVE + i] == table_move:
                start = i
        chosen = -1
        for attempt in range(count):  # the table's move first, then the others in turn
            i = (start + attempt) % count
            child = (np.uint64(row[CHILD0 + i]), np.uint64(row[CHILD1 + i]))
            if keeps_value(child, row[INFO + i], value, expand, bounds, evaluate, score, probe, mask0,
                           mask1, tt, work, tables):
                chosen = i
                break
            if stats[ABORTED]:
                return -1
        if chosen < 0:  # impossible for a proven value; stop rather than report a wrong line
            break
        line[length] = row[MOVE + chosen]
        length += 1
        info = row[INFO + chosen]
        state = (np.uint64(row[CHILD0 + chosen]), np.uint64(row[CHILD1 + chosen]))
        if not info & EXTRA_TURN:
            value = -value
        if info & GAME_OVER:
            break
    return length

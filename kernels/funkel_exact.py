"""Funkel Munkel solved exactly: max-n / expectimax over the reveals of unseen gems (Numba).

Every seat sees the same (DECISIONS.md, "What is seen"), so a public view is a node of a
stochastic game of perfect information. Its only chance events are the reveals: when a push
makes a loaded cart whose gem nobody saw leave the mine, the gem is gem g with probability
``pool[g] / pool[TOTAL]`` (the unseen pool is a uniform arrangement over the unseen places, and
stays uniform over the rest after one place is read). A gem falling into a cart reveals nothing
(it falls unseen, or it was the shaft's face-up top), so the pushes are the only other edges.

Nodes are packed views (``kernels.funkel_playout``: unseen gems carry the mark gem+1 = 7), and
``kernels.funkel.play`` pushes them as they are: a marked gem falls into a cart as a mark. Before
a push that makes a marked cart leave, :func:`value` writes the revealed gem into that cart (the
chance node), so a mark is never paid out.

Values: ``out[s]`` is seat s's expected result (1 win, 0 loss, tied leaders share 1) and
``out[WIN + s]`` seat s's probability of winning outright, under the policy of the mode:

    BEST    max-n: the seat to move picks the action with the highest expected result for
            itself; equal values (exactly equal floats) go to the first action in legal order.
            With 2 players results sum to 1, so this is expectimax (the minimax of the
            expected result).
    RANDOM  every seat plays uniformly at random among its legal actions (what flat Monte Carlo
            with random rollouts estimates).

Transposition table: open addressing (linear probing) on the 8 words of the node, for decision
nodes and for chance nodes (the node's words with action+1 in the unused control bits 48-55).
Arrays: ``keys`` uint64[capacity, 8] (all-zero row: empty; a real node never is all zero since
its control word holds the player count), ``values`` float64[capacity, 8]. ``stats`` int64[4]:
STORED entries, ABORTED (1 once the entry budget or the table is exhausted: the values are then
meaningless), the budget, and decision NODES expanded.
"""
import numpy as np
from numba import types

from kernels._jit import kernel
from kernels._random import below, splitmix64
from kernels.funkel import (
    LAYOUT, MAX_ACTIONS, PASS, PLACE, RAIL_LENGTH, RAILS, STATE, TO_MOVE, WORDS, bits,
    get_cell, is_over, legal_actions, play, result, set_cell)
from kernels.funkel_playout import POOL_SIZE, TOTAL, as_state, load, public_pool

F64, I64, U64 = types.float64, types.int64, types.uint64
KEYS, VALUES, STATS = types.uint64[:, ::1], types.float64[:, ::1], types.int64[::1]
OUT = types.float64[::1]

BEST, RANDOM = 0, 1
WIN = 4                       # out[WIN + s]: seat s's probability of an outright win
SLOTS = 8                     # floats per table entry
STORED, ABORTED, BUDGET, NODES = 0, 1, 2, 3
DECISION = -1                 # the ``action`` of a decision node
_MARK = 7
_CHANCE_SHIFT = np.uint64(48)
_ENTER, _FOLD, _ADVANCE = 0, 1, 2


@kernel(U64(STATE))
def hash_words(state):
    """A 64-bit hash of the 8 words (SplitMix64's finaliser folded over them)."""
    h = np.uint64(0x243F6A8885A308D3)
    for k in range(WORDS):
        z = (h ^ state[k]) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        h = z ^ (z >> np.uint64(31))
    return h


@kernel(I64(KEYS, STATE))
def find_slot(keys, key):
    """The slot holding ``key``, or the empty slot where it would go; -1 if the table is full."""
    capacity = keys.shape[0]
    slot = np.int64(hash_words(key) & np.uint64(capacity - 1))
    for _ in range(capacity):
        empty = True
        same = True
        for k in range(WORDS):
            if keys[slot, k] != 0:
                empty = False
            if keys[slot, k] != key[k]:
                same = False
        if same or empty:
            return slot
        slot = (slot + 1) & (capacity - 1)
    return -1


@kernel(types.boolean(KEYS, STATE, I64))
def is_stored(keys, key, slot):
    return slot >= 0 and keys[slot, WORDS - 1] == key[WORDS - 1] and keys[slot, 0] == key[0] \
        and keys[slot, 1] == key[1] and keys[slot, 2] == key[2] and keys[slot, 3] == key[3] \
        and keys[slot, 4] == key[4] and keys[slot, 5] == key[5] and keys[slot, 6] == key[6]


@kernel(types.void(KEYS, VALUES, STATS, STATE, I64, OUT))
def store(keys, values, stats, key, slot, out):
    """Keep ``out`` for ``key``; running out of budget or room aborts the search."""
    if slot < 0 or stats[STORED] >= stats[BUDGET]:
        stats[ABORTED] = 1
        return
    for k in range(WORDS):
        keys[slot, k] = key[k]
    for j in range(SLOTS):
        values[slot, j] = out[j]
    stats[STORED] += 1


@kernel(I64(STATE, I64))
def leaving_cell(state, action):
    """The cell of the cart that ``action`` pushes out of the mine if that cart holds an unseen
    gem (a reveal); -1 otherwise."""
    if action >= PLACE:
        return -1
    layout = bits(state[7], LAYOUT[0], LAYOUT[1])
    rail, length = action // 5, RAIL_LENGTH[layout]
    w = np.empty(WORDS, np.uint64)
    load(w, state)
    for i in range(length):
        if get_cell(w, RAILS[layout, rail, i]) == 0:
            return -1                      # a gap: nothing leaves
    last = RAILS[layout, rail, length - 1]
    return last if (get_cell(w, last) >> 3) & 7 == _MARK else -1


@kernel(types.void(STATE, OUT))
def terminal_values(state, out):
    players = result(state, out)
    for s in range(4):
        if s >= players:
            out[s] = 0.0
        out[WIN + s] = 1.0 if out[s] == 1.0 else 0.0


@kernel(STATE(STATE, I64))
def node_key(state, action):
    """The table key: a decision node's words; a reveal's with action+1 in control bits 48-55."""
    if action == DECISION:
        return state
    return (state[0], state[1], state[2], state[3], state[4], state[5], state[6],
            state[7] | (np.uint64(action + 1) << _CHANCE_SHIFT))


@kernel(types.void(STATE, I64, I64, KEYS, VALUES, STATS, OUT))
def value(state, action, mode, keys, values, stats, out):
    """``out`` (8 floats, module docstring) for ``action`` played at the decision node
    ``state`` (through its reveal if it has one), or for the node itself (``action`` =
    DECISION). Depth first with an explicit stack of frames (a cached recursive Numba function
    crashes on loading), each a decision node or a reveal.

    Step 1 (``enter``): a finished game or a stored node gives its value at once; an action
    without a reveal is played; anything else opens a frame. Step 2: a frame's next child
    (the next legal action; the next gem of the unseen pool, written into the leaving cart) is
    entered. Step 3: a child's value is folded into its frame: the mover's best (BEST) or the
    average (RANDOM) at a decision, the pool-weighted sum at a reveal. Step 4: a frame with no
    child left is stored and its value handed to the frame below."""
    remaining = bits(state[7], 32, 16) - bits(state[7], 16, 16)
    depth_max = 6 * remaining + 16    # per push: a decision, a reveal, a display choice, passes
    f_state = np.empty((depth_max, WORDS), np.uint64)
    f_action = np.empty(depth_max, np.int64)       # DECISION, or the revealing action
    f_slot = np.empty(depth_max, np.int64)
    f_reveal = np.empty(depth_max, np.int64)       # reveal: the leaving cart's cell
    f_moves = np.empty((depth_max, MAX_ACTIONS), np.int64)
    f_count = np.empty(depth_max, np.int64)        # decision: legal actions
    f_next = np.empty(depth_max, np.int64)         # the next child (action index or gem)
    f_weight = np.empty(depth_max)                 # reveal: the weight of the child in flight
    f_pool = np.empty((depth_max, POOL_SIZE), np.int64)
    f_out = np.empty((depth_max, SLOTS))
    ret = np.empty(SLOTS)
    w = np.empty(WORDS, np.uint64)
    depth = 0
    child_state, child_action = state, action
    phase = _ENTER
    while True:
        if phase == _ENTER:                            # Step 1
            s, a = child_state, child_action
            reveal = -1
            if a != DECISION:
                reveal = leaving_cell(s, a)
                if reveal < 0:
                    s, a = play(s, a), DECISION
            phase = _FOLD
            if a == DECISION and is_over(s):
                terminal_values(s, ret)
            else:
                key = node_key(s, a)
                slot = find_slot(keys, key)
                if is_stored(keys, key, slot):
                    for j in range(SLOTS):
                        ret[j] = values[slot, j]
                elif depth == depth_max:
                    stats[ABORTED] = 1
                    return
                else:
                    for k in range(WORDS):
                        f_state[depth, k] = s[k]
                    f_action[depth], f_slot[depth], f_reveal[depth] = a, slot, reveal
                    f_next[depth] = 0
                    for j in range(SLOTS):
                        f_out[depth, j] = 0.0
                    if a == DECISION:
                        stats[NODES] += 1
                        f_count[depth] = legal_actions(s, f_moves[depth])
                    else:
                        load(w, s)
                        public_pool(w, f_pool[depth])
                    depth += 1
                    phase = _ADVANCE
            if phase == _FOLD and depth == 0:
                for j in range(SLOTS):
                    out[j] = ret[j]
                return
            continue
        f = depth - 1
        s = as_state(f_state[f])
        if phase == _FOLD:                             # Step 3
            if f_action[f] != DECISION:
                for j in range(SLOTS):
                    f_out[f, j] += f_weight[f] * ret[j]
            elif mode == RANDOM:
                for j in range(SLOTS):
                    f_out[f, j] += ret[j] / f_count[f]
            else:
                mover = bits(s[7], TO_MOVE[0], TO_MOVE[1])
                if f_next[f] == 1 or ret[mover] > f_out[f, mover]:
                    for j in range(SLOTS):
                        f_out[f, j] = ret[j]
        phase = _ENTER                                 # Step 2
        if f_action[f] == DECISION:
            if f_next[f] < f_count[f]:
                child_state, child_action = s, f_moves[f, f_next[f]]
                f_next[f] += 1
                continue
        else:
            g = f_next[f]
            while g < 6 and f_pool[f, g] == 0:
                g += 1
            if g < 6:
                load(w, s)
                byte = get_cell(w, f_reveal[f])
                set_cell(w, f_reveal[f], (byte & 0x07) | ((g + 1) << 3) | 0x40)
                child_state, child_action = play(as_state(w), f_action[f]), DECISION
                f_weight[f] = f_pool[f, g] / f_pool[f, TOTAL]
                f_next[f] = g + 1
                continue
        for j in range(SLOTS):                         # Step 4
            ret[j] = f_out[f, j]
        store(keys, values, stats, node_key(s, f_action[f]), f_slot[f], ret)
        if stats[ABORTED]:
            return
        depth -= 1
        if depth == 0:
            for j in range(SLOTS):
                out[j] = ret[j]
            return
        phase = _FOLD


@kernel(F64(STATE, U64, I64))
def tree_size_probe(state, rng, max_depth):
    """One probe of Knuth's estimator: a random path from ``state``, returning the product of
    the branching factors met so far summed over its depths (an unbiased estimate of the number
    of decision nodes of the tree without transpositions). Reveals branch too (each distinct
    gem of the pool is a child)."""
    actions = np.empty(MAX_ACTIONS, np.int64)
    w = np.empty(WORDS, np.uint64)
    pool = np.empty(POOL_SIZE, np.int64)
    total, weight = 1.0, 1.0
    for _ in range(max_depth):
        n = legal_actions(state, actions)
        if n == 0:
            break
        rng, r = splitmix64(rng)
        action = actions[below(r, n)]
        weight *= n
        reveal = leaving_cell(state, action)
        if reveal >= 0:
            load(w, state)
            public_pool(w, pool)
            kinds = 0
            for g in range(6):
                kinds += pool[g] > 0
            rng, r = splitmix64(rng)
            pick = below(r, kinds)
            for g in range(6):
                if pool[g] > 0:
                    if pick == 0:
                        byte = get_cell(w, reveal)
                        set_cell(w, reveal, (byte & 0x07) | ((g + 1) << 3) | 0x40)
                        break
                    pick -= 1
            weight *= kinds
            state = as_state(w)
        state = play(state, action)
        total += weight
    return total


__all__ = ["value", "tree_size_probe", "BEST", "RANDOM", "WIN", "SLOTS", "STORED", "ABORTED",
           "BUDGET", "NODES", "DECISION", "PASS"]

"""Generic Monte Carlo tree search (UCT) on preallocated arrays (Numba). Knows no game.

The game's compiled functions arrive as arguments typed ``numba.types.FunctionType(sig)`` and
:func:`search_kernel` compiles :func:`_search` for one explicit signature per state type, so a
new process loads it from the on-disk cache (DESIGN.md, "Compiled search receives the game's
functions as arguments").

Game contract, for a state type ``S`` (a tuple of uint64 words), P players (seats 0..P-1)::

    legal_moves(S, out: int64[::1]) -> int64     the moves (or, at a chance node, the outcomes)
                                                 into out[:n], n <= A; n = 0 iff the game is over
    play(S, move: int64) -> (S, int64 info)      the state after a move or outcome (info unused)
    to_move(S) -> int64                          the seat to move, or CHANCE (-1) at a chance node
    chance_probabilities(S, out: float64[::1])   at a chance node: the probability of each outcome,
        -> int64                                 in legal_moves order (they sum to 1); returns n.
                                                 Never called by games without chance nodes.
    returns(S, out: float64[::1]) -> int64       a finished game: out[s] the reward of seat s in
                                                 [0, 1] (the exploration constant assumes that
                                                 scale) and out[P + s] its score (any scale, e.g.
                                                 Mancala's store difference; copy the rewards if
                                                 the game has none); returns P
    rollout(S, rng: uint64, out) -> uint64       play from S (finished or not) to the end with the
                                                 game's own policy, write ``returns`` of the final
                                                 state into out, return the advanced generator.
                                                 With the RANDOM_ROLLOUT option the kernel plays
                                                 uniformly random moves itself (and chance
                                                 outcomes by their probabilities) instead.
    prior(S, out: float64[::1]) -> int64         at a decision node: a prior preference of each
                                                 move in legal_moves order (>= 0, larger is
                                                 better; e.g. 1 for a heuristic's choice, 0
                                                 for the others); returns n. Called only with
                                                 the PRIOR option.

A simulation: Step 1 descends from the root. A decision node first tries each edge once, in
legal_moves order, then picks by UCT: the largest ``mean + c * sqrt(ln N / n)`` (N the node's
visits, n the edge's, mean the edge's mean reward for the node's mover). A chance node draws an
outcome by its probability. Step 2 leaves the tree on an edge without a child node: it plays the
edge and, on the edge's first visit, rolls out from there; on a later one the child joins the
tree (while it has room; a full tree keeps simulating without growing) and the descent goes on
into it. Step 3 adds the outcome to every edge on the path, each edge the reward of the seat
that moves at its parent: the backup of any number of players (max-n), and of extra turns.

Progressive bias (option PRIOR, off unless the driver asks; ``bias`` > 0): when a decision node
is expanded, the game's ``prior`` scores its moves; the moves are then stored best prior first
(a stable sort, so equal priors keep legal_moves order), which makes the edges open in the
prior's order, and UCT adds ``bias * prior / (1 + n)`` to each edge's priority (n the edge's
visits): a bonus that steers the first visits and fades as real statistics accumulate. The root
takes its own weight ``root_bias``: its edges are the answer, so a strong bias there pulls the
answer toward the prior, while below the root it models how the other seats will play.

The MCTS-Solver (option SOLVER; 2 players whose rewards sum to 1 and scores to 0): a finished
node is proven with its returns, a decision node once a child gives its mover reward 1 or every
edge leads to a proven child (then the best of them for its mover). A simulation that reaches a
proven node backs up its exact value without a rollout; UCT takes proven children's exact means
and skips proven losses; the search stops once the root is proven.

Tree layout: one tree per thread, capacity N nodes, A = ``moves.shape[1]`` (the most moves of a
position), W = state words. Node index = creation order: node 0 is the root, and each
simulation adds at most one node (the child of the first edge it visits for the second time).
Statistics live on the edges, in the parent's row, from the view of the seat that moves at the
parent, which is the seat that moved into the child. What a descent reads at a node (its header,
the edges' visits and children) is one int32 record row, and its edges' rewards one float64 row:
R and V round them up to whole 64-byte cache lines (the driver aligns the arrays on 64 bytes),
so a node costs a descent two cache lines::

    record  int32[N, R]       R = 4 + 2A rounded up to a multiple of 16 (64 bytes), >= 16:
                              [MOVES]        legal moves (-1: not yet expanded, 0: game over)
                              [OPENED]       edges tried (decision nodes open them in
                                             legal_moves order)
                              [MOVER]        seat to move, or CHANCE
                              [NODE_VISITS]  simulations through it
                              [HEADER + i]       edge i's visits (simulations through it)
                              [HEADER + A + i]   edge i's child node (-1: not in the tree)
    values  float64[N, V]     V = A rounded up to a multiple of 8 (>= 8): [node, i] sum of the
                              rewards of the node's MOVER over edge i's simulations
    moves   int32[N, A]       [node, i]: the i-th legal move (read when a simulation leaves the
                              tree, and by the driver)
    priors  float64[N, V]     PRIOR: [node, i] bias (root_bias at the root) * the prior of edge
                              i (a decision node's, set at expansion); without PRIOR it may
                              have a single row
    proven  float64[N, 2]     SOLVER: 1 + the exact reward of seat 0 (0: not proven, so a search
                              without the SOLVER never touches it) and a final score of seat 0
                              that goes with it
    states  uint64[N, W]      the node's state
    root_scores float64[A]    sum of the root mover's score over each root edge's simulations
    meta    int64[META_SIZE]  NODES in use, SIMULATIONS run, RNG state (bit-cast), MAX_DEPTH,
                              FULL (simulations that found no room for their node)

No parent links: a simulation keeps its path (node, edge) in a stack, and the backup and the
SOLVER's proof propagation walk that stack (independent writes instead of a chain of dependent
loads up the tree).

Selection reads no logarithm, square root or division: ``table`` (:func:`uct_table`, built by
the driver) holds sqrt(ln n), 1 / n and 1 / sqrt(n) by visit count n, and UCT's priority is
computed as value * (1 / n) + c * sqrt(ln N) * (1 / sqrt(n)) (the same formula; larger counts
than the table holds are computed). In a big tree most of a simulation's time outside the
rollout is spent waiting for memory, so the kernel asks early (prefetch) for the rows it is
about to need: a child seen at most A times (one still opening its edges, where the simulation
will leave the tree) has its state, moves and values rows requested while its record row is
loaded, and before each rollout the record rows of the exit node's siblings, where the next
simulation most likely leaves the tree, are requested while the rollout computes.

A node joins the tree on the second visit of its edge and is expanded (its moves generated) in
the same descent. Until then the edge's row in the parent holds everything a node visited once
would (its visits and rewards), so the search is the one that adds every child at its first
visit, with a tree about a third the size (most edges are tried once): 36,335 nodes instead of
99,965 after 100,000 simulations of Kalah(6,4) from the start, every statistic unchanged.
Everything the search needs between calls lives in these arrays, so a driver can run a tree in
batches (time control) and get the same tree as in one call.
"""
import math
from functools import lru_cache

import numpy as np
from numba import types
from numba.cpython.unsafe.tuple import tuple_setitem

from kernels._intrinsics import prefetch_row
from kernels._jit import fn, kernel
from kernels._random import below, splitmix64, unit

CHANCE = -1
# record[] header columns (also the columns of the driver's ``Tree.nodes`` view)
MOVES, OPENED, MOVER, NODE_VISITS = range(4)
HEADER = 4
# planes of the driver's ``Tree.edges`` view [N, 2, A] of record columns HEADER..HEADER+2A
EDGE_VISITS, CHILD = 0, 1
VALUES_ALIGN = 8           # values rows of whole 64-byte lines
# proven[] columns: PROVEN_VALUE holds PROVEN_OFFSET + the exact reward of seat 0, 0 if not proven
PROVEN_VALUE, PROVEN_SCORE = 0, 1
PROVEN_OFFSET = 1.0
# meta[] slots
NODES, SIMULATIONS, RNG, MAX_DEPTH, FULL = range(5)
META_SIZE = 8
# options bits
SOLVER = 1
RANDOM_ROLLOUT = 2
PRIOR = 4

# uct_table() columns: functions of a visit count n, looked up rather than computed per node
SQRT_LOG, INVERSE, INVERSE_SQRT = range(3)
UCT_TABLE_COLUMNS = 4       # 32-byte rows


def record_width(width):
    """R: int32 columns of a record row for ``width`` move slots (whole 64-byte lines)."""
    return max(16, -(-(HEADER + 2 * width) // 16) * 16)


def values_width(width):
    """V: float64 columns of a values row (whole 64-byte lines)."""
    return max(VALUES_ALIGN, -(-width // VALUES_ALIGN) * VALUES_ALIGN)


def game_signatures(state_type):
    """The signatures a game's functions must be compiled for to be passed to the kernel."""
    return dict(
        legal_moves=types.int64(state_type, types.int64[::1]),
        play=types.Tuple((state_type, types.int64))(state_type, types.int64),
        to_move=types.int64(state_type),
        chance_probabilities=types.int64(state_type, types.float64[::1]),
        returns=types.int64(state_type, types.float64[::1]),
        rollout=types.uint64(state_type, types.uint64, types.float64[::1]),
        prior=types.int64(state_type, types.float64[::1]),
    )


def uct_table(size):
    """The kernel's ``table`` argument, row n for n in 0..size-1 (n >= 1 where it matters):
    [SQRT_LOG] sqrt(ln n) (0 for n < 2), [INVERSE] 1 / n, [INVERSE_SQRT] 1 / sqrt(n). A
    descent needs sqrt(ln N) at every node and 1 / n, 1 / sqrt(n) for every edge: loads are
    cheaper than logarithms, divisions and square roots while the table stays in the caches
    (the driver keeps it short); the kernel computes larger n itself with the same functions
    (the C library's, as Python's ``math`` calls them: NumPy's own logarithm differs in the
    last bit for a few n), so the table's length changes the speed, never a priority."""
    n = [float(max(row, 1)) for row in range(size)]
    table = np.zeros((size, UCT_TABLE_COLUMNS), np.float64)
    table[:, SQRT_LOG] = [math.sqrt(math.log(x)) for x in n]
    table[:, INVERSE] = [1.0 / x for x in n]
    table[:, INVERSE_SQRT] = [1.0 / math.sqrt(x) for x in n]
    return table


def bytes_per_node(words, width, priors=False):
    """Memory one node takes in a tree of ``width`` move slots and ``words``-word states (with
    a ``priors`` row for the PRIOR option)."""
    return 4 * record_width(width) + 8 * values_width(width) * (1 + priors) + 4 * width + \
        8 * words + 8 * 2


# --- small helpers (no game functions) -----------------------------------------------------------

@kernel()
def load_state(states, node, like):
    """The state stored in row ``node``, as a tuple of the type of ``like``."""
    state = like
    for k in range(len(like)):
        state = tuple_setitem(state, k, states[node, k])
    return state


@kernel()
def store_state(states, node, state):
    for k in range(len(state)):
        states[node, k] = state[k]


@kernel()
def add_node(record, node):
    """Fill row ``node`` for a node just reached (visited once, not expanded; not proven: its
    zeroed ``proven`` row says so)."""
    record[node, MOVES] = -1
    record[node, OPENED] = 0
    record[node, MOVER] = 0
    record[node, NODE_VISITS] = 1


@kernel()
def is_proven(proven, node):
    return proven[node, PROVEN_VALUE] != 0.0


@kernel()
def proven_value(proven, node):
    """The exact reward of seat 0 at a proven node."""
    return proven[node, PROVEN_VALUE] - PROVEN_OFFSET


@kernel(inline="always")
def select_uct(record, values, table, node, count, exploration):
    """The edge maximising mean reward + exploration / sqrt(visits), every edge visited, as
    value * (1 / n) + exploration * (1 / sqrt(n)) with both factors from ``table``
    (:func:`uct_table`) while it is long enough: no division nor square root per edge.
    ``exploration`` = c * sqrt(ln(node visits)). The first of equal edges wins; the argmax is
    branch-free."""
    size = np.uint64(table.shape[0])
    best, best_slot = -np.inf, 0
    for i in range(count):
        n = np.uint64(record[node, HEADER + i])     # unsigned: no negative-index handling
        if n < size:
            priority = values[node, i] * table[n, INVERSE] + exploration * table[n, INVERSE_SQRT]
        else:           # the table's functions, so a priority never depends on its length
            visits = np.float64(n)
            priority = values[node, i] * (1.0 / visits) + exploration * (1.0 / math.sqrt(visits))
        better = priority > best
        best = priority if better else best
        best_slot = i if better else best_slot
    return best_slot


@kernel(inline="always")
def select_uct_prior(record, values, priors, table, node, count, exploration):
    """UCT with progressive bias (option PRIOR): the edge maximising mean reward +
    exploration / sqrt(visits) + prior / (1 + visits), ``priors[node, i]`` already holding
    bias * prior; every edge visited. The first of equal edges wins."""
    size = np.uint64(table.shape[0])
    best, best_slot = -np.inf, 0
    for i in range(count):
        n = np.uint64(record[node, HEADER + i])
        if n + np.uint64(1) < size:
            priority = values[node, i] * table[n, INVERSE] + \
                exploration * table[n, INVERSE_SQRT] + priors[node, i] * table[n + 1, INVERSE]
        else:
            visits = np.float64(n)
            priority = values[node, i] * (1.0 / visits) + \
                exploration * (1.0 / math.sqrt(visits)) + priors[node, i] * (1.0 / (visits + 1.0))
        better = priority > best
        best = priority if better else best
        best_slot = i if better else best_slot
    return best_slot


@kernel(inline="always")
def order_by_prior(priors, moves, node, count, weights, bias):
    """Store ``node``'s moves (already in moves[node, :count]) best prior first, and bias times
    each prior in ``priors[node]``; ``weights[:count]`` holds the priors in moves order. A
    stable insertion sort (a node has a few dozen moves at most): equal priors keep their
    order."""
    for i in range(count):
        move, weight = moves[node, i], weights[i]
        j = i
        while j > 0 and weights[j - 1] < weight:
            weights[j] = weights[j - 1]
            moves[node, j] = moves[node, j - 1]
            j -= 1
        weights[j] = weight
        moves[node, j] = move
    for i in range(count):
        priors[node, i] = bias * weights[i]


@kernel()
def sqrt_log(table, visits):
    """sqrt(ln(visits)), from ``table`` (:func:`uct_table`) when it is long enough."""
    if visits < table.shape[0]:
        return table[np.uint64(visits), SQRT_LOG]
    return math.sqrt(math.log(np.float64(visits)))


@kernel()
def value_for(value_of_seat0, seat):
    """A 2-player reward of seat 0 seen from ``seat``."""
    return value_of_seat0 if seat == 0 else 1.0 - value_of_seat0


@kernel()
def select_uct_solver(record, values, proven, node, count, width, exploration):
    """UCT that uses proven children's exact values and never picks a proven loss while another
    edge is left (the node itself is proven once every edge is)."""
    mover = record[node, MOVER]
    best, best_slot = -np.inf, -1
    for i in range(count):
        n = np.float64(record[node, HEADER + i])
        mean = values[node, i] / n
        child = record[node, HEADER + width + i]
        if child >= 0 and is_proven(proven, child):
            mean = value_for(proven_value(proven, child), mover)
            if mean <= 0.0:
                continue
        priority = mean + exploration / math.sqrt(n)
        if priority > best:
            best, best_slot = priority, i
    return best_slot if best_slot >= 0 else 0


@kernel()
def sample_outcome(probabilities, count, r):
    """An outcome index drawn with the given probabilities (the last absorbs rounding)."""
    u = unit(r)
    for i in range(count - 1):
        u -= probabilities[i]
        if u < 0.0:
            return i
    return count - 1


@kernel(inline="always")
def backup(record, values, root_scores, path_nodes, path_slots, depth, out, players):
    """Count one simulation with final rewards ``out`` on the ``depth`` edges of its path:
    each edge gains the reward of the seat that moves at its node."""
    for d in range(depth):
        node, slot = path_nodes[d], path_slots[d]
        record[node, HEADER + slot] += 1
        record[node, NODE_VISITS] += 1
        mover = record[node, MOVER]
        if mover >= 0:
            values[node, slot] += out[mover]
            if node == 0:
                root_scores[slot] += out[players + mover]


@kernel()
def proven_returns(proven, node, out):
    """The rewards and scores of a proven 2-player node, into ``out``."""
    out[0] = proven_value(proven, node)
    out[1] = 1.0 - out[0]
    out[2] = proven[node, PROVEN_SCORE]
    out[3] = -out[2]


@kernel()
def propagate_proof(record, proven, width, path_nodes, depth, node):
    """``node``, reached by the ``depth`` edges of the path, was just proven: prove its
    ancestors that now are (MCTS-Solver). A parent is proven by a child that gives its mover the
    best reward (1), or once every edge leads to a proven child: then its value is the best of
    theirs for its mover. Chance nodes stay unproven (an outcome never drawn would have to be
    proven too)."""
    for d in range(depth - 1, -1, -1):
        parent = path_nodes[d]
        if is_proven(proven, parent):
            return
        mover = record[parent, MOVER]
        if mover < 0:
            return
        best_child = node
        if value_for(proven_value(proven, node), mover) < 1.0:
            count = record[parent, MOVES]
            if record[parent, OPENED] < count:
                return
            best = -1.0
            for i in range(count):
                child = record[parent, HEADER + width + i]
                if child < 0 or not is_proven(proven, child):
                    return
                value = value_for(proven_value(proven, child), mover)
                if value > best:
                    best, best_child = value, child
        proven[parent, PROVEN_VALUE] = proven[best_child, PROVEN_VALUE]
        proven[parent, PROVEN_SCORE] = proven[best_child, PROVEN_SCORE]
        node = parent


# --- the kernels that call the game --------------------------------------------------------------

@kernel()
def _random_rollout(state, rng, out, legal_moves, play, to_move, chance_probabilities, returns,
                    move_buffer, probabilities):
    """Uniformly random moves (chance outcomes by their probabilities) to the end of the game."""
    while True:
        count = legal_moves(state, move_buffer)
        if count == 0:
            returns(state, out)
            return rng
        rng, r = splitmix64(rng)
        if to_move(state) == CHANCE:
            chance_probabilities(state, probabilities)
            pick = sample_outcome(probabilities, count, r)
        else:
            pick = below(r, count)
        state, _ = play(state, move_buffer[pick])


def _search(root_state, simulations, c, bias, root_bias, players, options, record, moves,
            values, priors, proven, states, root_scores, meta, table, legal_moves, play, to_move,
            chance_probabilities, returns, rollout, prior):
    """Run up to ``simulations`` more simulations on the tree in the arrays (the first call
    on empty arrays, meta[NODES] == 0, adds the root). Returns how many ran: fewer once the
    SOLVER proves the root. ``c``: UCT exploration constant (rewards are in [0, 1]).
    ``bias``, ``root_bias``: the weight of the prior below and at the root (option PRIOR; not
    with the SOLVER).
    ``table``: :func:`uct_table` of any length (a speed matter only)."""
    capacity, width = record.shape[0], moves.shape[1]
    children = HEADER + width              # record column of edge 0's child
    move_buffer = np.empty(width, np.int64)
    weights = np.empty(width, np.float64)     # chance probabilities
    out = np.empty(2 * players, np.float64)
    path_nodes = np.empty(capacity, np.int64)  # a path passes a tree node at most once
    path_slots = np.empty(capacity, np.int64)
    solver = options & SOLVER
    biased = options & PRIOR
    if meta[NODES] == 0:
        add_node(record, 0)
        record[0, NODE_VISITS] = 0
        store_state(states, 0, root_state)
        meta[NODES] = 1
    rng = np.uint64(meta[RNG])
    done = 0
    while done < simulations:
        if solver and is_proven(proven, 0):
            break
        done += 1

        # Step 1. Descend from the root, choosing an edge at each node, until an edge leads out
        # of the tree or the node is finished (game over, or proven). The path keeps the edges.
        node, depth = 0, 0
        while True:
            count = record[node, MOVES]
            if count < 0:
                # Step 1 (first, when the node joins the tree): generate its moves. (Written out
                # here, not as a helper taking the arrays: passing arrays costs atomic
                # reference counts.)
                state = load_state(states, node, root_state)
                count = legal_moves(state, move_buffer)
                for i in range(count):
                    moves[node, i] = move_buffer[i]
                    record[node, HEADER + i] = 0
                    record[node, children + i] = -1
                record[node, MOVES] = count
                record[node, MOVER] = to_move(state) if count > 0 else 0
                if biased and count > 0 and record[node, MOVER] != CHANCE:
                    prior(state, weights)
                    order_by_prior(priors, moves, node, count, weights,
                                   root_bias if node == 0 else bias)
            if count == 0:
                # Step 1a. Game over: score it; the SOLVER marks it proven.
                returns(load_state(states, node, root_state), out)
                if solver and not is_proven(proven, node):
                    proven[node, PROVEN_VALUE] = PROVEN_OFFSET + out[0]
                    proven[node, PROVEN_SCORE] = out[players]
                    propagate_proof(record, proven, width, path_nodes, depth, node)
                break
            if solver and is_proven(proven, node):
                proven_returns(proven, node, out)  # Step 1b. Proven: its value, no rollout.
                break
            mover = record[node, MOVER]
            opened = record[node, OPENED]
            if mover == CHANCE:
                # Step 1c. Chance node: draw an outcome by its probability.
                chance_probabilities(load_state(states, node, root_state), weights)
                rng, r = splitmix64(rng)
                slot = sample_outcome(weights, count, r)
            elif opened < count:
                # Step 1d. Open the edges in order before choosing among them.
                slot = opened
                record[node, OPENED] = opened + 1
            else:
                # Step 1e. UCT among the edges.
                exploration = c * sqrt_log(table, record[node, NODE_VISITS])
                if solver:
                    slot = select_uct_solver(record, values, proven, node, count, width,
                                             exploration)
                elif biased:
                    slot = select_uct_prior(record, values, priors, table, node, count,
                                            exploration)
                else:
                    slot = select_uct(record, values, table, node, count, exploration)
            path_nodes[depth] = node
            path_slots[depth] = slot
            depth += 1
            child = record[node, children + slot]
            if child >= 0:
                if record[node, HEADER + slot] <= width:
                    # A child seen this few times is probably still opening its edges, so this
                    # simulation leaves the tree there: ask for the rows that step reads.
                    prefetch_row(states, child)
                    prefetch_row(moves, child)
                    prefetch_row(values, child)
                node = child
                continue

            # Step 2. Leave the tree: play the edge. On the edge's first visit, roll out from
            # there without a node: the edge's own row holds all the statistics a node visited
            # once would have. On a later visit its node joins the tree (visited once already)
            # and the descent goes on into it, as if it had been added the first time: the same
            # search, with no node for the many edges that are tried once (a smaller tree, and
            # no cold row written per simulation).
            state, _ = play(load_state(states, node, root_state), moves[node, slot])
            if record[node, HEADER + slot] > 0:
                if meta[NODES] < capacity:
                    child = meta[NODES]
                    add_node(record, child)
                    record[node, children + slot] = child
                    store_state(states, child, state)
                    meta[NODES] = child + 1
                    node = child
                    continue
                meta[FULL] += 1
            # The next simulation most likely passes this node's parent again and leaves the
            # tree at one of its children: ask for their rows while the rollout runs (the core
            # waits on the rollout's own chain of instructions, not on memory).
            if depth >= 2:
                above = path_nodes[depth - 2]
                for i in range(record[above, MOVES]):
                    prefetch_row(record, max(record[above, children + i], 0))
            if options & RANDOM_ROLLOUT:
                rng = _random_rollout(state, rng, out, legal_moves, play, to_move,
                                      chance_probabilities, returns, move_buffer, weights)
            else:
                rng = rollout(state, rng, out)
            node = -1  # the simulation ended on an edge (node, slot), not at a node
            break

        # Step 3. Back the outcome up every edge on the path, each from its mover's view.
        if depth > meta[MAX_DEPTH]:
            meta[MAX_DEPTH] = depth
        if node >= 0:  # ended at a finished node: count it too
            record[node, NODE_VISITS] += 1
        backup(record, values, root_scores, path_nodes, path_slots, depth, out, players)
    meta[SIMULATIONS] += done
    meta[RNG] = np.int64(rng)
    return done


def search_signature(state_type):
    """``_search``'s signature for a game's state type."""
    game = game_signatures(state_type)
    return types.int64(
        state_type, types.int64, types.float64, types.float64, types.float64, types.int64,
        types.int64,
        types.int32[:, ::1], types.int32[:, ::1], types.float64[:, ::1], types.float64[:, ::1],
        types.float64[:, ::1], types.uint64[:, ::1], types.float64[::1], types.int64[::1],
        types.float64[:, ::1],
        fn(game["legal_moves"]), fn(game["play"]), fn(game["to_move"]),
        fn(game["chance_probabilities"]), fn(game["returns"]), fn(game["rollout"]),
        fn(game["prior"]))


@lru_cache(maxsize=None)
def search_kernel(state_type):
    """The compiled ``_search`` for a state type (compiled once per process, or loaded from the
    on-disk cache)."""
    return kernel(search_signature(state_type))(_search)


# --- stand-ins for the optional game functions ---------------------------------------------------

def _no_chance(state, out):
    return 0


def _no_rollout(state, rng, out):
    return rng


def _no_prior(state, out):
    return 0


@lru_cache(maxsize=None)
def no_chance(state_type):
    """A ``chance_probabilities`` for games without chance nodes (never called)."""
    return kernel(game_signatures(state_type)["chance_probabilities"])(_no_chance)


@lru_cache(maxsize=None)
def no_rollout(state_type):
    """A ``rollout`` for games that use the kernel's RANDOM_ROLLOUT (never called)."""
    return kernel(game_signatures(state_type)["rollout"])(_no_rollout)


@lru_cache(maxsize=None)
def no_prior(state_type):
    """A ``prior`` for games searched without the PRIOR option (never called)."""
    return kernel(game_signatures(state_type)["prior"])(_no_prior)

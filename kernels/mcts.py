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

A simulation: Step 1 descends from the root. A decision node first tries each edge once, in
legal_moves order, then picks by UCT: the largest ``mean + c * sqrt(ln N / n)`` (N the node's
visits, n the edge's, mean the edge's mean reward for the node's mover). A chance node draws an
outcome by its probability. Step 2 leaves the tree on an edge without a child node: it plays the
edge, adds the child (while the tree has room; a full tree keeps simulating without growing) and
rolls out. Step 3 adds the outcome to every edge on the path, each edge the reward of the seat
that moves at its parent: the backup of any number of players (max-n), and of extra turns.

The MCTS-Solver (option SOLVER; 2 players whose rewards sum to 1 and scores to 0): a finished
node is proven with its returns, a decision node once a child gives its mover reward 1 or every
edge leads to a proven child (then the best of them for its mover). A simulation that reaches a
proven node backs up its exact value without a rollout; UCT takes proven children's exact means
and skips proven losses; the search stops once the root is proven.

Tree layout: one tree per thread, capacity N nodes, A = ``edges.shape[2]`` (the most moves of a
position), W = state words. Node index = creation order: node 0 is the root, and each
simulation adds at most one node (the first node it reaches outside the tree). Statistics live
on the edges, in the parent's row, from the view of the seat that moves at the parent, which is
the seat that moved into the child; a row is contiguous, so selection reads one row::

    nodes   int32[N, 8]       PARENT (-1: root), SLOT (edge index in the parent's row),
                              MOVER (seat to move, or CHANCE), MOVES (legal moves; -1: not yet
                              expanded, 0: game over), OPENED (edges tried; decision nodes open
                              them in legal_moves order), NODE_VISITS (simulations through it)
    edges   int32[N, 3, A]    [node, MOVE, i]: the i-th legal move; [node, CHILD, i]: its child
                              node (-1: not in the tree); [node, EDGE_VISITS, i]: simulations
                              through it
    values  float64[N, A]     sum of the rewards of the node's MOVER over the edge's simulations
    proven  float64[N, 2]     SOLVER: the exact reward of seat 0 (NaN: not proven) and a final
                              score of seat 0 that goes with it
    states  uint64[N, W]      the node's state
    root_scores float64[A]    sum of the root mover's score over each root edge's simulations
    meta    int64[META_SIZE]  NODES in use, SIMULATIONS run, RNG state (bit-cast), MAX_DEPTH,
                              FULL (simulations that found no room for their node)

A node is expanded (its moves generated) on its second visit, not when it is added: most leaves
are visited once. Everything the search needs between calls lives in these arrays, so a driver
can run a tree in batches (time control) and get the same tree as in one call.
"""
import math
from functools import lru_cache

import numpy as np
from numba import types
from numba.cpython.unsafe.tuple import tuple_setitem

from kernels._jit import fn, kernel
from kernels._random import below, splitmix64, unit

CHANCE = -1
# nodes[] columns
PARENT, SLOT, MOVER, MOVES, OPENED, NODE_VISITS = range(6)
NODE_FIELDS = 8
# edges[] planes
MOVE, CHILD, EDGE_VISITS = range(3)
EDGE_PLANES = 3
# proven[] columns
PROVEN_VALUE, PROVEN_SCORE = 0, 1
# meta[] slots
NODES, SIMULATIONS, RNG, MAX_DEPTH, FULL = range(5)
META_SIZE = 8
# options bits
SOLVER = 1
RANDOM_ROLLOUT = 2

# sqrt(ln n) for small visit counts: most nodes a simulation passes are deep ones with few visits,
# and a table load is cheaper than a logarithm and a square root.
SQRT_LOG_SIZE = 4096
SQRT_LOG = np.sqrt(np.log(np.maximum(np.arange(SQRT_LOG_SIZE, dtype=np.float64), 1.0)))

NODE_BYTES_FIXED = 4 * NODE_FIELDS + 8 * 2        # nodes + proven rows
EDGE_BYTES = 4 * EDGE_PLANES + 8                  # edges + values per move slot


def game_signatures(state_type):
    """The signatures a game's functions must be compiled for to be passed to the kernel."""
    return dict(
        legal_moves=types.int64(state_type, types.int64[::1]),
        play=types.Tuple((state_type, types.int64))(state_type, types.int64),
        to_move=types.int64(state_type),
        chance_probabilities=types.int64(state_type, types.float64[::1]),
        returns=types.int64(state_type, types.float64[::1]),
        rollout=types.uint64(state_type, types.uint64, types.float64[::1]),
    )


def bytes_per_node(words, width):
    """Memory one node takes in a tree of ``width`` move slots and ``words``-word states."""
    return NODE_BYTES_FIXED + 8 * words + EDGE_BYTES * width


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


@kernel(types.int64(types.int32[:, ::1], types.int32[:, :, ::1], types.float64[:, ::1],
                    types.int64, types.int64, types.int64))
def add_node(nodes, edges, proven, node, parent, slot):
    """Fill row ``node`` for a child reached through edge ``slot`` of ``parent``."""
    nodes[node, PARENT] = parent
    nodes[node, SLOT] = slot
    nodes[node, MOVER] = 0
    nodes[node, MOVES] = -1
    nodes[node, OPENED] = 0
    nodes[node, NODE_VISITS] = 0
    proven[node, PROVEN_VALUE] = np.nan
    proven[node, PROVEN_SCORE] = 0.0
    if parent >= 0:
        edges[parent, CHILD, slot] = node
    return node


@kernel(types.int64(types.int32[:, :, ::1], types.float64[:, ::1], types.int64, types.int64,
                    types.float64, types.float64[::1]))
def select_uct(edges, values, node, count, exploration, priorities):
    """The edge maximising mean reward + exploration / sqrt(visits), every edge visited.
    ``exploration`` = c * sqrt(ln(node visits)). The first of equal edges wins. The priorities
    are computed in a loop of their own (into scratch ``priorities``), which the compiler turns
    into vector square roots and divisions; the argmax follows."""
    for i in range(count):
        n = np.float64(edges[node, EDGE_VISITS, i])
        priorities[i] = (values[node, i] + exploration * math.sqrt(n)) / n
    best_slot = 0
    for i in range(1, count):
        if priorities[i] > priorities[best_slot]:
            best_slot = i
    return best_slot


@kernel(types.float64(types.int64))
def sqrt_log(visits):
    """sqrt(ln(visits)), from a table when visits is small."""
    if visits < SQRT_LOG_SIZE:
        return SQRT_LOG[visits]
    return math.sqrt(math.log(np.float64(visits)))


@kernel(types.float64(types.float64, types.int64))
def value_for(value_of_seat0, seat):
    """A 2-player reward of seat 0 seen from ``seat``."""
    return value_of_seat0 if seat == 0 else 1.0 - value_of_seat0


@kernel(types.int64(types.int32[:, ::1], types.int32[:, :, ::1], types.float64[:, ::1],
                    types.float64[:, ::1], types.int64, types.int64, types.float64))
def select_uct_solver(nodes, edges, values, proven, node, count, exploration):
    """UCT that uses proven children's exact values and never picks a proven loss while another
    edge is left (the node itself is proven once every edge is)."""
    mover = nodes[node, MOVER]
    best, best_slot = -np.inf, -1
    for i in range(count):
        n = np.float64(edges[node, EDGE_VISITS, i])
        mean = values[node, i] / n
        child = edges[node, CHILD, i]
        if child >= 0 and not np.isnan(proven[child, PROVEN_VALUE]):
            mean = value_for(proven[child, PROVEN_VALUE], mover)
            if mean <= 0.0:
                continue
        priority = mean + exploration / math.sqrt(n)
        if priority > best:
            best, best_slot = priority, i
    return best_slot if best_slot >= 0 else 0


@kernel(types.int64(types.float64[::1], types.int64, types.uint64))
def sample_outcome(probabilities, count, r):
    """An outcome index drawn with the given probabilities (the last absorbs rounding)."""
    u = unit(r)
    for i in range(count - 1):
        u -= probabilities[i]
        if u < 0.0:
            return i
    return count - 1


@kernel(types.void(types.int32[:, ::1], types.int32[:, :, ::1], types.float64[:, ::1],
                   types.float64[::1], types.int64, types.int64, types.float64[::1], types.int64))
def backup(nodes, edges, values, root_scores, parent, slot, out, players):
    """Count one simulation with final rewards ``out`` on edge ``slot`` of ``parent`` and on every
    edge above it: each edge gains the reward of the seat that moves at its parent."""
    while parent >= 0:
        edges[parent, EDGE_VISITS, slot] += 1
        nodes[parent, NODE_VISITS] += 1
        mover = nodes[parent, MOVER]
        if mover >= 0:
            values[parent, slot] += out[mover]
            if parent == 0:
                root_scores[slot] += out[players + mover]
        slot = nodes[parent, SLOT]
        parent = nodes[parent, PARENT]


@kernel(types.void(types.float64[:, ::1], types.int64, types.float64[::1]))
def proven_returns(proven, node, out):
    """The rewards and scores of a proven 2-player node, into ``out``."""
    out[0] = proven[node, PROVEN_VALUE]
    out[1] = 1.0 - out[0]
    out[2] = proven[node, PROVEN_SCORE]
    out[3] = -out[2]


@kernel(types.void(types.int32[:, ::1], types.int32[:, :, ::1], types.float64[:, ::1],
                   types.int64))
def propagate_proof(nodes, edges, proven, node):
    """``node`` was just proven: prove its ancestors that now are (MCTS-Solver). A parent is
    proven by a child that gives its mover the best reward (1), or once every edge leads to a
    proven child: then its value is the best of theirs for its mover. Chance nodes stay
    unproven (an outcome never drawn would have to be proven too)."""
    while True:
        parent = nodes[node, PARENT]
        if parent < 0 or not np.isnan(proven[parent, PROVEN_VALUE]):
            return
        mover = nodes[parent, MOVER]
        if mover < 0:
            return
        best_child = node
        if value_for(proven[node, PROVEN_VALUE], mover) < 1.0:
            count = nodes[parent, MOVES]
            if nodes[parent, OPENED] < count:
                return
            best = -1.0
            for i in range(count):
                child = edges[parent, CHILD, i]
                if child < 0 or np.isnan(proven[child, PROVEN_VALUE]):
                    return
                value = value_for(proven[child, PROVEN_VALUE], mover)
                if value > best:
                    best, best_child = value, child
        proven[parent, PROVEN_VALUE] = proven[best_child, PROVEN_VALUE]
        proven[parent, PROVEN_SCORE] = proven[best_child, PROVEN_SCORE]
        node = parent


# --- the kernels that call the game --------------------------------------------------------------

@kernel()
def _expand(states, nodes, edges, node, like, legal_moves, to_move, move_buffer):
    """Generate a node's moves into its row; return how many (0: the game is over)."""
    state = load_state(states, node, like)
    count = legal_moves(state, move_buffer)
    for i in range(count):
        edges[node, MOVE, i] = move_buffer[i]
        edges[node, CHILD, i] = -1
        edges[node, EDGE_VISITS, i] = 0
    nodes[node, MOVES] = count
    nodes[node, MOVER] = to_move(state) if count > 0 else 0
    return count


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


def _search(root_state, simulations, c, players, options, nodes, edges, values, proven, states,
            root_scores, meta, legal_moves, play, to_move, chance_probabilities, returns, rollout):
    """Run up to ``simulations`` more simulations on the tree in the arrays (the first call
    on empty arrays, meta[NODES] == 0, adds the root). Returns how many ran: fewer once the
    SOLVER proves the root. ``c``: UCT exploration constant (rewards are in [0, 1])."""
    capacity, width = nodes.shape[0], edges.shape[2]
    move_buffer = np.empty(width, np.int64)
    weights = np.empty(width, np.float64)     # chance probabilities, or UCT priorities
    out = np.empty(2 * players, np.float64)
    solver = options & SOLVER
    if meta[NODES] == 0:
        add_node(nodes, edges, proven, 0, -1, 0)
        store_state(states, 0, root_state)
        meta[NODES] = 1
    rng = np.uint64(meta[RNG])
    done = 0
    while done < simulations:
        if solver and not np.isnan(proven[0, PROVEN_VALUE]):
            break
        done += 1

        # Step 1. Descend from the root, choosing an edge at each node, until an edge leads out
        # of the tree or the node is finished (game over, or proven).
        node, depth = 0, 0
        while True:
            count = nodes[node, MOVES]
            if count < 0:
                count = _expand(states, nodes, edges, node, root_state, legal_moves, to_move,
                                move_buffer)
            if count == 0:
                # Step 1a. Game over: score it; the SOLVER marks it proven.
                returns(load_state(states, node, root_state), out)
                if solver and np.isnan(proven[node, PROVEN_VALUE]):
                    proven[node, PROVEN_VALUE] = out[0]
                    proven[node, PROVEN_SCORE] = out[players]
                    propagate_proof(nodes, edges, proven, node)
                break
            if solver and not np.isnan(proven[node, PROVEN_VALUE]):
                proven_returns(proven, node, out)  # Step 1b. Proven: its value, no rollout.
                break
            mover = nodes[node, MOVER]
            if mover == CHANCE:
                # Step 1c. Chance node: draw an outcome by its probability.
                chance_probabilities(load_state(states, node, root_state), weights)
                rng, r = splitmix64(rng)
                slot = sample_outcome(weights, count, r)
            elif nodes[node, OPENED] < count:
                # Step 1d. Open the edges in order before choosing among them.
                slot = nodes[node, OPENED]
                nodes[node, OPENED] = slot + 1
            else:
                # Step 1e. UCT among the edges.
                exploration = c * sqrt_log(nodes[node, NODE_VISITS])
                if solver:
                    slot = select_uct_solver(nodes, edges, values, proven, node, count,
                                             exploration)
                else:
                    slot = select_uct(edges, values, node, count, exploration, weights)
            child = edges[node, CHILD, slot]
            depth += 1
            if child >= 0:
                node = child
                continue
            leaf_parent = node

            # Step 2. Leave the tree: play the edge, add its node if there is room, roll out.
            state, _ = play(load_state(states, node, root_state), edges[node, MOVE, slot])
            if meta[NODES] < capacity:
                child = add_node(nodes, edges, proven, meta[NODES], node, slot)
                store_state(states, child, state)
                nodes[child, NODE_VISITS] = 1
                meta[NODES] += 1
            else:
                meta[FULL] += 1
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
        if node >= 0:  # ended at a finished node: count it, then back up from its edge
            nodes[node, NODE_VISITS] += 1
            leaf_parent, slot = nodes[node, PARENT], nodes[node, SLOT]
        backup(nodes, edges, values, root_scores, leaf_parent, slot, out, players)
    meta[SIMULATIONS] += done
    meta[RNG] = np.int64(rng)
    return done


def search_signature(state_type):
    """``_search``'s signature for a game's state type."""
    game = game_signatures(state_type)
    return types.int64(
        state_type, types.int64, types.float64, types.int64, types.int64,
        types.int32[:, ::1], types.int32[:, :, ::1], types.float64[:, ::1], types.float64[:, ::1],
        types.uint64[:, ::1], types.float64[::1], types.int64[::1],
        fn(game["legal_moves"]), fn(game["play"]), fn(game["to_move"]),
        fn(game["chance_probabilities"]), fn(game["returns"]), fn(game["rollout"]))


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


@lru_cache(maxsize=None)
def no_chance(state_type):
    """A ``chance_probabilities`` for games without chance nodes (never called)."""
    return kernel(game_signatures(state_type)["chance_probabilities"])(_no_chance)


@lru_cache(maxsize=None)
def no_rollout(state_type):
    """A ``rollout`` for games that use the kernel's RANDOM_ROLLOUT (never called)."""
    return kernel(game_signatures(state_type)["rollout"])(_no_rollout)

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Tunhell search in C over the engine (``kernels/tunhell.pxd``) and its determinizer
(``kernels/tunhell_sample.pxd``): determinized Monte Carlo rounds (PIMC) and single-observer
ISMCTS trees. Every loop runs without the GIL; Python drivers (``solver.tunhell_search``) run
them in threads, decide budgets and turn sums into estimates.

Outcomes. A finished game gives each seat its ``result`` share (1 a win, 1/k a win shared by k,
0 a loss) and its score margin: its points minus the best other seat's points.

Random streams. A round or a tree draws from splitmix64 words derived with :func:`stream_seed`
from the user's seed and its index, so its work depends on (seed, index) only: a fixed seed gives
the same answer whatever the thread count (PIMC) or for a fixed thread count (ISMCTS: one tree
per thread).

PIMC round r: one determinization of the observer's information set, then for every root
action: a copy of that deal, the action, a uniformly random playout. All actions of a round
share the deal and the first word of the playouts' choice stream (common random numbers: their
differences are less noisy than their values).

ISMCTS (Cowling, Powley, Whitehouse 2012, "SO-ISMCTS"): one tree of the observer's information
sets. Each iteration determinizes, descends from the root through the children whose actions are
legal in that deal (UCB1 with availability counts in place of the parent's visits), adds one
untried legal action as a new node, plays out at random and backs the outcome up: each node adds
the result and margin of the seat that played its action. Chance (draws, reshuffles, the Ghost)
is fixed by the deal, so a node is a sequence of actions, the draws it caused unseen in the keys.

Tree layout: ``Node`` records in one array, index 0 the root, allocated in creation order (one
per iteration at most); children form a singly linked list (``first_child`` ->
``next_sibling``, -1 ends it), keyed by (action code, mover). The array doubles when full
(``realloc``); if memory runs out the tree stops growing and iterations still run.
"""
from libc.math cimport log, sqrt
from libc.stdint cimport int8_t, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np

from kernels.tunhell cimport (
    MAX_ACTIONS, MAX_PLAYERS, GameState, TunhellEngine, action_t, apply_action, is_over,
    legal_actions, policy_playout, random_below, random_playout, result, scores, splitmix64)
from kernels.tunhell_sample cimport Sampler, StateSampler, determinize

cdef enum:
    MAX_DEPTH = 1024        # a descent stops here (a tree grows one node per iteration)
    NO_NODE = -1

cdef uint64_t MIX = 0x94D049BB133111EB


cdef inline void playout(GameState* s, uint64_t* rng, double epsilon) noexcept nogil:
    """The rollout: uniformly random actions (``epsilon`` < 0), or the heuristic policy of the
    engine (``policy_playout``: its best action, a random one with probability epsilon)."""
    if epsilon < 0:
        random_playout(s, rng)
    else:
        policy_playout(s, rng, epsilon)


cdef inline uint64_t stream_seed(uint64_t seed, uint64_t stream) noexcept nogil:
    """An independent generator word for ``stream`` of ``seed`` (kernels._random.stream_seed)."""
    cdef uint64_t word = seed ^ (stream * MIX)
    cdef uint64_t a = splitmix64(&word)
    word = a + stream
    return splitmix64(&word)


def stream_word(uint64_t seed, uint64_t stream):
    """:func:`stream_seed` for Python (tests compare it with ``kernels._random``)."""
    return stream_seed(seed, stream)


cdef void outcome(const GameState* s, double* share, double* margin) noexcept nogil:
    """Per seat of a finished game: its result share and its points minus the best other's."""
    cdef int points[MAX_PLAYERS]
    cdef int seat, other, best
    result(s, share)
    scores(s, points)
    for seat in range(s.players):
        best = -1000000
        for other in range(s.players):
            if other != seat and points[other] > best:
                best = points[other]
        margin[seat] = points[seat] - best


# --- PIMC ----------------------------------------------------------------------------------------

cdef void pimc_round(const Sampler* sampler, const action_t* actions, int count, int seat,
                     uint64_t seed, int64_t round_index, double* shares, double* margins,
                     double epsilon) noexcept nogil:
    """Round ``round_index``: one deal, every action played on it and rolled out at random;
    the seat's result share and margin per action."""
    cdef GameState deal, game
    cdef double share[MAX_PLAYERS]
    cdef double margin[MAX_PLAYERS]
    cdef uint64_t rng = stream_seed(seed, <uint64_t>round_index), policy, choices
    cdef int i
    determinize(sampler, &deal, &rng)
    policy = splitmix64(&rng)
    for i in range(count):
        game = deal
        apply_action(&game, actions[i])
        choices = policy
        playout(&game, &choices, epsilon)
        outcome(&game, share, margin)
        shares[i] = share[seat]
        margins[i] = margin[seat]


def pimc_rounds(StateSampler sampler, const uint32_t[::1] actions, int seat, uint64_t seed,
                int64_t first_round, double[:, ::1] shares, double[:, ::1] margins,
                double epsilon=-1.0):
    """Rounds ``first_round ..`` (one per row of ``shares``, shape (rounds, len(actions))) for
    seat ``seat``, whose legal actions in every deal are ``actions`` (codes, the observer's own
    decision). Fills ``shares`` and ``margins``; runs without the GIL. ``epsilon``: the
    rollouts (:func:`playout`; < 0: uniformly random)."""
    cdef int64_t rounds = shares.shape[0], r
    cdef int count = actions.shape[0]
    if shares.shape[1] != count or margins.shape[0] != rounds or margins.shape[1] != count:
        raise ValueError("shares and margins must be (rounds, actions) arrays")
    if count == 0 or count > MAX_ACTIONS:
        raise ValueError(f"1..{MAX_ACTIONS} actions, got {count}")
    _check_legal(sampler.sampler, actions)
    with nogil:
        for r in range(rounds):
            pimc_round(sampler.sampler, &actions[0], count, seat, seed, first_round + r,
                       &shares[r, 0], &margins[r, 0], epsilon)


cdef void _check_legal(const Sampler* sampler, const uint32_t[::1] actions) except *:
    """Every code must be a legal action of the sampler's base state: apply_action trusts its
    action (a forged code could name mine 3 or a card not held), and the observer's actions are
    the same in every state consistent with his view."""
    cdef action_t legal[MAX_ACTIONS]
    cdef int n = legal_actions(&sampler.base, legal), i
    allowed = {legal[i] for i in range(n)}
    for i in range(actions.shape[0]):
        if actions[i] not in allowed:
            raise ValueError(f"action code {actions[i]} is not legal in the sampled position")


# --- ISMCTS --------------------------------------------------------------------------------------

cdef struct Node:
    action_t action         # the action that led here from the parent
    int32_t first_child
    int32_t next_sibling
    int32_t visits
    int32_t available       # descents through the parent in which this action was legal
    int8_t mover            # the seat that played ``action``
    double share            # sums over visits of the mover's result share,
    double margin           #   of its score margin,
    double margin_squares   #   and of the margin's square


cdef struct Tree:
    Node* nodes
    int32_t size
    int32_t capacity
    double exploration      # UCB1's constant c: mean + c * sqrt(ln(available) / visits)
    double epsilon          # the rollouts (playout): < 0 uniformly random, else the policy's
    uint64_t rng


cdef bint grow(Tree* tree) noexcept nogil:
    """Room for one more node (doubling the array); False if memory ran out."""
    cdef Node* bigger
    if tree.size < tree.capacity:
        return True
    bigger = <Node*> realloc(tree.nodes, 2 * tree.capacity * sizeof(Node))
    if bigger == NULL:
        return False
    tree.nodes = bigger
    tree.capacity *= 2
    return True


cdef int32_t add_child(Tree* tree, int32_t parent, action_t action, int mover) noexcept nogil:
    cdef int32_t child
    cdef Node* node
    if not grow(tree):
        return NO_NODE
    child = tree.size
    tree.size += 1
    node = &tree.nodes[child]
    node.action = action
    node.mover = mover
    node.first_child = NO_NODE
    node.visits = 0
    node.available = 1
    node.share = node.margin = node.margin_squares = 0.0
    node.next_sibling = tree.nodes[parent].first_child
    tree.nodes[parent].first_child = child
    return child


cdef inline int32_t find_child(const Tree* tree, int32_t parent, action_t action, int mover
                               ) noexcept nogil:
    cdef int32_t child = tree.nodes[parent].first_child
    while child != NO_NODE:
        if tree.nodes[child].action == action and tree.nodes[child].mover == mover:
            return child
        child = tree.nodes[child].next_sibling
    return NO_NODE


cdef inline double ucb(const Tree* tree, int32_t child) noexcept nogil:
    cdef const Node* node = &tree.nodes[child]
    return (node.share / node.visits
            + tree.exploration * sqrt(log(<double>node.available) / node.visits))


cdef void ismcts_iteration(Tree* tree, const Sampler* sampler) noexcept nogil:
    cdef GameState game
    cdef action_t moves[MAX_ACTIONS]
    cdef int untried[MAX_ACTIONS]
    cdef int32_t path[MAX_DEPTH]
    cdef double share[MAX_PLAYERS]
    cdef double margin[MAX_PLAYERS]
    cdef int32_t node = 0, child, best
    cdef int depth = 1, count, tried, i, mover
    cdef double score, best_score
    cdef Node* visited
    path[0] = 0

    # Step 1. Determinize: a full state consistent with the observer's information set.
    determinize(sampler, &game, &tree.rng)

    # Step 2. Select: descend through children legal in this deal, counting their availability,
    # until a node has an untried legal action (Step 3) or the game ends.
    while not is_over(&game) and depth < MAX_DEPTH:
        count = legal_actions(&game, moves)
        if count == 0:      # no decision to take (not reachable by the rules): play out as is
            break
        mover = game.to_move
        tried = 0
        best = NO_NODE
        best_score = -1.0
        for i in range(count):
            child = find_child(tree, node, moves[i], mover)
            if child == NO_NODE:
                untried[tried] = i
                tried += 1
            else:
                tree.nodes[child].available += 1
                score = ucb(tree, child)
                if best == NO_NODE or score > best_score:
                    best, best_score = child, score

        # Step 3. Expand: one untried action, chosen at random, becomes a node.
        if tried:
            i = untried[random_below(&tree.rng, tried)]
            child = add_child(tree, node, moves[i], mover)
            apply_action(&game, moves[i])
            if child != NO_NODE:
                path[depth] = child
                depth += 1
            break
        apply_action(&game, tree.nodes[best].action)
        node = best
        path[depth] = node
        depth += 1

    # Step 4. Simulate: random actions, or the rollout policy, to the end of the game.
    playout(&game, &tree.rng, tree.epsilon)

    # Step 5. Back up: each node on the path gains the outcome of the seat that played into it.
    outcome(&game, share, margin)
    for i in range(1, depth):
        visited = &tree.nodes[path[i]]
        visited.visits += 1
        visited.share += share[visited.mover]
        visited.margin += margin[visited.mover]
        visited.margin_squares += margin[visited.mover] * margin[visited.mover]


cdef class IsmctsTree:
    """One ISMCTS tree for the observer of ``sampler`` (who must be the seat to move), grown by
    :meth:`run`; its random stream is ``stream_seed(seed, stream)``. ``capacity``: nodes
    allocated at first (the array doubles when full). ``epsilon``: the rollouts (< 0: uniformly
    random; else the engine's heuristic policy, a random action with probability epsilon)."""

    cdef Tree tree
    cdef StateSampler sampler
    cdef readonly int64_t iterations

    def __cinit__(self, StateSampler sampler, uint64_t seed, uint64_t stream=0,
                  double exploration=0.7, int capacity=4096, double epsilon=-1.0):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.sampler = sampler
        self.tree.nodes = <Node*> malloc(capacity * sizeof(Node))
        if self.tree.nodes == NULL:
            raise MemoryError()
        self.tree.capacity = capacity
        self.tree.size = 1
        self.tree.exploration = exploration
        self.tree.epsilon = epsilon
        self.tree.rng = stream_seed(seed, stream)
        self.tree.nodes[0].first_child = NO_NODE
        self.tree.nodes[0].next_sibling = NO_NODE
        self.tree.nodes[0].visits = 0
        self.iterations = 0

    def __dealloc__(self):
        free(self.tree.nodes)

    def run(self, int64_t iterations):
        """Grow the tree by ``iterations`` iterations, without the GIL."""
        cdef int64_t i
        with nogil:
            for i in range(iterations):
                ismcts_iteration(&self.tree, self.sampler.sampler)
        self.iterations += iterations

    @property
    def nodes(self):
        return self.tree.size

    def root_children(self):
        """The root's children as a structured numpy array, one row per action tried (creation
        order): ``action`` (code), ``visits``, ``available``, ``share``, ``margin``,
        ``margin_squares`` (sums over visits, for the observer)."""
        rows = []
        cdef int32_t child = self.tree.nodes[0].first_child
        cdef Node* node
        while child != NO_NODE:
            node = &self.tree.nodes[child]
            rows.append((node.action, node.visits, node.available, node.share, node.margin,
                         node.margin_squares))
            child = node.next_sibling
        return np.array(rows[::-1], dtype=ROOT_CHILD)


ROOT_CHILD = np.dtype([("action", np.uint32), ("visits", np.int64), ("available", np.int64),
                       ("share", np.float64), ("margin", np.float64),
                       ("margin_squares", np.float64)])

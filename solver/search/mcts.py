"""MCTS driver: trees, threads, time control and the answer. Game-agnostic: it drives
``kernels.mcts`` with a game's kernel functions (the contract is in that module's docstring).

Threads use root parallelism: each thread grows its own tree from the same root with its own
generator stream, and the root edges' statistics are summed at the end. With a simulation
budget, thread t runs a fixed share of the simulations, so a seed and a thread count always
give the same answer. A time budget runs batches until the deadline, so it is not reproducible.
"""
from __future__ import annotations

import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Callable, NamedTuple

import numpy as np

from kernels import _random
from kernels import mcts as k
from solver.errors import InputError
from solver.search.alphabeta import rules_fields

DEFAULT_C = math.sqrt(2)       # UCT exploration constant for rewards in [0, 1]
DEFAULT_SIMULATIONS = 100_000
DEFAULT_MEMORY_MB = 1024       # all trees together; a full tree keeps simulating without growing
FIRST_BATCH = 2_000            # simulations of the first timed batch (sizes the next ones)
BATCH_SECONDS = 0.02           # later timed batches aim at this long
SLICE_SIMULATIONS = 100_000    # a compiled call of a search without a deadline (about 0.1 s here)


class MctsGame(NamedTuple):
    """A game's compiled functions (signatures: ``kernels.mcts.game_signatures(state_type)``)
    and its shape. ``rollout=None``: the kernel plays uniformly random moves itself.
    ``chance_probabilities=None``: the game has no chance nodes. ``prior``: a preference of each
    move for progressive bias (``search(..., bias=W)``); None: the game has none."""

    state_type: object
    players: int
    max_moves: int
    legal_moves: Callable
    play: Callable
    to_move: Callable
    returns: Callable
    rollout: Callable | None = None
    chance_probabilities: Callable | None = None
    prior: Callable | None = None


@dataclass
class EdgeStats:
    """One root move: its simulations, the mover's mean reward and mean score over them, and
    its exact reward if the SOLVER proved it (None otherwise)."""

    visits: int
    mean_reward: float
    mean_score: float
    proven: float | None = None


@dataclass
class MctsResult:
    """The chosen root move and the root moves' statistics summed over the threads' trees: the
    one record an MCTS answer is. The driver fills in kernel move ids; a game renames the moves
    (``dataclasses.replace``) and says what was asked (``position``, ``rules``). ``proven``: the
    root's exact reward for its mover when the SOLVER proved it. ``seed`` and ``c``: the
    search's seed and UCT constant; ``bias`` the prior's weight (0: no progressive bias) and
    ``root_bias`` its weight at the root."""

    move: int
    moves: dict[int, EdgeStats]
    simulations: int
    seconds: float
    threads: int
    nodes: int
    max_depth: int
    proven: float | None = None
    seed: int = 0
    c: float = DEFAULT_C
    bias: float = 0.0
    root_bias: float = 0.0
    position: str = ""
    rules: object = None

    @property
    def simulations_per_second(self) -> float:
        return self.simulations / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict:
        """JSON-ready (a move never simulated has null means)."""
        return dict(position=self.position, **rules_fields(self.rules), move=self.move,
                    simulations=self.simulations, seconds=round(self.seconds, 6),
                    simulations_per_second=round(self.simulations_per_second),
                    threads=self.threads, seed=self.seed, c=self.c, nodes=self.nodes,
                    proven=self.proven,
                    moves=[dict(move=m, visits=s.visits, mean_reward=_number(s.mean_reward),
                                mean_score=_number(s.mean_score), proven=s.proven)
                           for m, s in self.moves.items()])


def _number(x: float) -> float | None:
    return None if math.isnan(x) else x


class Tree:
    """The arrays of one tree (layout in ``kernels/mcts.py``), and views for inspection:
    ``nodes[node, k.MOVER]`` (header columns), ``edges[node, k.EDGE_VISITS | k.CHILD, i]``."""

    def __init__(self, capacity: int, words: int, width: int, seed: int, priors: bool = False):
        # One zeroed block for the per-node arrays, carved into 64-byte aligned parts: numpy
        # asks the kernel for huge pages on a block this large, so the tree's random accesses
        # stay within the TLB's reach. Zeros, not empty: freshly mapped pages cost the same,
        # and unused cells stay defined. Without progressive bias the priors are one row the
        # kernel never reads.
        self.block = _Block([((capacity, k.record_width(width)), np.int32),
                             ((capacity, k.values_width(width)), np.float64),
                             ((capacity, width), np.int32), ((capacity, 2), np.float64),
                             ((capacity, words), np.uint64),
                             ((capacity if priors else 1, k.values_width(width)), np.float64)])
        self.record, self.values, self.moves, self.proven, self.states, self.priors = \
            self.block.parts
        self.root_scores = np.zeros(width, np.float64)
        self.meta = np.zeros(k.META_SIZE, np.int64)
        self.meta[k.RNG:k.RNG + 1] = np.array([seed], np.uint64).view(np.int64)
        self.nodes = self.record[:, :k.HEADER]
        item = self.record.itemsize
        self.edges = np.lib.stride_tricks.as_strided(
            self.record[:, k.HEADER:], shape=(capacity, 2, width),
            strides=(self.record.strides[0], width * item, item), writeable=False)

    def arrays(self):
        return (self.record, self.moves, self.values, self.priors, self.proven, self.states,
                self.root_scores, self.meta)

    @property
    def root_proven(self) -> bool:
        return self.meta[k.NODES] > 0 and self.proven_value(0) is not None

    def proven_value(self, node: int) -> float | None:
        """Seat 0's exact reward at ``node`` if the SOLVER proved it, else None."""
        stored = float(self.proven[node, k.PROVEN_VALUE])
        return stored - k.PROVEN_OFFSET if stored != 0.0 else None


class _Block:
    """Zeroed C-contiguous 2-D arrays of the given (shape, dtype) carved from one allocation,
    each starting on a 64-byte cache line (so rows of a multiple of 64 bytes are lines). The
    allocation is one a finished search kept (:func:`_keep_blocks`) when one is large enough."""

    def __init__(self, specs):
        offsets, end = [], 0
        for shape, dtype in specs:
            offsets.append(end)
            end += -(-shape[0] * shape[1] * np.dtype(dtype).itemsize // 64) * 64
        self.raw = _zeroed_bytes(end + 64)     # its whole allocation, perhaps longer
        start = -self.raw.ctypes.data % 64
        self.parts = [self.raw[start + at:start + at + shape[0] * shape[1] *
                               np.dtype(dtype).itemsize].view(dtype).reshape(shape)
                      for at, (shape, dtype) in zip(offsets, specs)]

    def clear(self, rows: int) -> None:
        """Zero the first ``rows`` rows of every part (a search writes no row past its nodes),
        so that the whole block is zero again."""
        for part in self.parts:
            part[:rows] = 0


# A tree's memory outlives its search, for the next one. A large tree's block is its own mapping
# of fresh pages, and touching fresh memory first can be dear: on the 2-core virtual machine of
# 4 Dec 2026, which gives freed memory back to its host, 0.25-0.3 s of page faults in a
# 2 M-simulation search (2.5 s) that followed a pause (benches/README.md, "Twelfth session").
# OpenSpiel's allocator keeps its freed nodes in its heap, as small blocks are kept by ours; this
# keeps the large ones too: the blocks of the last searches that finished, newest first, at most
# KEPT_BYTES_MAX together (release_memory() lets them go).
KEPT_BYTES_MAX = DEFAULT_MEMORY_MB << 20
_kept: list[np.ndarray] = []
_kept_lock = threading.Lock()


def _zeroed_bytes(size: int) -> np.ndarray:
    """At least ``size`` zeroed bytes: the smallest kept block that is large enough, else new
    ones."""
    with _kept_lock:
        fitting = [i for i, raw in enumerate(_kept) if raw.size >= size]
        if fitting:
            return _kept.pop(min(fitting, key=lambda i: _kept[i].size))
    return np.zeros(size, np.uint8)


def _keep_blocks(trees: list[Tree]) -> None:
    """Zero the finished trees' used rows and keep their blocks for the next search, then the
    blocks kept before that this search did not take, while they fit in KEPT_BYTES_MAX: searches
    of other sizes or thread counts in turn (two bots in one match) each find theirs again."""
    for tree in trees:
        tree.block.clear(int(tree.meta[k.NODES]))
    blocks = sorted((tree.block.raw for tree in trees), key=lambda r: r.size, reverse=True)
    with _kept_lock:
        kept, total = [], 0
        for raw in blocks + _kept:
            if total + raw.size <= KEPT_BYTES_MAX:
                kept.append(raw)
                total += raw.size
        _kept[:] = kept


def release_memory() -> None:
    """Let go of the memory kept from the last searches (it is kept for the next ones)."""
    with _kept_lock:
        _kept.clear()


def tree_capacity(game: MctsGame, state, threads: int, simulations: int | None,
                  memory_mb: int, priors: bool = False) -> int:
    """Nodes per tree: one per simulation at most, within the memory budget."""
    per_node = k.bytes_per_node(len(state), game.max_moves, priors)
    limit = max(2, int(memory_mb * (1 << 20) / (threads * per_node)))
    if simulations is None:
        return limit
    return max(2, min(limit, -(-simulations // threads) + 1))


def search(game: MctsGame, state, *, simulations: int | None = None,
           seconds: float | None = None, threads: int = 1, seed: int = 0, c: float = DEFAULT_C,
           solver: bool = False, memory_mb: int = DEFAULT_MEMORY_MB,
           bias: float = 0.0, root_bias: float | None = None) -> MctsResult:
    """Grow ``threads`` trees from ``state`` (a decision node, game not over) for
    ``simulations`` in all and/or ``seconds`` (whichever ends first; neither:
    DEFAULT_SIMULATIONS), and choose a move. ``c``: UCT exploration constant. ``solver``:
    MCTS-Solver backups (2-player games), which stop a tree once its root is proven.
    ``bias`` > 0: progressive bias by the game's ``prior`` with this weight (kernels.mcts,
    option PRIOR; not with the solver), ``root_bias`` at the root (None: ``bias``); both 0
    leave the search exactly as without a prior."""
    root_bias = bias if root_bias is None else root_bias
    trees, elapsed = grow_trees(game, state, simulations=simulations, seconds=seconds,
                                threads=threads, seed=seed, c=c, solver=solver,
                                memory_mb=memory_mb, bias=bias, root_bias=root_bias)
    found = summarize(trees, elapsed)
    _keep_blocks(trees)
    return replace(found, seed=seed, c=c, bias=bias, root_bias=root_bias)


def grow_trees(game: MctsGame, state, *, simulations: int | None = None,
               seconds: float | None = None, threads: int = 1, seed: int = 0,
               c: float = DEFAULT_C, solver: bool = False,
               memory_mb: int = DEFAULT_MEMORY_MB, bias: float = 0.0,
               root_bias: float | None = None) -> tuple[list[Tree], float]:
    """The trees :func:`search` grows (for inspection), and the seconds they took."""
    root_bias = bias if root_bias is None else root_bias
    if simulations is None and seconds is None:
        simulations = DEFAULT_SIMULATIONS
    _check_budget(simulations, seconds, threads)
    _check_game(game, state, solver)
    _check_bias(game, bias, solver)
    _check_bias(game, root_bias, solver)
    run = bind_kernel(game, state, c, solver, bias, root_bias)
    priors = bias > 0 or root_bias > 0
    capacity = tree_capacity(game, state, threads, simulations, memory_mb, priors)
    trees = [Tree(capacity, len(state), game.max_moves,
                  int(_random.stream_seed(np.uint64(seed), np.uint64(t))), priors)
             for t in range(threads)]
    shares = _shares(simulations, threads)
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    if threads == 1:
        _grow(run, trees[0], shares[0], deadline)
    else:               # this thread grows tree 0, kept threads the others
        others = [_helpers(threads - 1).submit(_grow, run, trees[t], shares[t], deadline)
                  for t in range(1, threads)]
        _grow(run, trees[0], shares[0], deadline)
        for other in others:
            other.result()
    return trees, time.perf_counter() - start


_helper_pool: ThreadPoolExecutor | None = None
_helper_size = 0
_helper_lock = threading.Lock()


def _helpers(count: int) -> ThreadPoolExecutor:
    """A pool of at least ``count`` threads kept for the process: starting threads for every
    search cost milliseconds, as much as thousands of simulations, on a busy machine."""
    global _helper_pool, _helper_size
    with _helper_lock:
        if _helper_size < count:
            old, _helper_pool = _helper_pool, ThreadPoolExecutor(count, "mcts-tree")
            _helper_size = count
            if old is not None:
                old.shutdown(wait=False)
        return _helper_pool


def _check_budget(simulations: int | None, seconds: float | None, threads: int) -> None:
    if simulations is not None and simulations < 1:
        raise ValueError(f"simulations must be at least 1, got {simulations}")
    if seconds is not None and seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")


def _check_game(game: MctsGame, state, solver: bool) -> None:
    """The kernel's preconditions, as errors rather than undefined behaviour."""
    if solver and game.players != 2:
        raise ValueError("the MCTS-Solver needs a 2-player game")
    count = game.legal_moves(state, np.empty(max(game.max_moves, 256), np.int64))
    if count == 0:
        raise ValueError("the game is over: there is no move to search")
    if count > game.max_moves:
        raise ValueError(f"{count} legal moves, but the game declares at most {game.max_moves}")
    if game.to_move(state) == k.CHANCE:
        raise ValueError("the root must be a decision node, not a chance node")


def _check_bias(game: MctsGame, bias: float, solver: bool) -> None:
    if not bias >= 0 or math.isinf(bias):
        raise ValueError(f"the prior's weight must be a finite number >= 0, got {bias}")
    if bias > 0 and game.prior is None:
        raise ValueError("progressive bias needs a game with a prior")
    if bias > 0 and solver:
        raise ValueError("progressive bias and the MCTS-Solver do not go together")


def bind_kernel(game: MctsGame, state, c: float, solver: bool, bias: float = 0.0,
                root_bias: float = 0.0):
    """``run(tree, simulations) -> simulations run``: the compiled kernel with the game bound."""
    kernel = k.search_kernel(game.state_type)
    biased = bias > 0 or root_bias > 0
    options = (k.SOLVER if solver else 0) | (k.RANDOM_ROLLOUT if game.rollout is None else 0) | \
        (k.PRIOR if biased else 0)
    chance = game.chance_probabilities or k.no_chance(game.state_type)
    rollout = game.rollout or k.no_rollout(game.state_type)
    prior = game.prior if biased else k.no_prior(game.state_type)
    functions = (game.legal_moves, game.play, game.to_move, chance, game.returns, rollout, prior)

    def run(tree: Tree, simulations: int) -> int:
        return kernel(state, simulations, float(c), float(bias), float(root_bias), game.players,
                      options, *tree.arrays(), uct_table(), *functions)
    return run


# The kernel's table of functions of visit counts (``kernels.mcts.uct_table``): 4,096 rows,
# 128 KB, stay in the caches beside the tree; larger counts are computed, to the same bits. A
# table to 131,072 rows (4 MB) missed the caches on the rows of large counts: with it MCTS from
# the Kalah start ran 4-5 % slower at 100 k and at 2 M simulations (benches/README.md).
UCT_TABLE_ROWS = 1 << 12
_uct_table = None


def uct_table() -> np.ndarray:
    """The one UCT table of the process, built on first use."""
    global _uct_table
    if _uct_table is None:
        _uct_table = k.uct_table(UCT_TABLE_ROWS)
    return _uct_table


def _shares(simulations: int | None, threads: int) -> list[int | None]:
    """Each thread's fixed part of the simulation budget (the first threads take the rest)."""
    if simulations is None:
        return [None] * threads
    base, rest = divmod(simulations, threads)
    return [base + (t < rest) for t in range(threads)]


def _grow(run, tree: Tree, simulations: int | None, deadline: float | None) -> None:
    """Run one tree's share: in slices of SLICE_SIMULATIONS without a deadline (the kernel
    resumes where it stopped, so the tree is the one a single call grows, and Ctrl-C, which
    Python handles only between calls, ends a long search within a slice), else in timed
    batches."""
    if deadline is None:
        left = simulations
        while left > 0:
            asked = min(SLICE_SIMULATIONS, left)
            done = run(tree, asked)
            left -= done
            if done < asked:        # stopped early (a proven root): as one call would
                return
        return
    left = math.inf if simulations is None else simulations
    batch = FIRST_BATCH
    while left > 0 and not tree.root_proven:
        began = time.perf_counter()
        if began >= deadline:
            break
        done = run(tree, int(min(batch, left)))
        left -= done
        spent = time.perf_counter() - began
        rate = done / spent if spent > 0 else 1e6
        batch = max(100, int(rate * min(BATCH_SECONDS, max(deadline - time.perf_counter(), 0))))
        if done == 0:
            break


def summarize(trees: list[Tree], elapsed: float) -> MctsResult:
    """Sum the root edges over the trees and choose the move. A tree whose budget share was too
    small to expand its root adds nothing (its edges are zero)."""
    first = next((t for t in trees if int(t.nodes[0, k.MOVES]) > 0), None)
    if first is None:
        raise InputError("no simulation reached the root's moves: give a larger budget")
    count = int(first.nodes[0, k.MOVES])
    moves = [int(m) for m in first.moves[0, :count]]
    visits = sum(t.edges[0, k.EDGE_VISITS, :count].astype(np.int64) for t in trees)
    rewards = sum(t.values[0, :count] for t in trees)
    scores = sum(t.root_scores[:count] for t in trees)
    root_seat = int(first.nodes[0, k.MOVER])
    stats = {}
    for i, move in enumerate(moves):
        n = int(visits[i])
        stats[move] = EdgeStats(visits=n, mean_reward=float(rewards[i] / n) if n else math.nan,
                                mean_score=float(scores[i] / n) if n else math.nan,
                                proven=_proven_edge(trees, i, root_seat))
    proven = next((_for_seat(t.proven_value(0), root_seat) for t in trees
                   if t.root_proven), None)
    return MctsResult(move=choose_move(stats, proven), moves=stats,
                      simulations=int(sum(t.meta[k.SIMULATIONS] for t in trees)),
                      seconds=elapsed, threads=len(trees),
                      nodes=int(sum(t.meta[k.NODES] for t in trees)),
                      max_depth=int(max(t.meta[k.MAX_DEPTH] for t in trees)), proven=proven)


def _for_seat(value_of_seat0: float, seat: int) -> float:
    return float(value_of_seat0 if seat == 0 else 1.0 - value_of_seat0)


def _proven_edge(trees: list[Tree], slot: int, seat: int) -> float | None:
    """The exact reward for the root mover of root edge ``slot``, if some tree proved it."""
    for tree in trees:
        child = int(tree.edges[0, k.CHILD, slot]) if tree.nodes[0, k.MOVES] > slot else -1
        if child >= 0 and tree.proven_value(child) is not None:
            return _for_seat(tree.proven_value(child), seat)
    return None


def choose_move(stats: dict[int, EdgeStats], proven: float | None) -> int:
    """A proven root: a move that achieves its value. Otherwise the most visited move (then the
    best mean), leaving out proven losses while another move remains."""
    if proven is not None:
        achieving = [m for m, s in stats.items() if s.proven == proven]
        if achieving:
            return max(achieving, key=lambda m: (stats[m].visits, stats[m].mean_reward))
    candidates = [m for m, s in stats.items() if s.proven != 0.0] or list(stats)
    return max(candidates, key=lambda m: (stats[m].visits, stats[m].mean_reward))

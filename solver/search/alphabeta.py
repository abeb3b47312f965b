"""Alpha-beta driver: iterative deepening, time control, exact solving (MTD(f)), principal
variation. Game-agnostic: it drives the search kernels of a :class:`Backend` with a game's
kernel functions: by default ``kernels.alphabeta``'s generic ones (Numba), which take the game's
functions as arguments; or kernels compiled for one game (``kernels/mancala_ab.pyx``, Cython),
which need no Numba and so start in milliseconds. Numba is imported only when a search runs on
its backend.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache
from typing import Callable, NamedTuple

import numpy as np

from kernels import alphabeta_layout as ab
from kernels.contract import EXTRA_TURN, GAME_OVER

DEFAULT_TABLE_MB = 256
# A large transposition table is searched first in its first part, which grows as the search
# does (first_entries).
TABLE_FIRST_PART = 64             # the first part: 1/64 of the table
TABLE_ENTRIES_PER_NODE = 1        # doubled while it holds fewer entries than nodes searched
# The stats slots each thread keeps for itself (a helper takes the rest from the main scratch).
COUNTERS = [ab.NODES, ab.TABLE_HITS, ab.EXPANDED]


def first_entries(table: np.ndarray) -> int:
    """How many of ``table``'s entries a new search uses: a table of POPULATED_TABLE_BYTES or
    more starts in its first 1/TABLE_FIRST_PART, which doubles between kernel calls (the
    backend's ``grow_table`` moves every entry to its bucket in the larger part: nothing is
    lost) while it holds fewer than TABLE_ENTRIES_PER_NODE entries for each node searched; a
    long call is cut where the part is due to grow and goes on after. A smaller table is used
    whole. A 1 GiB table is whole after 16 M nodes (about 3 s).

    Why: a large table's memory is faulted in on a helper thread while the search starts
    (``kernels.alphabeta_layout.new_table``), from its first byte on, and a search over the
    whole table waits for every page it touches first (its first thousand nodes touch all of
    them); the first part is ready almost at once. On the 2-core virtual machine of 4 Dec
    2026, `solver best mancala --exact --table-mb 1024` from five Kalah(6,4) positions, 9
    cases with and without endgame tables, each interleaved 3 times with the whole table from
    the start: median time ratio 0.84 (0.66 to 1.21). The wait for fresh pages (wall minus CPU
    time of the search) fell from 0.8-1.4 s to about 0.1 s, a third of a 4 s solve and little
    of a 45 s one; the node counts changed by -18 % to +22 % (a smaller table keeps other
    entries), which is the rest of the spread (benches/README.md, "Fifteenth session"). The
    part in use depends only on the node count at each call, so a one-thread search's nodes
    are the same from run to run."""
    if table.nbytes < ab.POPULATED_TABLE_BYTES:
        return len(table)
    return max(len(table) // TABLE_FIRST_PART, 2)


class Backend(NamedTuple):
    """The search kernels a driver calls, with ``kernels.alphabeta``'s signatures less the
    game's functions: ``search(state, depth, alpha, beta, ply, bucket, *context)``,
    ``prove(state, guess, *context)``, ``exact_line(state, value, line, *context)``,
    ``table_move(state, mask0, mask1, tt)`` and ``grow_table(tt, entries)``, where
    ``context(game, mask0, mask1, tt, work, tables)`` is what follows the first arguments:
    with the game's five search functions in front for the generic kernels, only the table and
    scratch for kernels compiled for one game. ``probes_tables``: the kernels can look
    endgame tables up."""

    name: str
    search: Callable
    prove: Callable
    exact_line: Callable
    table_move: Callable
    grow_table: Callable
    context: Callable
    probes_tables: bool


@cache
def numba_backend() -> Backend:
    """The generic Numba kernels (``kernels.alphabeta``); importing them imports Numba."""
    from kernels import alphabeta as kernel

    def with_game_functions(game, mask0, mask1, tt, work, tables):
        return (game.expand, game.bounds, game.evaluate, game.score, game.probe, mask0, mask1,
                tt, work, tables)

    return Backend("numba", kernel.search, kernel.prove, kernel.exact_line, kernel._table_move,
                   kernel.grow_table, with_game_functions, True)


class KernelGame(NamedTuple):
    """A game's compiled functions (the contract is in ``kernels/alphabeta.py``): the first five
    go into the search kernel; ``key_mask`` gives the table-key bits (the same for every state
    reachable from the one asked about); ``play`` and ``legal_moves`` serve this driver.
    ``backend``: the search kernels that take these functions (None: :func:`numba_backend`);
    kernels compiled for one game come with that game's functions from the same module."""

    expand: Callable
    bounds: Callable
    evaluate: Callable
    score: Callable
    probe: Callable
    key_mask: Callable
    play: Callable
    legal_moves: Callable
    backend: Backend | None = None


@dataclass
class SearchResult:
    """What a search found, and the one record a game's ``best_move`` answers with: the driver
    fills in kernel move ids, and the game renames the moves (``dataclasses.replace``) and says
    what was asked (``position``, ``rules``) before handing the same record to the user.

    ``value``: side to move's view (for Mancala the final store difference, current stores
    included). ``exact``: the value is proven. ``depth``: plies of the last completed iteration
    (None when exact by a solve). ``moves``: {move: value} for every legal move, when asked.
    ``table_levels``: endgame-table levels 1..table_levels were probed (0: none);
    ``table_build_seconds``: the time spent computing them in memory first (None: none built).
    A proof (``solver.games.mancala.proof``) also gives the bounds proven for the value and,
    with ``moves``, for each move (equal once proven), and why it stopped early (``stopped``;
    None: finished, then ``value`` is exact, else ``value`` and ``move`` are None)."""

    move: int | None
    value: int
    exact: bool
    depth: int | None
    pv: list[int]
    nodes: int
    seconds: float
    moves: dict[int, int] | None = None
    expanded: int = 0     # of ``nodes``, the positions whose moves were generated
    iterations: list[tuple[int, int, int, float]] = field(default_factory=list)
    table_hits: int = 0
    position: str = ""
    rules: object = None
    table_levels: int = 0
    lower: int | None = None
    upper: int | None = None
    move_bounds: dict[int, tuple[int, int]] | None = None
    stopped: str | None = None
    table_build_seconds: float | None = None

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def proof(self) -> bool:
        return self.lower is not None

    def to_dict(self) -> dict:
        out = dict(position=self.position, **rules_fields(self.rules), move=self.move,
                   value=self.value, exact=self.exact, depth=self.depth, pv=self.pv,
                   nodes=self.nodes, expanded=self.expanded, seconds=round(self.seconds, 6),
                   nodes_per_second=round(self.nodes_per_second),
                   table_levels=self.table_levels, table_hits=self.table_hits,
                   table_build_seconds=rounded_seconds(self.table_build_seconds))
        if self.proof:
            out.update(lower=self.lower, upper=self.upper, finished=self.stopped is None,
                       stopped=self.stopped)
        if self.moves is not None:
            out["moves"] = [dict(move=m, value=v) for m, v in self.moves.items()]
            if self.move_bounds is not None:
                for entry in out["moves"]:
                    entry["lower"], entry["upper"] = self.move_bounds[entry["move"]]
        return out


def rounded_seconds(seconds: float | None) -> float | None:
    """Seconds as a JSON answer gives them (to the millisecond; None stays None)."""
    return None if seconds is None else round(seconds, 3)


def rules_fields(rules) -> dict:
    """A rules record's fields for a JSON answer ({} when the caller named no rules)."""
    if rules is None or not is_dataclass(rules):
        return {}
    return {f.name: getattr(rules, f.name) for f in fields(rules)}


class EndgameTables(NamedTuple):
    """Exact values the search looks up instead of searching: ``data`` and ``offsets`` as the
    game's probe takes them, tried wherever the game's swing is at most ``max_swing``."""

    data: np.ndarray
    offsets: np.ndarray
    max_swing: int


class AlphaBeta:
    """One search context: a transposition table and scratch arrays reused across searches,
    and optionally endgame tables probed at the leaves.

    ``threads`` > 1 (the Cython kernels only): exact proofs (:meth:`prove`,
    :meth:`prove_within`) run each MTD(f) pass on that many threads sharing the table, each
    with its own scratch. Every thread searches the same move order; what splits the work is
    that a thread leaves a child another is searching until its other children are done
    (ABDADA's deferral; helpers starting on other root moves searched more nodes,
    benches/README.md). The first thread to finish a pass settles it. Entries then carry a
    check word, so a thread never reads another's half-written entry. Values are the same as on one thread; the node
    count, and which of several optimal moves is named, vary from run to run. Other searches
    run on one thread."""

    def __init__(self, game: KernelGame, table_mb: int = DEFAULT_TABLE_MB,
                 tables: EndgameTables | None = None, threads: int = 1):
        self.game = game
        self.backend = game.backend or numba_backend()
        if tables is not None and not self.backend.probes_tables:
            raise ValueError(f"the {self.backend.name} search kernels probe no endgame tables")
        if threads < 1 or (threads > 1 and self.backend.name != "cython"):
            raise ValueError(f"threads must be 1, or more on the Cython kernels; got {threads} "
                             f"on the {self.backend.name} ones")
        self.table = ab.new_table(table_mb)
        self._in_use = first_entries(self.table)
        self.work = ab.new_workspace()
        self.stats = ab.stats_of(self.work)
        self.tables_data = np.zeros(0, np.int8)
        self.stats[ab.PROBE_MAX] = -1
        if tables is not None:
            room = self.work.shape[1] - ab.TABLE_OFFSETS
            if len(tables.offsets) > room:
                raise ValueError(f"at most {room - 2} table levels fit the workspace")
            self.work[ab.MAX_PLY, ab.TABLE_OFFSETS:ab.TABLE_OFFSETS + len(tables.offsets)] = \
                tables.offsets
            self.tables_data = tables.data
            self.stats[ab.PROBE_MAX] = tables.max_swing
            self.stats[ab.ETC_SWING] = ab.ETC_OFF_SWING
        self._scratch = np.zeros(ab.MAX_MOVES, np.int64)
        self.helpers = [ab.new_workspace() for _ in range(threads - 1)]
        self.busy = np.zeros(ab.BUSY_ENTRIES, np.uint64)   # the big subtrees threads are in
        self._stopped = False
        if self.helpers:
            self.stats[ab.OPTIONS] |= ab.SHARED_TABLE   # every entry gets its check word

    @property
    def tt(self) -> np.ndarray:
        """The part of the transposition table in use (all of it once grown: see
        :func:`first_entries`)."""
        return self.table[:self._in_use]

    @tt.setter
    def tt(self, table: np.ndarray) -> None:
        """Search in ``table`` (a power-of-two count of entries), all of it from the start."""
        self.table, self._in_use = table, len(table)

    def clear_table(self) -> None:
        """Empty the transposition table, which grows again from its first part."""
        self.table[:] = 0
        self._in_use = first_entries(self.table)

    def _grow_table(self) -> None:
        """Between kernel calls: double the part in use while it holds fewer than
        TABLE_ENTRIES_PER_NODE entries for each node searched so far (:func:`first_entries`)."""
        nodes = self.nodes
        while self._in_use < len(self.table) and \
                self._in_use < TABLE_ENTRIES_PER_NODE * nodes:
            self.backend.grow_table(self.table, self._in_use)
            self._in_use *= 2

    def _cut_for_growth(self, node_limit: int | None) -> tuple[int | None, bool]:
        """Grow the table as due, then the node limit of the next kernel call: ``node_limit``,
        or sooner, where the part in use is next due to grow (then True: a search stopped there
        goes on after growing it, so that no long call keeps a small table)."""
        self._grow_table()
        if self._in_use >= len(self.table):
            return node_limit, False
        due = int(self._in_use // TABLE_ENTRIES_PER_NODE)    # the call stops at due + 1 nodes
        if node_limit is not None and node_limit <= due:
            return node_limit, False
        return due, True

    @property
    def threads(self) -> int:
        return 1 + len(self.helpers)

    def _workspaces(self):
        return [self.work, *self.helpers]

    # --- kernel calls -----------------------------------------------------------------------

    def _game_args(self, state, work=None):
        mask0, mask1 = self.game.key_mask(state)
        return self.backend.context(self.game, mask0, mask1, self.tt,
                                    self.work if work is None else work, self.tables_data)

    def _reset_limits(self, node_limit=None):
        self._grow_table()
        self.stats[ab.ABORTED] = 0
        self.stats[ab.NODE_LIMIT] = ab.NODE_LIMIT_NONE if node_limit is None else node_limit

    def stop(self) -> None:
        """Abort the search running in another thread at its next node, as its node limit
        would (the kernels run without the GIL and read the limit at every node)."""
        self._stopped = True
        for work in self._workspaces():
            ab.stats_of(work)[ab.NODE_LIMIT] = -1

    def _check_depth(self):
        for work in self._workspaces():
            stats = ab.stats_of(work)
            if stats[ab.ABORTED] and stats[ab.MAX_PLY_SEEN] >= ab.MAX_PLY - 1:
                raise RuntimeError(f"search went deeper than {ab.MAX_PLY} plies")

    def _search(self, state, depth, alpha, beta, node_limit=None) -> int | None:
        """Value within (alpha, beta), or None if the node limit or stop() stopped the search.
        A search stopped only for the table to grow starts again (its work is in the table);
        the heuristic leaves counted are the last start's, as if it had run once."""
        self._stopped = False
        while True:
            limit, for_growth = self._cut_for_growth(node_limit)
            self._reset_limits(limit)
            heuristic_before = int(self.stats[ab.HEURISTIC_LEAVES])
            value = self.backend.search(state, depth, alpha, beta, 0, -1,
                                        *self._game_args(state))
            self._check_depth()
            if not self.stats[ab.ABORTED]:
                return int(value)
            if not for_growth or self._stopped:
                return None
            self.stats[ab.HEURISTIC_LEAVES] = heuristic_before

    @property
    def nodes(self) -> int:
        return sum(int(ab.stats_of(work)[ab.NODES]) for work in self._workspaces())

    @property
    def expanded(self) -> int:
        """Positions whose moves the search generated so far (``nodes`` also counts those
        answered at once by bounds, tables or the transposition table, and finished games)."""
        return sum(int(ab.stats_of(work)[ab.EXPANDED]) for work in self._workspaces())

    @property
    def table_hits(self) -> int:
        """Positions valued by the endgame tables so far."""
        return sum(int(ab.stats_of(work)[ab.TABLE_HITS]) for work in self._workspaces())

    def legal_moves(self, state) -> list[int]:
        count = self.game.legal_moves(state, self._scratch)
        return [int(m) for m in self._scratch[:count]]

    # --- exact ------------------------------------------------------------------------------

    def prove(self, state, guess: int = 0) -> tuple[int, int | None]:
        """The exact value of ``state`` (MTD(f) from ``guess``) and a move achieving it (None
        once the game is over)."""
        value, move, _, _ = self._prove(state, guess, None)
        self._check_depth()
        return int(value), (None if move < 0 else int(move))

    def prove_within(self, state, node_limit: int, guess: int = 0) -> tuple[int, int]:
        """MTD(f) stopped after about ``node_limit`` more nodes: the (lower, upper) bounds on
        the exact value proven by then (equal when it finished)."""
        value, move, lower, upper = self._prove(state, guess, self.nodes + node_limit)
        self._check_depth()
        if move != ab.ABORTED_MOVE:
            return int(value), int(value)
        banked, swing = self.game.bounds(state)
        return int(max(lower, banked - swing)), int(min(upper, banked + swing))

    def _prove(self, state, guess, node_limit):
        """The kernel's prove (value, move, lower, upper), or MTD(f) on every thread. A proof
        stopped only for the table to grow goes on from the bounds it proved (as
        ``proof.prove_game`` does between its slices)."""
        if self.helpers:
            return self._prove_on_threads(state, guess, node_limit)
        self._stopped = False
        lower, upper = -ab.INFINITY, ab.INFINITY
        while True:
            limit, for_growth = self._cut_for_growth(node_limit)
            self._reset_limits(limit)
            value, move, low, high = self.backend.prove(state, guess, *self._game_args(state))
            self._check_depth()
            lower, upper = max(lower, int(low)), min(upper, int(high))
            if move != ab.ABORTED_MOVE or not for_growth or self._stopped:
                return value, move, lower, upper
            guess = min(max(guess, lower), upper)

    def _prove_on_threads(self, state, guess, node_limit):
        """kernels' prove, each null-window pass run by all threads (class docstring)."""
        lower, upper, value, best = -ab.INFINITY, ab.INFINITY, guess, ab.NO_MOVE
        self._stopped = False
        while lower < upper:
            beta = value + 1 if value == lower else value
            settled = self._pass_on_threads(state, beta, node_limit)
            if settled is None:
                return 0, ab.ABORTED_MOVE, lower, upper
            value, move = settled
            if value >= beta:
                lower, best = value, move
            else:
                upper = value
        if best < 0:    # decided without trying a move (bounds): ask one thread for a move
            self._reset_limits()
            self.backend.search(state, ab.EXACT, value - 1, value, 0, -1, *self._game_args(state))
            best = int(self.stats[ab.ROOT_MOVE])
            if best < 0:
                moves = self.legal_moves(state)
                best = moves[0] if moves else ab.NO_MOVE
        return value, best, lower, upper

    def _pass_on_threads(self, state, beta, node_limit) -> tuple[int, int] | None:
        """One null-window search of the root at ``beta`` on every thread; the first to finish
        stops the others. (value, root move), or None if the node limit or stop() ended it. A
        pass stopped only for the table to grow (between passes: the threads share it) starts
        again."""
        while True:
            limit, for_growth = self._cut_for_growth(node_limit)
            settled = self._one_pass_on_threads(state, beta, limit)
            if settled is not None or not for_growth or self._stopped:
                return settled

    def _one_pass_on_threads(self, state, beta, node_limit) -> tuple[int, int] | None:
        workspaces = self._workspaces()
        share = None if node_limit is None else max(1, (node_limit - self.nodes) //
                                                    len(workspaces))
        for k, work in enumerate(workspaces):
            stats = ab.stats_of(work)
            if k:       # a helper: the main scratch's history and settings, its own counters
                counters = stats[COUNTERS].copy()
                work[ab.MAX_PLY] = self.work[ab.MAX_PLY]
                stats[COUNTERS] = counters
            stats[ab.ABORTED] = 0
            stats[ab.NODE_LIMIT] = ab.NODE_LIMIT_NONE if share is None else stats[ab.NODES] + share
        if self._stopped:
            return None
        settled, errors, lock = [], [], threading.Lock()

        def run(work):
            stats = ab.stats_of(work)
            try:
                value = self.backend.search(state, ab.EXACT, beta - 1, beta, 0, -1,
                                            *self._game_args(state, work), busy=self.busy)
            except BaseException as error:      # handed to the calling thread
                errors.append(error)
                return
            with lock:
                if not stats[ab.ABORTED] and not settled:
                    settled.append((int(value), int(stats[ab.ROOT_MOVE])))
                    for other in workspaces:    # the pass is settled: stop the others
                        if other is not work:
                            ab.stats_of(other)[ab.NODE_LIMIT] = -1

        helpers = [threading.Thread(target=run, args=(work,), name=f"alphabeta-helper-{k}",
                                    daemon=True) for k, work in enumerate(self.helpers, 1)]
        for helper in helpers:
            helper.start()
        run(self.work)
        for helper in helpers:
            helper.join()
        if errors:
            raise errors[0]
        return settled[0] if settled else None

    def move_value(self, state, move, depth: int | None = None) -> int:
        """Value, from the side to move's view, of playing ``move``: exact, or with ``depth``
        searched that many sowings deep counting the move itself."""
        child, info = self.game.play(state, move)
        same_side = info & EXTRA_TURN
        if info & GAME_OVER:
            value = self.game.score(child)
        elif depth is None:
            value, _ = self.prove(child)
        else:
            value = self._search(child, depth - 1, -ab.INFINITY, ab.INFINITY)
        return int(value if same_side else -value)

    def exact_pv(self, state, value, limit=200) -> list[int]:
        """A line of optimal moves to the end of the game: at each step a move whose child
        keeps the proven value."""
        line = np.zeros(limit, np.int64)
        self._reset_limits()
        length = self.backend.exact_line(state, value, line, *self._game_args(state))
        self._check_depth()
        return [int(m) for m in line[:length]]

    def _tt_move(self, state) -> int | None:
        mask0, mask1 = self.game.key_mask(state)
        move = int(self.backend.table_move(state, mask0, mask1, self.tt))
        return None if move < 0 else move

    def tt_pv(self, state, limit) -> list[int]:
        """The line of best moves stored in the table (depth-limited searches)."""
        line = []
        while len(line) < limit:
            move = self._tt_move(state)
            if move is None or move not in self.legal_moves(state):
                break
            line.append(move)
            state, info = self.game.play(state, move)
            if info & GAME_OVER:
                break
        return line

    # --- the searches users ask for ---------------------------------------------------------

    def solve(self, state, all_moves=False) -> SearchResult:
        """Prove the value: a short iterative deepening for a guess and move order, then MTD(f)."""
        start, nodes_before, expanded_before = time.perf_counter(), self.nodes, self.expanded
        value, move = self.prove(state, self.first_guess(state))
        moves = self._all_move_values(state) if all_moves else None
        pv = self.exact_pv(state, value)
        return SearchResult(move=move if move is not None else None, value=value, exact=True,
                            depth=None, pv=pv, nodes=self.nodes - nodes_before,
                            expanded=self.expanded - expanded_before,
                            seconds=time.perf_counter() - start, moves=moves,
                            table_hits=self.table_hits)

    def first_guess(self, state, max_depth: int = 10) -> int:
        """A guess at the exact value for MTD(f) to start from: a short iterative deepening
        (it also fills the table's move order). Thousands of nodes; starting from 0 instead
        cost up to 1.8x the nodes on Kalah(4,5)."""
        guess = 0
        for depth in range(2, max_depth + 2, 2):
            guess = self._search(state, depth, -ab.INFINITY, ab.INFINITY)
        return guess

    def _all_move_values(self, state, depth: int | None = None) -> dict[int, int]:
        return {move: self.move_value(state, move, depth) for move in self.legal_moves(state)}

    def iterate(self, state, max_depth=None, seconds=None, all_moves=False) -> SearchResult:
        """Iterative deepening to ``max_depth`` plies or for about ``seconds``; stops early once
        an iteration proves the value (it used no heuristic leaf)."""
        start, nodes_before, expanded_before = time.perf_counter(), self.nodes, self.expanded
        deadline = None if seconds is None else start + seconds
        best_move, value, completed, exact = None, 0, 0, False
        iterations = []
        depth = 0
        while max_depth is None or depth < max_depth:
            depth += 1
            if depth >= ab.EXACT:
                break
            node_limit = None
            if deadline is not None:
                elapsed = time.perf_counter() - start
                rate = (self.nodes - nodes_before) / elapsed if elapsed > 1e-3 else 2e6
                node_limit = self.nodes + max(1000, int(rate * (deadline - time.perf_counter())))
            heuristic_before = int(self.stats[ab.HEURISTIC_LEAVES])
            result = self._search(state, depth, -ab.INFINITY, ab.INFINITY, node_limit)
            if result is None:
                break
            value, completed = result, depth
            best_move = int(self.stats[ab.ROOT_MOVE])
            iterations.append((depth, value, self.nodes - nodes_before,
                               time.perf_counter() - start))
            if int(self.stats[ab.HEURISTIC_LEAVES]) == heuristic_before:
                exact = True
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        if completed == 0:  # not even one ply fitted the budget: one ply without a limit
            value = self._search(state, 1, -ab.INFINITY, ab.INFINITY)
            best_move, completed = int(self.stats[ab.ROOT_MOVE]), 1
        # exact move values once the root is proven, else each move to the same depth
        moves = self._all_move_values(state, None if exact else completed) if all_moves else None
        pv = self.exact_pv(state, value) if exact else self.tt_pv(state, completed)
        if best_move is not None and best_move < 0:
            best_move = pv[0] if pv else None
        return SearchResult(move=best_move, value=value, exact=exact, depth=completed, pv=pv,
                            nodes=self.nodes - nodes_before,
                            expanded=self.expanded - expanded_before,
                            seconds=time.perf_counter() - start, moves=moves,
                            iterations=iterations, table_hits=self.table_hits)

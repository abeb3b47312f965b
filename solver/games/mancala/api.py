"""Mancala's user API (``solver.mancala``): best move, solve, perft, on the packed kernel
(``kernels.mancala``) joined to the reference rules (``solver.games.mancala``, whose game contract
this module re-exports: ``new_game``, ``apply``, ``from_text``, ...). Converts positions and move
names between the two.

The Numba kernels are bound lazily (imported on first use): a best move that probes no endgame
tables runs on the Cython alpha-beta (``kernels/mancala_ab.pyx``, the same search compiled for
Mancala) and never imports Numba, so ``solver best mancala --depth 12`` starts in a fraction of
a second."""
from __future__ import annotations

import math
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from kernels.contract import EXTRA_TURN
from kernels.mancala_layout import pack_side, pits_per_side, unpack_side
from solver.errors import InputError, shown
from solver.options import (MEMORY_TABLES_MAX, THREADS_MAX, check_flag, check_seconds,
                            check_table_mb, check_whole)
from solver.games import mancala as reference
from solver.games.mancala.rules import (A, Position, Rules, apply, current_player,  # noqa: F401
                                        draw, from_text, is_over, legal_actions, new_game,
                                        playable_position, position_and_rules, result, to_text)
from solver.search.alphabeta import AlphaBeta, Backend, EndgameTables, KernelGame, SearchResult
from tables.lazy import lazy_module

kernel = lazy_module("kernels.mancala")
alphabeta_kernel = lazy_module("kernels.alphabeta")
perft_kernels = lazy_module("kernels.perft")


def to_packed(pos: Position) -> tuple[np.uint64, np.uint64]:
    """The kernel's ``(mover, other)`` words for a reference position (its capture rule goes
    into the rule lane)."""
    side, m = pos.to_move, pos.m
    mover = pack_side(pos.side_pits(side), pos.stores[side], m, pos.capture_empty)
    other = pack_side(pos.side_pits(1 - side), pos.stores[1 - side], m, pos.capture_empty)
    return mover, other


def from_packed(state, to_move: int) -> Position:
    """The reference position of kernel words, given which side (A or B) is the mover."""
    mover_pits, mover_store, _, capture_empty = unpack_side(state[0])
    other_pits, other_store, _, _ = unpack_side(state[1])
    if to_move == A:
        return Position(tuple(mover_pits + other_pits), (mover_store, other_store), A,
                        bool(capture_empty))
    return Position(tuple(other_pits + mover_pits), (other_store, mover_store), 1 - A,
                    bool(capture_empty))


def lane_of(move: int, side: int, m: int) -> int:
    """Kernel pit lane (0..m-1) of a rulebook bin number of ``side``."""
    return move - 1 - side * m


def move_of(lane: int, side: int, m: int) -> int:
    """Rulebook bin number of the mover's pit lane."""
    return lane + 1 + side * m


# --- perft -------------------------------------------------------------------------------------

def _game_signatures():
    """The kernel's state type and its legal_moves / play signatures (each compiled for one)."""
    return (kernel.STATE, kernel.legal_moves.nopython_signatures[0],
            kernel.play.nopython_signatures[0])


MAX_DEPTH = 254      # plies: the kernels' depth field is 8 bits, 255 meaning "exact"


def _check_depth(depth: int, least: int, what: str = "perft depth") -> int:
    return check_whole(depth, least, MAX_DEPTH, what)


def perft(pos: Position | str, depth: int) -> int:
    """Lines of exactly ``depth`` sowings from ``pos`` (an extra turn is a sowing of its own; a
    finished game is a leaf at its own depth and counts nothing deeper). Depth 0 is 1."""
    depth, (pos, _) = _check_depth(depth, 0), position_and_rules(pos)
    count = perft_kernels.perft_kernel(*_game_signatures())
    moves_buffer = np.empty((max(depth, 1), pos.m), np.int64)
    return int(count(to_packed(pos), depth, kernel.legal_moves, kernel.play,
                     moves_buffer))


def perft_divide(pos: Position | str, depth: int) -> dict[int, int]:
    """:func:`perft` split by first move: rulebook bin number -> leaves below it (depth >= 1)."""
    depth, (pos, _) = _check_depth(depth, 1), position_and_rules(pos)
    signatures = _game_signatures()
    count = perft_kernels.perft_kernel(*signatures)
    divide = perft_kernels.divide_kernel(*signatures)
    moves_buffer = np.empty((depth, pos.m), np.int64)
    root_lanes = np.empty(pos.m, np.int64)
    counts = np.empty(pos.m, np.int64)
    n = divide(to_packed(pos), depth, kernel.legal_moves, kernel.play,
               moves_buffer, count, root_lanes, counts)
    return {move_of(int(lane), pos.to_move, pos.m): int(leaves)
            for lane, leaves in zip(root_lanes[:n], counts[:n])}


BACKENDS = ("numba", "cython")


def kernel_game(with_tables: bool = False, backend: str = "cython") -> KernelGame:
    """The packed kernel's functions in the form the alpha-beta search takes them. The
    heuristic evaluation is the store difference (the value already banked); ``with_tables``:
    the endgame-table probe instead of none. ``backend``: "cython" (the default),
    ``kernels/mancala_ab.pyx``: the search compiled for Mancala, tables included, which needs no
    Numba and makes a node about 1.4x cheaper; or "numba", the generic kernels
    (``kernels.alphabeta`` over ``kernels.mancala``, the game's functions passed as function
    pointers). Both give the same values, moves, node counts and table contents (tests)."""
    if backend == "cython":
        return cython_game(with_tables)
    if backend != "numba":
        raise ValueError(f"backend must be one of {BACKENDS}, got {shown(backend)}")
    return KernelGame(expand=kernel.expand, bounds=kernel.bounds,
                      evaluate=kernel.store_difference, score=kernel.score,
                      probe=_table_probe() if with_tables else alphabeta_kernel.no_probe,
                      key_mask=kernel.key_mask,
                      play=kernel.play, legal_moves=kernel.legal_moves)


def _table_probe():
    from tables.probe import probe
    return probe


def cython_game(with_tables: bool = False) -> KernelGame:
    """:func:`kernel_game` on ``kernels/mancala_ab.pyx``: its game functions (the same results
    as ``kernels.mancala``'s) and its search kernels, which take no game functions (its probe
    is compiled in; ``probe`` here only says whether the search should ask the tables)."""
    from kernels import mancala_ab as compiled

    def table_and_scratch(game, mask0, mask1, tt, work, tables):
        return mask0, mask1, tt, work, tables

    return KernelGame(expand=compiled.game_expand, bounds=compiled.game_bounds,
                      evaluate=compiled.game_store_difference, score=compiled.game_score,
                      probe=compiled.game_probe if with_tables else compiled.game_no_probe,
                      key_mask=compiled.game_key_mask,
                      play=compiled.game_play, legal_moves=compiled.game_legal_moves,
                      backend=Backend("cython", compiled.search, compiled.prove,
                                      compiled.exact_line, compiled.table_move,
                                      compiled.grow_table, table_and_scratch,
                                      probes_tables=True))


# --- best move ---------------------------------------------------------------------------------

DEFAULT_SECONDS = 3.0


BestMove = SearchResult
"""A best-move answer: the search's own record, its moves in the rulebook's bin numbers, with the
position and rules it answers. ``value``: final store difference, side to move minus opponent,
under perfect play (exact) or as the search estimates it at its horizon; the current stores are
included."""


def best_move(position: Position | str | None = None, rules: Rules | None = None, *,
              seconds: float | None = None, depth: int | None = None, exact: bool = False,
              all_moves: bool = False, table_mb: int | None = None,
              tables=None, max_seconds: float | None = None, max_nodes: int | None = None,
              progress=None, backend: str | None = None, threads: int = 1,
              memory_tables: int | None = None) -> BestMove:
    """Search a position (the start of ``rules`` when None): exactly, to ``depth`` plies, or for
    ``seconds`` (the default, DEFAULT_SECONDS). A timed or depth-limited search that reaches
    the end of every line reports ``exact=True``. ``all_moves``: ``moves`` holds every legal
    move's value, exact when the answer is, else searched to the depth the answer reached.
    Without ``rules``, a position is played with captures from empty opposite pits (the
    default rule).

    An exact search is a proof (``proof.prove_game``: the root alone, or with ``all_moves``
    every move as its own task): ``max_seconds``, ``max_nodes`` or Ctrl-C stop it with the
    bounds proven so far (``stopped`` says why; ``lower``/``upper``), and ``progress(proof)``
    sees them after every slice of work.

    ``tables``: endgame tables probed at the leaves: a directory, True for
    the default directory, False for none; None (the default) uses the default directory's
    tables for an exact search when it has any, and when it has none computes the levels of
    :func:`automatic_levels` in memory first (a large search on six or five pits; unless the
    position is proven without them in QUICK_TRY_NODES nodes, tried first) unless
    ``max_seconds`` or ``max_nodes`` is given. ``memory_tables``: with ``exact``, compute
    the levels up to that many stones in memory before the search instead (no file read or
    written; on ``threads`` threads; at most the stones in the pits): what table files would
    give, for the seconds of the build (``table_build_seconds``).

    ``backend``: the alpha-beta kernels (:func:`kernel_game`); None (the default): "cython",
    which starts without Numba (computing levels in memory imports it). Both give the same
    answer, node count included.

    ``threads``: with ``exact``, that many threads share the proof's table (the Cython kernels:
    ``solver.search.alphabeta.AlphaBeta``); the value is the same, the node count varies."""
    pos, rules = playable_position(position, rules)
    exact, all_moves = check_flag(exact, "exact"), check_flag(all_moves, "all_moves")
    if sum(1 for _ in (seconds, depth) if _ is not None) + bool(exact) > 1:
        raise InputError("choose one of a time limit, a depth or an exact solve")
    if not exact and (max_seconds is not None or max_nodes is not None):
        raise InputError("max_seconds and max_nodes (--max-seconds, --max-nodes) go with an "
                         "exact solve (--exact)")
    max_nodes = _check_budgets(max_seconds, max_nodes)
    threads = _check_threads(threads, exact, backend)
    depth = None if depth is None else _check_depth(depth, 1, "depth")
    seconds = None if seconds is None else check_seconds(seconds)
    table_mb = None if table_mb is None else check_table_mb(table_mb)
    if backend not in (None, *BACKENDS):
        raise InputError(f"backend must be one of {', '.join(BACKENDS)}, got {shown(backend)}")
    found_tables, levels = planned_tables(tables, memory_tables, pos, rules, exact,
                                          budgeted=max_seconds is not None or
                                          max_nodes is not None)
    # The Cython alpha-beta unless asked otherwise: the same search as the Numba one
    # (tests/test_mancala_cython_ab.py), faster per node, and it starts without Numba.
    backend = backend or "cython"
    state = to_packed(pos)
    if levels is not None and memory_tables is None:     # levels the search chose itself
        quick = quick_try(pos, rules, all_moves, backend)
        if quick is not None:
            return quick
    built_in = None
    if levels is not None:
        found_tables, built_in = computed_levels(levels, rules, threads)
    game = kernel_game(with_tables=found_tables is not None, backend=backend)
    engine = AlphaBeta(game, table_mb or default_table_mb(pos, exact, depth), found_tables,
                       threads)
    levels = 0 if found_tables is None else found_tables.max_swing
    if exact:
        return replace(_proven_best(engine, state, pos, rules, levels, all_moves, max_seconds,
                                    max_nodes, progress), table_build_seconds=built_in)
    found = engine.iterate(state, max_depth=depth,
                           seconds=None if depth is not None else seconds or DEFAULT_SECONDS,
                           all_moves=all_moves)
    side, m = pos.to_move, pos.m
    return replace(found, move=None if found.move is None else move_of(found.move, side, m),
                   pv=pv_bins(state, side, found.pv, engine.game.play),
                   moves=None if found.moves is None else {move_of(k, side, m): v
                                                           for k, v in sorted(found.moves.items())},
                   position=reference.to_text(pos), rules=rules,
                   table_levels=levels)


def _proven_best(engine, state, pos: Position, rules: Rules, levels: int, all_moves: bool,
                 max_seconds, max_nodes, progress) -> SearchResult:
    """``best_move(exact=True)``: the proof of the root (with ``all_moves``, of every move),
    then, once finished, a line of optimal moves."""
    from solver.games.mancala.proof import prove_game
    start, nodes_before, expanded_before = time.perf_counter(), engine.nodes, engine.expanded
    proof = prove_game(engine, state, rules, max_seconds=max_seconds, max_nodes=max_nodes,
                       progress=progress, side=pos.to_move, openings=all_moves)
    value = proof.value
    pv = [] if value is None else pv_bins(state, pos.to_move, engine.exact_pv(state, value),
                                          engine.game.play)
    openings = sorted(proof.openings, key=lambda o: o.move)
    return SearchResult(move=proof.move, value=value, exact=value is not None, depth=None, pv=pv,
                    nodes=engine.nodes - nodes_before, expanded=engine.expanded - expanded_before,
                    seconds=time.perf_counter() - start,
                    moves={o.move: o.value for o in openings} if all_moves else None,
                    table_hits=engine.table_hits, position=reference.to_text(pos),
                    rules=rules, table_levels=levels, lower=proof.lower, upper=proof.upper,
                    move_bounds={o.move: (o.lower, o.upper) for o in openings}
                    if all_moves else None, stopped=proof.stopped)


def solve(rules: Rules = Rules(), *, tables=None, table_mb: int | None = None,
          max_seconds: float | None = None, max_nodes: int | None = None, progress=None,
          scheduler: str | None = None, checkpoint=None, threads: int = 1,
          memory_tables: int | None = None):
    """Prove the value of Kalah(pits, stones) from the start: every opening move's exact value
    (an opening that earns an extra turn also each continuation's) and, after each, the
    optimal move of the side to move; one transposition table serves all the proofs
    (``solver.games.mancala.proof``). ``max_seconds``, ``max_nodes`` or Ctrl-C stop it with the
    bounds proven so far; ``progress(proof)`` sees them after every slice of work. ``tables``
    as in :func:`best_move` (None: the default directory's, if built). ``scheduler``: the
    address of a Dask scheduler (``tcp://HOST:PORT``): the openings are proven there as tasks
    (``proof.prove_game_on_cluster``; ``max_seconds`` and Ctrl-C stop it with the openings
    proven by then, ``max_nodes`` does not apply). ``checkpoint``: a file that keeps every
    bound proven, so that a rerun with the same file goes on from them
    (``solver.games.mancala.checkpoint``; the proof's ``checkpoint`` gives the totals of every
    run). ``threads``: that many threads share the table on this machine (not with
    ``scheduler``, whose workers have their own). ``memory_tables``: as in :func:`best_move`
    (not with ``scheduler``), and so are the levels computed in memory when ``tables`` is None
    and the default directory has none."""
    from solver.games.mancala.checkpoint import Checkpoint
    from solver.games.mancala.proof import prove_game
    max_nodes = _check_budgets(max_seconds, max_nodes)
    threads = _check_threads(threads, True, None)
    table_mb = None if table_mb is None else check_table_mb(table_mb)
    if not isinstance(rules, Rules):
        raise InputError(f"rules must be MancalaRules, got {shown(rules)}")
    if scheduler is not None and threads > 1:
        raise InputError("threads (--threads) apply on this machine, not on a cluster")
    if scheduler is not None and max_nodes is not None:
        raise InputError("max_nodes (--max-nodes) does not apply on a cluster, whose tasks "
                         "each run to the end: use max_seconds (--max-seconds)")
    if scheduler is not None and memory_tables is not None:
        raise InputError("memory_tables (--memory-tables) serves a solve on this machine, "
                         "not on a cluster (--scheduler)")
    kept = None if checkpoint is None else Checkpoint(checkpoint, rules)
    if scheduler is not None:
        return _solve_on_cluster(rules, tables, table_mb, scheduler, max_seconds, progress,
                                 kept)
    pos = reference.new_game(rules)
    # The start of a board the automatic levels serve is never proven in QUICK_TRY_NODES, so
    # a whole-game solve builds them without trying first.
    found_tables, built_in = search_tables(tables, memory_tables, pos, rules, True, threads,
                                           budgeted=max_seconds is not None or
                                           max_nodes is not None)
    mb = table_mb or default_table_mb(pos, True)
    engine = AlphaBeta(kernel_game(with_tables=found_tables is not None), mb, found_tables,
                       threads)
    proof = prove_game(engine, to_packed(pos), rules, max_seconds=max_seconds,
                       max_nodes=max_nodes, progress=progress, checkpoint=kept)
    proof.table_levels = 0 if found_tables is None else found_tables.max_swing
    proof.table_build_seconds = built_in
    proof.table_mb = mb
    return proof


def _check_threads(threads, exact: bool, backend: str | None) -> int:
    threads = check_whole(threads, 1, THREADS_MAX, "threads")
    if threads > 1 and not exact:
        raise InputError("threads (--threads) go with an exact solve (--exact) or --mcts")
    if threads > 1 and backend not in (None, "cython"):
        raise InputError("threads (--threads) need the cython backend")
    return threads


def _check_budgets(max_seconds, max_nodes) -> int | None:
    """Checks both; returns ``max_nodes`` as an int (or None)."""
    if max_seconds is not None:
        check_seconds(max_seconds)
    return None if max_nodes is None else \
        check_whole(max_nodes, 1, math.inf, "max_nodes", span=">= 1")


def _solve_on_cluster(rules: Rules, tables, table_mb: int | None, scheduler: str,
                      max_seconds: float | None, progress, checkpoint):
    from solver.games.mancala.proof import prove_game_on_cluster
    from tables.distributed import connect
    from tables.errors import TableError
    tables = _cluster_tables(tables, rules)
    try:
        client = connect(scheduler, modules=("solver", "tables", "kernels"))
    except TableError as error:
        raise InputError(str(error)) from None
    try:
        mb = table_mb or default_table_mb(reference.new_game(rules), True)
        return prove_game_on_cluster(client, rules, tables=tables, table_mb=mb,
                                     max_seconds=max_seconds, progress=progress,
                                     checkpoint=checkpoint)
    finally:
        client.close()


def _cluster_tables(tables, rules: Rules) -> str | None:
    """The table folder the workers should read, as an absolute path (they may run elsewhere),
    chosen as a local solve would choose it: None for the default folder if it holds this
    board's tables, False for none. Checked here, read by the workers."""
    if tables is False:
        return None
    from solver import tables as tables_api
    directory = tables_api.default_directory() if tables in (None, True) else Path(tables)
    if endgame_tables(str(directory), rules, required=tables is not None) is None:
        return None
    return str(directory.expanduser().absolute())


# An exact search of a large position without table files computes the small levels in memory
# first (benches/automatic_levels.py; benches/README.md, "Twenty-fifth session", one thread):
# Kalah(6,4) from the start took 0.58x the time with levels <= 18, 0.69x with <= 16; positions
# of six pits with 44 stones in the pits 0.61-0.66x with <= 14 or 16, but 1.23x with <= 18;
# Kalah(5,5) from the start 0.67x, five pits with 46 stones 0.56x (<= 18), with 44 a solve took
# under 0.6 s, less than the build and the builder's start-up (0.85 s in a new process). Boards
# of four pits solved in under 1.1 s at up to 48 stones: smaller boards get none. A budgeted
# search (max_seconds, max_nodes) gets none either: the build would spend its budget.
AUTOMATIC_MIN_STONES = {6: 44, 5: 46}      # by pits a side: the fewest stones in the pits
AUTOMATIC_MAX_LEVEL = 18
# Before computing the levels it chose itself, ``best_move`` tries the position without them
# for QUICK_TRY_NODES nodes (its own 4 MB table, one thread): about 0.035 s, against 1.4-3.3 s
# for the build and 0.85 s for loading the builder. The rule goes by the stones in the pits,
# and a lopsided position can be proven in a few nodes (all the stones in one pit: 47).
# Positions from play with 44-46 stones in the pits took 1.3 M nodes or more (Kalah(6,4),
# (6,5), (5,5)), so a hard search loses only the try.
QUICK_TRY_NODES = 300_000
QUICK_TRY_TABLE_MB = 4


def quick_try(pos: Position, rules: Rules, all_moves: bool = False, backend: str = "cython"
              ) -> SearchResult | None:
    """``best_move(exact=True)``'s answer without tables, if QUICK_TRY_NODES nodes (one thread,
    a QUICK_TRY_TABLE_MB table) prove it or Ctrl-C stops them (``stopped`` "interrupted");
    None once they are spent."""
    engine = AlphaBeta(kernel_game(False, backend), QUICK_TRY_TABLE_MB)
    found = _proven_best(engine, to_packed(pos), pos, rules, 0, all_moves, None,
                         QUICK_TRY_NODES, None)
    return None if found.stopped == "max-nodes" else found


def automatic_levels(pos: Position) -> int | None:
    """The levels an exact search of ``pos`` computes in memory when it has no table files
    (None: none): on six pits with 44 or more stones in the pits, on five with 46 or more, up to
    that count less 28 stones, at most 18; none when they would take more than a quarter of
    the memory available (Kalah(6,4)'s 18: 87 MB)."""
    from tables.index import level_offsets
    from tables.mapping import available_bytes
    in_pits = sum(pos.pits)
    if in_pits < AUTOMATIC_MIN_STONES.get(pos.m, math.inf):
        return None
    levels = min(AUTOMATIC_MAX_LEVEL, in_pits - 28)
    if int(level_offsets(levels, pos.m)[-1]) > available_bytes() // 4:
        return None
    return levels


def search_tables(tables, memory_tables, pos: Position, rules: Rules, exact: bool,
                  threads: int, budgeted: bool = False
                  ) -> tuple[EndgameTables | None, float | None]:
    """The endgame tables a search of ``pos`` probes, and the seconds spent computing them
    (None: none computed): :func:`planned_tables`, its levels computed."""
    found, levels = planned_tables(tables, memory_tables, pos, rules, exact, budgeted)
    return (found, None) if levels is None else computed_levels(levels, rules, threads)


def planned_tables(tables, memory_tables, pos: Position, rules: Rules, exact: bool,
                   budgeted: bool = False) -> tuple[EndgameTables | None, int | None]:
    """The table files a search of ``pos`` probes, or the levels it computes in memory first
    (None: none): with ``memory_tables``, the levels up to that many stones (at most those in
    the pits); else those ``endgame_tables`` finds for ``tables`` (by default only for an exact
    search); else, for an exact search that is not ``budgeted`` and was not told which tables
    (``tables`` None), the :func:`automatic_levels`."""
    if memory_tables is None:
        found = endgame_tables(tables, rules, required=tables not in (None, False),
                               wanted=exact if tables is None else bool(tables))
        if found is not None or tables is not None or not exact or budgeted:
            return found, None
        return None, automatic_levels(pos)
    if not exact:
        raise InputError("memory_tables (--memory-tables) goes with an exact solve (--exact)")
    if tables is not None:
        given = "no tables (tables=False, --no-tables)" if tables is False else \
            "table files (tables, --tables)"
        raise InputError(f"{given} and tables computed in memory (memory_tables, "
                         "--memory-tables) contradict each other: choose one")
    levels = min(check_whole(memory_tables, 1, MEMORY_TABLES_MAX, "memory_tables"),
                 sum(pos.pits))
    return None, levels or None      # no stone in play: nothing to look up


def computed_levels(levels: int, rules: Rules, threads: int) -> tuple[EndgameTables, float]:
    """Levels 1..``levels`` of ``rules``' board and rule computed in memory on ``threads``
    threads, and the seconds it took."""
    from solver import tables as tables_api
    start = time.perf_counter()
    built = tables_api.build_for_search(levels, rules.capture_empty, rules.pits, threads)
    return EndgameTables(built.data, built.offsets, built.max_level), time.perf_counter() - start


def endgame_tables(tables, rules: Rules, required: bool, wanted: bool = True,
                   max_stones: int | None = None) -> EndgameTables | None:
    """The endgame tables a search of ``rules`` should probe: from ``tables`` (a directory, or
    True / None for the default one), levels up to ``max_stones`` (None: all built), or None
    when not ``wanted`` or when none are built for the board and rule (an error if they were
    ``required``). The levels are memory-mapped, not read."""
    if not wanted or tables is False:
        return None
    from solver import tables as tables_api
    directory = None if tables in (None, True) else tables
    loaded = tables_api.load_for_search(directory, rules.capture_empty, max_stones, rules.pits)
    if loaded.max_level == 0:
        if required:
            where = tables_api.default_directory() if directory is None else directory
            flag = "" if rules.capture_empty else " --no-capture-empty"
            rule = "capture-empty" if rules.capture_empty else "capture-nonempty"
            raise InputError(f"no {rules.pits}-pit {rule} tables in {where}: build them with "
                             f"`solver tables build mancala --pits {rules.pits} --max-stones N"
                             f"{flag}`")
        return None
    return EndgameTables(loaded.data, loaded.offsets, loaded.max_level)


def default_table_mb(pos: Position, exact: bool, depth: int | None = None) -> int:
    """A table big enough for the search's likely size: a fresh table costs its size in page
    faults (about 2 s per GB here), so small boards get small tables. A search to ``depth``
    plies gets 1 MB at depth 10, doubled per ply up to 64 MB: a node count grows about 1.7x a
    ply (Kalah(6,4) from the start: 39,818 at depth 12, 131,072 entries in 4 MB), and at depth
    12 faulting in 64 MB took longer than the rest of the search's start-up."""
    in_pits = sum(pos.pits)
    if not exact:
        return 64 if depth is None else min(64, 1 << max(0, depth - 10))
    return 16 if in_pits <= 24 else 128 if in_pits <= 36 else 1024


def pv_bins(state, side: int, lanes: list[int], play=None) -> list[int]:
    """Name a line of kernel moves by bin numbers, following who moves after each sowing
    (``play``: a kernel's play function, by default ``kernels.mancala.play``)."""
    play = play or kernel.play
    m = pits_per_side(state[0])
    bins = []
    for lane in lanes:
        bins.append(move_of(lane, side, m))
        state, info = play(state, lane)
        if not info & EXTRA_TURN:
            side = 1 - side
    return bins

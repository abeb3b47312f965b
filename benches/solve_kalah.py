"""Exact solve of Kalah(m,n) from the start, both capture rules, side by side in one run.

    python benches/solve_kalah.py [--pits 6 --stones 4] [--table-mb 1024] [--tables DIR]
                                  [--node-limit N] [--rules both|capture_empty|no-capture-empty]
                                  [--etc-swing S | --no-etc] [--threads T [T ...]]
                                  [--repeats N] [--busy-swing S] [--memory-tables L]

Prints value, first move, nodes, nodes/s, seconds and positions expanded per rule: nodes counts
every position the search reaches, expanded only those whose moves it generated (the way
Irving's solver counts its "Nodes searched"). The table's pages are touched and the endgame
tables loaded before the clock starts (a fresh 1 GB table costs about 2 s of page faults here).
With ``--node-limit`` a solve that does not finish reports the bounds on the value it proved
(the Kalah(6,5) stretch goal). ``--etc-swing S`` tries enhanced transposition cutoffs at
nodes whose swing exceeds S (default ``kernels.alphabeta_layout.ETC_MIN_SWING``), ``--no-etc``
never; the CPU seconds of the solve are printed beside the wall seconds (less sensitive to
other users' load).

``--threads 1 2 --repeats 3`` interleaves the thread counts: each round solves every rule on
each count in turn, and the summary gives, per rule, the median of the rounds' paired speed-ups
against the first count. ``--busy-swing S``: threads mark nodes busy above this swing
(``kernels.alphabeta_layout.BUSY_MIN_SWING`` by default).

``--memory-tables L``: the endgame levels up to L stones are computed in memory on the solve's
threads (``solver best mancala --exact --memory-tables L``), and that build is timed with the
solve: its seconds are in ``seconds`` and ``cpu s``."""
import argparse
import statistics
import time
from dataclasses import replace

from kernels import alphabeta_layout as ab     # constants only: no Numba (as the CLI)
from solver.games.mancala import api as mancala
from solver.search.alphabeta import AlphaBeta

RULES = {"both": (True, False), "capture_empty": (True,), "no-capture-empty": (False,)}


def _cutoffs(etc_swing: int | None, tables) -> str:
    """Where enhanced transposition cutoffs are tried (a search given tables: off by default)."""
    if etc_swing == -1 or (etc_swing is None and tables is not None):
        return "off"
    return f"swing > {ab.ETC_MIN_SWING if etc_swing is None else etc_swing}"


def solve(pits, stones, capture_empty, table_mb, tables=None, node_limit=None, table_stones=None,
          etc_swing=None, threads=1, busy_swing=None, memory_tables=None):
    """(lower, upper, first move or None, nodes, seconds, cpu seconds, positions expanded):
    lower == upper once proven. ``etc_swing``: None for the default, -1 for no enhanced
    transposition cutoffs. ``memory_tables``: levels computed in memory, in the seconds."""
    rules = mancala.Rules(pits, stones, capture_empty)
    built, built_cpu = time.perf_counter(), time.process_time()
    if memory_tables is not None:
        endgame, _ = mancala.search_tables(None, memory_tables, mancala.new_game(rules), rules,
                                           True, threads)
    else:
        endgame = None if tables is None else mancala.endgame_tables(
            tables, rules, required=True, max_stones=table_stones)
    built, built_cpu = time.perf_counter() - built, time.process_time() - built_cpu
    if memory_tables is None:
        built = built_cpu = 0.0      # files are mapped before the clock, as before
    engine = AlphaBeta(mancala.kernel_game(with_tables=endgame is not None), table_mb, endgame,
                       threads)
    engine.clear_table()
    if etc_swing is not None and etc_swing < 0:
        engine.stats[ab.OPTIONS] |= ab.NO_ETC
    elif etc_swing is not None:
        engine.stats[ab.ETC_SWING] = etc_swing
    if busy_swing is not None:      # the helpers copy the main workspace's settings
        engine.stats[ab.BUSY_SWING] = busy_swing
    state = mancala.to_packed(replace(mancala.new_game(rules), capture_empty=capture_empty))
    start, cpu = time.perf_counter(), time.process_time()
    if node_limit is None:
        found = engine.solve(state)
        lower = upper = found.value
        move = mancala.move_of(found.move, 0, pits)
    else:
        lower, upper = engine.prove_within(state, node_limit)
        move = None
    return (lower, upper, move, engine.nodes, time.perf_counter() - start + built,
            time.process_time() - cpu + built_cpu, engine.expanded)


def _print_row(rule, threads, result):
    lower, upper, move, nodes, seconds, cpu, expanded = result
    value = f"{lower:+d}" if lower == upper else f"{lower:+d}..{upper:+d}"
    print(f"{rule:<17}{threads:>8}{value:>9}{move if move is not None else '-':>6}{nodes:>16,}"
          f"{nodes / seconds / 1e6:>10.2f}{seconds:>9.2f}{cpu:>8.2f}{expanded:>16,}", flush=True)


def _print_speed_ups(seconds, thread_counts):
    """Per rule and count, the median over rounds of (first count's seconds / this count's)."""
    first = thread_counts[0]
    for rule, by_count in seconds.items():
        for count in thread_counts[1:]:
            ratios = [a / b for a, b in zip(by_count[first], by_count[count])]
            print(f"{rule}: {count} threads against {first}: {statistics.median(ratios):.2f}x "
                  f"faster (median of {len(ratios)} paired rounds: "
                  f"{', '.join(f'{r:.2f}' for r in ratios)})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--stones", type=int, default=4)
    parser.add_argument("--table-mb", type=int, default=1024)
    parser.add_argument("--tables", help="endgame tables to probe (loaded before the clock)")
    parser.add_argument("--node-limit", type=int, help="stop after this many nodes")
    parser.add_argument("--table-stones", type=int, help="probe table levels up to this only")
    parser.add_argument("--rules", choices=RULES, default="both")
    parser.add_argument("--threads", type=int, nargs="+", default=[1],
                        help="threads sharing the table; several counts are interleaved")
    parser.add_argument("--repeats", type=int, default=1, help="rounds over rules and counts")
    parser.add_argument("--busy-swing", type=int, help="threads mark nodes above this swing")
    parser.add_argument("--memory-tables", type=int, metavar="L",
                        help="compute the endgame levels up to L stones in memory (timed)")
    etc = parser.add_mutually_exclusive_group()
    etc.add_argument("--etc-swing", type=int, help="enhanced transposition cutoffs above this")
    etc.add_argument("--no-etc", action="store_true", help="no enhanced transposition cutoffs")
    args = parser.parse_args()
    etc_swing = -1 if args.no_etc else args.etc_swing
    solve(3, 2, True, 1, memory_tables=args.memory_tables and 2)  # load the kernels untimed
    levels = "" if args.table_stones is None else f" up to level {args.table_stones}"
    if args.memory_tables is not None:
        args.tables = f"levels up to {args.memory_tables} computed in memory (timed)"
    busy = "" if args.busy_swing is None else f", busy marks above swing {args.busy_swing}"
    print(f"Kalah({args.pits},{args.stones}), table {args.table_mb} MB, endgame tables: "
          f"{args.tables or 'none'}{levels}, enhanced cutoffs: {_cutoffs(etc_swing, args.tables)}"
          f"{busy}", flush=True)
    print(f"{'rule':<17}{'threads':>8}{'value':>9}{'move':>6}{'nodes':>16}{'Mnodes/s':>10}"
          f"{'seconds':>9}{'cpu s':>8}{'expanded':>16}")
    seconds = {}
    for _ in range(args.repeats):
        for capture_empty in RULES[args.rules]:
            rule = "capture_empty" if capture_empty else "no-capture-empty"
            for threads in args.threads:
                result = solve(args.pits, args.stones, capture_empty, args.table_mb,
                               None if args.memory_tables else args.tables, args.node_limit,
                               args.table_stones, etc_swing, threads, args.busy_swing,
                               args.memory_tables)
                _print_row(rule, threads, result)
                seconds.setdefault(rule, {}).setdefault(threads, []).append(result[4])
    if len(args.threads) > 1:
        _print_speed_ups(seconds, args.threads)


if __name__ == "__main__":
    main()

"""Exact solve of Kalah(m,n) from the start, both capture rules, side by side in one run.

    python benches/solve_kalah.py [--pits 6 --stones 4] [--table-mb 1024] [--tables DIR]
                                  [--node-limit N] [--rules both|capture_empty|no-capture-empty]

Prints value, first move, nodes, nodes/s and seconds per rule; the table's pages are touched
and the endgame tables loaded before the clock starts (a fresh 1 GB table costs about 2 s of
page faults here). With ``--node-limit`` a solve that does not finish reports the bounds on
the value it proved (the Kalah(6,5) stretch goal)."""
import argparse
import time
from dataclasses import replace

from solver.games.mancala import api as mancala
from solver.search.alphabeta import AlphaBeta

RULES = {"both": (True, False), "capture_empty": (True,), "no-capture-empty": (False,)}


def solve(pits, stones, capture_empty, table_mb, tables=None, node_limit=None, table_stones=None):
    """(lower, upper, first move or None, nodes, seconds): lower == upper once proven."""
    rules = mancala.Rules(pits, stones, capture_empty)
    endgame = None if tables is None else mancala.endgame_tables(tables, rules, required=True,
                                                                 max_stones=table_stones)
    engine = AlphaBeta(mancala.kernel_game(with_tables=endgame is not None), table_mb, endgame)
    engine.tt[:] = 0
    state = mancala.to_packed(replace(mancala.new_game(rules), capture_empty=capture_empty))
    start = time.perf_counter()
    if node_limit is None:
        found = engine.solve(state)
        lower = upper = found.value
        move = mancala.move_of(found.move, 0, pits)
    else:
        lower, upper = engine.prove_within(state, node_limit)
        move = None
    return lower, upper, move, engine.nodes, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--stones", type=int, default=4)
    parser.add_argument("--table-mb", type=int, default=1024)
    parser.add_argument("--tables", help="endgame tables to probe (loaded before the clock)")
    parser.add_argument("--node-limit", type=int, help="stop after this many nodes")
    parser.add_argument("--table-stones", type=int, help="probe table levels up to this only")
    parser.add_argument("--rules", choices=RULES, default="both")
    args = parser.parse_args()
    solve(3, 2, True, 1)  # load the kernels before timing
    levels = "" if args.table_stones is None else f" up to level {args.table_stones}"
    print(f"Kalah({args.pits},{args.stones}), table {args.table_mb} MB, endgame tables: "
          f"{args.tables or 'none'}{levels}", flush=True)
    print(f"{'rule':<17}{'value':>9}{'move':>6}{'nodes':>16}{'Mnodes/s':>10}{'seconds':>9}")
    for capture_empty in RULES[args.rules]:
        lower, upper, move, nodes, seconds = solve(args.pits, args.stones, capture_empty,
                                                   args.table_mb, args.tables, args.node_limit,
                                                   args.table_stones)
        rule = "capture_empty" if capture_empty else "no-capture-empty"
        value = f"{lower:+d}" if lower == upper else f"{lower:+d}..{upper:+d}"
        print(f"{rule:<17}{value:>9}{move if move is not None else '-':>6}{nodes:>16,}"
              f"{nodes / seconds / 1e6:>10.2f}{seconds:>9.2f}", flush=True)


if __name__ == "__main__":
    main()

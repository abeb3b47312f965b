"""Exact solve of Kalah(m,n) from the start, both capture rules, side by side in one run.

    python benches/solve_kalah.py [--pits 6 --stones 4] [--table-mb 1024] [--tables DIR]

Prints value, first move, nodes, nodes/s and seconds per rule; the table's pages are touched
before the clock starts (a fresh 1 GB table costs about 2 s of page faults here)."""
import argparse
import time

from solver import mancala
from solver.search.alphabeta import AlphaBeta


def solve(pits, stones, capture_empty, table_mb, tables=None):
    rules = mancala.Rules(pits, stones, capture_empty)
    endgame = None if tables is None else mancala.endgame_tables(tables, rules, required=True)
    engine = AlphaBeta(mancala.kernel_game(with_tables=endgame is not None), table_mb, endgame)
    engine.tt[:] = 0
    state = mancala.to_packed(mancala.start(mancala.Rules(pits, stones, capture_empty)),
                              capture_empty)
    start = time.perf_counter()
    found = engine.solve(state)
    return found, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--stones", type=int, default=4)
    parser.add_argument("--table-mb", type=int, default=1024)
    parser.add_argument("--tables", help="endgame tables to probe (loaded before the clock)")
    args = parser.parse_args()
    solve(3, 2, True, 1)  # load the kernels before timing
    print(f"Kalah({args.pits},{args.stones}), table {args.table_mb} MB, endgame tables: "
          f"{args.tables or 'none'}")
    print(f"{'rule':<16}{'value':>6}{'move':>6}{'nodes':>14}{'Mnodes/s':>10}{'seconds':>9}")
    for capture_empty in (True, False):
        found, seconds = solve(args.pits, args.stones, capture_empty, args.table_mb, args.tables)
        rule = "capture_empty" if capture_empty else "no-capture-empty"
        move = mancala.move_of(found.move, 0, args.pits)
        print(f"{rule:<16}{found.value:>+6d}{move:>6}{found.nodes:>14,}"
              f"{found.nodes / seconds / 1e6:>10.2f}{seconds:>9.2f}")


if __name__ == "__main__":
    main()

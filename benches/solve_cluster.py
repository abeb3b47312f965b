"""A whole-game proof on a Dask LocalCluster of 1 and of 2 worker processes, side by side.

    python benches/solve_cluster.py [--pits 5 --stones 5] [--no-capture-empty] [--tables DIR]
                                    [--table-mb 256] [--repeats 3] [--split-after S]

Each repeat runs ``solver.mancala.solve(rules, scheduler=...)`` on a fresh LocalCluster (one
thread per worker process) with 1 worker, then with 2 (interleaved, so load drifts hit both),
and checks the values agree. Prints each run's wall time, nodes and tasks, the medians and the
speed-up (median 1-worker time / median 2-worker time). The proof is split near the root (each
opening, each continuation after an extra turn: ``proof.prove_game_on_cluster``) and again where
a task runs ``--split-after`` seconds (default ``proof.SPLIT_AFTER``; ``inf``: never) beside an
idle worker; each task has its own transposition table, so the cluster's total nodes exceed a
single process's (whose one table serves every opening).
"""
import argparse
import statistics
import time

import distributed

from solver.games.mancala import api, proof as proof_module


def run(rules, workers: int, tables, table_mb: int):
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None, host="127.0.0.1") as cluster:
        start = time.perf_counter()
        proof = api.solve(rules, tables=tables, table_mb=table_mb,
                          scheduler=cluster.scheduler_address)
        return proof, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pits", type=int, default=5)
    parser.add_argument("--stones", type=int, default=5)
    parser.add_argument("--no-capture-empty", dest="capture_empty", action="store_false")
    parser.add_argument("--tables", help="endgame-table folder the workers share")
    parser.add_argument("--table-mb", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--split-after", type=float, default=proof_module.SPLIT_AFTER)
    args = parser.parse_args()
    proof_module.SPLIT_AFTER = args.split_after
    rules = api.Rules(args.pits, args.stones, args.capture_empty)
    tables = args.tables if args.tables else False
    times = {1: [], 2: []}
    values = set()
    for repeat in range(args.repeats):
        for workers in (1, 2):
            proof, seconds = run(rules, workers, tables, args.table_mb)
            values.add((proof.value, tuple((o.name, o.value) for o in proof.openings)))
            times[workers].append(seconds)
            print(f"repeat {repeat + 1}, {workers} worker(s): value {proof.value:+d}, "
                  f"{proof.nodes:,} nodes, {proof.tasks} tasks, {seconds:.1f} s", flush=True)
    assert len(values) == 1, values
    one, two = statistics.median(times[1]), statistics.median(times[2])
    print(f"Kalah({args.pits},{args.stones}) {'empty-capture' if args.capture_empty else 'standard'}"
          f": median 1 worker {one:.1f} s, 2 workers {two:.1f} s, speed-up {one / two:.2f}x")


if __name__ == "__main__":
    main()

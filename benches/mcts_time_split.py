"""Where one-thread MCTS time goes as the tree grows past the caches (issue 13, target 3).

    python -m benches.mcts_time_split [--simulations 2000000] [--repeats 3] [--small-mb 1]

Kalah(6,4) from the start (no-capture-empty, the rule of ``compare_openspiel.py``), one thread,
the same seeds. Three runs per repeat, interleaved:

- ``rollouts``: as many random playouts from the start as simulations (``kernels.
  mancala_playout.playout_stats``): what the rollouts alone would cost. This is an upper bound:
  a simulation's rollout starts at a leaf, a few plies into the game.
- ``small tree``: MCTS with the tree capped at ``--small-mb`` MB (a few thousand nodes, in the
  caches); a full tree keeps simulating without growing, so every simulation still descends,
  rolls out and backs up, but through rows that stay cached.
- ``full tree``: MCTS with room for every simulation's node (the default budget).

Printed: microseconds per simulation of each, the tree's nodes and deepest descent, and the
differences: full minus small is what a big tree costs (deeper descents and their cache and
memory misses), small minus rollouts bounds the descent and backup in a cached tree.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import replace

import numpy as np

from kernels import mancala_playout as playout
from solver.games import mancala as reference
from solver.games.mancala.mcts import mcts_best_move, mcts_state

RULES = reference.Rules(6, 4, capture_empty=False)


def rollouts(count: int, seed: int) -> float:
    state = mcts_state(replace(reference.new_game(RULES), capture_empty=False))
    start = time.perf_counter()
    playout.playout_stats(state, count, np.uint64(seed))
    return time.perf_counter() - start


def tree(simulations: int, seed: int, memory_mb: int | None):
    options = {} if memory_mb is None else dict(memory_mb=memory_mb)
    start = time.perf_counter()
    found = mcts_best_move(None, RULES, simulations=simulations, threads=1, seed=seed, **options)
    return time.perf_counter() - start, found


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=2_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--small-mb", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    n = args.simulations
    rollouts(1000, 0), tree(1000, 0, None)                 # warm-up: load the kernels
    times = {"rollouts": [], "small tree": [], "full tree": []}
    shape = {}
    for r in range(args.repeats):
        seed = args.seed + r
        times["rollouts"].append(rollouts(n, seed))
        for name, mb in (("small tree", args.small_mb), ("full tree", None)):
            seconds, found = tree(n, seed, mb)
            times[name].append(seconds)
            shape[name] = (found.nodes, found.max_depth)
    per = {name: statistics.median(t) / n * 1e6 for name, t in times.items()}
    print(f"Kalah(6,4) no-capture-empty from the start, {n:,} simulations, one thread, "
          f"medians of {args.repeats} interleaved repeats, load {os.getloadavg()[0]:.1f}")
    for name, us in per.items():
        extra = "" if name == "rollouts" else \
            f"   {shape[name][0]:,} nodes, deepest descent {shape[name][1]}"
        print(f"  {name:<11} {us:7.3f} us per simulation{extra}")
    print(f"  a big tree costs       {per['full tree'] - per['small tree']:7.3f} us per "
          f"simulation over a cached one (deeper descents, cache and memory misses)")
    print(f"  cached descent+backup <= {per['small tree'] - per['rollouts']:7.3f} us per "
          f"simulation (small tree minus rollouts from the start)")


if __name__ == "__main__":
    main()

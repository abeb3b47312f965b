"""MCTS and random-playout benchmarks (pytest-benchmark), from the Kalah(6,4) start. Run:

    python -m pytest benches/bench_mcts.py --benchmark-enable --benchmark-json=benches/mcts.json

Rates go to ``extra_info`` (playouts/s, plies/s, simulations/s), computed from the median round.
Compile time is excluded (a warm-up call runs before timing). The tree-only case replaces the
random playout by a constant outcome, which separates the tree's cost from the playouts'.
Reference point (the issue): OpenSpiel's C++ MCTS, about 180,000 simulations/s and 8 million
random-playout plies/s on this machine class.
"""
import numpy as np
import pytest
from numba import types

from kernels import mancala_playout as playout
from kernels._jit import kernel
from kernels.mancala import STATE
from solver.bench import mancala_positions
from solver.games.mancala import api as mancala
from solver.games.mancala.mcts import mcts_game, mcts_state
from solver.search import mcts

START = next(p["position"] for p in mancala_positions() if p["name"] == "start-6x4")
PLAYOUTS = 200_000
SIMULATIONS = 300_000


def start_state():
    return mcts_state(mancala.from_text(START))


@kernel(types.uint64(STATE, types.uint64, types.float64[::1]))
def draw_rollout(state, rng, out):
    """No playout at all: every leaf is a draw (measures the tree alone)."""
    out[0], out[1], out[2], out[3] = 0.5, 0.5, 0.0, 0.0
    return rng


def test_random_playouts(benchmark):
    state = start_state()
    playout.playout_stats(state, 10, np.uint64(1))
    plies, _ = benchmark.pedantic(playout.playout_stats, (state, PLAYOUTS, np.uint64(1)),
                                  rounds=5, warmup_rounds=1)
    seconds = benchmark.stats.stats.median
    benchmark.extra_info.update(playouts=PLAYOUTS, plies=int(plies),
                                playouts_per_second=PLAYOUTS / seconds,
                                plies_per_second=plies / seconds)


@pytest.mark.parametrize("threads", [1, 2])
def test_mcts_simulations(benchmark, threads):
    game, state = mcts_game(), start_state()
    mcts.search(game, state, simulations=1_000, threads=threads)
    found = benchmark.pedantic(mcts.search, (game, state),
                               dict(simulations=SIMULATIONS, threads=threads, seed=1),
                               rounds=5, warmup_rounds=1)
    benchmark.extra_info.update(simulations=found.simulations, threads=threads,
                                nodes=found.nodes, max_depth=found.max_depth,
                                simulations_per_second=found.simulations
                                / benchmark.stats.stats.median)


def test_mcts_tree_only(benchmark):
    game, state = mcts_game()._replace(rollout=draw_rollout), start_state()
    mcts.search(game, state, simulations=1_000)
    found = benchmark.pedantic(mcts.search, (game, state), dict(simulations=SIMULATIONS, seed=1),
                               rounds=5, warmup_rounds=1)
    benchmark.extra_info.update(simulations=found.simulations, max_depth=found.max_depth,
                                simulations_per_second=found.simulations
                                / benchmark.stats.stats.median)

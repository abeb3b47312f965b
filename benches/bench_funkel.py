"""Funkel Munkel speed (pytest-benchmark): whole games through the kernel and the Monte Carlo
estimator. Run:

    python -m pytest benches/bench_funkel.py --benchmark-enable --benchmark-json=benches/funkel.json

Rates go to ``extra_info`` from the median round; compile time is excluded (a warm-up call runs
first). Games start from fixed deals (seeds 0..DEALS-1) of each player count.
"""
import numpy as np
import pytest
from numba import types

from kernels import funkel as K
from kernels import funkel_playout as playout
from kernels._jit import kernel
from solver.games.funkel import api as funkel
from solver.games.funkel import Rules, new_game

DEALS = 64
GAMES = 20_000
SAMPLES = 2_000
STATES = types.uint64[:, ::1]


def deals(players: int) -> np.ndarray:
    return np.array([funkel.packed(new_game(Rules(players), seed)) for seed in range(DEALS)],
                    np.uint64)


@kernel(types.float64(STATES, types.int64, types.int64))
def random_games(starts, games, policy):
    """Play ``games`` whole games from the deals in turn (policy 0: ``kernels.funkel``'s random
    playout, 1: the random rollout, 2: the greedy rollout); return seat 0's total reward."""
    out = np.empty(16)
    total, rng = 0.0, np.uint64(1)
    for g in range(games):
        s = starts[g % starts.shape[0]]
        state = (s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
        if policy == 0:
            K.result(K.random_playout(state, np.uint64(g)), out)
        elif policy == 1:
            rng = playout.random_rollout(state, rng, out)
        else:
            rng = playout.greedy_rollout(state, rng, out)
        total += out[0]
    return total


@pytest.mark.parametrize("policy", [0, 1, 2], ids=["random_playout", "random_rollout",
                                                   "greedy_rollout"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games(benchmark, players, policy):
    starts = deals(players)
    games = GAMES if policy < 2 else GAMES // 5
    random_games(starts, 10, policy)
    benchmark.pedantic(random_games, args=(starts, games, policy), rounds=5, warmup_rounds=1)
    benchmark.extra_info["games_per_second"] = games / benchmark.stats.stats.median


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("rollout", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_estimator(benchmark, players, rollout, threads):
    """Rounds (hidden deals, each played out once per push) per second from a start position,
    early stopping off; with fewer samples for greedy rollouts (slower)."""
    state = new_game(Rules(players), seed=1)
    samples = SAMPLES if rollout == "random" else SAMPLES // 5
    funkel.estimate_moves(state, samples=50, rollout=rollout)
    found = benchmark.pedantic(
        lambda: funkel.estimate_moves(state, samples=samples, rollout=rollout, threads=threads,
                                      stop_when_separated=False), rounds=5, warmup_rounds=1)
    median = benchmark.stats.stats.median
    benchmark.extra_info.update(samples_per_second=samples / median,
                                playouts_per_second=found.playouts / median)

"""Monte Carlo move estimates for games with hidden state (Numba). Knows no game.

The game's compiled functions arrive as arguments typed ``numba.types.FunctionType(sig)``, and
:func:`rounds_kernel` compiles :func:`_rounds` for one explicit signature per state type, so a new
process loads it from the on-disk cache (DESIGN.md, "Compiled search receives the game's
functions as arguments").

Game contract, for a state type ``S`` (a tuple of uint64 words); ``play`` and ``rollout`` are the
MCTS kernel's (``kernels/mcts.py``), so one set of functions serves both searches::

    determinize(S, rng: uint64) -> S                a full state drawn uniformly among those
                                                    consistent with what the view S shows
    play(S, move: int64) -> (S, int64 info)         the state after a legal move (info unused)
    rollout(S, rng: uint64, out: float64[::1])      play from S (finished or not) to the end with
        -> uint64                                   the game's policy; out[s] = seat s's reward in
                                                    [0, 1] (out has room for 2 * MAX_SEATS)

A round: one determinization of the view, then each root move played on it and rolled out once.
Round r's randomness depends only on (seed, r), so any split of the rounds into batches and
threads gives the same rewards. All moves of a round share its determinization and its rollout
generator (common random numbers: the differences between moves are measured on the same deals).
"""
from functools import lru_cache

import numpy as np
from numba import types

from kernels._jit import fn, kernel
from kernels._random import stream_seed

MAX_SEATS = 8
REWARDS = types.float64[:, ::1]
MOVES = types.int64[::1]


def game_signatures(state_type):
    """The signatures a game's functions must be compiled for to be passed to the kernel."""
    return dict(
        determinize=state_type(state_type, types.uint64),
        play=types.Tuple((state_type, types.int64))(state_type, types.int64),
        rollout=types.uint64(state_type, types.uint64, types.float64[::1]),
    )


def _rounds(view, moves, seat, seed, first_round, rewards, determinize, play, rollout):
    """Rounds ``first_round ..`` (one per row of ``rewards``): ``rewards[j, i]`` = ``seat``'s
    reward after move ``moves[i]`` in round ``first_round + j``. Returns the rounds played."""
    out = np.empty(2 * MAX_SEATS)
    for j in range(rewards.shape[0]):
        stream = np.uint64(2 * (first_round + j))
        world = determinize(view, stream_seed(seed, stream))
        rollout_rng = stream_seed(seed, stream + np.uint64(1))
        for i in range(moves.shape[0]):
            child, _ = play(world, moves[i])
            rollout(child, rollout_rng, out)
            rewards[j, i] = out[seat]
    return rewards.shape[0]


@lru_cache(maxsize=None)
def rounds_kernel(state_type):
    """The compiled ``_rounds(view, moves, seat, seed, first_round, rewards, determinize, play,
    rollout) -> int64`` for a state type (compiled once per process, or loaded from the cache).
    It releases the GIL: threads may run it on separate row blocks of one rewards array."""
    game = game_signatures(state_type)
    signature = types.int64(state_type, MOVES, types.int64, types.uint64, types.int64, REWARDS,
                            fn(game["determinize"]), fn(game["play"]), fn(game["rollout"]))
    return kernel(signature)(_rounds)

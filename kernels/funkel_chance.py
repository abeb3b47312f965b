"""Funkel Munkel on its true chance structure, for the generic MCTS (``kernels.mcts``) (Numba).

Every seat sees the same, so a search can grow its tree over packed public views (unseen gems
marked, ``kernels.funkel_playout``) instead of over determinized deals: tree nodes are then
what the players can tell apart, and repeated simulations converge toward the expectimax /
max-n value (``kernels.funkel_exact``) instead of averaging the values of worlds each searched
as if its hidden gems were known (strategy fusion).

A push that makes a cart with an unseen gem leave the mine is split in two: the decision edge
leads to a chance node, the view before the push with ``action + 1`` in the unused control bits
48-55 (the exact solver's key for the same reveal); its outcomes are the gems of the unseen pool
(0..5, those with a count), with probability ``count / pool size``; an outcome writes the gem
into the leaving cart and plays the push. Other pushes play on the view as they are (a marked
gem falls into a cart still marked).

Rollouts leave the tree from a view: they first deal the unseen gems uniformly
(``sample_hidden``), which is the true distribution of what the rest of the game reveals, then
play the random or greedy policy on that full state. The contract (``kernels.mcts``)::

    legal_moves(S, out) -> n       decisions: kernels.funkel.legal_actions; chance: the gems
    play(S, move) -> (S, info)     info GAME_OVER when the game is over afterwards
    to_move(S) -> seat | CHANCE
    chance_probabilities(S, out) -> n
    returns(S, out) -> P           kernels.funkel_playout.returns (public on a view)
    random_rollout / greedy_rollout(S, rng, out) -> rng
    greedy_prior(S, out) -> n      at a decision node: 1 for each push the greedy policy rates
                                   best (equal best: all of them), 0 for the others

The prior is the progressive bias of ``kernels.mcts`` (option PRIOR): the tree opens the greedy
policy's pushes first and favours them while their visits are few. Its plain-Python reference
is ``solver.games.funkel.greedy`` (the greedy scores on the reference view).
"""
import numpy as np
from numba import types

from kernels._jit import kernel
from kernels._random import splitmix64
from kernels.contract import GAME_OVER
from kernels.funkel import STATE, TO_MOVE, WORDS, bits, get_cell, is_over, legal_actions, play, \
    set_cell
from kernels.funkel_exact import leaving_cell
from kernels.funkel_playout import (
    POOL_SIZE, TOTAL, as_state, greedy_rollout, greedy_scores, load, public_pool, random_rollout,
    sample_hidden)

F64, I64, U64 = types.float64, types.int64, types.uint64
CHANCE = -1
_SHIFT = np.uint64(48)
PRIOR_TIE = 1e-9           # greedy scores this close to the best count as best (the policy's tie)
_FIELD = np.uint64(0xFF) << _SHIFT


@kernel(I64(STATE))
def pending_push(state):
    """The push waiting for its reveal at a chance node; -1 at a decision node."""
    return np.int64((state[7] >> _SHIFT) & np.uint64(0xFF)) - 1


@kernel(STATE(STATE, I64))
def with_pending(state, push):
    return (state[0], state[1], state[2], state[3], state[4], state[5], state[6],
            (state[7] & ~_FIELD) | (np.uint64(push + 1) << _SHIFT))


@kernel(types.int64[::1](STATE))
def unseen_pool(state):
    """The unseen gems of the public view, by colour, and their total (``public_pool``)."""
    w = np.empty(WORDS, np.uint64)
    load(w, state)
    pool = np.empty(POOL_SIZE, np.int64)
    public_pool(w, pool)
    return pool


@kernel(I64(STATE, types.int64[::1]))
def chance_legal_moves(state, out):
    push = pending_push(state)
    if push < 0:
        return legal_actions(state, out)
    pool = unseen_pool(state)
    n = 0
    for g in range(6):
        if pool[g] > 0:
            out[n] = g
            n += 1
    return n


@kernel(I64(STATE, types.float64[::1]))
def chance_probabilities(state, out):
    pool = unseen_pool(state)
    n = 0
    for g in range(6):
        if pool[g] > 0:
            out[n] = pool[g] / pool[TOTAL]
            n += 1
    return n


@kernel(I64(STATE))
def chance_to_move(state):
    return CHANCE if pending_push(state) >= 0 else bits(state[7], TO_MOVE[0], TO_MOVE[1])


@kernel(STATE(STATE, I64, I64))
def reveal_and_push(state, push, gem):
    """The pushed-out cart's gem is ``gem``; then the push is played."""
    w = np.empty(WORDS, np.uint64)
    load(w, state)
    w[7] = w[7] & ~_FIELD
    cell = leaving_cell(as_state(w), push)
    byte = get_cell(w, cell)
    set_cell(w, cell, (byte & 0x07) | ((gem + 1) << 3) | 0x40)
    return play(as_state(w), push)


@kernel(types.Tuple((STATE, I64))(STATE, I64))
def chance_play(state, move):
    push = pending_push(state)
    if push >= 0:
        after = reveal_and_push(state, push, move)
    elif leaving_cell(state, move) >= 0:
        return with_pending(state, move), np.int64(0)
    else:
        after = play(state, move)
    return after, GAME_OVER if is_over(after) else np.int64(0)


@kernel(STATE(STATE, U64))
def dealt(state, rng):
    """A full state: a pending reveal drawn by the pool, then the unseen gems dealt uniformly."""
    push = pending_push(state)
    if push >= 0:
        plain = (state[0], state[1], state[2], state[3], state[4], state[5], state[6],
                 state[7] & ~_FIELD)
        return play(sample_hidden(plain, rng), push)
    return sample_hidden(state, rng)


@kernel(U64(STATE, U64, types.float64[::1]))
def view_random_rollout(state, rng, out):
    rng, r = splitmix64(rng)
    return random_rollout(dealt(state, r), rng, out)


@kernel(U64(STATE, U64, types.float64[::1]))
def view_greedy_rollout(state, rng, out):
    rng, r = splitmix64(rng)
    return greedy_rollout(dealt(state, r), rng, out)


@kernel(I64(STATE, types.float64[::1]))
def greedy_prior(state, out):
    """Progressive bias prior at a decision node: 1 for the greedy policy's best pushes (every
    action within PRIOR_TIE of the best score), 0 for the others, in legal_moves order."""
    n = greedy_scores(state, out)
    best = -np.inf
    for i in range(n):
        best = max(best, out[i])
    for i in range(n):
        out[i] = 1.0 if out[i] >= best - PRIOR_TIE else 0.0
    return n

"""Perft for any game: count the lines of exactly ``depth`` moves from a state.

Search code never imports a game. The game's compiled functions arrive as arguments typed
``numba.types.FunctionType(sig)``, and :func:`perft_kernel` compiles ``_perft`` for one explicit
signature per game, so a new process loads it from the on-disk cache (DESIGN.md, "Compiled search
receives the game's functions as arguments").

Game contract (the same as ``kernels/mancala.py``)::

    legal_moves(state, out: int64[::1]) -> int64    writes the moves to out[:n] and returns n;
                                                    n = 0 once the game is over
    play(state, move: int64) -> (next_state, info)  info (bits of what happened) is not used here

Counting is chess perft's: a leaf is a sequence of exactly ``depth`` moves, where an extra turn is
a move of its own. A finished game ends its line: it is a leaf at its own depth and counts nothing
at greater depths. ``perft(state, 0) == 1`` for every state, finished or not.

``moves_buffer``: ``int64[:, ::1]`` of shape ``(>= depth, >= the most legal moves of a position)``.
Row ``d - 1`` holds the moves of the position being expanded with ``d`` moves to go, so the
recursion allocates nothing.
"""
from functools import lru_cache

from numba import types

from kernels._jit import fn, kernel

MOVES_BUFFER = types.int64[:, ::1]
MOVE_LIST = types.int64[::1]


def _perft(state, depth, legal_moves, play, moves_buffer):
    """Leaves at exactly ``depth`` moves below ``state``."""
    if depth == 0:
        return 1
    moves = moves_buffer[depth - 1]
    n = legal_moves(state, moves)
    if depth == 1:
        return n  # bulk count: each legal move ends a line here, finished game or not
    leaves = 0
    for i in range(n):
        child, _ = play(state, moves[i])
        leaves += _perft(child, depth - 1, legal_moves, play, moves_buffer)
    return leaves


def _divide(state, depth, legal_moves, play, moves_buffer, perft, root_moves, counts):
    """Perft split by root move: writes the root's moves to ``root_moves[:n]`` and the leaves
    below each to ``counts[:n]``; returns n. ``depth`` >= 1; ``perft`` is the game's compiled
    ``_perft``, passed in like the game's functions because a kernel cannot name another one
    compiled per game."""
    n = legal_moves(state, root_moves)
    for i in range(n):
        child, _ = play(state, root_moves[i])
        counts[i] = perft(child, depth - 1, legal_moves, play, moves_buffer)
    return n


def perft_signature(state_type, legal_moves_sig, play_sig):
    """``_perft``'s signature for a game: its state type and its two functions' signatures."""
    return types.int64(state_type, types.int64, fn(legal_moves_sig), fn(play_sig), MOVES_BUFFER)


@lru_cache(maxsize=None)
def perft_kernel(state_type, legal_moves_sig, play_sig):
    """The compiled ``_perft(state, depth, legal_moves, play, moves_buffer) -> int64`` for a game
    (compiled once per process, or loaded from the on-disk cache)."""
    return kernel(perft_signature(state_type, legal_moves_sig, play_sig))(_perft)


@lru_cache(maxsize=None)
def divide_kernel(state_type, legal_moves_sig, play_sig):
    """The compiled ``_divide(state, depth, legal_moves, play, moves_buffer, perft, root_moves,
    counts) -> int64`` for a game; pass it :func:`perft_kernel` of the same game as ``perft``."""
    perft_sig = perft_signature(state_type, legal_moves_sig, play_sig)
    signature = types.int64(state_type, types.int64, fn(legal_moves_sig), fn(play_sig),
                            MOVES_BUFFER, fn(perft_sig), MOVE_LIST, MOVE_LIST)
    return kernel(signature)(_divide)

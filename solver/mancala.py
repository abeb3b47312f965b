"""Mancala glue: the reference rules (``solver.games.mancala``) joined to the packed kernel
(``kernels.mancala``). Converts positions and move names between the two."""
from __future__ import annotations

import numpy as np

from kernels import mancala as kernel
from kernels import perft as perft_kernels
from solver.errors import InputError
from solver.games.mancala import A, Position, Rules  # noqa: F401  (re-exported for callers)


def to_packed(pos: Position, capture_empty: bool = True) -> tuple[np.uint64, np.uint64]:
    """The kernel's ``(mover, other)`` words for a reference position."""
    side, m = pos.to_move, pos.m
    mover = kernel.pack_side(pos.side_pits(side), pos.stores[side], m, capture_empty)
    other = kernel.pack_side(pos.side_pits(1 - side), pos.stores[1 - side], m, capture_empty)
    return mover, other


def from_packed(state, to_move: int) -> Position:
    """The reference position of kernel words, given which side (A or B) is the mover."""
    mover_pits, mover_store, _, _ = kernel.unpack_side(state[0])
    other_pits, other_store, _, _ = kernel.unpack_side(state[1])
    if to_move == A:
        return Position(tuple(mover_pits + other_pits), (mover_store, other_store), A)
    return Position(tuple(other_pits + mover_pits), (other_store, mover_store), 1 - A)


def lane_of(move: int, side: int, m: int) -> int:
    """Kernel pit lane (0..m-1) of a rulebook bin number of ``side``."""
    return move - 1 - side * m


def move_of(lane: int, side: int, m: int) -> int:
    """Rulebook bin number of the mover's pit lane."""
    return lane + 1 + side * m


# --- perft -------------------------------------------------------------------------------------

def _game_signatures():
    """The kernel's state type and its legal_moves / play signatures (each compiled for one)."""
    return (kernel.STATE, kernel.legal_moves.nopython_signatures[0],
            kernel.play.nopython_signatures[0])


def _check_depth(depth: int, least: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < least:
        raise InputError(f"perft depth must be a whole number >= {least}, got {depth!r}")


def perft(pos: Position, depth: int, capture_empty: bool = True) -> int:
    """Lines of exactly ``depth`` sowings from ``pos`` (an extra turn is a sowing of its own; a
    finished game is a leaf at its own depth and counts nothing deeper). Depth 0 is 1."""
    _check_depth(depth, 0)
    count = perft_kernels.perft_kernel(*_game_signatures())
    moves_buffer = np.empty((max(int(depth), 1), pos.m), np.int64)
    return int(count(to_packed(pos, capture_empty), depth, kernel.legal_moves, kernel.play,
                     moves_buffer))


def perft_divide(pos: Position, depth: int, capture_empty: bool = True) -> dict[int, int]:
    """:func:`perft` split by first move: rulebook bin number -> leaves below it (depth >= 1)."""
    _check_depth(depth, 1)
    signatures = _game_signatures()
    count = perft_kernels.perft_kernel(*signatures)
    divide = perft_kernels.divide_kernel(*signatures)
    moves_buffer = np.empty((int(depth), pos.m), np.int64)
    root_lanes = np.empty(pos.m, np.int64)
    counts = np.empty(pos.m, np.int64)
    n = divide(to_packed(pos, capture_empty), depth, kernel.legal_moves, kernel.play,
               moves_buffer, count, root_lanes, counts)
    return {move_of(int(lane), pos.to_move, pos.m): int(leaves)
            for lane, leaves in zip(root_lanes[:n], counts[:n])}


def kernel_game():
    """The packed kernel's functions in the form the alpha-beta search takes them. The
    heuristic evaluation is the store difference (the value already banked)."""
    from solver.search.alphabeta import KernelGame
    return KernelGame(legal_moves=kernel.legal_moves, play=kernel.play,
                      evaluate=kernel.store_difference, score=kernel.score,
                      banked=kernel.store_difference, swing=kernel.stones_in_pits,
                      key=kernel.key)

"""Mancala glue: the reference rules (``solver.games.mancala``) joined to the packed kernel
(``kernels.mancala``). Converts positions and move names between the two."""
from __future__ import annotations

import numpy as np

from kernels import mancala as kernel
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

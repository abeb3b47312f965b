"""Mancala's kernel bridge in the registry's form (the conformance battery drives every game's
compiled engine through one interface): load a reference position into the packed kernel, then
list, play and score in compiled code, reading positions back for comparison."""
from __future__ import annotations

import numpy as np

from kernels import mancala as kernel
from solver.games.mancala.api import from_packed, lane_of, move_of, to_packed
from solver.games.mancala.rules import Position


class Engine:
    """The packed state (mover's word, other's word) and which side (A or B) is the mover."""

    def __init__(self, pos: Position):
        self.words, self.side, self.m = to_packed(pos), pos.to_move, pos.m

    def legal_actions(self) -> list[int]:
        lanes = np.empty(self.m, np.int64)
        n = kernel.legal_moves(self.words, lanes)
        return [move_of(int(lane), self.side, self.m) for lane in lanes[:n]]

    def apply(self, move: int) -> None:
        self.words, info = kernel.play(self.words, lane_of(move, self.side, self.m))
        if not info & kernel.EXTRA_TURN:
            self.side = 1 - self.side

    def is_over(self) -> bool:
        return bool(kernel.is_terminal(self.words))

    def result(self) -> tuple[float, float]:
        mover = int(kernel.score(self.words))      # final store difference, mover minus other
        a = mover if self.side == 0 else -mover
        return (1.0, 0.0) if a > 0 else (0.0, 1.0) if a < 0 else (0.5, 0.5)

    def state(self) -> Position:
        return from_packed(self.words, self.side)


def load(pos: Position) -> Engine:
    return Engine(pos)

"""Funkel Munkel's kernel bridge in the registry's form (the conformance battery drives every
game's compiled engine through one interface): the packed words of ``kernels.funkel``, actions
and results in compiled code, states read back for comparison."""
from __future__ import annotations

import numpy as np

from kernels import funkel as kernel
from solver.games.funkel.api import action_code, action_of, packed, reference_of
from solver.games.funkel.rules import State


class Engine:
    def __init__(self, state: State):
        self.words = packed(state)

    def legal_actions(self) -> list:
        out = np.empty(kernel.MAX_ACTIONS, np.int64)
        return [action_of(code) for code in out[:kernel.legal_actions(self.words, out)]]

    def apply(self, action) -> None:
        self.words = kernel.play(self.words, action_code(action))

    def is_over(self) -> bool:
        return bool(kernel.is_over(self.words))

    def result(self) -> tuple[float, ...]:
        out = np.empty(4)
        return tuple(float(x) for x in out[:kernel.result(self.words, out)])

    def state(self) -> State:
        return reference_of(self.words)


def load(state: State) -> Engine:
    return Engine(state)

"""Mancala by Monte Carlo tree search: the generic driver (``solver.search.mcts``) with the
packed kernel (``kernels.mancala``) and its random playouts (``kernels.mancala_playout``).

Outcome of a simulation for the side to move: 1 / 0.5 / 0 for a win / draw / loss by the final
store difference; the mean final store difference (side to move minus opponent, the current
stores included) is reported beside it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from kernels import mancala as kernel
from kernels import mancala_playout as playout
from solver.errors import InputError
from solver.games import mancala as reference
from solver.games.mancala import Position, Rules
from solver.games.mancala.api import move_of, playable_position, to_packed
from solver.search import mcts

DEFAULT_C = mcts.DEFAULT_C


def mcts_game(m: int = reference.MAX_PITS) -> mcts.MctsGame:
    """The Mancala functions in the form the MCTS kernel takes them (``m`` pits per side)."""
    return mcts.MctsGame(state_type=kernel.STATE, players=2, max_moves=m,
                         legal_moves=kernel.legal_moves, play=playout.play,
                         to_move=playout.to_move, returns=playout.returns,
                         rollout=playout.rollout)


def mcts_state(pos: Position):
    """The MCTS kernel state of a reference position (the packed pair, side B's word marked)."""
    return playout.mark_sides(to_packed(pos), pos.to_move)


@dataclass
class MoveStats:
    """One root move: simulations through it, the mover's mean outcome (win 1, draw 0.5, loss 0)
    and mean final store difference, and the exact outcome if the MCTS-Solver proved it."""

    visits: int
    mean_outcome: float
    mean_store_difference: float
    proven: float | None = None


@dataclass
class MctsMove:
    """An MCTS answer in the rulebook's bin numbers. ``proven``: the mover's exact outcome (1,
    0.5, 0) when the MCTS-Solver proved the root."""

    position: str
    rules: Rules
    move: int
    moves: dict[int, MoveStats]
    simulations: int
    seconds: float
    threads: int
    seed: int
    c: float
    nodes: int
    proven: float | None = None

    @property
    def simulations_per_second(self) -> float:
        return self.simulations / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict:
        """JSON-ready (a move never simulated has null means)."""
        return dict(position=self.position, pits=self.rules.pits, stones=self.rules.stones,
                    capture_empty=self.rules.capture_empty, move=self.move,
                    simulations=self.simulations, seconds=round(self.seconds, 6),
                    simulations_per_second=round(self.simulations_per_second),
                    threads=self.threads, seed=self.seed, c=self.c, nodes=self.nodes,
                    proven=self.proven,
                    moves=[dict(move=m, visits=s.visits, mean_outcome=_number(s.mean_outcome),
                                mean_store_difference=_number(s.mean_store_difference),
                                proven=s.proven)
                           for m, s in self.moves.items()])


def _number(x: float) -> float | None:
    return None if math.isnan(x) else x


def mcts_best_move(position: Position | str | None = None, rules: Rules | None = None, *,
                   simulations: int | None = None, seconds: float | None = None,
                   threads: int = 1, seed: int = 0, c: float = DEFAULT_C,
                   solver: bool = False, memory_mb: int = mcts.DEFAULT_MEMORY_MB) -> MctsMove:
    """MCTS (UCT, random playouts) from a position (the start of ``rules`` when None) for
    ``simulations`` and/or ``seconds`` (neither: ``mcts.DEFAULT_SIMULATIONS``) on ``threads``
    trees (root parallelism). The same seed, thread count and simulation budget give the same
    answer. ``solver``: MCTS-Solver backups of proven wins, draws and losses."""
    pos, rules = playable_position(position, rules)
    try:
        found = mcts.search(mcts_game(pos.m), mcts_state(pos),
                            simulations=simulations, seconds=seconds, threads=threads, seed=seed,
                            c=c, solver=solver, memory_mb=memory_mb)
    except ValueError as error:
        raise InputError(str(error)) from None
    side, m = pos.to_move, pos.m
    return MctsMove(
        position=reference.to_text(pos), rules=rules, move=move_of(found.move, side, m),
        moves={move_of(lane, side, m): MoveStats(s.visits, s.mean_reward, s.mean_score, s.proven)
               for lane, s in sorted(found.moves.items())},
        simulations=found.simulations, seconds=found.seconds, threads=found.threads, seed=seed,
        c=c, nodes=found.nodes, proven=found.proven)

"""Mancala by Monte Carlo tree search: the generic driver (``solver.search.mcts``) with the
packed kernel (``kernels.mancala``) and its random playouts (``kernels.mancala_playout``).

Outcome of a simulation for the side to move: 1 / 0.5 / 0 for a win / draw / loss by the final
store difference; the mean final store difference (side to move minus opponent, the current
stores included) is reported beside it.
"""
from __future__ import annotations

from dataclasses import replace

from kernels import mancala as kernel
from kernels import mancala_playout as playout
from solver.errors import InputError
from solver.games import mancala as reference
from solver.games.mancala import Position, Rules
from solver.games.mancala.api import move_of, playable_position, to_packed
from solver.options import (COUNT_MAX, TABLE_MB_MAX, THREADS_MAX, check_finite, check_seconds,
                            check_seed, check_whole)
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


MctsMove = mcts.MctsResult
"""An MCTS answer: the search's own record, its moves in the rulebook's bin numbers, with the
position and rules it answers. Per move ``mean_reward`` is the mover's mean outcome (win 1, draw
0.5, loss 0) and ``mean_score`` the mean final store difference; ``proven``: the mover's exact
outcome when the MCTS-Solver proved it."""


def mcts_best_move(position: Position | str | None = None, rules: Rules | None = None, *,
                   simulations: int | None = None, seconds: float | None = None,
                   threads: int = 1, seed: int = 0, c: float = DEFAULT_C,
                   solver: bool = False, memory_mb: int = mcts.DEFAULT_MEMORY_MB) -> MctsMove:
    """MCTS (UCT, random playouts) from a position (the start of ``rules`` when None) for
    ``simulations`` and/or ``seconds`` (neither: ``mcts.DEFAULT_SIMULATIONS``) on ``threads``
    trees (root parallelism). The same seed, thread count and simulation budget give the same
    answer. ``solver``: MCTS-Solver backups of proven wins, draws and losses."""
    pos, rules = playable_position(position, rules)
    if simulations is not None:     # the command line's limit: more would run for days
        simulations = check_whole(simulations, 1, COUNT_MAX, "simulations")
    seconds = None if seconds is None else check_seconds(seconds)
    threads, seed = check_whole(threads, 1, THREADS_MAX, "threads"), check_seed(seed)
    memory_mb = check_whole(memory_mb, 1, TABLE_MB_MAX, "memory_mb")
    c = check_finite(c, "c (the exploration constant)")
    try:
        found = mcts.search(mcts_game(pos.m), mcts_state(pos),
                            simulations=simulations, seconds=seconds, threads=threads, seed=seed,
                            c=c, solver=solver, memory_mb=memory_mb)
    except ValueError as error:
        raise InputError(str(error)) from None
    side, m = pos.to_move, pos.m
    return replace(found, move=move_of(found.move, side, m),
                   moves={move_of(lane, side, m): edge for lane, edge in sorted(found.moves.items())},
                   position=reference.to_text(pos), rules=rules)

"""Mancala, Kalah(m, n): the reference rules and notation (``rules``), the user API with the
kernel bridge (``api``) and the MCTS wrapper (``mcts``), loaded on demand.

This package re-exports the reference, so ``from solver.games import mancala`` is the oracle.
"""
from solver.games.mancala.rules import *  # noqa: F401,F403

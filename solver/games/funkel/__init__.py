"""Funkel Munkel: the reference rules (``rules``), positions as JSON (``codec``), and the user
API with the kernel bridge and the bots (``api``, loaded on demand).

This package re-exports the reference, so ``from solver.games import funkel`` is the oracle.
"""
from solver.games.funkel.codec import *  # noqa: F401,F403
from solver.games.funkel.rules import *  # noqa: F401,F403

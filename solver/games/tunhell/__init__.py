"""Tunhell: the reference rules (``rules``), its cards (``cards``), information sets and what a
view may claim (``infoset``), positions as JSON (``codec``); the compiled engine's bridge
(``engine``), the greedy policy (``greedy``) and the user API (``api``, loaded on demand).

This package re-exports the reference, so ``from solver.games import tunhell`` is the oracle.
"""
from solver.games.tunhell.cards import *  # noqa: F401,F403
from solver.games.tunhell.codec import *  # noqa: F401,F403
from solver.games.tunhell.infoset import *  # noqa: F401,F403
from solver.games.tunhell.rules import *  # noqa: F401,F403

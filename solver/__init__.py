"""solver: game-tree search and solver toolkit.

The public API is what this module exports; the README shows it with examples run as tests.
"""
from solver import mancala
from solver.errors import InputError
from solver.games.mancala import Position as MancalaPosition
from solver.games.mancala import Rules as MancalaRules

__version__ = "0.1.0"
__all__ = ["mancala", "InputError", "MancalaPosition", "MancalaRules", "__version__"]

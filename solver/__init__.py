"""solver: game-tree search and solver toolkit.

The public API is what this module exports; the README shows it with examples run as tests.
``solver.mancala`` loads with the package; ``solver.funkel``, ``solver.tunhell`` and
``solver.tables`` load on first use, so the Mancala command line does not pay for their kernels.
"""
import importlib

from solver import mancala
from solver.errors import InputError
from solver.games.mancala import Position as MancalaPosition
from solver.games.mancala import Rules as MancalaRules

__version__ = "0.1.0"
__all__ = ["mancala", "funkel", "tunhell", "tables", "InputError", "MancalaPosition",
           "MancalaRules", "__version__"]
_LAZY = ("funkel", "tunhell", "tables")


def __getattr__(name):
    if name in _LAZY:
        return importlib.import_module(f"solver.{name}")
    raise AttributeError(f"module 'solver' has no attribute {name!r}")

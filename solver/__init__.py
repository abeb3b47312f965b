"""solver: game-tree search and solver toolkit.

The public API is what this module exports; the README shows it with examples run as tests.
Every game's API (``solver.mancala``, ``solver.funkel``, ``solver.tunhell``) and ``solver.tables``
load on first use, so ``import solver`` (and ``solver --help``) compiles and imports nothing heavy.
"""
import importlib

from solver.errors import InputError

__version__ = "0.2.0"
__all__ = ["games", "mancala", "funkel", "tunhell", "tables", "InputError", "MancalaPosition",
           "MancalaRules", "__version__"]
_LAZY = {"mancala": "solver.games.mancala.api", "funkel": "solver.games.funkel.api",
         "tunhell": "solver.games.tunhell.api", "tables": "solver.tables",
         "games": "solver.games"}
_FROM_MANCALA = {"MancalaPosition": "Position", "MancalaRules": "Rules"}


def __getattr__(name):
    if name in _LAZY:
        return importlib.import_module(_LAZY[name])
    if name in _FROM_MANCALA:
        return getattr(importlib.import_module("solver.games.mancala.rules"), _FROM_MANCALA[name])
    raise AttributeError(f"module 'solver' has no attribute {name!r}")

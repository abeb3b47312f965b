"""Mancala endgame tables, the public entry points (the implementation is the top-level
``tables`` package, which knows nothing of ``solver``: this module hands it the Mancala rules'
version and turns positions in notation into pit counts and back).

``tables`` is also PyTables' import name: code that uses both imports this module instead.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from solver.errors import InputError
from tables.api import (BuildProgress, BuildReport, DirectoryInfo, Gap,  # noqa: F401
                        SearchTables, VerifyReport, default_directory)
from tables import api as _api
from tables.errors import TableError
from tables.format import Family


class TableInputError(TableError, InputError):
    """A ``TableError`` as this package's entry points raise it: an ``InputError`` as well, so
    ``except solver.InputError`` catches a bad table request like any other bad input (the
    ``tables`` package itself never imports ``solver``)."""


def _input_errors(function):
    @functools.wraps(function)
    def checked(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except TableError as error:
            if isinstance(error, InputError):
                raise
            raise TableInputError(str(error)) from None
    return checked


def _rules_version() -> int:
    from solver.games.mancala import INFO
    return INFO.rules_version


@_input_errors
def family(pits: int = 6, capture_empty: bool = True) -> Family:
    """The tables of Kalah(pits, n) under one capture rule, for the current Mancala rules."""
    return Family(pits, capture_empty, _rules_version())


@_input_errors
def build(max_stones: int, directory=None, capture_empty: bool = True, workers: int | None = None,
          scheduler: str | None = None, progress=None, pits: int = 6,
          memory_mb: int | None = None) -> BuildReport:
    """``tables.api.build`` for the current rules (see there)."""
    return _api.build(max_stones, directory, family(pits, capture_empty), workers, scheduler,
                      progress, memory_mb)


@_input_errors
def info(directory=None, pits: int | None = None) -> DirectoryInfo:
    return _api.info(directory, _rules_version(), pits)


@_input_errors
def verify(directory=None, sample: int = 0, seed: int | None = None,
           pits: int | None = None) -> VerifyReport:
    return _api.verify(directory, sample, seed, _rules_version(), pits)


@_input_errors
def load_for_search(directory=None, capture_empty: bool = True, max_level: int | None = None,
                    pits: int = 6) -> SearchTables:
    return _api.load_for_search(directory, family(pits, capture_empty), max_level)


@_input_errors
def build_for_search(max_stones: int, capture_empty: bool = True, pits: int = 6,
                     workers: int | None = None) -> SearchTables:
    """Levels 1..max_stones computed in memory for one search (no files): ``tables.api``'s."""
    return _api.build_for_search(max_stones, family(pits, capture_empty), workers)


@dataclass
class ProbeResult:
    """A position looked up in the tables.

    ``gain``: V, the side to move's future store gain minus the opponent's; ``value``: the final
    store difference, side to move minus opponent (current stores + V), the same number as an
    exact ``best mancala`` value. ``moves``: {bin: value after that move, side to move's view}
    when the tables hold every child's level."""

    position: str
    capture_empty: bool
    level: int
    gain: int
    value: int
    best: list[int]
    moves: dict[int, int] | None
    pits: int = 6


@_input_errors
def probe(position_text: str, directory=None, capture_empty: bool = True) -> ProbeResult:
    """Look a Kalah(m, n) position up in the tables of ``directory`` (the level file of its
    stones in pits must be there)."""
    from solver.games import mancala as reference
    pos = reference.from_text(position_text)
    m = pos.m
    mover = pos.to_move
    own = pos.pits[:m] if mover == reference.A else pos.pits[m:]
    theirs = pos.pits[m:] if mover == reference.A else pos.pits[:m]
    banked = pos.stores[mover] - pos.stores[1 - mover]
    found = _api.probe(tuple(own) + tuple(theirs), directory, family(m, capture_empty))
    from solver.games.mancala.api import move_of    # NumPy: once a level file is there
    moves = None if found.moves is None else {
        move_of(lane, mover, m): banked + gain for lane, gain in found.moves.items()}
    best = [] if not moves else [b for b, v in moves.items() if v == max(moves.values())]
    return ProbeResult(reference.to_text(pos), capture_empty, found.level, found.gain,
                       banked + found.gain, best, moves, m)

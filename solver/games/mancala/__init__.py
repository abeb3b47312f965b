"""Mancala, Kalah(m, n): the reference rules and notation (``rules``), the user API with the
kernel bridge (``api``) and the MCTS wrapper (``mcts``), loaded on demand.

This package re-exports the reference, so ``from solver.games import mancala`` is the oracle.
"""
from solver.games.mancala.rules import *  # noqa: F401,F403

import dataclasses

from solver.games import Game
from solver.games.mancala.rules import INFO, MAX_PITS
from solver.options import (MEMORY_TABLES_HELP, MEMORY_TABLES_MAX, NO_TABLES_HELP, TABLE_MB_MAX,
                            Option, count, folder, seconds, seed, whole)

# The options of a proof, ``best mancala --exact`` and ``solve mancala`` alike.
PROOF_OPTIONS = (
    Option("--tables", folder, "endgame tables to probe (default: those in the per-user table "
           "folder, if built)", metavar="DIR", group="tables"),
    Option("--no-tables", None, NO_TABLES_HELP, group="tables"),
    Option("--memory-tables", whole(1, MEMORY_TABLES_MAX, "--memory-tables"), MEMORY_TABLES_HELP,
           metavar="N"),
    Option("--table-mb", whole(1, TABLE_MB_MAX, "--table-mb"), "transposition table size "
           "(default 64; with --depth D 1 to 64 by the depth, with --exact or solve 16 to 1024 by "
           "the stones in play)", metavar="MB"),
    Option("--max-seconds", seconds, "stop after about S seconds with the bounds proven so far",
           metavar="S"),
    Option("--max-nodes", count, "stop after about N nodes with the bounds proven so far",
           metavar="N"),
)


def _with_exact(option: Option) -> Option:
    """A proof option as ``best`` shows it: it goes with ``--exact`` there."""
    return dataclasses.replace(option, help="with --exact: " + option.help)


GAME = Game(
    info=INFO,
    commands="solver.games.mancala.commands",
    api="solver.games.mancala.api",
    capabilities=frozenset({"alphabeta", "exact", "mcts", "tables", "perft"}),
    rules_options=(
        Option("--pits", whole(1, MAX_PITS, "pits per side"), "pits per side (default 6, or as "
               "the position has)", metavar="M"),
        Option("--stones", whole(1, 127, "stones per pit"), "stones per pit at the start "
               "(default 4; checked against the position when given)", metavar="N"),
        Option("--no-capture-empty", None, "capture only when the opposite pit holds stones",
               default=True, dest="capture_empty"),
    ),
    best_options=(
        Option("--time", seconds, "search for about S seconds (default 3)", metavar="S",
               group="budget"),
        Option("--depth", whole(1, 254, "the depth"), "search D sowings deep", metavar="D",
               group="budget"),
        Option("--exact", None, "prove the game-theoretic value", group="budget"),
        Option("--mcts", None, "Monte Carlo tree search instead of alpha-beta"),
        Option("--simulations", count, "with --mcts: N simulations (default 100000 when no "
               "--time)", metavar="N"),
        Option("--threads", whole(1, 256, "threads"), "with --mcts: T trees in parallel (root "
               "parallelism); with --exact: T threads share one proof's table", metavar="T"),
        Option("--seed", seed, "with --mcts: random seed (default 0)", metavar="S"),
        Option("--all-moves", None, "also give every legal move's value: exact with --exact "
               "(or once the search reaches every game end), else to the same depth"),
        *(option if option.flag == "--table-mb" else _with_exact(option)
          for option in PROOF_OPTIONS),
    ),
    position_help="'P1,...,Pm/Pm+1,...,P2m SA-SB X' (default: the start)",
    position_required=False,
    variants=(dict(pits=6, stones=4), dict(pits=6, stones=4, capture_empty=False),
              dict(pits=3, stones=3), dict(pits=1, stones=2)),
    bench_positions="mancala.txt",
    human_play=True,
)

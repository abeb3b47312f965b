"""Mancala on the command line: what ``solver best|new|play|match mancala`` call, and how their
answers are printed. The parsers come from the options the registry record declares."""
from __future__ import annotations

import sys
from dataclasses import replace
from time import perf_counter as _clock

from solver.errors import InputError
from solver.games.mancala import rules as reference


def rules_and_position(position: str | None, pits, stones, capture_empty):
    return reference.position_and_rules(position, pits, stones, capture_empty)


def best(position: str | None, rules_options: dict, options: dict):
    """Alpha-beta (timed, to a depth, or exact) or, with ``mcts``, Monte Carlo tree search."""
    pos, rules = rules_and_position(position, **rules_options)
    if options["mcts"]:
        return _mcts(pos, rules, options)
    for option in ("simulations", "threads", "seed"):
        if options[option] is not None and not (option == "threads" and options["exact"]):
            also = " or --exact" if option == "threads" else ""
            raise InputError(f"--{option} goes with --mcts{also}")
    pos, rules = reference.playable_position(pos, rules)
    if not options["exact"]:
        for option in ("max_seconds", "max_nodes"):
            if options[option] is not None:
                raise InputError(f"--{option.replace('_', '-')} goes with --exact")
    from solver.games.mancala.api import best_move     # compiled: only once the input is good
    progress = ProofProgress() if options["exact"] else None
    try:
        return best_move(pos, rules, seconds=options["time"], depth=options["depth"],
                         exact=options["exact"], all_moves=options["all_moves"],
                         table_mb=options["table_mb"],
                         tables=False if options["no_tables"] else options["tables"],
                         max_seconds=options["max_seconds"], max_nodes=options["max_nodes"],
                         progress=progress, threads=options["threads"] or 1,
                         memory_tables=options["memory_tables"])
    finally:
        if progress is not None:
            progress.close()


def _mcts(pos, rules, options):
    if options["depth"] is not None or options["exact"] or options["all_moves"] or \
            options["max_seconds"] is not None or options["max_nodes"] is not None or \
            options["tables"] is not None or options["no_tables"] or \
            options["table_mb"] is not None or options["memory_tables"] is not None:
        raise InputError("--mcts takes --simulations and/or --time, not --depth, --exact, "
                         "--all-moves, --max-seconds, --max-nodes, --tables, --no-tables, "
                         "--memory-tables or --table-mb")
    from solver.games.mancala.mcts import mcts_best_move    # compiled: once the input is good
    return mcts_best_move(pos, rules, simulations=options["simulations"],
                          seconds=options["time"], threads=options["threads"] or 1,
                          seed=options["seed"] or 0)


def best_text(found) -> str:
    if hasattr(found, "simulations"):      # an MCTS answer (its module stays unimported)
        return _mcts_text(found)
    rules, pos = found.rules, reference.from_text(found.position)  # any stone count: no rules check
    capture = "also from an empty opposite pit" if rules.capture_empty else \
        "only from a non-empty opposite pit"
    how = "exact" if found.exact else f"depth {found.depth}"
    lines = [f"Kalah({rules.pits},{rules.stones}) position {found.position}   "
             f"(captures {capture})", "", reference.draw(pos), ""]
    if found.proof and found.stopped is not None:
        lines.append(f"NOT FINISHED ({found.stopped}): value for the side to move proven in "
                     f"[{found.lower:+d}, {found.upper:+d}]")
    else:
        lines += [f"best move: {found.move}   value: {found.value:+d} ({how})",
                  f"line: {' '.join(map(str, found.pv))}"]
    if found.move_bounds is not None:
        lines.append("moves: " + "  ".join(f"{m}: {bounds_text(*b)}"
                                           for m, b in found.move_bounds.items()))
    elif found.moves is not None:
        lines.append("moves: " + "  ".join(f"{m}: {v:+d}" for m, v in found.moves.items()))
    lines.append(f"nodes: {found.nodes:,} ({found.expanded:,} expanded)   "
                 f"nodes/s: {found.nodes_per_second:,.0f}   time: {found.seconds:.3f} s")
    if found.table_levels:
        lines.append(f"endgame tables: levels 1..{found.table_levels}"
                     f"{built_text(found.table_build_seconds)}, "
                     f"{found.table_hits:,} positions looked up")
    return "\n".join(lines)


class ProofProgress:
    """A long proof's bounds on stderr once it has run a couple of seconds (``solve mancala``,
    ``best mancala --exact``): one line redrawn in place on a terminal, else a line at most
    every few seconds (logs)."""

    QUIET_SECONDS = 2.0

    def __init__(self, every: float = 5.0):
        self.live, self.every, self.last = sys.stderr.isatty(), every, None

    def __call__(self, proof) -> None:
        # The first line comes once the quiet seconds are over; a log then gets one line
        # every few seconds, a terminal a redraw each time.
        if proof.seconds < self.QUIET_SECONDS or (not self.live and self.last is not None
                                                   and proof.seconds - self.last < self.every):
            return
        self.last = proof.seconds
        openings = " ".join(f"{o.name}:{bounds_text(o.lower, o.upper)}" for o in proof.openings)
        parts = [f"value {bounds_text(proof.lower, proof.upper)}", openings,
                 f"{proof.nodes:,} nodes {proof.nodes_per_second / 1e6:.1f} M/s",
                 _hours_minutes_seconds(proof.seconds)]
        text = "  ".join(part for part in parts if part)   # best --exact has no openings
        if self.live:
            print("\r" + text[:200] + "\x1b[K", end="", file=sys.stderr, flush=True)
        else:
            print(text + "\n", end="", file=sys.stderr, flush=True)   # one write (see cli)

    def close(self) -> None:
        if self.live and self.last is not None:
            print(file=sys.stderr)


def built_text(seconds: float | None) -> str:
    """How the endgame levels were had: '' when read from files."""
    return "" if seconds is None else f" (computed in memory in {seconds:.2f} s)"


def bounds_text(lower: int, upper: int) -> str:
    return f"{lower:+d}" if lower == upper else f"[{lower:+d},{upper:+d}]"


def _hours_minutes_seconds(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _mcts_text(found) -> str:
    rules, pos = found.rules, reference.from_text(found.position)  # any stone count: no rules check
    lines = [f"Kalah({rules.pits},{rules.stones}) position {found.position}   (MCTS, "
             f"{found.threads} thread{'s' * (found.threads > 1)}, seed {found.seed})", "",
             reference.draw(pos), "",
             f"best move: {found.move}" + ("" if found.proven is None else
                                           f"   proven outcome: {found.proven:g}"),
             f"{'move':>6} {'visits':>10} {'win rate':>9} {'store diff':>11}"]
    for move, stats in found.moves.items():
        lines.append(f"{move:>6} {stats.visits:>10,} {stats.mean_reward:>9.3f} "
                     f"{stats.mean_score:>+11.2f}")
    lines.append(f"simulations: {found.simulations:,}   simulations/s: "
                 f"{found.simulations_per_second:,.0f}   time: {found.seconds:.3f} s")
    return "\n".join(lines)


def new(rules_options: dict, seed: int, options: dict) -> str:
    """The start position of Kalah(pits, stones) in notation (the game has no deal: ``seed`` is
    only echoed by the CLI)."""
    _, rules = rules_and_position(None, **rules_options)
    return reference.to_text(reference.new_game(rules))


def play(rules_options: dict, bots: list, seed: int, observer=None):
    from solver.games.mancala.bots import play_game
    _, rules = rules_and_position(None, **rules_options)
    return play_game(rules, bots, seed, observer=observer)


def match(rules_options: dict, bots: list, games: int, seed: int):
    from solver.games.mancala.bots import match as run
    _, rules = rules_and_position(None, **rules_options)
    return run(rules, bots, games, seed)


def bots():
    from solver.games.mancala.bots import BOTS
    return BOTS


def describe_moves(pos) -> str:
    return "bins " + ", ".join(map(str, reference.legal_actions(pos)))


# --- solver bench -------------------------------------------------------------------------------

def bench_positions() -> list[dict]:
    from solver.bench import mancala_positions
    return mancala_positions()


def bench_searches():
    from solver.bench import BenchSearch
    return [BenchSearch("mancala", "alphabeta", _bench_alphabeta, _bench_warm_up),
            BenchSearch("mancala", "perft", _bench_perft, _bench_warm_up)]


def _bench_alphabeta(entry: dict, depth: int | None, threads: int) -> int:
    from solver.games.mancala import api as mancala
    from solver.search.alphabeta import AlphaBeta
    engine = AlphaBeta(mancala.kernel_game(), 64)
    engine.clear_table()  # page the table in before the clock starts
    state = mancala.to_packed(replace(mancala.from_text(entry["position"]), capture_empty=entry["capture_empty"]))
    start = _clock()
    found = engine.iterate(state, max_depth=depth or 20)
    entry["_seconds"] = _clock() - start
    return found.nodes


def _bench_perft(entry: dict, depth: int | None, threads: int) -> int:
    from solver.games.mancala import api as mancala
    pos = mancala.from_text(entry["position"])
    start = _clock()
    leaves = mancala.perft(replace(pos, capture_empty=entry["capture_empty"]), min(depth or 10, 12))
    entry["_seconds"] = _clock() - start
    return leaves


def _bench_warm_up():
    from solver.games.mancala import api as mancala
    mancala.best_move("1,1/1,1 0-0 A", depth=2)
    mancala.perft(mancala.new_game(), 2)



"""`solver ...`: parse the command line, call the API, print. Nothing else lives here.

Bad input ends with one line on stderr and exit code 2, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import sys

from solver.errors import InputError

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (``solver: error: ...``) and exit code 2."""

    def error(self, message):
        raise InputError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="solver", description="Game-tree search and solver toolkit.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    best = commands.add_parser("best", help="best move of a position")
    best_games = best.add_subparsers(dest="game", required=True, parser_class=_Parser)
    mancala = best_games.add_parser("mancala", help="Kalah(m,n): exact or timed alpha-beta")
    mancala.add_argument("position", nargs="?", help="'P1,...,Pm/Pm+1,...,P2m SA-SB X' "
                         "(default: the start)")
    _mancala_rules_options(mancala)
    budget = mancala.add_mutually_exclusive_group()
    budget.add_argument("--time", type=float, metavar="S", help="search for about S seconds "
                        "(default 3)")
    budget.add_argument("--depth", type=int, metavar="D", help="search D sowings deep")
    budget.add_argument("--exact", action="store_true", help="prove the game-theoretic value")
    mancala.add_argument("--mcts", action="store_true",
                         help="Monte Carlo tree search instead of alpha-beta")
    mancala.add_argument("--simulations", type=int, metavar="N",
                         help="with --mcts: N simulations (default 100000 when no --time)")
    mancala.add_argument("--threads", type=int, default=1, metavar="T",
                         help="with --mcts: T trees in parallel (root parallelism)")
    mancala.add_argument("--seed", type=int, default=0, help="with --mcts: random seed")
    mancala.add_argument("--all-moves", action="store_true",
                         help="also give the exact value of every legal move")
    mancala.add_argument("--tables", metavar="DIR", help="endgame tables to probe (default: "
                         "those in the per-user table folder, with --exact)")
    mancala.add_argument("--no-tables", action="store_true", help="probe no endgame tables")
    mancala.add_argument("--table-mb", type=int, metavar="MB",
                         help="transposition table size (default 64; with --exact 16 to 1024 by the "
                         "stones in play)")
    mancala.add_argument("--json", action="store_true", help="print one JSON object")
    mancala.set_defaults(run=_best_mancala)

    funkel = best_games.add_parser("funkel", help="Funkel Munkel: Monte Carlo estimate of "
                                   "every push")
    funkel.add_argument("position", metavar="POSITION.json", help="a position file ('-': "
                        "standard input), as `solver new funkel` prints")
    funkel_budget = funkel.add_mutually_exclusive_group()
    funkel_budget.add_argument("--time", type=float, metavar="S", help="estimate for S seconds")
    funkel_budget.add_argument("--samples", type=int, metavar="N",
                               help="N samples (mc: hidden deals; mcts: simulations)")
    funkel.add_argument("--method", choices=["mc", "mcts", "chance-mcts"], default="mc",
                        help="mc: flat Monte Carlo (default); mcts: determinized MCTS; "
                        "chance-mcts: MCTS over public views with chance nodes at reveals")
    funkel.add_argument("--exact", action="store_true", help="solve exactly (small positions): "
                        "each push's win probability under best play")
    funkel.add_argument("--max-states", type=int, metavar="N", help="with --exact: give up "
                        "beyond N table entries (default 1400000)")
    funkel.add_argument("--rollout", choices=["random", "greedy"], default="random")
    funkel.add_argument("--seat", type=int, help="the asking seat (must be the seat to move)")
    funkel.add_argument("--threads", type=int, default=1, metavar="T")
    funkel.add_argument("--seed", type=int, default=0)
    funkel.add_argument("--json", action="store_true", help="print one JSON object")
    funkel.set_defaults(run=_best_funkel)

    tunhell = best_games.add_parser("tunhell", help="Tunhell: ISMCTS or determinized Monte "
                                    "Carlo estimate of every action")
    tunhell.add_argument("position", metavar="POSITION.json", help="one seat's view as `solver "
                         "new tunhell` prints ('-': standard input)")
    tunhell_budget = tunhell.add_mutually_exclusive_group()
    tunhell_budget.add_argument("--time", type=float, metavar="S", help="search for S seconds")
    tunhell_budget.add_argument("--iterations", type=int, metavar="N", help="N playouts")
    tunhell.add_argument("--method", choices=["ismcts", "pimc"], default="ismcts")
    tunhell.add_argument("--seat", type=int, help="the asking seat (must be the position's)")
    tunhell.add_argument("--threads", type=int, default=1, metavar="T")
    tunhell.add_argument("--seed", type=int, default=0)
    tunhell.add_argument("--json", action="store_true", help="print one JSON object")
    tunhell.set_defaults(run=_best_tunhell)

    new = commands.add_parser("new", help="print a new game's position")
    new_games = new.add_subparsers(dest="game", required=True, parser_class=_Parser)
    funkel = new_games.add_parser("funkel", help="a dealt Funkel Munkel start, as JSON")
    _funkel_table_options(funkel)
    funkel.add_argument("--view", action="store_true", help="only what the players see")
    funkel.set_defaults(run=_new_funkel)
    tunhell = new_games.add_parser("tunhell", help="a dealt Tunhell start, seen by one seat")
    _tunhell_table_options(tunhell)
    tunhell.add_argument("--seat", type=int, default=0, help="whose view (default 0)")
    tunhell.set_defaults(run=_new_tunhell)

    play = commands.add_parser("play", help="print a whole game played by bots")
    play_games = play.add_subparsers(dest="game", required=True, parser_class=_Parser)
    funkel = play_games.add_parser("funkel", help="a Funkel Munkel game, push by push")
    _funkel_table_options(funkel)
    funkel.add_argument("--bots", required=True, metavar="B1,B2,...",
                        help="one bot per seat: random, greedy, mc[:SAMPLES[:ROLLOUT]], "
                        "mcts[:SIMULATIONS[:DEALS]]")
    funkel.add_argument("--json", action="store_true", help="print the frames as JSON")
    funkel.set_defaults(run=_play_funkel)
    tunhell = play_games.add_parser("tunhell", help="a Tunhell game, turn by turn")
    _tunhell_table_options(tunhell)
    tunhell.add_argument("--bots", required=True, metavar="B1,B2,...", help="one bot per "
                         "seat: random, greedy, pimc[:ITERATIONS], ismcts[:ITERATIONS]")
    tunhell.add_argument("--json", action="store_true", help="print the turns as JSON")
    tunhell.set_defaults(run=_play_tunhell)

    match = commands.add_parser("match", help="bots against each other, seats rotating")
    match_games = match.add_subparsers(dest="game", required=True, parser_class=_Parser)
    funkel = match_games.add_parser("funkel", help="Funkel Munkel win rates with 95% intervals")
    _funkel_table_options(funkel)
    funkel.add_argument("--bots", required=True, metavar="B1,B2,...", help="one bot per seat")
    funkel.add_argument("--games", type=int, default=100, metavar="G")
    funkel.add_argument("--json", action="store_true", help="print one JSON object")
    funkel.set_defaults(run=_match_funkel)
    tunhell = match_games.add_parser("tunhell", help="Tunhell win rates with 95% intervals")
    _tunhell_table_options(tunhell)
    tunhell.add_argument("--bots", required=True, metavar="B1,B2,...", help="one bot per seat")
    tunhell.add_argument("--games", type=int, default=100, metavar="G")
    tunhell.add_argument("--json", action="store_true", help="print one JSON object")
    tunhell.set_defaults(run=_match_tunhell)

    solve = commands.add_parser("solve", help="prove the value of a whole game")
    solve_games = solve.add_subparsers(dest="game", required=True, parser_class=_Parser)
    mancala = solve_games.add_parser("mancala", help="Kalah(m,n) from the start")
    mancala.add_argument("--pits", type=int, default=6, metavar="M")
    mancala.add_argument("--stones", type=int, default=4, metavar="N")
    mancala.add_argument("--no-capture-empty", dest="capture_empty", action="store_false")
    mancala.add_argument("--tables", metavar="DIR", help="endgame tables (default: the per-user "
                         "table folder's, if built)")
    mancala.add_argument("--no-tables", action="store_true", help="probe no endgame tables")
    mancala.add_argument("--table-mb", type=int, metavar="MB", help="transposition table size")
    mancala.add_argument("--json", action="store_true", help="print one JSON object")
    mancala.set_defaults(run=_solve_mancala)

    _tables_commands(commands)

    perft = commands.add_parser("perft", help="count move sequences (move-generator check)")
    perft_games = perft.add_subparsers(dest="game", required=True, parser_class=_Parser)
    mancala = perft_games.add_parser("mancala", help="leaf nodes at exactly DEPTH sowings")
    mancala.add_argument("position", nargs="?", help="position (default: the start)")
    mancala.add_argument("depth", type=int, help="sowings")
    _mancala_rules_options(mancala)
    mancala.add_argument("--divide", action="store_true", help="count per first move")
    mancala.add_argument("--json", action="store_true", help="print one JSON object")
    mancala.set_defaults(run=_perft_mancala)
    bench = commands.add_parser("bench", help="profile search speed on fixed positions")
    bench.add_argument("games", nargs="*", metavar="GAME", help="games to run (default: all)")
    bench.add_argument("--depth", type=int, metavar="D", help="search depth (default: each "
                       "search's own)")
    bench.add_argument("--threads", type=int, default=1, metavar="T", help="threads (default 1)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--plot", metavar="FILE.png", help="also draw nodes/second per position "
                       "(needs matplotlib)")
    bench.set_defaults(run=_bench)
    return parser


def _bench(args) -> str:
    from solver import bench
    report = bench.run_bench(args.games, args.depth, args.threads)
    if args.plot:
        bench.plot(report, args.plot)
    return json.dumps(report.to_dict()) if args.json else report.table()


def _tables_commands(commands):
    tables = commands.add_parser("tables", help="Mancala endgame tables: build, info, verify, "
                                 "probe")
    actions = tables.add_subparsers(dest="action", required=True, parser_class=_Parser)
    build = actions.add_parser("build", help="build every level up to --max-stones (resumable)")
    build.add_argument("game", choices=["mancala"])
    build.add_argument("--max-stones", type=int, required=True, metavar="N",
                       help="stones in the pits of the largest level")
    build.add_argument("--no-capture-empty", dest="capture_empty", action="store_false")
    build.add_argument("--workers", type=int, metavar="K", help="threads (default: all cores)")
    build.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="run the build on this Dask cluster (workers share --dir)")
    build.set_defaults(run=_tables_build)
    info = actions.add_parser("info", help="what a table folder holds")
    info.set_defaults(run=_tables_info)
    verify = actions.add_parser("verify", help="check checksums, then recompute samples")
    verify.add_argument("--sample", type=int, default=0, metavar="K",
                        help="random positions to recompute by exact search")
    verify.add_argument("--seed", type=int)
    verify.set_defaults(run=_tables_verify)
    probe = actions.add_parser("probe", help="look a position up")
    probe.add_argument("position", help="'P1,...,P6/P7,...,P12 SA-SB X'")
    probe.add_argument("--no-capture-empty", dest="capture_empty", action="store_false")
    probe.set_defaults(run=_tables_probe)
    for parser in (build, info, verify, probe):
        parser.add_argument("--dir", metavar="DIR", help="table folder (default: "
                            "$XDG_DATA_HOME/solver/tables or ~/.local/share/solver/tables)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")


class _ProgressBar:
    """Build progress on stderr: a bar redrawn in place on a terminal, a line per level
    otherwise (logs)."""

    def __init__(self):
        self.live = sys.stderr.isatty()
        self.last_level = None

    def __call__(self, p):
        fraction = p.positions_done / p.positions_total if p.positions_total else 1.0
        left = "?" if p.seconds_left is None else _clock(p.seconds_left)
        text = (f"level {p.level:2d}/{p.max_level} {p.stage:<5} "
                f"[{'#' * int(30 * fraction):<30}] {fraction:6.1%}  "
                f"{p.rate / 1e6:6.2f} M positions/s  {_clock(p.seconds)} elapsed, {left} left")
        if self.live:
            print("\r" + text, end="", file=sys.stderr, flush=True)
        elif p.stage != "build" and p.level != self.last_level:
            print(text, file=sys.stderr, flush=True)
            self.last_level = p.level

    def close(self):
        if self.live:
            print(file=sys.stderr)


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _tables_build(args) -> str:
    from solver import tables
    bar = _ProgressBar()
    try:
        report = tables.build(args.max_stones, args.dir, args.capture_empty, args.workers,
                              args.scheduler, progress=bar)
    finally:
        bar.close()
    out = dict(directory=str(report.directory), capture_empty=report.capture_empty,
               max_level=report.max_level, built=report.built, loaded=report.loaded,
               positions=report.positions, seconds=round(report.seconds, 3),
               positions_per_second=round(report.rate), threads=report.workers)
    if args.json:
        return json.dumps(out)
    return (f"{report.directory}: levels 1..{report.max_level} "
            f"({_rule(report.capture_empty)}) ready; "
            f"built {len(report.built)}, found {len(report.loaded)}; "
            f"{report.positions:,} positions in {report.seconds:.1f} s "
            f"({report.rate / 1e6:.1f} M positions/s on {report.workers} threads)")


def _tables_info(args) -> str:
    from solver import tables
    found = tables.info(args.dir)
    if args.json:
        return json.dumps(dict(directory=str(found.directory), files=[
            dict(file=f.path.name, level=f.level, capture_empty=f.capture_empty,
                 entries=f.entries, bytes=f.bytes, problem=f.problem) for f in found.files],
            leftovers=[p.name for p in found.leftovers]))
    lines = [f"{found.directory}: {len(found.files)} table files"]
    for rule in (True, False):
        levels = found.levels(rule)
        if levels:
            size = sum(f.bytes for f in found.files if f.capture_empty == rule)
            lines.append(f"  {_rule(rule):<17} levels "
                         f"{_ranges(levels)}  {size / 2**20:,.1f} MiB")
    lines += [f"  unusable: {f.path.name}: {f.problem}" for f in found.files if f.problem]
    lines += [f"  leftover of an interrupted build: {p.name}" for p in found.leftovers]
    return "\n".join(lines)


def _ranges(levels: list[int]) -> str:
    spans, start = [], levels[0]
    for previous, level in zip(levels, levels[1:] + [None]):
        if level != previous + 1:
            spans.append(f"{start}" if start == previous else f"{start}-{previous}")
            start = level
    return ", ".join(spans)


def _tables_verify(args) -> str:
    from solver import tables
    report = tables.verify(args.dir, args.sample, args.seed)
    if args.json:
        text = json.dumps(dict(directory=str(report.directory), files=len(report.files),
                               samples=len(report.samples), mismatches=[
                                   vars(m) for m in report.mismatches], ok=report.ok))
    else:
        text = (f"{report.directory}: {len(report.files)} files, checksums good; "
                f"{len(report.samples)} samples recomputed, {len(report.mismatches)} mismatches")
        text += "".join(f"\n  MISMATCH {m.position} ({_rule(m.capture_empty)}): "
                        f"table {m.table}, search {m.search}" for m in report.mismatches)
    if not report.ok:
        raise TableMismatch(text)
    return text


def _rule(capture_empty: bool) -> str:
    return "capture_empty" if capture_empty else "no-capture-empty"


class TableMismatch(Exception):
    """A table entry differs from exact search: the tables are wrong (exit code 1)."""


def _tables_probe(args) -> str:
    from solver import tables
    found = tables.probe(args.position, args.dir, args.capture_empty)
    if args.json:
        return json.dumps(vars(found))
    lines = [f"{found.position}: value {found.value:+d} (stores {found.value - found.gain:+d}, "
             f"future gain {found.gain:+d}), level {found.level}"]
    if found.moves:
        lines.append("moves: " + "  ".join(f"{m}: {v:+d}" for m, v in found.moves.items()))
        lines.append(f"best: {' '.join(map(str, found.best))}")
    return "\n".join(lines)


def _solve_mancala(args) -> str:
    from solver.games.mancala import api as mancala
    rules = mancala.Rules(args.pits, args.stones, args.capture_empty)
    found = mancala.solve(rules, tables=False if args.no_tables else args.tables,
                          table_mb=args.table_mb)
    if args.json:
        return json.dumps(found.to_dict())
    capture = "captures also from an empty opposite pit" if rules.capture_empty else \
        "captures only from a non-empty opposite pit"
    lines = [f"Kalah({rules.pits},{rules.stones}), {capture}",
             f"value for A (who moves first): {found.value:+d}; optimal first move: "
             f"{found.move}", "", f"{'opening':>8} {'value':>6}   optimal reply"]
    for o in found.openings:
        reply = "game over" if o.reply is None else f"{o.reply} (by {o.reply_by})"
        lines.append(f"{o.move:>8} {o.value:>+6d}   {reply}")
    tables_used = f"endgame tables 1..{found.table_levels}" if found.table_levels else \
        "no endgame tables"
    lines.append(f"\nnodes: {found.nodes:,}   time: {found.seconds:.2f} s   ({tables_used})")
    return "\n".join(lines)


def _funkel_table_options(parser):
    parser.add_argument("--players", type=int, default=2, metavar="N", help="2, 3 or 4")
    parser.add_argument("--layout", default="pinwheel", help="pinwheel (default) or crossing")
    parser.add_argument("--seed", type=int, default=0)


def _read_position_file(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise InputError(f"cannot read position file {path}: {error.strerror}") from None


_FUNKEL_LABELS = {"win_rate_random_continuation": "win rate if all then play randomly",
                  "win_rate_greedy_continuation": "win rate if all then play greedily",
                  "search_value": "search value (mean simulation reward)",
                  "win_probability": "win probability under best play (exact)"}


def _best_funkel(args) -> str:
    from solver.games.funkel import api as funkel
    from solver.games import funkel as reference
    view = funkel.view_of(_read_position_file(args.position))
    if args.exact:
        return _exact_funkel(args, funkel, reference, view)
    options = dict(seat=args.seat, seconds=args.time, rollout=args.rollout, threads=args.threads,
                   seed=args.seed)
    if args.method == "mc":
        found = funkel.estimate_moves(view, samples=args.samples, **options)
    elif args.method == "mcts":
        found = funkel.mcts_moves(view, simulations=args.samples, **options)
    else:
        found = funkel.chance_mcts_moves(view, simulations=args.samples, **options)
    if args.json:
        return json.dumps(dict(found.to_dict(), method=args.method))
    unit = "samples" if args.method == "mc" else "visits"
    lines = [reference.draw(view), "", f"seat {found.seat} to move; {args.method} estimate, "
             f"{found.samples:,} {'samples' if args.method == 'mc' else 'simulations'}, "
             f"{found.seconds:.2f} s (stopped: {found.stopped})",
             f"each figure is the {_FUNKEL_LABELS[found.estimates]} ({found.estimates}), "
             "not the win probability under best play", "",
             f"{'push':<26} {'value':>7}   95% interval {unit:>12}"]
    for m in found.moves:
        mark = "  <- best" if m.action == found.best else ""
        lines.append(f"{m.name:<26} {m.value:>7.1%}   [{m.low:5.1%}, {m.high:5.1%}] "
                     f"{m.samples:>12,}{mark}")
    lines.append(f"recommended: {funkel.describe(found.best)}")
    return "\n".join(lines)


def _exact_funkel(args, funkel, reference, view) -> str:
    if args.method != "mc" or args.samples is not None or args.time is not None:
        raise InputError("--exact takes no --method, --samples or --time: it solves the position")
    found = funkel.exact_moves(view, seat=args.seat, max_states=args.max_states)
    if args.json:
        return json.dumps(dict(found.to_dict(), method="exact"))
    lines = [reference.draw(view), "", f"seat {found.seat} to move; solved exactly "
             f"({found.states:,} positions and reveals, {found.seconds:.2f} s)",
             "win probability and expected result (a shared win counts its share) under best "
             "play: max-n, equal values to the first push in legal order", "",
             f"{'push':<26} {'win prob':>9} {'expected':>9}"]
    for m in found.moves:
        mark = "  <- best" if m.action == found.best else ""
        lines.append(f"{funkel.describe(m.action):<26} {m.win[found.seat]:>9.2%} "
                     f"{m.expected[found.seat]:>9.4f}{mark}")
    lines.append(f"recommended: {funkel.describe(found.best)}")
    return "\n".join(lines)


def _new_funkel(args) -> str:
    from solver.games.funkel import api as funkel
    return funkel.new_position(args.players, args.layout, args.seed, view=args.view)


def _play_funkel(args) -> str:
    from solver.games.funkel import api as funkel
    frames = funkel.play_game(args.players, args.bots.split(","), args.seed, args.layout)
    if args.json:
        return json.dumps([frame.to_dict() for frame in frames])
    lines = []
    for frame in frames:
        head = "start" if frame.action is None else f"push {frame.ply}: seat {frame.seat} " \
            f"plays {frame.action}"
        lines += [head, frame.picture, f"position: {frame.position}", ""]
    result = frames[-1].result
    lines.append("result: " + ", ".join(f"seat {seat} {share:g}"
                                        for seat, share in enumerate(result)))
    return "\n".join(lines)


def _match_funkel(args) -> str:
    from solver.games.funkel import api as funkel
    found = funkel.match(args.players, args.bots.split(","), args.games, args.seed, args.layout)
    return json.dumps(found.to_dict()) if args.json else "\n".join(found.lines())


def _tunhell_table_options(parser):
    parser.add_argument("--players", type=int, default=2, metavar="N", help="2, 3 or 4")
    parser.add_argument("--intro", action="store_true", help="the introductory game (default: "
                        "the full game)")
    parser.add_argument("--seed", type=int, default=0)


def _best_tunhell(args) -> str:
    from solver.games.tunhell import api as tunhell
    found = tunhell.best_action(_read_position_file(args.position), args.seat, args.method,
                                args.time, args.iterations, args.threads, args.seed)
    if args.json:
        return json.dumps(found.to_dict())
    lines = [f"seat {found.seat} to move; {found.method}, {found.iterations:,} playouts, "
             f"{found.seconds:.2f} s (stopped: {found.stopped})", "",
             f"{'action':<44} {'win %':>6}  {'95% interval':<15} {'margin':>7}  "
             f"{'95% interval':<15} {'samples':>8}"]
    for m in found.moves:
        win = "-" if m.win_probability is None else f"{m.win_probability:.1%}"
        low, high = m.win_interval
        margin = "-" if m.margin is None else f"{m.margin:+.2f}"
        spread = "" if m.margin_interval is None else \
            f"[{m.margin_interval[0]:+.2f}, {m.margin_interval[1]:+.2f}]"
        mark = "  <- best" if m.action == found.best else ""
        lines.append(f"{m.name[:44]:<44} {win:>6}  [{low:5.1%}, {high:5.1%}] {margin:>7}  "
                     f"{spread:<15} {m.samples:>8,}{mark}")
    lines.append(f"recommended: {found.best_name}")
    return "\n".join(lines)


def _new_tunhell(args) -> str:
    from solver.games.tunhell import api as tunhell
    return tunhell.new_position(args.players, args.intro, args.seed, args.seat)


def _play_tunhell(args) -> str:
    from solver.games.tunhell import api as tunhell
    turns = tunhell.play_game(args.players, args.bots.split(","), args.intro, args.seed)
    if args.json:
        return json.dumps([turn.to_dict() for turn in turns])
    return "\n".join(str(turn) for turn in turns)


def _match_tunhell(args) -> str:
    from solver.games.tunhell import api as tunhell
    found = tunhell.match(args.players, args.bots.split(","), args.games, args.intro, args.seed)
    return json.dumps(found.to_dict()) if args.json else "\n".join(found.lines())


def _mancala_rules_options(parser):
    parser.add_argument("--pits", type=int, metavar="M", help="pits per side (default 6, or "
                        "as the position has)")
    parser.add_argument("--stones", type=int, metavar="N", help="stones per pit at the start "
                        "(default 4; checked against the position when given)")
    parser.add_argument("--no-capture-empty", dest="capture_empty", action="store_false",
                        help="capture only when the opposite pit holds stones")


def _mancala_position(args):
    """The position and rules the options describe, checked against each other."""
    from solver.games.mancala.api import position_and_rules
    return position_and_rules(args.position, args.pits, args.stones, args.capture_empty)


def _best_mancala(args) -> str:
    from solver.games import mancala as reference
    from solver.games.mancala.api import best_move
    pos, rules = _mancala_position(args)
    if args.mcts:
        return _mcts_mancala(args, pos, rules)
    for option in ("simulations",):
        if getattr(args, option) is not None:
            raise InputError(f"--{option} goes with --mcts")
    if args.table_mb is not None and not 1 <= args.table_mb <= 65536:
        raise InputError(f"--table-mb must be 1..65536, got {args.table_mb}")
    found = best_move(pos, rules, seconds=args.time, depth=args.depth, exact=args.exact,
                      all_moves=args.all_moves, table_mb=args.table_mb,
                      tables=False if args.no_tables else args.tables)
    if args.json:
        return json.dumps(found.to_dict())
    capture = "also from an empty opposite pit" if rules.capture_empty else \
        "only from a non-empty opposite pit"
    how = "exact" if found.exact else f"depth {found.depth}"
    lines = [f"Kalah({rules.pits},{rules.stones}) position {found.position}   "
             f"(captures {capture})", "",
             reference.draw_board(pos), "",
             f"best move: {found.move}   value: {found.value:+d} ({how})",
             f"line: {' '.join(map(str, found.pv))}"]
    if found.moves is not None:
        lines.append("moves: " + "  ".join(f"{m}: {v:+d}" for m, v in found.moves.items()))
    lines.append(f"nodes: {found.nodes:,}   nodes/s: {found.nodes_per_second:,.0f}   "
                 f"time: {found.seconds:.3f} s")
    if found.table_levels:
        lines.append(f"endgame tables: levels 1..{found.table_levels}, "
                     f"{found.table_hits:,} positions looked up")
    return "\n".join(lines)


def _mcts_mancala(args, pos, rules) -> str:
    from solver.games import mancala as reference
    from solver.games.mancala.mcts import mcts_best_move
    if args.depth is not None or args.exact or args.all_moves:
        raise InputError("--mcts takes --simulations and/or --time, not --depth, --exact or "
                         "--all-moves")
    found = mcts_best_move(pos, rules, simulations=args.simulations, seconds=args.time,
                           threads=args.threads, seed=args.seed)
    if args.json:
        return json.dumps(found.to_dict())
    lines = [f"Kalah({rules.pits},{rules.stones}) position {found.position}   (MCTS, "
             f"{found.threads} thread{'s' * (found.threads > 1)}, seed {found.seed})", "",
             reference.draw_board(pos), "",
             f"best move: {found.move}" + ("" if found.proven is None else
                                           f"   proven outcome: {found.proven:g}"),
             f"{'move':>6} {'visits':>10} {'win rate':>9} {'store diff':>11}"]
    for move, stats in found.moves.items():
        lines.append(f"{move:>6} {stats.visits:>10,} {stats.mean_outcome:>9.3f} "
                     f"{stats.mean_store_difference:>+11.2f}")
    lines.append(f"simulations: {found.simulations:,}   simulations/s: "
                 f"{found.simulations_per_second:,.0f}   time: {found.seconds:.3f} s")
    return "\n".join(lines)


def _perft_mancala(args) -> str:
    from solver.games.mancala import api as mancala
    pos, rules = _mancala_position(args)
    if not 0 <= args.depth <= 64:
        raise InputError(f"perft depth must be 0..64, got {args.depth}")
    import time
    start = time.perf_counter()
    divide = mancala.perft_divide(pos, args.depth, rules.capture_empty) if args.divide else None
    total = sum(divide.values()) if divide is not None else \
        mancala.perft(pos, args.depth, rules.capture_empty)
    seconds = time.perf_counter() - start
    if args.json:
        out = dict(position=str(pos), depth=args.depth, capture_empty=rules.capture_empty,
                   nodes=total, seconds=round(seconds, 6))
        if divide is not None:
            out["divide"] = {str(m): n for m, n in divide.items()}
        return json.dumps(out)
    lines = [f"{m}: {n}" for m, n in divide.items()] if divide is not None else []
    rate = total / seconds if seconds > 0 else 0
    lines.append(f"perft({args.depth}) = {total}   ({seconds:.3f} s, {rate:,.0f} leaves/s)")
    return "\n".join(lines)


def main(argv=None) -> int:
    try:
        args = _parser().parse_args(argv)
        print(args.run(args))
        return 0
    except InputError as error:
        print(f"solver: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except TableMismatch as error:
        print(error)
        return 1
    except KeyboardInterrupt:
        print("solver: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

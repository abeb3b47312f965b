"""`solver ...`: parse the command line, call the API, print. Nothing else lives here.

The game commands (``best``, ``new``, ``play``, ``match``) are built from the registry
(``solver.games``): each game declares its options as data and a command bridge; this module
has no per-game parser code. Nothing compiled is imported until a command needs it, so
``--help`` and bad input answer at once. Bad input ends with one line on stderr and exit code 2,
never a traceback.
"""
from __future__ import annotations

import argparse
import errno
import json
import string
import sys

from solver import games as registry
from solver.bench import MAX_DEPTH as BENCH_MAX_DEPTH
from solver.errors import GameAbandoned, InputError, one_line, read_input_file
from solver.options import (COUNT_MAX, DEFAULT_PLAYERS, SEED_MAX, THREADS_MAX, Option,
                            add_options, count, file_name, folder, scheduler, seed, values, whole)
from tables.errors import TableError
from tables.index import MAX_LEVEL, SAMPLE_MAX

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141     # 128 + SIGPIPE, as a shell reports a command killed by it


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (``solver: error: ...``) and exit code 2."""

    def error(self, message):
        raise InputError(message)

    def _print_message(self, message, file=None):
        """Help, usage and version text, flushed here so that a full disk is an error."""
        file = file or sys.stdout
        if message and file is not None:
            try:
                file.write(message)
                file.flush()
            except BrokenPipeError:
                raise
            except OSError as error:
                raise OutputError(f"cannot write the output: {error.strerror or error}") from None


def _version() -> str:
    from solver import __version__
    rules = ", ".join(f"{info.name} rules_version {info.rules_version}"
                      for info in registry.FACTS.values())
    return f"solver {__version__} ({rules})"


class _VersionAction(argparse.Action):
    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help="print the package version and "
                         "each game's rules_version")

    def __call__(self, parser, namespace, values, option_string=None):
        parser._print_message(_version() + "\n")
        parser.exit()


SEED = Option("--seed", seed, "random seed (0..4294967295)", metavar="S")
BOTS = Option("--bots", str, "one bot per seat, comma-separated (each game lists its bots)",
              metavar="B1,B2,...")
JSON = Option("--json", None, "print JSON")


def _parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line. Only the game named on it (``solver best tunhell ...``) has its
    options built, which imports that game's reference; the others are listed by their facts."""
    parser = _Parser(prog="solver", description="Game-tree search and solver toolkit.")
    parser.add_argument("--version", action=_VersionAction)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    words = [w for w in (sys.argv[1:] if argv is None else argv) if not w.startswith("-")]
    game_list = [name for name in registry.GAMES if name in words[1:2]]
    _game_command(commands, "best", "best move of a position", game_list, _best_options)
    _game_command(commands, "new", "print a new game's position", game_list, _new_options)
    _game_command(commands, "play", "play a whole game (bots, or a person at the prompt)",
                  game_list, _play_options)
    _game_command(commands, "match", "bots against each other, seats rotating, win rates "
                  "with 95%% intervals", game_list, _match_options)
    _solve_command(commands)
    _tables_commands(commands)
    _perft_command(commands)
    bench = commands.add_parser("bench", help="profile search speed on fixed positions")
    bench.add_argument("games", nargs="*", metavar="GAME", help="games to run (default: all)")
    bench.add_argument("--depth", type=whole(1, BENCH_MAX_DEPTH, "the depth"), metavar="D",
                       help="search depth (default: each search's own)")
    bench.add_argument("--threads", type=whole(1, THREADS_MAX, "threads"), default=1, metavar="T",
                       help="threads (default 1)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--plot", metavar="FILE.png", type=file_name,
                       help="also draw nodes/second per position (needs matplotlib)")
    bench.add_argument("--save", metavar="FILE.json", type=file_name,
                       help="also write the report to FILE")
    bench.add_argument("--baseline", metavar="FILE.json", type=file_name,
                       help="compare with a saved report: each position's speed ratio, and a "
                       "changed node signature flagged")
    bench.set_defaults(run=_bench)
    return parser


def _game_command(commands, name, help_text, chosen, options_of):
    command = commands.add_parser(name, help=help_text)
    by_game = command.add_subparsers(dest="game", required=True, parser_class=_Parser)
    for info in registry.FACTS.values():
        if info.name not in chosen:     # listed, not built: a game is imported when named
            by_game.add_parser(info.name, help=info.summary)
            continue
        game = registry.get(info.name)
        extra = options_of(game)
        sub = by_game.add_parser(game.name, help=game.info.summary)
        if name == "best":
            sub.add_argument("position", nargs=None if game.position_required else "?",
                             metavar="POSITION", help=game.position_help)
        add_options(sub, game.rules_options + extra + (JSON,))
        sub.set_defaults(run=_RUNS[name], record=game, extra=extra)


def _best_options(game):
    return game.best_options


def _new_options(game):
    return game.new_options + (SEED,)


def _play_options(game):
    human = (Option("--human", whole(0, game.info.max_players - 1, "the seat"),
                    "a person plays this seat at the prompt (0 = the first player); --bots "
                    "then names the other seats' bots", metavar="SEAT"),) \
        if game.human_play else ()
    return (BOTS, SEED) + human


def _match_options(game):
    return (BOTS, Option("--games", count, "games to play (default 100)", default=100,
                         metavar="G"), SEED)


# --- the game commands ----------------------------------------------------------------------------

def _rules_options(args) -> dict:
    return values(args, args.record.rules_options)


def _position_text(args) -> str | None:
    """The position argument: notation as given, or, for games whose positions are JSON, a
    file's text (``-``: standard input) or the JSON itself (``"$(solver new funkel)"``: an
    argument that begins with ``{`` is never a file name here)."""
    if args.position is None or not args.record.position_required:
        return args.position
    if args.position.lstrip(JSON_BLANKS).startswith("{"):
        return args.position
    if not args.position.strip(string.whitespace):
        raise InputError("the position is empty: give its file, '-' or the position itself")
    return _read_position_file(args.position)


JSON_BLANKS = " \t\n\r"     # what JSON allows before a value (not a form feed or a vertical tab)


def _read_position_file(path: str) -> str:
    data = read_input_file(path, "position file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"position file {path} is not UTF-8 text (byte {error.start})") from None


def _best(args) -> str:
    bridge = args.record.command_bridge()
    found = bridge.best(_position_text(args), _rules_options(args), values(args, args.extra))
    text = json.dumps(found.to_dict()) if args.json else bridge.best_text(found)
    if getattr(found, "stopped", None) == "interrupted":   # a proof stopped by Ctrl-C
        print(text)
        raise KeyboardInterrupt
    return text


def _new(args) -> str:
    import secrets

    bridge = args.record.command_bridge()
    chosen = args.seed if args.seed is not None else secrets.randbelow(2**32)
    position = bridge.new(_rules_options(args), chosen, values(args, args.extra))
    if args.json:
        parsed = json.loads(position) if position.lstrip().startswith("{") else position
        return json.dumps(dict(game=args.record.name, seed=chosen, position=parsed))
    if args.seed is None and args.record.info.chance:
        print(f"solver: dealt from seed {chosen} (--seed {chosen} deals it again)",
              file=sys.stderr)
    return position


def _play(args) -> str:
    game, bridge = args.record, args.record.command_bridge()
    bots = _bot_names(args)
    human = getattr(args, "human", None)
    live = None
    if human is not None:
        if args.json:   # the board and the prompt go to standard output
            raise InputError("--json goes without --human: a person plays on the text board")
        bots = _with_human(game, bots, human)
        live = _show_frame        # a person needs to see each position as it comes
    _check_bot_count(args, bots)
    chosen = 0 if args.seed is None else args.seed
    frames = bridge.play(_rules_options(args), bots, chosen, observer=live)
    if args.json:
        return json.dumps([frame.to_dict() for frame in frames])
    if live is not None:
        return _result_line(frames[-1])
    lines = []
    for frame in frames:
        lines += frame.lines() if hasattr(frame, "lines") else [str(frame)]
    if getattr(frames[-1], "result", None) is not None and hasattr(frames[-1], "lines"):
        lines.append(_result_line(frames[-1]))
    return "\n".join(lines)


def _result_line(frame) -> str:
    return "result: " + ", ".join(f"seat {seat} {share:g}"
                                  for seat, share in enumerate(frame.result))


def _show_frame(frame) -> None:
    _write("\n".join(frame.lines() if hasattr(frame, "lines") else [str(frame)]))


def _prompt(prompt: str) -> str:
    """A move typed at the prompt (``input``, with closed or full streams reported)."""
    if sys.stdin is None:
        raise InputError("--human reads moves from standard input, which is closed")
    if sys.stdout is None:
        raise OutputError("cannot write the output: standard output is closed")
    try:
        return input(prompt)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputError(f"cannot write the output: {error.strerror or error}") from None


def _bot_names(args) -> list[str]:
    if not args.bots:
        raise InputError("--bots is required: one bot per seat, comma-separated")
    return [name.strip() for name in args.bots.split(",")]


def _with_human(game, bots: list, seat: int) -> list:
    """The bots with a person at ``seat``: --bots names the others (or all, with a placeholder
    ``human`` at the person's seat)."""
    from solver import match
    reference = game.reference()
    players = len(bots) + 1 if "human" not in bots else len(bots)
    others = [b for b in bots if b != "human"]
    if seat >= players:
        raise InputError(f"--human must be a seat 0..{players - 1}, got {seat}")
    placeholders = [at for at, name in enumerate(bots) if name == "human"]
    if len(placeholders) > 1:
        raise InputError("--bots names 'human' more than once: one person plays, at --human's "
                         "seat")
    if placeholders and placeholders != [seat]:
        raise InputError(f"--bots puts 'human' at seat {placeholders[0]}, --human at seat "
                         f"{seat}: name the same seat, or leave 'human' out of --bots")
    describe = getattr(game.command_bridge(), "describe_moves", None) or \
        (lambda state: f"1..{len(reference.legal_actions(state))} or a name")
    person = match.human_bot(_prompt, lambda text: print(f"solver: {text}", file=sys.stderr),
                             reference.action_from_text, describe)
    person.__name__ = "human"
    return others[:seat] + [person] + others[seat:]


def _check_bot_count(args, bots: list) -> None:
    """One bot per seat, checked before a game's bots (and kernels) load."""
    rules = _rules_options(args)
    if "players" in rules:          # a game of 2 to 4 players (None: the default count)
        from solver.match import check_bot_count
        check_bot_count(rules["players"] or DEFAULT_PLAYERS, bots)


def _match(args) -> str:
    bridge = args.record.command_bridge()
    chosen = 0 if args.seed is None else args.seed
    bots = _bot_names(args)
    _check_bot_count(args, bots)
    found = bridge.match(_rules_options(args), bots, args.games, chosen)
    return json.dumps(found.to_dict()) if args.json else "\n".join(found.lines())


_RUNS = {"best": _best, "new": _new, "play": _play, "match": _match}


# --- bench ----------------------------------------------------------------------------------------

def _bench(args) -> str:
    from solver import bench
    # Every file is checked before the run: a bad one must not cost the measurements.
    saved = bench.load(args.baseline) if args.baseline else None
    if args.plot:
        bench.check_plot(args.plot)
    if args.save:
        bench.check_output(args.save)
    report = bench.run_bench(args.games, args.depth, args.threads)
    if args.plot:
        bench.plot(report, args.plot)
    if args.save:
        bench.save(report, args.save)
    text = json.dumps(report.to_dict()) if args.json else report.table()
    if saved is not None:
        comparison = bench.compare(report, saved)
        text = json.dumps(dict(report.to_dict(), baseline=comparison.to_dict())) if args.json \
            else text + "\n\n" + comparison.table()
    return text


# --- Mancala: solve and perft ---------------------------------------------------------------------

def _solve_command(commands):
    from solver.games.mancala import PROOF_OPTIONS
    solve = commands.add_parser("solve", help="prove the value of a whole game")
    solve_games = solve.add_subparsers(dest="game", required=True, parser_class=_Parser)
    mancala = solve_games.add_parser("mancala", help="Kalah(m,n) from the start")
    mancala.add_argument("--pits", type=whole(1, 6, "pits per side"), default=6, metavar="M",
                         help="pits per side (default 6)")
    mancala.add_argument("--stones", type=whole(1, 127, "stones per pit"), default=4,
                         metavar="N", help="stones per pit at the start (default 4)")
    mancala.add_argument("--no-capture-empty", dest="capture_empty", action="store_false",
                         help="capture only when the opposite pit holds stones")
    add_options(mancala, PROOF_OPTIONS)
    mancala.add_argument("--scheduler", type=scheduler, metavar="tcp://HOST:PORT",
                         help="prove the openings as tasks on this Dask cluster (workers share "
                         "the table folder)")
    mancala.add_argument("--checkpoint", metavar="FILE", help="keep every bound proven in "
                         "FILE; a rerun with the same FILE goes on from them")
    mancala.add_argument("--threads", type=whole(1, THREADS_MAX, "threads"), default=1, metavar="T",
                         help="threads sharing the table (default 1)")
    mancala.add_argument("--json", action="store_true", help="print one JSON object")
    mancala.set_defaults(run=_solve_mancala)


def _perft_command(commands):
    perft = commands.add_parser("perft", help="count move sequences (move-generator check)")
    perft_games = perft.add_subparsers(dest="game", required=True, parser_class=_Parser)
    mancala = perft_games.add_parser("mancala", help="leaf nodes at exactly DEPTH sowings")
    mancala.add_argument("position", nargs="?", help="position (default: the start)")
    mancala.add_argument("depth", type=whole(0, 64, "perft depth"), help="sowings")
    add_options(mancala, registry.get("mancala").rules_options)
    mancala.add_argument("--divide", action="store_true", help="count per first move")
    mancala.add_argument("--json", action="store_true", help="print one JSON object")
    mancala.set_defaults(run=_perft_mancala)


def _perft_mancala(args) -> str:
    import time

    from solver.games.mancala import api as mancala
    pos, rules = mancala.position_and_rules(args.position, args.pits, args.stones,
                                            args.capture_empty)
    start = time.perf_counter()
    divide = mancala.perft_divide(pos, args.depth) if args.divide else None
    total = sum(divide.values()) if divide is not None else mancala.perft(pos, args.depth)
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


# --- endgame tables (Mancala) ----------------------------------------------------------------------

def _tables_commands(commands):
    tables = commands.add_parser("tables", help="Mancala endgame tables: build, info, verify, "
                                 "probe")
    actions = tables.add_subparsers(dest="action", required=True, parser_class=_Parser)
    build = actions.add_parser("build", help="build every level up to --max-stones (resumable)")
    build.add_argument("game", choices=["mancala"])
    build.add_argument("--max-stones", type=whole(1, MAX_LEVEL, "--max-stones"), required=True,
                       metavar="N",
                       help="stones in the pits of the largest level")
    build.add_argument("--no-capture-empty", dest="capture_empty", action="store_false")
    build.add_argument("--workers", type=whole(1, THREADS_MAX, "--workers"), metavar="K",
                       help="threads (default: all cores)")
    build.add_argument("--scheduler", type=scheduler, metavar="tcp://HOST:PORT",
                       help="run the build on this Dask cluster (workers share --dir)")
    build.add_argument("--memory-mb", type=whole(1, COUNT_MAX, "--memory-mb"), metavar="MB",
                       help="resident memory for the memory-mapped levels (default: a quarter "
                            "of the machine's memory)")
    build.set_defaults(run=_tables_build)
    info = actions.add_parser("info", help="what a table folder holds")
    info.set_defaults(run=_tables_info)
    verify = actions.add_parser("verify", help="check checksums, then recompute samples")
    verify.add_argument("--sample", type=whole(0, SAMPLE_MAX, "--sample"), default=0, metavar="K",
                        help="random positions to recompute (from their children, and by an "
                             "independent exact search)")
    verify.add_argument("--seed", type=whole(0, SEED_MAX, "a seed"), metavar="S",
                        help="random seed of the samples (default: a fresh one)")
    verify.set_defaults(run=_tables_verify)
    probe = actions.add_parser("probe", help="look a position up")
    probe.add_argument("position", help="'P1,...,Pm/Pm+1,...,P2m SA-SB X'")
    probe.add_argument("--no-capture-empty", dest="capture_empty", action="store_false")
    probe.set_defaults(run=_tables_probe)
    for parser in (build, info, verify, probe):
        parser.add_argument("--dir", type=folder, metavar="DIR", help="table folder (default: "
                            "$XDG_DATA_HOME/solver/tables or ~/.local/share/solver/tables)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
    build.add_argument("--pits", type=whole(1, 6, "pits per side"), default=6, metavar="M",
                       help="pits a side, 1..6 "
                       "(default 6)")
    for parser in (info, verify):
        parser.add_argument("--pits", type=whole(1, 6, "pits per side"), metavar="M",
                            help="only the tables of M pits a side (default: every board)")
    probe.add_argument("--pits", type=whole(1, 6, "pits per side"), metavar="M",
                       help="pits a side (default: the position's; given, it must match)")


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
            # one write with its newline: a Ctrl-C between two writes left the line open and
            # "solver: interrupted" at its end
            print(text + "\n", end="", file=sys.stderr, flush=True)
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
                              args.scheduler, progress=bar, pits=args.pits,
                              memory_mb=args.memory_mb)
    finally:
        bar.close()
    out = dict(directory=str(report.directory), pits=report.pits,
               capture_empty=report.capture_empty, max_level=report.max_level,
               built=report.built, loaded=report.loaded, positions=report.positions,
               resumed_positions=report.resumed, seconds=round(report.seconds, 3),
               positions_per_second=round(report.rate), threads=report.workers,
               memory_mb=report.memory_mb, peak_resident_mb=round(report.peak_resident_mb, 1),
               base_resident_mb=round(report.base_resident_mb, 1), page_drops=report.page_drops)
    if args.json:
        return json.dumps(out)
    resumed = f", {report.resumed:,} resumed from pieces" if report.resumed else ""
    return (f"{report.directory}: Kalah({report.pits}, n) levels 1..{report.max_level} "
            f"({_rule(report.capture_empty)}) ready; "
            f"built {len(report.built)}, found {len(report.loaded)}; "
            f"{report.positions:,} positions in {report.seconds:.1f} s "
            f"({report.rate / 1e6:.1f} M positions/s on {report.workers} threads{resumed}); "
            f"peak resident {report.peak_resident_mb:,.0f} MB of a {report.memory_mb:,} MB "
            f"budget")


def _tables_info(args) -> str:
    from solver import tables
    from tables.levels import level_spans
    found = tables.info(args.dir, args.pits)
    if args.json:
        return json.dumps(dict(directory=str(found.directory), files=[
            dict(file=f.path.name, pits=f.pits, level=f.level, capture_empty=f.capture_empty,
                 entries=f.entries, bytes=f.bytes, problem=f.problem) for f in found.files],
            leftovers=[p.name for p in found.leftovers]))
    lines = [f"{found.directory}: {len(found.files)} table files"]
    for pits in found.boards():
        for rule in (True, False):
            levels = found.levels(rule, pits)
            if levels:
                size = sum(f.bytes for f in found.files
                           if f.capture_empty == rule and f.pits == pits)
                lines.append(f"  {pits} pits  {_rule(rule):<17} levels "
                             f"{level_spans(levels)}  {size / 2**20:,.1f} MiB")
    lines += [f"  unusable: {f.path.name}: {f.problem}" for f in found.files if f.problem]
    lines += [f"  leftover of an interrupted build: {p.name}" for p in found.leftovers]
    return "\n".join(lines)


def _tables_verify(args) -> str:
    from solver import tables
    from tables.levels import level_spans
    report = tables.verify(args.dir, args.sample, args.seed, args.pits)
    gaps = [dict(pits=g.pits, capture_empty=g.capture_empty, levels=level_spans(g.levels),
                 search_uses_up_to=g.search_uses_up_to) for g in report.gaps]
    if args.json:
        text = json.dumps(dict(directory=str(report.directory), files=len(report.files),
                               samples=len(report.samples),
                               exact_checks=sum(s.exact is not None for s in report.samples),
                               mismatches=[vars(m) for m in report.mismatches],
                               ok=report.ok, gaps=gaps))
    else:
        exact = sum(s.exact is not None for s in report.samples)
        text = (f"{report.directory}: {len(report.files)} files, checksums good; "
                f"{len(report.samples)} samples recomputed from their children ({exact} also "
                f"by exact search), {len(report.mismatches)} mismatches")
        text += "".join(f"\n  MISMATCH {m.pits} pits {m.counts} ({_rule(m.capture_empty)}): "
                        f"table {m.table}, from children {m.search}, exact search {m.exact}"
                        for m in report.mismatches)
        text += "".join(f"\n  GAP {g['pits']} pits {_rule(g['capture_empty'])}: levels "
                        f"{g['levels']}; a search uses levels up to {g['search_uses_up_to']} "
                        "(rebuild to fill the gap)" for g in gaps)
    if not report.ok:
        raise TableMismatch(text)
    return text


def _rule(capture_empty: bool) -> str:
    return "capture_empty" if capture_empty else "no-capture-empty"


class TableMismatch(Exception):
    """``tables verify`` found the tables wrong (an entry differs from exact search) or
    incomplete (a level missing below others, which a search never reaches): exit code 1."""


def _tables_probe(args) -> str:
    from solver import tables
    from solver.games import mancala as reference
    pits = reference.from_text(args.position).m
    if args.pits is not None and args.pits != pits:     # before any table is opened
        raise InputError(f"--pits {args.pits}, but the position has {pits} pits a side")
    found = tables.probe(args.position, args.dir, args.capture_empty)
    if args.json:
        return json.dumps(vars(found))
    lines = [f"{found.position}: value {found.value:+d} (stores {found.value - found.gain:+d}, "
             f"future gain {found.gain:+d}), level {found.level}"]
    if found.moves:
        lines.append("moves: " + "  ".join(f"{m}: {v:+d}" for m, v in found.moves.items()))
        lines.append(f"best: {' '.join(map(str, found.best))}")
    return "\n".join(lines)


def _bounds(lower: int, upper: int) -> str:
    return f"{lower:+d}" if lower == upper else f"[{lower:+d},{upper:+d}]"


def _solve_mancala(args) -> str:
    from solver.games.mancala import api as mancala
    from solver.games.mancala.commands import ProofProgress
    rules = mancala.Rules(args.pits, args.stones, args.capture_empty)
    progress = ProofProgress()
    try:
        found = mancala.solve(rules, tables=False if args.no_tables else args.tables,
                              table_mb=args.table_mb, max_seconds=args.max_seconds,
                              max_nodes=args.max_nodes, progress=progress,
                              scheduler=args.scheduler, checkpoint=args.checkpoint,
                              threads=args.threads, memory_tables=args.memory_tables)
    finally:
        progress.close()
    text = json.dumps(found.to_dict()) if args.json else _proof_text(found)
    if found.stopped == "interrupted":
        print(text)
        raise KeyboardInterrupt
    return text


def _proof_text(found) -> str:
    from solver.games.mancala.commands import built_text
    rules = found.rules
    capture = "captures also from an empty opposite pit" if rules.capture_empty else \
        "captures only from a non-empty opposite pit"
    if found.finished:
        head = f"value for A (who moves first): {found.value:+d}; optimal first move: {found.move}"
    else:
        head = (f"NOT FINISHED ({found.stopped}): value for A proven in "
                f"[{found.lower:+d}, {found.upper:+d}]")
    lines = [f"Kalah({rules.pits},{rules.stones}), {capture}", head, "",
             f"{'opening':>8} {'value':>10}   optimal reply"]
    for o in found.openings:
        for line in [o] + o.continuations:
            reply = "-" if line.reply is None and line.value is None else \
                "game over" if line.reply is None else f"{line.reply} (by {line.reply_by})"
            lines.append(f"{line.name:>8} {_bounds(line.lower, line.upper):>10}   {reply}")
    tables_used = f"endgame tables 1..{found.table_levels}" \
        f"{built_text(found.table_build_seconds)}" if found.table_levels else "no endgame tables"
    lines.append(f"\nnodes: {found.nodes:,} ({found.expanded:,} expanded)   "
                 f"nodes/s: {found.nodes_per_second:,.0f}   "
                 f"time: {found.seconds:.2f} s   tasks: {found.tasks}   ({tables_used}; "
                 f"transposition table {found.table_mb} MB)")
    if found.checkpoint is not None:
        kept = found.checkpoint
        lines.append(f"checkpoint {kept['path']}: {kept['runs']} run(s), {kept['nodes']:,} "
                     f"nodes and {kept['seconds']:.2f} s in all, {kept['proven']} of "
                     f"{kept['lines']} lines proven")
    return "\n".join(lines)


def main(argv=None) -> int:
    from solver import command
    try:
        args = _parser(argv).parse_args(argv)
        text = args.run(args)
        if command.pressed:     # a Ctrl-C that compiled code swallowed: still a Ctrl-C
            raise KeyboardInterrupt
        _write(text)
        return 0
    except InputError as error:
        print(f"solver: error: {one_line(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except TableError as error:  # the tables package's own: the same one line
        print(f"solver: error: {one_line(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except TableMismatch as error:
        print(error)
        return 1
    except GameAbandoned as error:
        print(f"solver: {error}", file=sys.stderr)
        return 0
    except KeyboardInterrupt:
        return _interrupted()
    except BrokenPipeError:     # the reader went away (`| head`): say nothing more
        return EXIT_BROKEN_PIPE
    except OutputError as error:
        print(f"solver: error: {one_line(error)}", file=sys.stderr)
        return 1
    except MemoryError:
        print(OUT_OF_MEMORY, file=sys.stderr)
        return 1
    except OSError as error:    # a file or resource the system refused, not caught nearer
        if error.errno == errno.ENOMEM:     # a mapping the system would not give: the same
            print(OUT_OF_MEMORY, file=sys.stderr)
            return 1
        where = f" ({error.filename})" if error.filename else ""
        print(f"solver: error: {error.strerror or one_line(error)}{where}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception:
        if command.pressed:     # what a Ctrl-C during an import left half done
            return _interrupted()
        raise


OUT_OF_MEMORY = ("solver: error: out of memory (ask for less: a smaller --table-mb, "
                 "--memory-tables or --memory-mb, or a budget, whichever the command takes)")


class OutputError(Exception):
    """The answer could not be written (standard output closed, or its disk full)."""


def _write(text: str) -> None:
    if sys.stdout is None:
        raise OutputError("cannot write the output: standard output is closed")
    try:
        print(text)
        sys.stdout.flush()      # here, where a full disk can still be reported
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputError(f"cannot write the output: {error.strerror or error}") from None


def _interrupted() -> int:
    # a new line first on a terminal, where the cursor is still after ^C
    print(("\n" if sys.stderr is not None and sys.stderr.isatty() else "") +
          "solver: interrupted", file=sys.stderr)
    return EXIT_INTERRUPTED


def run() -> None:
    """The ``solver`` command: :func:`solver.command.run`."""
    from solver.command import run as run_command
    run_command()


if __name__ == "__main__":
    run()

"""Endgame-table builds and exact Kalah solves against external peer programs, side by side in
one run. Run:

    python benches/compare_peers.py --irving DIR [--tasks build,solve-tables,solve]
        [--build-stones 16 20] [--stones 4] [--table-mb 1024] [--repeats 3] [--work DIR]
    python benches/compare_peers.py --peer plain-c='/path/kalah_ab -r {rules}' [--rules both]

``--irving DIR``: the folder holding the two programs of Geoffrey Irving's Kalah solver, built
serially as ``benches/README.md`` describes: ``kalah-s`` (the searcher) and ``generator`` (the
endgame database builder). Every task runs each side as a whole process from the command line,
start-up, loading and writing included, and interleaves the two sides in every repeat (his,
ours, his, ours, ...) so that load from other users hits both alike. Printed per task: the
median wall seconds of each side, the median of the per-repeat ratios (ours / his: below 1
means we are faster), the median CPU seconds (user + system, all threads) of each, and what
each side reports (node counts, positions).

Tasks:

- ``build``: every endgame table up to ``N`` stones (each of ``--build-stones``), from an
  empty folder. His: ``generator FILE`` fed ``4`` (bits per entry), ``c N``, ``q``. Ours:
  ``solver tables build mancala --max-stones N``. Positions are counted the same way for both:
  the positions his database covers, those of 2..N stones in the pits with stones on both
  sides (ours also stores the one-sided, game-over ones; they are not counted).
- ``solve-tables``: Kalah(6, ``--stones``) exact from the start with the tables of the
  largest ``--build-stones`` (built first if this run has not). His: ``kalah-s -t B -e N -E
  FILE s 4`` (a transposition table of 2^B 16-byte entries, B chosen so that it takes
  ``--table-mb``); ours: ``solver best mancala --exact --tables DIR --table-mb MB``. Both give
  the value and a best first move, which must agree.
- ``solve``: the same without endgame tables (his ``-e 0`` on an empty database, ours
  ``--no-tables``). His program has only the capture rule where a last stone in an own empty
  pit captures even when the opposite pit is empty (ours ``capture_empty``).

``--rust BINARY``: the Rust ``mancala-solver`` (a public Kalah solver with its own endgame
tablebase, built as ``benches/README.md`` says), on ``--rules`` (``both``: each in turn), tasks
as above:

- ``build``: its tablebase of every layout up to the cap, ``mancala-solver gen-tb --pits 6
  --seeds-cap C --out FILE`` (C = each of ``--build-stones``; ``--capture-empty`` for that
  rule; it builds on every core), against ``solver tables build mancala --max-stones C``
  (every core too).
- ``solve-tables``: Kalah(6, ``--stones``) exact from the start, its ``start --pits 6 --seeds N
  --tb FILE --budget 10**12`` with the largest cap's tablebase against ours with our tables of
  the same stones (both built once first if no build task ran).
- ``solve``: the same without tables (its ``--no-tb``, ours ``--no-tables``).

Its value, best pit (0-based, so ours + 1) and node count are read from its report ("Result
for P0 (South): WIN (perfect play ends + 8 seeds)", "Best move: pit 2", "Nodes searched: N").

``--peer NAME=COMMAND`` (repeatable) times any other solver's command line against ours
(``benches/solve_kalah.py``, start-up included) on the rule ``--rules`` (``both``: each rule in
turn). The command may hold placeholders, filled in per rule: ``{rules}`` (``capture_empty`` or
``no-capture-empty``), ``{capture_empty}`` (1 or 0), ``{pits}``, ``{stones}``; e.g.
``--peer plain-c='/path/kalah_ab -m {pits} -n {stones} -r {rules}'``. Its output is read for
``value``, ``move`` and ``nodes`` (each word followed by a number, ``value 10``, ``value: 10``,
``value=10`` or JSON); the value must equal ours. Pairs are interleaved (theirs, ours, ...).
``--threads T``: our solve on T threads sharing its table, against ``--peer`` and in Irving's
``solve-tables`` and ``solve`` (his ``kalah-s`` runs on one); wall and CPU seconds both printed.
``--memory-tables L``: where ours runs without table files (``--peer`` and the ``solve``
tasks), it computes the endgame levels up to L stones in memory first, in the timed run
(``solver best mancala --exact --memory-tables L``, the user's command; the peer still runs
without tables, so this pairs two different methods: say so when quoting it).
Programs that are not there are skipped with a note.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TASKS = ("build", "solve-tables", "solve")
HIS_ENTRY_BYTES = 16      # sizeof(datum) of his transposition table on a 64-bit machine


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--irving", metavar="DIR",
                        help="folder with Irving's kalah-s and generator (benches/README.md)")
    parser.add_argument("--tasks", default=",".join(TASKS),
                        help=f"comma-separated, of {', '.join(TASKS)} (default all)")
    parser.add_argument("--build-stones", type=int, nargs="+", default=[16, 20])
    parser.add_argument("--rust", metavar="BINARY",
                        help="the Rust mancala-solver binary (benches/README.md)")
    parser.add_argument("--peer", action="append", default=[], metavar="NAME=COMMAND",
                        help="another peer solver's command line (repeatable)")
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--stones", type=int, default=4)
    parser.add_argument("--rules", choices=("capture_empty", "no-capture-empty", "both"),
                        default="capture_empty", help="with --peer and --rust")
    parser.add_argument("--table-mb", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=1,
                        help="our exact solve's threads (with --peer and Irving's solve tasks)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--memory-tables", type=int, metavar="L",
                        help="ours without table files computes the endgame levels up to L in "
                        "memory first, in the timed run (--peer and the solve tasks)")
    parser.add_argument("--work", help="scratch folder for the tables (default: a temporary one)")
    parser.add_argument("--json", help="also write every measurement to this file")
    parser.add_argument("--openspiel", action="store_true",
                        help="also run benches/compare_openspiel.py")
    args = parser.parse_args(argv)
    args.tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    for task in args.tasks:
        if task not in TASKS:
            parser.error(f"--tasks: unknown task {task!r}")
    peers = {}
    for text in args.peer:
        name, sep, command = text.partition("=")
        if not sep or not command.strip():
            parser.error(f"--peer wants NAME=COMMAND, got {text!r}")
        peers[name] = shlex.split(command)
        try:
            peer_command(peers[name], "capture_empty", args.pits, args.stones)
        except (KeyError, IndexError, ValueError) as error:
            parser.error(f"--peer {name}: unknown placeholder in {command!r} ({error}); "
                         f"known: {{rules}} {{capture_empty}} {{pits}} {{stones}}")
    return args, peers


RULE_NAMES = ("capture_empty", "no-capture-empty")


def peer_command(command: list[str], rule: str, pits: int, stones: int) -> list[str]:
    """A peer's command line for one rule: the placeholders of ``--peer`` filled in."""
    fields = dict(rules=rule, capture_empty=int(rule == "capture_empty"), pits=pits,
                  stones=stones)
    return [word.format(**fields) for word in command]


def read_answer(text: str) -> dict:
    """``value``, ``move`` and ``nodes`` from a peer's output: the first number after each
    word (``value 10``, ``value: 10``, ``value=10``, JSON ``"value": 10``); None if absent."""
    answer = {}
    for key in ("value", "move", "nodes"):
        found = re.search(rf'\b{key}"?\s*[:=]?\s*([+-]?[\d,]+)\b', text, re.IGNORECASE)
        answer[key] = int(found.group(1).replace(",", "")) if found else None
    return answer


def read_solve_kalah(text: str, rule: str) -> dict:
    """Value, move and nodes of ``rule``'s row of ``benches/solve_kalah.py``'s table."""
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 5 and words[0] == rule:     # rule, threads, value, move, nodes, ...
            move = None if words[3] == "-" else int(words[3])
            return dict(value=int(words[2]), move=move, nodes=int(words[4].replace(",", "")))
    raise SystemExit(f"no {rule} row in benches/solve_kalah.py's output: {text.strip()[-300:]}")


# --- running one side ----------------------------------------------------------------------------

class Run:
    """One whole process: wall and CPU seconds (user + system of it and its threads)."""

    def __init__(self, command, stdin=None, cwd=None):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=cwd)
        self.wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        self.stdout = done.stdout
        if done.returncode != 0:
            raise SystemExit(f"{shlex.join(map(str, command))} failed ({done.returncode}): "
                             f"{(done.stderr or done.stdout).strip()[-300:]}")


def our_cli(*arguments) -> list[str]:
    return [sys.executable, "-m", "solver", *map(str, arguments)]


def covered_positions(max_stones: int, pits: int = 6) -> int:
    """Positions of 2..max_stones stones in the pits with stones on both sides: what Irving's
    database holds an entry for (the way both builds' positions are counted here)."""
    half = [math.comb(t + pits - 1, pits - 1) for t in range(max_stones + 1)]
    return sum(half[k] * half[t - k] for t in range(2, max_stones + 1) for k in range(1, t))


def his_build(generator: Path, stones: int, work: Path) -> tuple[Run, Path]:
    database = work / f"irving-{stones}.dat"
    database.unlink(missing_ok=True)
    run = Run([str(generator), str(database)], stdin=f"4\nc {stones}\nq\n", cwd=work)
    return run, database


def our_build(stones: int, work: Path) -> tuple[Run, Path]:
    directory = work / f"ours-{stones}"
    shutil.rmtree(directory, ignore_errors=True)
    run = Run(our_cli("tables", "build", "mancala", "--max-stones", stones, "--dir", directory,
                      "--json"), cwd=ROOT)
    return run, directory


def his_hash_bits(table_mb: int) -> int:
    return max(10, int(math.log2(table_mb * 2**20 / HIS_ENTRY_BYTES)))


def his_solve(solver: Path, database: Path, table_stones: int, args) -> tuple[Run, dict]:
    run = Run([str(solver), "-t", str(his_hash_bits(args.table_mb)), "-e", str(table_stones),
               "-E", str(database), "s", str(args.stones)])
    found = re.search(r"Move: s \d+, m (\d+)\S*, r (-?\d+)", run.stdout)
    nodes = re.search(r"Nodes searched:\s+(\d+)", run.stdout)
    if not found or not nodes:
        raise SystemExit(f"cannot read kalah-s's answer: {run.stdout.strip()[-300:]}")
    # His "Nodes searched" counts the positions whose moves he generated (those his look at a
    # child answered first are "peeked", not searched): our "expanded".
    return run, dict(move=int(found.group(1)[0]) + 1, value=int(found.group(2)),
                     nodes=int(nodes.group(1)), counted=" expanded")


def without_files(args) -> list[str]:
    """Our options for a solve without table files: none probed, or with ``--memory-tables``
    the levels up to L computed in memory in the timed run."""
    return ["--no-tables"] if args.memory_tables is None else \
        ["--memory-tables", args.memory_tables]


def our_solve(tables: Path | None, args) -> tuple[Run, dict]:
    where = without_files(args) if tables is None else ["--tables", tables]
    run = Run(our_cli("best", "mancala", "--pits", args.pits, "--stones", args.stones, "--exact",
                      *where, "--table-mb", args.table_mb, "--threads", args.threads, "--json"),
              cwd=ROOT)
    return run, _our_answer(json.loads(run.stdout))


def _our_answer(answer: dict) -> dict:
    """What a pair compares of our ``solver best --json`` object."""
    return dict(move=answer["move"], value=answer["value"], nodes=answer["nodes"],
                expanded=answer["expanded"])


# --- reporting -----------------------------------------------------------------------------------

def _pair(name: str, repeat: int, his: Run, ours: Run, peer: str = "his") -> None:
    """One interleaved pair, as soon as it is measured (a long run stopped early keeps them)."""
    print(f"  {name} #{repeat + 1}: {peer} {his.wall:.2f} s (cpu {his.cpu:.2f}), ours "
          f"{ours.wall:.2f} s (cpu {ours.cpu:.2f}), load {os.getloadavg()[0]:.1f}", flush=True)


def summary(name: str, his: list[Run], ours: list[Run], extra: str = "",
            peer: str = "his") -> dict:
    """Medians of wall and CPU seconds, and of the per-pair ratios ours / ``peer``'s."""
    ratio = statistics.median(o.wall / h.wall for o, h in zip(ours, his))
    cpu_ratios = [o.cpu / h.cpu for o, h in zip(ours, his) if h.cpu > 0]
    cpu_ratio = statistics.median(cpu_ratios) if cpu_ratios else float("nan")
    line = dict(task=name, his_wall=[h.wall for h in his], our_wall=[o.wall for o in ours],
                his_cpu=[h.cpu for h in his], our_cpu=[o.cpu for o in ours],
                ratio=ratio, cpu_ratio=cpu_ratio)
    print(f"{name:<22} {peer} {statistics.median(line['his_wall']):7.2f} s  ours "
          f"{statistics.median(line['our_wall']):7.2f} s  ratio ours/{peer} {ratio:5.2f}   "
          f"cpu {peer} {statistics.median(line['his_cpu']):7.2f} s ours "
          f"{statistics.median(line['our_cpu']):7.2f} s ratio {cpu_ratio:5.2f}{extra}",
          flush=True)
    return line


def compare_irving(args, directory: Path, work: Path) -> list[dict]:
    solver, generator = directory / "kalah-s", directory / "generator"
    missing = [p for p in (solver, generator) if not os.access(p, os.X_OK)]
    if missing:
        print(f"irving: {', '.join(map(str, missing))} not built, skipped (benches/README.md)")
        return []
    print(f"Irving's solver in {directory}; ours from {ROOT}; {args.repeats} interleaved "
          f"repeats; machine load {os.getloadavg()[0]:.1f}", flush=True)
    lines, built = [], {}
    if "solve-tables" in args.tasks and "build" not in args.tasks:
        stones = max(args.build_stones)
        built[stones] = _tables_for_search(generator, stones, work)
    if "build" in args.tasks:
        for stones in args.build_stones:
            his, ours = [], []
            for repeat in range(args.repeats):
                run, database = his_build(generator, stones, work)
                his.append(run)
                run, tables = our_build(stones, work)
                ours.append(run)
                _pair(f"build <= {stones} stones", repeat, his[-1], ours[-1])
            built[stones] = (database, tables)
            positions = covered_positions(stones, args.pits)
            rates = (positions / statistics.median(r.wall for r in his),
                     positions / statistics.median(r.wall for r in ours))
            lines.append(summary(f"build <= {stones} stones", his, ours,
                                 f"   {positions:,} positions: his {rates[0] / 1e6:.2f} M/s, "
                                 f"ours {rates[1] / 1e6:.2f} M/s (ours/his {rates[1] / rates[0]:.2f})"))
    if "solve-tables" in args.tasks:
        stones = max(args.build_stones)
        database, tables = built[stones]
        lines.append(_solves(f"solve <= {stones} tables", args,
                             lambda: his_solve(solver, database, stones, args),
                             lambda: our_solve(tables, args)))
    if "solve" in args.tasks:
        empty = work / "irving-empty.dat"
        empty.unlink(missing_ok=True)
        Run([str(generator), str(empty)], stdin="4\nq\n", cwd=work)
        lines.append(_solves("solve, no tables", args,
                             lambda: his_solve(solver, empty, 0, args),
                             lambda: our_solve(None, args)))
    return lines


def _tables_for_search(generator: Path, stones: int, work: Path) -> tuple[Path, Path]:
    """Both sides' tables up to ``stones`` for the solve task without timing their builds:
    those a build task left in ``work`` (``--work``) if complete, else built once now."""
    database, tables = work / f"irving-{stones}.dat", work / f"ours-{stones}"
    header = database.read_bytes()[:12] if database.exists() else b""
    if not header.startswith(b"eg") or int(header[2:7].split(b"\0")[0] or 0) != stones:
        database = his_build(generator, stones, work)[1]
    if not (tables / f"mancala6-capture-empty-level-{stones:02d}.tbl").exists():
        tables = our_build(stones, work)[1]
    return database, tables


def _solves(name: str, args, his_side, our_side, peer: str = "his") -> dict:
    his, ours, answers = [], [], []
    for repeat in range(args.repeats):
        run, his_answer = his_side()
        his.append(run)
        run, our_answer = our_side()
        ours.append(run)
        answers.append((his_answer, our_answer))
        _pair(name, repeat, his[-1], ours[-1], peer)
    his_answer, our_answer = answers[-1]
    agree = all(h["value"] == o["value"] for h, o in answers)
    line = summary(f"Kalah({args.pits},{args.stones}) {name}", his, ours,
                   f"   value {peer} {his_answer['value']:+d} ours {our_answer['value']:+d}"
                   f"{'' if agree else ' DISAGREE'}, move {peer} {his_answer['move']} ours "
                   f"{our_answer['move']}, nodes {peer} {his_answer['nodes']:,}"
                   f"{his_answer.get('counted', '')} ours {our_answer['nodes']:,} "
                   f"({our_answer['expanded']:,} expanded)", peer)
    line.update(his_answer=his_answer, our_answer=our_answer, agree=agree)
    if not agree:
        raise SystemExit("the two solvers disagree on the value")
    return line


# --- the Rust mancala-solver -----------------------------------------------------------------------

RUST_BUDGET = 10**12        # its node budget before it falls back to a heuristic: never, here


def rust_answer(text: str) -> dict:
    """Value, move (our numbering: its pit + 1) and nodes from its report; a heuristic
    fallback (no exact result) is an error."""
    result = re.search(r"perfect play ends ([+-]) (\d+) seed", text)
    move = re.search(r"Best move: pit (\d+)", text)
    nodes = re.search(r"Nodes searched: (\d+)", text)
    if "EXACT" not in text or not (result and move and nodes):
        raise SystemExit(f"cannot read an exact answer from mancala-solver: {text.strip()[-300:]}")
    value = int(result.group(2)) * (-1 if result.group(1) == "-" else 1)
    return dict(value=value, move=int(move.group(1)) + 1, nodes=int(nodes.group(1)))


def rust_rule(rule: str) -> list[str]:
    return ["--capture-empty"] if rule == "capture_empty" else []


def our_rule(rule: str) -> list[str]:
    return [] if rule == "capture_empty" else ["--no-capture-empty"]


def rust_build(binary: Path, cap: int, rule: str, work: Path) -> tuple[Run, Path]:
    table = work / f"rust-{rule}-{cap}.tb"
    table.unlink(missing_ok=True)
    run = Run([str(binary), "gen-tb", "--pits", str(6), "--seeds-cap", str(cap), "--out",
               str(table), *rust_rule(rule)], cwd=work)
    return run, table


def our_rule_build(stones: int, rule: str, work: Path) -> tuple[Run, Path]:
    directory = work / f"ours-{rule}-{stones}"
    shutil.rmtree(directory, ignore_errors=True)
    run = Run(our_cli("tables", "build", "mancala", "--max-stones", stones, "--dir", directory,
                      *our_rule(rule), "--json"), cwd=ROOT)
    return run, directory


def rust_solve(binary: Path, table: Path | None, rule: str, args) -> tuple[Run, dict]:
    tables = ["--no-tb"] if table is None else ["--tb", str(table)]
    run = Run([str(binary), "start", "--pits", str(args.pits), "--seeds", str(args.stones),
               *tables, "--budget", str(RUST_BUDGET), *rust_rule(rule)])
    return run, rust_answer(run.stdout)


def our_rule_solve(tables: Path | None, rule: str, args) -> tuple[Run, dict]:
    where = without_files(args) if tables is None else ["--tables", tables]
    run = Run(our_cli("best", "mancala", "--pits", args.pits, "--stones", args.stones, "--exact",
                      *where, *our_rule(rule), "--table-mb", args.table_mb, "--json"), cwd=ROOT)
    return run, _our_answer(json.loads(run.stdout))


def _rust_tables_for_search(binary: Path, cap: int, rule: str, work: Path) -> tuple[Path, Path]:
    """Both sides' tables up to ``cap`` for the solve task, untimed: those a build task left in
    ``work`` (``--work``), else built now. (Its file has no checksum to check: a table of the
    other rule would be taken silently, so keep the names.)"""
    table, directory = work / f"rust-{rule}-{cap}.tb", work / f"ours-{rule}-{cap}"
    if not table.exists():
        table = rust_build(binary, cap, rule, work)[1]
    family = "capture-empty" if rule == "capture_empty" else "capture-nonempty"
    if not (directory / f"mancala6-{family}-level-{cap:02d}.tbl").exists():
        directory = our_rule_build(cap, rule, work)[1]
    return table, directory


def compare_rust(args, binary: Path, work: Path) -> list[dict]:
    if not os.access(binary, os.X_OK):
        print(f"rust: {binary} is not built, skipped (benches/README.md)")
        return []
    rules = RULE_NAMES if args.rules == "both" else (args.rules,)
    print(f"the Rust mancala-solver {binary}; ours from {ROOT}; {args.repeats} interleaved "
          f"repeats; machine load {os.getloadavg()[0]:.1f}", flush=True)
    lines = []
    for rule in rules:
        built = {}
        if "build" in args.tasks:
            for cap in args.build_stones:
                theirs, ours = [], []
                for repeat in range(args.repeats):
                    run, table = rust_build(binary, cap, rule, work)
                    theirs.append(run)
                    run, directory = our_rule_build(cap, rule, work)
                    ours.append(run)
                    _pair(f"{rule} build <= {cap}", repeat, theirs[-1], ours[-1], "rust")
                built[cap] = (table, directory)
                lines.append(summary(f"{rule} build <= {cap} stones", theirs, ours, peer="rust"))
        if "solve-tables" in args.tasks:
            cap = max(args.build_stones)
            if cap not in built:
                built[cap] = _rust_tables_for_search(binary, cap, rule, work)
            table, directory = built[cap]
            lines.append(_solves(f"{rule} solve <= {cap} tables", args,
                                 lambda: rust_solve(binary, table, rule, args),
                                 lambda: our_rule_solve(directory, rule, args), "rust"))
        if "solve" in args.tasks:
            lines.append(_solves(f"{rule} solve, no tables", args,
                                 lambda: rust_solve(binary, None, rule, args),
                                 lambda: our_rule_solve(None, rule, args), "rust"))
    return lines


def compare_commands(args, peers) -> list[dict]:
    """Each peer against ``benches/solve_kalah.py`` on each rule asked for, pairs interleaved."""
    rules = RULE_NAMES if args.rules == "both" else (args.rules,)
    lines = []
    for name, command in peers.items():
        if shutil.which(command[0]) is None:
            print(f"{name}: {command[0]} is not installed, skipped (see benches/README.md)")
            continue
        for rule in rules:
            lines.append(_peer_pairs(name, peer_command(command, rule, args.pits, args.stones),
                                     rule, args))
    return lines


def _peer_pairs(name: str, command: list[str], rule: str, args) -> dict:
    ours = [sys.executable, str(HERE / "solve_kalah.py"), "--pits", str(args.pits), "--stones",
            str(args.stones), "--table-mb", str(args.table_mb), "--rules", rule,
            "--threads", str(args.threads)]
    if args.memory_tables is not None:      # the user's command, end to end
        ours = our_cli("best", "mancala", "--pits", args.pits, "--stones", args.stones,
                       "--exact", *without_files(args), *our_rule(rule), "--table-mb",
                       args.table_mb, "--threads", args.threads, "--json")
    print(f"{name} {rule}: {shlex.join(command)} against {shlex.join(ours[1:])}; "
          f"{args.repeats} interleaved repeats, load {os.getloadavg()[0]:.1f}", flush=True)
    theirs, mine, answers = [], [], []
    for repeat in range(args.repeats):
        theirs.append(Run(command))
        mine.append(Run(ours, cwd=ROOT))
        answers.append((read_answer(theirs[-1].stdout),
                        read_solve_kalah(mine[-1].stdout, rule) if args.memory_tables is None
                        else _our_answer(json.loads(mine[-1].stdout))))
        _pair(f"{name} {rule}", repeat, theirs[-1], mine[-1], name)
    their_answer, our_answer = answers[-1]
    agree = all(t["value"] == o["value"] for t, o in answers)
    shown = {key: "?" if their_answer[key] is None else f"{their_answer[key]:,}"
             for key in their_answer}
    line = summary(f"Kalah({args.pits},{args.stones}) {rule}", theirs, mine,
                   f"   value {name} {shown['value']} ours {our_answer['value']:+d}"
                   f"{'' if agree else ' DISAGREE'}, move {name} {shown['move']} ours "
                   f"{our_answer['move']}, nodes {name} {shown['nodes']} ours "
                   f"{our_answer['nodes']:,}", name)
    line.update(peer=name, rule=rule, command=command, peer_answer=their_answer,
                our_answer=our_answer, agree=agree)
    if any(t["value"] is None for t, _ in answers):
        raise SystemExit(f"{name}: no value in its output (it must print e.g. 'value 10')")
    if not agree:
        raise SystemExit(f"{name} and ours disagree on the value")
    return line


def main(argv=None) -> int:
    args, peers = parse_args(argv)
    lines = []
    with tempfile.TemporaryDirectory(prefix="compare-peers-") as scratch:
        work = Path(args.work) if args.work else Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        if args.irving:
            lines += compare_irving(args, Path(args.irving), work)
        if args.rust:
            lines += compare_rust(args, Path(args.rust), work)
        lines += compare_commands(args, peers)
    if args.openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("openspiel: pyspiel is not installed, skipped (pip install open-spiel)")
        else:
            subprocess.run([sys.executable, str(HERE / "compare_openspiel.py"), "--repeats",
                            str(args.repeats)], check=False)
    if args.json:
        Path(args.json).write_text(json.dumps(lines, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

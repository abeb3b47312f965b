"""Exact Kalah solves against external peer solvers, side by side in one run. Run:

    python benches/compare_peers.py --peer irving='/path/to/kalah_solver 6 4' \\
        --peer plain-c='/path/to/ab 6 4' [--rules capture_empty|no-capture-empty]
        [--pits 6 --stones 4] [--table-mb 1024] [--repeats 3]

Each ``--peer NAME=COMMAND`` is a shell command that solves the same position (Kalah(pits,
stones) from the start, the rule given by ``--rules``) and exits; how to obtain and build each
peer from public sources, and the command line each takes, is in ``benches/README.md``. Peers
whose program is not installed are skipped with a note. Every repeat times each peer's whole
process (start-up included) and then our solve in a fresh process (``benches/solve_kalah.py``,
start-up included), so that load from other users hits both alike; the medians and the median
of the per-repeat ratios (ours / peer time: below 1 means we are faster) are printed.

OpenSpiel is compared by ``benches/compare_openspiel.py`` (it needs no binary: the open-spiel
wheel carries the C++ engine as ``pyspiel``); this script runs it too when pyspiel imports and
``--openspiel`` is given.
"""
from __future__ import annotations

import argparse
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer", action="append", default=[], metavar="NAME=COMMAND",
                        help="a peer solver's command line (repeatable)")
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--stones", type=int, default=4)
    parser.add_argument("--rules", choices=("capture_empty", "no-capture-empty"),
                        default="capture_empty")
    parser.add_argument("--table-mb", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--openspiel", action="store_true",
                        help="also run benches/compare_openspiel.py")
    args = parser.parse_args(argv)
    peers = {}
    for text in args.peer:
        name, sep, command = text.partition("=")
        if not sep or not command.strip():
            parser.error(f"--peer wants NAME=COMMAND, got {text!r}")
        peers[name] = shlex.split(command)
    return args, peers


def wall_time(command: list[str]) -> float:
    """Seconds the whole process took; a failing peer stops the comparison."""
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(command)} failed ({done.returncode}): "
                         f"{done.stderr.strip()[-300:]}")
    return seconds


def our_command(args) -> list[str]:
    return [sys.executable, str(HERE / "solve_kalah.py"), "--pits", str(args.pits), "--stones",
            str(args.stones), "--table-mb", str(args.table_mb), "--rules", args.rules]


def main(argv=None) -> int:
    args, peers = parse_args(argv)
    installed = {}
    for name, command in peers.items():
        if shutil.which(command[0]) is None:
            print(f"{name}: {command[0]} is not installed, skipped (see benches/README.md)")
        else:
            installed[name] = command
    ours = our_command(args)
    print(f"Kalah({args.pits},{args.stones}) {args.rules}, {args.repeats} interleaved repeats; "
          f"ours: {shlex.join(ours)}")
    for name, command in installed.items():
        theirs, mine = [], []
        for _ in range(args.repeats):
            theirs.append(wall_time(command))
            mine.append(wall_time(ours))
        ratio = statistics.median(m / t for m, t in zip(mine, theirs))
        print(f"{name:<12} peer {statistics.median(theirs):8.2f} s   ours "
              f"{statistics.median(mine):8.2f} s   ratio ours/peer {ratio:6.2f}", flush=True)
    if args.openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("openspiel: pyspiel is not installed, skipped (pip install open-spiel)")
        else:
            subprocess.run([sys.executable, str(HERE / "compare_openspiel.py"), "--repeats",
                            str(args.repeats)], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())

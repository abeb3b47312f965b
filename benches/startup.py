"""Start-up of the command line: each command run as a fresh process, warm (caches on disk).

    python -m benches.startup [--repeats 5]

Issue 13, target 5: ``solver --help`` and every bad-input error under 0.2 s, ``solver best
mancala --depth 12`` under 0.4 s. The commands are interleaved in every repeat (so load from
other users hits them alike); printed per command: the median wall and CPU seconds (user +
system of the child) and the target. ``python -c pass`` and ``import numba`` plus one cached
kernel are timed the same way, as the floors a Python CLI and a Numba one cannot go below (the
Numba floor leaves with ``os._exit`` as ``solver`` does; a normal exit after it, timed too, adds
the interpreter's teardown of Numba's objects).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

FLOORS = [
    ("python -c pass", [sys.executable, "-c", "pass"], None),
    ("import numpy", [sys.executable, "-c", "import numpy"], None),
    ("import numba + one cached kernel, os._exit", [sys.executable, "-c",
                                                    "import os, kernels._random; os._exit(0)"],
     None),
    ("the same, normal interpreter exit", [sys.executable, "-c", "import kernels._random"], None),
]


def commands(empty: str) -> list[tuple[str, list[str], float]]:
    solver = [sys.executable, "-m", "solver"]
    return [
        ("solver --help", solver + ["--help"], 0.2),
        ("bad position (best mancala bad)", solver + ["best", "mancala", "bad"], 0.2),
        ("bad file (best funkel /missing.json)", solver + ["best", "funkel", "/missing.json"],
         0.2),
        ("tables info (empty folder)", solver + ["tables", "info", "--dir", empty], 0.2),
        ("tables verify (empty folder: error)", solver + ["tables", "verify", "--dir", empty],
         0.2),
        ("best mancala --depth 12", solver + ["best", "mancala", "--depth", "12"], 0.4),
    ]


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as empty:
        runs = FLOORS + commands(empty)
        for _, argv_, _ in runs:       # warm the caches (Numba's, the OS's) once, untimed
            timed(argv_)
        results: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in runs}
        for _ in range(args.repeats):
            for name, argv_, _ in runs:
                results[name].append(timed(argv_))
    print(f"load average {os.getloadavg()[0]:.1f}; medians of {args.repeats} interleaved runs")
    print(f"{'command':<42} {'wall s':>7} {'cpu s':>7}  target")
    for name, _, target in runs:
        wall = statistics.median(w for w, _ in results[name])
        cpu = statistics.median(c for _, c in results[name])
        verdict = "" if target is None else \
            f"< {target} s: {'met' if wall < target else 'NOT met'}"
        print(f"{name:<42} {wall:7.3f} {cpu:7.3f}  {verdict}")


if __name__ == "__main__":
    main()

"""Endgame-table build benchmarks (pytest-benchmark), and a script for the long builds.

    python -m pytest benches/bench_tables.py --benchmark-enable --benchmark-json=benches/tables.json
    python -m benches.bench_tables --max-stones 20 --dir /tmp/tables20     # files, progress lines
    /usr/bin/time -v python -m benches.bench_tables --max-stones 24 --dir /tmp/tables24

Rates are positions per second; ``per_thread`` divides by the Numba threads used. Compile time
is excluded (kernels are compiled with explicit signatures at import, or loaded from the cache).
The machine's cores may be shared: repeat a figure before trusting a difference.
"""
from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pytest

from tables import api, build, index
from tables.probe import probe

LEVEL = 16   # levels 1..16: 3.0e7 positions


def _rates(benchmark, positions, threads):
    seconds = benchmark.stats.stats.median
    benchmark.extra_info.update(positions=positions, threads=threads,
                                positions_per_second=positions / seconds,
                                positions_per_second_per_thread=positions / seconds / threads)


@pytest.mark.parametrize("capture_empty", [True, False], ids=["capture-empty", "capture-nonempty"])
def test_build_all_levels_in_memory(benchmark, capture_empty):
    build.set_threads(None)
    build.build_in_memory(2, capture_empty)  # load the kernels outside the timing
    benchmark.pedantic(build.build_in_memory, args=(LEVEL, capture_empty), rounds=3,
                       warmup_rounds=0)
    _rates(benchmark, int(index.LEVEL_SIZE[1:LEVEL + 1].sum()), build.get_threads())


@pytest.fixture(scope="module")
def lower_levels():
    data, offsets = build.build_in_memory(LEVEL - 1, True)
    full_offsets = index.level_offsets(LEVEL)
    full = np.zeros(full_offsets[-1], np.int8)
    full[:data.size] = data
    return full, full_offsets


@pytest.mark.parametrize("threads", [1, 2])
def test_build_one_level(benchmark, lower_levels, threads):
    """One level with every lower one in memory: the per-thread rate and how it scales."""
    tables, offsets = lower_levels
    current = tables[offsets[LEVEL]:offsets[LEVEL + 1]]
    build.set_threads(threads)
    try:
        benchmark.pedantic(build.build_level, args=(LEVEL, True, tables, offsets, current,
                                                    build.full_block_base(LEVEL)),
                           rounds=3, warmup_rounds=0)
    finally:
        build.set_threads(None)
    _rates(benchmark, int(index.LEVEL_SIZE[LEVEL]), threads)


def test_probe_from_python(benchmark, lower_levels):
    """A probe called from Python (the CLI's path; alpha-beta calls it inside its kernel)."""
    tables, offsets = lower_levels
    rng = random.Random(20261129)
    config = build.config_word(True)
    states = []
    for _ in range(1000):
        level = rng.randrange(1, LEVEL)
        mover, other = index.unrank(level, rng.randrange(index.level_size(level)))
        states.append((mover | config, other | config))
    data = tables[:offsets[LEVEL]]
    head = offsets[:LEVEL + 1]

    def probe_all():
        return sum(probe(state, data, head) for state in states)

    benchmark(probe_all)
    benchmark.extra_info["probes_per_second"] = len(states) / benchmark.stats.stats.median


# --- the long builds, as a script ----------------------------------------------------------------

def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Build the tables to files, printing progress "
                                     "and the final rate (tables.api.build).")
    parser.add_argument("--max-stones", type=int, required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--no-capture-empty", dest="capture_empty", action="store_false")
    parser.add_argument("--workers", type=int)
    parser.add_argument("--scheduler")
    args = parser.parse_args(argv)
    shown = [0.0]

    def show(p: api.BuildProgress) -> None:
        now = time.perf_counter()
        if p.stage != "build" or now - shown[0] > 10:
            shown[0] = now
            left = "" if p.seconds_left is None else f", about {p.seconds_left:.0f} s left"
            print(f"level {p.level}/{p.max_level} {p.stage}: {p.done:,}/{p.total:,} "
                  f"({p.rate / 1e6:.2f} M positions/s, {p.seconds:.0f} s{left})", flush=True)

    report = api.build(args.max_stones, args.dir, args.capture_empty, args.workers,
                       args.scheduler, progress=show)
    threads = max(report.workers, 1)
    print(f"built levels {report.built or 'none'} (loaded {report.loaded or 'none'}): "
          f"{report.positions:,} positions in {report.seconds:.1f} s wall, "
          f"{report.compute_seconds:.1f} s computing: {report.rate / 1e6:.2f} M positions/s, "
          f"{report.rate / threads / 1e6:.2f} M/s per thread ({threads} threads)", flush=True)


if __name__ == "__main__":
    main()

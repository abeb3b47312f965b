"""Endgame-table build benchmarks (pytest-benchmark), and a script for the long builds.

    python -m pytest benches/bench_tables.py --benchmark-enable --benchmark-json=benches/tables.json
    python -m benches.bench_tables --max-stones 20 --dir /tmp/tables20     # files, progress lines
    /usr/bin/time -v python -m benches.bench_tables --max-stones 24 --dir /tmp/tables24 \
        --memory-mb 256                                  # peak RSS against the table size
    python -m benches.bench_tables --entry-size --dir /tmp/tables24      # int8 or more compact?
    python -m benches.bench_tables --cluster-spread 8 --max-stones 14 --dir /tmp/spread
        # a LocalCluster of 8 one-thread workers: tasks per worker and task sizes per level
    python -m benches.bench_tables --plan 32 --max-stones 28   # tasks per bucket for 32 workers
    python -m benches.bench_tables --kernels 16 [--repeats 7]
        # one level's compute, one thread: the tiled kernel against the per-position step

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

from numba import types

from kernels._jit import kernel
from tables import api, build, index, rank
from tables.format import Family
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
    _rates(benchmark, int(index.LEVEL_SIZE[6, 1:LEVEL + 1].sum()), build.get_threads())


@pytest.fixture(scope="module")
def lower_levels():
    return build.build_in_memory(LEVEL, True)


def _one_level(tables):
    current = tables.level(LEVEL)
    for distance in build.distances(6, LEVEL):
        part = build.bucket(6, LEVEL, distance)
        build.scatter(part, 0, build.compute(part, 0, part.size, True, tables.data,
                                             tables.offsets), current)


@pytest.mark.parametrize("threads", [1, 2])
def test_build_one_level(benchmark, lower_levels, threads):
    """One level with every lower one in memory: the per-thread rate and how it scales."""
    build.set_threads(threads)
    try:
        benchmark.pedantic(_one_level, args=(lower_levels,), rounds=3, warmup_rounds=0)
    finally:
        build.set_threads(None)
    _rates(benchmark, int(index.LEVEL_SIZE[6, LEVEL]), threads)


def test_probe_from_python(benchmark, lower_levels):
    """A probe called from Python (the CLI's path; alpha-beta calls it inside its kernel)."""
    rng = random.Random(20261129)
    config = build.config_word(True)
    states = []
    for _ in range(1000):
        level = rng.randrange(1, LEVEL)
        mover, other = rank.unrank(6, level, rng.randrange(index.level_size(level)))
        states.append((mover | config, other | config))

    def probe_all():
        return sum(probe(state, lower_levels.data, lower_levels.offsets) for state in states)

    benchmark(probe_all)
    benchmark.extra_info["probes_per_second"] = len(states) / benchmark.stats.stats.median


# --- is a more compact entry worth it? -----------------------------------------------------------

FIELDS = 12  # 5-bit fields per uint64 word (60 bits used)


@kernel(types.uint64[::1](types.int8[::1], types.int64))
def pack5(values, level):
    """(V + level) / 2, 0..level, in 5 bits (level <= 31): 12 entries per word."""
    out = np.zeros((values.shape[0] + FIELDS - 1) // FIELDS, np.uint64)
    for i in range(values.shape[0]):
        field = np.uint64((values[i] + level) // 2)
        out[i // FIELDS] |= field << np.uint64(5 * (i % FIELDS))
    return out


@kernel(types.int64(types.int8[::1], types.int64[::1]))
def read_int8(values, where):
    total = 0
    for i in range(where.shape[0]):
        total += values[where[i]]
    return total


@kernel(types.int64(types.uint64[::1], types.int64[::1], types.int64))
def read_5bit(words, where, level):
    total = 0
    for i in range(where.shape[0]):
        j = where[i]
        field = (words[j // FIELDS] >> np.uint64(5 * (j % FIELDS))) & np.uint64(31)
        total += 2 * np.int64(field) - level
    return total


def entry_size(directory: str, probes: int = 2_000_000) -> None:
    """For each level file present: the values' entropy, the size of 5-bit entries and of
    zstd/zlib-compressed blocks, and the cost of a random read from int8, 5-bit and compressed
    blocks (the probe's access pattern: one entry of a random position)."""
    import zlib

    import zstandard
    print(f"{'level':>5} {'MB':>8} {'entropy':>8} {'5-bit':>6} {'zstd4K':>7} {'zstd64K':>8} "
          f"{'zlib4K':>7} {'int8 ns':>8} {'5bit ns':>8} {'zstd4K us':>10}")
    for level in (12, 16, 20, 22, 24, 26):
        try:
            values = np.array(api.level_values(directory, level, Family(6, True, 1)))
        except api.TableError:
            continue
        counts = np.bincount(values.astype(np.int64) + level)
        p = counts[counts > 0] / values.size
        entropy = float(-(p * np.log2(p)).sum())
        packed = pack5(values, level)
        raw = values.tobytes()

        def ratio(codec, block):
            sample = [raw[i:i + block] for i in range(0, min(len(raw), 1 << 26), block)]
            return sum(len(codec(b)) for b in sample) / sum(len(b) for b in sample)
        fast = zstandard.ZstdCompressor(level=1)
        zstd4, zstd64 = ratio(fast.compress, 4096), ratio(fast.compress, 65536)
        zlib4 = ratio(lambda b: zlib.compress(b, 1), 4096)
        where = np.random.default_rng(level).integers(0, values.size, probes).astype(np.int64)
        read_int8(values, where[:10])
        read_5bit(packed, where[:10], level)
        began = time.perf_counter()
        read_int8(values, where)
        int8_ns = (time.perf_counter() - began) / probes * 1e9
        began = time.perf_counter()
        read_5bit(packed, where, level)
        bit5_ns = (time.perf_counter() - began) / probes * 1e9
        blocks = [fast.compress(raw[i:i + 4096]) for i in range(0, len(raw), 4096)]
        unpack = zstandard.ZstdDecompressor()
        picks = where[:20000] // 4096
        began = time.perf_counter()
        for b in picks:
            unpack.decompress(blocks[b])
        zstd_us = (time.perf_counter() - began) / len(picks) * 1e6
        print(f"{level:>5} {values.size / 1e6:>8.1f} {entropy:>8.2f} {5 / 8:>6.3f} "
              f"{zstd4:>7.3f} {zstd64:>8.3f} {zlib4:>7.3f} {int8_ns:>8.1f} {bit5_ns:>8.1f} "
              f"{zstd_us:>10.2f}", flush=True)


# --- the Dask split ------------------------------------------------------------------------------

def cluster_spread(workers: int, max_stones: int, directory: str) -> None:
    """Build on a LocalCluster of ``workers`` one-thread worker processes and print, for each
    level, the tasks, their sizes and how many each worker ran."""
    from collections import Counter

    import distributed

    from tables import distributed as table_cluster
    from tables.levels import build_levels
    from tables.mapping import MemoryBudget
    from pathlib import Path
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            table_cluster.DaskExecutor(cluster.scheduler_address, 1) as executor:
        Path(directory).mkdir(parents=True, exist_ok=True)
        began = time.perf_counter()
        build_levels(max_stones, Path(directory), Family(6, True, 1), executor, MemoryBudget())
        seconds = time.perf_counter() - began
    print(f"{workers} workers, levels 1..{max_stones} in {seconds:.1f} s")
    print(f"{'level':>5} {'tasks':>6} {'min':>8} {'median':>8} {'max':>8} {'workers':>7} "
          f"{'tasks per worker (min..max)':>28}")
    for level in range(1, max_stones + 1):
        tasks = [t for t in executor.tasks if t[0] == level]
        if not tasks:
            continue
        sizes = sorted(end - begin for _, _, begin, end, _ in tasks)
        spread = Counter(worker for *_, worker in tasks)
        print(f"{level:>5} {len(tasks):>6} {sizes[0]:>8} {sizes[len(sizes) // 2]:>8} "
              f"{sizes[-1]:>8} {len(spread):>7} "
              f"{min(spread.values()):>13}..{max(spread.values())}")


def show_plan(workers: int, level: int) -> None:
    from tables import distributed as table_cluster
    rows = table_cluster.plan(6, level, workers)
    total = sum(r["positions"] for r in rows)
    busy = sum(r["positions"] for r in rows if r["tasks"] >= workers)
    print(f"level {level}: {total:,} positions, {len(rows)} buckets, "
          f"{sum(r['tasks'] for r in rows):,} tasks for {workers} workers; "
          f"{busy / total:.1%} of the positions in buckets of >= {workers} tasks; "
          f"largest task {max(r['largest'] for r in rows):,} positions")


# --- the long builds, as a script ----------------------------------------------------------------

def compare_kernels(level: int, repeats: int, capture_empty: bool = True) -> None:
    """ns per position of one level's compute (every bucket, from the levels below built in
    memory), one thread: ``build.compute_range`` (the tiled kernel the builds run) against
    ``build.compute_range_by_position`` (``position_value``, ``play`` and a probe per child),
    interleaved; the two must agree on every position."""
    previous = build.get_threads()
    build.set_threads(1)
    tables = build.build_in_memory(level, capture_empty)
    offsets = build.probe_offsets(6, tables.starts[:level + 1])
    parts = [build.bucket(6, level, d) for d in build.distances(6, level)]
    config = build.config_word(capture_empty)

    def tiled(part, out):
        halves = build.half_tables(6, level)
        build.compute_range(6, level, 0, part.size, part.rectangles, part.first, halves.words,
                            halves.ranks, config, tables.data, offsets, out,
                            np.empty(0, np.int8))

    def by_position(part, out):
        halves = build.half_tables(6, level)
        build.compute_range_by_position(6, level, 0, part.size, part.rectangles, part.first,
                                        halves.words, halves.ranks, config, tables.data, offsets,
                                        out)

    kernels = {"tiled": tiled, "by position": by_position}
    outs = {name: [np.empty(p.size, np.int8) for p in parts] for name in kernels}
    seconds = {name: [] for name in kernels}
    positions = sum(p.size for p in parts)
    for _ in range(repeats):
        for name, run in kernels.items():
            start = time.perf_counter()
            for part, out in zip(parts, outs[name]):
                run(part, out)
            seconds[name].append(time.perf_counter() - start)
    build.set_threads(previous)
    agree = all(np.array_equal(a, b) for a, b in zip(outs["tiled"], outs["by position"]))
    print(f"level {level} ({positions:,} positions, capture_empty={capture_empty}), one thread, "
          f"medians of {repeats} interleaved runs; values agree: {agree}")
    for name, times in seconds.items():
        median = float(np.median(times))
        print(f"  {name:>12}: {median / positions * 1e9:6.1f} ns per position  "
              f"({' '.join(f'{t:.2f}' for t in times)} s)")
    ratio = np.median(seconds["by position"]) / np.median(seconds["tiled"])
    print(f"  tiled is {ratio:.2f}x faster")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Build the tables to files, printing progress "
                                     "and the final rate (tables.api.build).")
    parser.add_argument("--max-stones", type=int)
    parser.add_argument("--dir")
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--memory-mb", type=int)
    parser.add_argument("--entry-size", action="store_true",
                        help="measure more compact entries on the levels in --dir instead")
    parser.add_argument("--cluster-spread", type=int, metavar="WORKERS",
                        help="build on a LocalCluster of WORKERS processes, print the tasks")
    parser.add_argument("--plan", type=int, metavar="WORKERS",
                        help="print the task plan of level --max-stones for WORKERS workers")
    parser.add_argument("--no-capture-empty", dest="capture_empty", action="store_false")
    parser.add_argument("--workers", type=int)
    parser.add_argument("--scheduler")
    parser.add_argument("--kernels", type=int, metavar="LEVEL",
                        help="time LEVEL's compute: tiled kernel against the per-position step")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    if args.kernels:
        compare_kernels(args.kernels, args.repeats, args.capture_empty)
        return
    if args.entry_size:
        entry_size(args.dir)
        return
    if args.cluster_spread:
        cluster_spread(args.cluster_spread, args.max_stones, args.dir)
        return
    if args.plan:
        show_plan(args.plan, args.max_stones)
        return
    shown = [0.0]

    def show(p: api.BuildProgress) -> None:
        now = time.perf_counter()
        if p.stage != "build" or now - shown[0] > 10:
            shown[0] = now
            left = "" if p.seconds_left is None else f", about {p.seconds_left:.0f} s left"
            print(f"level {p.level}/{p.max_level} {p.stage}: {p.done:,}/{p.total:,} "
                  f"({p.rate / 1e6:.2f} M positions/s, {p.seconds:.0f} s{left})", flush=True)

    report = api.build(args.max_stones, args.dir, Family(args.pits, args.capture_empty, 1),
                       args.workers, args.scheduler, progress=show, memory_mb=args.memory_mb)
    threads = max(report.workers, 1)
    print(f"built levels {report.built or 'none'} (loaded {report.loaded or 'none'}): "
          f"{report.positions:,} positions in {report.seconds:.1f} s wall, "
          f"{report.compute_seconds:.1f} s computing: {report.rate / 1e6:.2f} M positions/s, "
          f"{report.rate / threads / 1e6:.2f} M/s per thread ({threads} threads); peak resident "
          f"{report.peak_resident_mb:.0f} MB (budget {report.memory_mb} MB)", flush=True)


if __name__ == "__main__":
    main()

"""The table build on a Dask cluster: a level's independent groups as tasks, files as the medium.

Within a level, a move that keeps every stone in the pits keeps the unordered split {s, n - s}
of the stones between the two sides (``tables.index``), so the groups s = 0..n // 2 of a level
never read each other: each is one task. Levels stay in order (a level reads all lower ones)::

    client                                  worker (one task = one group of level n)
    ------                                  ----------------------------------------
    level file n exists? verify, skip
    submit group tasks of level n  ------>  read levels 1..n-1 from DIR (verified, cached
                                            per process), compute the group's two blocks,
                                            write DIR/<level file>.group-GGG (temp + rename)
    collect {group, name, sha256, bytes} <-
    check every chunk's sha256, write the
    level file from the chunks in block
    order (temp + fsync + rename), delete
    the chunks; next level

Every worker must see the table directory at the same path (a shared file system). The level
files are byte-identical to a local build's: same values, same header, no build-specific fields.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path

import numpy as np

from solver.errors import InputError
from tables import build as builder
from tables.format import (atomic_file, level_filename, open_table, read_header,
                           read_table_into, write_table)
from tables.index import HALF_SIZE, LEVEL_SIZE, level_offsets

# The Numba workqueue threading layer must not run two parallel kernels at once in a process.
_KERNEL_LOCK = threading.Lock()
CONNECT_TIMEOUT = "10s"  # how long a client tries to reach the scheduler before giving up
# Per worker process: (directory, capture_empty) -> (tables, offsets, [sha256 of level 1..L]).
_LOWER_LEVELS: dict = {}


def chunk_name(level: int, capture_empty: bool, group: int) -> str:
    return f"{level_filename(level, capture_empty)}.group-{group:03d}"


# --- worker side ---------------------------------------------------------------------------------

def _lower_levels(directory: Path, level: int, capture_empty: bool):
    """Levels 0..level-1 of ``directory`` in one array (kept between tasks of this process;
    a level whose file changed since is read again)."""
    below = level - 1
    digests = [read_header(directory / level_filename(lv, capture_empty))[0]["sha256"]
               for lv in range(1, below + 1)]
    key = (str(directory), capture_empty)
    held = _LOWER_LEVELS.get(key)
    if held is not None and held[2][:below] == digests:
        return held[0], held[1]
    offsets = level_offsets(below)
    tables = np.zeros(offsets[-1], np.int8)
    for lv in range(1, below + 1):
        destination = tables[offsets[lv]:offsets[lv + 1]]
        if held is not None and lv < len(held[2]) + 1 and held[2][lv - 1] == digests[lv - 1]:
            destination[:] = held[0][held[1][lv]:held[1][lv + 1]]
        else:
            read_table_into(directory / level_filename(lv, capture_empty), lv, capture_empty,
                            destination)
    _LOWER_LEVELS[key] = (tables, offsets, digests)
    return tables, offsets


def compute_group(directory: str, level: int, group: int, capture_empty: bool,
                  threads: int | None = None) -> dict:
    """One task: the blocks of ``group`` in ``level``, written to their chunk file.
    Returns {group, name, sha256, bytes}."""
    directory = Path(directory)
    blocks = builder.group_blocks(level, group)
    block_size = int(HALF_SIZE[group] * HALF_SIZE[level - group])
    current = np.empty(block_size * len(blocks), np.int8)
    block_base = np.full(level + 1, -1, np.int64)
    for i, s in enumerate(blocks):
        block_base[s] = i * block_size
    with _KERNEL_LOCK:
        tables, offsets = _lower_levels(directory, level, capture_empty)
        if threads is not None:
            builder.set_threads(threads)
        builder.build_level(level, capture_empty, tables, offsets, current, block_base,
                            groups=(group, group + 1))
    name = chunk_name(level, capture_empty, group)
    digest = _write_chunk(directory / name, current)
    return dict(group=group, name=name, sha256=digest, bytes=int(current.size))


def _write_chunk(path: Path, values: np.ndarray) -> str:
    with atomic_file(path) as out:
        out.write(memoryview(values).cast("B"))
    return hashlib.sha256(memoryview(values).cast("B")).hexdigest()


# --- client side ---------------------------------------------------------------------------------

def _client(scheduler: str):
    try:
        from distributed import Client
    except ImportError:
        raise InputError("a distributed build needs dask and distributed: "
                         "pip install 'solver[distributed]'") from None
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError(f"cannot reach the Dask scheduler at {scheduler}: "
                         f"{str(error).splitlines()[0] if str(error) else type(error).__name__}"
                         ) from None


def build(max_level: int, directory: Path, capture_empty: bool, workers: int | None,
          scheduler: str, progress=None):
    """``tables.api.build`` with a scheduler: the same files, computed by the cluster."""
    from tables.api import BuildReport, _Meter
    client = _client(scheduler)
    try:
        paths = {lv: directory / level_filename(lv, capture_empty)
                 for lv in range(1, max_level + 1)}
        missing = [lv for lv in paths if not paths[lv].exists()]
        report = BuildReport(directory, capture_empty, max_level,
                             workers=len(client.scheduler_info().get("workers", {})))
        meter = _Meter(progress, max_level, int(sum(LEVEL_SIZE[lv] for lv in missing)))
        for level in range(1, max_level + 1):
            size = int(LEVEL_SIZE[level])
            if level not in missing:
                open_table(paths[level], level, capture_empty, verify=True)
                report.loaded.append(level)
                meter.report(level, "load", size, size)
                continue
            began = time.perf_counter()
            chunks = _run_level(client, directory, level, capture_empty, workers,
                                lambda done, lv=level, sz=size: meter.report(lv, "build", done, sz))
            report.compute_seconds += time.perf_counter() - began
            _assemble(directory, level, capture_empty, chunks)
            meter.finished += size
            report.built.append(level)
            report.positions += size
            meter.report(level, "write", size, size)
        report.seconds = time.perf_counter() - meter.begin
        return report
    finally:
        client.close()


def _run_level(client, directory, level, capture_empty, threads, report) -> dict[int, dict]:
    """Every group of ``level`` as a task, the largest first; {group: task result}."""
    from distributed import as_completed
    groups = sorted(range(builder.group_count(level)),
                    key=lambda g: -builder.group_size(level, g))
    run = f"{os.getpid()}-{time.time_ns()}"  # task keys unique to this run
    futures = [client.submit(compute_group, str(directory), level, g, capture_empty, threads,
                             pure=False, key=f"mancala-table-{level}-{g}-{run}")
               for g in groups]
    results, done = {}, 0
    for future in as_completed(futures):
        result = future.result()
        results[result["group"]] = result
        done += builder.group_size(level, result["group"])
        report(done)
    return results


def _assemble(directory: Path, level: int, capture_empty: bool, chunks: dict[int, dict]) -> None:
    """The level file from the groups' chunk files, blocks in index order; chunks checked
    against the digests their tasks reported, and removed once the level file is written."""
    bodies = {}
    for group, result in chunks.items():
        path = directory / result["name"]
        expected = builder.group_size(level, group)
        if not path.exists() or path.stat().st_size != expected:
            raise RuntimeError(f"chunk {result['name']} is missing or not {expected} bytes: "
                               f"do the workers share {directory}?")
        body = np.memmap(path, np.int8, "r")
        if hashlib.sha256(memoryview(body).cast("B")).hexdigest() != result["sha256"]:
            raise RuntimeError(f"chunk {result['name']} does not match its task's sha256")
        bodies[group] = body

    def blocks_in_order():
        for s in range(level + 1):
            group = min(s, level - s)
            size = int(HALF_SIZE[s] * HALF_SIZE[level - s])
            start = 0 if s == group else size
            yield bodies[group][start:start + size]

    write_table(directory / level_filename(level, capture_empty), level, capture_empty,
                blocks_in_order())
    for result in chunks.values():
        (directory / result["name"]).unlink(missing_ok=True)

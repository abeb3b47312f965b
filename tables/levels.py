"""The level loop, one for the local and the Dask build, and the pieces a level is made of.

A level is built bucket after bucket (``tables.build``); each bucket's positions, in bucket
order, are cut into *pieces* (ranges) that an executor computes: ``LocalExecutor`` in this
process on every thread, ``tables.distributed.DaskExecutor`` as tasks on a cluster. Every
finished piece is a file of its own, written atomically with its sha256::

    DIR/mancala6-capture-empty-level-24.tbl.work          the level being built (never trusted:
                                                          rebuilt from the pieces on a rerun)
    DIR/mancala6-capture-empty-level-24.tbl.piece-097-000000000000-000004194304
                                      bucket (distance) 97, positions 0..4194303 of the bucket

    piece file: magic b"SOLVPCE\\n", uint32 H, H bytes of canonical JSON {capture_empty, pits,
    rules_version, level, distance, begin, end, sha256}, then end - begin int8 values

The values of a piece are scattered into the working file, which is mapped beside the lower
levels (``tables.mapping``), so the build's memory is bounded by its ``MemoryBudget``, not by
the table size. A rerun after an interruption at any moment (even kill -9) re-creates the
working file, scatters every piece whose checksum holds, computes only what no piece covers,
and so resumes from the last finished piece. When the last bucket is done the working file gets
its real header, is fsynced and renamed to the level file, and the pieces are removed (the
folder itself is fsynced once, when the build ends: a rename lost to a power cut before that
only means the level is built again). The values do not depend on how the level was cut into
pieces, so a resumed, a local and a distributed build write byte-identical level files.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator


from tables.errors import TableError
from tables.format import (STAMPS, Family, atomic_file, fsync_directory, header_bytes,
                           level_filename, open_table, read_header, record_verified)
from tables.lazy import lazy_module
from tables.mapping import MappedLevels, MemoryBudget

np = lazy_module("numpy")    # on first use: listing tables and refusing input stay light

builder = lazy_module("tables.build")

PIECE_MAGIC = b"SOLVPCE\n"
_FRAME = struct.Struct("<8sI")
LOCAL_PIECE = 1 << 22          # positions per piece of a local build (4 MiB of values)
# A local piece smaller than this is not written to a file: it takes well under a second to
# compute again after an interruption, less than its file costs (two fsyncs and an unlink,
# measured at 5-10 ms each on this machine's shared disk, for 615 pieces up to level 15).
PERSIST_MIN = 1 << 20
STAMP_BYTES = 256              # a level file's line in the folder's record of verified files
_HASH_CHUNK = 1 << 24


# --- progress and report -------------------------------------------------------------------------

@dataclass
class BuildProgress:
    """What a progress bar shows; passed to ``build(progress=...)`` after every step.

    ``stage``: "load" (a finished level file verified), "build" (positions computed), "write"
    (the level file written). ``done``/``total``: positions of ``level``; ``positions_done``/
    ``positions_total``: positions this run computes, all levels; ``rate``: positions per
    second computed so far; ``seconds_left``: estimate (None at first)."""

    level: int
    max_level: int
    stage: str
    done: int
    total: int
    positions_done: int
    positions_total: int
    seconds: float
    rate: float
    seconds_left: float | None


@dataclass
class BuildReport:
    directory: Path
    capture_empty: bool
    max_level: int
    pits: int = 6
    built: list[int] = field(default_factory=list)      # levels computed by this run
    loaded: list[int] = field(default_factory=list)     # levels found finished and verified
    positions: int = 0                                   # positions computed by this run
    resumed: int = 0                                     # positions taken from earlier pieces
    pieces: int = 0                                      # pieces computed by this run
    seconds: float = 0.0
    compute_seconds: float = 0.0                         # without verifying finished files
    workers: int = 0
    memory_mb: int = 0                                   # the resident-memory budget
    peak_resident_mb: float = 0.0                        # the highest resident memory seen
    base_resident_mb: float = 0.0                        # resident memory when the build began
    page_drops: int = 0                                  # times the budget dropped mapped pages

    @property
    def rate(self) -> float:
        """Positions per second of computation (all threads)."""
        return self.positions / self.compute_seconds if self.compute_seconds > 0 else 0.0


class Meter:
    """Turns per-level counts into BuildProgress reports."""

    def __init__(self, callback, max_level, positions_total):
        self.callback, self.max_level = callback, max_level
        self.positions_total, self.finished = positions_total, 0
        self.begin = time.perf_counter()

    def report(self, level, stage, done, total):
        if self.callback is None:
            return
        seconds = time.perf_counter() - self.begin
        positions = self.finished + (done if stage == "build" else 0)
        rate = positions / seconds if seconds > 0 else 0.0
        left = (self.positions_total - positions) / rate if rate > 0 else None
        self.callback(BuildProgress(level, self.max_level, stage, done, total, positions,
                                    self.positions_total, seconds, rate, left))


# --- pieces --------------------------------------------------------------------------------------

def work_path(directory: Path, level: int, family: Family) -> Path:
    return directory / f"{level_filename(level, family)}.work"


def piece_path(directory: Path, level: int, family: Family, distance: int, begin: int,
               end: int) -> Path:
    return directory / (f"{level_filename(level, family)}.piece-{distance:03d}-{begin:012d}-"
                        f"{end:012d}")


def _piece_header(family: Family, level, distance, begin, end, sha256) -> bytes:
    text = json.dumps(dict(pits=family.pits, capture_empty=family.capture_empty,
                           rules_version=family.rules_version, level=level, distance=distance,
                           begin=begin, end=end, sha256=sha256),
                      sort_keys=True, separators=(",", ":")).encode()
    return _FRAME.pack(PIECE_MAGIC, len(text)) + text


def write_piece(directory: Path, level: int, family: Family, distance: int, begin: int,
                values: np.ndarray) -> Path:
    """One finished piece, atomically (temporary name, fsync, rename)."""
    end = begin + len(values)
    path = piece_path(directory, level, family, distance, begin, end)
    body = memoryview(np.ascontiguousarray(values, np.int8)).cast("B")
    with atomic_file(path) as out:
        out.write(_piece_header(family, level, distance, begin, end,
                                hashlib.sha256(body).hexdigest()))
        out.write(body)
    return path


def read_piece(path: Path, level: int, family: Family, distance: int, begin: int,
               end: int) -> np.ndarray | None:
    """A piece's values if the file is exactly what its name says and its checksum holds;
    None for anything else (such a file is never trusted)."""
    try:
        raw = Path(path).read_bytes()
    except OSError:
        return None
    if len(raw) < _FRAME.size:
        return None
    magic, length = _FRAME.unpack(raw[:_FRAME.size])
    body = raw[_FRAME.size + length:]
    if magic != PIECE_MAGIC or length > 4096 or len(body) != end - begin:
        return None
    sha256 = hashlib.sha256(body).hexdigest()
    if raw[:_FRAME.size + length] != _piece_header(family, level, distance, begin, end, sha256):
        return None
    return np.frombuffer(body, np.int8).copy()  # writable: the kernels take int8[::1]


def found_pieces(directory: Path, level: int, family: Family) -> dict[int, list]:
    """{distance: [(begin, end, path), ...]} of the piece files of a level, by their names."""
    prefix = f"{level_filename(level, family)}.piece-"
    found: dict[int, list] = {}
    for path in directory.glob(prefix + "*"):
        try:
            distance, begin, end = (int(x) for x in path.name[len(prefix):].split("-"))
        except ValueError:
            continue
        found.setdefault(distance, []).append((begin, end, path))
    return found


def remove_pieces(directory: Path, level: int, family: Family) -> None:
    for pieces in found_pieces(directory, level, family).values():
        for _, _, path in pieces:
            path.unlink(missing_ok=True)


def split(begin: int, end: int, size: int) -> list[tuple[int, int]]:
    """[begin, end) as consecutive ranges of at most ``size`` positions."""
    return [(lo, min(lo + size, end)) for lo in range(begin, end, size)]


# --- executors -----------------------------------------------------------------------------------

class LocalExecutor:
    """Pieces computed in this process on every thread (Numba ``prange``) and put in place in
    the level as they are computed; each piece of at least ``persist`` positions is also
    written to its file, so a rerun resumes from it."""

    places_values = True   # run() leaves each value at its place in the level

    def __init__(self, threads: int | None = None, piece: int = LOCAL_PIECE,
                 persist: int | None = None):
        self.threads, self.piece = threads, piece
        self.persist = PERSIST_MIN if persist is None else persist

    def __enter__(self):
        self.previous = builder.get_threads()
        builder.set_threads(self.threads)
        self.workers = builder.get_threads()
        return self

    def __exit__(self, *exc):
        builder.set_threads(self.previous)

    def piece_size(self, bucket_size: int) -> int:
        return self.piece

    def run(self, directory: Path, family: Family, part: builder.Bucket,
            ranges: list[tuple[int, int]], mapping: MappedLevels, budget: MemoryBudget
            ) -> Iterator[tuple[int, np.ndarray]]:
        step = budget.positions_between_checks()
        current = mapping.level(part.level, family.size(part.level))
        for begin, end in ranges:
            # Step by step, the budget checked in between: the children of even a few
            # thousand positions are spread over every page of the levels below.
            values = np.concatenate([
                _checked(budget, mapping, builder.compute(
                    part, lo, hi, family.capture_empty, mapping.data, mapping.offsets,
                    serial_limit=min(step // 2, 1 << 16), current=current))
                for lo, hi in split(begin, end, step)] or [np.empty(0, np.int8)])
            if len(values) >= self.persist:
                write_piece(directory, part.level, family, part.distance, begin, values)
            yield begin, values


def _checked(budget: MemoryBudget, mapping: MappedLevels, values: np.ndarray) -> np.ndarray:
    budget.check(mapping)
    return values


# --- the loop ------------------------------------------------------------------------------------

def build_levels(max_level: int, directory: Path, family: Family, executor,
                 budget: MemoryBudget, progress: Callable | None = None) -> BuildReport:
    """Every level 1..max_level of ``family`` in ``directory``: a finished level file is
    verified (header and sha256: a bad one raises TableError, never overwritten), a missing one
    is built from its pieces. The caller holds the directory's build lock."""
    paths = [directory / level_filename(level, family) for level in range(max_level + 1)]
    missing = [level for level in range(1, max_level + 1) if not paths[level].exists()]
    report = BuildReport(directory, family.capture_empty, max_level, family.pits,
                         workers=executor.workers, memory_mb=budget.megabytes)
    meter = Meter(progress, max_level, sum(family.size(level) for level in missing))
    check_disk_space(directory, family, missing)
    if missing:
        builder.half_tables(family.pits, max(missing))   # once, for every level
    for level in range(1, max_level + 1):
        size = family.size(level)
        if level not in missing:
            try:
                open_table(paths[level], level, family, verify=True)
            except TableError as error:     # never overwritten: the user decides
                raise TableError(f"{error}; the build keeps it: delete it and run the build "
                                 f"again to recompute the level") from None
            remove_pieces(directory, level, family)  # left by a run killed after the rename
            report.loaded.append(level)
            meter.report(level, "load", size, size)
            continue
        began = time.perf_counter()
        _build_level(directory, family, level, executor, meter, budget, report)
        report.compute_seconds += time.perf_counter() - began
        meter.finished += size
        report.built.append(level)
        meter.report(level, "write", size, size)
    if report.built:
        # The renames, made durable once for the whole build: a rename a power cut loses
        # leaves its level missing (its file was fsynced under the working name), and the
        # rerun builds it again, byte for byte the same.
        fsync_directory(directory)
    report.seconds = time.perf_counter() - meter.begin
    report.peak_resident_mb = budget.peak / 2**20
    report.base_resident_mb = (budget.base or 0) / 2**20
    report.page_drops = budget.drops
    return report


def disk_needed(directory: Path, family: Family, missing: list[int]) -> int:
    """Bytes of disk the levels ``missing`` will take beyond what the folder holds now: each
    level file, plus the piece files of the level being built, which stay beside it until it
    is renamed (at most the largest level again, and 1 % for their headers and last blocks;
    a level smaller than PERSIST_MIN writes none), and the folder's record of verified files,
    rewritten after each level through a temporary copy (twice its size, with a line for each
    level to come). What an earlier run left (a working file, re-created; its pieces, kept)
    counts as already there."""
    if not missing:
        return 0
    files = sum(_blocks(family.size(level) + len(header_bytes(level, family, "0" * 64)))
                for level in missing)
    stamps = directory / STAMPS
    record = stamps.stat().st_size if stamps.exists() else 0
    files += 2 * _blocks(record + STAMP_BYTES * len(missing))
    largest = max(family.size(level) for level in missing)
    pieces = _blocks(largest * 101 // 100) if largest >= PERSIST_MIN else 0
    left = sum(path.stat().st_size for level in missing
               for path in [work_path(directory, level, family)] if path.exists())
    left += sum(path.stat().st_size for level in missing
                for bucket in found_pieces(directory, level, family).values()
                for _, _, path in bucket)
    return max(0, files + pieces - left)


def _blocks(size: int, block: int = 4096) -> int:
    """``size`` bytes as a file system stores them: in whole blocks."""
    return -(-size // block) * block


def check_disk_space(directory: Path, family: Family, missing: list[int]) -> None:
    """Refuse, before any work, a build the disk cannot hold: a large one would otherwise
    fail hours in, at the level that fills the disk."""
    needed = disk_needed(directory, family, missing)
    free = shutil.disk_usage(directory).free
    if needed <= free:
        return
    fits = [top for top in missing
            if disk_needed(directory, family, [lv for lv in missing if lv <= top]) <= free]
    advice = f"--max-stones {fits[-1]} would fit" if fits else "no missing level fits"
    raise TableError(f"{_levels_named(missing)} need{'s' if len(missing) == 1 else ''} "
                     f"{_amount(needed)} of disk in {directory}, {_amount(free)} free ({advice})")


def _levels_named(levels: list[int]) -> str:
    """``level 13``, ``levels 9..40``, ``levels 5, 9..40``."""
    return ("level " if len(levels) == 1 else "levels ") + level_spans(levels, "..")


def level_spans(levels: list[int], dash: str = "-") -> str:
    """Sorted levels as runs: ``1-4, 6-8`` (``1..4, 6..8`` with ``dash`` "..")."""
    spans, start = [], levels[0]
    for previous, level in zip(levels, levels[1:] + [None]):
        if level != previous + 1:
            spans.append(f"{start}" if start == previous else f"{start}{dash}{previous}")
            start = level
    return ", ".join(spans)


def _amount(size: int) -> str:
    return f"{size / 2**30:,.1f} GiB" if size >= 2**30 else f"{size / 2**20:,.1f} MiB"


def _build_level(directory, family, level, executor, meter, budget, report) -> None:
    size = family.size(level)
    final = directory / level_filename(level, family)
    work = work_path(directory, level, family)
    # Step 1. A fresh working file with its disk space reserved: a full disk fails here, with
    # a message, instead of later inside a page fault of the mapping.
    header = header_bytes(level, family, "0" * 64)
    with open(work, "wb") as out:
        out.write(header)
        out.flush()
        os.posix_fallocate(out.fileno(), 0, len(header) + size)
    # Step 2. Lower levels and the working file side by side in one mapping.
    files = [(paths, read_header(paths)[1], False)
             for paths in (directory / level_filename(lv, family) for lv in range(1, level))]
    mapping = MappedLevels(family.pits, files + [(work, len(header), True)])
    current = mapping.level(level, size)
    pieces = found_pieces(directory, level, family)
    done = 0
    # Step 3. Bucket after bucket: earlier pieces scattered, the gaps computed.
    for distance in builder.distances(family.pits, level):
        part = builder.bucket(family.pits, level, distance)
        gaps, resumed = _resume_bucket(part, family, pieces.pop(distance, []), current)
        report.resumed += resumed
        done += resumed
        ranges = [r for lo, hi in gaps for r in split(lo, hi, executor.piece_size(part.size))]
        for begin, values in executor.run(directory, family, part, ranges, mapping, budget):
            if not executor.places_values:
                builder.scatter(part, begin, values, current)
            done += len(values)
            report.positions += len(values)
            report.pieces += 1
            meter.report(level, "build", done, size)
            budget.check(mapping)
        budget.check(mapping)
    for stray in pieces.values():  # pieces of buckets the level does not have
        for _, _, path in stray:
            path.unlink(missing_ok=True)
    if done != size:
        raise RuntimeError(f"level {level}: {done} positions computed, {size} expected")
    # Step 4. The real header, fsync, rename: the level file is complete or absent.
    digest = _digest(current, mapping, budget)
    del current, mapping
    descriptor = os.open(work, os.O_RDWR)
    try:
        os.pwrite(descriptor, header_bytes(level, family, digest), 0)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    os.replace(work, final)
    record_verified(final, digest)    # a search need not hash what was just written
    remove_pieces(directory, level, family)


def _resume_bucket(part, family, pieces, current) -> tuple[list[tuple[int, int]], int]:
    """Scatter the valid pieces a previous run left for this bucket (a bad or overlapping
    one is deleted); return the ranges still to compute and how many positions were taken."""
    gaps, position, taken = [], 0, 0
    for begin, end, path in sorted(pieces):
        values = None
        if position <= begin < end <= part.size:
            values = read_piece(path, part.level, family, part.distance, begin, end)
        if values is None:
            path.unlink(missing_ok=True)
            continue
        builder.scatter(part, begin, values, current)
        if begin > position:
            gaps.append((position, begin))
        position, taken = end, taken + len(values)
    if position < part.size:
        gaps.append((position, part.size))
    return gaps, taken


def _digest(current: np.ndarray, mapping: MappedLevels, budget: MemoryBudget) -> str:
    digest = hashlib.sha256()
    view = memoryview(current).cast("B")
    for begin in range(0, len(view), _HASH_CHUNK):
        digest.update(view[begin:begin + _HASH_CHUNK])
        budget.check(mapping)
    return digest.hexdigest()


def check_writable(directory: Path) -> None:
    """A one-line refusal for a folder this process cannot write in."""
    if not os.access(directory, os.W_OK | os.X_OK):
        raise TableError(f"cannot write in table directory {directory}: permission denied "
                         f"(read-only?)")

"""The Python API behind ``solver tables build|info|verify|probe`` (Kalah(6, n) endgame tables).

A table directory holds one file per level and capture rule (``tables.format``)::

    mancala6-capture-empty-level-01.tbl ... mancala6-capture-empty-level-24.tbl
    mancala6-capture-nonempty-level-01.tbl ...

Level 0 (all pits empty, worth 0) has no file. The default directory is a per-user data folder:
``$XDG_DATA_HOME/solver/tables``, or ``~/.local/share/solver/tables`` without XDG_DATA_HOME.
"""
from __future__ import annotations

import fcntl
import os
import random
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import numpy as np

from solver.errors import InputError
from tables import build as builder
from tables.format import (SUFFIX, is_temporary, level_filename, open_table, read_header,
                           check_header, read_table_into, rule_name, write_table)
from tables.index import LEVEL_SIZE, MAX_LEVEL, PITS, counts_at, index_of, level_offsets

# --- where tables live ---------------------------------------------------------------------------


def default_directory() -> Path:
    """``$XDG_DATA_HOME/solver/tables``, else ``~/.local/share/solver/tables``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(base) / "solver" / "tables"


def _directory(directory) -> Path:
    path = Path(directory).expanduser() if directory is not None else default_directory()
    if path.exists() and not path.is_dir():
        raise InputError(f"table directory {path} is not a directory")
    return path


def level_path(directory, level: int, capture_empty: bool) -> Path:
    return _directory(directory) / level_filename(level, capture_empty)


def _rule_prefix(capture_empty: bool) -> str:
    """``mancala6-capture-empty``: what every file name of one rule set starts with."""
    return level_filename(0, capture_empty).split("-level-")[0]


@contextmanager
def _build_lock(directory: Path, capture_empty: bool):
    """One build per directory and rule set at a time. The kernel drops the lock when its
    holder dies, even by kill -9, so a crashed build never blocks the next one."""
    lock_path = directory / f".{_rule_prefix(capture_empty)}.lock"
    with open(lock_path, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError(f"another build is writing the {rule_name(capture_empty)} tables "
                             f"in {directory}") from None
        yield


def _remove_leftovers(directory: Path, capture_empty: bool) -> None:
    """Temporary files of an interrupted build of this rule set (never a finished level)."""
    prefix = _rule_prefix(capture_empty)
    for path in directory.glob(f"{prefix}-level-*"):
        if is_temporary(path.name) or ".group-" in path.name:
            path.unlink(missing_ok=True)


# --- build ---------------------------------------------------------------------------------------

@dataclass
class BuildProgress:
    """What a progress bar shows; passed to ``build(progress=...)`` after every step.

    ``stage``: "load" (a finished level file verified and read), "build" (positions computed),
    "write" (the level file written). ``done``/``total``: positions of ``level``;
    ``positions_done``/``positions_total``: positions this run computes, all levels;
    ``rate``: positions per second computed so far; ``seconds_left``: estimate (None at first)."""

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
    built: list[int] = field(default_factory=list)      # levels computed by this run
    loaded: list[int] = field(default_factory=list)     # levels found finished and verified
    positions: int = 0                                   # positions computed by this run
    seconds: float = 0.0
    compute_seconds: float = 0.0                         # without loading and writing files
    workers: int = 0

    @property
    def rate(self) -> float:
        """Positions per second of computation (all threads)."""
        return self.positions / self.compute_seconds if self.compute_seconds > 0 else 0.0


class _Meter:
    """Turns per-level counts into BuildProgress reports."""

    def __init__(self, callback, max_level, positions_total):
        self.callback, self.max_level = callback, max_level
        self.positions_total, self.finished = positions_total, 0
        self.begin = time.perf_counter()
        self.compute_seconds = 0.0

    def report(self, level, stage, done, total):
        if self.callback is None:
            return
        seconds = time.perf_counter() - self.begin
        positions = self.finished + (done if stage == "build" else 0)
        rate = positions / seconds if seconds > 0 else 0.0
        left = (self.positions_total - positions) / rate if rate > 0 else None
        self.callback(BuildProgress(level, self.max_level, stage, done, total, positions,
                                    self.positions_total, seconds, rate, left))


def _check_max_stones(max_stones) -> int:
    if isinstance(max_stones, bool) or not isinstance(max_stones, (int, np.integer)) \
            or not 1 <= max_stones <= MAX_LEVEL:
        raise InputError(f"--max-stones must be a whole number 1..{MAX_LEVEL}, got {max_stones!r}")
    return int(max_stones)


def _check_workers(workers) -> int | None:
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise InputError(f"--workers must be a whole number >= 1, got {workers!r}")
    return int(workers)


def _check_memory(needed: int) -> None:
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return
    if needed > physical:
        raise InputError(f"the build needs {needed / 2**30:.1f} GiB of memory for its levels; "
                         f"this machine has {physical / 2**30:.1f} GiB")


def build(max_stones: int, directory=None, capture_empty: bool = True, workers: int | None = None,
          scheduler: str | None = None,
          progress: Callable[[BuildProgress], None] | None = None) -> BuildReport:
    """Build every level 1..max_stones into ``directory`` (default: ``default_directory()``).

    Resumable: a level whose file exists is verified (header and sha256) and skipped; a level
    is written only once complete (temporary name, fsync, rename), so after an interruption at
    any moment a rerun resumes from the last finished level and writes identical files. A file
    that fails verification is refused (InputError), never overwritten.

    ``workers``: Numba threads of a local build (default: every core). ``scheduler``: the
    address of a Dask scheduler (``tcp://HOST:PORT``): each level's independent groups run as
    tasks on its workers, which must see ``directory`` (``tables.distributed``); ``workers`` is
    then the threads each task uses."""
    max_level = _check_max_stones(max_stones)
    workers = _check_workers(workers)
    directory = _directory(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot create table directory {directory}: {error.strerror}") from None
    with _build_lock(directory, capture_empty):
        _remove_leftovers(directory, capture_empty)
        if scheduler is not None:
            from tables import distributed
            return distributed.build(max_level, directory, capture_empty, workers, scheduler,
                                     progress)
        return _build_locally(max_level, directory, capture_empty, workers, progress)


def _build_locally(max_level, directory, capture_empty, workers, progress) -> BuildReport:
    """Every level up to the highest missing one in one int8 array (what the next level reads),
    each written once done; finished levels above it are only verified."""
    paths = [directory / level_filename(level, capture_empty) for level in range(max_level + 1)]
    missing = [level for level in range(1, max_level + 1) if not paths[level].exists()]
    in_memory = max(missing, default=0)
    offsets = level_offsets(in_memory)
    _check_memory(int(offsets[-1]))
    report = BuildReport(directory, capture_empty, max_level)
    meter = _Meter(progress, max_level, int(sum(LEVEL_SIZE[level] for level in missing)))
    tables = np.zeros(offsets[-1], np.int8)  # untouched pages cost nothing until written
    previous_threads = builder.get_threads()
    builder.set_threads(workers)
    report.workers = builder.get_threads()
    try:
        for level in range(1, max_level + 1):
            size = int(LEVEL_SIZE[level])
            if level > in_memory:
                open_table(paths[level], level, capture_empty, verify=True)
            elif level not in missing:
                read_table_into(paths[level], level, capture_empty,
                                tables[offsets[level]:offsets[level + 1]])
            else:
                report.compute_seconds += _build_one_level(level, capture_empty, tables, offsets,
                                                           meter)
                write_table(paths[level], level, capture_empty,
                            tables[offsets[level]:offsets[level + 1]])
                report.built.append(level)
                report.positions += size
                meter.report(level, "write", size, size)
                continue
            report.loaded.append(level)
            meter.report(level, "load", size, size)
    finally:
        builder.set_threads(previous_threads)
    report.seconds = time.perf_counter() - meter.begin
    return report


def _build_one_level(level, capture_empty, tables, offsets, meter) -> float:
    """Compute ``level`` into its slice of ``tables``; returns the seconds it took."""
    began = time.perf_counter()
    builder.build_level(level, capture_empty, tables, offsets,
                        tables[offsets[level]:offsets[level + 1]], builder.full_block_base(level),
                        progress=lambda done, total: meter.report(level, "build", done, total))
    meter.finished += int(LEVEL_SIZE[level])
    return time.perf_counter() - began


# --- info and verify -----------------------------------------------------------------------------

@dataclass
class TableFile:
    """One file of a table directory, as ``info`` sees it (header only, no digest check)."""

    path: Path
    level: int | None
    capture_empty: bool | None
    entries: int | None
    bytes: int
    sha256: str | None
    problem: str | None  # why the file cannot be used, or None


def _table_paths(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob(f"mancala{PITS}-*{SUFFIX}") if p.is_file())


def _describe(path: Path) -> TableFile:
    try:
        header, _ = read_header(path)
        check_header(header, path.name)
        if path.name != level_filename(header["level"], header["capture_empty"]):
            raise InputError(f"table file {path.name}: holds level {header['level']} "
                             f"({rule_name(header['capture_empty'])}), but is named otherwise")
        return TableFile(path, header["level"], header["capture_empty"], header["entries"],
                         path.stat().st_size, header["sha256"], None)
    except InputError as error:
        return TableFile(path, None, None, None, path.stat().st_size, None, str(error))


@dataclass
class DirectoryInfo:
    directory: Path
    files: list[TableFile]
    leftovers: list[Path]   # temporary files of an interrupted build (removed by the next one)

    def levels(self, capture_empty: bool) -> list[int]:
        """Usable levels of one rule set, ascending."""
        return sorted(f.level for f in self.files
                      if f.problem is None and f.capture_empty == capture_empty)


def info(directory=None) -> DirectoryInfo:
    """What a table directory holds: every table file's header (without reading the bodies)."""
    directory = _directory(directory)
    if not directory.exists():
        return DirectoryInfo(directory, [], [])
    leftovers = sorted(p for p in directory.glob(f"mancala{PITS}-*")
                       if is_temporary(p.name) or ".group-" in p.name)
    return DirectoryInfo(directory, [_describe(p) for p in _table_paths(directory)], leftovers)


@dataclass
class Sample:
    """One position recomputed by search: ``table`` and ``search`` are both V (future gain)."""

    position: str
    capture_empty: bool
    level: int
    index: int
    table: int
    search: int


@dataclass
class VerifyReport:
    directory: Path
    files: list[TableFile]
    samples: list[Sample]

    @property
    def mismatches(self) -> list[Sample]:
        return [s for s in self.samples if s.table != s.search]

    @property
    def ok(self) -> bool:
        return not self.mismatches


def verify(directory=None, sample: int = 0, seed: int | None = None) -> VerifyReport:
    """Check every table file (header and sha256: a bad file raises InputError), then recompute
    ``sample`` random positions of the verified levels by exact alpha-beta search and compare.
    A mismatch is reported in ``VerifyReport.mismatches`` (``ok`` is False)."""
    if isinstance(sample, bool) or not isinstance(sample, (int, np.integer)) or sample < 0:
        raise InputError(f"--sample must be a whole number >= 0, got {sample!r}")
    found = info(directory)
    if not found.files:
        raise InputError(f"no table files in {found.directory}")
    bodies = {}
    for table in found.files:
        if table.problem is not None:
            raise InputError(table.problem)
        _, body = open_table(table.path, table.level, table.capture_empty, verify=True)
        bodies[table.level, table.capture_empty] = body
    rng = random.Random(seed)
    keys = sorted(bodies)
    search = _SearchGain() if sample else None
    samples = [_sample(rng, bodies, search, *rng.choice(keys)) for _ in range(int(sample))]
    return VerifyReport(found.directory, found.files, samples)


def _sample(rng, bodies, search, level, capture_empty) -> Sample:
    index = rng.randrange(int(LEVEL_SIZE[level]))
    counts = counts_at(level, index)
    return Sample(_position_text(counts), capture_empty, level, index,
                  int(bodies[level, capture_empty][index]), search(counts, capture_empty))


def _position_text(counts) -> str:
    """Rulebook notation with A to move: A's bins are the mover's pits, B's the other's."""
    return f"{','.join(map(str, counts[:PITS]))}/{','.join(map(str, counts[PITS:]))} 0-0 A"


class _SearchGain:
    """V by exact alpha-beta: the final store difference of the position with empty stores.
    (Imported here, not at the top: building tables does not need the search kernel.)"""

    def __init__(self):
        from solver.games.mancala import api as mancala
        from solver.search.alphabeta import AlphaBeta
        self.mancala = mancala
        self.engine = AlphaBeta(mancala.kernel_game(), 64)

    def __call__(self, counts, capture_empty) -> int:
        from kernels import mancala as game
        pos = self.mancala.from_text(_position_text(counts))
        state = self.mancala.to_packed(replace(pos, capture_empty=capture_empty))
        if game.is_terminal(state):
            return int(game.score(state))
        return int(self.engine.solve(state).value)


# --- probe ---------------------------------------------------------------------------------------

@dataclass
class ProbeResult:
    """A position looked up in the tables.

    ``gain``: V, the side to move's future store gain minus the opponent's; ``value``: the final
    store difference, side to move minus opponent (current stores + V), the same number as an
    exact ``best mancala`` value. ``moves``: {bin: value after that move, side to move's view}
    when the tables hold every child's level."""

    position: str
    capture_empty: bool
    level: int
    gain: int
    value: int
    best: list[int]
    moves: dict[int, int] | None


def probe(position_text: str, directory=None, capture_empty: bool = True) -> ProbeResult:
    """Look a Kalah(6, n) position up in the tables of ``directory`` (the level file of its
    stones in pits must be there; each file used is verified first)."""
    from kernels import mancala as game
    from solver.games.mancala import api as mancala
    from solver.games import mancala as reference
    pos = reference.from_text(position_text)
    if pos.m != PITS:
        raise InputError(f"the tables are for 6 pits a side; the position has {pos.m}")
    directory = _directory(directory)
    state = mancala.to_packed(replace(pos, capture_empty=capture_empty))
    cache = {}

    def gain_of(state) -> int | None:
        counts = [(int(state[w]) >> (8 * i)) & 0xFF for w in (0, 1) for i in range(PITS)]
        level, index = index_of(counts)
        if level == 0:
            return 0
        if level not in cache:
            path = directory / level_filename(level, capture_empty)
            cache[level] = open_table(path, level, capture_empty)[1] if path.exists() else None
        body = cache[level]
        return None if body is None else int(body[index])

    level = int(game.stones_in_pits(state))
    gain = int(game.score(state) - game.store_difference(state)) if game.is_terminal(state) \
        else gain_of(state)
    if gain is None:
        raise InputError(f"no table for level {level} ({rule_name(capture_empty)}) in "
                         f"{directory}: build it with --max-stones {level}")
    banked = int(game.store_difference(state))
    moves = _move_values(state, pos, gain_of, banked)
    best = [] if not moves else [m for m, v in moves.items() if v == max(moves.values())]
    return ProbeResult(reference.to_text(pos), capture_empty, level, gain, banked + gain,
                       best, moves)


def _move_values(state, pos, gain_of, banked) -> dict[int, int] | None:
    """Each legal move's exact value from the children's table entries (None if a child's
    level has no table)."""
    from kernels import mancala as game
    from solver.games.mancala.api import move_of
    lanes = np.empty(PITS, np.int64)
    values = {}
    for lane in lanes[:game.legal_moves(state, lanes)]:
        child, info = game.play(state, int(lane))
        gain = (info >> game.GAIN_SHIFT) - game.GAIN_BIAS
        if not info & game.GAME_OVER:
            later = gain_of(child)
            if later is None:
                return None
            gain += later if info & game.EXTRA_TURN else -later
        values[move_of(int(lane), pos.to_move, PITS)] = banked + gain
    return values


# --- for alpha-beta ------------------------------------------------------------------------------

@dataclass
class SearchTables:
    """Levels 0..max_level end to end, for ``tables.probe.probe(state, data, offsets)``."""

    data: np.ndarray        # int8[offsets[-1]]
    offsets: np.ndarray     # int64[max_level + 2]
    max_level: int
    capture_empty: bool


def load_for_search(directory=None, capture_empty: bool = True,
                    max_level: int | None = None) -> SearchTables:
    """Every consecutive level 1..L present for ``capture_empty`` (up to ``max_level``), each
    verified, copied into one array. L = 0 (no table file) gives tables that only know the
    empty board; a probe beyond L returns ``tables.probe.NO_ENTRY``."""
    directory = _directory(directory)
    top = 0
    limit = MAX_LEVEL if max_level is None else min(int(max_level), MAX_LEVEL)
    while top < limit and (directory / level_filename(top + 1, capture_empty)).exists():
        top += 1
    offsets = level_offsets(top)
    _check_memory(int(offsets[-1]))
    data = np.zeros(offsets[-1], np.int8)
    for level in range(1, top + 1):
        read_table_into(directory / level_filename(level, capture_empty), level, capture_empty,
                        data[offsets[level]:offsets[level + 1]])
    return SearchTables(data, offsets, top, capture_empty)

"""The Python API behind ``solver tables build|info|verify|probe`` (Kalah(m, n) endgame tables).

A table directory holds one file per board, capture rule and level (``tables.format``)::

    mancala6-capture-empty-level-01.tbl ... mancala6-capture-empty-level-24.tbl
    mancala6-capture-nonempty-level-01.tbl ...  mancala4-capture-empty-level-01.tbl ...

Level 0 (all pits empty, worth 0) has no file. The default directory is a per-user data folder:
``$XDG_DATA_HOME/solver/tables``, or ``~/.local/share/solver/tables`` without XDG_DATA_HOME.

Every function takes the ``Family`` (pits, capture rule, rules version) it works on; the rules'
version comes from the caller (``solver.tables`` passes the Mancala game record's).
"""
from __future__ import annotations

import errno
import fcntl
import numbers
import os
import random
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tables import index
from tables.errors import TableError, shown
from tables.format import (SUFFIX, Family, family_of, check_header, is_temporary, level_filename,
                           open_for_search, open_table, read_header, read_stamps, rule_name,
                           save_stamps)
from tables.index import MAX_LEVEL, SAMPLE_MAX, counts_at, index_of, level_offsets, pits_word
from tables.lazy import lazy_module
from tables.levels import (BuildProgress, BuildReport, LocalExecutor, build_levels,
                           check_writable)
from tables.mapping import (MappedLevels, MemoryBudget, available_bytes, read_ahead,
                            read_ahead_in_background)

np = lazy_module("numpy")    # on first use: listing tables and refusing input stay light

game = lazy_module("kernels.mancala")
builder = lazy_module("tables.build")

__all__ = ["Family", "BuildProgress", "BuildReport", "TableError", "build", "info", "verify",
           "probe", "load_for_search", "build_for_search", "default_directory"]

DEFAULT_FAMILY = Family()  # Kalah(6, n), captures from empty pits, rules_version 1 (frozen)

# --- where tables live ---------------------------------------------------------------------------


def default_directory() -> Path:
    """``$XDG_DATA_HOME/solver/tables``, else ``~/.local/share/solver/tables``. A relative
    XDG_DATA_HOME is ignored, as the XDG specification says (it would move with the current
    folder)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "solver" / "tables"


def _directory(directory) -> Path:
    # absolute, so that Dask workers started elsewhere find the same folder
    if directory is not None and not isinstance(directory, (str, os.PathLike)):
        raise TableError(f"a table folder is a path, got {type(directory).__name__}")
    try:
        path = (Path(directory).expanduser() if directory is not None else
                default_directory()).absolute()
        usable = not path.exists() or path.is_dir()
    except (OSError, ValueError) as error:     # a name too long, a NUL byte
        raise TableError(f"cannot use table folder {str(directory)[:80]!r}: "
                         f"{getattr(error, 'strerror', None) or error}") from None
    if not usable:
        raise TableError(f"table directory {path} is not a directory")
    return path


def level_path(directory, level: int, family: Family) -> Path:
    return _directory(directory) / level_filename(level, family)


@contextmanager
def _build_lock(directory: Path, family: Family):
    """One build per directory and family at a time. The kernel drops the lock when its
    holder dies, even by kill -9, so a lock file left by a killed build never blocks the next
    one (it is taken over: the file is only a place to hold the lock on)."""
    lock_path = directory / f".{family.prefix}.lock"
    if lock_path.exists() and not lock_path.is_file():    # a FIFO would block the open
        raise TableError(f"cannot lock table directory {directory}: {lock_path.name} is not a "
                         "regular file; remove it")
    try:
        lock = open(lock_path, "a")
    except OSError as error:
        raise TableError(f"cannot write in table directory {directory}: {error.strerror}"
                         ) from None
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise TableError(f"another build is writing the {family.pits}-pit "
                             f"{rule_name(family.capture_empty)} tables in {directory}: wait "
                             f"for it to finish") from None
        yield


def _is_leftover(name: str) -> bool:
    return is_temporary(name) or name.endswith(".work") or ".piece-" in name


def _remove_temporaries(directory: Path, family: Family) -> None:
    """Temporary files of an interrupted build of this family (never a finished level nor a
    finished piece: pieces are what a rerun resumes from)."""
    for path in directory.glob(f"{family.prefix}-level-*"):
        if is_temporary(path.name) or path.name.endswith(".work"):
            path.unlink(missing_ok=True)


# --- build ---------------------------------------------------------------------------------------

def _whole(value, name: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low \
            or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise TableError(f"{name} must be a whole number {span}, got {shown(value)}")
    return int(value)


def _pits(pits) -> int:
    """A board's pits a side, checked as a Family checks it."""
    return Family(pits).pits


def build(max_stones: int, directory=None, family: Family = DEFAULT_FAMILY, workers: int | None = None,
          scheduler: str | None = None, progress=None, memory_mb: int | None = None
          ) -> BuildReport:
    """Build every level 1..max_stones of ``family`` into ``directory`` (default:
    ``default_directory()``).

    Resumable inside a level: finished levels are verified (header and sha256) and kept, and a
    level that was being built resumes from its last finished piece (``tables.levels``); the
    files are byte-identical to an uninterrupted build's. A file that fails verification is
    refused (TableError), never overwritten. A full disk, a read-only folder or a folder whose
    lock another build holds give a TableError; no partial file is ever trusted.

    ``workers``: Numba threads of a local build (default: every core), or the threads of each
    task with ``scheduler``, the address of a Dask scheduler (``tcp://HOST:PORT``): each
    bucket's pieces run as tasks on its workers, which must see ``directory``.
    ``memory_mb``: the resident-memory budget of this process for the mapped tables (default:
    a quarter of the machine's memory, ``tables.mapping.default_budget_mb``)."""
    max_level = _whole(max_stones, "--max-stones", 1, MAX_LEVEL)
    workers = None if workers is None else _whole(workers, "--workers", 1)
    budget = MemoryBudget(None if memory_mb is None else _whole(memory_mb, "--memory-mb", 1))
    directory = _directory(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise TableError(f"cannot create table directory {directory}: {error.strerror}") from None
    if not os.access(directory, os.W_OK) and all(
            (directory / level_filename(level, family)).exists()
            for level in range(1, max_level + 1)):
        # A read-only folder (a shared copy, a mounted image) that holds every level: each is
        # verified, as in any build; nothing is to be written, so no lock is taken.
        try:
            with LocalExecutor(workers) as executor:
                return build_levels(max_level, directory, family, executor, budget, progress)
        except OSError as error:
            raise TableError(f"cannot check the tables in {directory}: "
                             f"{error.strerror or error}") from None
    with _build_lock(directory, family):
        check_writable(directory)
        try:
            _remove_temporaries(directory, family)
            if scheduler is not None:
                from tables.distributed import DaskExecutor
                executor = DaskExecutor(scheduler, workers)
            else:
                executor = LocalExecutor(workers)
            with executor:
                return build_levels(max_level, directory, family, executor, budget, progress)
        except OSError as error:
            for path in directory.glob(f"{family.prefix}-level-*.work"):
                path.unlink(missing_ok=True)  # a working file is never trusted: free its space
            what = "the disk is full" if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) \
                else error.strerror or str(error)
            raise TableError(f"cannot write the tables in {directory}: {what}; the finished "
                             f"levels and pieces are kept, rerun to resume") from None


# --- info ----------------------------------------------------------------------------------------

@dataclass
class TableFile:
    """One file of a table directory, as ``info`` sees it (header only, no digest check)."""

    path: Path
    pits: int | None
    level: int | None
    capture_empty: bool | None
    entries: int | None
    bytes: int
    sha256: str | None
    problem: str | None  # why the file cannot be used, or None


def _table_paths(directory: Path) -> list[Path]:
    """Every name a level file would have: a folder, pipe or device so named is described
    (and refused) like a damaged file, not skipped."""
    return sorted(directory.glob(f"mancala*{SUFFIX}"))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:         # a dangling link
        return 0


def _describe(path: Path, rules_version: int) -> TableFile:
    try:
        header, _ = read_header(path)
        claimed = family_of(header)
        family = Family(claimed.pits, claimed.capture_empty, rules_version)
        check_header(header, str(path), None, family)
        if path.name != level_filename(header["level"], family):
            raise TableError(f"table file {path}: holds level {header['level']} of "
                             f"{family.prefix}, but is named otherwise")
        return TableFile(path, header["pits"], header["level"], header["capture_empty"],
                         header["entries"], path.stat().st_size, header["sha256"], None)
    except TableError as error:
        return TableFile(path, None, None, None, None, _size(path), None, str(error))


@dataclass
class DirectoryInfo:
    directory: Path
    files: list[TableFile]
    leftovers: list[Path]   # temporary files and pieces of an interrupted build

    def levels(self, capture_empty: bool, pits: int = 6) -> list[int]:
        """Usable levels of one board and rule set, ascending."""
        return sorted(f.level for f in self.files if f.problem is None
                      and f.capture_empty == capture_empty and f.pits == pits)

    def boards(self) -> list[int]:
        return sorted({f.pits for f in self.files if f.problem is None})


def info(directory=None, rules_version: int = 1, pits: int | None = None) -> DirectoryInfo:
    """What a table directory holds: every table file's header (without reading the bodies),
    of every board or of ``pits`` only."""
    named = directory is not None
    directory = _directory(directory)
    if pits is not None:
        pits = _pits(pits)
    if not directory.exists():
        if named:   # a typo, not an empty folder; the per-user folder is made by a first build
            raise TableError(f"no table folder {directory}")
        return DirectoryInfo(directory, [], [])
    glob = "mancala*" if pits is None else f"mancala{pits}-*"
    leftovers = sorted(p for p in directory.glob(glob) if _is_leftover(p.name))
    files = [_describe(p, rules_version) for p in _table_paths(directory)
             if pits is None or p.name.startswith(f"mancala{pits}-")]
    return DirectoryInfo(directory, files, leftovers)


# --- verify --------------------------------------------------------------------------------------

@dataclass
class Sample:
    """One position recomputed: ``table`` the entry, ``search`` the value recomputed from its
    children's entries (the retrograde step), ``exact`` the value of an independent exact
    search of the kernel rules (None where the search was too big to run)."""

    counts: tuple[int, ...]
    pits: int
    capture_empty: bool
    level: int
    index: int
    table: int
    search: int
    exact: int | None

    @property
    def agrees(self) -> bool:
        return self.table == self.search and self.exact in (None, self.table)


@dataclass
class Gap:
    """A board and rule whose levels are not 1..L without a hole: a search uses the levels
    below the first missing one only (:func:`load_for_search`)."""

    pits: int
    capture_empty: bool
    levels: list[int]
    search_uses_up_to: int


@dataclass
class VerifyReport:
    directory: Path
    files: list[TableFile]
    samples: list[Sample]

    @property
    def mismatches(self) -> list[Sample]:
        return [s for s in self.samples if not s.agrees]

    @property
    def gaps(self) -> list[Gap]:
        found = []
        for pits, rule in sorted({(f.pits, f.capture_empty) for f in self.files}):
            levels = sorted(f.level for f in self.files if (f.pits, f.capture_empty) == (pits, rule))
            usable = _consecutive_top(levels)
            if usable < levels[-1]:
                found.append(Gap(pits, rule, levels, usable))
        return found

    @property
    def ok(self) -> bool:
        """Every entry sampled agrees, and no level is missing below others."""
        return not self.mismatches and not self.gaps


EXACT_CHECK_NODES = 200_000  # node budget of the independent search of one sample


def verify(directory=None, sample: int = 0, seed: int | None = None, rules_version: int = 1,
           pits: int | None = None) -> VerifyReport:
    """Check every table file (header and sha256: a bad file raises TableError), then recompute
    ``sample`` random positions of the verified levels and compare: each from its children's
    entries with the build's own step, and, within a node budget, by an independent exact
    search (``kernels.alphabeta``, no tables). A mismatch is in ``VerifyReport.mismatches``, a
    level missing below others in ``VerifyReport.gaps``. Samples come from the levels a search
    uses (1 up to the first gap): none where level 1 is missing."""
    sample = _whole(sample, "--sample", 0, SAMPLE_MAX)
    if seed is not None:
        seed = _whole(seed, "--seed", 0)
    found = info(directory, rules_version, pits)
    if not found.files:
        raise TableError(f"no table files in {found.directory}")
    for table in found.files:
        if table.problem is not None:
            raise TableError(table.problem)
        open_table(table.path, table.level, Family(table.pits, table.capture_empty,
                                                   rules_version), verify=True)
    rng = random.Random(seed)
    # a board and rule without level 1 has no level whose children are all there to sample
    keys = sorted({(f.pits, f.capture_empty, f.level) for f in found.files
                   if _consecutive_top(found.levels(f.capture_empty, f.pits)) > 0})
    if not keys:    # every board and rule lacks level 1: reported as gaps, nothing to sample
        sample = 0
    samples = []
    mapped: dict = {}
    exact = _ExactSearch() if sample else None
    for _ in range(sample):
        board, capture_empty, level = rng.choice(keys)
        family = Family(board, capture_empty, rules_version)
        levels = found.levels(capture_empty, board)
        if (board, capture_empty) not in mapped:
            top = _consecutive_top(levels)
            mapped[board, capture_empty] = _map(found.directory, family, top)
        tables = mapped[board, capture_empty]
        if level > tables.top:  # a level above a gap: its children are not all there
            level = rng.choice(levels[:tables.top])
        samples.append(_sample(rng, tables, family, level, exact))
    return VerifyReport(found.directory, found.files, samples)


def _consecutive_top(levels: list[int]) -> int:
    top = 0
    while top + 1 in levels:
        top += 1
    return top


def _sample(rng, tables: MappedLevels, family: Family, level: int, exact) -> Sample:
    index = rng.randrange(family.size(level))
    counts = counts_at(level, index, family.pits)
    state = _state(counts, family)
    table = int(tables.level(level, family.size(level))[index])
    moves = np.empty(6, np.int64)
    search = int(builder.position_value(state, tables.data, tables.offsets, moves))
    return Sample(counts, family.pits, family.capture_empty, level, index, table, search,
                  exact(state))


def _state(counts, family: Family):
    """The packed state of 2m pit counts, the mover's first, both stores 0."""
    config = builder.config_word(family.capture_empty, family.pits)
    m = family.pits
    return (pits_word(counts[:m]) | config, pits_word(counts[m:]) | config)


class _ExactSearch:
    """The exact future gain of a position with empty stores by ``kernels.alphabeta`` (MTD(f),
    transposition table, no endgame tables), or None past EXACT_CHECK_NODES nodes."""

    def __init__(self):
        from kernels import alphabeta as ab
        self.ab = ab
        self.tt = ab.new_table(16)
        self.work = ab.new_workspace()
        self.stats = ab.stats_of(self.work)
        self.stats[ab.PROBE_MAX] = -1
        self.no_tables = np.zeros(0, np.int8)

    def __call__(self, state) -> int | None:
        ab = self.ab
        if game.is_terminal(state):
            return int(game.score(state))
        self.tt[:] = 0
        self.stats[ab.ABORTED] = 0
        self.stats[ab.NODES] = 0
        self.stats[ab.NODE_LIMIT] = EXACT_CHECK_NODES
        mask0, mask1 = game.key_mask(state)
        value, move, _, _ = ab.prove(state, 0, game.expand, game.bounds, game.store_difference,
                                     game.score, ab.no_probe, mask0, mask1, self.tt, self.work,
                                     self.no_tables)
        return None if move == ab.ABORTED_MOVE else int(value)


# --- probe ---------------------------------------------------------------------------------------

@dataclass
class ProbeAnswer:
    """A position looked up: ``gain`` = V (future store gain, side to move minus opponent);
    ``moves``: {pit lane: the mover's future gain after that move} when the tables hold every
    child's level, else None."""

    level: int
    gain: int
    moves: dict[int, int] | None


def probe(counts, directory=None, family: Family = DEFAULT_FAMILY) -> ProbeAnswer:
    """Look up the position of 2m pit counts (the mover's m in sowing order, then the other's)
    in the tables of ``directory``; each level file used is checked first (header and size;
    ``verify`` checks the bodies)."""
    if len(counts) != 2 * family.pits:
        raise TableError(f"the tables are for {family.pits} pits a side; the position has "
                         f"{len(counts) // 2}")
    directory = _directory(directory)
    level = sum(counts)
    if level > MAX_LEVEL:
        raise TableError(f"{level} stones in the pits; tables hold at most {MAX_LEVEL}")
    m = family.pits
    game_over = not any(counts[:m]) or not any(counts[m:])
    if not game_over and not (directory / level_filename(level, family)).exists():
        raise TableError(_no_table(level, family, directory))   # before the kernels load
    state = _state(counts, family)
    bodies: dict[int, np.ndarray | None] = {}

    def gain_of(state) -> int | None:
        m = family.pits
        mover, other = int(state[0] & index.PIT_LANES[m]), int(state[1] & index.PIT_LANES[m])
        child = tuple((w >> (8 * i)) & 0xFF for w in (mover, other) for i in range(m))
        lv, i = index_of(child)
        if lv == 0:
            return 0
        if lv not in bodies:
            path = directory / level_filename(lv, family)
            if path.exists():
                stamps = read_stamps(directory)
                before = dict(stamps)
                header, offset = open_for_search(path, lv, family, stamps)
                if stamps != before:
                    save_stamps(directory, stamps)
                bodies[lv] = np.memmap(path, np.int8, "r", offset=offset,
                                       shape=(header["entries"],))
            else:
                bodies[lv] = None
        body = bodies[lv]
        return None if body is None else int(body[i])

    gain = int(game.score(state)) if game.is_terminal(state) else gain_of(state)
    if gain is None:
        raise TableError(_no_table(level, family, directory))
    return ProbeAnswer(level, gain, _move_gains(state, gain_of))


def _no_table(level: int, family: Family, directory: Path) -> str:
    flag = "" if family.capture_empty else " --no-capture-empty"
    return (f"no table for level {level} ({family.pits} pits, "
            f"{rule_name(family.capture_empty)}) in {directory}: build it with "
            f"`solver tables build mancala --pits {family.pits} --max-stones {level}{flag}`")


def _move_gains(state, gain_of) -> dict[int, int] | None:
    lanes = np.empty(6, np.int64)
    values = {}
    for lane in lanes[:game.legal_moves(state, lanes)]:
        child, info = game.play(state, int(lane))
        gain = (info >> game.GAIN_SHIFT) - game.GAIN_BIAS
        if not info & game.GAME_OVER:
            later = gain_of(child)
            if later is None:
                return None
            gain += later if info & game.EXTRA_TURN else -later
        values[int(lane)] = int(gain)
    return values


# --- for alpha-beta ------------------------------------------------------------------------------

@dataclass
class SearchTables:
    """Levels 1..max_level memory-mapped for ``tables.probe.probe(state, data, offsets)``."""

    data: np.ndarray        # int8: the mapped files side by side
    offsets: np.ndarray     # int64[max_level + 2]: the probe layout
    max_level: int
    capture_empty: bool
    pits: int = 6


RESIDENT_BYTES = 64 << 20
"""Levels that map into at most this many bytes (6 pits: up to 17 stones) are copied into
huge-page memory for a search instead of probed in their file's pages: a probe lands anywhere,
and the file's 4 KB pages are a TLB miss each (29 MB of levels up to 16 stones: 7,450 pages).
The copy costs a few hundredths of a second there, and the Kalah(6,4) solve with those levels
ran 0.93x the time (paired median of 10, ``benches/README.md``, "Thirteenth session"). Larger
levels stay mapped: copying them costs seconds and the whole table in memory."""


def load_for_search(directory=None, family: Family = DEFAULT_FAMILY,
                    max_level: int | None = None) -> SearchTables:
    """Every consecutive level 1..L of ``family`` present (up to ``max_level``), each checked
    (header and size). Memory-mapped, so nothing is read until probed and the kernel drops the
    pages it needs for something else; or, when they fit in RESIDENT_BYTES, copied into
    huge-page memory. L = 0 (no table file) gives tables that only know the empty board; a
    probe beyond L returns ``tables.probe.NO_ENTRY``."""
    directory = _directory(directory)
    top = 0
    limit = MAX_LEVEL if max_level is None else _whole(max_level, "max_level", 0, MAX_LEVEL)
    while top < limit and (directory / level_filename(top + 1, family)).exists():
        top += 1
    tables = _map(directory, family, top)
    # The top level first: the largest, so the most pages a probe could wait for.
    paths = [directory / level_filename(level, family) for level in range(top, 0, -1)]
    if top == 0:    # the mapping is one reserved page that faults when read: show a byte
        data = np.zeros(1, dtype=tables.data.dtype)     # that can be (no probe reads it)
    elif tables.length <= RESIDENT_BYTES:
        read_ahead(paths)       # then the copy reads the page cache, not the disk page by page
        data = _resident_copy(tables.data)
    else:
        read_ahead_in_background(paths)
        data = tables.data
    return SearchTables(data, tables.offsets, top, family.capture_empty, family.pits)


def build_for_search(max_level: int, family: Family = DEFAULT_FAMILY,
                     workers: int | None = None) -> SearchTables:
    """Levels 1..max_level of ``family`` computed in memory for one search, no file read or
    written (``tables.build.build_in_memory``, on ``workers`` threads; None: every core).
    Refused when the levels would take more than half the memory the system has available."""
    from tables.build import build_in_memory, get_threads, set_threads    # Numba: on use
    max_level = _whole(max_level, "the levels to build in memory", 1, MAX_LEVEL)
    workers = None if workers is None else _whole(workers, "workers", 1)
    size, available = int(level_offsets(max_level, family.pits)[-1]), available_bytes()
    if size > available // 2:
        raise TableError(f"levels up to {max_level} stones take {size / 1e9:.1f} GB, more than "
                         f"half the {available / 1e9:.1f} GB this machine has available")
    threads = get_threads()
    set_threads(workers)
    try:
        built = build_in_memory(max_level, family.capture_empty, family.pits)
    finally:
        set_threads(threads)
    return SearchTables(built.data, built.offsets, max_level, family.capture_empty, family.pits)


def _resident_copy(mapped: np.ndarray) -> np.ndarray:
    """``mapped``'s bytes in anonymous huge-page memory (the mapping is let go with the array)."""
    from kernels._memory import huge_page_memory
    copy = np.frombuffer(huge_page_memory(mapped.nbytes), np.int8)
    copy[:] = mapped
    return copy


def _map(directory: Path, family: Family, top: int) -> MappedLevels:
    """Levels 1..top mapped, each checked: its header and size, and its body's sha256 unless
    the folder's stamps say this file was hashed before (``tables.format.open_for_search``)."""
    files = []
    stamps = read_stamps(directory)
    before = dict(stamps)
    for level in range(1, top + 1):
        path = directory / level_filename(level, family)
        _, offset = open_for_search(path, level, family, stamps)
        files.append((path, offset, False))
    if stamps != before:
        save_stamps(directory, stamps)
    return MappedLevels(family.pits, files)


def level_values(directory, level: int, family: Family) -> np.ndarray:
    """One level's values, checked (sha256), memory-mapped read-only."""
    from tables.format import read_body
    return read_body(level_path(directory, level, family), level, family)


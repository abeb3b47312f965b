"""Level files memory-mapped side by side into one int8 array, and a resident-memory budget.

A compiled search or build takes the tables as one ``data`` array and the ``offsets`` layout of
``tables.probe``. Copying the files into one array would need their whole size in RAM; instead
each file is mapped whole (header included, from file offset 0, which is page-aligned) into one
reserved stretch of address space, each at a page boundary::

    address space:  | file level 1 |pad| file level 2 |pad| ... | file level L |pad|
    data[i]         byte i of that stretch;  level l starts at its file's place + body offset

The kernel pages a level in on first touch and can drop it again at any time (it is the page
cache's copy of the file), so resident memory is whatever was touched lately, not the table
size. ``MemoryBudget`` keeps it below a ceiling by telling the kernel, between pieces of work,
that the mapped pages are not needed (``madvise(MADV_DONTNEED)``): clean pages of a file cost
nothing to drop and come back from the page cache or the disk when touched again.

Read-only levels are mapped ``PROT_READ`` (a stray write faults instead of changing a file);
the level being built is mapped shared and writable by the process that scatters into it, and
shared read-only by the processes that only read it (Dask workers), so all see the same pages.
"""
from __future__ import annotations

import ctypes
import mmap
import os
import threading
from pathlib import Path

from kernels._memory import free_bytes
from tables.lazy import lazy_module

np = lazy_module("numpy")    # on first use: listing tables and refusing input stay light


_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                       ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.msync.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_MAP_FAILED = ctypes.c_void_p(-1).value
_MAP_NORESERVE = 0x4000
_MAP_FIXED = 0x10
_MS_SYNC = 4
_MADV_RANDOM = 1
PAGE = mmap.PAGESIZE


def _round_up(size: int) -> int:
    return (size + PAGE - 1) // PAGE * PAGE


def _check(result, what: str) -> None:
    if result in (None, _MAP_FAILED) or result == -1:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


class MappedLevels:
    """Levels 1..L of one table family mapped into one array.

    ``files``: for each level 1..L, ``(path, body_offset, writable)``. ``data`` and
    ``offsets`` are what ``tables.probe.probe`` and the build kernels take; ``level(l)`` is a
    view of one level's values. The mapping lives as long as any of these arrays does."""

    def __init__(self, pits: int, files: list[tuple[Path, int, bool]]):
        sizes = [os.path.getsize(path) for path, _, _ in files]
        places = np.concatenate([[0], np.cumsum([_round_up(s) for s in sizes])]).astype(int)
        self.length = max(int(places[-1]), PAGE)
        # Step 1. Reserve the address space (no memory: PROT_NONE, never touched).
        base = _libc.mmap(None, self.length, 0,  # PROT_NONE
                          mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_NORESERVE, -1, 0)
        _check(base, "reserving address space for the tables")
        self.base = base
        self._writable = []
        # Step 2. Each file over its place.
        for (path, _, writable), size, place in zip(files, sizes, places):
            descriptor = os.open(path, os.O_RDWR if writable else os.O_RDONLY)
            try:
                prot = mmap.PROT_READ | (mmap.PROT_WRITE if writable else 0)
                shared = mmap.MAP_SHARED if writable else mmap.MAP_PRIVATE
                got = _libc.mmap(base + int(place), size, prot, shared | _MAP_FIXED, descriptor, 0)
                _check(got, f"mapping {Path(path).name}")
                # Probes land anywhere in a level: no read-ahead and no fault-around (which
                # maps 16 neighbouring pages per fault and so fills the budget 16 times faster).
                _check(_libc.madvise(base + int(place), _round_up(size), _MADV_RANDOM),
                       "madvise")
            finally:
                os.close(descriptor)
            if writable:
                self._writable.append((base + int(place), _round_up(size)))
        starts = [int(place) + offset for (_, offset, _), place in zip(files, places)]
        self.starts = [0] + starts
        self.pits = pits
        self.top = len(files)
        self.offsets = np.array([pits, self.top] + starts, np.int64)

    @property
    def data(self) -> np.ndarray:
        """int8 over the whole mapping. Made afresh at each call and never kept here: an array
        keeps the mapping alive, and the mapping keeping an array would be a cycle, unmapped
        only when the garbage collector ran (meanwhile its pages would count as resident)."""
        buffer = (ctypes.c_int8 * self.length).from_address(self.base)
        buffer._owner = self  # the mapping stays while an array over it exists
        return np.frombuffer(buffer, np.int8)

    def level(self, level: int, size: int) -> np.ndarray:
        return self.data[self.starts[level]:self.starts[level] + size]

    def drop_pages(self) -> None:
        """Give back every resident page of the mapping (they are file pages: nothing lost)."""
        _check(_libc.madvise(self.base, self.length, 4), "madvise")  # MADV_DONTNEED

    def flush(self) -> None:
        """Write the writable level's dirty pages to its file now (for other machines)."""
        for address, length in self._writable:
            _check(_libc.msync(address, length, _MS_SYNC), "msync")

    def __del__(self):
        base = getattr(self, "base", None)
        if base:
            _libc.munmap(base, self.length)


_statm: tuple[int, int] | None = None   # (pid, descriptor of its /proc/self/statm)


def resident_bytes() -> int:
    """This process's resident memory now (anonymous and mapped file pages). The file stays
    open (a build asks thousands of times; opening it each time cost more than reading), and
    is opened again in a forked child, whose /proc/self is another file."""
    global _statm
    if _statm is None or _statm[0] != os.getpid():
        _statm = (os.getpid(), os.open("/proc/self/statm", os.O_RDONLY))
    return int(os.pread(_statm[1], 128, 0).split()[1]) * PAGE


def physical_bytes() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return None


READ_AHEAD_CHUNK = 8 << 20
"""Bytes asked for per ``posix_fadvise(WILLNEED)`` call: the kernel reads at most about this
much for one call (one call over a 398 MB level read 8 MB of it), so the file is asked for in
pieces."""


def available_bytes() -> int:
    """Memory the system could give now, the page cache it can drop included (``MemAvailable``;
    the free memory where /proc/meminfo does not say)."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return free_bytes()


def read_ahead(paths) -> int:
    """Ask the kernel to read ``paths`` into the page cache now, in order, each whole; returns the
    bytes asked for. A search's probes land anywhere, so the mapped levels are advised
    MADV_RANDOM (no read-ahead) and each probe of a page not cached waits for one 4 KB read:
    from a cold page cache the Kalah(6,4) solve with levels up to 24 took 19.6 s against 1.8 s
    warm. Read ahead in 8 MB requests, the same 1.2 GB come in about 0.4 s (0.02 s when already
    cached). A file that cannot be opened or advised is skipped (the search's own check of it
    has passed or will fail on its own)."""
    asked = 0
    for path in paths:
        try:
            descriptor = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            size = os.fstat(descriptor).st_size
            for at in range(0, size, READ_AHEAD_CHUNK):
                os.posix_fadvise(descriptor, at, min(READ_AHEAD_CHUNK, size - at),
                                 os.POSIX_FADV_WILLNEED)
            asked += size
        except (OSError, AttributeError):
            pass
        finally:
            os.close(descriptor)
    return asked


def read_ahead_in_background(paths) -> threading.Thread | None:
    """:func:`read_ahead` on a daemon thread (returned), so a search starts at once and probes
    what is read meanwhile; None (nothing read ahead) when the files together are more than
    half the memory available, where reading them all would only push out what is in use."""
    paths = list(paths)
    if sum(_size(path) for path in paths) > available_bytes() // 2:
        return None
    thread = threading.Thread(target=read_ahead, args=(paths,), name="read-ahead-tables",
                              daemon=True)
    thread.start()
    return thread


def _size(path) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


DEFAULT_FRACTION = 4   # no --memory-mb: a quarter of the machine's memory
MIN_BUDGET_MB = 64


def default_budget_mb() -> int:
    """The automatic budget: a quarter of physical memory (at least MIN_BUDGET_MB)."""
    physical = physical_bytes() or (4 << 30)
    return max(MIN_BUDGET_MB, physical // DEFAULT_FRACTION >> 20)


class MemoryBudget:
    """Keeps the growth of this process's resident memory near ``megabytes``: ``check(mapping)``
    between pieces of work drops the mapping's pages once the process has grown by more than
    the budget since its first check. So the budget bounds what the mapped tables hold; the
    process's own memory when the build starts (the interpreter, numpy, the compiled kernels:
    150-300 MB) and the small arrays of one piece are on top of it."""

    def __init__(self, megabytes: int | None = None):
        self.megabytes = default_budget_mb() if megabytes is None else int(megabytes)
        self.base: int | None = None
        self.drops = 0
        self.peak = 0

    # A position reads about six children, each on a page of its own (their indices are far
    # apart): so many positions between two checks touch at most the budget's pages.
    PAGES_PER_POSITION = 6
    MAX_STEP = 1 << 22

    def positions_between_checks(self) -> int:
        pages = (self.megabytes << 20) // PAGE
        return max(4096, min(self.MAX_STEP, pages // self.PAGES_PER_POSITION))

    def check(self, mapping: MappedLevels) -> None:
        now = resident_bytes()
        if self.base is None:
            self.base = now
        self.peak = max(self.peak, now)
        if now - self.base > self.megabytes << 20:
            mapping.drop_pages()
            self.drops += 1

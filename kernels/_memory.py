"""Large zeroed memory for the search kernels: anonymous, in huge pages, faulted in ahead of use.

A search touches its whole transposition table at random, so the table is asked for huge pages
(``MADV_HUGEPAGE``: far fewer TLB misses). Faulting the pages in is then the search's first
cost, and on some machines a large one: in a virtual machine that hands freed memory back to its
host (free page reporting), every huge page the process touches first costs the host's faults
too, about 2.3 s a GiB on the 2-core machine of 4 Dec 2026 (0.1 s when the memory was freed a
moment before; ``benches/README.md``, "Twelfth session"). :func:`populate_in_background` moves
that cost off the searching thread: a helper thread asks the kernel to fault the pages in
(``MADV_POPULATE_WRITE``, Linux 5.14+, which never changes what a page holds, so the search may
write the table meanwhile) while the search runs; a page the search reaches first it faults
itself, as before.
"""
import ctypes
import mmap
import os
import threading

MADV_POPULATE_WRITE = getattr(mmap, "MADV_POPULATE_WRITE", 23)   # Linux's value
POPULATE_CHUNK = 16 << 20      # per call: the thread stops soon after the memory is let go


def free_bytes() -> int:
    """Physical memory free now (0 where the system does not say)."""
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return 0


def huge_page_memory(size: int) -> mmap.mmap:
    """``size`` zeroed bytes of anonymous memory the kernel is asked to back with huge pages
    (a no-op where the system has none: then 4 KB pages, as ``np.zeros``)."""
    memory = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            memory.madvise(mmap.MADV_HUGEPAGE)
        except OSError:
            pass
    return memory


def populate_in_background(memory: mmap.mmap) -> threading.Thread | None:
    """Fault ``memory``'s pages in on a daemon thread (returned; None where the C library or
    ``madvise`` cannot be reached, or where ``memory`` is more than half the free memory: a
    table larger than the machine still works as long as a search does not fill it, so it is
    left to fault in as it is used). The thread holds ``memory`` until it is done, and stops at
    the first refusal (a kernel older than 5.14, or no memory left to back it)."""
    if len(memory) > free_bytes() // 2:
        return None
    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return None
    madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    start = ctypes.addressof(ctypes.c_char.from_buffer(memory))
    size = len(memory)

    def populate(held=memory):      # ctypes lets the GIL go during each call
        for at in range(0, size, POPULATE_CHUNK):
            if madvise(start + at, min(POPULATE_CHUNK, size - at), MADV_POPULATE_WRITE):
                return

    thread = threading.Thread(target=populate, name="populate-table", daemon=True)
    thread.start()
    return thread

"""What one random read from memory costs on this machine, by the size of the block read.

    python benches/memory_latency.py [--sizes 32 256 1024 2048] [--steps 5000000]
                                     [--repeats 3] [--small-pages]

The exact search waits on its transposition table about once a node (``benches/README.md``:
half to two thirds of ``negamax``'s samples sit after a bucket's prefetch), so its time per
node, and every ratio against a peer that also waits on memory, moves with this figure from host
to host. Run it beside a comparison to say which kind of host the comparison ran on.

Per size, a block of that many MB is allocated as the search's table is (anonymous memory,
huge pages asked for, ``kernels._memory.huge_page_memory``) and filled with one random cycle
through all its cache lines. Printed per size (medians of the repeats):

- ``dependent``: nanoseconds per read when each read's address comes from the read before
  (a pointer chase): the whole latency of a miss, TLB and page walks included, nothing
  overlapped. What a search node waits for when nothing prefetched its bucket.
- ``independent``: nanoseconds per read when 8 chases run interleaved in one loop: how far the
  core overlaps misses (memory-level parallelism). ``dependent / independent`` is about the
  number of misses in flight.

``--small-pages`` asks for 4 KB pages instead (``MADV_NOHUGEPAGE``), to see what huge pages buy.
The share of the block the kernel actually backed with huge pages is printed (from
``/proc/self/smaps``; blank where the system does not say)."""
import argparse
import mmap
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from kernels._memory import huge_page_memory

LINE_WORDS = 8          # 64-byte cache lines of uint64 words
CHASES = 8              # interleaved chases of the "independent" figure


@njit(cache=True)
def link_random_cycle(words, seed):
    """words[8 i] = 8 j: one cycle through every line in random order (Sattolo's algorithm,
    an xorshift generator), so that a chase from any line visits all of them."""
    lines = words.shape[0] // LINE_WORDS
    order = np.arange(lines)
    state = np.uint64(seed) | np.uint64(1)
    for i in range(lines - 1, 0, -1):
        state ^= state << np.uint64(13)
        state ^= state >> np.uint64(7)
        state ^= state << np.uint64(17)
        j = np.int64(state % np.uint64(i))
        order[i], order[j] = order[j], order[i]
    for k in range(lines):
        words[LINE_WORDS * order[k]] = np.uint64(LINE_WORDS * order[(k + 1) % lines])


@njit(cache=True)
def chase(words, start, steps):
    """Follow the cycle ``steps`` reads from ``start``; the line reached (keeps the reads)."""
    at = np.int64(start)
    for _ in range(steps):
        at = np.int64(words[at])
    return at


@njit(cache=True)
def chase_interleaved(words, steps):
    """CHASES chases from evenly spaced lines, one read of each per step: ``steps`` reads in all."""
    lines = words.shape[0] // LINE_WORDS
    at = np.empty(CHASES, np.int64)
    for k in range(CHASES):
        at[k] = LINE_WORDS * (k * lines // CHASES)
    for _ in range(steps // CHASES):
        for k in range(CHASES):
            at[k] = np.int64(words[at[k]])
    return at.sum()


def huge_page_share(address: int, size: int) -> float | None:
    """The share of [address, address + size) backed by huge pages, from /proc/self/smaps."""
    try:
        with open("/proc/self/smaps") as smaps:
            inside = False
            for line in smaps:
                head = line.split()[0]
                if "-" in head and not head.endswith(":"):
                    low, high = (int(x, 16) for x in head.split("-"))
                    inside = low <= address < high
                elif inside and head == "AnonHugePages:":
                    return int(line.split()[1]) * 1024 / size
    except (OSError, ValueError):
        return None
    return None


def block(megabytes: int, small_pages: bool) -> tuple[mmap.mmap, np.ndarray]:
    memory = huge_page_memory(megabytes << 20)
    if small_pages and hasattr(mmap, "MADV_NOHUGEPAGE"):
        memory.madvise(mmap.MADV_NOHUGEPAGE)
    return memory, np.frombuffer(memory, np.uint64)


def measure(megabytes: int, steps: int, repeats: int, small_pages: bool) -> dict:
    memory, words = block(megabytes, small_pages)
    link_random_cycle(words, 0x9E3779B97F4A7C15 + megabytes)
    share = huge_page_share(words.ctypes.data, words.nbytes)
    chase(words, 0, min(steps, words.shape[0] // LINE_WORDS))     # warm: TLB, caches, pages
    dependent, independent = [], []
    for _ in range(repeats):       # interleaved, so that load from other users hits both alike
        start = time.perf_counter()
        chase(words, 0, steps)
        dependent.append((time.perf_counter() - start) / steps * 1e9)
        start = time.perf_counter()
        chase_interleaved(words, steps)
        independent.append((time.perf_counter() - start) / steps * 1e9)
    del words
    memory.close()
    return {"mb": megabytes, "huge": share, "dependent": statistics.median(dependent),
            "independent": statistics.median(independent)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[32, 256, 1024, 2048],
                        help="block sizes in MB (default: %(default)s)")
    parser.add_argument("--steps", type=int, default=5_000_000, help="reads a measurement")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--small-pages", action="store_true",
                        help="ask for 4 KB pages instead of huge pages")
    args = parser.parse_args(argv)
    if min(args.sizes) < 1 or args.steps < CHASES or args.repeats < 1:
        parser.error("sizes >= 1 MB, steps >= 8 and repeats >= 1")
    chase(np.zeros(LINE_WORDS, np.uint64), 0, 1)             # compile (or load) before timing
    chase_interleaved(np.zeros(CHASES * LINE_WORDS, np.uint64), CHASES)
    pages = "4 KB pages asked for" if args.small_pages else "huge pages asked for"
    print(f"random reads, {pages}; ns per read, medians of {args.repeats}; load "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'MB':>6}{'huge pages':>12}{'dependent':>11}{'independent':>13}{'in flight':>11}")
    for megabytes in args.sizes:
        try:
            row = measure(megabytes, args.steps, args.repeats, args.small_pages)
        except (OSError, MemoryError) as error:     # no room for the block: say so, no traceback
            parser.exit(1, f"{parser.prog}: error: cannot allocate {megabytes} MB: "
                           f"{error or 'out of memory'}\n")
        huge = "" if row["huge"] is None else f"{100 * row['huge']:.0f} %"
        print(f"{megabytes:>6}{huge:>12}{row['dependent']:>11.1f}{row['independent']:>13.1f}"
              f"{row['dependent'] / row['independent']:>11.1f}", flush=True)


if __name__ == "__main__":
    # Run the package's copy, so that the compiled functions' cache always names the module
    # ``benches.memory_latency``: a cache written by ``import benches.memory_latency`` (the
    # tests) and read by ``python benches/memory_latency.py`` would otherwise fail to load.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benches import memory_latency
    memory_latency.main()

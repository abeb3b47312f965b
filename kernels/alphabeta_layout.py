"""The alpha-beta kernels' constants and arrays, importable without Numba (numpy only).

One place for what the Numba kernel (``kernels/alphabeta.py``, which re-imports all of this),
the Cython Mancala kernel (``kernels/mancala_ab.pyx``, which checks its compile-time copies
against this module when it is imported) and the driver (``solver/search/alphabeta.py``) share:
the depth and value conventions, the stats slots, the workspace and transposition-table
layouts (drawn in ``kernels/alphabeta.py``) and the helpers that allocate them.
"""
import numpy as np

from kernels._memory import huge_page_memory, populate_in_background
from kernels.contract import EXPANSION_WIDTH, MAX_MOVES

EXACT = 255                 # depth meaning: search to the end of the game
MAX_PLY = 1024
INFINITY = 1 << 20          # beyond any game value
HISTORY_LIMIT = 1 << 22
# Positions whose value can change by at most this much have tiny subtrees: searching them
# again is cheaper than a table probe that misses the cache.
TT_MIN_SWING = 4
# Threads sharing a table mark the nodes whose swing exceeds stats[BUSY_SWING], by default this,
# as busy (the Cython kernel's search(busy=...)): smaller subtrees are over before another
# thread could skip them.
BUSY_MIN_SWING = 24
BUSY_ENTRIES = 1 << 16      # the shared busy array's length
# Enhanced transposition cutoffs are tried only where the swing exceeds stats[ETC_SWING], by
# default this: below it a child's subtree is too small for the extra probes, which wait on
# memory, to pay (node counts and CPU time in benches/README.md: from 30 rather than 20, Kalah(6,4)
# without tables solves 10 % / 4.5 % faster on the Cython kernel, on 2-4 % more nodes).
ETC_MIN_SWING = 30
# With endgame tables no subtree is deep enough for them to pay: a search given tables sets
# stats[ETC_SWING] to this, above any swing (ETC off). Measured, CPU seconds of exact root
# proofs, ETC from swing 20 against off: Kalah(6,4) with levels <= 16 19.0 / 15.9 (medians
# of 3), <= 20 12.4 / 9.6, Kalah(6,5) with levels <= 30 103.4 / 77.1 (and 161 M / 131 M nodes).
ETC_OFF_SWING = 1 << 20
# With endgame tables, a node whose swing is at most this many stones above their top level
# first peeks at its children: a child the tables value (a finished game is the floor's, which
# comes first) whose exact value already proves the node >= beta ends it before any child is
# searched (Irving's solver does the same). Closer to the tables every child is answered at once anyway; further above them
# few children are within the tables. Kalah(6,4) from the start, one thread, paired wall time
# against no peek (benches/README.md, twenty-first session): levels <= 20 0.92x (21.2 M nodes
# to 15.8 M), <= 24 0.83x and 0.92x, <= 16 1.01x (8 pairs: no difference either way).
PEEK_MARGIN = 8
# Move order: the TT move, then moves that keep the turn, except that a move banking at least
# this much (a big capture) goes before them (by what it banks, then history). Exact proofs
# without tables, nodes against extra turns always first (benches/README.md, twenty-seventh
# session): Kalah(6,4) from the start 3.4 % / 4.5 % fewer (capture_empty / not), 120 positions
# from random play 3-10 % fewer; thresholds 4..10 all fewer, 5 and 6 the fewest.
BIG_GAIN = 5

# stats[] slots. NODES counts every position a search reaches (a call, or a finished child);
# EXPANDED only those whose moves it generated (not answered by bounds, tables or the
# transposition table first): what Irving's solver reports as "Nodes searched".
(NODES, NODE_LIMIT, ABORTED, MAX_PLY_SEEN, TT_HITS, ROOT_MOVE, HEURISTIC_LEAVES, OPTIONS,
 TABLE_HITS, PROBE_MAX, ETC_CUTOFFS, ETC_SWING, BUSY_SWING, EXPANDED) = range(14)
# stats[OPTIONS] bits: switch parts off, to test that they change speed and not values
NO_TABLE, NO_ORDERING, NO_ETC = 1, 2, 4
# ... and, read by the Cython Mancala kernel only, for a search that shares its table with other
# threads (solver/search/alphabeta.py): SHARED_TABLE writes and checks each entry's check word
# (its fourth, unused otherwise).
SHARED_TABLE = 8
STATS_SIZE = 16
NODE_LIMIT_NONE = (1 << 63) - 1  # stats[NODE_LIMIT]: no limit
NO_ENTRY = -32768           # probe(): the tables do not hold this position

# The transposition table's data word (drawn in kernels/alphabeta.py): flag bits, the bias of
# the two 16-bit bound fields and their "no bound" values, the shifts of the byte fields.
IN_USE_BIT, HEURISTIC_BIT = 63, 62
NO_LOWER, NO_UPPER, BOUND_BIAS = 0, 0xFFFF, 32768
UPPER_SHIFT, DEPTH_SHIFT, MOVE_SHIFT, WORK_SHIFT = 16, 32, 40, 48

# Row MAX_PLY of ``work`` holds the history counters, the stats and the endgame tables' level
# offsets (``offsets`` of probe(): level l is data[offsets[l]:offsets[l + 1]]).
HISTORY, STATS, TABLE_OFFSETS = 0, MAX_MOVES, MAX_MOVES + STATS_SIZE
# The search adds one block to a ply's expansion row: each child's TT bucket (-1: none).
BUCKET = EXPANSION_WIDTH
WORK_SHAPE = (MAX_PLY + 1, EXPANSION_WIDTH + MAX_MOVES)

HUGE_TABLE_BYTES = 4 << 20     # new_table(): from this size, ask for huge pages
POPULATED_TABLE_BYTES = 64 << 20   # and from this size, fault them in on another thread

# prove(): the move of a finished game, and of a proof the node limit stopped
NO_MOVE = -1
ABORTED_MOVE = -2


def new_workspace():
    """Fresh scratch for the search kernels; ``stats_of(work)`` is a view."""
    work = np.zeros(WORK_SHAPE, np.int64)
    stats_of(work)[ETC_SWING] = ETC_MIN_SWING
    stats_of(work)[BUSY_SWING] = BUSY_MIN_SWING
    return work


def stats_of(work):
    return work[MAX_PLY, STATS:STATS + STATS_SIZE]


def new_table(megabytes):
    """An empty transposition table of about ``megabytes`` (a power-of-two entry count).

    Tables of 4 MB and more are anonymous memory the kernel is asked to back with huge pages
    (``kernels._memory``): a search touches its whole table, and faulting it in 4 KB pages cost
    about 2 s a GB on one machine, in 2 MB pages 0.2 s. Tables of 64 MB and more are faulted in
    on a helper thread while the search starts (``populate_in_background``): where first
    touches are dear (2.3 s a GiB in huge pages on another machine) the search no longer waits
    for most of them: it starts in the table's first part, which the helper faults in first
    (``solver.search.alphabeta.first_entries``)."""
    entries = 2
    while entries * 2 * 32 <= megabytes * (1 << 20):
        entries *= 2
    size = entries * 32
    if size < HUGE_TABLE_BYTES:
        return np.zeros((entries, 4), np.uint64)
    memory = huge_page_memory(size)
    if size >= POPULATED_TABLE_BYTES:
        populate_in_background(memory)
    return np.frombuffer(memory, np.uint64).reshape(entries, 4)   # zeroed, as mmap gives it

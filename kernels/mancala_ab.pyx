# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Alpha-beta specialised to Mancala, in C: ``kernels/alphabeta.py``'s ``search``, ``prove`` and
``exact_line`` with ``kernels/mancala.py``'s game functions (expand, bounds, store_difference as
evaluate, score, key_mask) and ``tables/probe.py``'s endgame-table probe called directly
instead of through function pointers. It exists for start-up and speed: this module loads in
milliseconds, where the Numba kernels cost an ``import numba`` and a cache load (about 1.5 s),
so ``solver best mancala --depth 12`` can answer well within 0.4 s; and direct calls the C
compiler can inline make a node about 1.4x cheaper than the generic kernel's calls through
function pointers.

The same algorithm, step for step, not a look-alike: the same transposition table (uint64[n, 4]
in two-entry buckets, the hash ``mix``, the data word and the replacement rule drawn in
kernels/alphabeta.py), the same move ordering (TT move, big gains, extra turns, gains, history),
the same enhanced-transposition-cutoff rule, the same stats slots and workspace (row ``ply`` its
expansion and BUCKET block, row MAX_PLY the history and stats). For any position, depth and table
size it returns the same value and root move, counts the same nodes, TT hits and heuristic
leaves, and leaves the same table and workspace behind as the Numba kernel with ``no_probe`` or,
given the same endgame tables, with ``tables.probe.probe`` (tests/test_mancala_cython_ab.py).
The tables arrive as the Numba kernel's do: an int8 array (memory-mapped levels) and the level
offsets in row MAX_PLY of the workspace from TABLE_OFFSETS; the index's rank arrays
(``tables.index``) are copied into C arrays the first time a search is given tables.

Constants are compile-time copies of kernels/contract.py, kernels/alphabeta_layout.py and
kernels/mancala_layout.py; the copies are checked against those modules when this one is
imported (an ImportError if they ever differ), and the sowing tables are copied from
kernels/mancala_layout.py into C arrays then. States are (mover, other) uint64 pairs as in
kernels/mancala.py; the Python functions take any pair of integers (Python ints, np.uint64).
"""
from libc.stdint cimport int64_t, uint64_t

from kernels import alphabeta_layout as _layout
from kernels import contract as _contract
from kernels import mancala_layout as _mancala

cdef extern from *:
    """
    #define SOLVER_MIX_A 0x9E3779B97F4A7C15ULL
    #define SOLVER_MIX_B 0xBF58476D1CE4E5B9ULL
    #define SOLVER_MIX_C 0x94D049BB133111EBULL
    #define SOLVER_ALL_ONES 0x0101010101010101ULL
    #define SOLVER_CAPTURE_EMPTY_BIT (1ULL << 59)
    #define SOLVER_IN_USE (1ULL << 63)
    #define SOLVER_HEURISTIC (1ULL << 62)
    #define SOLVER_PREFETCH(address) __builtin_prefetch((address), 0, 3)
    /* Words other threads may write (a shared table's entries, the busy marks): each access
       is one whole 64-bit load or store (relaxed atomics: plain moves on x86-64), so the
       compiler neither splits nor repeats one: a word checked is the word used. */
    #define SOLVER_LOAD(address) __atomic_load_n((address), __ATOMIC_RELAXED)
    #define SOLVER_STORE(address, value) __atomic_store_n((address), (value), __ATOMIC_RELAXED)
    """
    const uint64_t MIX_A "SOLVER_MIX_A"
    const uint64_t MIX_B "SOLVER_MIX_B"
    const uint64_t MIX_C "SOLVER_MIX_C"
    const uint64_t ALL_ONES "SOLVER_ALL_ONES"
    const uint64_t CAPTURE_EMPTY "SOLVER_CAPTURE_EMPTY_BIT"
    const uint64_t IN_USE "SOLVER_IN_USE"
    const uint64_t HEURISTIC "SOLVER_HEURISTIC"
    void prefetch "SOLVER_PREFETCH"(const void* address) nogil
    uint64_t load_word "SOLVER_LOAD"(uint64_t* address) nogil
    void store_word "SOLVER_STORE"(uint64_t* address, uint64_t value) nogil

cdef enum:
    # kernels/contract.py
    MAX_MOVES = 64
    EXTRA_TURN = 1
    CAPTURE = 2
    GAME_OVER = 4
    GAIN_SHIFT = 8
    GAIN_BIAS = 256
    HINT_SHIFT = 3
    HINT_MASK = 31
    MOVE = 0
    ORDER = 64
    INFO = 128
    CHILD0 = 192
    CHILD1 = 256
    EXPANSION_WIDTH = 320
    # kernels/alphabeta_layout.py
    EXACT = 255
    MAX_PLY = 1024
    INFINITE = 1048576          # INFINITY (a C macro name)
    HISTORY_LIMIT = 4194304
    TT_MIN_SWING = 4
    PEEK_MARGIN = 8
    BIG_GAIN = 5
    NODES = 0
    NODE_LIMIT = 1
    ABORTED = 2
    MAX_PLY_SEEN = 3
    TT_HITS = 4
    ROOT_MOVE = 5
    HEURISTIC_LEAVES = 6
    OPTIONS = 7
    TABLE_HITS = 8
    PROBE_MAX = 9
    ETC_CUTOFFS = 10
    ETC_SWING = 11
    BUSY_SWING = 12
    EXPANDED = 13
    TABLE_OFFSETS = 80
    NO_TABLE = 1
    NO_ORDERING = 2
    NO_ETC = 4
    SHARED_TABLE = 8
    NO_ENTRY = -32768
    IN_USE_BIT = 63
    HEURISTIC_BIT = 62
    NO_LOWER = 0
    NO_UPPER = 0xFFFF
    BOUND_BIAS = 32768
    UPPER_SHIFT = 16
    DEPTH_SHIFT = 32
    MOVE_SHIFT = 40
    WORK_SHIFT = 48
    HISTORY = 0
    STATS = 64
    BUCKET = 320
    ROW_WIDTH = 384             # WORK_SHAPE[1]: a workspace row
    NO_MOVE = -1
    ABORTED_MOVE = -2
    # kernels/mancala_layout.py
    MAX_PITS = 6
    CONFIG_SHIFT = 56
    # tables/index.py
    MAX_LEVEL = 48
    BAR_LANES = 256

COMPILED_CONSTANTS = dict(
    MAX_MOVES=MAX_MOVES, EXTRA_TURN=EXTRA_TURN, CAPTURE=CAPTURE, GAME_OVER=GAME_OVER,
    GAIN_SHIFT=GAIN_SHIFT, GAIN_BIAS=GAIN_BIAS, HINT_SHIFT=HINT_SHIFT, HINT_MASK=HINT_MASK,
    MOVE=MOVE, ORDER=ORDER, INFO=INFO, CHILD0=CHILD0,
    CHILD1=CHILD1, EXPANSION_WIDTH=EXPANSION_WIDTH, EXACT=EXACT, MAX_PLY=MAX_PLY,
    INFINITY=INFINITE, HISTORY_LIMIT=HISTORY_LIMIT, TT_MIN_SWING=TT_MIN_SWING,
    PEEK_MARGIN=PEEK_MARGIN, BIG_GAIN=BIG_GAIN, NODES=NODES,
    NODE_LIMIT=NODE_LIMIT, ABORTED=ABORTED, MAX_PLY_SEEN=MAX_PLY_SEEN, TT_HITS=TT_HITS,
    ROOT_MOVE=ROOT_MOVE, HEURISTIC_LEAVES=HEURISTIC_LEAVES, OPTIONS=OPTIONS,
    TABLE_HITS=TABLE_HITS, PROBE_MAX=PROBE_MAX, ETC_CUTOFFS=ETC_CUTOFFS, ETC_SWING=ETC_SWING,
    BUSY_SWING=BUSY_SWING, EXPANDED=EXPANDED,
    TABLE_OFFSETS=TABLE_OFFSETS,
    NO_TABLE=NO_TABLE, NO_ORDERING=NO_ORDERING, NO_ETC=NO_ETC, SHARED_TABLE=SHARED_TABLE,
    NO_ENTRY=NO_ENTRY,
    IN_USE_BIT=IN_USE_BIT, HEURISTIC_BIT=HEURISTIC_BIT, NO_LOWER=NO_LOWER, NO_UPPER=NO_UPPER,
    BOUND_BIAS=BOUND_BIAS, UPPER_SHIFT=UPPER_SHIFT, DEPTH_SHIFT=DEPTH_SHIFT,
    MOVE_SHIFT=MOVE_SHIFT, WORK_SHIFT=WORK_SHIFT, HISTORY=HISTORY, STATS=STATS, BUCKET=BUCKET,
    NO_MOVE=NO_MOVE, ABORTED_MOVE=ABORTED_MOVE, MAX_PITS=MAX_PITS, CONFIG_SHIFT=CONFIG_SHIFT,
    WORK_SHAPE=(MAX_PLY + 1, ROW_WIDTH), MAX_LEVEL=MAX_LEVEL)
"""Every compile-time constant above under its name in the Python modules (checked at import)."""


def _check_constants():
    from tables import index as _index     # plain Python: numbers only, no arrays built
    sources = (_contract, _layout, _mancala, _index)
    for name, value in COMPILED_CONSTANTS.items():
        source = next(s for s in sources if hasattr(s, name))
        if getattr(source, name) != value:
            raise ImportError(f"kernels.mancala_ab was compiled with {name} = {value}, but "
                              f"{source.__name__} says {getattr(source, name)}: rebuild it")
    if int(_mancala.CAPTURE_EMPTY_BIT) != CAPTURE_EMPTY:
        raise ImportError("kernels.mancala_ab: CAPTURE_EMPTY_BIT differs from mancala_layout")


_check_constants()

# --- the packed state: kernels/mancala.py's functions, inlined ---------------------------------

ctypedef struct State:
    uint64_t mover      # the side to move's word
    uint64_t other

# The sowing tables of kernels/mancala_layout.py, copied at import (shapes checked there).
cdef uint64_t OWN_ADD[MAX_PITS + 1][MAX_PITS][2 * MAX_PITS + 1]
cdef uint64_t OPP_ADD[MAX_PITS + 1][MAX_PITS][2 * MAX_PITS + 1]
cdef int64_t LAST[MAX_PITS + 1][MAX_PITS][2 * MAX_PITS + 1]
cdef uint64_t PIT_ONES[MAX_PITS + 1]
cdef uint64_t CYCLE_ONES[MAX_PITS + 1]
cdef uint64_t PIT_MASK[MAX_PITS + 1]
cdef uint64_t LAPS[MAX_PITS + 1][256]
cdef int64_t REST[MAX_PITS + 1][256]


def _check_shapes(module, shapes):
    """The arrays ``module`` holds have the shapes the C arrays were compiled with."""
    for name, shape in shapes.items():
        if getattr(module, name).shape != shape:
            raise ImportError(f"kernels.mancala_ab: {module.__name__}.{name} has shape "
                              f"{getattr(module, name).shape}, compiled for {shape}")


def _copy_sowing_tables():
    _check_shapes(_mancala, {"OWN_ADD": (MAX_PITS + 1, MAX_PITS, 2 * MAX_PITS + 1),
                             "PIT_ONES": (MAX_PITS + 1,), "LAPS": (MAX_PITS + 1, 256),
                             "REST": (MAX_PITS + 1, 256)})
    cdef int m, p, r, k
    for m in range(MAX_PITS + 1):
        PIT_ONES[m] = int(_mancala.PIT_ONES[m])
        CYCLE_ONES[m] = int(_mancala.CYCLE_ONES[m])
        PIT_MASK[m] = int(_mancala.PIT_MASK[m])
        for k in range(256):
            LAPS[m][k] = int(_mancala.LAPS[m, k])
            REST[m][k] = int(_mancala.REST[m, k])
        for p in range(MAX_PITS):
            for r in range(2 * MAX_PITS + 1):
                OWN_ADD[m][p][r] = int(_mancala.OWN_ADD[m, p, r])
                OPP_ADD[m][p][r] = int(_mancala.OPP_ADD[m, p, r])
                LAST[m][p][r] = int(_mancala.LAST[m, p, r])


_copy_sowing_tables()


cdef inline int64_t pits_of(uint64_t word) noexcept nogil:
    return <int64_t>((word >> CONFIG_SHIFT) & 7)


cdef inline int64_t lane_sum(uint64_t lanes) noexcept nogil:
    return <int64_t>((lanes * ALL_ONES) >> 56)


cdef inline int64_t store_difference(State s) noexcept nogil:
    cdef uint64_t shift = 8 * pits_of(s.mover)
    return <int64_t>((s.mover >> shift) & 0xFF) - <int64_t>((s.other >> shift) & 0xFF)


cdef inline int64_t stones_in_pits(State s) noexcept nogil:
    cdef uint64_t mask = PIT_MASK[pits_of(s.mover)]
    return lane_sum(s.mover & mask) + lane_sum(s.other & mask)


cdef inline int64_t score(State s) noexcept nogil:
    cdef uint64_t mask = PIT_MASK[pits_of(s.mover)]
    return store_difference(s) + lane_sum(s.mover & mask) - lane_sum(s.other & mask)


cdef inline int64_t bounds(State s, int64_t* swing) noexcept nogil:
    """The banked store difference; the stones in pits, the most it can change by, to swing."""
    swing[0] = stones_in_pits(s)
    return store_difference(s)


cdef inline uint64_t key_mask(uint64_t word) noexcept nogil:
    return ~((<uint64_t>0xFF) << (8 * pits_of(word)))


cdef inline int64_t play(State s, int64_t lane, State* out) noexcept nogil:
    """kernels.mancala.play: sow ``lane`` into ``out`` (turned round unless EXTRA_TURN)."""
    cdef uint64_t mover = s.mover, other = s.other
    cdef int64_t m = pits_of(mover)
    cdef int64_t before = store_difference(s)
    cdef uint64_t shift = 8 * lane
    cdef uint64_t stones = (mover >> shift) & 0xFF
    cdef uint64_t laps, facing, mask, last_shift, facing_shift
    cdef uint64_t store_shift = 8 * m
    cdef int64_t rest, last, gain, info = 0
    mover -= stones << shift
    laps = LAPS[m][stones]
    rest = REST[m][stones]
    mover += laps * CYCLE_ONES[m] + OWN_ADD[m][lane][rest]
    other += laps * PIT_ONES[m] + OPP_ADD[m][lane][rest]
    last = LAST[m][lane][rest]
    if last == m:
        info = EXTRA_TURN
    elif last < m:
        last_shift = 8 * last
        if ((mover >> last_shift) & 0xFF) == 1:  # the last stone fell into an empty own pit
            facing_shift = 8 * (m - 1 - last)
            facing = (other >> facing_shift) & 0xFF
            if facing != 0 or (mover & CAPTURE_EMPTY) != 0:
                mover -= (<uint64_t>1) << last_shift
                other -= facing << facing_shift
                mover += (facing + 1) << store_shift
                info = CAPTURE
    mask = PIT_MASK[m]
    if (mover & mask) == 0 or (other & mask) == 0:
        mover += (<uint64_t>lane_sum(mover & mask)) << store_shift
        other += (<uint64_t>lane_sum(other & mask)) << store_shift
        mover &= ~mask
        other &= ~mask
        info |= GAME_OVER
    gain = (<int64_t>((mover >> store_shift) & 0xFF) - <int64_t>((other >> store_shift) & 0xFF)
            - before)
    info |= (gain + GAIN_BIAS) << GAIN_SHIFT
    if info & EXTRA_TURN:
        out.mover, out.other = mover, other
    else:
        out.mover, out.other = other, mover
    return info


cdef int64_t expand(State s, int64_t* row) noexcept nogil:
    """kernels.mancala.expand: every legal move into ``row`` (kernels/contract.py layout)."""
    cdef int64_t m = pits_of(s.mover), count = 0, lane, info, stones
    cdef uint64_t mask = PIT_MASK[m]
    cdef bint hinted = (s.mover & CAPTURE_EMPTY) != 0
    cdef State child
    if (s.mover & mask) == 0 or (s.other & mask) == 0:
        return 0
    for lane in range(m):
        stones = <int64_t>((s.mover >> (8 * lane)) & 0xFF)
        if stones:
            info = play(s, lane, &child)
            if hinted:  # kernels.mancala.expand's order hint
                info |= (HINT_MASK - (stones if stones < HINT_MASK else HINT_MASK)) << HINT_SHIFT
            row[MOVE + count] = lane
            row[INFO + count] = info
            row[CHILD0 + count] = <int64_t>child.mover
            row[CHILD1 + count] = <int64_t>child.other
            count += 1
    return count


# --- the endgame-table probe: tables/probe.py's, with tables/rank.py's rank ------------------

# tables/index.py's arrays (HALF_SIZE, LEVEL_SIZE, BAR_RANK, BLOCK, PIT_LANES), copied the first
# time a search is given tables (building them costs a few milliseconds a plain search need not
# pay).
cdef int64_t HALF_SIZE[MAX_PITS + 1][MAX_LEVEL + 1]
cdef int64_t LEVEL_SIZE[MAX_PITS + 1][MAX_LEVEL + 1]
cdef int64_t BAR_RANK[MAX_PITS - 1][BAR_LANES]
cdef int64_t BLOCK[MAX_PITS + 1][MAX_LEVEL + 1][MAX_LEVEL + 2]
cdef uint64_t PIT_LANES[MAX_PITS + 1]
cdef bint _rank_arrays_copied = False


cdef int copy_rank_arrays() except -1:
    global _rank_arrays_copied
    if _rank_arrays_copied:
        return 0
    from tables import index
    _check_shapes(index, {"HALF_SIZE": (MAX_PITS + 1, MAX_LEVEL + 1),
                          "LEVEL_SIZE": (MAX_PITS + 1, MAX_LEVEL + 1),
                          "BAR_RANK": (MAX_PITS - 1, BAR_LANES),
                          "BLOCK": (MAX_PITS + 1, MAX_LEVEL + 1, MAX_LEVEL + 2),
                          "PIT_LANES": (MAX_PITS + 1,)})
    cdef int m, n, t, i
    for m in range(MAX_PITS + 1):
        PIT_LANES[m] = int(index.PIT_LANES[m])
        for n in range(MAX_LEVEL + 1):
            HALF_SIZE[m][n] = int(index.HALF_SIZE[m, n])
            LEVEL_SIZE[m][n] = int(index.LEVEL_SIZE[m, n])
            for t in range(MAX_LEVEL + 2):
                BLOCK[m][n][t] = int(index.BLOCK[m, n, t])
    for i in range(MAX_PITS - 1):
        for t in range(BAR_LANES):
            BAR_RANK[i][t] = int(index.BAR_RANK[i, t])
    _rank_arrays_copied = True
    return 0


cdef inline int64_t rank_half(uint64_t pits, int64_t m) noexcept nogil:
    """tables.rank.rank_half: the rank of one side's m pit lanes."""
    cdef uint64_t prefix = pits * (<uint64_t>0x0000010101010101)  # lane i: x0 + ... + xi
    cdef int64_t rank = 0, i
    for i in range(m - 1):
        rank += BAR_RANK[i][(prefix >> (8 * i)) & 0xFF]
    return rank


cdef inline int64_t probe(Context* c, State s) noexcept nogil:
    """tables.probe.probe: V of ``s`` from the tables, or NO_ENTRY."""
    cdef int64_t m = pits_of(s.mover), level, begin, mover_stones
    cdef uint64_t mover, other
    if m != c.offsets[0] or m < 1:
        return NO_ENTRY
    mover = s.mover & PIT_LANES[m]
    other = s.other & PIT_LANES[m]
    mover_stones = lane_sum(mover)
    level = mover_stones + lane_sum(other)
    if level == 0:
        return 0
    if level > MAX_LEVEL or level > c.offsets[1] or level + 1 >= ROW_WIDTH - TABLE_OFFSETS:
        return NO_ENTRY
    begin = c.offsets[level + 1]
    if begin < 0 or begin + LEVEL_SIZE[m][level] > c.tables_size:
        return NO_ENTRY
    return c.tables[begin + BLOCK[m][level][mover_stones]
                    + rank_half(mover, m) * HALF_SIZE[m][level - mover_stones]
                    + rank_half(other, m)]


# --- the transposition table: kernels/alphabeta.py's functions ---------------------------------

ctypedef struct Context:
    uint64_t* tt            # tt[4 * entry + word], entries a power of two
    uint64_t bucket_mask    # entries - 2
    int64_t* work           # work[ROW_WIDTH * ply + column]
    int64_t* stats          # row MAX_PLY from STATS
    int64_t* history        # row MAX_PLY from HISTORY
    uint64_t mask0          # key_mask of the root
    uint64_t mask1
    const signed char* tables   # the endgame tables' int8 data (NULL: none)
    int64_t tables_size
    int64_t* offsets        # row MAX_PLY from TABLE_OFFSETS: [m, L, level starts...]
    bint shared             # other threads search the same table (stats OPTIONS SHARED_TABLE)
    uint64_t* busy          # shared: the positions threads are searching now (NULL: none)
    uint64_t busy_mask      # its length - 1


cdef inline uint64_t mix(uint64_t word0, uint64_t word1) noexcept nogil:
    cdef uint64_t x = word0 * MIX_A
    x ^= (word1 ^ (x >> 29)) * MIX_B
    x ^= x >> 32
    x *= MIX_C
    return x ^ (x >> 29)


cdef inline uint64_t check_word(uint64_t word0, uint64_t word1, uint64_t data) noexcept nogil:
    """An entry's fourth word in a table threads share: it matches the other three only if
    one store wrote all four, so a reader never takes one position's key with another's data."""
    return mix(word0 ^ data, word1 ^ ((data << 32) | (data >> 32)))


cdef inline int64_t priority(uint64_t data) noexcept nogil:
    return <int64_t>(((data >> DEPTH_SHIFT) & 0xFF) * 256 + ((data >> WORK_SHIFT) & 0xFF))


cdef inline int64_t bucket_of(Context* c, uint64_t word0, uint64_t word1) noexcept nogil:
    return <int64_t>(mix(word0, word1) & c.bucket_mask)


cdef inline int64_t tt_find(Context* c, int64_t bucket, uint64_t word0, uint64_t word1,
                            uint64_t* data) noexcept nogil:
    """The slot holding this key, its data word read once into ``data``; -1 if none. In a
    shared table an entry whose check word disagrees (another thread was writing it) is none."""
    cdef int64_t slot
    cdef uint64_t* entry
    cdef uint64_t found
    for slot in range(bucket, bucket + 2):
        entry = c.tt + 4 * slot
        if load_word(entry) == word0 and load_word(entry + 1) == word1:
            found = load_word(entry + 2)
            if not found & IN_USE:
                continue
            if c.shared and load_word(entry + 3) != check_word(word0, word1, found):
                continue
            data[0] = found
            return slot
    return -1


cdef void tt_store(Context* c, int64_t bucket, uint64_t word0, uint64_t word1, int64_t lower,
                   int64_t upper, int64_t depth, int64_t move, int64_t work,
                   bint heuristic) noexcept nogil:
    """kernels.alphabeta.tt_store: the same merge of bounds and the same replacement."""
    cdef uint64_t flag = HEURISTIC if heuristic else 0
    cdef uint64_t old = 0, lower_field, upper_field, data
    cdef uint64_t* entry
    cdef int64_t slot, s, old_depth, old_lower, old_upper
    slot = tt_find(c, bucket, word0, word1, &old)
    if slot >= 0:
        old_depth = <int64_t>((old >> DEPTH_SHIFT) & 0xFF)
        if old_depth > depth:
            return  # a deeper search's bounds are worth more
        if old_depth == depth:  # same search horizon: the bounds combine
            old_lower = <int64_t>(old & 0xFFFF) - BOUND_BIAS
            old_upper = <int64_t>((old >> UPPER_SHIFT) & 0xFFFF) - BOUND_BIAS
            if old_lower != NO_LOWER - BOUND_BIAS and old_lower > lower:
                lower = old_lower
            if old_upper != NO_UPPER - BOUND_BIAS and old_upper < upper:
                upper = old_upper
            if move < 0:
                move = <int64_t>((old >> MOVE_SHIFT) & 0xFF) - 1
            flag |= old & HEURISTIC  # combined bounds are proven only if both were
    else:
        slot = bucket
        for s in range(bucket, bucket + 2):
            if not load_word(c.tt + 4 * s + 2) & IN_USE:
                slot = s
                break
            if priority(load_word(c.tt + 4 * s + 2)) < priority(load_word(c.tt + 4 * slot + 2)):
                slot = s
    lower_field = NO_LOWER if lower <= -INFINITE else <uint64_t>(lower + BOUND_BIAS)
    upper_field = NO_UPPER if upper >= INFINITE else <uint64_t>(upper + BOUND_BIAS)
    data = (IN_USE | flag | lower_field | (upper_field << UPPER_SHIFT)
            | ((<uint64_t>depth) << DEPTH_SHIFT) | ((<uint64_t>(move + 1)) << MOVE_SHIFT)
            | ((<uint64_t>(work if work < 255 else 255)) << WORK_SHIFT))
    entry = c.tt + 4 * slot
    store_word(entry, word0)
    store_word(entry + 1, word1)
    store_word(entry + 2, data)
    if c.shared:
        store_word(entry + 3, check_word(word0, word1, data))


cdef inline int64_t log2_floor(int64_t n) noexcept nogil:
    cdef int64_t bits = 0
    while n > 1:
        n >>= 1
        bits += 1
    return bits


cdef void sort_moves(int64_t* row, int64_t count) noexcept nogil:
    """Insertion sort of one ply's moves by descending order key, moving every block."""
    cdef int64_t i, j, k, block, order, held
    for i in range(1, count):
        order = row[ORDER + i]
        j = i
        while j > 0 and row[ORDER + j - 1] < order:
            j -= 1
        if j == i:
            continue
        block = MOVE
        while block < ROW_WIDTH:    # every block: MOVE, ORDER, INFO, CHILD0, CHILD1, BUCKET
            # Swaps, not a shift: a compiler turns a shift loop into a call to memmove, which
            # costs more than the few steps a row of at most MAX_MOVES needs (3.8 % of a
            # table-backed solve's time was spent in it).
            for k in range(i, j, -1):
                held = row[block + k]
                row[block + k] = row[block + k - 1]
                row[block + k - 1] = held
            block += MAX_MOVES


cdef inline uint64_t* busy_word(Context* c, uint64_t tag) noexcept nogil:
    """The word of the shared busy array where a node's ``tag`` is marked."""
    return c.busy + ((tag >> 40) & c.busy_mask)


cdef inline bint is_busy(Context* c, int64_t* row, int64_t i) noexcept nogil:
    """Is another thread searching child ``i`` of this row now?"""
    cdef uint64_t tag = mix((<uint64_t>row[CHILD0 + i]) & c.mask0,
                            (<uint64_t>row[CHILD1 + i]) & c.mask1) | 1
    return load_word(busy_word(c, tag)) == tag


cdef inline void unmark(Context* c, uint64_t tag) noexcept nogil:
    """This thread has left the node ``tag`` marked busy (0: none was marked)."""
    if tag and load_word(busy_word(c, tag)) == tag:
        store_word(busy_word(c, tag), 0)


cdef inline void reward_history(Context* c, int64_t move, int64_t bonus) noexcept nogil:
    cdef int64_t m
    c.history[move] += bonus
    if c.history[move] >= HISTORY_LIMIT:
        for m in range(MAX_MOVES):
            c.history[m] >>= 1


cdef int64_t etc_cutoff(Context* c, int64_t* row, int64_t count, int64_t depth, int64_t beta,
                        int64_t* guessed) noexcept nogil:
    """kernels.alphabeta._etc_cutoff: the value of the first child whose stored bound proves
    the parent >= beta, ``guessed`` 1 if that entry is heuristic; -INFINITY if none does."""
    cdef int64_t child_depth = depth if depth == EXACT else depth - 1
    cdef int64_t i, bucket, slot, fixed, swing, field, value
    cdef uint64_t data
    cdef State child
    guessed[0] = 0
    for i in range(count):
        bucket = row[BUCKET + i]
        if bucket < 0:  # a finished game, or no table
            continue
        child.mover = <uint64_t>row[CHILD0 + i]
        child.other = <uint64_t>row[CHILD1 + i]
        slot = tt_find(c, bucket, child.mover & c.mask0, child.other & c.mask1, &data)
        if slot < 0:
            continue
        if <int64_t>((data >> DEPTH_SHIFT) & 0xFF) < child_depth:
            continue
        fixed = bounds(child, &swing)
        if row[INFO + i] & EXTRA_TURN:
            field = <int64_t>(data & 0xFFFF)
            if field == NO_LOWER:
                continue
            value = field - BOUND_BIAS + fixed
        else:
            field = <int64_t>((data >> UPPER_SHIFT) & 0xFFFF)
            if field == NO_UPPER:
                continue
            value = -(field - BOUND_BIAS + fixed)
        if value >= beta:
            guessed[0] = 1 if data & HEURISTIC else 0
            return value
    return -INFINITE


cdef int64_t floor_cutoff(int64_t* row, int64_t count, int64_t beta) noexcept nogil:
    """kernels.alphabeta._floor_cutoff: the best of the children's guaranteed values (each one's
    bounds, from this node's side), if it reaches ``beta``; -INFINITY if it does not."""
    cdef int64_t i, fixed, swing, value, floor = -INFINITE
    cdef State child
    for i in range(count):
        child.mover = <uint64_t>row[CHILD0 + i]
        child.other = <uint64_t>row[CHILD1 + i]
        fixed = bounds(child, &swing)
        value = fixed - swing if row[INFO + i] & EXTRA_TURN else -(fixed + swing)
        if value > floor:
            floor = value
    return floor if floor >= beta else -INFINITE


cdef int64_t peek_cutoff(Context* c, int64_t* row, int64_t count, int64_t beta) noexcept nogil:
    """kernels.alphabeta._peek_cutoff: the tables' value of the first child that proves the
    parent >= beta (a finished game is the floor's); -INFINITY if none does."""
    cdef int64_t i, info, value, fixed, swing
    cdef State child
    for i in range(count):
        info = row[INFO + i]
        if info & GAME_OVER:
            continue
        child.mover = <uint64_t>row[CHILD0 + i]
        child.other = <uint64_t>row[CHILD1 + i]
        fixed = bounds(child, &swing)
        if swing > c.stats[PROBE_MAX]:
            continue
        value = probe(c, child)
        if value == NO_ENTRY:
            continue
        value += fixed
        if not info & EXTRA_TURN:
            value = -value
        if value >= beta:
            return value
    return -INFINITE


# --- the search: kernels.alphabeta.search, prove, keeps_value, exact_line ----------------------

cdef int64_t negamax(Context* c, State state, int64_t depth, int64_t alpha, int64_t beta,
                    int64_t ply, int64_t bucket) noexcept nogil:
    """kernels.alphabeta.search for Mancala, with tables/probe.py's probe in Step 1."""
    cdef int64_t* stats = c.stats
    cdef int64_t* row
    cdef int64_t heuristic_before, fixed, spread, slot, tt_move, lower_field, upper_field
    cdef int64_t lower, upper, count, i, move, info, order, child_bucket, refuted, guessed
    cdef int64_t original_alpha, best, best_move, next_depth, nodes_before, value, work_done
    cdef int64_t next_child, next_waiting, waiting, gain
    cdef int64_t deferred[MAX_PITS]
    cdef uint64_t tag
    cdef uint64_t word0, word1, data
    cdef bint use_tt, heuristic
    cdef State child
    stats[NODES] += 1
    if stats[NODES] > stats[NODE_LIMIT]:
        stats[ABORTED] = 1
        return 0
    if ply > stats[MAX_PLY_SEEN]:
        stats[MAX_PLY_SEEN] = ply
        if ply >= MAX_PLY - 1:  # deeper than any game we play: give up rather than overflow
            stats[ABORTED] = 1
            return 0
    if ply == 0:
        stats[ROOT_MOVE] = -1
    heuristic_before = stats[HEURISTIC_LEAVES]

    # Step 1. The value range the game guarantees may already decide the window.
    fixed = bounds(state, &spread)
    if fixed - spread >= beta:
        return fixed - spread
    if fixed + spread <= alpha:
        return fixed + spread
    if spread <= stats[PROBE_MAX]:  # endgame tables know the exact value
        value = probe(c, state)
        if value != NO_ENTRY:
            stats[TABLE_HITS] += 1
            return fixed + value

    # Step 2. Transposition table: bounds from a search at least as deep narrow the window.
    word0 = state.mover & c.mask0
    word1 = state.other & c.mask1
    use_tt = spread > TT_MIN_SWING and not stats[OPTIONS] & NO_TABLE
    slot = -1
    if use_tt:
        if bucket < 0:
            bucket = bucket_of(c, word0, word1)
        slot = tt_find(c, bucket, word0, word1, &data)
    tt_move = -1
    if slot >= 0:
        stats[TT_HITS] += 1
        tt_move = <int64_t>((data >> MOVE_SHIFT) & 0xFF) - 1
        if <int64_t>((data >> DEPTH_SHIFT) & 0xFF) >= depth and ply > 0:
            if data & HEURISTIC:  # its bounds are guesses: so is what follows from them
                stats[HEURISTIC_LEAVES] += 1
            lower_field = <int64_t>(data & 0xFFFF)
            upper_field = <int64_t>((data >> UPPER_SHIFT) & 0xFFFF)
            if lower_field != NO_LOWER:
                lower = lower_field - BOUND_BIAS + fixed
                if lower >= beta:
                    return lower
                if lower > alpha:
                    alpha = lower
            if upper_field != NO_UPPER:
                upper = upper_field - BOUND_BIAS + fixed
                if upper <= alpha:
                    return upper
                if upper < beta:
                    beta = upper
    if depth == 0:
        stats[HEURISTIC_LEAVES] += 1
        return store_difference(state)

    # Step 3. Expand, and order the moves: the TT move, then moves that bank at least BIG_GAIN,
    # then moves that keep the turn (nearest the goal first), then by what they bank, then the
    # order hint expand() gave, then history.
    row = c.work + ROW_WIDTH * ply
    count = expand(state, row)
    if count == 0:
        return score(state)
    stats[EXPANDED] += 1
    for i in range(count):
        move = row[MOVE + i]
        info = row[INFO + i]
        if info & EXTRA_TURN:
            order = ((<int64_t>1) << 40) + (move << 32)
        else:
            gain = (info >> GAIN_SHIFT) - GAIN_BIAS
            order = ((gain + 1024) << 24) + (((info >> HINT_SHIFT) & HINT_MASK) << 19)
            if gain >= BIG_GAIN:
                order += (<int64_t>1) << 41
        order += c.history[move]
        if move == tt_move:
            order = (<int64_t>1) << 50
        row[ORDER + i] = order
        row[BUCKET + i] = -1
        if use_tt and not info & GAME_OVER:  # load the child's bucket now
            child_bucket = bucket_of(c, (<uint64_t>row[CHILD0 + i]) & c.mask0,
                                     (<uint64_t>row[CHILD1 + i]) & c.mask1)
            prefetch(c.tt + 4 * child_bucket)
            row[BUCKET + i] = child_bucket
    # Step 3a. The children's floor (not at the root): what some move already guarantees.
    if ply > 0:
        refuted = floor_cutoff(row, count, beta)
        if refuted > -INFINITE:
            return refuted
    # Step 3b. Peek (with endgame tables, a few stones above them, not at the root).
    if ply > 0 and stats[PROBE_MAX] >= 0 and spread <= stats[PROBE_MAX] + PEEK_MARGIN:
        refuted = peek_cutoff(c, row, count, beta)
        if refuted > -INFINITE:
            stats[TABLE_HITS] += 1
            return refuted
    # Step 3c. Enhanced transposition cutoff (not at the root, only where the swing is large).
    if use_tt and ply > 0 and spread > stats[ETC_SWING] and not stats[OPTIONS] & NO_ETC:
        refuted = etc_cutoff(c, row, count, depth, beta, &guessed)
        if refuted > -INFINITE:
            stats[ETC_CUTOFFS] += 1
            stats[HEURISTIC_LEAVES] += guessed  # a guess in, a guess out
            return refuted
    if not stats[OPTIONS] & NO_ORDERING:
        sort_moves(row, count)

    # Step 4. Search the children: a turned-round child's value is negated.
    original_alpha = alpha
    best = -INFINITE
    best_move = -1
    next_depth = depth if depth == EXACT else depth - 1
    nodes_before = stats[NODES]
    # Threads sharing the table say which big subtrees they are in (``busy``); a child another
    # thread is searching waits until this node's other children are done, by when its
    # value is likely in the table (deferred, as ABDADA does; never the first child).
    tag = 0
    if c.busy != NULL and spread > stats[BUSY_SWING]:
        tag = mix(word0, word1) | 1
        store_word(busy_word(c, tag), tag)
    waiting = 0
    next_child = 0
    next_waiting = 0
    while True:
        if next_child < count:
            i = next_child
            next_child += 1
            if tag and i > 0 and not row[INFO + i] & GAME_OVER and is_busy(c, row, i):
                deferred[waiting] = i
                waiting += 1
                continue
        elif next_waiting < waiting:
            i = deferred[next_waiting]
            next_waiting += 1
        else:
            break
        child.mover = <uint64_t>row[CHILD0 + i]
        child.other = <uint64_t>row[CHILD1 + i]
        info = row[INFO + i]
        if info & GAME_OVER:  # a finished game is a node too, valued without a call
            stats[NODES] += 1
            value = score(child) if info & EXTRA_TURN else -score(child)
        elif info & EXTRA_TURN:
            value = negamax(c, child, next_depth, alpha, beta, ply + 1, row[BUCKET + i])
        else:
            value = -negamax(c, child, next_depth, -beta, -alpha, ply + 1, row[BUCKET + i])
        if stats[ABORTED]:
            unmark(c, tag)
            return 0
        if value > best:
            best = value
            best_move = row[MOVE + i]
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    reward_history(c, best_move, 64 if depth == EXACT else depth * depth)
                    break
    unmark(c, tag)

    # Step 5. Store what was learnt, net of the banked part.
    if use_tt:
        work_done = log2_floor(stats[NODES] - nodes_before + 1)
        heuristic = stats[HEURISTIC_LEAVES] != heuristic_before
        if best <= original_alpha:  # every move failed low: no best move to remember
            tt_store(c, bucket, word0, word1, -INFINITE, best - fixed, depth, -1,
                     work_done, heuristic)
        elif best >= beta:
            tt_store(c, bucket, word0, word1, best - fixed, INFINITE, depth, best_move,
                     work_done, heuristic)
        else:
            tt_store(c, bucket, word0, word1, best - fixed, best - fixed, depth, best_move,
                     work_done, heuristic)
    if ply == 0:
        stats[ROOT_MOVE] = best_move
    return best


cdef void prove_value(Context* c, State state, int64_t guess, int64_t* out) noexcept nogil:
    """kernels.alphabeta.prove: MTD(f) from ``guess``; (value, move, lower, upper) to ``out``."""
    cdef int64_t lower = -INFINITE, upper = INFINITE, value = guess, best = NO_MOVE, beta
    cdef int64_t row[EXPANSION_WIDTH]
    while lower < upper:
        beta = value + 1 if value == lower else value
        value = negamax(c, state, EXACT, beta - 1, beta, 0, -1)
        if c.stats[ABORTED]:
            out[0], out[1], out[2], out[3] = 0, ABORTED_MOVE, lower, upper
            return
        if value >= beta:
            lower = value
            best = c.stats[ROOT_MOVE]
        else:
            upper = value
    if best < 0:  # decided without trying a move (bounds or table): ask for one that reaches it
        negamax(c, state, EXACT, value - 1, value, 0, -1)
        best = c.stats[ROOT_MOVE]
        if best < 0:
            if expand(state, row) > 0:  # every move reaches it (the value was forced)
                best = row[MOVE]
    out[0], out[1], out[2], out[3] = value, best, lower, upper


cdef bint keeps_value(Context* c, State child, int64_t info, int64_t value) noexcept nogil:
    """kernels.alphabeta.keeps_value: is the parent's exact ``value`` reached by this child?"""
    cdef int64_t final, target, low, high
    if info & GAME_OVER:
        final = score(child)
        return (final if info & EXTRA_TURN else -final) == value
    target = value if info & EXTRA_TURN else -value
    low = negamax(c, child, EXACT, target - 1, target, 0, -1)
    high = negamax(c, child, EXACT, target, target + 1, 0, -1)
    return low >= target and high <= target


cdef int64_t table_move_of(Context* c, State state) noexcept nogil:
    """kernels.alphabeta._table_move: the best move the table holds for ``state``, or NO_MOVE."""
    cdef uint64_t word0 = state.mover & c.mask0, word1 = state.other & c.mask1
    cdef uint64_t data
    cdef int64_t slot = tt_find(c, bucket_of(c, word0, word1), word0, word1, &data)
    if slot < 0:
        return NO_MOVE
    return <int64_t>((data >> MOVE_SHIFT) & 0xFF) - 1


cdef int64_t fill_line(Context* c, State state, int64_t value, int64_t* line,
                       int64_t limit) noexcept nogil:
    """kernels.alphabeta.exact_line: optimal moves into ``line``; -1 if the node limit hit."""
    cdef int64_t row[EXPANSION_WIDTH]
    cdef int64_t length = 0, count, table_move, start, chosen, attempt, i, info
    cdef State child
    while length < limit:
        count = expand(state, row)
        if count == 0:
            break
        table_move = table_move_of(c, state)
        start = 0
        for i in range(count):
            if row[MOVE + i] == table_move:
                start = i
        chosen = -1
        for attempt in range(count):  # the table's move first, then the others in turn
            i = (start + attempt) % count
            child.mover = <uint64_t>row[CHILD0 + i]
            child.other = <uint64_t>row[CHILD1 + i]
            if keeps_value(c, child, row[INFO + i], value):
                chosen = i
                break
            if c.stats[ABORTED]:
                return -1
        if chosen < 0:  # impossible for a proven value; stop rather than report a wrong line
            break
        line[length] = row[MOVE + chosen]
        length += 1
        info = row[INFO + chosen]
        state.mover = <uint64_t>row[CHILD0 + chosen]
        state.other = <uint64_t>row[CHILD1 + chosen]
        if not info & EXTRA_TURN:
            value = -value
        if info & GAME_OVER:
            break
    return length


# --- Python entry points: the signatures of kernels.alphabeta's, less the game functions -------

cdef int load_state(object state, State* out) except -1:
    out.mover = state[0]
    out.other = state[1]
    if not 1 <= pits_of(out.mover) <= MAX_PITS:
        raise ValueError(f"not a packed Mancala state: {pits_of(out.mover)} pits per side")
    return 0


cdef int load_table(Context* c, uint64_t[:, ::1] tt) except -1:
    cdef Py_ssize_t entries = tt.shape[0]
    if tt.shape[1] != 4 or entries < 2 or entries & (entries - 1):
        raise ValueError(f"a transposition table is uint64[n, 4], n a power of two >= 2; "
                         f"got shape {(tt.shape[0], tt.shape[1])}")
    c.tt = &tt[0, 0]
    c.bucket_mask = <uint64_t>(entries - 2)
    return 0


cdef int load_context(Context* c, uint64_t mask0, uint64_t mask1, uint64_t[:, ::1] tt,
                      int64_t[:, ::1] work, const signed char[::1] tables) except -1:
    load_table(c, tt)
    if work.shape[0] != MAX_PLY + 1 or work.shape[1] != ROW_WIDTH:
        raise ValueError(f"a workspace has shape {(MAX_PLY + 1, ROW_WIDTH)}; got "
                         f"{(work.shape[0], work.shape[1])}")
    c.work = &work[0, 0]
    c.stats = c.work + ROW_WIDTH * MAX_PLY + STATS
    c.history = c.work + ROW_WIDTH * MAX_PLY + HISTORY
    c.mask0, c.mask1 = mask0, mask1
    c.shared = (c.stats[OPTIONS] & SHARED_TABLE) != 0
    c.busy, c.busy_mask = NULL, 0
    c.offsets = c.work + ROW_WIDTH * MAX_PLY + TABLE_OFFSETS
    c.tables, c.tables_size = NULL, 0
    if c.stats[PROBE_MAX] >= 0:
        if tables is None or tables.shape[0] == 0:
            raise ValueError("stats PROBE_MAX >= 0 asks for endgame tables: none were given")
        copy_rank_arrays()
        c.tables, c.tables_size = &tables[0], tables.shape[0]
    return 0


def search(state, int64_t depth, int64_t alpha, int64_t beta, int64_t ply, int64_t bucket,
           uint64_t mask0, uint64_t mask1, uint64_t[:, ::1] tt, int64_t[:, ::1] work,
           const signed char[::1] tables=None, uint64_t[::1] busy=None):
    """kernels.alphabeta.search(state, depth, alpha, beta, ply, bucket, <Mancala's functions,
    probe>, mask0, mask1, tt, work, tables): the fail-soft negamax value. ``tables``: the
    endgame tables' data (probed where stats PROBE_MAX >= 0; None: none). ``busy``: with
    stats OPTIONS SHARED_TABLE, an array (a power-of-two length) the threads searching the
    table share, to mark the big subtrees they are in (None: no marks)."""
    cdef Context c
    cdef State s
    cdef int64_t value
    load_state(state, &s)
    load_context(&c, mask0, mask1, tt, work, tables)
    if busy is not None and c.shared:
        if busy.shape[0] < 1 or busy.shape[0] & (busy.shape[0] - 1):
            raise ValueError("a busy array's length is a power of two")
        c.busy, c.busy_mask = &busy[0], <uint64_t>(busy.shape[0] - 1)
    if not 0 <= depth <= EXACT or not 0 <= ply < MAX_PLY:
        raise ValueError(f"depth must be 0..{EXACT} and ply 0..{MAX_PLY - 1}")
    if bucket >= 0 and (bucket & 1 or bucket >= tt.shape[0]):
        raise ValueError(f"bucket {bucket} is not a bucket of the table")
    with nogil:
        value = negamax(&c, s, depth, alpha, beta, ply, bucket)
    return value


def prove(state, int64_t guess, uint64_t mask0, uint64_t mask1, uint64_t[:, ::1] tt,
          int64_t[:, ::1] work, const signed char[::1] tables=None):
    """kernels.alphabeta.prove for Mancala: (value, move, lower, upper); (0, ABORTED_MOVE,
    lower, upper) when the node limit stopped it."""
    cdef Context c
    cdef State s
    cdef int64_t out[4]
    load_state(state, &s)
    load_context(&c, mask0, mask1, tt, work, tables)
    with nogil:
        prove_value(&c, s, guess, out)
    return out[0], out[1], out[2], out[3]


def exact_line(state, int64_t value, int64_t[::1] line, uint64_t mask0, uint64_t mask1,
               uint64_t[:, ::1] tt, int64_t[:, ::1] work, const signed char[::1] tables=None):
    """kernels.alphabeta.exact_line for Mancala: the length of the line written (-1: the node
    limit stopped it)."""
    cdef Context c
    cdef State s
    cdef int64_t length
    load_state(state, &s)
    load_context(&c, mask0, mask1, tt, work, tables)
    if line.shape[0] == 0:
        return 0
    with nogil:
        length = fill_line(&c, s, value, &line[0], line.shape[0])
    return length


def table_move(state, uint64_t mask0, uint64_t mask1, uint64_t[:, ::1] tt):
    """kernels.alphabeta._table_move: the move the table holds for ``state``, or NO_MOVE."""
    cdef Context c
    cdef State s
    load_state(state, &s)
    load_table(&c, tt)
    c.mask0, c.mask1, c.shared = mask0, mask1, False
    return table_move_of(&c, s)


def grow_table(uint64_t[:, ::1] tt, Py_ssize_t entries):
    """kernels.alphabeta.grow_table."""
    cdef uint64_t mask = <uint64_t>(2 * entries - 2)
    cdef Py_ssize_t slot, bucket, to, word, moved = 0
    if tt.shape[1] != 4 or entries < 2 or entries & (entries - 1) or 2 * entries > tt.shape[0]:
        raise ValueError(f"cannot grow {entries:,} entries of a table of shape "
                         f"{(tt.shape[0], tt.shape[1])}")
    with nogil:
        for slot in range(entries):
            if tt[slot, 2] & IN_USE:
                bucket = <Py_ssize_t>(mix(tt[slot, 0], tt[slot, 1]) & mask)
                if bucket >= entries:
                    to = bucket + 1 if tt[bucket, 2] & IN_USE else bucket
                    for word in range(4):
                        tt[to, word] = tt[slot, word]
                        tt[slot, word] = 0
                    moved += 1
    return moved


# --- the game functions, for the driver (kernels.mancala's, same arguments and results) --------

def game_expand(state, int64_t[::1] row):
    """kernels.mancala.expand."""
    cdef State s
    load_state(state, &s)
    if row.shape[0] < EXPANSION_WIDTH:
        raise ValueError(f"an expansion row holds {EXPANSION_WIDTH} words")
    return expand(s, &row[0])


def game_bounds(state):
    """kernels.mancala.bounds: (banked, swing)."""
    cdef State s
    cdef int64_t swing, fixed
    load_state(state, &s)
    fixed = bounds(s, &swing)
    return fixed, swing


def game_store_difference(state):
    """kernels.mancala.store_difference (the heuristic evaluation)."""
    cdef State s
    load_state(state, &s)
    return store_difference(s)


def game_score(state):
    """kernels.mancala.score."""
    cdef State s
    load_state(state, &s)
    return score(s)


def game_key_mask(state):
    """kernels.mancala.key_mask."""
    cdef State s
    load_state(state, &s)
    return key_mask(s.mover), key_mask(s.mover)


def game_play(state, int64_t lane):
    """kernels.mancala.play: ((mover, other), info)."""
    cdef State s, child
    cdef int64_t info
    load_state(state, &s)
    if not 0 <= lane < pits_of(s.mover):
        raise ValueError(f"lane {lane} is not a pit of the mover")
    info = play(s, lane, &child)
    return (child.mover, child.other), info


def game_legal_moves(state, int64_t[::1] out):
    """kernels.mancala.legal_moves: the mover's non-empty pit lanes into ``out``; how many."""
    cdef State s
    cdef int64_t m, lane, n = 0
    cdef uint64_t mask
    load_state(state, &s)
    m = pits_of(s.mover)
    if out.shape[0] < m:
        raise ValueError(f"legal_moves needs room for {m} moves")
    mask = PIT_MASK[m]
    if (s.mover & mask) == 0 or (s.other & mask) == 0:
        return 0
    for lane in range(m):
        if (s.mover >> (8 * lane)) & 0xFF:
            out[n] = lane
            n += 1
    return n


def game_no_probe(state, data, offsets):
    """kernels.alphabeta.no_probe: the tables hold nothing."""
    return NO_ENTRY


def game_probe(state, const signed char[::1] data, int64_t[::1] offsets):
    """tables.probe.probe: V of ``state`` from the tables (``data`` and ``offsets`` in its
    layout), or NO_ENTRY."""
    cdef Context c
    cdef State s
    cdef int64_t room[ROW_WIDTH - TABLE_OFFSETS]
    cdef Py_ssize_t i
    load_state(state, &s)
    if offsets.shape[0] < 2 or data.shape[0] == 0:
        return NO_ENTRY
    copy_rank_arrays()
    for i in range(ROW_WIDTH - TABLE_OFFSETS):   # a level past the array's end: not held
        room[i] = offsets[i] if i < offsets.shape[0] else -1
    c.offsets, c.tables, c.tables_size = room, &data[0], data.shape[0]
    return probe(&c, s)

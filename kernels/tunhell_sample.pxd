# cython: language_level=3
"""Typed interface of the Tunhell determinizer (``kernels/tunhell_sample.pyx``): full GameStates
drawn uniformly among those consistent with what one seat knows, for search modules::

    from kernels.tunhell_sample cimport Sampler, build_sampler, determinize
    cdef Sampler* sampler = <Sampler*> malloc(sizeof(Sampler))   # about 40 kB: not on a stack
    if build_sampler(sampler, &root, viewer) != 0: ...           # root: any consistent state
    determinize(sampler, &state, &rng)                           # nogil, no allocation

It is the reference sampler (``solver.games.tunhell.sample_state``) in C, with the same
distribution: uniform over the physical deals of the unseen cards into the unknown places
(unseen hand cards of the other seats, the Dwarf pile below its face-up top until the first
reshuffle, unknown mine positions, the box), hands obeying their ``hand_never`` kinds, End of
Mine cards only under the piles; after a reshuffle the pile's contents are public and only their
order is drawn; the chance word is fresh. A Sampler is read-only once built, so any number of
threads may determinize from one Sampler, each with its own ``rng`` word.

Unconstrained places take a uniform shuffle of the cards. Seats whose ``hand_never`` excludes
kinds of the pool ("constrained", at most 3) get their multisets first, kind by kind, from a
table of completion weights (``ways``) built once per Sampler; the rest is shuffled into the
free places (see ``tunhell_sample.pyx``).

Layout of a Sampler (sizes in the enum below)::

    base                 GameState   the information set, held as one consistent state; every
                                     sample starts as a copy of it
    viewer               int8        the seat whose knowledge is kept
    dwarf_pool[44]       uint8       the Dwarf cards whose place the viewer does not know, id order
    dwarf_pool_size      uint8
    kinds, kind[13], copies[13]      the pool's distinct kinds, in id order, and their copies
    suffix[14]           uint8       copies of kinds i.. (suffix[kinds] = 0)
    free_seats[4], free_seat_count   other seats whose hidden cards take any kind of the pool
    pile_dealt           uint8       1: the pile below its top is dealt from the pool (no
                                     reshuffle yet); 0: its cards are known, only shuffled
    constrained[3], constrained_count, room[3], allowed[3]
                                     seats with excluded kinds: their hidden counts and the kinds
                                     (bit k) they may hold
    stride[4]            int32       mixed radix of the remaining room of the constrained seats:
                                     cell r = sum_j left_j * stride[j], stride[j+1] =
                                     stride[j] * (room[j] + 1); full = sum_j room[j] * stride[j]
    ways[14 * 343]       double      ways[i * DEAL_CELLS + r]: weighted count of the ways to deal
                                     kinds i.. with room r left (module docstring of the .pyx)
    mine_pool[64], mine_pool_size    unknown Mine-deck cards: unknown mine places and the box
    end_pool[4], end_pool_size       unknown End of Mine cards (full game)
    mine_places[72], mine_place_count   unknown places for Mine-deck cards: mine * 24 + position
    end_places[3], end_place_count      unknown places for End cards (a full-game pile's bottom)
"""
from libc.stdint cimport int8_t, int32_t, uint8_t, uint32_t, uint64_t
from kernels.tunhell cimport GameState, MAX_PLAYERS, MINES, PILE_CAPACITY, splitmix64

cdef enum:
    MAX_CONSTRAINED = 3     # every seat but the viewer
    DWARF_KINDS = 13        # kinds 0..12 are the Dwarf deck (warrior-1 .. dynamiter)
    DEAL_CELLS = 343        # (HAND_LIMIT + 1) ** MAX_CONSTRAINED
    MINE_POOL_CAPACITY = 64
    END_POOL_CAPACITY = 4
    MINE_PLACE_CAPACITY = 72    # MINES * MINE_CAPACITY

cdef struct Sampler:
    GameState base
    int8_t viewer
    uint8_t dwarf_pool[PILE_CAPACITY]
    uint8_t dwarf_pool_size
    uint8_t kinds
    uint8_t kind[DWARF_KINDS]
    uint8_t copies[DWARF_KINDS]
    uint8_t suffix[DWARF_KINDS + 1]
    uint8_t free_seats[MAX_PLAYERS]
    uint8_t free_seat_count
    uint8_t pile_dealt
    uint8_t constrained[MAX_CONSTRAINED]
    uint8_t constrained_count
    uint8_t room[MAX_CONSTRAINED]
    uint32_t allowed[MAX_CONSTRAINED]
    int32_t stride[MAX_CONSTRAINED + 1]
    double ways[(DWARF_KINDS + 1) * DEAL_CELLS]
    uint8_t mine_pool[MINE_POOL_CAPACITY]
    uint8_t mine_pool_size
    uint8_t end_pool[END_POOL_CAPACITY]
    uint8_t end_pool_size
    uint8_t mine_places[MINE_PLACE_CAPACITY]
    uint8_t mine_place_count
    uint8_t end_places[MINES]
    uint8_t end_place_count

cdef enum:    # build_sampler's answers
    SAMPLER_OK = 0
    SAMPLER_NO_DEAL = 1         # no deal fits the hands' excluded kinds (an impossible view)
    SAMPLER_BAD_POOL = 2        # unknown places and unseen cards do not match

cdef int build_sampler(Sampler* out, const GameState* s, int viewer) noexcept nogil
    # The Sampler of seat ``viewer``'s information set in state ``s``; SAMPLER_OK or a reason.
cdef void determinize(const Sampler* sampler, GameState* out, uint64_t* rng) noexcept nogil
    # A state drawn uniformly among those consistent with the Sampler's information set.


# --- the Python wrapper: a Cython module handed one reaches its Sampler as ``.sampler`` ----------

cdef class StateSampler:
    cdef Sampler* sampler


cdef inline double unit_random(uint64_t* rng) noexcept nogil:
    # A double in [0, 1) from the top 53 bits of a splitmix64 output (kernels._random.unit).
    return (splitmix64(rng) >> 11) * (1.0 / 9007199254740992.0)

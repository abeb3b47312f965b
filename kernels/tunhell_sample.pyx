# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Tunhell determinization in C: the reference's ``sample_state`` on the engine's GameState.

Interface, Sampler layout and guarantees: ``kernels/tunhell_sample.pxd``. How a deal is drawn:

Dwarf cards. The unknown places are the other seats' unseen hand cards and, before the first
reshuffle, the pile below its face-up top; the pool is the cards the truth holds there (the same
multiset in every state of the information set). A uniform physical deal putting n[g][k] copies
of kind k into group g has a probability proportional to prod_{g,k} 1 / n[g][k]! (the count of
physical deals behind a count table, as in the reference's ``_deal_by_counts``). Places that take
any kind form one "free" group; each constrained seat is a group of its own. The constrained
seats' counts are drawn kind by kind, choosing a split (t_1..t_J to the seats, the rest to the
free group) with weight prod 1/t_j! * 1/rest! * ways[next kind][room left], where ``ways`` is the
sum of those weights over every completion (built once, from the last kind back). Given those
counts every arrangement of the remaining cards into the free places is equally likely, so they
are shuffled in.

Mine cards. Unknown positions of the three piles (a full-game pile's bottom takes End of Mine
cards only) get a uniform arrangement of the unknown Mine cards, drawn with a partial
Fisher-Yates shuffle of the pool; what is left over is the box.
"""
from libc.stdint cimport int8_t, int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from kernels.tunhell cimport (
    BACK_DOOR, DYNAMITER, KINDS, MAX_PLAYERS, MINE_CAPACITY, MINES, PILE_CAPACITY, CardSet,
    GameState, Seat, TunhellEngine, random_below, splitmix64)

cdef double INV_FACTORIAL[PILE_CAPACITY + 1]


cdef void _load_factorials():
    cdef int n
    INV_FACTORIAL[0] = 1.0
    for n in range(1, PILE_CAPACITY + 1):
        INV_FACTORIAL[n] = INV_FACTORIAL[n - 1] / n


_load_factorials()


# --- small helpers -------------------------------------------------------------------------------

cdef inline bint is_dwarf_card(int kind) noexcept nogil:
    return kind <= DYNAMITER            # kinds 0..12: the card table's Dwarf deck


cdef inline bint is_end_card(int kind) noexcept nogil:
    return kind >= BACK_DOOR            # kinds 28..31: the End of Mine cards


cdef inline void add_card(CardSet* cards, int kind) noexcept nogil:
    cards.count[kind] += 1
    cards.kinds |= (<uint32_t>1) << kind
    cards.size += 1


cdef inline int hidden_cards(const GameState* s, int seat) noexcept nogil:
    return s.seats[seat].hand.size - s.seats[seat].hand_seen.size


cdef void shuffle_cards(uint8_t* cards, int n, uint64_t* rng) noexcept nogil:
    """Fisher-Yates with the search's draws (not the game's chance stream)."""
    cdef int i, j
    cdef uint8_t card
    for i in range(n - 1, 0, -1):
        j = random_below(rng, i + 1)
        card = cards[i]
        cards[i] = cards[j]
        cards[j] = card


# --- building a Sampler --------------------------------------------------------------------------

cdef int build_sampler(Sampler* out, const GameState* s, int viewer) noexcept nogil:
    memset(out, 0, sizeof(Sampler))
    out.base = s[0]
    out.viewer = viewer
    if not gather_dwarf_pool(out, s, viewer):
        return SAMPLER_BAD_POOL
    plan_hands(out, s, viewer)
    if out.constrained_count and not fill_ways(out):
        return SAMPLER_NO_DEAL
    if not gather_mine_pool(out, s, viewer):
        return SAMPLER_BAD_POOL
    return SAMPLER_OK


cdef bint gather_dwarf_pool(Sampler* out, const GameState* s, int viewer) noexcept nogil:
    """The Dwarf cards in unknown places, in id order, and their distinct kinds. False if an
    unseen hand card is not a Dwarf card (no dealt card is anything else)."""
    cdef int counts[KINDS]
    cdef int seat, kind, i, copy, n = 0
    cdef const Seat* other
    memset(counts, 0, sizeof(counts))
    for seat in range(s.players):
        if seat != viewer:
            other = &s.seats[seat]
            for kind in range(KINDS):
                counts[kind] += other.hand.count[kind] - other.hand_seen.count[kind]
    if s.shuffles == 0:
        for i in range(s.pile.size - 1):
            counts[s.pile.cards[i]] += 1
    for kind in range(KINDS):
        if counts[kind] and not is_dwarf_card(kind):
            return False
    for kind in range(DWARF_KINDS):
        if counts[kind]:
            out.kind[out.kinds] = kind
            out.copies[out.kinds] = counts[kind]
            out.kinds += 1
            for copy in range(counts[kind]):
                out.dwarf_pool[n] = kind
                n += 1
    out.dwarf_pool_size = n
    out.suffix[out.kinds] = 0
    for i in range(out.kinds - 1, -1, -1):
        out.suffix[i] = out.suffix[i + 1] + out.copies[i]
    return True


cdef void plan_hands(Sampler* out, const GameState* s, int viewer) noexcept nogil:
    """Which seats' hidden cards are constrained (their excluded kinds meet the pool), the
    others' are free; the mixed radix of the constrained seats' room."""
    cdef uint32_t pool_kinds = 0
    cdef int i, seat, j
    for i in range(out.kinds):
        pool_kinds |= (<uint32_t>1) << out.kind[i]
    for seat in range(s.players):
        if seat == viewer or hidden_cards(s, seat) == 0:
            continue
        if s.seats[seat].hand_never & pool_kinds:
            j = out.constrained_count
            out.constrained[j] = seat
            out.room[j] = hidden_cards(s, seat)
            out.allowed[j] = pool_kinds & ~s.seats[seat].hand_never
            out.constrained_count += 1
        else:
            out.free_seats[out.free_seat_count] = seat
            out.free_seat_count += 1
    out.pile_dealt = s.shuffles == 0 and s.pile.size > 0
    out.stride[0] = 1
    for j in range(out.constrained_count):
        out.stride[j + 1] = out.stride[j] * (out.room[j] + 1)


cdef inline int full_room(const Sampler* sp) noexcept nogil:
    cdef int j, r = 0
    for j in range(sp.constrained_count):
        r += sp.room[j] * sp.stride[j]
    return r


cdef bint fill_ways(Sampler* sp) noexcept nogil:
    """ways[i][r] for every kind index i (last first) and room r; False if no deal exists."""
    cdef int i, r, cells = sp.stride[sp.constrained_count]
    cdef uint8_t unused[MAX_CONSTRAINED]
    sp.ways[sp.kinds * DEAL_CELLS] = 1.0        # nothing left to deal, no room left: one way
    for i in range(sp.kinds - 1, -1, -1):
        for r in range(cells):
            sp.ways[i * DEAL_CELLS + r] = splits(sp, i, r, -1.0, unused)
    return sp.ways[full_room(sp)] > 0


cdef double splits(const Sampler* sp, int i, int r, double target, uint8_t* chosen
                   ) noexcept nogil:
    """Every way to share the copies of kind i between the constrained seats (t_j each, room r
    allowing) and the free group (the rest, which must fit the free places left), weighted
    prod 1/t_j! * 1/rest! * ways[i + 1][room after]. Returns the total weight; with a target
    >= 0 it stops at the first split where the running total passes the target and leaves that
    split in ``chosen`` (the last split with weight if rounding never passes it)."""
    cdef int J = sp.constrained_count, j, taken, rest, after, left, left_sum = 0, free_room
    cdef int top[MAX_CONSTRAINED]
    cdef int t[MAX_CONSTRAINED]
    cdef int copies = sp.copies[i]
    cdef uint32_t kind_bit = (<uint32_t>1) << sp.kind[i]
    cdef double total = 0.0, weight
    for j in range(J):
        left = (r // sp.stride[j]) % (sp.room[j] + 1)
        left_sum += left
        top[j] = (copies if copies < left else left) if sp.allowed[j] & kind_bit else 0
        t[j] = 0
    free_room = sp.suffix[i] - left_sum
    while True:
        taken = 0
        after = r
        weight = 1.0
        for j in range(J):
            taken += t[j]
            after -= t[j] * sp.stride[j]
            weight *= INV_FACTORIAL[t[j]]
        rest = copies - taken
        if 0 <= rest <= free_room:
            weight *= INV_FACTORIAL[rest] * sp.ways[(i + 1) * DEAL_CELLS + after]
            if weight > 0:
                total += weight
                if target >= 0:
                    for j in range(J):
                        chosen[j] = t[j]
                    if total > target:
                        return total
        j = 0                               # next split: an odometer over t_0..t_{J-1}
        while j < J:
            t[j] += 1
            if t[j] <= top[j]:
                break
            t[j] = 0
            j += 1
        if j == J:
            return total


cdef bint gather_mine_pool(Sampler* out, const GameState* s, int viewer) noexcept nogil:
    """Unknown mine places (the viewer has not seen them) and the unknown cards: those places'
    and the box's. False if a card sits where its deck cannot be (a broken state)."""
    cdef int m, pos, card, kind, copy
    cdef uint32_t known
    for m in range(MINES):
        known = s.seats[viewer].seen[m]
        for pos in range(s.mines[m].size):
            if known >> pos & 1:
                continue
            card = s.mines[m].cards[pos]
            if pos == 0 and not s.intro:
                if not is_end_card(card) or out.end_pool_size == END_POOL_CAPACITY:
                    return False
                out.end_places[out.end_place_count] = m
                out.end_place_count += 1
                out.end_pool[out.end_pool_size] = card
                out.end_pool_size += 1
            else:
                if (is_end_card(card) or is_dwarf_card(card)
                        or out.mine_pool_size == MINE_POOL_CAPACITY):
                    return False
                out.mine_places[out.mine_place_count] = m * MINE_CAPACITY + pos
                out.mine_place_count += 1
                out.mine_pool[out.mine_pool_size] = card
                out.mine_pool_size += 1
    for kind in range(KINDS):
        for copy in range(s.box.count[kind]):
            if is_end_card(kind):
                if out.end_pool_size == END_POOL_CAPACITY:
                    return False
                out.end_pool[out.end_pool_size] = kind
                out.end_pool_size += 1
            else:
                if out.mine_pool_size == MINE_POOL_CAPACITY or is_dwarf_card(kind):
                    return False
                out.mine_pool[out.mine_pool_size] = kind
                out.mine_pool_size += 1
    return True


# --- drawing a state -----------------------------------------------------------------------------

cdef void determinize(const Sampler* sp, GameState* out, uint64_t* rng) noexcept nogil:
    cdef uint8_t free_cards[PILE_CAPACITY]
    cdef int free_count
    out[0] = sp.base
    free_count = deal_constrained(sp, out, rng, free_cards)
    shuffle_cards(free_cards, free_count, rng)
    fill_free_places(sp, out, free_cards)
    if not sp.pile_dealt and out.pile.size > 1:
        shuffle_cards(out.pile.cards, out.pile.size - 1, rng)    # known cards, unknown order
    deal_mine_cards(sp, out, rng)
    out.chance = splitmix64(rng)


cdef int deal_constrained(const Sampler* sp, GameState* out, uint64_t* rng, uint8_t* free_cards
                          ) noexcept nogil:
    """The constrained seats' hands (their seen cards plus a drawn multiset); the cards left for
    the free places go to ``free_cards``, whose length is returned."""
    cdef int J = sp.constrained_count, i, j, copy, rest, n = 0, r
    cdef uint8_t t[MAX_CONSTRAINED]
    cdef double target
    if J == 0:
        for i in range(sp.dwarf_pool_size):
            free_cards[i] = sp.dwarf_pool[i]
        return sp.dwarf_pool_size
    for j in range(J):
        out.seats[sp.constrained[j]].hand = out.seats[sp.constrained[j]].hand_seen
    r = full_room(sp)
    for i in range(sp.kinds):
        target = unit_random(rng) * sp.ways[i * DEAL_CELLS + r]
        splits(sp, i, r, target, t)
        rest = sp.copies[i]
        for j in range(J):
            for copy in range(t[j]):
                add_card(&out.seats[sp.constrained[j]].hand, sp.kind[i])
            rest -= t[j]
            r -= t[j] * sp.stride[j]
        for copy in range(rest):
            free_cards[n] = sp.kind[i]
            n += 1
    return n


cdef void fill_free_places(const Sampler* sp, GameState* out, const uint8_t* cards
                           ) noexcept nogil:
    """Shuffled cards into the free seats' hidden places (seat order), then below the pile's
    top when that is dealt."""
    cdef int f, seat, i, hidden, n = 0
    for f in range(sp.free_seat_count):
        seat = sp.free_seats[f]
        hidden = hidden_cards(&sp.base, seat)
        out.seats[seat].hand = out.seats[seat].hand_seen
        for i in range(hidden):
            add_card(&out.seats[seat].hand, cards[n])
            n += 1
    if sp.pile_dealt:
        for i in range(out.pile.size - 1):
            out.pile.cards[i] = cards[n]
            n += 1


cdef void deal_mine_cards(const Sampler* sp, GameState* out, uint64_t* rng) noexcept nogil:
    """Unknown mine places from a partial shuffle of the pools; the leftovers are the box."""
    cdef uint8_t mine_pool[MINE_POOL_CAPACITY]
    cdef uint8_t end_pool[END_POOL_CAPACITY]
    cdef int i
    for i in range(sp.mine_pool_size):
        mine_pool[i] = sp.mine_pool[i]
    for i in range(sp.end_pool_size):
        end_pool[i] = sp.end_pool[i]
    memset(&out.box, 0, sizeof(CardSet))
    for i in range(sp.mine_place_count):
        place_card(out, sp.mine_places[i], draw_from(mine_pool, sp.mine_pool_size, i, rng))
    for i in range(sp.mine_place_count, sp.mine_pool_size):
        add_card(&out.box, mine_pool[i])
    for i in range(sp.end_place_count):
        place_card(out, sp.end_places[i] * MINE_CAPACITY,
                   draw_from(end_pool, sp.end_pool_size, i, rng))
    for i in range(sp.end_place_count, sp.end_pool_size):
        add_card(&out.box, end_pool[i])


cdef inline int draw_from(uint8_t* pool, int size, int i, uint64_t* rng) noexcept nogil:
    """Step i of a partial Fisher-Yates: a uniform card of pool[i:], moved to pool[i]."""
    cdef int j = i + random_below(rng, size - i)
    cdef uint8_t card = pool[j]
    pool[j] = pool[i]
    pool[i] = card
    return card


cdef inline void place_card(GameState* out, int place, int card) noexcept nogil:
    out.mines[place // MINE_CAPACITY].cards[place % MINE_CAPACITY] = card


# --- Python --------------------------------------------------------------------------------------

_FAILURES = {SAMPLER_NO_DEAL: "no deal of the unseen cards fits what is known of the hands",
             SAMPLER_BAD_POOL: "the unknown places and the unseen cards do not match"}


cdef class StateSampler:
    """Seat ``viewer``'s information set in ``engine``'s game, ready to draw consistent full
    states (``kernels/tunhell_sample.pxd``). Raises ValueError if no state is consistent."""

    def __cinit__(self, TunhellEngine engine, int viewer):
        if not 0 <= viewer < engine.state.players:
            raise ValueError(f"seat {viewer} is not in a {engine.state.players}-player game")
        self.sampler = <Sampler*> malloc(sizeof(Sampler))
        if self.sampler == NULL:
            raise MemoryError()
        code = build_sampler(self.sampler, &engine.state, viewer)
        if code != SAMPLER_OK:
            raise ValueError(f"tunhell determinization: {_FAILURES[code]}")

    def __dealloc__(self):
        free(self.sampler)

    @property
    def viewer(self):
        return self.sampler.viewer

    def sample(self, uint64_t seed):
        """One consistent state as a new engine (draws: splitmix64 from ``seed``)."""
        cdef TunhellEngine engine = TunhellEngine.__new__(TunhellEngine)
        cdef uint64_t rng = seed
        determinize(self.sampler, &engine.state, &rng)
        return engine

    def samples(self, int count, uint64_t seed):
        """``count`` consistent states from one stream of draws starting at ``seed``."""
        cdef uint64_t rng = seed
        cdef TunhellEngine engine
        out = []
        for _ in range(count):
            engine = TunhellEngine.__new__(TunhellEngine)
            determinize(self.sampler, &engine.state, &rng)
            out.append(engine)
        return out

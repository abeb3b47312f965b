# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Tunhell engine: the rules of ``solver.games.tunhell`` (the reference) on a C struct.

The state layout, the action encoding and the C API are documented in ``kernels/tunhell.pxd``;
tests/test_tunhell_engine.py checks this engine against the reference action by action on random
games. Section names and function names follow the reference's, so a rule can be looked up in
both. The card table is copied from ``solver.games.tunhell_cards`` because kernels never import
``solver``; a test checks the copy.

For Python (tests, drivers) there is :class:`TunhellEngine`, which speaks plain ints and dicts;
``solver.tunhell_engine`` joins it to the reference's ``State`` and ``Action``.
"""
from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset

RULES_VERSION = 2   # the reference's rules_version this engine implements
STATE_BYTES = sizeof(GameState)     # what a clone copies


cdef extern from *:
    int __builtin_ctz(unsigned int) nogil
    int __builtin_popcount(unsigned int) nogil


# --- the card table ------------------------------------------------------------------------------

cdef enum:    # Deck
    DECK_DWARF, DECK_MINE, DECK_END

cdef enum:    # Role
    ROLE_WARRIOR, ROLE_DIGGER, ROLE_SCOUT, ROLE_DYNAMITER, ROLE_DIRT, ROLE_TREASURE, ROLE_ENEMY,
    ROLE_BONUS, ROLE_RING, ROLE_GOLDEN_HEART, ROLE_GHOST, ROLE_BACK_DOOR, ROLE_THRONE_ROOM

cdef enum:
    PLAYABLE_ROLES = 4          # Warrior, Digger, Scout, Dynamiter: the roles played at a mine
    SET_ASIDE_INTRO = 7         # Mine cards put back in the box at setup
    SET_ASIDE_FULL = 9
    END_SET_ASIDE = 1           # full game: End of Mine cards put back in the box
    START_HAND = 4
    EMPLOYEE_VP = 1
    EXTERMINATOR_VP = 2
    PLAYOUT_LIMIT = 100000      # actions; random games end after a few hundred

cdef struct CardInfo:
    uint8_t deck
    uint8_t role
    uint8_t count       # copies in the game
    uint8_t combat      # a Warrior's combat value, or an enemy's
    uint8_t vp
    uint8_t dig         # a Digger's digging capacity
    uint8_t bonus       # a Digger's combat bonus
    uint8_t explore     # a Scout's exploration value
    uint8_t play_now
    uint8_t proud
    uint8_t to_hand
    uint8_t full_only

# One row per kind, in id order: deck, role, count, combat, vp, dig, bonus, explore,
# play_now, proud, to_hand, full_only.
_CARD_ROWS = (
    (DECK_DWARF, ROLE_WARRIOR, 7, 1, 0, 0, 0, 0, 1, 0, 0, 0),       # warrior-1
    (DECK_DWARF, ROLE_WARRIOR, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0),       # warrior-2
    (DECK_DWARF, ROLE_WARRIOR, 4, 3, 0, 0, 0, 0, 0, 0, 0, 0),       # warrior-3
    (DECK_DWARF, ROLE_WARRIOR, 2, 4, 0, 0, 0, 0, 0, 1, 0, 0),       # warrior-4 (proud)
    (DECK_DWARF, ROLE_DIGGER, 4, 0, 0, 2, 0, 0, 1, 0, 0, 0),        # digger-2/0
    (DECK_DWARF, ROLE_DIGGER, 4, 0, 0, 2, 1, 0, 0, 0, 0, 0),        # digger-2/+1
    (DECK_DWARF, ROLE_DIGGER, 1, 0, 0, 4, 3, 0, 0, 0, 0, 0),        # digger-4/+3
    (DECK_DWARF, ROLE_DIGGER, 5, 0, 0, 1, 2, 0, 0, 0, 0, 0),        # digger-1/+2
    (DECK_DWARF, ROLE_DIGGER, 4, 0, 0, 3, 0, 0, 0, 0, 0, 0),        # digger-3/0
    (DECK_DWARF, ROLE_DIGGER, 1, 0, 0, 2, 5, 0, 0, 0, 0, 0),        # digger-2/+5
    (DECK_DWARF, ROLE_SCOUT, 2, 0, 0, 0, 0, 5, 0, 0, 0, 0),         # scout-5
    (DECK_DWARF, ROLE_SCOUT, 3, 0, 0, 0, 0, 3, 1, 0, 0, 0),         # scout-3
    (DECK_DWARF, ROLE_DYNAMITER, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0),     # dynamiter
    (DECK_MINE, ROLE_DIRT, 18, 0, 0, 0, 0, 0, 0, 0, 0, 0),          # dirt
    (DECK_MINE, ROLE_TREASURE, 10, 0, 1, 0, 0, 0, 0, 0, 0, 0),      # treasure
    (DECK_MINE, ROLE_ENEMY, 7, 1, 0, 0, 0, 0, 0, 0, 0, 0),          # rat
    (DECK_MINE, ROLE_ENEMY, 4, 2, 2, 0, 0, 0, 0, 0, 0, 0),          # goblin
    (DECK_MINE, ROLE_ENEMY, 4, 3, 3, 0, 0, 0, 0, 0, 0, 0),          # orc
    (DECK_MINE, ROLE_ENEMY, 3, 4, 4, 0, 0, 0, 0, 0, 0, 0),          # troll
    (DECK_MINE, ROLE_ENEMY, 3, 6, 6, 0, 0, 0, 0, 0, 0, 0),          # dragon
    (DECK_MINE, ROLE_DIGGER, 1, 0, 0, 4, 0, 0, 0, 0, 1, 1),         # machin
    (DECK_MINE, ROLE_WARRIOR, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1),        # dwouarf
    (DECK_MINE, ROLE_BONUS, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1),          # nawak
    (DECK_MINE, ROLE_BONUS, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1),          # pickaxe
    (DECK_MINE, ROLE_BONUS, 2, 0, 0, 0, 0, 0, 0, 0, 1, 1),          # beer
    (DECK_MINE, ROLE_RING, 2, 0, 2, 0, 0, 0, 0, 0, 1, 1),           # ring
    (DECK_MINE, ROLE_GOLDEN_HEART, 1, 0, 3, 0, 0, 0, 0, 0, 0, 1),   # golden-heart
    (DECK_MINE, ROLE_GHOST, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1),          # ghost
    (DECK_END, ROLE_BACK_DOOR, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1),       # back-door
    (DECK_END, ROLE_THRONE_ROOM, 1, 0, 3, 0, 0, 0, 0, 0, 0, 1),     # throne-room
    (DECK_END, ROLE_ENEMY, 1, 5, 5, 0, 0, 0, 0, 0, 0, 1),           # spider
    (DECK_END, ROLE_ENEMY, 1, 7, 7, 0, 0, 0, 0, 0, 0, 1),           # demon
)
_CARD_FIELDS = ("deck", "role", "count", "combat", "vp", "dig", "bonus", "explore", "play_now",
                "proud", "to_hand", "full_only")

cdef CardInfo CARD[KINDS]
cdef uint32_t DWARF_MASK = 0        # kinds of the Dwarf deck
cdef uint32_t DIGGER_MASK = 0       # Diggers, Machin included
cdef uint32_t PROUD_MASK = 0
cdef uint8_t MOVE_OF_ROLE[PLAYABLE_ROLES]


cdef void _load_card_table():
    global DWARF_MASK, DIGGER_MASK, PROUD_MASK
    assert len(_CARD_ROWS) == KINDS
    for k, row in enumerate(_CARD_ROWS):
        (CARD[k].deck, CARD[k].role, CARD[k].count, CARD[k].combat, CARD[k].vp, CARD[k].dig,
         CARD[k].bonus, CARD[k].explore, CARD[k].play_now, CARD[k].proud, CARD[k].to_hand,
         CARD[k].full_only) = row
        if CARD[k].deck == DECK_DWARF:
            DWARF_MASK |= bit(k)
        if CARD[k].role == ROLE_DIGGER:
            DIGGER_MASK |= bit(k)
        if CARD[k].proud:
            PROUD_MASK |= bit(k)
    MOVE_OF_ROLE[ROLE_WARRIOR] = MOVE_WARRIOR
    MOVE_OF_ROLE[ROLE_DIGGER] = MOVE_DIGGER
    MOVE_OF_ROLE[ROLE_SCOUT] = MOVE_SCOUT
    MOVE_OF_ROLE[ROLE_DYNAMITER] = MOVE_DYNAMITE


cdef inline uint32_t bit(int k) noexcept nogil:
    return (<uint32_t>1) << k


_load_card_table()


def card_table():
    """The engine's copy of the card table: one dict per kind id (for the test against the
    reference's ``CARDS``; enums as ints)."""
    return [{name: row[i] for i, name in enumerate(_CARD_FIELDS)} for row in _CARD_ROWS]


# --- multisets of cards --------------------------------------------------------------------------

cdef inline void set_add(CardSet* cards, int kind) noexcept nogil:
    cards.count[kind] += 1
    cards.kinds |= bit(kind)
    cards.size += 1


cdef inline void set_remove(CardSet* cards, int kind) noexcept nogil:
    cards.count[kind] -= 1
    cards.size -= 1
    if cards.count[kind] == 0:
        cards.kinds &= ~bit(kind)


cdef inline void set_clear(CardSet* cards) noexcept nogil:
    memset(cards, 0, sizeof(CardSet))


cdef inline int lowest_kind(uint32_t kinds) noexcept nogil:
    return __builtin_ctz(kinds)


cdef int set_to_array(const CardSet* cards, uint8_t* out) noexcept nogil:
    """The multiset as a sorted array (the reference's sorted list); returns its length."""
    cdef uint32_t kinds = cards.kinds
    cdef int n = 0, kind, copy
    while kinds:
        kind = lowest_kind(kinds)
        kinds &= kinds - 1
        for copy in range(cards.count[kind]):
            out[n] = kind
            n += 1
    return n


# --- chance --------------------------------------------------------------------------------------

cdef inline uint32_t chance_below(GameState* s, uint32_t n) noexcept nogil:
    """The reference's ``_chance_below``: ``output % n`` (not Lemire's multiply) so that games
    match the reference exactly."""
    return splitmix64(&s.chance) % n


cdef void shuffle(GameState* s, uint8_t* cards, int n) noexcept nogil:
    """Fisher-Yates from the top index down, as the reference's ``_shuffle``."""
    cdef int i, j
    cdef uint8_t card
    for i in range(n - 1, 0, -1):
        j = chance_below(s, i + 1)
        card = cards[i]
        cards[i] = cards[j]
        cards[j] = card


# --- setup ---------------------------------------------------------------------------------------

cdef int deck_list(int deck, bint intro, uint8_t* out) noexcept nogil:
    """Every card of a deck in id order, copies together (the reference's ``_deck_list``)."""
    cdef int n = 0, kind, copy
    for kind in range(KINDS):
        if CARD[kind].deck == deck and not (intro and CARD[kind].full_only):
            for copy in range(CARD[kind].count):
                out[n] = kind
                n += 1
    return n


cdef void reset_state(GameState* s, int players, bint intro, uint64_t chance) noexcept nogil:
    memset(s, 0, sizeof(GameState))
    s.players = players
    s.intro = intro
    s.chance = chance
    s.pending = NO_CARD
    s.dig_mine = NO_MINE
    s.digger = NO_CARD
    s.door_owner = NOBODY
    s.door_mine = NO_MINE
    s.employee = NOBODY
    s.exterminator = NOBODY


cdef void deal_mines(GameState* s) noexcept nogil:
    """Shuffle the Mine cards, box the set-aside ones, split the rest into 3 equal piles, and in
    the full game put a shuffled End of Mine card under each pile (one more to the box)."""
    cdef uint8_t cards[64]
    cdef uint8_t ends[4]
    cdef int n = deck_list(DECK_MINE, s.intro, cards)
    cdef int aside = SET_ASIDE_INTRO if s.intro else SET_ASIDE_FULL
    cdef int per_mine = (n - aside) // MINES
    cdef int i, m, bottom = 0 if s.intro else 1
    shuffle(s, cards, n)
    for i in range(aside):
        set_add(&s.box, cards[i])
    for m in range(MINES):
        for i in range(per_mine):
            s.mines[m].cards[bottom + i] = cards[aside + m * per_mine + i]
        s.mines[m].size = bottom + per_mine
    if not s.intro:
        n = deck_list(DECK_END, False, ends)
        shuffle(s, ends, n)
        for i in range(END_SET_ASIDE):
            set_add(&s.box, ends[i])
        for m in range(MINES):
            s.mines[m].cards[0] = ends[END_SET_ASIDE + m]


cdef inline int pile_pop(GameState* s) noexcept nogil:
    s.pile.size -= 1
    return s.pile.cards[s.pile.size]


cdef void new_game(GameState* s, int players, bint intro, uint64_t seed) noexcept nogil:
    cdef int round_, seat
    reset_state(s, players, intro, seed)
    deal_mines(s)
    s.pile.size = deck_list(DECK_DWARF, False, s.pile.cards)
    shuffle(s, s.pile.cards, s.pile.size)
    for round_ in range(START_HAND):        # one card at a time, seat by seat
        for seat in range(players):
            set_add(&s.seats[seat].hand, pile_pop(s))
    for round_ in range(CENTER_SIZE):
        set_add(&s.center, pile_pop(s))


# --- the table -----------------------------------------------------------------------------------

cdef inline int next_seat(const GameState* s, int seat) noexcept nogil:
    seat += 1
    return 0 if seat == s.players else seat


cdef inline uint32_t open_mines(const GameState* s) noexcept nogil:
    """Bit m: mine m still holds cards."""
    return ((s.mines[0].size > 0) | ((s.mines[1].size > 0) << 1)
            | ((s.mines[2].size > 0) << 2))


cdef inline int empty_mines(const GameState* s) noexcept nogil:
    return 3 - __builtin_popcount(open_mines(s))


cdef inline int strength(const GameState* s, int seat, int mine) noexcept nogil:
    """Combat value of a seat's Warriors in front of a mine (Dwouarf counts 0)."""
    cdef const CardSet* w = &s.seats[seat].warriors[mine]
    if not w.kinds:
        return 0
    return (w.count[WARRIOR_1] * CARD[WARRIOR_1].combat
            + w.count[WARRIOR_2] * CARD[WARRIOR_2].combat
            + w.count[WARRIOR_3] * CARD[WARRIOR_3].combat
            + w.count[WARRIOR_4] * CARD[WARRIOR_4].combat)


cdef bint has_access(const GameState* s, int seat, int mine) noexcept nogil:
    """A Digger may enter if its player's Warriors there are at least each opponent's (compared
    one by one), or through his Back Door."""
    cdef int own, other
    if s.door_owner == seat and s.door_mine == mine:
        return True
    own = strength(s, seat, mine)
    for other in range(s.players):
        if other != seat and strength(s, other, mine) > own:
            return False
    return True


cdef void role_targets(const GameState* s, int seat, uint32_t* by_role) noexcept nogil:
    """For each playable role, the mines (bit mask) where ``seat`` may play a card of it now."""
    cdef uint32_t open_ = open_mines(s), access = 0, unproud = 0
    cdef int m
    for m in range(MINES):
        if open_ >> m & 1:
            if not (s.seats[seat].warriors[m].kinds & PROUD_MASK):
                unproud |= bit(m)
            if has_access(s, seat, m):
                access |= bit(m)
    by_role[ROLE_WARRIOR] = unproud
    by_role[ROLE_DIGGER] = access
    by_role[ROLE_SCOUT] = open_       # Scouts and Dynamiters ignore Warriors
    by_role[ROLE_DYNAMITER] = open_


cdef inline uint32_t card_targets(const uint32_t* by_role, int card) noexcept nogil:
    cdef int role = CARD[card].role
    return by_role[role] if role < PLAYABLE_ROLES else 0


cdef inline int boosted(int printed, int beers, int extra) noexcept nogil:
    """Each Beer doubles the Digger's printed value; Nawak / the Pickaxe add 2, never doubled."""
    return (printed << beers) + 2 * extra


cdef inline int dig_capacity(int digger, int pickaxes, int beers) noexcept nogil:
    return boosted(CARD[digger].dig, beers, pickaxes)


cdef inline int dig_bonus(const GameState* s) noexcept nogil:
    return boosted(CARD[s.digger].bonus, s.boosts[2], s.boosts[0])


cdef inline int enemy_value(const GameState* s, int enemy) noexcept nogil:
    """The enemy's combat value in the current dig: Dwouarf at the mine lowers it by 1."""
    cdef int dog = s.seats[s.to_move].warriors[s.dig_mine].count[DWOUARF] > 0
    return CARD[enemy].combat - dog


# --- legal actions -------------------------------------------------------------------------------

cdef int boost_choices(const CardSet* hand, action_t base, action_t* out) noexcept nogil:
    """``base`` with every multiset of the Bonuses in the hand: Nawak 0..1, Pickaxe 0..1,
    Beer 0..n, nested in that order (the empty multiset first)."""
    cdef int swords = 1 if hand.count[NAWAK] > 0 else 0
    cdef int pickaxes = 1 if hand.count[PICKAXE] > 0 else 0
    cdef int n = 0, sword, pick, beer
    for sword in range(swords + 1):
        for pick in range(pickaxes + 1):
            for beer in range(hand.count[BEER] + 1):
                out[n] = (base | (<action_t>sword << SWORD_SHIFT)
                          | (<action_t>pick << PICKAXE_SHIFT) | (<action_t>beer << BEER_SHIFT))
                n += 1
    return n


cdef int plays(const GameState* s, int seat, int card, uint32_t mines, action_t* out
               ) noexcept nogil:
    """Playing ``card`` at each mine of ``mines`` (a Digger with each Bonus multiset)."""
    cdef int role = CARD[card].role, n = 0, m
    cdef action_t base
    for m in range(MINES):
        if mines >> m & 1:
            base = make_action(MOVE_OF_ROLE[role], card, m)
            if role == ROLE_DIGGER:
                n += boost_choices(&s.seats[seat].hand, base, out + n)
            else:
                out[n] = base
                n += 1
    return n


cdef int turn_actions(const GameState* s, action_t* out) noexcept nogil:
    """Recruits by center card kind (a play-now card only if it can be played), then plays by
    hand card kind; PASS when nothing is legal."""
    cdef int p = s.to_move, n = 0, card
    cdef const CardSet* hand = &s.seats[p].hand
    cdef uint32_t by_role[PLAYABLE_ROLES]
    cdef uint32_t kinds
    role_targets(s, p, by_role)
    if hand.size < HAND_LIMIT:
        kinds = s.center.kinds
        while kinds:
            card = lowest_kind(kinds)
            kinds &= kinds - 1
            if not CARD[card].play_now or card_targets(by_role, card):
                out[n] = make_action(MOVE_RECRUIT, card, 0)
                n += 1
    kinds = hand.kinds
    while kinds:
        card = lowest_kind(kinds)
        kinds &= kinds - 1
        n += plays(s, p, card, card_targets(by_role, card), out + n)
    if n == 0:
        out[0] = make_action(MOVE_PASS, 0, 0)
        n = 1
    return n


cdef int fight_actions(const GameState* s, action_t* out) noexcept nogil:
    """Every choice of own Warriors at the mine (copies of values 1..4, nested in that order) and
    of the Digger's bonus (unused, then used; only if positive) that reaches the enemy."""
    cdef const CardSet* w = &s.seats[s.to_move].warriors[s.dig_mine]
    cdef int need = enemy_value(s, s.pending)
    cdef int bonus = dig_bonus(s)
    cdef int n = 0, a, b, c, d, total
    cdef action_t code
    for a in range(w.count[WARRIOR_1] + 1):
        for b in range(w.count[WARRIOR_2] + 1):
            for c in range(w.count[WARRIOR_3] + 1):
                for d in range(w.count[WARRIOR_4] + 1):
                    total = a + 2 * b + 3 * c + 4 * d
                    code = (MOVE_FIGHT | (<action_t>a << SPENT_SHIFT)
                            | (<action_t>b << (SPENT_SHIFT + 3))
                            | (<action_t>c << (SPENT_SHIFT + 6))
                            | (<action_t>d << (SPENT_SHIFT + 9)))
                    if (a or b or c or d) and total >= need:
                        out[n] = code
                        n += 1
                    if bonus > 0 and total + bonus >= need:
                        out[n] = code | (<action_t>1 << USE_DIGGER_SHIFT)
                        n += 1
    return n


cdef bint can_win_fight(const GameState* s, int enemy) noexcept nogil:
    """Whether any fight choice exists: all Warriors plus the bonus reach a positive need."""
    return strength(s, s.to_move, s.dig_mine) + dig_bonus(s) >= enemy_value(s, enemy)


cdef int heart_actions(const GameState* s, action_t* out) noexcept nogil:
    """Which Digger kind of the hand to discard to carry the Golden Heart (Machin counts)."""
    cdef uint32_t kinds = s.seats[s.to_move].hand.kinds & DIGGER_MASK
    cdef int n = 0, kind
    while kinds:
        kind = lowest_kind(kinds)
        kinds &= kinds - 1
        out[n] = make_action(MOVE_HEART, kind, 0)
        n += 1
    return n


cdef int door_actions(const GameState* s, action_t* out) noexcept nogil:
    """Which mine still holding cards the Back Door is placed facing."""
    cdef uint32_t open_ = open_mines(s)
    cdef int n = 0, m
    for m in range(MINES):
        if open_ >> m & 1:
            out[n] = make_action(MOVE_DOOR, 0, m)
            n += 1
    return n


cdef int legal_actions(const GameState* s, action_t* out) noexcept nogil:
    cdef uint32_t by_role[PLAYABLE_ROLES]
    if s.phase == PHASE_TURN:
        return turn_actions(s, out)
    if s.phase == PHASE_PLAY_NOW:
        role_targets(s, s.to_move, by_role)
        return plays(s, s.to_move, s.pending, card_targets(by_role, s.pending), out)
    if s.phase == PHASE_FIGHT:
        return fight_actions(s, out)
    if s.phase == PHASE_GOLDEN_HEART:
        return heart_actions(s, out)
    if s.phase == PHASE_BACK_DOOR:
        return door_actions(s, out)
    if s.phase == PHASE_DIG_ON:
        out[0] = MOVE_DIG_ON
        out[1] = MOVE_STOP
        return 2
    return 0


# --- moving cards --------------------------------------------------------------------------------

cdef inline int hidden_count(const GameState* s, int seat) noexcept nogil:
    return s.seats[seat].hand.size - s.seats[seat].hand_seen.size


cdef inline void add_to_hand(GameState* s, int seat, int card) noexcept nogil:
    """A card joins a hand in view of everyone (recruited, or a Find)."""
    set_add(&s.seats[seat].hand, card)
    set_add(&s.seats[seat].hand_seen, card)


cdef void take_from_hand(GameState* s, int seat, int card) noexcept nogil:
    cdef Seat* owner = &s.seats[seat]
    set_remove(&owner.hand, card)
    if owner.hand_seen.count[card]:
        set_remove(&owner.hand_seen, card)
    if hidden_count(s, seat) == 0:     # nothing unseen left to know anything about
        owner.hand_never = 0


cdef inline void learn_absent(GameState* s, int seat, uint32_t kinds) noexcept nogil:
    """Everyone learnt that the unseen part of a hand holds none of these kinds."""
    if hidden_count(s, seat):
        s.seats[seat].hand_never |= kinds


cdef inline void discard(GameState* s, int card) noexcept nogil:
    """Dwarf cards go to the Dwarf discard (reshuffled later), all others to the Mine discard."""
    set_add(&s.dwarf_discard if CARD[card].deck == DECK_DWARF else &s.mine_discard, card)


cdef void discard_warriors(GameState* s, int seat, int mine) noexcept nogil:
    cdef CardSet* warriors = &s.seats[seat].warriors[mine]
    cdef uint32_t kinds = warriors.kinds
    cdef int kind, copy
    while kinds:
        kind = lowest_kind(kinds)
        kinds &= kinds - 1
        for copy in range(warriors.count[kind]):
            discard(s, kind)
    set_clear(warriors)


cdef bint reshuffle(GameState* s) noexcept nogil:
    """The Dwarf discard, in id order, shuffled into a new pile."""
    if s.dwarf_discard.size == 0:
        return False
    s.pile.size = set_to_array(&s.dwarf_discard, s.pile.cards)
    set_clear(&s.dwarf_discard)
    shuffle(s, s.pile.cards, s.pile.size)
    s.shuffles += 1
    return True


cdef void refill_center(GameState* s) noexcept nogil:
    """Keep 5 cards in the center and a pile whose top is face up, reshuffling when it runs out."""
    while s.center.size < CENTER_SIZE and (s.pile.size > 0 or reshuffle(s)):
        set_add(&s.center, pile_pop(s))
    if s.pile.size == 0:
        reshuffle(s)


cdef int draw(GameState* s, int mine) noexcept nogil:
    cdef Mine* pile = &s.mines[mine]
    cdef uint32_t gone
    cdef int seat
    pile.size -= 1
    gone = ~bit(pile.size)          # nobody knows a card that is no longer there
    for seat in range(s.players):
        s.seats[seat].seen[mine] &= gone
    return pile.cards[pile.size]


cdef void put_back(GameState* s, int mine, int card) noexcept nogil:
    """Back on top, face down; everyone saw it."""
    cdef Mine* pile = &s.mines[mine]
    cdef int seat
    pile.cards[pile.size] = card
    for seat in range(s.players):
        s.seats[seat].seen[mine] |= bit(pile.size)
    pile.size += 1


cdef inline int claim(int holder, int seat, int seat_count, int holder_count) noexcept nogil:
    """A trophy goes to whoever draws level with or passes its holder ("as many or more")."""
    if holder == NOBODY or seat_count >= holder_count:
        return seat
    return holder


cdef void gain_loot(GameState* s, int seat, int card) noexcept nogil:
    cdef int holder
    set_add(&s.seats[seat].loot, card)
    if s.intro or (card != DIRT and card != RAT):
        return
    if card == DIRT:
        holder = s.employee
        s.employee = claim(holder, seat, s.seats[seat].loot.count[DIRT],
                           s.seats[holder].loot.count[DIRT] if holder != NOBODY else 0)
    else:
        holder = s.exterminator
        s.exterminator = claim(holder, seat, s.seats[seat].loot.count[RAT],
                               s.seats[holder].loot.count[RAT] if holder != NOBODY else 0)


# --- a turn --------------------------------------------------------------------------------------

cdef void apply_action(GameState* s, action_t action) noexcept nogil:
    cdef int move = action_move(action)
    if move == MOVE_PASS:
        do_pass(s)
    elif move == MOVE_RECRUIT:
        recruit(s, action_card(action))
    elif move <= MOVE_DYNAMITE:
        s.phase = PHASE_TURN
        s.pending = NO_CARD
        s.passes = 0
        play(s, action)
    elif move == MOVE_FIGHT:
        fight(s, action)
    elif move == MOVE_HEART:
        carry_heart(s, action_card(action))
    elif move == MOVE_DOOR:
        place_door(s, action_mine(action))
    elif move == MOVE_DIG_ON:
        s.phase = PHASE_TURN
        dig(s, True)
    elif move == MOVE_STOP:
        end_turn(s)


cdef void discard_digger(GameState* s) noexcept nogil:
    """The Digger in play, if any, goes to the discard with its Bonuses."""
    cdef int i, copy
    if s.digger != NO_CARD:
        discard(s, s.digger)
        for i in range(3):
            for copy in range(s.boosts[i]):
                discard(s, NAWAK + i)
    s.digger = NO_CARD
    s.boosts[0] = s.boosts[1] = s.boosts[2] = 0


cdef void clear_dig(GameState* s) noexcept nogil:
    discard_digger(s)           # the Digger is always discarded at the end of the turn
    s.dig_mine = NO_MINE
    s.dig_left = 0


cdef void game_over(GameState* s) noexcept nogil:
    """The game ends at once: a dig in progress stops (its Digger goes to the discard)."""
    clear_dig(s)
    s.phase = PHASE_OVER
    s.pending = NO_CARD


cdef void end_turn(GameState* s) noexcept nogil:
    clear_dig(s)
    s.phase = PHASE_TURN
    s.pending = NO_CARD
    s.to_move = next_seat(s, s.to_move)
    s.turn += 1
    refill_center(s)


cdef void do_pass(GameState* s) noexcept nogil:
    cdef int p = s.to_move, kind
    cdef uint32_t by_role[PLAYABLE_ROLES]
    cdef uint32_t playable = 0
    role_targets(s, p, by_role)
    for kind in range(KINDS):
        if CARD[kind].deck == DECK_DWARF and card_targets(by_role, kind):
            playable |= bit(kind)
    learn_absent(s, p, playable)    # he passed: he holds none of the kinds that could be played
    s.passes += 1
    if s.passes >= s.players:       # nobody can act: nothing will change any more
        game_over(s)
    else:
        end_turn(s)


cdef void recruit(GameState* s, int card) noexcept nogil:
    s.passes = 0
    set_remove(&s.center, card)
    add_to_hand(s, s.to_move, card)
    refill_center(s)                # the rulebook refills at once, before a play-now card
    if CARD[card].play_now:
        s.phase = PHASE_PLAY_NOW
        s.pending = card
    else:
        end_turn(s)


cdef void play(GameState* s, action_t action) noexcept nogil:
    cdef int p = s.to_move, card = action_card(action), mine = action_mine(action)
    cdef int move = action_move(action)
    take_from_hand(s, p, card)
    if move == MOVE_WARRIOR:
        if CARD[card].proud:        # proud: he needs nobody
            discard_warriors(s, p, mine)
        set_add(&s.seats[p].warriors[mine], card)
    elif move == MOVE_SCOUT:
        scout(s, p, card, mine)
    elif move == MOVE_DYNAMITE:
        dynamite(s, card, mine)
    else:
        start_dig(s, p, card, mine, action)
        return
    end_turn(s)


cdef void scout(GameState* s, int seat, int card, int mine) noexcept nogil:
    cdef int top = s.mines[mine].size
    cdef int low = top - CARD[card].explore, pos
    if low < 0:
        low = 0
    for pos in range(low, top):
        s.seats[seat].seen[mine] |= bit(pos)
    discard(s, card)


cdef void dynamite(GameState* s, int card, int mine) noexcept nogil:
    cdef int seat
    for seat in range(s.players):
        discard_warriors(s, seat, mine)
    discard(s, card)


cdef void start_dig(GameState* s, int seat, int card, int mine, action_t action) noexcept nogil:
    cdef int i, copy
    s.boosts[0] = action_swords(action)
    s.boosts[1] = action_pickaxes(action)
    s.boosts[2] = action_beers(action)
    for i in range(3):
        for copy in range(s.boosts[i]):
            take_from_hand(s, seat, NAWAK + i)
    s.digger = card
    s.dig_mine = mine
    s.dig_left = dig_capacity(card, s.boosts[1], s.boosts[2])
    dig(s, True)


cdef void dig(GameState* s, bint drawing) noexcept nogil:
    """Draw card by card and resolve each, until a decision is awaited or the turn or game ends.
    ``drawing``: draw the next card without asking (the first card, or "dig on"); otherwise,
    under dig_may_stop, a card was just resolved and the player decides (phase DIG_ON)."""
    cdef int card
    while s.digger != NO_CARD and s.dig_left > 0 and s.mines[s.dig_mine].size > 0:
        if s.dig_may_stop and not drawing:
            s.phase = PHASE_DIG_ON
            return
        drawing = False
        card = draw(s, s.dig_mine)
        s.dig_left -= 1
        if not resolve(s, card):
            return
    end_turn(s)


cdef bint resolve(GameState* s, int card) noexcept nogil:
    """Resolve a drawn card; False when digging does not simply go on (decision, end of turn)."""
    cdef int p = s.to_move, role = CARD[card].role
    if role == ROLE_DIRT or role == ROLE_TREASURE:
        gain_loot(s, p, card)
    elif role == ROLE_ENEMY:
        return meet(s, card)
    elif CARD[card].to_hand:
        find(s, card)
    elif role == ROLE_GOLDEN_HEART:
        if s.seats[p].hand.kinds & DIGGER_MASK:
            s.phase = PHASE_GOLDEN_HEART
            s.pending = card
        else:
            put_back(s, s.dig_mine, card)
            learn_absent(s, p, DIGGER_MASK & DWARF_MASK)
            end_turn(s)
        return False
    elif role == ROLE_GHOST:
        haunt(s)
        discard(s, card)
    elif role == ROLE_THRONE_ROOM:
        gain_loot(s, p, card)
        discard_hand(s, p)          # the room is cursed
    elif role == ROLE_BACK_DOOR:
        if card_done(s):
            s.phase = PHASE_BACK_DOOR
            s.pending = card
        else:
            s.door_owner = p        # the game is over; the door still counts for its finder
        return False
    return card_done(s)


cdef void discard_hand(GameState* s, int seat) noexcept nogil:
    cdef uint8_t cards[KINDS]
    cdef int n = set_to_array(&s.seats[seat].hand, cards), i
    for i in range(n):
        take_from_hand(s, seat, cards[i])
        discard(s, cards[i])


cdef bint card_done(GameState* s) noexcept nogil:
    """After a card: an emptied mine loses its Warriors; two empty mines end the game at once."""
    cdef int seat
    if s.mines[s.dig_mine].size == 0:
        for seat in range(s.players):
            discard_warriors(s, seat, s.dig_mine)
    if empty_mines(s) >= 2:
        game_over(s)
        return False
    return True


cdef bint meet(GameState* s, int enemy) noexcept nogil:
    if enemy_value(s, enemy) <= 0:      # Dwouarf eliminates a Rat directly
        gain_loot(s, s.to_move, enemy)
        return card_done(s)
    if can_win_fight(s, enemy):         # a fight that can be won must be won
        s.phase = PHASE_FIGHT
        s.pending = enemy
        return False
    discard_warriors(s, s.to_move, s.dig_mine)  # defeat: Warriors and Digger (at end of turn)
    put_back(s, s.dig_mine, enemy)
    end_turn(s)
    return False


cdef void fight(GameState* s, action_t action) noexcept nogil:
    cdef int p = s.to_move, mine = s.dig_mine, enemy = s.pending, value, copy, i
    cdef CardSet* warriors = &s.seats[p].warriors[mine]
    s.phase = PHASE_TURN
    s.pending = NO_CARD
    for value in range(1, 5):
        for copy in range(action_spent(action, value)):
            set_remove(warriors, WARRIOR_1 + value - 1)
            discard(s, WARRIOR_1 + value - 1)
    if action_uses_digger(action):      # the Digger and its Bonuses are spent: no more digging
        discard_digger(s)
    gain_loot(s, p, enemy)
    if card_done(s):
        dig(s, False)


cdef void carry_heart(GameState* s, int digger) noexcept nogil:
    cdef int p = s.to_move, heart = s.pending
    s.phase = PHASE_TURN
    s.pending = NO_CARD
    take_from_hand(s, p, digger)
    discard(s, digger)
    gain_loot(s, p, heart)
    if card_done(s):
        dig(s, False)


cdef void place_door(GameState* s, int mine) noexcept nogil:
    s.phase = PHASE_TURN
    s.pending = NO_CARD
    s.door_owner = s.to_move
    s.door_mine = mine
    s.dig_mine = mine           # the dig goes on at the new mine, without an access test
    dig(s, False)


cdef void find(GameState* s, int card) noexcept nogil:
    """A Find joins the finder's hand, else the next hand in turn order with room, else the
    discard."""
    cdef int seat = s.to_move, i
    for i in range(s.players):
        if s.seats[seat].hand.size < HAND_LIMIT:
            add_to_hand(s, seat, card)
            return
        seat = next_seat(s, seat)
    discard(s, card)


cdef void haunt(GameState* s) noexcept nogil:
    """The Ghost: a random Dwarf card of the finder's hand is discarded, else of the next hand."""
    cdef int seat = s.to_move, i, kind, dwarves, pick
    cdef const CardSet* hand
    cdef uint32_t kinds
    for i in range(s.players):
        hand = &s.seats[seat].hand
        kinds = hand.kinds & DWARF_MASK
        if kinds:
            dwarves = 0
            while kinds:
                kind = lowest_kind(kinds)
                kinds &= kinds - 1
                dwarves += hand.count[kind]
            pick = chance_below(s, dwarves)     # index into the hand's Dwarf cards, in id order
            kinds = hand.kinds & DWARF_MASK
            while True:
                kind = lowest_kind(kinds)
                kinds &= kinds - 1
                if pick < hand.count[kind]:
                    break
                pick -= hand.count[kind]
            take_from_hand(s, seat, kind)
            discard(s, kind)
            return
        seat = next_seat(s, seat)


# --- whole games and the end ---------------------------------------------------------------------

cdef int random_playout(GameState* s, uint64_t* rng) noexcept nogil:
    cdef action_t actions[MAX_ACTIONS]
    cdef int played = 0, n
    while s.phase != PHASE_OVER and played < PLAYOUT_LIMIT:
        n = legal_actions(s, actions)
        if n == 0:
            break
        apply_action(s, actions[random_below(rng, n)])
        played += 1
    return played


# --- the heuristic rollout policy (reference: solver.games.tunhell.rollout) ----------------------
# Scores every legal action in rough victory points from the full (determinized) state and plays
# the best, or with probability epsilon a uniformly random action. The habits are the greedy
# bot's (solver.games.tunhell.greedy), but a dig is valued by the cards it would really draw in
# this deal: the search's deals are samples of what is unknown, so the policy is cheap and sharp.

cdef double QUALITY[KINDS]      # greedy's CARD_QUALITY by kind; 0 for cards it does not rate
QUALITY[WARRIOR_1], QUALITY[WARRIOR_2], QUALITY[WARRIOR_3], QUALITY[WARRIOR_4] = 0.3, 0.6, 0.9, 1.0
QUALITY[DIGGER_2_0], QUALITY[DIGGER_2_1], QUALITY[DIGGER_4_3] = 0.5, 0.8, 1.6
QUALITY[DIGGER_1_2], QUALITY[DIGGER_3_0], QUALITY[DIGGER_2_5] = 0.5, 1.0, 1.2
QUALITY[SCOUT_5], QUALITY[SCOUT_3], QUALITY[DYNAMITER] = 0.3, 0.2, 0.4
QUALITY[MACHIN], QUALITY[DWOUARF] = 1.2, 0.6


cdef inline int best_other_strength(const GameState* s, int seat, int mine) noexcept nogil:
    cdef int other, best = 0, v
    for other in range(s.players):
        if other != seat:
            v = strength(s, other, mine)
            if v > best:
                best = v
    return best


cdef inline int diggers_in_hand(const GameState* s, int seat) noexcept nogil:
    cdef const CardSet* hand = &s.seats[seat].hand
    cdef uint32_t kinds = hand.kinds & DIGGER_MASK
    cdef int n = 0, kind
    while kinds:
        kind = lowest_kind(kinds)
        kinds &= kinds - 1
        n += hand.count[kind]
    return n


cdef double dig_peek(const GameState* s, int seat, int mine, int draws, int bonus, int spare
                     ) noexcept nogil:
    """The points of the next ``draws`` cards of ``mine`` as this deal holds them, resolved
    roughly (Warriors spent on enemies, a fight needing the Digger or lost ends the dig), and
    +-3 if the dig empties the second mine and so ends the game with us leading or not."""
    cdef const Mine* pile = &s.mines[mine]
    cdef int size = pile.size, j, card, need, role
    cdef int power = strength(s, seat, mine), held = s.seats[seat].hand.size
    cdef int dog = s.seats[seat].warriors[mine].count[DWOUARF] > 0
    cdef bint full = not s.intro, stopped = False
    cdef double value = 0.0, vp
    cdef int points[MAX_PLAYERS]
    cdef int other, best_other
    if draws > size:
        draws = size
    for j in range(draws):
        card = pile.cards[size - 1 - j]
        role = CARD[card].role
        if role == ROLE_DIRT:
            value += 0.3 if full else 0.1
        elif role == ROLE_TREASURE:
            value += 1.0
        elif role == ROLE_ENEMY:
            need = CARD[card].combat - dog
            vp = CARD[card].vp + (0.6 if full and card == RAT else 0.0)
            if need <= 0:
                value += vp
            elif need <= power:
                value += vp - 0.3 * need
                power -= need
            elif need <= power + bonus:
                value += vp - 0.3 * (need - bonus if need > bonus else 0) - 0.5
                stopped = True
            else:
                value -= 0.4 * power
                stopped = True
        elif role == ROLE_GOLDEN_HEART:
            if spare > 0:
                value += 2.0
                spare -= 1
            else:
                stopped = True
        elif role == ROLE_GHOST:
            value -= 0.4
        elif role == ROLE_THRONE_ROOM:
            value += 3.0 - 0.3 * held
        elif role == ROLE_BACK_DOOR:
            value += 1.5
            stopped = True
        elif role == ROLE_RING:
            value += 2.0 if held < HAND_LIMIT else 0.0
        else:
            value += 0.6
        if stopped:
            return value
    if empty_mines(s) == 1 and draws >= size > 0:
        scores(s, points)
        best_other = -1000000
        for other in range(s.players):
            if other != seat and points[other] > best_other:
                best_other = points[other]
        value += 3.0 if points[seat] + value > best_other else -3.0
    return value


cdef double action_score(const GameState* s, action_t a) noexcept nogil:
    """The policy's score of a legal action of the seat to move."""
    cdef int p = s.to_move, move = action_move(a), card = action_card(a), mine = action_mine(a)
    cdef int own, other, gain, held, value
    cdef double v
    if move == MOVE_RECRUIT:
        if CARD[card].play_now:
            return 0.5 * QUALITY[card]
        held = s.seats[p].hand.size
        return (0.9 if held <= 3 else 0.6 if held <= 4 else 0.3) * QUALITY[card]
    if move == MOVE_WARRIOR:
        own = strength(s, p, mine)
        other = best_other_strength(s, p, mine)
        gain = CARD[card].combat
        v = 0.3 + 0.03 * s.mines[mine].size - 0.2 * QUALITY[card]
        if own < other <= own + gain:
            v += 0.8
        elif own < other:
            v += 0.2
        if CARD[card].proud:
            v -= 0.4 * own
        return v
    if move == MOVE_DYNAMITE:
        return 0.35 * (best_other_strength(s, p, mine) - strength(s, p, mine)) - 0.3
    if move == MOVE_DIGGER:
        return (dig_peek(s, p, mine,
                         dig_capacity(card, action_pickaxes(a), action_beers(a)),
                         boosted(CARD[card].bonus, action_beers(a), action_swords(a)),
                         diggers_in_hand(s, p) - 1)
                - 0.5 * QUALITY[card]
                - 0.6 * (action_swords(a) + action_pickaxes(a) + action_beers(a)))
    if move == MOVE_FIGHT:
        value = (action_spent(a, 1) + 2 * action_spent(a, 2) + 3 * action_spent(a, 3)
                 + 4 * action_spent(a, 4))
        v = value + 0.01 * (action_spent(a, 1) + action_spent(a, 2) + action_spent(a, 3)
                            + action_spent(a, 4))
        if action_uses_digger(a):
            v += 1.0 + 0.5 * s.dig_left
        return -v
    if move == MOVE_HEART:
        return -QUALITY[card]
    if move == MOVE_DOOR:
        return best_other_strength(s, p, mine) + 0.05 * s.mines[mine].size
    if move == MOVE_DIG_ON:
        return dig_peek(s, p, s.dig_mine, 1, dig_bonus(s), diggers_in_hand(s, p))
    return 0.0      # PASS, STOP, SCOUT (a Scout tells an omniscient policy nothing)


cdef int policy_choice(const GameState* s, const action_t* actions, int n, uint64_t* rng,
                       double epsilon) noexcept nogil:
    """The index the policy plays: the first best-scored action, or with probability
    ``epsilon`` a uniformly random one (one random word per decision with n > 1, plus one more
    for the random pick)."""
    cdef int i, best = 0
    cdef double score, top
    if n == 1:
        return 0
    if (splitmix64(rng) >> 11) * (1.0 / 9007199254740992.0) < epsilon:
        return random_below(rng, n)
    top = action_score(s, actions[0])
    for i in range(1, n):
        score = action_score(s, actions[i])
        if score > top + 1e-9:
            best, top = i, score
    return best


cdef int policy_playout(GameState* s, uint64_t* rng, double epsilon) noexcept nogil:
    cdef action_t actions[MAX_ACTIONS]
    cdef int played = 0, n
    while s.phase != PHASE_OVER and played < PLAYOUT_LIMIT:
        n = legal_actions(s, actions)
        if n == 0:
            break
        apply_action(s, actions[policy_choice(s, actions, n, rng, epsilon)])
        played += 1
    return played


cdef void scores(const GameState* s, int* out) noexcept nogil:
    cdef int seat, vp, kind
    cdef uint32_t kinds
    cdef const Seat* owner
    for seat in range(s.players):
        owner = &s.seats[seat]
        vp = 0
        kinds = owner.loot.kinds
        while kinds:
            kind = lowest_kind(kinds)
            kinds &= kinds - 1
            vp += owner.loot.count[kind] * CARD[kind].vp
        vp += owner.hand.count[RING] * CARD[RING].vp
        if s.door_owner == seat:
            vp += CARD[BACK_DOOR].vp
        if s.employee == seat:
            vp += EMPLOYEE_VP
        if s.exterminator == seat:
            vp += EXTERMINATOR_VP
        out[seat] = vp


cdef void result(const GameState* s, double* out) noexcept nogil:
    """Most points win; equal points: more Treasure cards; still equal: a shared win."""
    cdef int points[MAX_PLAYERS]
    cdef int seat, best = -1, most = -1, winners = 0
    scores(s, points)
    for seat in range(s.players):
        if points[seat] > best:
            best = points[seat]
    for seat in range(s.players):
        if points[seat] == best and s.seats[seat].loot.count[TREASURE] > most:
            most = s.seats[seat].loot.count[TREASURE]
    for seat in range(s.players):
        out[seat] = points[seat] == best and s.seats[seat].loot.count[TREASURE] == most
        winners += <int>out[seat]
    for seat in range(s.players):
        out[seat] /= winners


# --- Python: action codes ------------------------------------------------------------------------

_CARD_MOVES = frozenset((MOVE_RECRUIT, MOVE_WARRIOR, MOVE_DIGGER, MOVE_SCOUT, MOVE_DYNAMITE,
                         MOVE_HEART))
_MINE_MOVES = frozenset((MOVE_WARRIOR, MOVE_DIGGER, MOVE_SCOUT, MOVE_DYNAMITE, MOVE_DOOR))


def encode_action(int move, int card=NO_CARD, int mine=NO_MINE, cards=(), bint use_digger=False):
    """The action code of the reference's ``Action(move, card, mine, cards, use_digger)`` (plain
    ints: ``move`` is the reference's Move value). Raises ValueError for fields the move does not
    take or cannot hold."""
    if not MOVE_PASS <= move <= MOVE_STOP:
        raise ValueError(f"unknown move {move}")
    if (card != NO_CARD) != (move in _CARD_MOVES) or not NO_CARD <= card < KINDS:
        raise ValueError(f"move {move} with card {card}")
    if (mine != NO_MINE) != (move in _MINE_MOVES) or not NO_MINE <= mine < MINES:
        raise ValueError(f"move {move} with mine {mine}")
    if use_digger and move != MOVE_FIGHT:
        raise ValueError(f"move {move} cannot use a Digger's bonus")
    code = make_action(move, max(card, 0), max(mine, 0))
    if use_digger:
        code |= <action_t>1 << USE_DIGGER_SHIFT
    return code | _encode_cards(move, cards)


def _encode_cards(int move, cards):
    """The Bonuses of a DIGGER or the Warriors spent in a FIGHT, as code bits."""
    copies = [0] * KINDS
    for card in cards:
        copies[card] += 1
    if move == MOVE_DIGGER:
        allowed, shifts, widths = (NAWAK, PICKAXE, BEER), (SWORD_SHIFT, PICKAXE_SHIFT,
                                                           BEER_SHIFT), (1, 1, 3)
    elif move == MOVE_FIGHT:
        allowed = (WARRIOR_1, WARRIOR_2, WARRIOR_3, WARRIOR_4)
        shifts, widths = tuple(SPENT_SHIFT + 3 * i for i in range(4)), (7, 7, 7, 7)
    else:
        allowed, shifts, widths = (), (), ()
    if sum(copies) != sum(copies[k] for k in allowed):
        raise ValueError(f"move {move} cannot carry cards {tuple(cards)}")
    bits = 0
    for kind, shift, most in zip(allowed, shifts, widths):
        if copies[kind] > most:
            raise ValueError(f"{copies[kind]} copies of card {kind} do not fit an action")
        bits |= copies[kind] << shift
    return bits


def decode_action(action_t code):
    """``(move, card, mine, cards, use_digger)``: the reference's Action fields as plain ints
    (NO_CARD / NO_MINE where the move takes none; ``cards`` a sorted tuple)."""
    cdef int move = action_move(code), value
    card = action_card(code) if move in _CARD_MOVES else NO_CARD
    mine = action_mine(code) if move in _MINE_MOVES else NO_MINE
    cards = ()
    if move == MOVE_DIGGER:
        cards = ((NAWAK,) * action_swords(code) + (PICKAXE,) * action_pickaxes(code)
                 + (BEER,) * action_beers(code))
    elif move == MOVE_FIGHT:
        cards = sum(((WARRIOR_1 + value - 1,) * action_spent(code, value)
                     for value in range(1, 5)), ())
    return move, card, mine, cards, bool(action_uses_digger(code))


# --- Python: the engine --------------------------------------------------------------------------

_LIST_FIELDS = ("box", "center", "dwarf_discard", "mine_discard")
_SEAT_LIST_FIELDS = ("hands", "hand_seen", "loot")
_SCALAR_FIELDS = ("shuffles", "door_owner", "door_mine", "employee", "exterminator", "to_move",
                  "phase", "pending", "dig_mine", "digger", "dig_left", "passes", "turn",
                  "chance")
FIELDS = (("players", "intro", "dig_may_stop", "mines", "pile", "hand_never", "warriors", "seen", "boosts")
          + _LIST_FIELDS + _SEAT_LIST_FIELDS + _SCALAR_FIELDS)


cdef list set_list(const CardSet* cards):
    cdef uint8_t out[256]
    cdef int n = set_to_array(cards, out)
    return [out[i] for i in range(n)]


cdef void fill_set(CardSet* cards, values, str where) except *:
    set_clear(cards)
    for card in values:
        if not 0 <= card < KINDS:
            raise ValueError(f"{where}: {card!r} is not a card id")
        if cards.count[card] == 255:
            raise ValueError(f"{where}: too many cards")
        set_add(cards, card)


cdef class TunhellEngine:
    """One game on the C struct, for Python callers (tests, drivers). Actions are ints (codes,
    see ``kernels/tunhell.pxd``); :func:`encode_action` / :func:`decode_action` translate.

    ``TunhellEngine(players, intro, seed, dig_may_stop)`` sets up a game as the reference's
    ``new_game``; :meth:`from_fields` / :meth:`fields` exchange a whole state as a dict keyed by
    the reference State's field names (its ``rules`` as ``players``, ``intro`` and
    ``dig_may_stop``). Cython callers reach the struct as ``engine.state`` (declared in the
    .pxd)."""

    def __init__(self, int players=2, bint intro=False, uint64_t seed=0,
                 bint dig_may_stop=False):
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"Tunhell is for 2 to 4 players, got {players}")
        new_game(&self.state, players, intro, seed)
        self.state.dig_may_stop = dig_may_stop

    # -- conversions --

    @staticmethod
    def from_fields(dict fields):
        """A state from :meth:`fields`' dict. Raises ValueError if it does not fit the struct or
        breaks the card count of its game."""
        cdef TunhellEngine engine = TunhellEngine.__new__(TunhellEngine)
        cdef GameState* s = &engine.state
        missing = [f for f in FIELDS if f not in fields]
        if missing:
            raise ValueError(f"missing field(s) {', '.join(missing)}")
        players, chance = fields["players"], fields["chance"]
        if not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"Tunhell is for 2 to 4 players, got {players!r}")
        if not isinstance(chance, int) or not 0 <= chance < 2 ** 64:
            raise ValueError(f"chance: {chance!r} is not a 64-bit word")
        reset_state(s, players, fields["intro"], chance)
        s.dig_may_stop = bool(fields["dig_may_stop"])
        _fill_table(s, fields)
        _fill_seats(s, fields)
        _fill_scalars(s, fields)
        _check_control(s)
        _check_census(s)
        return engine

    def fields(self):
        """The whole state as a dict of plain values under the reference State's field names."""
        cdef GameState* s = &self.state
        cdef int p, m, i
        n = s.players
        return {
            "players": s.players, "intro": bool(s.intro), "dig_may_stop": bool(s.dig_may_stop),
            "mines": [[s.mines[m].cards[i] for i in range(s.mines[m].size)]
                      for m in range(MINES)],
            "box": set_list(&s.box), "pile": [s.pile.cards[i] for i in range(s.pile.size)],
            "shuffles": s.shuffles, "center": set_list(&s.center),
            "dwarf_discard": set_list(&s.dwarf_discard),
            "mine_discard": set_list(&s.mine_discard),
            "hands": [set_list(&s.seats[p].hand) for p in range(n)],
            "hand_seen": [set_list(&s.seats[p].hand_seen) for p in range(n)],
            "hand_never": [s.seats[p].hand_never for p in range(n)],
            "warriors": [[set_list(&s.seats[p].warriors[m]) for m in range(MINES)]
                         for p in range(n)],
            "loot": [set_list(&s.seats[p].loot) for p in range(n)],
            "seen": [[s.seats[p].seen[m] for m in range(MINES)] for p in range(n)],
            "door_owner": s.door_owner, "door_mine": s.door_mine, "employee": s.employee,
            "exterminator": s.exterminator, "to_move": s.to_move, "phase": s.phase,
            "pending": s.pending, "dig_mine": s.dig_mine, "digger": s.digger,
            "boosts": [NAWAK] * s.boosts[0] + [PICKAXE] * s.boosts[1] + [BEER] * s.boosts[2],
            "dig_left": s.dig_left, "passes": s.passes, "turn": s.turn, "chance": s.chance,
        }

    # -- play --

    def legal_actions(self):
        """Action codes in the reference's order ([] once the game is over)."""
        cdef action_t out[MAX_ACTIONS]
        cdef int n = legal_actions(&self.state, out), i
        return [out[i] for i in range(n)]

    def apply(self, action_t action):
        """Play a legal action code (ValueError if it is not legal here)."""
        cdef action_t out[MAX_ACTIONS]
        cdef int n = legal_actions(&self.state, out), i
        for i in range(n):
            if out[i] == action:
                apply_action(&self.state, action)
                return
        raise ValueError(f"illegal action {decode_action(action)} in phase {self.state.phase}")

    def apply_index(self, int index):
        """Play the ``index``-th legal action."""
        cdef action_t out[MAX_ACTIONS]
        cdef int n = legal_actions(&self.state, out)
        if not 0 <= index < n:
            raise IndexError(f"action index {index} out of 0..{n - 1}")
        apply_action(&self.state, out[index])

    def random_playout(self, uint64_t seed):
        """Play uniformly random actions to the end (choice generator: splitmix64 from ``seed``,
        index ``((output >> 32) * count) >> 32``); returns the number of actions played."""
        cdef uint64_t rng = seed
        cdef int played
        with nogil:
            played = random_playout(&self.state, &rng)
        return played

    def policy_scores(self):
        """The rollout policy's score of each legal action (legal order)."""
        cdef action_t out[MAX_ACTIONS]
        cdef int n = legal_actions(&self.state, out), i
        return [action_score(&self.state, out[i]) for i in range(n)]

    def policy_playout(self, uint64_t seed, double epsilon):
        """Play the rollout policy to the end (choice generator: splitmix64 from ``seed``; see
        :func:`policy_choice`); returns the number of actions played."""
        cdef uint64_t rng = seed
        cdef int played
        with nogil:
            played = policy_playout(&self.state, &rng, epsilon)
        return played

    def clone(self):
        cdef TunhellEngine other = TunhellEngine.__new__(TunhellEngine)
        other.state = self.state
        return other

    # -- questions --

    def is_over(self):
        return is_over(&self.state)

    def current_player(self):
        return current_player(&self.state)

    @property
    def players(self):
        return self.state.players

    @property
    def phase(self):
        return self.state.phase

    def scores(self):
        cdef int out[MAX_PLAYERS]
        scores(&self.state, out)
        return tuple(out[i] for i in range(self.state.players))

    def result(self):
        cdef double out[MAX_PLAYERS]
        result(&self.state, out)
        return tuple(out[i] for i in range(self.state.players))


cdef void _fill_table(GameState* s, dict f) except *:
    cdef int m, i
    if len(f["mines"]) != MINES:
        raise ValueError(f"mines: {MINES} piles expected")
    for m, pile in enumerate(f["mines"]):
        if len(pile) > MINE_CAPACITY:
            raise ValueError(f"mines[{m}]: at most {MINE_CAPACITY} cards fit the engine")
        for i, card in enumerate(pile):
            if not 0 <= card < KINDS:
                raise ValueError(f"mines[{m}][{i}]: {card!r} is not a card id")
            s.mines[m].cards[i] = card
        s.mines[m].size = len(pile)
    if len(f["pile"]) > PILE_CAPACITY:
        raise ValueError(f"pile: at most {PILE_CAPACITY} cards")
    for i, card in enumerate(f["pile"]):
        if not 0 <= card < KINDS:
            raise ValueError(f"pile[{i}]: {card!r} is not a card id")
        s.pile.cards[i] = card
    s.pile.size = len(f["pile"])
    fill_set(&s.box, f["box"], "box")
    fill_set(&s.center, f["center"], "center")
    fill_set(&s.dwarf_discard, f["dwarf_discard"], "dwarf_discard")
    fill_set(&s.mine_discard, f["mine_discard"], "mine_discard")


cdef void _fill_seats(GameState* s, dict f) except *:
    cdef int p, m
    for name in ("hands", "hand_seen", "hand_never", "warriors", "loot", "seen"):
        if len(f[name]) != s.players:
            raise ValueError(f"{name}: one entry per seat expected")
    for p in range(s.players):
        fill_set(&s.seats[p].hand, f["hands"][p], f"hands[{p}]")
        if s.seats[p].hand.size > HAND_LIMIT:
            raise ValueError(f"hands[{p}]: at most {HAND_LIMIT} cards")
        fill_set(&s.seats[p].hand_seen, f["hand_seen"][p], f"hand_seen[{p}]")
        for kind in range(KINDS):   # hidden counts (hand minus seen) must not go negative
            if s.seats[p].hand_seen.count[kind] > s.seats[p].hand.count[kind]:
                raise ValueError(f"hand_seen[{p}]: card {kind} is not in the hand")
        fill_set(&s.seats[p].loot, f["loot"][p], f"loot[{p}]")
        s.seats[p].hand_never = _mask(f["hand_never"][p], f"hand_never[{p}]")
        for m in range(MINES):
            fill_set(&s.seats[p].warriors[m], f["warriors"][p][m], f"warriors[{p}][{m}]")
            if (s.seats[p].warriors[m].kinds & PROUD_MASK
                    and s.seats[p].warriors[m].size > 1):
                raise ValueError(f"warriors[{p}][{m}]: a proud Warrior stands alone")
            s.seats[p].seen[m] = _mask(f["seen"][p][m], f"seen[{p}][{m}]")
            if s.seats[p].seen[m] >> s.mines[m].size:
                raise ValueError(f"seen[{p}][{m}]: a position outside the mine")


cdef uint32_t _mask(value, str where) except? 0:
    if not isinstance(value, int) or not 0 <= value < 2 ** 32:
        raise ValueError(f"{where}: {value!r} is not a 32-bit mask")
    return value


# Range of each scalar field as the struct holds it (a value outside is refused before the
# assignment, which would raise OverflowError or wrap around).
_SCALAR_RANGES = {"shuffles": (0, 2 ** 31 - 1), "turn": (0, 2 ** 31 - 1),
                  "door_owner": (-1, 127), "door_mine": (-1, 127), "employee": (-1, 127),
                  "exterminator": (-1, 127), "to_move": (-1, 127), "phase": (-1, 127),
                  "pending": (-1, 127), "dig_mine": (-1, 127), "digger": (-1, 127),
                  "dig_left": (0, 127), "passes": (0, 127), "chance": (0, 2 ** 64 - 1)}


cdef void _fill_scalars(GameState* s, dict f) except *:
    cdef int i
    for name, (low, high) in _SCALAR_RANGES.items():
        value = f[name]
        if not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{name}: {value!r} does not fit the engine ({low}..{high})")
    s.shuffles, s.turn = f["shuffles"], f["turn"]
    s.door_owner, s.door_mine = f["door_owner"], f["door_mine"]
    s.employee, s.exterminator = f["employee"], f["exterminator"]
    s.to_move, s.phase, s.pending = f["to_move"], f["phase"], f["pending"]
    s.dig_mine, s.digger, s.dig_left = f["dig_mine"], f["digger"], f["dig_left"]
    s.passes = f["passes"]
    for i, bonus in enumerate((NAWAK, PICKAXE, BEER)):
        s.boosts[i] = list(f["boosts"]).count(bonus)
    if sum(s.boosts[i] for i in range(3)) != len(f["boosts"]):
        raise ValueError("boosts: Bonus cards only")


cdef void _check_control(const GameState* s) except *:
    """The scalars the C code indexes with are in range, and the phase has what it resolves
    (as the reference's check_info): a state that passes cannot make the engine read out of
    bounds."""
    seats, mines = range(s.players), range(MINES)
    for name, value, allowed in (
            ("to_move", s.to_move, seats), ("phase", s.phase, range(PHASE_DIG_ON + 1)),
            ("door_owner", s.door_owner, range(NOBODY, s.players)),
            ("door_mine", s.door_mine, range(NO_MINE, MINES)),
            ("employee", s.employee, range(NOBODY, s.players)),
            ("exterminator", s.exterminator, range(NOBODY, s.players)),
            ("pending", s.pending, range(NO_CARD, KINDS)),
            ("dig_mine", s.dig_mine, range(NO_MINE, MINES)),
            ("digger", s.digger, range(NO_CARD, KINDS)),
            ("passes", s.passes, range(s.players + 1)), ("dig_left", s.dig_left, range(128)),
            ("shuffles", s.shuffles, range(2 ** 31)), ("turn", s.turn, range(2 ** 31))):
        if value not in allowed:
            raise ValueError(f"{name}: {value} out of range")
    digging = s.phase in (PHASE_FIGHT, PHASE_GOLDEN_HEART, PHASE_BACK_DOOR, PHASE_DIG_ON)
    if digging or s.digger != NO_CARD:
        if not (s.digger != NO_CARD and CARD[s.digger].role == ROLE_DIGGER and s.dig_mine in mines):
            raise ValueError("dig: a dig needs a Digger and a mine")
    if s.phase == PHASE_DIG_ON and not (s.dig_may_stop and s.dig_left > 0
                                        and s.mines[s.dig_mine].size > 0):
        raise ValueError("phase dig-on: only under dig_may_stop, with draws and cards left")
    needs = {PHASE_FIGHT: ROLE_ENEMY, PHASE_GOLDEN_HEART: ROLE_GOLDEN_HEART,
             PHASE_BACK_DOOR: ROLE_BACK_DOOR}
    if s.phase in needs:
        ok = s.pending != NO_CARD and CARD[s.pending].role == needs[s.phase]
    elif s.phase == PHASE_PLAY_NOW:
        ok = (s.pending != NO_CARD and CARD[s.pending].play_now
              and s.seats[s.to_move].hand.count[s.pending] > 0)
    else:
        ok = s.pending == NO_CARD
    if not ok:
        raise ValueError(f"pending: card {s.pending} does not fit phase {s.phase}")
    cdef action_t actions[MAX_ACTIONS]
    if s.phase != PHASE_OVER and legal_actions(s, actions) == 0:
        raise ValueError(f"phase {s.phase}: seat {s.to_move} has no legal action (the rules "
                         "never leave a player without one)")


cdef void count_set(list found, const CardSet* cards) noexcept:
    cdef int kind
    for kind in range(KINDS):
        found[kind] += cards.count[kind]


cdef void _check_census(const GameState* s) except *:
    """Every card of the game is somewhere, once (the reference's conservation invariant); this
    also bounds every count the struct and the action codes hold."""
    cdef int p, m, i, kind
    found = [0] * KINDS
    count_set(found, &s.box)
    count_set(found, &s.center)
    count_set(found, &s.dwarf_discard)
    count_set(found, &s.mine_discard)
    for p in range(s.players):
        count_set(found, &s.seats[p].hand)
        count_set(found, &s.seats[p].loot)
        for m in range(MINES):
            count_set(found, &s.seats[p].warriors[m])
    for m in range(MINES):
        for i in range(s.mines[m].size):
            found[s.mines[m].cards[i]] += 1
    for i in range(s.pile.size):
        found[s.pile.cards[i]] += 1
    for i in range(3):
        found[NAWAK + i] += s.boosts[i]
    if s.digger != NO_CARD:
        found[s.digger] += 1
    if s.door_owner != NOBODY:
        found[BACK_DOOR] += 1
    if s.phase in (PHASE_FIGHT, PHASE_GOLDEN_HEART, PHASE_BACK_DOOR):
        found[s.pending] += 1
    expected = [0 if s.intro and CARD[kind].full_only else CARD[kind].count
                for kind in range(KINDS)]
    if found != expected:
        wrong = [kind for kind in range(KINDS) if found[kind] != expected[kind]]
        raise ValueError(f"card kinds {wrong} appear {[found[k] for k in wrong]} times, "
                         f"the game holds {[expected[k] for k in wrong]}")


cdef uint64_t POLICY_SALT_C = 0xD1B54A32D192ED03
POLICY_SALT = POLICY_SALT_C     # keeps the choice generator apart from the game's chance stream


def random_games(int players, bint intro, uint64_t seed, int games):
    """Play ``games`` complete random games in C: game i is ``new_game(players, intro, seed + i)``
    with its choices from splitmix64 seeded ``(seed + i) ^ POLICY_SALT``. Returns the total number
    of actions (for benchmarks: no Python work per game)."""
    cdef GameState s
    cdef uint64_t rng, i
    cdef long total = 0
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"Tunhell is for 2 to 4 players, got {players}")
    with nogil:
        for i in range(<uint64_t>games):
            new_game(&s, players, intro, seed + i)
            rng = (seed + i) ^ POLICY_SALT_C
            total += random_playout(&s, &rng)
    return total


# cython: language_level=3
"""Typed interface of the Tunhell engine (``kernels/tunhell.pyx``) for other Cython modules.

The rules are those of ``solver.games.tunhell`` (the plain-Python reference, the oracle this
engine is checked against action by action); its module docstring lists every rule decision.
Search modules use it like this::

    from kernels.tunhell cimport GameState, action_t, MAX_ACTIONS, legal_actions, apply_action
    cdef GameState s = root          # a GameState is plain data: copying it is a clone
    cdef action_t moves[MAX_ACTIONS]
    cdef int n = legal_actions(&s, moves)
    apply_action(&s, moves[i])

Every function here is ``noexcept nogil`` and does no allocation: callers may run them in
``prange`` threads, each thread on its own GameState.

Layout of a GameState (1336 bytes, ``STATE_BYTES``; no pointers, so ``a = b`` copies a game)::

    GameState
      chance        uint64   splitmix64 state; setup, Dwarf pile reshuffles and the Ghost's pick
                             draw from it, so a state alone fixes its future (same as the reference)
      turn          int32    turns played
      shuffles      int32    times the Dwarf discard became a new pile
      players       uint8    2..4
      intro         uint8    1: introductory rules (no "+" cards, no End of Mine, no trophies)
      dig_may_stop  uint8    1: rule option, the Digger may stop after any card (phase DIG_ON)
      to_move       int8     seat whose decision is awaited
      phase         int8     Phase (TURN .. OVER), as in the reference
      pending       int8     card being resolved (FIGHT: the enemy, GOLDEN_HEART, BACK_DOOR) or
                             the play-now card just recruited (PLAY_NOW); else NO_CARD
      passes        int8     passes in a row
      dig_mine      int8     a dig in progress: its mine (NO_MINE when none),
      digger        int8       its Digger (NO_CARD when none),
      boosts[3]     uint8      how many Nawak, Old Pickaxe, Beer of Courage go with it,
      dig_left      int8       and the draws it has left
      door_owner    int8     seat holding the Back Door, or NOBODY
      door_mine     int8     mine it faces, or NO_MINE (a door found as the game ends faces none)
      employee      int8     holder of the Employee of the Month trophy, or NOBODY
      exterminator  int8     holder of the Exterminator trophy, or NOBODY
      mines[3]      Mine     cards[i] is the i-th card from the bottom; the top is cards[size-1]
      pile          Pile     the Dwarf pile, bottom first; its top (cards[size-1]) is face up
      center, dwarf_discard, mine_discard, box      CardSet (multisets of card kinds)
      seats[4]      Seat     only the first ``players`` are used
        hand, hand_seen, loot     CardSet; hand_seen: the part of the hand everyone knows
        warriors[3]               CardSet of the seat's Warriors in front of each mine
        hand_never                bit k: the unseen part of the hand holds no card of kind k
        seen[3]                   bit i: the seat knows the card at position i of that mine

A CardSet holds copies per kind (``count[k]``), the set of kinds present (``kinds``, bit k) and
the number of cards (``size``); the reference's sorted lists are these multisets in id order.

Cards are kind ids 0..31 (``Kind`` below, the order of ``solver.games.tunhell_cards.CARDS``).

An action is an ``action_t`` (uint32) whose fields mirror the reference's ``Action``::

    bit  31   28 27  26    24 23  21 20  18 17  15 14 13 12  11  10 9 8     4 3    0
        +-------+--+--------+------+------+------+-----+---+---+----+-------+------+
        |   0   |dg|   W4   |  W3  |  W2  |  W1  |beer |pk |sw |mine| card  | move |
        +-------+--+--------+------+------+------+-----+---+---+----+-------+------+

    move  Move (MOVE_PASS .. MOVE_STOP), the reference's ``Move`` values
    card  RECRUIT, WARRIOR, DIGGER, SCOUT, DYNAMITE, HEART: the card kind; otherwise 0
    mine  WARRIOR, DIGGER, SCOUT, DYNAMITE, DOOR: the mine; otherwise 0
    sw, pk, beer   DIGGER: copies of Nawak, the Old Pickaxe, the Beer played with the Digger
    W1..W4         FIGHT: copies of each Warrior value discarded
    dg             FIGHT: the Digger's combat bonus is used
Fields a move does not use are 0, so equal actions have equal codes (search may key on them).
:func:`legal_actions` lists them in the reference's order.

Bounds. ``TunhellEngine.from_fields`` is the only door for outside data; it refuses anything the
C code could index out of range: scalars outside their fields' ranges (turn, shuffles < 2^31,
masks < 2^32, seats, mines, cards), card ids >= KINDS, piles longer than MINE_CAPACITY /
PILE_CAPACITY, a hand over HAND_LIMIT, hand_seen not inside hand (hidden counts are never
negative), seen bits beyond a mine's size, a card census other than the game's (so every count
is at most a kind's copies), and a state whose mover has no legal action. From there the rules
keep the bounds: a mine only regains the card just drawn from it (put_back follows draw), hands
never pass HAND_LIMIT, and the census caps the action lists: a fight has at most
8 * 6 * 5 * 2 = 480 choices (7, 5, 4 copies of Warriors 1-3; the proud Warrior 4 stands alone),
a turn at most 5 recruits + 6 hand kinds * 3 mines * 12 Bonus multisets, both < MAX_ACTIONS.
Search entry points check the action codes they are handed (``pimc_rounds``: legal in the base
state) and stop at a state without actions instead of indexing a missing child.
"""
from libc.stdint cimport int8_t, int32_t, uint8_t, uint32_t, uint64_t

cdef enum:
    KINDS = 32
    MINES = 3
    MAX_PLAYERS = 4
    HAND_LIMIT = 6
    CENTER_SIZE = 5
    MINE_CAPACITY = 24      # a dealt mine holds at most 18 cards (full game: 17 + End of Mine)
    PILE_CAPACITY = 44      # every Dwarf card
    MAX_ACTIONS = 512       # a fight with all 16 small Warriors at one mine has 480 choices
    NO_CARD = -1
    NO_MINE = -1
    NOBODY = -1

cdef enum:    # Kind
    WARRIOR_1, WARRIOR_2, WARRIOR_3, WARRIOR_4,
    DIGGER_2_0, DIGGER_2_1, DIGGER_4_3, DIGGER_1_2, DIGGER_3_0, DIGGER_2_5,
    SCOUT_5, SCOUT_3, DYNAMITER,
    DIRT, TREASURE, RAT, GOBLIN, ORC, TROLL, DRAGON,
    MACHIN, DWOUARF, NAWAK, PICKAXE, BEER, RING, GOLDEN_HEART, GHOST,
    BACK_DOOR, THRONE_ROOM, SPIDER, DEMON

cdef enum:    # Phase
    PHASE_TURN, PHASE_PLAY_NOW, PHASE_FIGHT, PHASE_GOLDEN_HEART, PHASE_BACK_DOOR, PHASE_OVER,
    PHASE_DIG_ON

cdef enum:    # Move
    MOVE_PASS, MOVE_RECRUIT, MOVE_WARRIOR, MOVE_DIGGER, MOVE_SCOUT, MOVE_DYNAMITE, MOVE_FIGHT,
    MOVE_HEART, MOVE_DOOR, MOVE_DIG_ON, MOVE_STOP

# Bit positions of the action fields (see the diagram above).
cdef enum:
    CARD_SHIFT = 4
    MINE_SHIFT = 9
    SWORD_SHIFT = 11
    PICKAXE_SHIFT = 12
    BEER_SHIFT = 13
    SPENT_SHIFT = 15        # Warrior value v (1..4) at SPENT_SHIFT + 3 * (v - 1), 3 bits each
    USE_DIGGER_SHIFT = 27

ctypedef uint32_t action_t

cdef struct CardSet:
    uint8_t count[KINDS]
    uint32_t kinds
    uint8_t size

cdef struct Mine:
    uint8_t cards[MINE_CAPACITY]
    uint8_t size

cdef struct Pile:
    uint8_t cards[PILE_CAPACITY]
    uint8_t size

cdef struct Seat:
    CardSet hand
    CardSet hand_seen
    CardSet loot
    CardSet warriors[MINES]
    uint32_t hand_never
    uint32_t seen[MINES]

cdef struct GameState:
    uint64_t chance
    int32_t turn
    int32_t shuffles
    uint8_t players
    uint8_t intro
    uint8_t dig_may_stop
    int8_t to_move
    int8_t phase
    int8_t pending
    int8_t passes
    int8_t dig_mine
    int8_t digger
    uint8_t boosts[3]
    int8_t dig_left
    int8_t door_owner
    int8_t door_mine
    int8_t employee
    int8_t exterminator
    Mine mines[MINES]
    Pile pile
    CardSet center
    CardSet dwarf_discard
    CardSet mine_discard
    CardSet box
    Seat seats[MAX_PLAYERS]


# --- the game (see the reference for each rule) --------------------------------------------------

cdef void new_game(GameState* s, int players, bint intro, uint64_t seed) noexcept nogil
    # Setup exactly as the reference's new_game(Rules(players, intro), seed).
cdef int legal_actions(const GameState* s, action_t* out) noexcept nogil
    # Writes the legal actions (at most MAX_ACTIONS) in the reference's order; returns how many
    # (0 once the game is over).
cdef void apply_action(GameState* s, action_t action) noexcept nogil
    # Plays a legal action in place, with the draws and effects that follow it, up to the next
    # decision. An illegal action is not detected (callers take actions from legal_actions).
cdef int random_playout(GameState* s, uint64_t* rng) noexcept nogil
    # Plays uniformly random legal actions to the end (action index: random_below(rng, count));
    # returns the number of actions played.
cdef int policy_playout(GameState* s, uint64_t* rng, double epsilon) noexcept nogil
    # Plays the heuristic rollout policy to the end (solver.games.tunhell.rollout is its
    # reference): the best-scored action, or with probability epsilon a random one.
cdef double action_score(const GameState* s, action_t a) noexcept nogil
    # The rollout policy's score of a legal action of the seat to move.
cdef void scores(const GameState* s, int* out) noexcept nogil
    # Victory points per seat (out[0 .. players-1]): loot, Rings in hand, Back Door, trophies.
cdef void result(const GameState* s, double* out) noexcept nogil
    # Per seat: 1/k for each of the k winners (most points, then most Treasure cards), else 0.


# --- the Python wrapper: a Cython module handed one can work on ``engine.state`` directly ---------

cdef class TunhellEngine:
    cdef GameState state


# --- small inline helpers shared with search modules ---------------------------------------------

cdef inline bint is_over(const GameState* s) noexcept nogil:
    return s.phase == PHASE_OVER

cdef inline int current_player(const GameState* s) noexcept nogil:
    return s.to_move

cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    # One step of splitmix64 (the reference's generator): advances ``state``, returns 64 bits.
    cdef uint64_t z
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline uint32_t random_below(uint64_t* rng, uint32_t n) noexcept nogil:
    # A number in 0..n-1 for search and playout choices: the high 32 bits of a splitmix64 output
    # scaled by n (kernels._random.below: a multiply, no division). Chance events inside the
    # rules use ``output % n`` instead, as the reference does.
    return <uint32_t>(((splitmix64(rng) >> 32) * n) >> 32)

cdef inline action_t make_action(int move, int card, int mine) noexcept nogil:
    return <action_t>move | (<action_t>card << CARD_SHIFT) | (<action_t>mine << MINE_SHIFT)

cdef inline int action_move(action_t a) noexcept nogil:
    return a & 0xF

cdef inline int action_card(action_t a) noexcept nogil:
    return (a >> CARD_SHIFT) & 0x1F

cdef inline int action_mine(action_t a) noexcept nogil:
    return (a >> MINE_SHIFT) & 0x3

cdef inline int action_swords(action_t a) noexcept nogil:
    return (a >> SWORD_SHIFT) & 0x1

cdef inline int action_pickaxes(action_t a) noexcept nogil:
    return (a >> PICKAXE_SHIFT) & 0x1

cdef inline int action_beers(action_t a) noexcept nogil:
    return (a >> BEER_SHIFT) & 0x3

cdef inline int action_spent(action_t a, int value) noexcept nogil:
    # Copies of the Warrior of combat ``value`` (1..4) a FIGHT action discards.
    return (a >> (SPENT_SHIFT + 3 * (value - 1))) & 0x7

cdef inline bint action_uses_digger(action_t a) noexcept nogil:
    return (a >> USE_DIGGER_SHIFT) & 0x1

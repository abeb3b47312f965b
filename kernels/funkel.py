"""Funkel Munkel: packed state, pushes, gems and random playouts (Numba).

The same rules as ``solver.games.funkel`` (the reference, checked move by move against this
kernel in tests/test_funkel_kernel.py) on eight uint64 words. The board layouts are data here
too (``RAILS``, ``SHAFT_CELLS``, ``COLOUR_CELLS``, ``COMMON_CELLS``), copied from the reference
because kernels never import ``solver``; a test checks the copies agree.

Packed state ``(w0, ..., w7)``::

    w0, w1  cells 0-7 and 8-15, one byte per cell (cell i: word i // 8, byte i % 8)
            bit  7   6    5  4  3   2  1  0
               +---+----+---------+---------+
               | 0 |seen|  gem+1  | kind+1  |   kind+1: 0 no cart, 1-4 colour 0-3, 5 common
               +---+----+---------+---------+   gem+1: 0 empty cart; seen: the gem is public
    w2, w3  shafts 0-2 and 3-5, 21 bits per shaft at bit 21*(s % 3)
    w4      shafts 6-7 (bits 0-41) | hands: 3 bits per colour at bit 42 + 3c | supply: bits 54-57
            a shaft = 7 slots of 3 bits (gem+1), bottom gem in the low slot, 0 = no gem; a gem
            falls by reading the low slot and shifting the shaft right by 3
    w5, w6  displays of colours 0-1 and 2-3: 24 bits per display at bit 24*(c % 2),
            4 bits per gem count at bit 4g (a count never passes 5: 5 of a kind wins)
    w7      control: bit 63      48 47       32 31      16 15  12 11  8 7 6  5  4  2 1  0
                     +----------+-----------+----------+------+------+--+--+--+-----+----+
                     |    0     |max_pushes |  pushes  | goal |pendng|0 |hs|ly| pl  | tm |
                     +----------+-----------+----------+------+------+--+--+--+-----+----+
            tm: seat to move; pl: players; ly: layout (0 pinwheel, 1 crossing); hs: hidden
            shafts; pending: gem+1 awaiting a 2-player display choice; goal: seat+1 of the seat
            whose display reached the goal (set when the gem is placed, so is_over stays cheap).

Actions (int64): ``rail * 5 + kind`` pushes a cart of ``kind`` (colour 0-3, 4 common) into a rail
(0-19); ``PLACE + colour`` puts the pending gem on that colour's display; ``PASS``.
"""
import numpy as np
from numba import types

from kernels._jit import kernel

WORDS = 8
STATE = types.UniTuple(types.uint64, WORDS)
U64, I64 = types.uint64, types.int64
WORDS_ARRAY = types.uint64[::1]

COMMON = 4
KINDS = 5
PLACE = 20
PASS = 24
MAX_ACTIONS = 20
GEMS = 6
GEM_COUNTS = np.array([12, 11, 10, 9, 8, 6], np.int64)
GOAL_DIFFERENT, GOAL_SAME = 6, 5
LAYOUT_NAMES = ("pinwheel", "crossing")

# Layout tables, [layout, ...]; rails padded with -1 (pinwheel rails have 4 cells, crossing 5).
RAILS = np.array([[[0, 1, 2, 3, -1], [4, 5, 6, 7, -1], [8, 9, 10, 11, -1], [12, 13, 14, 15, -1]],
                  [[0, 3, 7, 10, 14], [15, 12, 8, 5, 1], [6, 5, 4, 3, 2], [9, 10, 11, 12, 13]]],
                 np.int64)
RAIL_LENGTH = np.array([4, 5], np.int64)
SHAFT_CELLS = np.array([[0, 2, 4, 6, 8, 10, 12, 14], [0, 3, 5, 6, 9, 10, 12, 15]], np.int64)
COLOUR_CELLS = np.array([[1, 5, 9, 13], [7, 8, 4, 11]], np.int64)
COMMON_CELLS = np.array([[3, 7, 11, 15], [14, 1, 2, 13]], np.int64)

# Control word fields: (shift, width).
TO_MOVE, PLAYERS, LAYOUT, HIDDEN, PENDING, GOAL = (0, 2), (2, 3), (5, 1), (6, 1), (8, 3), (12, 3)
PUSHES, MAX_PUSHES = (16, 16), (32, 16)
HAND_SHIFT, SUPPLY_SHIFT = 42, 54
SHAFT_BITS = 21
SHAFTS_IN_W4 = np.uint64((1 << 42) - 1)
GEM_BYTES = np.uint64(0x3838383838383838)   # the gem+1 field of every cell byte


@kernel(I64(U64, I64, I64))
def bits(word, shift, width):
    """The ``width``-bit field of ``word`` at ``shift``."""
    mask = (np.uint64(1) << np.uint64(width)) - np.uint64(1)
    return np.int64((word >> np.uint64(shift)) & mask)


@kernel(U64(U64, I64, I64, I64))
def with_bits(word, shift, width, value):
    """``word`` with its ``width``-bit field at ``shift`` set to ``value``."""
    mask = ((np.uint64(1) << np.uint64(width)) - np.uint64(1)) << np.uint64(shift)
    return (word & ~mask) | ((np.uint64(value) << np.uint64(shift)) & mask)


@kernel(I64(WORDS_ARRAY, I64))
def get_cell(w, i):
    return bits(w[i >> 3], 8 * (i & 7), 8)


@kernel(types.void(WORDS_ARRAY, I64, I64))
def set_cell(w, i, byte):
    w[i >> 3] = with_bits(w[i >> 3], 8 * (i & 7), 8, byte)


@kernel(I64(WORDS_ARRAY, I64))
def get_shaft(w, s):
    return bits(w[2 + s // 3], SHAFT_BITS * (s % 3), SHAFT_BITS)


@kernel(types.void(WORDS_ARRAY, I64, I64))
def set_shaft(w, s, value):
    w[2 + s // 3] = with_bits(w[2 + s // 3], SHAFT_BITS * (s % 3), SHAFT_BITS, value)


@kernel(I64(WORDS_ARRAY, I64, I64))
def get_count(w, colour, gem):
    return bits(w[5 + colour // 2], 24 * (colour % 2) + 4 * gem, 4)


@kernel(I64(I64, I64))
def owner_of(colour, players):
    """The seat playing a colour (3 players never deliver to colour 3: its carts are common)."""
    return colour % 2 if players == 2 else colour


@kernel(types.boolean(WORDS_ARRAY, I64))
def reached_goal(w, colour):
    different, most = 0, 0
    for gem in range(GEMS):
        n = get_count(w, colour, gem)
        different += n > 0
        most = max(most, n)
    return different >= GOAL_DIFFERENT or most >= GOAL_SAME


@kernel(types.void(WORDS_ARRAY, I64, I64))
def place_gem(w, colour, gem):
    """Add a gem to a colour's display; the win test runs at every gem placed."""
    k, shift = 5 + colour // 2, 24 * (colour % 2) + 4 * gem
    w[k] = with_bits(w[k], shift, 4, bits(w[k], shift, 4) + 1)
    if reached_goal(w, colour):
        players = bits(w[7], PLAYERS[0], PLAYERS[1])
        w[7] = with_bits(w[7], GOAL[0], GOAL[1], owner_of(colour, players) + 1)


@kernel(types.void(WORDS_ARRAY))
def next_seat(w):
    players = bits(w[7], PLAYERS[0], PLAYERS[1])
    seat = bits(w[7], TO_MOVE[0], TO_MOVE[1])
    w[7] = with_bits(w[7], TO_MOVE[0], TO_MOVE[1], (seat + 1) % players)


@kernel(types.boolean(STATE))
def is_over(state):
    """A display reached the goal; or, no display choice pending, the push limit is reached or
    no gem can be delivered any more (shafts empty, no loaded cart)."""
    control = state[7]
    if bits(control, GOAL[0], GOAL[1]) != 0:
        return True
    if bits(control, PENDING[0], PENDING[1]) != 0:
        return False
    if bits(control, PUSHES[0], PUSHES[1]) >= bits(control, MAX_PUSHES[0], MAX_PUSHES[1]):
        return True
    in_shafts = (state[2] | state[3] | (state[4] & SHAFTS_IN_W4)) != 0
    in_carts = ((state[0] | state[1]) & GEM_BYTES) != 0
    return not (in_shafts or in_carts)


@kernel(I64(STATE))
def to_move(state):
    return bits(state[7], TO_MOVE[0], TO_MOVE[1])


@kernel(I64(STATE, types.int64[::1]))
def legal_actions(state, out):
    """Write the legal actions into ``out`` (room for MAX_ACTIONS); return how many (0 once the
    game is over). Same order as the reference: display choices; else own colours' pushes, colour
    by colour, rail by rail; else common-cart pushes; else PASS."""
    if is_over(state):
        return 0
    control = state[7]
    seat, players = bits(control, TO_MOVE[0], TO_MOVE[1]), bits(control, PLAYERS[0], PLAYERS[1])
    second = seat + 2 if players == 2 else -1      # 2 players: seat s plays colours s and s+2
    if bits(control, PENDING[0], PENDING[1]) != 0:
        out[0], out[1] = PLACE + seat, PLACE + second
        return 2
    n = 0
    for colour in (seat, second):
        if colour >= 0 and bits(state[4], HAND_SHIFT + 3 * colour, 3) > 0:
            for rail in range(4):
                out[n] = rail * KINDS + colour
                n += 1
    if n == 0 and bits(state[4], SUPPLY_SHIFT, 4) > 0:
        for rail in range(4):
            out[n] = rail * KINDS + COMMON
            n += 1
    if n == 0:
        out[0] = PASS
        n = 1
    return n


@kernel(types.void(WORDS_ARRAY, I64, I64))
def push(w, rail, kind):
    """Step 1: take the cart from hand or supply. Step 2: move the block of touching carts from
    the entrance one cell on; a full rail's last cart leaves and is paid out. Step 3: every empty
    cart under a non-empty shaft takes the shaft's bottom gem."""
    control = w[7]
    layout, players = bits(control, LAYOUT[0], LAYOUT[1]), bits(control, PLAYERS[0], PLAYERS[1])
    seat = bits(control, TO_MOVE[0], TO_MOVE[1])
    if kind == COMMON:
        w[4] = with_bits(w[4], SUPPLY_SHIFT, 4, bits(w[4], SUPPLY_SHIFT, 4) - 1)
    else:
        w[4] = with_bits(w[4], HAND_SHIFT + 3 * kind, 3, bits(w[4], HAND_SHIFT + 3 * kind, 3) - 1)
    length = RAIL_LENGTH[layout]
    block = 0
    while block < length and get_cell(w, RAILS[layout, rail, block]) != 0:
        block += 1
    leaving = get_cell(w, RAILS[layout, rail, length - 1]) if block == length else 0
    for i in range(min(block, length - 1), 0, -1):
        set_cell(w, RAILS[layout, rail, i], get_cell(w, RAILS[layout, rail, i - 1]))
    set_cell(w, RAILS[layout, rail, 0], kind + 1)
    if leaving != 0:
        left_kind, gem = (leaving & 7) - 1, ((leaving >> 3) & 7) - 1
        if left_kind == COMMON:
            w[4] = with_bits(w[4], SUPPLY_SHIFT, 4, bits(w[4], SUPPLY_SHIFT, 4) + 1)
            if gem >= 0:
                if players == 2:          # the active player will choose a display
                    w[7] = with_bits(w[7], PENDING[0], PENDING[1], gem + 1)
                else:
                    place_gem(w, seat, gem)
        else:
            shift = HAND_SHIFT + 3 * left_kind
            w[4] = with_bits(w[4], shift, 3, bits(w[4], shift, 3) + 1)
            if gem >= 0:
                place_gem(w, left_kind, gem)
    hidden = bits(control, HIDDEN[0], HIDDEN[1])
    for s in range(8):
        cell = SHAFT_CELLS[layout, s]
        byte, shaft = get_cell(w, cell), get_shaft(w, s)
        if byte != 0 and (byte & 0x38) == 0 and shaft != 0:
            seen = 1 if shaft < 8 and hidden == 0 else 0    # the shaft's last, face-up gem
            set_cell(w, cell, byte | ((shaft & 7) << 3) | (seen << 6))
            set_shaft(w, s, shaft >> 3)
    w[7] = with_bits(w[7], PUSHES[0], PUSHES[1], bits(w[7], PUSHES[0], PUSHES[1]) + 1)


@kernel(STATE(STATE, I64))
def play(state, action):
    """The state after a legal ``action`` (not checked)."""
    w = np.empty(WORDS, np.uint64)
    for k in range(WORDS):
        w[k] = state[k]
    if action == PASS:
        next_seat(w)
    elif action >= PLACE:
        place_gem(w, action - PLACE, bits(w[7], PENDING[0], PENDING[1]) - 1)
        w[7] = with_bits(w[7], PENDING[0], PENDING[1], 0)
        next_seat(w)
    else:
        push(w, action // KINDS, action % KINDS)
        if bits(w[7], PENDING[0], PENDING[1]) == 0:
            next_seat(w)
    return (w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])


@kernel(I64(STATE, types.float64[::1]))
def result(state, out):
    """Per seat into ``out``: 1 win, 0 loss, tied leaders share 1 (most gems, then most gem
    colours, over all the seat's displays). Returns the number of players. Game must be over."""
    control = state[7]
    players = bits(control, PLAYERS[0], PLAYERS[1])
    goal = bits(control, GOAL[0], GOAL[1])
    for seat in range(players):
        out[seat] = 0.0
    if goal != 0:
        out[goal - 1] = 1.0
        return players
    w = np.empty(WORDS, np.uint64)
    for k in range(WORDS):
        w[k] = state[k]
    scores = np.zeros(4, np.int64)
    for seat in range(players):
        gems, colours = 0, 0
        for gem in range(GEMS):
            n = get_count(w, seat, gem) + (get_count(w, seat + 2, gem) if players == 2 else 0)
            gems += n
            colours += n > 0
        scores[seat] = gems * 8 + colours
    best = scores[:players].max()
    leaders = 0
    for seat in range(players):
        leaders += scores[seat] == best
    for seat in range(players):
        if scores[seat] == best:
            out[seat] = 1.0 / leaders
    return players


@kernel(types.UniTuple(U64, 2)(U64))
def splitmix64(seed):
    """(next generator state, a random 64-bit number): SplitMix64, the playouts' generator."""
    seed = seed + np.uint64(0x9E3779B97F4A7C15)
    z = seed
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return seed, z ^ (z >> np.uint64(31))


@kernel(STATE(STATE, U64))
def random_playout(state, seed):
    """Play uniformly random legal actions to the end; action k of n is drawn as
    ``splitmix64 output % n``. Returns the final state (read it with ``result``)."""
    actions = np.empty(MAX_ACTIONS, np.int64)
    while True:
        n = legal_actions(state, actions)
        if n == 0:
            return state
        seed, r = splitmix64(seed)
        state = play(state, actions[np.int64(r % np.uint64(n))])


# --- plain Python, for codecs and tests (never called from compiled code) -------------------------

def _field(word: int, field: tuple[int, int]) -> int:
    return (word >> field[0]) & ((1 << field[1]) - 1)


def _goal_reached(display) -> bool:
    return sum(1 for n in display if n) >= GOAL_DIFFERENT or max(display) >= GOAL_SAME


def pack(*, players, layout, cells, shafts, hands, supply, displays, to_move=0, pushes=0,
         pending=None, max_pushes=200, hidden_shafts=False):
    """The packed state. ``cells``: per cell None or (kind 0-4, gem 0-5 or None, seen);
    ``shafts``: 8 gem lists, bottom first; ``displays``: 4 rows of 6 counts; ``pending``: gem."""
    if not 0 <= pushes <= max_pushes < 1 << MAX_PUSHES[1]:
        raise ValueError(f"pushes {pushes} and max_pushes {max_pushes} must fit 16 bits")
    w = [0] * WORDS
    for i, cart in enumerate(cells):
        if cart is not None:
            kind, gem, seen = cart
            byte = kind + 1 | (0 if gem is None else gem + 1) << 3 | int(seen) << 6
            w[i // 8] |= byte << 8 * (i % 8)
    for s, gems in enumerate(shafts):
        value = sum((g + 1) << 3 * j for j, g in enumerate(gems))
        w[2 + s // 3] |= value << SHAFT_BITS * (s % 3)
    for c, n in enumerate(hands):
        w[4] |= n << HAND_SHIFT + 3 * c
    w[4] |= supply << SUPPLY_SHIFT
    for c, display in enumerate(displays):
        w[5 + c // 2] |= sum(n << 4 * g for g, n in enumerate(display)) << 24 * (c % 2)
    goal = [c for c, d in enumerate(displays) if _goal_reached(d)]
    owner = (goal[0] % 2 if players == 2 else goal[0]) + 1 if goal else 0
    fields = [(TO_MOVE, to_move), (PLAYERS, players), (LAYOUT, LAYOUT_NAMES.index(layout)),
              (HIDDEN, int(hidden_shafts)), (PENDING, 0 if pending is None else pending + 1),
              (GOAL, owner), (PUSHES, pushes), (MAX_PUSHES, max_pushes)]
    for (shift, _), value in fields:
        w[7] |= value << shift
    return tuple(np.uint64(x) for x in w)


def unpack(state) -> dict:
    """The fields :func:`pack` takes, read back from a packed state."""
    w = [int(x) for x in state]
    cells = []
    for i in range(16):
        byte = (w[i // 8] >> 8 * (i % 8)) & 0xFF
        gem = (byte >> 3) & 7
        cells.append(None if byte == 0 else ((byte & 7) - 1, gem - 1 if gem else None,
                                             bool(byte & 0x40)))
    shafts = []
    for s in range(8):
        value, gems = (w[2 + s // 3] >> SHAFT_BITS * (s % 3)) & ((1 << SHAFT_BITS) - 1), []
        while value:
            gems.append((value & 7) - 1)
            value >>= 3
        shafts.append(gems)
    pending = _field(w[7], PENDING)
    return dict(players=_field(w[7], PLAYERS), layout=LAYOUT_NAMES[_field(w[7], LAYOUT)],
                cells=cells, shafts=shafts,
                hands=[(w[4] >> HAND_SHIFT + 3 * c) & 7 for c in range(4)],
                supply=(w[4] >> SUPPLY_SHIFT) & 15,
                displays=[[(w[5 + c // 2] >> 24 * (c % 2) + 4 * g) & 15 for g in range(GEMS)]
                          for c in range(4)],
                to_move=_field(w[7], TO_MOVE), pushes=_field(w[7], PUSHES),
                pending=pending - 1 if pending else None, max_pushes=_field(w[7], MAX_PUSHES),
                hidden_shafts=bool(_field(w[7], HIDDEN)))

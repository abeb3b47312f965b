"""Funkel Munkel for Monte Carlo search: hidden-gem sampling, the search contract, rollouts and
a greedy policy (Numba).

Built on ``kernels.funkel`` (its ``play`` pushes; nothing here changes the rules).

Packed views. A public view packs like a state (``kernels.funkel``'s layout) with every unseen gem
written as the marker gem UNSEEN (its 3-bit gem+1 field holds 7, a value no real gem uses): a
loaded cart whose gem nobody saw, and every shaft gem below the face-up top (all of a shaft's gems
with hidden shafts). A view must never be played: :func:`sample_hidden` first deals real gems into
the marked places.

What is public in a packed state (view or full): the displays, the pending gem, cart gems whose
``seen`` bit is set and, unless shafts are hidden, each shaft's top gem (its highest slot). The
greedy policy reads only these, so it plays the same on a view and on any of its full states.

Search contract (the signatures of ``kernels.estimate`` and ``kernels.mcts``)::

    sample_hidden(S, rng) -> S                   a full state, uniform among those of the view S
    step(S, action) -> (S, info)                 ``kernels.funkel.play`` with an info word
                                                 (GAME_OVER bit: the game is over)
    returns(S, out) -> players                   out[s]: seat s's reward (1 win, 0 loss, tied
                                                 leaders share 1); out[P + s]: gems on his displays
    random_rollout(S, rng, out) -> rng           uniformly random actions to the end, then returns
    greedy_rollout(S, rng, out) -> rng           the greedy policy to the end, then returns
    greedy_scores(S, out) -> n                   the greedy policy's score of each legal action
"""
import numpy as np
from numba import types

from kernels._jit import kernel
from kernels._random import below, splitmix64
from kernels.contract import GAME_OVER
from kernels.funkel import (
    COMMON, GEM_COUNTS, GEMS, HIDDEN, LAYOUT, MAX_ACTIONS, PASS, PENDING, PLACE,
    PLAYERS, RAIL_LENGTH, RAILS, SHAFT_CELLS, STATE, TO_MOVE, WORDS, WORDS_ARRAY, bits,
    get_cell, get_count, get_shaft, is_over, legal_actions, owner_of, play, result, set_cell,
    set_shaft)

F64, I64, U64 = types.float64, types.int64, types.uint64
I64_ARRAY, F64_ARRAY = types.int64[::1], types.float64[::1]
GAINS = types.float64[:, ::1]

UNSEEN = 6                 # the marker gem of a packed view (gem+1 field = 7)
_MARK = 7
TOTAL = GEMS               # pool[TOTAL]: the pool's size
POOL_SIZE = GEMS + 1
ALL_GEMS = 56

# Greedy weights, in "gems": a gem on one's own display is worth 1 plus 3 per gem it saves on the
# way to the goal, divided by the gems still needed after it (closer to the goal, worth more).
WIN_VALUE = 100.0          # a gem that completes a display
OPPONENT_WEIGHT = 0.75     # a gem for an opponent costs this much of its value to him
LOAD_WEIGHT = 0.5          # a gem falling into a cart is not delivered yet
THREAT_WEIGHT = 0.5        # a loaded common cart left where the next seat can push it out
CART_BACK = 0.1            # an own cart back in hand (more pushes of one's own)
_TIE = 1e-9

# shaft index of each cell per layout (-1: no shaft), from kernels.funkel.SHAFT_CELLS
SHAFT_OF_CELL = np.full((2, 16), -1, np.int64)
for _layout in range(2):
    for _s in range(8):
        SHAFT_OF_CELL[_layout, SHAFT_CELLS[_layout, _s]] = _s


@kernel(types.void(WORDS_ARRAY, STATE))
def load(w, state):
    for k in range(WORDS):
        w[k] = state[k]


@kernel(STATE(WORDS_ARRAY))
def as_state(w):
    return (w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])


# --- what is public, and the hidden gems ----------------------------------------------------------

@kernel(I64(I64))
def shaft_top_slot(shaft):
    """The slot of a shaft's top gem (its highest non-zero slot); -1 for an empty shaft."""
    top = -1
    for j in range(7):
        if (shaft >> (3 * j)) & 7:
            top = j
    return top


@kernel(types.void(WORDS_ARRAY, I64_ARRAY))
def public_pool(w, pool):
    """``pool[g]``: gems of colour g nobody has seen (the game's count minus the gems on displays,
    the pending gem, seen cart gems and visible shaft tops); ``pool[TOTAL]``: their sum."""
    for g in range(GEMS):
        pool[g] = GEM_COUNTS[g]
        for colour in range(4):
            pool[g] -= get_count(w, colour, g)
    pending = bits(w[7], PENDING[0], PENDING[1])
    if pending:
        pool[pending - 1] -= 1
    for i in range(16):
        byte = get_cell(w, i)
        gem = (byte >> 3) & 7
        if byte & 0x40 and 0 < gem < _MARK:
            pool[gem - 1] -= 1
    if bits(w[7], HIDDEN[0], HIDDEN[1]) == 0:
        for s in range(8):
            shaft = get_shaft(w, s)
            top = shaft_top_slot(shaft)
            if top >= 0 and ((shaft >> (3 * top)) & 7) < _MARK:
                pool[((shaft >> (3 * top)) & 7) - 1] -= 1
    total = 0
    for g in range(GEMS):
        total += pool[g]
    pool[TOTAL] = total


@kernel(I64(I64_ARRAY, I64, U64))
def deal_one(gems, left, rng):
    """Take a uniformly random gem out of the first ``left`` of ``gems`` (it moves to the end);
    return it."""
    k = below(rng, left)
    gem = gems[k]
    gems[k] = gems[left - 1]
    gems[left - 1] = gem
    return gem


@kernel(STATE(STATE, U64))
def sample_hidden(view, rng):
    """A full state drawn uniformly among those whose public view is ``view``: the unseen pool is
    dealt into the marked places (cart loads, then shaft slots bottom first) by drawing without
    replacement, which is a uniform arrangement. A state without marks comes back unchanged."""
    w = np.empty(WORDS, np.uint64)
    load(w, view)
    pool = np.empty(POOL_SIZE, np.int64)
    public_pool(w, pool)
    gems = np.empty(ALL_GEMS, np.int64)
    left = 0
    for g in range(GEMS):
        for _ in range(pool[g]):
            gems[left] = g
            left += 1
    for i in range(16):
        byte = get_cell(w, i)
        if (byte >> 3) & 7 == _MARK and left > 0:
            rng, r = splitmix64(rng)
            gem = deal_one(gems, left, r)
            left -= 1
            set_cell(w, i, (byte & 0x07) | ((gem + 1) << 3))    # seen bit cleared
    for s in range(8):
        shaft = get_shaft(w, s)
        for j in range(7):
            if (shaft >> (3 * j)) & 7 == _MARK and left > 0:
                rng, r = splitmix64(rng)
                gem = deal_one(gems, left, r)
                left -= 1
                shaft = (shaft & ~(7 << (3 * j))) | ((gem + 1) << (3 * j))
        set_shaft(w, s, shaft)
    return as_state(w)


# --- the search contract --------------------------------------------------------------------------

@kernel(types.Tuple((STATE, I64))(STATE, I64))
def step(state, action):
    """``play`` with an info word: GAME_OVER when the game is over afterwards."""
    after = play(state, action)
    return after, GAME_OVER if is_over(after) else 0


@kernel(I64(STATE, F64_ARRAY))
def returns(state, out):
    """Rewards into out[:P] (``kernels.funkel.result``) and gems on each seat's displays into
    out[P:2P]; returns P. The game must be over."""
    players = result(state, out)
    w = np.empty(WORDS, np.uint64)
    load(w, state)
    for seat in range(players):
        gems = 0
        for colour in range(seat, 4, 2 if players == 2 else 4):
            for g in range(GEMS):
                gems += get_count(w, colour, g)
        out[players + seat] = gems
    return players


@kernel(U64(STATE, U64, F64_ARRAY))
def random_rollout(state, rng, out):
    """Uniformly random legal actions to the end of the game, then :func:`returns` into out."""
    actions = np.empty(MAX_ACTIONS, np.int64)
    while True:
        n = legal_actions(state, actions)
        if n == 0:
            break
        rng, r = splitmix64(rng)
        state = play(state, actions[below(r, n)])
    returns(state, out)
    return rng


# --- the greedy policy ----------------------------------------------------------------------------

@kernel(F64(I64, I64, I64))
def gem_gain(different, most, count):
    """What one more gem is worth on a display with ``different`` gem colours, ``most`` of its
    commonest colour and ``count`` of this gem's colour (weights above)."""
    different_after = different + (count == 0)
    most_after = max(most, count + 1)
    if different_after >= 6 or most_after >= 5:
        return WIN_VALUE
    need_before = min(6 - different, 5 - most)
    need_after = min(6 - different_after, 5 - most_after)
    return 1.0 + 3.0 * (need_before - need_after) / need_after


@kernel(types.void(WORDS_ARRAY, I64_ARRAY, GAINS))
def gain_table(w, pool, gains):
    """``gains[colour, g]``: what a gem of colour g is worth on ``colour``'s display;
    ``gains[colour, GEMS]``: its mean over the unseen pool (the value of a gem nobody has seen)."""
    for colour in range(4):
        row = w[5 + colour // 2] >> np.uint64(24 * (colour % 2))
        different, most = 0, 0
        for g in range(GEMS):
            n = np.int64((row >> np.uint64(4 * g)) & np.uint64(15))
            different += n > 0
            most = max(most, n)
        expected = 0.0
        for g in range(GEMS):
            n = np.int64((row >> np.uint64(4 * g)) & np.uint64(15))
            gains[colour, g] = gem_gain(different, most, n)
            expected += pool[g] * gains[colour, g]
        gains[colour, GEMS] = expected / pool[TOTAL] if pool[TOTAL] > 0 else 1.0


@kernel(F64(GAINS, I64, I64, I64))
def seat_gain(gains, seat, players, gem):
    """A gem (GEMS: unseen) placed where ``seat`` likes best among his displays."""
    best = gains[seat, gem]
    if players == 2:
        best = max(best, gains[seat + 2, gem])
    return best


@kernel(F64(I64, I64, F64))
def value_for_seat(seat, who, value):
    """A gain of ``value`` for ``who``, as ``seat`` sees it."""
    if who == seat:
        return value
    return -WIN_VALUE if value >= WIN_VALUE else -OPPONENT_WEIGHT * value


@kernel(I64(I64, I64))
def cart_gem(byte, public_only):
    """The gem a cart byte shows: 0-5, GEMS when loaded but unseen (or a mark), -1 when empty."""
    gem = (byte >> 3) & 7
    if gem == 0:
        return -1
    if gem == _MARK or (public_only and not byte & 0x40):
        return GEMS
    return gem - 1


@kernel(F64(GAINS, I64, I64, I64))
def delivery_value(gains, byte, seat, players):
    """A cart leaving the mine on ``seat``'s push, as ``seat`` sees it: its gem goes to the
    colour's owner, or to ``seat`` for a common cart."""
    kind = (byte & 7) - 1
    gem = cart_gem(byte, 1)
    back = CART_BACK if kind != COMMON and owner_of(kind, players) == seat else 0.0
    if gem < 0:
        return back
    if kind == COMMON:
        return seat_gain(gains, seat, players, gem)
    owner = owner_of(kind, players)
    return back + value_for_seat(seat, owner, gains[kind, gem])


@kernel(F64(GAINS, I64, I64, I64, I64))
def load_value(gains, kind, shaft, seat, players):
    """An empty cart of ``kind`` taking a shaft's bottom gem, as ``seat`` sees it. The falling
    gem is known when it is the shaft's only, face-up gem. A common cart's gem goes to whoever
    pushes it out: neutral."""
    if kind == COMMON:
        return 0.0
    gem = (shaft & 7) - 1 if shaft < 8 else GEMS
    return value_for_seat(seat, owner_of(kind, players), gains[kind, gem])


@kernel(F64(WORDS_ARRAY, GAINS, I64, I64, I64))
def push_score(w, gains, rail, kind, seat):
    """How much ``seat`` likes pushing a cart of ``kind`` into ``rail`` (weights above).
    Step 1: the cart that leaves the mine. Step 2: the carts that move under a shaft and take a
    gem. Step 3: a loaded common cart left on the last cell of a full rail (the next seat takes
    it)."""
    control = w[7]
    layout, players = bits(control, LAYOUT[0], LAYOUT[1]), bits(control, PLAYERS[0], PLAYERS[1])
    hidden = bits(control, HIDDEN[0], HIDDEN[1])
    length = RAIL_LENGTH[layout]
    block = 0
    while block < length and get_cell(w, RAILS[layout, rail, block]) != 0:
        block += 1
    score = 0.0
    if block == length:                                           # Step 1
        score += delivery_value(gains, get_cell(w, RAILS[layout, rail, length - 1]), seat,
                                players)
    moved = min(block, length - 1)
    for i in range(moved + 1):                                    # Step 2
        byte = kind + 1 if i == 0 else get_cell(w, RAILS[layout, rail, i - 1])
        shaft_index = SHAFT_OF_CELL[layout, RAILS[layout, rail, i]]
        if shaft_index >= 0 and (byte & 0x38) == 0:
            shaft = get_shaft(w, shaft_index)
            if shaft != 0:
                known = shaft if hidden == 0 else 8 + shaft       # >= 8: the gem is not known
                score += LOAD_WEIGHT * load_value(gains, (byte & 7) - 1, known, seat, players)
    full = True                                                   # Step 3
    for i in range(moved + 1, length):
        full = full and get_cell(w, RAILS[layout, rail, i]) != 0
    last = get_cell(w, RAILS[layout, rail, length - 2]) if block >= length - 1 else \
        get_cell(w, RAILS[layout, rail, length - 1])
    gem = cart_gem(last, 1)
    if full and gem >= 0 and (last & 7) - 1 == COMMON:
        threat = 0.0
        for other in range(players):
            if other != seat:
                threat = max(threat, seat_gain(gains, other, players, gem))
        score -= THREAT_WEIGHT * (WIN_VALUE if threat >= WIN_VALUE else threat)
    return score


@kernel(F64(WORDS_ARRAY, GAINS, I64, I64))
def action_score(w, gains, action, seat):
    if action == PASS:
        return 0.0
    if action >= PLACE:
        pending = bits(w[7], PENDING[0], PENDING[1]) - 1
        return gains[action - PLACE, pending]
    return push_score(w, gains, action // 5, action % 5, seat)


@kernel(types.UniTuple(I64, 2)(WORDS_ARRAY, I64_ARRAY, I64, I64_ARRAY, GAINS, I64_ARRAY, U64))
def greedy_choice(w, actions, n, pool, gains, scores_index, r):
    """The index of the best-scoring action among ``actions[:n]`` (equal best: the random word
    ``r`` picks one) and how many were equal best. ``pool``, ``gains``, ``scores_index``:
    scratch."""
    public_pool(w, pool)
    gain_table(w, pool, gains)
    seat = bits(w[7], TO_MOVE[0], TO_MOVE[1])
    best, ties = -np.inf, 0
    for i in range(n):
        score = action_score(w, gains, actions[i], seat)
        if score > best + _TIE:
            best, ties = score, 0
        if score >= best - _TIE:
            scores_index[ties] = i
            ties += 1
    return scores_index[below(r, ties)], ties


@kernel(I64(STATE, F64_ARRAY))
def greedy_scores(state, out):
    """``out[i]``: the greedy policy's score of the i-th legal action (``legal_actions``
    order; the policy plays one of the best); returns how many (0 once the game is over)."""
    actions = np.empty(MAX_ACTIONS, np.int64)
    n = legal_actions(state, actions)
    if n == 0:
        return 0
    w = np.empty(WORDS, np.uint64)
    load(w, state)
    pool = np.empty(POOL_SIZE, np.int64)
    gains = np.empty((4, GEMS + 1))
    public_pool(w, pool)
    gain_table(w, pool, gains)
    seat = bits(w[7], TO_MOVE[0], TO_MOVE[1])
    for i in range(n):
        out[i] = action_score(w, gains, actions[i], seat)
    return n


@kernel(types.Tuple((I64, U64))(STATE, U64))
def greedy_action(state, rng):
    """The greedy policy's action in ``state`` (a view or a full state: it reads only what is
    public) and the advanced generator; -1 once the game is over."""
    actions = np.empty(MAX_ACTIONS, np.int64)
    n = legal_actions(state, actions)
    if n == 0:
        return -1, rng
    w = np.empty(WORDS, np.uint64)
    load(w, state)
    rng, r = splitmix64(rng)
    i, _ = greedy_choice(w, actions, n, np.empty(POOL_SIZE, np.int64),
                         np.empty((4, GEMS + 1)), np.empty(MAX_ACTIONS, np.int64), r)
    return actions[i], rng


@kernel(U64(STATE, U64, F64_ARRAY))
def greedy_rollout(state, rng, out):
    """The greedy policy for every seat to the end of the game, then :func:`returns` into out."""
    actions = np.empty(MAX_ACTIONS, np.int64)
    ties = np.empty(MAX_ACTIONS, np.int64)
    pool = np.empty(POOL_SIZE, np.int64)
    gains = np.empty((4, GEMS + 1))
    w = np.empty(WORDS, np.uint64)
    while True:
        n = legal_actions(state, actions)
        if n == 0:
            break
        action = actions[0]
        if n > 1:
            load(w, state)
            rng, r = splitmix64(rng)
            i, _ = greedy_choice(w, actions, n, pool, gains, ties, r)
            action = actions[i]
        state = play(state, action)
    returns(state, out)
    return rng


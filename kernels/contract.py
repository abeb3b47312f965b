"""What a game's kernel offers the generic searches: info bits and the expansion row.

A game kernel's ``play(state, move) -> (next_state, info)`` reports in ``info``:

    bit 0  EXTRA_TURN  the same side moves again (a 2-player search does not negate)
    bit 1  CAPTURE     the move captured (a move-ordering hint)
    bit 2  GAME_OVER   the move ended the game
    bits 8..           GAIN_BIAS + what the move banks for the mover (a move-ordering hint)

and ``expand`` (below) may add, in bits 3..7 (HINT_SHIFT, HINT_MASK), the game's own tie-break
between moves that keep no turn and bank the same: higher is tried first (0: none).

``expand(state, row) -> count`` plays every legal move at once (one call per node instead of
one per move) and writes, for the i-th legal move, into an int64 row of EXPANSION_WIDTH::

    row[MOVE + i]    the move (0..MAX_MOVES-1)
    row[INFO + i]    its info, as above
    row[CHILD0 + i]  the next state's word 0, bit-cast to int64
    row[CHILD1 + i]  the next state's word 1
    row[ORDER + i]   left to the search (its move-order key)
"""
MAX_MOVES = 64

EXTRA_TURN = 1
CAPTURE = 2
GAME_OVER = 4
GAIN_SHIFT = 8
GAIN_BIAS = 256
HINT_SHIFT = 3
HINT_MASK = 31

MOVE, ORDER, INFO, CHILD0, CHILD1 = (block * MAX_MOVES for block in range(5))
EXPANSION_WIDTH = 5 * MAX_MOVES

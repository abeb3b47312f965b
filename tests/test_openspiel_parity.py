"""Our Kalah(6,4) with ``capture_empty=False`` against OpenSpiel's ``mancala``, move by move.

OpenSpiel (``pip install open-spiel``, the ``openspiel`` extra) implements Kalah(6,4) where a
capture needs stones in the opposite pit: our ``capture_empty=False`` variant. The whole module
is skipped when ``pyspiel`` is not installed.

How OpenSpiel lays the game out (read from ``str(state)`` and ``state.observation_tensor()``,
both checked below on every position of every game)::

    observation_tensor (16 floats) = board[0..13] + [current player, move number]

    board index   0    1 .. 6       7       8 .. 13
    holds         SB   A's pits     SA      B's pits
    our bin       -    1 .. 6       -       7 .. 12        (index = bin for A, bin + 1 for B)

    str(state):   -B12-B11-B10-B9-B8-B7-      board[13], board[12], ..., board[8]
                  SB-----------SA             board[0] ... board[7]
                  -A1-A2-A3-A4-A5-A6-         board[1], ..., board[6]
                  Current player: P
                  Move number: N

- Player 0 is our A (moves first), player 1 is our B. Sowing runs up the board index and skips
  the opponent's store (index 0 for A, 7 for B), exactly our bins 1..6, SA, 7..12, SB order.
- Actions are board indices of the pit sown: A's action = our bin, B's action = our bin + 1.
- Opposite pits: index i faces 14 - i, i.e. our bin b faces 13 - b, as in our rules.

Where the two programs differ in form (not in play), and how the comparison bridges it:

- OpenSpiel does not sweep at the end: the stones left in a side's pits stay there and
  ``returns()`` counts them for their owner. Ours moves them into the owner's store. The
  OpenSpiel board is swept before comparing a finished game.
- OpenSpiel's returns are +1 / -1 / 0 (win, loss, draw); ours are final store differences:
  their signs are compared.
- At the end ``current_player()`` is ``pyspiel.PlayerId.TERMINAL``; the tensor keeps the
  internal player (who would move next, after an extra turn the mover), compared with ours.
- OpenSpiel declares a draw after 1000 moves (``MaxGameLength``); our rules have no such cap.
  Random games end far sooner (asserted).
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from solver.games import mancala as reference
from solver.games.mancala import A, B, Position
from solver.games.mancala.api import perft

pyspiel = pytest.importorskip("pyspiel")

RULES = reference.Rules(6, 4, capture_empty=False)
GAMES = 1500
PERFT_DEPTHS = range(1, 7)
MAX_GAME_LENGTH = 1000   # OpenSpiel's mancala MaxGameLength


# --- the mapping -----------------------------------------------------------------------------

def action_of(move: int, side: int) -> int:
    """OpenSpiel action (board index) of one of our bin numbers for the side to move."""
    return move if side == A else move + 1


def move_of(action: int) -> int:
    """Our bin number of an OpenSpiel action."""
    return action if action <= 6 else action - 1


def openspiel_board(state) -> list[int]:
    return [int(x) for x in state.observation_tensor(0)[:14]]


def openspiel_position(state) -> Position:
    """Our position for an OpenSpiel state; a finished game is swept as our rules sweep it."""
    tensor = state.observation_tensor(0)
    board = [int(x) for x in tensor[:14]]
    a_pits, b_pits = board[1:7], board[8:14]
    stores = (board[7], board[0])
    if state.is_terminal():
        stores = (stores[A] + sum(a_pits), stores[B] + sum(b_pits))
        a_pits, b_pits = [0] * 6, [0] * 6
    return Position(tuple(a_pits + b_pits), stores, int(tensor[14]))


def openspiel_text(board: list[int]) -> str:
    """The first three lines of OpenSpiel's ``str(state)`` for a board (its own layout)."""
    top = "-" + "".join(f"{board[i]}-" for i in range(13, 7, -1))
    middle = f"{board[0]}{'-' * 11}{board[7]}"
    bottom = "-" + "".join(f"{board[i]}-" for i in range(1, 7))
    return "\n".join([top, middle, bottom])


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


# --- the mapping itself, on the start and the first moves --------------------------------------

def test_start_position_and_first_moves_map_as_documented():
    game = pyspiel.load_game("mancala")
    state = game.new_initial_state()
    assert game.num_distinct_actions() == 14 and game.observation_tensor_shape() == [16]
    assert state.observation_tensor(0) == [0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0, 0]
    assert openspiel_position(state) == reference.new_game(RULES)
    assert state.legal_actions() == [1, 2, 3, 4, 5, 6]
    # A sows bin 3: 4 stones into bins 4, 5, 6 and A's store -> board index 7; A moves again.
    state.apply_action(action_of(3, A))
    assert str(state).startswith("-4-4-4-4-4-4-\n0-----------1\n-4-4-0-5-5-5-\n"
                                 "Current player: 0")
    # A sows bin 6: 5 stones into SA and B's bins 7..10 (board 8..11); B to move.
    state.apply_action(action_of(6, A))
    assert openspiel_board(state) == [0, 4, 4, 0, 5, 5, 0, 2, 5, 5, 5, 5, 4, 4]
    assert state.current_player() == 1
    assert state.legal_actions() == [action_of(bin_, B) for bin_ in range(7, 13)]
    # B sows bin 7 (action 8): 5 stones into bins 8..12 (board 9..13); A to move.
    state.apply_action(action_of(7, B))
    assert str(state).startswith("-5-5-6-6-6-0-\n0-----------2\n-4-4-0-5-5-0-\n"
                                 "Current player: 0")
    assert openspiel_position(state) == reference.from_text("4,4,0,5,5,0/0,6,6,6,5,5 2-0 A")


# --- random games --------------------------------------------------------------------------------

def store_passes(pos: Position, move: int) -> int:
    """Stones that sowing ``move`` drops into the mover's own store (one per lap reaching it)."""
    lane, stones = move - 1 - 6 * pos.to_move, pos.pits[move - 1]
    to_store = 6 - lane                        # holes from the pit to the store
    return 0 if stones < to_store else 1 + (stones - to_store) // 13


def test_random_games_agree_move_by_move(rng):
    """Legal moves, every position (pits, stores, player to move, the board text), the end and
    the returns of random games agree. The games must cover laps, captures, landings in an empty
    own pit facing an empty pit (where ``capture_empty=True`` would have captured: the case that
    tells the two capture rules apart), extra turns, a game ending on an extra turn, ends by
    either side running out, and draws."""
    game = pyspiel.load_game("mancala")
    seen = dict.fromkeys(["laps", "captures", "empty_facing", "extra_turns", "ends_on_extra_turn",
                          "a_runs_out", "b_runs_out", "draws"], 0)
    longest = 0
    for _ in range(GAMES):
        state, pos = game.new_initial_state(), reference.new_game(RULES)
        while True:
            ours = reference.legal_actions(pos)
            assert sorted(move_of(a) for a in state.legal_actions()) == ours, pos
            assert state.is_terminal() == reference.is_over(pos), pos
            assert openspiel_position(state) == pos
            assert str(state).startswith(openspiel_text(openspiel_board(state)) + "\n")
            if not ours:
                break
            move, side = rng.choice(ours), pos.to_move
            store = 7 if side == A else 0
            before = openspiel_board(state)[store]
            state.apply_action(action_of(move, side))
            after = reference.apply(replace(pos, capture_empty=False), move)
            seen["laps"] += pos.pits[move - 1] >= 13
            seen["captures"] += openspiel_board(state)[store] - before > store_passes(pos, move)
            seen["empty_facing"] += reference.apply(replace(pos, capture_empty=True), move) != after
            seen["extra_turns"] += after.to_move == side
            pos = after
        longest = max(longest, state.move_number())
        a, b = reference.final_stores(pos)
        assert state.returns() == [sign(a - b), sign(b - a)], pos
        board = openspiel_board(state)
        seen["ends_on_extra_turn"] += pos.to_move == side
        seen["a_runs_out"] += not any(board[1:7])
        seen["b_runs_out"] += not any(board[8:14])
        seen["draws"] += a == b
    assert longest < MAX_GAME_LENGTH
    assert all(count > 0 for count in seen.values()), seen


# --- perft ---------------------------------------------------------------------------------------

def openspiel_perft(state, depth: int) -> int:
    """Lines of exactly ``depth`` moves, walking OpenSpiel's states (a finished game counts
    nothing deeper, as in our perft)."""
    if depth == 0:
        return 1
    return sum(openspiel_perft(state.child(action), depth - 1) for action in state.legal_actions())


@pytest.mark.parametrize("depth", PERFT_DEPTHS)
def test_perft_from_the_start_agrees(depth):
    game = pyspiel.load_game("mancala")
    assert perft(replace(reference.new_game(RULES), capture_empty=False), depth) == \
        openspiel_perft(game.new_initial_state(), depth)

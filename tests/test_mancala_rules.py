"""The Mancala rulebook (shared/rules/mancala.txt + DECISIONS.md), one rule per test.

Boards are drawn as the rulebook pictures them::

        4  4  4  4  4  4          B's bins, 12 down to 7 (left to right)
     0                    0       B's store (left), A's store (right)
        4  4  4  4  4  4          A's bins, 1 up to 6 (left to right), then who moves
                          A to move

so a sowing runs to the right along the bottom row, up into A's store, to the left along the
top row and down into B's store. Each rule is checked on the reference (the oracle) and, where it
costs nothing, on the kernel through the conversion glue.
"""
from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest

from kernels import mancala as kernel
from solver.errors import InputError
from solver.games import mancala as reference
from solver.games.mancala import A, B, Position, Rules
from solver.games.mancala.api import from_packed, lane_of, move_of, to_packed


def board(picture: str) -> Position:
    """The position of a drawing in the module docstring's layout (any board size)."""
    rows = [line for line in picture.strip("\n").splitlines() if line.strip()]
    top, stores, bottom = (list(map(int, re.findall(r"\d+", row))) for row in rows[:3])
    to_move = re.search(r"\b([AB]) to move", "\n".join(rows[2:]))
    assert len(top) == len(bottom) and len(stores) == 2 and to_move, f"bad drawing:\n{picture}"
    return Position(tuple(bottom + top[::-1]), (stores[1], stores[0]),
                    reference.SIDE_NAMES.index(to_move.group(1)))


def kernel_play(pos: Position, move: int, capture_empty: bool = True) -> Position:
    """One sowing by the kernel, read back as a reference position."""
    state, info = kernel.play(to_packed(replace(pos, capture_empty=capture_empty)),
                              lane_of(move, pos.to_move, pos.m))
    return from_packed(state, pos.to_move if info & kernel.EXTRA_TURN else 1 - pos.to_move)


def kernel_legal_moves(pos: Position) -> list[int]:
    lanes = np.empty(pos.m, np.int64)
    n = kernel.legal_moves(to_packed(pos), lanes)
    return [move_of(int(lane), pos.to_move, pos.m) for lane in lanes[:n]]


def reference_play(pos: Position, move: int, capture_empty: bool = True) -> Position:
    """One sowing by the reference, under the given capture rule."""
    return reference.apply(replace(pos, capture_empty=capture_empty), move)


BOTH_ENGINES = pytest.mark.parametrize("play", [reference_play, kernel_play],
                                       ids=["reference", "kernel"])

START = board("""
        4  4  4  4  4  4
     0                    0
        4  4  4  4  4  4
                          A to move
""")


def test_a_drawing_holds_each_bin_where_the_rulebook_pictures_it():
    drawn = board("""
       12 11 10  9  8  7
     0                    5
        1  2  3  4  5  6
                          B to move
""")  # each bin holds as many stones as its number
    assert drawn == reference.from_text("1,2,3,4,5,6/7,8,9,10,11,12 5-0 B")


def test_setup_is_four_stones_in_each_of_the_twelve_bins():
    assert reference.new_game() == START
    assert str(START) == "4,4,4,4,4,4/4,4,4,4,4,4 0-0 A"


# --- sowing --------------------------------------------------------------------------------------

@BOTH_ENGINES
def test_sowing_drops_one_stone_in_each_following_bin_counter_clockwise(play):
    assert play(START, 2) == board("""
        4  4  4  4  4  4
     0                    0
        4  0  5  5  5  5
                          B to move
""")


@BOTH_ENGINES
def test_rulebook_example_eight_stones_from_bin_6_skip_the_opponents_store(play):
    # "A picks up eight stones from bin #6, places a stone in his Mancala and then bins #7..12.
    # He then skips his opponent's Mancala, and places the remaining stone in bin #1."
    before = board("""
        1  1  1  1  1  1
     0                    0
        2  1  1  1  1  8
                          A to move
""")
    assert play(before, 6) == board("""
        2  2  2  2  2  2
     0                    1
        3  1  1  1  1  0
                          B to move
""")


@BOTH_ENGINES
def test_b_sows_into_his_own_store_and_skips_a_store(play):
    before = board("""
        8  1  1  1  1  2
     0                    0
        1  1  1  1  1  1
                          B to move
""")
    assert play(before, 12) == board("""
        0  1  1  1  1  3
     1                    0
        2  2  2  2  2  2
                          A to move
""")


@BOTH_ENGINES
def test_a_lap_of_13_or_more_stones_also_sows_into_the_bin_they_came_from(play):
    # 14 stones from bin 2: bins 3-6, A's store, bins 7-12, bin 1, bin 2 (not skipped), bin 3.
    before = board("""
        1  1  1  1  1  1
     0                    0
        1 14  1  1  1  1
                          A to move
""")
    assert play(before, 2) == board("""
        2  2  2  2  2  2
     0                    1
        2  1  3  2  2  2
                          B to move
""")


@BOTH_ENGINES
def test_two_laps_put_two_stones_in_every_hole_but_the_opponents_store(play):
    before = board("""
        1  1  1  1  1  1
     0                    0
        1 26  1  1  1  1
                          A to move
""")
    assert play(before, 2) == board("""
        3  3  3  3  3  3
     0                    2
        3  2  3  3  3  3
                          B to move
""")


@BOTH_ENGINES
def test_a_lap_of_exactly_13_ends_in_the_emptied_bin_and_captures(play):
    # The last stone falls into bin 2, empty since it was picked up: it takes bin 11 (1 + 1 sown).
    before = board("""
        1  1  1  1  1  1
     0                    0
        1 13  1  1  1  1
                          A to move
""")
    assert play(before, 2) == board("""
        2  0  2  2  2  2
     0                    4
        2  0  2  2  2  2
                          B to move
""")


# --- extra turn ----------------------------------------------------------------------------------

@BOTH_ENGINES
def test_last_stone_in_own_store_gives_a_second_turn(play):
    assert play(START, 3) == board("""
        4  4  4  4  4  4
     0                    1
        4  4  0  5  5  5
                          A to move
""")


@BOTH_ENGINES
def test_b_gets_a_second_turn_from_his_own_store_too(play):
    b_first = Position(START.pits, START.stores, B)
    assert play(b_first, 9) == board("""
        5  5  5  0  4  4
     1                    0
        4  4  4  4  4  4
                          B to move
""")


@BOTH_ENGINES
def test_a_lap_that_ends_in_own_store_gives_a_second_turn(play):
    before = board("""
        1  1  1  1  1  1
     0                    0
       19  1  1  1  1  1
                          A to move
""")
    # 19 stones from bin 1: bins 2-6, store, 7-12, bin 1, bins 2-6, store.
    assert play(before, 1) == board("""
        2  2  2  2  2  2
     0                    2
        1  3  3  3  3  3
                          A to move
""")


# --- capture -------------------------------------------------------------------------------------

BEFORE_CAPTURE = """
        1  1  {b10}  1  1  1
     0                    0
        2  0  0  1  1  1
                          A to move
"""  # A sows bin 1's two stones into bins 2 and 3; bin 3 is empty and faces bin 10


@BOTH_ENGINES
@pytest.mark.parametrize("capture_empty", [True, False])
def test_last_stone_in_an_empty_own_bin_takes_the_opposite_bin(play, capture_empty):
    before = board(BEFORE_CAPTURE.format(b10=5))
    assert play(before, 1, capture_empty) == board("""
        1  1  0  1  1  1
     0                    6
        0  1  0  1  1  1
                          B to move
""")


@BOTH_ENGINES
def test_capture_against_an_empty_bin_takes_the_single_stone_by_default(play):
    before = board(BEFORE_CAPTURE.format(b10=0))
    assert play(before, 1) == board("""
        1  1  0  1  1  1
     0                    1
        0  1  0  1  1  1
                          B to move
""")


@BOTH_ENGINES
def test_without_capture_empty_an_empty_opposite_bin_means_no_capture(play):
    before = board(BEFORE_CAPTURE.format(b10=0))
    assert play(before, 1, False) == board("""
        1  1  0  1  1  1
     0                    0
        0  1  1  1  1  1
                          B to move
""")


@BOTH_ENGINES
def test_no_capture_when_the_own_bin_already_held_stones(play):
    before = board("""
        1  1  5  1  1  1
     0                    0
        2  0  1  1  1  1
                          A to move
""")
    assert play(before, 1) == board("""
        1  1  5  1  1  1
     0                    0
        0  1  2  1  1  1
                          B to move
""")


@BOTH_ENGINES
def test_no_capture_in_an_empty_bin_of_the_opponent(play):
    before = board("""
        1  1  1  1  1  0
     0                    0
        1  1  1  1  1  2
                          A to move
""")
    assert play(before, 6) == board("""
        1  1  1  1  1  1
     0                    1
        1  1  1  1  1  0
                          B to move
""")


@BOTH_ENGINES
def test_b_captures_from_a_side(play):
    # B sows bin 8's stone into bin 9, empty, facing A's bin 4 (2m + 1 - 9).
    before = board("""
        1  1  1  0  1  1
     3                    0
        1  1  1  7  1  1
                          B to move
""")
    assert play(before, 8) == board("""
        1  1  1  0  0  1
    11                    0
        1  1  1  0  1  1
                          A to move
""")


# --- end of the game -----------------------------------------------------------------------------

@BOTH_ENGINES
def test_when_the_mover_empties_his_side_the_other_player_sweeps_his_bins(play):
    before = board("""
        0  3  0  0  2  1
    22                   20
        0  0  0  0  0  1
                          A to move
""")
    after = play(before, 6)
    assert reference.is_over(after)
    assert (after.pits, after.stores) == ((0,) * 12, (21, 28))


@BOTH_ENGINES
def test_when_a_capture_empties_the_other_side_the_mover_sweeps_his_own(play):
    # A's stone from bin 4 lands in empty bin 5 and takes bin 8, B's last stones.
    before = board("""
        0  0  0  0  3  0
    22                   20
        0  0  0  1  0  2
                          A to move
""")
    after = play(before, 4)
    assert reference.is_over(after)
    assert (after.pits, after.stores) == ((0,) * 12, (26, 22))


def test_the_game_is_over_once_either_side_is_empty_whoever_is_to_move():
    a_empty = reference.from_text("0,0,0/1,2,3 5-7 A")
    b_empty = reference.from_text("1,2,3/0,0,0 5-7 A")
    playing = reference.from_text("1,0,0/0,0,3 5-7 B")
    for pos, over in [(a_empty, True), (b_empty, True), (playing, False)]:
        assert reference.is_over(pos) is over
        assert bool(kernel.is_terminal(to_packed(pos))) is over


# --- scoring -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, stores, value_for_mover", [
    ("0,0,0/1,2,3 5-7 A", (5, 13), -8),   # B sweeps 6 stones: A 5, B 13
    ("0,0,0/1,2,3 5-7 B", (5, 13), 8),    # the same end seen from B
    ("0,4,0/0,0,0 6-8 B", (10, 8), -2),   # A sweeps his own 4
    ("0,0,0/0,0,0 9-9 A", (9, 9), 0),     # equal stores: a draw
])
def test_most_stones_in_the_store_wins(text, stores, value_for_mover):
    pos = reference.from_text(text)
    assert reference.final_stores(pos) == stores
    assert reference.score(pos) == value_for_mover
    assert kernel.score(to_packed(pos)) == value_for_mover


# --- legal moves ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, moves", [
    ("0,3,0,1,0,2/1,1,1,1,1,1 0-0 A", [2, 4, 6]),       # A plays his non-empty bins 1-6
    ("1,1,1,1,1,1/5,0,0,2,0,1 0-0 B", [7, 10, 12]),     # B plays his non-empty bins 7-12
    ("4,4,4,4,4,4/4,4,4,4,4,4 0-0 A", [1, 2, 3, 4, 5, 6]),
    ("2,0/0,3 0-0 B", [4]),                              # any board size: B's bins are m+1..2m
    ("0,0,0/1,2,3 0-0 B", []),                           # none once the game is over
])
def test_a_player_sows_from_any_non_empty_bin_on_his_side(text, moves):
    pos = reference.from_text(text)
    assert reference.legal_actions(pos) == moves
    assert kernel_legal_moves(pos) == moves


# --- position notation ---------------------------------------------------------------------------

def random_position(rng) -> Position:
    """Any position the notation can hold: 1..6 bins a side, 1..255 stones anywhere."""
    m = rng.randint(1, reference.MAX_PITS)
    total = rng.randint(1, reference.MAX_STONES_TOTAL)
    cuts = sorted(rng.randint(0, total) for _ in range(2 * m + 1))
    holes = [b - a for a, b in zip([0] + cuts, cuts + [total])]  # 2m bins + 2 stores
    return Position(tuple(holes[:2 * m]), (holes[2 * m], holes[2 * m + 1]), rng.choice([A, B]))


def test_position_notation_round_trips(rng):
    for _ in range(2000):
        pos = random_position(rng)
        text = reference.to_text(pos)
        assert reference.from_text(text) == pos
        assert str(reference.from_text(text)) == text


def test_notation_accepts_surrounding_spaces_and_checks_against_rules():
    text = "  3,3,3/3,3,3 0-0 B "
    assert reference.from_text(text, Rules(pits=3, stones=3)) == Position((3,) * 6, (0, 0), B)


@pytest.mark.parametrize("text, rules, message", [
    ("", None, "malformed position"),
    ("4,4,4,4,4,4/4,4,4,4,4,4", None, "malformed position"),
    ("4,4,4,4,4,4/4,4,4,4,4,4 0-0", None, "malformed position"),
    ("4,4,4,4,4,4/4,4,4,4,4,4 0-0 C", None, "malformed position"),
    ("4,4,4,4,4,4/4,4,4,4,4,4 0:0 A", None, "malformed position"),
    ("4,4,4,4,4,4/4,4,4,4,4,4 -1-0 A", None, "malformed position"),
    ("4,4,4 4,4,4 0-0 A", None, "malformed position"),
    ("4,4,4,4,4,4 0-0 A", None, "two groups"),
    ("4,4/4,4/4,4 0-0 A", None, "two groups"),
    ("4,4,4/4,4 0-0 A", None, "A has 3 bins but B has 2"),
    ("4,x,4/4,4,4 0-0 A", None, "'x' on A's side is not a whole number"),
    ("4,4,4/4,,4 0-0 A", None, "'' on B's side is not a whole number"),
    ("4,4,4/4,4,4/ 0-0 A", None, "two groups"),
    ("4,-1,4/4,4,4 0-0 A", None, "-1 on A's side is negative"),
    ("1,1,1,1,1,1,1/1,1,1,1,1,1,1 0-0 A", None, "7 bins per side; 1..6 are supported"),
    ("3,3,3/3,3,3 0-0 A", Rules(), "3 bins per side, but the rules say 6"),
    ("200,0,0/0,0,60 0-0 A", None, "260 stones; at most 255"),
    ("0,0,0/0,0,0 0-0 A", None, "no stones"),
    ("3,3,3/3,3,3 1-0 A", Rules(pits=3, stones=3), r"19 stones, but Kalah\(3,3\) has 18"),
    # digits and blanks of other scripts, which int() would read: not our notation
    ("4,4,4/4,\u06634,4 0-0 A", None, "on B's side is not a whole number"),
    ("\u0663,\u0663/\u0663,\u0663 0-0 A", None, "on A's side is not a whole number"),
    ("3,3/3,3 \u0660-\u0660 A", None, "malformed position"),
    ("7/3\u00a01-1 A", None, "malformed position"),
    ("7\u00a0/3 1-1 A", None, "on A's side is not a whole number"),
])
def test_bad_position_text_is_refused_with_a_reason(text, rules, message):
    with pytest.raises(InputError, match=message):
        reference.from_text(text, rules)


@pytest.mark.parametrize("pits, stones, message", [
    (0, 4, "pits per side must be 1..6"),
    (7, 4, "pits per side must be 1..6"),
    (6, 0, "stones per pit must be at least 1"),
    (6, 22, r"Kalah\(6,22\) has 264 stones"),
])
def test_impossible_rules_are_refused(pits, stones, message):
    with pytest.raises(InputError, match=message):
        Rules(pits=pits, stones=stones)


@pytest.mark.parametrize("build, message", [
    (lambda: Rules(3, 2.5), "stones per pit must be a whole number"),
    (lambda: Rules(3, float("nan")), "stones per pit must be a whole number"),
    (lambda: Rules(True, 4), "pits per side must be a whole number"),
    (lambda: Rules(3, 2, "False"), "capture_empty must be True or False"),
    (lambda: Position((256, 0, 0, 1, 0, 0), (0, 0), A), "at most 255 stones"),
    (lambda: Position((4,) * 6, (300, 0), A), "at most 255 stones"),
    (lambda: Position((1, 2, 3, 4, 5), (0, 0), A), "2..12 pits, the same number a side"),
    (lambda: Position((1,) * 14, (0, 0), A), "2..12 pits, the same number a side"),
    (lambda: Position((4,) * 6, (-1, 0), A), "stores must not be negative"),
    (lambda: Position((4, -1, 4, 4, 4, 4), (0, 0), A), "pits must not be negative"),
    (lambda: Position((4.0,) * 6, (0, 0), A), "a count of pits must be a whole number"),
    (lambda: Position("4,4,4/4,4,4", (0, 0), A), "pits must be a tuple of stone counts"),
    (lambda: Position((4,) * 6, (0, 0, 0), A), "two stores"),
    (lambda: Position((4,) * 6, (0, 0), 2), "to_move must be 0 .A. or 1 .B."),
    (lambda: Position((4,) * 6, (0, 0), A, "False"), "capture_empty must be True or False"),
])
def test_a_hand_built_position_or_rules_gets_the_checks_text_gets(build, message):
    """The packed kernels keep each count in 8 bits: an unchecked 256 would wrap silently."""
    with pytest.raises(InputError, match=message):
        build()


def test_a_hand_built_position_takes_numpy_numbers_and_lists_as_plain_values():
    pos = Position([np.int64(4)] * 6, (np.int8(0), 0), np.int64(B), np.True_)
    assert pos == Position((4,) * 6, (0, 0), B)
    assert type(pos.pits[0]) is int and type(pos.to_move) is int
    assert pos.capture_empty is True
    assert hash(pos) == hash(Position((4,) * 6, (0, 0), B))
    assert Rules(np.int32(3), np.int64(2)) == Rules(3, 2)


def test_a_game_not_over_has_no_result():
    with pytest.raises(InputError, match="the game is not over"):
        reference.result(START)


def test_moves_are_named_by_bin_number():
    assert reference.action_from_text(START, " 6 ") == 6
    assert reference.action_from_text(Position(START.pits, START.stores, B), "9") == 9


@pytest.mark.parametrize("text, message", [
    ("", "is not a bin number"),
    ("x", "is not a bin number"),
    ("1.5", "is not a bin number"),
    ("-1", "is not a bin number"),
    ("7", "bin 7 belongs to B"),
    ("2", "bin 2 is empty"),
    ("0", "there is no bin 0"),
    ("13", "there is no bin 13"),
    ("9" * 100_000, r"^move '9{60}\.\.\.' is not a bin number$"),   # no int() of it, one short line
])
def test_bad_move_text_is_refused_with_a_reason(text, message):
    bin_2_empty = reference.from_text("4,0,4,4,4,4/4,4,4,4,4,4 0-4 A")
    with pytest.raises(InputError, match=message):
        reference.action_from_text(bin_2_empty, text)


def test_a_move_of_the_wrong_side_names_the_owner_for_b_too():
    with pytest.raises(InputError, match="illegal move 3 for B: bin 3 belongs to A"):
        reference.action_from_text(Position(START.pits, START.stores, B), "3")


def test_a_move_after_the_game_is_over_says_so():
    b_side_empty = reference.from_text("1,2,3/0,0,0 5-7 A")
    with pytest.raises(InputError, match="game"):
        reference.action_from_text(b_side_empty, "1")

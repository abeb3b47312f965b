"""Perft of the Mancala kernel against the plain reference recursion.

``perft_mancala.txt`` holds counts the reference computed (python-chess style: one position per
line, ``D<depth> <leaves>`` fields). On a mismatch the test prints the per-move split of kernel
and reference, so the first bad move is visible.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass, replace

import pytest

from solver.errors import InputError
from solver.games import mancala as reference
from solver.games.mancala.api import perft, perft_divide

PERFT_FILE = pathlib.Path(__file__).with_name("perft_mancala.txt")


def reference_perft(pos: reference.Position, depth: int, capture_empty: bool = True) -> int:
    """Lines of exactly ``depth`` sowings, by plain recursion over the reference rules."""
    if depth == 0:
        return 1
    return sum(reference_perft(reference.apply(replace(pos, capture_empty=capture_empty), move), depth - 1, capture_empty)
               for move in reference.legal_actions(pos))


def reference_divide(pos: reference.Position, depth: int,
                     capture_empty: bool = True) -> dict[int, int]:
    return {move: reference_perft(reference.apply(replace(pos, capture_empty=capture_empty), move), depth - 1,
                                  capture_empty)
            for move in reference.legal_actions(pos)}


def divide_report(pos: reference.Position, depth: int, capture_empty: bool) -> str:
    """Kernel and reference leaves per first move, the disagreeing moves marked."""
    kernel_counts = perft_divide(replace(pos, capture_empty=capture_empty), depth)
    reference_counts = reference_divide(pos, depth, capture_empty)
    lines = [f"divide of {pos} at depth {depth}, capture_empty={capture_empty}:",
             "  move   kernel  reference"]
    for move in sorted(set(kernel_counts) | set(reference_counts)):
        got, want = kernel_counts.get(move), reference_counts.get(move)
        mark = "   <-- differs" if got != want else ""
        lines.append(f"  {move:4d} {got!s:>8} {want!s:>10}{mark}")
    if kernel_counts == reference_counts:
        lines.append("  kernel and reference agree: the file is stale (did the rules change?)")
    return "\n".join(lines)


# --- the perft file ------------------------------------------------------------------------------

@dataclass(frozen=True)
class PerftCase:
    line: int
    position: str
    capture_empty: bool
    leaves: dict[int, int]  # depth -> count


def read_perft_file(path: pathlib.Path = PERFT_FILE) -> list[PerftCase]:
    """Lines ``<position> ; capture_empty=<0|1> ; D1 <n> ; D2 <n> ...``; '#' starts a comment."""
    cases = []
    for number, text in enumerate(path.read_text().splitlines(), 1):
        text = text.split("#", 1)[0].strip()
        if not text:
            continue
        position, flag, *counts = (field.strip() for field in text.split(";"))
        assert flag in ("capture_empty=0", "capture_empty=1"), f"line {number}: {flag!r}"
        leaves = {}
        for field in counts:
            depth, count = field.split()
            leaves[int(depth.removeprefix("D"))] = int(count)
        cases.append(PerftCase(number, position, flag.endswith("1"), leaves))
    return cases


PERFT_CASES = read_perft_file()


def test_perft_file_covers_the_start_in_both_variants():
    start = str(reference.new_game())
    assert {case.capture_empty for case in PERFT_CASES if case.position == start} == {True, False}


@pytest.mark.parametrize("case", PERFT_CASES,
                         ids=[f"line{c.line}-ce{int(c.capture_empty)}" for c in PERFT_CASES])
def test_kernel_perft_matches_file(case):
    pos = reference.from_text(case.position)
    for depth, want in case.leaves.items():
        got = perft(replace(pos, capture_empty=case.capture_empty), depth)
        assert got == want, (f"perft({case.position}, {depth}) = {got}, file says {want}\n"
                             + divide_report(pos, depth, case.capture_empty))


# --- what a perft count means --------------------------------------------------------------------

def test_depth_zero_is_one_node_even_for_a_finished_game():
    finished = reference.from_text("0,0,0/0,0,0 9-9 A")
    assert perft(reference.new_game(), 0) == perft(finished, 0) == 1


def test_a_finished_game_counts_nothing_deeper():
    one_side_empty = reference.from_text("0,0,0/1,2,3 5-7 A")
    assert [perft(one_side_empty, depth) for depth in (1, 2, 3)] == [0, 0, 0]


def test_a_game_ending_move_is_a_leaf_at_its_own_depth_only():
    # A's single stone reaches his store and empties his side: the game ends after one sowing.
    last_move = reference.from_text("0,0,1/2,2,2 0-0 A")
    assert perft(last_move, 1) == reference_perft(last_move, 1) == 1
    assert perft(last_move, 2) == reference_perft(last_move, 2) == 0


def test_an_extra_turn_is_a_sowing_of_its_own():
    start = reference.new_game()
    after_first = perft_divide(start, 2)
    for move, leaves in after_first.items():
        # Each second sowing is one of the legal moves of whoever moves next (A again after 3).
        assert leaves == len(reference.legal_actions(reference.apply(start, move)))


@pytest.mark.parametrize("capture_empty", [True, False])
def test_divide_splits_perft_by_legal_first_move(capture_empty):
    pos = reference.from_text("3,0,5,1,0,2/0,4,1,0,6,2 12-12 B")
    split = perft_divide(replace(pos, capture_empty=capture_empty), 4)
    assert sorted(split) == reference.legal_actions(pos)
    assert sum(split.values()) == perft(replace(pos, capture_empty=capture_empty), 4)
    assert split == reference_divide(pos, 4, capture_empty)


@pytest.mark.parametrize("depth", [-1, 2.5, "3", True])
def test_bad_depth_is_refused(depth):
    with pytest.raises(InputError, match="depth"):
        perft(reference.new_game(), depth)


def test_divide_needs_a_first_move():
    with pytest.raises(InputError, match="depth must be a whole number 1..254"):
        perft_divide(reference.new_game(), 0)


def test_perft_takes_a_position_as_text_too():
    assert perft("4,4,4,4,4,4/4,4,4,4,4,4 0-0 A", 3) == perft(reference.new_game(), 3)
    with pytest.raises(InputError, match="a position must be a MancalaPosition or its text"):
        perft(5, 3)

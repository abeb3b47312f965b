"""The packed Numba kernel against the reference rules: move by move over random games, perft
on random positions, and the on-disk compile cache in a fresh process."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
from test_mancala_perft import reference_divide, reference_perft

from kernels import mancala as kernel
from solver.games import mancala as reference
from solver.games.mancala import A, B, Position
from solver.games.mancala.api import (
    from_packed,
    lane_of,
    move_of,
    perft,
    perft_divide,
    to_packed,
)

ROOT = pathlib.Path(__file__).resolve().parents[1]

# Kalah(m, n) for every board size, several stone counts, and the largest piles a lane holds.
GAME_SIZES = ([(m, n) for m in range(1, 7) for n in (1, 2, 3, 4, 6)]
              + [(6, 10), (6, 21), (3, 42), (1, 127)])
GAMES_PER_SIZE = 40  # per size and capture variant: 34 x 2 x 40 = 2720 games, half from the start


def words(state) -> tuple[int, int]:
    return int(state[0]), int(state[1])


def kernel_legal_moves(pos: Position, capture_empty: bool) -> list[int]:
    lanes = np.empty(pos.m, np.int64)
    n = kernel.legal_moves(to_packed(replace(pos, capture_empty=capture_empty)), lanes)
    return [move_of(int(lane), pos.to_move, pos.m) for lane in lanes[:n]]


def captures(pos: Position, move: int, capture_empty: bool) -> bool:
    """Whether sowing ``move`` captures, worked out from where the stones fall rather than by
    sowing: in the mover's cycle (own bins 0..m-1, own store m, opposite bins m+1..2m) the last
    stone lands ``stones`` holes on. It captures if that hole is an own bin it reaches on its only
    visit (at most one lap) that was empty, and, unless ``capture_empty``, the facing bin holds
    stones, counting the one this sowing may have dropped there."""
    m, side = pos.m, pos.to_move
    cycle = 2 * m + 1
    origin, stones = lane_of(move, side, m), pos.pits[move - 1]
    last = (origin + stones) % cycle
    if last >= m or stones > cycle:
        return False
    was_empty = last == origin or pos.pits[side * m + last] == 0
    facing_bin = (1 - side) * m + (m - 1 - last)     # 0-based; in the cycle at 2m - last
    facing_sown = 1 <= (2 * m - last - origin) % cycle <= stones
    return was_empty and (capture_empty or pos.pits[facing_bin] + facing_sown > 0)


def expected_info(pos: Position, move: int, after: Position, capture_empty: bool) -> int:
    """The kernel's info for a move, from the reference's result: the flag bits, and above
    GAIN_SHIFT what the move banked for the mover (own store gain minus the opponent's)."""
    side = pos.to_move
    gain = ((after.stores[side] - pos.stores[side])
            - (after.stores[1 - side] - pos.stores[1 - side]))
    return ((kernel.EXTRA_TURN if after.to_move == pos.to_move else 0)
            | (kernel.CAPTURE if captures(pos, move, capture_empty) else 0)
            | (kernel.GAME_OVER if reference.is_over(after) else 0)
            | (gain + kernel.GAIN_BIAS) << kernel.GAIN_SHIFT)


def check_position(pos: Position, capture_empty: bool) -> None:
    state = to_packed(replace(pos, capture_empty=capture_empty))
    assert kernel_legal_moves(pos, capture_empty) == reference.legal_actions(pos), pos
    assert bool(kernel.is_terminal(state)) == reference.is_over(pos), pos
    mover = pos.to_move
    assert kernel.store_difference(state) == pos.stores[mover] - pos.stores[1 - mover], pos
    if reference.is_over(pos):
        assert kernel.score(state) == reference.score(pos), pos


def check_move(pos: Position, move: int, capture_empty: bool) -> Position:
    """Play ``move`` in both; compare the next state and the info bits; return the next position."""
    after = reference.apply(replace(pos, capture_empty=capture_empty), move)
    state, info = kernel.play(to_packed(replace(pos, capture_empty=capture_empty)), lane_of(move, pos.to_move, pos.m))
    assert words(state) == words(to_packed(replace(after, capture_empty=capture_empty))), (str(pos), move)
    assert info == expected_info(pos, move, after, capture_empty), (str(pos), move, info)
    return after


def random_position(rng, m: int, stones: int) -> Position:
    """``stones`` stones spread at random over 2m bins and 2 stores, either side to move."""
    cuts = sorted(rng.randint(0, stones) for _ in range(2 * m + 1))
    holes = [b - a for a, b in zip([0] + cuts, cuts + [stones])]
    return Position(tuple(holes[:2 * m]), (holes[2 * m], holes[2 * m + 1]), rng.choice([A, B]))


def random_game(rng, first: Position, capture_empty: bool) -> int:
    """Play at random to the end, checking every position and every legal move on the way;
    returns how many positions were checked."""
    pos, checked = first, 0
    while True:
        check_position(pos, capture_empty)
        checked += 1
        moves = reference.legal_actions(pos)
        if not moves:
            return checked
        results = {move: check_move(pos, move, capture_empty) for move in moves}
        pos = results[rng.choice(moves)]


@pytest.mark.parametrize("capture_empty", [True, False])
@pytest.mark.parametrize("m, n", GAME_SIZES, ids=[f"Kalah({m},{n})" for m, n in GAME_SIZES])
def test_kernel_plays_random_games_like_the_reference(rng, m, n, capture_empty):
    rules = reference.Rules(pits=m, stones=n, capture_empty=capture_empty)
    firsts = [reference.new_game(rules) if i % 2 else random_position(rng, m, 2 * m * n)
              for i in range(GAMES_PER_SIZE)]
    assert sum(random_game(rng, first, capture_empty) for first in firsts) >= GAMES_PER_SIZE


@pytest.mark.parametrize("m", range(1, 7))
def test_kernel_sows_the_largest_pile_a_lane_holds(m):
    # 254 stones in one bin and 1 across: 255 in all, every lane close to overflowing.
    for origin in range(m):
        for store in (0, 1):
            pits = [0] * (2 * m)
            pits[origin], pits[m + origin] = 254 - store, 1
            pos = Position(tuple(pits), (store, 0), A)
            for capture_empty in (True, False):
                check_position(pos, capture_empty)
                check_position(check_move(pos, origin + 1, capture_empty), capture_empty)


def test_kernel_state_converts_back_to_the_same_position(rng):
    for _ in range(500):
        m = rng.randint(1, 6)
        pos = random_position(rng, m, rng.randint(1, reference.MAX_STONES_TOTAL))
        capture_empty = rng.random() < 0.5
        assert from_packed(to_packed(replace(pos, capture_empty=capture_empty)), pos.to_move) == pos
        for word in to_packed(replace(pos, capture_empty=capture_empty)):
            assert kernel.unpack_side(word)[2:] == (m, capture_empty)


def test_the_capture_oracle_sees_the_thirteen_stone_capture():
    # A self-check of ``captures``: 13 stones from bin 2 go round once and land in bin 2 itself.
    pos = reference.from_text("1,13,1,1,1,1/1,1,1,1,1,1 0-0 A")
    assert captures(pos, 2, capture_empty=False)
    assert not captures(reference.from_text("1,14,1,1,1,1/1,1,1,1,1,1 0-0 A"), 2, True)


# --- perft ---------------------------------------------------------------------------------------

def mid_game_position(rng, m: int, n: int, plies: int) -> Position:
    """A position reached by up to ``plies`` random sowings from the Kalah(m, n) start."""
    pos = reference.new_game(reference.Rules(pits=m, stones=n))
    for _ in range(plies):
        moves = reference.legal_actions(pos)
        if not moves:
            break
        pos = reference.apply(pos, rng.choice(moves))
    return pos


def test_perft_kernel_matches_reference_on_random_positions(rng):
    for _ in range(60):
        m, n = rng.randint(1, 6), rng.choice([1, 2, 3, 4, 6, 10])
        pos = (mid_game_position(rng, m, n, rng.randint(0, 40)) if rng.random() < 0.5
               else random_position(rng, m, 2 * m * n))
        capture_empty = rng.random() < 0.5
        for depth in range(0, 4):
            assert perft(replace(pos, capture_empty=capture_empty), depth) == reference_perft(pos, depth, capture_empty), \
                (str(pos), depth, capture_empty)
        if reference.legal_actions(pos):
            assert perft_divide(replace(pos, capture_empty=capture_empty), 3) == reference_divide(pos, 3, capture_empty)


# --- compile cache -------------------------------------------------------------------------------

CACHE_PROBE = """
import json
from kernels import alphabeta, mancala, perft
from kernels._jit import cache_hits

game = (mancala.STATE, mancala.legal_moves.nopython_signatures[0],
        mancala.play.nopython_signatures[0])
dispatchers = dict(legal_moves=mancala.legal_moves, play=mancala.play,
                   perft=perft.perft_kernel(*game), divide=perft.divide_kernel(*game),
                   expand=mancala.expand, alphabeta=alphabeta.search)
print(json.dumps({name: cache_hits(d) for name, d in dispatchers.items()}))
"""


def run_fresh_process(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                                  os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_fresh_process_loads_the_kernels_from_the_disk_cache():
    run_fresh_process(CACHE_PROBE)  # warm-up: compiles and writes the cache if it is missing
    hits = json.loads(run_fresh_process(CACHE_PROBE).strip().splitlines()[-1])
    assert all(count >= 1 for count in hits.values()), hits

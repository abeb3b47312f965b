"""The Funkel Munkel kernel plays exactly like the reference, move by move, on random games."""
from dataclasses import replace

import numpy as np
import pytest

from kernels import funkel as K
from solver.games.funkel.api import action_code, packed, reference_of
from solver.games.funkel import (
    LAYOUTS, PASS, Rules, apply, is_over, legal_actions, new_game, result)


def kernel_actions(words) -> list[int]:
    out = np.empty(K.MAX_ACTIONS, np.int64)
    return list(out[:K.legal_actions(words, out)])


def kernel_result(words) -> tuple[float, ...]:
    out = np.empty(4)
    return tuple(out[:K.result(words, out)])


RULES = [Rules(p, layout, hidden_shafts=hidden) for layout in LAYOUTS for p in (2, 3, 4)
         for hidden in (False, True)]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_kernel_layout_tables_copy_the_reference_layouts(layout):
    board, i = LAYOUTS[layout], K.LAYOUT_NAMES.index(layout)
    for r, rail in enumerate(board.rails):
        assert list(K.RAILS[i, r, :K.RAIL_LENGTH[i]]) == list(rail)
    assert list(K.SHAFT_CELLS[i]) == list(board.shaft_cells)
    assert list(K.COLOUR_CELLS[i]) == list(board.colour_cells)
    assert list(K.COMMON_CELLS[i]) == list(board.common_cells)


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_pack_round_trips_the_start(rules):
    start = new_game(rules, seed=3)
    assert reference_of(packed(start)) == start


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_kernel_matches_reference_move_by_move(rules, rng):
    for seed in range(12):
        state = new_game(rules, seed)
        words = packed(state)
        while True:
            expected = [action_code(a) for a in legal_actions(state)]
            assert kernel_actions(words) == expected
            assert K.is_over(words) == is_over(state)
            if not expected:
                break
            action = rng.choice(legal_actions(state))
            state, words = apply(state, action), K.play(words, action_code(action))
            assert reference_of(words) == state, f"after {action}"
            assert K.to_move(words) == state.to_move
        assert kernel_result(words) == pytest.approx(result(state))


def test_kernel_matches_reference_on_short_games_ending_at_the_push_limit(rng):
    for seed in range(30):
        rules = Rules(2 + seed % 3, list(LAYOUTS)[seed % 2], max_pushes=5 + seed % 20)
        state = new_game(rules, seed)
        words = packed(state)
        while legal_actions(state):
            action = rng.choice(legal_actions(state))
            state, words = apply(state, action), K.play(words, action_code(action))
        assert K.is_over(words) and reference_of(words) == state
        assert kernel_result(words) == pytest.approx(result(state))


def splitmix64(seed: int) -> tuple[int, int]:
    """The kernel's generator in plain Python."""
    mask = (1 << 64) - 1
    seed = (seed + 0x9E3779B97F4A7C15) & mask
    z = ((seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return seed, z ^ (z >> 31)


@pytest.mark.parametrize("rules", RULES[::2], ids=str)
def test_random_playout_is_the_reference_game_with_the_same_draws(rules):
    for seed in range(5):
        state = new_game(rules, seed)
        end = K.random_playout(packed(state), np.uint64(seed))
        generator = seed
        while legal_actions(state):
            generator, draw = splitmix64(generator)
            actions = legal_actions(state)
            state = apply(state, actions[draw % len(actions)])
        assert reference_of(end) == state


def test_kernel_pass_hands_the_turn_on():
    state = replace(new_game(Rules(4), seed=1), hands=(0, 3, 3, 3), supply=0)
    words = packed(state)
    assert kernel_actions(words) == [K.PASS]
    assert reference_of(K.play(words, K.PASS)) == apply(state, PASS)


def display(letters: str) -> tuple[int, ...]:
    return tuple(letters.count(x) for x in "gbpnky")


@pytest.mark.parametrize("players, displays", [
    (4, ("ggb", "gbp", "gb", "")),          # equal gems: more colours wins
    (4, ("gbp", "", "kny", "")),            # equal gems and colours: a shared result
    (3, ("gg", "g", "gb", "")),             # most gems wins
    (2, ("gb", "gbk", "p", "")),            # 2 players: both displays count
    (2, ("gb", "gbk", "pn", "")),
])
def test_kernel_no_winner_end_matches_reference(players, displays):
    state = replace(new_game(Rules(players), seed=1), shafts=((),) * 8,
                    displays=tuple(display(d) for d in displays))
    assert is_over(state) and K.is_over(packed(state))
    assert kernel_result(packed(state)) == pytest.approx(result(state))

"""The generic MCTS kernel: Mancala answers checked against exact search, hand-valued toy games
for chance nodes and for 3-player backups, reproducibility, the Mancala playout kernel.

Mancala outcomes are win / draw / loss for the side to move (1 / 0.5 / 0), so "the best move" of
a position is a move whose exact value (final store difference) has the best sign.
"""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import types

from kernels import mancala as mancala_kernel
from kernels import mancala_playout as playout
from kernels import mcts as k
from kernels._jit import kernel
from kernels._random import splitmix64
from solver.errors import InputError
from solver.games import mancala as reference
from solver.games.mancala import api as mancala
from solver.games.mancala.mcts import mcts_best_move, mcts_game, mcts_state
from solver.search import mcts

REPO = Path(__file__).resolve().parents[1]
STATE = types.UniTuple(types.uint64, 2)
SIG = k.game_signatures(STATE)


def outcome_class(value: int) -> float:
    return 1.0 if value > 0 else 0.5 if value == 0 else 0.0


def exact_move_values(position: str) -> dict[int, int]:
    return mancala.best_move(position, exact=True, all_moves=True).moves


# --- Mancala against exact search ----------------------------------------------------------------

# Endgames where exact search proves exactly one winning move (checked below before MCTS runs).
FORCED_WINS = [
    ("0,4,0,2,1,1/3,2,1,1,0,0 16-17 A", 6),
    ("0,1,4,1,2,3/2,0,0,4,2,0 11-18 B", 11),
    ("1,0,2,1,2,3/1,2,1,1,0,4 15-15 A", 5),
    ("4,1,0,0,3,1/0,1,3,1,4,1 17-12 B", 12),
    ("3,4,0,2,3,2/0,0,3,0,1,0 12-18 A", 1),
    ("0,2,2,1,1,2/1,0,1,1,1,2 17-17 A", 6),
    ("3,2,0,0,0,2/1,3,1,3,1,2 18-12 B", 10),
    ("1,3,0,0,0,4/1,1,1,1,0,3 14-19 A", 2),
]
# Harder ones: the winning move needs more simulations to stand out.
HARD_FORCED_WINS = [
    ("1,2,2,1,3,0/0,2,1,3,1,2 15-15 B", 12),
    ("0,3,2,3,1,2/1,2,1,1,3,0 11-18 B", 8),
]


@pytest.mark.parametrize("position,winning_move", FORCED_WINS + HARD_FORCED_WINS)
def test_exact_search_proves_exactly_one_winning_move(position, winning_move):
    values = exact_move_values(position)
    assert [m for m, v in values.items() if v > 0] == [winning_move]


@pytest.mark.parametrize("position,winning_move", FORCED_WINS)
def test_mcts_finds_the_only_winning_move(position, winning_move):
    assert mcts_best_move(position, simulations=5_000, seed=1).move == winning_move


@pytest.mark.parametrize("position,winning_move", HARD_FORCED_WINS)
def test_mcts_finds_the_only_winning_move_with_more_simulations(position, winning_move):
    assert mcts_best_move(position, simulations=60_000, seed=1).move == winning_move


@pytest.mark.parametrize("position,winning_move", FORCED_WINS + HARD_FORCED_WINS)
def test_the_solver_proves_the_win_and_stops_early(position, winning_move):
    found = mcts_best_move(position, simulations=200_000, seed=2, solver=True)
    assert found.proven == 1.0
    assert found.move == winning_move
    assert found.moves[winning_move].proven == 1.0
    assert found.simulations < 200_000


@pytest.mark.parametrize("position", ["0,0,1,2,0,1/1,0,2,0,1,0 20-20 A",
                                      "1,0,0,0,2,1/0,1,1,0,0,2 21-19 B",
                                      "0,1,0,3,0,0/2,0,0,1,0,1 19-21 A"])
def test_solver_values_equal_the_exact_outcome_of_every_move(position):
    exact = exact_move_values(position)
    found = mcts_best_move(position, simulations=100_000, seed=3, solver=True)
    best = max(outcome_class(v) for v in exact.values())
    assert found.proven == best
    assert outcome_class(exact[found.move]) == best
    for move, stats in found.moves.items():
        if stats.proven is not None:
            assert stats.proven == outcome_class(exact[move]), move


@pytest.mark.parametrize("position,winning_move", HARD_FORCED_WINS)
def test_visits_concentrate_on_the_winning_move_as_simulations_grow(position, winning_move):
    shares = []
    for simulations in (2_000, 20_000, 200_000):
        found = mcts_best_move(position, simulations=simulations, seed=4)
        shares.append(found.moves[winning_move].visits / found.simulations)
    assert shares[0] < shares[1] < shares[2]
    assert shares[2] > 0.6


def test_the_mean_store_difference_of_a_forced_line_is_exact():
    # A to move, one stone left in bin 6: it goes to A's store (extra turn is moot: A's pits are
    # then empty and B sweeps 2). Every playout is the same game: final 11-13, so -2 for A.
    found = mcts_best_move("0,0,0,0,0,1/1,1,0,0,0,0 10-11 A", simulations=50, seed=0)
    assert found.move == 6
    assert found.moves[6].visits == 50
    assert found.moves[6].mean_score == -2.0
    assert found.moves[6].mean_reward == 0.0


# --- reproducibility, budgets, errors ------------------------------------------------------------

@pytest.mark.parametrize("threads", [1, 2])
def test_the_same_seed_and_thread_count_give_the_same_answer(threads):
    runs = [mcts_best_move(simulations=30_000, seed=7, threads=threads) for _ in range(2)]
    assert runs[0].moves == runs[1].moves
    assert runs[0].move == runs[1].move
    other_seed = mcts_best_move(simulations=30_000, seed=8, threads=threads)
    assert other_seed.moves != runs[0].moves


def test_a_search_on_memory_a_larger_search_left_gives_the_answer_of_fresh_memory():
    """Searches keep their trees' memory for the next one (zeroed): reusing it changes nothing."""
    mcts.release_memory()
    fresh = [mcts_best_move(simulations=20_000, seed=3, threads=t) for t in (1, 2)]
    assert mcts._kept and not any(raw.any() for raw in mcts._kept)   # kept, and zero again
    mcts_best_move("2,9,0,5,3,1/1,0,7,2,6,4 3-5 B", simulations=60_000, seed=1, threads=2)
    again = [mcts_best_move(simulations=20_000, seed=3, threads=t) for t in (1, 2)]
    assert [(r.move, r.moves, r.nodes, r.max_depth) for r in again] == \
        [(r.move, r.moves, r.nodes, r.max_depth) for r in fresh]
    mcts.release_memory()
    assert not mcts._kept


def test_searches_of_other_thread_counts_in_turn_find_their_memory_again():
    """A search takes the blocks it needs from those kept and leaves the others kept, so two
    kinds of search in turn (two bots of a match) allocate nothing after their first round."""
    mcts.release_memory()
    for threads in (1, 2):
        mcts_best_move(simulations=20_000, seed=3, threads=threads)
    first_round = {id(raw) for raw in mcts._kept}
    assert len(first_round) == 2
    for threads in (1, 2, 1, 2):
        mcts_best_move(simulations=20_000, seed=3, threads=threads)
        assert {id(raw) for raw in mcts._kept} == first_round
    mcts.release_memory()


@pytest.mark.parametrize("threads", [1, 2])
def test_a_search_run_in_slices_grows_the_tree_one_call_grows(monkeypatch, threads):
    """A search for a number of simulations runs in compiled slices (so that Ctrl-C can act
    between them); the kernel resumes where it stopped, so the trees are the same."""
    def grown(slice_simulations):
        monkeypatch.setattr(mcts, "SLICE_SIMULATIONS", slice_simulations)
        start = reference.new_game(reference.Rules(capture_empty=False))
        trees, _ = mcts.grow_trees(mcts_game(start.m), mcts_state(start), simulations=30_000,
                                   threads=threads, seed=5)
        return [(tree.record[:tree.meta[k.NODES]].copy(),
                 tree.values[:tree.meta[k.NODES]].copy(), tree.root_scores.copy())
                for tree in trees]
    whole, sliced = grown(10**9), grown(7_000)
    assert len(whole) == len(sliced) == threads
    for one, other in zip(whole, sliced):
        assert all(np.array_equal(a, b) for a, b in zip(one, other))


def test_threads_split_the_simulations_and_sum_the_root_statistics():
    found = mcts_best_move(simulations=30_001, seed=5, threads=2)
    assert found.simulations == 30_001
    assert sum(s.visits for s in found.moves.values()) == 30_001
    assert found.threads == 2


def test_batches_grow_the_same_tree_as_one_call():
    # Time control runs a tree in batches; the tree must not depend on where they split.
    game, state = mcts_game(), mcts_state(reference.new_game(reference.Rules()))
    run = mcts.bind_kernel(game, state, mcts.DEFAULT_C, solver=False)
    whole = mcts.Tree(20_001, 2, 6, seed=9)
    run(whole, 20_000)
    batched = mcts.Tree(20_001, 2, 6, seed=9)
    for size in (1, 999, 9_000, 10_000):
        run(batched, size)
    for a, b in zip(whole.arrays(), batched.arrays()):
        used = int(whole.meta[k.NODES]) if a.ndim > 1 else len(a)
        assert np.array_equal(a[:used], b[:used], equal_nan=True)


def test_a_node_joins_the_tree_on_the_second_visit_of_its_edge():
    """An edge tried once has no node (its row in the parent holds all a node visited once
    would); from its second visit it has one, which counts the first visit too, so the search
    is the one that adds a node at the first visit."""
    game, state = mcts_game(), mcts_state(reference.new_game(reference.Rules()))
    run = mcts.bind_kernel(game, state, mcts.DEFAULT_C, solver=False)
    tree = mcts.Tree(20_001, 2, 6, seed=4)
    run(tree, 20_000)
    used = int(tree.meta[k.NODES])
    expanded = tree.nodes[:used, k.MOVES] > 0
    visits = tree.edges[:used, k.EDGE_VISITS][expanded]
    child = tree.edges[:used, k.CHILD][expanded]
    opened = np.arange(6)[None, :] < tree.nodes[:used, k.MOVES][expanded][:, None]
    assert np.all(child[opened & (visits == 1)] == -1)
    assert np.all(child[opened & (visits >= 2)] >= 0)        # the tree never filled up
    assert int(tree.meta[k.FULL]) == 0
    counts = np.maximum(tree.nodes[:used, k.MOVES], 0)
    parents, slots = np.nonzero((np.arange(6)[None, :] < counts[:, None])
                                & (tree.edges[:used, k.CHILD] >= 0))
    children = tree.edges[:used, k.CHILD][parents, slots]
    assert sorted(children) == list(range(1, used))
    assert np.array_equal(tree.nodes[children, k.NODE_VISITS],
                          tree.edges[parents, k.EDGE_VISITS, slots])
    assert used < 20_000 / 2   # most edges are tried once


def test_a_time_budget_stops_near_the_deadline():
    found = mcts_best_move(seconds=0.3, seed=1)
    assert found.simulations > 1000
    assert found.seconds < 3.0   # generous: a cold cache or a busy machine


def test_a_full_tree_keeps_simulating_without_growing():
    found = mcts_best_move(simulations=20_000, seed=1, memory_mb=1)
    assert found.simulations == 20_000
    assert found.nodes < 20_000


def test_bad_requests_raise_input_errors():
    with pytest.raises(InputError):
        mcts_best_move("0,0,0,0,0,0/1,1,0,0,0,0 10-11 A")      # the game is over
    with pytest.raises(InputError):
        mcts_best_move(simulations=0)
    with pytest.raises(InputError):
        mcts_best_move(seconds=-1)


# --- chance nodes: a hand-valued toy game --------------------------------------------------------
#
#   root (seat 0) --safe--> end: seat 0 gets 0.45
#        |
#      gamble
#        v
#   chance --0.3--> end: seat 0 gets 0
#        |
#       0.7
#        v
#   duel (seat 1) --pay--> end: seat 0 gets 1.0
#        |
#       keep --> end: seat 0 gets 0.5
#
# Seat 1 keeps, so gamble is worth 0.7 * 0.5 + 0.3 * 0 = 0.35 < 0.45: safe is right. A search
# that averaged seat 1's moves instead would value gamble at 0.7 * 0.75 = 0.525 and gamble.
# Node ids live in word 0; a score of 10 x the reward checks the score statistics.

ROOT, SAFE_END, CHANCE_NODE, DUEL, PAID, KEPT, LOST = range(7)
GAMBLE, SAFE = 0, 1
PAY, KEEP = 0, 1
NEXT = np.array([[CHANCE_NODE, SAFE_END], [-1, -1], [DUEL, LOST], [PAID, KEPT],
                 [-1, -1], [-1, -1], [-1, -1]], np.int64)
MOVE_COUNT = np.array([2, 0, 2, 2, 0, 0, 0], np.int64)
SEAT = np.array([0, 0, k.CHANCE, 1, 0, 0, 0], np.int64)
SEAT0_REWARD = np.array([0, 0.45, 0, 0, 1.0, 0.5, 0.0], np.float64)
OUTCOME_PROBABILITY = np.array([0.7, 0.3], np.float64)


@kernel(SIG["legal_moves"])
def gamble_legal_moves(state, out):
    n = MOVE_COUNT[state[0]]
    for i in range(n):
        out[i] = i
    return n


@kernel(SIG["play"])
def gamble_play(state, move):
    return (np.uint64(NEXT[state[0], move]), state[1]), 0


@kernel(SIG["to_move"])
def gamble_to_move(state):
    return SEAT[state[0]]


@kernel(SIG["chance_probabilities"])
def gamble_chance(state, out):
    out[0], out[1] = OUTCOME_PROBABILITY[0], OUTCOME_PROBABILITY[1]
    return 2


@kernel(SIG["returns"])
def gamble_returns(state, out):
    out[0] = SEAT0_REWARD[state[0]]
    out[1] = 1.0 - out[0]
    out[2], out[3] = 10.0 * out[0], 10.0 * out[1]
    return 2


GAMBLE_GAME = mcts.MctsGame(STATE, players=2, max_moves=2, legal_moves=gamble_legal_moves,
                            play=gamble_play, to_move=gamble_to_move, returns=gamble_returns,
                            chance_probabilities=gamble_chance)
GAMBLE_ROOT = (np.uint64(ROOT), np.uint64(0))


def child_of(tree: mcts.Tree, node: int, slot: int) -> int:
    return int(tree.edges[node, k.CHILD, slot])


def edge_mean(tree: mcts.Tree, node: int, slot: int) -> float:
    return tree.values[node, slot] / tree.edges[node, k.EDGE_VISITS, slot]


def test_chance_node_values_match_the_hand_computed_expectation():
    trees, seconds = mcts.grow_trees(GAMBLE_GAME, GAMBLE_ROOT, simulations=20_000, seed=11)
    found = mcts.summarize(trees, seconds)
    assert found.move == SAFE
    assert found.moves[SAFE].mean_reward == pytest.approx(0.45, abs=1e-9)
    assert found.moves[SAFE].mean_score == pytest.approx(4.5, abs=1e-9)
    # gamble's mean tends to 0.35 from above (seat 1's early tries of PAY)
    assert 0.35 <= found.moves[GAMBLE].mean_reward < 0.40
    tree = trees[0]
    chance = child_of(tree, 0, GAMBLE)
    assert tree.nodes[chance, k.MOVER] == k.CHANCE
    outcomes = tree.edges[chance, k.EDGE_VISITS, :2]
    n = int(outcomes.sum())
    sigma = math.sqrt(n * 0.7 * 0.3)
    assert abs(outcomes[0] - 0.7 * n) < 4 * sigma
    # the duel's edges hold seat 1's rewards: PAY gives it 0, KEEP 0.5, and it keeps
    duel = child_of(tree, chance, 0)
    assert edge_mean(tree, duel, PAY) == 0.0
    assert edge_mean(tree, duel, KEEP) == pytest.approx(0.5, abs=1e-9)
    assert tree.edges[duel, k.EDGE_VISITS, KEEP] > tree.edges[duel, k.EDGE_VISITS, PAY]


def test_chance_outcomes_follow_their_probabilities_in_built_in_rollouts():
    # One simulation per gamble edge visit: its chance child is added on the first, after
    # which every visit samples an outcome; the split is binomial(0.7).
    trees, _ = mcts.grow_trees(GAMBLE_GAME, GAMBLE_ROOT, simulations=2_000, seed=12, c=100.0)
    tree = trees[0]
    chance = child_of(tree, 0, GAMBLE)
    outcomes = tree.edges[chance, k.EDGE_VISITS, :2]
    n = int(outcomes.sum())
    assert n > 500  # c = 100: the root explores both moves evenly
    assert abs(outcomes[0] - 0.7 * n) < 4 * math.sqrt(n * 0.21)


# --- 3 players: each edge from its mover's view (max-n) ----------------------------------------
#
# Seats 0, 1, 2 each pick a bit in turn (a, b, c); the leaf pays (r0, r1, r2) = PAYOFF[a, b, c].
# Each seat maximising its own reward: seat 2 picks c=0 under (0,0), c=1 under (0,1), c=1 under
# (1,0), c=0 under (1,1); seat 1 then picks b=1 under a=0 (0.5 > 0.2), b=0 under a=1 (0.9 > 0.4);
# seat 0 gets 0.7 from a=0 and 0.1 from a=1, so a=0. Averaging the leaves would pick a=1
# (0.6 > 0.55), and a paranoid 2-player backup (everyone against seat 0) a=1 (0.1 > 0.0).

PAYOFF = np.array([[[0.5, 0.2, 0.9], [1.0, 1.0, 0.1]],     # a=0, b=0: c=0, c=1
                   [[0.0, 0.6, 0.3], [0.7, 0.5, 0.4]],     # a=0, b=1
                   [[1.0, 0.3, 0.5], [0.1, 0.9, 0.6]],     # a=1, b=0
                   [[0.3, 0.4, 0.8], [1.0, 0.0, 0.2]]],    # a=1, b=1
                  np.float64).reshape(8, 3)


@kernel(SIG["legal_moves"])
def bits_legal_moves(state, out):
    if state[0] >= 8:       # heap numbering: node 1 is the root, children 2i and 2i+1
        return 0
    out[0], out[1] = 0, 1
    return 2


@kernel(SIG["play"])
def bits_play(state, move):
    return (state[0] * np.uint64(2) + np.uint64(move), state[1]), 0


@kernel(SIG["to_move"])
def bits_to_move(state):
    seat = 0
    node = state[0]
    while node > 1:
        node >>= np.uint64(1)
        seat += 1
    return seat


@kernel(SIG["returns"])
def bits_returns(state, out):
    for seat in range(3):
        out[seat] = PAYOFF[state[0] - np.uint64(8), seat]
        out[3 + seat] = out[seat]
    return 3


BITS_GAME = mcts.MctsGame(STATE, players=3, max_moves=2, legal_moves=bits_legal_moves,
                          play=bits_play, to_move=bits_to_move, returns=bits_returns)


def test_three_player_backup_finds_the_max_n_move():
    trees, seconds = mcts.grow_trees(BITS_GAME, (np.uint64(1), np.uint64(0)),
                                     simulations=20_000, seed=13, c=0.5)
    found = mcts.summarize(trees, seconds)
    assert found.move == 0
    assert abs(found.moves[0].mean_reward - 0.7) < 0.05
    tree = trees[0]
    seat1 = child_of(tree, 0, 0)
    assert tree.nodes[seat1, k.MOVER] == 1
    assert tree.edges[seat1, k.EDGE_VISITS, 1] > tree.edges[seat1, k.EDGE_VISITS, 0]
    seat2 = child_of(tree, seat1, 0)       # under (a=0, b=0): its edges hold seat 2's rewards
    assert tree.nodes[seat2, k.MOVER] == 2
    assert edge_mean(tree, seat2, 0) == pytest.approx(0.9, abs=1e-9)
    assert edge_mean(tree, seat2, 1) == pytest.approx(0.1, abs=1e-9)


def test_the_solver_refuses_more_than_two_players():
    with pytest.raises(ValueError):
        mcts.search(BITS_GAME, (np.uint64(1), np.uint64(0)), simulations=10, solver=True)


# --- progressive bias (option PRIOR) ------------------------------------------------------------

@kernel(SIG["prior"])
def prefer_one(state, out):
    """A prior that likes bit 1 at every node (at the root the max-n move is 0)."""
    out[0], out[1] = 0.0, 1.0
    return 2


BIASED_BITS = BITS_GAME._replace(prior=prefer_one)
BITS_ROOT = (np.uint64(1), np.uint64(0))


def test_a_zero_bias_grows_the_same_tree_as_no_prior():
    plain, _ = mcts.grow_trees(BITS_GAME, BITS_ROOT, simulations=3_000, seed=13, c=0.5)
    unbiased, _ = mcts.grow_trees(BIASED_BITS, BITS_ROOT, simulations=3_000, seed=13, c=0.5)
    for a, b in zip(plain[0].arrays(), unbiased[0].arrays()):
        assert np.array_equal(a, b)


def test_a_prior_opens_its_move_first_and_steers_the_first_visits():
    trees, _ = mcts.grow_trees(BIASED_BITS, BITS_ROOT, simulations=60, seed=13, c=0.5,
                               bias=50.0)
    tree = trees[0]
    assert list(tree.moves[0, :2]) == [1, 0]             # stored best prior first
    assert list(tree.priors[0, :2]) == [50.0, 0.0]
    assert tree.edges[0, k.EDGE_VISITS, 0] > 2 * tree.edges[0, k.EDGE_VISITS, 1]


def test_the_root_takes_its_own_weight():
    trees, _ = mcts.grow_trees(BIASED_BITS, BITS_ROOT, simulations=200, seed=13, bias=50.0,
                               root_bias=0.0)
    tree = trees[0]
    assert list(tree.priors[0, :2]) == [0.0, 0.0]
    seat1 = child_of(tree, 0, 0)
    assert tree.nodes[seat1, k.MOVES] == 2 and list(tree.priors[seat1, :2]) == [50.0, 0.0]


def test_the_bias_fades_so_the_search_still_finds_the_max_n_move():
    found = mcts.search(BIASED_BITS, BITS_ROOT, simulations=20_000, seed=13, c=0.5, bias=1.0)
    assert found.move == 0 and found.bias == 1.0
    assert abs(found.moves[0].mean_reward - 0.7) < 0.05


@kernel(SIG["prior"])
def prefer_second(state, out):
    out[0], out[1] = 0.0, 1.0
    return 2


def test_chance_nodes_keep_their_outcome_order_under_a_prior():
    # The prior puts SAFE (move 1) first at the root; the chance node under GAMBLE keeps its
    # outcomes in legal_moves order, the order of their probabilities.
    game = GAMBLE_GAME._replace(prior=prefer_second)
    trees, _ = mcts.grow_trees(game, GAMBLE_ROOT, simulations=2_000, seed=12, bias=1.0)
    tree = trees[0]
    assert list(tree.moves[0, :2]) == [SAFE, GAMBLE]
    chance = child_of(tree, 0, 1)
    assert tree.nodes[chance, k.MOVER] == k.CHANCE
    assert list(tree.moves[chance, :2]) == [0, 1]
    outcomes = tree.edges[chance, k.EDGE_VISITS, :2]
    n = int(outcomes.sum())
    assert abs(outcomes[0] - 0.7 * n) < 4 * math.sqrt(n * 0.21)


def test_bad_bias_requests_raise_value_errors():
    with pytest.raises(ValueError):
        mcts.search(BITS_GAME, BITS_ROOT, simulations=10, bias=1.0)      # no prior
    with pytest.raises(ValueError):
        mcts.search(BIASED_BITS, BITS_ROOT, simulations=10, bias=-1.0)
    game, state = mcts_game(), mcts_state(reference.new_game(reference.Rules()))
    with pytest.raises(ValueError):
        mcts.search(game._replace(prior=k.no_prior(game.state_type)), state, simulations=10,
                    bias=1.0, solver=True)


def one_node_rows(width):
    """The record, values and priors rows of a one-node tree with ``width`` edges, zeroed."""
    return (np.zeros((1, k.record_width(width)), np.int32),
            np.zeros((1, k.values_width(width)), np.float64),
            np.zeros((1, k.values_width(width)), np.float64))


def test_biased_uct_selection_equals_the_plain_formula(rng):
    width = 6
    record, values, priors = one_node_rows(width)
    for _ in range(3000):
        count = rng.randint(1, width)
        visits = [rng.choice([1, 2, 3, 7, 40, 900, 4094, 4095, 4096, 5000, 123456])
                  for _ in range(count)]
        rewards = [rng.choice([0.0, 0.5, 1.0, rng.random()]) * n for n in visits]
        bonus = [rng.choice([0.0, 0.0, 1.0, 3.0 * rng.random()]) for _ in range(count)]
        record[0, k.HEADER:k.HEADER + count] = visits
        values[0, :count] = rewards
        priors[0, :count] = bonus
        exploration = 1.4 * math.sqrt(math.log(sum(visits)))
        priorities = [r / n + exploration / math.sqrt(n) + b / (1 + n)
                      for r, n, b in zip(rewards, visits, bonus)]
        best = max(priorities)
        near = [i for i, p in enumerate(priorities) if p >= best - 1e-12 * max(1.0, abs(best))]
        chosen = k.select_uct_prior(record, values, priors, TABLE, 0, count, exploration)
        assert chosen in near, (visits, rewards, bonus)


def test_ordering_by_prior_is_a_stable_sort(rng):
    width = 8
    moves = np.zeros((1, width), np.int32)
    priors = np.zeros((1, k.values_width(width)), np.float64)
    for _ in range(500):
        count = rng.randint(1, width)
        legal = rng.sample(range(40), count)
        prior = [rng.choice([0.0, 1.0, 0.5, rng.random()]) for _ in range(count)]
        moves[0, :count] = legal
        k.order_by_prior(priors, moves, 0, count, np.array(prior + [0.0] * (width - count)), 2.0)
        expected = sorted(zip(legal, prior), key=lambda mp: -mp[1])     # sorted() is stable
        assert list(moves[0, :count]) == [m for m, _ in expected]
        assert list(priors[0, :count]) == [2.0 * p for _, p in expected]


# --- the Mancala playout kernel ------------------------------------------------------------------

def random_state(rng, m: int, capture_empty: bool):
    """Random pits (some of 13+ stones, for whole laps), random stores, either side marked B."""
    while True:
        pits = [[rng.choice([0, 0, 1, 2, 3, 5, 8, 13, 14, 27]) for _ in range(m)] for _ in "AB"]
        if sum(pits[0]) + sum(pits[1]) + 40 > 255 or not (any(pits[0]) and any(pits[1])):
            continue
        words = [mancala_kernel.pack_side(p, rng.randrange(20), m, capture_empty) for p in pits]
        return playout.mark_sides(tuple(words), rng.randrange(2))


def test_sow_equals_the_kernel_play_on_random_positions(rng):
    for _ in range(3000):
        m = rng.randint(1, 6)
        state = random_state(rng, m, capture_empty=rng.random() < 0.5)
        for lane in range(m):
            if (int(state[0]) >> 8 * lane) & 0xFF:
                played, info = mancala_kernel.play(state, lane)
                assert playout.sow(state, lane) == (played, bool(info & mancala_kernel.GAME_OVER))


def test_random_lane_picks_every_non_empty_lane_uniformly():
    pits = mancala_kernel.pack_side([0, 3, 0, 1, 7, 0], 0, 6, True) & mancala_kernel.PIT_MASK[6]
    counts = np.zeros(8, np.int64)
    r = np.uint64(1)
    for _ in range(30_000):
        r, word = splitmix64(r)
        counts[playout.random_lane(pits, word)] += 1
    assert counts[[0, 2, 5, 6, 7]].sum() == 0
    assert all(abs(counts[lane] - 10_000) < 4 * math.sqrt(30_000 * 2 / 9) for lane in (1, 3, 4))


def test_random_playouts_follow_the_rules_and_keep_the_side_mark(rng):
    # Replay random games on the reference: every move the playout's lane picker makes is
    # legal, the kernel's play keeps SIDE_BIT on B's word, and to_move names the reference's side.
    for _ in range(200):
        pos = reference.new_game(reference.Rules(rng.randint(3, 6), rng.randint(1, 5)))
        state = mcts_state(pos)
        word = np.uint64(rng.getrandbits(64))
        while not reference.is_over(pos):
            assert playout.to_move(state) == pos.to_move
            lane = playout.random_lane(state[0] & mancala_kernel.PIT_MASK[pos.m], word)
            move = mancala.move_of(lane, pos.to_move, pos.m)
            assert move in reference.legal_actions(pos)
            pos = reference.apply(pos, move)
            state, _ = mancala_kernel.play(state, lane)
            word = np.uint64(rng.getrandbits(64))
        assert playout.returns(state, np.empty(4)) == 2
        final = reference.final_stores(pos)
        out = np.empty(4)
        playout.returns(state, out)
        assert out[2] == final[0] - final[1] and out[3] == final[1] - final[0]
        assert out[0] == outcome_class(final[0] - final[1])


def test_playout_mean_from_the_start_is_near_its_known_value():
    state = mcts_state(reference.new_game(reference.Rules()))
    plies, total = playout.playout_stats(state, 20_000, np.uint64(5))
    assert 38 < plies / 20_000 < 43        # a random Kalah(6,4) game lasts about 40 sowings
    assert abs(total / 20_000) < 1.5       # and random play hardly favours either side


def replay_playout(state, rng):
    """The plain reference of ``random_playout``: the same random draws (each SplitMix64 word
    cut into DRAWS_PER_WORD draws of PICK_BITS bits, from the top), ``random_lane`` on the
    masked pits, the kernel's ``play`` until it reports GAME_OVER."""
    mask = mancala_kernel.PIT_MASK[mancala_kernel.pits_of(state[0])]
    plies, draws = 0, []
    while not mancala_kernel.is_terminal(state):
        if not draws:
            rng, word = splitmix64(rng)
            draws = [(int(word) << playout.PICK_BITS * k) & (2**64 - 1)
                     for k in range(playout.DRAWS_PER_WORD)]
        draw = np.uint64(draws.pop(0))
        state, info = mancala_kernel.play(state, playout.random_lane(state[0] & mask, draw))
        plies += 1
        if info & mancala_kernel.GAME_OVER:
            break
    return state, plies, rng


def test_random_playout_equals_its_plain_reference(rng):
    # Random positions (pits of 13+ stones for whole laps), and a game of 240 stones.
    for _ in range(300):
        m = rng.randint(1, 6)
        state = random_state(rng, m, capture_empty=rng.random() < 0.5)
        seed = np.uint64(rng.getrandbits(64))
        assert playout.random_playout(state, seed) == replay_playout(state, seed)
    state = mcts_state(reference.new_game(reference.Rules(6, 20)))
    assert playout.random_playout(state, np.uint64(3)) == replay_playout(state, np.uint64(3))


def test_pit_masks_name_the_non_empty_pits(rng):
    for _ in range(2000):
        m = rng.randint(1, 6)
        pits = [[rng.choice([0, 0, 1, 2, 5, 13, 64, 127, 128, 200]) for _ in range(m)]
                for _ in "AB"]
        words = [mancala_kernel.pack_side(p, rng.randrange(256), m, rng.random() < 0.5)
                 for p in pits]
        expected = [sum(1 << lane for lane, count in enumerate(p) if count) for p in pits]
        assert playout.pit_mask(words[0], playout.PIT_HIGH[m]) == expected[0]
        assert playout.pit_masks(words[0], words[1], m) == expected[0] | expected[1] << 8


def test_the_mcts_play_is_the_kernel_play(rng):
    for _ in range(500):
        m = rng.randint(1, 6)
        state = random_state(rng, m, capture_empty=rng.random() < 0.5)
        for lane in range(m):
            if (int(state[0]) >> 8 * lane) & 0xFF:
                assert playout.play(state, lane) == (mancala_kernel.play(state, lane)[0], 0)


TABLE = k.uct_table(4096)     # visits up to 4095 from the table, larger ones computed


def test_uct_selection_equals_the_plain_formula(rng):
    # Random edge statistics (visits past the table too): the kernel's table-driven priority
    # picks the edge of the largest mean + c * sqrt(ln N / n); among edges whose priorities
    # differ only by rounding, one of them.
    width = 6
    record, values, _ = one_node_rows(width)
    for _ in range(3000):
        count = rng.randint(1, width)
        visits = [rng.choice([1, 2, 3, 7, 40, 900, 4095, 4096, 5000, 123456])
                  for _ in range(count)]
        rewards = [rng.choice([0.0, 0.5, 1.0, rng.random()]) * n for n in visits]
        record[0, k.HEADER:k.HEADER + count] = visits
        values[0, :count] = rewards
        exploration = 1.4 * math.sqrt(math.log(sum(visits)))
        priorities = [r / n + exploration / math.sqrt(n) for r, n in zip(rewards, visits)]
        best = max(priorities)
        near = [i for i, p in enumerate(priorities) if p >= best - 1e-12 * max(1.0, abs(best))]
        assert k.select_uct(record, values, TABLE, 0, count, exploration) in near, (visits, rewards)


def test_uct_selection_takes_the_first_of_equal_edges():
    width = 6
    record, values, _ = one_node_rows(width)
    for visits, reward in ((1, 0.5), (7, 3.0), (5000, 2500.0), (123456, 0.0)):
        record[0, k.HEADER:k.HEADER + width] = visits
        values[0, :width] = reward
        for count in range(1, width + 1):
            assert k.select_uct(record, values, TABLE, 0, count, 1.3) == 0
        values[0, 3] = reward + 1.0
        values[0, 5] = reward + 1.0
        assert k.select_uct(record, values, TABLE, 0, width, 1.3) == 3


def test_the_uct_tables_length_changes_no_choice(rng):
    """Counts past the table are computed with the functions that filled it, to the same bits:
    a short table (fast, cached) and a long one choose the same edges."""
    short, long = k.uct_table(2), k.uct_table(1 << 17)
    for visits in range(1, 1 << 17):
        assert k.sqrt_log(short, visits) == k.sqrt_log(long, visits) == \
            k.sqrt_log(TABLE, visits)
    width = 6
    record, values, priors = one_node_rows(width)
    for _ in range(3000):
        count = rng.randint(2, width)
        visits = [rng.choice([1, 2, 3, rng.randrange(4, 1 << 17)]) for _ in range(count)]
        record[0, k.HEADER:k.HEADER + count] = visits
        values[0, :count] = [rng.choice([0.0, 0.5, 1.0, rng.random()]) * n for n in visits]
        priors[0, :count] = [rng.choice([0.0, 3.0 * rng.random()]) for _ in range(count)]
        exploration = 1.4 * k.sqrt_log(TABLE, sum(visits))
        assert len({k.select_uct(record, values, table, 0, count, exploration)
                    for table in (short, TABLE, long)}) == 1, visits
        assert len({k.select_uct_prior(record, values, priors, table, 0, count, exploration)
                    for table in (short, TABLE, long)}) == 1, visits


# --- architecture --------------------------------------------------------------------------------

@pytest.mark.parametrize("module", ["kernels/mcts.py", "solver/search/mcts.py"])
def test_the_search_imports_no_game(module):
    source = (REPO / module).read_text()
    imported = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert not [line for line in imported if any(game in line for game in
                                                 ("mancala", "funkel", "tunhell", "games"))]


# --- compile cache -------------------------------------------------------------------------------

CACHE_PROBE = """
import json
from kernels import mcts, mancala_playout
from kernels.mancala import STATE
from kernels._jit import cache_hits
dispatchers = dict(search=mcts.search_kernel(STATE), rollout=mancala_playout.rollout,
                   no_chance=mcts.no_chance(STATE), no_prior=mcts.no_prior(STATE))
print(json.dumps({name: cache_hits(d) for name, d in dispatchers.items()}))
"""


def run_fresh_process(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO),
                                                                  os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_fresh_process_loads_the_mcts_kernel_from_the_disk_cache():
    run_fresh_process(CACHE_PROBE)  # warm-up: compiles and writes the cache if it is missing
    hits = json.loads(run_fresh_process(CACHE_PROBE).strip().splitlines()[-1])
    assert all(count >= 1 for count in hits.values()), hits

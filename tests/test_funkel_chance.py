"""Funkel Munkel's chance-node MCTS (``kernels.funkel_chance``): its game functions against the
rules of the reveal, and its values against the exact solver as simulations grow."""
import random

import numpy as np
import pytest

from kernels import funkel_chance as chance
from solver.games.funkel import exact, legal_actions, unseen_pool
from solver.errors import InputError
from solver.games.funkel.api import action_code, bot_named, chance_mcts_moves, match, packed_view


def revealing_push(view):
    """A legal push of ``view`` that makes a cart with an unseen gem leave, or None."""
    state = packed_view(view)
    for action in legal_actions(view):
        code = action_code(action)
        if chance.leaving_cell(state, code) >= 0:
            return code
    return None


def test_a_reveal_is_a_chance_node_whose_outcomes_are_the_unseen_pool():
    for view in exact.late_positions(30, 2, horizon=3, seed=3):
        push = revealing_push(view)
        if push is None:
            continue
        state = packed_view(view)
        node, info = chance.chance_play(state, push)
        assert chance.chance_to_move(node) == chance.CHANCE and info == 0
        outcomes, probabilities = np.empty(20, np.int64), np.empty(20)
        n = chance.chance_legal_moves(node, outcomes)
        assert chance.chance_probabilities(node, probabilities) == n
        pool = unseen_pool(view)
        assert list(outcomes[:n]) == sorted(set(pool))
        for gem, p in zip(outcomes[:n], probabilities[:n]):
            assert p == pytest.approx(pool.count(gem) / len(pool))
        after, _ = chance.chance_play(node, outcomes[0])
        assert chance.chance_to_move(after) != chance.CHANCE
        return
    pytest.fail("no position with a reveal among 30")


def test_a_rollout_from_a_chance_node_pays_out_real_gems():
    for view in exact.late_positions(30, 2, horizon=6, seed=4):
        push = revealing_push(view)
        if push is not None:
            node, _ = chance.chance_play(packed_view(view), push)
            out = np.empty(16)
            for seed in range(20):
                chance.view_random_rollout(node, np.uint64(seed), out)
                assert sorted(out[:2]) in ([0.0, 1.0], [0.5, 0.5])
            return
    pytest.fail("no position with a reveal among 30")


def test_the_recommended_push_value_approaches_the_exact_value():
    """On endgames from random games the error of the recommended push's search_value falls as
    simulations grow (measured over the positions, not on one)."""
    views = exact.late_positions(8, 2, horizon=3, seed=77)
    solved = [exact.solve(v, max_states=300_000) for v in views]
    errors = []
    for simulations in (500, 50_000):
        total = 0.0
        for i, (view, truth) in enumerate(zip(views, solved)):
            found = chance_mcts_moves(view, simulations=simulations, seed=i)
            at = [m.action for m in found.moves].index(found.best)
            total += abs(found.moves[at].value - truth.actions[at].expected[view.to_move])
        errors.append(total / len(views))
    assert errors[1] < errors[0]


def test_the_chance_mcts_bot_plays_whole_games():
    found = match(3, ["chance-mcts:300", "greedy", "random"], 3, seed=1)
    assert sum(e.games for e in found.entrants) == 9


def test_the_bot_name_carries_rollout_and_exploration_constant():
    found = match(4, ["chance-mcts:200:greedy:0.7", "greedy", "greedy", "greedy"], 4, seed=2)
    assert sum(e.games for e in found.entrants) == 16


@pytest.mark.parametrize("name", ["chance-mcts:200:greedy:0", "chance-mcts:200:greedy:-1",
                                  "chance-mcts:200:greedy:inf", "chance-mcts:200:greedy:x",
                                  "chance-mcts:200:greedy:1:2:3:4", "chance-mcts:200:smart"])
def test_bad_chance_mcts_bot_names_are_input_errors(name):
    with pytest.raises(InputError, match="chance-mcts bot"):
        bot_named(name)


def test_a_smaller_exploration_constant_concentrates_the_visits():
    """UCT's C trades exploring every push against exploiting the best: with a tiny C the most
    visited push takes a larger share of the simulations than with a large one."""
    views = exact.late_positions(6, 3, horizon=8, seed=5)
    shares = {}
    for c in (0.05, 3.0):
        total = 0.0
        for i, view in enumerate(views):
            found = chance_mcts_moves(view, simulations=3000, seed=i, c=c)
            visits = [m.samples for m in found.moves]
            total += max(visits) / sum(visits)
        shares[c] = total / len(views)
    assert shares[0.05] > shares[3.0]


def test_cli_chance_mcts_reports_search_values_with_visits(tmp_path):
    from solver.games.funkel import to_json
    from test_cli import run_json
    view = exact.late_positions(1, 2, horizon=3, seed=9)[0]
    path = tmp_path / "late.json"
    path.write_text(to_json(view))
    out = run_json("best", "funkel", str(path), "--method", "chance-mcts", "--samples", "2000")
    assert out["estimates"] == "search_value" and out["method"] == "chance-mcts"
    assert sum(m["visits"] for m in out["moves"]) == 2000


# --- the greedy prior (progressive bias) ---------------------------------------------------------

def played_views(count: int):
    """Decision views from games over every rule set, the seats mixing random and greedy pushes
    (so the views look like both kinds of game), every 3rd push kept; 2-player views with a gem
    waiting for its display included."""
    from solver.games.funkel import LAYOUTS, Rules, apply, is_over, new_game, public_view
    from solver.games.funkel.api import greedy_bot
    rng = random.Random(21)
    rules = [Rules(p, layout, hidden_shafts=hidden) for layout in LAYOUTS for p in (2, 3, 4)
             for hidden in (False, True)]
    views, game = [], 0
    while len(views) < count:
        state = new_game(rules[game % len(rules)], seed=game)
        game += 1
        pushes = 0
        while not is_over(state) and len(views) < count:
            view = public_view(state)
            if pushes % 3 == 0 or view.pending is not None:
                views.append(view)
            move = greedy_bot(view, view.to_move, rng) if rng.random() < 0.6 else \
                rng.choice(legal_actions(view))
            state = apply(state, move)
            pushes += 1
    return views


def test_kernel_greedy_scores_equal_the_plain_python_reference():
    from kernels import funkel_playout as playout
    from solver.games.funkel import greedy
    out = np.empty(20)
    views = played_views(1500)
    assert sum(v.pending is not None for v in views) > 20
    for view in views:
        n = playout.greedy_scores(packed_view(view), out)
        assert list(out[:n]) == pytest.approx(greedy.greedy_scores(view), abs=1e-9), view


def test_kernel_greedy_prior_equals_the_plain_python_reference():
    from solver.games.funkel import greedy
    out = np.empty(20)
    views = played_views(1500)
    for view in views:
        n = chance.greedy_prior(packed_view(view), out)
        assert list(out[:n]) == greedy.greedy_prior(view), view
    # the prior says something: usually one or a few best pushes among several
    several = [greedy.greedy_prior(v) for v in views if len(legal_actions(v)) > 2]
    assert sum(sum(p) < len(p) for p in several) > 0.9 * len(several)


def test_the_greedy_bot_plays_a_push_of_the_prior():
    from solver.games.funkel import greedy
    from solver.games.funkel.api import greedy_bot
    rng = random.Random(3)
    for view in played_views(300):
        prior = greedy.greedy_prior(view)
        assert prior[legal_actions(view).index(greedy_bot(view, view.to_move, rng))] == 1.0


def test_the_search_tree_opens_the_greedy_pushes_first():
    from solver.games.funkel import greedy
    from solver.games.funkel.api import chance_mcts_game
    from solver.search import mcts
    from kernels import mcts as k
    for view in played_views(60)[::6]:
        if len(legal_actions(view)) < 3:
            continue
        game = chance_mcts_game(view.rules.players, "random")
        trees, _ = mcts.grow_trees(game, packed_view(view), simulations=200, seed=1, bias=2.0)
        tree = trees[0]
        count = int(tree.nodes[0, k.MOVES])
        prior = dict(zip(map(action_code, legal_actions(view)), greedy.greedy_prior(view)))
        stored = [prior[int(m)] for m in tree.moves[0, :count]]
        assert stored == sorted(stored, reverse=True)
        assert list(tree.priors[0, :count]) == [2.0 * p for p in stored]


def test_the_bot_name_carries_the_prior_weight():
    assert bot_named("chance-mcts:300:greedy:1.0:2.5")
    assert bot_named("chance-mcts:300:random:1.0:0")
    assert bot_named("chance-mcts:300:greedy:1.0:30:0")


@pytest.mark.parametrize("name", ["chance-mcts:300:random:1.0:-1", "chance-mcts:300:random:1:x",
                                  "chance-mcts:300:random:1:inf", "chance-mcts:3:random:1:1:-1",
                                  "chance-mcts:3:random:1:1:1:1"])
def test_bad_prior_weights_are_input_errors(name):
    with pytest.raises(InputError):
        bot_named(name)


def test_three_and_four_player_searches_take_the_greedy_prior_by_default():
    from solver.games.funkel.api import CHANCE_MCTS_DEFAULTS
    assert CHANCE_MCTS_DEFAULTS[2][1:] == (0.0, 0.0)
    changed = 0
    for view in played_views(200)[20::20]:
        c, bias, root_bias = CHANCE_MCTS_DEFAULTS[view.rules.players]
        default = chance_mcts_moves(view, simulations=400, seed=2, rollout="greedy")
        explicit = chance_mcts_moves(view, simulations=400, seed=2, rollout="greedy", c=c,
                                     bias=bias, root_bias=root_bias)
        unbiased = chance_mcts_moves(view, simulations=400, seed=2, rollout="greedy", c=c,
                                     bias=0.0, root_bias=0.0)
        assert [m.samples for m in default.moves] == [m.samples for m in explicit.moves]
        if view.rules.players > 2:
            assert bias > 0
            changed += [m.samples for m in default.moves] != [m.samples for m in unbiased.moves]
    assert changed >= 3

"""Funkel Munkel's chance-node MCTS (``kernels.funkel_chance``): its game functions against the
rules of the reveal, and its values against the exact solver as simulations grow."""
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
                                  "chance-mcts:200:greedy:1:2", "chance-mcts:200:smart"])
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

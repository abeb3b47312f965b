"""The three games as OpenSpiel games: OpenSpiel's own random-simulation battery, move-by-move
agreement with our reference, and information states that ignore what the seat cannot see."""
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
import solver.adapters.openspiel  # noqa: E402,F401  (registers the games)
from solver import games  # noqa: E402
from solver.adapters import bridge, returns_of  # noqa: E402

GAMES = ["solver_mancala", "solver_mancala(pits=3,stones=3,capture_empty=False)",
         "solver_funkel", "solver_funkel(players=3,layout=crossing)",
         "solver_funkel(players=4,hidden_shafts=True)",
         "solver_tunhell(intro=True,rng_seed=1)", "solver_tunhell(players=3,rng_seed=2)"]


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation_battery(name):
    """OpenSpiel's generic checks; states round-trip through serialization where OpenSpiel
    can serialize a Python game (not for sampled chance: it wants the game's C++ generator)."""
    game = pyspiel.load_game(name)
    sampled = game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=2, serialize=not sampled, verbose=False)


def play_reference_and_adapter(name, params, seed):
    """Play one random game in the reference, mirror every step in the OpenSpiel state (chance
    outcomes read off the reference's truth), and compare at every step."""
    rng = random.Random(seed)
    ref = games.get(name).reference()
    b = bridge(name, **params)
    game = pyspiel.load_game(f"solver_{name}", params)
    truth = ref.new_game(b.rules, seed)
    state = game.new_initial_state()
    if name == "tunhell":     # the deal: the adapter's generator gives a seed; use ours instead
        state.apply_action(0)
        state.node = b.node_of(truth)
    if name == "funkel":
        for top in [s[-1] for s in truth.shafts] if not b.rules.hidden_shafts else []:
            state.apply_action(top)
    steps = 0
    while not ref.is_over(truth):
        assert not state.is_terminal()
        assert state.current_player() == ref.current_player(truth)
        legal = ref.legal_actions(truth)
        assert state.legal_actions() == sorted(b.action_id(a) for a in legal)
        assert state.information_state_string() == b.knowledge(
            b.node_of(truth), ref.current_player(truth))
        action = rng.choice(legal)
        before = truth
        truth = ref.apply(truth, action)
        state.apply_action(b.action_id(action))
        if state.is_chance_node():          # Funkel: the gem of the cart leaving the mine
            gem = revealed_gem(ref, before, truth)
            assert gem in [o for o, _ in state.chance_outcomes()]
            state.apply_action(gem)
        steps += 1
    assert state.is_terminal()
    assert state.returns() == returns_of(ref.result(truth))
    return steps


def revealed_gem(ref, before, after):
    """The gem that came out of the mine: what the displays or the pending choice gained."""
    if after.pending is not None and before.pending is None:
        return after.pending
    for d_before, d_after in zip(before.displays, after.displays):
        for gem, (x, y) in enumerate(zip(d_before, d_after)):
            if y > x:
                return gem
    raise AssertionError("a reveal without a delivered gem")


CASES = [("mancala", {}), ("mancala", dict(pits=4, stones=3, capture_empty=False)),
         ("funkel", {}), ("funkel", dict(players=3, layout="crossing")),
         ("funkel", dict(players=4, hidden_shafts=True)),
         ("tunhell", dict(intro=True)), ("tunhell", dict(players=3))]


@pytest.mark.parametrize("name,params", CASES)
def test_adapter_agrees_with_reference_move_by_move(name, params):
    for seed in range(2):
        assert play_reference_and_adapter(name, params, seed) > 0


@pytest.mark.slow
@pytest.mark.parametrize("name,params", CASES)
def test_adapter_agrees_with_reference_on_many_games(name, params):
    for seed in range(4, 60):
        play_reference_and_adapter(name, params, seed)


def check_information_states_under_resampling(players, games_played, every=1):
    """Resample the truth behind seat p's information set: p's string stays the same, while
    the other seats' strings do change in some samples (so the test can fail)."""
    game = pyspiel.load_game("solver_tunhell", {"players": players, "rng_seed": 5})
    rng = random.Random(0)
    others_changed = 0
    for _ in range(games_played):
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(0)
                continue
            step += 1
            for seat in range(players) if step % every == 0 else ():
                again = state.resample_from_infostate(seat, None)
                assert again.information_state_string(seat) == \
                    state.information_state_string(seat)
                assert again.observation_tensor(seat) == state.observation_tensor(seat)
                if seat == state.current_player():
                    assert again.legal_actions() == state.legal_actions()
                others = [o for o in range(players) if o != seat]
                others_changed += any(again.information_state_string(o) !=
                                      state.information_state_string(o) for o in others)
            state.apply_action(rng.choice(state.legal_actions()))
    assert others_changed > 0


@pytest.mark.parametrize("players", [2, 3])
def test_a_tunhell_information_state_ignores_other_seats_hidden_cards(players):
    check_information_states_under_resampling(players, games_played=1, every=5)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_tunhell_information_states_under_resampling_over_more_games(players):
    check_information_states_under_resampling(players, games_played=5)


def test_funkel_chance_gives_each_unseen_gem_its_share():
    """At setup the first shaft top is drawn with the whole deal's gem counts (12/56 grey ...)."""
    state = pyspiel.load_game("solver_funkel").new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    from solver.games.funkel import GEM_COUNTS
    assert outcomes == {g: n / 56 for g, n in enumerate(GEM_COUNTS)}


def test_openspiel_mcts_plays_a_funkel_and_a_tunhell_game():
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    for name in ("solver_funkel", "solver_tunhell(rng_seed=3)"):
        game = pyspiel.load_game(name)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
        if game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION:
            bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=5)
        else:
            bot = mcts.MCTSBot(game, 2.0, 5, evaluator, random_state=np.random.RandomState(0))
        state = game.new_initial_state()
        for _ in range(3):
            while state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(actions[0])
            if state.is_terminal():
                break
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)

"""One conformance battery over every registered game: a new game gets it for free.

For each game of ``solver.games`` and each of its declared rule variants, random games from
several seeds, checked at every step: the compiled engine and the reference agree on the legal
actions, the next state, the end and the result; ``apply`` leaves its input alone; the codec
round-trips; results are shares of one; and a hidden-information game's sampler only draws
states that look, to the seat that sees, exactly like the one it was drawn from.
"""
import copy
import random

import pytest

from solver import games as registry

SEEDS = (1, 2, 3)
CASES = [(game.name, variant) for game in registry.all_games() for variant in game.variants]


def case_id(case):
    name, variant = case
    return name + "-" + "-".join(f"{k}={v}" for k, v in variant.items())


@pytest.fixture(params=CASES, ids=[case_id(c) for c in CASES])
def case(request):
    name, variant = request.param
    game = registry.get(name)
    return game, game.reference(), game.rules(**variant)


def random_game(ref, rules, seed):
    """(state, action, next state) for every step of a game of uniformly random actions."""
    rng, state = random.Random(seed), ref.new_game(rules, seed)
    steps = []
    while not ref.is_over(state):
        action = rng.choice(ref.legal_actions(state))
        after = ref.apply(state, action)
        steps.append((state, action, after))
        state = after
    return steps, state


@pytest.mark.parametrize("seed", SEEDS)
def test_the_compiled_engine_plays_the_reference_game(case, seed):
    game, ref, rules = case
    steps, final = random_game(ref, rules, seed)
    engine = game.engine().load(ref.new_game(rules, seed))
    for state, action, after in steps:
        assert engine.legal_actions() == ref.legal_actions(state)
        assert not engine.is_over()
        engine.apply(action)
        assert engine.state() == after, f"after {ref.action_to_text(state, action)}"
    assert engine.is_over() and engine.legal_actions() == []
    assert engine.result() == pytest.approx(ref.result(final))


@pytest.mark.parametrize("seed", SEEDS)
def test_apply_leaves_its_input_unchanged(case, seed):
    _, ref, rules = case
    rng, state = random.Random(seed), ref.new_game(rules, seed)
    while not ref.is_over(state):
        before = copy.deepcopy(state)
        after = ref.apply(state, rng.choice(ref.legal_actions(state)))
        assert state == before and after is not state
        state = after


def positions_of(game, ref, state):
    """What the codec writes: the state itself in a perfect-information game, else each seat's
    view (and the full state where the codec holds one)."""
    if game.info.perfect_information:
        return [state]
    views = [ref.observe(state, seat) for seat in range(state.rules.players)]
    return views + ([state] if game.name == "funkel" else [])


@pytest.mark.parametrize("seed", SEEDS)
def test_the_codec_round_trips_every_position(case, seed):
    game, ref, rules = case
    steps, final = random_game(ref, rules, seed)
    for state in [s for s, _, _ in steps] + [final]:
        for position in positions_of(game, ref, state):
            text = ref.to_text(position)
            read = ref.from_text(text, rules) if game.name == "mancala" else ref.from_text(text)
            assert read == position and ref.to_text(read) == text


@pytest.mark.parametrize("seed", SEEDS)
def test_results_are_shares_of_one_within_bounds(case, seed):
    game, ref, rules = case
    _, final = random_game(ref, rules, seed)
    shares = ref.result(final)
    players = 2 if game.name == "mancala" else rules.players
    assert len(shares) == players and game.info.min_players <= players <= game.info.max_players
    assert all(0.0 <= s <= 1.0 for s in shares) and sum(shares) == pytest.approx(1.0)


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_actions_have_names_that_read_back(case, seed):
    _, ref, rules = case
    steps, _ = random_game(ref, rules, seed)
    for state, action, _ in steps[::7]:
        text = ref.action_to_text(state, action)
        assert ref.action_from_text(state, text) == action


@pytest.mark.parametrize("seed", SEEDS)
def test_the_sampler_draws_only_states_the_view_allows(case, seed):
    game, ref, rules = case
    if game.info.perfect_information:
        pytest.skip("nothing is hidden")
    steps, _ = random_game(ref, rules, seed)
    rng = random.Random(seed)
    for state, _, _ in steps[::5]:
        seat = rng.randrange(rules.players)
        view = ref.observe(state, seat)
        for _ in range(3):
            drawn = ref.sample(view, rng)
            assert ref.observe(drawn, seat) == view


def test_every_game_declares_what_the_toolkit_reads():
    for game in registry.all_games():
        ref = game.reference()
        for name in ("Rules", "new_game", "current_player", "legal_actions", "apply", "is_over",
                     "result", "to_text", "from_text", "action_to_text", "action_from_text",
                     "draw"):
            assert callable(getattr(ref, name)), f"{game.name} lacks {name}"
        if not game.info.perfect_information:
            assert callable(ref.observe) and callable(ref.sample)
        assert game.variants and game.bench_positions and game.capabilities
        assert game.info.rules_version >= 1


def test_an_algorithm_refuses_a_game_it_cannot_play():
    with pytest.raises(registry.InputError, match="alpha-beta cannot play tunhell: it hides"):
        registry.get("tunhell").require("alphabeta", "alpha-beta")
    registry.get("mancala").require("alphabeta", "alpha-beta")

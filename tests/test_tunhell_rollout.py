"""The engine's heuristic rollout policy against its plain-Python reference
(``solver.games.tunhell.rollout``): the same score for every legal action on many random
positions of every variant (the dig option included), the same whole playouts, and the policy's
habits on hand-built positions.

Mines in these tests are written top first, as in the rules tests.
"""
import random

import pytest

from solver.games.tunhell import (
    Action, Move, Phase, Rules, apply, is_over, legal_actions, new_game, result)
from solver.games.tunhell.cards import (
    DIGGER_2_1, DIGGER_3_0, DIRT, DRAGON, GOBLIN, TREASURE, WARRIOR_1, WARRIOR_3)
from solver.games.tunhell.engine import from_reference, to_reference
from solver.games.tunhell.rollout import action_score, policy_playout
from test_tunhell_rules import table

VARIANTS = [Rules(2, True), Rules(2), Rules(3), Rules(4), Rules(2, dig_may_stop=True),
            Rules(3, dig_may_stop=True)]


def states_along_random_games(rules, games, seed):
    rng = random.Random(seed)
    for game in range(games):
        s = new_game(rules, seed=seed * 100 + game)
        while not is_over(s):
            yield s
            s = apply(s, rng.choice(legal_actions(s)), check=False)


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_the_engine_scores_every_action_as_the_reference_does(rules):
    checked = 0
    for s in states_along_random_games(rules, 3, seed=7):
        engine = from_reference(s)
        expected = [action_score(s, a) for a in legal_actions(s)]
        assert engine.policy_scores() == pytest.approx(expected, abs=1e-9)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
@pytest.mark.parametrize("epsilon", [0.0, 0.1, 1.0])
def test_the_engines_policy_playout_is_the_references(rules, epsilon):
    for game in range(2):
        start = new_game(rules, seed=40 + game)
        engine = from_reference(start)
        engine.policy_playout(seed=game, epsilon=epsilon)
        finished = policy_playout(start, seed=game, epsilon=epsilon)
        assert to_reference(engine) == finished
        assert engine.result() == result(finished)


def best(s):
    scores = [action_score(s, a) for a in legal_actions(s)]
    return legal_actions(s)[scores.index(max(scores))]


def test_the_policy_digs_where_the_deal_holds_treasure():
    s = table(hands=[[DIGGER_3_0], []], mines=[[DIRT] * 3, [TREASURE] * 3, [DRAGON, DIRT]])
    assert best(s) == Action(Move.DIGGER, DIGGER_3_0, 1)


def test_the_policy_fights_with_the_cheapest_winning_warriors():
    s = table(hands=[[DIGGER_2_1], []], mines=[[GOBLIN, DIRT], [DIRT], [DIRT]],
              warriors=[[[WARRIOR_1, WARRIOR_1, WARRIOR_3], [], []], [[], [], []]])
    s = apply(s, Action(Move.DIGGER, DIGGER_2_1, 0))
    assert s.phase == Phase.FIGHT
    assert best(s) == Action(Move.FIGHT, cards=(WARRIOR_1, WARRIOR_1))


@pytest.mark.parametrize("next_card, choice", [(DRAGON, Move.STOP), (TREASURE, Move.DIG_ON)])
def test_under_dig_may_stop_the_policy_stops_before_a_card_that_costs(next_card, choice):
    s = table(hands=[[DIGGER_3_0], []], mines=[[TREASURE, next_card, DIRT], [DIRT] * 3,
                                                  [DIRT] * 3], warriors=[[[WARRIOR_1], [], []],
                                                                         [[], [], []]],
              dig_may_stop=True)
    s = apply(s, Action(Move.DIGGER, DIGGER_3_0, 0))
    assert s.phase == Phase.DIG_ON and best(s).move == choice

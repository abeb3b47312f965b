"""The match runner (any game): seat rotation, scoring, intervals; Funkel Munkel bots, games and
matches through it."""
import json

import numpy as np
import pytest

from solver.games.funkel import api as funkel
from solver.errors import InputError
from solver.games.funkel import PublicView, draw, from_json
from solver.match import GameAdapter, deal_seed, run_match, seating
from solver.stats import Z95, wilson_interval


# --- toy games: one move, then a fixed result -----------------------------------------------------

def one_move_game(result_of_players) -> GameAdapter:
    """Seat 0 says "end", then the game is over with ``result_of_players(players)``."""
    return GameAdapter(
        name="toy", new_game=lambda seed, players: {"players": players, "over": False},
        legal_moves=lambda state: [] if state["over"] else ["end"],
        apply=lambda state, move: dict(state, over=True),
        is_over=lambda state: state["over"],
        result=lambda state: result_of_players(state["players"]),
        to_move=lambda state: 0)


SEAT_0_WINS = one_move_game(lambda players: [1.0] + [0.0] * (players - 1))
ALWAYS_DRAWN = one_move_game(lambda players: [1.0 / players] * players)


def says_end(state, seat, rng):
    return "end"


# --- seats and deals ------------------------------------------------------------------------------

def test_seating_rotates_every_entrant_through_every_seat():
    assert [seating(g, 3) for g in range(4)] == [[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 1, 2]]
    for players in (2, 3, 4):
        for entrant in range(players):
            seats = {seating(g, players).index(entrant) for g in range(players)}
            assert seats == set(range(players))


def test_each_block_of_games_replays_one_deal():
    assert deal_seed(7, 0, 3) == deal_seed(7, 1, 3) == deal_seed(7, 2, 3)
    assert deal_seed(7, 3, 3) != deal_seed(7, 0, 3)
    assert deal_seed(8, 0, 3) != deal_seed(7, 0, 3)


# --- the interval ---------------------------------------------------------------------------------

def test_wilson_interval_matches_known_values():
    low, high = wilson_interval(0.5, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(1.0, 32)       # all won: the lower end is n / (n + z^2)
    assert low == pytest.approx(32 / (32 + Z95 ** 2)) and high == 1.0
    assert wilson_interval(0.0, 10)[0] == 0.0
    assert wilson_interval(0.3, 0) == (0.0, 1.0)


def test_wilson_interval_is_symmetric_and_narrows_with_games():
    low, high = wilson_interval(0.2, 50)
    mirrored = wilson_interval(0.8, 50)
    assert mirrored == pytest.approx((1 - high, 1 - low))
    widths = [high - low for low, high in (wilson_interval(0.2, n) for n in (10, 100, 1000))]
    assert widths[0] > widths[1] > widths[2]


# --- scoring --------------------------------------------------------------------------------------

def test_a_seat_that_always_wins_gives_each_entrant_its_share_of_seats():
    found = run_match(SEAT_0_WINS, 3, [("a", says_end), ("b", says_end), ("c", says_end)],
                      games=6, seed=1)
    for entrant in found.entrants:
        assert (entrant.games, entrant.wins, entrant.losses) == (6, 2, 4)
        assert entrant.seat_games == [2, 2, 2]
        assert entrant.win_rate == pytest.approx(1 / 3)


def test_shared_results_count_their_share():
    found = run_match(ALWAYS_DRAWN, 2, [("a", says_end), ("b", says_end)], games=4)
    assert [(e.points, e.shared, e.win_rate) for e in found.entrants] == [(2.0, 4, 0.5)] * 2
    assert found.entrants[0].interval == wilson_interval(0.5, 4)


def test_repeated_bot_names_are_numbered():
    found = run_match(SEAT_0_WINS, 3, [("x", says_end)] * 3, games=3)
    assert [e.name for e in found.entrants] == ["x", "x#2", "x#3"]


def test_an_illegal_move_names_the_bot():
    with pytest.raises(ValueError, match="'cheat'"):
        run_match(SEAT_0_WINS, 2, [("cheat", lambda s, seat, rng: "win"), ("b", says_end)], 1)


def test_match_result_as_dict_and_table():
    found = run_match(SEAT_0_WINS, 2, [("a", says_end), ("b", says_end)], games=4, seed=3)
    report = found.to_dict()
    assert (report["game"], report["players"], report["games"], report["seed"]) == ("toy", 2, 4, 3)
    assert report["entrants"][0]["win_rate"] == 0.5 and len(report["entrants"][0]["interval"]) == 2
    json.dumps(report)
    assert "win rate  50.0%" in "\n".join(found.lines())


# --- Funkel Munkel through the runner -------------------------------------------------------------

def test_funkel_bots_are_shown_the_public_view():
    shown = []

    def watcher(view, seat, rng):
        shown.append(type(view))
        return funkel.random_bot(view, seat, rng)

    funkel.match(2, [watcher, "random"], games=1, seed=0)
    assert shown and set(shown) == {PublicView}


def test_greedy_beats_random_in_two_players():
    found = funkel.match(2, ["greedy", "random"], games=100, seed=1)
    greedy, random_bot = found.entrants
    assert greedy.interval[0] > 0.5 > random_bot.interval[1]


def test_monte_carlo_bot_plays_whole_games():
    found = funkel.match(3, ["mc:20", "greedy", "random"], games=3, seed=2)
    assert sum(e.points for e in found.entrants) == pytest.approx(3)


def test_a_played_game_lists_every_position():
    frames = funkel.play_game(2, ["greedy", "random"], seed=4)
    assert frames[0].action is None and frames[0].seat is None
    assert all(f.action and f.seat in (0, 1) for f in frames[1:])
    for frame in frames:
        assert draw(from_json(frame.position)) == frame.picture
    assert sum(frames[-1].result) == pytest.approx(1) and frames[-2].result is None
    assert json.dumps([f.to_dict() for f in frames])
    assert frames == funkel.play_game(2, ["greedy", "random"], seed=4)    # fixed seed, same game


@pytest.mark.parametrize("call, message", [
    (lambda: funkel.match(2, ["greedy"], 2), "2 bots"),
    (lambda: funkel.match(2, ["greedy", "clever"], 2), "unknown funkel bot"),
    (lambda: funkel.match(2, ["greedy", "mc:many"], 2), "mc bot"),
    (lambda: funkel.match(2, ["greedy", "mc:10:smart"], 2), "rollout"),
    (lambda: funkel.match(2, ["greedy", "random:3"], 2), "no options"),
    (lambda: funkel.match(5, ["greedy"] * 5, 2), "players"),
    (lambda: funkel.match(2, ["greedy", "random"], 0), "games"),
])
def test_bad_match_requests_are_input_errors(call, message):
    with pytest.raises(InputError, match=message):
        call()


def test_new_position_is_a_dealt_game_or_its_view():
    state = from_json(funkel.new_position(3, "crossing", seed=5))
    assert state.rules.players == 3 and state.rules.layout == "crossing"
    view = from_json(funkel.new_position(3, "crossing", seed=5, view=True))
    assert isinstance(view, PublicView) and view.cells[7].kind == state.cells[7].kind


def test_funkel_functions_fit_the_mcts_contract():
    """The hook for the MCTS bot: the generic MCTS searches a full Funkel state."""
    mcts = pytest.importorskip("solver.search.mcts")
    from solver.games.funkel import Rules, new_game, legal_actions
    state = new_game(Rules(3), seed=1)
    found = mcts.search(funkel.mcts_game(3), funkel.packed(state), simulations=2000, seed=1)
    assert funkel.action_of(found.move) in legal_actions(state)
    assert sum(e.visits for e in found.moves.values()) == 2000


@pytest.mark.parametrize("games, seed, message", [
    (10**30, 0, "games must be a whole number 1..1000000000000"),
    (0, 0, "games must be a whole number 1.."),
    (1, "x", "a seed must be a whole number 0..4294967295"),
    (1, -1, "a seed must be a whole number 0..4294967295"),
])
def test_a_match_that_cannot_be_played_as_asked_is_refused(games, seed, message):
    with pytest.raises(InputError, match=message):
        funkel.match(2, ["random", "random"], games, seed=seed)


def test_a_bot_is_named_by_text():
    with pytest.raises(InputError, match="a funkel bot is named by text"):
        funkel.bot_named(None)


@pytest.mark.parametrize("call, message", [
    (lambda: funkel.new_position(players=2.0), "players must be 2, 3 or 4"),
    (lambda: funkel.new_position(seed=-1), r"a seed must be None or a whole number 0..2\*\*64-1"),
    (lambda: funkel.new_position(seed=[1]), r"a seed must be None or a whole number 0..2\*\*64-1"),
    (lambda: funkel.play_game(2, ["random", "random"], seed=[1]), "a seed must be a whole number"),
])
def test_a_new_game_refuses_a_seed_or_player_count_it_cannot_deal(call, message):
    with pytest.raises(InputError, match=message):
        call()


def test_a_new_game_takes_numpy_numbers():
    assert json.loads(funkel.new_position(players=np.int64(3), seed=np.uint64(5)))["rules"] == \
        json.loads(funkel.new_position(players=3, seed=5))["rules"]

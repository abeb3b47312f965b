"""Tunhell search: the C determinizer against the reference sampler (consistency, uniformity),
PIMC and ISMCTS on hand-built endgames (the winning last dig, intervals around a known win
probability), reproducibility, the Python API, bots and whole games.

Mines in these tests are written top first, as in the rules tests: ``[GOBLIN, DIRT]`` means the
Goblin is drawn first.
"""
import json
import math
import random
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from kernels._random import stream_seed
from kernels.tunhell_sample import StateSampler
from kernels.tunhell_search import IsmctsTree, stream_word
from solver.games.tunhell import api as T
from solver.errors import InputError
from solver.games.tunhell import (
    Action, Move, Phase, Rules, apply, check_state, information_set, is_over, legal_actions,
    new_game, sample_state, to_json)
from solver.games.tunhell.cards import (
    CARDS, DIGGER_1_2, DIGGER_2_1, DIGGER_3_0, DIGGER_4_3, DIRT, DRAGON, GOBLIN, ORC, RAT,
    SCOUT_5, TREASURE, TROLL, WARRIOR_1, WARRIOR_2, WARRIOR_3, mask_of)
from solver.games.tunhell.engine import from_reference, to_reference
from solver.games.tunhell.greedy import greedy_action
from test_tunhell_rules import (  # the rules tests' builders (tests/ is on the path)
    ALL_CONFIGS, chi_square_ok, exact_distribution, random_states, small_position, table)


def c_samples(state, seat, count, seed):
    """``count`` reference States drawn by the C determinizer for ``seat``'s view of ``state``."""
    sampler = StateSampler(from_reference(state), seat)
    return [to_reference(engine) for engine in sampler.samples(count, seed)]


def homogeneous(a: Counter, b: Counter) -> bool:
    """Two-sample chi-square test (0.1% level) that two samples come from one distribution;
    outcomes expected fewer than 5 times are pooled."""
    n_a, n_b = sum(a.values()), sum(b.values())
    total = a + b
    rare = {k for k, v in total.items() if v * min(n_a, n_b) / (n_a + n_b) < 5}
    merged = [(sum(a[k] for k in rare), sum(b[k] for k in rare))] if rare else []
    merged += [(a[k], b[k]) for k in total if k not in rare]
    stat = 0.0
    for x, y in merged:
        for observed, n in ((x, n_a), (y, n_b)):
            expected = (x + y) * n / (n_a + n_b)
            stat += (observed - expected) ** 2 / expected
    df = len(merged) - 1
    if df == 0:
        return True
    critical = df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3
    return stat < critical


# --- the determinizer ----------------------------------------------------------------------------

def test_determinized_states_agree_with_everything_the_player_knows():
    for state in random_states(ALL_CONFIGS, 2, seed=3, every=13):
        for seat in range(state.rules.players):
            info = information_set(state, seat)
            for sample in c_samples(state, seat, 3, seed=seat):
                check_state(sample)
                assert information_set(sample, seat) == info
                if seat == state.to_move:
                    assert legal_actions(sample) == legal_actions(state)


def test_the_determinizer_deals_unseen_dwarf_cards_uniformly():
    info, pool, _ = small_position()
    truth = sample_state(info, random.Random(1))
    n = 4000
    seen = Counter((tuple(s.hands[1]), tuple(s.pile[:-1])) for s in c_samples(truth, 0, n, 2))
    expected = exact_distribution(pool, 4, lambda d: (tuple(sorted(d[:2])), tuple(d[2:])))
    assert chi_square_ok(seen, expected, n)


def test_the_determinizer_respects_known_absences_and_stays_uniform():
    info, pool, _ = small_position(never=mask_of([DIGGER_3_0]))
    truth = sample_state(info, random.Random(1))
    n = 4000
    samples = c_samples(truth, 0, n, 3)
    assert all(DIGGER_3_0 not in s.hands[1] for s in samples)
    seen = Counter((tuple(s.hands[1]), tuple(s.pile[:-1])) for s in samples)
    expected = exact_distribution(pool, 4, lambda d: (tuple(sorted(d[:2])), tuple(d[2:])),
                                  allowed=lambda d: DIGGER_3_0 not in d[:2])
    assert chi_square_ok(seen, expected, n)


def test_two_hands_with_known_absences_are_dealt_together_uniformly():
    """Seat 1 holds no digger-3/0 and seat 2 no warrior-2 (both learnt in play): six unseen
    Dwarf cards go to 2 + 2 hidden hand places and 2 places below the pile's top."""
    s = table(3, intro=True, hands=[[WARRIOR_3], [WARRIOR_2, WARRIOR_2], [DIGGER_3_0, SCOUT_5]],
              pile=[DIGGER_4_3, SCOUT_5, DIGGER_3_0], mines=[[RAT, TREASURE], [DIRT], [DIRT]],
              box=[DIRT, DIRT], center=[WARRIOR_1] * 5, rest_to="discard")
    s.hand_never[1], s.hand_never[2] = mask_of([DIGGER_3_0]), mask_of([WARRIOR_2])
    check_state(s)
    pool = [WARRIOR_2, WARRIOR_2, DIGGER_3_0, SCOUT_5, SCOUT_5, DIGGER_3_0]
    n = 6000
    seen = Counter((tuple(x.hands[1]), tuple(x.hands[2]), tuple(x.pile[:-1]))
                   for x in c_samples(s, 0, n, 4))
    expected = exact_distribution(
        pool, 6, lambda d: (tuple(sorted(d[:2])), tuple(sorted(d[2:4])), tuple(d[4:])),
        allowed=lambda d: DIGGER_3_0 not in d[:2] and WARRIOR_2 not in d[2:4])
    assert chi_square_ok(seen, expected, n)


def test_the_determinizer_orders_the_mines_uniformly():
    info, _, mine_pool = small_position()
    truth = sample_state(info, random.Random(1))
    n = 4000
    seen = Counter(tuple(s.mines[0]) for s in c_samples(truth, 0, n, 5))
    assert chi_square_ok(seen, exact_distribution(mine_pool, 2, tuple), n)


@pytest.mark.parametrize("players,intro", [(3, False), (4, True)], ids=["3p-full", "4p-intro"])
def test_the_determinizer_draws_like_the_reference_sampler_mid_game(players, intro):
    """Marginals of both samplers on one mid-game view: the top card of each mine, the cards
    hidden in another seat's hand, the pile's second card and the box."""
    state, rng = new_game(Rules(players, intro), seed=77), random.Random(8)
    for _ in range(60):
        state = apply(state, rng.choice(legal_actions(state)), check=False)
    info, n = information_set(state, 1), 3000
    ours = c_samples(state, 1, n, 9)
    theirs = [sample_state(info, rng) for _ in range(n)]
    marginals = [lambda s, m=m: s.mines[m][-1] if s.mines[m] else None for m in range(3)]
    marginals += [lambda s: tuple(sorted(s.hands[2])), lambda s: tuple(s.pile[-2:]),
                  lambda s: tuple(s.box)]
    for marginal in marginals:
        assert homogeneous(Counter(map(marginal, ours)), Counter(map(marginal, theirs)))


def test_a_view_no_deal_can_fit_is_refused():
    info, _, _ = small_position()
    truth = sample_state(info, random.Random(1))
    truth.hand_never[1] = mask_of([WARRIOR_2, DIGGER_3_0, SCOUT_5])   # every unseen kind
    with pytest.raises(ValueError, match="no deal"):
        StateSampler(from_reference(truth), 0)


def test_search_streams_are_the_documented_generator():
    for seed, stream in ((0, 0), (5, 1), (2**64 - 1, 12345)):
        assert stream_word(seed, stream) == int(stream_seed(np.uint64(seed), np.uint64(stream)))


# --- endgames ------------------------------------------------------------------------------------

def last_dig_endgame():
    """Introductory game, seat 0 to move, 0-0 and no treasures anywhere. Mine 2 is empty; mine 0
    holds one card, a treasure seat 0 saw with a Scout: digging it ends the game and wins.
    Anything else lets seat 1, who may hold a Digger, dig it first."""
    s = table(2, intro=True, hands=[[DIGGER_3_0, WARRIOR_2], [DIGGER_2_1, WARRIOR_1]],
              mines=[[TREASURE], [DIRT] * 6, []])
    s.seen[0][0] = 1
    check_state(s)
    return information_set(s, 0)


def known_odds_endgame():
    """Introductory game, seat 0 to move, behind 0-2 (seat 1 beat a Goblin). Mine 2 is empty,
    mine 0 holds one unknown card and seat 0's two 3-Warriors there beat any enemy: digging
    it ends the game with that card in seat 0's loot."""
    s = table(2, intro=True, hands=[[DIGGER_3_0], [DIGGER_2_1]], mines=[[DIRT], [DIRT] * 6, []],
              warriors=[[[WARRIOR_3, WARRIOR_3], [], []], [[], [], []]], loot=[[], [GOBLIN]])
    check_state(s)
    return information_set(s, 0)


def known_odds():
    """Win probability and mean margin of the last dig in :func:`known_odds_endgame`: the card is
    any of the 48 unseen Mine cards (18 dirt, 10 treasures, 7 rats, 3 goblins, 4 orcs, 3 trolls,
    3 dragons). Orc, troll, dragon win; a goblin ties 2-2 with no treasures: a shared win."""
    pool = Counter({DIRT: 18, TREASURE: 10, RAT: 7, GOBLIN: 3, ORC: 4, TROLL: 3, DRAGON: 3})
    total = sum(pool.values())
    win = (pool[ORC] + pool[TROLL] + pool[DRAGON] + 0.5 * pool[GOBLIN]) / total
    margin = sum(n * CARDS[k].vp for k, n in pool.items()) / total - 2
    return win, margin


LAST_DIG = Action(Move.DIGGER, DIGGER_3_0, 0)


@pytest.mark.parametrize("method", T.METHODS)
def test_search_prefers_the_last_dig_that_wins_the_game(method):
    found = T.best_action(last_dig_endgame(), method=method, iterations=6000, seed=1)
    assert found.best == LAST_DIG
    assert found.recommended.value == 1.0 and found.recommended.margin == 1.0
    others = [m.value for m in found.moves if m.action != LAST_DIG and m.samples]
    assert max(others) < 1.0


def test_pimc_stops_once_the_winning_dig_is_separated():
    found = T.best_action(last_dig_endgame(), method="pimc", iterations=200_000, seed=2)
    assert found.stopped == "separated" and found.iterations < 200_000


# ismcts-greedy is left out: with sensible rollouts other actions score higher here (about 0.37
# against the dig's 0.24), so UCB gives the dig too few visits to test its interval.
@pytest.mark.parametrize("method", [m for m in T.METHODS if m != "ismcts-greedy"])
def test_intervals_contain_the_known_win_probability_and_margin(method):
    win, margin = known_odds()
    found = T.best_action(known_odds_endgame(), method=method, iterations=30_000, seed=3,
                          stop_when_separated=False)
    dig = next(m for m in found.moves if m.action == LAST_DIG)
    assert dig.samples > 500
    assert dig.win_interval[0] <= win <= dig.win_interval[1]
    assert dig.margin_interval[0] <= margin <= dig.margin_interval[1]


@pytest.mark.slow
def test_pimc_intervals_cover_the_known_values_about_95_percent_of_the_time():
    win, margin = known_odds()
    covered = Counter()
    for seed in range(60):
        found = T.best_action(known_odds_endgame(), method="pimc", iterations=4000, seed=seed,
                              stop_when_separated=False)
        dig = next(m for m in found.moves if m.action == LAST_DIG)
        covered["win"] += dig.win_interval[0] <= win <= dig.win_interval[1]
        covered["margin"] += dig.margin_interval[0] <= margin <= dig.margin_interval[1]
    assert covered["win"] >= 50 and covered["margin"] >= 50     # 95% of 60 is 57


# --- reproducibility and budgets -----------------------------------------------------------------

def mid_game_view(players=3, intro=False, seed=5, actions=40):
    state, rng = new_game(Rules(players, intro), seed), random.Random(seed)
    for _ in range(actions):
        state = apply(state, rng.choice(legal_actions(state)), check=False)
    return information_set(state, state.to_move)


def numbers(found):
    return [(m.samples, m.value, m.margin) for m in found.moves]


def test_pimc_is_reproducible_for_a_seed_whatever_the_threads():
    view = mid_game_view()
    runs = [T.best_action(view, method="pimc", iterations=3000, threads=t, seed=11,
                          stop_when_separated=False) for t in (1, 2, 1)]
    assert numbers(runs[0]) == numbers(runs[1]) == numbers(runs[2])
    other = T.best_action(view, method="pimc", iterations=3000, seed=12,
                          stop_when_separated=False)
    assert numbers(other) != numbers(runs[0])


def test_ismcts_is_reproducible_for_a_seed_and_thread_count():
    view = mid_game_view()
    for threads in (1, 2):
        a, b = (T.best_action(view, method="ismcts", iterations=3000, threads=threads, seed=11,
                              stop_when_separated=False) for _ in range(2))
        assert numbers(a) == numbers(b) and a.nodes == b.nodes
        assert a.iterations == 3000 and sum(m.samples for m in a.moves) == 3000


def test_pimc_spends_its_playouts_in_whole_rounds():
    view = mid_game_view()
    actions = len(T.prepare_search(view)[1])
    found = T.best_action(view, method="pimc", iterations=1000, seed=1,
                          stop_when_separated=False)
    rounds = math.ceil(1000 / actions)
    assert found.stopped == "iterations" and found.iterations == rounds * actions
    assert all(m.samples == rounds for m in found.moves)


def test_ismcts_root_visits_and_tree_size_follow_the_iterations():
    view = mid_game_view(players=2)
    sampler, codes = T.prepare_search(view)
    tree = IsmctsTree(sampler, 3, capacity=16)     # small: the node array has to grow
    tree.run(2000)
    children = tree.root_children()
    assert sorted(children["action"]) == sorted(codes)
    assert children["visits"].sum() == 2000 and tree.nodes == 2001
    assert (children["available"] >= children["visits"]).all()


@pytest.mark.parametrize("method", T.METHODS)
def test_a_timed_search_keeps_its_deadline(method):
    found = T.best_action(mid_game_view(), method=method, seconds=0.3, seed=1,
                          stop_when_separated=False)
    assert found.stopped == "seconds" and 0.3 <= found.seconds < 3.0   # generous: a busy machine
    assert found.iterations > 100


def test_a_single_legal_action_is_estimated_by_one_batch():
    """A Goblin met with no Warriors: only the Digger's bonus beats it."""
    s = table(2, hands=[[DIGGER_1_2], []], mines=[[GOBLIN, DIRT], [DIRT], [DIRT]])
    s = apply(s, Action(Move.DIGGER, DIGGER_1_2, 0))
    assert legal_actions(s) == [Action(Move.FIGHT, use_digger=True)]
    for method in T.METHODS:
        found = T.best_action(s, method=method, iterations=100_000, seed=1)
        assert found.stopped == "single move" and found.iterations < 1000
        assert found.recommended.win_interval[0] <= found.recommended.value


# --- the Python API ------------------------------------------------------------------------------

def test_best_action_reads_json_and_reports_every_action():
    text = T.new_position(3, intro=True, seed=4)
    found = T.best_action(text, method="pimc", iterations=2000, seed=1)
    doc = found.to_dict()
    assert doc["best"] == found.best_name == str(found.best)
    assert [m["action"] for m in doc["moves"]] == [str(a) for a in
                                                   legal_actions(new_game(Rules(3, True), 4))]
    assert json.loads(json.dumps(doc))["seat"] == 0
    move = doc["moves"][0]
    assert doc["estimates"] == move["estimates"] == "win_rate_random_continuation"
    assert set(move) == {"action", "estimates", "win_rate_random_continuation", "win_interval",
                         "margin", "margin_interval", "samples"}
    value = move["win_rate_random_continuation"]
    assert move["win_interval"][0] <= value <= move["win_interval"][1]


@pytest.mark.parametrize("method, label, counted", [
    ("ismcts", "search_value", "visits"), ("ismcts-greedy", "search_value", "visits"),
    ("pimc-greedy", "win_rate_greedy_continuation", "samples")])
def test_every_estimate_is_labelled_with_what_it_estimates(method, label, counted):
    found = T.best_action(T.new_position(2, seed=4), method=method, iterations=600, seed=1)
    doc = found.to_dict()
    assert doc["estimates"] == label and all(m["estimates"] == label for m in doc["moves"])
    assert sum(m[counted] for m in doc["moves"]) > 0
    assert "win_probability" not in json.dumps(doc["moves"])


def test_a_full_state_is_reduced_to_the_movers_view():
    state = new_game(Rules(2), seed=9)
    found = T.best_action(state, method="ismcts", iterations=500, seed=1)
    assert found.position == to_json(information_set(state, 0))


@pytest.mark.parametrize("options,message", [
    (dict(method="minimax"), "unknown method"), (dict(iterations=0), "iterations"),
    (dict(seconds=-1), "seconds"), (dict(threads=0), "threads"), (dict(seed=-1), "seed"),
    (dict(seat=1), "seat 1's"), (dict(iterations=1.5), "iterations")])
def test_bad_options_are_input_errors(options, message):
    with pytest.raises(InputError, match=message):
        T.best_action(T.new_position(2, seed=1), **options)


def test_only_the_seat_to_move_is_searched():
    with pytest.raises(InputError, match="to move"):
        T.best_action(T.new_position(2, seed=1, seat=1))


def test_a_finished_game_has_no_best_action():
    state = new_game(Rules(2, True), seed=3)
    engine = from_reference(state)
    engine.random_playout(1)
    with pytest.raises(InputError, match="over"):
        T.best_action(to_reference(engine))


def test_new_positions_are_one_seats_view():
    view = json.loads(T.new_position(4, intro=False, seed=2, seat=3))
    assert view["seat"] == 3 and len(view["hand"]) == 4
    assert [(s["known"], s["hidden"]) for s in view["seats"]] == [([], 4)] * 4


# --- bots and games ------------------------------------------------------------------------------

def test_greedy_fights_with_the_cheapest_warriors():
    s = table(2, hands=[[DIGGER_2_1], []], mines=[[GOBLIN, DIRT], [DIRT], [DIRT]],
              warriors=[[[WARRIOR_1, WARRIOR_1, WARRIOR_3], [], []], [[], [], []]])
    s = apply(s, Action(Move.DIGGER, DIGGER_2_1, 0))
    assert s.phase == Phase.FIGHT
    chosen = greedy_action(information_set(s, 0), legal_actions(s), random.Random(0))
    assert chosen == Action(Move.FIGHT, cards=(WARRIOR_1, WARRIOR_1))


@pytest.mark.parametrize("next_card, choice", [(DRAGON, Move.STOP), (TREASURE, Move.DIG_ON)])
def test_greedy_under_dig_may_stop_digs_on_only_toward_a_good_next_card(next_card, choice):
    s = table(2, hands=[[DIGGER_3_0], []], mines=[[TREASURE, next_card, DIRT], [DIRT] * 3,
                                                  [DIRT] * 3], dig_may_stop=True)
    s.seen[0][0] = (1 << len(s.mines[0])) - 1        # a Scout showed seat 0 the whole mine
    s = apply(s, Action(Move.DIGGER, DIGGER_3_0, 0))
    assert s.phase == Phase.DIG_ON
    chosen = greedy_action(information_set(s, 0), legal_actions(s), random.Random(0))
    assert chosen.move == choice


def test_greedy_takes_the_winning_last_dig():
    info = last_dig_endgame()
    actions = legal_actions(sample_state(info, random.Random(0)))
    assert greedy_action(info, actions, random.Random(0)) == LAST_DIG


def test_greedy_does_not_dig_into_a_known_dragon_it_cannot_beat():
    s = table(2, intro=True, hands=[[DIGGER_3_0, WARRIOR_2], []],
              mines=[[DRAGON, TREASURE], [TREASURE, DIRT, DIRT], [DIRT] * 4])
    s.seen[0][0] = 0b11
    info = information_set(s, 0)
    chosen = greedy_action(info, legal_actions(s), random.Random(0))
    assert chosen != Action(Move.DIGGER, DIGGER_3_0, 0)


@pytest.mark.parametrize("players,intro,bots", [
    (2, True, ["pimc:60", "ismcts:60"]), (3, False, ["greedy", "random", "ismcts:40"]),
    (4, True, ["random", "pimc:40", "greedy", "random"])], ids=["2p", "3p", "4p"])
def test_bots_play_complete_games(players, intro, bots):
    records = T.play_game(players, bots, intro=intro, seed=2)
    last = records[-1]
    assert last.result is not None and sum(last.result) == pytest.approx(1.0)
    assert all(r.result is None for r in records[:-1])
    assert {r.seat for r in records} == set(range(players))
    assert str(last).startswith(f"turn {last.turn} seat {last.seat}: ")


def test_a_played_game_tells_the_cards_drawn_and_put_back():
    s = table(2, intro=True, hands=[[DIGGER_3_0], [DIGGER_2_1]],
              mines=[[TREASURE, DRAGON, DIRT], [DIRT] * 4, [DIRT] * 4])
    after = apply(s, LAST_DIG)
    step = T.describe_step(0, s, LAST_DIG, after)
    assert step.drawn == ["treasure", "dragon"] and step.put_back == "dragon"
    assert step.loot == ["treasure"] and step.scores == (1, 0)
    again = apply(after, Action(Move.DIGGER, DIGGER_2_1, 0))
    step = T.describe_step(1, after, Action(Move.DIGGER, DIGGER_2_1, 0), again)
    assert step.drawn == ["dragon"] and step.put_back == "dragon"    # known, drawn, back again


def test_described_draws_and_put_backs_are_the_rules_own(monkeypatch):
    """On random games: what a step says was drawn is what left the piles, plus the card the
    rules put back (seen by spying on the reference's ``_put_back``)."""
    import solver.games.tunhell.rules as rules
    put_back, real = [], rules._put_back
    monkeypatch.setattr(rules, "_put_back",
                        lambda s, mine, card: (put_back.append(card), real(s, mine, card)))
    rng = random.Random(6)
    for seed in range(12):
        state = new_game(Rules(2 + seed % 3, seed % 4 == 0), seed)
        while not is_over(state):
            action = rng.choice(legal_actions(state))
            put_back.clear()
            after = apply(state, action, check=False)
            step = T.describe_step(0, state, action, after)
            assert step.put_back == (CARDS[put_back[0]].name if put_back else None)
            left = Counter(sum(state.mines, [])) - Counter(sum(after.mines, []))
            expected = Counter(CARDS[k].name for k in left.elements())
            if put_back:
                expected[step.put_back] += 1
            assert Counter(step.drawn) == expected
            state = after


def test_a_match_runs_through_the_match_runner():
    outcome = T.match(2, ["greedy", "random"], games=4, intro=True, seed=3)
    assert outcome.games == 4 and [e.games for e in outcome.entrants] == [4, 4]
    assert sum(e.points for e in outcome.entrants) == pytest.approx(4)


def test_bot_names_are_checked():
    for bad in ("minimax", "greedy:3", "pimc:x", "ismcts:0"):
        with pytest.raises(InputError):
            T.bot_named(bad)


@pytest.mark.slow
def test_greedy_beats_random():
    outcome = T.match(2, ["greedy", "random"], games=20, intro=False, seed=4)
    assert outcome.entrants[0].interval[0] > 0.5


@pytest.mark.slow
@pytest.mark.parametrize("method", T.METHODS)
def test_search_bots_beat_random(method):
    outcome = T.match(2, [f"{method}:300", "random"], games=10, intro=True, seed=5)
    assert outcome.entrants[0].interval[0] > 0.5


@pytest.mark.parametrize("make, message", [
    (lambda: T.search_bot("nope"), "unknown method 'nope'"),
    (lambda: T.search_bot("pimc", iterations=0), "iterations must be a whole number 1.."),
    (lambda: T.search_bot("pimc", iterations=None), "needs iterations or seconds"),
    (lambda: T.search_bot("ismcts", seconds=math.inf), "a time must be a finite number"),
])
def test_a_search_bot_that_could_not_search_is_refused_when_made(make, message):
    with pytest.raises(InputError, match=message):
        make()


@pytest.mark.parametrize("change, message", [
    (lambda s: replace(s, hands=[[999] + list(s.hands[0][1:])] + list(s.hands[1:])),
     "impossible tunhell State"),
    (lambda s: replace(s, phase=42), "phase is a Phase"),
    (lambda s: replace(s, to_move=5), "seat 5 is not in a 2-player game"),
])
def test_a_hand_built_state_is_checked_before_it_is_searched(change, message):
    with pytest.raises(InputError, match=message):
        T.best_action(change(new_game(Rules(2), seed=1)), iterations=20)


def test_a_search_budget_that_cannot_end_is_refused():
    with pytest.raises(InputError, match="a time must be a finite number"):
        T.best_action(new_game(Rules(2), seed=1), seconds=math.inf)
    with pytest.raises(InputError, match="iterations must be a whole number 1.."):
        T.best_action(new_game(Rules(2), seed=1), iterations=10**30)


def test_numpy_integers_are_taken_as_whole_numbers_and_answer_as_ints():
    """A budget, thread count or seed from NumPy is a whole number like any other: the answer is
    the same as with Python ints, and JSON-ready."""
    state = new_game(Rules(2), seed=1)
    plain = T.best_action(state, iterations=40, threads=1, seed=7).to_dict()
    numpy = T.best_action(state, iterations=np.int64(40), threads=np.int32(1),
                          seed=np.uint64(7)).to_dict()
    plain.pop("seconds"), numpy.pop("seconds")
    assert json.dumps(numpy) == json.dumps(plain)


def test_prepare_search_refuses_what_is_no_information_set():
    with pytest.raises(InputError, match="takes a tunhell InfoSet, got NoneType"):
        T.prepare_search(None)

"""Monte Carlo estimates for Funkel Munkel: the kernel's hidden-gem sampler against the reference
sampler, the greedy policy's rules, and the estimator against exact expectations.

Rails are drawn entrance first (pinwheel: ``c0* c1 c2* c3``, ``*`` under a shaft): ``.`` no cart,
``0``..``3`` a colour's cart, ``C`` a common cart, then the gem's letter when loaded (g grey,
b blue, p purple, n green, k pink, y yellow) and ``!`` when that gem was seen falling.
"""
import json
import math
import os
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest

from kernels import funkel_playout as playout
from solver.errors import InputError
from solver.games.funkel import api as funkel_api
from solver.games.funkel.api import (action_code, action_of, chance_mcts_moves, estimate_game,
                                     estimate_moves, mcts_moves, packed, packed_view,
                                     reference_of)
from solver.search.estimate import FIRST_BATCH, estimate
from solver.games.funkel import (
    COMMON, GEM_LETTERS, LAYOUTS, Cart, Place, Push, Rules, apply, from_json, is_over,
    legal_actions, new_game, public_view, result, sample_hidden, to_json, unseen_pool)


# --- pictures ------------------------------------------------------------------------------------

def cart_of(token: str) -> Cart | None:
    if token == ".":
        return None
    kind = COMMON if token[0] == "C" else int(token[0])
    gem = GEM_LETTERS.index(token[1]) if len(token) > 1 else None
    return Cart(kind, gem, token.endswith("!"))


def display_of(letters: str) -> tuple[int, ...]:
    return tuple(letters.count(x) for x in GEM_LETTERS)


def position(rails: dict[int, str], displays: dict[int, str], hands, supply, shafts=None,
             players=2, to_move=0, pushes=0, max_pushes=200):
    """A pinwheel position; shafts empty unless given (letters, bottom first). Checked by the
    reference's JSON reader (every cart and all 56 gems accounted for)."""
    state = new_game(Rules(players, max_pushes=max_pushes), seed=0)
    cells = [None] * 16
    for r, picture in rails.items():
        for cell, token in zip(state.rules.board.rails[r], picture.split(), strict=True):
            cells[cell] = cart_of(token)
    shaft_gems = [tuple(GEM_LETTERS.index(x) for x in (shafts or {}).get(s, ""))
                  for s in range(8)]
    shown = tuple(display_of(displays.get(c, "")) for c in range(4))
    state = replace(state, cells=tuple(cells), shafts=tuple(shaft_gems), hands=tuple(hands),
                    supply=supply, displays=shown, to_move=to_move, pushes=pushes)
    assert from_json(to_json(state)) == state
    return state


# Two players, three pushes left (197 of 200). Seat 0 plays displays 0 and 2, seat 1 plays 1 and
# 3. Yellow completes display 0 or 1 (six colours), green display 2, pink display 3. Seat 0 holds
# only colour-0 carts, so his pushes are the 4 rails; rails 0-2 are full, so each push delivers
# its last cart: rail 0 a common cart (the pusher's gem), rail 1 colour 1's, rail 2 colour 2's.
ENDGAME_RAILS = {0: "0 1 2 Cy", 1: "1 3 C 1g", 2: "3 C 0 2b", 3: "C 2 C 2"}
ENDGAME_DISPLAYS = {0: "gggbbbpppnnnkkk", 1: "gggbbbpppnnnkkk", 2: "gggbbppkkyyy",
                    3: "ggbbppnnnyy"}


def endgame(rails=None) -> object:
    return position({**ENDGAME_RAILS, **(rails or {})}, ENDGAME_DISPLAYS, hands=(2, 1, 0, 2),
                    supply=1, pushes=197)


def worlds(view):
    """Every full state of ``view``, one per ordering of its unseen pool (so each arrangement
    is weighted as a uniform shuffle weights it)."""
    cells = [i for i, c in enumerate(view.cells) if c is not None and c.loaded and c.gem is None]
    for order in permutations(unseen_pool(view)):
        state = sample_hidden(view, random.Random(0))    # the shafts are empty here
        carts = list(state.cells)
        for cell, gem in zip(cells, order):
            carts[cell] = Cart(carts[cell].kind, gem, False)
        yield replace(state, cells=tuple(carts))


def random_play_value(state, seat: int) -> float:
    """``seat``'s expected result when every seat plays uniformly random legal actions."""
    if is_over(state):
        return result(state)[seat]
    actions = legal_actions(state)
    return sum(random_play_value(apply(state, a), seat) for a in actions) / len(actions)


def exact_values(view, seat: int = 0) -> dict:
    """Each legal action's exact expectation under the estimator's model: a uniformly random
    deal of the unseen gems, then random play (brute force over deals and play)."""
    deals = list(worlds(view))
    return {a: sum(random_play_value(apply(w, a), seat) for w in deals) / len(deals)
            for a in legal_actions(view)}


@pytest.fixture(scope="module")
def endgame_view():
    return public_view(endgame())


@pytest.fixture(scope="module")
def endgame_exact(endgame_view):
    return exact_values(endgame_view)


# --- the hidden-gem sampler -----------------------------------------------------------------------

def kernel_sample(view, seed: int):
    return reference_of(playout.sample_hidden(packed_view(view), np.uint64(seed)))


def unseen_places(state, view) -> tuple[int, ...]:
    """The gems a full state holds in ``view``'s unseen places: carts, then shafts bottom up."""
    carts = [state.cells[i].gem for i, c in enumerate(view.cells)
             if c is not None and c.loaded and c.gem is None]
    below = [g for s, sv in zip(state.shafts, view.shafts)
             for g in s[:sv.height - (sv.top is not None)]]
    return tuple(carts + below)


def mid_game_views(count: int):
    """Views of random games part-way through, over every rule set."""
    rng = random.Random(5)
    rules = [Rules(p, layout, hidden_shafts=hidden) for layout in LAYOUTS for p in (2, 3, 4)
             for hidden in (False, True)]
    for i in range(count):
        state = new_game(rules[i % len(rules)], seed=i)
        for _ in range(rng.randrange(5, 60)):
            if is_over(state):
                break
            state = apply(state, rng.choice(legal_actions(state)))
        yield public_view(state)


def test_kernel_samples_show_the_view_and_hold_the_games_gems():
    for i, view in enumerate(mid_game_views(36)):
        for seed in range(5):
            state = kernel_sample(view, seed + 100 * i)
            assert public_view(state) == view
            assert from_json(to_json(state)) == state      # every gem of the game, once


def test_kernel_sampler_leaves_a_full_state_alone():
    state = endgame()
    assert playout.sample_hidden(packed(state), np.uint64(9)) == packed(state)


def sampler_view():
    """Five unseen places (the endgame's three exit carts, a cart under shaft 7, and shaft 7's
    bottom gem below its face-up green top) and an unseen pool of g g b y y: 30 equally likely
    arrangements."""
    state = position({**ENDGAME_RAILS, 3: "C . Cy 2"},
                     {0: "ggbbbpppnnnkkk", 1: "gggbbbpppnnkkk", 2: "gggbbppkkyy", 3: "ggbbppnnnyy"},
                     hands=(2, 1, 1, 2), supply=1, shafts={7: "gn"})
    return public_view(state)


def two_sample_chi_square(a: Counter, b: Counter) -> tuple[float, int]:
    """The chi-square statistic that two equal-sized samples share one distribution, and its
    degrees of freedom."""
    cells = set(a) | set(b)
    return sum((a[c] - b[c]) ** 2 / (a[c] + b[c]) for c in cells), len(cells) - 1


CHI_SQUARE_999 = {5: 20.52, 29: 58.30}   # upper 0.1% points


def test_kernel_sampler_is_uniform_over_arrangements_like_the_reference():
    view = sampler_view()
    assert sorted(unseen_pool(view)) == [0, 0, 1, 5, 5]
    n = 9000
    rng = random.Random(11)
    by_kernel = Counter(unseen_places(kernel_sample(view, s), view) for s in range(n))
    by_reference = Counter(unseen_places(sample_hidden(view, rng), view) for _ in range(n))
    arrangements = len(set(permutations(unseen_pool(view))))
    assert arrangements == 30 and len(by_kernel) == 30
    uniform = sum((k - n / 30) ** 2 / (n / 30) for k in by_kernel.values())
    assert uniform < CHI_SQUARE_999[29]
    statistic, df = two_sample_chi_square(by_kernel, by_reference)
    assert df == 29 and statistic < CHI_SQUARE_999[29]


def test_kernel_sampler_matches_the_reference_on_mid_game_views():
    rng = random.Random(12)
    for view in list(mid_game_views(12))[::3]:
        first = Counter(unseen_places(kernel_sample(view, s), view)[0] for s in range(3000))
        reference = Counter(unseen_places(sample_hidden(view, rng), view)[0] for _ in range(3000))
        statistic, df = two_sample_chi_square(first, reference)
        assert statistic < CHI_SQUARE_999.get(df, 20.52)


# --- the greedy policy ----------------------------------------------------------------------------

def greedy_on_view(view, seed=0):
    code, _ = playout.greedy_action(packed_view(view), np.uint64(seed))
    return action_of(code)


def greedy(state, seed=0):
    return greedy_on_view(public_view(state), seed)


def test_greedy_pushes_out_a_common_cart_whose_seen_gem_wins():
    state = endgame({0: "0 1 2 Cy!"})            # rail 0's common cart shows yellow
    assert all(greedy(state, seed) == Push(0, 0) for seed in range(10))


def test_greedy_puts_a_winning_gem_on_the_display_it_completes():
    state = apply(endgame({0: "0 1 2 Cy!"}), Push(0, 0))
    assert state.pending == GEM_LETTERS.index("y")
    assert greedy(state) == Place(0)             # display 0 lacks only yellow; display 2 has it


def test_greedy_does_not_deliver_an_opponents_winning_gem():
    state = endgame({0: "0 1 2 Cg", 1: "1 3 C 1y!"})    # rail 1 would hand seat 1 yellow
    assert all(greedy(state, seed).rail != 1 for seed in range(10))


def test_greedy_reads_only_what_is_seen_in_a_full_state():
    deals = [endgame(), endgame({0: "0 1 2 Cg", 1: "1 3 C 1y"}),
             endgame({0: "0 1 2 Cb", 2: "3 C 0 2y"})]    # the same view, yellow in other carts
    choices = {playout.greedy_action(packed(state), np.uint64(3))[0] for state in deals}
    assert len(choices) == 1


def test_greedy_chooses_a_legal_action_under_every_rule_set():
    for view in mid_game_views(48):
        if not is_over(view):
            assert greedy_on_view(view) in legal_actions(view)


# --- rollouts -------------------------------------------------------------------------------------

def test_random_rollout_plays_the_reference_game_with_the_same_draws():
    def below(r, n):        # kernels._random.below in plain Python
        return ((r >> 32) * n) >> 32

    for seed in range(6):
        state = new_game(Rules(2 + seed % 3, list(LAYOUTS)[seed % 2]), seed)
        out = np.empty(16)
        playout.random_rollout(packed(state), np.uint64(seed), out)
        generator = seed
        while not is_over(state):
            generator, draw = splitmix64(generator)
            actions = legal_actions(state)
            state = apply(state, actions[below(draw, len(actions))])
        players = state.rules.players
        assert tuple(out[:players]) == pytest.approx(result(state))


def splitmix64(seed: int) -> tuple[int, int]:
    mask = (1 << 64) - 1
    seed = (seed + 0x9E3779B97F4A7C15) & mask
    z = ((seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return seed, z ^ (z >> 31)


def test_greedy_rollout_ends_the_game_and_returns_rewards_and_gems():
    state = new_game(Rules(3), seed=4)
    out = np.empty(16)
    playout.greedy_rollout(packed(state), np.uint64(1), out)
    assert sum(out[:3]) == pytest.approx(1.0) and all(r in (0.0, 0.5, 1.0, 1 / 3) for r in out[:3])
    assert all(out[3:6] >= 0) and sum(out[3:6]) > 0


# --- the estimator --------------------------------------------------------------------------------

def test_endgame_exact_values_differ_between_pushes(endgame_exact):
    """The brute-force oracle itself: the four pushes are not all alike (so agreement with the
    estimator says something)."""
    assert len(endgame_exact) == 4
    assert max(endgame_exact.values()) - min(endgame_exact.values()) > 0.1


def test_estimates_agree_with_exact_expectations_within_their_intervals(endgame_view,
                                                                          endgame_exact):
    found = estimate_moves(endgame_view, samples=20_000, stop_when_separated=False, seed=1)
    assert found.samples == 20_000 and found.stopped == "samples"
    for move in found.moves:
        assert move.low <= endgame_exact[move.action] <= move.high, move
    best = max(endgame_exact, key=endgame_exact.get)
    assert found.best == best


def test_intervals_cover_the_exact_values_about_95_percent_of_the_time(endgame_view,
                                                                       endgame_exact):
    covered, intervals = 0, 0
    for seed in range(100):
        found = estimate_moves(endgame_view, samples=200, stop_when_separated=False, seed=seed)
        for move in found.moves:
            covered += move.low <= endgame_exact[move.action] <= move.high
            intervals += 1
    assert 0.90 <= covered / intervals <= 0.995


def test_estimator_stops_once_the_best_push_is_separated():
    view = public_view(endgame({0: "0 1 2 Cy!"}))   # rail 0 wins; any other push lets seat 1
    found = estimate_moves(view, samples=100_000, rollout="greedy", seed=2)   # take the yellow
    assert found.stopped == "separated" and found.samples < 1000
    assert found.best == Push(0, 0)
    others = [m for m in found.moves if m.action != found.best]
    assert all(m.high < found.recommended.low for m in others)


def test_estimator_without_early_stop_spends_its_budget():
    view = public_view(endgame({0: "0 1 2 Cy!"}))
    found = estimate_moves(view, samples=500, rollout="greedy", stop_when_separated=False)
    assert found.samples == 500 and found.stopped == "samples"


def test_a_display_choice_is_estimated_like_a_push():
    state = apply(endgame({0: "0 1 2 Cy!"}), Push(0, 0))      # seat 0 took the yellow
    found = estimate_moves(state, samples=2000, seed=0)
    assert [m.action for m in found.moves] == [Place(0), Place(2)]
    assert found.best == Place(0) and found.recommended.value == 1.0


def test_a_single_move_is_estimated_by_one_batch():
    view = public_view(endgame())
    found = estimate(estimate_game(), packed_view(view), [action_code(Push(1, 0))], 0,
                     samples=10_000)
    assert found.stopped == "single move" and found.samples == FIRST_BATCH


def test_a_view_whose_pool_does_not_fill_its_places_is_refused():
    view = public_view(endgame())
    hidden_more = replace(view, shafts=(replace(view.shafts[0], height=1),) + view.shafts[1:])
    with pytest.raises(InputError, match=r"unseen|shafts\[0\]"):   # the reader's check, or view_of's
        estimate_moves(hidden_more)


@pytest.mark.parametrize("change, message", [
    (lambda s: replace(s, cells=s.cells[:3]), "field 'cells': must have 16 entries"),
    (lambda s: replace(s, hands=(3,)), "field 'hands': must have 4 entries"),
    (lambda s: replace(s, hands=(200,) + s.hands[1:]), r"field 'hands\[0\]'"),
    (lambda s: replace(s, to_move=7), "field 'to_move'"),
])
def test_a_hand_built_state_gets_the_readers_checks(change, message):
    """The kernels trust the packed state: a field out of range used to hang a search."""
    with pytest.raises(InputError, match=message):
        estimate_moves(change(new_game(Rules(2), seed=1)), samples=20)


@pytest.mark.parametrize("search, options, message", [
    (estimate_moves, dict(seconds=math.inf), "a time must be a finite number of seconds"),
    (mcts_moves, dict(seconds=1e30), "a time must be a finite number of seconds"),
    (chance_mcts_moves, dict(seconds=math.nan), "a time must be a finite number of seconds"),
    (estimate_moves, dict(samples=10**30), "samples must be a whole number 1..10"),
    (mcts_moves, dict(simulations=20, threads=10**6), "threads must be a whole number 1..256"),
    (mcts_moves, dict(simulations=10, deals=10**9), "deals must be a whole number 1..1000000"),
    (mcts_moves, dict(simulations=10, seed=2**64), r"seed must be a whole number 0..2\*\*64-1"),
    (chance_mcts_moves, dict(simulations=30, c=math.nan), "c must be a finite number > 0"),
    (chance_mcts_moves, dict(simulations=30, c=0), "c must be a finite number > 0"),
    (chance_mcts_moves, dict(simulations=30, bias=-1), "bias must be a finite number >= 0"),
])
def test_a_search_budget_or_constant_that_cannot_work_is_refused(search, options, message):
    with pytest.raises(InputError, match=message):
        search(new_game(Rules(2), seed=1), **options)


def test_estimates_are_reproducible_for_a_seed_whatever_the_threads():
    state = new_game(Rules(3), seed=8)
    runs = [estimate_moves(state, samples=600, seed=5, threads=t).to_dict() for t in (1, 1, 2)]
    for run in runs:
        run.pop("seconds"), run.pop("threads")
    assert runs[0] == runs[1] == runs[2]
    other = estimate_moves(state, samples=600, seed=6).to_dict()
    assert other["moves"] != runs[0]["moves"]


def test_estimate_reports_every_push_with_interval_and_budget():
    found = estimate_moves(to_json(new_game(Rules(2), seed=3)), samples=300, seed=0)
    report = found.to_dict()
    assert report["seat"] == 0 and report["interval"] == "wilson 95%"
    assert len(report["moves"]) == 8 and report["samples"] <= 300
    assert report["playouts"] == 8 * report["samples"]
    for move in report["moves"]:
        low, high = move["interval"]
        assert 0 <= low <= move[move["estimates"]] <= high <= 1
    assert report["best"] in [m["action"] for m in report["moves"]]


@pytest.mark.parametrize("options, message", [
    (dict(seat=1), "not to move"), (dict(samples=0), "samples"), (dict(seconds=0), "seconds"),
    (dict(rollout="smart"), "rollout"), (dict(threads=0), "threads"), (dict(seed=-1), "seed"),
])
def test_bad_estimate_options_are_input_errors(options, message):
    with pytest.raises(InputError, match=message):
        estimate_moves(new_game(Rules(2), seed=3), **options)


def test_a_finished_game_has_nothing_to_estimate():
    state = replace(new_game(Rules(2), seed=3), pushes=200)
    with pytest.raises(InputError, match="over"):
        estimate_moves(state)


def test_timed_estimate_keeps_its_deadline():
    found = estimate_moves(new_game(Rules(4), seed=3), seconds=0.3, stop_when_separated=False)
    assert found.stopped == "seconds" and 0.3 <= found.seconds < 3.0   # generous: a busy machine
    assert math.isfinite(found.recommended.value)


# --- compile cache -------------------------------------------------------------------------------

CACHE_PROBE = """
import json
from kernels import estimate, funkel, funkel_playout
from kernels._jit import cache_hits

dispatchers = dict(rounds=estimate.rounds_kernel(funkel.STATE),
                   sample_hidden=funkel_playout.sample_hidden, step=funkel_playout.step,
                   random_rollout=funkel_playout.random_rollout,
                   greedy_rollout=funkel_playout.greedy_rollout)
print(json.dumps({name: cache_hits(d) for name, d in dispatchers.items()}))
"""


def run_fresh_process(code: str) -> str:
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root),
                                                                  os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_fresh_process_loads_the_estimator_kernels_from_the_disk_cache():
    run_fresh_process(CACHE_PROBE)  # warm-up: compiles and writes the cache if it is missing
    hits = json.loads(run_fresh_process(CACHE_PROBE).strip().splitlines()[-1])
    assert all(count >= 1 for count in hits.values()), hits


# --- determinized MCTS ----------------------------------------------------------------------------

def test_mcts_visits_add_up_and_reproduce_for_a_seed(endgame_view):
    from solver.games.funkel.api import mcts_moves
    first = mcts_moves(endgame_view, simulations=800, deals=4, seed=11)
    again = mcts_moves(endgame_view, simulations=800, deals=4, seed=11)
    assert [m.samples for m in first.moves] == [m.samples for m in again.moves]
    assert sum(m.samples for m in first.moves) == first.samples == 800
    assert first.best == max(first.moves, key=lambda m: m.samples).action
    for move in first.moves:
        assert move.low <= move.value <= move.high


def test_mcts_bot_beats_the_random_bot():
    from solver.games.funkel.api import match
    found = match(2, ["mcts:300:4", "random"], games=8, seed=3)
    assert found.entrants[0].win_rate > 0.5


@pytest.mark.parametrize("code", [-1, 25, 10**30, 2.0, True])
def test_an_action_code_outside_the_kernels_range_is_refused(code):
    with pytest.raises(InputError, match="a funkel action code is a whole number 0..24"):
        action_of(code)


def test_numpy_integers_are_taken_as_whole_numbers_and_answer_as_ints():
    """Budgets, thread counts and seeds from NumPy give the answer Python ints give, JSON-ready."""
    state = new_game(Rules(2), seed=1)
    for search, budget in ((estimate_moves, "samples"), (mcts_moves, "simulations")):
        plain = search(state, **{budget: 60}, threads=1, seed=3).to_dict()
        numpy = search(state, **{budget: np.int64(60)}, threads=np.int32(1),
                       seed=np.uint64(3)).to_dict()
        plain.pop("seconds"), numpy.pop("seconds")
        assert json.dumps(numpy) == json.dumps(plain)


@pytest.mark.parametrize("helper", [funkel_api.packed, funkel_api.packed_view])
def test_the_packing_helpers_refuse_what_is_no_position(helper):
    with pytest.raises(InputError, match=r"takes a funkel (State|PublicView), got NoneType"):
        helper(None)

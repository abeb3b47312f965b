"""The exact Funkel Munkel solver: its Numba kernel against a brute force that enumerates every
hidden deal, against the same recursion in plain Python, and its limits.

Tiny positions are drawn as rails (entrance first; ``.`` no cart, ``0``..``3`` a colour's cart,
``C`` common, then the gem's letter when loaded: g grey, b blue, p purple, n green, k pink,
y yellow) and shafts (letters, bottom first); every other gem of the 56 lies on the displays,
placed so that no display has reached the goal.
"""
import random
from collections import Counter, defaultdict
from dataclasses import replace
from itertools import permutations

import pytest

from solver.errors import InputError
from solver.games import funkel as reference
from solver.games.funkel import (
    COMMON, GEM_COUNTS, GEM_LETTERS, Cart, Rules, State, apply, is_over, legal_actions,
    public_view, result, unseen_places, unseen_pool)
from solver.games.funkel import exact
from solver.games.funkel.api import view_of

TOLERANCE = 1e-9


# --- tiny positions ------------------------------------------------------------------------------

def cart_of(token):
    if token == ".":
        return None
    kind = COMMON if token[0] == "C" else int(token[0])
    return Cart(kind, GEM_LETTERS.index(token[1]) if len(token) > 1 else None)


def tiny(players, rails, shafts, horizon, layout="pinwheel", to_move=0, hidden_shafts=False,
         seed=0):
    """A position with only the pictured carts on the board (unnamed rails empty) and only the
    named shafts holding gems; every other cart in hand or beside the board, every other gem on
    the displays; the push limit ``horizon`` pushes ahead."""
    rules = Rules(players, layout, hidden_shafts, max_pushes=100 + horizon)
    board = rules.board
    cells = [None] * board.cell_count
    for r, picture in rails.items():
        for cell, token in zip(board.rails[r], picture.split(), strict=True):
            cells[cell] = cart_of(token)
    shaft_gems = tuple(tuple(GEM_LETTERS.index(x) for x in shafts.get(s, "")) for s in range(8))
    on_board = Counter(c.gem for c in cells if c and c.gem is not None)
    on_board.update(g for s in shaft_gems for g in s)
    rest = [g for g, n in enumerate(GEM_COUNTS) for _ in range(n - on_board[g])]
    kinds = Counter(c.kind for c in cells if c)
    hands = tuple(4 - kinds[c] if c < (4 if players == 2 else players) else 0 for c in range(4))
    supply = 6 + (4 if players == 3 else 0) - kinds[COMMON]
    state = State(rules, tuple(cells), shaft_gems, hands, supply,
                  _displays_without_goal(rest, random.Random(seed)), to_move, pushes=100)
    return public_view(state)


def _displays_without_goal(gems, rng):
    """The gems dealt onto the 4 displays, each gem where it reaches no goal (<= 4 of a kind,
    <= 5 kinds per display)."""
    rows = [[0] * 6 for _ in range(4)]
    rng.shuffle(gems)
    for g in gems:
        fits = [d for d in range(4) if rows[d][g] < 4 and (rows[d][g] or sum(map(bool, rows[d])) < 5)]
        rows[rng.choice(fits)][g] += 1
    return tuple(tuple(r) for r in rows)


TINY = {
    # 2 players: both rail 0 and rail 1 are full, each with a loaded cart about to leave; shaft 4
    # (rail 2's entrance) holds two gems, the lower one unseen.
    "2p two reveals": dict(players=2, rails={0: "0 C 2 1b", 1: "C 1 0 Cg", 2: ". . . ."},
                           shafts={4: "kp"}, horizon=3),
    # 2 players: a loaded common cart leaves on the first push: a reveal, then a display choice.
    "2p common cart and choice": dict(players=2, rails={0: "0 1 2 Cy", 3: "C . . ."},
                                      shafts={6: "n", 1: "gb"}, horizon=3),
    "3 players": dict(players=3, rails={0: "0 1 2 Cb", 1: "C 0 . .", 2: "1 2 C Cp"},
                      shafts={4: "yk"}, horizon=4),
    "4 players": dict(players=4, rails={0: "3 1 2 0n", 1: "C 0 . .", 2: "1 2 3 Cg"},
                      shafts={3: "gb"}, horizon=4, to_move=1),
    "hidden shafts": dict(players=2, rails={0: "0 C 2 1b", 1: "C 1 0 Cg", 2: ". . . ."},
                          shafts={4: "kp"}, horizon=3, hidden_shafts=True),
    "crossing layout": dict(players=2, layout="crossing", rails={0: "0 1 2 C 1y", 3: ". . . . ."},
                            shafts={1: "bn"}, horizon=3),
}


# --- the brute force: every deal, grouped by what the players see --------------------------------

def deals(view):
    """Every arrangement of the unseen pool over the unseen places (each distinct one once; all
    are equally likely), as full states."""
    pool, places = unseen_pool(view), unseen_places(view)
    assert len(pool) == places
    states = []
    for arrangement in sorted(set(permutations(pool))):
        gems = list(arrangement)
        cells = tuple(None if c is None else
                      Cart(c.kind, None if not c.loaded else c.gem if c.gem is not None
                           else gems.pop(), c.gem is not None) for c in view.cells)
        shafts = tuple(tuple(gems.pop() for _ in range(s.height - (s.top is not None)))
                       + ((s.top,) if s.top is not None else ()) for s in view.shafts)
        states.append(State(view.rules, cells, shafts, view.hands, view.supply, view.displays,
                            view.to_move, view.pushes, view.pending))
    return states


def brute_force(view, policy):
    """Per legal action: (expected results, outright-win probabilities), by playing the action
    in every deal still possible and splitting the deals by what everyone then sees."""
    memo = {}
    states = deals(view)
    return [_after(states, a, policy, memo) for a in legal_actions(states[0])]


def _after(states, action, policy, memo):
    groups = defaultdict(list)
    for s in states:
        child = apply(s, action)
        groups[public_view(child)].append(child)
    players = states[0].rules.players
    total = [0.0] * (2 * players)
    for group in groups.values():
        value = _information_set(group, policy, memo)
        total = [t + len(group) / len(states) * v for t, v in zip(total, value)]
    return total


def _information_set(states, policy, memo):
    first = states[0]
    if is_over(first):                       # over-ness and the result are public
        outcome = result(first)
        return list(outcome) + [1.0 if r == 1.0 else 0.0 for r in outcome]
    key = frozenset(Counter(states).items())
    if key not in memo:
        children = [_after(states, a, policy, memo) for a in legal_actions(first)]
        if policy == "random":
            memo[key] = [sum(c[j] for c in children) / len(children)
                         for j in range(len(children[0]))]
        else:
            best = children[0]
            for child in children[1:]:
                if child[first.to_move] > best[first.to_move] + TOLERANCE:
                    best = child
            memo[key] = best
    return memo[key]


def assert_values_match(found, expected):
    assert len(found) == len(expected)
    for mine, theirs in zip(found, expected):
        assert list(mine.expected) + list(mine.win) == pytest.approx(theirs, abs=TOLERANCE)


# --- the tests -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", TINY)
def test_tiny_positions_are_legal_and_hide_something(name):
    view = tiny(**TINY[name])
    view_of(view)                             # the unseen pool fills the unseen places
    assert unseen_places(view) >= 1 and len(deals(view)) >= 2


@pytest.mark.parametrize("policy", ["best", "random"])
@pytest.mark.parametrize("name", TINY)
def test_kernel_equals_brute_force_over_every_deal(name, policy):
    view = tiny(**TINY[name])
    solution = exact.solve(view, policy, max_states=100_000)
    assert_values_match(solution.actions, brute_force(view, policy))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", ["best", "random"])
def test_kernel_equals_reference_recursion_on_late_positions(players, policy):
    for view in exact.late_positions(3, players, horizon=2, seed=10 * players):
        solution = exact.solve(view, policy, max_states=100_000)
        reference_found = exact.reference_values(view, policy)
        assert [a.action for a in solution.actions] == [a.action for a in reference_found]
        assert_values_match(solution.actions,
                            [list(a.expected) + list(a.win) for a in reference_found])


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_equals_reference_recursion_deeper(players):
    for view in exact.late_positions(8, players, horizon=3, seed=1000 + players):
        for policy in ("best", "random"):
            solution = exact.solve(view, policy, max_states=500_000)
            assert_values_match(solution.actions,
                                [list(a.expected) + list(a.win)
                                 for a in exact.reference_values(view, policy)])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_values_are_probabilities_and_best_is_the_movers_highest(players):
    for view in exact.late_positions(4, players, horizon=3, seed=7 * players):
        solution = exact.solve(view, max_states=200_000)
        for a in solution.actions:
            assert sum(a.expected) == pytest.approx(1.0)        # someone wins, or they share
            assert all(0.0 <= w <= e + TOLERANCE for w, e in zip(a.win, a.expected))
        best = max(a.expected[view.to_move] for a in solution.actions)
        chosen = next(a for a in solution.actions if a.action == solution.best)
        assert chosen.expected[view.to_move] == best


def test_a_position_too_large_is_refused_with_its_size():
    start = public_view(reference.new_game(Rules(2), seed=3))
    with pytest.raises(exact.TooLarge) as refused:
        exact.solve(start, max_states=2_000)
    assert refused.value.estimated_nodes > 2_000
    assert "too large" in str(refused.value) and "about" in str(refused.value)


def test_a_finished_game_has_nothing_to_solve():
    view = tiny(**TINY["2p two reveals"])
    over = replace(view, rules=replace(view.rules, max_pushes=view.pushes))
    with pytest.raises(InputError):
        exact.solve(over)


# --- the command line and the labels -------------------------------------------------------------

def test_cli_exact_gives_each_pushs_win_probability_like_the_api(tmp_path):
    from solver.games.funkel import to_json
    from solver.games.funkel.api import exact_moves
    from test_cli import run, run_json
    view = tiny(**TINY["2p two reveals"])
    path = tmp_path / "tiny.json"
    path.write_text(to_json(view))
    out = run_json("best", "funkel", str(path), "--exact")
    api = exact_moves(view)
    assert out["exact"] and out["estimates"] == "win_probability"
    assert [m["win_probability"] for m in out["moves"]] == \
        [round(m.win[view.to_move], 12) for m in api.moves]
    assert [m["expected_result"] for m in out["moves"]] == \
        [round(m.expected[view.to_move], 12) for m in api.moves]
    text = run("best", "funkel", str(path), "--exact")
    assert text.returncode == 0 and "under best play" in text.stdout
    assert f"recommended: {out['best']}" in text.stdout


def test_cli_exact_refuses_a_large_position_in_one_line(tmp_path):
    from solver.games.funkel.api import new_position
    from test_cli import assert_one_line_error, run
    path = tmp_path / "start.json"
    path.write_text(new_position(2, seed=4))
    done = run("best", "funkel", str(path), "--exact", "--max-states", "5000")
    assert_one_line_error(done)
    assert "too large" in done.stderr and "about" in done.stderr


def test_estimates_say_what_they_estimate():
    from solver.games.funkel.api import estimate_moves, mcts_moves
    view = exact.late_positions(1, 2, horizon=3, seed=5)[0]
    labels = {"random": "win_rate_random_continuation", "greedy": "win_rate_greedy_continuation"}
    for rollout, label in labels.items():
        report = estimate_moves(view, samples=64, rollout=rollout).to_dict()
        assert report["estimates"] == label
        assert all(m["estimates"] == label and label in m and "win_probability" not in m
                   for m in report["moves"])
    report = mcts_moves(view, simulations=200, deals=2).to_dict()
    assert report["estimates"] == "search_value"
    assert all("visits" in m and "search_value" in m for m in report["moves"])


@pytest.mark.parametrize("max_states", [0, 10**30, 2**28, 2.5, True])
def test_a_table_budget_beyond_what_memory_holds_is_refused(max_states):
    """2**28 entries would ask NumPy for 32 GiB before the search started."""
    with pytest.raises(InputError, match="max_states must be a whole number 1..22,000,000"):
        exact.solve(tiny(**TINY["2p common cart and choice"]), max_states=max_states)

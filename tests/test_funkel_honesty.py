"""Honesty: what Funkel Munkel's flat Monte Carlo reports is what it claims to estimate.

Its figure for a push is ``win_rate_random_continuation``: the mover's win rate (a shared result
counts its share) when every seat plays uniformly at random after the push. That quantity is
computed exactly here (the exact solver's ``random`` policy: the expectation over the unseen
gems and over uniformly random play), and its 95% intervals must contain it about 95% of the
time over many positions from random games (at least 93%). The same positions' best-play values
are exact too (checked against the plain-Python recursion), and they are what
``benches/funkel_accuracy.py`` measures every estimator against.

Positions: ``exact.late_positions``: a position among the last 12 of a uniformly random
2-player game, the push limit a few pushes ahead so the solver is quick.
"""
import pytest

from solver.games.funkel import exact
from solver.games.funkel.api import estimate_moves
from solver.stats import wilson_interval

POSITIONS = 80                # >= 40; more pairs make the coverage figure steadier
MIN_COVERAGE = 0.93


def test_an_interval_holds_its_own_mean_even_at_0_and_1():
    """A push that never (or always) won in the samples keeps 0 (or 1) inside its interval:
    the Wilson bounds there are exact, not rounded a hair past the mean."""
    for n in (1, 7, 300, 1000, 12345):
        assert wilson_interval(0.0, n)[0] == 0.0 and wilson_interval(1.0, n)[1] == 1.0


def coverage(views, samples):
    """The share of (position, push) pairs whose flat-MC interval holds the exact value."""
    inside = total = 0
    for i, view in enumerate(views):
        truth = exact.solve(view, "random", max_states=1_000_000)   # horizon 4: up to 555k
        found = estimate_moves(view, samples=samples, seed=i, stop_when_separated=False)
        assert [m.action for m in found.moves] == [a.action for a in truth.actions]
        for move, value in zip(found.moves, truth.actions):
            inside += move.low <= value.expected[view.to_move] <= move.high
            total += 1
    return inside / total, total


def test_flat_monte_carlo_intervals_hold_the_random_continuation_value():
    views = exact.late_positions(POSITIONS, 2, horizon=3, seed=2026)
    share, pairs = coverage(views, samples=300)
    assert pairs >= 4 * POSITIONS
    assert share >= MIN_COVERAGE, f"{share:.1%} of {pairs} intervals hold the exact value"


def test_the_exact_values_of_the_honesty_positions_are_the_truth():
    """The kernel's values equal the plain-Python recursion's: here on the three positions
    with the smallest trees (the Python recursion is slow), all of them in the slow test."""
    views = exact.late_positions(POSITIONS, 2, horizon=3, seed=2026)
    smallest = sorted(views, key=lambda v: exact.solve(v, max_states=400_000).states)[:3]
    for view in smallest:
        assert_kernel_is_reference(view)


def assert_kernel_is_reference(view):
    for policy in ("best", "random"):
        kernel = exact.solve(view, policy, max_states=400_000).actions
        python = exact.reference_values(view, policy)
        for k, p in zip(kernel, python, strict=True):
            assert k.action == p.action
            assert k.expected + k.win == pytest.approx(p.expected + p.win, abs=1e-9)


@pytest.mark.slow
def test_the_honesty_positions_are_solved_truly():
    """The first 30 (the plain-Python recursion takes seconds per position)."""
    for view in exact.late_positions(POSITIONS, 2, horizon=3, seed=2026)[:30]:
        assert_kernel_is_reference(view)


@pytest.mark.slow
def test_flat_monte_carlo_is_honest_on_longer_endgames():
    views = exact.late_positions(40, 2, horizon=4, seed=77)
    share, pairs = coverage(views, samples=2000)
    assert share >= MIN_COVERAGE, f"{share:.1%} of {pairs} intervals hold the exact value"

"""OpenSpiel's C++ AlphaBetaSearch (through the out-of-project driver ``os_alphabeta``,
benches/README.md "Peers") and our depth-limited alpha-beta give the same values: the same
leaf evaluation (store difference, root player's view), the same finished-game value (the
final bean difference), the same game. The driver's tests are skipped unless the environment
variable OS_ALPHABETA names it (it is built outside this project); the position mapping is
checked against pyspiel, when installed."""
from __future__ import annotations

import os

import pytest

from benches import compare_openspiel as bench
from solver.games import mancala as reference

DRIVER = os.environ.get("OS_ALPHABETA", "")
needs_driver = pytest.mark.skipif(not os.access(DRIVER, os.X_OK),
                                  reason="OS_ALPHABETA does not name the os_alphabeta driver")


@pytest.mark.parametrize("actions", bench.AB_POSITIONS)
def test_fixed_positions_are_openspiels_after_the_same_actions(actions):
    pyspiel = pytest.importorskip("pyspiel")
    state = pyspiel.load_game("mancala").new_initial_state()
    for action in actions:
        state.apply_action(action)
    board = [int(x) for x in state.observation_tensor(0)[:14]]
    pos = bench.position_after(actions)
    assert pos.pits == tuple(board[1:7] + board[8:14])
    assert pos.stores == (board[7], board[0])
    assert pos.to_move == state.current_player()
    assert not reference.is_over(pos)


@pytest.fixture(scope="module")
def driver():
    running = bench.AlphaBetaDriver(DRIVER)
    yield running
    running.close()


@needs_driver
@pytest.mark.parametrize("actions", bench.AB_POSITIONS)
@pytest.mark.parametrize("depth", range(1, 7))
def test_values_agree_with_openspiel(driver, actions, depth):
    theirs = driver.search(actions, depth)
    plain = bench.our_alphabeta(actions, depth, plain=True)
    full = bench.our_alphabeta(actions, depth)
    assert theirs["value"] == plain["value"] == full["value"]


@needs_driver
@pytest.mark.parametrize("actions", bench.AB_POSITIONS)
def test_plain_search_visits_about_the_states_openspiel_enters(driver, actions):
    """Without table, ordering and ETC ours walks OpenSpiel's tree; it may stop a little
    earlier where the stones left decide the window, never later."""
    theirs = driver.search(actions, 6)["nodes"]
    ours = bench.our_alphabeta(actions, 6, plain=True)["nodes"]
    assert 0.99 * theirs <= ours <= theirs

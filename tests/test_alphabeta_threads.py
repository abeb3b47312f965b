"""Exact proofs on several threads sharing one transposition table (``AlphaBeta(threads=T)``,
the Cython kernel): the same values as one thread and as brute force, entries a reader cannot
trust are not trusted, and budgets and stop() still end a proof."""
import json
import subprocess
import sys
import threading

import numpy as np
import pytest

from kernels import alphabeta_layout as layout
from kernels import mancala as numba_game
from kernels import mancala_ab as cython_ab
from solver.errors import InputError
from solver.games import mancala as reference
from solver.games.mancala import api
from solver.search.alphabeta import AlphaBeta
from test_alphabeta import minimax
from test_mancala_cython_ab import assert_small_endgames_solve_as_brute_force, context

INF = layout.INFINITY


def threaded_engine(threads, table_mb=1):
    return AlphaBeta(api.kernel_game(backend="cython"), table_mb, threads=threads)


@pytest.mark.parametrize("capture_empty", [True, False])
def test_exact_values_on_threads_equal_brute_force_minimax(rng, capture_empty):
    assert_small_endgames_solve_as_brute_force(threaded_engine(rng.choice([2, 3])), rng,
                                               capture_empty)


@pytest.mark.parametrize("m,n", [(4, 3), (5, 3), (4, 4)])
def test_a_crowded_shared_table_still_gives_the_one_thread_value(m, n):
    """64 entries for hundreds of thousands of positions: threads overwrite each other's
    entries all the time, and every value stays the one-thread value."""
    for capture_empty in (True, False):
        state = api.to_packed(reference.new_game(reference.Rules(m, n, capture_empty)))
        alone = threaded_engine(1).solve(state).value
        for threads in (2, 3):
            crowded = threaded_engine(threads)
            crowded.tt = np.zeros((64, 4), np.uint64)
            found = crowded.solve(state)
            assert found.value == alone, (m, n, capture_empty, threads)
            helper_nodes = sum(int(layout.stats_of(w)[layout.NODES]) for w in crowded.helpers)
            assert helper_nodes > 0, "the helper threads searched nothing"
            assert found.nodes == crowded.nodes


def test_the_values_of_kalah_4_4_from_the_start_on_two_threads():
    for capture_empty in (True, False):
        rules = reference.Rules(4, 4, capture_empty)
        one = api.best_move(None, rules, exact=True, tables=False)
        two = api.best_move(None, rules, exact=True, tables=False, threads=2)
        assert (two.value, two.exact) == (one.value, True)
        assert api.best_move(reference.apply(reference.new_game(rules), two.move), rules,
                             exact=True, tables=False).value == \
            (two.value if two.move == 1 else -two.value)  # bin 1 of 4 stones ends in the store


def test_an_entry_whose_check_word_disagrees_is_not_trusted():
    """In a shared table the fourth word checks the other three: an entry whose data changed
    without it (as when two threads write one slot at once) is a miss, never a value."""
    pos = reference.new_game(reference.Rules(4, 3, True))
    state = api.to_packed(pos)
    masks = numba_game.key_mask(state)
    tt, work = context(1 << 12, options=layout.SHARED_TABLE)
    truth = cython_ab.search(state, layout.EXACT, -INF, INF, 0, -1, *masks, tt, work)
    used = tt[:, 2] >> np.uint64(layout.IN_USE_BIT) == 1
    assert used.any() and (tt[used, 3] != 0).all(), "shared entries carry a check word"
    lie = np.uint64(30 + layout.BOUND_BIAS)            # every entry: "exactly +30 from here"
    forged = tt.copy()
    forged[used, 2] = (forged[used, 2] & ~np.uint64(0xFFFFFFFF)) | lie | (lie << np.uint64(16))
    believed = forged.copy()    # the shared search below rewrites the entries it finds forged
    _, fresh = context(1 << 12, options=layout.SHARED_TABLE)
    assert cython_ab.search(state, layout.EXACT, -INF, INF, 0, -1, *masks, forged,
                            fresh) == truth
    _, unshared = context(1 << 12)          # without the check the forged bounds are believed
    assert cython_ab.search(state, layout.EXACT, -INF, INF, 0, -1, *masks, believed,
                            unshared) != truth


def test_a_node_budget_on_threads_gives_bounds_around_the_value():
    state = api.to_packed(reference.new_game(reference.Rules(5, 4, True)))
    value = threaded_engine(1, 16).solve(state).value
    searcher = threaded_engine(2, 16)
    lower, upper = searcher.prove_within(state, 20_000)
    assert lower <= value <= upper and lower < upper
    assert searcher.nodes < 200_000


def test_stop_ends_a_proof_on_threads():
    state = api.to_packed(reference.new_game(reference.Rules(6, 4, True)))
    searcher = threaded_engine(2, 16)
    timer = threading.Timer(0.3, searcher.stop)
    timer.start()
    lower, upper = searcher.prove_within(state, 10**12)
    timer.join()
    assert lower < upper and lower <= 10 <= upper   # Kalah(6,4) is +10 (benches/README.md)


def test_threads_need_the_cython_kernels_and_an_exact_search():
    with pytest.raises(ValueError, match="Cython"):
        AlphaBeta(api.kernel_game(backend="numba"), 1, threads=2)
    with pytest.raises(InputError, match="exact"):
        api.best_move(None, reference.Rules(3, 3), depth=4, threads=2)
    with pytest.raises(InputError, match="1..256"):
        api.best_move(None, reference.Rules(3, 3), exact=True, threads=0)


def run_cli(*arguments):
    return subprocess.run([sys.executable, "-m", "solver", *arguments], capture_output=True,
                          text=True, timeout=120)


def test_the_command_line_proves_on_threads():
    one = run_cli("best", "mancala", "--pits", "4", "--stones", "3", "--exact", "--no-tables",
                  "--json")
    two = run_cli("best", "mancala", "--pits", "4", "--stones", "3", "--exact", "--no-tables",
                  "--threads", "2", "--json")
    assert one.returncode == two.returncode == 0, two.stderr
    assert json.loads(two.stdout)["value"] == json.loads(one.stdout)["value"]
    solved = run_cli("solve", "mancala", "--pits", "3", "--stones", "3", "--no-tables",
                     "--threads", "2", "--json")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["value"] == \
        minimax(reference.new_game(reference.Rules(3, 3)), True)


def test_threads_without_an_exact_search_are_a_one_line_error():
    refused = run_cli("best", "mancala", "--depth", "4", "--threads", "2")
    assert refused.returncode == 2
    assert refused.stderr.strip().count("\n") == 0 and "--exact" in refused.stderr

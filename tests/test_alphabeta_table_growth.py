"""A large transposition table is searched in a part that grows with the search
(``solver.search.alphabeta.first_entries``): growing keeps every entry findable, the values stay
exact, both kernels grow the same way, and an emptied table starts small again."""
import random

import numpy as np
import pytest

from kernels import alphabeta as numba_kernels
from kernels import alphabeta_layout as layout
from kernels import mancala_ab as cython_kernels
from solver.games import mancala as reference
from solver.games.mancala import api as glue
from solver.search import alphabeta
from solver.search.alphabeta import AlphaBeta

GROWING_MB = layout.POPULATED_TABLE_BYTES >> 20     # the smallest table that grows
STEPS = alphabeta.TABLE_FIRST_PART.bit_length() - 1


def filled_table(entries: int) -> np.ndarray:
    """A table of ``entries`` rows whose first half holds what a search stored: Kalah(5,3)
    from the start searched to depth 12 in that half."""
    engine = AlphaBeta(glue.kernel_game(), 1)
    engine.tt = np.zeros((entries // 2, 4), np.uint64)
    state = glue.to_packed(reference.new_game(reference.Rules(5, 3)))
    engine.iterate(state, max_depth=12)
    table = np.zeros((entries, 4), np.uint64)
    table[:entries // 2] = engine.tt
    return table


def stored(table: np.ndarray) -> dict[tuple[int, int], tuple[int, int]]:
    """Each entry in use, by key: (data word, check word)."""
    rows = table[(table[:, 2] & np.uint64(1 << layout.IN_USE_BIT)) != 0]
    return {(int(r[0]), int(r[1])): (int(r[2]), int(r[3])) for r in rows}


@pytest.mark.parametrize("grow", [numba_kernels.grow_table, cython_kernels.grow_table],
                         ids=["numba", "cython"])
def test_a_grown_table_finds_every_entry_in_the_bucket_its_key_hashes_to(grow):
    table = filled_table(1 << 12)
    before = stored(table)
    assert len(before) > len(table) // 4
    moved = grow(table, len(table) // 2)
    assert stored(table) == before
    assert 0 < moved < len(before)
    for key in before:
        bucket = numba_kernels.bucket_of(np.uint64(key[0]), np.uint64(key[1]), table)
        assert numba_kernels.tt_find(table, bucket, np.uint64(key[0]), np.uint64(key[1])) >= 0


def test_both_kernels_grow_a_table_to_the_same_bytes():
    table = filled_table(1 << 12)
    by_numba, by_cython = table.copy(), table.copy()
    assert numba_kernels.grow_table(by_numba, len(table) // 2) == \
        cython_kernels.grow_table(by_cython, len(table) // 2)
    assert np.array_equal(by_numba, by_cython)


def test_the_cython_kernel_refuses_to_grow_past_the_table():
    with pytest.raises(ValueError, match="cannot grow"):
        cython_kernels.grow_table(np.zeros((64, 4), np.uint64), 64)


@pytest.mark.parametrize("backend", ["numba", "cython"])
def test_a_large_table_starts_in_its_first_part_and_grows_as_the_search_does(backend):
    engine = AlphaBeta(glue.kernel_game(backend=backend), GROWING_MB)
    full = len(engine.table)
    assert len(engine.tt) == full >> STEPS
    state = glue.to_packed(reference.new_game(reference.Rules(6, 3)))
    sizes = []
    for depth in range(2, 15):
        engine.iterate(state, max_depth=depth)
        engine._grow_table()        # what the next call does first
        in_use, wanted = len(engine.tt), alphabeta.TABLE_ENTRIES_PER_NODE * engine.nodes
        assert in_use == full or in_use >= wanted            # grown enough
        assert in_use == full >> STEPS or in_use // 2 < wanted   # and no more
        sizes.append(in_use)
    assert sizes == sorted(sizes) and sizes[-1] > sizes[0]


def test_a_small_table_is_used_whole():
    engine = AlphaBeta(glue.kernel_game(), GROWING_MB // 2)
    assert len(engine.tt) == len(engine.table)


@pytest.mark.parametrize("capture_empty", [True, False])
def test_a_growing_table_proves_the_same_values_as_a_whole_one(capture_empty):
    rng = random.Random(7)
    growing = AlphaBeta(glue.kernel_game(backend="cython"), GROWING_MB)
    whole = AlphaBeta(glue.kernel_game(backend="cython"), GROWING_MB // 2)
    for _ in range(12):
        pos = reference.Position(tuple(rng.randrange(5) for _ in range(12)), (0, 0), 0,
                                 capture_empty=capture_empty)
        if reference.is_over(pos):
            continue
        state = glue.to_packed(pos)
        assert growing.prove(state)[0] == whole.prove(state)[0]
    assert len(growing.tt) > len(growing.table) >> STEPS


def test_both_kernels_search_node_for_node_alike_while_the_table_grows():
    state = glue.to_packed(reference.new_game(reference.Rules(5, 4)))
    engines = [AlphaBeta(glue.kernel_game(backend=b), GROWING_MB) for b in ("numba", "cython")]
    found = [engine.solve(state) for engine in engines]
    assert found[0].value == found[1].value
    assert engines[0].nodes == engines[1].nodes
    assert np.array_equal(engines[0].tt, engines[1].tt)
    assert len(engines[0].tt) > len(engines[0].table) >> STEPS


def test_an_emptied_table_starts_small_again():
    engine = AlphaBeta(glue.kernel_game(backend="cython"), GROWING_MB)
    engine.solve(glue.to_packed(reference.new_game(reference.Rules(5, 3))))
    assert len(engine.tt) > len(engine.table) >> STEPS
    engine.clear_table()
    assert len(engine.tt) == len(engine.table) >> STEPS
    assert not engine.table.any()


def test_threads_sharing_a_growing_table_prove_the_exact_value():
    state = glue.to_packed(reference.new_game(reference.Rules(5, 4)))
    one = AlphaBeta(glue.kernel_game(backend="cython"), GROWING_MB // 2)
    two = AlphaBeta(glue.kernel_game(backend="cython"), GROWING_MB, threads=2)
    assert two.prove(state)[0] == one.prove(state)[0]
    assert len(two.tt) > len(two.table) >> STEPS

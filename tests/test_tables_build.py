"""The retrograde build against plain search: every entry of the small levels equals the exact
alpha-beta value of its position with both stores empty, and a minimax written here over the
reference rules, for every board of 1..6 pits; random entries of larger levels too (slow)."""
import json
import subprocess
import sys
from dataclasses import replace
from functools import lru_cache

import numpy as np
import pytest

from kernels import mancala as game
from solver.games import mancala as reference
from solver.games.mancala import api as mancala
from solver.search.alphabeta import AlphaBeta
from tables import build, index

EXHAUSTIVE_SEARCH_LEVELS = 5   # every entry of levels 1..5 (5265 positions per rule) by alpha-beta
EXHAUSTIVE_MINIMAX_LEVELS = 7  # every entry of levels 1..7 by the reference minimax
# Smaller boards: every entry of these levels by the reference minimax (about 10^4 per board).
MINIMAX_LEVELS_OF_BOARD = {1: 14, 2: 12, 3: 9, 4: 7, 5: 6}


@pytest.fixture(scope="module", params=[True, False], ids=["capture-empty", "capture-nonempty"])
def small_tables(request):
    capture_empty = request.param
    return capture_empty, build.build_in_memory(12, capture_empty)


def packed(counts, capture_empty):
    """The kernel state of 2m pit counts (the mover's m, then the other's), stores 0."""
    m = len(counts) // 2
    config = build.config_word(capture_empty, m)
    return (index.pits_word(counts[:m]) | config, index.pits_word(counts[m:]) | config)


@lru_cache(maxsize=None)
def future_gain(pits: tuple[int, ...], capture_empty: bool) -> int:
    """V by trying every line of the reference rules: A to move with the first m pits, stores
    0; the value is A's final store minus B's."""
    m = len(pits) // 2
    pos = reference.Position(pits, (0, 0), reference.A)
    if reference.is_over(pos):
        return sum(pits[:m]) - sum(pits[m:])
    best = None
    for move in reference.legal_actions(pos):
        child = reference.apply(replace(pos, capture_empty=capture_empty), move)
        banked = child.stores[0] - child.stores[1]
        if child.to_move == reference.A:
            value = banked + future_gain(child.pits, capture_empty)
        else:  # B moves next: look at the board from B's side
            value = banked - future_gain(child.pits[m:] + child.pits[:m], capture_empty)
        best = value if best is None else max(best, value)
    return best


def test_every_entry_of_small_levels_equals_the_reference_minimax(small_tables):
    capture_empty, tables = small_tables
    for level in range(1, EXHAUSTIVE_MINIMAX_LEVELS + 1):
        for i in range(index.level_size(level)):
            counts = index.counts_at(level, i)
            assert tables.level(level)[i] == future_gain(counts, capture_empty), counts


@pytest.mark.parametrize("capture_empty", [True, False], ids=["capture-empty", "nonempty"])
@pytest.mark.parametrize("pits", sorted(MINIMAX_LEVELS_OF_BOARD))
def test_every_entry_of_small_levels_of_every_board_equals_the_reference_minimax(pits,
                                                                                 capture_empty):
    top = MINIMAX_LEVELS_OF_BOARD[pits]
    tables = build.build_in_memory(top, capture_empty, pits)
    for level in range(1, top + 1):
        assert tables.level(level).size == index.level_size(level, pits)
        for i in range(index.level_size(level, pits)):
            counts = index.counts_at(level, i, pits)
            assert tables.level(level)[i] == future_gain(counts, capture_empty), counts


def test_every_entry_of_small_levels_equals_exact_alpha_beta(small_tables):
    """The proof at the heart of ``AlphaBeta.solve`` (MTD(f)) for every entry; ``solve``
    itself, which adds a principal variation, below on a sample."""
    capture_empty, tables = small_tables
    engine = AlphaBeta(mancala.kernel_game(), 1)
    for level in range(1, EXHAUSTIVE_SEARCH_LEVELS + 1):
        for i in range(index.level_size(level)):
            counts = index.counts_at(level, i)
            state = packed(counts, capture_empty)
            expected = game.score(state) if game.is_terminal(state) else engine.prove(state)[0]
            assert tables.level(level)[i] == expected, counts


def test_sampled_entries_equal_alpha_beta_solve(small_tables, rng):
    capture_empty, tables = small_tables
    engine = AlphaBeta(mancala.kernel_game(), 4)
    checked = 0
    while checked < 60:
        level = rng.randrange(6, 13)
        i = rng.randrange(index.level_size(level))
        state = packed(index.counts_at(level, i), capture_empty)
        if game.is_terminal(state):
            continue
        assert tables.level(level)[i] == engine.solve(state).value, index.counts_at(level, i)
        checked += 1


@pytest.mark.parametrize("pits", [1, 3, 6])
def test_values_are_bounded_by_and_have_the_parity_of_the_stones_in_play(pits):
    # The n stones all end in a store: mover's gain + other's gain = n, so V = n - 2 * other's.
    tables = build.build_in_memory(9, True, pits)
    for level in range(10):
        values = tables.level(level).astype(np.int64)
        assert np.abs(values).max() <= level
        assert np.all((values - level) % 2 == 0)


def test_a_side_without_stones_ends_the_game_and_the_other_sweeps(small_tables):
    _, tables = small_tables
    for level in range(1, 13):
        level_values = tables.level(level)
        assert np.all(level_values[:index.BLOCK[6, level, 1]] == -level)         # mover empty
        assert np.all(level_values[index.BLOCK[6, level, level]:] == level)      # other empty


def test_the_capture_rule_decides_a_race_of_two_stones():
    """
          12 11 10  9  8  7
     [ 0]  0  0  0  0  0  1
           1  0  0  0  0  0  [ 0]   <- A to move

    A must sow bin 1 into the empty bin 2. Capturing from the empty bin 11 banks that stone
    and empties A's side: B sweeps his stone, 1-1. Without that capture both stones walk on,
    A one step ahead, until A's last stone drops opposite B's: A captures both, +2.
    """
    counts = (1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0)
    level, i = index.index_of(counts)
    assert build.build_in_memory(2, capture_empty=True).level(level)[i] == 0
    assert build.build_in_memory(2, capture_empty=False).level(level)[i] == 2


def test_one_piece_of_a_bucket_is_computed_alone_from_the_earlier_buckets(small_tables):
    """What one piece (a distributed task) does: a range of a bucket, computed while the later
    buckets of its level hold garbage, equals the same positions of a whole build."""
    capture_empty, tables = small_tables
    level, middle = 12, 40
    whole = tables.level(level)
    data = tables.data.copy()
    rebuilt = data[tables.starts[level]:tables.starts[level] + whole.size]
    later = [build.bucket(6, level, d) for d in range(middle, 6 * level + 1)]
    for part in later:  # not computed yet: 99 is never a value (|V| <= 12)
        build.scatter(part, 0, np.full(part.size, 99, np.int8), rebuilt)
    part = later[0]
    begin, end = part.size // 3, 2 * part.size // 3
    build.scatter(part, begin, build.compute(part, begin, end, capture_empty, data,
                                             tables.offsets), rebuilt)
    placed = rebuilt != 99
    assert placed.sum() == whole.size - sum(p.size for p in later) + (end - begin)
    assert np.array_equal(rebuilt[placed], whole[placed])


def reference_range(part, begin, end, capture_empty, data, offsets):
    """Positions begin..end-1 of a bucket, one at a time through ``position_value``."""
    halves = build.half_tables(part.pits, part.level)
    out = np.empty(end - begin, np.int8)
    build.compute_range_by_position(part.pits, part.level, begin, end, part.rectangles,
                                    part.first, halves.words, halves.ranks,
                                    build.config_word(capture_empty, part.pits), data, offsets,
                                    out)
    return out


@pytest.mark.parametrize("pits, top", [(1, 24), (2, 16), (3, 12), (4, 10), (5, 9), (6, 9)])
@pytest.mark.parametrize("capture_empty", [True, False])
def test_the_tiled_kernel_equals_the_retrograde_step_on_every_position(pits, top, capture_empty,
                                                                       rng):
    """Every bucket whole, and random ranges of it that start and end inside a row or a tile,
    against ``position_value`` (``play`` and a probe per child) on the same lower levels."""
    tables = build.build_in_memory(top, capture_empty, pits)
    for level in range(1, top + 1):
        offsets = build.probe_offsets(pits, tables.starts[:level + 1])
        for distance in build.distances(pits, level):
            part = build.bucket(pits, level, distance)
            ranges = [(0, part.size)] + [sorted(rng.randrange(part.size + 1) for _ in range(2))
                                         for _ in range(3)]
            for begin, end in ranges:
                assert np.array_equal(
                    build.compute(part, begin, end, capture_empty, tables.data, offsets),
                    reference_range(part, begin, end, capture_empty, tables.data, offsets)), \
                    (level, distance, begin, end)


def test_the_tile_words_hold_the_ranks_of_every_level_the_index_covers():
    """x words keep a capture rank in 22 bits and a STORE part (a rank times a row width) in
    the 37 bits above bit 26, up to the index's last level."""
    h = index.HALF_SIZE
    assert h[6, index.MAX_LEVEL] < 2 ** build._CAPTURE_BITS
    assert max((h[6, s - 1] - 1) * h[6, level - s] for level in range(2, index.MAX_LEVEL + 1)
               for s in range(2, level)) < 2 ** 37


def test_progress_reports_every_bucket_up_to_the_level_size():
    calls = []
    build.build_in_memory(6, progress=lambda level, done, total: calls.append((level, done, total)))
    last_of_level = {level: (done, total) for level, done, total in calls}
    assert last_of_level == {lv: (index.level_size(lv),) * 2 for lv in range(1, 7)}
    assert sum(1 for level, _, _ in calls if level == 6) == 5 * 6 + 1   # distances 6..36


@pytest.mark.slow
@pytest.mark.parametrize("capture_empty", [True, False])
def test_random_entries_of_level_16_and_up_equal_alpha_beta_solve(rng, capture_empty):
    tables = build.build_in_memory(18, capture_empty)
    engine = AlphaBeta(mancala.kernel_game(), 64)
    checked = 0
    while checked < 150:
        level = rng.choice([16, 17, 18])
        i = rng.randrange(index.level_size(level))
        state = packed(index.counts_at(level, i), capture_empty)
        if game.is_terminal(state):
            continue
        assert tables.level(level)[i] == engine.solve(state).value, index.counts_at(level, i)
        checked += 1


FRESH_PROCESS = """
import json
from kernels._jit import cache_hits
from tables import build, index, probe, rank
kernels = dict(compute=build.compute_range_parallel, scatter=build.scatter_range,
               half_tables=build._half_tables, unrank=rank.unrank, probe=probe.probe)
print(json.dumps({name: cache_hits(k) for name, k in kernels.items()}))
"""


def test_a_fresh_process_loads_the_table_kernels_from_the_disk_cache():
    code = FRESH_PROCESS
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)  # fill it
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert json.loads(done.stdout) == dict(compute=1, scatter=1, half_tables=1, unrank=1,
                                           probe=1)


def test_arrays_that_cannot_hold_the_levels_are_refused_before_any_read_or_write():
    tables = build.build_in_memory(4)
    part = build.bucket(6, 5, 10)
    with pytest.raises(ValueError, match="do not hold every level"):
        build.compute(part, 0, part.size, True, tables.data, tables.offsets)  # no level 5
    with pytest.raises(ValueError, match="do not fit"):
        build.scatter(part, 0, np.zeros(part.size, np.int8), np.zeros(10, np.int8))

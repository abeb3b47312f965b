"""The retrograde build against plain search: every entry of the small levels equals the exact
alpha-beta value of its position with both stores empty, and a minimax written here over the
reference rules; random entries of larger levels too (slow)."""
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


@pytest.fixture(scope="module", params=[True, False], ids=["capture-empty", "capture-nonempty"])
def small_tables(request):
    capture_empty = request.param
    data, offsets = build.build_in_memory(12, capture_empty)
    return capture_empty, data, offsets


def entry(tables, counts) -> int:
    _, data, offsets = tables
    level, i = index.index_of(counts)
    return int(data[offsets[level] + i])


def packed(counts, capture_empty):
    """The kernel state of 12 pit counts (the mover's six, then the other's), stores 0."""
    config = build.config_word(capture_empty)
    return (index.pits_word(counts[:6]) | config, index.pits_word(counts[6:]) | config)


@lru_cache(maxsize=None)
def future_gain(pits: tuple[int, ...], capture_empty: bool) -> int:
    """V by trying every line of the reference rules: A to move with the first six pits, stores
    0; the value is A's final store minus B's."""
    pos = reference.Position(pits, (0, 0), reference.A)
    if reference.is_over(pos):
        return sum(pits[:6]) - sum(pits[6:])
    best = None
    for move in reference.legal_actions(pos):
        child = reference.apply(replace(pos, capture_empty=capture_empty), move)
        banked = child.stores[0] - child.stores[1]
        if child.to_move == reference.A:
            value = banked + future_gain(child.pits, capture_empty)
        else:  # B moves next: look at the board from B's side
            value = banked - future_gain(child.pits[6:] + child.pits[:6], capture_empty)
        best = value if best is None else max(best, value)
    return best


def test_every_entry_of_small_levels_equals_the_reference_minimax(small_tables):
    capture_empty, data, offsets = small_tables
    for level in range(1, EXHAUSTIVE_MINIMAX_LEVELS + 1):
        for i in range(index.level_size(level)):
            counts = index.counts_at(level, i)
            assert data[offsets[level] + i] == future_gain(counts, capture_empty), counts


def test_every_entry_of_small_levels_equals_exact_alpha_beta(small_tables):
    """The proof at the heart of ``AlphaBeta.solve`` (MTD(f)) for every entry; ``solve``
    itself, which adds a principal variation, below on a sample."""
    capture_empty, data, offsets = small_tables
    engine = AlphaBeta(mancala.kernel_game(), 1)
    for level in range(1, EXHAUSTIVE_SEARCH_LEVELS + 1):
        for i in range(index.level_size(level)):
            counts = index.counts_at(level, i)
            state = packed(counts, capture_empty)
            expected = game.score(state) if game.is_terminal(state) else engine.prove(state)[0]
            assert data[offsets[level] + i] == expected, counts


def test_sampled_entries_equal_alpha_beta_solve(small_tables, rng):
    capture_empty, data, offsets = small_tables
    engine = AlphaBeta(mancala.kernel_game(), 4)
    checked = 0
    while checked < 60:
        level = rng.randrange(6, 13)
        i = rng.randrange(index.level_size(level))
        state = packed(index.counts_at(level, i), capture_empty)
        if game.is_terminal(state):
            continue
        assert data[offsets[level] + i] == engine.solve(state).value, index.counts_at(level, i)
        checked += 1


def test_values_are_bounded_by_and_have_the_parity_of_the_stones_in_play(small_tables):
    # The n stones all end in a store: mover's gain + other's gain = n, so V = n - 2 * other's.
    _, data, offsets = small_tables
    for level in range(13):
        values = data[offsets[level]:offsets[level + 1]].astype(np.int64)
        assert np.abs(values).max() <= level
        assert np.all((values - level) % 2 == 0)


def test_a_side_without_stones_ends_the_game_and_the_other_sweeps(small_tables):
    _, data, offsets = small_tables
    for level in range(1, 13):
        level_values = data[offsets[level]:offsets[level + 1]]
        assert np.all(level_values[:index.BLOCK[level, 1]] == -level)         # mover empty
        assert np.all(level_values[index.BLOCK[level, level]:] == level)      # other empty


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
    with_empty = build.build_in_memory(2, capture_empty=True)
    without = build.build_in_memory(2, capture_empty=False)
    assert entry((True, *with_empty), counts) == 0
    assert entry((False, *without), counts) == 2


def test_a_range_of_groups_is_built_alone_from_the_lower_levels(small_tables):
    """What one distributed task does: the blocks of one group, held alone in their own array,
    equal the same blocks of a whole-level build."""
    capture_empty, data, offsets = small_tables
    level = 12
    whole = data[offsets[level]:offsets[level + 1]]
    for group in range(build.group_count(level)):
        blocks = build.group_blocks(level, group)
        size = build.group_size(level, group) // len(blocks)
        current = np.empty(build.group_size(level, group), np.int8)
        base = np.full(level + 1, -1, np.int64)
        for i, s in enumerate(blocks):
            base[s] = i * size
        computed = build.build_level(level, capture_empty, data, offsets, current, base,
                                     groups=(group, group + 1))
        assert computed == current.size
        for i, s in enumerate(blocks):
            start = index.BLOCK[level, s]
            assert np.array_equal(current[i * size:(i + 1) * size], whole[start:start + size])


def test_progress_reports_every_bucket_up_to_the_level_size():
    calls = []
    build.build_in_memory(6, progress=lambda level, done, total: calls.append((level, done, total)))
    last_of_level = {level: (done, total) for level, done, total in calls}
    assert last_of_level == {lv: (index.level_size(lv),) * 2 for lv in range(1, 7)}
    assert sum(1 for level, _, _ in calls if level == 6) == 5 * 6 + 1   # distances 6..36


@pytest.mark.slow
@pytest.mark.parametrize("capture_empty", [True, False])
def test_random_entries_of_level_16_and_up_equal_alpha_beta_solve(rng, capture_empty):
    data, offsets = build.build_in_memory(18, capture_empty)
    engine = AlphaBeta(mancala.kernel_game(), 64)
    checked = 0
    while checked < 150:
        level = rng.choice([16, 17, 18])
        i = rng.randrange(index.level_size(level))
        state = packed(index.counts_at(level, i), capture_empty)
        if game.is_terminal(state):
            continue
        assert data[offsets[level] + i] == engine.solve(state).value, index.counts_at(level, i)
        checked += 1


FRESH_PROCESS = """
import json
from kernels._jit import cache_hits
from tables import build, index, probe
kernels = dict(bucket=build.build_bucket, half_tables=build._half_tables, unrank=index.unrank,
               probe=probe.probe)
print(json.dumps({name: cache_hits(k) for name, k in kernels.items()}))
"""


def test_a_fresh_process_loads_the_table_kernels_from_the_disk_cache():
    code = FRESH_PROCESS
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)  # fill it
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert json.loads(done.stdout) == dict(bucket=1, half_tables=1, unrank=1, probe=1)


def test_arrays_that_cannot_hold_the_level_are_refused_before_any_write():
    data, offsets = build.build_in_memory(4)
    level = 5
    whole = np.zeros(index.level_size(level), np.int8)
    with pytest.raises(ValueError, match="does not fit"):
        build.build_level(level, True, data, offsets, whole[:-1], build.full_block_base(level))
    with pytest.raises(ValueError, match="every level below"):
        build.build_level(level, True, data[:-1], offsets[:-1], whole,
                          build.full_block_base(level))

"""The table index against a naive reference: rank and unrank are a bijection between the
distributions of n stones over 12 pits and 0..C(n+11, 11) - 1, in the documented order; the
compiled rank and unrank on packed pit lanes (``tables.rank``) agree with the plain ones."""
from functools import lru_cache
from itertools import combinations
from math import comb

import numpy as np
import pytest

from tables import build, index, rank


def distributions(stones: int, pits: int):
    """Every way to put ``stones`` into ``pits`` pits, by stars and bars (naive)."""
    for bars in combinations(range(stones + pits - 1), pits - 1):
        cuts = (-1,) + bars + (stones + pits - 1,)
        yield tuple(cuts[i + 1] - cuts[i] - 1 for i in range(pits))


@lru_cache(maxsize=None)
def naive_side_order(stones: int, pits: int = 6) -> dict[tuple[int, ...], int]:
    """Every side of ``stones`` -> its place in colex order of its bars q_i = x0 + ... + xi + i
    (compare the last bar first, then the one before, ...)."""
    def bars(x):
        return tuple(sum(x[:i + 1]) + i for i in range(pits - 1))
    ordered = sorted(distributions(stones, pits), key=lambda x: bars(x)[::-1])
    return {side: i for i, side in enumerate(ordered)}


def naive_rank6(side) -> int:
    return naive_side_order(sum(side), len(side))[tuple(side)]


def naive_order(level: int, pits: int = 6) -> list[tuple[int, ...]]:
    """Level ``level`` in the documented order: by the mover's stones, then the rank of the
    mover's side, then the rank of the other's."""
    return sorted(distributions(level, 2 * pits),
                  key=lambda c: (sum(c[:pits]), naive_rank6(c[:pits]), naive_rank6(c[pits:])))


@pytest.mark.parametrize("level", range(0, 5))
def test_index_is_the_documented_order(level):
    order = naive_order(level)
    assert len(order) == comb(level + 11, 11)
    for i, counts in enumerate(order):
        assert index.index_of(counts) == (level, i), counts


@pytest.mark.parametrize("pits", range(1, 6))
@pytest.mark.parametrize("level", [0, 1, 3, 6])
def test_every_board_is_indexed_in_the_documented_order(pits, level):
    order = naive_order(level, pits)
    assert len(order) == comb(level + 2 * pits - 1, 2 * pits - 1) == index.level_size(level, pits)
    for i, counts in enumerate(order):
        assert index.index_of(counts) == (level, i), counts
        assert index.counts_at(level, i, pits) == counts


@pytest.mark.parametrize("level", range(0, 8))
def test_rank_and_unrank_are_inverse_bijections(level):
    seen = np.zeros(index.level_size(level), bool)
    for counts in distributions(level, 12):
        found_level, i = index.index_of(counts)
        assert found_level == level
        assert not seen[i], f"two positions share index {i}"
        seen[i] = True
        assert index.counts_at(level, i) == counts
    assert seen.all()


@pytest.mark.parametrize("level", [24, 30, 36, 48])
def test_random_round_trips_at_high_levels(rng, level):
    size = index.level_size(level)
    for i in [0, size - 1] + [rng.randrange(size) for _ in range(2000)]:
        counts = index.counts_at(level, i)
        assert sum(counts) == level and min(counts) >= 0
        assert index.index_of(counts) == (level, i)


@pytest.mark.parametrize("pits", range(1, 7))
@pytest.mark.parametrize("level", [0, 1, 5, 12, 30, 48])
def test_the_compiled_rank_and_unrank_agree_with_the_plain_ones(rng, pits, level):
    size = index.level_size(level, pits)
    for i in {0, size - 1} | {rng.randrange(size) for _ in range(300)}:
        counts = index.counts_at(level, i, pits)
        mover, other = rank.unrank(pits, level, i)
        assert index.counts_of_word(mover, pits) + index.counts_of_word(other, pits) == counts
        words = index.pits_word(counts[:pits]), index.pits_word(counts[pits:])
        assert rank.level_index(pits, level, *words) == i


def test_blocks_by_the_movers_stones_tile_the_level():
    for level in range(0, index.MAX_LEVEL + 1):
        sizes = [comb(s + 5, 5) * comb(level - s + 5, 5) for s in range(level + 1)]
        assert list(np.diff(index.BLOCK[6, level, :level + 2])) == sizes
        assert index.BLOCK[6, level, level + 1] == index.level_size(level) == comb(level + 11, 11)


def test_the_ends_of_a_level():
    # Colex order of the bars: stones far down the sowing order rank low. The first position
    # has every stone in the other side's last pit, the last every stone in the mover's first.
    empty = (0,) * 6
    assert index.index_of(empty + (0, 0, 0, 0, 0, 7)) == (7, 0)
    assert index.index_of(empty + (7, 0, 0, 0, 0, 0)) == (7, index.HALF_SIZE[6, 7] - 1)
    assert index.index_of((0, 0, 0, 0, 0, 7) + empty) == (7, index.BLOCK[6, 7, 7])
    assert index.index_of((7, 0, 0, 0, 0, 0) + empty) == (7, index.level_size(7) - 1)


@pytest.mark.parametrize("pits,max_stones", [(6, 0), (6, 1), (6, 6), (6, 9), (1, 5), (3, 7)])
def test_half_tables_list_every_side_once_sorted_by_distance(pits, max_stones):
    halves = build.half_tables(pits, max_stones)
    for stones in range(max_stones + 1):
        begin, end = halves.start[stones, 0], halves.start[stones, -1]
        sides = [index.counts_of_word(w, pits) for w in halves.words[begin:end]]
        assert sorted(sides) == sorted(distributions(stones, pits))
        distances = [sum((pits - i) * x for i, x in enumerate(side)) for side in sides]
        assert distances == sorted(distances)
        for d in range(pits * max_stones + 1):
            for j in range(halves.start[stones, d], halves.start[stones, d + 1]):
                assert distances[j - begin] == d
        assert [naive_rank6(s) for s in sides] == list(halves.ranks[begin:end])

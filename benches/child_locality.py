"""Why a table build's resident memory grows with the table: how many distinct pages the children
of a window of consecutive positions touch, in the build's bucket order and in one alternative.

    python benches/child_locality.py [--level 24] [--pits 6] [--windows 4096,65536,1048576]

A build computes a bucket's positions in *bucket order*: rectangle by rectangle (mover sides x
of one distance times other sides y of the complementary distance), each row by row (x outer,
y inner). A move that hands the turn over has the child (y', x'), whose index is
``BLOCK + rank(y') * H + rank(x')``: the parent's *inner* side is the child's *outer* one, so
consecutive parents (y changing) have children a whole row of H entries apart, on a page each.
The alternative measured here walks each rectangle column by column (y outer, x inner): then
y' (= y, or y plus a few sown stones) stays put while x' changes, so the children of a window
share the rows of few pages. Counts every child read (every level, every move that does not
end the game), for windows of W consecutive positions from the middle of the level's largest
bucket, and prints pages touched per position for both orders; no table is read (only indices
are computed), so it needs no built tables. Pure measurement: the build's order is unchanged.
"""
import argparse

import numpy as np
from numba import njit

from kernels import mancala as game
from tables import build as builder
from tables.index import LEVEL_SIZE, PIT_LANES
from tables.rank import level_index, stones_of

PAGE = 4096


@njit(cache=False)
def child_pages(m, level, begin, end, rectangles, first, words, config, starts, column_major,
                out):
    """Page number (in a mapping of every level, ``starts`` where each begins) of each child of
    positions begin..end-1 of a bucket, walked row- or column-major; returns how many."""
    n = 0
    moves = np.empty(6, np.int64)
    r = np.searchsorted(first, begin, side="right") - 1
    for p in range(begin, end):
        while p >= first[r + 1]:
            r += 1
        width_b = rectangles[r, 3] - rectangles[r, 2]
        width_a = rectangles[r, 1] - rectangles[r, 0]
        k = p - first[r]
        if column_major:
            a = rectangles[r, 0] + k % width_a
            b = rectangles[r, 2] + k // width_a
        else:
            a = rectangles[r, 0] + k // width_b
            b = rectangles[r, 2] + k % width_b
        state = (words[a] | config, words[b] | config)
        count = game.legal_moves(state, moves)
        for i in range(count):
            child, info = game.play(state, moves[i])
            if info & game.GAME_OVER:
                continue
            mover = child[0] & PIT_LANES[m]
            other = child[1] & PIT_LANES[m]
            lv = stones_of(mover) + stones_of(other)
            if lv == 0:
                continue
            out[n] = (starts[lv] + level_index(m, lv, mover, other)) // PAGE
            n += 1
    return n


def largest_bucket(pits: int, level: int):
    return max((builder.bucket(pits, level, d) for d in builder.distances(pits, level)),
               key=lambda part: part.size)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=24)
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--windows", default="4096,65536,1048576")
    args = parser.parse_args()
    m, level = args.pits, args.level
    starts = np.concatenate([[0], np.cumsum(LEVEL_SIZE[m, :level + 1])]).astype(np.int64)
    starts = starts - starts[1]          # level 1 begins at 0 (level 0 holds nothing)
    part = largest_bucket(m, level)
    halves = builder.half_tables(m, level)
    config = builder.config_word(True, m)
    table_mb = int(starts[level + 1]) / 2**20
    print(f"{m} pits, level {level}: levels 1..{level} = {table_mb:,.0f} MB; largest bucket "
          f"(distance {part.distance}) {part.size:,} positions, {len(part.rectangles)} "
          f"rectangles")
    print(f"{'window':>10} {'order':>12} {'child reads':>12} {'pages':>10} {'pages/pos':>10} "
          f"{'MB touched':>11}")
    for window in (int(w) for w in args.windows.split(",")):
        begin = max(0, part.size // 2 - window // 2)
        end = min(part.size, begin + window)
        out = np.empty(6 * (end - begin), np.int64)
        for column_major, name in ((False, "row (build)"), (True, "column")):
            n = child_pages(m, level, begin, end, part.rectangles, part.first, halves.words,
                            config, starts, column_major, out)
            pages = len(np.unique(out[:n]))
            print(f"{end - begin:>10,} {name:>12} {n:>12,} {pages:>10,} "
                  f"{pages / (end - begin):>10.3f} {pages * PAGE / 2**20:>11,.1f}")


if __name__ == "__main__":
    main()

"""Recompute random ranges of stored endgame tables with today's build kernel and compare: a
check that a changed kernel (``tables.build.compute_range``) still gives the values a finished,
checksummed table holds, at levels far above what the tests build.

    python benches/recompute_tables.py --dir DIR [--levels 20 24 27 30] [--buckets 6]
                                       [--positions 300000] [--seed 5]

For each rule whose tables DIR holds, each level, ``--buckets`` random distance buckets: a
random range of up to ``--positions`` positions is computed from the stored lower levels and
compared with the stored values of the same positions. Prints positions checked and mismatches;
exit code 1 on any mismatch.
"""
import argparse
import random
import sys

import numpy as np

from tables import api
from tables import build as builder
from tables.format import Family
from tables.index import BLOCK, HALF_SIZE


def stored_in_bucket_order(tables, part, begin, end):
    """The stored values of positions begin..end-1 of a bucket, in bucket order."""
    halves = builder.half_tables(part.pits, part.level)
    p = np.arange(begin, end)
    r = np.searchsorted(part.first, p, side="right") - 1
    rect = part.rectangles[r]
    width = rect[:, builder.B_HI] - rect[:, builder.B_LO]
    a = rect[:, builder.A_LO] + (p - part.first[r]) // width
    b = rect[:, builder.B_LO] + (p - part.first[r]) % width
    s = rect[:, builder.MOVER_STONES]
    index = (BLOCK[part.pits, part.level, s]
             + halves.ranks[a] * HALF_SIZE[part.pits, part.level - s] + halves.ranks[b])
    return tables.data[tables.offsets[part.level + 1] + index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--levels", type=int, nargs="+", default=[20, 24, 27, 30])
    parser.add_argument("--buckets", type=int, default=6)
    parser.add_argument("--positions", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    failed = False
    for capture_empty in (True, False):
        family = Family(capture_empty=capture_empty)
        tables = api.load_for_search(args.dir, family, max(args.levels))
        for level in (lv for lv in args.levels if lv <= tables.max_level):
            checked = mismatches = 0
            for distance in rng.sample(list(builder.distances(6, level)), args.buckets):
                part = builder.bucket(6, level, distance)
                begin = rng.randrange(part.size)
                end = min(part.size, begin + rng.randrange(1, args.positions + 1))
                offsets = tables.offsets[:level + 2].copy()
                offsets[1] = level
                values = builder.compute(part, begin, end, capture_empty, tables.data, offsets)
                mismatches += int((values != stored_in_bucket_order(tables, part, begin,
                                                                    end)).sum())
                checked += end - begin
            failed |= mismatches > 0
            print(f"capture_empty={capture_empty} level {level}: {checked:,} positions "
                  f"recomputed, {mismatches} differ", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

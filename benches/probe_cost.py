"""Cost of one endgame-table probe inside compiled code, in nanoseconds.

    python benches/probe_cost.py DIR [--max-stones 24] [--probes 2000000]

Random positions of each level are packed once; a compiled loop then probes them all, and the
same loop without the probe is timed and subtracted. Random positions spread over a level's
whole file, so the figure includes the cache misses a search sees in a large level (a search's
probes are more local than these)."""
import argparse
import time

import numpy as np
from numba import types

from kernels import mancala as game
from kernels._jit import kernel
from solver.games.mancala import api as mancala
from tables.probe import probe

STATES = types.uint64[:, ::1]


@kernel(types.int64(STATES, types.int8[::1], types.int64[::1]))
def probe_all(states, data, offsets):
    total = 0
    for i in range(states.shape[0]):
        total += probe((states[i, 0], states[i, 1]), data, offsets)
    return total


@kernel(types.int64(STATES))
def touch_all(states):
    total = 0
    for i in range(states.shape[0]):
        total += game.stones_in_pits((states[i, 0], states[i, 1]))
    return total


def random_states(level, count, rng):
    """``count`` packed Kalah(6,n) states, ``level`` stones spread at random over the 12 pits
    (kernels.mancala layout: pits in lanes 0-5 of each word, the rule lane on top)."""
    pits = rng.multinomial(level, [1 / 12] * 12, size=count).astype(np.uint64)
    rule_lane = np.uint64(game.pack_side([0] * 6, 0, 6, True))
    states = np.empty((count, 2), np.uint64)
    for word in (0, 1):
        lanes = pits[:, 6 * word:6 * word + 6] << (np.arange(6, dtype=np.uint64) * np.uint64(8))
        states[:, word] = np.bitwise_or.reduce(lanes, axis=1) | rule_lane
    return states


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--max-stones", type=int, default=24)
    parser.add_argument("--probes", type=int, default=2_000_000)
    args = parser.parse_args()
    rules = mancala.Rules(6, 4, True)
    tables = mancala.endgame_tables(args.directory, rules, required=True,
                                    max_stones=args.max_stones)
    rng = np.random.default_rng(1)
    print(f"{'level':>6} {'ns/probe':>9}")
    for level in (8, 12, 16, 20, 24):
        if level > tables.max_swing:
            continue
        states = random_states(level, args.probes, rng)
        probe_all(states[:10], tables.data, tables.offsets)
        touch_all(states[:10])
        start = time.perf_counter()
        probe_all(states, tables.data, tables.offsets)
        with_probe = time.perf_counter() - start
        start = time.perf_counter()
        touch_all(states)
        without = time.perf_counter() - start
        print(f"{level:>6} {(with_probe - without) / len(states) * 1e9:>9.1f}")


if __name__ == "__main__":
    main()

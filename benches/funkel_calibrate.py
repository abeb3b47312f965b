"""Calibrate fixed budgets to equal time: median seconds per decision of Funkel bots, side by side.

    python -m benches.funkel_calibrate [--bots mc:200,chance-mcts:4000] [--players 2]
                                       [--positions 60] [--rounds 3] [--seed 5]

Collects POSITIONS decisions (the mover has a choice) from games between greedy bots, then times
each bot on every position, the bots interleaved position by position and the whole pass repeated
ROUNDS times, and prints each bot's median and mean seconds per decision (thread CPU seconds,
which a shared machine inflates less, and wall seconds) and its median CPU ratio to the first
bot. Used to pick the ``--mc-search`` / ``--mc`` budgets of ``benches.funkel_strength``'s
equal-time line.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from solver.games import funkel as reference
from solver.games.funkel import api


def decisions(players: int, count: int, seed: int) -> list:
    """Public views where the mover has more than one action, from greedy games."""
    views, game = [], 0
    rng = random.Random(seed)
    while len(views) < count:
        state = reference.new_game(reference.Rules(players), seed * 1000 + game)
        game += 1
        while not reference.is_over(state):
            view = reference.public_view(state)
            if len(reference.legal_actions(view)) > 1:
                views.append(view)
            state = reference.apply(state, api.greedy_bot(view, state.to_move, rng))
    rng.shuffle(views)
    return views[:count]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="mc:200,chance-mcts:4000")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    names = args.bots.split(",")
    bots = [api.bot_named(n) for n in names]
    views = decisions(args.players, args.positions, args.seed)
    for bot in bots:                                   # compile / load from cache first
        bot(views[0], views[0].to_move, random.Random(0))
    wall = {n: [] for n in names}
    cpu = {n: [] for n in names}
    for r in range(args.rounds):
        for i, view in enumerate(views):
            for name, bot in zip(names, bots):
                rng = random.Random(r * 100_000 + i)
                start, start_cpu = time.perf_counter(), time.thread_time()
                bot(view, view.to_move, rng)
                cpu[name].append(time.thread_time() - start_cpu)
                wall[name].append(time.perf_counter() - start)
    base = statistics.median(cpu[names[0]])
    for name in names:
        c, w = statistics.median(cpu[name]), statistics.median(wall[name])
        print(f"{name:<28} cpu median {c:.4f} s mean {statistics.mean(cpu[name]):.4f} s; "
              f"wall median {w:.4f} s mean {statistics.mean(wall[name]):.4f} s; "
              f"cpu ratio {c / base:.2f}")


if __name__ == "__main__":
    main()

"""Funkel Munkel playing strength of the chance-node MCTS (issue 12's table).

    python -m benches.funkel_strength [--games 200] [--simulations 20000] [--rollout random]
                                      [--equal-seconds 0.1] [--lines 2p,3p,4p,mc] [--json FILE]

Line-ups: the search bot (``chance-mcts``, SIMULATIONS per decision) against greedy in 2, 3 and
4 players, and against today's flat Monte Carlo bot (``mc``) in 2 players with the same time per
decision (EQUAL_SECONDS each; both timed, so that line is not reproducible). Every line plays
GAMES games through ``solver.games.funkel.api.match`` (seats rotate, each deal replayed at each
rotation); it prints each bot's win rate with its Wilson 95% interval, and the timed bots' mean
and largest time per decision (one core; the machine may be shared).
"""
from __future__ import annotations

import argparse
import json
import time

from solver.games.funkel import api


class Timed:
    """A bot that records how long each of its decisions took."""

    def __init__(self, bot, name):
        self.bot, self.times, self.__name__ = bot, [], name

    def __call__(self, view, seat, rng):
        start = time.perf_counter()
        action = self.bot(view, seat, rng)
        self.times.append(time.perf_counter() - start)
        return action


def lineups(args):
    name = f"chance-mcts:{args.simulations}:{args.rollout}"
    search = lambda: Timed(api.chance_mcts_bot(args.simulations, args.rollout), name)  # noqa: E731
    timed = f"{args.equal_seconds}s"
    search_seconds = args.search_seconds or args.equal_seconds
    return {
        "2p": (2, lambda: [search(), "greedy"], [name, "greedy"]),
        "3p": (3, lambda: [search(), "greedy", "greedy"], [name, "greedy", "greedy"]),
        "4p": (4, lambda: [search(), "greedy", "greedy", "greedy"],
               [name, "greedy", "greedy", "greedy"]),
        "mc": (2, lambda: [Timed(api.chance_mcts_bot(rollout=args.rollout,
                                                     seconds=search_seconds),
                                 f"chance-mcts {search_seconds}s"),
                           Timed(api.monte_carlo_bot(samples=10**9, seconds=args.equal_seconds),
                                 f"mc {timed}")],
               [f"chance-mcts {search_seconds}s", f"mc {timed}"]),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=20_000)
    parser.add_argument("--rollout", default="random", choices=["random", "greedy"])
    parser.add_argument("--equal-seconds", type=float, default=0.1)
    parser.add_argument("--search-seconds", type=float, help="the search bot's budget in the mc "
                        "line (default: EQUAL_SECONDS; smaller to offset its first batch)")
    parser.add_argument("--lines", default="2p,3p,4p,mc")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    table = lineups(args)
    results = []
    for line in args.lines.split(","):
        players, make, names = table[line]
        bots = make()
        games = args.games - args.games % players          # whole rotations
        start = time.perf_counter()
        found = api.match(players, bots, games, seed=args.seed)
        print("\n".join(found.lines()))
        timing = {b.__name__: dict(decisions=len(b.times),
                                   mean_seconds=sum(b.times) / max(1, len(b.times)),
                                   max_seconds=max(b.times, default=0.0))
                  for b in bots if isinstance(b, Timed)}
        for name, t in timing.items():
            print(f"  {name}: {t['decisions']} decisions, mean {t['mean_seconds']:.3f} s, "
                  f"max {t['max_seconds']:.3f} s")
        print(f"  line-up: {', '.join(names)}; {time.perf_counter() - start:.0f} s in all",
              flush=True)
        results.append(dict(line=line, lineup=names, result=found.to_dict(), timing=timing))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()

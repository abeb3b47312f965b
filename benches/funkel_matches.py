"""Funkel Munkel playing strength: Monte Carlo vs greedy vs random in 2, 3 and 4 players.

    python -m benches.funkel_matches [--games N] [--seed S] [--json FILE]

Each line-up plays N games through ``solver.funkel.match`` (seats rotate and every deal is
replayed at each rotation); prints every bot's win rate with its Wilson 95% interval.
"""
from __future__ import annotations

import argparse
import json

from solver.games.funkel import api as funkel

LINEUPS = [
    (2, ["mc", "greedy"]),
    (2, ["mc", "random"]),
    (2, ["greedy", "random"]),
    (2, ["mc:200:greedy", "greedy"]),
    (2, ["mc:200:greedy", "mc"]),
    (3, ["mc", "greedy", "random"]),
    (4, ["mc", "greedy", "random", "random"]),
    (4, ["mc", "greedy", "greedy", "random"]),
]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    results = []
    for players, bots in LINEUPS:
        games = args.games - args.games % players    # whole rotations
        found = funkel.match(players, bots, games, seed=args.seed)
        print("\n".join(found.lines()) + f"  ({found.seconds:.0f} s)", flush=True)
        results.append(found.to_dict())
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()

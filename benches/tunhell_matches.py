"""Tunhell playing strength: ISMCTS and PIMC against greedy and random, 2, 3 and 4 players,
introductory and full game.

    python -m benches.tunhell_matches [--games N] [--iterations K] [--rules intro|full|both]
                                      [--seed S] [--json FILE]

Each line-up plays about N games (whole seat rotations) through ``solver.tunhell.match``: seats
rotate and every deal is replayed at each rotation. One search bot (K playouts per decision)
meets greedy or random bots in every other seat, so its fair share is 1/players. Prints each
bot's win rate (a shared win counts its share) with its Wilson 95% interval.
"""
from __future__ import annotations

import argparse
import json

from solver.games.tunhell import api as tunhell


def lineups(iterations: int) -> list[tuple[int, list[str]]]:
    rows = [(2, ["greedy", "random"])]
    for players in (2, 3, 4):
        for method in ("ismcts", "pimc"):
            for opponent in ("greedy", "random"):
                rows.append((players, [f"{method}:{iterations}"] + [opponent] * (players - 1)))
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=5000)
    parser.add_argument("--rules", choices=("intro", "full", "both"), default="both")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    rule_sets = {"intro": [True], "full": [False], "both": [True, False]}[args.rules]
    results = []
    for intro in rule_sets:
        for players, bots in lineups(args.iterations):
            games = max(players, args.games - args.games % players)   # whole rotations
            found = tunhell.match(players, bots, games, intro=intro, seed=args.seed)
            print("\n".join(found.lines()) + f"  ({found.seconds:.0f} s)", flush=True)
            results.append(dict(found.to_dict(), intro=intro))
            if args.json:
                with open(args.json, "w") as out:
                    json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()

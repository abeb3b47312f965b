"""Funkel Munkel playing strength of the chance-node MCTS (issue 12's table).

    python -m benches.funkel_strength [--games 200] [--lines 2p,3p,4p,mc] [--seed 2026]
        [--search SPEC] [--search-2p SPEC] [--search-3p SPEC] [--search-4p SPEC]
        [--mc-search SPEC] [--mc SPEC] [--equal-seconds S] [--json FILE]

Line-ups: the search bot (a ``chance-mcts[:SIMULATIONS[:ROLLOUT[:C[:BIAS[:ROOT]]]]]`` bot name;
per player count ``--search-Np``, else ``--search``, else BEST_SEARCH below) against greedy in 2,
3 and 4 players, and in 2 players against today's flat Monte Carlo bot (``mc``) at equal time: by
default both with fixed budgets (``--mc-search`` against ``--mc``) calibrated beforehand so that
their median times per decision match (``benches.funkel_calibrate``), so the line is reproducible
and does not depend on the machine's load; with ``--equal-seconds S`` both bots get the same wall
budget of S seconds per decision instead (not reproducible).

Every line plays GAMES games through ``solver.games.funkel.api.match`` (seats rotate, each deal
replayed at each rotation; the seed picks the deals: tune on another seed than the one you
report); it prints each bot's win rate with its Wilson 95% interval and, for the search and mc
bots, the mean / median / largest time per decision, in wall seconds and in the thread's CPU
seconds (the machine may be shared: CPU seconds are what one core spent). One untimed game
before each line loads (or, in a fresh checkout, compiles) the kernels, so no decision's time
includes compiling.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from solver.games.funkel import api

# The settings of the README's table (README, "Playing strength of chance-mcts"). 2 players:
# random rollouts (fast, strong enough), no prior. 3-4 players: greedy rollouts, which model the
# greedy opponents far better than random play, and the greedy prior below the root with weight
# 300, none at the root (``solver.games.funkel.api.CHANCE_MCTS_DEFAULTS``, written out here);
# the simulation counts keep a decision well under one CPU second (medians 0.2-0.3 s measured
# on the shared machine).
BEST_SEARCH = {
    2: "chance-mcts:20000:random",
    3: "chance-mcts:12000:greedy:1.4142135623730951:300:0",
    4: "chance-mcts:12000:greedy:1.4142135623730951:300:0",
}
# The mc line: today's default mc bot (200 rounds, random rollouts) and the chance-node search
# at the simulation count whose median CPU time per decision matched it, measured side by side:
# python -m benches.funkel_calibrate --bots mc:200,chance-mcts:1600,chance-mcts:2000
MC_SEARCH = "chance-mcts:1600:random"
MC = "mc:200"


class Timed:
    """A bot that records how long each of its decisions took (wall and thread CPU seconds)."""

    def __init__(self, bot, name):
        self.bot, self.wall, self.cpu, self.__name__ = bot, [], [], name

    def __call__(self, view, seat, rng):
        start, start_cpu = time.perf_counter(), time.thread_time()
        action = self.bot(view, seat, rng)
        self.cpu.append(time.thread_time() - start_cpu)
        self.wall.append(time.perf_counter() - start)
        return action

    def timing(self) -> dict:
        def summary(times):
            return dict(mean=sum(times) / max(1, len(times)),
                        median=statistics.median(times) if times else 0.0,
                        max=max(times, default=0.0))
        return dict(decisions=len(self.wall), wall=summary(self.wall), cpu=summary(self.cpu))


def timed(spec: str) -> Timed:
    return Timed(api.bot_named(spec), spec)


def lineups(args):
    def search(players):
        return getattr(args, f"search_{players}p") or args.search or BEST_SEARCH[players]

    table = {f"{p}p": (p, (lambda p=p: [timed(search(p))] + ["greedy"] * (p - 1)))
             for p in (2, 3, 4)}
    if args.equal_seconds:
        s = args.equal_seconds
        table["mc"] = (2, lambda: [
            Timed(api.chance_mcts_bot(rollout="random", seconds=s), f"chance-mcts {s}s"),
            Timed(api.monte_carlo_bot(samples=10**9, seconds=s), f"mc {s}s")])
    else:
        table["mc"] = (2, lambda: [timed(args.mc_search), timed(args.mc)])
    return table


def progress(game: int, so_far) -> None:
    """A line every 20 games: the first bot's win rate so far."""
    if (game + 1) % 20 == 0:
        first = so_far.entrants[0]
        print(f"    {game + 1} games: {first.name} {first.win_rate:.1%}", flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--lines", default="2p,3p,4p,mc")
    parser.add_argument("--search", help="the search bot of the greedy lines (all counts)")
    for p in (2, 3, 4):
        parser.add_argument(f"--search-{p}p", help=f"the search bot of the {p}p line "
                            f"(default {BEST_SEARCH[p]})")
    parser.add_argument("--mc-search", default=MC_SEARCH, help="the search bot of the mc line")
    parser.add_argument("--mc", default=MC, help="the mc bot of the mc line")
    parser.add_argument("--equal-seconds", type=float,
                        help="the mc line with this wall budget per decision for both bots")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    table = lineups(args)
    results = []
    for line in args.lines.split(","):
        players, make = table[line]
        api.match(players, make(), 1, seed=args.seed + 1)  # untimed: load or compile kernels
        bots = make()
        games = -(-args.games // players) * players        # up to whole rotations
        start = time.perf_counter()
        found = api.match(players, bots, games, seed=args.seed, on_game=progress)
        print("\n".join(found.lines()))
        timing = {b.__name__: b.timing() for b in bots if isinstance(b, Timed)}
        for name, t in timing.items():
            w, c = t["wall"], t["cpu"]
            print(f"  {name}: {t['decisions']} decisions; seconds per decision mean / median / "
                  f"max: wall {w['mean']:.3f} / {w['median']:.3f} / {w['max']:.3f}, "
                  f"cpu {c['mean']:.3f} / {c['median']:.3f} / {c['max']:.3f}")
        names = [b.__name__ if isinstance(b, Timed) else b for b in bots]
        print(f"  line {line} (seed {args.seed}): {', '.join(names)}; "
              f"{time.perf_counter() - start:.0f} s in all", flush=True)
        results.append(dict(line=line, seed=args.seed, lineup=names, result=found.to_dict(),
                            timing=timing))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()

"""Tunhell playing strength of ISMCTS with heuristic rollouts (issue 12's table).

    python -m benches.tunhell_strength [--games 200] [--iterations 500] [--lines 2p,ismcts,3p,4p]
                                       [--seed 2026] [--json FILE]
    python -m benches.tunhell_strength --speed        (ISMCTS iterations per second, both rollouts)

Line-ups (full game, compulsory digging unless ``--dig-may-stop``): the search bot
``ismcts-greedy:ITERATIONS`` (ISMCTS whose rollouts follow the engine's heuristic policy,
``solver.games.tunhell.rollout``) against greedy in 2, 3 and 4 players (``2p``, ``3p``, ``4p``),
and against today's ISMCTS bot (random rollouts) at the same iteration budget in 2 players
(``ismcts``; both kernels run about as many iterations per second, and the script prints both
bots' time per decision, so the times can be compared). A fixed iteration budget, not a clock,
so results do not depend on the machine's load. Every line plays GAMES games (rounded up to
whole seat rotations) through ``solver.games.tunhell.api.match`` (seats rotate, each deal replayed
at each rotation) and prints each bot's win rate with its Wilson 95% interval, and the search
bots' median, mean and largest time per decision (one core; the machine may be shared). Forced
decisions (one legal action) are played without search and not timed.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from solver.games.tunhell import api


class Timed:
    """A search bot that records how long each of its searched decisions took."""

    def __init__(self, method: str, iterations: int):
        self.bot = api.search_bot(method, iterations)
        self.times: list[float] = []
        self.__name__ = f"{method}:{iterations}"

    def __call__(self, view, seat, rng):
        start = time.perf_counter()
        action = self.bot(view, seat, rng)
        if len(api.legal_actions_of(view, random.Random(0))) > 1:   # not the bot's stream
            self.times.append(time.perf_counter() - start)
        return action


def lineups(iterations: int) -> dict:
    new = lambda: Timed("ismcts-greedy", iterations)  # noqa: E731
    return {
        "2p": (2, lambda: [new(), "greedy"]),
        "3p": (3, lambda: [new(), "greedy", "greedy"]),
        "4p": (4, lambda: [new(), "greedy", "greedy", "greedy"]),
        "ismcts": (2, lambda: [new(), Timed("ismcts", iterations)]),
    }


def timing_of(bots) -> dict:
    return {b.__name__: dict(decisions=len(b.times),
                             median_seconds=statistics.median(b.times) if b.times else 0.0,
                             mean_seconds=sum(b.times) / max(1, len(b.times)),
                             max_seconds=max(b.times, default=0.0))
            for b in bots if isinstance(b, Timed)}


def speed(players: int = 2, positions: int = 6, iterations: int = 2000) -> None:
    """ISMCTS iterations per second with random and with policy rollouts on the same positions
    (states along seeded random games), the two interleaved position by position."""
    from solver.games.tunhell import (
        Rules, apply, information_set, is_over, legal_actions, new_game)
    from solver.search import ismcts
    rng, views = random.Random(1), []
    for seed in range(positions):
        s = new_game(Rules(players), seed)
        for _ in range(rng.randint(0, 40)):
            if is_over(s):
                break
            s = apply(s, rng.choice(legal_actions(s)), check=False)
        if not is_over(s):
            views.append(information_set(s, s.to_move))
    spent = {"random": 0.0, "policy": 0.0}
    for view in views:
        sampler, codes = api.prepare_search(view, 0)
        for label, epsilon in (("random", ismcts.RANDOM_ROLLOUTS), ("policy", api.ROLLOUT_EPSILON)):
            start = time.perf_counter()
            ismcts.ismcts(sampler, codes, view.seat, iterations=iterations, seconds=None,
                          stop_when_separated=False, epsilon=epsilon)
            spent[label] += time.perf_counter() - start
    for label, seconds in spent.items():
        print(f"{label} rollouts: {len(views) * iterations / seconds:,.0f} ISMCTS iterations/s "
              f"({len(views)} positions x {iterations}, {players} players)")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--lines", default="2p,ismcts,3p,4p")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--dig-may-stop", action="store_true", help="the rule option")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--speed", action="store_true", help="only measure iterations/s")
    args = parser.parse_args(argv)
    if args.speed:
        speed()
        return
    table = lineups(args.iterations)
    results = []
    for line in args.lines.split(","):
        players, make = table[line]
        bots = make()
        games = args.games + (-args.games) % players       # at least GAMES, whole rotations
        start = time.perf_counter()
        found = api.match(players, bots, games, seed=args.seed, dig_may_stop=args.dig_may_stop)
        print("\n".join(found.lines()))
        timing = timing_of(bots)
        for name, t in timing.items():
            print(f"  {name}: {t['decisions']} searched decisions, median "
                  f"{t['median_seconds']:.3f} s, mean {t['mean_seconds']:.3f} s, "
                  f"max {t['max_seconds']:.3f} s")
        names = [b if isinstance(b, str) else b.__name__ for b in bots]
        print(f"  line {line}: {', '.join(names)}; {time.perf_counter() - start:.0f} s in all",
              flush=True)
        results.append(dict(line=line, lineup=names, result=found.to_dict(), timing=timing))
        if args.json:
            with open(args.json, "w") as out:
                json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()

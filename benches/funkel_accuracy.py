"""How far each Funkel Munkel estimator is from the truth, on small 2-player endgames.

    python -m benches.funkel_accuracy [--positions 40] [--horizon 4] [--seed 77] [--json FILE]
                                      [--quick]

Positions: ``exact.late_positions`` (a position among the last 12 of a uniformly random game,
the push limit ``horizon`` pushes ahead). For each, the exact solver gives every push's value
under best play (``win_probability`` / expected result, max-n = expectimax with 2 players) and
under uniformly random continuation. Each estimator is then run on the position and scored:

    mae_best       mean |estimate - exact best-play value| over all pushes
    mae_best_rec   the same for the recommended push only (UCT spends its simulations there)
    mae_own        mean |estimate - the exact value of what it claims to estimate| (flat MC
                   with random rollouts: the random-continuation value; others: best play)
    covers_best    share of pushes whose 95% interval holds the exact best-play value
    covers_own     the same for the quantity the estimator claims (see mae_own)
    best_push      share of positions where the recommended push is a truly best push

Estimators: flat MC (random and greedy rollouts, SAMPLES rounds), determinized MCTS (today's
``mcts``, 8 deals) and the chance-node MCTS over public views (``chance-mcts``) at 1k, 10k and
100k simulations. Every run has a fixed seed; timings are not measured here.
"""
from __future__ import annotations

import argparse
import json
import time

from solver.games.funkel import api, exact

TIE = 1e-9


def estimators(quick: bool):
    samples = 2_000 if quick else 10_000
    runs = {
        f"mc random {samples}": lambda v, s: api.estimate_moves(v, samples=samples, seed=s,
                                                                stop_when_separated=False),
        f"mc greedy {samples // 5}": lambda v, s: api.estimate_moves(
            v, samples=samples // 5, rollout="greedy", seed=s, stop_when_separated=False),
        "mcts determinized 10k": lambda v, s: api.mcts_moves(v, simulations=10_000, seed=s),
    }
    for sims in (1_000, 10_000) + (() if quick else (100_000,)):
        runs[f"chance-mcts {sims // 1000}k"] = \
            lambda v, s, n=sims: api.chance_mcts_moves(v, simulations=n, seed=s)
    return runs


def score(view, found, best, rand) -> dict:
    seat = view.to_move
    truth = [a.expected[seat] for a in best.actions]
    own = [a.expected[seat] for a in rand.actions] if found.estimates == \
        api.RANDOM_CONTINUATION else truth
    moves = found.moves
    rec = [m.action for m in moves].index(found.best)
    return dict(
        mae_best=sum(abs(m.value - t) for m, t in zip(moves, truth)) / len(moves),
        mae_best_rec=abs(moves[rec].value - truth[rec]),
        mae_own=sum(abs(m.value - t) for m, t in zip(moves, own)) / len(moves),
        covers_best=sum(m.low <= t <= m.high for m, t in zip(moves, truth)) / len(moves),
        covers_own=sum(m.low <= t <= m.high for m, t in zip(moves, own)) / len(moves),
        best_push=float(truth[rec] >= max(truth) - TIE))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--horizon", type=int, default=4)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--quick", action="store_true", help="smaller budgets")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    views = exact.late_positions(args.positions, 2, args.horizon, args.seed)
    start = time.perf_counter()
    solved = [(exact.solve(v), exact.solve(v, "random")) for v in views]
    print(f"{len(views)} positions, horizon {args.horizon}, solved exactly in "
          f"{time.perf_counter() - start:.1f} s "
          f"(largest: {max(b.states for b, _ in solved):,} table entries)")
    spread = [max(a.expected[v.to_move] for a in b.actions)
              - min(a.expected[v.to_move] for a in b.actions) for v, (b, _) in zip(views, solved)]
    gap = [sum(abs(x.expected[v.to_move] - y.expected[v.to_move])
               for x, y in zip(b.actions, r.actions)) / len(b.actions)
           for v, (b, r) in zip(views, solved)]
    print(f"mean spread of push values (best play): {sum(spread) / len(spread):.3f}; mean "
          f"|best-play value - random-continuation value|: {sum(gap) / len(gap):.3f}")
    header = ("estimator", "mae_best", "mae_best_rec", "mae_own", "covers_best", "covers_own",
              "best_push")
    print(f"{header[0]:<24}" + "".join(f"{h:>13}" for h in header[1:]))
    table = {}
    for name, run in estimators(args.quick).items():
        rows = [score(v, run(v, i), b, r) for i, (v, (b, r)) in enumerate(zip(views, solved))]
        table[name] = {key: sum(row[key] for row in rows) / len(rows) for key in rows[0]}
        print(f"{name:<24}" + "".join(f"{table[name][h]:>13.3f}" for h in header[1:]),
              flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(dict(positions=args.positions, horizon=args.horizon, seed=args.seed,
                           table=table), out, indent=1)


if __name__ == "__main__":
    main()

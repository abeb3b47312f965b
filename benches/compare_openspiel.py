"""Kalah(6,4) speed against OpenSpiel's C++ ``mancala``, side by side in one run. Run:

    pip install 'solver[openspiel]'        # or: pip install open-spiel
    python benches/compare_openspiel.py [--playouts 300000] [--simulations 10000 100000]
                                        [--repeats 5] [--seed 1] [--threads 2] [--json PATH]
                                        [--alphabeta-driver PATH [--ab-depths 11 12 13]
                                         [--ab-plain]]

OpenSpiel's ``mancala`` is Kalah(6,4) with captures only from a non-empty opposite pit, so ours
plays ``capture_empty=False`` throughout (``tests/test_openspiel_parity.py`` checks the two
agree move by move). Every measurement is repeated ``--repeats`` times, OpenSpiel and ours
interleaved in each repeat so that load from other users hits both alike; medians are quoted.

What is timed (wall clock, compile and first-call costs excluded by a warm-up; each MCTS size
is searched once untimed on both sides before its repeats):

- Random playouts from the start. OpenSpiel: its C++ ``RandomRolloutEvaluator`` with
  ``n_rollouts = --playouts``, run through a one-simulation ``MCTSBot.mcts_search`` (the root is
  evaluated at once: all playouts in one C++ call, OpenSpiel's own rollout loop of ``Clone``,
  ``LegalActions``, a uniform pick and ``ApplyAction``). It reports no ply count, so its plies/s
  is its playouts/s times the mean game length of OpenSpiel's own random games, measured with
  ``evaluate_bots`` and two ``make_uniform_random_bot`` bots (one C++ game per Python call; its
  own rate is printed too). ``random_sim_test`` is not used: it checks serialization and
  invariants on every move, so it is not a speed measure. Ours: ``kernels.mancala_playout.
  playout_stats`` (plies counted exactly).
- MCTS from the start, one thread, the same number of simulations, UCT with one random
  playout per simulation and no solver on both sides. OpenSpiel: ``pyspiel.MCTSBot`` with
  ``RandomRolloutEvaluator(1)``, timing ``mcts_search`` (the simulation count is checked on the
  returned root); its rewards are +1/-1/0, ours 1/0.5/0, so its ``uct_c`` is twice our ``c``
  (the same exploration). Ours: ``solver.games.mancala.mcts.mcts_best_move(threads=1)``.
- With ``--threads N`` (N > 1), ours also with N threads (root parallelism: N trees sharing the
  simulations, their root statistics summed), interleaved with the one-thread run of the same
  repeat; printed as the N-thread rate over the one-thread rate (issue 13's target: >= 1.8x
  with 2 threads on a free machine), and over OpenSpiel's one-thread rate (its ``MCTSBot`` has
  no threads; the issue's title asks for 10x "on both cores" too).
- With ``--alphabeta-driver PATH``: alpha-beta nodes/s at fixed depths against OpenSpiel's C++
  ``AlphaBetaSearch``, run by ``os_alphabeta``, a driver built outside this project
  (benches/README.md, "Peers", says how and what its node count is). Values at depths 1..6 must
  agree first; then the peer and ours are interleaved per position and depth. Ours: one
  full-window ``AlphaBeta._search`` to the depth (table, move ordering and ETC on; off with
  ``--ab-plain``, the same tree walk as the peer's). Target 4 of issue 13: >= 2x its nodes/s.
- Perft from the start, depths 1..6: ours (``solver.mancala.perft``, ``capture_empty=False``)
  against a walk over OpenSpiel's states; they must be identical (exit code 1 otherwise).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from importlib import metadata

import numpy as np

from kernels import mancala_playout as playout
from solver.games import mancala as reference
from solver.games.mancala import api as mancala
from solver.games.mancala.mcts import DEFAULT_C, mcts_best_move, mcts_state

RULES = reference.Rules(6, 4, capture_empty=False)
PERFT_DEPTHS = range(1, 7)
TARGET_MCTS_RATIO = 10.0
OPENSPIEL_MEMORY_MB = 1 << 16   # OpenSpiel's MCTS stops early at this tree size: never reached


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--playouts", type=int, default=300_000,
                        help="random playouts per repeat and side (default 300000)")
    parser.add_argument("--simulations", type=int, nargs="+", default=[10_000, 100_000],
                        help="MCTS simulation budgets (default 10000 100000)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats per figure (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1,
                        help="also time ours with this many threads (default 1: not)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    parser.add_argument("--alphabeta-driver", metavar="PATH",
                        help="OpenSpiel's C++ AlphaBetaSearch driver os_alphabeta (benches/"
                             "README.md, Peers): also compare alpha-beta nodes/s (skipped when "
                             "not given or not found)")
    parser.add_argument("--ab-depths", type=int, nargs="+", default=list(AB_DEPTHS),
                        help="alpha-beta depths (default %(default)s)")
    parser.add_argument("--ab-plain", action="store_true",
                        help="ours without table, move ordering and ETC (default: all on)")
    return parser.parse_args(argv)


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


# --- OpenSpiel -----------------------------------------------------------------------------------

def openspiel_rollouts(pyspiel, game, playouts: int, seed: int) -> float:
    """Seconds for ``playouts`` random playouts from the start in OpenSpiel's C++ rollout loop."""
    evaluator = pyspiel.RandomRolloutEvaluator(playouts, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, 1, OPENSPIEL_MEMORY_MB, False, seed, False)
    root, seconds = timed(bot.mcts_search, game.new_initial_state())
    assert root.explore_count == 1
    return seconds


def openspiel_bot_games(pyspiel, game, games: int, seed: int) -> tuple[int, float]:
    """(plies, seconds) of ``games`` uniform-random games played by ``evaluate_bots``."""
    bots = [pyspiel.make_uniform_random_bot(0, seed), pyspiel.make_uniform_random_bot(1, seed + 1)]
    plies, start = 0, time.perf_counter()
    for g in range(games):
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, seed + g)
        plies += state.move_number()
    return plies, time.perf_counter() - start


def openspiel_mcts(pyspiel, game, simulations: int, seed: int) -> float:
    """Seconds for one OpenSpiel MCTS search of ``simulations`` simulations from the start."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2 * DEFAULT_C, simulations, OPENSPIEL_MEMORY_MB,
                          False, seed, False)
    root, seconds = timed(bot.mcts_search, game.new_initial_state())
    assert root.explore_count == simulations, (root.explore_count, simulations)
    return seconds


def openspiel_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(openspiel_perft(state.child(action), depth - 1) for action in state.legal_actions())


# --- ours ----------------------------------------------------------------------------------------

def our_playouts(playouts: int, seed: int) -> tuple[int, float]:
    """(plies, seconds) of ``playouts`` random playouts from the start."""
    state = mcts_state(replace(reference.new_game(RULES), capture_empty=RULES.capture_empty))
    (plies, _), seconds = timed(playout.playout_stats, state, playouts, np.uint64(seed))
    return int(plies), seconds


def our_mcts(simulations: int, seed: int, threads: int = 1) -> float:
    found, seconds = timed(mcts_best_move, None, RULES, simulations=simulations, threads=threads,
                           seed=seed)
    assert found.simulations == simulations
    return seconds


# --- alpha-beta against OpenSpiel's C++ AlphaBetaSearch (an out-of-project driver) -----------

AB_DEPTHS = (11, 12, 13)     # each peer search 0.04-3 s here
AB_CHECK_DEPTHS = range(1, 7)
TARGET_AB_RATIO = 2.0
# Positions: OpenSpiel action ids played from the start (player 0 sows 1..6, player 1 8..13).
AB_POSITIONS = (
    (),                      # the start
    (3, 6),                  # A 3 ends in the store (extra turn), then A 6
    (1, 9),                  # A 1, then B's bin 8
    (3, 6, 9, 12),
    (2, 8, 4, 13, 6),
)


def openspiel_action(move: int, side: int) -> int:
    """OpenSpiel action (board index) of one of our bin numbers for the side to move."""
    return move if side == reference.A else move + 1


def position_after(actions) -> reference.Position:
    """Our position after OpenSpiel actions from the start (capture_empty=False)."""
    pos = reference.new_game(RULES)
    for action in actions:
        move = action if pos.to_move == reference.A else action - 1
        pos = reference.apply(pos, move)
    return pos


class AlphaBetaDriver:
    """The peer: a running ``os_alphabeta`` (benches/README.md, "Peers"), one search a line."""

    def __init__(self, path: str, win_loss: bool = False):
        self.path = path
        self.process = subprocess.Popen([path] + (["--win-loss"] if win_loss else []),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)

    def search(self, actions, depth: int) -> dict:
        self.process.stdin.write(" ".join(str(x) for x in (depth, *actions)) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.path} ended without an answer")
        return json.loads(line)

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def our_alphabeta(actions, depth: int, plain: bool = False) -> dict:
    """Ours the way the peer runs: one fixed-depth full-window alpha-beta from the position,
    on a fresh search context (the Cython kernel; its table sized as ``best_move`` sizes it).
    ``plain``: table, move ordering and enhanced transposition cutoffs off (stats OPTIONS),
    the same tree walk as the peer's; else all on (what the engine does). Only the search is
    timed."""
    from kernels import alphabeta_layout as layout
    pos = position_after(actions)
    engine = mancala.AlphaBeta(mancala.kernel_game(backend="cython"),
                               mancala.default_table_mb(pos, False, depth))
    if plain:
        engine.stats[layout.OPTIONS] = layout.NO_TABLE | layout.NO_ORDERING | layout.NO_ETC
    state = mancala.to_packed(pos)
    value, seconds = timed(engine._search, state, depth, -layout.INFINITY, layout.INFINITY)
    lane = int(engine.stats[layout.ROOT_MOVE])
    move = None if lane < 0 else mancala.move_of(lane, pos.to_move, pos.m)
    return dict(value=value, action=None if move is None else openspiel_action(move, pos.to_move),
                nodes=engine.nodes, seconds=seconds)


def alphabeta_agreement(driver: AlphaBetaDriver) -> list[tuple]:
    """(moves, depth, peer value, our plain value, our full value) at depths 1..6 from every
    position: the same leaf evaluation, so the values must be equal."""
    rows = []
    for actions in AB_POSITIONS:
        for depth in AB_CHECK_DEPTHS:
            theirs = driver.search(actions, depth)["value"]
            rows.append((actions, depth, theirs, our_alphabeta(actions, depth, plain=True)["value"],
                         our_alphabeta(actions, depth)["value"]))
    return rows


def alphabeta_comparison(args) -> bool:
    """Step 5: nodes/s of ours against the peer driver; prints its own section. False when
    a value disagrees."""
    driver = AlphaBetaDriver(args.alphabeta_driver)
    try:
        for actions in AB_POSITIONS[:1]:  # warm-up: our kernels' first call
            our_alphabeta(actions, 4)
            our_alphabeta(actions, 4, plain=True)
        agreement = alphabeta_agreement(driver)
        agree = all(t == p == f for _, _, t, p, f in agreement)
        measured = {}
        for r in range(args.repeats):
            for actions in AB_POSITIONS:
                for depth in args.ab_depths:
                    theirs = driver.search(actions, depth)
                    ours = our_alphabeta(actions, depth, plain=args.ab_plain)
                    measured.setdefault((actions, depth), []).append((theirs, ours))
    finally:
        driver.close()
    print_alphabeta(args, agreement, agree, measured)
    return agree and all(t["value"] == o["value"] for pairs in measured.values()
                         for t, o in pairs)


def print_alphabeta(args, agreement, agree, measured):
    med = statistics.median
    side = ("plain: no table, no move ordering, no ETC" if args.ab_plain else
            "as the engine searches: transposition table, move ordering, ETC on")
    print()
    print(f"alpha-beta, fixed depth, full window, one thread; peer: OpenSpiel's C++ "
          f"AlphaBetaSearch via {args.alphabeta_driver}; ours: {side}")
    print(f"{'moves':<18}{'depth':>5}{'value':>6}{'OS nodes':>12}{'our nodes':>11}"
          f"{'OS nodes/s':>13}{'our nodes/s':>13}{'ours/OS':>9}")
    ratios = []
    for (actions, depth), pairs in measured.items():
        t_rate = med(t["nodes"] / t["seconds"] for t, _ in pairs)
        o_rate = med(o["nodes"] / o["seconds"] for _, o in pairs)
        ratio = med((o["nodes"] / o["seconds"]) / (t["nodes"] / t["seconds"]) for t, o in pairs)
        ratios.append(ratio)
        t0, o0 = pairs[0]
        name = " ".join(map(str, actions)) or "start"
        value = f"{t0['value']:g}" if t0["value"] == o0["value"] else "DIFFER"
        print(f"{name:<18}{depth:>5}{value:>6}{t0['nodes']:>12,}{o0['nodes']:>11,}"
              f"{t_rate:>13,.0f}{o_rate:>13,.0f}{ratio:>8.1f}x")
    overall = med(ratios)
    verdict = "met" if overall >= TARGET_AB_RATIO else "NOT met"
    print(f"target: ours >= {TARGET_AB_RATIO:.0f}x OpenSpiel's AlphaBetaSearch nodes/s: {verdict} "
          f"(median of the per-search ratios {overall:.1f}x; each ratio: median over "
          f"{args.repeats} interleaved repeats)")
    fewer = ("ours stops early where the stones left decide the window: up to 0.5% fewer" if
             args.ab_plain else "ours visits far fewer (table, move ordering, ETC)")
    print("  nodes, both sides: states the search was called on (ours stats[NODES]: a call of "
          "search, or a finished child valued in place; OpenSpiel: a state _alpha_beta was entered "
          f"on, root + ApplyAction calls); {fewer}; nodes/s is compared")
    print("  OpenSpiel time: its driver's steady_clock around AlphaBetaSearch; ours: "
          "perf_counter around AlphaBeta._search (one call)")
    print(f"values at depths {AB_CHECK_DEPTHS.start}..{AB_CHECK_DEPTHS.stop - 1} from "
          f"{len(AB_POSITIONS)} positions (OpenSpiel / ours plain / ours full): "
          f"{'all agree' if agree else 'DIFFER'}")
    for actions, depth, theirs, plain, full in agreement:
        if not theirs == plain == full:
            print(f"  {' '.join(map(str, actions)) or 'start'} depth {depth}: "
                  f"{theirs:g} / {plain} / {full}")


# --- the run -------------------------------------------------------------------------------------

def versions() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor()) \
        if os.path.exists("/proc/cpuinfo") else platform.processor()
    out = dict(python=platform.python_version(), cpu=cpu, cpus=os.cpu_count(),
               mancala_rules_version=reference.INFO.rules_version)
    for dist in ("open-spiel", "solver", "numba", "numpy"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "?"
    return out


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed (pip install 'solver[openspiel]' or pip install "
              "open-spiel): nothing to compare against; skipped.")
        return 0
    game = pyspiel.load_game("mancala")
    command = "python benches/compare_openspiel.py " + " ".join(shlex.quote(a) for a in (
        sys.argv[1:] if argv is None else argv))
    load_before = os.getloadavg()

    # Warm-up: compile / load our kernels, first calls into OpenSpiel.
    our_playouts(100, 0)
    our_mcts(1_000, 0)
    openspiel_rollouts(pyspiel, game, 100, 0)
    openspiel_mcts(pyspiel, game, 1_000, 0)

    # Step 1. Perft agreement.
    perft_rows = []
    for depth in PERFT_DEPTHS:
        ours = mancala.perft(replace(reference.new_game(RULES), capture_empty=False), depth)
        theirs = openspiel_perft(game.new_initial_state(), depth)
        perft_rows.append((depth, ours, theirs))
    perft_ok = all(ours == theirs for _, ours, theirs in perft_rows)

    # Step 2. Random playouts, interleaved.
    bot_games = max(1, args.playouts // 5)
    rates = {key: [] for key in ("os_playouts", "os_bot_games", "our_playouts", "our_plies")}
    os_plies, os_games, our_plies_total, our_games = 0, 0, 0, 0
    for r in range(args.repeats):
        seed = args.seed + r
        rates["os_playouts"].append(args.playouts / openspiel_rollouts(pyspiel, game,
                                                                       args.playouts, seed))
        plies, seconds = openspiel_bot_games(pyspiel, game, bot_games, seed)
        rates["os_bot_games"].append(bot_games / seconds)
        os_plies, os_games = os_plies + plies, os_games + bot_games
        plies, seconds = our_playouts(args.playouts, seed)
        rates["our_playouts"].append(args.playouts / seconds)
        rates["our_plies"].append(plies / seconds)
        our_plies_total, our_games = our_plies_total + plies, our_games + args.playouts
    os_mean_plies = os_plies / os_games
    our_mean_plies = our_plies_total / our_games

    # Step 3. MCTS, interleaved, per budget.
    mcts_rates, threaded_rates = {}, {}
    for simulations in args.simulations:
        theirs, ours, threaded = [], [], []
        # An untimed search of this size on each side first: the first search of a size pays
        # for fresh memory that later ones reuse (ours, in one process on the host of 4 Dec
        # 2026: 0.126 s against 0.070 s at 100 k after a pause, 2.45-2.59 s against 2.05 s at
        # 2 M), so without it the first repeat times something the others do not.
        openspiel_mcts(pyspiel, game, simulations, args.seed)
        our_mcts(simulations, args.seed)
        if args.threads > 1:
            our_mcts(simulations, args.seed, args.threads)
        for r in range(args.repeats):
            seed = args.seed + r
            theirs.append(simulations / openspiel_mcts(pyspiel, game, simulations, seed))
            ours.append(simulations / our_mcts(simulations, seed))
            if args.threads > 1:
                threaded.append(simulations / our_mcts(simulations, seed, args.threads))
        mcts_rates[simulations] = (theirs, ours)
        threaded_rates[simulations] = threaded
    load_after = os.getloadavg()

    # Step 4. Report.
    med = statistics.median

    def paired(theirs, ours):  # median of the per-repeat ratios (each pair timed back to back)
        return med(o / t for t, o in zip(theirs, ours))

    playout_pairs = paired(rates["os_playouts"], rates["our_playouts"])
    rows = [("random playouts/s", med(rates["os_playouts"]), med(rates["our_playouts"]),
             playout_pairs),
            ("random plies/s", med(rates["os_playouts"]) * os_mean_plies,
             med(rates["our_plies"]), playout_pairs * our_mean_plies / os_mean_plies)]
    for simulations, (theirs, ours) in mcts_rates.items():
        rows.append((f"MCTS sims/s ({simulations:,} sims)", med(theirs), med(ours),
                     paired(theirs, ours)))

    info = versions()
    print(f"Kalah(6,4), captures only from a non-empty opposite pit (ours: capture_empty=False); "
          f"one thread; medians of {args.repeats} interleaved repeats")
    print(f"{'':<28}{'OpenSpiel':>14}{'ours':>14}{'ours/OS':>9}{'paired':>9}")
    for name, theirs, ours, pairs in rows:
        print(f"{name:<28}{theirs:>14,.0f}{ours:>14,.0f}{ours / theirs:>8.1f}x{pairs:>8.1f}x")
    print("(ours/OS: ratio of the medians; paired: median of the per-repeat ratios)")
    mcts_ratio = rows[-1][2] / rows[-1][1]
    verdict = "met" if mcts_ratio >= TARGET_MCTS_RATIO else "NOT met"
    print(f"target: ours >= {TARGET_MCTS_RATIO:.0f}x OpenSpiel's MCTS sims/s at "
          f"{args.simulations[-1]:,} sims: {verdict} ({mcts_ratio:.1f}x)")
    for simulations, threaded in threaded_rates.items():
        if threaded:
            theirs, one = mcts_rates[simulations]
            gain = paired(one, threaded)
            print(f"ours with {args.threads} threads, {simulations:,} sims: "
                  f"{med(threaded):,.0f} sims/s = {gain:.3f}x one thread (paired; target >= "
                  f"1.8x with 2 threads on a free machine: {'met' if gain >= 1.8 else 'NOT met'})")
            # Issue 13's title asks for 10x "on both cores" too: our threads against
            # OpenSpiel's one (MCTSBot has no threads), the same simulations in all.
            print(f"  against OpenSpiel's one thread: {med(threaded) / med(theirs):.1f}x of the "
                  f"medians, {paired(theirs, threaded):.1f}x paired")
    print()
    print("how it was measured:")
    print(f"  OpenSpiel playouts: C++ RandomRolloutEvaluator({args.playouts:,} rollouts) in one "
          f"MCTSBot.mcts_search call (1 simulation); plies/s = playouts/s x {os_mean_plies:.2f} "
          f"mean plies, from {os_games:,} evaluate_bots uniform-random games "
          f"(ours: {our_mean_plies:.2f} over {our_games:,} games)")
    print(f"  OpenSpiel evaluate_bots (one C++ game per Python call): "
          f"{med(rates['os_bot_games']):,.0f} games/s, "
          f"{med(rates['os_bot_games']) * os_mean_plies:,.0f} plies/s")
    print(f"  ours playouts: kernels.mancala_playout.playout_stats({args.playouts:,} playouts)")
    print(f"  MCTS: OpenSpiel MCTSBot(RandomRolloutEvaluator(1), uct_c={2 * DEFAULT_C:.3f}, "
          f"solve=False).mcts_search; ours mcts_best_move(threads=1, c={DEFAULT_C:.3f}); "
          f"wall clock per search")
    listed = lambda xs: ", ".join(f"{x:,.0f}" for x in xs)  # noqa: E731
    for simulations, (theirs, ours) in mcts_rates.items():
        print(f"    {simulations:,} sims, every repeat: OpenSpiel {listed(theirs)}; "
              f"ours {listed(ours)}")
        if threaded_rates.get(simulations):
            # The threaded figure swings with what the shared host gives the second core:
            # every repeat shows whether one slow pair or all of them set the median.
            print(f"    {simulations:,} sims, ours with {args.threads} threads, every repeat: "
                  f"{listed(threaded_rates[simulations])}")
    print()
    print("perft from the start (ours capture_empty=False vs OpenSpiel walk):")
    for depth, ours, theirs in perft_rows:
        print(f"  D{depth} {ours:>8} {theirs:>8}  {'agree' if ours == theirs else 'DIFFER'}")
    print()
    print("versions: " + ", ".join(f"{k} {v}" for k, v in info.items()))
    print(f"load average (1 min) before / after: {load_before[0]:.2f} / {load_after[0]:.2f}")
    print(f"reproduce: {command.strip()}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(dict(command=command.strip(), versions=info, repeats=args.repeats,
                           rates=rates, mcts={str(k): dict(openspiel=v[0], ours=v[1],
                                                           ours_threaded=threaded_rates[k])
                                              for k, v in mcts_rates.items()},
                           threads=args.threads,
                           openspiel_mean_plies=os_mean_plies, our_mean_plies=our_mean_plies,
                           table=[dict(figure=n, openspiel=t, ours=o, ratio=o / t,
                                       paired_ratio=pr) for n, t, o, pr in rows],
                           perft=[dict(depth=d, ours=o, openspiel=t) for d, o, t in perft_rows],
                           load_average=[load_before[0], load_after[0]]), out, indent=1)
    alphabeta_ok = True
    if args.alphabeta_driver and os.access(args.alphabeta_driver, os.X_OK):
        alphabeta_ok = alphabeta_comparison(args)
    elif args.alphabeta_driver:
        print(f"\nalpha-beta driver {args.alphabeta_driver} not found: alpha-beta skipped")
    return 0 if perft_ok and alphabeta_ok else 1


if __name__ == "__main__":
    sys.exit(main())

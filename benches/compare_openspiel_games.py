"""OpenSpiel's searches against ours on our own games, at equal time per decision, through the
OpenSpiel adapter (``solver.adapters.openspiel``). Skips cleanly without OpenSpiel.

    python benches/compare_openspiel_games.py --time 0.1 --games 100          # every line
    python benches/compare_openspiel_games.py --only tunhell --players 3
    python benches/compare_openspiel_games.py --steps                          # adapter cost

Lines: Tunhell, OpenSpiel's Python ISMCTS (and the C++ pyspiel.ISMCTSBot, if it accepts a
Python game) against our ISMCTS and PIMC; Funkel Munkel, OpenSpiel's MCTS (and ISMCTS) against
our flat Monte Carlo estimator and our determinized MCTS; Mancala, OpenSpiel's MCTSBot and
``alpha_beta_search`` against our alpha-beta. OpenSpiel's bots take a simulation count, not a
time: each is calibrated first (simulations per second on the start position of the game, a
few searches) and given rate x time simulations; our bots get ``seconds=time``. Seats rotate
game by game. A line gives our bot's win rate (a shared win counts its share) with a Wilson
95% interval, and each side's iterations per second of thinking (OpenSpiel's MCTS/ISMCTS:
simulations; its alpha_beta_search: depth iterations; ours: playouts or samples as the search
reports them; our Mancala alpha-beta reports no count, so there it is searches, one a move).
"""
from __future__ import annotations

import argparse
import random
import sys
import time

try:
    import pyspiel
except ImportError:             # the bench needs the `openspiel` extra
    print("compare_openspiel_games: OpenSpiel is not installed (pip install solver[openspiel]);"
          " skipped")
    sys.exit(0)

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts, minimax

import solver.adapters.openspiel  # noqa: F401  (registers the games)
from solver.stats import wilson_interval


class Side:
    """A bot: ``pick(state) -> action id``; counts iterations and the seconds it thought."""

    def __init__(self, name):
        self.name, self.iterations, self.seconds = name, 0, 0.0

    def act(self, state):
        start = time.perf_counter()
        action = self.pick(state)
        self.seconds += time.perf_counter() - start
        return action

    def rate(self) -> float:
        return self.iterations / self.seconds if self.seconds else float("nan")


class SpielBot(Side):
    """An OpenSpiel bot built with ``simulations`` (calibrated to the time budget)."""

    def __init__(self, name, make, simulations):
        super().__init__(name)
        self.bot, self.simulations = make(simulations), simulations

    def pick(self, state):
        if len(state.legal_actions()) == 1:
            return state.legal_actions()[0]
        self.iterations += self.simulations
        return self.bot.step(state)


class AlphaBetaSpiel(Side):
    """OpenSpiel's alpha_beta_search to the deepest depth that fits the time (iterative)."""

    def __init__(self, seconds):
        super().__init__("openspiel alpha_beta_search")
        self.budget = seconds

    def pick(self, state):
        game, start, best, depth = state.get_game(), time.perf_counter(), None, 1
        me = state.current_player()
        total = max(1, state.node.stones())

        def evaluator(s):       # store difference for the searching side, in [-1, 1]
            return (s.node.stores[me] - s.node.stores[1 - me]) / total

        while True:
            t = time.perf_counter()
            _, best = minimax.alpha_beta_search(game, state, evaluator, depth,
                                                state.current_player())
            self.iterations += 1
            spent = time.perf_counter() - t
            if time.perf_counter() - start + 4 * spent > self.budget or depth > 40:
                return best
            depth += 1


class OurBot(Side):
    def __init__(self, name, choose):
        super().__init__(name)
        self.choose = choose

    def pick(self, state):
        if len(state.legal_actions()) == 1:
            return state.legal_actions()[0]
        action, work = self.choose(state)
        self.iterations += work
        return state.bridge.action_id(action)


def ours(game_name, method, seconds):
    if game_name == "tunhell":
        from solver.games.tunhell import api

        def choose(state):
            seat = state.current_player()
            found = api.best_action(state.bridge.view(state.node, seat), seat, method=method,
                                    seconds=seconds, stop_when_separated=False)
            return found.best, found.iterations
    elif game_name == "funkel":
        from solver.games.funkel import api

        def choose(state):
            if method == "mcts":
                try:
                    found = api.mcts_moves(state.node.view, seconds=seconds)
                except ValueError:    # a tree that got no simulation in a tiny budget
                    print("(our funkel mcts: an empty tree; retried with one deal)", flush=True)
                    found = api.mcts_moves(state.node.view, seconds=seconds, deals=1)
            else:
                found = api.estimate_moves(state.node.view, seconds=seconds,
                                           stop_when_separated=False)
            return found.best, found.samples
    else:
        from solver.games.mancala.bots import AlphaBetaBot
        bot = AlphaBetaBot(seconds=seconds)

        def choose(state):
            return bot(state.node, state.current_player(), random.Random(0)), 1
    return OurBot(f"ours {method}", choose)


def calibrate(game, make, seconds) -> int:
    """Simulations that take about ``seconds`` on the game's first decision."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot, n = make(20), 20
    start = time.perf_counter()
    for _ in range(2):
        bot.step(state.clone())
    rate = 2 * n / (time.perf_counter() - start)
    return max(2, int(rate * seconds))    # ISMCTS needs 2 to expand its root


def play(game, sides, seed):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    if state.bridge.name == "mancala":   # deterministic bots: start from the match openings
        from solver.games.mancala.bots import opening
        state.node = opening(state.bridge.rules, seed // 2)     # both seats get each opening
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(sides[state.current_player()].act(state))
    return state


def line(game, ours_side, theirs_side, games, players, first=0):
    """Our bot in one seat, the OpenSpiel bot in the others, seats rotating (Mancala: each
    opening of ``solver match`` played from both seats); games ``first`` .. ``first+games-1``,
    so a long line can be split over processes and its shares summed."""
    share = 0.0
    for g in range(first, first + games):
        seat = g % players
        sides = [ours_side if s == seat else theirs_side for s in range(players)]
        final = play(game, sides, g)
        if (g - first) % 10 == 9:
            print(f"({game.get_type().short_name}: {g + 1} games)", file=sys.stderr, flush=True)
        share += (final.returns()[seat] + 1) / players      # back to our share
    mean = share / games
    lo, hi = wilson_interval(mean, games)
    print(f"| {game.get_type().short_name} {players}p | {ours_side.name} vs {theirs_side.name} |"
          f" {games} | {mean:.2f} [{lo:.2f}, {hi:.2f}] | {ours_side.rate():.0f} |"
          f" {theirs_side.rate():.0f} |", flush=True)


def spiel_makers(game, seed=0):
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    out = {"openspiel mcts": lambda n: mcts.MCTSBot(game, 2.0, n, evaluator,
                                                    random_state=np.random.RandomState(seed))}
    if game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION:
        out = {"openspiel ismcts (python)": lambda n: ismcts.ISMCTSBot(
            game, evaluator, 2.0, max_simulations=n,
            random_state=np.random.RandomState(seed))}
        if cpp_ismcts_runs(game):
            out["openspiel ismcts (c++)"] = lambda n: pyspiel.ISMCTSBot(
                seed, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, n, -1,
                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
    return out


CPP_PROBE = """
import pyspiel, solver.adapters.openspiel
game = pyspiel.load_game({name!r})
state = game.new_initial_state()
state.apply_action(0)
bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 10, -1,
                        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
bot.step(state)
"""


def cpp_ismcts_runs(game) -> bool:
    """Does the C++ ISMCTSBot search a Python game? Asked in a child process: in open-spiel
    2.0.2 it crashes the interpreter (a segmentation fault), which must not end the bench."""
    import subprocess
    probe = CPP_PROBE.format(name=str(game))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=120)
    if done.returncode != 0:
        print(f"(C++ pyspiel.ISMCTSBot does not run on {game}: exit code {done.returncode})",
              flush=True)
    return done.returncode == 0


def matches(args):
    print("| game | our bot vs OpenSpiel bot | games | our win share [Wilson 95%] | our it/s |"
          " their it/s |")
    print("|---|---|---|---|---|---|")
    plan = {"tunhell": ["ismcts", "pimc"], "funkel": ["mc", "mcts"], "mancala": ["alphabeta"]}
    for name in args.only or plan:
        params = {"players": args.players} if name != "mancala" else {}
        if name == "tunhell":
            params["rng_seed"] = 0
        game = pyspiel.load_game(f"solver_{name}", params)
        players = game.num_players()
        theirs = spiel_makers(game)
        if name == "mancala":
            theirs["openspiel alpha_beta_search"] = "alphabeta"
        for method in args.methods or plan[name]:
            for label, make in theirs.items():
                if make == "alphabeta":
                    their = AlphaBetaSpiel(args.time)
                else:
                    their = SpielBot(label, make, calibrate(game, make, args.time))
                line(game, ours(name, method, args.time), their, args.games, players,
                     args.first_game)


def steps(args):
    """Random playouts: reference steps/s, OpenSpiel adapter steps/s, PettingZoo steps/s."""
    from solver import games
    from solver.adapters import bridge
    from solver.adapters import pettingzoo as pz
    print("| game | reference steps/s | OpenSpiel adapter steps/s | ratio | PettingZoo steps/s |"
          " ratio |")
    print("|---|---|---|---|---|---|")
    for name in ("mancala", "funkel", "tunhell"):
        ref, b = games.get(name).reference(), bridge(name)
        rates = {"ref": [], "spiel": [], "pz": []}
        for round_ in range(3):                     # interleaved, medians quoted
            rng, n, start = random.Random(round_), 0, time.perf_counter()
            for g in range(args.playouts):
                s = ref.new_game(b.rules, g)
                while not ref.is_over(s):
                    s = ref.apply(s, rng.choice(ref.legal_actions(s)))
                    n += 1
            rates["ref"].append(n / (time.perf_counter() - start))
            game = pyspiel.load_game(f"solver_{name}")
            rng, n, start = random.Random(round_), 0, time.perf_counter()
            for g in range(args.playouts):
                st = game.new_initial_state()
                while not st.is_terminal():
                    if st.is_chance_node():
                        st.apply_action(st.chance_outcomes()[0][0])
                    else:
                        st.apply_action(rng.choice(st.legal_actions()))
                        n += 1
            rates["spiel"].append(n / (time.perf_counter() - start))
            env = getattr(pz, f"{name}_v0").raw_env()
            rng, n, start = random.Random(round_), 0, time.perf_counter()
            for g in range(args.playouts):
                env.reset(seed=g)
                while not env.terminations[env.agent_selection]:
                    mask = env.observe(env.agent_selection)["action_mask"]
                    env.step(rng.choice(np.flatnonzero(mask).tolist()))
                    n += 1
            rates["pz"].append(n / (time.perf_counter() - start))
        r, s, z = (float(np.median(rates[k])) for k in ("ref", "spiel", "pz"))
        print(f"| {name} | {r:.0f} | {s:.0f} | {s / r:.2f} | {z:.0f} | {z / r:.2f} |",
              flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=0.1, help="seconds per decision")
    parser.add_argument("--games", type=int, default=100, help="games per line")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first-game", type=int, default=0,
                        help="number of the first game (split a line over processes)")
    parser.add_argument("--only", nargs="*", choices=("tunhell", "funkel", "mancala"))
    parser.add_argument("--methods", nargs="*", help="our methods (default: every one)")
    parser.add_argument("--steps", action="store_true", help="measure the adapter's step cost")
    parser.add_argument("--playouts", type=int, default=20)
    args = parser.parse_args()
    steps(args) if args.steps else matches(args)


if __name__ == "__main__":
    main()

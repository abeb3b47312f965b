"""Tunhell benchmarks (pytest-benchmark): complete random games per second on one core, through
the Cython engine and through the plain-Python reference, playing the same games. Run:

    python -m pytest benches/bench_tunhell.py --benchmark-enable -s \
        --benchmark-columns=median,rounds --benchmark-json=benches/tunhell.json

Game i of a batch is set up from seed ``i`` and chooses uniformly among the legal actions with
splitmix64 seeded ``i ^ POLICY_SALT`` (index = (output >> 32) * count >> 32), so engine and
reference play identical games and the ratio compares the same work. ``extra_info`` holds
games/s, actions/s and, for the engine, the speedup over the reference measured earlier in the
same run (medians). With ``-s`` a line per configuration is printed as well.
"""
import pytest

from kernels import tunhell as K
from solver.games.tunhell import Rules, apply, is_over, legal_actions, new_game, splitmix64

CONFIGS = [(players, intro) for players in (2, 3, 4) for intro in (True, False)]
IDS = [f"{players}p-{'intro' if intro else 'full'}" for players, intro in CONFIGS]
ENGINE_GAMES = 1000       # per round: about 50 ms
REFERENCE_GAMES = 4       # per round: about 30 ms
REFERENCE_RATES = {}      # (players, intro) -> reference games/s, for the engine's ratio


def reference_games(players, intro, games):
    """The engine's ``random_games`` on the reference; returns the number of actions."""
    total = 0
    for seed in range(games):
        state, rng = new_game(Rules(players, intro), seed), seed ^ K.POLICY_SALT
        while not is_over(state):
            options = legal_actions(state)
            rng, out = splitmix64(rng)
            state = apply(state, options[(out >> 32) * len(options) >> 32], check=False)
            total += 1
    return total


def record(benchmark, games, actions):
    """Games/s and actions/s from the median round; None when benchmarks are disabled."""
    if benchmark.stats is None:
        return None
    median = benchmark.stats.stats.median
    benchmark.extra_info.update(games_per_round=games, games_per_second=games / median,
                                actions_per_second=actions / median)
    return games / median


@pytest.mark.parametrize("players,intro", CONFIGS, ids=IDS)
def test_reference_random_games(benchmark, players, intro):
    actions = benchmark.pedantic(reference_games, (players, intro, REFERENCE_GAMES),
                                 rounds=5, warmup_rounds=1)
    rate = record(benchmark, REFERENCE_GAMES, actions)
    if rate:
        REFERENCE_RATES[players, intro] = rate


@pytest.mark.parametrize("players,intro", CONFIGS, ids=IDS)
def test_engine_random_games(benchmark, players, intro):
    assert K.random_games(players, intro, 0, 3) == reference_games(players, intro, 3)
    actions = benchmark.pedantic(K.random_games, (players, intro, 0, ENGINE_GAMES),
                                 rounds=15, warmup_rounds=1)
    rate = record(benchmark, ENGINE_GAMES, actions)
    reference = REFERENCE_RATES.get((players, intro))
    if rate and reference:
        benchmark.extra_info["speedup_vs_reference"] = rate / reference
        print(f"\n{IDS[CONFIGS.index((players, intro))]}: engine {rate:,.0f} games/s, "
              f"reference {reference:,.1f} games/s, ratio {rate / reference:,.0f}x, "
              f"{actions / ENGINE_GAMES:.0f} actions/game")


def test_engine_games_driven_from_python(benchmark):
    """The same games, one Python call per game (the wrapper's overhead on top of the C loop)."""
    def games():
        total = 0
        for seed in range(ENGINE_GAMES):
            total += K.TunhellEngine(2, False, seed).random_playout(seed ^ K.POLICY_SALT)
        return total

    actions = benchmark.pedantic(games, rounds=15, warmup_rounds=1)
    record(benchmark, ENGINE_GAMES, actions)

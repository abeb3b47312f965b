"""Tunhell search benchmarks (pytest-benchmark): ISMCTS iterations per second, PIMC playouts per
second (1 and 2 threads), determinizations per second, and complete random games per second
through the engine and through the reference. Run:

    python -m pytest benches/bench_tunhell_search.py --benchmark-enable -s \
        --benchmark-columns=median,rounds --benchmark-json=benches/tunhell_search.json

Positions are fixed: a full game of 2, 3 or 4 players after 40 random actions (setup seed 5,
choices ``random.Random(5)``), seen by the seat to move. Searches run a fixed number of
iterations without the early stop, so every round does the same work; ``extra_info`` holds the
rate from the median round (and, with 2 threads, the speedup over 1 thread measured earlier in
the same run). With ``-s`` a line per case is printed.
"""
import random

import pytest

from kernels import tunhell as K
from solver.search import ismcts as search
from solver.games.tunhell import Rules, apply, information_set, legal_actions, new_game
from solver.games.tunhell.api import prepare_search

from benches.bench_tunhell import reference_games

PLAYERS = (2, 3, 4)
ITERATIONS = 20_000        # per round: about half a second on one core
SINGLE_THREAD_RATES = {}   # (method, players) -> rate with 1 thread, for the 2-thread speedup


def view(players):
    state, rng = new_game(Rules(players, False), seed=5), random.Random(5)
    for _ in range(40):
        state = apply(state, rng.choice(legal_actions(state)), check=False)
    return information_set(state, state.to_move)


def rate(benchmark, work, unit):
    """``work`` units per second of the median round; None when benchmarks are disabled."""
    if benchmark.stats is None:
        return None
    per_second = work / benchmark.stats.stats.median
    benchmark.extra_info[f"{unit}_per_second"] = per_second
    return per_second


def report(benchmark, method, players, threads, per_second, unit):
    if per_second is None:
        return
    if threads == 1:
        SINGLE_THREAD_RATES[method, players] = per_second
    elif (method, players) in SINGLE_THREAD_RATES:
        speedup = per_second / SINGLE_THREAD_RATES[method, players]
        benchmark.extra_info["speedup_vs_1_thread"] = speedup
    print(f"\n{method} {players}p {threads} thread(s): {per_second:,.0f} {unit}/s")


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("players", PLAYERS)
def test_ismcts_iterations(benchmark, players, threads):
    sampler, codes = prepare_search(view(players))
    seat = view(players).seat

    def run():
        return search.ismcts(sampler, codes, seat, iterations=ITERATIONS, seconds=None,
                             threads=threads, seed=1, stop_when_separated=False).iterations

    assert benchmark.pedantic(run, rounds=5, warmup_rounds=1) == ITERATIONS
    report(benchmark, "ismcts", players, threads, rate(benchmark, ITERATIONS, "iterations"),
           "iterations")


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("players", PLAYERS)
def test_pimc_playouts(benchmark, players, threads):
    sampler, codes = prepare_search(view(players))
    seat = view(players).seat

    def run():
        return search.pimc(sampler, codes, seat, iterations=ITERATIONS, seconds=None,
                           threads=threads, seed=1, stop_when_separated=False).iterations

    playouts = benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    report(benchmark, "pimc", players, threads, rate(benchmark, playouts, "playouts"),
           "playouts")


@pytest.mark.parametrize("players", PLAYERS)
def test_determinizations(benchmark, players):
    sampler, _ = prepare_search(view(players))
    count = 20_000
    benchmark.pedantic(sampler.samples, (count, 1), rounds=5, warmup_rounds=1)
    per_second = rate(benchmark, count, "states")
    if per_second:
        print(f"\ndeterminizer {players}p: {per_second:,.0f} states/s (Python objects included)")


ENGINE_GAMES, REFERENCE_GAMES = 1000, 4
RANDOM_GAME_RATES = {}


@pytest.mark.parametrize("players", PLAYERS)
def test_reference_random_games(benchmark, players):
    benchmark.pedantic(reference_games, (players, False, REFERENCE_GAMES), rounds=5,
                       warmup_rounds=1)
    games = rate(benchmark, REFERENCE_GAMES, "games")
    if games:
        RANDOM_GAME_RATES[players] = games


@pytest.mark.parametrize("players", PLAYERS)
def test_engine_random_games(benchmark, players):
    benchmark.pedantic(K.random_games, (players, False, 0, ENGINE_GAMES), rounds=15,
                       warmup_rounds=1)
    games = rate(benchmark, ENGINE_GAMES, "games")
    reference = RANDOM_GAME_RATES.get(players)
    if games and reference:
        benchmark.extra_info["speedup_vs_reference"] = games / reference
        print(f"\nrandom games {players}p full: engine {games:,.0f}/s, reference "
              f"{reference:,.1f}/s, ratio {games / reference:,.0f}x")

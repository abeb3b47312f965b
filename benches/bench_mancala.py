"""Mancala kernel benchmarks (pytest-benchmark). Run:

    python -m pytest benches --benchmark-enable --benchmark-json=benches/results.json

Each benchmark stores its work count in ``extra_info`` so rates (leaves/s, nodes/s) can be
read from the JSON; compile time is excluded (a warm-up call runs before timing).
"""
from dataclasses import replace

import pytest

from solver.bench import mancala_positions
from solver.games.mancala import api as mancala
from solver.search.alphabeta import AlphaBeta

POSITIONS = [(p["name"], p["position"], p["capture_empty"]) for p in mancala_positions()]
IDS = [name for name, _, _ in POSITIONS]


@pytest.mark.parametrize("name,text,capture_empty", POSITIONS, ids=IDS)
def test_perft_depth_9(benchmark, name, text, capture_empty):
    pos = mancala.from_text(text)
    mancala.perft(replace(pos, capture_empty=capture_empty), 2)  # compile / load outside the timing
    leaves = benchmark(mancala.perft, pos, 9, capture_empty)
    benchmark.extra_info["leaves"] = leaves
    benchmark.extra_info["leaves_per_second"] = leaves / benchmark.stats.stats.median


@pytest.mark.parametrize("name,text,capture_empty", POSITIONS, ids=IDS)
def test_alphabeta_depth_16(benchmark, name, text, capture_empty):
    """Iterative deepening to 16 sowings with a fresh 64 MB table (its pages touched before the
    clock starts); nodes per second of the whole search, driver included."""
    state = mancala.to_packed(replace(mancala.from_text(text), capture_empty=capture_empty))
    engines = []

    def fresh_engine():
        engine = AlphaBeta(mancala.kernel_game(), 64)
        engine.clear_table()
        engines.append(engine)
        return (engine,), {}

    benchmark.pedantic(lambda engine: engine.iterate(state, max_depth=16), setup=fresh_engine,
                       rounds=5, warmup_rounds=1)
    nodes = engines[-1].nodes
    benchmark.extra_info["nodes"] = nodes
    benchmark.extra_info["nodes_per_second"] = nodes / benchmark.stats.stats.median


@pytest.mark.parametrize("pits,stones", [(5, 4), (6, 3)])
@pytest.mark.parametrize("capture_empty", [True, False])
def test_exact_solve_small_board(benchmark, pits, stones, capture_empty):
    rules = mancala.Rules(pits, stones, capture_empty)
    found = benchmark.pedantic(lambda: mancala.best_move(None, rules, exact=True, table_mb=256),
                               rounds=3, warmup_rounds=1)
    benchmark.extra_info.update(value=found.value, nodes=found.nodes,
                                nodes_per_second=found.nodes_per_second)
    assert found.exact

"""`solver bench`: fixed positions, deterministic node counts at one thread."""
import json

from solver import bench
from test_cli import run


def test_bench_node_count_is_a_deterministic_signature():
    first = bench.run_bench(["mancala"], depth=5)
    second = bench.run_bench(["mancala"], depth=5)
    assert first.nodes == second.nodes > 0
    assert [r.nodes for r in first.rows] == [r.nodes for r in second.rows]


def test_bench_covers_every_fixed_position_for_every_search():
    report = bench.run_bench(["mancala"], depth=3)
    names = [p["name"] for p in bench.mancala_positions()]
    for search in bench.SEARCHES["mancala"]:
        assert [r.position for r in report.rows if r.search == search.name] == names


def test_bench_cli_prints_the_footer_and_json():
    done = run("bench", "mancala", "--depth", "3")
    assert done.returncode == 0, done.stderr
    for label in ("Total nodes", "Nodes/second", "Search time", "Compile/load time"):
        assert label in done.stdout
    out = json.loads(run("bench", "mancala", "--depth", "3", "--json").stdout)
    assert out["total"]["nodes"] == bench.run_bench(["mancala"], depth=3).nodes


def test_monte_carlo_benches_cover_their_positions_with_fixed_budgets(monkeypatch):
    monkeypatch.setattr(bench, "FUNKEL_SAMPLES", 20)
    monkeypatch.setattr(bench, "FUNKEL_SIMULATIONS", 200)
    monkeypatch.setattr(bench, "TUNHELL_ITERATIONS", 300)
    first = bench.run_bench(["funkel", "tunhell"])
    again = bench.run_bench(["funkel", "tunhell"])
    assert [r.nodes for r in first.rows] == [r.nodes for r in again.rows]
    assert {(r.game, r.search) for r in first.rows} == {
        ("funkel", "mc"), ("funkel", "mcts"), ("tunhell", "pimc"), ("tunhell", "ismcts")}
    assert all(r.nodes >= 200 for r in first.rows if r.search in ("mcts", "pimc", "ismcts"))

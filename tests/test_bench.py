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

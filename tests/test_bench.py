"""`solver bench`: fixed positions, deterministic node counts at one thread."""
import json

from solver import bench
from solver import games as registry
from solver.games.funkel import commands as funkel_bench
from solver.games.tunhell import commands as tunhell_bench
from test_cli import run


def test_bench_node_count_is_a_deterministic_signature():
    first = bench.run_bench(["mancala"], depth=5)
    second = bench.run_bench(["mancala"], depth=5)
    assert first.nodes == second.nodes > 0
    assert [r.nodes for r in first.rows] == [r.nodes for r in second.rows]


def test_bench_covers_every_fixed_position_for_every_search():
    report = bench.run_bench(["mancala"], depth=3)
    names = [p["name"] for p in bench.mancala_positions()]
    for search in registry.get("mancala").command_bridge().bench_searches():
        assert [r.position for r in report.rows if r.search == search.name] == names


def test_bench_cli_prints_the_footer_and_json():
    done = run("bench", "mancala", "--depth", "3")
    assert done.returncode == 0, done.stderr
    for label in ("Total nodes", "Nodes/second", "Search time", "Compile/load time"):
        assert label in done.stdout
    out = json.loads(run("bench", "mancala", "--depth", "3", "--json").stdout)
    assert out["total"]["nodes"] == bench.run_bench(["mancala"], depth=3).nodes


def test_monte_carlo_benches_cover_their_positions_with_fixed_budgets(monkeypatch):
    monkeypatch.setattr(funkel_bench, "SAMPLES", 20)
    monkeypatch.setattr(funkel_bench, "SIMULATIONS", 200)
    monkeypatch.setattr(tunhell_bench, "ITERATIONS", 300)
    first = bench.run_bench(["funkel", "tunhell"])
    again = bench.run_bench(["funkel", "tunhell"])
    assert [r.nodes for r in first.rows] == [r.nodes for r in again.rows]
    assert {(r.game, r.search) for r in first.rows} == {
        ("funkel", "mc"), ("funkel", "mcts"), ("tunhell", "pimc"), ("tunhell", "ismcts")}
    assert all(r.nodes >= 200 for r in first.rows if r.search in ("mcts", "pimc", "ismcts"))


def test_every_report_carries_each_game_s_rules_version():
    report = bench.run_bench(["mancala"], depth=2)
    assert report.to_dict()["settings"]["rules_versions"] == {
        g.name: g.info.rules_version for g in registry.all_games()}
    assert report.table().startswith("rules_version: mancala 1")


def test_a_saved_run_is_a_baseline_that_flags_a_changed_signature(tmp_path):
    saved = tmp_path / "base.json"
    done = run("bench", "mancala", "--depth", "3", "--save", str(saved))
    assert done.returncode == 0, done.stderr
    same = json.loads(run("bench", "mancala", "--depth", "3", "--baseline", str(saved),
                          "--json").stdout)["baseline"]
    assert same["changed_signatures"] == 0 and all(r["ratio"] > 0 for r in same["rows"])
    deeper = run("bench", "mancala", "--depth", "4", "--baseline", str(saved))
    assert deeper.returncode == 0 and "! nodes" in deeper.stdout   # a deeper search: new nodes
    assert "median ratio" in deeper.stdout
    assert same["settings_changed"] == {} and same["missing"] == []
    assert "settings differ: depth was 3, now 4" in deeper.stdout    # and it says why


def test_a_baseline_row_the_run_lacks_is_named(tmp_path):
    saved = tmp_path / "base.json"
    assert run("bench", "mancala", "--depth", "2", "--save", str(saved)).returncode == 0
    report = json.loads(saved.read_text())
    report["rows"].append(dict(report["rows"][0], position="gone"))
    saved.write_text(json.dumps(report))
    out = json.loads(run("bench", "mancala", "--depth", "2", "--baseline", str(saved),
                         "--json").stdout)["baseline"]
    first = report["rows"][0]
    assert out["missing"] == [f"{first['game']}/{first['search']}/gone"]


def test_a_baseline_that_is_not_a_report_is_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not json")
    done = run("bench", "mancala", "--depth", "2", "--baseline", str(bad))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def _saved_rows(tmp_path):
    saved = tmp_path / "base.json"
    assert run("bench", "mancala", "--depth", "1", "--save", str(saved)).returncode == 0
    return saved, json.loads(saved.read_text())


def test_a_baseline_with_a_damaged_row_is_one_line_naming_the_row(tmp_path):
    saved, report = _saved_rows(tmp_path)
    damages = {"nodes": [1], "nodes_per_second": 10**400, "position": {"a": 1},
               "game": None}
    for key, value in damages.items():
        report["rows"][1] = dict(report["rows"][0], **{key: value})
        saved.write_text(json.dumps(report))
        done = run("bench", "mancala", "--depth", "1", "--baseline", str(saved))
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1 and f"row 2: {key} is not" in done.stderr


def test_a_file_the_run_could_not_write_is_refused_before_the_run(tmp_path):
    """Nothing measured is lost: --save and --plot paths are checked before any search."""
    for option, path in (("--save", tmp_path / "no-folder" / "x.json"), ("--save", tmp_path),
                         ("--baseline", tmp_path / "absent.json")):
        done = run("bench", "mancala", "--depth", "1", option, str(path))
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert done.stdout == ""         # refused before the bench printed anything
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_saved_run_is_written_whole(tmp_path):
    saved, report = _saved_rows(tmp_path)
    assert report["version"] == bench.BENCH_VERSION and report["rows"]
    assert [p.name for p in tmp_path.iterdir()] == ["base.json"]    # no temporary file left

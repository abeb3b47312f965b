"""The `solver` command, run for real in a subprocess."""
import json
import shutil
import subprocess
import sys

import pytest

from solver.games.mancala import api as mancala


def run(*args, timeout=120):
    """Run ``python -m solver ARGS``: the same entry point as the console script."""
    return subprocess.run([sys.executable, "-m", "solver", *args], capture_output=True,
                          text=True, timeout=timeout)


def assert_one_line_error(done):
    """Bad input: exit code 2, nothing on stdout, one ``solver: error:`` line on stderr."""
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("solver: error: "), done.stderr
    assert "Traceback" not in done.stderr


def run_with_broken_field(directory, position_file, game, field, value):
    """``solver best GAME`` on a copy of a JSON position whose ``field`` is set to ``value``."""
    broken = json.loads(position_file.read_text())
    broken[field] = value
    path = directory / "broken.json"
    path.write_text(json.dumps(broken))
    return run("best", game, str(path))


def run_json(*args):
    done = run(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_best_move_from_the_start_draws_the_board_and_names_the_move():
    done = run("best", "mancala", "--depth", "6")
    assert done.returncode == 0, done.stderr
    assert "4,4,4,4,4,4/4,4,4,4,4,4 0-0 A" in done.stdout
    assert "<- A to move" in done.stdout
    for label in ("best move:", "value:", "line:", "nodes:", "nodes/s:", "time:"):
        assert label in done.stdout


def test_the_text_counts_the_nodes_reached_and_expanded_as_the_json_does():
    text = run("best", "mancala", "--depth", "6").stdout
    out = run_json("best", "mancala", "--depth", "6")
    assert 0 < out["expanded"] < out["nodes"]
    assert f"nodes: {out['nodes']:,} ({out['expanded']:,} expanded)" in text


def test_a_proof_counts_the_nodes_reached_and_expanded_in_the_text_as_in_the_json():
    solve = ("solve", "mancala", "--pits", "4", "--stones", "3", "--no-tables")
    text = run(*solve).stdout
    out = run_json(*solve)
    assert 0 < out["expanded"] < out["nodes"]
    assert f"nodes: {out['nodes']:,} ({out['expanded']:,} expanded)" in text


@pytest.mark.parametrize("method", [(), ("--mcts", "--simulations", "200")])
def test_an_endgame_of_any_stone_count_is_searched_and_drawn(method):
    # 3 stones on a 6-pit board: no Kalah(6, n) starts with that many, yet it is a position
    done = run("best", "mancala", "0,0,0,0,0,2/1,0,0,0,0,0 0-0 A", *method)
    assert done.returncode == 0, done.stderr
    assert "<- A to move" in done.stdout and "best move: 6" in done.stdout


def test_best_json_has_the_documented_fields_and_agrees_with_the_api():
    out = run_json("best", "mancala", "4,4,4/4,4,4 0-0 A", "--exact", "--all-moves")
    for field in ("move", "value", "exact", "pv", "nodes", "seconds", "moves"):
        assert field in out
    assert out["exact"] is True
    api = mancala.best_move("4,4,4/4,4,4 0-0 A", exact=True, all_moves=True)
    assert (out["move"], out["value"]) == (api.move, api.value)
    assert {m["move"]: m["value"] for m in out["moves"]} == api.moves
    assert out["value"] == max(m["value"] for m in out["moves"])
    assert out["pv"][0] == out["move"]


def test_mcts_reports_every_root_move_and_is_reproducible_for_a_seed():
    args = ("best", "mancala", "--mcts", "--simulations", "3000", "--seed", "7")
    first, second = run_json(*args), run_json(*args)
    assert first["moves"] == second["moves"] and first["move"] == second["move"]
    assert sum(m["visits"] for m in first["moves"]) == first["simulations"] == 3000
    assert {m["move"] for m in first["moves"]} == {1, 2, 3, 4, 5, 6}
    assert first["simulations_per_second"] > 0
    done = run(*args)
    assert done.returncode == 0 and "simulations/s" in done.stdout


def test_no_capture_empty_changes_the_rules_used():
    out = run_json("best", "mancala", "1,0,0/0,0,5 0-0 A", "--no-capture-empty", "--exact")
    assert out["capture_empty"] is False
    assert out["value"] == mancala.best_move(
        "1,0,0/0,0,5 0-0 A", mancala.Rules(3, 1, False), exact=True).value


def test_pits_and_stones_pick_the_start_position():
    out = run_json("best", "mancala", "--pits", "4", "--stones", "2", "--exact")
    assert out["position"] == "2,2,2,2/2,2,2,2 0-0 A"


def test_perft_counts_match_the_api_and_divide_sums_to_the_total():
    start = mancala.new_game()
    out = run_json("perft", "mancala", "5", "--divide")
    assert out["nodes"] == mancala.perft(start, 5)
    assert sum(out["divide"].values()) == out["nodes"]
    done = run("perft", "mancala", "4,4,4/4,4,4 0-0 B", "3")
    assert done.returncode == 0, done.stderr
    assert f"perft(3) = {mancala.perft(mancala.from_text('4,4,4/4,4,4 0-0 B'), 3)}" in \
        done.stdout


BAD_INPUT = {
    "malformed": ["best", "mancala", "4,4,4,4"],
    "one group": ["best", "mancala", "4,4,4 0-0 A"],
    "unequal sides": ["best", "mancala", "4,4,4/4,4 0-0 A"],
    "wrong pits": ["best", "mancala", "4,4,4/4,4,4 0-0 A", "--pits", "6"],
    "negative": ["best", "mancala", "4,-4,4/4,4,4 0-0 A"],
    "not a number": ["best", "mancala", "4,x,4/4,4,4 0-0 A"],
    "stone count": ["best", "mancala", "4,4,4/4,4,4 0-0 A", "--stones", "3"],
    "too many stones": ["best", "mancala", "200,0,0/0,0,100 0-0 A"],
    "bad side": ["best", "mancala", "4,4,4/4,4,4 0-0 C"],
    "game over": ["best", "mancala", "0,0,0/1,2,3 10-8 A"],
    "two budgets": ["best", "mancala", "--depth", "3", "--time", "1"],
    "bad depth": ["best", "mancala", "--depth", "0"],
    "bad time": ["best", "mancala", "--time", "-1"],
    "unknown option": ["best", "mancala", "--fast"],
    "unknown game": ["best", "chess"],
    "too many pits": ["best", "mancala", "--pits", "9"],
    "perft depth": ["perft", "mancala", "-1"],
    "bench game": ["bench", "chess"],
    "mcts with depth": ["best", "mancala", "--mcts", "--depth", "3"],
    "simulations without mcts": ["best", "mancala", "--simulations", "10"],
    "mcts zero simulations": ["best", "mancala", "--mcts", "--simulations", "0"],
    "mcts zero threads": ["best", "mancala", "--mcts", "--threads", "0"],
    "bench depth": ["bench", "mancala", "--depth", "0"],
    "no command": [],
}


@pytest.mark.parametrize("args", BAD_INPUT.values(), ids=BAD_INPUT.keys())
def test_bad_input_is_one_line_on_stderr_and_exit_code_2(args):
    assert_one_line_error(run(*args))


@pytest.mark.skipif(shutil.which("solver") is None, reason="package not installed")
def test_console_script_is_installed():
    done = subprocess.run(["solver", "perft", "mancala", "2", "--json"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["nodes"] == 35


def test_everything_printed_reaches_a_file_before_the_command_leaves(tmp_path):
    """The command leaves with ``os._exit`` (no interpreter teardown): what it printed into a
    block-buffered file is still all there, and the exit code is kept."""
    answer = tmp_path / "answer.json"
    with answer.open("w") as out:
        done = subprocess.run([sys.executable, "-m", "solver", "perft", "mancala", "3",
                               "--divide", "--json"], stdout=out, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(answer.read_text())["nodes"] == 185
    with answer.open("w") as out:
        done = subprocess.run([sys.executable, "-m", "solver", "best", "mancala", "--pits",
                               "9"], stdout=out, stderr=subprocess.PIPE, text=True,
                              timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("solver: error: ")

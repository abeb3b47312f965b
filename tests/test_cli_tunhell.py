"""`solver new|best|play|match tunhell`, run for real in a subprocess."""
import pytest

from solver.games.tunhell import api as tunhell
from test_cli import assert_one_line_error, run, run_json, run_with_broken_field


@pytest.fixture
def position_file(tmp_path):
    path = tmp_path / "start.json"
    done = run("new", "tunhell", "--players", "3", "--seed", "6")
    assert done.returncode == 0, done.stderr
    path.write_text(done.stdout)
    return path


def test_new_prints_the_same_view_as_the_api():
    done = run("new", "tunhell", "--players", "4", "--intro", "--seed", "2", "--seat", "1")
    assert done.stdout.strip() == tunhell.new_position(4, True, 2, 1)


@pytest.mark.parametrize("method", ["ismcts", "pimc"])
def test_best_estimates_every_action_like_the_api(position_file, method):
    out = run_json("best", "tunhell", str(position_file), "--method", method,
                   "--iterations", "600", "--seed", "4")
    api = tunhell.best_action(position_file.read_text(), method=method, iterations=600, seed=4)
    assert out["best"] == api.best_name
    assert [m["samples"] for m in out["moves"]] == [m.samples for m in api.moves]
    for move in out["moves"]:
        if move["win_probability"] is not None:
            low, high = move["win_interval"]
            assert low <= move["win_probability"] <= high


def test_play_tells_the_game_turn_by_turn_to_its_result():
    turns = run_json("play", "tunhell", "--bots", "greedy,random", "--seed", "3")
    assert turns[-1]["result"] is not None and abs(sum(turns[-1]["result"]) - 1) < 1e-9
    assert all(t["result"] is None for t in turns[:-1])
    done = run("play", "tunhell", "--bots", "greedy,random", "--seed", "3")
    assert done.stdout.rstrip().splitlines()[-1].count("result") == 1


def test_match_reports_each_bot_with_an_interval():
    out = run_json("match", "tunhell", "--players", "2", "--intro", "--bots", "greedy,random",
                   "--games", "4")
    assert out["games"] == 4 and abs(sum(e["points"] for e in out["entrants"]) - 4) < 1e-9


BAD = {
    "missing file": ["best", "tunhell", "/no/such/file.json"],
    "not a position": ["best", "tunhell", "README.md"],
    "bad bot": ["play", "tunhell", "--bots", "random,oracle"],
    "players": ["new", "tunhell", "--players", "1"],
    "bad method": ["best", "tunhell", "x.json", "--method", "minimax"],
}


@pytest.mark.parametrize("args", BAD.values(), ids=BAD.keys())
def test_bad_tunhell_input_is_one_line_and_exit_code_2(args):
    assert_one_line_error(run(*args))


def test_a_field_error_names_the_field(tmp_path, position_file):
    done = run_with_broken_field(tmp_path, position_file, "tunhell", "seat", "first")
    assert_one_line_error(done)
    assert "seat" in done.stderr

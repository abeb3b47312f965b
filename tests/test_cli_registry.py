"""The commands every registered game gets from the registry, run for real in subprocesses:
Mancala's play, match and a person at the prompt, --version, new's seed, the checks every
option gets alike, and text tables that never make two rows look alike."""
import json
import subprocess
import sys

import pytest

from solver import games as registry
from solver.games import mancala as reference
from test_cli import assert_one_line_error, run


def test_version_names_the_package_and_every_rules_version():
    done = run("--version")
    assert done.returncode == 0
    for game in registry.all_games():
        assert f"{game.name} rules_version {game.info.rules_version}" in done.stdout


def test_play_mancala_prints_every_position_in_notation_that_best_accepts():
    done = run("play", "mancala", "--bots", "greedy,alphabeta:3", "--seed", "5")
    assert done.returncode == 0, done.stderr
    positions = [line[len("position: "):] for line in done.stdout.splitlines()
                 if line.startswith("position: ")]
    assert positions[0] == "4,4,4,4,4,4/4,4,4,4,4,4 0-0 A" and len(positions) > 10
    for text in positions[:-1]:    # each is a legal position of the game, in notation
        assert not reference.is_over(reference.from_text(text, reference.Rules()))
    assert run("best", "mancala", positions[len(positions) // 2], "--depth", "4").returncode == 0
    assert done.stdout.rstrip().splitlines()[-1].startswith("result: seat 0 ")


def test_play_mancala_json_frames_replay_under_the_rules():
    frames = json.loads(run("play", "mancala", "--pits", "4", "--stones", "3", "--bots",
                            "random,mcts:300", "--seed", "2", "--json").stdout)
    pos = reference.from_text(frames[0]["position"], reference.Rules(4, 3))
    for frame in frames[1:]:
        pos = reference.apply(pos, int(frame["action"]))
        assert reference.to_text(pos) == frame["position"]
    assert frames[-1]["result"] == list(reference.result(pos))


def test_match_mancala_alternates_colours_over_varied_openings():
    out = json.loads(run("match", "mancala", "--bots", "alphabeta:4,random", "--games", "6",
                         "--seed", "3", "--json").stdout)
    ab, rnd = out["entrants"]
    assert ab["games"] == rnd["games"] == 6 and ab["seat_games"] == [3, 3]
    assert ab["win_rate"] > rnd["win_rate"] and ab["mean_margin"] == -rnd["mean_margin"]
    low, high = ab["interval"]
    assert low <= ab["win_rate"] <= high
    again = json.loads(run("match", "mancala", "--bots", "alphabeta:4,random", "--games", "6",
                           "--seed", "3", "--json").stdout)
    assert again["entrants"] == out["entrants"]        # reproducible for a seed


def test_the_match_openings_differ_and_repeat_with_colours_swapped():
    from solver.games.mancala.bots import adapter
    from solver.match import deal_seed
    game = adapter(reference.Rules())
    starts = [game.new_game(deal_seed(7, g, 2), 2) for g in range(6)]
    assert starts[0] == starts[1] and starts[2] == starts[3] and starts[0] != starts[2]
    assert all(not reference.is_over(s) and sum(s.stores) + sum(s.pits) == 48 for s in starts)


def human_game(answers: str, *args, board=("--pits", "2", "--stones", "1")):
    return subprocess.run([sys.executable, "-m", "solver", "play", "mancala", *board, *args],
                          input=answers, capture_output=True, text=True, timeout=120)


def test_a_person_plays_a_side_and_a_bad_move_gets_the_prompt_again():
    done = human_game("9\nx\n1\n2\n1\n2\n", "--human", "0", "--bots", "greedy")
    assert done.returncode == 0, done.stderr
    complaints = [line for line in done.stderr.splitlines() if line.startswith("solver: ")]
    assert any("no bin 9" in line for line in complaints)
    assert any("is not a bin number" in line for line in complaints)
    assert "Traceback" not in done.stderr
    assert "result: seat 0" in done.stdout


def test_end_of_input_at_the_prompt_ends_the_game_cleanly():
    done = human_game("", "--human", "1", "--bots", "random", board=("--pits", "3"))
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "ended at the prompt" in done.stderr


def test_new_without_a_seed_deals_at_random_and_says_how_to_deal_it_again():
    first, second = run("new", "funkel"), run("new", "funkel")
    assert first.stdout != second.stdout
    seed = first.stderr.split("--seed ")[1].split()[0]
    assert run("new", "funkel", "--seed", seed).stdout == first.stdout
    out = json.loads(run("new", "tunhell", "--json").stdout)
    again = run("new", "tunhell", "--seed", str(out["seed"])).stdout
    assert json.loads(again) == out["position"]


@pytest.mark.parametrize("args", [
    ["best", "mancala", "--pits", "0", "--stones", "4"],
    ["best", "mancala", "--pits", "3", "--stones", "0"],
    ["best", "mancala", "--time", "inf"],
    ["best", "mancala", "--time", "nan"],
    ["best", "mancala", "--time", "-1"],
    ["best", "mancala", "--mcts", "--seed", str(2**61)],
    ["best", "mancala", "--mcts", "--simulations", "0"],
    ["new", "tunhell", "--seed", "-3"],
    ["new", "funkel", "--seed", "x"],
    ["new", "tunhell", "--players", "2", "--seat", "3"],
    ["match", "mancala", "--bots", "random,random", "--games", "0"],
    ["match", "mancala", "--bots", "alphabeta:inf,random", "--games", "2"],
    ["match", "mancala", "--bots", "alphabeta:0,random", "--games", "2"],
    ["play", "tunhell", "--bots", "alphabeta,random"],
    ["play", "mancala", "--bots", "random"],
    ["bench", "mancala", "--threads", "0"],
    ["tables", "info", "--pits", "9"],
    ["tables", "verify", "--pits", "0"],
    ["tables", "probe", "1,0/0,1 0-0 A", "--pits", "7"],
    ["best", "mancala", "--depth", "4", "--seed", "3"],
], ids=lambda a: " ".join(a))
def test_options_are_checked_alike_everywhere(args):
    assert_one_line_error(run(*args))


def test_alpha_beta_on_a_hidden_information_game_says_why():
    done = run("play", "tunhell", "--bots", "alphabeta,random")
    assert "cannot play tunhell" in done.stderr and "hides information" in done.stderr


def test_the_tunhell_table_never_cuts_two_names_alike(tmp_path):
    from solver.games.tunhell import commands
    long_names = ["fight with warrior-2+warrior-2+warrior-3 and digger (variant A)",
                  "fight with warrior-2+warrior-2+warrior-3 and digger (variant B)"]

    class Move:
        def __init__(self, name):
            self.name, self.action, self.value = name, name, 0.5
            self.win_interval, self.margin, self.margin_interval, self.samples = \
                (0.4, 0.6), 0.0, (-1.0, 1.0), 10

    class Found:
        seat, method, iterations, seconds, stopped = 0, "pimc", 20, 0.1, "budget"
        moves = [Move(n) for n in long_names]
        best, best_name = long_names[0], long_names[0]
    rows = commands.best_text(Found()).splitlines()[4:6]
    assert rows[0] != rows[1] and all(name in "\n".join(rows) for name in long_names)

"""`solver new|best|play|match funkel`, run for real in a subprocess."""
import json

import pytest

from solver.games.funkel import api as funkel
from test_cli import assert_one_line_error, run, run_json, run_with_broken_field


@pytest.fixture
def position_file(tmp_path):
    path = tmp_path / "start.json"
    done = run("new", "funkel", "--players", "3", "--seed", "5")
    assert done.returncode == 0, done.stderr
    path.write_text(done.stdout)
    return path


@pytest.mark.parametrize("option", [["--players", "2"], ["--layout", "pinwheel"],
                                    ["--layout", "crossing"]])
def test_a_rule_the_position_contradicts_is_refused_even_at_its_default(tmp_path, option):
    path = tmp_path / "crossing.json"            # 3 players on the crossing layout
    path.write_text(run("new", "funkel", "--players", "3", "--layout", "crossing",
                        "--seed", "5").stdout)
    done = run("best", "funkel", str(path), "--samples", "50", *option)
    if option == ["--layout", "crossing"]:       # what the position has: no contradiction
        assert done.returncode == 0, done.stderr
    else:
        assert_one_line_error(done)
        assert "a position carries its rules" in done.stderr


def test_new_prints_the_same_deal_as_the_api():
    done = run("new", "funkel", "--players", "4", "--layout", "crossing", "--seed", "9")
    assert done.stdout.strip() == funkel.new_position(4, "crossing", 9)


def test_best_estimates_every_push_with_an_interval(position_file):
    out = run_json("best", "funkel", str(position_file), "--samples", "300")
    api = funkel.estimate_moves(position_file.read_text(), samples=300)
    assert [m["win_rate_random_continuation"] for m in out["moves"]] == \
        [round(m.value, 6) for m in api.moves]
    for move in out["moves"]:
        low, high = move["interval"]
        assert low <= move["win_rate_random_continuation"] <= high
    assert out["best"] == funkel.describe(api.best)


def test_best_takes_the_position_itself_as_well_as_its_file(position_file):
    from_file = run_json("best", "funkel", str(position_file), "--samples", "200")
    inline = run_json("best", "funkel", position_file.read_text(), "--samples", "200")
    assert inline["moves"] == from_file["moves"] and inline["best"] == from_file["best"]
    assert_one_line_error(run("best", "funkel", '{"game": "funkel"', "--samples", "20"))


def test_best_by_mcts_is_reproducible_for_a_seed(position_file):
    args = ("best", "funkel", str(position_file), "--method", "mcts", "--samples", "800",
            "--seed", "3")
    first, second = run_json(*args), run_json(*args)
    assert first["moves"] == second["moves"] and first["method"] == "mcts"


def test_play_prints_positions_that_best_accepts(tmp_path):
    done = run("play", "funkel", "--players", "2", "--bots", "greedy,random", "--seed", "4")
    assert done.returncode == 0, done.stderr
    positions = [line[len("position: "):] for line in done.stdout.splitlines()
                 if line.startswith("position: ")]
    assert len(positions) > 2 and done.stdout.rstrip().splitlines()[-1].startswith("result:")
    middle = tmp_path / "middle.json"
    middle.write_text(positions[len(positions) // 2])
    assert run("best", "funkel", str(middle), "--samples", "50").returncode == 0


def test_match_reports_each_bot_with_an_interval():
    out = run_json("match", "funkel", "--players", "2", "--bots", "greedy,random", "--games", "6")
    assert out["games"] == 6 and [e["bot"] for e in out["entrants"]] == ["greedy", "random"]
    assert abs(sum(e["points"] for e in out["entrants"]) - 6) < 1e-9


BAD = {
    "missing file": ["best", "funkel", "/no/such/file.json"],
    "not a position": ["best", "funkel", "README.md"],
    "bad bot": ["play", "funkel", "--bots", "random,genius"],
    "bot count": ["match", "funkel", "--players", "3", "--bots", "random,random"],
    "players": ["new", "funkel", "--players", "5"],
    "layout": ["new", "funkel", "--layout", "spiral"],
}


@pytest.mark.parametrize("args", BAD.values(), ids=BAD.keys())
def test_bad_funkel_input_is_one_line_and_exit_code_2(args):
    assert_one_line_error(run(*args))


def test_a_field_error_names_the_field(tmp_path, position_file):
    done = run_with_broken_field(tmp_path, position_file, "funkel", "hands", "three")
    assert_one_line_error(done)
    assert "hands" in done.stderr


def test_an_unknown_field_is_named_once_and_an_empty_position_is_refused(position_file):
    doc = json.loads(position_file.read_text())
    done = run("best", "funkel", json.dumps(dict(doc, extra=1)), "--samples", "20")
    assert_one_line_error(done)
    assert "funkel position, field 'extra': is not a known field" in done.stderr
    for empty in ("", "  "):
        done = run("best", "funkel", empty, "--samples", "20")
        assert_one_line_error(done)
        assert "the position is empty" in done.stderr


# --- damaged files (issue 9): each gets one line naming what is wrong -----------------------------

def write_damaged(directory, position_file, damage) -> str:
    doc = json.loads(position_file.read_text())
    damage(doc)
    path = directory / "damaged.json"
    path.write_text(json.dumps(doc))
    return str(path)


DAMAGE = {
    "layout is an object": (lambda d: d["rules"].update(layout={"name": "pinwheel"}),
                            "rules.layout"),
    "type is a list": (lambda d: d.update(type=["view"]), "type"),
    "gem is a list": (lambda d: d.update(pending_gem=["blue"]), "pending_gem"),
    "max_pushes beyond 16 bits": (lambda d: d["rules"].update(max_pushes=65536),
                                  "rules.max_pushes"),
    "max_pushes of 5000 digits": (lambda d: d["rules"].update(max_pushes=10 ** 4000),
                                  "rules.max_pushes"),
    "rules_version true": (lambda d: d.update(rules_version=True), "rules_version"),
}


@pytest.mark.parametrize("damage, field", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_field_is_one_line_naming_it(tmp_path, position_file, damage, field):
    done = run("best", "funkel", write_damaged(tmp_path, position_file, damage))
    assert_one_line_error(done)
    assert field in done.stderr


def test_the_largest_max_pushes_the_kernel_holds_is_searched(tmp_path, position_file):
    path = write_damaged(tmp_path, position_file, lambda d: d["rules"].update(max_pushes=65535))
    out = run_json("best", "funkel", path, "--samples", "4")
    assert out["best"] in [m["action"] for m in out["moves"]]


@pytest.mark.parametrize("text", [b"\xff\xfe{}", b'{"game": "funkel\xe9"}', b"[" * 100_000,
                                  b"9" * 5000], ids=["not UTF-8", "latin-1 byte", "deep", "digits"])
def test_broken_text_is_one_line(tmp_path, text):
    path = tmp_path / "broken.json"
    path.write_bytes(text)
    assert_one_line_error(run("best", "funkel", str(path)))


def test_the_command_line_knows_every_bot_of_the_api_by_name():
    """Bot names are checked before the kernels load: the list must be the API's."""
    from solver.games.funkel import commands
    assert commands.BOT_KINDS == tuple(funkel.BOTS.factories)


def test_an_unknown_bot_is_one_line_naming_the_choices():
    done = run("match", "funkel", "--bots", "random,bogus", "--games", "1")
    assert_one_line_error(done)
    assert "unknown funkel bot 'bogus': choose random, greedy, mc, mcts, chance-mcts" in done.stderr

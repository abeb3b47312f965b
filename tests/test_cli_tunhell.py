"""`solver new|best|play|match tunhell`, run for real in a subprocess."""
import json
import random

import pytest

from solver.games import tunhell as reference
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
    counted = "visits" if method == "ismcts" else "samples"
    assert [m[counted] for m in out["moves"]] == [m.samples for m in api.moves]
    for move in out["moves"]:
        value = move[move["estimates"]]
        if value is not None:
            low, high = move["win_interval"]
            assert low <= value <= high


def test_best_takes_the_view_itself_as_well_as_its_file(position_file):
    args = ("--iterations", "300", "--seed", "4")
    from_file = run_json("best", "tunhell", str(position_file), *args)
    inline = run_json("best", "tunhell", " " + position_file.read_text(), *args)
    assert inline["moves"] == from_file["moves"] and inline["best"] == from_file["best"]
    assert_one_line_error(run("best", "tunhell", "{", *args))


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


# --- damaged and impossible views (issue 9): one line each, never a crash -----------------------

def view_in_phase(phase, players=2):
    """The mover's view of the first position in phase ``phase`` met in seeded random games."""
    for seed in range(500):
        rng = random.Random(seed)
        s = reference.new_game(reference.Rules(players), seed)
        while not reference.is_over(s):
            if s.phase == phase:
                return json.loads(reference.to_json(reference.information_set(s, s.to_move)))
            s = reference.apply(s, rng.choice(reference.legal_actions(s)), check=False)
    raise AssertionError(f"no {phase.name} met")


def move_from_hand(doc, card, to):
    """The viewer no longer holds ``card``: it lies on the pile ``to`` (cards stay conserved)."""
    seat = doc["seats"][doc["seat"]]
    doc["hand"].remove(card)
    if card in seat["known"]:
        seat["known"].remove(card)
    else:
        seat["hidden"] -= 1
    doc[to].append(card)


def fight_nobody_can_win(doc):
    """The mover's Warriors at the dig's mine go to the discard, the Digger's bonus is 0:
    the enemy cannot be beaten, yet the phase says fight."""
    mover = doc["seats"][doc["to_move"]]
    doc["dwarf_discard"] += mover["warriors"][doc["dig"]["mine"]]
    mover["warriors"][doc["dig"]["mine"]] = []
    if doc["dig"]["bonuses"]:
        doc["mine_discard"] += doc["dig"]["bonuses"]
        doc["dig"]["bonuses"] = []


def golden_heart_without_digger(doc):
    for card in [c for c in doc["hand"] if c.startswith("digger")]:
        move_from_hand(doc, card, "dwarf_discard")


IMPOSSIBLE = {
    "fight nobody can win": (reference.Phase.FIGHT, fight_nobody_can_win, "phase"),
    "golden heart without a Digger": (reference.Phase.GOLDEN_HEART, golden_heart_without_digger,
                                      "phase"),
    "turn of 2^31": (reference.Phase.TURN, lambda d: d.update(turn=2 ** 31), "turn"),
    "passes equal to the players": (reference.Phase.TURN, lambda d: d.update(passes=2), "passes"),
    "phase is a list": (reference.Phase.TURN, lambda d: d.update(phase=["turn"]), "phase"),
    "a card is a list": (reference.Phase.TURN, lambda d: d["center"].append(["dragon"]),
                         "center[5]"),
    "box of the wrong size": (reference.Phase.TURN, lambda d: d.update(box=11), "box"),
}


@pytest.mark.parametrize("phase, damage, field", IMPOSSIBLE.values(), ids=IMPOSSIBLE.keys())
@pytest.mark.parametrize("method", ["ismcts", "pimc"])
def test_an_impossible_view_is_one_line_naming_the_field(tmp_path, phase, damage, field, method):
    doc = view_in_phase(phase)
    damage(doc)
    path = tmp_path / "impossible.json"
    path.write_text(json.dumps(doc))
    done = run("best", "tunhell", str(path), "--method", method, "--iterations", "200")
    assert_one_line_error(done)
    assert field in done.stderr


def test_a_trophy_held_by_a_seat_without_dirt_is_refused(tmp_path):
    doc = view_in_phase(reference.Phase.TURN)
    doc["trophies"]["employee_of_the_month"] = 1
    doc["seats"][1]["loot"] = []
    path = tmp_path / "trophy.json"
    path.write_text(json.dumps(doc))
    done = run("best", "tunhell", str(path))
    assert_one_line_error(done)
    assert "trophies.employee_of_the_month" in done.stderr


def test_a_view_met_in_play_is_still_searched(tmp_path):
    for phase in (reference.Phase.FIGHT, reference.Phase.GOLDEN_HEART, reference.Phase.PLAY_NOW):
        path = tmp_path / f"{phase.name}.json"
        path.write_text(json.dumps(view_in_phase(phase)))
        out = run_json("best", "tunhell", str(path), "--iterations", "100")
        assert out["best"] in [m["action"] for m in out["moves"]]


@pytest.mark.parametrize("text", [b"\xff\xfe{}", b"[" * 100_000, b"9" * 5000, b"NaN"],
                         ids=["not UTF-8", "deep", "digits", "NaN"])
def test_broken_text_is_one_line(tmp_path, text):
    path = tmp_path / "broken.json"
    path.write_bytes(text)
    assert_one_line_error(run("best", "tunhell", str(path)))


# --- the rule option "the Digger may stop after any card" ----------------------------------------

def test_new_writes_the_dig_may_stop_option_into_the_position():
    doc = json.loads(run("new", "tunhell", "--dig-may-stop", "--seed", "5").stdout)
    assert doc["rules"] == {"players": 2, "intro": False, "dig_may_stop": True}
    plain = json.loads(run("new", "tunhell", "--seed", "5").stdout)
    assert plain["rules"]["dig_may_stop"] is False


def test_best_refuses_dig_may_stop_for_a_position_written_without_it(position_file):
    done = run("best", "tunhell", str(position_file), "--dig-may-stop", "--iterations", "100")
    assert_one_line_error(done)
    assert "dig_may_stop" in done.stderr


@pytest.mark.parametrize("switch", ["--intro", "--dig-may-stop"])
def test_a_position_written_under_a_rule_switch_is_searched_without_repeating_it(tmp_path,
                                                                                   switch):
    path = tmp_path / "view.json"
    path.write_text(run("new", "tunhell", switch, "--seed", "3").stdout)
    out = run_json("best", "tunhell", str(path), "--iterations", "50")
    assert out["moves"] and sum(m["visits"] for m in out["moves"]) == 50


def test_best_answers_the_digs_question_under_the_option(tmp_path):
    for seed in range(200):
        rng = random.Random(seed)
        s = reference.new_game(reference.Rules(2, dig_may_stop=True), seed)
        while not reference.is_over(s) and s.phase != reference.Phase.DIG_ON:
            s = reference.apply(s, rng.choice(reference.legal_actions(s)), check=False)
        if s.phase == reference.Phase.DIG_ON:
            break
    path = tmp_path / "dig_on.json"
    path.write_text(reference.to_json(reference.information_set(s, s.to_move)))
    out = run_json("best", "tunhell", str(path), "--dig-may-stop", "--iterations", "400")
    assert [m["action"] for m in out["moves"]] == ["dig on", "stop digging"]
    assert sum(m["visits"] for m in out["moves"]) > 0

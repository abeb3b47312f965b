"""The Python API given what no one should give it (the findings of the twenty-second
session's API fuzz campaign): each is an ``InputError`` with one line, never an
AttributeError, a TypeError or an OSError from deep inside, and never a crash."""
import subprocess
import sys

import numpy as np
import pytest

import solver
import solver.games.tunhell as tunhell_rules
from solver import InputError
from tables.errors import TableError

mancala = solver.mancala
SMALL = "2,2/2,2 0-0 A"


@pytest.mark.parametrize("call", [lambda: solver.tables.info(3),
                                  lambda: solver.tables.family(7),
                                  lambda: solver.tables.load_for_search("/dev/null")])
def test_a_bad_table_request_is_an_input_error_and_still_a_table_error(call):
    with pytest.raises(InputError) as raised:
        call()
    assert isinstance(raised.value, TableError)     # what the tables package says it raises


def test_tables_with_no_levels_can_be_shown_and_read(tmp_path):
    # in a child process: the former data was a reserved page whose read killed the interpreter
    done = subprocess.run([sys.executable, "-c", f"""
import solver
found = solver.tables.load_for_search({str(tmp_path)!r}, True, None, 2)
print(found.max_level, int(found.data.sum()), repr(found).startswith('SearchTables('))
"""], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "0", "True"]


@pytest.mark.parametrize("rule", ["legal_actions", "is_over", "result", "to_text", "draw",
                                  "current_player"])
@pytest.mark.parametrize("bad", [SMALL, None, 3])
def test_a_mancala_rule_given_no_position_says_so(rule, bad):
    with pytest.raises(InputError, match="a Mancala position is a Position"):
        getattr(mancala, rule)(bad)


def test_apply_given_text_says_a_position_is_wanted():
    with pytest.raises(InputError, match="a Mancala position is a Position"):
        mancala.apply(SMALL, 1)


@pytest.mark.parametrize("move", [True, 1.0, np.float64(1.0), np.array(2), "1"])
def test_a_move_is_a_whole_number_not_a_bool_float_or_array(move):
    with pytest.raises(InputError, match="a move is a bin number"):
        mancala.apply(mancala.from_text(SMALL), move)


def test_a_numpy_integer_move_is_a_move():
    assert mancala.to_text(mancala.apply(mancala.from_text(SMALL), np.int64(1))) == \
        "0,3/2,2 1-0 A"


@pytest.mark.parametrize("tables, says", [
    (3, "a table folder is a path"),
    ("/dev/null", "is not a directory"),
    ("d" * 5000, "File name too long"),
])
def test_a_table_folder_the_system_refuses_is_an_input_error(tables, says):
    with pytest.raises(InputError, match=says):
        mancala.best_move(SMALL, exact=True, tables=tables)


@pytest.mark.parametrize("checkpoint, says", [
    (5, "a checkpoint is a file's path, got int"),
    ("a\x00b", "embedded null byte"),
    ("c" * 5000, "File name too long"),
])
def test_a_checkpoint_path_the_system_refuses_is_an_input_error(checkpoint, says):
    with pytest.raises(InputError, match=says):
        mancala.solve(solver.MancalaRules(2, 1), tables=False, checkpoint=checkpoint)


def test_a_tunhell_state_the_engine_cannot_hold_is_an_input_error():
    state = tunhell_rules.new_game(tunhell_rules.Rules(2), 1)
    state.passes = 200      # the rules' checks allow it; the packed engine holds 0..127
    with pytest.raises(InputError, match="passes: 200 does not fit the engine"):
        solver.tunhell.best_action(state, iterations=20)


@pytest.mark.parametrize("seed", [1.5, -1, [1]])
def test_prepare_search_checks_its_seed(seed):
    info = solver.tunhell.read_position(tunhell_rules.new_game(tunhell_rules.Rules(2), 1))
    with pytest.raises(InputError, match="seed must be a whole number"):
        solver.tunhell.prepare_search(info, seed)


def test_a_funkel_state_whose_counts_do_not_fit_is_refused_not_packed_wrong():
    import dataclasses
    state = solver.funkel.read_position(solver.funkel.new_position(2, seed=1))
    with pytest.raises(InputError, match="hands"):
        solver.funkel.packed(dataclasses.replace(state, hands=(300,) + state.hands[1:]))


@pytest.mark.parametrize("game, options, says", [
    ("funkel", dict(players=None), "funkel rules need players"),
    ("tunhell", dict(colour=1), "tunhell rules have no colour"),
])
def test_the_registry_s_rules_name_a_missing_or_unknown_field(game, options, says):
    with pytest.raises(InputError, match=says):
        solver.games.get(game).rules(**options)


@pytest.mark.parametrize("words", [None, np.array([2]), "x" * 100])
def test_funkel_reference_of_takes_packed_words_only(words):
    with pytest.raises(InputError, match="reference_of\\(\\) takes the words packed\\(\\) returns"):
        solver.funkel.reference_of(words)


@pytest.mark.parametrize("call, says", [
    (lambda: solver.funkel.play_game(2, None), "bots are a list, one per seat, got NoneType"),
    (lambda: solver.tunhell.play_game(2, ["random", None]),
     "the bot at seat 1 is a name or a callable"),
    (lambda: solver.funkel.play_game(2, ["random", lambda view, seat, rng: "nonsense"]),
     "chose 'nonsense', which is not legal"),
    (lambda: solver.funkel.match(2, ["random", "random"], 2, on_game=5),
     "on_game is a callable or None"),
])
def test_bots_and_callbacks_that_are_not_are_input_errors(call, says):
    with pytest.raises(InputError, match=says):
        call()


@pytest.mark.parametrize("call", [
    lambda: solver.games.get("funkel").reference().Rules(2, layout=["pinwheel"]),
    lambda: solver.funkel.new_position(2, layout=np.array(2)),
    lambda: solver.funkel.estimate_moves(solver.funkel.new_position(2, seed=1),
                                         rollout=["random"], samples=10),
])
def test_a_choice_given_as_a_list_or_array_is_an_input_error_not_unhashable(call):
    with pytest.raises(InputError, match="unknown"):
        call()


@pytest.mark.parametrize("flag", [dict(exact="no"), dict(all_moves=1), dict(exact=None)])
def test_an_on_off_argument_is_true_or_false_not_anything_truthy(flag):
    with pytest.raises(InputError, match="must be True or False"):
        mancala.best_move(SMALL, **flag)


def test_funkel_rules_hidden_shafts_is_true_or_false():
    with pytest.raises(InputError, match="hidden_shafts must be True or False"):
        solver.games.get("funkel").reference().Rules(2, hidden_shafts="no")


@pytest.mark.parametrize("call", [
    lambda: solver.funkel.new_position(view="no"),
    lambda: solver.funkel.estimate_moves(solver.funkel.new_position(seed=1), samples=2,
                                         stop_when_separated="no"),
    lambda: solver.tunhell.best_action(solver.tunhell.new_position(seed=1), iterations=2,
                                       stop_when_separated=1),
    lambda: solver.tunhell.adapter(intro="no"),
    lambda: solver.tunhell.adapter(dig_may_stop=[]),
])
def test_funkel_and_tunhell_on_off_arguments_are_true_or_false(call):
    with pytest.raises(InputError, match="must be True or False"):
        call()


HUGE = 10**5000     # beyond what Python will print as digits (4,300): a message must not try


@pytest.mark.parametrize("call", [
    lambda: mancala.best_move(SMALL, depth=HUGE),
    lambda: mancala.best_move(SMALL, seconds=HUGE),
    lambda: mancala.Rules(HUGE, 4),
    lambda: solver.MancalaPosition((HUGE, 0, 0, 1), (0, 0), 0),
    lambda: mancala.apply(mancala.new_game(), HUGE),
    lambda: mancala.perft(mancala.new_game(), HUGE),
    lambda: mcts_best_move(SMALL, simulations=HUGE),
    lambda: mcts_best_move(SMALL, simulations=10, seed=HUGE),
    lambda: mcts_best_move(SMALL, simulations=10, threads=HUGE),
    lambda: mcts_best_move(SMALL, simulations=10, c=HUGE),
    lambda: solver.funkel.estimate_moves(solver.funkel.new_position(seed=1), seat=HUGE),
    lambda: solver.tunhell.best_action(solver.tunhell.new_position(seed=1), seat=HUGE),
    lambda: solver.tables.build_for_search(HUGE),
])
def test_a_whole_number_too_long_to_print_is_an_input_error_naming_its_size(call):
    with pytest.raises(InputError) as raised:
        call()
    assert "a whole number of 16,610 bits" in str(raised.value)
    assert len(str(raised.value)) < 200


def test_an_api_message_quoting_a_huge_value_shows_its_two_ends():
    with pytest.raises(InputError) as raised:
        mancala.best_move(SMALL, depth="x" * 100_000)
    assert "(100,002 characters)" in str(raised.value) and len(str(raised.value)) < 200


@pytest.mark.parametrize("c", [-1.0, float("nan"), float("inf"), "1", True])
def test_the_mcts_exploration_constant_is_a_finite_number(c):
    with pytest.raises(InputError, match="exploration constant"):
        mcts_best_move(SMALL, simulations=10, c=c)


def mcts_best_move(*args, **kwargs):
    from solver.games.mancala.mcts import mcts_best_move as search
    return search(*args, **kwargs)

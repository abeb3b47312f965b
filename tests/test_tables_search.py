"""Endgame tables inside the search: the same exact values with and without them, and the
commands that build, check, probe and use them (run for real in subprocesses)."""
import json
import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from solver.games.mancala import api as mancala
from solver.errors import InputError
from solver.games import mancala as reference
from solver.search.alphabeta import AlphaBeta
from solver import tables as api
from tables.format import Family, level_filename, read_body, write_table
from tables.index import level_size
from test_alphabeta import random_position
from test_cli import run, run_json

TOP = 9


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tables")
    for capture_empty in (True, False):
        api.build(TOP, directory, capture_empty=capture_empty)
    return directory


def engines(directory, capture_empty):
    rules = mancala.Rules(6, 4, capture_empty)
    tables = mancala.endgame_tables(directory, rules, required=True)
    return (AlphaBeta(mancala.kernel_game(with_tables=True), 8, tables),
            AlphaBeta(mancala.kernel_game(), 8))


@pytest.mark.parametrize("capture_empty", [True, False])
def test_probing_tables_changes_no_exact_value(built, rng, capture_empty):
    with_tables, without = engines(built, capture_empty)
    for _ in range(40):
        pos = random_position(rng, 6, rng.randrange(TOP, TOP + 6))
        state = mancala.to_packed(replace(pos, capture_empty=capture_empty))
        assert with_tables.solve(state).value == without.solve(state).value, str(pos)
    assert with_tables.table_hits > 0


@pytest.mark.parametrize("capture_empty", [True, False])
def test_with_tables_enhanced_cutoffs_are_off_and_would_change_no_value(built, rng,
                                                                         capture_empty):
    """A search given tables tries no enhanced transposition cutoffs (they cost more than they
    save there, benches/README.md); forced back on, they give the same values."""
    from kernels import alphabeta_layout as layout
    default, _ = engines(built, capture_empty)
    forced, _ = engines(built, capture_empty)
    forced.stats[layout.ETC_SWING] = 0
    cutoffs = {"default": 0, "forced": 0}
    for _ in range(20):
        pos = random_position(rng, 6, rng.randrange(TOP + 4, TOP + 10))
        state = mancala.to_packed(replace(pos, capture_empty=capture_empty))
        assert default.solve(state).value == forced.solve(state).value
        cutoffs["default"] += int(default.stats[layout.ETC_CUTOFFS])
        cutoffs["forced"] += int(forced.stats[layout.ETC_CUTOFFS])
    assert cutoffs["default"] == 0 < cutoffs["forced"]


def test_levels_probed_in_their_files_or_in_memory_give_the_same_search(built, rng,
                                                                       monkeypatch):
    """Small level sets are copied into memory for a search (tables.api.RESIDENT_BYTES),
    larger ones probed where they are mapped: the same values and the same nodes."""
    from tables import api as tables_api
    rules = mancala.Rules(6, 4, True)
    copied = mancala.endgame_tables(built, rules, required=True)
    monkeypatch.setattr(tables_api, "RESIDENT_BYTES", 0)
    mapped = mancala.endgame_tables(built, rules, required=True)
    assert not np.shares_memory(copied.data, mapped.data)
    hits = 0
    for _ in range(20):
        state = mancala.to_packed(random_position(rng, 6, rng.randrange(TOP, TOP + 6)))
        found = []
        for tables in (copied, mapped):
            engine = AlphaBeta(mancala.kernel_game(with_tables=True), 8, tables)
            found.append((engine.solve(state).value, engine.nodes, engine.table_hits))
        assert found[0] == found[1]
        hits += found[0][2]
    assert hits > 0


def test_a_position_inside_the_tables_is_answered_by_a_lookup(built):
    found = mancala.best_move("0,2,0,1,3,0/1,0,0,0,0,0 18-23 A", exact=True, tables=built)
    assert found.table_levels == TOP and found.table_hits >= 1
    assert found.value == mancala.best_move("0,2,0,1,3,0/1,0,0,0,0,0 18-23 A", exact=True,
                                            tables=False).value


def test_asking_for_tables_that_are_not_built_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="build them"):
        mancala.best_move(exact=True, tables=tmp_path)
    with pytest.raises(InputError, match="no 4-pit capture-empty tables"):
        mancala.best_move(rules=mancala.Rules(4, 3), exact=True, tables=tmp_path)


@pytest.mark.parametrize("pits,stones", [(3, 3), (4, 2), (2, 4)])
def test_every_board_solves_with_its_tables_to_the_same_values(tmp_path, pits, stones):
    for capture_empty in (True, False):
        api.build(2 * pits * stones - 2, tmp_path, capture_empty, pits=pits)
        rules = mancala.Rules(pits, stones, capture_empty)
        with_tables = mancala.solve(rules, tables=tmp_path)
        assert with_tables.table_levels == 2 * pits * stones - 2
        assert proven_values(with_tables) == proven_values(mancala.solve(rules, tables=False))


def proven_values(proof):
    """The values a proof establishes (its optimal replies may differ where several are)."""
    return proof.value, proof.move, [(line.name, line.value) for o in proof.openings
                                     for line in [o] + o.continuations]


def test_solving_with_tables_agrees_with_solving_without(built):
    rules = mancala.Rules(6, 1)
    assert proven_values(mancala.solve(rules, tables=built)) == \
        proven_values(mancala.solve(rules, tables=False))


def test_solve_lists_every_opening_with_its_value():
    found = mancala.solve(mancala.Rules(3, 3), tables=False)
    start = reference.new_game(mancala.Rules(3, 3))
    assert [o.move for o in found.openings] == reference.legal_actions(start)
    assert found.value == max(o.value for o in found.openings)
    assert found.move in [o.move for o in found.openings if o.value == found.value]


# --- the commands ---------------------------------------------------------------------------

def test_build_info_verify_probe_commands(tmp_path):
    directory = str(tmp_path)
    out = run_json("tables", "build", "mancala", "--max-stones", "6", "--dir", directory)
    assert out["built"] == [1, 2, 3, 4, 5, 6]
    again = run_json("tables", "build", "mancala", "--max-stones", "6", "--dir", directory)
    assert again["built"] == [] and again["loaded"] == [1, 2, 3, 4, 5, 6]
    listing = run_json("tables", "info", "--dir", directory)
    assert sorted(f["level"] for f in listing["files"]) == [1, 2, 3, 4, 5, 6]
    checked = run_json("tables", "verify", "--dir", directory, "--sample", "20", "--seed", "1")
    assert checked["ok"] and checked["samples"] == 20
    probed = run_json("tables", "probe", "1,0,2,0,0,0/0,1,0,0,2,0 5-9 B", "--dir", directory)
    exact = mancala.best_move("1,0,2,0,0,0/0,1,0,0,2,0 5-9 B", exact=True, tables=False)
    assert probed["value"] == exact.value
    solved = run_json("best", "mancala", "1,0,2,0,0,0/0,1,0,0,2,0 5-9 B", "--exact", "--tables",
                      directory)
    assert solved["value"] == exact.value


def test_the_commands_take_every_board(tmp_path):
    directory = str(tmp_path)
    out = run_json("tables", "build", "mancala", "--pits", "3", "--max-stones", "8",
                   "--no-capture-empty", "--dir", directory)
    assert out["built"] == list(range(1, 9)) and out["pits"] == 3
    listing = run_json("tables", "info", "--pits", "3", "--dir", directory)
    assert {(f["pits"], f["capture_empty"]) for f in listing["files"]} == {(3, False)}
    assert run_json("tables", "verify", "--pits", "3", "--dir", directory, "--sample", "10",
                    "--seed", "3")["ok"]
    position = "2,0,1/1,1,3 4-5 A"
    probed = run_json("tables", "probe", position, "--no-capture-empty", "--dir", directory)
    exact = mancala.best_move(position, rules=mancala.Rules(3, 4, False), exact=True,
                              tables=False)
    assert probed["value"] == exact.value and probed["pits"] == 3
    solved = run_json("solve", "mancala", "--pits", "3", "--stones", "2", "--no-capture-empty",
                      "--tables", directory)
    assert solved["value"] == mancala.solve(mancala.Rules(3, 2, False), tables=False).value
    best = run_json("best", "mancala", position, "--pits", "3", "--no-capture-empty", "--exact",
                    "--tables", directory)
    assert best["value"] == exact.value and best["table_levels"] == 8
    refused = run("tables", "build", "mancala", "--pits", "7", "--max-stones", "3", "--dir",
                  directory)
    assert refused.returncode == 2
    assert refused.stderr.startswith("solver: error: argument --pits: pits per side must be 1..6")


def test_verify_fails_on_a_wrong_entry_and_refuses_a_corrupted_file(built, tmp_path):
    for path in built.glob("*.tbl"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    six = Family(6, True, 1)
    wrong = tmp_path / level_filename(2, six)
    body = np.array(read_body(wrong, 2, six))
    write_table(wrong, 2, six, body + np.int8(1))  # a sound file with wrong values
    done = run("tables", "verify", "--dir", str(tmp_path), "--sample", "60", "--seed", "2")
    assert done.returncode == 1 and "MISMATCH" in done.stdout
    data = bytearray(wrong.read_bytes())
    data[-1] ^= 0x10
    wrong.write_bytes(bytes(data))
    done = run("tables", "verify", "--dir", str(tmp_path))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_solve_command_prints_the_openings():
    out = run_json("solve", "mancala", "--pits", "3", "--stones", "2", "--no-tables")
    assert out["value"] == mancala.solve(mancala.Rules(3, 2), tables=False).value
    assert len(out["openings"]) == 3


# --- tables computed in memory for one search (memory_tables, --memory-tables) --------------------

def test_levels_computed_in_memory_are_the_levels_a_build_writes(built):
    computed = api.build_for_search(TOP, capture_empty=False)
    written = api.load_for_search(built, capture_empty=False)
    assert computed.max_level == written.max_level == TOP
    for level in range(1, TOP + 1):     # offsets[level + 1]: where the level's values start
        size = level_size(level)
        assert np.array_equal(computed.data[computed.offsets[level + 1]:][:size],
                              written.data[written.offsets[level + 1]:][:size]), level


@pytest.mark.parametrize("capture_empty", [True, False])
def test_solving_with_levels_computed_in_memory_changes_no_exact_value(rng, capture_empty):
    rules = mancala.Rules(6, 4, capture_empty)
    hits = 0
    for threads in (1, 2):
        for _ in range(6):
            pos = replace(random_position(rng, 6, rng.randrange(12, 20)),
                          capture_empty=capture_empty)
            levels = rng.randrange(1, 16)
            found = mancala.best_move(pos, rules, exact=True, memory_tables=levels,
                                      threads=threads)
            assert found.value == mancala.best_move(pos, rules, exact=True, tables=False).value
            assert found.table_levels == min(levels, sum(pos.pits))
            assert found.table_build_seconds > 0
            hits += found.table_hits
    assert hits > 0


def test_a_whole_game_solved_with_levels_computed_in_memory_proves_the_same_values():
    rules = mancala.Rules(3, 3)
    found = mancala.solve(rules, memory_tables=12)
    assert found.table_levels == 12 and found.table_build_seconds > 0
    assert proven_values(found) == proven_values(mancala.solve(rules, tables=False))


@pytest.mark.parametrize("asked, says", [
    (dict(depth=3), "goes with an exact solve"),
    (dict(exact=True, tables=True), r"table files \(tables, --tables\) and tables computed "
                                    "in memory .* contradict each other"),
    (dict(exact=True, tables=False), r"no tables \(tables=False, --no-tables\) and tables "
                                     "computed in memory .* contradict each other"),
    (dict(exact=True, memory_tables=0), "memory_tables must be"),
    (dict(exact=True, memory_tables=31), "memory_tables must be"),
    (dict(exact=True, memory_tables=True), "memory_tables must be"),
    (dict(exact=True, memory_tables=2.5), "memory_tables must be"),
])
def test_a_bad_memory_tables_request_is_an_input_error(asked, says):
    with pytest.raises(InputError, match=says):
        mancala.best_move(**({"memory_tables": 8} | asked))


def test_levels_larger_than_the_memory_available_are_refused_before_any_is_computed():
    with pytest.raises(InputError, match="more than half the"):
        api.build_for_search(48)


def test_a_cluster_solve_takes_no_levels_computed_in_memory():
    with pytest.raises(InputError, match="not on a cluster"):
        mancala.solve(mancala.Rules(3, 3), memory_tables=8, scheduler="tcp://127.0.0.1:1")


# --- levels computed in memory without being asked (no table files, a large exact search) -----

@pytest.mark.parametrize("position, levels", [
    ("4,4,4,4,4,4/4,4,4,4,4,4 0-0 A", 18),      # Kalah(6,4)'s start: 48 stones in the pits
    ("4,4,4,4,4,4/4,4,4,4,4,0 4-0 B", 16),
    ("4,4,4,4,4,4/4,4,4,4,3,0 5-0 B", None),    # 43: too few on six pits
    ("5,5,5,5,5/5,5,5,5,5 0-0 A", 18),           # Kalah(5,5)
    ("9,9,9,9,9/0,0,0,0,1 0-0 A", 18),           # 46: the fewest on five pits
    ("9,9,9,9,8/0,0,0,0,1 0-0 A", None),
    ("6,6,6,6/6,6,6,6 0-0 A", None),             # four pits: never
    ("23/23 0-0 A", None),
])
def test_an_exact_search_of_many_stones_gets_levels_computed_in_memory(position, levels):
    assert mancala.automatic_levels(mancala.from_text(position)) == levels


@pytest.fixture
def no_table_files(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))


QUICK_44 = "0,0,0,0,1,42/0,0,0,0,0,1 0-0 A"    # 44 stones in the pits, 47 nodes to solve
HARD_44 = "5,13,5,6,7,2/2,0,1,0,2,1 2-2 A"     # 44 too, about 3 M nodes without tables


def test_without_table_files_a_large_exact_search_computes_its_levels(no_table_files):
    found = mancala.best_move(HARD_44, exact=True)
    assert found.table_levels == 16 and found.table_build_seconds > 0
    assert found.value == mancala.best_move(HARD_44, exact=True, tables=False).value


def test_a_position_proven_in_a_few_nodes_is_answered_before_any_level_is_computed(
        no_table_files):
    assert mancala.automatic_levels(mancala.from_text(QUICK_44)) == 16
    found = mancala.best_move(QUICK_44, exact=True)
    assert found.table_levels == 0 and found.table_build_seconds is None
    assert found.nodes <= mancala.QUICK_TRY_NODES
    assert (found.value, found.move) == (42, 5)
    assert found.value == mancala.best_move(QUICK_44, exact=True, tables=False).value


@pytest.mark.slow
def test_without_table_files_a_whole_game_solve_computes_its_levels(no_table_files):
    rules = mancala.Rules(6, 4)
    solved = mancala.solve(rules)
    assert solved.table_levels == 18 and solved.table_build_seconds > 0
    assert proven_values(solved) == proven_values(mancala.solve(rules, tables=False))


@pytest.mark.parametrize("asked", [dict(tables=False), dict(max_seconds=60),
                                   dict(max_nodes=10**9)])
def test_no_tables_or_a_budget_computes_no_levels(no_table_files, asked):
    found = mancala.best_move(QUICK_44, exact=True, **asked)
    assert found.table_levels == 0 and found.table_build_seconds is None


def test_a_budgeted_whole_game_solve_computes_no_levels(no_table_files):
    stopped = mancala.solve(mancala.Rules(6, 4), max_nodes=1000)
    assert stopped.table_levels == 0 and stopped.table_build_seconds is None


def test_table_files_found_are_used_rather_than_levels_computed(no_table_files):
    api.build(4, pits=6)                  # into the default folder, now the test's own
    found = mancala.best_move(QUICK_44, exact=True)
    assert found.table_levels == 4 and found.table_build_seconds is None


def test_the_exact_bot_computes_its_levels_once_without_table_files(no_table_files):
    import random
    from solver.games.mancala.bots import AlphaBetaBot
    bot, pos = AlphaBetaBot(exact=True), mancala.from_text(HARD_44)
    move = bot(pos, pos.to_move, random.Random(0))
    tables = bot.tables[(pos.m, pos.capture_empty)]
    assert tables is not None and tables.max_swing == 16

    def value(position):        # exact, with the bot's levels, in a fresh table
        engine = AlphaBeta(mancala.kernel_game(with_tables=True), 64, tables)
        return engine.solve(mancala.to_packed(position)).value
    after = reference.apply(pos, move)
    assert not reference.is_over(after) and len(reference.legal_actions(after)) > 1
    sign = 1 if after.to_move == pos.to_move else -1
    assert sign * value(after) == value(pos)                              # an optimal move
    bot(after, after.to_move, random.Random(0))
    assert bot.tables[(pos.m, pos.capture_empty)] is tables              # not computed again


def test_the_exact_bot_plays_a_position_proven_at_once_without_computing_levels(
        no_table_files):
    import random
    from solver.games.mancala.bots import AlphaBetaBot
    bot, pos = AlphaBetaBot(exact=True), mancala.from_text(QUICK_44)
    assert bot(pos, pos.to_move, random.Random(0)) == mancala.best_move(
        QUICK_44, exact=True, tables=False).move
    assert bot.tables == {}


def test_the_command_computes_levels_without_table_files(tmp_path):
    environment = os.environ | {"XDG_DATA_HOME": str(tmp_path)}

    def best(*options):
        done = subprocess.run([sys.executable, "-m", "solver", "best", "mancala", HARD_44,
                               "--exact", "--json", *options], capture_output=True, text=True,
                              timeout=120, env=environment)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)
    found = best()
    assert found["table_levels"] == 16 and found["table_build_seconds"] > 0
    assert best("--no-tables")["table_levels"] == 0


def test_the_commands_compute_levels_in_memory_when_asked():
    position = "2,0,1,3/1,1,3,0 4-9 A"
    exact = mancala.best_move(position, exact=True, tables=False)
    best = run_json("best", "mancala", position, "--exact", "--memory-tables", "9")
    assert best["value"] == exact.value and best["table_levels"] == 9
    assert best["table_build_seconds"] > 0
    text = run("best", "mancala", position, "--exact", "--memory-tables", "9")
    assert "endgame tables: levels 1..9 (computed in memory in " in text.stdout
    solved = run_json("solve", "mancala", "--pits", "3", "--stones", "2", "--memory-tables", "8")
    assert solved["value"] == mancala.solve(mancala.Rules(3, 2), tables=False).value
    assert solved["table_levels"] == 8
    for refused, says in [(["best", "mancala", "--depth", "2", "--memory-tables", "8"],
                           "goes with an exact solve"),
                          (["best", "mancala", "--exact", "--memory-tables", "0"],
                           "--memory-tables: must be 1..30"),
                          (["solve", "mancala", "--memory-tables", "²"],
                           "--memory-tables: must be"),
                          (["best", "mancala", position, "--exact", "--no-tables",
                            "--memory-tables", "3"], "contradict each other"),
                          (["solve", "mancala", "--pits", "3", "--stones", "2", "--no-tables",
                            "--memory-tables", "3"], "contradict each other")]:
        done = run(*refused)
        assert done.returncode == 2 and says in done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr

"""The `solver` command given paths, files and streams no one should give it (the findings of
the seventeenth session's fuzz campaign): each ends with one line on stderr and a non-zero exit,
never a traceback, a hang or a read until memory runs out."""
import os
import subprocess
import sys

import pytest

from solver.errors import MAX_INPUT_BYTES
from test_cli import run

SOLVER = [sys.executable, "-m", "solver"]


def one_line_error(done, code=2):
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("solver: error: ")
    return done.stderr


def test_a_path_longer_than_the_system_allows_is_one_line(tmp_path):
    long_name = str(tmp_path / ("a" * 300))
    assert "File name too long" in one_line_error(run("tables", "info", "--dir", long_name))


def test_a_checkpoint_whose_temporary_name_is_too_long_is_one_line(tmp_path):
    checkpoint = str(tmp_path / ("c" * 250))     # fits, but NAME.tmp-PID does not
    error = one_line_error(run("solve", "mancala", "--pits", "2", "--stones", "2", "--no-tables",
                               "--checkpoint", checkpoint))
    assert "cannot write it" in error


@pytest.mark.parametrize("command", [
    ["solve", "mancala", "--pits", "2", "--stones", "2", "--no-tables", "--checkpoint",
     "/dev/zero"],
    ["best", "funkel", "/dev/zero"],
    ["bench", "mancala", "--depth", "1", "--baseline", "/dev/zero"],
])
def test_a_device_given_as_an_input_file_is_refused_unread(command):
    assert "it is a device, not a file" in one_line_error(run(*command))


def test_an_input_file_larger_than_any_position_is_refused(tmp_path):
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as out:
        out.truncate(MAX_INPUT_BYTES + 1)        # sparse: no disk used
    assert "larger than" in one_line_error(run("best", "funkel", str(huge)))


def test_a_position_from_a_closed_standard_input_is_one_line():
    done = subprocess.run([*SOLVER, "best", "funkel", "-"], capture_output=True, text=True,
                          timeout=60, preexec_fn=lambda: os.close(0))
    assert "standard input" in one_line_error(done)


def test_a_person_at_the_prompt_with_standard_input_closed_is_one_line():
    done = subprocess.run([*SOLVER, "play", "mancala", "--human", "0", "--bots", "random"],
                          capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: os.close(0))
    assert "standard input" in one_line_error(done)


def test_a_game_at_the_prompt_on_a_full_disk_is_one_line_and_exit_code_1():
    with open("/dev/full", "w") as full:
        done = subprocess.run([*SOLVER, "play", "mancala", "--human", "0", "--bots", "random",
                               "--seed", "1"], input="1\n", stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    assert one_line_error(done, code=1) == \
        "solver: error: cannot write the output: No space left on device\n"


PHYSICAL_BYTES = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(PHYSICAL_BYTES > 48 << 30, reason="a 64 GB table might fit this machine")
def test_a_table_larger_than_the_machine_is_one_line():
    error = one_line_error(run("best", "mancala", "--depth", "3", "--table-mb", "65536"))
    assert "--table-mb" in error


def test_a_folder_in_place_of_a_builds_work_file_is_one_line(tmp_path):
    tables = tmp_path / "t"
    assert run("tables", "build", "mancala", "--pits", "3", "--max-stones", "3", "--workers", "1",
               "--dir", str(tables)).returncode == 0
    (tables / "mancala3-capture-empty-level-04.tbl.work").mkdir()
    done = run("tables", "build", "mancala", "--pits", "3", "--max-stones", "4", "--workers", "1",
               "--dir", str(tables))
    assert "Is a directory" in one_line_error(done)


def test_a_fifo_in_place_of_the_build_lock_is_refused_not_waited_on(tmp_path):
    tables = tmp_path / "t"
    tables.mkdir()
    lock = tables / ".mancala3-capture-empty.lock"
    os.mkfifo(lock)
    done = run("tables", "build", "mancala", "--pits", "3", "--max-stones", "3", "--workers", "1",
               "--dir", str(tables), timeout=60)
    assert "not a regular file" in one_line_error(done)


@pytest.mark.parametrize("option", ["--save", "--baseline", "--plot"])
def test_an_empty_file_name_is_an_error_not_no_file(option):
    done = run("bench", "mancala", "--depth", "1", option, "")
    assert done.returncode == 2 and "empty" in done.stderr and "Traceback" not in done.stderr


def test_a_baseline_rate_too_small_to_divide_by_is_not_a_rate(tmp_path):
    baseline = tmp_path / "b.json"
    baseline.write_text('{"rows": [{"game": "mancala", "search": "alphabeta", "position": "x", '
                        '"nodes": 1, "nodes_per_second": 5e-324}]}')
    error = one_line_error(run("bench", "mancala", "--depth", "1", "--baseline", str(baseline)))
    assert "nodes_per_second is not a rate" in error



def test_a_report_file_that_cannot_be_made_fails_before_the_run(tmp_path):
    name = str(tmp_path / ("b" * 250))          # fits, but its temporary NAME.tmp-PID does not
    done = run("bench", "mancala", "--depth", "1", "--save", name)
    assert "File name too long" in one_line_error(done)
    assert done.stdout == ""                    # refused before any position was searched

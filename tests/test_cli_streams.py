"""The `solver` command when its streams or the user stop it: an answer that cannot be
written, and Ctrl-C at any moment, end with one line, never a traceback, and lose nothing."""
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from test_cli import run

SOLVER = [sys.executable, "-m", "solver"]


def test_an_answer_on_a_full_disk_is_one_line_and_exit_code_1():
    with open("/dev/full", "w") as full:
        done = subprocess.run([*SOLVER, "new", "mancala"], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == "solver: error: cannot write the output: No space left on device\n"


def test_an_answer_with_standard_output_closed_is_one_line_and_exit_code_1():
    done = subprocess.run([*SOLVER, "new", "mancala"], stderr=subprocess.PIPE, text=True,
                          timeout=60, preexec_fn=lambda: os.close(1))
    assert done.returncode == 1
    assert done.stderr == "solver: error: cannot write the output: standard output is closed\n"


def test_a_reader_that_goes_away_ends_the_command_quietly():
    player = subprocess.Popen([*SOLVER, "match", "mancala", "--bots", "random,random",
                               "--games", "2000", "--json"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    player.stdout.close()            # as `| head -c0` does, before the answer comes
    _, err = player.communicate(timeout=120)
    assert player.returncode == 141 and err == b""


@pytest.fixture(scope="module")
def interpreter_start():
    """How long this Python takes to start before it runs any code of ours (with margin). A
    Ctrl-C before that is Python's own ("init_import_site: Failed to import the site
    module"), outside any program's reach; on a slow machine it can take 0.1 s."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=60)
        times.append(time.perf_counter() - start)
    return 1.5 * max(times)


def test_the_commands_these_tests_start_can_be_interrupted():
    """The Ctrl-C tests below rest on this: a command they start does not inherit SIGINT
    ignored, however the test run was started (``conftest.ctrl_c_reaches_the_commands``)."""
    seen = subprocess.run([sys.executable, "-c", "import signal; print(signal.getsignal("
                           "signal.SIGINT) is signal.default_int_handler)"],
                          capture_output=True, text=True, timeout=60)
    assert seen.stdout == "True\n", seen


def interrupted(arguments, after: float) -> tuple[int, str, str]:
    """Run ``solver ARGUMENTS``, press Ctrl-C ``after`` seconds in: its exit code, stdout and
    stderr (never a traceback, whenever the press lands)."""
    process = subprocess.Popen([*SOLVER, *arguments], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(after)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=300)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    return process.returncode, out, err


@pytest.mark.parametrize("delay", [0.1, 0.3, 0.6, 1.2])
def test_ctrl_c_at_any_moment_of_a_build_is_one_line_and_the_build_resumes(tmp_path, delay,
                                                                          interpreter_start):
    """From the imports (half-imported modules, compiled callbacks that swallow the interrupt)
    to the writing of the levels, ``delay`` seconds after Python itself has started: exit code
    130 and "solver: interrupted", or, if the build was done first, its usual end; either way
    a rerun finishes and verifies."""
    code, out, err = interrupted(["tables", "build", "mancala", "--max-stones", "14",
                                  "--workers", "1", "--dir", str(tmp_path)],
                                 interpreter_start + delay)
    if code == 130:
        assert err.splitlines()[-1] == "solver: interrupted" and out == ""
    else:
        assert code == 0 and "ready" in out, err
    assert run("tables", "build", "mancala", "--max-stones", "14", "--dir",
               str(tmp_path)).returncode == 0
    checked = run("tables", "verify", "--dir", str(tmp_path))
    assert checked.returncode == 0 and "checksums good" in checked.stdout


@pytest.mark.parametrize("delay", [0.4, 1.5])
def test_ctrl_c_while_levels_are_computed_in_memory_is_one_line(delay, interpreter_start):
    """Before the proof has begun (the levels of ``--memory-tables`` come first, about 10 s
    here): exit code 130 and "solver: interrupted", nothing on stdout."""
    code, out, err = interrupted(["best", "mancala", "--exact", "--memory-tables", "20"],
                                 interpreter_start + delay)
    assert code == 130 and err.splitlines()[-1] == "solver: interrupted" and out == ""


def test_ctrl_c_inside_numbas_own_code_is_recorded_and_handed_to_a_watcher(monkeypatch):
    """An exception raised inside Numba's loading or compiling can leave its compiled objects
    half made (a crash inside the call), so there the handler only records the press and starts
    a watcher that delivers it again later; anywhere else it raises at once."""
    from solver import command
    watched = []
    monkeypatch.setattr(command, "_deliver_later", watched.append)
    monkeypatch.setattr(command, "pressed", False)
    exec("press(signal.SIGINT, sys._getframe())", {"__name__": "numba.core.dispatcher",
                                                   "press": command._press, "signal": signal,
                                                   "sys": sys})
    for thread in threading.enumerate():
        if thread.name == "ctrl-c":
            thread.join(5)
    assert command.pressed and watched == [threading.main_thread().ident]
    with pytest.raises(KeyboardInterrupt):
        command._press(signal.SIGINT, sys._getframe())


WATCHED_PRESS = """
import signal, sys, time
from solver import command
signal.signal(signal.SIGINT, command._press)
def in_numba(seconds):
    command._press(signal.SIGINT, sys._getframe())
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
try:
    exec("in_numba(SECONDS)", {"__name__": "numba.core.x", "in_numba": in_numba})
    time.sleep(5)
    print("not delivered")
except KeyboardInterrupt:
    print("delivered")
"""


@pytest.mark.parametrize("seconds, code, out", [(0.2, 0, "delivered\n"), (3.0, 130, "")])
def test_a_watched_ctrl_c_is_delivered_once_out_of_numba_or_ends_the_command(seconds, code,
                                                                             out):
    """Out of Numba's code within DEFER_SECONDS_MAX: the press arrives as a KeyboardInterrupt
    in our code. Kept there longer (a chain of compilations): the command ends there and then
    with exit code 130 and the one line."""
    script = WATCHED_PRESS.replace("SECONDS", str(seconds))
    ended = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=60)
    assert (ended.returncode, ended.stdout) == (code, out)
    assert ended.stderr == ("solver: interrupted\n" if code else "")


PRESS_IN_A_FINALISER = """
import os, signal, sys, time
from solver import command
signal.signal(signal.SIGINT, command._press)
sys.unraisablehook = command._unraisable
class Mapping:
    def __del__(self):          # Ctrl-C arrives while a finaliser runs
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.1)
try:
    Mapping()
    time.sleep(5)
    print("lost")
except KeyboardInterrupt:
    print("delivered")
"""


def test_ctrl_c_in_a_finaliser_is_delivered_after_it_not_printed_and_lost():
    """Python cannot raise an exception out of ``__del__``: it prints "Exception ignored" and a
    traceback and drops it (a table build once went on to its end). The press is delivered
    again as soon as the finaliser returns."""
    ended = subprocess.run([sys.executable, "-c", PRESS_IN_A_FINALISER], capture_output=True,
                           text=True, timeout=60)
    assert (ended.returncode, ended.stdout, ended.stderr) == (0, "delivered\n", "")

"""Nothing compiled is imported until a command needs it: help, listing tables and refusing
bad input stay light (Numba's first use costs over a second here), and a Mancala best move
without endgame tables runs on the Cython alpha-beta, which needs no Numba. Each command runs in
a fresh interpreter, which then reports whether Numba was loaded."""
import json
import subprocess
import sys

import pytest

from solver.games.mancala import api as mancala

PROBE = """
import json, sys
from solver.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
numpy = type(sys.modules.get("numpy")).__name__ not in ("NoneType", "_LazyModule")  # executed?
print(json.dumps(dict(code=code, numba="numba" in sys.modules, numpy=numpy)), file=sys.__stderr__)
"""

LIGHT_COMMANDS = [
    ["--help"],
    ["best", "mancala", "bad"],
    ["best", "mancala", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 A", "--simulations", "5"],
    ["best", "mancala", "0,0,0,0,0,0/4,4,4,4,4,4 0-0 A"],
    ["best", "funkel", "/no/such/position.json"],
    ["best", "tunhell", "/no/such/position.json"],
    ["new", "funkel", "--players", "7"],
    ["tables", "info", "--dir", "{empty}"],
    ["tables", "verify", "--dir", "{empty}"],
    ["tables", "build", "mancala", "--max-stones", "99", "--dir", "{empty}"],
    ["solve", "mancala", "--pits", "9"],
    # refused before the searches, bots or tables they would need are loaded
    ["best", "mancala", "--mcts", "--exact"],
    ["tables", "probe", "--dir", "{empty}", "1,1,1/1,1,1 0-0 A"],
    ["tables", "probe", "--dir", "{empty}", "1,1,1/1,1,1 0-0 A", "--pits", "4"],
    ["bench", "--baseline", "{empty}", "mancala"],
    ["bench", "--save", "{empty}/no/such/folder/run.json", "mancala"],
    ["play", "funkel", "--bots", "random,random,random"],
    ["match", "tunhell", "--bots", "random", "--games", "1"],
    ["match", "funkel", "--bots", "random,bogus", "--games", "1"],
    ["solve", "mancala", "--pits", "2", "--stones", "2", "--scheduler", "no-port"],
]
ENDGAME = "0,0,1,2,0,1/1,0,2,0,1,1 20-17 A"
# Best moves that probe no tables: (command options, what best_move is asked in-process; None
# for a timed search, asked again to the depth it completed)
CYTHON_BEST = [
    (["--depth", "12"], dict(depth=12)),
    (["--time", "0.2"], None),
    ([ENDGAME, "--exact", "--no-tables"], dict(exact=True, tables=False)),
]


def run_probed(args):
    """(exit code, whether Numba was imported, stdout) of the CLI in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          timeout=60)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["code"], report["numba"], done.stdout, done.stderr


# Commands that need no NumPy either (importing it costs about 0.2 s here)
NUMPY_FREE = [["--help"], ["best", "mancala", "bad"], ["solve", "mancala", "--pits", "9"],
              ["tables", "info", "--dir", "{empty}"], ["tables", "verify", "--dir", "{empty}"],
              ["tables", "probe", "--dir", "{empty}", "1,1,1/1,1,1 0-0 A"]]


@pytest.mark.parametrize("command", NUMPY_FREE, ids=" ".join)
def test_help_listing_an_empty_folder_and_bad_input_load_no_numpy(tmp_path, command):
    args = [a.replace("{empty}", str(tmp_path)) for a in command]
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          timeout=60)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["numpy"] is False and report["code"] in (0, 2), done.stderr


@pytest.mark.parametrize("command", LIGHT_COMMANDS, ids=" ".join)
def test_help_listing_and_bad_input_import_nothing_compiled(tmp_path, command):
    code, numba, _, stderr = run_probed([a.replace("{empty}", str(tmp_path)) for a in command])
    assert numba is False, stderr
    assert code in (0, 2), stderr


@pytest.mark.parametrize("options,asked", CYTHON_BEST, ids=lambda o: " ".join(o) if
                         isinstance(o, list) else "")
def test_a_best_move_without_tables_imports_no_numba_and_is_the_numba_search_answer(options,
                                                                                    asked):
    code, numba, stdout, stderr = run_probed(["best", "mancala", *options, "--json"])
    assert (code, numba) == (0, False), stderr
    answer = json.loads(stdout)
    rules = mancala.Rules(answer["pits"], answer["stones"], answer["capture_empty"])
    timed = asked is None
    expected = mancala.best_move(answer["position"], rules, backend="numba",
                                 **(dict(depth=answer["depth"]) if timed else asked)).to_dict()
    same = ["move", "value", "exact", "depth"] + ([] if timed else ["pv", "nodes"])
    assert {k: answer[k] for k in same} == {k: expected[k] for k in same}


NUMBA_WITHOUT_BLAS_PROBE = """
import json, sys
import numpy as np
import kernels._jit
import numba
import numba.np.arraymath as arraymath
probe_skipped = not arraymath._HAVE_BLAS
@numba.njit
def dot(a, b):
    return np.dot(a, b)
a, b = np.arange(5.0), np.arange(5.0) + 0.5
import scipy.linalg.cython_blas
print(json.dumps(dict(probe_skipped=probe_skipped, dot=dot(a, b), numpy=float(a @ b))))
"""


def test_the_kernels_skip_numbas_blas_probe_and_leave_scipy_importable():
    """Numba's arraymath is imported without its SciPy BLAS probe (0.3 s of start-up); np.dot
    of floats still gives NumPy's answer in a kernel, and SciPy's linalg imports afterwards."""
    pytest.importorskip("scipy.linalg")
    done = subprocess.run([sys.executable, "-c", NUMBA_WITHOUT_BLAS_PROBE], capture_output=True,
                          text=True, check=True)
    report = json.loads(done.stdout)
    assert report["probe_skipped"] and report["dot"] == report["numpy"] == 35.0

"""Nothing compiled is imported until a command needs it: help, listing tables and refusing
bad input stay light (Numba's first use costs over a second here). Each command runs in a fresh
interpreter, which then reports whether Numba was loaded."""
import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
from solver.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
print(json.dumps(dict(code=code, numba="numba" in sys.modules)), file=sys.__stderr__)
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
]


@pytest.mark.parametrize("command", LIGHT_COMMANDS, ids=" ".join)
def test_help_listing_and_bad_input_import_nothing_compiled(tmp_path, command):
    args = [a.replace("{empty}", str(tmp_path)) for a in command]
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          timeout=60)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["numba"] is False, done.stderr
    assert report["code"] in (0, 2), done.stderr

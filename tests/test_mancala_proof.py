"""Long proofs speak and can be stopped: bounds at every moment, budgets, Ctrl-C (exit 130)."""
import json
import signal
import subprocess
import sys

import pytest

from solver.games.mancala import api
from test_alphabeta import minimax
from test_cli import run


@pytest.mark.parametrize("m,n", [(2, 2), (3, 2), (4, 2), (3, 3)])
@pytest.mark.parametrize("capture_empty", [True, False])
def test_every_opening_and_continuation_has_its_brute_force_value(m, n, capture_empty):
    from dataclasses import replace

    from solver.games import mancala as reference
    rules = reference.Rules(m, n, capture_empty)
    proof = api.solve(rules, tables=False)
    start = reference.new_game(rules)
    assert proof.finished and proof.value == minimax(start, capture_empty)
    for line in proof.openings:
        child = reference.apply(start, line.move)
        value = minimax(replace(child, capture_empty=capture_empty), capture_empty)
        assert line.value == (value if child.to_move == 0 else -value)
        for c in line.continuations:
            grandchild = reference.apply(child, c.move)
            value = minimax(grandchild, capture_empty)
            assert c.value == (value if grandchild.to_move == 0 else -value)
    assert proof.move in [o.move for o in proof.openings if o.value == proof.value]


def test_a_node_budget_stops_the_proof_with_bounds_that_hold():
    exact = api.solve(api.Rules(4, 4), tables=False)
    partial = api.solve(api.Rules(4, 4), tables=False, max_nodes=20_000)
    assert partial.stopped == "max-nodes" and not partial.finished
    assert partial.lower <= exact.value <= partial.upper
    for rough, proven in zip(partial.openings, exact.openings):
        assert rough.lower <= proven.value <= rough.upper


def test_solve_json_gives_lower_and_upper_when_not_finished():
    out = json.loads(run("solve", "mancala", "--pits", "5", "--stones", "4", "--no-tables",
                         "--max-nodes", "50000", "--json").stdout)
    assert out["finished"] is False and out["value"] is None and out["stopped"] == "max-nodes"
    assert out["lower"] <= out["upper"]
    assert all(o["lower"] <= o["upper"] for o in out["openings"])


def test_ctrl_c_prints_the_bounds_proven_so_far_and_exits_130():
    proc = subprocess.Popen([sys.executable, "-m", "solver", "solve", "mancala", "--stones", "5",
                             "--no-tables", "--table-mb", "64", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stderr.readline()      # the first progress line: the proof is under way
    assert first.startswith("value "), first
    proc.send_signal(signal.SIGINT)
    out, rest = proc.communicate(timeout=120)
    err = first + rest
    assert proc.returncode == 130, err
    proof = json.loads(out)
    assert proof["stopped"] == "interrupted" and proof["lower"] <= proof["upper"]
    assert "Traceback" not in err

"""Long proofs speak and can be stopped: bounds at every moment, budgets, Ctrl-C (exit 130)."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from solver.games.mancala import api
from solver.games.mancala import proof as proof_module
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


def one_endless_slice(monkeypatch):
    """Slices so large that only a stop inside a slice can end the proof early."""
    monkeypatch.setattr(proof_module, "FIRST_SLICE", 1 << 60)
    monkeypatch.setattr(proof_module, "LAST_SLICE", 1 << 60)


def test_max_seconds_stops_the_proof_inside_a_slice(monkeypatch):
    one_endless_slice(monkeypatch)
    exact = api.solve(api.Rules(4, 3), tables=False)
    stopped = api.solve(api.Rules(6, 5), tables=False, table_mb=16, max_seconds=0.3)
    assert stopped.stopped == "max-seconds" and not stopped.finished
    assert stopped.lower <= stopped.upper and stopped.nodes > 0
    again = api.solve(api.Rules(4, 3), tables=False)         # the engine is whole again
    assert again.value == exact.value and again.nodes == exact.nodes


@pytest.mark.parametrize("backend", ["numba", "cython"])
def test_max_seconds_stops_a_best_move_proof_inside_a_slice(monkeypatch, backend):
    one_endless_slice(monkeypatch)
    stopped = api.best_move(rules=api.Rules(6, 5), exact=True, tables=False, table_mb=16,
                            max_seconds=0.3, backend=backend)
    assert stopped.stopped == "max-seconds" and stopped.lower <= stopped.upper


def press_ctrl_c_once_the_proof_listens(after: float = 0.2) -> threading.Thread:
    """A thread that sends this process SIGINT ``after`` seconds once a proof has put its own
    Ctrl-C handler in place (before that, SIGINT would hit the set-up, not the proof)."""
    default = signal.getsignal(signal.SIGINT)

    def press():
        while signal.getsignal(signal.SIGINT) is default:
            time.sleep(0.01)
        time.sleep(after)
        os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=press, daemon=True)
    thread.start()
    return thread


def test_ctrl_c_stops_the_proof_inside_a_slice(monkeypatch):
    one_endless_slice(monkeypatch)
    press = press_ctrl_c_once_the_proof_listens()
    stopped = api.solve(api.Rules(6, 5), tables=False, table_mb=16)
    press.join()
    assert stopped.stopped == "interrupted" and not stopped.finished
    assert stopped.lower <= stopped.upper


def test_ctrl_c_ignored_by_the_caller_stays_ignored_during_a_proof(monkeypatch):
    """A command a script starts with ``&`` inherits SIGINT ignored: the proof must not put its
    own handler in place and stop at a Ctrl-C meant for the script's foreground."""
    one_endless_slice(monkeypatch)
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    solving = threading.Event()

    def press_while_solving():
        solving.wait()
        while solving.is_set():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.02)

    thread = threading.Thread(target=press_while_solving, daemon=True)
    thread.start()
    try:
        solving.set()
        stopped = api.solve(api.Rules(6, 5), tables=False, table_mb=16, max_seconds=0.5)
        solving.clear()
        thread.join()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        solving.clear()
        signal.signal(signal.SIGINT, before)
    assert stopped.stopped == "max-seconds"


# --- best --exact: the same proof, of one position ------------------------------------------------

@pytest.mark.parametrize("capture_empty", [True, False])
def test_best_exact_proves_the_minimax_value_and_a_move_that_keeps_it(capture_empty):
    import random
    from dataclasses import replace

    from solver.games import mancala as reference
    from test_alphabeta import random_position
    rng = random.Random(11)
    for _ in range(12):
        m = rng.randrange(2, 5)
        pos = replace(random_position(rng, m, rng.randrange(4, 11)), capture_empty=capture_empty)
        rules = reference.Rules(m, 1, capture_empty)
        found = api.best_move(pos, rules, exact=True, tables=False)
        value = minimax(pos, capture_empty)
        assert found.exact and found.stopped is None
        assert found.value == found.lower == found.upper == value
        child = reference.apply(pos, found.move)
        kept = minimax(child, capture_empty)
        assert (kept if child.to_move == pos.to_move else -kept) == value


def test_best_exact_all_moves_values_every_move_for_the_side_to_move():
    from solver.games import mancala as reference
    pos = reference.from_text("0,3,1,2/2,0,1,3 5-4 B")
    found = api.best_move(pos, reference.Rules(4, 1), exact=True, all_moves=True, tables=False)
    assert sorted(found.moves) == reference.legal_actions(pos) == [5, 7, 8]
    for move, value in found.moves.items():
        child = reference.apply(pos, move)
        proven = minimax(child, True)
        assert value == (proven if child.to_move == pos.to_move else -proven)
        assert found.move_bounds[move] == (value, value)
    assert found.value == max(found.moves.values()) == found.moves[found.move]


def test_best_exact_under_a_node_budget_gives_bounds_that_hold():
    exact = api.best_move(None, api.Rules(4, 4), exact=True, all_moves=True, tables=False)
    partial = api.best_move(None, api.Rules(4, 4), exact=True, all_moves=True, tables=False,
                            max_nodes=20_000)
    assert partial.stopped == "max-nodes" and partial.value is None and partial.move is None
    assert partial.lower <= exact.value <= partial.upper
    for move, value in exact.moves.items():
        low, high = partial.move_bounds[move]
        assert low <= value <= high


def test_best_exact_json_gives_lower_upper_and_stopped():
    out = json.loads(run("best", "mancala", "--pits", "5", "--stones", "4", "--exact",
                         "--no-tables", "--table-mb", "16", "--max-nodes", "50000",
                         "--json").stdout)
    assert out["stopped"] == "max-nodes" and out["finished"] is False
    assert out["value"] is None and out["lower"] <= out["upper"]


def test_best_budgets_go_with_exact_only():
    from test_cli import assert_one_line_error
    assert_one_line_error(run("best", "mancala", "--depth", "3", "--max-nodes", "1000"))
    assert_one_line_error(run("best", "mancala", "--mcts", "--max-seconds", "1"))


def test_best_exact_ctrl_c_prints_the_bounds_proven_so_far_and_exits_130():
    proc = subprocess.Popen([sys.executable, "-m", "solver", "best", "mancala", "--stones", "5",
                             "--exact", "--all-moves", "--no-tables", "--table-mb", "64"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stderr.readline()      # the first progress line: the proof is under way
    assert first.startswith("value [") and " nodes " in first, first
    proc.send_signal(signal.SIGINT)
    out, rest = proc.communicate(timeout=120)
    err = first + rest
    assert proc.returncode == 130, err
    assert "NOT FINISHED (interrupted): value for the side to move proven in [" in out
    assert "moves: 1: [" in out
    assert "Traceback" not in err and "solver: interrupted" in err


def test_best_exact_max_seconds_stops_it_without_a_keyboard():
    done = run("best", "mancala", "--stones", "5", "--exact", "--no-tables", "--table-mb", "64",
               "--max-seconds", "3", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["stopped"] == "max-seconds" and out["lower"] <= out["upper"]
    assert done.stderr.startswith("value [")      # it spoke after two seconds


@pytest.mark.parametrize("capture_empty", [True, False])
def test_a_split_position_is_worth_the_best_of_its_moves_for_the_side_to_move(capture_empty):
    """A cluster splits a long task into its position's moves (``proof._split``): proven one by
    one, they combine into the position's brute-force value, whoever moves there."""
    import random
    from dataclasses import replace

    from solver.games import mancala as reference
    from solver.search.alphabeta import AlphaBeta
    engine = AlphaBeta(api.kernel_game(), 4)
    rng, rules, seen = random.Random(11), reference.Rules(3, 3, capture_empty), [0, 0]
    while min(seen) < 4:                          # positions with each side to move
        pos = reference.new_game(rules)
        for _ in range(rng.randrange(1, 8)):
            if reference.is_over(pos):
                break
            pos = reference.apply(pos, rng.choice(reference.legal_actions(pos)))
        if reference.is_over(pos):
            continue
        seen[pos.to_move] += 1
        sign = 1 if pos.to_move == 0 else -1      # the position's value for A, as at the root
        line = proof_module.Line("x", 0, -99, 99)
        job = proof_module._Job(proof_module._Task(line, api.to_packed(pos), sign, pos.to_move,
                                                   rules.pits), None, None, 0)
        for child in proof_module._split(engine, job):
            low, high = engine.prove_within(child.state, 10**9, engine.first_guess(child.state))
            proof_module._narrow(child, low, high)
        proof_module._combine_line(line, root_side=0)
        exact = minimax(replace(pos, capture_empty=capture_empty), capture_empty)
        assert line.chooser == pos.to_move and line.value == sign * exact
        assert line.reply in [c.move for c in line.split if c.value == line.value]

"""A whole-game proof on a real Dask cluster (two worker processes on loopback): the openings
are proven as tasks and the values equal the single-process proof's."""
import json
import os
import subprocess
import sys

import pytest

from solver.errors import InputError
from solver.games.mancala import api
from cluster_processes import cluster_with_a_changed_worker, free_port, wait_for_port
from test_cli import assert_one_line_error, run
from test_mancala_proof import press_ctrl_c_once_the_proof_listens

distributed = pytest.importorskip("distributed")


def values(proof):
    return proof.value, proof.move, [(line.name, line.value) for o in proof.openings
                                     for line in [o] + o.continuations]


@pytest.mark.parametrize("rules", [api.Rules(4, 3), api.Rules(5, 2, False), api.Rules(6, 2)],
                         ids=str)
def test_a_cluster_proof_equals_the_local_proof(cluster, rules):
    on_cluster = api.solve(rules, tables=False, table_mb=16, scheduler=cluster.scheduler_address)
    local = api.solve(rules, tables=False)
    assert on_cluster.finished and values(on_cluster) == values(local)
    assert 0 < on_cluster.expanded < on_cluster.nodes   # the workers' counts come back too


def test_the_command_line_solves_on_the_cluster(cluster):
    done = subprocess.run([sys.executable, "-m", "solver", "solve", "mancala", "--pits", "4",
                           "--stones", "2", "--no-tables", "--scheduler",
                           cluster.scheduler_address, "--json"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["finished"] and out["value"] == api.solve(api.Rules(4, 2), tables=False).value


def test_running_tasks_report_their_bounds_before_they_end(cluster, tmp_path):
    """A task's bounds reach the client (and its checkpoint) while it still runs: some opening
    is seen narrowed but unproven, which no finished task's answer is (each is exact)."""
    rules, path = api.Rules(5, 4), tmp_path / "k54.json"
    first_seen, narrowed = {}, set()

    def progress(proof):
        for line in (line for o in proof.openings for line in [o] + o.continuations
                     if not line.continuations and not line.split):
            initial = first_seen.setdefault(line.name, (line.lower, line.upper))
            if line.lower < line.upper and (line.lower, line.upper) != initial:
                narrowed.add((line.name, line.lower, line.upper))

    found = api.solve(rules, tables=False, table_mb=64, scheduler=cluster.scheduler_address,
                      progress=progress, checkpoint=path)
    assert found.finished and values(found) == values(api.solve(rules, tables=False))
    assert narrowed, "no task reported a bound before it ended"
    exact = {line.name: line.value for o in found.openings for line in [o] + o.continuations}
    assert all(lower <= exact[name] <= upper for name, lower, upper in narrowed)


def test_an_unreachable_scheduler_is_bad_input(monkeypatch):
    import tables.distributed
    monkeypatch.setattr(tables.distributed, "CONNECT_TIMEOUT", 1.0)  # the refusal, sooner
    with pytest.raises(InputError, match="cannot reach the Dask scheduler"):
        api.solve(api.Rules(3, 2), tables=False, scheduler="tcp://127.0.0.1:9")


@pytest.fixture
def foreign_scheduler(tmp_path):
    """A real Dask scheduler started where ``solver`` does not import (a stand-in package of
    that name comes first on its path), as a cluster started in another environment would be."""
    stand_in = tmp_path / "elsewhere" / "solver"
    stand_in.mkdir(parents=True)
    (stand_in / "__init__.py").write_text("raise ImportError('not this solver')\n")
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(stand_in.parent))
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                  "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                 cwd=stand_in.parent, env=env, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield f"tcp://127.0.0.1:{port}"
    finally:
        scheduler.kill()
        scheduler.wait()


@pytest.fixture
def stale_worker_cluster(tmp_path):
    """A worker that runs older code (a comment more in one file), as a worker started before
    the code changed does."""
    yield from cluster_with_a_changed_worker(tmp_path, "solver", "errors.py",
                                             "# an older version\n")


@pytest.fixture
def failing_worker_cluster(tmp_path):
    """A worker whose proof tasks fail, as on a worker that is killed or cannot read the
    tables."""
    yield from cluster_with_a_changed_worker(
        tmp_path, "solver", "games/mancala/proof.py",
        "\n\ndef prove_line(*args, **kwargs):\n    raise RuntimeError('the worker failed')\n")


def solve_small_game_on(scheduler: str):
    """``solver solve mancala`` of Kalah(3,2) on the cluster at ``scheduler``, as a command."""
    return run("solve", "mancala", "--pits", "3", "--stones", "2", "--no-tables",
               "--scheduler", scheduler)


def test_workers_running_other_code_are_one_line_of_bad_input(stale_worker_cluster):
    done = solve_small_game_on(stale_worker_cluster)
    assert_one_line_error(done)
    assert "1 of the 1 Dask workers" in done.stderr and "restart them" in done.stderr


def test_a_task_that_fails_on_its_worker_ends_the_proof_with_one_line(failing_worker_cluster):
    """Sent straight to the cluster (the code check would refuse this worker first)."""
    from solver.games.mancala import proof
    rules = api.Rules(3, 2)
    with distributed.Client(failing_worker_cluster, timeout=30) as client:
        with pytest.raises(InputError, match="a proof task failed on the cluster "
                                             r"\(RuntimeError: the worker failed\)"):
            proof.prove_game_on_cluster(client, rules, table_mb=16)


def test_a_cluster_started_in_another_environment_is_one_line_of_bad_input(foreign_scheduler):
    done = solve_small_game_on(foreign_scheduler)
    assert_one_line_error(done)
    assert "cannot run this program's tasks" in done.stderr and "not this solver" in done.stderr


def test_a_node_budget_does_not_apply_on_a_cluster(cluster):
    with pytest.raises(InputError, match="does not apply on a cluster"):
        api.solve(api.Rules(3, 2), tables=False, max_nodes=10,
                  scheduler=cluster.scheduler_address)


def test_the_cluster_uses_the_default_table_folder_as_a_local_solve_does(cluster, tmp_path,
                                                                         monkeypatch):
    from solver import tables
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    tables.build(6, pits=4)
    rules = api.Rules(4, 2)
    on_cluster = api.solve(rules, table_mb=16, scheduler=cluster.scheduler_address)
    local = api.solve(rules)
    assert on_cluster.table_levels == local.table_levels == 6
    assert values(on_cluster) == values(local)


def test_max_seconds_ends_every_task_with_the_bounds_it_proved(cluster):
    exact = 10                  # Kalah(6,4), empty-capture rule (Irving, Donkers, Uiterwijk)
    stopped = api.solve(api.Rules(6, 4), tables=False, table_mb=16, max_seconds=1,
                        scheduler=cluster.scheduler_address)
    assert stopped.stopped == "max-seconds" and not stopped.finished
    assert stopped.lower <= exact <= stopped.upper
    again = api.solve(api.Rules(4, 2), tables=False, table_mb=16,       # the workers are free
                      scheduler=cluster.scheduler_address)
    assert again.finished and again.value == api.solve(api.Rules(4, 2), tables=False).value


def test_ctrl_c_stops_the_cluster_tasks_and_keeps_their_bounds(cluster):
    press = press_ctrl_c_once_the_proof_listens(after=0.5)
    stopped = api.solve(api.Rules(6, 4), tables=False, table_mb=16,
                        scheduler=cluster.scheduler_address)
    press.join()
    assert stopped.stopped == "interrupted" and not stopped.finished
    assert stopped.lower <= 10 <= stopped.upper


def test_a_task_left_running_beside_an_idle_worker_is_split_and_the_values_hold(monkeypatch):
    """A worker with more threads than the proof has openings idles from the start, so the
    first task the client sees running is split. (On the two-worker cluster a split waited for
    the last task to run alone, which on a fast machine did not always happen.)"""
    from distributed import LocalCluster
    from solver.games.mancala import proof
    monkeypatch.setattr(proof, "SPLIT_AFTER", 0.0)          # split as soon as a worker idles
    monkeypatch.setattr(proof, "ASK_WORKERS_EVERY", 0.0)    # and the client sees it
    rules = api.Rules(5, 3)                                 # 8 opening tasks
    with LocalCluster(n_workers=1, threads_per_worker=12, processes=False, protocol="tcp",
                      host="127.0.0.1", dashboard_address=None) as roomy:
        on_cluster = api.solve(rules, tables=False, table_mb=16,
                               scheduler=roomy.scheduler_address)
    local = api.solve(rules, tables=False)
    assert on_cluster.finished and values(on_cluster) == values(local)
    assert on_cluster.tasks > local.tasks                   # some task was split


def test_a_cluster_proof_goes_on_from_its_checkpoint(cluster, tmp_path):
    # 24 M nodes without the empty-capture rule: seconds of work on any two workers, so a
    # half-second budget stops it (Kalah(6,3) with the rule, 13 M nodes, finished in 0.85 s on CI)
    rules, path = api.Rules(6, 3, capture_empty=False), tmp_path / "k63.json"
    first = api.solve(rules, tables=False, table_mb=16, max_seconds=0.5, checkpoint=path,
                      scheduler=cluster.scheduler_address)
    rerun = api.solve(rules, tables=False, table_mb=16, checkpoint=path,
                      scheduler=cluster.scheduler_address)
    assert not first.finished and rerun.finished
    assert values(rerun) == values(api.solve(rules, tables=False))
    assert rerun.checkpoint["runs"] == 2



def test_a_rerun_splits_again_where_the_checkpoint_shows_a_split(cluster, tmp_path,
                                                                 monkeypatch):
    """An earlier run split an opening: its replies' lines are on file, one of them proven. The
    rerun splits that opening again at once (not after a worker idles): the opening's own task
    and one per unproven reply race as in the first run; the proven reply is not searched."""
    from solver.games.mancala import proof
    from solver.games.mancala.checkpoint import Checkpoint
    monkeypatch.setattr(proof, "SPLIT_AFTER", 1e9)          # no split but the checkpoint's
    rules, path = api.Rules(6, 3), tmp_path / "k63.json"
    unsplit = api.solve(rules, tables=False, table_mb=16, scheduler=cluster.scheduler_address)
    opening = next(o for o in unsplit.openings if not o.continuations)
    after = api.apply(api.new_game(rules), opening.move)
    replies = api.legal_actions(after)
    solved = proof.prove_line(rules.pits, rules.stones, rules.capture_empty,
                              [opening.move, replies[0]], None, 16)
    later = api.apply(after, replies[0])
    a_view = solved["lower"] if api.current_player(later) == api.A else -solved["lower"]
    kept, every_score = Checkpoint(path, rules), rules.pits * rules.stones * 2
    kept.lines[f"{opening.name}-{replies[0]}"] = [a_view, a_view, solved["reply"],
                                                  "AB"[api.current_player(later)]]
    for move in replies[1:]:                                 # split, nothing proven yet
        kept.lines[f"{opening.name}-{move}"] = [-every_score, every_score, None, None]
    kept._write()
    rerun = api.solve(rules, tables=False, table_mb=16, checkpoint=path,
                      scheduler=cluster.scheduler_address)
    assert rerun.finished and values(rerun) == values(unsplit)
    assert rerun.tasks == unsplit.tasks + len(replies) - 1

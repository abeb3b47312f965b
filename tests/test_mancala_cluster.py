"""A whole-game proof on a real Dask cluster (two worker processes on loopback): the openings
are proven as tasks and the values equal the single-process proof's."""
import json
import subprocess
import sys

import pytest

from solver.errors import InputError
from solver.games.mancala import api

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


def test_the_command_line_solves_on_the_cluster(cluster):
    done = subprocess.run([sys.executable, "-m", "solver", "solve", "mancala", "--pits", "4",
                           "--stones", "2", "--no-tables", "--scheduler",
                           cluster.scheduler_address, "--json"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["finished"] and out["value"] == api.solve(api.Rules(4, 2), tables=False).value


def test_an_unreachable_scheduler_is_bad_input():
    with pytest.raises(InputError, match="cannot reach the Dask scheduler"):
        api.solve(api.Rules(3, 2), tables=False, scheduler="tcp://127.0.0.1:9")

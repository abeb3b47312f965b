"""The build on a real Dask cluster (two worker processes on loopback) writes the same bytes as
a local build; a rerun on the cluster resumes; an unreachable scheduler is bad input."""
import socket

import pytest

from solver.errors import InputError
import tables.distributed
from tables import api

distributed = pytest.importorskip("distributed")

TOP = 10


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as running:
        yield running


def files_of(directory):
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.tbl"))}


@pytest.mark.parametrize("capture_empty", [True, False], ids=["capture-empty", "capture-nonempty"])
def test_a_cluster_build_is_byte_identical_to_a_local_build(cluster, tmp_path, capture_empty):
    on_cluster, local = tmp_path / "cluster", tmp_path / "local"
    report = api.build(TOP, on_cluster, capture_empty, workers=1,
                       scheduler=cluster.scheduler_address)
    assert report.built == list(range(1, TOP + 1)) and report.workers == 2
    api.build(TOP, local, capture_empty)
    assert files_of(on_cluster) == files_of(local) and len(files_of(local)) == TOP
    assert api.info(on_cluster).leftovers == []  # the chunk files were assembled and removed


def test_a_cluster_build_resumes_from_the_finished_levels(cluster, tmp_path):
    api.build(6, tmp_path)
    seen = []
    report = api.build(8, tmp_path, scheduler=cluster.scheduler_address, progress=seen.append)
    assert report.loaded == list(range(1, 7)) and report.built == [7, 8]
    assert seen[-1].positions_done == seen[-1].positions_total
    assert api.verify(tmp_path, sample=5, seed=1).ok


def test_an_unreachable_scheduler_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tables.distributed, "CONNECT_TIMEOUT", "1s")
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(InputError, match="cannot reach the Dask scheduler"):
        api.build(3, tmp_path, scheduler=f"tcp://127.0.0.1:{port}")

"""The build on a real Dask cluster (worker processes on loopback) writes the same bytes as a
local build; a rerun on the cluster resumes; its tasks are spread over every worker; an
unreachable scheduler is bad input; the plan of a large level keeps 32 workers busy."""
import socket
from collections import Counter

import pytest

from cluster_processes import cluster_with_a_changed_worker
from solver import tables as api
from tables.address import check_scheduler
from tables import distributed as table_cluster
from tables.errors import TableError
from tables.format import Family
from tables.levels import LocalExecutor, build_levels
from tables.mapping import MemoryBudget

distributed = pytest.importorskip("distributed")

TOP = 10


def files_of(directory):
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.tbl"))}


@pytest.mark.parametrize("capture_empty", [True, False], ids=["capture-empty", "capture-nonempty"])
def test_a_cluster_build_is_byte_identical_to_a_local_build(cluster, tmp_path, capture_empty):
    on_cluster, local = tmp_path / "cluster", tmp_path / "local"
    report = api.build(TOP, on_cluster, capture_empty, workers=1,
                       scheduler=cluster.scheduler_address)
    assert report.built == list(range(1, TOP + 1)) and report.workers == 2
    api.build(TOP, local, capture_empty)
    assert files_of(on_cluster) == files_of(local)
    assert api.info(on_cluster).leftovers == []  # the pieces were scattered and removed


def test_a_cluster_build_of_another_board_is_byte_identical_too(cluster, tmp_path):
    on_cluster, local = tmp_path / "cluster", tmp_path / "local"
    api.build(8, on_cluster, False, scheduler=cluster.scheduler_address, pits=4)
    api.build(8, local, False, pits=4)
    assert files_of(on_cluster) == files_of(local) != {}


def test_a_cluster_build_resumes_from_the_finished_levels(cluster, tmp_path):
    api.build(6, tmp_path)
    seen = []
    report = api.build(8, tmp_path, scheduler=cluster.scheduler_address, progress=seen.append)
    assert report.loaded == [1, 2, 3, 4, 5, 6] and report.built == [7, 8]
    assert api.verify(tmp_path, sample=5, seed=1).ok


def test_the_pieces_of_a_bucket_go_to_every_worker(cluster, tmp_path):
    """Finer than one task per group of a level: every bucket of a level is cut into pieces,
    and the pieces of one level run on both workers."""
    family = Family(6, True, 1)
    with LocalExecutor() as local:
        build_levels(11, tmp_path, family, local, MemoryBudget())
    with table_cluster.DaskExecutor(cluster.scheduler_address, 1) as executor:
        executor.piece_size = lambda size: max(1, size // 8)  # many small pieces
        build_levels(12, tmp_path, family, executor, MemoryBudget())
    workers = Counter(worker for level, _, _, _, worker in executor.tasks if level == 12)
    assert len(workers) == 2 and min(workers.values()) > 10
    assert sum(end - begin for level, _, begin, end, _ in executor.tasks if level == 12) \
        == family.size(12)
    assert api.verify(tmp_path, sample=10, seed=2).ok


def test_a_level_of_28_stones_keeps_32_workers_busy():
    """The plan, not a run: every bucket holding more than 32 minimal tasks' worth of positions
    has at least 32 tasks, and the buckets with fewer hold a small share of the level."""
    rows = table_cluster.plan(6, 28, 32)
    total = sum(r["positions"] for r in rows)
    assert total == Family(6).size(28)
    busy = sum(r["positions"] for r in rows if r["tasks"] >= 32)
    assert busy / total > 0.98
    assert sum(r["tasks"] for r in rows) > 32 * 28 // 2 + 1


def test_an_unreachable_scheduler_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(table_cluster, "CONNECT_TIMEOUT", 1.0)
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(TableError, match="cannot reach the Dask scheduler"):
        api.build(3, tmp_path, scheduler=f"tcp://127.0.0.1:{port}")


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "localhost:8786", "[::1]:8786",
                                     " tcp://scheduler.example.org:8786 "])
def test_a_scheduler_address_has_a_host_and_a_port(address):
    assert check_scheduler(address) == address.strip()


@pytest.mark.parametrize("address", ["tls://127.0.0.1:8786", "ucx://127.0.0.1:8786",
                                     "inproc://127.0.0.1:1"])
def test_a_scheduler_address_of_another_protocol_is_refused_without_trying_it(address):
    with pytest.raises(TableError, match="only tcp:// addresses are supported"):
        check_scheduler(address)


@pytest.fixture
def server(request):
    """A TCP server on 127.0.0.1 that accepts every connection and sends it ``request.param``
    (b"": nothing), then holds it open (None: closes it at once): not a Dask scheduler. Yields
    its address."""
    import threading
    listener = socket.create_server(("127.0.0.1", 0))
    held = []

    def serve():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            if request.param is None:       # hangs up at once
                connection.close()
                continue
            held.append(connection)
            connection.sendall(request.param)
    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for connection in held:
        connection.close()


NOT_DASK = "the server there answers, but not as a Dask scheduler"
# a message framed as Dask frames it (length, frame count, frame lengths), not msgpack inside
FRAMED_GARBAGE = b"".join(n.to_bytes(8, "little") for n in (20, 1, 4)) + b"\xc1" * 4


@pytest.mark.parametrize("server, says", [
    (b"", "no answer in 1 s"),                          # silent: Dask would wait forever
    (None, "it closed the connection without a word"),
    (b"\x01", NOT_DASK),                                # a short frame, then silence
    ((1 << 40).to_bytes(8, "little"), NOT_DASK),        # a frame of a terabyte
    (b"SSH-2.0-OpenSSH_9.2\r\n", NOT_DASK),
    (bytes.fromhex("0100000000000000ffffffffffffff7f"), NOT_DASK),    # Dask: a struct.error
    ((64).to_bytes(8, "little") + (1).to_bytes(8, "little"),           # a valid start, then
     "it accepted the connection but did not complete Dask's handshake in 2 s"),    # silence
    (FRAMED_GARBAGE, r"FormatError \(is it a Dask scheduler\?\)"),
], indirect=["server"])
def test_a_server_that_is_not_a_scheduler_is_refused_in_one_line(server, says, tmp_path,
                                                                 monkeypatch):
    monkeypatch.setattr(table_cluster, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(TableError, match=f"cannot reach the Dask scheduler at {server}: {says}"):
        api.build(3, tmp_path, scheduler=server)


@pytest.mark.parametrize("server", [FRAMED_GARBAGE], indirect=True)
def test_dask_s_own_complaint_about_a_server_stays_off_the_command_s_stderr(server):
    from test_cli import run
    done = run("solve", "mancala", "--pits", "2", "--stones", "1", "--scheduler", server)
    assert done.returncode == 2 and done.stderr.count("\n") == 1   # no logged traceback
    assert done.stderr.startswith(f"solver: error: cannot reach the Dask scheduler at {server}")


def test_while_dask_is_kept_quiet_the_caller_s_own_logging_goes_on(caplog):
    """What a connect (``_client_in_time``) wraps Dask's handshake in: Dask's loggers say
    nothing, every other logger goes on, and Dask's levels are set back after."""
    import logging
    dask_level = logging.getLogger("distributed").level
    with caplog.at_level(logging.WARNING), table_cluster._dask_logs_held():
        logging.getLogger("caller").warning("the caller's line")
        logging.getLogger("distributed.protocol.core").critical("Dask's complaint")
        logging.getLogger("distributed").critical("Dask's other complaint")
    assert "the caller's line" in caplog.text
    assert "complaint" not in caplog.text
    assert logging.getLogger("distributed").level == dask_level


@pytest.mark.parametrize("address", ["tcp://a..b:8786", ".:8786", "x" * 300 + ":80"])
def test_a_host_name_the_resolver_cannot_encode_is_one_line(address, tmp_path):
    with pytest.raises(TableError, match="is not a host name"):
        api.build(3, tmp_path, scheduler=address)


@pytest.mark.parametrize("address", ["", "garbage", "tcp://127.0.0.1", "127.0.0.1:port",
                                     "tcp://host:8786/extra", "a b:1", "tcp://127.0.0.1:0",
                                     "tcp://127.0.0.1:99999", "[::1]:65536",
                                     "127.0.0.1:\u0668\u0667\u0668\u0666",
                                     "127.0.0.1:8786\u00a0"])
def test_a_malformed_scheduler_address_is_refused_without_trying_it(address):
    with pytest.raises(TableError, match=r"an address is \[PROTOCOL://\]HOST:PORT"):
        check_scheduler(address)


@pytest.fixture
def failing_worker_cluster(tmp_path):
    """A worker whose table pieces fail, as on a worker that is killed or cannot write the
    folder."""
    yield from cluster_with_a_changed_worker(
        tmp_path, "tables", "distributed.py",
        "\n\ndef compute_piece(*args, **kwargs):\n    raise OSError('the worker failed')\n")


def test_a_piece_that_fails_on_its_worker_ends_the_build_with_one_line(failing_worker_cluster,
                                                                       tmp_path, monkeypatch):
    """Sent straight to the cluster (the code check would refuse this worker first); the
    levels built before stay, and a rerun elsewhere finishes the build."""
    from distributed import Client
    monkeypatch.setattr(table_cluster, "connect", lambda scheduler: Client(scheduler))
    api.build(6, tmp_path)
    with pytest.raises(TableError, match=r"a table piece failed on the cluster \(OSError: "
                                         r"the worker failed\); a rerun resumes"):
        api.build(8, tmp_path, scheduler=failing_worker_cluster)
    assert api.build(8, tmp_path).loaded == [1, 2, 3, 4, 5, 6]


"""The table build on a Dask cluster: each bucket's pieces as tasks, files as the medium.

The level loop is ``tables.levels.build_levels``, the same as a local build's; only the
executor differs. Within a bucket no position reads another, so a bucket is cut into pieces of
about equal size, enough of them to give every worker several (``piece_size``), each one task::

    client (the level loop)                 worker (one task = one piece of one bucket)
    -----------------------                 -------------------------------------------
    flush the working file of level n
    submit the bucket's pieces    ------->  map levels 1..n-1 and the working file of level n
                                            (read only), compute the piece's values, write
                                            DIR/<level file>.piece-DDD-BEGIN-END (atomic,
                                            with its sha256)
    read each piece (checksum), scatter <-  {name, begin, end, worker}
    it into the working file; next bucket

Levels and buckets stay in order (a bucket reads the earlier ones); a level of n stones has
(m - 1) n + 1 buckets, so a level is many short rounds of many tasks rather than n // 2 + 1
long ones: a level of 28 stones (1.7e9 positions) keeps 32 workers busy (``plan``). Every
worker must see the table directory at the same path; the level files are byte-identical to a
local build's.
"""
from __future__ import annotations

import contextlib
import logging
import math
import os
import socket
import threading
import time
from pathlib import Path

from tables import build as builder
from tables.address import check_scheduler, host_and_port
from tables.errors import TableError
from tables.format import Family, header_bytes, level_filename, read_header
from tables.levels import read_piece, work_path, write_piece
from tables.mapping import MappedLevels

# The Numba workqueue threading layer must not run two parallel kernels at once in a process.
_KERNEL_LOCK = threading.Lock()
CONNECT_TIMEOUT = 10.0   # seconds a client tries to reach the scheduler before giving up
HANDSHAKE_MAX = 1 << 24  # bytes: a Dask handshake message is far smaller (about 60)
TASKS_PER_WORKER = 4     # pieces per worker and bucket, so that uneven tasks even out
MIN_TASK = 1 << 16       # positions: below this a task costs more to schedule than to compute
MAX_TASK = 1 << 23       # positions: a lost task costs at most this much work again


def piece_size(bucket_size: int, workers: int) -> int:
    """Positions per task of a bucket on ``workers`` workers."""
    target = math.ceil(bucket_size / (TASKS_PER_WORKER * max(1, workers)))
    return max(MIN_TASK, min(MAX_TASK, target))


def plan(pits: int, level: int, workers: int) -> list[dict]:
    """The tasks of a level on ``workers`` workers, bucket by bucket: {distance, positions,
    tasks, largest}. A bucket keeps every worker busy when it has at least ``workers`` tasks."""
    rows = []
    for distance in builder.distances(pits, level):
        size = builder.bucket(pits, level, distance).size
        per_task = piece_size(size, workers)
        rows.append(dict(distance=distance, positions=size, tasks=math.ceil(size / per_task),
                         largest=min(per_task, size)))
    return rows


# --- worker side ---------------------------------------------------------------------------------

def compute_piece(directory: str, family: Family, level: int, distance: int, begin: int,
                  end: int, threads: int | None = None) -> dict:
    """One task: positions begin..end-1 of a bucket, written to their piece file."""
    directory = Path(directory)
    files = [(path, read_header(path)[1], False)
             for path in (directory / level_filename(lv, family) for lv in range(1, level))]
    work = work_path(directory, level, family)
    files.append((work, len(header_bytes(level, family, "0" * 64)), False))
    with _KERNEL_LOCK:
        mapping = MappedLevels(family.pits, files)
        if threads is not None:
            builder.set_threads(threads)
        part = builder.bucket(family.pits, level, distance)
        values = builder.compute(part, begin, end, family.capture_empty, mapping.data,
                                 mapping.offsets)
        del mapping
    path = write_piece(directory, level, family, distance, begin, values)
    try:
        from distributed import get_worker
        worker = get_worker().address
    except (ImportError, ValueError):
        worker = f"pid {os.getpid()}"
    return dict(name=path.name, begin=begin, end=end, worker=worker)


# --- client side ---------------------------------------------------------------------------------

def connect(scheduler: str, modules: tuple[str, ...] = ("tables",)):
    """A Dask client of the scheduler at ``scheduler`` whose scheduler and workers can all
    import ``modules`` (the code the tasks name), and whose workers run the same code as this
    client (:func:`code_digest`). Checked now, so that a cluster started in another environment,
    or before the code changed, fails at once with one line instead of in the middle of a run."""
    scheduler = check_scheduler(scheduler)
    try:
        from distributed import Client
    except ImportError:
        raise TableError("running on a Dask cluster needs dask and distributed: "
                         "pip install 'solver[distributed]'") from None
    check_it_speaks_dask(scheduler, CONNECT_TIMEOUT)
    client = _client_in_time(Client, scheduler, CONNECT_TIMEOUT)
    try:
        client.run_on_scheduler(code_digest, modules)
        digests = client.run(code_digest, modules)
    except Exception as error:  # whatever the remote side raised: its message, on one line
        client.close()
        raise TableError(f"the Dask cluster at {scheduler} cannot run this program's tasks "
                         f"({_first_line(error)}): start its scheduler and workers where "
                         f"{' and '.join(modules)} import, e.g. after pip install -e . "
                         f"in this checkout") from None
    ours = code_digest(modules)
    stale = sorted(worker for worker, digest in digests.items() if digest != ours)
    if stale:
        client.close()
        raise TableError(f"{len(stale)} of the {len(digests)} Dask workers at {scheduler} run "
                         f"other code than this program ({' and '.join(modules)} differ, e.g. "
                         f"on {stale[0]}): restart them after the code changed")
    return client


def check_it_speaks_dask(scheduler: str, timeout: float) -> None:
    """TableError unless the server at ``scheduler`` answers a new connection the way a Dask
    scheduler does, within ``timeout`` seconds: it speaks first, a message whose first 8 bytes
    give its length and the next 8 its count of frames (Dask's TCP framing). Dask's own
    connect times out on the connection only, then waits for that message without end, so a
    port that accepts and stays silent would hang the client; and a server that answers
    otherwise makes Dask fail with whatever error its bytes cause (a traceback, or a huge
    allocation). A refused connection is tried again until the timeout, as Dask does (a
    scheduler may be starting)."""
    host, port = host_and_port(scheduler)
    deadline = time.monotonic() + timeout
    where = f"cannot reach the Dask scheduler at {scheduler}"
    while True:
        try:
            with socket.create_connection((host, port), timeout=timeout) as connection:
                head = _first_bytes(connection, 16, deadline)
            break
        except ConnectionRefusedError:
            if time.monotonic() + 0.2 >= deadline:
                raise TableError(f"{where}: connection refused for {timeout:g} s") from None
            time.sleep(0.2)
        except TimeoutError:
            raise TableError(f"{where}: no answer in {timeout:g} s (is it a Dask scheduler?)"
                             ) from None
        except OSError as error:
            raise TableError(f"{where}: {error.strerror or _first_line(error)}") from None
        except ValueError:     # UnicodeError: a name the resolver cannot encode ("a..b")
            raise TableError(f"{where}: {host!r} is not a host name") from None
    if not head:
        raise TableError(f"{where}: it closed the connection without a word (is it a Dask "
                         "scheduler?)")
    length, frames = int.from_bytes(head[:8], "little"), int.from_bytes(head[8:], "little")
    if len(head) < 16 or not 16 <= length <= HANDSHAKE_MAX or not 1 <= frames <= 1024:
        raise TableError(f"{where}: the server there answers, but not as a Dask scheduler")


@contextlib.contextmanager
def _dask_logs_held():
    """Dask's loggers (``distributed`` and below) say nothing meanwhile; every other logger of
    the process, the caller's included, goes on as it was."""
    names = {"distributed"} | {name for name in list(logging.root.manager.loggerDict)
                               if name.startswith("distributed.")}
    levels = [(logger, logger.level) for logger in map(logging.getLogger, sorted(names))]
    try:
        for logger, _ in levels:
            logger.setLevel(logging.CRITICAL + 1)
        yield
    finally:
        for logger, level in levels:
            logger.setLevel(level)


def _client_in_time(make_client, scheduler: str, timeout: float):
    """``make_client(scheduler)``, on a thread of its own, given ``timeout`` seconds for Dask's
    connect and as many again for its handshake, which Dask waits for without end (a server
    that sends a valid-looking start and then stalls). Dask's own log lines are held back
    meanwhile (a server that is not quite a scheduler makes it log a traceback on stderr):
    whatever goes wrong is one TableError. A client made after the time was up is closed."""
    where = f"cannot reach the Dask scheduler at {scheduler}"
    made, gave_up = {}, threading.Event()

    def make() -> None:
        try:
            made["client"] = client = make_client(scheduler, timeout=f"{timeout}s")
            if gave_up.is_set():
                client.close()
        except BaseException as error:  # noqa: BLE001 (reported by the waiting thread)
            made["error"] = error
    with _dask_logs_held():
        thread = threading.Thread(target=make, name="dask-connect", daemon=True)
        thread.start()
        thread.join(2 * timeout)
    if thread.is_alive():
        gave_up.set()
        raise TableError(f"{where}: it accepted the connection but did not complete Dask's "
                         f"handshake in {2 * timeout:g} s (is it a Dask scheduler?)")
    if "error" in made:          # whatever a server that is not quite a scheduler made Dask raise
        raise TableError(f"{where}: {_first_line(made['error'])} (is it a Dask scheduler?)"
                         ) from None
    return made["client"]


def _first_bytes(connection: socket.socket, count: int, deadline: float) -> bytes:
    """Up to ``count`` bytes the peer sends first: fewer if it closes or stops before
    ``deadline``; TimeoutError if it has sent nothing by then."""
    head = b""
    while len(head) < count:
        left = deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            connection.settimeout(left)
            chunk = connection.recv(count - len(head))
        except TimeoutError:
            if head:
                break
            raise
        if not chunk:
            break
        head += chunk
    return head


_digests: dict[tuple[str, ...], str] = {}


def code_digest(modules: tuple[str, ...]) -> str:
    """A sha256 of the source files (.py, .pyx, .pxd) of the packages ``modules``, taken the
    first time a process asks: a worker that loaded its code before the files changed keeps
    answering with the digest of the code it runs."""
    key = tuple(modules)
    if key not in _digests:
        import hashlib
        import importlib
        digest = hashlib.sha256()
        for name in key:
            module = importlib.import_module(name)
            top = Path(module.__file__).parent
            files = sorted(top.rglob("*.py*")) if hasattr(module, "__path__") else \
                [Path(module.__file__)]
            for path in files:
                if path.suffix in (".py", ".pyx", ".pxd"):
                    digest.update(f"{name}/{path.relative_to(top)}\0".encode())
                    digest.update(path.read_bytes())
        _digests[key] = digest.hexdigest()
    return _digests[key]


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0]}" if text else type(error).__name__


def task_result(future, client, futures, what: str, hint: str = "",
                passes: tuple[type[BaseException], ...] = (TableError,)):
    """A finished task's result. A task that failed on its worker (a worker killed, a folder
    it cannot read or write) cancels ``futures`` and ends the run with one line, a
    ``TableError`` naming ``what`` failed (errors of the types ``passes``, already one line
    for the user, go through as they are)."""
    try:
        return future.result()
    except passes:
        client.cancel(futures)
        raise
    except Exception as error:
        client.cancel(futures)
        raise TableError(f"{what} failed on the cluster ({_first_line(error)}){hint}") from None


class DaskExecutor:
    """Pieces as tasks on the cluster at ``scheduler``; ``threads`` Numba threads per task.
    ``tasks`` records every task run: (level, distance, begin, end, worker)."""

    places_values = False   # the client puts each piece's values in the level

    def __init__(self, scheduler: str, threads: int | None = None):
        self.scheduler, self.threads = scheduler, threads
        self.tasks: list[tuple] = []

    def __enter__(self):
        self.client = connect(self.scheduler)
        self.workers = len(self.client.scheduler_info().get("workers", {}))
        return self

    def __exit__(self, *exc):
        self.client.close()

    def piece_size(self, bucket_size: int) -> int:
        return piece_size(bucket_size, self.workers)

    def run(self, directory: Path, family: Family, part, ranges, mapping, budget=None):
        from distributed import as_completed
        if not ranges:
            return
        mapping.flush()  # the workers read the working file from the disk
        run = f"{os.getpid()}-{time.time_ns()}"  # task keys unique to this run
        futures = [self.client.submit(compute_piece, str(directory), family, part.level,
                                      part.distance, begin, end, self.threads, pure=False,
                                      key=f"mancala-table-{part.level}-{part.distance}-{begin}-"
                                          f"{run}")
                   for begin, end in ranges]
        for future in as_completed(futures):
            result = task_result(future, self.client, futures, "a table piece",
                                 "; a rerun resumes")
            values = read_piece(directory / result["name"], part.level, family, part.distance,
                                result["begin"], result["end"])
            if values is None:
                self.client.cancel(futures)
                raise TableError(f"piece {result['name']} is missing or damaged: do the "
                                 f"workers share {directory}? (a rerun resumes)")
            self.tasks.append((part.level, part.distance, result["begin"], result["end"],
                               result["worker"]))
            yield result["begin"], values

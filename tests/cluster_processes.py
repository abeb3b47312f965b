"""Real Dask processes for the cluster tests: a scheduler and a worker started as commands,
one of them in a changed environment."""
import importlib
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path


def cluster_with_a_changed_worker(tmp_path, package: str, changed_file: str, appended: str):
    """A real scheduler and one worker that runs a copy of the package ``package`` with
    ``appended`` added to its file ``changed_file``; yields the scheduler's address once the
    worker is in."""
    import distributed
    copy = tmp_path / "changed" / package
    shutil.copytree(Path(importlib.import_module(package).__file__).parent, copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    with open(copy / changed_file, "a") as changed:
        changed.write(appended)
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                  "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                 stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                               "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                              cwd=copy.parent, stderr=subprocess.DEVNULL,
                              env=dict(os.environ, PYTHONPATH=str(copy.parent)))
    try:
        wait_for_port(port)
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(1, timeout=60)
        yield address
    finally:
        for process in (worker, scheduler):
            process.kill()
            process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"no scheduler on port {port} after {seconds} s")

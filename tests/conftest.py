import random
import signal

import pytest


@pytest.fixture
def rng():
    """A fixed-seed random generator: tests with randomness are reproducible."""
    return random.Random(20261129)


@pytest.fixture(scope="module")
def cluster():
    """A real Dask cluster: two worker processes on loopback."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as running:
        yield running


@pytest.fixture(autouse=True, scope="session")
def ctrl_c_reaches_the_commands():
    """Tests press Ctrl-C in the commands they start, as a terminal would. A test run started
    in the background by a shell without job control (``cmd &``) inherits SIGINT ignored, and
    so would every command it starts, which then rightly ignores Ctrl-C (``solver.command``):
    the Ctrl-C tests would fail or, where finishing first is allowed, test nothing. A handler
    here (never an ignore) makes the commands start with SIGINT's default, as from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield

import random

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

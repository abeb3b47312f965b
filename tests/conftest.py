import random

import pytest


@pytest.fixture
def rng():
    """A fixed-seed random generator: tests with randomness are reproducible."""
    return random.Random(20261129)

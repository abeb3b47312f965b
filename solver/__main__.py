"""``python -m solver`` is the ``solver`` command."""
from solver.cli import run

run()

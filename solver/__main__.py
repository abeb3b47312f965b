"""``python -m solver`` is the ``solver`` command."""
from solver.command import run

run()

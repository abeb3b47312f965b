"""``python -m solver`` is the ``solver`` command."""
import os
import sys

# Run from inside this folder, ``python -m`` puts it first on the path, where solver/tables.py
# would hide the top-level ``tables`` package: drop it (the package is found from its parent).
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != _HERE]

from solver.command import run  # noqa: E402  (after the path is mended)

run()

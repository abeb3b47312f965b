"""``python -m solver`` is the ``solver`` command."""
import sys

from solver.cli import main

sys.exit(main())

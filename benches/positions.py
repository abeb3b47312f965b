"""Reads the fixed position lists in ``benches/positions/``."""
from pathlib import Path

HERE = Path(__file__).parent / "positions"


def mancala_positions():
    """[(name, position text, capture_empty)] in file order."""
    rows = []
    for line in (HERE / "mancala.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, position, capture = (field.strip() for field in line.split(";"))
            rows.append((name, position, capture == "1"))
    return rows

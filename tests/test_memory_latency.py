"""benches/memory_latency.py: its chase passes every cache line of the block once, and the
command prints one row per size."""
import subprocess
import sys
from pathlib import Path

import numpy as np

from benches import memory_latency

ROOT = Path(__file__).resolve().parent.parent


def test_the_chase_passes_every_line_once_before_it_comes_back():
    lines = 1000
    words = np.zeros(memory_latency.LINE_WORDS * lines, np.uint64)
    memory_latency.link_random_cycle(words, 12345)
    seen, at = set(), 0
    for _ in range(lines):
        seen.add(at)
        at = int(words[at])
    assert at == 0
    assert len(seen) == lines
    assert all(line % memory_latency.LINE_WORDS == 0 for line in seen)
    assert memory_latency.chase(words, 0, lines) == 0      # the compiled chase agrees


def test_the_command_prints_a_row_of_positive_times_per_size():
    run = subprocess.run([sys.executable, "benches/memory_latency.py", "--sizes", "1", "2",
                          "--steps", "1000", "--repeats", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = [line.split() for line in run.stdout.splitlines()[2:]]
    assert [row[0] for row in rows] == ["1", "2"]
    for row in rows:    # dependent, independent, in flight: the last three columns
        assert all(float(value) > 0 for value in row[-3:])


def test_a_size_below_one_megabyte_is_refused_before_any_memory_is_asked_for():
    run = subprocess.run([sys.executable, "benches/memory_latency.py", "--sizes", "0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    assert "error: sizes >= 1 MB" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_block_the_machine_cannot_hold_is_one_line_and_exit_1():
    """953 TB: more than a 64-bit process can map, whatever the overcommit setting."""
    run = subprocess.run([sys.executable, "benches/memory_latency.py", "--sizes", "1000000000"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [run.stderr.strip()]
    assert "error: cannot allocate 1000000000 MB" in run.stderr

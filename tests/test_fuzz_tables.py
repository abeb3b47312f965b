"""Property-based fuzzing of table files: flipped bytes, truncation, appended bytes and headers
swapped between files. Whatever the damage, opening a file, listing a folder and loading it for
search either give back exactly the values written or refuse with one TableError line; the CLI
on a damaged folder exits 0 or 2 with one line, never a traceback."""
import json
import os
import shutil
import struct
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables import format as fmt
from tables import index
from tables.errors import TableError

SIX = fmt.Family(6, True, 1)
LEVELS = (2, 3)
EXAMPLES = 400 if os.environ.get("HYPOTHESIS_PROFILE") == "slow" else 60


def write_levels(directory):
    bodies = {}
    for level in LEVELS:
        body = (np.arange(index.level_size(level)) % 11 - 5).astype(np.int8)
        fmt.write_table(directory / fmt.level_filename(level, SIX), level, SIX, body)
        bodies[level] = body
    return bodies


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    directory = tmp_path_factory.mktemp("pristine")
    return directory, write_levels(directory)


damage = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(1, 255)),
    st.tuples(st.just("truncate"), st.integers(0, 10**6), st.just(0)),
    st.tuples(st.just("append"), st.integers(1, 64), st.integers(0, 255)),
    st.tuples(st.just("swap-headers"), st.just(0), st.just(0)),
)


def damaged_copy(pristine, tmp_path, kind, where, value):
    source, _ = pristine
    directory = tmp_path / "damaged"
    shutil.rmtree(directory, ignore_errors=True)
    shutil.copytree(source, directory)
    paths = [directory / fmt.level_filename(level, SIX) for level in LEVELS]
    raw = paths[0].read_bytes()
    if kind == "flip":
        at = where % len(raw)
        raw = raw[:at] + bytes([raw[at] ^ value]) + raw[at + 1:]
    elif kind == "truncate":
        raw = raw[:where % len(raw)]
    elif kind == "append":
        raw = raw + bytes([value]) * where
    else:   # the first file's header on the second file's body
        other = paths[1].read_bytes()
        head = 12 + struct.unpack_from("<I", raw, 8)[0]
        other_head = 12 + struct.unpack_from("<I", other, 8)[0]
        raw = raw[:head] + other[other_head:]
    paths[0].write_bytes(raw)
    return directory, paths[0]


@settings(max_examples=EXAMPLES, deadline=10_000,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(change=damage)
def test_a_damaged_file_is_read_exactly_or_refused_in_one_line(pristine, tmp_path, change):
    _, bodies = pristine
    directory, path = damaged_copy(pristine, tmp_path, *change)
    level = LEVELS[0]
    try:
        fmt.open_table(path, level, SIX, verify=True)
        body = fmt.read_body(path, level, SIX)
    except TableError as error:
        assert "\n" not in str(error) and path.name in str(error)
        return
    assert np.array_equal(body, bodies[level]), "a damaged file was read as good"


def test_the_cli_on_damaged_folders_is_one_line_or_a_clean_answer(pristine, tmp_path):
    for change in [("flip", 5, 1), ("flip", 40, 8), ("truncate", 30, 0), ("append", 3, 7),
                   ("swap-headers", 0, 0)]:
        directory, _ = damaged_copy(pristine, tmp_path, *change)
        for command in (["info"], ["verify"]):
            done = subprocess.run([sys.executable, "-m", "solver", "tables", *command, "--dir",
                                   str(directory), "--json"], capture_output=True, text=True,
                                  timeout=120)
            assert "Traceback" not in done.stderr, (change, command, done.stderr)
            assert done.returncode in (0, 1, 2), (change, done.returncode)
            if done.returncode == 2:
                assert done.stderr.count("\n") == 1
            else:
                json.loads(done.stdout)

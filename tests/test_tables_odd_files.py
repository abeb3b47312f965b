"""What stands where a table file should be: a folder, a pipe, a device, a stamps file nested
too deeply. Every command refuses such a level in one line (a pipe must not block it), and
`tables verify` fails where a search would; damaged stamps cost only a hash."""
import os
import subprocess
import sys

import pytest

from test_cli import assert_one_line_error

LEVEL_6 = "mancala3-capture-empty-level-06.tbl"
LEVEL_3 = "mancala3-capture-empty-level-03.tbl"
POSITION = "1,2,0/0,2,1 0-0 A"        # 6 stones in the pits: level 6


def solver(*args):
    return subprocess.run([sys.executable, "-m", "solver", *map(str, args)],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tables")
    assert solver("tables", "build", "mancala", "--pits", "3", "--max-stones", "6",
                  "--workers", "1", "--dir", folder).returncode == 0
    return folder


@pytest.fixture
def tables(built, tmp_path):
    copy = tmp_path / "tables"
    copy.mkdir()
    for path in built.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    return copy


def _replace(path, kind):
    path.unlink()
    if kind == "folder":
        path.mkdir()
    elif kind == "pipe":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")


@pytest.mark.parametrize("kind", ["folder", "pipe", "device"])
def test_an_odd_file_for_a_level_is_one_line_in_every_command(tables, kind):
    _replace(tables / LEVEL_6, kind)
    for args in (["tables", "probe", "--dir", tables, POSITION],
                 ["best", "mancala", POSITION, "--exact", "--tables", tables],
                 ["tables", "build", "mancala", "--pits", "3", "--max-stones", "6", "--dir",
                  tables],
                 ["tables", "verify", "--dir", tables]):
        done = solver(*args)
        if args[1] == "build":          # after its progress lines
            assert done.returncode == 2 and "Traceback" not in done.stderr
            assert done.stderr.splitlines()[-1].startswith("solver: error: table file")
        else:
            assert_one_line_error(done)
        assert "not a regular file" in done.stderr, (args, done.stderr)


def test_verify_fails_on_a_level_that_a_search_would_refuse(tables):
    _replace(tables / LEVEL_3, "folder")
    search = solver("best", "mancala", POSITION, "--exact", "--tables", tables)
    verify = solver("tables", "verify", "--dir", tables)
    assert_one_line_error(search)
    assert_one_line_error(verify)


def test_stamps_nested_too_deeply_cost_only_a_hash(tables):
    (tables / ".verified.json").write_text("[" * 100_000 + "]" * 100_000)
    for args in (["tables", "verify", "--dir", tables],
                 ["tables", "probe", "--dir", tables, POSITION],
                 ["best", "mancala", POSITION, "--exact", "--tables", tables]):
        done = solver(*args)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr

"""A search trusts a level file without hashing it only if that very file was found whole before
(tables/format.py, "trusting a file already hashed"): a body damaged since, in place or by a
copy, is refused with one line, and a file already hashed is not hashed again."""
import os
import shutil

import pytest

from solver import tables as api
from tables import format as table_format
from tables.api import load_for_search
from tables.errors import TableError
from tables.format import STAMPS, Family, level_filename
from test_cli import run

PITS, TOP = 3, 6
FAMILY = Family(PITS, True, 1)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    directory = tmp_path_factory.mktemp("trusted")
    api.build(TOP, directory, pits=PITS)
    return directory


@pytest.fixture
def folder(built, tmp_path):
    copy = tmp_path / "tables"
    shutil.copytree(built, copy)
    return copy


def flip_last_byte_in_place(path):
    with open(path, "r+b") as f:      # the same file (inode), rewritten
        f.seek(-1, os.SEEK_END)
        last = f.read(1)[0]
        f.seek(-1, os.SEEK_END)
        f.write(bytes([last ^ 0x04]))


def count_hashes(monkeypatch):
    hashed = []
    real = table_format.file_digest

    def counting(path, offset):
        hashed.append(path.name)
        return real(path, offset)
    monkeypatch.setattr(table_format, "file_digest", counting)
    return hashed


def test_a_build_leaves_its_levels_trusted(built, monkeypatch):
    assert (built / STAMPS).exists()
    hashed = count_hashes(monkeypatch)
    assert load_for_search(built, FAMILY).max_level == TOP
    assert hashed == []


def test_a_copied_folder_is_hashed_once_then_trusted(folder, monkeypatch):
    hashed = count_hashes(monkeypatch)
    load_for_search(folder, FAMILY)
    assert len(hashed) == TOP          # a copy is another file: its stamps do not match
    load_for_search(folder, FAMILY)
    assert len(hashed) == TOP


def test_a_body_damaged_in_place_after_the_build_is_refused(folder):
    load_for_search(folder, FAMILY)    # hashed and trusted
    flip_last_byte_in_place(folder / level_filename(4, FAMILY))
    with pytest.raises(TableError, match="level-04.tbl: corrupted"):
        load_for_search(folder, FAMILY)


def test_the_commands_refuse_a_damaged_body_in_one_line(folder):
    flip_last_byte_in_place(folder / level_filename(4, FAMILY))
    for args in (["best", "mancala", "--pits", "3", "--stones", "2", "--exact",
                  "--tables", str(folder)],
                 ["tables", "probe", "1,1,1/1,0,0 0-0 A", "--dir", str(folder)]):
        done = run(*args)
        assert done.returncode == 2, args
        assert done.stderr.strip().splitlines() == [     # the folder named: it may be the default
            f"solver: error: table file {folder / 'mancala3-capture-empty-level-04.tbl'}: "
            "corrupted (its body does not match its sha256)"]


def test_damaged_stamps_only_cost_a_hash(folder, monkeypatch):
    (folder / STAMPS).write_text("{not json")
    hashed = count_hashes(monkeypatch)
    assert load_for_search(folder, FAMILY).max_level == TOP
    assert len(hashed) == TOP

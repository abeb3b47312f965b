"""The table API: build (resumable, also after kill -9 in the middle of a level), info,
verify, probe, and the arrays and Numba probe that alpha-beta receives."""
import mmap
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from solver import tables as api
from solver.games.mancala import api as mancala
from tables import api as tables_api, build, index, rank
from tables.errors import TableError
from tables.format import Family, level_filename as _level_filename
from tables.levels import found_pieces
from tables.probe import NO_ENTRY, probe


def level_filename(level: int, capture_empty: bool, pits: int = 6) -> str:
    return _level_filename(level, Family(pits, capture_empty, 1))

TOP = 9  # levels 1..9: 293,929 positions, well under a second


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One finished build for both rules, shared by the read-only tests."""
    directory = tmp_path_factory.mktemp("tables")
    api.build(TOP, directory, capture_empty=True)
    api.build(TOP, directory, capture_empty=False)
    return directory


def files_of(directory):
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.tbl"))}


def test_the_default_directory_is_a_per_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert api.default_directory() == tmp_path / "solver" / "tables"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert api.default_directory() == tmp_path / "home" / ".local" / "share" / "solver" / "tables"


def test_a_relative_xdg_data_home_is_ignored_as_the_specification_says(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert api.default_directory() == tmp_path / "home" / ".local" / "share" / "solver" / "tables"


def test_a_build_writes_one_file_per_level_with_the_in_memory_values(built):
    tables = build.build_in_memory(TOP, True)
    for level in range(1, TOP + 1):
        body = tables_api.level_values(built, level, Family(6, True, 1))
        assert np.array_equal(body, tables.level(level))


@pytest.mark.parametrize("pits", [1, 2, 3, 4, 5])
def test_every_board_builds_to_files_with_the_in_memory_values(tmp_path, pits):
    report = api.build(7, tmp_path, capture_empty=False, pits=pits)
    assert report.built == list(range(1, 8)) and report.pits == pits
    tables = build.build_in_memory(7, False, pits)
    for level in range(1, 8):
        body = tables_api.level_values(tmp_path, level, Family(pits, False, 1))
        assert np.array_equal(body, tables.level(level))
    assert api.info(tmp_path).levels(False, pits) == list(range(1, 8))
    assert api.verify(tmp_path, sample=20, seed=pits).ok


def test_a_rerun_verifies_finished_levels_and_only_builds_the_missing_ones(tmp_path):
    first = api.build(5, tmp_path)
    assert first.built == [1, 2, 3, 4, 5] and first.loaded == []
    before = files_of(tmp_path)
    stages = []
    again = api.build(7, tmp_path, progress=lambda p: stages.append((p.level, p.stage)))
    assert again.built == [6, 7] and again.loaded == [1, 2, 3, 4, 5]
    assert (3, "load") in stages and (7, "write") in stages and (7, "build") in stages
    after = files_of(tmp_path)
    assert {name: after[name] for name in before} == before
    finished = api.build(7, tmp_path)
    assert finished.built == [] and finished.loaded == list(range(1, 8))
    assert files_of(tmp_path) == after


def test_progress_counts_up_to_the_positions_of_the_run(tmp_path):
    seen = []
    api.build(6, tmp_path, workers=1, progress=seen.append)
    last = seen[-1]
    assert last.level == 6 and last.stage == "write"
    assert last.positions_done == last.positions_total == sum(index.level_size(n)
                                                              for n in range(1, 7))
    assert all(p.done <= p.total for p in seen) and last.seconds_left == 0


def test_a_corrupted_level_file_stops_the_build(tmp_path):
    api.build(4, tmp_path)
    path = tmp_path / level_filename(3, True)
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0x01
    path.write_bytes(bytes(raw))
    with pytest.raises(TableError, match="level-03.*corrupted"):
        api.build(4, tmp_path)  # nothing to build: every file is only verified
    with pytest.raises(TableError, match="level-03.*corrupted.*delete it and run the build"):
        api.build(6, tmp_path)  # level 3 is read for levels 5 and 6
    assert not (tmp_path / level_filename(5, True)).exists()
    assert path.read_bytes() == bytes(raw)      # the damaged file is kept, as it was
    path.unlink()                               # what the message says to do
    report = api.build(6, tmp_path)
    assert report.built == [3, 5, 6] and api.verify(tmp_path).ok


def test_a_second_build_of_the_same_tables_at_once_is_refused(tmp_path):
    with tables_api._build_lock(tmp_path, Family(6, True, 1)):
        with pytest.raises(TableError, match="another build"):
            api.build(2, tmp_path)
    api.build(2, tmp_path, capture_empty=True)


@pytest.mark.parametrize("bad", [0, -3, 49, 2.5, "7", True])
def test_impossible_max_stones_are_refused(tmp_path, bad):
    with pytest.raises(TableError, match="max-stones"):
        api.build(bad, tmp_path)


# --- interrupted builds ------------------------------------------------------------------------

STOP_AT = 9  # the subprocess stops half-way through this level, waiting to be killed

BUILDER = textwrap.dedent("""
    import signal, sys, time
    # Ctrl-C as a terminal delivers it, even when this suite runs in the background, where
    # the shell starts every child with SIGINT ignored
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from tables import api, levels
    levels.PERSIST_MIN = 1  # every piece to its file: level 9 is small
    def progress(p):
        if p.level == {stop} and p.stage == "build" and 0 < p.done < p.total:
            print("MIDDLE", flush=True)
            time.sleep(600)
    api.build({top}, sys.argv[1], progress=progress)
""")


def start_builder(directory, top):
    return subprocess.Popen([sys.executable, "-c", BUILDER.format(stop=STOP_AT, top=top),
                             str(directory)], stdout=subprocess.PIPE, text=True)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_a_build_killed_in_the_middle_of_a_level_resumes_to_identical_files(tmp_path, how):
    top = STOP_AT + 1
    interrupted, clean = tmp_path / "interrupted", tmp_path / "clean"
    builder = start_builder(interrupted, top)
    try:
        assert builder.stdout.readline().strip() == "MIDDLE"
        os.kill(builder.pid, how)
        builder.wait(timeout=60)
    finally:
        if builder.poll() is None:
            builder.kill()
    names = sorted(p.name for p in interrupted.glob("*.tbl"))
    assert names == [level_filename(n, True) for n in range(1, STOP_AT)]  # level 9 unfinished
    # An earlier crash in the middle of writing leaves a partial temporary file: ignored.
    (interrupted / (level_filename(STOP_AT, True) + ".tmp-99999")).write_bytes(b"partial")

    pieces = found_pieces(interrupted, STOP_AT, Family(6, True, 1))
    assert pieces  # the finished pieces of level 9, kept

    resumed = api.build(top, interrupted)
    assert resumed.loaded == list(range(1, STOP_AT)) and resumed.built == [STOP_AT, top]
    assert 0 < resumed.resumed < index.level_size(STOP_AT)  # not from the level's start
    assert resumed.positions == index.level_size(STOP_AT) + index.level_size(top) \
        - resumed.resumed
    api.build(top, clean)
    assert files_of(interrupted) == files_of(clean)
    assert api.info(interrupted).leftovers == []


# --- info, verify, probe -------------------------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda d: api.build(3, d, capture_empty="x", pits=3), "capture_empty must be True or False"),
    (lambda d: api.probe("1,1,1/1,1,1 0-0 A", d, capture_empty=None),
     "capture_empty must be True or False"),
    (lambda d: api.info(d, pits=0), "--pits must be a whole number 1..6"),
    (lambda d: api.load_for_search(d, pits=3, max_level=-1), "max_level must be a whole number"),
    (lambda d: api.load_for_search(d, pits=3, max_level=2.5), "max_level must be a whole number"),
    (lambda d: api.verify(d, sample=3, seed=[1]), "--seed must be a whole number"),
    (lambda d: api.verify(d, sample=10**30), "--sample must be a whole number 0..10"),
])
def test_an_argument_the_tables_cannot_take_is_refused(tmp_path, call, message):
    """A capture rule of 'x' used to read as True, a max_level of -1 as 'no levels'."""
    with pytest.raises(TableError, match=message):
        call(tmp_path)


def test_info_lists_every_level_of_both_rules(built):
    found = api.info(built)
    assert found.levels(True) == found.levels(False) == list(range(1, TOP + 1))
    assert all(f.problem is None and f.entries == index.level_size(f.level) for f in found.files)
    assert found.leftovers == []


def test_info_names_a_damaged_file_without_failing(built, tmp_path):
    copy = tmp_path / level_filename(2, True)
    copy.write_bytes((built / level_filename(2, True)).read_bytes()[:-5])
    (tmp_path / level_filename(3, True)).write_bytes((built / level_filename(2, True)).read_bytes())
    problems = {f.path.name: f.problem for f in api.info(tmp_path).files}
    assert "truncated" in problems[level_filename(2, True)]
    assert "named otherwise" in problems[level_filename(3, True)]


def test_verify_checks_every_file_and_recomputes_samples_by_search(built):
    report = api.verify(built, sample=30, seed=5)
    assert report.ok and len(report.samples) == 30 and len(report.files) == 2 * TOP
    assert {s.capture_empty for s in report.samples} == {True, False}
    assert all(s.table == s.search for s in report.samples)
    assert sum(s.exact is not None for s in report.samples) >= 20  # most also by exact search
    assert all(s.exact in (None, s.table) for s in report.samples)


def test_verify_samples_only_boards_whose_levels_start_at_one(built, tmp_path):
    for name, raw in files_of(built).items():
        if name != level_filename(1, True):            # capture_empty's level 1 is missing
            (tmp_path / name).write_bytes(raw)
    report = api.verify(tmp_path, sample=10, seed=1)
    assert len(report.samples) == 10 and not any(s.capture_empty for s in report.samples)
    assert all(s.table == s.search for s in report.samples)
    (tmp_path / level_filename(1, False)).unlink()
    report = api.verify(tmp_path, sample=3, seed=1)   # no level to sample: both rules' gaps
    assert report.samples == [] and not report.mismatches and not report.ok
    assert [(g.capture_empty, g.levels[0], g.search_uses_up_to) for g in report.gaps] == \
        [(False, 2, 0), (True, 2, 0)]


def test_verify_refuses_a_damaged_file(built, tmp_path):
    for name, raw in files_of(built).items():
        (tmp_path / name).write_bytes(raw)
    path = tmp_path / level_filename(TOP, False)
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2 + 300] ^= 0x40
    path.write_bytes(bytes(raw))
    with pytest.raises(TableError, match="corrupted"):
        api.verify(tmp_path)


def test_probe_gives_the_exact_value_and_best_moves(built):
    text = "1,0,2,0,0,1/0,3,0,0,1,0 20-17 B"
    found = api.probe(text, built)
    exact = mancala.best_move(text, exact=True, all_moves=True)
    assert found.level == 8 and found.value == exact.value
    assert found.gain == exact.value - (17 - 20)
    assert found.moves == exact.moves and exact.move in found.best


def test_probe_follows_the_capture_rule(built):
    assert api.probe("1,0,0,0,0,0/1,0,0,0,0,0 5-3 A", built, capture_empty=True).value == 2
    assert api.probe("1,0,0,0,0,0/1,0,0,0,0,0 5-3 A", built, capture_empty=False).value == 4


def test_probe_without_the_level_or_on_another_board_is_refused(built):
    with pytest.raises(TableError, match="no table for level 12"):
        api.probe("2,2,2,2,2,1/0,1,0,0,0,0 0-0 A", built)
    with pytest.raises(TableError, match="no table for level 6 \\(3 pits"):
        api.probe("1,1,1/1,1,1 0-0 A", built)


# --- what alpha-beta receives -------------------------------------------------------------------

def test_the_numba_probe_reads_every_loaded_level_and_nothing_beyond(built, rng):
    loaded = api.load_for_search(built, capture_empty=False)
    assert loaded.max_level == TOP and loaded.offsets.shape == (TOP + 2,)
    tables = build.build_in_memory(TOP, False)
    config = build.config_word(False)
    for _ in range(500):
        level = rng.randrange(0, TOP + 1)
        i = rng.randrange(index.level_size(level))
        mover, other = rank.unrank(6, level, i)
        stores = np.uint64(rng.randrange(20)) << np.uint64(48)  # stores never matter
        assert probe((mover | config | stores, other | config), loaded.data,
                     loaded.offsets) == tables.level(level)[i]
    beyond = index.pits_word((TOP + 1, 0, 0, 0, 0, 0))
    assert probe((beyond | config, index.pits_word((0, 0, 0, 0, 0, 1)) | config), loaded.data,
                 loaded.offsets) == NO_ENTRY
    small = mancala.to_packed(mancala.from_text("1,1,1/1,1,1 0-0 A"))
    assert probe(small, loaded.data, loaded.offsets) == NO_ENTRY


def test_the_probe_reads_the_tables_of_its_own_board_only(tmp_path, rng):
    api.build(6, tmp_path, pits=3)
    loaded = api.load_for_search(tmp_path, pits=3)
    tables = build.build_in_memory(6, True, 3)
    config = build.config_word(True, 3)
    for _ in range(200):
        level = rng.randrange(0, 7)
        i = rng.randrange(index.level_size(level, 3))
        mover, other = rank.unrank(3, level, i)
        assert probe((mover | config, other | config), loaded.data, loaded.offsets) \
            == tables.level(level)[i]
    six = build.config_word(True, 6)
    assert probe((np.uint64(1) | six, np.uint64(1) | six), loaded.data, loaded.offsets) \
        == NO_ENTRY


def _memory_of(array):
    """The object whose memory an array from ``np.frombuffer`` views."""
    base = array.base
    return base.obj if isinstance(base, memoryview) else base


def test_searching_tables_beyond_the_resident_size_are_mapped_not_read(built, monkeypatch):
    """The arrays alpha-beta gets are views of the files: nothing is copied into memory."""
    monkeypatch.setattr(tables_api, "RESIDENT_BYTES", 0)
    loaded = api.load_for_search(built, capture_empty=True)
    assert not loaded.data.flags.owndata and not isinstance(_memory_of(loaded.data), mmap.mmap)
    top = index.level_size(TOP)
    assert loaded.data.size >= sum(index.level_size(n) for n in range(1, TOP + 1)) and top > 0


def test_small_searching_tables_are_a_copy_in_memory_of_the_same_bytes(built, monkeypatch):
    resident = api.load_for_search(built, capture_empty=True)
    assert isinstance(_memory_of(resident.data), mmap.mmap)  # anonymous memory, not the files
    monkeypatch.setattr(tables_api, "RESIDENT_BYTES", 0)
    mapped = api.load_for_search(built, capture_empty=True)
    assert np.array_equal(resident.data, mapped.data)
    assert np.array_equal(resident.offsets, mapped.offsets)


def test_load_for_search_stops_at_the_first_missing_level(built, tmp_path):
    for level in (1, 2, 4):
        name = level_filename(level, True)
        (tmp_path / name).write_bytes((built / name).read_bytes())
    loaded = api.load_for_search(tmp_path, True)
    assert loaded.max_level == 2
    config = build.config_word(True)
    three = (index.pits_word((1, 1, 0, 0, 0, 0)) | config, index.pits_word((1, 0, 0, 0, 0, 0))
             | config)
    assert probe(three, loaded.data, loaded.offsets) == NO_ENTRY


def test_the_probe_ignores_padding_after_the_last_level(built):
    """Alpha-beta keeps the offsets in a zero-padded row of its workspace."""
    loaded = api.load_for_search(built, capture_empty=True, max_level=5)
    padded = np.zeros(40, np.int64)
    padded[:loaded.offsets.size] = loaded.offsets
    config = build.config_word(True)
    other = index.pits_word((0, 0, 1, 1, 0, 0)) | config
    five = (index.pits_word((1, 1, 1, 0, 0, 0)) | config, other)
    six = (index.pits_word((1, 1, 1, 0, 0, 1)) | config, other)
    assert probe(five, loaded.data, padded) == probe(five, loaded.data, loaded.offsets) != NO_ENTRY
    assert probe(six, loaded.data, padded) == NO_ENTRY

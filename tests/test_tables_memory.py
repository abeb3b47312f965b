"""Levels larger than memory: the tables are memory-mapped, and a build's resident memory is
kept to its budget by dropping mapped pages (which are the files' pages: nothing is lost), at
the price of touching them again. Peak resident memory against table size is measured on a real
24-stone build in the README; here the mechanism and the values."""
import numpy as np

from solver import tables as api
from tables.format import Family, header_bytes
from tables import mapping
from tables.mapping import MappedLevels, MemoryBudget, resident_bytes

MB = 1 << 20


def test_mapped_pages_count_when_touched_and_go_when_dropped(tmp_path):
    family = Family(6, True, 1)
    header = header_bytes(20, family, "0" * 64)
    path = tmp_path / "level.tbl"
    values = (np.arange(64 * MB) % 7).astype(np.int8)
    path.write_bytes(header + values.tobytes())
    mapping = MappedLevels(6, [(path, len(header), False)])
    view = mapping.level(1, values.size)
    before = resident_bytes()
    assert int(view[::4096].astype(np.int64).sum()) == int(values[::4096].astype(np.int64).sum())
    touched = resident_bytes()
    assert touched - before > 48 * MB  # every page was read through the mapping
    mapping.drop_pages()
    assert resident_bytes() - before < 8 * MB
    assert np.array_equal(view[-100:], values[-100:])  # and reads back the same from the file


def test_a_budget_checks_often_enough_that_a_step_cannot_touch_much_more_than_it():
    # about six pages touched per position: a step of positions touches at most the budget
    assert MemoryBudget(256).positions_between_checks() == 256 * MB // 4096 // 6
    assert MemoryBudget(1).positions_between_checks() == 4096  # never a step too small to pay
    assert MemoryBudget(1 << 20).positions_between_checks() == 1 << 22


def test_a_build_on_a_tiny_budget_drops_pages_and_writes_the_same_files(tmp_path):
    tight, roomy = tmp_path / "tight", tmp_path / "roomy"
    squeezed = api.build(12, tight, memory_mb=1)
    api.build(12, roomy)
    assert squeezed.memory_mb == 1 and squeezed.page_drops > 0
    assert squeezed.peak_resident_mb >= squeezed.base_resident_mb > 0
    assert {p.name: p.read_bytes() for p in tight.glob("*.tbl")} == \
        {p.name: p.read_bytes() for p in roomy.glob("*.tbl")}


def test_read_ahead_asks_for_every_file_whole_and_skips_one_that_is_gone(tmp_path):
    big, small = tmp_path / "big.tbl", tmp_path / "small.tbl"
    big.write_bytes(bytes(20 * MB + 5))      # more than one read-ahead request
    small.write_bytes(b"x" * 1000)
    assert mapping.read_ahead([big, tmp_path / "gone.tbl", small]) == 20 * MB + 5 + 1000


def test_tables_are_read_ahead_behind_a_search_only_when_they_fit_in_memory(tmp_path,
                                                                            monkeypatch):
    path = tmp_path / "level.tbl"
    path.write_bytes(bytes(MB))
    monkeypatch.setattr(mapping, "available_bytes", lambda: 2 * MB - 1)
    assert mapping.read_ahead_in_background([path]) is None     # more than half of it
    monkeypatch.setattr(mapping, "available_bytes", lambda: 2 * MB)
    thread = mapping.read_ahead_in_background([path])
    thread.join(timeout=30)
    assert thread.daemon and not thread.is_alive()


def test_the_available_memory_is_read_from_the_system():
    assert 0 < mapping.available_bytes() <= mapping.physical_bytes()


"""The search kernels' large memory (kernels._memory): faulted in on another thread without
changing a byte the search wrote meanwhile."""
import numpy as np

from kernels import _memory
from kernels import alphabeta_layout as ab


def test_pages_faulted_in_behind_the_search_keep_what_it_wrote():
    memory = _memory.huge_page_memory(64 << 20)
    words = np.frombuffer(memory, np.uint64)
    rng = np.random.default_rng(1)
    at = rng.choice(words.size, 20_000, replace=False)
    words[at[:10_000]] = 7                     # written before the thread starts
    thread = _memory.populate_in_background(memory)
    words[at[10_000:]] = 9                     # and while it runs
    assert thread is not None
    thread.join(timeout=60)
    assert not thread.is_alive()
    expected = np.zeros(words.size, np.uint64)
    expected[at[:10_000]], expected[at[10_000:]] = 7, 9
    assert np.array_equal(words, expected)


def test_memory_larger_than_half_the_free_memory_is_left_to_fault_in_as_used(monkeypatch):
    monkeypatch.setattr(_memory, "free_bytes", lambda: 64 << 20)
    assert _memory.populate_in_background(_memory.huge_page_memory(64 << 20)) is None


def test_a_large_transposition_table_is_empty_and_writable():
    table = ab.new_table(64)
    assert table.shape == (1 << 21, 4) and not table.any()
    table[12345] = 1
    assert int(table.sum()) == 4

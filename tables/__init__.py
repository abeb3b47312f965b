"""Mancala (Kalah(m, n), m = 1..6 pits a side) endgame tables: the exact future store gain of
every position with up to n stones in the pits, one signed byte each.

    index        the index scheme (``split{m}-colex-v1``) and its plain-Python rank / unrank
    rank         the compiled rank / unrank on packed pit lanes
    lazy         compiled modules loaded on first use (listing tables compiles nothing)
    build        the retrograde step and the bucket kernels (Numba, prange over a piece)
    levels       the level loop (local and Dask), pieces of a level, resume inside a level
    mapping      level files memory-mapped side by side; the resident-memory budget
    format       level files: JSON header + raw int8 body, sha256, atomic writes, checked loading
    probe        ``probe(state, data, offsets)`` for use inside compiled search
    api          build / info / verify / probe / load_for_search: what ``solver tables`` calls
    distributed  the executor that runs a level's pieces as Dask tasks
    errors       ``TableError``, the one error a user can cause

Dependencies point one way: ``tables`` imports ``kernels`` and never ``solver`` (the caller
passes the rules' version in a ``tables.format.Family``). Nothing is imported here, so
``import tables.format`` stays light. ``tables`` is also the import name of PyTables (README).
"""

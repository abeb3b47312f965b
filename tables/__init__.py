"""Mancala (Kalah(6, n)) endgame tables: the exact future store gain of every position with up to
n stones in the pits, one signed byte each.

    index        rank / unrank of stone distributions over the 12 pits (``split6-colex-v1``)
    build        the retrograde build kernel (Numba, prange over each distance bucket of a level)
    format       level files: JSON header + raw int8 body, sha256, atomic writes, checked loading
    probe        ``probe(state, data, offsets)`` for use inside compiled search
    api          build / info / verify / probe / load_for_search: what ``solver tables`` calls
    distributed  the same build with a level's independent groups as Dask tasks

Nothing is imported here, so ``import tables.format`` stays light. Note that ``tables`` is also
the import name of PyTables (see the README).
"""

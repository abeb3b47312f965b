"""Compiled code only: Numba kernels and Cython extensions.

Nothing here prints, parses arguments or touches files. Every Numba decorator goes through
``kernels._jit`` so that compilation flags and on-disk caching live in one place.
"""

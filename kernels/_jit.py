"""The one place where Numba flags and caching are set.

Every kernel is compiled with ``cache=True`` so a second process loads machine code from
``__pycache__`` instead of recompiling. Kernels that take other kernels as arguments must be
compiled for explicit signatures whose function parameters are ``numba.types.FunctionType``:
a cached kernel typed on a plain dispatcher argument misses the cache in every new process
(DESIGN.md, measured with Numba 0.68.1).
"""
import sys

import numba
from numba import types


def _import_arraymath_without_scipy() -> None:
    """Numba's first compile or cache load imports ``numba.np.arraymath``, whose BLAS probe
    imports ``scipy.linalg`` (0.3 s of every command's start here) only to choose how ``np.dot``
    of float arrays runs; no kernel here multiplies float arrays (without the probe ``np.dot``
    runs a plain loop, same results). So import it with ``scipy.linalg`` hidden, unless it is
    already loaded, and unhide it: a later ``import scipy.linalg`` works as usual."""
    if "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # makes ``import scipy.linalg...`` raise ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg"]


_import_arraymath_without_scipy()

# fastmath is off on purpose: kernels work on integers, and exact results are the contract.
_FLAGS = dict(cache=True, nogil=True, boundscheck=False, error_model="numpy")


def kernel(signature=None, **overrides):
    """Decorator for a compiled kernel; with a signature it compiles eagerly (or loads the cache).

    Give a signature to what Python calls or passes as a function value (the types are then
    fixed, and arguments converted). A helper only other kernels call takes none: it compiles
    into its callers, so a process that loads them from the cache never loads it. Every kernel
    loaded costs start-up (5-15 ms each; the playout kernels, which carry their sowing tables,
    more): lazy helpers took 23 loads off an MCTS command and about 0.17 s."""
    flags = dict(_FLAGS, **overrides)
    if signature is None:
        return numba.njit(**flags)
    return numba.njit(signature, **flags)


def parallel_kernel(signature=None):
    """A kernel whose ``numba.prange`` loops run on all cores."""
    return kernel(signature, parallel=True)


def fn(signature):
    """The first-class function type of a kernel compiled for ``signature``: use it in the
    signature of a search kernel that receives that kernel as an argument."""
    return types.FunctionType(signature)


def cache_hits(dispatcher) -> int:
    """How many of ``dispatcher``'s signatures this process loaded from the on-disk cache."""
    return sum(dispatcher.stats.cache_hits.values())

"""Random numbers for compiled search and playouts: SplitMix64 and cheap draws from it.

Game-neutral, so both search kernels and game kernels may use it. A generator is one uint64
state word that the caller threads through (``rng, r = splitmix64(rng)``), so a kernel stays
pure and a search can store its generator in an array and resume it.
"""
import numpy as np
from numba import types

from kernels._jit import kernel

U64 = types.uint64
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U32 = np.uint64(32)
_U11 = np.uint64(11)


@kernel(types.UniTuple(U64, 2)(U64))
def splitmix64(rng):
    """(next generator state, a random 64-bit number)."""
    rng = rng + _GOLDEN
    z = rng
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return rng, z ^ (z >> np.uint64(31))


@kernel(types.int64(U64, types.int64))
def below(r, n):
    """A number in 0..n-1 from a random word (0 < n < 2**32): the high 32 bits scaled by n, a
    multiply instead of a 64-bit division (Lemire; the bias is below n / 2**32)."""
    return np.int64(((r >> _U32) * np.uint64(n)) >> _U32)


@kernel(types.float64(U64))
def unit(r):
    """A float in [0, 1) from a random word (its top 53 bits)."""
    return np.float64(r >> _U11) * (1.0 / 9007199254740992.0)


@kernel(U64(U64, U64))
def stream_seed(seed, stream):
    """An independent generator state for ``stream`` (a thread, a tree) of a user's seed."""
    _, a = splitmix64(seed ^ (stream * _MIX2))
    _, b = splitmix64(a + stream)
    return b

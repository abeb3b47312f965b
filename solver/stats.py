"""Confidence intervals for win rates and Monte Carlo means."""
from __future__ import annotations

import math

Z95 = 1.959963984540054     # the two-sided 95% point of the normal distribution


def wilson_interval(mean: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion observed as ``mean`` over ``n`` trials.

    Chosen over the normal interval because it stays inside [0, 1] and keeps its coverage near
    0 and 1 (a push that always wins still gets a lower bound below 1). Outcomes between 0 and 1
    (a draw's half, a 3-way shared win's third) use the same formula with ``mean`` as the
    proportion: their variance is at most mean * (1 - mean), so the interval is conservative.
    No trials: the whole range (0, 1)."""
    if n <= 0:
        return 0.0, 1.0
    z2n = z * z / n
    centre = (mean + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(max(mean * (1 - mean), 0.0) / n + z2n / (4 * n))
    low = 0.0 if mean <= 0.0 else max(0.0, centre - half)     # at 0 and 1 the bound is exact:
    high = 1.0 if mean >= 1.0 else min(1.0, centre + half)    # centre - half rounds above 0
    return low, high

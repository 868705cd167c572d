"""Holm's step-down correction: many tests on one page, one promise about false alarms.

A page that tests seven shooters at 0.05 each names somebody lucky in about a third of fair evenings.
Holm's method keeps the chance of *any* false alarm on the page at the nominal level, whatever the
tests' dependence, and is uniformly more powerful than plain Bonferroni: the smallest p-value is
multiplied by the number of tests, the next by one fewer, and so on, each adjusted value never below
the one before it.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["holm"]


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given: reject where ``adjusted < alpha``."""
    count = len(p_values)
    order = sorted(range(count), key=lambda i: p_values[i])
    adjusted = [1.0] * count
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (count - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted

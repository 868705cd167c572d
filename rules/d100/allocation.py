"""Who takes the hits of a burst (seed 004, "Short burst" / "Long burst" / "Suppressing fire").

The shooter may send extra hits to targets within 2 m of the primary; none of them may take more hits
than the primary. A request states a wish per secondary target (``share``); hits are then split so the
primary keeps the fewest hits that still honours every wish as far as it can:

    p = the smallest count with p + sum(min(share_i, p)) >= hits
    secondaries, in request order, take min(share_i, p, what is left); the primary takes p.

With no shares every hit goes to the primary. Suppressing fire has no primary: each hit goes to a target
of the sector picked uniformly at random (a d``n`` per hit, not rolled when there is one target).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["allocate"]


def allocate(hits: int, shares: Sequence[int]) -> list[int]:
    """Hits per target (primary first) for a total of ``hits`` and the secondaries' wishes."""
    if hits <= 0:
        return [0] * (1 + len(shares))
    primary = 1
    while primary + sum(min(share, primary) for share in shares) < hits:
        primary += 1
    left = hits - primary
    counts = [primary]
    for share in shares:
        take = min(share, primary, left)
        counts.append(take)
        left -= take
    return counts

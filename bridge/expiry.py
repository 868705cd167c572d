"""How long a two-step attack stays open for its ``allocate``.

A pool shown to a player is allocated within the turn. One left open past a break would apply token
values (rounds loaded, target lock) computed from the state the table was in when it was rolled, so a
pending attack expires; allocating it later is refused with ``pending_expired``, saying how long ago it
was rolled. ``volley serve --pending-expiry SECONDS`` changes the limit.

Kept apart from the referee so that ``volley``'s argument parser can show the default without loading
the server.
"""

from __future__ import annotations

__all__ = ["PENDING_EXPIRY", "describe_seconds"]

#: Seconds a two-step attack waits for its ``allocate``: a long turn and a short break.
PENDING_EXPIRY = 3600.0


def describe_seconds(seconds: float) -> str:
    """``90 s``, ``15 min``, ``2 h``: how long, in the largest unit that reads naturally."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.0f} h"

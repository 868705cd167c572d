"""Weapons held by a pending two-step attack (issue #31): the first step reserves its weapon's rounds and
selector until the attack is allocated, cancelled or expired, so nothing else fires or handles that
weapon meanwhile. Kept for the server's run (a restart frees them: the attack still expires).
"""

from __future__ import annotations

import time
from typing import Any

from bridge.expiry import describe_seconds
from bridge.protocol import ErrorCode, ProtocolError
from rules import errors

__all__ = ["HoldKey", "WeaponHolds", "hold_key"]

#: What a pending two-step attack holds: its system, its attacker's id and its weapon's name.
HoldKey = tuple[str, str, str]


def hold_key(request: Any) -> HoldKey | None:
    """The weapon a request names, as the request's shared fields say it (``system``, ``attacker.id``,
    ``weapon.name``: every system's firing and handling requests carry them), or None."""
    if not isinstance(request, dict):
        return None
    attacker, weapon, system = request.get("attacker"), request.get("weapon"), request.get("system")
    if not isinstance(attacker, dict) or not isinstance(weapon, dict) or not isinstance(system, str):
        return None
    who, name = attacker.get("id"), weapon.get("name")
    return (system, who, name) if isinstance(who, str) and isinstance(name, str) else None


class WeaponHolds:
    """Which pending attack holds which weapon, and since when."""

    def __init__(self, expiry: float) -> None:
        #: how long a pending attack may be allocated (``bridge.expiry``): a hold lasts no longer
        self.expiry = expiry
        self.held: dict[HoldKey, tuple[str, float]] = {}

    def hold(self, key: HoldKey, pending_id: str) -> None:
        """Pending attack ``pending_id`` (just journalled) holds the weapon ``key`` names."""
        self.held[key] = (pending_id, time.time())

    def release(self, pending_id: str, request: Any) -> None:
        """The weapon ``request`` names is no longer held by pending attack ``pending_id``."""
        held = hold_key(request)
        if held is not None and self.held.get(held, ("", 0.0))[0] == pending_id:
            del self.held[held]

    def check(self, id: str, request: dict[str, Any]) -> HoldKey | None:
        """Refuse request ``id`` if it names a weapon a pending two-step attack of this run holds;
        else the weapon it names (or None). ``request``: the request as a plain dict
        (``bridge.resolution.plain``)."""
        held = hold_key(request)
        found = self.held.get(held) if held is not None else None
        if held is None or found is None:
            return held
        pending_id, at = found
        age = time.time() - at
        if age > self.expiry:  # it can no longer be allocated: the weapon is free again
            del self.held[held]
            return held
        attacker = request.get("attacker", {})
        who = str(attacker.get("name") or held[1])
        refusal = errors.PENDING_OPEN(who=who, weapon=held[2], pending=pending_id, age=describe_seconds(age))
        raise ProtocolError(
            ErrorCode.PENDING_OPEN,
            f"{who}'s {held[2]} waits for the allocation of two-step attack {pending_id!r} (rolled "
            f"{describe_seconds(age)} ago): allocate or cancel it before anything else fires or "
            "handles that weapon",
            "$.request.weapon",
            id,
            msg=refusal,
        )

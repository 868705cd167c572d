"""Reliability and the jam threshold (seed 004, "Jams and reliability").

Reliability comes from several sources (the weapon's own property, its quality, a talent, an overcharged
mode); they add up, clamp to -2..+2 and the weapon behaves as the property of the final value. The seed's
table of thresholds is missing: ``tables.JAM_THRESHOLDS`` is Volley's reading, and ``weapon.jam_at``
overrides it for one weapon. Worked example from the seed: Reliable, a second Reliable from good quality,
a talent's +1 and an overcharge's -1 make +2: Very Reliable, which never jams.
"""

from __future__ import annotations

import re

from rules.d100 import messages as msg
from rules.d100.requests import Reliability, Weapon
from rules.d100.tables import JAM_THRESHOLDS, RELIABILITY_LIMITS, RELIABILITY_PROPERTIES
from rules.errors import RuleError

__all__ = ["final_reliability", "jam_threshold"]

#: A numeric adjustment written as text: "+1", "-2", "2" (ASCII digits, one sign at most).
_SIGNED_NUMBER = re.compile(r"[+-]?[0-9]{1,3}")


def _one(source: int | str, path: str) -> int:
    if isinstance(source, int):
        return source
    text = " ".join(source.replace("_", " ").replace("-", " ").split()).lower()
    if text in RELIABILITY_PROPERTIES:
        return RELIABILITY_PROPERTIES[text]
    signed = source.strip().replace("\u2212", "-")
    if _SIGNED_NUMBER.fullmatch(signed):
        return int(signed)
    known = sorted(RELIABILITY_PROPERTIES)
    raise RuleError(path, msg.ERR_RELIABILITY(value=repr(source), known=known), code="invalid")


def final_reliability(value: Reliability, path: str = "$.weapon.reliability") -> int:
    """Sum every reliability source and clamp it to -2..+2."""
    if isinstance(value, list):
        total = sum(_one(source, f"{path}[{i}]") for i, source in enumerate(value))
    else:
        total = _one(value, path)
    low, high = RELIABILITY_LIMITS
    return max(low, min(high, total))


def jam_threshold(weapon: Weapon) -> int | None:
    """The lowest attack roll that jams this weapon, or None if it cannot jam.

    Thrown weapons and grenades never jam (a fumbled grenade falls at the thrower's feet instead).
    """
    if weapon.weapon_class in ("thrown", "grenade"):
        return None
    if weapon.jam_at is not None:
        return weapon.jam_at
    return JAM_THRESHOLDS[final_reliability(weapon.reliability)]

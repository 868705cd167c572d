"""The GURPS success roll: 3d6 against a target number, with the book's criticals.

One function judges every roll this system makes (attack, dodge, unjam), so the preview in ``odds`` and
the dice in ``resolve`` cannot disagree about what a face means.

Criticals (B347-348), read against the final target number, every modifier included:

* critical success: 3 or 4 always; 5 when the target is 15 or more; 6 when it is 16 or more;
* critical failure: 18 always; 17 when the target is 15 or less; any roll 10 or more above the target;
* 17 is a failure whatever the target; 3 and 4 succeed whatever the target (and win over the
  "10 or more above" rule when both apply, e.g. a 4 against -6).
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = ["Check", "Critical", "judge"]

Critical = Literal["success", "failure"]


class Check(msgspec.Struct, kw_only=True, frozen=True, omit_defaults=True, gc=False):
    """One judged 3d6 roll: ``margin`` is target minus roll (negative on a failure)."""

    target: int
    roll: int
    margin: int
    success: bool
    critical: Critical | None = None


def _critical(roll: int, target: int) -> Critical | None:
    if roll <= 4 or (roll == 5 and target >= 15) or (roll == 6 and target >= 16):
        return "success"
    if roll == 18 or (roll == 17 and target <= 15) or roll - target >= 10:
        return "failure"
    return None


def judge(roll: int, target: int) -> Check:
    """Judge an unmodified 3d6 ``roll`` against ``target``."""
    critical = _critical(roll, target)
    success = critical == "success" if critical is not None else roll <= target and roll != 17
    return Check(target=target, roll=roll, margin=target - roll, success=success, critical=critical)

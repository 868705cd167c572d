"""Suppression (seed 004, "Suppression"): a Willpower +0 morale test under withering fire.

* The source of the fire sets the modifier: suppressing fire -10 (semi-automatic) or -20 (full auto),
  overwatch +20, or whatever the GM calls for.
* A character sure the fire cannot really hurt it (``unharmable``: no more than 3 damage after soak)
  passes without rolling; one in melee is not subject to suppression at all.
* Failing leaves the character suppressed. Out of cover it must spend its actions reaching cover; if it
  cannot reach any, it goes prone. In cover it has one action point a turn and -20 on BS tests.
* At the end of its turn a suppressed character may test Willpower +0 to recover, +30 when no fire
  landed within 10 m since its previous turn. Entering melee ends suppression outright.
"""

from __future__ import annotations

import msgspec

from rules.d100 import messages as msg
from rules.d100.checks import roll_test
from rules.d100.requests import Target
from rules.d100.results import Suppression
from rules.d100.tables import SUPPRESSED_ACTION_POINTS, SUPPRESSED_BS_MODIFIER
from rules.dice import Dice
from rules.errors import RuleError
from rules.results import Message

__all__ = [
    "Aftermath",
    "SuppressionTest",
    "aftermath",
    "aftermath_lines",
    "exempt_reason",
    "fail_chance",
    "pass_chance",
]


def exempt_reason(target: Target) -> Message | None:
    """Why this target passes without a roll, if it does."""
    if target.in_melee:
        return msg.EXEMPT["in_melee"]()
    if target.unharmable:
        return msg.EXEMPT["unharmable"]()
    return None


class SuppressionTest(msgspec.Struct, frozen=True):
    """One target's test against the modifier its source sets; ``path`` names the target in errors."""

    target: Target
    modifier: int
    path: str

    def check(self) -> None:
        """Validation before any die: a rolled test needs the target's Willpower."""
        if exempt_reason(self.target) is None and self.target.wp is None:
            raise RuleError(f"{self.path}.wp", msg.ERR_SUPPRESSION_WP())

    @property
    def target_number(self) -> int:
        return (self.target.wp or 0) + self.modifier

    def roll(self, dice: Dice, log: list[Message]) -> Suppression:
        reason = exempt_reason(self.target)
        who = self.target.name or self.target.id
        if reason is not None:
            log.append(msg.SUPPRESSION_EXEMPT(target=who, reason=reason))
            return Suppression(modifier=self.modifier, passed=True, reason=reason)
        record = roll_test(dice, self.target_number, msg.ROLL_SUPPRESSION(target=who))
        log.append(
            msg.SUPPRESSION_TEST(
                target=who,
                wp=self.target.wp,
                modifier=self.modifier,
                roll=record.roll,
                need=record.target,
                success=record.success,
                degrees=record.degrees,
            )
        )
        return Suppression(modifier=self.modifier, passed=record.success, test=record)


def pass_chance(target_number: int) -> float:
    """Exact chance a d100 test at this target number passes (01 always does)."""
    return max(1, min(100, target_number)) / 100.0


def fail_chance(test: SuppressionTest) -> float:
    if exempt_reason(test.target) is not None:
        return 0.0
    return 1.0 - pass_chance(test.target_number)


class Aftermath(msgspec.Struct, frozen=True):
    suppressed: bool
    prone: bool
    must_seek_cover: bool


def aftermath(target: Target, outcome: Suppression | None) -> Aftermath:
    """State after a test: a failure suppresses; out of cover with nowhere to go, also prone."""
    if outcome is None or outcome.passed:
        return Aftermath(target.suppressed, target.prone, False)
    stranded = not target.in_cover and not target.can_reach_cover
    return Aftermath(True, target.prone or stranded, not target.in_cover and target.can_reach_cover)


def aftermath_lines(target: Target, state: Aftermath) -> list[Message]:
    """What the card says about a character this action suppressed."""
    if not state.suppressed or target.suppressed:
        return []
    who = target.name or target.id
    if state.must_seek_cover:
        return [msg.SEEKS_COVER(target=who)]
    if state.prone and not target.in_cover:
        return [msg.GOES_PRONE(target=who)]
    return [msg.PINNED(target=who, ap=SUPPRESSED_ACTION_POINTS, modifier=SUPPRESSED_BS_MODIFIER)]

"""What the report page shows: the tally and the fairness tests made on it, with their corrected
verdicts, and the page's verdict drawn from them (``Findings``). ``build`` makes them; ``page`` writes
them out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bridge.report.fairness import Calibration, DieTest, OrderTest, overall
from bridge.report.luck import Luck
from bridge.report.totals import ShooterTally, Tally

__all__ = ["Findings"]


@dataclass(frozen=True)
class Findings:
    """Everything the page shows: the tally and the tests made on it, with corrected verdicts.

    ``luck`` holds each shooter's luck with its p-value corrected for the other shooters
    (``bridge.report.luck.judge_luck``); a shooter missing from it is judged alone. ``orders`` are
    the repeats tests of the die sizes, corrected with ``dice`` and ``calibration``.
    """

    tally: Tally
    dice: list[DieTest]
    calibration: Calibration
    luck: Mapping[str, Luck] = field(default_factory=dict)
    orders: list[OrderTest] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        """The page's verdict: the worst of the dice's tests (counts and order), or the luck chart's
        when that one raised a flag.

        A die with too few rolls outranks a fair one, so the page is never summed up as fair while
        some die could not be judged. The luck chart having too few attacks says nothing about dice.
        """
        flagged = [self.calibration.verdict] if self.calibration.verdict in ("watch", "alert") else []
        tests = [test.verdict for test in self.dice] + [test.verdict for test in self.orders]
        return overall(tests + flagged)

    @property
    def flagged(self) -> str | None:
        """What the headline is about: ``dice`` (their counts), ``order`` (the order of their faces)
        or ``luck`` (the attack results), whichever raised the page's verdict, in that order of
        precedence; None when nothing was flagged."""
        verdict = self.verdict
        if verdict not in ("watch", "alert"):
            return None
        if any(test.verdict == verdict for test in self.dice):
            return "dice"
        if any(test.verdict == verdict for test in self.orders):
            return "order"
        return "luck"

    def order_of(self, die: int) -> OrderTest | None:
        return next((test for test in self.orders if test.die == die), None)

    def luck_of(self, shooter: ShooterTally) -> Luck:
        return self.luck.get(shooter.name) or shooter.luck

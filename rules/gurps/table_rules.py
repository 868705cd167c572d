"""GURPS readings a table may choose instead of Volley's (``rules.table_rules``; docs/rules/gurps.md)."""

from __future__ import annotations

from typing import Any

from rules.gurps import messages as msg
from rules.gurps.requests import MAX_RATING
from rules.gurps.tables import DODGE_STEP
from rules.results import Message
from rules.table_rules import Reading

__all__ = ["TABLE_RULES"]


def _dodge_step(value: Any) -> list[Message]:
    return [msg.TABLE_DODGE_STEP(step=0 if value == "rcl" else int(value), rcl=value == "rcl")]


TABLE_RULES: tuple[Reading, ...] = (
    #: B375: a successful Dodge avoids one more hit per point of margin; a table may ask for more.
    Reading(
        field="dodge_step",
        owner="rules",
        kind="choice",
        default=DODGE_STEP,
        says=_dodge_step,
        reading="docs/rules/gurps.md#dodge-dodging-b374-375",
        actions=("attack",),
        choices=(1, 2, 3, 4, 5, "rcl"),
        minimum=1,
        maximum=MAX_RATING,
    ),
)

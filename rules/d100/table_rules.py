"""d100 readings a table may choose instead of Volley's (``rules.table_rules``; docs/rules/d100.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.d100 import messages as msg
from rules.d100.requests import MOST_POINTS
from rules.d100.tables import RANGE_MODIFIERS
from rules.results import Message
from rules.table_rules import Reading

__all__ = ["TABLE_RULES"]


def _range_modifiers(value: Mapping[str, Any]) -> list[Message]:
    """One line per band the table moved, nearest band first."""
    return [
        msg.TABLE_RANGE_MODIFIER(band=msg.BAND[band](), modifier=int(value[band]), volley=volley)
        for band, volley in RANGE_MODIFIERS.items()
        if band in value and value[band] != volley
    ]


TABLE_RULES: tuple[Reading, ...] = (
    #: The seed's range table is missing: Volley's modifiers per band, each of which a table may move.
    Reading(
        field="range_modifiers",
        owner="rules",
        kind="bands",
        default=dict(RANGE_MODIFIERS),
        says=_range_modifiers,
        reading="docs/rules/d100.md#range-дистанция",
        actions=("attack", "overwatch_fire"),
        minimum=-MOST_POINTS,
        maximum=MOST_POINTS,
        members=tuple(RANGE_MODIFIERS),
    ),
    #: A standing overwatch order ends when the combat's turn comes back to its shooter (the module
    #: lifts it); off, it stands until fired or lifted by hand. The order's request reports it in
    #: ``module_readings``.
    Reading(
        field="overwatch_ends_on_turn",
        owner="module",
        kind="boolean",
        default=True,
        says=lambda _value: [msg.TABLE_OVERWATCH_STANDS()],
        reading="docs/rules/d100.md#overwatch-караул",
        actions=("overwatch",),
    ),
)

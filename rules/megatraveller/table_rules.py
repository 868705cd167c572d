"""MegaTraveller readings a table may choose instead of Volley's (``rules.table_rules``;
docs/rules/megatraveller.md, "Readings where the seed is silent or ambiguous" and "The VTT module's
readings")."""

from __future__ import annotations

from rules.megatraveller import messages as msg
from rules.megatraveller.modes import FAST_DRAW_WEAPONS, SPLIT_DM_COUNTS
from rules.megatraveller.tasks import EXCEPTIONAL_SUCCESS_MARGIN
from rules.table_rules import Reading

__all__ = ["TABLE_RULES"]

#: The actions that fire (``requests.FireFields``): each carries the splitting DM and the margin.
FIRING = ("fire", "fast_draw", "retarget_and_fire")


#: Module reading 14's defaults: grid squares either side of the line of fire, and past the target.
DANGER_SPACE_HALF_WIDTH = 1
DANGER_SPACE_BEYOND = 2


TABLE_RULES: tuple[Reading, ...] = (
    #: Reading 5: the splitting DM counts every target designated; "receiving" only those given a bullet.
    Reading(
        field="split_dm_counts",
        owner="rules",
        kind="choice",
        default=SPLIT_DM_COUNTS,
        says=lambda _value: [msg.TABLE_SPLIT_DM_COUNTS()],
        reading="docs/rules/megatraveller.md#readings-where-the-seed-is-silent-or-ambiguous (5)",
        actions=FIRING,
        choices=("designated", "receiving"),
    ),
    #: Reading 2: a single-fire hit is exceptional when it beats the target number by this much.
    Reading(
        field="exceptional_margin",
        owner="rules",
        kind="integer",
        default=EXCEPTIONAL_SUCCESS_MARGIN,
        says=lambda value: [
            msg.TABLE_EXCEPTIONAL_MARGIN(margin=int(value), volley=EXCEPTIONAL_SUCCESS_MARGIN)
        ],
        reading="docs/rules/megatraveller.md#readings-where-the-seed-is-silent-or-ambiguous (2)",
        actions=FIRING,
        minimum=0,
        maximum=30,
    ),
    #: Reading 10: Fast Draw (and Draw a Small Weapon) takes a holstered pistol; "any" takes any kind.
    Reading(
        field="fast_draw_weapons",
        owner="rules",
        kind="choice",
        default=FAST_DRAW_WEAPONS,
        says=lambda _value: [msg.TABLE_FAST_DRAW_WEAPONS()],
        reading="docs/rules/megatraveller.md#readings-where-the-seed-is-silent-or-ambiguous (10)",
        actions=("fast_draw", "draw"),
        choices=("small", "any"),
    ),
    #: Module reading 14: the danger space reaches this many grid squares either side of a line of fire
    #: (the module draws it; a firing request reports a changed value in ``module_readings``).
    Reading(
        field="danger_space_half_width",
        owner="module",
        kind="integer",
        default=DANGER_SPACE_HALF_WIDTH,
        says=lambda value: [
            msg.TABLE_DANGER_SPACE_HALF_WIDTH(squares=int(value), volley=DANGER_SPACE_HALF_WIDTH)
        ],
        reading="docs/rules/megatraveller.md#the-vtt-modules-readings (14)",
        actions=FIRING,
        minimum=0,
        maximum=10,
    ),
    #: Module reading 14: and ends this many grid squares past the target.
    Reading(
        field="danger_space_beyond",
        owner="module",
        kind="integer",
        default=DANGER_SPACE_BEYOND,
        says=lambda value: [msg.TABLE_DANGER_SPACE_BEYOND(squares=int(value), volley=DANGER_SPACE_BEYOND)],
        reading="docs/rules/megatraveller.md#the-vtt-modules-readings (14)",
        actions=FIRING,
        minimum=0,
        maximum=20,
    ),
)

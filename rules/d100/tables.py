"""Every number the d100 rules need, in one place, as named data.

Seed 004 prints the facts this module keeps (mode modifiers, suppression modifiers, the d8 compass,
the cover multipliers against blasts) and leaves three tables out: range, reliability and cover armour.
Where the text is silent, the value here is Volley's reading; ``docs/rules/d100.md`` says why, and a
request field can override the ones a referee is likely to house-rule.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ATTACK_ALWAYS_MISSES_AT",
    "AUTO_SUCCESS_AT",
    "BLAST_COVER_MULTIPLIER",
    "BRACE_ACTION",
    "COMPASS",
    "COVERED_WHEN_SHOOTING",
    "DODGE_MODIFIER_RIFLE_IN_MELEE",
    "DODGE_MODIFIER_WIDE_BURST",
    "ENCLOSED_RADIUS_FACTOR",
    "ENCLOSED_ROOM_RADII",
    "FIRE_AT_FEET_MODIFIER",
    "GRENADE_SAFE_DEGREES",
    "HEAVY_MOVED_MODIFIER",
    "HEAVY_UNBRACED_MODIFIER",
    "HIT_LOCATIONS",
    "JAM_SPOIL_FACTOR",
    "JAM_THRESHOLDS",
    "LOCATIONS",
    "MELEE_RANGE_MODIFIER",
    "MODE_ACTIONS",
    "MODE_MODIFIERS",
    "OVERWATCH_ACTION",
    "OVERWATCH_SUPPRESSION_MODIFIER",
    "POINT_BLANK_METRES",
    "RANGE_BANDS",
    "RANGE_MODIFIERS",
    "RECOVERY_QUIET_BONUS",
    "RECOVER_AMMO_MODIFIER",
    "RELIABILITY_LIMITS",
    "RELIABILITY_PROPERTIES",
    "SECONDARY_REACH_METRES",
    "SECTOR_MAX_DEGREES",
    "SUPPRESSED_ACTION_POINTS",
    "SUPPRESSED_BS_MODIFIER",
    "SUPPRESSING_FIRE_MODIFIER",
    "SUPPRESSING_TEST_MODIFIERS",
    "SUPPRESSION_TEST_BANDS",
    "THROWN_RANGE_PER_SB",
    "UNJAM_ACTION",
    "UNJAM_MODIFIER",
    "WIDE_BURST_MIN_ROF",
    "WIDE_BURST_ROF_LOSS",
]

# --- Tests ------------------------------------------------------------------------------------------

#: seed 004, "Jams and reliability": an attack roll of 96 or more misses whatever the target number.
ATTACK_ALWAYS_MISSES_AT: Final = 96
#: Not in the seed (the family's convention): a roll of 01 passes any test, with one degree.
AUTO_SUCCESS_AT: Final = 1

# --- Fire modes (seed 004, "Shooting") ---------------------------------------------------------------

#: Test modifier of each attack mode. Wide bursts test as the burst they widen.
MODE_MODIFIERS: Final[dict[str, int]] = {
    "single": +10,
    "short_burst": 0,
    "long_burst": -10,
    "wide_short_burst": 0,
    "wide_long_burst": -10,
    "suppressing": -20,
}
#: What each mode costs the shooter's turn (seed 004 gives each its "Действие").
MODE_ACTIONS: Final[dict[str, str]] = {
    "single": "half",
    "short_burst": "half",
    "long_burst": "half",
    "wide_short_burst": "half",
    "wide_long_burst": "half",
    "suppressing": "full",
}
#: Setting an overwatch order and clearing a jam are full actions; bracing is a half action.
OVERWATCH_ACTION: Final = "full"
UNJAM_ACTION: Final = "full"
BRACE_ACTION: Final = "half"
#: A wide burst lowers the RoF that caps its hits by 2 (not the rounds it spends) ...
WIDE_BURST_ROF_LOSS: Final = 2
#: ... and cannot be used when the widened position's RoF is below 3.
WIDE_BURST_MIN_ROF: Final = 3
#: ... and every dodge against it takes -20.
DODGE_MODIFIER_WIDE_BURST: Final = -20
#: Extra hits of a burst may go to targets this close to the primary (more only with the GM's leave).
SECONDARY_REACH_METRES: Final = 2.0
#: The blast shooter's option of aiming at the ground under the target: -20, and a miss still lands near.
FIRE_AT_FEET_MODIFIER: Final = -20
SUPPRESSING_FIRE_MODIFIER: Final = MODE_MODIFIERS["suppressing"]
#: Suppressing fire and overwatch cover a sector of at most this many degrees (less by choice).
SECTOR_MAX_DEGREES: Final = 45.0

# --- Range (the seed's table is missing; Volley's reading) ------------------------------------------

#: A target within this many metres is at point-blank range whatever the weapon.
POINT_BLANK_METRES: Final = 2.0
#: Band name and its outer edge as a multiple of the weapon's Rng, nearest first.
RANGE_BANDS: Final[tuple[tuple[str, float], ...]] = (
    ("short", 0.5),
    ("combat", 1.0),
    ("long", 2.0),
    ("extreme", 3.0),
)
#: Test modifier by range band; a request may override any of them (``range_modifiers``).
RANGE_MODIFIERS: Final[dict[str, int]] = {
    "point_blank": +30,
    "short": +10,
    "combat": 0,
    "long": -10,
    "extreme": -30,
}
#: seed 004: shooting in melee counts as point blank but takes the combat-range modifier.
MELEE_RANGE_MODIFIER: Final = 0
#: Thrown weapons and grenades reach the thrower's Strength bonus times this many metres.
THROWN_RANGE_PER_SB: Final = 3

# --- Weapon classes (seed 004, "Types of ranged weapon") ---------------------------------------------

HEAVY_UNBRACED_MODIFIER: Final = -30
HEAVY_MOVED_MODIFIER: Final = -10
#: Dodges against a rifle fired in melee gain +30.
DODGE_MODIFIER_RIFLE_IN_MELEE: Final = +30
#: A grenade stuck on an enemy in melee with this many degrees leaves its thrower outside the blast.
GRENADE_SAFE_DEGREES: Final = 3

# --- Jams and reliability (the seed's threshold table is missing; Volley's reading) ------------------

#: Summed reliability is clamped to this range (seed 004).
RELIABILITY_LIMITS: Final = (-2, +2)
#: Property names that carry reliability; numbers are accepted too and summed with them.
RELIABILITY_PROPERTIES: Final[dict[str, int]] = {
    "very unreliable": -2,
    "unreliable": -1,
    "reliable": +1,
    "very reliable": +2,
}
#: The lowest attack roll that is a critical failure and jams, by final reliability; None never jams.
JAM_THRESHOLDS: Final[dict[int, int | None]] = {
    -2: 91,
    -1: 94,
    0: 96,
    +1: None,
    +2: None,
}
#: A jam spoils this many times the mode's RoF from what is left in the magazine.
JAM_SPOIL_FACTOR: Final = 2
#: Clearing a jam: Tech-Use or Trade (Weaponsmith) at +0, a full action.
UNJAM_MODIFIER: Final = 0
#: Recovering spoiled rounds: Trade (Weaponsmith) at +10.
RECOVER_AMMO_MODIFIER: Final = +10

# --- Suppression (seed 004, "Suppression") -----------------------------------------------------------

#: Willpower test modifier set by the source of the fire.
SUPPRESSING_TEST_MODIFIERS: Final[dict[str, int]] = {"semi": -10, "full": -20}
OVERWATCH_SUPPRESSION_MODIFIER: Final = +20
#: Suppressing fire tests everyone in its sector at these bands (point blank is nearer than short).
SUPPRESSION_TEST_BANDS: Final = frozenset({"point_blank", "short", "combat"})
#: A suppressed character in cover has one action point a turn and -20 on every BS test.
SUPPRESSED_ACTION_POINTS: Final = 1
SUPPRESSED_BS_MODIFIER: Final = -20
#: End-of-turn recovery gains +30 when no fire landed within 10 m since the character's last turn.
RECOVERY_QUIET_BONUS: Final = +30

# --- Hit locations (not in the seed; the family's d100 table, read straight off the die) ------------

LOCATIONS: Final = ("head", "right_arm", "left_arm", "body", "right_leg", "left_leg")
#: Highest d100 face of each location, in order.
HIT_LOCATIONS: Final[tuple[tuple[int, str], ...]] = (
    (10, "head"),
    (20, "right_arm"),
    (30, "left_arm"),
    (70, "body"),
    (85, "right_leg"),
    (100, "left_leg"),
)
#: A shooter in cover who fires over it shows head and arms; by default these stay covered.
COVERED_WHEN_SHOOTING: Final = frozenset({"body", "right_leg", "left_leg"})

# --- Blasts (seed 004, "Blasts" and "Blasts and surroundings") --------------------------------------

#: The d8 scatter compass: face to (name, east, north) unit steps; 1 is straight up the map.
COMPASS: Final[dict[int, tuple[str, int, int]]] = {
    1: ("N", 0, 1),
    2: ("NE", 1, 1),
    3: ("E", 1, 0),
    4: ("SE", 1, -1),
    5: ("S", 0, -1),
    6: ("SW", -1, -1),
    7: ("W", -1, 0),
    8: ("NW", -1, 1),
}
#: Cover armour multiplies against blasts: x2 in general, x3 against X damage, x4 against X(Fr).
BLAST_COVER_MULTIPLIER: Final[dict[str, int]] = {"blast": 2, "X": 3, "X(Fr)": 4}
#: A room no larger than this many blast radii is enclosed.
ENCLOSED_ROOM_RADII: Final = 4
#: In an enclosed room an X blast grows by half its radius, rounded up.
ENCLOSED_RADIUS_FACTOR: Final = 1.5

"""Everything the d100 rules can say: the keys and values of their log lines, dice and card words.

Texts live in the catalogues (``vtt_module/lang/messages.<lang>.json``, docs/i18n.md); the Russian one
uses seed 004's own terms. This module only declares what exists, so tests can hold the catalogues to it.
"""

from __future__ import annotations

from rules.d100.tables import COMPASS, LOCATIONS, RANGE_MODIFIERS
from rules.messages import Vocabulary

__all__ = ["MESSAGES"]

MESSAGES = Vocabulary("d100")

# What each die was rolled for (seed 004; the order is in rules/d100/salvo.py).
ROLL_ATTACK = MESSAGES.message("roll.attack", "mode")
ROLL_RANDOM_TARGET = MESSAGES.message("roll.random_target")
ROLL_DODGE = MESSAGES.message("roll.dodge", "target")
ROLL_LOCATION = MESSAGES.message("roll.location", "target")
ROLL_SUPPRESSION = MESSAGES.message("roll.suppression", "target")
ROLL_SCATTER_DISTANCE = MESSAGES.message("roll.scatter_distance")
ROLL_SCATTER_DIRECTION = MESSAGES.message("roll.scatter_direction")
ROLL_DAMAGE = MESSAGES.message("roll.damage", "target")
ROLL_ROOM_DAMAGE = MESSAGES.message("roll.room_damage", "target")
ROLL_RECOVERY = MESSAGES.message("roll.recovery", "target")
ROLL_UNJAM = MESSAGES.message("roll.unjam")
ROLL_RECOVER_AMMO = MESSAGES.message("roll.recover_ammo")

# An attack ("Shooting", "Suppressing fire", "Jams and reliability").
ATTACK_MODE = MESSAGES.message("attack.mode", "mode", "cost")
SHOOTER_SUPPRESSED = MESSAGES.message("attack.shooter_suppressed", "ap", signed=("modifier",))
MODIFIER = MESSAGES.message("attack.modifier", "label", signed=("value",))
ATTACK_TEST = MESSAGES.message("attack.test", "bs", "roll", "need", "success", "degrees", "note", "hits")
RANDOM_HITS = MESSAGES.message("attack.random_hits", "spread")
TARGET_SHARE = MESSAGES.message("attack.target_share", "target", "hits")
HIT_LOCATIONS = MESSAGES.message("attack.locations", "target", "locations")
DODGE = MESSAGES.message(
    "dodge", "target", "roll", "need", "success", "degrees", "negated", signed=("modifier",)
)
JAM = MESSAGES.message("jam", "spoiled", "cost", signed=("modifier",))

# Grenades and blasts ("Types of ranged weapon", "Blasts").
FUMBLE = MESSAGES.message("grenade.fumble")
MISSED_IN_MELEE = MESSAGES.message("grenade.missed_in_melee")
THROWER_CLEAR = MESSAGES.message("grenade.clear", "degrees")
THROWER_CAUGHT = MESSAGES.message("grenade.caught", "degrees")
SCATTER = MESSAGES.message("blast.scatter", "metres", "direction")

# Damage through cover and armour ("Cover", "Damage to cover").
DAMAGE = MESSAGES.message(
    "damage", "target", "location", "damage", "armour", "covered", "cover", "through", "tb", "wounds"
)

# Suppression ("Suppression").
SUPPRESSION_TEST = MESSAGES.message(
    "suppression.test", "target", "wp", "roll", "need", "success", "degrees", signed=("modifier",)
)
SUPPRESSION_EXEMPT = MESSAGES.message("suppression.exempt", "target", "reason")
SEEKS_COVER = MESSAGES.message("suppressed.seek_cover", "target")
GOES_PRONE = MESSAGES.message("suppressed.prone", "target")
PINNED = MESSAGES.message("suppressed.pinned", "target", "ap", signed=("modifier",))
RECOVERY_NOT_SUPPRESSED = MESSAGES.message("recover.not_suppressed", "target")
RECOVERY_IN_MELEE = MESSAGES.message("recover.in_melee", "target")
RECOVERY_TEST = MESSAGES.message(
    "recover.test",
    "target",
    "wp",
    "quiet",
    "roll",
    "need",
    "success",
    "degrees",
    signed=("bonus", "modifier"),
)
RECOVERY_STAYS = MESSAGES.message("recover.stays", "target", "ap", signed=("modifier",))
RECOVERY_SHAKEN = MESSAGES.message("recover.shaken", "target")
MELEE_ENDS_SUPPRESSION = MESSAGES.message("melee.ends_suppression", "target")

# Overwatch ("Overwatch").
OVERWATCH_LIFTED = MESSAGES.message("overwatch.lifted")
OVERWATCH_SET = MESSAGES.message("overwatch.set", "cost", "mode", "arc", "facing", "trigger")
OVERWATCH_TRIGGERED = MESSAGES.message("overwatch.triggered", "mode")
NOT_SHOT = MESSAGES.message("overwatch.not_shot", "target")

# Looking after the weapon ("Reload", "Clearing a jam", "Bracing", "Jams and reliability").
RELOADED = MESSAGES.message("reload", "rounds", "loaded", "capacity")
UNJAM_TEST = MESSAGES.message(
    "unjam.test", "cost", "roll", "need", "success", "degrees", signed=("modifier",)
)
JAM_CLEARED = MESSAGES.message("unjam.cleared")
STILL_JAMMED = MESSAGES.message("unjam.still_jammed")
RECOVER_AMMO_TEST = MESSAGES.message(
    "recover_ammo.test", "roll", "need", "success", "degrees", signed=("modifier",)
)
ROUNDS_STAY_SPOILED = MESSAGES.message("recover_ammo.failed", "rounds")
ROUNDS_RECOVERED = MESSAGES.message("recover_ammo.recovered", "rounds")
BRACE_RELEASED = MESSAGES.message("brace.released")
BRACED = MESSAGES.message("brace.set", "cost")

# Why a test came out as it did without the number saying so (a result's ``note``).
ALWAYS_MISSES = MESSAGES.message("note.always_misses", "at")
ALWAYS_PASSES = MESSAGES.message("note.always_passes", "face")
JAMS = MESSAGES.message("note.jams", "at")

# Words the messages above take as values.
MODE = MESSAGES.family("mode", ("single", "short_burst", "long_burst", "wide_short_burst", "wide_long_burst"))
SUPPRESSING = MESSAGES.message("mode.suppressing", "rate")
RATE = MESSAGES.family("rate", ("semi", "full"))
COST = MESSAGES.family("cost", ("half", "full"))
BAND = MESSAGES.family("band", RANGE_MODIFIERS)
LOCATION = MESSAGES.family("location", LOCATIONS)
COMPASS_POINT = MESSAGES.family("compass", (name.lower() for name, _, _ in COMPASS.values()))
EXEMPT = MESSAGES.family("exempt", ("in_melee", "unharmable"))
# Labels of the test modifiers an attack shows, one per line (the mode's own is the mode's name).
MELEE_RANGE = MESSAGES.message("label.melee")
RANGE = MESSAGES.message("label.range", "band")
HEAVY_UNBRACED = MESSAGES.message("label.heavy_unbraced")
HEAVY_MOVED = MESSAGES.message("label.heavy_moved")
SUPPRESSED = MESSAGES.message("label.suppressed")
FIRE_AT_FEET = MESSAGES.message("label.fire_at_feet")
OTHER_MODIFIERS = MESSAGES.message("label.other")
#: The card's title for each action other than the default ``attack`` (``bridge/card.py``).
ACTION = MESSAGES.actions(
    (
        "overwatch_fire",
        "overwatch",
        "reload",
        "unjam",
        "recover_ammo",
        "brace",
        "suppression_test",
        "recover",
        "enter_melee",
    ),
)

# Refusals (rules.errors.RuleError). ``weapon`` is the name the table typed, empty for an unnamed
# weapon. The words a refusal names a fire mode or a RoF position by are declared as refusals too, so
# the English refusal says the word and a catalogue says it in its language.
MODE_WORD = {
    name: MESSAGES.error(f"mode.{name}", label)
    for name, label in (
        ("single", "single shot"),
        ("short_burst", "short burst"),
        ("long_burst", "long burst"),
        ("wide_short_burst", "wide short burst"),
        ("wide_long_burst", "wide long burst"),
        ("wide_burst", "wide burst"),
        ("overwatch", "overwatch"),
    )
}
SUPPRESSING_WORD = MESSAGES.error("mode.suppressing", "suppressing fire ({rate})", "rate")
RATE_WORD = {rate: MESSAGES.error(f"rate.{rate}", rate) for rate in ("semi", "full")}
POSITION_WORD = {
    name: MESSAGES.error(f"position.{name.replace('-', '_')}", name)
    for name in ("single-shot", "short-burst", "long-burst")
}
BAND_WORD = {
    name: MESSAGES.error(f"range_band.{name}", name.replace("_", " "))
    for name in ("point_blank", "short", "combat", "long", "extreme")
}
WEAPON_CLASS_WORD = {
    name: MESSAGES.error(f"weapon_class.{name}", text)
    for name, text in (("long_rifle", "a long rifle"), ("heavy", "a heavy weapon"))
}
ERR_JAMMED = MESSAGES.error("jammed", "weapon is jammed; clear it first (unjam)")
ERR_NO_MELEE = MESSAGES.error("no_melee", "{weapon_class} cannot fire in melee", "weapon_class")
ERR_NO_POSITION = MESSAGES.error(
    "no_position",
    "{weapon?{weapon}|the weapon} has no {position} RoF ({rof}); {mode} needs it",
    "weapon",
    "position",
    "rof",
    "mode",
)
ERR_WIDE_NEEDS = MESSAGES.error(
    "wide_needs",
    "{mode} needs a {position} RoF of at least {least}, {weapon?{weapon}|the weapon} has {value}",
    "mode",
    "position",
    "least",
    "weapon",
    "value",
)
ERR_ROF_POSITIONS = MESSAGES.error("rof_positions", "RoF {rof} must have three positions, like S/3/10", "rof")
ERR_ROF_FIRST = MESSAGES.error(
    "rof_first", "RoF {rof}: the first position is S or a dash, not {first}", "rof", "first"
)
ERR_ROF_VALUE = MESSAGES.error(
    "rof_value", "RoF {rof}: the {position} position must be 1..{most} or a dash", "rof", "position", "most"
)
ERR_RELIABILITY = MESSAGES.error(
    "reliability", "unknown reliability {value}; expected a number or one of {known}", "value", "known"
)
ERR_ROUNDS_RANGE = MESSAGES.error(
    "rounds_range", "{field} {count} rounds is outside 0..{most}", "field", "count", "most"
)
ERR_OVERLOADED = MESSAGES.error(
    "overloaded", "{loaded} rounds loaded > capacity {capacity}", "loaded", "capacity"
)
ERR_WEAPON_RANGE = MESSAGES.error(
    "weapon_range", "a weapon's range is 0..{most} m, not {range}", "most", "range"
)
ERR_CONCUSSIVE = MESSAGES.error("concussive", "a Concussive rating cannot be negative")
ERR_JAM_AT = MESSAGES.error("jam_at", "jam_at is a d100 face 1..100 (101: never jams)")
ERR_PEN = MESSAGES.error("pen", "penetration cannot be negative")
ERR_BLAST = MESSAGES.error("blast", "a blast radius is 0..{most} m", "most")
ERR_BS = MESSAGES.error("bs", "BS {bs} is outside 0..{most}", "bs", "most")
ERR_SB = MESSAGES.error("sb", "Strength bonus {sb} is outside 0..{most}", "sb", "most")
ERR_MODIFIER = MESSAGES.error(
    "modifier", "a modifier of {modifier_signed} is beyond +/-{most}", "most", signed=("modifier",)
)
ERR_CHARACTERISTIC = MESSAGES.error(
    "characteristic", "{field} {value} is outside 0..{most}", "field", "value", "most"
)
ERR_SHARE = MESSAGES.error("share", "a share of hits cannot be negative")
ERR_COVER_AP = MESSAGES.error("cover_ap", "cover armour cannot be negative")
ERR_TB = MESSAGES.error("tb", "Toughness bonus cannot be negative")
ERR_DISTANCE = MESSAGES.error("distance", "a distance cannot be negative")
ERR_ARMOUR = MESSAGES.error("armour", "armour {armour} cannot be negative", "armour")
ERR_LOCATION = MESSAGES.error(
    "location", "unknown location {location}; expected one of {known}", "location", "known"
)
ERR_LISTED_TWICE = MESSAGES.error("listed_twice", "each target may be listed once")
ERR_BAND = MESSAGES.error("band", "unknown range band; expected one of {known}", "known")
ERR_THROWN_SINGLE = MESSAGES.error(
    "thrown_single", "a {weapon_class} weapon is thrown one at a time (mode single)", "weapon_class"
)
ERR_SINGLE_TARGET = MESSAGES.error("single_target", "a single shot has one target")
ERR_SHORT_MAGAZINE = MESSAGES.error(
    "short_magazine",
    "magazine has {loaded} {loaded|round|rounds}, {mode} needs {rounds}",
    "loaded",
    "mode",
    "rounds",
)
ERR_FIRE_AT_FEET = MESSAGES.error("fire_at_feet", "only a blast weapon is aimed at the ground under a target")
ERR_SECONDARY_REACH = MESSAGES.error(
    "secondary_reach",
    "{reach} m from the primary; extra hits reach {most} m (gm_allows_wider for a narrow angle)",
    "reach",
    "most",
)
ERR_ROOM_SIZE = MESSAGES.error("room_size", "a room's size must be positive")
ERR_THROWER_SB = MESSAGES.error("thrower_sb", "a thrown weapon adds the thrower's Strength bonus to damage")
ERR_SKILL = MESSAGES.error("skill", "skill {skill} is outside 0..{most}", "skill", "most")
ERR_RELOAD_CAPACITY = MESSAGES.error("reload_capacity", "reloading needs the magazine's capacity")
ERR_NO_RESERVE = MESSAGES.error("no_reserve", "no rounds in reserve to reload with")
ERR_NOT_JAMMED = MESSAGES.error("not_jammed", "the weapon is not jammed")
ERR_NO_SPOILED = MESSAGES.error("no_spoiled", "no spoiled rounds to recover")
ERR_BRACE_IN_MELEE = MESSAGES.error("brace_in_melee", "no weapon can be braced while locked in melee")
ERR_NO_CHARACTER = MESSAGES.error("no_character", "name at least one character")
ERR_RECOVERY_WP = MESSAGES.error("recovery_wp", "a recovery test needs the character's Willpower (wp)")
ERR_SUPPRESSION_WP = MESSAGES.error("suppression_wp", "a suppression test needs the target's Willpower (wp)")
ERR_BAND_DISTANCE = MESSAGES.error(
    "band_distance",
    "band {band} disagrees with distance {distance} m ({derived}): give one of them, or both agreeing",
    "band",
    "distance",
    "derived",
)
ERR_TWO_BANDS = MESSAGES.error("two_bands", "band and range_band name one range: give one of them")
ERR_RATE_NOT_SUPPRESSING = MESSAGES.error(
    "rate_not_suppressing", "rate sets suppressing fire's RoF (semi or full); this attack is {mode}", "mode"
)
ERR_ARC_NOT_SUPPRESSING = MESSAGES.error(
    "arc_not_suppressing", "arc is the width of suppressing fire's sector; this attack is {mode}", "mode"
)
ERR_BASE_NOT_WIDE = MESSAGES.error(
    "base_not_wide", "base names the burst a wide_burst widens: only with that mode"
)
ERR_ORDER_NOT_OVERWATCH = MESSAGES.error(
    "order_not_overwatch", "order is the standing order an overwatch sets: only with mode overwatch"
)
ERR_OVERWATCH_FIELD = MESSAGES.error(
    "overwatch_field",
    "{field} is for firing; mode overwatch only sets the order (it fires with overwatch_fire)",
    "field",
)
ERR_CLEAR_WITH_ORDER = MESSAGES.error("clear_with_order", "clear lifts the order: send no order with it")
ERR_SHARE_RANDOM = MESSAGES.error(
    "share_random", "suppressing fire spreads its hits at random: no target can ask for a share"
)
ERR_SHARE_PRIMARY = MESSAGES.error(
    "share_primary", "the primary takes the hits the shares leave: give shares to the other targets"
)
ERR_TO_PRIMARY_HERE = MESSAGES.error(
    "to_primary_here",
    "to_primary is a secondary target's distance from a burst's primary; it does not apply here",
)
ERR_WIDE_BASE = MESSAGES.error(
    "wide_base", "a wide burst widens a short_burst or a long_burst: say which in base"
)
ERR_OVERWATCH_MODE = MESSAGES.error("overwatch_mode", "overwatch sets up an order and fires nothing yet")
ERR_SECTOR = MESSAGES.error(
    "sector", "a sector of fire is at most {most} degrees wide, not {arc}", "most", "arc"
)
ERR_OVERWATCH_ARC = MESSAGES.error(
    "overwatch_arc", "an overwatch sector is at most {most} degrees wide", "most"
)
ERR_NO_OVERWATCH = MESSAGES.error(
    "no_overwatch", "no standing overwatch order to fire on (set one: overwatch)"
)
ERR_OVERWATCH_TARGET = MESSAGES.error("overwatch_target", "overwatch fire needs at least one target")
ERR_OVERWATCH_DIFFERENT = MESSAGES.error(
    "overwatch_different", "single-shot overwatch fires at different targets, each once"
)
ERR_OVERWATCH_SHOTS = MESSAGES.error(
    "overwatch_shots",
    "single-shot overwatch allows {limit} shot(s) (half BS bonus {bonus}, highest RoF {highest}), "
    "not {shots}",
    "limit",
    "bonus",
    "highest",
    "shots",
)
ERR_OVERWATCH_ROUNDS = MESSAGES.error(
    "overwatch_rounds",
    "magazine has {loaded} {loaded|round|rounds}, {shots} single shots need {shots}",
    "loaded",
    "shots",
)
ERR_DAMAGE_NOTATION = MESSAGES.error("damage_notation", "damage {damage} should read like 1d10+3", "damage")
ERR_DAMAGE_DICE = MESSAGES.error("damage_dice", "damage {damage}: 1-20 dice of 2-100 sides", "damage")
ERR_DAMAGE_BONUS = MESSAGES.error(
    "damage_bonus", "damage {damage}: a bonus beyond +/-{most}", "damage", "most"
)
ERR_NEGATIVE_DISTANCE = MESSAGES.error(
    "negative_distance", "distance {distance} m cannot be negative", "distance"
)
#: what a distance needs to become a range band
NEEDS_SB = MESSAGES.error(
    "needs.sb", "the thrower's Strength bonus ($.attacker.sb; Rng = SB x {per_sb} m)", "per_sb"
)
NEEDS_RANGE = MESSAGES.error("needs.range", "the weapon's range ($.weapon.range)")
ERR_NO_BAND = MESSAGES.error("no_band", "a distance needs {needs} to find its band", "needs")
ERR_BEYOND_EXTREME = MESSAGES.error(
    "beyond_extreme",
    "{distance} m is beyond extreme range ({outer} x Rng {range} m)",
    "distance",
    "outer",
    "range",
)

# --- Table rules (rules/d100/table_rules.py): a card's line for a reading the table changed ---------
TABLE_RANGE_MODIFIER = MESSAGES.message("table_rule.range_modifier", "band", signed=("modifier", "volley"))
TABLE_OVERWATCH_STANDS = MESSAGES.message("table_rule.overwatch_stands")

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

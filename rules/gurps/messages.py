"""Everything the GURPS rules can say: the keys and values of their log lines, dice and card words.

Texts live in the catalogues (``vtt_module/lang/messages.<lang>.json``, docs/i18n.md); this module only
declares what exists, so tests can hold the catalogues to it.
"""

from __future__ import annotations

from rules.messages import Vocabulary

__all__ = ["MESSAGES"]

MESSAGES = Vocabulary("gurps")

# What each die was rolled for.
ROLL_TO_HIT = MESSAGES.message("roll.to_hit", "target")
ROLL_MALFUNCTION = MESSAGES.message("roll.malfunction", "weapon")
ROLL_DODGE = MESSAGES.message("roll.dodge", "target")
ROLL_UNJAM = MESSAGES.message("roll.unjam", "weapon")

# An attack, one target at a time (seed 001, B373-375, B407).
AIM = MESSAGES.message(
    "attack.aim",
    "shooter",
    "target",
    "weapon",
    "shots",
    "pellets",
    "skill",
    "bonus",
    "effective",
    signed=("modifier",),
)
HIT = MESSAGES.message("attack.hit", "target", "roll", "effective", "by", "critical", "hits", "rcl")
MISS = MESSAGES.message("attack.miss", "target", "roll", "effective", "by", "critical")
MALFUNCTION = MESSAGES.message(
    "attack.malfunction", "target", "roll", "malf", "weapon", "table_roll", "fault", "rounds"
)
EXPLOSION_RISK = MESSAGES.message("attack.explosion_risk")
NOT_FIRED = MESSAGES.message("attack.not_fired", "target", "weapon")
DODGE = MESSAGES.message(
    "dodge.roll", "target", "dodge", "roll", "by", "success", "critical", "dodged", "landed", "scored"
)
CRITICAL_NOT_DODGED = MESSAGES.message("dodge.critical_hit", "target")
WEAPON_AFTER = MESSAGES.message("weapon.after", "weapon", "loaded", "jammed", "fault")
UNNAMED_WEAPON = MESSAGES.message("weapon.unnamed")

# Reload and unjam (B407).
RELOAD = MESSAGES.message("reload", "shooter", "weapon", "before", "loaded", "added", "jammed", "fault")
UNJAM = MESSAGES.message(
    "unjam", "shooter", "weapon", "fault", "time", "skill", "need", "roll", "success", "critical", "now"
)

# Words the messages above take as values.
FAULT = MESSAGES.family("fault", ("misfire", "stoppage", "mechanical", "destroyed", "unknown"))
FIX_TIME = MESSAGES.family("fix_time", ("ready", "three_ready", "hour"))
SKILL = MESSAGES.family("skill", ("armoury", "weapon"))
#: The card's title for each action other than the default ``attack`` (``bridge/card.py``).
ACTION = MESSAGES.actions(("reload", "unjam"))

# Refusals (rules.errors.RuleError): a request the rules cannot resolve as asked. ``weapon`` is the
# name the table typed, empty for an unnamed weapon; ``malfunction`` the fault's English word and
# ``fault`` the same fault as a message (FAULT), for the other languages.
ERR_ROF_UNREADABLE = MESSAGES.error(
    "rof_unreadable", 'RoF {rof} is neither a number nor shots x pellets like "3x9"', "rof"
)
ERR_ROF_EMPTY = MESSAGES.error("rof_empty", "RoF {rof} must fire at least one shot of one projectile", "rof")
ERR_ROF_TOO_HIGH = MESSAGES.error(
    "rof_too_high",
    "RoF {rof} is beyond {most} shots of {pellets} pellets, more than any weapon fires",
    "rof",
    "most",
    "pellets",
)
ERR_DESTROYED = MESSAGES.error(
    "destroyed", "{weapon?{weapon}|the weapon} was destroyed by a botched repair", "weapon"
)
ERR_JAMMED = MESSAGES.error(
    "jammed",
    "{weapon?{weapon}|the weapon} is jammed{malfunction? ({malfunction})|}: unjam it first",
    "weapon",
    "malfunction",
    "fault",
)
ERR_OVERLOADED = MESSAGES.error("overloaded", "loaded {loaded} > capacity {capacity}", "loaded", "capacity")
ERR_TARGET_SHOTS = MESSAGES.error("target_shots", "target shots {given} != shots {shots}", "given", "shots")
ERR_LISTED_TWICE = MESSAGES.error("listed_twice", "{target} is listed twice", "target")
ERR_SHARES_NEEDED = MESSAGES.error("shares_needed", "with several targets, say how many shots go to each")
ERR_SHARE_EMPTY = MESSAGES.error("share_empty", "shots {shots}: each target takes at least one shot", "shots")
ERR_SHARES_SUM = MESSAGES.error(
    "shares_sum", "target shots add up to {total}, not shots {shots}", "total", "shots"
)
ERR_NO_SHOTS = MESSAGES.error("no_shots", "shots {shots}: an attack fires at least one shot", "shots")
ERR_SHOTS_OVER_ROF = MESSAGES.error("shots_over_rof", "shots {shots} > RoF {rof}", "shots", "rof")
ERR_SHOTS_OVER_LOADED = MESSAGES.error(
    "shots_over_loaded", "shots {shots} > {loaded} loaded", "shots", "loaded"
)
ERR_NOT_JAMMED = MESSAGES.error(
    "not_jammed", "{weapon?{weapon}|the weapon} is not jammed: there is nothing to clear", "weapon"
)
ERR_WHICH_FAULT = MESSAGES.error(
    "which_fault", "say what jammed {weapon?{weapon}|the weapon}: misfire, stoppage or mechanical", "weapon"
)
ERR_ARMOURY_ONLY = MESSAGES.error(
    "armoury_only",
    "a {malfunction} problem needs an Armoury roll; weapon skill clears misfires and stoppages",
    "malfunction",
    "fault",
)
ERR_RELOAD_CAPACITY = MESSAGES.error(
    "reload_capacity", "reloading fills {weapon?{weapon}|the weapon} to its capacity: send it", "weapon"
)

# --- Table rules (rules/gurps/table_rules.py): a card's line for a reading the table changed ---------
TABLE_DODGE_STEP = MESSAGES.message("table_rule.dodge_step", "step", "rcl")

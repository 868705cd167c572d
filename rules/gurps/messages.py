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

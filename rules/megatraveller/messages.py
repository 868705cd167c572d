"""Everything the MegaTraveller rules can say: the keys and values of their log lines, dice and card words.

Texts live in the catalogues (``vtt_module/lang/messages.<lang>.json``, docs/i18n.md); this module only
declares what exists, so tests can hold the catalogues to it.
"""

from __future__ import annotations

from rules.megatraveller.tasks import DIFFICULTIES
from rules.messages import Vocabulary
from rules.results import Message

__all__ = ["MESSAGES", "rung"]

MESSAGES = Vocabulary("megatraveller")

# What each die was rolled for (RCS: To-Hit, Automatic fire).
ROLL_RAPID_BULLETS = MESSAGES.message("roll.rapid_bullets", signed=("dex_dm",))
ROLL_AUTO_ROUNDS = MESSAGES.message("roll.auto_rounds")
ROLL_CONTROLLED_ROUNDS = MESSAGES.message("roll.controlled_rounds")
ROLL_LOST = MESSAGES.message("roll.lost", "chart")
ROLL_CLUSTER = MESSAGES.message("roll.cluster")
ROLL_TO_HIT = MESSAGES.message("roll.to_hit", "target")
ROLL_STRAY = MESSAGES.message("roll.stray", "target", "source")

# How the shooter fires, before any die (RCS: Targetting and Firing, Mode Selection).
FIRE_AT = MESSAGES.message("fire.at", "shooter", "target", "assumed_lock")
FAST_DRAW = MESSAGES.message("fire.fast_draw", "shooter", "target", "in_hand", signed=("dm",))
RETARGET_AND_FIRE = MESSAGES.message("fire.retarget", "shooter", "target", "previous", "kind", signed=("dm",))
SELECTOR_FLIPPED = MESSAGES.message("fire.selector_flipped", "before", "after", "levels")
DMS = MESSAGES.message("fire.dms", "dex", signed=("skill", "dex_dm", "action_dm", "total"))
DIFFICULTY_SHIFT = MESSAGES.message("fire.difficulty", "levels", "moves")
SHIFT_MOVE = MESSAGES.message("fire.shift_move", "before", "after")
SPLIT = MESSAGES.message("fire.split", "split", "splitting", "targets", "designated", signed=("dm",))
SUMMARY = MESSAGES.message("fire.summary", "fired", "loaded", "hits")
TARGET_HITS = MESSAGES.message("fire.target_hits", "target", "hits")

# The pool (RCS: Rapid-fire, Automatic fire, Controlled fire).
POOL_BULLETS = MESSAGES.message("pool.bullets", "rolled", "bullets", "capped", signed=("dex_dm",))
POOL_WAITING = MESSAGES.message("pool.waiting")
MAGAZINE_EMPTIES = MESSAGES.message("pool.magazine_empties", "loaded")
CONTROLLED_ROUNDS = MESSAGES.message("pool.controlled_rounds", "rolled", "fired", "loaded", "capped")
AUTO_ROUNDS = MESSAGES.message("pool.auto_rounds", "rolled", "fired", "loaded", "capped", "emptied", "within")
LOST = MESSAGES.message("pool.lost", "chart", "rolled", "lost", "clamped")
CLUSTERS = MESSAGES.message("pool.clusters", "bullets", "clusters")
NO_BULLETS_LEFT = MESSAGES.message("pool.none_left")

# Volleys, one target at a time (RCS: Rapid-fire).
NO_BULLETS = MESSAGES.message("volley.no_bullets", "target")
VOLLEY_ROLL = MESSAGES.message(
    "volley.roll",
    "target",
    "bullet",
    "bullets",
    "roll",
    "total",
    "need",
    "hit",
    "natural_two",
    signed=("dm", "bullet_dm"),
)
EXCEPTIONAL_SUCCESS = MESSAGES.message("volley.exceptional_success", "target", "need", "by")
EXCEPTIONAL_FAILURE = MESSAGES.message("volley.exceptional_failure", "target")
STRAY = MESSAGES.message("volley.stray", "bullets", "into", "source")
REST_MISSES = MESSAGES.message("volley.rest_misses", "target", "rest")

# Weapon handling (RCS: Readying a Weapon, Mode Selection, Targetting and Firing).
DRAWN = MESSAGES.message("handling.draw", "shooter", "selector", "target")
READIED = MESSAGES.message("handling.ready", "shooter", "selector", "target")
UNSLUNG = MESSAGES.message("handling.unsling", "shooter")
MODE_SELECTED = MESSAGES.message("handling.select_mode", "shooter", "before", "after")
RETARGETED = MESSAGES.message("handling.retarget", "shooter", "target")
RELOADED = MESSAGES.message("handling.reload", "shooter", "before", "loaded")

# Words the messages above take as values.
RUNG = MESSAGES.family("rung", DIFFICULTIES)
#: Past Impossible the ladder keeps climbing: "Impossible+2".
RUNG_BEYOND = MESSAGES.message("rung_beyond", "steps")
SELECTOR = MESSAGES.family("selector", ("single", "burst", "auto"))
KIND = MESSAGES.family("kind", ("pistol", "rifle", "heavy"))
#: The card's title for each action other than the default ``fire`` (``bridge/card.py``).
ACTION = MESSAGES.actions(
    ("fast_draw", "retarget_and_fire", "draw", "unsling", "ready", "select_mode", "retarget", "reload")
)


def rung(level: int) -> Message:
    """The name of the rung ``level`` shifts above Simple (``tasks.difficulty_name`` in words)."""
    top = len(DIFFICULTIES) - 1
    if level <= top:
        return RUNG[DIFFICULTIES[max(level, 0)]]()
    return RUNG_BEYOND(steps=level - top)

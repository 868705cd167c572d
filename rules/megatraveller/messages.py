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


# Refusals (rules.errors.RuleError). ``weapon`` is the name the table typed, empty for an unnamed
# weapon. The words a refusal names a state by are declared as refusals too (MODE_WORD and the
# like), so the English refusal says the word and a catalogue says it in its language.
MODE_WORD = {
    mode: MESSAGES.error(f"mode.{mode}", mode) for mode in ("single", "rapid", "burst", "auto", "controlled")
}
READINESS_WORD = {
    state: MESSAGES.error(f"readiness.{state}", state) for state in ("holstered", "slung", "carried", "ready")
}
SELECTOR_WORD = {
    setting: MESSAGES.error(f"selector.{setting}", setting) for setting in ("single", "burst", "auto")
}
ERR_HOLSTERED = MESSAGES.error(
    "holstered",
    "the weapon is holstered: Draw a Small Weapon (draw) first, or Fast Draw (fast_draw) to fire now",
)
ERR_SLUNG = MESSAGES.error(
    "slung", "the weapon is slung: Unsling Rifle (unsling) first, then Ready Rifle (ready)"
)
ERR_CARRIED = MESSAGES.error("carried", "the weapon is carried with its safety on: Ready Rifle (ready) first")
ERR_FAST_DRAW_FROM = MESSAGES.error(
    "fast_draw_from", "Fast Draw needs a holstered (or already ready) weapon; {before}", "before"
)
KIND_WORD = {
    kind: MESSAGES.error(f"kind.{kind}", word)
    for kind, word in (("pistol", "pistol"), ("rifle", "rifle"), ("heavy", "heavy weapon"))
}
ERR_FAST_DRAW_KIND = MESSAGES.error(
    "fast_draw_kind",
    "Fast Draw draws a small weapon (a pistol), and {weapon?{weapon}|this weapon} is a {kind}: "
    'Unsling Rifle (unsling), then Ready Rifle (ready); or fast_draw_weapons "any" to allow it',
    "weapon",
    "kind",
)
ERR_DRAW_KIND = MESSAGES.error(
    "draw_kind",
    "Draw a Small Weapon draws a pistol, and {weapon?{weapon}|this weapon} is a {kind}: "
    'Unsling Rifle (unsling), then Ready Rifle (ready); or fast_draw_weapons "any" to allow it',
    "weapon",
    "kind",
)
ERR_FAST_DRAW_HOLSTER = MESSAGES.error(
    "fast_draw_holster", "Fast Draw draws a holstered pistol; {before}", "before"
)
ERR_FAST_DRAW_IN_HAND = MESSAGES.error(
    "fast_draw_in_hand",
    "Fast Draw draws a holstered pistol, and this one is already ready: fire it (fire), or Retarget and "
    'Fire (retarget_and_fire) at a new target; or fast_draw_weapons "any" to allow it',
)
ERR_SELECTOR_OUT_OF_REACH = MESSAGES.error(
    "selector_out_of_reach", "the selector is out of reach: {before}", "before"
)
ERR_NO_SETTING = MESSAGES.error(
    "no_setting", "{weapon?{weapon}|the weapon} has no {selector} setting", "weapon", "selector"
)
ERR_BURST_SIZE = MESSAGES.error(
    "burst_size",
    "a burst is always {sizes} or {last} bullets, not {burst} (null for a weapon without burst fire)",
    "sizes",
    "last",
    "burst",
)
ERR_OVERLOADED = MESSAGES.error(
    "overloaded", "{loaded} rounds loaded in a {capacity}-round magazine", "loaded", "capacity"
)
ERR_NEEDS_STATE = MESSAGES.error(
    "needs_state",
    "{title} needs the weapon {state}, but it is {readiness}",
    "title",
    "action",
    "state",
    "readiness",
)
ERR_RELOAD_CAPACITY = MESSAGES.error("reload_capacity", "reload needs the magazine's capacity (or rounds)")
ERR_RELOAD_BELOW = MESSAGES.error(
    "reload_below",
    "a reload fills the magazine: {rounds} rounds would leave fewer than the {loaded} loaded",
    "rounds",
    "loaded",
)
ERR_ROUNDS_DO_NOT_FIT = MESSAGES.error(
    "rounds_do_not_fit", "{rounds} rounds do not fit a {capacity}-round magazine", "rounds", "capacity"
)
ERR_NO_RAPID = MESSAGES.error(
    "no_rapid", "{weapon?{weapon}|the weapon} has no /R on its Recoil, so it cannot rapid fire", "weapon"
)
ERR_NO_BURST = MESSAGES.error("no_burst", "{weapon?{weapon}|the weapon} has no burst setting", "weapon")
ERR_NO_AUTO = MESSAGES.error(
    "no_auto", "{weapon?{weapon}|the weapon} is not capable of automatic fire", "weapon"
)
ERR_NO_TARGET = MESSAGES.error(
    "no_target", "fire at whom? give at least one target (targets[0] is the primary)"
)
ERR_TOO_MANY_TOKENS = MESSAGES.error(
    "too_many_tokens", "{count} tokens in one attack; at most {most}", "count", "most"
)
ERR_LISTED_TWICE = MESSAGES.error("listed_twice", "{target} is listed twice", "target")
ERR_OWN_LINE = MESSAGES.error("own_line", "{target} cannot be in its own line of fire", "target")
ERR_NO_DANGER_SPACE = MESSAGES.error(
    "no_danger_space", "only automatic fire has a danger space; {mode} fire picks its targets", "mode"
)
ERR_PRIMARY_BYSTANDER = MESSAGES.error(
    "primary_bystander", "the primary target is the one aimed at, not a bystander"
)
ERR_TOO_MANY_TARGETS = MESSAGES.error(
    "too_many_targets", "{mode} fire takes at most {most} target(s), got {chosen}", "mode", "most", "chosen"
)
ERR_NO_AUTO_TARGETS = MESSAGES.error(
    "no_auto_targets", "an automatic weapon needs an Auto Tgts rating of at least 1"
)
ERR_OVER_AUTO_TARGETS = MESSAGES.error(
    "over_auto_targets",
    "{chosen} chosen targets > Auto Tgts {rating} (mark those caught in the danger space as bystanders)",
    "chosen",
    "rating",
)
ERR_EMPTY = MESSAGES.error("empty", "the magazine is empty: Reload (reload) first")
ERR_EMPTY_MAGAZINE_AUTO_ONLY = MESSAGES.error(
    "empty_magazine_auto_only", "empty_magazine is an order for automatic fire, not {mode} fire", "mode"
)
ERR_SHORT_FOR_BURST = MESSAGES.error(
    "short_for_burst", "magazine has {loaded} rounds, a {size}-round burst needs {size}", "loaded", "size"
)
ERR_ALLOCATION_ENTRIES = MESSAGES.error(
    "allocation_entries",
    "{entries} entries for {targets} targets (one per target, in order)",
    "entries",
    "targets",
)
ERR_CLUSTERS_WANTED = MESSAGES.error(
    "clusters_wanted", "automatic fire allocates clusters: give a list of cluster indices"
)
ERR_NEGATIVE_INDEX = MESSAGES.error("negative_index", "cluster index {index} is negative", "index")
ERR_COUNT_WANTED = MESSAGES.error(
    "count_wanted", "rapid, burst and single fire allocate bullets: give a count"
)
ERR_NEGATIVE_BULLETS = MESSAGES.error("negative_bullets", "{bullets} bullets is negative", "bullets")
ERR_RAPID_ALLOCATION = MESSAGES.error(
    "rapid_allocation",
    "allocation fires {fired} bullets; rapid fire gives {low} to {top}",
    "fired",
    "low",
    "top",
)
ERR_POOL_IS_CLUSTERS = MESSAGES.error("pool_is_clusters", "automatic fire's pool is its clusters")
ERR_POOL_FIELD = MESSAGES.error(
    "pool_field", "{mode} fire's pool has no {field}: nothing would read it", "mode", "field"
)
ERR_CLUSTER_SIZE = MESSAGES.error("cluster_size", "a cluster is 1D bullets, not {size}", "size")
ERR_BULLETS_ROLLED = MESSAGES.error("bullets_rolled", "give the bullets rolled (at least 1)")
ERR_FIXED_BULLETS = MESSAGES.error(
    "fixed_bullets", "{mode} fire always fires {fixed}, not {bullets}", "mode", "fixed", "bullets"
)
ERR_RAPID_BULLETS = MESSAGES.error(
    "rapid_bullets", "rapid fire gives {low} to {top} bullets, not {bullets}", "low", "top", "bullets"
)
#: "exactly 20" or "21 to 40": the values a roll can give
SPAN = MESSAGES.error("span", "{exact?exactly {low}|{low} to {high}}", "exact", "low", "high")
ERR_ROUNDS_FIRED = MESSAGES.error(
    "rounds_fired",
    "{mode} fire from {loaded} loaded fires {span} rounds, not {rounds}",
    "mode",
    "loaded",
    "span",
    "rounds",
)
ERR_ROUNDS_LOST = MESSAGES.error(
    "rounds_lost", "{rounds} rounds fired lose {chart}: {span}, not {lost}", "rounds", "chart", "span", "lost"
)
ERR_CLUSTERS_LEAVE = MESSAGES.error(
    "clusters_leave",
    "clusters hold {total} bullets, but {rounds} fired - {lost} lost leaves {left}",
    "total",
    "rounds",
    "lost",
    "left",
)
ERR_CLUSTERS_FROM = MESSAGES.error(
    "clusters_from",
    "clusters hold {total} bullets; {mode} fire from {loaded} loaded leaves {span} after the lost rounds",
    "total",
    "mode",
    "loaded",
    "span",
)
ERR_SELECTOR_FAST_DRAW = MESSAGES.error(
    "selector_fast_draw",
    "{mode} fire needs the selector on {wanted}, it is on {selector}, and Fast Draw cannot change it",
    "mode",
    "wanted",
    "selector",
)
ERR_LOCKED_ON = MESSAGES.error(
    "locked_on",
    "locked on {locked}, not {primary}: Retarget and Fire (retarget_and_fire), or Retarget (retarget) first",
    "locked",
    "primary",
)
ERR_PRIMARY_LEADS = MESSAGES.error(
    "primary_leads",
    "{count} {clusters?clusters|bullets} here but only {primary} at the primary target, "
    "which must get at least as many as any other",
    "count",
    "clusters",
    "primary",
)
ERR_POOL_MISMATCH = MESSAGES.error(
    "pool_mismatch",
    "allocation fires {fired} bullets, but the pool is {bullets}",
    "fired",
    "bullets",
)
ERR_NO_CLUSTER = MESSAGES.error(
    "no_cluster",
    "there is no cluster {index}: the pool has {rolled?{rolled} {rolled|cluster|clusters}|no clusters}, "
    "counted from 0",
    "index",
    "rolled",
)
ERR_CLUSTER_TWICE = MESSAGES.error(
    "cluster_twice", "cluster {index} already went to target {target}", "index", "target"
)
ERR_CLUSTERS_UNUSED = MESSAGES.error(
    "clusters_unused", "cluster(s) {unused} not allocated: every cluster is fired", "unused"
)
ERR_CLUSTER_EACH = MESSAGES.error(
    "cluster_each", "every target in the danger space gets a cluster while any are left; this one has none"
)
ERR_POOL_NEEDED = MESSAGES.error(
    "pool_needed", "cluster indices refer to a rolled pool: send it as pool.clusters (or the step-one dice)"
)
#: what a pool holds: "clusters [3, 5]" or "7 bullets"
POOL_WORDS = MESSAGES.error("pool", "{clusters?clusters {clusters}|{bullets} bullets}", "clusters", "bullets")
ERR_NOT_THE_SAME_DICE = MESSAGES.error(
    "not_the_same_dice", "the dice rolled {rolled}, not {given}: not the same dice", "rolled", "given"
)

# --- Table rules (rules/megatraveller/table_rules.py): a card's line for a reading the table changed -
TABLE_SPLIT_DM_COUNTS = MESSAGES.message("table_rule.split_dm_counts")
TABLE_EXCEPTIONAL_MARGIN = MESSAGES.message("table_rule.exceptional_margin", "margin", "volley")
TABLE_FAST_DRAW_WEAPONS = MESSAGES.message("table_rule.fast_draw_weapons")
TABLE_DANGER_SPACE_HALF_WIDTH = MESSAGES.message("table_rule.danger_space_half_width", "squares", "volley")
TABLE_DANGER_SPACE_BEYOND = MESSAGES.message("table_rule.danger_space_beyond", "squares", "volley")

"""Everything about a firing action that is decided before a die is rolled (RCS: To-Hit).

:func:`plan_fire` checks the request against every rule that needs no dice (readiness, target lock,
selector, the weapon's modes, targets, ammunition, the shape of an explicit split) and works out each
target's task: its rung on the difficulty ladder and its DMs other than splitting and bullets. A
request that fails here has rolled nothing and spent nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import msgspec

from rules.errors import RuleError
from rules.megatraveller import messages as msg
from rules.megatraveller.allocation import check_bullet_split, check_primary_leads
from rules.megatraveller.autofire import fired_dist, lost_dist, lost_row, remaining_dist
from rules.megatraveller.modes import (
    BRING_TO_BEAR_DM,
    FAST_DRAW_DM,
    FAST_DRAW_FROM,
    FAST_DRAW_KINDS,
    FAST_DRAW_WEAPONS,
    FIRE_MODES,
    MAX_TOKENS,
    MODE_SWITCH_SHIFT,
    MULTI_TARGET_DM,
    SPLIT_DM_COUNTS,
    ModeRule,
    missing_capability,
)
from rules.megatraveller.readiness import (
    BEFORE_FIRING,
    check_ready_to_fire,
    check_selector,
    check_weapon,
    lock_name,
)
from rules.megatraveller.requests import (
    FastDrawRequest,
    FireFields,
    FireMode,
    Pool,
    RetargetAndFireRequest,
    Selector,
    SplitDmCount,
    Target,
    action_of,
)
from rules.megatraveller.tasks import DIFFICULTIES, Task, characteristic_dm
from rules.results import Message

__all__ = ["FirePlan", "TargetPlan", "plan_fire", "rapid_range", "split_dm", "split_targets", "stray_task"]


class TargetPlan(msgspec.Struct, frozen=True):
    """One target's task before the split: its rung and its DMs other than splitting and bullets."""

    target: Target
    task: Task


class FirePlan(msgspec.Struct, frozen=True):
    """Everything decided before the dice: the mode, each target's task, the state afterwards."""

    request: FireFields
    action: str
    mode: FireMode
    rule: ModeRule
    shift: int
    base_dm: int
    targets: tuple[TargetPlan, ...]
    selector: Selector
    lock: str
    fixed_bullets: int | None
    explicit: list[int] | list[list[int]] | None
    defer: bool
    log: tuple[Message, ...]
    #: Which targets the splitting DM counts (``modes.SPLIT_DM_COUNTS``, request ``split_dm_counts``).
    split_dm_counts: SplitDmCount = SPLIT_DM_COUNTS

    @property
    def clustered(self) -> bool:
        return self.rule.clustered

    def index_of(self, token: str) -> int | None:
        for k, plan in enumerate(self.targets):
            if plan.target.id == token:
                return k
        return None


def rapid_range(request: FireFields) -> tuple[int, int]:
    """RCS: Rapid-fire. The fewest and most bullets 1D + Dex DM can put out (at least 1, at most loaded)."""
    dex_dm = characteristic_dm(request.attacker.dex)
    loaded = request.weapon.loaded
    return min(max(1 + dex_dm, 1), loaded), min(6 + dex_dm, loaded)


def split_targets(plan: FirePlan, split: Sequence[int]) -> int:
    """How many targets the splitting DM is for: every target designated (the RCS reading, by
    default), or only those the split gives a bullet (``split_dm_counts: "receiving"``)."""
    if plan.split_dm_counts == "designated":
        return len(plan.targets)
    return sum(1 for bullets in split if bullets > 0)


def split_dm(plan: FirePlan, split: Sequence[int]) -> int:
    """RCS: rapid and burst fire, the DM for firing at more than one target (0, -1, -3)."""
    if not plan.rule.split_dm:
        return 0
    return MULTI_TARGET_DM[max(split_targets(plan, split), 1) - 1]


def stray_task(plan: FirePlan, source: int, token: str) -> Task:
    """The task for bullets a natural 2 sent on to ``token`` (our reading of "a normal attack").

    A token that is itself a target keeps its own rung and DMs; any other token is rolled against the
    source target's rung (with the mode's shifts) and the shooter's own DMs only. The splitting DM does
    not apply: nobody chose to split fire at a stray.
    """
    k = plan.index_of(token)
    if k is not None:
        return plan.targets[k].task
    source_target = plan.targets[source].target
    return Task(DIFFICULTIES.index(source_target.difficulty) + plan.shift, plan.base_dm)


def _check_targets(request: FireFields, rule: ModeRule, mode: FireMode) -> None:
    targets = request.targets
    if not targets:
        raise RuleError("$.targets", msg.ERR_NO_TARGET())
    if len(targets) > MAX_TOKENS:
        raise RuleError("$.targets", msg.ERR_TOO_MANY_TOKENS(count=len(targets), most=MAX_TOKENS))
    seen: set[str] = set()
    for k, target in enumerate(targets):
        if target.id in seen:
            raise RuleError(f"$.targets[{k}].id", msg.ERR_LISTED_TWICE(target=target.id))
        seen.add(target.id)
        if target.id in target.closer:
            raise RuleError(f"$.targets[{k}].closer", msg.ERR_OWN_LINE(target=target.id))
        if target.bystander and not rule.clustered:
            raise RuleError(f"$.targets[{k}].bystander", msg.ERR_NO_DANGER_SPACE(mode=msg.MODE_WORD[mode]()))
    if targets[0].bystander:
        raise RuleError("$.targets[0].bystander", msg.ERR_PRIMARY_BYSTANDER())
    chosen = sum(1 for t in targets if not t.bystander)
    if rule.max_targets is not None and chosen > rule.max_targets:
        raise RuleError(
            "$.targets",
            msg.ERR_TOO_MANY_TARGETS(mode=msg.MODE_WORD[mode](), most=rule.max_targets, chosen=chosen),
        )
    if rule.clustered:
        rating = request.weapon.auto_targets
        if rating < 1:
            raise RuleError("$.weapon.auto_targets", msg.ERR_NO_AUTO_TARGETS())
        if chosen > rating:
            raise RuleError("$.targets", msg.ERR_OVER_AUTO_TARGETS(chosen=chosen, rating=rating))


def _check_ammunition(request: FireFields, mode: FireMode) -> int | None:
    weapon = request.weapon
    if weapon.loaded < 1:
        raise RuleError("$.weapon.loaded", msg.ERR_EMPTY())
    if mode == "single":
        return 1
    if mode == "burst":
        size = weapon.burst
        if size is None:  # pragma: no cover - missing_capability refused it already
            raise RuleError("$.mode", msg.ERR_NO_BURST(weapon=""))
        if weapon.loaded < size:
            raise RuleError("$.mode", msg.ERR_SHORT_FOR_BURST(loaded=weapon.loaded, size=size))
        return size
    return None


def _check_allocation(
    request: FireFields, rule: ModeRule, fixed: int | None
) -> list[int] | list[list[int]] | None:
    """Everything about an explicit split that does not depend on the pool."""
    allocation = request.allocation
    if allocation is None or allocation == "defer":
        return None
    if len(allocation) != len(request.targets):
        refusal = msg.ERR_ALLOCATION_ENTRIES(entries=len(allocation), targets=len(request.targets))
        raise RuleError("$.allocation", refusal)
    if rule.clustered:
        split: list[list[int]] = []
        for k, entry in enumerate(allocation):
            if not isinstance(entry, list):
                raise RuleError(f"$.allocation[{k}]", msg.ERR_CLUSTERS_WANTED())
            for j, index in enumerate(entry):
                if index < 0:
                    raise RuleError(f"$.allocation[{k}][{j}]", msg.ERR_NEGATIVE_INDEX(index=index))
            split.append(list(entry))
        check_primary_leads([len(entry) for entry in split], "clusters")
        return split
    bullets: list[int] = []
    for k, entry in enumerate(allocation):
        if not isinstance(entry, int):
            raise RuleError(f"$.allocation[{k}]", msg.ERR_COUNT_WANTED())
        if entry < 0:
            raise RuleError(f"$.allocation[{k}]", msg.ERR_NEGATIVE_BULLETS(bullets=entry))
        bullets.append(entry)
    check_primary_leads(bullets, "bullets")
    if fixed is not None:
        check_bullet_split(bullets, fixed)
    else:
        low, top = rapid_range(request)
        if not low <= sum(bullets) <= top:
            raise RuleError("$.allocation", msg.ERR_RAPID_ALLOCATION(fired=sum(bullets), low=low, top=top))
    return bullets


def _check_pool_fields(request: FireFields, rule: ModeRule) -> None:
    """A field this mode's pool does not have is refused, never dropped (#31): the dice would not
    reproduce it, and the record would keep a number nothing read."""
    if request.pool is None:
        return
    unread = ("bullets",) if rule.clustered else ("rounds", "lost", "clusters")
    for field in unread:
        if getattr(request.pool, field) is not None:
            refusal = msg.ERR_POOL_FIELD(mode=msg.MODE_WORD[request.mode](), field=field)
            raise RuleError(f"$.pool.{field}", refusal)


def _check_pool(request: FireFields, rule: ModeRule, fixed: int | None) -> None:
    """A pool carried back (``pending`` of step one) must be one this attack can roll."""
    pool = request.pool
    if pool is None:
        return
    if rule.clustered:
        if pool.clusters is None:
            raise RuleError("$.pool.clusters", msg.ERR_POOL_IS_CLUSTERS())
        for k, size in enumerate(pool.clusters):
            if not 1 <= size <= 6:
                raise RuleError(f"$.pool.clusters[{k}]", msg.ERR_CLUSTER_SIZE(size=size))
        _check_pool_can_be_rolled(request, pool, pool.clusters)
    elif pool.bullets is None or pool.bullets < 1:
        raise RuleError("$.pool.bullets", msg.ERR_BULLETS_ROLLED())
    elif fixed is not None and pool.bullets != fixed:
        refusal = msg.ERR_FIXED_BULLETS(mode=msg.MODE_WORD[request.mode](), fixed=fixed, bullets=pool.bullets)
        raise RuleError("$.pool.bullets", refusal)
    elif fixed is None:
        low, top = rapid_range(request)
        if not low <= pool.bullets <= top:
            raise RuleError("$.pool.bullets", msg.ERR_RAPID_BULLETS(low=low, top=top, bullets=pool.bullets))


def _span(values: Collection[int]) -> Message:
    low, high = min(values), max(values)
    return msg.SPAN(exact=low == high, low=low, high=high)


def _check_pool_can_be_rolled(request: FireFields, pool: Pool, clusters: list[int]) -> None:
    """A pool carried back must be one the rounds roll and the lost-rounds chart can leave.

    Any run of 1D clusters is possible, so only the total matters: it must be rounds fired minus
    rounds lost for some roll of this weapon (RCS: Automatic fire, Controlled fire).
    """
    loaded, mode = request.weapon.loaded, request.mode
    controlled, emptied = mode == "controlled", request.empty_magazine
    total = sum(clusters)
    fired = fired_dist(loaded=loaded, controlled=controlled, empty_magazine=emptied)
    if pool.rounds is not None and pool.rounds not in fired:
        refusal = msg.ERR_ROUNDS_FIRED(
            mode=msg.MODE_WORD[mode](), loaded=loaded, span=_span(fired), rounds=pool.rounds
        )
        raise RuleError("$.pool.rounds", refusal)
    if pool.rounds is not None and pool.lost is not None:
        lost = lost_dist(pool.rounds)
        if pool.lost not in lost:
            refusal = msg.ERR_ROUNDS_LOST(
                rounds=pool.rounds, chart=lost_row(pool.rounds).describe(), span=_span(lost), lost=pool.lost
            )
            raise RuleError("$.pool.lost", refusal)
        if pool.rounds - pool.lost != total:
            refusal = msg.ERR_CLUSTERS_LEAVE(
                total=total, rounds=pool.rounds, lost=pool.lost, left=pool.rounds - pool.lost
            )
            raise RuleError("$.pool.clusters", refusal)
    left = remaining_dist(loaded=loaded, controlled=controlled, empty_magazine=emptied)
    if total not in left:
        refusal = msg.ERR_CLUSTERS_FROM(
            total=total, mode=msg.MODE_WORD[mode](), loaded=loaded, span=_span(left)
        )
        raise RuleError("$.pool.clusters", refusal)


def _check_fast_draw(request: FastDrawRequest) -> None:
    """Fast Draw under the request's reading (``modes.FAST_DRAW_WEAPONS`` unless it names one): by
    default a holstered pistol only; ``"any"`` also other kinds, and a weapon already ready."""
    reading = request.fast_draw_weapons or FAST_DRAW_WEAPONS
    readiness = request.attacker.readiness
    if readiness not in FAST_DRAW_FROM[reading]:
        if readiness == "ready":
            raise RuleError("$.attacker.readiness", msg.ERR_FAST_DRAW_IN_HAND())
        before = BEFORE_FIRING[readiness]()
        refusal = msg.ERR_FAST_DRAW_FROM if reading == "any" else msg.ERR_FAST_DRAW_HOLSTER
        raise RuleError("$.attacker.readiness", refusal(before=before))
    kind = request.weapon.kind
    if reading == "small" and kind not in FAST_DRAW_KINDS:
        named = msg.ERR_FAST_DRAW_KIND(weapon=request.weapon.name or "", kind=msg.KIND_WORD[kind]())
        raise RuleError("$.weapon.kind", named)


def plan_fire(request: FireFields) -> FirePlan:
    """Check a firing request against every rule that does not need dice, and set up each task."""
    attacker, weapon, mode = request.attacker, request.weapon, request.mode
    action = action_of(request)
    rule = FIRE_MODES[mode]
    log: list[Message] = []
    switch: Message | None = None
    who = attacker.name or attacker.id
    check_weapon(weapon)
    check_selector(weapon, attacker.selector, "$.attacker.selector")
    if isinstance(request, FastDrawRequest):
        _check_fast_draw(request)
    else:
        check_ready_to_fire(attacker)
    why = missing_capability(weapon, mode)
    if why is not None:
        raise RuleError("$.mode", why)
    if request.empty_magazine and mode != "auto":
        raise RuleError("$.empty_magazine", msg.ERR_EMPTY_MAGAZINE_AUTO_ONLY(mode=msg.MODE_WORD[mode]()))
    _check_targets(request, rule, mode)
    primary = request.targets[0].id
    fixed = _check_ammunition(request, mode)
    shift = rule.shift
    selector: Selector = attacker.selector
    if rule.selector != attacker.selector:
        if isinstance(request, FastDrawRequest):
            refusal = msg.ERR_SELECTOR_FAST_DRAW(
                mode=msg.MODE_WORD[mode](),
                wanted=msg.SELECTOR_WORD[rule.selector](),
                selector=msg.SELECTOR_WORD[attacker.selector](),
            )
            raise RuleError("$.mode", refusal)
        shift += MODE_SWITCH_SHIFT
        selector = rule.selector
        switch = msg.SELECTOR_FLIPPED(
            before=msg.SELECTOR[attacker.selector](), after=msg.SELECTOR[selector](), levels=MODE_SWITCH_SHIFT
        )
    action_dm = 0
    aimed_at = request.targets[0].name or primary
    if isinstance(request, FastDrawRequest):
        action_dm = FAST_DRAW_DM
        log.append(
            msg.FAST_DRAW(
                shooter=who, target=aimed_at, in_hand=attacker.readiness == "ready", dm=FAST_DRAW_DM
            )
        )
    elif isinstance(request, RetargetAndFireRequest):
        action_dm = BRING_TO_BEAR_DM[weapon.kind]
        log.append(
            msg.RETARGET_AND_FIRE(
                shooter=who,
                target=aimed_at,
                previous=lock_name(attacker),
                kind=msg.KIND[weapon.kind](),
                dm=action_dm,
            )
        )
    else:
        if attacker.target is not None and attacker.target != primary:
            raise RuleError(
                "$.targets[0].id", msg.ERR_LOCKED_ON(locked=lock_name(attacker), primary=aimed_at)
            )
        log.append(msg.FIRE_AT(shooter=who, target=aimed_at, assumed_lock=attacker.target is None))
    if switch is not None:
        log.append(switch)
    _check_pool_fields(request, rule)
    explicit = _check_allocation(request, rule, fixed)
    _check_pool(request, rule, fixed)
    dex_dm = characteristic_dm(attacker.dex)
    base_dm = attacker.skill + dex_dm + action_dm
    log.append(
        msg.DMS(skill=attacker.skill, dex=attacker.dex, dex_dm=dex_dm, action_dm=action_dm, total=base_dm)
    )
    if shift:
        levels = sorted({DIFFICULTIES.index(t.difficulty) + t.shift for t in request.targets})
        moves = [msg.SHIFT_MOVE(before=msg.rung(n), after=msg.rung(n + shift)) for n in levels]
        log.append(msg.DIFFICULTY_SHIFT(levels=shift, moves=moves))
    plans = tuple(
        TargetPlan(
            target, Task(DIFFICULTIES.index(target.difficulty) + target.shift + shift, base_dm + target.dm)
        )
        for target in request.targets
    )
    return FirePlan(
        request=request,
        action=action,
        mode=mode,
        rule=rule,
        shift=shift,
        base_dm=base_dm,
        targets=plans,
        selector=selector,
        lock=primary,
        fixed_bullets=fixed,
        explicit=explicit,
        defer=request.allocation == "defer",
        log=tuple(log),
        split_dm_counts=request.split_dm_counts or SPLIT_DM_COUNTS,
    )

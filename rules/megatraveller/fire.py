"""A firing action from request to result (RCS: To-Hit and the five fire modes).

Three stages, each its own function: :func:`plan_fire` checks the whole request and works out every
target's task before a die is rolled; :func:`roll_pool` rolls what the mode puts downrange (bullets,
or rounds, lost rounds and clusters); :func:`resolve_fire` splits the pool and rolls each target's
volley. A request with ``"allocation": "defer"`` stops after the pool (the two-step way people play).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice import Dice, ScriptedDice
from rules.errors import RuleError
from rules.megatraveller.allocation import (
    check_bullet_split,
    check_cluster_split,
    cluster_bullets,
    default_bullet_split,
    default_cluster_split,
)
from rules.megatraveller.autofire import roll_auto_pool, rounds_roll_is_moot
from rules.megatraveller.modes import (
    BRING_TO_BEAR_DM,
    BURST_SIZES,
    FAST_DRAW_DM,
    FAST_DRAW_FROM,
    FIRE_MODES,
    MAX_TOKENS,
    MODE_SWITCH_SHIFT,
    MULTI_TARGET_DM,
    ModeRule,
    missing_capability,
)
from rules.megatraveller.readiness import BEFORE_FIRING, check_ready_to_fire, check_selector, shooter_update
from rules.megatraveller.requests import (
    FastDrawRequest,
    FireFields,
    FireMode,
    Pool,
    Readiness,
    RetargetAndFireRequest,
    Selector,
    Target,
    action_of,
)
from rules.megatraveller.results import (
    MegaTravellerResult,
    MegaTravellerTarget,
    MegaTravellerWeapon,
    StrayVolley,
)
from rules.megatraveller.tasks import (
    DIFFICULTIES,
    EXCEPTIONAL_FAILURE_MARGIN,
    Task,
    characteristic_dm,
    difficulty_name,
)
from rules.megatraveller.volley import ToHit, roll_volley

__all__ = [
    "FirePlan",
    "TargetPlan",
    "moot_rounds_skipped",
    "plan_fire",
    "resolve_fire",
    "roll_pool",
    "split_dm",
    "stray_task",
]

ACTION_NAMES = {"fire": "Fire", "fast_draw": "Fast Draw", "retarget_and_fire": "Retarget and Fire"}


@dataclass(frozen=True, slots=True)
class TargetPlan:
    """One target's task before the split: its rung and its DMs other than splitting and bullets."""

    target: Target
    task: Task


@dataclass(frozen=True, slots=True)
class FirePlan:
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
    log: tuple[str, ...]

    @property
    def clustered(self) -> bool:
        return self.rule.clustered

    @property
    def rapid_max(self) -> int:
        """The most bullets rapid fire can put out: 6 + Dex DM, never more than loaded."""
        return min(6 + characteristic_dm(self.request.attacker.dex), self.request.weapon.loaded)

    def index_of(self, token: str) -> int | None:
        for k, plan in enumerate(self.targets):
            if plan.target.id == token:
                return k
        return None


def split_dm(plan: FirePlan, split: Sequence[int]) -> int:
    """RCS: rapid and burst fire, the DM for the number of targets that actually receive bullets."""
    if not plan.rule.split_dm:
        return 0
    receiving = sum(1 for bullets in split if bullets > 0)
    return MULTI_TARGET_DM[max(receiving, 1) - 1]


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
        raise RuleError("$.targets", "fire at whom? give at least one target (targets[0] is the primary)")
    if len(targets) > MAX_TOKENS:
        raise RuleError("$.targets", f"{len(targets)} tokens in one attack; at most {MAX_TOKENS}")
    seen: set[str] = set()
    for k, target in enumerate(targets):
        if target.id in seen:
            raise RuleError(f"$.targets[{k}].id", f"{target.id} is listed twice")
        seen.add(target.id)
        if target.id in target.closer:
            raise RuleError(f"$.targets[{k}].closer", f"{target.id} cannot be in its own line of fire")
        if target.bystander and not rule.clustered:
            raise RuleError(
                f"$.targets[{k}].bystander",
                f"only automatic fire has a danger space; {mode} fire picks its targets",
            )
    if targets[0].bystander:
        raise RuleError("$.targets[0].bystander", "the primary target is the one aimed at, not a bystander")
    chosen = sum(1 for t in targets if not t.bystander)
    if rule.max_targets is not None and chosen > rule.max_targets:
        raise RuleError("$.targets", f"{mode} fire takes at most {rule.max_targets} target(s), got {chosen}")
    if rule.clustered:
        rating = request.weapon.auto_targets
        if rating < 1:
            raise RuleError(
                "$.weapon.auto_targets", "an automatic weapon needs an Auto Tgts rating of at least 1"
            )
        if chosen > rating:
            raise RuleError(
                "$.targets",
                f"{chosen} chosen targets > Auto Tgts {rating} "
                "(mark those caught in the danger space as bystanders)",
            )


def _check_ammunition(request: FireFields, mode: FireMode) -> int | None:
    weapon = request.weapon
    if weapon.capacity is not None and weapon.loaded > weapon.capacity:
        raise RuleError(
            "$.weapon.loaded", f"{weapon.loaded} rounds loaded in a {weapon.capacity}-round magazine"
        )
    if weapon.loaded < 1:
        raise RuleError("$.weapon.loaded", "the magazine is empty: Reload (reload) first")
    if mode == "single":
        return 1
    if mode == "burst":
        size = weapon.burst
        if size not in BURST_SIZES:
            raise RuleError("$.weapon.burst", f"a burst is 2, 3 or 4 bullets, not {size}")
        if weapon.loaded < size:
            raise RuleError(
                "$.mode", f"magazine has {weapon.loaded} rounds, a {size}-round burst needs {size}"
            )
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
        raise RuleError(
            "$.allocation",
            f"{len(allocation)} entries for {len(request.targets)} targets (one per target, in order)",
        )
    if rule.clustered:
        split: list[list[int]] = []
        for k, entry in enumerate(allocation):
            if not isinstance(entry, list):
                raise RuleError(
                    f"$.allocation[{k}]", "automatic fire allocates clusters: give a list of cluster indices"
                )
            for j, index in enumerate(entry):
                if index < 0:
                    raise RuleError(f"$.allocation[{k}][{j}]", f"cluster index {index} is negative")
            split.append(list(entry))
        counts = [len(entry) for entry in split]
        for k, count in enumerate(counts[1:], start=1):
            if count > counts[0]:
                raise RuleError(
                    f"$.allocation[{k}]",
                    f"{count} clusters here but only {counts[0]} at the primary target, "
                    "which must get at least as many as any other",
                )
        return split
    bullets: list[int] = []
    for k, entry in enumerate(allocation):
        if not isinstance(entry, int):
            raise RuleError(
                f"$.allocation[{k}]", "rapid, burst and single fire allocate bullets: give a count"
            )
        if entry < 0:
            raise RuleError(f"$.allocation[{k}]", f"{entry} bullets is negative")
        bullets.append(entry)
    for k, count in enumerate(bullets[1:], start=1):
        if count > bullets[0]:
            raise RuleError(
                f"$.allocation[{k}]",
                f"{count} bullets here but only {bullets[0]} at the primary target, "
                "which must get at least as many as any other",
            )
    if fixed is not None:
        check_bullet_split(bullets, fixed)
    elif sum(bullets) < 1 or sum(bullets) > min(
        6 + characteristic_dm(request.attacker.dex), request.weapon.loaded
    ):
        top = min(6 + characteristic_dm(request.attacker.dex), request.weapon.loaded)
        raise RuleError(
            "$.allocation", f"allocation fires {sum(bullets)} bullets; rapid fire gives 1 to {top}"
        )
    return bullets


def _check_pool(request: FireFields, rule: ModeRule) -> None:
    pool = request.pool
    if pool is None:
        return
    if rule.clustered:
        if pool.clusters is None:
            raise RuleError("$.pool.clusters", "automatic fire's pool is its clusters")
        for k, size in enumerate(pool.clusters):
            if not 1 <= size <= 6:
                raise RuleError(f"$.pool.clusters[{k}]", f"a cluster is 1D bullets, not {size}")
        if sum(pool.clusters) > request.weapon.loaded:
            raise RuleError(
                "$.pool.clusters", f"{sum(pool.clusters)} bullets from a magazine of {request.weapon.loaded}"
            )
    elif pool.bullets is None or pool.bullets < 1:
        raise RuleError("$.pool.bullets", "give the bullets rolled (at least 1)")


def plan_fire(request: FireFields) -> FirePlan:
    """Check a firing request against every rule that does not need dice, and set up each task."""
    attacker, weapon, mode = request.attacker, request.weapon, request.mode
    action = action_of(request)
    rule = FIRE_MODES[mode]
    log: list[str] = []
    switch = ""
    who = attacker.name or attacker.id
    check_selector(weapon, attacker.selector, "$.attacker.selector")
    if isinstance(request, FastDrawRequest):
        if attacker.readiness not in FAST_DRAW_FROM:
            raise RuleError(
                "$.attacker.readiness",
                f"Fast Draw draws a holstered small weapon; this one is {attacker.readiness}: "
                + BEFORE_FIRING[attacker.readiness],
            )
    else:
        check_ready_to_fire(attacker)
    why = missing_capability(weapon, mode)
    if why is not None:
        raise RuleError("$.mode", why)
    _check_targets(request, rule, mode)
    primary = request.targets[0].id
    fixed = _check_ammunition(request, mode)
    shift = rule.shift
    selector: Selector = attacker.selector
    if rule.selector != attacker.selector:
        if isinstance(request, FastDrawRequest):
            raise RuleError(
                "$.mode",
                f"{mode} fire needs the selector on {rule.selector}, it is on {attacker.selector}, "
                "and Fast Draw cannot change it",
            )
        shift += MODE_SWITCH_SHIFT
        selector = rule.selector
        switch = (
            f"selector flipped {attacker.selector} -> {selector} while firing: "
            f"+{MODE_SWITCH_SHIFT} difficulty level"
        )
    action_dm = 0
    if isinstance(request, FastDrawRequest):
        action_dm = FAST_DRAW_DM
        drawn = " (already in hand)" if attacker.readiness == "ready" else ""
        log.append(f"{who}: Fast Draw{drawn}, locked on {primary}, {FAST_DRAW_DM:+d} DM")
    elif isinstance(request, RetargetAndFireRequest):
        action_dm = BRING_TO_BEAR_DM[weapon.kind]
        was = f" (from {attacker.target})" if attacker.target else ""
        log.append(
            f"{who}: Retarget and Fire onto {primary}{was}, bring-to-bear {weapon.kind} {action_dm:+d} DM"
        )
    else:
        if attacker.target is not None and attacker.target != primary:
            raise RuleError(
                "$.targets[0].id",
                f"locked on {attacker.target}, not {primary}: Retarget and Fire (retarget_and_fire), "
                "or Retarget (retarget) first",
            )
        note = "" if attacker.target is not None else " (no lock recorded: taking the primary as locked)"
        log.append(f"{who}: Fire at {primary}{note}")
    if switch:
        log.append(switch)
    explicit = _check_allocation(request, rule, fixed)
    _check_pool(request, rule)
    dex_dm = characteristic_dm(attacker.dex)
    base_dm = attacker.skill + dex_dm + action_dm
    log.append(
        f"DMs: skill {attacker.skill:+d}, Dex {attacker.dex} {dex_dm:+d}, "
        f"action {action_dm:+d} = {base_dm:+d}"
    )
    if shift:
        levels = sorted({DIFFICULTIES.index(t.difficulty) + t.shift for t in request.targets})
        moves = ", ".join(f"{difficulty_name(n)} -> {difficulty_name(n + shift)}" for n in levels)
        log.append(f"difficulty +{shift} level(s): {moves}")
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
    )


@dataclass(frozen=True, slots=True)
class RolledPool:
    """The pool as rolled, with its log lines."""

    pool: Pool
    fired: int
    log: tuple[str, ...]


def roll_pool(plan: FirePlan, dice: Dice, *, skip_rounds: bool = False) -> RolledPool:
    """Roll what the mode puts downrange. Always the first dice of a firing action."""
    request = plan.request
    if plan.fixed_bullets is not None:
        return RolledPool(Pool(bullets=plan.fixed_bullets), plan.fixed_bullets, ())
    if plan.clustered:
        auto = roll_auto_pool(
            dice,
            loaded=request.weapon.loaded,
            controlled=plan.mode == "controlled",
            empty_magazine=request.empty_magazine,
            roll_rounds=not skip_rounds,
        )
        return RolledPool(
            Pool(rounds=auto.fired, lost=auto.lost, clusters=list(auto.clusters)), auto.fired, auto.log
        )
    dex_dm = characteristic_dm(request.attacker.dex)
    face = dice.d(6, f"rapid fire bullets 1D{dex_dm:+d}")
    bullets = min(max(face + dex_dm, 1), request.weapon.loaded)
    note = "" if bullets == face + dex_dm else f" (taken as {bullets})"
    return RolledPool(Pool(bullets=bullets), bullets, (f"bullets 1D{dex_dm:+d} = {face + dex_dm}{note}",))


def _check_pool_matches(plan: FirePlan, pool: Pool) -> None:
    given = plan.request.pool
    if given is None:
        return
    if plan.clustered:
        if (
            given.clusters != pool.clusters
            or (given.rounds not in (None, pool.rounds))
            or (given.lost not in (None, pool.lost))
        ):
            raise RuleError(
                "$.pool", f"the dice rolled {_describe(pool)}, not {_describe(given)}: not the same dice"
            )
    elif given.bullets != pool.bullets:
        raise RuleError(
            "$.pool", f"the dice rolled {_describe(pool)}, not {_describe(given)}: not the same dice"
        )


def _describe(pool: Pool) -> str:
    if pool.clusters is not None:
        return f"clusters {pool.clusters}"
    return f"{pool.bullets} bullets"


def split_pool(plan: FirePlan, pool: Pool) -> tuple[list[int], list[list[int]] | None]:
    """Bullets per target (and cluster indices per target in automatic fire), checked or by default."""
    targets = len(plan.targets)
    if plan.clustered:
        clusters = pool.clusters or []
        if plan.explicit is not None:
            split = [list(entry) for entry in plan.explicit if isinstance(entry, list)]
            check_cluster_split(split, clusters)
        else:
            split = default_cluster_split(clusters, [p.target.bystander for p in plan.targets])
        return cluster_bullets(clusters, split), split
    bullets = pool.bullets or 0
    if plan.explicit is not None:
        counts = [entry for entry in plan.explicit if isinstance(entry, int)]
        check_bullet_split(counts, bullets)
        return counts, None
    return default_bullet_split(bullets, targets), None


def _name(target: Target) -> str:
    return target.name or target.id


def _pending_result(plan: FirePlan, rolled: RolledPool) -> MegaTravellerResult:
    request = plan.request
    attacker, weapon = request.attacker, request.weapon
    return MegaTravellerResult(
        system=request.system,
        action=plan.action,
        shooter=attacker.id,
        mode=plan.mode,
        readiness=attacker.readiness,
        selector=attacker.selector,
        target=attacker.target,
        pending=rolled.pool,
        pool=rolled.pool,
        targets=[
            MegaTravellerTarget(id=p.target.id, name=p.target.name, hits=0, bystander=p.target.bystander)
            for p in plan.targets
        ],
        weapon=MegaTravellerWeapon(loaded=weapon.loaded, name=weapon.name, capacity=weapon.capacity),
        log=[*plan.log, *rolled.log, "pool rolled; split it and send the same request with an allocation"],
    )


def moot_rounds_skipped(plan: FirePlan, dice: Dice) -> bool:
    """Whether scripted dice leave out a rounds roll that cannot matter.

    When the magazine empties whatever 3D+20 (or 1D+4) shows, as with Honjo Boram's 20-round
    autorifle, the worked example never rolls it. Scripted dice may therefore include its faces (the
    documented order, tried first) or leave them out; whichever reading consumes the script exactly
    is used. Seeded dice always roll it, so the sequence of a seed never depends on the magazine.
    """
    request = plan.request
    if not (plan.clustered and isinstance(dice, ScriptedDice)) or not rounds_roll_is_moot(
        loaded=request.weapon.loaded,
        controlled=plan.mode == "controlled",
        empty_magazine=request.empty_magazine,
    ):
        return False
    for skip in (False, True):
        trial = ScriptedDice(dice.faces)
        try:
            _resolve(plan, trial, skip_rounds=skip)
            trial.finish()
        except RuleError:
            continue
        return skip
    return False


def resolve_fire(request: FireFields, dice: Dice) -> MegaTravellerResult:
    """Resolve a firing action: plan, roll the pool, split it, roll each volley in request order."""
    plan = plan_fire(request)
    return _resolve(plan, dice, skip_rounds=moot_rounds_skipped(plan, dice))


def _resolve(plan: FirePlan, dice: Dice, *, skip_rounds: bool) -> MegaTravellerResult:
    request = plan.request
    rolled = roll_pool(plan, dice, skip_rounds=skip_rounds)
    _check_pool_matches(plan, rolled.pool)
    if plan.defer:
        return _pending_result(plan, rolled)
    bullets, clusters_split = split_pool(plan, rolled.pool)
    log = [*plan.log, *rolled.log]
    extra_dm = split_dm(plan, bullets)
    clusters = rolled.pool.clusters or []
    if plan.rule.split_dm or len(plan.targets) > 1:
        log.append(
            "split "
            + "/".join(map(str, bullets))
            + (
                f" over {sum(1 for b in bullets if b)} target(s): {extra_dm:+d} DM"
                if plan.rule.split_dm
                else ""
            )
        )
    results: list[MegaTravellerTarget] = []
    strays: dict[str, list[StrayVolley]] = {}
    for k, (target_plan, count) in enumerate(zip(plan.targets, bullets, strict=True)):
        target = target_plan.target
        task = Task(target_plan.task.level, target_plan.task.dm + extra_dm)
        entry = MegaTravellerTarget(
            id=target.id,
            name=target.name,
            hits=0,
            bullets=count,
            clusters=[clusters[i] for i in clusters_split[k]] if clusters_split is not None else [],
            bystander=target.bystander,
            difficulty=difficulty_name(task.level),
            needed=task.needed,
            dm=task.dm,
        )
        results.append(entry)
        if count == 0:
            log.append(f"{_name(target)}: no bullets")
            continue
        outcome = roll_volley(dice, count, task, f"to-hit {target.id}")
        entry.hits = outcome.hits
        entry.to_hit = list(outcome.rolls)
        log.extend(_volley_lines(_name(target), count, task, outcome.rolls))
        if plan.rule.exceptional:
            last = outcome.rolls[-1]
            entry.exceptional = last.hit and last.total - last.needed >= request.exceptional_margin
            entry.exceptional_failure = not last.hit and (
                last.natural_two or last.needed - last.total >= EXCEPTIONAL_FAILURE_MARGIN
            )
            if entry.exceptional:
                log.append(
                    f"{_name(target)}: exceptional success "
                    f"(beat {last.needed}+ by {last.total - last.needed})"
                )
            if entry.exceptional_failure:
                log.append(f"{_name(target)}: exceptional failure")
        if outcome.wild and plan.rule.strays and target.closer:
            token = target.closer[0]
            stray = stray_task(plan, k, token)
            entry.wild, entry.wild_to = outcome.wild, token
            shot = roll_volley(dice, outcome.wild, stray, f"to-hit {token} (stray from {target.id})")
            strays.setdefault(token, []).append(
                StrayVolley(
                    source=target.id,
                    bullets=outcome.wild,
                    hits=shot.hits,
                    needed=stray.needed,
                    to_hit=list(shot.rolls),
                )
            )
            log.append(
                f"natural 2: {outcome.wild} bullet(s) fly on at {token}, the nearest in the line of fire"
            )
            log.extend(_volley_lines(token, outcome.wild, stray, shot.rolls))
        elif outcome.wild:
            entry.wild = outcome.wild
            log.append(
                f"natural 2: the other {outcome.wild - 1} bullet(s) of the volley miss {_name(target)}"
            )
    known = {entry.id: entry for entry in results}
    for token, volleys in strays.items():
        struck = known.get(token)
        if struck is None:
            struck = MegaTravellerTarget(id=token, hits=0)
            known[token] = struck
            results.append(struck)
        struck.strays.extend(volleys)
        struck.hits += sum(v.hits for v in volleys)
    weapon = request.weapon
    loaded = weapon.loaded - rolled.fired
    log.append(
        f"{rolled.fired} round(s) fired, {loaded} left; "
        + ", ".join(f"{r.id} {r.hits} hit(s)" for r in results)
    )
    readiness: Readiness = "ready"
    return MegaTravellerResult(
        system=request.system,
        action=plan.action,
        shooter=request.attacker.id,
        mode=plan.mode,
        readiness=readiness,
        selector=plan.selector,
        target=plan.lock,
        pool=rolled.pool,
        allocation=list(clusters_split) if clusters_split is not None else list(bullets),
        targets=results,
        weapon=MegaTravellerWeapon(
            loaded=loaded, name=weapon.name, fired=rolled.fired, capacity=weapon.capacity
        ),
        updates=[
            shooter_update(
                request.attacker.id,
                readiness=readiness,
                selector=plan.selector,
                target=plan.lock,
                loaded=loaded,
            )
        ],
        log=log,
    )


def _volley_lines(name: str, bullets: int, task: Task, rolls: Sequence[ToHit]) -> list[str]:
    lines = []
    for n, r in enumerate(rolls, start=1):
        verdict = "hit" if r.hit else ("natural 2, miss" if r.natural_two else "miss")
        lines.append(
            f"{name} bullet {n}/{bullets}: to-hit 2D = {r.roll} {r.dm:+d} (bullet DM {r.bullet_dm:+d}) "
            f"= {r.total} vs {task.needed}+: {verdict}"
        )
    return lines

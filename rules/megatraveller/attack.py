"""A firing action from request to result (RCS: To-Hit and the five fire modes).

After :func:`~rules.megatraveller.plan.plan_fire` has checked the request, :func:`roll_pool` rolls
what the mode puts downrange (bullets, or rounds, lost rounds and clusters), :func:`split_pool`
splits it between targets (the request's split, checked, or the default), and each target's volley
is rolled in request order. A request with ``"allocation": "defer"`` stops after the pool (the
two-step way people play).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from rules.dice import Dice, ScriptedDice
from rules.errors import RuleError
from rules.megatraveller import messages as msg
from rules.megatraveller.allocation import (
    check_bullet_split,
    check_cluster_split,
    cluster_bullets,
    default_bullet_split,
    default_cluster_split,
)
from rules.megatraveller.autofire import roll_auto_pool, rounds_roll_is_moot
from rules.megatraveller.plan import FirePlan, plan_fire, split_dm, split_targets, stray_task
from rules.megatraveller.readiness import shooter_update
from rules.megatraveller.requests import FireFields, Pool, Readiness, Target
from rules.megatraveller.results import (
    MegaTravellerResult,
    MegaTravellerTarget,
    MegaTravellerWeapon,
    StrayVolley,
)
from rules.megatraveller.tasks import EXCEPTIONAL_FAILURE_MARGIN, Task, characteristic_dm, difficulty_name
from rules.megatraveller.to_hit import ToHit, roll_volley
from rules.results import Message

__all__ = ["RolledPool", "moot_rounds_skipped", "resolve_fire", "roll_pool", "split_pool"]


class RolledPool(msgspec.Struct, frozen=True):
    """The pool as rolled, with its log lines."""

    pool: Pool
    fired: int
    log: tuple[Message, ...]


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
    face = dice.d(6, msg.ROLL_RAPID_BULLETS(dex_dm=dex_dm))
    bullets = min(max(face + dex_dm, 1), request.weapon.loaded)
    line = msg.POOL_BULLETS(
        dex_dm=dex_dm, rolled=face + dex_dm, bullets=bullets, capped=bullets != face + dex_dm
    )
    return RolledPool(Pool(bullets=bullets), bullets, (line,))


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
                "$.pool", msg.ERR_NOT_THE_SAME_DICE(rolled=_describe(pool), given=_describe(given))
            )
    elif given.bullets != pool.bullets:
        raise RuleError("$.pool", msg.ERR_NOT_THE_SAME_DICE(rolled=_describe(pool), given=_describe(given)))


def _describe(pool: Pool) -> Message:
    """What a pool holds, as a refusal names it: "clusters [3, 5]" or "7 bullets"."""
    clusters = "" if pool.clusters is None else str(pool.clusters)
    return msg.POOL_WORDS(clusters=clusters, bullets=pool.bullets)


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
        log=[*plan.log, *rolled.log, msg.POOL_WAITING()],
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
            msg.SPLIT(
                split=list(bullets),
                splitting=plan.rule.split_dm,
                targets=split_targets(plan, bullets),
                designated=plan.split_dm_counts == "designated",
                dm=extra_dm,
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
            log.append(msg.NO_BULLETS(target=_name(target)))
            continue
        outcome = roll_volley(dice, count, task, msg.ROLL_TO_HIT(target=_name(target)))
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
                    msg.EXCEPTIONAL_SUCCESS(
                        target=_name(target), need=last.needed, by=last.total - last.needed
                    )
                )
            if entry.exceptional_failure:
                log.append(msg.EXCEPTIONAL_FAILURE(target=_name(target)))
        if outcome.wild and plan.rule.strays and target.closer:
            token = target.closer[0]
            stray = stray_task(plan, k, token)
            entry.wild, entry.wild_to = outcome.wild, token
            into = _token_name(plan, token)
            shot = roll_volley(dice, outcome.wild, stray, msg.ROLL_STRAY(target=into, source=_name(target)))
            strays.setdefault(token, []).append(
                StrayVolley(
                    source=target.id,
                    bullets=outcome.wild,
                    hits=shot.hits,
                    needed=stray.needed,
                    to_hit=list(shot.rolls),
                )
            )
            log.append(msg.STRAY(bullets=outcome.wild, into=into, source=_name(target)))
            log.extend(_volley_lines(into, outcome.wild, stray, shot.rolls))
        elif outcome.wild:
            entry.wild = outcome.wild
            if outcome.wild > 1:
                log.append(msg.REST_MISSES(target=_name(target), rest=outcome.wild - 1))
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
        msg.SUMMARY(
            fired=rolled.fired,
            loaded=loaded,
            hits=[msg.TARGET_HITS(target=r.name or r.id, hits=r.hits) for r in results],
        )
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


def _token_name(plan: FirePlan, token: str) -> str:
    """A token's name when it is one of the targets, else its id (a stray may hit anyone in the line)."""
    k = plan.index_of(token)
    return token if k is None else _name(plan.targets[k].target)


def _volley_lines(name: str, bullets: int, task: Task, rolls: Sequence[ToHit]) -> list[Message]:
    return [
        msg.VOLLEY_ROLL(
            target=name,
            bullet=n,
            bullets=bullets,
            roll=r.roll,
            dm=r.dm,
            bullet_dm=r.bullet_dm,
            total=r.total,
            need=task.needed,
            hit=r.hit,
            natural_two=r.natural_two,
        )
        for n, r in enumerate(rolls, start=1)
    ]

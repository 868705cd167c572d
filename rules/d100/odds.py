"""Exact odds for every d100 action: enumerate the d100's hundred faces, never sample.

For an attack: each attack face gives a test, a jam or not, and a number of hits; the allocation rule
(``allocation.allocate``, or a uniform pick per hit for suppressing fire: a binomial mixture) turns that
into each target's count, and each target's dodge (its own hundred faces) takes hits away. Suppression
tests are independent of the attack, so each target's chance to end suppressed is a product.
"""

from __future__ import annotations

from math import comb

from rules.d100.actions import resolve
from rules.d100.allocation import allocate
from rules.d100.attack import plan_attack
from rules.d100.checks import judge
from rules.d100.morale import checked_targets, recovery_target, suppression_tests
from rules.d100.overwatch import plan_overwatch
from rules.d100.plan import FirePlan, check_modifier
from rules.d100.requests import (
    Attack,
    D100Request,
    EnterMelee,
    OverwatchFire,
    Recover,
    RecoverAmmo,
    SuppressionTestRequest,
    Target,
    Unjam,
)
from rules.d100.results import D100Odds, D100TargetOdds
from rules.d100.salvo import attack_outcome
from rules.d100.suppression import SuppressionTest, fail_chance, pass_chance
from rules.d100.upkeep import ammo_recovery_target, unjam_target
from rules.dice import ScriptedDice
from rules.odds import Dist, hits_list, mixture

__all__ = ["d100_odds", "d100_odds_cost", "salvo_odds"]

_FACE = 1.0 / 100


def _binomial(n: int, p: float) -> Dist:
    return {k: comb(n, k) * p**k * (1.0 - p) ** (n - k) for k in range(n + 1)}


def _after_dodge(before: Dist, dodge_target: int) -> Dist:
    """A dodge that passes negates one hit per degree of success."""
    faces: dict[int, int] = {}
    for face in range(1, 101):
        record = judge(face, dodge_target)
        gone = record.degrees if record.success else 0
        faces[gone] = faces.get(gone, 0) + 1
    negates = {gone: count * _FACE for gone, count in faces.items()}
    out: Dist = {}
    for count, p in before.items():
        if count == 0:
            out[0] = out.get(0, 0.0) + p
            continue
        for gone, q in negates.items():
            left = count - min(count, gone)
            out[left] = out.get(left, 0.0) + p * q
    return out


def salvo_odds(plan: FirePlan) -> tuple[list[Dist], float, float]:
    """(each target's hits distribution, chance of a jam, chance the attack succeeds).

    Faces are counted as whole numbers and divided once, so a certainty is exactly 1.0 (a hundred
    additions of 0.01 would make it 1.0000000000000007).
    """
    faces: dict[int, int] = {}
    jamming = 0
    succeeding = 0
    for face in range(1, 101):
        check, jams, count = attack_outcome(plan, face)
        faces[count] = faces.get(count, 0) + 1
        jamming += jams
        succeeding += check.success
    hits: Dist = {count: ways * _FACE for count, ways in faces.items()}
    jam = jamming * _FACE
    success = succeeding * _FACE
    size = len(plan.targets)
    per_target: list[Dist]
    if plan.random_targets:
        share = mixture((p, _binomial(h, 1.0 / size)) for h, p in hits.items())
        per_target = [dict(share) for _ in range(size)]
    else:
        per_target = [{} for _ in range(size)]
        for h, p in hits.items():
            for index, count in enumerate(allocate(h, plan.shares)):
                per_target[index][count] = per_target[index].get(count, 0.0) + p
    for index, target in enumerate(plan.targets):
        if target.dodge is not None:
            per_target[index] = _after_dodge(per_target[index], target.dodge + plan.dodge_modifier)
    return per_target, jam, success


def _target_odds(
    target: Target, hits: Dist, test: SuppressionTest | None, fired: float = 1.0
) -> D100TargetOdds:
    fail = fired * fail_chance(test) if test is not None else 0.0
    stranded = not target.in_cover and not target.can_reach_cover
    suppressed = 1.0 if target.suppressed else fail
    prone = 1.0 if target.prone else (fail if stranded else 0.0)
    return D100TargetOdds(id=target.id, hits=hits_list(hits), suppressed=suppressed, prone=prone)


def _fire_odds(plans: list[FirePlan]) -> D100Odds:
    """Odds of consecutive attack rolls; a jam stops the ones after it."""
    out: list[D100TargetOdds] = []
    unjammed = 1.0
    success = 0.0
    for plan in plans:
        per_target, jam, hit = salvo_odds(plan)
        for target, dist, test in zip(plan.targets, per_target, plan.suppression, strict=True):
            fired = mixture([(unjammed, dist), (1.0 - unjammed, {0: 1.0})])
            out.append(_target_odds(target, fired, test, unjammed))
        success += unjammed * hit / len(plans)
        unjammed *= 1.0 - jam
    return D100Odds(targets=out, jam=1.0 - unjammed, success=success)


def _suppression_odds(request: SuppressionTestRequest) -> D100Odds:
    tests = suppression_tests(request)
    return D100Odds(targets=[_target_odds(t.target, {0: 1.0}, t) for t in tests])


def _recover_odds(request: Recover) -> D100Odds:
    checked_targets(request.targets)
    check_modifier(request.modifier)
    out = []
    for index, target in enumerate(request.targets):
        number = recovery_target(request, index)
        stays = 0.0 if number is None else 1.0 - pass_chance(number)
        if not target.suppressed:
            stays = 0.0
        out.append(D100TargetOdds(id=target.id, hits=[1.0], suppressed=stays, prone=float(target.prone)))
    return D100Odds(targets=out)


def d100_odds(request: D100Request) -> D100Odds:
    match request:
        case Attack(mode="overwatch"):
            pass
        case Attack():
            return _fire_odds([plan_attack(request)])
        case OverwatchFire():
            return _fire_odds(plan_overwatch(request))
        case SuppressionTestRequest():
            return _suppression_odds(request)
        case Recover():
            return _recover_odds(request)
        case EnterMelee():
            checked_targets(request.targets)
            targets = [D100TargetOdds(id=t.id, hits=[1.0], prone=float(t.prone)) for t in request.targets]
            return D100Odds(targets=targets)
        case Unjam():
            stays = 1.0 - pass_chance(unjam_target(request))
            return D100Odds(targets=[], jam=stays, success=1.0 - stays)
        case RecoverAmmo():
            passed = pass_chance(ammo_recovery_target(request))
            return D100Odds(targets=[], jam=float(request.weapon.jammed), success=passed)
    # The rest roll no dice: resolving them is exact, and checks them exactly as a roll would.
    result = resolve(request, ScriptedDice([]))
    weapon = result.weapon if result.weapon is not None else getattr(request, "weapon", None)
    return D100Odds(targets=[], jam=float(weapon.jammed) if weapon is not None else 0.0)


def d100_odds_cost(request: D100Request) -> float:
    """About how many milliseconds :func:`d100_odds` takes (``RuleSystem.odds_cost``), read off the
    request without planning it (the estimate runs on the bridge's event loop).

    Measured on a busy two-core machine: an attack costs about 0.15 ms, each target 0.01 ms more and
    each dodging one 0.06 ms (its dodge is mixed into every count of hits); an overwatch trigger fires
    up to a few shots, each an attack of its own. Nothing else here is longer than a table look-up.
    The figures err high: too high only sends a preview to a worker.
    """
    if not isinstance(request, (Attack, OverwatchFire)):
        return 0.05
    targets = request.targets
    dodging = sum(1 for target in targets if target.dodge is not None)
    one = 0.15 + 0.01 * len(targets) + 0.06 * dodging
    return one * 3 if isinstance(request, OverwatchFire) else one

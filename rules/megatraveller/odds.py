"""Exact odds of a firing action, for the attack dialog's live preview (no dice are rolled).

Per target, the probability of each number of hits over everything random: the rapid-fire bullet
roll, or the automatic pool (rounds, lost rounds, clusters), and every volley's chain of to-hit rolls,
including bullets a natural 2 sends on down the line of fire. The split is the request's when it
gives one (an explicit split means its pool was already rolled, so the odds are for that pool), the
default policy's otherwise.

Automatic fire is exact without walking every cluster sequence: the default split depends only on
which cluster sizes came up, so each target's share of bullets comes from the order statistics of the
sorted sizes (:mod:`rules.megatraveller.splits`), cached per (bullets left, chosen targets,
bystanders).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rules.dice import ScriptedDice
from rules.errors import RuleError
from rules.megatraveller import messages as msg
from rules.megatraveller.allocation import (
    check_bullet_split,
    check_cluster_split,
    cluster_bullets,
    default_bullet_split,
    default_cluster_split,
)
from rules.megatraveller.attack import moot_rounds_skipped, roll_pool
from rules.megatraveller.autofire import AUTO_ROUNDS, EMPTY_WITHIN, remaining_dist
from rules.megatraveller.modes import FIRE_MODES
from rules.megatraveller.plan import FirePlan, plan_fire, split_dm, stray_task
from rules.megatraveller.requests import FireFields
from rules.megatraveller.splits import mixed_shares, ranks, share_of_bullets, split_cost
from rules.megatraveller.tasks import characteristic_dm
from rules.megatraveller.to_hit import hits_only, volley_dist
from rules.odds import Dist, convolve, hits_list, mixture
from rules.results import Odds, TargetOdds

__all__ = ["fire_odds", "odds_cost", "share_of_bullets", "warm_up"]


def fire_odds(request: FireFields) -> Odds:
    """Exact hit distributions for every token the attack can reach; RCS weapons never jam."""
    plan = plan_fire(request)
    dists = _clustered(plan) if plan.clustered else _volleys(plan)
    return Odds(
        targets=[TargetOdds(id=token, hits=hits_list(dist)) for token, dist in dists.items()], jam=0.0
    )


def _bullet_pool(plan: FirePlan) -> Dist:
    request = plan.request
    if plan.fixed_bullets is not None:
        return {plan.fixed_bullets: 1.0}
    given = request.pool.bullets if request.pool is not None else None
    if given is not None:  # plan_fire checked that rapid fire can roll it
        return {given: 1.0}
    if isinstance(plan.explicit, list) and plan.explicit:
        return {sum(int(x) for x in plan.explicit if isinstance(x, int)): 1.0}
    dex_dm = characteristic_dm(request.attacker.dex)
    out: Dist = {}
    for face in range(1, 7):
        bullets = min(max(face + dex_dm, 1), request.weapon.loaded)
        out[bullets] = out.get(bullets, 0.0) + 1.0 / 6.0
    return out


def _volleys(plan: FirePlan) -> dict[str, Dist]:
    """Single, rapid and burst fire: mix over the bullet roll; per bullet count, every volley and stray."""
    ids = [p.target.id for p in plan.targets]
    tokens = list(ids)
    if plan.rule.strays:
        for p in plan.targets:
            if p.target.closer and p.target.closer[0] not in tokens:
                tokens.append(p.target.closer[0])
    totals: dict[str, Dist] = {token: {} for token in tokens}
    explicit = [x for x in plan.explicit if isinstance(x, int)] if plan.explicit is not None else None
    for bullets, weight in _bullet_pool(plan).items():
        if explicit is not None:
            check_bullet_split(explicit, bullets)
        split = explicit if explicit is not None else default_bullet_split(bullets, len(ids))
        extra = split_dm(plan, split)
        per: dict[str, Dist] = {token: {0: 1.0} for token in tokens}
        for k, (target_plan, count) in enumerate(zip(plan.targets, split, strict=True)):
            if count == 0:
                continue
            own: Dist = {}
            wild: Dist = {}
            for (hits, left), q in volley_dist(count, target_plan.task.needed, target_plan.task.dm + extra):
                own[hits] = own.get(hits, 0.0) + q
                wild[left] = wild.get(left, 0.0) + q
            token = target_plan.target.id
            per[token] = convolve(per[token], own)
            if plan.rule.strays and target_plan.target.closer:
                into = target_plan.target.closer[0]
                task = stray_task(plan, k, into)
                stray = mixture((q, hits_only(left, task.needed, task.dm)) for left, q in wild.items())
                per[into] = convolve(per[into], stray)
        for token in tokens:
            totals[token] = mixture([(1.0, totals[token]), (weight, per[token])])
    return totals


def _clusters_given(plan: FirePlan) -> list[int] | None:
    """Clusters already rolled: from ``pool``, or replayed from the request's scripted dice."""
    request = plan.request
    if request.pool is not None and request.pool.clusters is not None:
        return list(request.pool.clusters)
    if plan.explicit is None:
        return None
    if request.dice is None:
        raise RuleError("$.allocation", msg.ERR_POOL_NEEDED())
    skip = moot_rounds_skipped(plan, ScriptedDice(request.dice))
    rolled = roll_pool(plan, ScriptedDice(request.dice), skip_rounds=skip)
    return list(rolled.pool.clusters or [])


#: The most bullets an automatic burst can leave for its clusters: 3D+20 rounds fired (38 at most), or a
#: whole magazine of up to 10 more when the shooter empties it.
MOST_BULLETS = 3 * 6 + AUTO_ROUNDS[1] + EMPTY_WITHIN
#: What ``warm_up`` prepares besides every bullet count's order statistics: the split of up to this
#: many chosen targets and one bystander, the usual automatic-fire table...
WARM_TARGETS = 3
#: ... and one crowded table, (chosen, bystanders), a whole magazine emptied into it.
WARM_CROWD = (4, 12)


def warm_up() -> None:
    """Tabulate everything a cold automatic-fire preview would otherwise compute first.

    Every bullet count's cluster multisets and their order statistics (``splits.ranks``), which make
    any split a matter of lookups, and the splits of the usual table: up to three chosen targets and
    a bystander. Then one crowded split (``WARM_CROWD``), so that the first big preview does not also
    pay for the first run of that code (about a millisecond on this machine). The bridge runs this in
    each rules worker as it starts.
    """
    for remaining in range(MOST_BULLETS + 1):
        ranks(remaining)
        for chosen in range(1, WARM_TARGETS + 1):
            for caught in (0, 1):
                share_of_bullets(remaining, chosen, caught)
    chosen, caught = WARM_CROWD
    mixed_shares(
        remaining_dist(loaded=MOST_BULLETS, controlled=False, empty_magazine=True),
        (False,) * chosen + (True,) * caught,
    )


def odds_cost(request: FireFields) -> float:
    """About how many milliseconds :func:`fire_odds` would take now (see ``RuleSystem.odds_cost``).

    Only automatic and controlled fire's split of a random pool is expensive, and only the first time
    a (bullets, chosen targets, bystanders) shape is seen; see :func:`~rules.megatraveller.splits.
    split_cost` (measured on this machine: about 5 ms for 24 tokens of a 48-round burst after
    ``warm_up``, 20-40 ms for some mid-sized splits, under 1 ms once cached). Read off the request
    without planning the attack, since the estimate runs on the bridge's event loop: a request the
    rules would refuse is estimated like any other, and refused wherever it is computed.
    """
    rule = FIRE_MODES.get(request.mode)
    rolled = request.pool is not None and request.pool.clusters is not None
    if rule is None or not rule.clustered or rolled or isinstance(request.allocation, list):
        return 0.1
    chosen = sum(1 for target in request.targets if not target.bystander)
    caught = len(request.targets) - chosen
    left = _bullets_left(request.weapon.loaded, request.mode == "controlled", request.empty_magazine)
    return 0.1 + sum(split_cost(remaining, chosen, caught) for remaining in left)


@lru_cache(maxsize=256)
def _bullets_left(loaded: int, controlled: bool, empty_magazine: bool) -> tuple[int, ...]:
    return tuple(remaining_dist(loaded=loaded, controlled=controlled, empty_magazine=empty_magazine))


def _clustered(plan: FirePlan) -> dict[str, Dist]:
    """Automatic and controlled fire: each target's bullets, then its volley."""
    request = plan.request
    bystanders = tuple(p.target.bystander for p in plan.targets)
    clusters = _clusters_given(plan)
    shares: Sequence[Dist]
    if clusters is not None:
        if plan.explicit is not None:
            split = [list(x) for x in plan.explicit if isinstance(x, list)]
            check_cluster_split(split, clusters)
        else:
            split = default_cluster_split(clusters, bystanders)
        shares = [{bullets: 1.0} for bullets in cluster_bullets(clusters, split)]
    else:
        left = remaining_dist(
            loaded=request.weapon.loaded,
            controlled=plan.mode == "controlled",
            empty_magazine=request.empty_magazine,
        )
        shares = mixed_shares(left, bystanders)
    out: dict[str, Dist] = {}
    for target_plan, share in zip(plan.targets, shares, strict=True):
        task = target_plan.task
        out[target_plan.target.id] = mixture(
            (p, hits_only(bullets, task.needed, task.dm)) for bullets, p in share.items()
        )
    return out

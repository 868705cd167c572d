"""A tiny made-up rule system registered only inside the bridge tests ("skirmish").

It exists so the bridge's two-step mechanism (``pending`` then ``allocate``) can be tested with dice
chosen by the test, without depending on any real system's numbers. Rules, such as they are:

* ``fire``: roll one d6 per shot into a pool; every 4+ is a bullet on its way. With
  ``"allocation": "defer"`` stop there and return the pool as ``pending``. Otherwise
  ``allocation[k]`` bullets go to target k, and each target rolls one d6: on 3+ every bullet
  allocated to it hits. Spends the shots from ``loaded``.
* ``reload``: ``loaded`` becomes ``capacity``; no dice.
* ``misfire``: a bug on purpose (raises ``ZeroDivisionError``), to test how the bridge contains one.

Like every system it speaks in messages (keys ``skirmish.*``); having no catalogue texts, they show as
their keys and values, which is what the tests compare.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from rules.dice import Dice
from rules.errors import RuleError
from rules.messages import Vocabulary
from rules.request import RequestBase
from rules.results import Odds, Result, TargetOdds, TargetResult, TokenUpdate, WeaponState
from rules.system import RuleSystem

NAME = "skirmish"
MESSAGES = Vocabulary(NAME)
ROLL_POOL = MESSAGES.message("roll.pool")
ROLL_TO_HIT = MESSAGES.message("roll.to_hit", "target")
POOL = MESSAGES.message("pool", "shots", "bullets")
TO_HIT = MESSAGES.message("to_hit", "target", "roll", "hits")
RELOADED = MESSAGES.message("reloaded", "loaded")
ACTION = MESSAGES.family("action", ("reload", "misfire"))


class Who(msgspec.Struct, frozen=True):
    id: str
    name: str | None = None


class Fire(RequestBase, frozen=True, tag="fire"):
    system: Literal["skirmish"]
    attacker: Who
    weapon: Who
    shots: int
    loaded: int
    targets: list[Who]
    allocation: Any = None


class Reload(RequestBase, frozen=True, tag="reload"):
    system: Literal["skirmish"]
    attacker: Who
    weapon: Who
    capacity: int


class Misfire(RequestBase, frozen=True, tag="misfire"):
    """A deliberately buggy action: resolving it raises, as a broken rules system might."""

    system: Literal["skirmish"]


class SkirmishResult(Result, kw_only=True):
    pending: dict[str, int] | None = None


def _fire(request: Fire, dice: Dice) -> SkirmishResult:
    if request.shots > request.loaded:
        raise RuleError("$.shots", f"shots {request.shots} > {request.loaded} loaded")
    explicit = request.allocation is not None and request.allocation != "defer"
    if explicit and (
        not isinstance(request.allocation, list) or len(request.allocation) != len(request.targets)
    ):
        raise RuleError("$.allocation", "one bullet count per target")
    pool = sum(1 for face in dice.roll(request.shots, 6, ROLL_POOL()) if face >= 4)
    log = [POOL(shots=request.shots, bullets=pool)]
    if request.allocation == "defer":
        return SkirmishResult(system=NAME, action="fire", pending={"bullets": pool}, log=log)
    allocation = request.allocation or [pool] + [0] * (len(request.targets) - 1)
    if sum(allocation) != pool:
        raise RuleError("$.allocation", f"allocation gives {sum(allocation)} bullets, the pool is {pool}")
    targets = []
    updates = []
    for target, bullets in zip(request.targets, allocation, strict=True):
        face = dice.d(6, ROLL_TO_HIT(target=target.id))
        hits = bullets if face >= 3 else 0
        log.append(TO_HIT(target=target.id, roll=face, hits=hits))
        targets.append(TargetResult(id=target.id, name=target.name, hits=hits))
        if hits:
            updates.append(TokenUpdate(token=target.id, statuses_add=["wounded"]))
    loaded = request.loaded - request.shots
    updates.insert(0, TokenUpdate(token=request.attacker.id, state={"weapon.loaded": loaded}))
    return SkirmishResult(
        system=NAME,
        action="fire",
        targets=targets,
        weapon=WeaponState(loaded=loaded),
        updates=updates,
        log=log,
    )


def resolve(request: Any, dice: Dice) -> Result:
    if isinstance(request, Misfire):
        raise ZeroDivisionError("a bug in the rules")
    if isinstance(request, Reload):
        return SkirmishResult(
            system=NAME,
            action="reload",
            weapon=WeaponState(loaded=request.capacity),
            updates=[TokenUpdate(token=request.attacker.id, state={"weapon.loaded": request.capacity})],
            log=[RELOADED(loaded=request.capacity)],
        )
    return _fire(request, dice)


def odds(request: Any) -> Odds:
    return Odds(targets=[TargetOdds(id=t.id, hits=[0.5, 0.5]) for t in request.targets])


SYSTEM = RuleSystem(
    name=NAME,
    title="Skirmish (test-only)",
    request_type=Fire | Reload | Misfire,
    result_types=(SkirmishResult,),
    default_action="fire",
    resolve=resolve,
    odds=odds,
    messages=MESSAGES,
)


def fire(**changes: Any) -> dict[str, Any]:
    """A skirmish fire request as the VTT would send it."""
    request: dict[str, Any] = {
        "system": NAME,
        "attacker": {"id": "a1", "name": "Vasquez"},
        "weapon": {"id": "w1", "name": "Smartgun"},
        "shots": 4,
        "loaded": 10,
        "targets": [{"id": "t1", "name": "Drone"}, {"id": "t2", "name": "Walker"}],
    }
    request.update(changes)
    return request

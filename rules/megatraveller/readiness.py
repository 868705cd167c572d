"""Getting a weapon into action and keeping it pointed (RCS: Entering Combat, Readying a Weapon,
Mode Selection, Targetting and Firing).

A weapon is holstered, slung, carried with the safety on, or ready. Only a ready weapon fires (Fast
Draw aside, which draws as it fires). The selector and the target lock ride along with the readiness;
every action here returns all of them, plus the rounds loaded, as one absolute token update.
"""

from __future__ import annotations

from rules.errors import RuleError
from rules.megatraveller import messages as msg
from rules.megatraveller.modes import BURST_SIZES, selector_available
from rules.megatraveller.requests import (
    Attacker,
    DrawRequest,
    HandlingFields,
    Readiness,
    ReadyRequest,
    ReloadRequest,
    RetargetRequest,
    SelectModeRequest,
    Selector,
    UnslingRequest,
    Weapon,
)
from rules.megatraveller.results import MegaTravellerResult, MegaTravellerWeapon
from rules.results import Message, TokenUpdate

__all__ = [
    "BEFORE_FIRING",
    "check_ready_to_fire",
    "check_selector",
    "check_weapon",
    "handle",
    "shooter_update",
]

#: What has to happen first, for each state a weapon cannot fire from.
BEFORE_FIRING: dict[Readiness, str] = {
    "holstered": (
        "the weapon is holstered: Draw a Small Weapon (draw) first, or Fast Draw (fast_draw) to fire now"
    ),
    "slung": "the weapon is slung: Unsling Rifle (unsling) first, then Ready Rifle (ready)",
    "carried": "the weapon is carried with its safety on: Ready Rifle (ready) first",
}


def check_ready_to_fire(attacker: Attacker) -> None:
    if attacker.readiness != "ready":
        raise RuleError("$.attacker.readiness", BEFORE_FIRING[attacker.readiness])


def check_selector(weapon: Weapon, selector: Selector, path: str) -> None:
    """A selector setting the weapon does not have is an error, wherever it comes from."""
    if not selector_available(weapon, selector):
        raise RuleError(path, f"{weapon.name or 'the weapon'} has no {selector} setting")


def check_weapon(weapon: Weapon) -> None:
    """The weapon's own statistics must make sense, whatever the action (RCS: Burst fire sizes)."""
    if weapon.burst is not None and weapon.burst not in BURST_SIZES:
        sizes = ", ".join(map(str, BURST_SIZES[:-1])) + f" or {BURST_SIZES[-1]}"
        raise RuleError(
            "$.weapon.burst",
            f"a burst is always {sizes} bullets, not {weapon.burst} (null for a weapon without burst fire)",
        )
    if weapon.capacity is not None and weapon.loaded > weapon.capacity:
        raise RuleError(
            "$.weapon.loaded", f"{weapon.loaded} rounds loaded in a {weapon.capacity}-round magazine"
        )


def shooter_update(
    token: str, *, readiness: Readiness, selector: Selector, target: str | None, loaded: int
) -> TokenUpdate:
    """The shooter's new absolute state, as the VTT stores it."""
    return TokenUpdate(
        token=token,
        state={"readiness": readiness, "selector": selector, "target": target, "weapon.loaded": loaded},
    )


def _result(
    request: HandlingFields,
    action: str,
    *,
    readiness: Readiness,
    selector: Selector,
    target: str | None,
    loaded: int,
    log: list[Message],
) -> MegaTravellerResult:
    attacker, weapon = request.attacker, request.weapon
    return MegaTravellerResult(
        system=request.system,
        action=action,
        shooter=attacker.id,
        readiness=readiness,
        selector=selector,
        target=target,
        weapon=MegaTravellerWeapon(loaded=loaded, name=weapon.name, capacity=weapon.capacity),
        updates=[
            shooter_update(attacker.id, readiness=readiness, selector=selector, target=target, loaded=loaded)
        ],
        log=log,
    )


def _require(attacker: Attacker, state: Readiness, action: str) -> None:
    if attacker.readiness != state:
        raise RuleError(
            "$.attacker.readiness", f"{action} needs the weapon {state}, but it is {attacker.readiness}"
        )


def handle(request: HandlingFields) -> MegaTravellerResult:
    """Resolve one weapon-handling action. No dice; nothing changes but the shooter's state."""
    attacker, weapon = request.attacker, request.weapon
    check_weapon(weapon)
    check_selector(weapon, attacker.selector, "$.attacker.selector")
    who = attacker.name or attacker.id
    readiness, selector, target, loaded = (
        attacker.readiness,
        attacker.selector,
        attacker.target,
        weapon.loaded,
    )
    match request:
        case DrawRequest() | ReadyRequest():
            action = "draw" if isinstance(request, DrawRequest) else "ready"
            _require(attacker, "holstered" if action == "draw" else "carried", _TITLES[action])
            if request.selector is not None:
                check_selector(weapon, request.selector, "$.selector")
                selector = request.selector
            readiness = "ready"
            target = request.target if request.target is not None else target
            done = msg.DRAWN if action == "draw" else msg.READIED
            log = [done(shooter=who, selector=msg.SELECTOR[selector](), target=target)]
        case UnslingRequest():
            action = "unsling"
            _require(attacker, "slung", _TITLES[action])
            readiness = "carried"
            log = [msg.UNSLUNG(shooter=who)]
        case SelectModeRequest():
            action = "select_mode"
            if attacker.readiness not in ("carried", "ready"):
                raise RuleError(
                    "$.attacker.readiness",
                    f"the selector is out of reach: {BEFORE_FIRING[attacker.readiness]}",
                )
            check_selector(weapon, request.selector, "$.selector")
            selector = request.selector
            log = [
                msg.MODE_SELECTED(
                    shooter=who, before=msg.SELECTOR[attacker.selector](), after=msg.SELECTOR[selector]()
                )
            ]
        case RetargetRequest():
            action = "retarget"
            check_ready_to_fire(attacker)
            target = request.target
            log = [msg.RETARGETED(shooter=who, target=target)]
        case ReloadRequest():
            action = "reload"
            size = request.rounds if request.rounds is not None else weapon.capacity
            if size is None:
                raise RuleError("$.weapon.capacity", "reload needs the magazine's capacity (or rounds)")
            if weapon.capacity is not None and size > weapon.capacity:
                raise RuleError("$.rounds", f"{size} rounds do not fit a {weapon.capacity}-round magazine")
            loaded = size
            log = [msg.RELOADED(shooter=who, before=weapon.loaded, loaded=loaded)]
        case _:  # pragma: no cover - the union is closed
            raise RuleError("$.action", "not a weapon-handling action")
    return _result(
        request, action, readiness=readiness, selector=selector, target=target, loaded=loaded, log=log
    )


#: The actions' names as the RCS prints them, for error messages (which stay in English).
_TITLES = {
    "draw": "Draw a Small Weapon",
    "ready": "Ready Rifle",
    "unsling": "Unsling Rifle",
    "select_mode": "Select Fire Mode",
    "retarget": "Retarget",
    "reload": "Reload",
}

"""Getting a weapon into action and keeping it pointed (RCS: Entering Combat, Readying a Weapon,
Mode Selection, Targetting and Firing).

A weapon is holstered, slung, carried with the safety on, or ready. Only a ready weapon fires (Fast
Draw aside, which draws as it fires). The selector and the target lock ride along with the readiness;
every action here returns all of them, plus the rounds loaded, as one absolute token update.
"""

from __future__ import annotations

from rules.errors import RuleError
from rules.megatraveller import messages as msg
from rules.megatraveller.modes import BURST_SIZES, FAST_DRAW_KINDS, FAST_DRAW_WEAPONS, selector_available
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
from rules.messages import ErrorKind
from rules.results import Message, TokenUpdate

__all__ = [
    "BEFORE_FIRING",
    "check_ready_to_fire",
    "check_selector",
    "check_weapon",
    "handle",
    "lock_name",
    "shooter_update",
]

#: What has to happen first, for each state a weapon cannot fire from.
BEFORE_FIRING: dict[Readiness, ErrorKind] = {
    "holstered": msg.ERR_HOLSTERED,
    "slung": msg.ERR_SLUNG,
    "carried": msg.ERR_CARRIED,
}


def lock_name(attacker: Attacker) -> str | None:
    """The locked token as the log and a refusal say it: its name, its id when the request gave none."""
    return attacker.target_name or attacker.target


def check_ready_to_fire(attacker: Attacker) -> None:
    if attacker.readiness != "ready":
        raise RuleError("$.attacker.readiness", BEFORE_FIRING[attacker.readiness]())


def check_selector(weapon: Weapon, selector: Selector, path: str) -> None:
    """A selector setting the weapon does not have is an error, wherever it comes from."""
    if not selector_available(weapon, selector):
        raise RuleError(
            path, msg.ERR_NO_SETTING(weapon=weapon.name or "", selector=msg.SELECTOR_WORD[selector]())
        )


def check_weapon(weapon: Weapon) -> None:
    """The weapon's own statistics must make sense, whatever the action (RCS: Burst fire sizes)."""
    if weapon.burst is not None and weapon.burst not in BURST_SIZES:
        refusal = msg.ERR_BURST_SIZE(sizes=list(BURST_SIZES[:-1]), last=BURST_SIZES[-1], burst=weapon.burst)
        raise RuleError("$.weapon.burst", refusal)
    if weapon.capacity is not None and weapon.loaded > weapon.capacity:
        raise RuleError("$.weapon.loaded", msg.ERR_OVERLOADED(loaded=weapon.loaded, capacity=weapon.capacity))


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
        refusal = msg.ERR_NEEDS_STATE(
            title=_TITLES[action],
            action=msg.ACTION[action](),
            state=msg.READINESS_WORD[state](),
            readiness=msg.READINESS_WORD[attacker.readiness](),
        )
        raise RuleError("$.attacker.readiness", refusal)


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
            _require(attacker, "holstered" if action == "draw" else "carried", action)
            if isinstance(request, DrawRequest):
                _check_draw(request)
            if request.selector is not None:
                check_selector(weapon, request.selector, "$.selector")
                selector = request.selector
            readiness = "ready"
            target = request.target if request.target is not None else target
            # The log names the token as the table does; the state keeps its id.
            said = (
                request.target_name or request.target if request.target is not None else lock_name(attacker)
            )
            done = msg.DRAWN if action == "draw" else msg.READIED
            log = [done(shooter=who, selector=msg.SELECTOR[selector](), target=said)]
        case UnslingRequest():
            action = "unsling"
            _require(attacker, "slung", action)
            readiness = "carried"
            log = [msg.UNSLUNG(shooter=who)]
        case SelectModeRequest():
            action = "select_mode"
            if attacker.readiness not in ("carried", "ready"):
                before = BEFORE_FIRING[attacker.readiness]()
                raise RuleError("$.attacker.readiness", msg.ERR_SELECTOR_OUT_OF_REACH(before=before))
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
            log = [msg.RETARGETED(shooter=who, target=request.target_name or target)]
        case ReloadRequest():
            action = "reload"
            size = request.rounds if request.rounds is not None else weapon.capacity
            if size is None:
                raise RuleError("$.weapon.capacity", msg.ERR_RELOAD_CAPACITY())
            if weapon.capacity is not None and size > weapon.capacity:
                raise RuleError("$.rounds", msg.ERR_ROUNDS_DO_NOT_FIT(rounds=size, capacity=weapon.capacity))
            if size < weapon.loaded:
                # A reload never takes rounds out: the record would lose them unseen (#31).
                raise RuleError("$.rounds", msg.ERR_RELOAD_BELOW(rounds=size, loaded=weapon.loaded))
            loaded = size
            log = [msg.RELOADED(shooter=who, before=weapon.loaded, loaded=loaded)]
        case _:  # pragma: no cover - the union is closed
            raise TypeError(f"not a weapon-handling action: {request!r}")
    return _result(
        request, action, readiness=readiness, selector=selector, target=target, loaded=loaded, log=log
    )


def _check_draw(request: DrawRequest) -> None:
    """Draw a Small Weapon draws a pistol, as Fast Draw does under the same table reading (reading 10,
    ``fast_draw_weapons``): a rifle or a heavy weapon is unslung and readied; ``"any"`` draws any kind."""
    reading = request.fast_draw_weapons or FAST_DRAW_WEAPONS
    kind = request.weapon.kind
    if reading == "small" and kind not in FAST_DRAW_KINDS:
        named = msg.ERR_DRAW_KIND(weapon=request.weapon.name or "", kind=msg.KIND_WORD[kind]())
        raise RuleError("$.weapon.kind", named)


#: The actions' names as the RCS prints them, for a refusal's English (``ERR_NEEDS_STATE``'s ``title``).
_TITLES = {
    "draw": "Draw a Small Weapon",
    "ready": "Ready Rifle",
    "unsling": "Unsling Rifle",
    "select_mode": "Select Fire Mode",
    "retarget": "Retarget",
    "reload": "Reload",
}

"""The suppression actions outside an attack: a GM-called test, end-of-turn recovery, entering melee."""

from __future__ import annotations

from rules.d100 import messages as msg
from rules.d100.checks import roll_test
from rules.d100.plan import check_modifier, check_target
from rules.d100.requests import EnterMelee, Recover, SuppressionTestRequest, Target
from rules.d100.results import D100Result, D100Target, Suppression
from rules.d100.suppression import SuppressionTest, aftermath, aftermath_lines
from rules.d100.tables import RECOVERY_QUIET_BONUS, SUPPRESSED_ACTION_POINTS, SUPPRESSED_BS_MODIFIER
from rules.d100.updates import target_update
from rules.dice import Dice
from rules.errors import RuleError
from rules.results import Message, TokenUpdate

__all__ = [
    "checked_targets",
    "enter_melee",
    "recovery_target",
    "resolve_recover",
    "resolve_suppression_test",
    "suppression_tests",
]


def _result(action: str, before: list[Target], after: list[D100Target], log: list[Message]) -> D100Result:
    updates: list[TokenUpdate] = []
    for old, new in zip(before, after, strict=True):
        update = target_update(old, new)
        if update is not None:
            updates.append(update)
    return D100Result(system="d100", action=action, targets=after, updates=updates, log=log)


def checked_targets(targets: list[Target]) -> None:
    """Who a morale action names: at least one character, each well formed."""
    if not targets:
        raise RuleError("$.targets", msg.ERR_NO_CHARACTER())
    for i, target in enumerate(targets):
        check_target(target, f"$.targets[{i}]")


def suppression_tests(request: SuppressionTestRequest) -> list[SuppressionTest]:
    checked_targets(request.targets)
    check_modifier(request.modifier)
    tests = [SuppressionTest(t, request.modifier, f"$.targets[{i}]") for i, t in enumerate(request.targets)]
    for test in tests:
        test.check()
    return tests


def resolve_suppression_test(request: SuppressionTestRequest, dice: Dice) -> D100Result:
    tests = suppression_tests(request)
    log: list[Message] = []
    after: list[D100Target] = []
    for test in tests:
        outcome = test.roll(dice, log)
        state = aftermath(test.target, outcome)
        log.extend(aftermath_lines(test.target, state))
        after.append(
            D100Target(
                id=test.target.id,
                name=test.target.name,
                hits=0,
                suppression=outcome,
                suppressed=state.suppressed,
                prone=state.prone,
                must_seek_cover=state.must_seek_cover,
            )
        )
    return _result("suppression_test", request.targets, after, log)


def recovery_target(request: Recover, index: int) -> int | None:
    """The Willpower target number of one recovery test, or None when no test is rolled."""
    target = request.targets[index]
    if not target.suppressed or target.in_melee:
        return None
    if target.wp is None:
        raise RuleError(f"$.targets[{index}].wp", msg.ERR_RECOVERY_WP())
    return target.wp + request.modifier + (RECOVERY_QUIET_BONUS if request.quiet else 0)


def resolve_recover(request: Recover, dice: Dice) -> D100Result:
    checked_targets(request.targets)
    check_modifier(request.modifier)
    numbers = [recovery_target(request, i) for i in range(len(request.targets))]
    log: list[Message] = []
    after: list[D100Target] = []
    for target, number in zip(request.targets, numbers, strict=True):
        who = target.name or target.id
        suppressed = target.suppressed
        record = None
        if not target.suppressed:
            log.append(msg.RECOVERY_NOT_SUPPRESSED(target=who))
        elif number is None:
            log.append(msg.RECOVERY_IN_MELEE(target=who))
            suppressed = False
        else:
            record = roll_test(dice, number, msg.ROLL_RECOVERY(target=who))
            log.append(
                msg.RECOVERY_TEST(
                    target=who,
                    wp=target.wp,
                    quiet=request.quiet,
                    bonus=RECOVERY_QUIET_BONUS,
                    modifier=request.modifier,
                    roll=record.roll,
                    need=record.target,
                    success=record.success,
                    degrees=record.degrees,
                )
            )
            suppressed = not record.success
            log.append(
                msg.RECOVERY_STAYS(target=who, ap=SUPPRESSED_ACTION_POINTS, modifier=SUPPRESSED_BS_MODIFIER)
                if suppressed
                else msg.RECOVERY_SHAKEN(target=who)
            )
        outcome = None
        if record is not None:
            bonus = request.modifier + (RECOVERY_QUIET_BONUS if request.quiet else 0)
            outcome = Suppression(modifier=bonus, passed=record.success, test=record)
        after.append(
            D100Target(
                id=target.id,
                name=target.name,
                hits=0,
                suppression=outcome,
                suppressed=suppressed,
                prone=target.prone,
            )
        )
    return _result("recover", request.targets, after, log)


def enter_melee(request: EnterMelee, dice: Dice) -> D100Result:
    checked_targets(request.targets)
    log: list[Message] = []
    after: list[D100Target] = []
    for target in request.targets:
        who = target.name or target.id
        if target.suppressed:
            log.append(msg.MELEE_ENDS_SUPPRESSION(target=who))
        after.append(D100Target(id=target.id, name=target.name, hits=0, suppressed=False, prone=target.prone))
    return _result("enter_melee", request.targets, after, log)

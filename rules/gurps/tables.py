"""The tables this system reads, kept as data so a referee's variant is an edit here, not in the logic.

* ``RAPID_FIRE_BONUS`` — seed 001 ("Rapid Fire", B373): shots per attack to a bonus to hit.
* ``MALFUNCTION_TABLE`` — our reading of B407 (Malfunctions): what a malfunction is, by 3d6.
* ``ROUNDS_SPENT`` — rounds a malfunction uses up (a misfire or a mechanical fault fires nothing; a
  stoppage fires one round, then jams).
* ``DODGE_STEP`` — margin points per extra hit a successful Dodge avoids against rapid fire (B375: 1).
* ``FIXES`` — how each malfunction is cleared: which roll, how long, what a critical failure does.

docs/rules/gurps.md gives the reasons for each reading.
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = [
    "DODGE_STEP",
    "EXPLOSION_RISK",
    "FIXES",
    "MALFUNCTION_TABLE",
    "RAPID_FIRE_BONUS",
    "ROUNDS_SPENT",
    "Fix",
    "FixTime",
    "Malfunction",
    "WeaponFault",
    "malfunction_kind",
    "rapid_fire_bonus",
]

#: What stops a weapon: the three malfunctions of B407.
Malfunction = Literal["misfire", "stoppage", "mechanical"]
#: A weapon's fault as stored on the token: a malfunction, or "destroyed" (a botched repair).
WeaponFault = Literal["misfire", "stoppage", "mechanical", "destroyed"]
#: How long one attempt to clear a malfunction takes: a Ready maneuver, three, or an hour's work.
FixTime = Literal["ready", "three_ready", "hour"]

#: A successful Dodge against rapid fire avoids one hit plus one per DODGE_STEP points of margin. The
#: default, 1 (one more per point of margin), is the Basic Set's rule (B375). A request's ``dodge_step``
#: overrides it: a larger whole number, or ``"rcl"``, a house rule that mirrors the attacker's side
#: (one more per full multiple of the weapon's Rcl) and makes dodging rapid fire harder.
DODGE_STEP: int | Literal["rcl"] = 1

#: (fewest shots, most shots, bonus to hit). One shot gets no bonus either.
RAPID_FIRE_BONUS: tuple[tuple[int, int, int], ...] = (
    (1, 4, 0),
    (5, 8, 1),
    (9, 12, 2),
    (13, 16, 3),
    (17, 24, 4),
    (25, 49, 5),
    (50, 99, 6),
)


def rapid_fire_bonus(shots: int) -> int:
    """Bonus to hit for ``shots`` shots (or pellets) in one attack.

    Past the table's last row, each doubling adds +1: 100-199 is +7, 200-399 is +8, 400-799 is +9,
    and so on (the 50-99 band doubled again and again).
    """
    if shots < 1:
        raise ValueError(f"a rapid-fire bonus needs at least one shot, not {shots}")
    for fewest, most, bonus in RAPID_FIRE_BONUS:
        if fewest <= shots <= most:
            return bonus
    last_fewest, _, last_bonus = RAPID_FIRE_BONUS[-1]
    # shots // 50 is 2-3 for 100-199, 4-7 for 200-399...: its bit length counts the doublings.
    return last_bonus + (shots // last_fewest).bit_length() - 1


#: (lowest 3d6, highest 3d6, malfunction). B407's table, folded into three kinds.
MALFUNCTION_TABLE: tuple[tuple[int, int, Malfunction], ...] = (
    (3, 4, "mechanical"),
    (5, 8, "misfire"),
    (9, 11, "stoppage"),
    (12, 14, "misfire"),
    (15, 18, "mechanical"),
)

#: 3d6 results on the malfunction table whose mechanical problem may also be an explosion (left to the
#: referee: the result flags it, nothing is rolled for it).
EXPLOSION_RISK = range(15, 19)

ROUNDS_SPENT: dict[Malfunction, int] = {"misfire": 0, "stoppage": 1, "mechanical": 0}


def malfunction_kind(roll: int) -> Malfunction:
    for lowest, highest, kind in MALFUNCTION_TABLE:
        if lowest <= roll <= highest:
            return kind
    raise ValueError(f"{roll} is not a 3d6 result")


class Fix(msgspec.Struct, frozen=True):
    """How one malfunction is cleared (B407).

    ``armoury_bonus`` is added when the roll is against Armoury; ``weapon_skill`` says whether an
    IQ-based weapon-skill roll may be used instead; ``time`` is what one attempt costs (reported, not
    enforced): a Ready maneuver, three of them, or an hour's work; ``botch`` is what the weapon becomes
    on a critical failure.
    """

    armoury_bonus: int
    weapon_skill: bool
    time: FixTime
    botch: WeaponFault


FIXES: dict[Malfunction, Fix] = {
    "misfire": Fix(armoury_bonus=2, weapon_skill=True, time="ready", botch="mechanical"),
    "stoppage": Fix(armoury_bonus=2, weapon_skill=True, time="three_ready", botch="mechanical"),
    "mechanical": Fix(armoury_bonus=0, weapon_skill=False, time="hour", botch="destroyed"),
}

"""B375: dodging rapid fire avoids one hit plus one per point of margin; a critical success all."""

from __future__ import annotations

import pytest
from gurps_helpers import purposes, request, roll


def _shot(to_hit: int, dodge_roll: int, *, dodge: int = 9, skill: int = 12) -> object:
    return roll(request(attacker={"skill": skill}, target={"dodge": dodge}), to_hit, dodge_roll).targets[0]


@pytest.mark.parametrize(
    ("dodge_roll", "dodged", "hits"),
    [
        (9, 1, 3),  # by 0: one hit
        (8, 2, 2),  # by 1: two
        (7, 3, 1),  # by 2: three
        (6, 4, 0),  # by 3: all four
        (5, 4, 0),  # by 4: still only the four there were
        (10, 0, 4),  # failure
        (17, 0, 4),  # 17: failure
    ],
)
def test_dodge_margin(dodge_roll: int, dodged: int, hits: int) -> None:
    target = _shot(6, dodge_roll)  # effective 12, margin 6: 4 hits
    assert (target.scored, target.dodged, target.hits) == (4, dodged, hits)
    assert target.outcome == ("dodged" if hits == 0 else "hit")


def test_critical_dodge_avoids_every_hit() -> None:
    # Dodge 3 (so a margin of 0-1 would avoid one or two): a 4 is critical and avoids all four.
    target = _shot(6, 4, dodge=3)
    assert target.dodge.critical == "success"
    assert (target.dodged, target.hits, target.outcome) == (4, 0, "dodged")


def test_dodge_5_is_critical_at_dodge_15() -> None:
    # skill 20: effective 20, roll 7, margin 13: 7 hits; a 5 against Dodge 15 avoids them all.
    target = _shot(7, 5, dodge=15, skill=20)
    assert (target.scored, target.dodged, target.hits) == (7, 7, 0)


def test_critical_dodge_failure_avoids_nothing() -> None:
    target = _shot(6, 18)
    assert target.dodge.critical == "failure"
    assert (target.dodged, target.hits) == (0, 4)


def test_no_dodge_score_no_dodge_roll() -> None:
    result = roll(request(target={"dodge": None}), 6)
    assert result.targets[0].dodge is None
    assert purposes(result) == ["to_hit"] * 3


@pytest.mark.parametrize(
    ("step", "dodge_roll", "dodged"),
    [
        # The house option "rcl" (not the Basic Set's wording): one more per full multiple of Rcl 2.
        ("rcl", 9, 1),  # by 0: one hit
        ("rcl", 8, 1),  # by 1: still one (no full Rcl of margin)
        ("rcl", 7, 2),  # by 2: two
        ("rcl", 5, 3),  # by 4: three
        (3, 6, 2),  # by 3 with a step of 3: two
        (1, 7, 3),  # B375, the default, said out loud: by 2, one plus two
    ],
)
def test_dodge_step_override(step: object, dodge_roll: int, dodged: int) -> None:
    target = roll(request(dodge_step=step, target={"dodge": 9}), 6, dodge_roll).targets[0]
    assert (target.scored, target.dodged) == (4, dodged)


def test_dodge_step_reaches_the_odds() -> None:
    from rules import decode_request, odds

    per_point = odds(decode_request(request())).targets[0].hits
    per_rcl = odds(decode_request(request(dodge_step="rcl"))).targets[0].hits
    # A coarser step avoids fewer hits, so more hits land on average.
    assert sum(k * p for k, p in enumerate(per_rcl)) > sum(k * p for k, p in enumerate(per_point))


def test_dodge_step_must_be_positive() -> None:
    from rules import RuleError, decode_request

    with pytest.raises(RuleError) as caught:
        decode_request(request(dodge_step=0))
    assert caught.value.path == "$.dodge_step"

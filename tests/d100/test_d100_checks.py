"""The d100 test, degrees of success, RoF notation and reliability, as the seed and the issue state them."""

from __future__ import annotations

import pytest

from rules import RuleError
from rules.d100.checks import degrees, judge, tens
from rules.d100.reliability import final_reliability, jam_threshold
from rules.d100.requests import Weapon
from rules.d100.rof import parse_rof
from rules.results import Message


@pytest.mark.parametrize(
    ("roll", "target", "success", "count"),
    [
        (23, 55, True, 4),  # 1 + 5 - 2
        (55, 55, True, 1),  # exactly on target: one degree
        (50, 59, True, 1),  # same tens digit
        (9, 45, True, 5),  # 1 + 4 - 0
        (60, 55, False, 2),  # 1 + 6 - 5
        (56, 55, False, 1),
        (100, 45, False, 7),  # "00" is 100, tens digit 10
        (1, -10, True, 1),  # 01 always passes, with one degree
        (2, -10, False, 2),  # 1 + 0 - (-1)
    ],
)
def test_degrees_count_tens_digits(roll: int, target: int, success: bool, count: int) -> None:
    check = judge(roll, target)
    assert (check.success, check.degrees) == (success, count)


def test_target_numbers_above_100_keep_counting() -> None:
    assert judge(100, 105).success and judge(100, 105).degrees == 1
    assert judge(5, 112).degrees == 12
    assert tens(100) == 10 and tens(-5) == -1


@pytest.mark.parametrize("roll", [96, 97, 100])
def test_an_attack_roll_of_96_or_more_always_misses(roll: int) -> None:
    check = judge(roll, 130, attack=True)
    assert not check.success
    assert check.note == Message("d100.note.always_misses", {"at": 96})
    assert judge(roll, 130).success, "a non-attack test at 130 passes"


def test_an_attack_at_95_still_hits_a_high_target() -> None:
    assert judge(95, 130, attack=True).success


def test_degrees_are_at_least_one() -> None:
    assert degrees(99, 200, True) == 12
    assert degrees(1, -50, True) == 1, "the automatic 01 under a hopeless target still has one degree"
    assert degrees(50, 40, False) == 2


@pytest.mark.parametrize(
    ("text", "single", "short", "long"),
    [
        ("S/3/10", True, 3, 10),
        ("S/2/-", True, 2, None),
        ("-/-/6", False, None, 6),
        ("S/\u2013/\u2013", True, None, None),  # en dash, as printed
        ("\u2014/3/\u2014", False, 3, None),  # em dash
        (" s / 4 / 12 ", True, 4, 12),
    ],
)
def test_rof_notation(text: str, single: bool, short: int | None, long: int | None) -> None:
    rof = parse_rof(text)
    assert (rof.single, rof.short, rof.long) == (single, short, long)


def test_highest_rof() -> None:
    assert parse_rof("S/3/10").highest == 10
    assert parse_rof("S/-/-").highest == 1
    assert parse_rof("-/2/-").highest == 2


@pytest.mark.parametrize("text", ["S/3", "X/3/10", "S/0/10", "S/three/10", "S/3/10/20", "S/3/1000"])
def test_bad_rof_is_a_rule_error_on_its_field(text: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_rof(text)
    assert caught.value.path == "$.weapon.rof"


def test_reliability_worked_example_from_the_seed() -> None:
    """Reliable by default, Reliable again from good quality, a talent's +1, an overcharge's -1: +2."""
    sources: list[int | str] = ["Reliable", "Reliable", 1, -1]
    assert final_reliability(sources) == 2
    weapon = Weapon(loaded=10, reliability=sources)
    assert jam_threshold(weapon) is None, "Very Reliable never jams"


@pytest.mark.parametrize(
    ("sources", "final", "jams_at"),
    [
        (0, 0, 96),
        ("Unreliable", -1, 94),
        ("very unreliable", -2, 91),
        (["Very Unreliable", "Unreliable"], -2, 91),  # -3 clamps to -2
        (["Very_Reliable", "reliable"], 2, None),  # +3 clamps to +2
        ("Reliable", 1, None),
        (["+1", "\u22121", "Unreliable"], -1, 94),
        ([], 0, 96),
    ],
)
def test_reliability_sums_and_clamps(
    sources: int | str | list[int | str], final: int, jams_at: int | None
) -> None:
    assert final_reliability(sources) == final
    assert jam_threshold(Weapon(loaded=1, reliability=sources)) == jams_at


def test_an_unknown_reliability_property_names_its_place() -> None:
    with pytest.raises(RuleError) as caught:
        final_reliability(["Reliable", "Shoddy"])
    assert caught.value.path == "$.weapon.reliability[1]"


def test_jam_at_overrides_the_table_and_thrown_weapons_never_jam() -> None:
    assert jam_threshold(Weapon(loaded=1, reliability="Reliable", jam_at=99)) == 99
    assert jam_threshold(Weapon(loaded=1, reliability=-2, weapon_class="thrown")) is None
    assert jam_threshold(Weapon(loaded=1, reliability=-2, weapon_class="grenade")) is None


@pytest.mark.parametrize("text", ["S/3/\u00b2", "S/\u0663/10", "S/+3/10", "S/-3/10"])
def test_rof_digits_are_plain_ascii_numbers(text: str) -> None:
    """A superscript two or an Arabic-Indic three looks like a digit to Python, not to the rules."""
    with pytest.raises(RuleError) as caught:
        parse_rof(text)
    assert caught.value.path == "$.weapon.rof" and "position must be 1..100" in caught.value.message


@pytest.mark.parametrize("text", ["+\u00b2", "+-1", "--1", "1.5", "\u0661"])
def test_reliability_text_that_is_not_a_number_is_named(text: str) -> None:
    with pytest.raises(RuleError) as caught:
        final_reliability(["Reliable", text])
    assert caught.value.path == "$.weapon.reliability[1]"
    assert "unknown reliability" in caught.value.message

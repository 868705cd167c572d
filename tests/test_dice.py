"""The dice every system rolls with: reproducible, scriptable, recorded."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.dice import MAX_DICE_PER_REQUEST, ScriptedDice, SeededDice
from rules.errors import RuleError
from rules.results import Message

#: What the dice in these tests are rolled for (test-only keys: no catalogue text needed).
X = Message("test.roll")
TO_HIT = Message("test.to_hit", {"target": "Ganger"})


def test_same_seed_same_faces() -> None:
    a, b = SeededDice(42), SeededDice(42)
    assert a.roll(50, 6, X) == b.roll(50, 6, X)


def test_different_seeds_differ() -> None:
    assert SeededDice(1).roll(20, 6, X) != SeededDice(2).roll(20, 6, X)


def test_generator_matches_the_published_splitmix64_vector() -> None:
    dice = SeededDice(0)
    assert dice._next64() == 0xE220A8397B1DCDAF
    assert dice._next64() == 0x6E789E6AA1B965F4


def test_seeded_faces_are_pinned_across_machines() -> None:
    # SplitMix64 is fully specified: these faces must never change, or every recorded session breaks.
    assert SeededDice(0).roll(10, 6, X) == [2, 1, 2, 5, 2, 1, 6, 3, 6, 3]
    assert SeededDice(2026).roll(5, 100, X) == [52, 2, 35, 87, 42]


def test_seeded_dice_are_fair() -> None:
    counts = Counter(face for seed in range(6) for face in SeededDice(seed).roll(10_000, 6, X))
    # Chi-square with 5 degrees of freedom; 20.5 is the 0.1% critical value.
    chi2 = sum((counts[f] - 10_000) ** 2 / 10_000 for f in range(1, 7))
    assert chi2 < 20.5
    assert set(counts) == set(range(1, 7))


def test_every_die_is_recorded_with_its_purpose() -> None:
    dice = SeededDice(3)
    dice.total(3, 6, TO_HIT)
    dice.d(100, Message("test.location"))
    assert [(r.die, r.purpose) for r in dice.rolls] == [(6, TO_HIT)] * 3 + [(100, Message("test.location"))]
    assert all(1 <= r.face <= r.die for r in dice.rolls)


def test_scripted_dice_are_consumed_in_order() -> None:
    dice = ScriptedDice([3, 4, 5, 6])
    assert dice.total(3, 6, TO_HIT) == 12
    assert dice.d(6, Message("test.bullets")) == 6
    dice.finish()
    assert [r.face for r in dice.rolls] == [3, 4, 5, 6]


def test_scripted_dice_running_out_names_what_was_needed() -> None:
    dice = ScriptedDice([3])
    dice.d(6, TO_HIT)
    with pytest.raises(RuleError) as caught:
        dice.d(6, Message("test.dodge", {"target": "Ganger"}))
    assert caught.value.path == "$.dice"
    # Error messages stay in English and name the purpose by its key and values.
    assert caught.value.message == (
        "scripted dice ran out: a d6 for test.dodge(target=Ganger) was needed after 1 faces"
    )


def test_scripted_face_the_die_cannot_show() -> None:
    dice = ScriptedDice([2, 7])
    dice.d(6, TO_HIT)
    with pytest.raises(RuleError) as caught:
        dice.d(6, TO_HIT)
    assert caught.value.path == "$.dice[1]"
    assert "face 7 cannot come from a d6" in caught.value.message


def test_unused_scripted_faces_are_an_error() -> None:
    dice = ScriptedDice([1, 2, 3])
    dice.d(6, X)
    with pytest.raises(RuleError, match="2 scripted face"):
        dice.finish()


def test_dice_limit_per_request() -> None:
    dice = SeededDice(1)
    dice.roll(MAX_DICE_PER_REQUEST, 6, X)
    with pytest.raises(RuleError, match="more than"):
        dice.d(6, X)


def test_a_total_rolls_the_same_faces_as_its_dice_one_by_one() -> None:
    # ``SeededDice.total`` writes the generator out in one loop (every attack's to-hit and dodge):
    # the faces, their order, the generator's state after and the record must be the d()'s own.
    for seed in (0, 1, 2026, 2**63 + 5, 2**64 - 1):
        for sides in (2, 3, 6, 7, 10, 20, 100, 1000):
            together, apart = SeededDice(seed), SeededDice(seed)
            total = together.total(5, sides, TO_HIT) + together.total(1, sides, X)
            faces = [apart.d(sides, TO_HIT) for _ in range(5)] + [apart.d(sides, X)]
            assert total == sum(faces)
            assert together.rolls == apart.rolls
            assert together.d(sides, X) == apart.d(sides, X)  # the state after, too


def test_a_total_past_the_limit_is_refused_as_die_by_die() -> None:
    dice = SeededDice(1)
    dice.roll(MAX_DICE_PER_REQUEST - 2, 6, X)
    with pytest.raises(RuleError, match="more than"):
        dice.total(3, 6, X)
    assert len(dice.rolls) == MAX_DICE_PER_REQUEST


def test_a_subclass_with_faces_of_its_own_keeps_them_in_a_total() -> None:
    class Sixes(SeededDice):
        def _face(self, sides: int, purpose: Message) -> int:
            return sides

    assert Sixes(1).total(3, 6, X) == 18

"""The RCS worked examples, to the number: scripted dice in, the book's rolls and hits out."""

from __future__ import annotations

from megatraveller_helpers import honjo, jong_wu, lines, roll, to_hit

from rules.results import Message

# Honjo's autorifle holds 20: any 3D+20 empties it. The faces for the rounds roll are therefore
# arbitrary; then 1D-1 lost (5 -> 4), then clusters 3, 6, 6, 1.
HONJO_POOL = [1, 1, 1, 5, 3, 6, 6, 1]
# To-hit rolls as the example gives them: main bird 5, 11, 6; second bird 7, 7, 4; the ally 8.
HONJO_TO_HIT = to_hit(5, 11, 6, 7, 7, 4, 8)


def test_jong_wu_fast_draw_rapid_fire_at_three_guards() -> None:
    # 1D+2 bullets = 4 (a 2 on the die); to-hit 8 and 12 at the first guard, 3 and 9 at the others.
    result = roll(jong_wu(dice=[2, *to_hit(8, 12, 3, 9)]))

    assert result.pool is not None and result.pool.bullets == 4
    assert result.allocation == [2, 1, 1]
    first, left, right = result.targets
    # Difficult 11+ after the rapid-fire shift; DMs +5 skill, +2 Dex, -2 Fast Draw, -3 three targets:
    # a net 9+, and 8+ on the first guard's first roll thanks to the +1 bullet DM.
    assert first.needed == 11 and first.dm == 2
    assert first.needed - first.dm == 9
    assert [r.roll for r in first.to_hit] == [8, 12]
    assert [r.needed - r.dm for r in first.to_hit] == [8, 9]
    assert [r.hit for r in first.to_hit] == [True, True]
    assert (first.hits, left.hits, right.hits) == (2, 0, 1)
    assert [r.roll for r in left.to_hit] == [3] and [r.roll for r in right.to_hit] == [9]
    # Exactly the four bullets leave the magazine; the pistol is out, still on single, locked on g2.
    assert result.weapon is not None and (result.weapon.loaded, result.weapon.fired) == (11, 4)
    assert (result.readiness, result.selector, result.target) == ("ready", "single", "g2")
    assert result.updates[0].token == "jw"
    assert result.updates[0].state == {
        "readiness": "ready",
        "selector": "single",
        "target": "g2",
        "weapon.loaded": 11,
    }
    assert not any(t.exceptional for t in result.targets)


def test_honjo_boram_automatic_fire_with_an_ally_in_the_danger_space() -> None:
    # Boram's split: clusters 0 and 1 (3 + 6) at the main bird, 2 (6) at the second, 3 (1) at the ally.
    result = roll(honjo(allocation=[[0, 1], [2], [3]], dice=HONJO_POOL + HONJO_TO_HIT))

    assert result.pool is not None
    assert (result.pool.rounds, result.pool.lost, result.pool.clusters) == (20, 4, [3, 6, 6, 1])
    main, second, ally = result.targets
    assert (main.bullets, second.bullets, ally.bullets) == (9, 6, 1)
    # Every roll against Difficult 11+ with the DMs the example lists: +10, +6, +4; +7, +4, +3; +2.
    assert {main.needed, second.needed, ally.needed} == {11}
    assert [r.dm for r in main.to_hit] == [10, 6, 4]
    assert [r.bullet_dm for r in main.to_hit] == [8, 4, 2]
    assert [r.total for r in main.to_hit] == [15, 17, 10]
    assert [r.dm for r in second.to_hit] == [7, 4, 3]
    assert [r.total for r in second.to_hit] == [14, 11, 7]
    assert [r.dm for r in ally.to_hit] == [2] and ally.to_hit[0].total == 10
    assert (main.hits, second.hits, ally.hits) == (2, 2, 0)
    assert ally.bystander
    assert result.weapon is not None and result.weapon.loaded == 0
    assert (result.selector, result.target) == ("auto", "bird1")


def test_honjo_default_split_is_the_one_boram_chose() -> None:
    result = roll(honjo(dice=HONJO_POOL + HONJO_TO_HIT))
    assert result.allocation == [[1, 0], [2], [3]]
    assert [t.bullets for t in result.targets] == [9, 6, 1]
    assert [t.hits for t in result.targets] == [2, 2, 0]


def test_the_log_reads_like_the_example() -> None:
    result = roll(jong_wu(dice=[2, *to_hit(8, 12, 3, 9)]))
    split = next(message for message in result.log if message.key == "megatraveller.fire.split")
    assert split.values == {
        "split": [2, 1, 1],
        "splitting": True,
        "targets": 3,
        "designated": True,
        "dm": -3,
        "dm_signed": "-3",
    }
    assert lines(result) == [
        "Jong Wu: Fast Draw, locked on central guard, DM -2",
        "DMs: skill +5, Dex 13 +2, action -2 = +5",
        "difficulty +1 level: Routine → Difficult",
        "bullets 1D+2 = 4",
        "split 2, 1, 1 among 3 designated targets: DM -3",
        "central guard bullet 1/2: 2D 8 +3 (bullets +1) = 11 vs 11+: hit",
        "central guard bullet 2/2: 2D 12 +2 (bullets +0) = 14 vs 11+: hit",
        "left guard bullet 1/1: 2D 3 +2 (bullets +0) = 5 vs 11+: miss",
        "right guard bullet 1/1: 2D 9 +2 (bullets +0) = 11 vs 11+: hit",
        "4 rounds fired, 11 left; central guard 2 hits, left guard 0 hits, right guard 1 hit",
    ]
    russian = lines(result, "ru")
    assert russian[1:5] == [
        "МБ: навык +5, ЛВК 13 +2, действие -2 = +5",
        "сложность +1: Обычная → Сложная",
        "пули 1D+2 = 4",
        "распределение 2, 1, 1 на 3 назначенные цели: МБ -3",
    ]
    assert russian[-1] == (
        "выпущено 4 патрона, осталось 11; central guard: 2 попадания, left guard: 0 попаданий, "
        "right guard: 1 попадание"
    )
    assert len(result.rolls) == 9  # the bullet die and four 2D rolls, every face recorded
    assert result.rolls[0].purpose == Message(
        "megatraveller.roll.rapid_bullets", {"dex_dm": 2, "dex_dm_signed": "+2"}
    )
    assert result.rolls[1].purpose == Message("megatraveller.roll.to_hit", {"target": "central guard"})


def test_honjo_script_may_leave_out_the_rounds_roll_the_magazine_makes_moot() -> None:
    # The example never rolls 3D+20: the 20-round magazine empties whatever it shows. A script that
    # starts straight at the lost-rounds die gives the same attack.
    with_rounds = roll(honjo(allocation=[[0, 1], [2], [3]], dice=HONJO_POOL + HONJO_TO_HIT))
    without = roll(honjo(allocation=[[0, 1], [2], [3]], dice=HONJO_POOL[3:] + HONJO_TO_HIT))
    assert without.pool == with_rounds.pool
    assert [t.hits for t in without.targets] == [2, 2, 0]
    assert [[r.total for r in t.to_hit] for t in without.targets] == [[15, 17, 10], [14, 11, 7], [10]]
    assert len(without.rolls) == len(with_rounds.rolls) - 3


def test_seeded_dice_always_roll_the_rounds() -> None:
    result = roll(honjo(), seed=4)
    assert result.rolls[0].purpose.key == "megatraveller.roll.auto_rounds" and len(result.rolls) >= 5


def test_a_script_that_fits_both_readings_is_read_with_the_rounds_roll() -> None:
    # Controlled fire with 3 loaded: 1D+4 always empties it. [1, 1, 3, 1, 1] fits both readings:
    # with the rounds die (1 -> 5 rounds, capped 3; lost 1D-3 = 0; one cluster of 3; to-hit 1+1), or
    # without it (lost 0; clusters 1 then 2; to-hit 1+1). The documented order, with it, comes first.
    request = {
        "system": "megatraveller",
        "mode": "controlled",
        "attacker": {"id": "s", "selector": "auto", "target": "t"},
        "weapon": {"auto": True, "loaded": 3},
        "targets": [{"id": "t"}],
        "dice": [1, 1, 3, 1, 1],
    }
    result = roll(request)
    assert result.pool is not None and (result.pool.rounds, result.pool.lost, result.pool.clusters) == (
        3,
        0,
        [3],
    )
    assert result.rolls[0].purpose.key == "megatraveller.roll.controlled_rounds"

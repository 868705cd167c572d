"""The exact odds against the book's arithmetic and against 21,000 seeded rolls (chi-square)."""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest
from d100_helpers import VEX, chances, merged
from test_d100_suppression import HARL, SCOUT

from rules import decode_request, odds, resolve
from rules.d100.results import D100Odds, D100Result
from rules.dice import SeededDice

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples" / "d100").glob("*.json"))


def close(a: list[float], b: list[float]) -> bool:
    return len(a) == len(b) and all(math.isclose(x, y, abs_tol=1e-12) for x, y in zip(a, b, strict=True))


def test_long_burst_odds_by_hand() -> None:
    """BS 35: 01-09 four degrees, 10-19 three, 20-29 two, 30-35 one; 96-00 jams."""
    result = chances(VEX)
    assert close(result.targets[0].hits, [0.65, 0.06, 0.10, 0.10, 0.09])
    assert math.isclose(result.jam, 0.05) and math.isclose(result.success, 0.35)


def test_suppressing_fire_odds_are_a_binomial_mixture() -> None:
    """BS 20: two hits on 01-09, one on 10-20; each lands on one of four targets at random."""
    result = chances(HARL)
    for target in result.targets:
        assert close(
            target.hits, [1 - 0.11 * 0.25 - 0.09 * 0.375 - 0.09 / 16, 0.11 * 0.25 + 0.09 * 0.375, 0.09 / 16]
        )
    assert [t.suppressed for t in result.targets] == pytest.approx([0.95, 0.95, 0.80, 0.0])
    assert [t.prone for t in result.targets] == pytest.approx([0.0, 0.95, 0.0, 0.0])
    assert math.isclose(result.jam, 0.07)


def test_overwatch_odds_stop_at_a_jam() -> None:
    result = chances(SCOUT)
    assert math.isclose(result.jam, 1 - 0.93**2)
    assert math.isclose(result.targets[0].suppressed, 0.5)
    assert math.isclose(result.targets[1].suppressed, 0.93 * 0.5)
    assert close(result.targets[1].hits, [1 - 0.93 * 0.58, 0.93 * 0.58])


def test_the_reliability_worked_example_never_jams() -> None:
    request = merged(VEX, {"weapon": {"reliability": ["Reliable", "Reliable", 1, -1]}})
    assert chances(request).jam == 0.0


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_sums_to_one(path: Path) -> None:
    """(How fast: ``scripts/bench.py`` prints ``odds_cold_worst_ms`` and ``odds_p99_ms``; no timed test.)"""
    request = decode_request(path.read_bytes())
    result = odds(request)
    for target in result.targets:
        assert math.isclose(sum(target.hits), 1.0, abs_tol=1e-9)


# --- odds against the dice ------------------------------------------------------------------------------

#: Long burst at a dodging primary with a secondary asking for two hits (allocation and dodges).
BURST = merged(VEX, {"attacker": {"bs": 65}})
BURST["targets"] = [{"id": "t1", "wp": 35, "dodge": 40}, {"id": "t2", "to_primary": 1, "share": 2}]
CASES = {"burst": BURST, "suppressing": HARL, "overwatch": SCOUT}
ROLLS = 7_000


def _chi_square(counts: Counter[Any], expected: dict[Any, float], n: int) -> tuple[float, int]:
    """Pearson's statistic over cells merged (in order) until each expects at least 5."""
    cells: list[tuple[float, int]] = []
    exp_acc, obs_acc = 0.0, 0
    for key in sorted(expected):
        exp_acc += expected[key] * n
        obs_acc += counts.get(key, 0)
        if exp_acc >= 5:
            cells.append((exp_acc, obs_acc))
            exp_acc, obs_acc = 0.0, 0
    if cells and exp_acc > 0:
        last_exp, last_obs = cells.pop()
        cells.append((last_exp + exp_acc, last_obs + obs_acc))
    assert sum(counts.values()) == n
    if not set(counts) <= {key for key, p in expected.items() if p > 0}:
        return math.inf, 1  # an outcome the odds call impossible
    stat = sum((obs - exp) ** 2 / exp for exp, obs in cells)
    return stat, max(1, len(cells) - 1)


def _critical(dof: int, z: float = 3.72) -> float:
    """Chi-square quantile at p = 1e-4 (Wilson-Hilferty): generous, yet far below a real mistake."""
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


@functools.cache
def _sample(name: str) -> list[D100Result]:
    """ROLLS seeded resolutions of one case, shared by the tests that need them."""
    decoded = decode_request(msgspec.json.encode(CASES[name]))
    seed = list(CASES).index(name) + 11
    out = []
    for k in range(ROLLS):
        result = resolve(decoded, SeededDice(seed * 1_000_003 + k))
        assert isinstance(result, D100Result)
        out.append(result)
    return out


def _marginals(
    results: list[D100Result], exact: D100Odds
) -> list[tuple[str, Counter[Any], dict[Any, float]]]:
    out: list[tuple[str, Counter[Any], dict[Any, float]]] = []
    jams = Counter(bool(r.weapon and r.weapon.jammed) for r in results)
    out.append(("jam", jams, {True: exact.jam, False: 1 - exact.jam}))
    for index, target in enumerate(exact.targets):
        hits = Counter(r.targets[index].hits for r in results)
        out.append((f"{target.id} hits", hits, dict(enumerate(target.hits))))
        if target.suppressed:
            held = Counter(r.targets[index].suppressed for r in results)
            out.append(
                (f"{target.id} suppressed", held, {True: target.suppressed, False: 1 - target.suppressed})
            )
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_odds_match_seeded_dice(name: str) -> None:
    request = CASES[name]
    exact = chances(request)
    results = _sample(name)
    for label, counts, expected in _marginals(results, exact):
        stat, dof = _chi_square(counts, expected, ROLLS)
        assert stat < _critical(dof), f"{name} {label}: chi-square {stat:.1f} on {dof} dof"


def test_the_chi_square_check_catches_a_ten_point_mistake() -> None:
    """Odds computed for BS 10 points off must fail against the real dice: the check has teeth."""
    results = _sample("burst")
    wrong = chances(merged(BURST, {"attacker": {"bs": 55}}))
    failures = 0
    for _, counts, expected in _marginals(results, wrong):
        stat, dof = _chi_square(counts, expected, ROLLS)
        failures += stat >= _critical(dof)
    assert failures >= 2


def test_examples_are_valid_json_for_the_cli() -> None:
    assert len(EXAMPLES) >= 2
    for path in EXAMPLES:
        assert json.loads(path.read_text())["system"] == "d100"

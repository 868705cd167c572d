"""No system ever publishes a probability outside [0, 1].

Exact odds add many small floats; a hundred 0.01s make 1.0000000000000007, which the dialog once
printed for a d100 long burst whose every face jams. ``rules.odds.probability`` clamps every published
number and the d100 odds count faces as whole numbers, so a certainty is exactly 1.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.odds import probability
from rules.results import Odds, TargetOdds

ROOT = Path(__file__).resolve().parent.parent
REQUESTS = [
    json.loads(path.read_text())
    for path in sorted((ROOT / "docs" / "examples").glob("*/*.json"))
    + sorted((ROOT / "tests" / "replays" / "requests").glob("*/*.json"))
]


def numbers(odds: Odds) -> Iterator[float]:
    """Every float an odds answer carries (hits, jam, and any system's extras such as d100's suppressed)."""

    def walk(value: Any) -> Iterator[float]:
        if isinstance(value, float):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)

    return walk(msgspec.to_builtins(odds))


def test_a_long_burst_that_always_jams_is_certain_not_more() -> None:
    request = {
        "system": "d100",
        "mode": "long_burst",
        "attacker": {"id": "a1", "bs": 45},
        "weapon": {"rof": "S/3/10", "loaded": 30, "jam_at": 1},
        "targets": [{"id": "t1"}],
    }
    odds = rules.odds(rules.decode_request(request))
    assert odds.jam == 1.0 and odds.targets[0].hits == [1.0]
    assert b"1.0000000000000007" not in msgspec.json.encode(odds)


def test_odds_clamp_what_they_are_given() -> None:
    assert [probability(p) for p in (1.0000000000000007, -1e-17, 0.25)] == [1.0, 0.0, 0.25]
    assert Odds(targets=[TargetOdds(id="t", hits=[-1e-17, 1.0000000000000002])], jam=1 + 1e-15) == Odds(
        targets=[TargetOdds(id="t", hits=[0.0, 1.0])], jam=1.0
    )


def test_every_example_of_every_system_stays_within_zero_and_one() -> None:
    systems = set()
    for request in REQUESTS:
        odds = rules.odds(rules.decode_request(request))
        systems.add(request["system"])
        assert all(0.0 <= p <= 1.0 for p in numbers(odds)), request
    assert systems == set(rules.SYSTEMS)


def _integer_paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(obj, bool):
        return []
    if isinstance(obj, int):
        return [path]
    if isinstance(obj, dict):
        return [p for key, value in obj.items() for p in _integer_paths(value, (*path, key))]
    if isinstance(obj, list):
        return [p for index, value in enumerate(obj) for p in _integer_paths(value, (*path, index))]
    return []


@st.composite
def changed_requests(draw: st.DrawFn) -> dict[str, Any]:
    """An example with some of its numbers changed (jam_at, skills, modifiers, rounds, ...)."""
    request = copy.deepcopy(draw(st.sampled_from(REQUESTS)))
    request.pop("dice", None)
    if request["system"] == "d100" and "weapon" in request and draw(st.booleans()):
        request["weapon"]["jam_at"] = draw(st.integers(min_value=1, max_value=101))
    paths = _integer_paths(request)
    for path in draw(st.lists(st.sampled_from(paths), max_size=3)) if paths else []:
        parent = request
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = draw(st.integers(min_value=-5, max_value=150))
    return request


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changed_requests())
def test_no_request_gets_a_probability_above_one(request: dict[str, Any]) -> None:
    try:
        odds = rules.odds(rules.decode_request(request))
    except rules.RuleError:
        return
    assert all(0.0 <= p <= 1.0 for p in numbers(odds)), request

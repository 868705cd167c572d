"""Bad input never crashes anything: mangled requests for every system give a RuleError or a result."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = [json.loads(p.read_text()) for p in sorted((ROOT / "docs" / "examples").glob("*/*.json"))]

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["S/3/10", "3x9", "-/-/6", "single", "auto", "rapid", "ready", "–", "", "x"]),
    st.lists(st.integers(min_value=-3, max_value=12), max_size=6),
    st.just({}),
)


def paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for key, value in obj.items():
            out += paths(value, (*prefix, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            out += paths(value, (*prefix, index))
    return out


@st.composite
def mangled(draw: st.DrawFn) -> dict[str, Any]:
    request = copy.deepcopy(draw(st.sampled_from(EXAMPLES)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        where = [p for p in paths(request) if p and p[0] != "system"]
        if not where:
            break
        path = draw(st.sampled_from(where))
        parent = request
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()) and isinstance(parent, dict):
            parent.pop(path[-1], None)
        else:
            parent[path[-1]] = draw(junk)
    return request


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mangled(), st.integers(min_value=0, max_value=2**32))
def test_mangled_requests_raise_rule_errors_only(request: dict[str, Any], seed: int) -> None:
    try:
        decoded = rules.decode_request(msgspec.json.encode(request))
    except rules.RuleError as error:
        assert error.path.startswith("$") and error.message
        return
    before = msgspec.json.encode(decoded)
    for attempt in (
        lambda: rules.odds(decoded),
        lambda: rules.resolve(decoded, rules.dice_for(decoded, seed)),
    ):
        try:
            attempt()
        except rules.RuleError as error:
            assert error.path.startswith("$") and error.message
    assert msgspec.json.encode(decoded) == before, "resolving must not modify the request"


def test_there_is_something_to_mangle() -> None:
    assert len(EXAMPLES) >= 3

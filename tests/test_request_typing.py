"""``rules.decode_request`` reads a request dict as its typed request by writing it back to JSON and
decoding that (``rules.registry._typed``, for speed). These tests hold it to what
``msgspec.convert(strict=True)`` answered before: the same request, or the same refusal word for word.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

import rules
from rules.registry import SYSTEMS, _typed

HERE = Path(__file__).parent
COVERAGE: dict[str, Any] = json.loads((HERE / "i18n" / "coverage_requests.json").read_text("utf-8"))
BAD: dict[str, Any] = json.loads((HERE / "i18n" / "bad_requests.json").read_text("utf-8"))


def _variants(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The request and hostile edits of it: values JSON carries awkwardly or that break the schema."""
    out = [request]
    for value in (10**30, -(10**30), 2**63, 1e308, -1e308, 3.0, "3", None, True, [], {}, "", "x" * 1000):
        for field in ("targets", "weapon", "attacker", "mode", "shots", "skill", "distance", "dice"):
            out.append({**request, field: value})
        attacker = request.get("attacker")
        if isinstance(attacker, dict):
            out.append({**request, "attacker": {**attacker, "skill": value, "bs": value}})
        targets = request.get("targets")
        if isinstance(targets, list) and targets and isinstance(targets[0], dict):
            out.append({**request, "targets": [{**targets[0], "distance": value, "range": value}]})
    out.append({**request, "distnce": 5})
    return out


CASES = [
    pytest.param(request, id=name)
    for name, request in {**COVERAGE, **{k: v["request"] for k, v in BAD.items()}}.items()
    if isinstance(request, dict) and request.get("system") in SYSTEMS
]


def _outcome(read: Any, obj: dict[str, Any], request_type: Any) -> tuple[str, Any]:
    try:
        return "ok", msgspec.to_builtins(read(obj, request_type))
    except msgspec.ValidationError as error:
        return "refused", str(error)


@pytest.mark.parametrize("request_json", CASES)
def test_typed_reads_a_request_exactly_as_convert_did(request_json: dict[str, Any]) -> None:
    system = SYSTEMS[request_json["system"]]
    for variant in _variants(request_json):
        obj = {**variant, "action": variant.get("action", system.default_action)}
        before = _outcome(lambda o, t: msgspec.convert(o, t, strict=True), obj, system.request_type)
        assert _outcome(_typed, obj, system.request_type) == before, variant


def test_a_request_json_cannot_write_is_still_read() -> None:
    """A key JSON cannot write (only Python can build it) takes the conversion path, and says why."""
    request = {**COVERAGE["d100/point_blank_range"], 7: "seven"}
    with pytest.raises(rules.RuleError):
        rules.decode_request(request)


def _decoded(data: Any, view: dict[str, Any] | None = None) -> tuple[str, Any]:
    try:
        return "ok", msgspec.to_builtins(rules.decode_request(data, view=view))
    except rules.RuleError as error:
        return "refused", (error.code, error.path, error.msg)


@pytest.mark.parametrize("request_json", CASES)
def test_a_request_decoded_once_from_its_bytes_reads_as_its_dict_did(request_json: dict[str, Any]) -> None:
    """Issue 38: the bridge hands the rules the request's own bytes, decoded once into the typed
    request; every request and hostile variant comes out the same, or is refused in the same words at
    the same path, as the dict the bridge used to decode first (with and without its ``action``);
    also when the bridge's dict of the same text picks the type (``view``) instead of a first pass."""
    for variant in _variants(request_json):
        for request in (variant, {key: value for key, value in variant.items() if key != "action"}):
            text = json.dumps(request).encode()
            spaced = json.dumps(request, indent=1).encode()  # JSON's own whitespace, newlines too
            expected = _decoded(request)
            assert _decoded(text) == expected, request
            assert _decoded(spaced) == expected, request
            assert _decoded(msgspec.Raw(text)) == expected, request
            assert _decoded(msgspec.Raw(text), view=json.loads(text)) == expected, request

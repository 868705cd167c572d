"""What the rules and the card actually say, checked against the declarations and the catalogues.

Every message found in a reply must be declared (``test_catalogues.py`` holds the catalogues to the
declarations), carry exactly the values declared for it, and give each of its texts, in every
language, every value the text reads. The replies come from

* every example request and every recorded action request, each rolled with many seeds;
* the recorded sessions in ``tests/replays/`` (two-step attacks included);
* ``coverage_requests.json``: scripted requests that reach the rarer lines (a grenade fumbled in melee,
  a blast scattering to each point of the compass, a botched repair...);
* a hypothesis fuzz over changed examples.

Together the deterministic sources must emit every declared key, so no text waits for a message that
no request can produce.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from catalogue_kit import (
    REQUESTS,
    ROOT,
    declared_errors,
    declared_messages,
    emitted,
    leaf_paths,
    message_catalogues,
    placeholders,
    set_at,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from bridge.i18n import LANGUAGES, Catalogue
from bridge.resolution import reply_for

RECORDINGS = sorted((ROOT / "tests" / "replays").glob("*.jsonl"))
COVERAGE: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "coverage_requests.json").read_text()
)
#: Declared texts no request of today's systems can reach, each with why it is kept.
UNREACHABLE = {
    # The card's title for a request naming neither an attacker nor a target: since #31 every system
    # refuses an empty token id, so none can be resolved; the bridge knows no mechanics and keeps it.
    "common.card.someone",
}
#: Seeds each example is rolled with: enough to reach hits, misses, criticals and jams.
SEEDS = range(60)


@cache
def _declared() -> dict[str, frozenset[str]]:
    """The declarations, read once: they are fixed while the tests run (``declared_messages`` rebuilds
    them on every call, and a run checks tens of thousands of messages)."""
    return declared_messages()


@cache
def _templates() -> dict[str, dict[str, frozenset[str]]]:
    """Per language, the value names each text reads."""
    return {
        language: {key: frozenset(name for name, _, _ in placeholders(text)) for key, text in texts.items()}
        for language, texts in message_catalogues().items()
    }


def check_message(message: Mapping[str, Any], where: str) -> str:
    """One emitted message against its declaration and its texts; returns its key."""
    key = message["key"]
    declared = _declared()
    assert key in declared, f"{where}: {key} is not declared by any system or the card"
    values = set(message["values"])
    assert values == declared[key], (
        f"{where}: {key} carries {sorted(values)}, declared {sorted(declared[key])}"
    )
    for language, reads in _templates().items():
        missing = reads[key] - values
        assert not missing, f"{where}: the {language} text of {key} reads {sorted(missing)}, not given"
    return key


def check_reply(reply: Mapping[str, Any], where: str) -> set[str]:
    """Every text field of a reply is a message, every message is sound; the keys seen."""
    card, result = reply["card"], reply["result"]
    for text in (card["title"], card["system_title"], *card.get("log", []), *result["log"]):
        assert isinstance(text, dict) and "key" in text, f"{where}: {text!r} is not a message"
    assert all(isinstance(roll["for"], dict) for roll in result["rolls"]), where
    messages = list(emitted(reply))
    keys = {check_message(message, where) for message in messages}
    for language in LANGUAGES:
        catalogue = Catalogue.load(language)
        for message in messages:
            text = catalogue.render(message)
            assert "{" not in text and message["key"] not in text, f"{where}: {language} {text!r}"
    return keys


def _reply(id: str, request: dict[str, Any], seed: int) -> dict[str, Any] | None:
    decoded = rules.decode_request(request)
    try:
        result = rules.resolve(decoded, rules.dice_for(decoded, seed))
    except rules.RuleError:
        return None  # a seed whose dice a script does not fit; refusals say nothing to translate
    reply: dict[str, Any] = msgspec.json.decode(reply_for(id, request, result)[1])
    return reply


def _sources() -> Iterator[tuple[str, dict[str, Any]]]:
    for path in REQUESTS:
        request = json.loads(path.read_text())
        for seed in SEEDS if "dice" not in request else (0,):
            reply = _reply(path.stem, request, seed)
            if reply is not None:
                yield f"{path.parent.name}/{path.name} seed {seed}", reply
    for recording in RECORDINGS:
        for number, line in enumerate(recording.read_text().splitlines(), start=1):
            record = json.loads(line)
            if record.get("kind") == "resolved":
                yield f"{recording.name}:{number}", record["reply"]
    for name, request in COVERAGE.items():
        reply = _reply(name, request, 0)
        assert reply is not None, f"coverage request {name} is refused"
        yield f"coverage {name}", reply


def test_every_message_said_is_declared_complete_and_has_its_values() -> None:
    seen: set[str] = set()
    for where, reply in _sources():
        seen |= check_reply(reply, where)
    # Refusals are never in a reply's result: test_errors.py holds them to their texts.
    never = sorted(set(declared_messages()) - set(declared_errors()) - seen - UNREACHABLE)
    assert never == [], (
        f"declared, with texts, but no request emits them (add one to coverage_requests.json): {never}"
    )


@pytest.mark.parametrize("name", COVERAGE, ids=str)
def test_each_coverage_request_is_exact(name: str) -> None:
    """Each coverage request is resolved with exactly its scripted dice (no leftovers, no shortfall)."""
    decoded = rules.decode_request(COVERAGE[name])
    assert rules.resolve(decoded, rules.dice_for(decoded, 0)).rolls is not None


@st.composite
def changed_examples(draw: st.DrawFn) -> dict[str, Any]:
    request = copy.deepcopy(json.loads(draw(st.sampled_from(REQUESTS)).read_text()))
    request.pop("dice", None)
    for path in draw(st.lists(st.sampled_from(leaf_paths(request, (int,)) or [("none",)]), max_size=3)):
        if path == ("none",):
            break
        set_at(request, path, draw(st.integers(min_value=-3, max_value=120)))
    return request


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changed_examples(), st.integers(min_value=0, max_value=2**32))
def test_fuzzed_requests_say_only_declared_complete_messages(request: dict[str, Any], seed: int) -> None:
    try:
        reply = _reply("fuzz", request, seed)
    except rules.RuleError:
        return
    if reply is not None:
        check_reply(reply, f"fuzz {json.dumps(request)[:200]} seed {seed}")

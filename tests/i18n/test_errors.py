"""Refusals in the user's language (docs/i18n.md, "Refusals").

A ``RuleError`` carries its refusal as a message (``msg``) and keeps ``message``, the English the
rules have always said. These tests hold the two together: the English catalogue renders every
refusal exactly as ``message`` reads (checked on real bad requests whose ``message`` was recorded
before refusals became messages), every refusal has a text in every language, and every raise site in
``rules/`` refuses with a declared message rather than a sentence.
"""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from catalogue_kit import (
    REQUESTS,
    ROOT,
    declared_errors,
    leaf_paths,
    message_catalogues,
    placeholders,
    set_at,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from bridge.i18n import LANGUAGES, Catalogue
from rules import errors
from rules.errors import RuleError, validation_message
from rules.messages import ErrorKind, english_text
from rules.results import Message

#: Bad requests across the three systems, each with the path and the English ``message`` it was
#: refused with before refusals were messages (so a change to the English shows here).
BAD_REQUESTS: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "bad_requests.json").read_text()
)


def _refusal(request: Any) -> RuleError:
    with pytest.raises(RuleError) as refused:
        decoded = rules.decode_request(request)
        rules.resolve(decoded, rules.dice_for(decoded, 0))
    return refused.value


def _says_a_result_line(value: Any) -> bool:
    return isinstance(value, Message) and english_text(value.key) is None


def check_refusal(error: RuleError, where: str) -> None:
    """A refusal is a declared message with exactly its values; English renders to ``message``, and
    every language renders it without a gap (no placeholder left, no bare key)."""
    assert error.msg is not None, f"{where}: refused with a bare sentence: {error.message!r}"
    kind = declared_errors().get(error.msg.key)
    assert kind is not None, f"{where}: {error.msg.key} is not a declared refusal"
    assert set(error.msg.values) == kind.value_names, where
    if not any(_says_a_result_line(value) for value in error.msg.values.values()):
        # What a scripted die was for is a result's message: ``message`` names it by key and values,
        # a catalogue in words ("to-hit vs Ganger"); every other refusal reads the same both ways.
        assert Catalogue.load("en").render(error.msg) == error.message, where
    plain = msgspec.json.decode(msgspec.json.encode(error.msg))  # as a client receives it
    for language in LANGUAGES:
        text = Catalogue.load(language).render(plain)
        assert text and "{" not in text and error.msg.key not in text, f"{where}: {language} {text!r}"


@pytest.mark.parametrize("name", BAD_REQUESTS, ids=str)
def test_english_catalogue_says_what_message_always_said(name: str) -> None:
    case = BAD_REQUESTS[name]
    error = _refusal(case["request"])
    assert (error.path, error.message) == (case["path"], case["message"])
    check_refusal(error, name)
    assert Catalogue.load("ru").render(error.msg) != error.message, f"{name}: no Russian"


def test_bad_requests_cover_each_system_and_the_shared_refusals() -> None:
    keys = {_refusal(case["request"]).msg.key for case in BAD_REQUESTS.values()}  # type: ignore[union-attr]
    for prefix in (*rules.SYSTEMS, "common"):
        assert sum(key.startswith(prefix + ".") for key in keys) >= 3, prefix


def test_a_russian_refusal_reads_in_russian() -> None:
    russian = Catalogue.load("ru")
    assert (
        russian.render(validation_message("Expected `int`, got `str`"))
        == "ожидается целое число, а не строка"
    )
    assert (
        russian.render(validation_message("Expected `str` of length <= 64"))
        == "ожидается строка длиной <= 64"
    )
    assert russian.render(validation_message("Expected `float` >= 0.0")) == "ожидается число >= 0.0"
    over_rof = _refusal(BAD_REQUESTS["gurps_shots_over_rof"]["request"])
    assert russian.render(over_rof.msg) == "14 выстрелов — больше СС 10"
    jammed = _refusal(BAD_REQUESTS["gurps_jammed"]["request"])
    assert russian.render(jammed.msg) == "MP5: заклинило (задержка), сначала устраните неисправность"
    short = _refusal(BAD_REQUESTS["d100_short_magazine"]["request"])
    assert russian.render(short.msg) == "Длинная Очередь: нужно патронов 10, а в магазине 1"
    slung = _refusal(BAD_REQUESTS["mt_slung_fast_draw"]["request"])
    assert russian.render(slung.msg).startswith("быстрое выхватывание — только пистолета из кобуры")
    assert "снять оружие с плеча (unsling)" in russian.render(slung.msg)


def test_every_refusal_has_its_declared_english_in_the_english_catalogue() -> None:
    english = message_catalogues()["en"]
    for key, kind in declared_errors().items():
        assert english.get(key) == kind.english, f"{key}: the catalogue and the declaration disagree"
        for name, _, _ in placeholders(kind.english):
            assert name in kind.value_names, f"{key}: {{{name}}} is not a value it carries"


def _rule_modules() -> list[Path]:
    return sorted(p for p in (ROOT / "rules").rglob("*.py") if p.name != "errors.py")


def test_rules_refuse_with_declared_messages_never_with_sentences() -> None:
    """A string literal or f-string as a RuleError's message would reach a Russian table in English."""
    sentences = []
    for module in _rule_modules():
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError":
                said = node.args[1] if len(node.args) > 1 else None
                if isinstance(said, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                    sentences.append(f"{module.relative_to(ROOT)}:{node.lineno}")
    assert sentences == []


def test_every_shared_refusal_is_used() -> None:
    """Each shared refusal (``rules/errors.py``) is raised somewhere: as ``errors.NAME`` by the rules
    or the CLI, or by ``rules/errors.py``'s own mapping of msgspec's messages."""
    elsewhere = "".join(
        p.read_text(encoding="utf-8") for p in [*_rule_modules(), *(ROOT / "bridge").rglob("*.py")]
    )
    mapping = (ROOT / "rules" / "errors.py").read_text(encoding="utf-8").split("def validation_message", 1)[1]
    shared = [name for name, value in vars(errors).items() if isinstance(value, ErrorKind)]
    assert len(shared) + len(errors.TYPE_WORDS) == len(errors.COMMON_ERRORS)
    unused = [name for name in shared if f"errors.{name}(" not in elsewhere and f"{name}(" not in mapping]
    assert unused == []


def word(name: str) -> Message:
    """A type's name as the word a refusal carries."""
    return Message(key=f"common.error.type.{name}", values={})


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        (
            "Expected `int`, got `str`",
            "common.error.wrong_type",
            {"expected": word("int"), "got": word("str")},
        ),
        (
            "Expected `int | null`, got `str`",
            "common.error.wrong_type",
            {"expected": "int | null", "got": word("str")},
        ),
        (
            "Expected `int` >= 1",
            "common.error.out_of_range",
            {"expected": word("int"), "bound_op": ">=", "bound": "1"},
        ),
        (
            "Expected `float` <= 100.0",
            "common.error.out_of_range",
            {"expected": word("float"), "bound_op": "<=", "bound": "100.0"},
        ),
        (
            "Expected `str` of length <= 64",
            "common.error.bad_length",
            {"expected": word("str"), "bound_op": "<=", "bound": "64"},
        ),
        ("Object missing required field `skill`", "common.error.missing_field", {"field": "skill"}),
        ("Object contains unknown field `x`", "common.error.unknown_field", {"field": "x"}),
        ("Invalid enum value 'laser'", "common.error.unknown_value", {"value": "'laser'", "allowed": []}),
        (
            "Expected `str` matching regex '^a$'",
            "common.error.invalid",
            {"detail": "Expected `str` matching regex '^a$'"},
        ),
    ],
)
def test_msgspec_validation_messages_map_to_shared_keys(text: str, key: str, values: dict[str, Any]) -> None:
    message = validation_message(text)
    assert (message.key, message.values) == (key, values)
    assert Catalogue.load("en").render(message) == text


def test_a_refusal_survives_pickling_with_its_message() -> None:
    """Rules workers hand refusals across processes."""
    import pickle

    error = _refusal(BAD_REQUESTS["gurps_shots_over_rof"]["request"])
    copied = pickle.loads(pickle.dumps(error))
    assert (copied.path, copied.msg, copied.message, copied.code) == (
        error.path,
        error.msg,
        error.message,
        error.code,
    )


def test_a_system_without_refusal_messages_still_refuses_in_english() -> None:
    error = RuleError("$.x", "a plain sentence", code="invalid")
    assert (error.msg, error.message, str(error)) == (None, "a plain sentence", "$.x: a plain sentence")


@st.composite
def broken_requests(draw: st.DrawFn) -> dict[str, Any]:
    """An example or action request with up to three of its numbers or strings changed to something
    that is often out of bounds, of the wrong type, or not one of the field's values."""
    request = copy.deepcopy(json.loads(draw(st.sampled_from(REQUESTS)).read_text()))
    request.pop("dice", None)
    for path in draw(st.lists(st.sampled_from(leaf_paths(request, (int, str))), min_size=1, max_size=3)):
        set_at(
            request,
            path,
            draw(
                st.one_of(
                    st.integers(min_value=-5, max_value=300), st.sampled_from(["", "x", "S/3", "1d", None])
                )
            ),
        )
    return request


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_requests(), st.integers(min_value=0, max_value=2**32))
def test_fuzzed_refusals_are_declared_and_read_in_every_language(request: dict[str, Any], seed: int) -> None:
    try:
        decoded = rules.decode_request(request)
        rules.resolve(decoded, rules.dice_for(decoded, seed))
    except RuleError as error:
        check_refusal(error, f"{json.dumps(request)[:200]} seed {seed}")

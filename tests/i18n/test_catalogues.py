"""The catalogues against what the code declares it can say (docs/i18n.md), without running anything.

Both ways: every message the rules or the card can emit has a text in every language, and every text
belongs to a message something emits; every placeholder a text uses is a value its message carries;
plural forms come in the number the language has. ``test_emitted.py`` checks the same at run time.
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest
from catalogue_kit import (
    ROOT,
    cli_catalogues,
    declared_cli,
    declared_messages,
    message_catalogues,
    placeholders,
    rule_vocabularies,
)

import rules
from bridge.i18n import LANGUAGES, Catalogue
from rules.messages import MessageKind
from rules.results import Message

#: How many plural forms each language's ``{n|...}`` takes (CLDR: English one/other, Russian one/few/many).
PLURAL_FORMS = {"en": 2, "ru": 3}


def _difference(wanted: set[str], have: set[str]) -> str:
    missing, extra = sorted(wanted - have), sorted(have - wanted)
    return f"missing texts: {missing}; texts nothing emits: {extra}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_has_a_text_and_every_text_a_message(language: str) -> None:
    declared = set(declared_messages())
    have = set(message_catalogues()[language])
    assert have == declared, _difference(declared, have)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_cli_word_has_a_text_and_every_text_a_use(language: str) -> None:
    declared = set(declared_cli())
    have = set(cli_catalogues()[language])
    assert have == declared, _difference(declared, have)


def test_keys_start_with_their_system_and_none_is_a_prefix_of_another() -> None:
    keys = sorted(declared_messages())
    for key in keys:
        assert key.split(".")[0] in {*rules.SYSTEMS, "common"}, key
        assert key == key.lower() and " " not in key, key
    for key in keys:
        # Foundry expands dotted keys into nested objects: "a.b" and "a.b.c" cannot both exist.
        assert not any(other.startswith(key + ".") for other in keys), key
    for system, vocabulary in rule_vocabularies().items():
        assert all(kind.key.startswith(system + ".") for kind in vocabulary), system


def _texts() -> list[tuple[str, str, str, frozenset[str]]]:
    declared = {**declared_messages(), **declared_cli()}
    catalogues = message_catalogues()
    for language, texts in cli_catalogues().items():
        catalogues[language] = {**catalogues[language], **texts}
    return [
        (language, key, template, declared[key])
        for language, texts in catalogues.items()
        for key, template in texts.items()
        if key in declared
    ]


TEXTS = _texts()


@pytest.mark.parametrize(
    ("language", "key", "template", "names"), TEXTS, ids=[f"{t[0]}:{t[1]}" for t in TEXTS]
)
def test_a_text_uses_only_the_values_its_message_carries(
    language: str, key: str, template: str, names: frozenset[str]
) -> None:
    for name, kind, parts in placeholders(template):
        assert name in names, f"{language} {key}: {{{name}}} is not one of {sorted(names)}"
        if kind == "plural":
            assert len(parts) == PLURAL_FORMS[language], (
                f"{language} {key}: {{{name}|...}} needs {PLURAL_FORMS[language]} forms"
            )
        if kind == "choice":
            assert len(parts) == 2, f"{language} {key}: {{{name}?yes|no}} needs both branches"
    assert template.strip() == template and template, f"{language} {key}: empty or padded"


def test_every_value_a_message_carries_is_read_by_some_text_or_is_data() -> None:
    """A value no text reads is allowed (it is there for the module or for tests), but a signed value
    whose ``_signed`` form is never used means a text prints a modifier without its sign."""
    catalogues = message_catalogues()
    for key, names in declared_messages().items():
        for name in names:
            if name.endswith("_signed"):
                continue
            signed = name + "_signed"
            if signed in names:
                used = {
                    n
                    for template in (c[key] for c in catalogues.values())
                    for n, _, _ in placeholders(template)
                }
                assert name not in used or signed in used, f"{key}: {name} printed without its sign"


def test_each_system_names_every_action_but_its_default() -> None:
    """The card titles an action by ``<system>.action.<action>`` (bridge/card.py)."""
    for name, system in rules.SYSTEMS.items():
        members = typing.get_args(system.request_type) or (system.request_type,)
        actions = {str(member.__struct_config__.tag) for member in members} - {system.default_action}
        titles = {
            key.removeprefix(f"{name}.action.")
            for key in declared_messages()
            if key.startswith(f"{name}.action.")
        }
        assert titles == actions, name


def _messages_modules() -> list[Path]:
    return sorted((ROOT / "rules").glob("*/messages.py"))


def test_every_declared_message_is_built_somewhere() -> None:
    """A declaration nothing uses would be a catalogue text nothing emits: each constant of a system's
    messages module is used by its rules (``msg.NAME``) or by a helper in the module itself. The action
    names are built by the card from the action (``bridge.card.action_name``), checked just above; the
    run-time test (test_emitted.py) then sees every one of them emitted."""
    assert _messages_modules()
    for module in _messages_modules():
        text = module.read_text(encoding="utf-8")
        tree = ast.parse(text)
        names = [
            target.id
            for node in tree.body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name) and target.id not in {"MESSAGES", "ACTION", "__all__"}
        ]
        helpers = "".join(
            ast.get_source_segment(text, node) or ""
            for node in tree.body
            if isinstance(node, ast.FunctionDef)
        )
        rules_text = "".join(p.read_text(encoding="utf-8") for p in module.parent.glob("*.py") if p != module)
        unused = [name for name in names if f"msg.{name}" not in rules_text and name not in helpers]
        assert unused == [], f"{module.relative_to(ROOT)}: declared but never built: {unused}"


@pytest.mark.parametrize("how", ["called", "make"])
def test_a_message_checks_the_values_it_is_given(how: str) -> None:
    declared = MessageKind("test.line", names=("target",), signed=("modifier",))
    kind = declared if how == "called" else declared.make  # ``make``: the same, as a plain function
    assert kind(target="Cultist", modifier=-20) == Message(
        "test.line", {"target": "Cultist", "modifier": -20, "modifier_signed": "-20"}
    )
    assert kind(target="Cultist", modifier=20).values["modifier_signed"] == "+20"
    with pytest.raises(TypeError, match=r"message test\.line: missing values \[.modifier.\]"):
        kind(target="Cultist")
    with pytest.raises(TypeError, match="unexpected values \\['roll'\\]"):
        kind(target="Cultist", modifier=0, roll=5)
    with pytest.raises(TypeError, match="must be an integer"):
        kind(target="Cultist", modifier="-20")
    plain = MessageKind("test.plain", names=("target",))
    make = plain if how == "called" else plain.make
    assert make(target="Cultist") == Message("test.plain", {"target": "Cultist"})
    with pytest.raises(TypeError, match=r"message test\.plain: missing values \[.target.\], unexpected"):
        make(who="Cultist")


def test_russian_plurals_read_right_in_a_real_message() -> None:
    russian = Catalogue.load("ru")
    hits = [
        russian.message("megatraveller.fire.target_hits", {"target": "g1", "hits": n}) for n in (1, 2, 5, 21)
    ]
    assert hits == ["g1: 1 попадание", "g1: 2 попадания", "g1: 5 попаданий", "g1: 21 попадание"]

"""Shared by the catalogue tests: what the code declares it can say, what the catalogues hold, and the
placeholders a template uses (docs/i18n.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import rules
from bridge.card import CARD, system_title
from bridge.cli.card_text import CLI
from bridge.i18n import LANGUAGES, MESSAGE_PREFIX, closing_brace, parse_placeholder
from rules.errors import COMMON_ERRORS
from rules.messages import ErrorKind, Vocabulary
from rules.results import Message

ROOT = Path(__file__).resolve().parents[2]
MESSAGES_DIR = ROOT / "vtt_module" / "lang"
LOCALE_DIR = ROOT / "bridge" / "locale"
#: Every request the repository keeps, what the fuzz tests change: the docs' examples, then the recorded
#: action requests.
REQUESTS = [
    *sorted((ROOT / "docs" / "examples").glob("*/*.json")),
    *sorted((ROOT / "tests" / "replays" / "requests").glob("*/*.json")),
]


def leaf_paths(obj: Any, kinds: tuple[type, ...], path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of a request's values of ``kinds`` (never booleans, never the request itself): the
    fields a fuzz test changes."""
    if isinstance(obj, bool):
        return []
    if isinstance(obj, kinds) and path:
        return [path]
    if isinstance(obj, dict):
        return [p for key, value in obj.items() for p in leaf_paths(value, kinds, (*path, key))]
    if isinstance(obj, list):
        return [p for index, value in enumerate(obj) for p in leaf_paths(value, kinds, (*path, index))]
    return []


def set_at(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    """Put ``value`` at ``path`` (from ``leaf_paths``) inside ``obj``."""
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def rule_vocabularies() -> dict[str, Vocabulary]:
    """Each system's declared messages, by system name."""
    out = {}
    for name, system in rules.SYSTEMS.items():
        assert system.messages is not None, f"{name} declares no messages (RuleSystem.messages)"
        out[name] = system.messages
    return out


def declared_messages() -> dict[str, frozenset[str]]:
    """Every key the rules and the card can emit, with the names of the values it carries."""
    declared: dict[str, frozenset[str]] = {}
    for vocabulary in [*rule_vocabularies().values(), COMMON_ERRORS, CARD]:
        for kind in vocabulary:
            assert kind.key not in declared, f"{kind.key} declared twice"
            declared[kind.key] = kind.value_names
    for name in rules.SYSTEMS:
        declared[system_title(name).key] = frozenset()
    return declared


def declared_errors() -> dict[str, ErrorKind]:
    """Every refusal the rules can give (``Vocabulary.error``), the shared ones included, by key."""
    return {
        kind.key: kind
        for vocabulary in [*rule_vocabularies().values(), COMMON_ERRORS]
        for kind in vocabulary
        if isinstance(kind, ErrorKind)
    }


def declared_cli() -> dict[str, frozenset[str]]:
    return {kind.key: kind.value_names for kind in CLI}


def read_catalogue(path: Path, prefix: str = "") -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path} is not a JSON object"
    for key in data:
        assert key.startswith(prefix), f"{path}: {key} lacks the prefix {prefix!r}"
    return {key.removeprefix(prefix): value for key, value in data.items()}


def message_catalogues() -> dict[str, dict[str, str]]:
    """``vtt_module/lang/messages.<lang>.json`` for every language, keys without ``VOLLEY.Msg.``."""
    return {
        language: read_catalogue(MESSAGES_DIR / f"messages.{language}.json", MESSAGE_PREFIX)
        for language in LANGUAGES
    }


def cli_catalogues() -> dict[str, dict[str, str]]:
    return {language: read_catalogue(LOCALE_DIR / f"cli.{language}.json") for language in LANGUAGES}


def placeholders(template: str) -> Iterator[tuple[str, str, list[str]]]:
    """Every placeholder of a template, nested ones included: (name, kind, its forms or branches),
    read by the renderer's own parser (``bridge.i18n.parse_placeholder``).

    ``kind`` is ``value`` (``{n}``), ``plural`` (``{n|one|other}``) or ``choice`` (``{n?yes|no}``).
    Unbalanced braces, which the renderer would print as they are, are an error here.
    """
    index = 0
    while index < len(template):
        if template[index] == "}":
            raise ValueError(f"a stray }} in {template!r}")
        if template[index] != "{":
            index += 1
            continue
        end = closing_brace(template, index)
        if end < 0:
            raise ValueError(f"unbalanced braces in {template!r}")
        name, kind, parts = parse_placeholder(template[index + 1 : end])
        yield name, kind, parts
        for part in parts:
            yield from placeholders(part)
        index = end + 1


def emitted(value: Any) -> Iterator[Mapping[str, Any]]:
    """Every message object in decoded JSON (a reply, a result), nested ones included."""
    if isinstance(value, Message):
        value = {"key": value.key, "values": value.values}
    if isinstance(value, Mapping):
        if isinstance(value.get("key"), str) and isinstance(value.get("values"), Mapping):
            yield value
        for item in value.values():
            yield from emitted(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from emitted(item)

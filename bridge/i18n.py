"""Words for the terminal: the CLI's catalogue of messages in English and Russian (docs/i18n.md).

The rules emit messages (a key and values); this module turns them into text. One catalogue per
language is assembled from

* the rules' message texts, shared with the Foundry module (``vtt_module/lang/messages.<lang>.json``,
  keys ``VOLLEY.Msg.<key>``), so a card in the VTT and a line of ``volley show`` say the same thing;
* the CLI's own words (``bridge/locale/*.<lang>.json``: headings, the session report...).

The template language is deliberately tiny (a value, a plural form, a yes/no choice) and is mirrored
by the module's JavaScript renderer; ``tests/i18n/format_vectors.json`` keeps the two in step.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import locale
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from bridge.module.assets import module_dir
from rules.template import (
    DECIMAL_MARK,
    closing_brace,
    format_template,
    parse_placeholder,
    plural_form,
    render_value,
    split_top,
)

__all__ = [
    "DECIMAL_MARK",
    "LANGUAGES",
    "MESSAGE_PREFIX",
    "Catalogue",
    "add_language",
    "closing_brace",
    "default_language",
    "format_template",
    "parse_placeholder",
    "plural_form",
    "render_value",
    "split_top",
]

#: Languages with a complete catalogue; the first is the fallback for any missing text.
LANGUAGES = ("en", "ru")
#: How the module's lang files namespace the rules' messages.
MESSAGE_PREFIX = "VOLLEY.Msg."

_LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(variable, "")
        if value:
            code = value.split(":")[0].split(".")[0].split("_")[0].lower()
            return code if code in LANGUAGES else LANGUAGES[0]
    with contextlib.suppress(ValueError):
        code = (locale.getlocale()[0] or "").split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return LANGUAGES[0]


def add_language(parser: argparse.ArgumentParser, what: str = "text") -> None:
    """The ``--lang`` option of a command that writes words (``volley show``, ``volley roll --text``,
    ``volley report``): the language of its ``what``."""
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=default_language(),
        help=f"language of the {what} "
        "(default: from the locale, LC_ALL / LC_MESSAGES / LANG; now %(default)s)",
    )


@dataclass
class Catalogue:
    """The texts of one language, with English behind it for anything missing."""

    language: str
    texts: dict[str, str] = field(default_factory=dict)
    fallback: Catalogue | None = None

    def text(self, key: str) -> str | None:
        found = self.texts.get(key)
        if found is None and self.fallback is not None:
            return self.fallback.text(key)
        return found

    def message(self, key: str, values: Mapping[str, Any] | None = None) -> str:
        """Render the message ``key``; a missing text shows the key and its values."""
        values = values or {}
        template = self.text(key)
        if template is None:
            shown = ", ".join(f"{name}={render_value(v, self.language, self)}" for name, v in values.items())
            return f"{key}({shown})" if shown else key
        return format_template(template, values, self.language, self)

    def render(self, message: Any) -> str:
        """A message as a dict ``{"key", "values"}`` or a struct with ``key``/``values``; text as is."""
        if isinstance(message, str):
            return message
        if isinstance(message, Mapping):
            return self.message(str(message.get("key", "")), message.get("values") or {})
        key = getattr(message, "key", None)
        if isinstance(key, str):
            return self.message(key, getattr(message, "values", None) or {})
        return str(message)

    @classmethod
    def load(cls, language: str) -> Catalogue:
        """The catalogue for ``language`` (an unknown language gets English)."""
        return _load(language if language in LANGUAGES else LANGUAGES[0])


def _read_json(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a catalogue is a JSON object")
    return {str(key): str(value) for key, value in data.items()}


def catalogue_files(language: str) -> list[Path]:
    """Every file that makes up ``language``'s CLI catalogue (for loading and for the tests)."""
    files = [module_dir() / "lang" / f"messages.{language}.json"]
    if _LOCALE_DIR.is_dir():
        files.extend(sorted(_LOCALE_DIR.glob(f"*.{language}.json")))
    return files


@cache
def _load(language: str) -> Catalogue:
    texts: dict[str, str] = {}
    for path in catalogue_files(language):
        if not path.exists():
            continue
        for key, value in _read_json(path).items():
            texts[key.removeprefix(MESSAGE_PREFIX)] = value
    fallback = None if language == LANGUAGES[0] else _load(LANGUAGES[0])
    return Catalogue(language=language, texts=texts, fallback=fallback)

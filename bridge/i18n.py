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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

from bridge.assets import module_dir

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
#: Each language's decimal separator (the CLI's numbers and the report's).
DECIMAL_MARK = {"en": ".", "ru": ","}


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


def plural_form(language: str, number: float, forms: Sequence[str]) -> str:
    """The CLDR plural form of ``number``: English one/other, Russian one/few/many (fractions: 2nd)."""
    if not forms:
        return ""
    if number != int(number):
        index = 1
    elif language == "ru":
        n = abs(int(number))
        if n % 10 == 1 and n % 100 != 11:
            index = 0
        elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            index = 1
        else:
            index = 2
    else:
        index = 0 if abs(number) == 1 else 1
    return forms[min(index, len(forms) - 1)]


def _number(value: float, language: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    # Half away from zero on the exact binary value: what JavaScript's toFixed(2) does, so the module
    # and the CLI print the same digits.
    text = str(Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)).rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text.replace(".", DECIMAL_MARK.get(language, "."))


def split_top(text: str, separator: str) -> list[str]:
    """Split ``text`` on ``separator`` where it is not inside braces."""
    parts: list[str] = []
    depth = 0
    start = 0
    for index, char in enumerate(text):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts


def closing_brace(template: str, start: int) -> int:
    """Index of the brace closing the one at ``start``, or -1."""
    depth = 0
    for index in range(start, len(template)):
        if template[index] == "{":
            depth += 1
        elif template[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return -1


def format_template(
    template: str, values: Mapping[str, Any], language: str, catalogue: Catalogue | None = None
) -> str:
    """Fill ``template`` (docs/i18n.md) with ``values`` in ``language``."""
    out: list[str] = []
    index = 0
    while index < len(template):
        char = template[index]
        if char != "{":
            out.append(char)
            index += 1
            continue
        end = closing_brace(template, index)
        if end < 0:
            out.append(template[index:])
            break
        body = template[index + 1 : end]
        out.append(_placeholder(body, values, language, catalogue))
        index = end + 1
    return "".join(out)


def parse_placeholder(body: str) -> tuple[str, str, list[str]]:
    """A placeholder's inside (between its braces) as (name, kind, its forms or branches).

    ``kind`` is ``value`` (``{n}``, no parts), ``plural`` (``{n|one|other}``) or ``choice``
    (``{n?yes|no}``). The catalogue tests read templates with this too, so what they check is what
    the renderer does.
    """
    cut = min((body.find(mark) for mark in "|?" if mark in body), default=len(body))
    name, rest = body[:cut].strip(), body[cut:]
    if rest.startswith("?"):
        return name, "choice", split_top(rest[1:], "|")
    if rest.startswith("|"):
        return name, "plural", split_top(rest[1:], "|")
    return name, "value", []


def _placeholder(body: str, values: Mapping[str, Any], language: str, catalogue: Catalogue | None) -> str:
    name, kind, parts = parse_placeholder(body)
    if name not in values:
        return "{" + body + "}"
    value = values[name]
    if kind == "choice":
        chosen = parts[0] if value else (parts[1] if len(parts) > 1 else "")
        return format_template(chosen, values, language, catalogue)
    if kind == "plural":
        number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0
        return format_template(plural_form(language, number, parts), values, language, catalogue)
    return render_value(value, language, catalogue)


def render_value(value: Any, language: str, catalogue: Catalogue | None = None) -> str:
    """One value as text: numbers in the language's style, lists joined, nested messages rendered."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return _number(value, language)
    if isinstance(value, Mapping) and isinstance(value.get("key"), str):
        if catalogue is None:
            return str(value["key"])
        return catalogue.render(value)
    if hasattr(value, "key") and hasattr(value, "values") and isinstance(value.key, str):
        return render_value({"key": value.key, "values": value.values}, language, catalogue)
    if isinstance(value, (list, tuple)):
        return ", ".join(render_value(item, language, catalogue) for item in value)
    return str(value)


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

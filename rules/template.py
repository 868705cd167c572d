"""The template language of Volley's messages (docs/i18n.md): a value, a plural form, a yes/no choice.

It lives with the rules because a refusal (``rules.errors.RuleError``) renders its English ``message``
from the same kind of template a catalogue holds, so the English a refusal has always said and the
English catalogue's text for it are one text read by one renderer. ``bridge.i18n`` adds the catalogues;
the module's JavaScript renderer mirrors this one (``tests/i18n/format_vectors.json`` keeps them in step).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Protocol

__all__ = [
    "DECIMAL_MARK",
    "Renders",
    "closing_brace",
    "format_template",
    "parse_placeholder",
    "plural_form",
    "render_value",
    "split_top",
]

_JS_SPECIAL = {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN"}

#: Each language's decimal separator (the CLI's numbers and the report's).
DECIMAL_MARK = {"en": ".", "ru": ","}


class Renders(Protocol):
    """What renders a nested message (a catalogue)."""

    def render(self, message: Any) -> str: ...


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


#: From this size on, JavaScript writes a number in exponent form ("1e+21"), and so does this renderer.
_EXPONENT_FROM = 1e21


def _number(value: float, language: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value) or abs(value) >= _EXPONENT_FROM:
        # What JavaScript's String() says of such a number (every float this large is whole, so the
        # module prints it as an integer, with no decimal mark): "1e+308", "Infinity". Two decimals of
        # it would need 300 digits, more than Decimal's context holds (it raised InvalidOperation).
        return _JS_SPECIAL.get(str(value), repr(value))
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
    template: str, values: Mapping[str, Any], language: str, catalogue: Renders | None = None
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


def _placeholder(body: str, values: Mapping[str, Any], language: str, catalogue: Renders | None) -> str:
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


def render_value(value: Any, language: str, catalogue: Renders | None = None) -> str:
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

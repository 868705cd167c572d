"""Text a terminal shows but cannot act on: what the CLI prints from requests and journals.

A target's name, a referee's user id, an old journal's log line or a session file's name come from
outside, and may hold control sequences: ``ESC ] 0 ; ... BEL`` retitles the terminal window, ``ESC [ 2 J``
clears it, U+202E (right-to-left override) makes the rest of a line read backwards. ``volley show``,
``sessions``, ``replay`` and ``roll --text`` print such text escaped, as Python writes it in a string
literal: every C0 control (newline and tab included: a name cannot start a line of its own), DEL, every
C1 control, and the Unicode bidi controls (``\\x1b``, ``\\u202e``). Everything else, any script and any
emoji, is shown as it is.

Two layers: :class:`InertCatalogue` escapes each value before it goes into a message, so a newline in a
name is shown as ``\\n``; :class:`InertWriter` escapes whatever else reaches the terminal except the
line breaks the CLI itself writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, TextIO, cast

from bridge.i18n import Catalogue

__all__ = ["InertCatalogue", "InertWriter", "inert", "inert_catalogue", "inert_output"]

#: DEL, the C1 controls; the Arabic letter mark, LRM/RLM, the line and paragraph separators, the bidi
#: embeddings and overrides (U+202A-E) and isolates (U+2066-9).
_BEYOND_C0 = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x1f{_BEYOND_C0}]")
#: The same but the newline: what is left to escape in a line the CLI wrote itself.
_UNSAFE_IN_LINES = re.compile(f"[\x00-\x09\x0b-\x1f{_BEYOND_C0}]")


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str) -> str:
    """``text`` with every control and bidi character escaped (``\\x1b``, ``\\n``, ``\\u202e``)."""
    return _UNSAFE.sub(_escaped, text)


def _inert_value(value: Any) -> Any:
    """A message's value made inert: text escaped, lists item by item; nested messages are escaped
    when they are rendered (through the same catalogue), numbers and flags are left as they are."""
    if isinstance(value, str):
        return inert(value)
    if isinstance(value, (list, tuple)):
        return [_inert_value(item) for item in value]
    return value


class InertCatalogue(Catalogue):
    """A catalogue for the terminal: the same texts, with every value and every plain text escaped."""

    def message(self, key: str, values: Mapping[str, Any] | None = None) -> str:
        escaped = {name: _inert_value(value) for name, value in (values or {}).items()}
        return super().message(inert(key), escaped)

    def render(self, message: Any) -> str:
        if isinstance(message, str):  # a format-1 journal's English line, a status Volley does not know
            return inert(message)
        return super().render(message)


def inert_catalogue(catalogue: Catalogue) -> InertCatalogue:
    """``catalogue`` (its language, texts and fallback) for the terminal."""
    if isinstance(catalogue, InertCatalogue):
        return catalogue
    return InertCatalogue(language=catalogue.language, texts=catalogue.texts, fallback=catalogue.fallback)


class InertWriter:
    """A text stream that escapes every control and bidi character written to it but the newline.

    The last guard: the values in what is written were escaped already (``inert``, ``InertCatalogue``);
    this catches whatever was not, such as a file name in a line of the CLI's own.
    """

    def __init__(self, out: TextIO) -> None:
        self._out = out

    def write(self, text: str) -> int:
        self._out.write(_UNSAFE_IN_LINES.sub(_escaped, text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._out.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._out, name)


def inert_output(out: TextIO) -> TextIO:
    """``out`` behind an :class:`InertWriter`, typed as the stream the printers take."""
    return cast(TextIO, InertWriter(out))

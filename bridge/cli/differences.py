"""Two decoded JSON replies compared leaf by leaf (``differences``), and what a format-1 journal's
comparison leaves out: the English text its replies carried (``TEXT_FIELDS``, ``without_text``).
A difference holds no more of a value than a report prints."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

__all__ = [
    "LAST_TEXT_FORMAT",
    "TEXT_FIELDS",
    "Difference",
    "differences",
    "differing",
    "small",
    "without_text",
]


@dataclass(frozen=True)
class Difference:
    path: str
    recorded: Any
    replayed: Any

    def __str__(self) -> str:
        return f"{self.path}: recorded {_show(self.recorded)}, replayed {_show(self.replayed)}"


_MISSING = object()
#: The longest a value is shown (a longer one is cut, with "...").
_SHOWN_CHARS = 120


def _show(value: Any) -> str:
    if value is _MISSING:
        return "(absent)"
    if isinstance(value, _Shown):
        return str(value)
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


def differences(recorded: Any, replayed: Any, path: str = "$") -> list[Difference]:
    """Every leaf where two decoded JSON values differ, in document order."""
    return list(differing(recorded, replayed, path))


def differing(recorded: Any, replayed: Any, path: str) -> Iterator[Difference]:
    """``differences``, one at a time: a caller that shows ten never builds the millionth."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in list(recorded) + [k for k in replayed if k not in recorded]:
            yield from differing(recorded.get(key, _MISSING), replayed.get(key, _MISSING), f"{path}.{key}")
        return
    if isinstance(recorded, list) and isinstance(replayed, list):
        for index in range(max(len(recorded), len(replayed))):
            left = recorded[index] if index < len(recorded) else _MISSING
            right = replayed[index] if index < len(replayed) else _MISSING
            yield from differing(left, right, f"{path}[{index}]")
        return
    if recorded is replayed or (type(recorded) is type(replayed) and recorded == replayed):
        return
    yield Difference(path, recorded, replayed)


class _Shown(str):
    """A value too big to keep, kept as the text a report prints for it."""


def small(value: Any) -> Any:
    """``value`` if it is small, else what ``_show`` prints of it: a report holds no more than it prints."""
    if value is _MISSING or value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str) and len(value) <= _SHOWN_CHARS:
        return value
    return _Shown(_show(value))


#: What protocol 1 wrote as English text and protocol 2 writes as messages: a result's ``log`` and each
#: roll's ``for``; a card's ``title``, ``system_title`` and ``log``; a d100 check's ``note`` and a
#: suppression's ``reason``; a GURPS unjam attempt's ``time``.
TEXT_FIELDS = frozenset({"log", "for", "title", "system_title", "note", "reason", "time"})
#: The last journal format whose replies carried English text.
LAST_TEXT_FORMAT = 1


def without_text(value: Any) -> Any:
    """``value`` (decoded JSON) with every :data:`TEXT_FIELDS` member removed, at any depth."""
    if isinstance(value, dict):
        return {key: without_text(item) for key, item in value.items() if key not in TEXT_FIELDS}
    if isinstance(value, list):
        return [without_text(item) for item in value]
    return value

"""The one error a request can raise: it names the field and the rule it broke.

Every layer above (CLI, bridge, VTT) shows ``path`` and ``message`` to the user as they are, so a
message must read like a referee's ruling: "shots 12 > RoF 10", not "ValueError".
"""

from __future__ import annotations

import re

import msgspec

__all__ = ["RuleError", "from_validation", "split_validation"]


class RuleError(Exception):
    """A request that cannot be resolved as asked; nothing was rolled or spent.

    ``path`` is a JSON path into the request (``$.weapon.rof``); ``code`` says what kind of problem it
    is: ``json`` (not JSON at all), ``invalid`` (wrong shape or type), ``rule`` (a game rule forbids it)
    or ``dice`` (scripted dice that do not fit the request).
    """

    def __init__(self, path: str, message: str, *, code: str = "rule") -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message
        self.code = code


_AT_PATH = re.compile(r"^(?P<message>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.DOTALL)
_MISSING_FIELD = re.compile(r"Object missing required field `(?P<field>[^`]+)`")


def split_validation(error: msgspec.ValidationError | msgspec.DecodeError) -> tuple[str, str]:
    """msgspec's "Expected `int`, got `str` - at `$.weapon.rof`" as (message, path).

    msgspec reports a missing field at the object that lacks it; the path here points at the field
    itself (``$.attacker.skill``), which is where a user has to look.
    """
    match = _AT_PATH.match(str(error))
    assert match is not None  # the pattern matches any string
    message, path = match.group("message"), match.group("path") or "$"
    missing = _MISSING_FIELD.fullmatch(message)
    if missing is not None:
        path = f"{path}.{missing.group('field')}"
    return message, path


def from_validation(error: msgspec.ValidationError | msgspec.DecodeError) -> RuleError:
    """A msgspec validation error as a RuleError (code ``invalid``) naming the field's path."""
    message, path = split_validation(error)
    return RuleError(path, message, code="invalid")

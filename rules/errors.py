"""The one error a request can raise: it names the field and the rule it broke.

Every layer above (CLI, bridge, VTT) shows ``path`` and ``message`` to the user as they are, so a
message must read like a referee's ruling: "shots 12 > RoF 10", not "ValueError".
"""

from __future__ import annotations

import re

import msgspec

__all__ = ["RuleError", "from_validation"]


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


def from_validation(error: msgspec.ValidationError | msgspec.DecodeError) -> RuleError:
    """Turn msgspec's "Expected `int`, got `str` - at `$.weapon.rof`" into a RuleError."""
    match = _AT_PATH.match(str(error))
    assert match is not None  # the pattern matches any string
    path = match.group("path") or "$"
    return RuleError(path, match.group("message"), code="invalid")

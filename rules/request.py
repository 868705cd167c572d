"""The base every request type shares.

Requests are frozen ``msgspec.Struct``s tagged on ``action`` (msgspec's ``asyncio-kv`` pattern: one
union per system, one typed decode). ``dice`` optionally scripts the faces, in the order the rule text
rolls them; the bridge refuses it unless the referee allowed scripted dice.

Every request type, and every Struct nested in one, refuses a field it does not declare
(``forbid_unknown_fields``): a typo must be refused with its path named, never resolved with the
default the misspelt field would have overridden. Old journals are read with
``rules.decode_request(..., lenient=True)``.
"""

from __future__ import annotations

import msgspec

__all__ = ["RequestBase"]


class RequestBase(
    msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True, tag_field="action", gc=False
):
    dice: list[int] | None = None

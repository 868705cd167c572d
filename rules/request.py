"""The base every request type shares.

Requests are frozen ``msgspec.Struct``s tagged on ``action`` (msgspec's ``asyncio-kv`` pattern: one
union per system, one typed decode). ``dice`` optionally scripts the faces, in the order the rule text
rolls them; the bridge refuses it unless the referee allowed scripted dice.
"""

from __future__ import annotations

import msgspec

__all__ = ["RequestBase"]


class RequestBase(msgspec.Struct, kw_only=True, frozen=True, tag_field="action"):
    dice: list[int] | None = None

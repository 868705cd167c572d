"""Rate of fire in the book's notation: ``S/3/10``, ``S/2/-``, ``-/-/6`` (seed 004, "Shooting").

Three positions: single shot (``S`` or a dash), the short-burst RoF and the long-burst RoF. Printed
rulebooks use an en or em dash for a missing position; all three dashes are read the same.
"""

from __future__ import annotations

from functools import lru_cache

import msgspec

from rules.d100 import messages as msg
from rules.errors import RuleError

__all__ = ["MAX_ROF", "POSITION_NAMES", "RateOfFire", "parse_rof"]

_DASHES = {"-", "\u2013", "\u2014", "\u2212"}
#: No weapon of the family fires more per attack; larger numbers are typing mistakes.
MAX_ROF = 100
#: What each position is called in an error message.
POSITION_NAMES = ("single-shot", "short-burst", "long-burst")


class RateOfFire(msgspec.Struct, frozen=True):
    """``single`` is True when the weapon may fire single shots; a burst position is None when absent."""

    single: bool
    short: int | None
    long: int | None
    text: str

    def position(self, index: int) -> int | None:
        """RoF at position 0, 1 or 2 (a single shot is RoF 1)."""
        if index == 0:
            return 1 if self.single else None
        return self.short if index == 1 else self.long

    @property
    def highest(self) -> int:
        return max((value for value in (self.position(i) for i in range(3)) if value is not None), default=0)


@lru_cache(maxsize=256)
def parse_rof(text: str, path: str = "$.weapon.rof") -> RateOfFire:
    """Read the notation once per distinct text (the live preview asks again and again)."""
    parts = [part.strip() for part in text.split("/")]
    if len(parts) != 3:
        raise RuleError(path, msg.ERR_ROF_POSITIONS(rof=repr(text)), code="invalid")
    first, *bursts = parts
    if first.upper() == "S":
        single = True
    elif first in _DASHES:
        single = False
    else:
        raise RuleError(path, msg.ERR_ROF_FIRST(rof=repr(text), first=repr(first)), code="invalid")
    values: list[int | None] = []
    for name, part in zip(POSITION_NAMES[1:], bursts, strict=True):
        if part in _DASHES:
            values.append(None)
        elif part.isascii() and part.isdigit() and 0 < int(part) <= MAX_ROF:
            values.append(int(part))
        else:
            refusal = msg.ERR_ROF_VALUE(rof=repr(text), position=msg.POSITION_WORD[name](), most=MAX_ROF)
            raise RuleError(path, refusal)
    return RateOfFire(single=single, short=values[0], long=values[1], text=text)

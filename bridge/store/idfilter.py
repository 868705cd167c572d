"""A fixed-size Bloom filter of the request ids the ledger holds: "certainly new" without a disk look-up.

Almost every request carries a fresh id, and asking SQLite whether an id was answered costs a few
microseconds warm and tens when the process was idle (the figures are in docs/performance.md). The
filter answers "never seen" from memory for nearly all of them; "maybe" sends the look-up on to the
index. Its size is fixed (``BITS``), so memory does not grow with history: only the false-positive
rate does, gracefully (about 1 in 10^6 at 100,000 ids, 2% at a million, and at worst every look-up
goes to the index, as without a filter).

Python's ``hash`` of a string is the hash; it is salted per process, which is fine for a filter that
lives in memory and is rebuilt from the index, a slice at a time, after each start.
"""

from __future__ import annotations

__all__ = ["BITS", "IdFilter"]

#: 2**23 bits: one MiB.
BITS = 1 << 23
#: Bits set per id.
HASHES = 4

_MASK = BITS - 1


class IdFilter:
    """Ids added can be tested for; a negative answer is certain, a positive one only likely."""

    def __init__(self) -> None:
        self._bits = bytearray(BITS // 8)
        #: Whether every id of the index has been added yet (until then, every answer is "maybe").
        self.complete = False

    def add(self, id: str) -> None:
        h = hash(id)
        step = (h >> 23) | 1
        bits = self._bits
        for _ in range(HASHES):
            position = h & _MASK
            bits[position >> 3] |= 1 << (position & 7)
            h += step

    def add_all(self, ids: list[str]) -> None:
        for id in ids:
            self.add(id)

    def may_hold(self, id: str) -> bool:
        if not self.complete:
            return True
        h = hash(id)
        bits = self._bits
        position = h & _MASK  # the first bit, on its own: for a new id (nearly every request) it is 0
        if not bits[position >> 3] & (1 << (position & 7)):
            return False
        step = (h >> 23) | 1
        h += step
        for _ in range(HASHES - 1):
            position = h & _MASK
            if not bits[position >> 3] & (1 << (position & 7)):
                return False
            h += step
        return True

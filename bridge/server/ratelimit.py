"""Flood control: token buckets per relayed player, a cap per connection, and quiet warnings.

Only the elected GM's browser talks to the bridge; it relays for the whole table. A table of six
players each dragging a slider in the attack dialog sends six paced streams of ``odds`` through
that one socket, while the referee fires. So the limit is kept **per relayed user** (the ``user`` a
message names; messages without one share the connection's own bucket): ``RATE`` messages a second
sustained and bursts of ``BURST`` each. One player flooding is refused without touching the others'
buckets. Above them the connection has its own cap, ``TABLE_SHARE`` players at full speed, so a
client inventing a new ``user`` per message still cannot flood the bridge.

Beyond a limit a message is answered with ``rate_limited`` and the connection stays open. Warnings
about it go through ``OncePerInterval``, one log line per interval with a count, never one per frame.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["BURST", "MAX_USERS", "RATE", "TABLE_SHARE", "OncePerInterval", "RelayLimits", "TokenBucket"]

#: Sustained messages per second per relayed user (and for the connection's own messages).
RATE = 20.0
#: Messages one user may send at once after a quiet spell.
BURST = 40
#: The connection's own cap is this many users at full speed: a big table, with room to spare.
TABLE_SHARE = 10
#: Buckets one connection keeps; more users than this share one overflow bucket.
MAX_USERS = 64

Clock = Callable[[], float]


class TokenBucket:
    __slots__ = ("_clock", "_full", "_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float = RATE, burst: int = BURST, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._full = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self._full, self._tokens + (now - self._last) * self.rate)
        self._last = now

    def take(self) -> bool:
        """Spend one token if there is one; ``False`` means refuse this message."""
        return self.take_at(self._clock())

    def take_at(self, now: float) -> bool:
        """``take`` with the clock already read (every frame spends from two buckets: one read)."""
        tokens = self._tokens + (now - self._last) * self.rate
        if tokens > self._full:  # noqa: PLR1730 - min() is a call, and this is every frame, twice
            tokens = self._full
        self._last = now
        if tokens >= 1.0:
            self._tokens = tokens - 1.0
            return True
        self._tokens = tokens
        return False

    def give_back(self) -> None:
        """Undo a ``take`` whose message was refused further on, so a refusal costs nothing here."""
        self._tokens = min(self._full, self._tokens + 1.0)

    @property
    def rested(self) -> bool:
        """Full again: forgetting this bucket and starting a fresh one changes nothing."""
        self._refill()
        return self._tokens >= self.burst


@dataclass(frozen=True)
class Refusal:
    """Which limit refused a message, worded for the ``rate_limited`` error."""

    user: str | None
    message: str


class RelayLimits:
    """The limits of one connection: a bucket per relayed user, and the connection's own cap.

    The user's bucket is asked first; only a message it lets through spends from the connection's
    cap, so a player who floods uses up their own bucket and never the others' share of the cap.
    The set of buckets is bounded (``max_users``): when it is full, buckets that have refilled are
    forgotten (they hold no debt), and if none has, the newcomer shares one overflow bucket.
    """

    OVERFLOW = "\x00overflow"

    def __init__(
        self,
        rate: float = RATE,
        burst: int = BURST,
        *,
        connection_rate: float | None = None,
        connection_burst: int | None = None,
        max_users: int = MAX_USERS,
        clock: Clock = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_users = max_users
        self._clock = clock
        self._users: dict[str | None, TokenBucket] = {}
        self.connection = TokenBucket(
            connection_rate if connection_rate is not None else rate * TABLE_SHARE,
            connection_burst if connection_burst is not None else burst * TABLE_SHARE,
            clock,
        )

    def admit(self, user: str | None) -> Refusal | None:
        """``None`` to serve the message, else the limit that refuses it."""
        bucket = self._users.get(user)
        if bucket is None:
            bucket = self._bucket(user)
        now = self._clock()  # both buckets keep this clock (``__init__``)
        if not bucket.take_at(now):
            who = "messages without a user" if user is None else f"user {user!r}"
            return Refusal(user, f"{who}: more than {self.rate:g} messages/s (burst {self.burst}); slow down")
        if not self.connection.take_at(now):
            bucket.give_back()
            return Refusal(
                user,
                f"this connection: more than {self.connection.rate:g} messages/s "
                f"(burst {self.connection.burst}) for the whole table; slow down",
            )
        return None

    @property
    def users(self) -> int:
        return len(self._users)

    def _bucket(self, user: str | None) -> TokenBucket:
        bucket = self._users.get(user)
        if bucket is not None:
            return bucket
        if len(self._users) >= self.max_users:
            for key in [key for key, known in self._users.items() if known.rested]:
                del self._users[key]
        if len(self._users) >= self.max_users:
            user = self.OVERFLOW
            bucket = self._users.get(user)
            if bucket is not None:
                return bucket
        bucket = TokenBucket(self.rate, self.burst, self._clock)
        self._users[user] = bucket
        return bucket


class OncePerInterval:
    """One log line per interval for a repeated event, with how many times it happened.

    ``due()`` counts an occurrence and returns how many there were since the last line when a new
    line is due (the first occurrence is reported at once), else ``None``. ``total`` counts them all.
    """

    def __init__(self, interval: float, clock: Clock = time.monotonic) -> None:
        self.interval = interval
        self.total = 0
        self._held = 0
        self._next = -math.inf
        self._clock = clock

    def due(self) -> int | None:
        self.total += 1
        self._held += 1
        now = self._clock()
        if now < self._next:
            return None
        self._next = now + self.interval
        count, self._held = self._held, 0
        return count

    @property
    def held(self) -> int:
        """Occurrences since the last line (not yet reported)."""
        return self._held

"""Per-connection flood control: a token bucket.

A referee's client sends a handful of requests per turn, plus a burst of ``odds`` while a player drags
a slider in the attack dialog. The bucket allows ``RATE`` messages a second on average and bursts of
``BURST``; beyond that each message is answered with a ``rate_limited`` error instead of being served,
and the connection stays open.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["BURST", "RATE", "TokenBucket"]

#: Sustained messages per second per connection.
RATE = 20.0
#: Messages a connection may send at once after a quiet spell.
BURST = 40


class TokenBucket:
    def __init__(
        self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def take(self) -> bool:
        """Spend one token if there is one; ``False`` means refuse this message."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

"""Flood control by the clock: token buckets, per-player limits on one relayed connection, quiet warnings."""

from __future__ import annotations

from bridge.server.ratelimit import OncePerInterval, RelayLimits, TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_token_bucket_allows_bursts_then_the_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(rate=20, burst=40, clock=clock)
    assert sum(bucket.take() for _ in range(50)) == 40
    clock.now += 0.5  # half a second refills ten
    assert sum(bucket.take() for _ in range(50)) == 10
    clock.now += 100  # never more than the burst
    assert sum(bucket.take() for _ in range(100)) == 40


def test_each_relayed_player_has_a_bucket_of_their_own() -> None:
    limits = RelayLimits(rate=20, burst=40, clock=Clock())
    assert sum(limits.admit("flooder") is None for _ in range(100)) == 40
    refusal = limits.admit("flooder")
    assert refusal is not None and refusal.message.startswith("user 'flooder': more than 20 messages/s")
    # The others, and the connection's own messages, still have their whole burst.
    for user in ("p1", "p2", None):
        assert sum(limits.admit(user) is None for _ in range(40)) == 40
    refusal = limits.admit(None)
    assert refusal is not None and refusal.message.startswith("messages without a user")


def test_a_refused_message_does_not_spend_the_connections_cap() -> None:
    limits = RelayLimits(rate=20, burst=40, connection_rate=20, connection_burst=50, clock=Clock())
    for _ in range(1000):
        limits.admit("flooder")  # 40 served, 960 refused by the user's own bucket
    assert sum(limits.admit("p1") is None for _ in range(40)) == 10  # the cap had 50: 40 + 10
    refusal = limits.admit("p2")
    assert refusal is not None and refusal.message.startswith("this connection: more than 20 messages/s")
    # ...and p2's bucket got its token back: it is whole again when the cap refills.
    assert limits._bucket("p2")._tokens == 40


def test_the_connection_cap_defaults_to_a_tables_worth_of_players() -> None:
    limits = RelayLimits(rate=20, burst=40)
    assert (limits.connection.rate, limits.connection.burst) == (200, 400)


def test_the_buckets_are_bounded_and_rested_ones_are_forgotten_first() -> None:
    clock = Clock()
    limits = RelayLimits(rate=10, burst=2, max_users=3, clock=clock)
    for user in ("a", "b", "c"):
        assert limits.admit(user) is None
    assert limits.users == 3
    # All three are in debt: a fourth and fifth user share the overflow bucket (burst 2 between them).
    assert limits.admit("d") is None and limits.admit("e") is None
    assert limits.admit("d") is not None
    assert limits.users == 4  # three users and the shared overflow
    clock.now += 1.0  # everyone has refilled: a newcomer replaces the rested buckets
    assert limits.admit("f") is None
    assert limits.users == 1


def test_once_per_interval_reports_the_first_then_counts() -> None:
    clock = Clock()
    throttle = OncePerInterval(10, clock)
    assert throttle.due() == 1
    assert [throttle.due() for _ in range(5)] == [None] * 5
    clock.now += 10
    assert throttle.due() == 6  # the five held back, and this one
    assert throttle.total == 7 and throttle.held == 0

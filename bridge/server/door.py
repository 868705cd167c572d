"""Who may come in, as the operator set it: the host and origin policy, the connection caps and the
request deadline (``volley serve``'s options). What each part does with it: ``bridge.server.entrance``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Door"]


@dataclass(frozen=True)
class Door:
    """Who gets in: the host and origin policy, the connection caps and the request deadline."""

    #: Accept any Host header (set with ``--allow-remote``: the bridge is meant to be reached by name).
    allow_remote: bool = False
    #: Origins allowed to open the websocket (``scheme://host[:port]``); empty means any origin.
    allow_origins: tuple[str, ...] = ()
    #: Sockets open at once, authenticated or not.
    max_connections: int = 256
    #: Of those, sockets that have not yet authenticated; the oldest is closed to make room.
    max_strangers: int = 64
    #: Seconds to complete an HTTP request (or a TLS handshake) after connecting or after a response.
    request_timeout: float = 5.0
    #: Seconds between two log lines about turned-away connections, refused hosts and the like.
    warning_interval: float = 10.0

    def __post_init__(self) -> None:
        if not 1 <= self.max_strangers < self.max_connections:
            raise ValueError(
                f"max_strangers must be at least 1 and below max_connections ({self.max_connections}) so "
                f"that a token holder always has a slot, not {self.max_strangers}"
            )
        if not self.request_timeout > 0:
            raise ValueError(f"request_timeout must be more than 0 s, not {self.request_timeout}")

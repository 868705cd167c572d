"""Host and Origin: which names a request may give for the bridge, and which web pages may open its
websocket.

Every HTTP request must name a loopback host (``localhost``, a loopback address, or the address it
arrived on) unless ``--allow-remote``: a DNS-rebinding page names its own host and is refused. A
websocket upgrade's ``Origin`` must be in ``--allow-origin`` when that list is given (a request
without ``Origin`` is not from a browser and passes); with no list every origin passes. Pure checks:
the middleware that applies them is ``bridge.server.entrance``.
"""

from __future__ import annotations

import ipaddress

from yarl import URL

__all__ = ["host_allowed", "normal_origin", "origin_allowed"]


def _host_name(header: str) -> str:
    """``[::1]:8765`` -> ``::1``, ``Localhost.:80`` -> ``localhost``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    if header.count(":") == 1:
        header = header.partition(":")[0]
    return header.rstrip(".")


def host_allowed(header: str | None, arrived_on: str | None) -> bool:
    """A loopback name or address, or the address the request arrived on (DNS rebinding names neither)."""
    if not header:
        return False
    name = _host_name(header)
    if name == "localhost" or name.endswith(".localhost"):
        return True  # RFC 6761: browsers resolve these to loopback themselves, never through DNS
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if address.is_loopback:
        return True
    try:
        return arrived_on is not None and ipaddress.ip_address(arrived_on) == address
    except ValueError:
        return False


def normal_origin(origin: str) -> str:
    """``HTTP://Foundry.Example:80/`` -> ``http://foundry.example``; ``ValueError`` if not an origin."""
    if origin.strip().lower() == "null":
        return "null"
    url = URL(origin.strip())
    if not url.scheme or not url.host or url.path not in ("", "/") or url.query_string or url.fragment:
        raise ValueError(f"not an origin (scheme://host[:port]): {origin!r}")
    port = "" if url.explicit_port is None or url.is_default_port() else f":{url.explicit_port}"
    host = f"[{url.host}]" if ":" in url.host else url.host
    return f"{url.scheme.lower()}://{host.lower()}{port}"


def origin_allowed(origin: str | None, allowed: frozenset[str]) -> bool:
    if not allowed or origin is None:
        return True  # no list given; or not a browser (browsers always send Origin on a websocket)
    try:
        return normal_origin(origin) in allowed
    except ValueError:
        return False

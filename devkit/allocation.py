"""How the recordings and the report's synthetic sessions share out a two-step attack's pool.

A MegaTraveller attack sent with ``"allocation": "defer"`` comes back ``pending`` with its pool rolled;
the player then says who gets what. Test data needs one fixed way to say it: ``simple_allocation``.
It is test data, not a rule: the bridge knows nothing of pools, and the rules check any split sent.
"""

from __future__ import annotations

from typing import Any

__all__ = ["simple_allocation"]


def simple_allocation(pending: dict[str, Any], targets: int) -> list[Any]:
    """Clusters dealt round the targets in order (automatic and controlled fire), or every bullet to
    the first target (rapid and burst fire)."""
    if pending.get("clusters") is not None:
        dealt: list[list[int]] = [[] for _ in range(targets)]
        for index in range(len(pending["clusters"])):
            dealt[index % targets].append(index)
        return dealt
    return [pending.get("bullets", 0)] + [0] * (targets - 1)

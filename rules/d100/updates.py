"""Token updates: new absolute values for every token whose state an action changed.

Flags live under the module's namespace: ``weapon.loaded``, ``weapon.jammed``, ``weapon.spoiled``,
``weapon.braced``, ``weapon.reserve``, ``overwatch`` (the standing order, or null) and ``cover.ap``;
statuses are ``suppressed`` and ``prone``. Values are absolute, so applying an update twice is harmless.
"""

from __future__ import annotations

from typing import Any

from rules.d100.requests import Target, Weapon
from rules.d100.results import D100Target, D100Weapon
from rules.results import TokenUpdate

__all__ = ["target_update", "token_update", "weapon_changes"]


def weapon_changes(before: Weapon, after: D100Weapon) -> dict[str, Any]:
    """The weapon flags that differ from the request's."""
    pairs: list[tuple[str, Any, Any]] = [
        ("weapon.loaded", before.loaded, after.loaded),
        ("weapon.jammed", before.jammed, after.jammed),
        ("weapon.spoiled", before.spoiled, after.spoiled),
        ("weapon.braced", before.braced, after.braced),
        ("weapon.reserve", before.reserve, after.reserve),
    ]
    return {name: new for name, old, new in pairs if old != new}


def token_update(token: str, state: dict[str, Any], add: list[str], remove: list[str]) -> TokenUpdate | None:
    if not (state or add or remove):
        return None
    return TokenUpdate(token=token, state=state, statuses_add=add, statuses_remove=remove)


def target_update(before: Target, after: D100Target) -> TokenUpdate | None:
    add = [
        name
        for name, old, new in (
            ("suppressed", before.suppressed, after.suppressed),
            ("prone", before.prone, after.prone),
        )
        if new and not old
    ]
    remove = [
        name
        for name, old, new in (
            ("suppressed", before.suppressed, after.suppressed),
            ("prone", before.prone, after.prone),
        )
        if old and not new
    ]
    state: dict[str, Any] = {}
    if after.cover_ap is not None and after.cover_ap != before.cover_ap:
        state["cover.ap"] = after.cover_ap
    return token_update(before.id, state, add, remove)

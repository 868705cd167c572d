"""What one attack makes is not tracked by Python's cycle collector (``gc=False`` structs: see
``rules/results.py``): the request, the result and its messages and rolls, the card, the journal line."""

from __future__ import annotations

import gc
from typing import Any

import msgspec

from bridge import resolution
from bridge.card import build_card
from bridge.protocol import Attack
from bridge.store.lines import Entry, line_time
from devkit.serve import GURPS_MP5
from rules.results import Message, Roll


def _structs(value: Any) -> list[Any]:
    """Every struct in ``value``, depth first."""
    found: list[Any] = []
    if isinstance(value, msgspec.Struct):
        found.append(value)
        for name in value.__struct_fields__:
            found.extend(_structs(getattr(value, name)))
    elif isinstance(value, (list, tuple)):
        for item in value:
            found.extend(_structs(item))
    elif isinstance(value, dict):
        for item in value.values():
            found.extend(_structs(item))
    return found


def test_an_attacks_structs_are_not_tracked() -> None:
    request = resolution.decode(GURPS_MP5, id="a1")
    result = resolution.resolve(request, resolution.dice_for(request, 7), id="a1")
    card = build_card(GURPS_MP5, result, default_action="attack")
    entry = Entry(
        id="a1", type="attack", at=line_time(), outcome="result", request=GURPS_MP5, seed=7,
        dice=None, pending_id=None, reply=msgspec.Raw(b"{}"),
    )  # fmt: skip
    made = [Attack(id="a1", request=GURPS_MP5), entry, *_structs(request), *_structs(result), *_structs(card)]
    kinds = {type(struct) for struct in made}
    assert Message in kinds and Roll in kinds and len(made) > 20
    assert [type(struct).__name__ for struct in made if gc.is_tracked(struct)] == []

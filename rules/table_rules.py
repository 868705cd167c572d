"""Table rules: the readings a referee may choose for the whole table, declared once per system.

Where a seed is silent or ambiguous, Volley picks a reading and names it (docs/rules/<system>.md). Some
of those readings a request may override (``split_dm_counts``, ``dodge_step``, ``range_modifiers``...);
a few belong to the VTT module (the shape of MegaTraveller's danger space, whether a d100 overwatch
order ends at its shooter's next turn). Each system declares all of them here, in one table
(``RuleSystem.table_rules``), and everything that shows or checks a table rule reads that table:

* the module's "Table rules" menu and its merge of the world setting ``tableRules`` into each request
  (``vtt_module/scripts/table-rules/readings.js`` is written from :func:`export`, and a test holds it
  to this table);
* the chat card, ``volley show`` and the session report, which list the readings a request changed
  (:func:`changed`, put on the card by ``bridge/card.py``, so the journal carries them). The module's
  own readings reach a request as its ``module_readings`` field (:data:`MODULE_READINGS`), which the
  rules ignore: the request is only their record;
* ``volley table-rules``, which prints the table as JSON.

A reading whose value equals its default is not a change: a request that spells out Volley's own
reading says nothing on the card.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rules.results import Message

__all__ = ["MODULE_READINGS", "Kind", "Owner", "Reading", "changed", "export", "readings_of"]

#: The request field where the referee's browser reports the module's own readings the table changed
#: (``{<field>: value}``, declared by each system's requests for the actions in ``Reading.actions``):
#: the rules never read it, the card lists it with the rest.
MODULE_READINGS = "module_readings"

#: Who applies a reading: the rules engine (a request field) or the VTT module (before a request exists).
Owner = Literal["rules", "module"]
#: How a reading's value is chosen: one of ``choices``; a whole number in ``minimum..maximum``; on or
#: off; or a whole number per member of ``members`` (each in ``minimum..maximum``).
Kind = Literal["choice", "integer", "boolean", "bands"]


@dataclass(frozen=True)
class Reading:
    """One reading a table may change.

    ``field`` is the request's own field name (for a rules reading) or the module's name for it (a
    request reports it inside ``module_readings``); ``actions`` the request actions that carry it (the
    module merges it into those only); ``reading`` where docs/rules/<system>.md explains it. ``says``
    turns a value that differs from ``default`` into the messages a card lists for it.
    """

    field: str
    owner: Owner
    kind: Kind
    default: Any
    says: Callable[[Any], list[Message]]
    reading: str
    actions: tuple[str, ...] = ()
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    members: tuple[str, ...] = ()

    def differs(self, value: Any) -> bool:
        """Whether ``value`` (as a request carries it; None is the default) is not Volley's reading."""
        if value is None:
            return False
        if self.kind == "bands":
            if not isinstance(value, Mapping):
                return False
            return any(band in self.default and value[band] != self.default[band] for band in value)
        return bool(value != self.default)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "field": self.field,
            "owner": self.owner,
            "kind": self.kind,
            "default": self.default,
            "reading": self.reading,
            "actions": list(self.actions),
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.members:
            out["members"] = list(self.members)
        return out


def readings_of(system: str) -> Sequence[Reading]:
    """The system's declared table rules (none for a system that declares none)."""
    found = _systems().get(system)
    return () if found is None else found.table_rules


def changed(request: Mapping[str, Any]) -> list[Message]:
    """The readings ``request`` (the JSON object as sent) sets to something other than Volley's, as the
    messages a card lists; empty when it keeps every default. Only the fields of the request's own
    action count, and a value of the wrong shape says nothing (the rules refuse it before any card)."""
    system = request.get("system")
    if not isinstance(system, str):
        return []
    found = _systems().get(system)
    if found is None:
        return []
    action = request.get("action") or found.default_action
    if not isinstance(action, str):
        return []  # no reading names it
    readings, fields = _of_action(found, action)
    if MODULE_READINGS not in request and fields.isdisjoint(request):
        return []  # the usual request: it sets no reading, so every one is Volley's (a card each)
    out: list[Message] = []
    reported = request.get(MODULE_READINGS)
    module = reported if isinstance(reported, Mapping) else {}
    for reading in readings:
        value = request.get(reading.field) if reading.owner == "rules" else module.get(reading.field)
        try:
            if reading.differs(value):
                out.extend(reading.says(value))
        except (KeyError, TypeError, ValueError):
            continue
    return out


@functools.cache
def _systems() -> Mapping[str, Any]:
    """``rules.registry.SYSTEMS`` (whose module imports this one): imported once, not on every call."""
    from rules.registry import SYSTEMS

    return SYSTEMS


#: (id of a system, action) -> (the system, its readings for that action, their request fields).
_ACTIONS: dict[tuple[int, str], tuple[Any, tuple[Reading, ...], frozenset[str]]] = {}


def _of_action(system: Any, action: str) -> tuple[tuple[Reading, ...], frozenset[str]]:
    """The readings ``system`` declares for ``action``, and the request fields of its rules readings."""
    found = _ACTIONS.get((id(system), action))
    if found is None or found[0] is not system:
        readings = tuple(reading for reading in system.table_rules if action in reading.actions)
        fields = frozenset(reading.field for reading in readings if reading.owner == "rules")
        if not readings:
            return readings, fields  # not kept: only actions some reading names are (a bounded few)
        found = _ACTIONS[(id(system), action)] = (system, readings, fields)
    return found[1], found[2]


def export() -> dict[str, list[dict[str, Any]]]:
    """Every system's table, as JSON (what ``volley table-rules`` prints and the module is built from)."""
    systems = _systems()
    return {name: [reading.as_json() for reading in systems[name].table_rules] for name in sorted(systems)}

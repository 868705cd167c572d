"""The chat card: a structured summary of a result that the VTT module renders with its own template.

Built only from the fields every system's result shares (Avrae's lesson: resolve first, render after),
so the bridge stays ignorant of any system's mechanics: a title from who fired what, one row per
target with its hits, the weapon line, the statuses the result adds, and the rules engine's own log
lines. The module owns layout; this owns what is said, and says it in messages (docs/i18n.md), never in
words: the title is ``common.card.fires`` ("Kane fires MP5") or ``common.card.acts`` ("Kane: reload
(MP5)", the action named by the system's ``<system>.action.<action>``), and the system is named by
``common.system.<name>``, the title players know it by. The card's own messages are declared in
:data:`CARD`, so the catalogues can be checked against them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from rules.messages import Vocabulary, action_key
from rules.results import Message
from rules.table_rules import changed as changed_readings

__all__ = ["CARD", "Card", "CardRow", "WeaponLine", "action_name", "build_card", "system_title"]

#: The card's own words (keys ``common.card.*``); system titles are ``common.system.<name>``.
CARD = Vocabulary("common")
FIRES = CARD.message("card.fires", "who", "weapon")
ACTS = CARD.message("card.acts", "who", "action", "weapon")
SOMEONE = CARD.message("card.someone")


def system_title(name: str) -> Message:
    """The rule system as players know it ("GURPS 4e — rapid fire"), localised: ``common.system.<name>``."""
    return Message(key=f"common.system.{name}")


def action_name(system: str, action: str) -> Message:
    """What the card calls an action other than the system's default: ``<system>.action.<action>``,
    declared by the system itself (``Vocabulary.actions``)."""
    return Message(key=action_key(system, action))


class CardRow(msgspec.Struct, kw_only=True, gc=False):
    """One target's line on the card. The statuses it gains and loses are the result's updates for
    its token: a standalone card (and the older shape) lists them; a protocol-3 card refers to them."""

    target: str
    name: str | None
    hits: int
    statuses_add: list[str] | msgspec.UnsetType = msgspec.UNSET
    statuses_remove: list[str] | msgspec.UnsetType = msgspec.UNSET


class WeaponLine(msgspec.Struct, kw_only=True, gc=False):
    name: str | None
    loaded: int
    jammed: bool


class Card(msgspec.Struct, kw_only=True, gc=False):
    """What the module shows in chat for one result (or for the first step of a two-step attack)."""

    title: Message
    system: str
    system_title: Message
    action: str
    attacker: str | None
    weapon: WeaponLine | None
    rows: list[CardRow]
    #: Only on a card that stands alone (``volley roll --text``) or in a reply of the older shape
    #: (journal format 2): in a protocol-3 reply the log and the pool are the result's.
    log: list[Message] | msgspec.UnsetType = msgspec.UNSET
    pending: Any = msgspec.UNSET
    #: The table rules this request played by where they differ from Volley's readings
    #: (``rules.table_rules.changed``), so the card, ``volley show`` and the report can say so. Left
    #: out of the card when the request kept every reading, so older journals replay unchanged.
    table_rules: list[Message] | msgspec.UnsetType = msgspec.UNSET


def _name(request: Mapping[str, Any], key: str) -> str | None:
    part = request.get(key)
    if isinstance(part, (dict, Mapping)):  # a dict (almost always) is told without the ABC check
        for field in ("name", "id"):
            value = part.get(field)
            if isinstance(value, str) and value:
                return value
    return None


def _target_names(request: Mapping[str, Any]) -> list[str]:
    """Who an action without an actor is about (a suppression test, a recovery): its targets."""
    targets = request.get("targets")
    if not isinstance(targets, list):
        return []
    names: dict[str, None] = {}  # ordered, each name once ("Heretic", not "Heretic, Heretic")
    for target in targets:
        if isinstance(target, Mapping):
            name = target.get("name") or target.get("id")
            if isinstance(name, str) and name:
                names[name] = None
    return list(names)


def _title(
    request: Mapping[str, Any],
    attacker: str | None,
    *,
    system: str,
    weapon: str | None,
    action: str,
    default_action: str,
) -> Message:
    if action == default_action:
        return FIRES.make(who=attacker or SOMEONE(), weapon=weapon)
    who: str | list[str] | Message = attacker or _target_names(request) or SOMEONE()
    return ACTS.make(who=who, action=action_name(system, action), weapon=weapon)


def build_card(
    request: Mapping[str, Any], result: Any, *, default_action: str, standalone: bool = True
) -> Card:
    """Summarise ``result`` (a rules ``Result``) of ``request`` (the JSON object the client sent).

    ``standalone``: the card carries its own copy of the result's log, pool and each row's statuses
    (a card shown without its result, or a reply in the older shape); inside a protocol-3 reply it
    does not: they are the result's (``log``, ``pending``, the ``updates`` for the row's token)."""
    system = str(getattr(result, "system", ""))
    action = str(getattr(result, "action", "") or request.get("action") or default_action)
    attacker = _name(request, "attacker")
    weapon_name = _name(request, "weapon")
    targets = getattr(result, "targets", None) or []
    if standalone:
        statuses: dict[str, tuple[list[str], list[str]]] = {}
        for update in getattr(result, "updates", None) or []:
            added, removed = statuses.setdefault(update.token, ([], []))
            added.extend(update.statuses_add)
            removed.extend(update.statuses_remove)
        rows = []
        for target in targets:
            added, removed = statuses.get(target.id, ([], []))
            rows.append(
                CardRow(
                    target=target.id,
                    name=target.name,
                    hits=target.hits,
                    statuses_add=list(added),
                    statuses_remove=list(removed),
                )
            )
    else:
        rows = [CardRow(target=target.id, name=target.name, hits=target.hits) for target in targets]
    weapon_state = getattr(result, "weapon", None)
    weapon = (
        None
        if weapon_state is None
        else WeaponLine(name=weapon_name, loaded=weapon_state.loaded, jammed=weapon_state.jammed)
    )
    return Card(
        title=_title(
            request, attacker, system=system, weapon=weapon_name, action=action, default_action=default_action
        ),
        system=system,
        system_title=system_title(system),
        action=action,
        attacker=attacker,
        weapon=weapon,
        rows=rows,
        log=list(getattr(result, "log", None) or []) if standalone else msgspec.UNSET,
        pending=getattr(result, "pending", None) if standalone else msgspec.UNSET,
        table_rules=changed_readings(request) or msgspec.UNSET,
    )

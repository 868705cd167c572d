"""Cards and results as terminal text, in the reader's language: what ``volley show`` and
``volley roll --text`` print.

The rules speak in messages and the card carries them (docs/i18n.md); this renders them through the
CLI's catalogue (``bridge.i18n``), with the CLI's own words (headings, the hits line, the weapon line)
declared in :data:`CLI` and written in ``bridge/locale/cli.<lang>.json``.

A journal is read back as it is, and it may be damaged or hand-edited: a reply that is a number, a card
that is a list, a row that is a string. Nothing here trusts a field's shape. Each field is checked
before use; what is wrong is recorded as a :class:`Flaw` naming the field, what it should have been and
what it was, and the rest of the card is still shown. Old journals (format 1) hold English text where
messages now stand: text is printed as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import msgspec

from bridge.i18n import Catalogue
from rules.messages import Vocabulary
from rules.results import Message, Roll

__all__ = ["CLI", "Flaw", "card_lines", "dice_lines", "is_message", "table_rule_lines"]

#: The CLI's own words (keys ``cli.*``, texts in ``bridge/locale/cli.<lang>.json``).
CLI = Vocabulary("cli")
SESSION = CLI.message("show.session", "session", "started", "rules", "bridge", "format")
NO_HEADER = CLI.message("show.no_header", "session")
ENTRY = CLI.message("show.entry", "at", "id", "type", "pending_id", "outcome", "dice")
#: An ``undo`` journal line (bridge/scribe.py): the referee took ``target`` back at the table.
UNDO = CLI.message("show.undo", "at", "id", "target", "user")
#: A ``cancel`` journal line (bridge/scribe.py): a two-step attack cancelled before its allocation.
CANCEL = CLI.message("show.cancel", "at", "id", "pending", "user")
#: What an ``applied`` line records as changed outside Volley before the request (issue #31).
OUTSIDE = CLI.message("show.outside", "at", "target", "token", "weapon", "field", "was", "now", "by", "kept")
SEED = CLI.message("show.seed", "seed")
SCRIPTED = CLI.message("show.dice", "faces")
FLAW = CLI.message("show.flaw", "field", "expected", "got")
INCOMPLETE = CLI.message("show.incomplete", "count", "ids")
HEADING = CLI.message("card.heading", "title", "system")
ROW = CLI.message("card.row", "target", "hits", "added", "removed")
WEAPON = CLI.message("card.weapon", "name", "loaded", "jammed")
WAITING = CLI.message("card.waiting", "pool")
#: Above the readings a request changed (``card.table_rules``, from ``rules.table_rules.changed``).
TABLE_RULES = CLI.message("card.table_rules")
DICE = CLI.message("roll.dice")
DICE_GROUP = CLI.message("roll.group", "count", "die", "purpose", "faces")
#: Token statuses a result may set, by their VTT ids (the module says them with its own lang files).
STATUS = CLI.family("status", ("suppressed", "pinned", "prone", "overwatch", "jammed"))
#: What a field should have been, for a :class:`Flaw`.
EXPECTED = CLI.family("expected", ("object", "list", "text", "count", "flag"))

#: Nested messages deeper than this are not followed (a hand-made journal could nest without end).
MAX_DEPTH = 16
#: How much of a bad value a flaw quotes.
QUOTE = 40


@dataclass(frozen=True)
class Flaw:
    """A field of a journal entry that could not be shown as it is: where, what it should be, what it was."""

    field: str
    expected: str
    got: Any

    def message(self) -> Message:
        return FLAW(field=self.field, expected=EXPECTED[self.expected](), got=quote(self.got))


def quote(value: Any) -> str:
    """A short JSON rendering of a bad value, for the reader to recognise it."""
    try:
        text = msgspec.json.encode(value).decode()
    except (TypeError, ValueError, OverflowError, RecursionError):
        text = repr(value)
    return text if len(text) <= QUOTE else text[: QUOTE - 1] + "…"


def is_message(value: Any, depth: int = 0) -> bool:
    """``{"key": str, "values": {...}}`` all the way down (nested messages included), as rules emit."""
    if depth > MAX_DEPTH or not isinstance(value, Mapping) or not isinstance(value.get("key"), str):
        return False
    values = value.get("values", {})
    return isinstance(values, Mapping) and all(_is_value(item, depth + 1) for item in values.values())


def _is_value(value: Any, depth: int) -> bool:
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, Mapping):
        return "key" not in value or is_message(value, depth)
    if isinstance(value, list):
        return all(_is_value(item, depth + 1) for item in value)
    return True


def _text(catalogue: Catalogue, value: Any, field: str, flaws: list[Flaw]) -> str | None:
    """A text field: a message (protocol 2) or plain text (format-1 journals); anything else is a flaw.
    Plain text goes through the catalogue too, which shows it as it is (or escaped, for a terminal)."""
    if isinstance(value, str):
        return catalogue.render(value)
    if is_message(value):
        try:
            return catalogue.render(value)
        except (TypeError, ValueError, RecursionError):  # pragma: no cover - is_message guards the shape
            pass
    flaws.append(Flaw(field, "text", value))
    return None


def _count(value: Any, field: str, flaws: list[Flaw]) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    flaws.append(Flaw(field, "count", value))
    return None


def _names(value: Any, field: str, flaws: list[Flaw]) -> list[str]:
    """A list of status ids; a missing one is an empty list."""
    if value is None:
        return []
    if not isinstance(value, list):
        flaws.append(Flaw(field, "list", value))
        return []
    names = []
    for index, item in enumerate(value):
        if isinstance(item, str):
            names.append(item)
        else:
            flaws.append(Flaw(f"{field}[{index}]", "text", item))
    return names


def _statuses(catalogue: Catalogue, ids: list[str]) -> list[str]:
    """Status ids in the reader's language; an id Volley does not know is shown as it is."""
    return [catalogue.render(STATUS[status]()) if status in STATUS else status for status in ids]


def _row(
    catalogue: Catalogue, row: Any, field: str, flaws: list[Flaw], updates: Mapping[str, Any] | None = None
) -> str | None:
    """A target's line; its statuses from the row (older shape) or the result's ``updates`` for its
    token (protocol 3: ``updates`` is the result's updates by token)."""
    if not isinstance(row, Mapping):
        flaws.append(Flaw(field, "object", row))
        return None
    name = row.get("name") if row.get("name") is not None else row.get("target")
    who = name if isinstance(name, str) else None
    if who is None:
        flaws.append(Flaw(f"{field}.target", "text", name))
    hits = _count(row.get("hits"), f"{field}.hits", flaws)
    holder, where = row, field
    if "statuses_add" not in row and updates is not None:
        target = row.get("target")
        found = updates.get(target) if isinstance(target, str) else None
        holder, where = (found, "result.updates") if isinstance(found, Mapping) else ({}, field)
    added = _statuses(catalogue, _names(holder.get("statuses_add"), f"{where}.statuses_add", flaws))
    removed = _statuses(catalogue, _names(holder.get("statuses_remove"), f"{where}.statuses_remove", flaws))
    return catalogue.render(
        ROW(target=who or "?", hits=hits if hits is not None else "?", added=added, removed=removed),
    )


def _weapon(catalogue: Catalogue, weapon: Any, field: str, flaws: list[Flaw]) -> str | None:
    if not isinstance(weapon, Mapping):
        flaws.append(Flaw(field, "object", weapon))
        return None
    name = weapon.get("name")
    if name is not None and not isinstance(name, str):
        flaws.append(Flaw(f"{field}.name", "text", name))
        name = None
    loaded = _count(weapon.get("loaded"), f"{field}.loaded", flaws)
    jammed = weapon.get("jammed", False)
    if not isinstance(jammed, bool):
        flaws.append(Flaw(f"{field}.jammed", "flag", jammed))
        jammed = False
    return catalogue.render(
        WEAPON(name=name or "", loaded=loaded if loaded is not None else "?", jammed=jammed)
    )


def card_lines(
    catalogue: Catalogue,
    card: Any,
    flaws: list[Flaw],
    *,
    system: str = "?",
    field: str = "card",
    result: Any = None,
) -> list[str]:
    """The card as indented lines: heading, the rules' log, one line per target, the weapon.

    ``system`` names the system when the card does not; every field that cannot be shown is added to
    ``flaws`` (its path starting at ``field``) and left out. ``result``: the reply's result, whose
    ``log`` and ``pending`` a protocol-3 card is shown with (a card of the older shape, or one that
    stands alone, carries its own copies).
    """
    if card is None:
        return []
    if not isinstance(card, Mapping):
        flaws.append(Flaw(field, "object", card))
        return []
    lines: list[str] = []
    title = _text(catalogue, card.get("title"), f"{field}.title", flaws) if "title" in card else None
    shown_system = system
    if card.get("system_title") is not None:
        shown_system = _text(catalogue, card["system_title"], f"{field}.system_title", flaws) or system
    lines.append("  " + catalogue.render(HEADING(title=title or "?", system=shown_system)))
    holder, where = card, field  # the older shape's card holds its log and pool; else the result
    if "log" not in card and isinstance(result, Mapping):
        holder, where = result, "result"
    log = holder.get("log") or []
    if isinstance(log, list):
        for index, line in enumerate(log):
            text = _text(catalogue, line, f"{where}.log[{index}]", flaws)
            if text is not None:
                lines.append("    " + text)
    else:
        flaws.append(Flaw(f"{where}.log", "list", log))
    lines.extend(table_rule_lines(catalogue, card.get("table_rules"), f"{field}.table_rules", flaws))
    pool = holder.get("pending")
    waiting = pool is not None
    rows = card.get("rows") or []
    updates = _updates_by_token(result) if holder is not card else None
    if not isinstance(rows, list):
        flaws.append(Flaw(f"{field}.rows", "list", rows))
    elif not waiting:  # no hits yet while the pool waits for its split
        for index, row in enumerate(rows):
            text = _row(catalogue, row, f"{field}.rows[{index}]", flaws, updates)
            if text is not None:
                lines.append("  " + text)
    if card.get("weapon") is not None:
        text = _weapon(catalogue, card["weapon"], f"{field}.weapon", flaws)
        if text is not None:
            lines.append("  " + text)
    if waiting:
        lines.append("  " + catalogue.render(WAITING(pool=quote(pool))))
    return lines


def _updates_by_token(result: Any) -> dict[str, dict[str, list[Any]]]:
    """The statuses each token gains and loses in a result's ``updates`` (what a standalone card's rows
    list; anything that is not an update of a token is skipped)."""
    found: dict[str, dict[str, list[Any]]] = {}
    updates = result.get("updates") if isinstance(result, Mapping) else None
    for update in updates if isinstance(updates, list) else []:
        token = update.get("token") if isinstance(update, Mapping) else None
        if not isinstance(token, str):
            continue
        into = found.setdefault(token, {"statuses_add": [], "statuses_remove": []})
        for key, statuses in into.items():
            listed = update.get(key)
            if isinstance(listed, list):
                statuses.extend(listed)
    return found


def table_rule_lines(catalogue: Catalogue, readings: Any, field: str, flaws: list[Flaw]) -> list[str]:
    """The table rules a card lists (absent on cards of requests that kept Volley's readings, and on
    every card written before there were table rules): a heading and one line per changed reading."""
    if readings is None or readings == []:
        return []
    if not isinstance(readings, list):
        flaws.append(Flaw(field, "list", readings))
        return []
    texts = [_text(catalogue, reading, f"{field}[{index}]", flaws) for index, reading in enumerate(readings)]
    shown = [text for text in texts if text is not None]
    if not shown:
        return []
    return ["  " + catalogue.render(TABLE_RULES()), *("    * " + text for text in shown)]


def dice_lines(catalogue: Catalogue, rolls: Sequence[Roll]) -> list[str]:
    """Every die in the order rolled; consecutive dice of one purpose share a line ("3×d6 to-hit: 4, 3, 5").

    The faces are listed, not summed: one purpose may cover several throws (two 2D to-hit rolls).
    """
    if not rolls:
        return []
    lines = ["  " + catalogue.render(DICE())]
    for (die, purpose), group in groupby(rolls, key=lambda roll: (roll.die, roll.purpose)):
        faces = [roll.face for roll in group]
        shown = DICE_GROUP(count=len(faces), die=die, purpose=purpose, faces=faces)
        lines.append("    " + catalogue.render(shown))
    return lines

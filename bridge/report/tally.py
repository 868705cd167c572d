"""Adding a session up: per shooter and weapon, per target, and every die face the bridge rolled.

Everything comes from structured fields of the journal, never from log text (which is a message for
people and may change language): the request's ``attacker``, ``weapon`` and ``targets`` (the state
at the table when the request was made), the result's ``targets[].hits``, ``weapon.loaded`` /
``jammed`` / ``malfunction``, ``action`` and ``rolls[].die`` / ``face``, and the exact odds that
``rules.odds`` gives for the journalled request.

Readings chosen here (each is a named default below or in ``luck``):

* **Rounds spent** are what left the magazine: ``loaded`` before minus ``loaded`` after, when it fell.
  A **reload** is an ``action: reload`` or any resolution after which more rounds are loaded.
* A **jam** is a weapon that was not jammed before and is after; GURPS says which malfunction.
  Expected jams add up the odds' ``jam`` chance of each request made with a working weapon.
* A **two-step attack** (MegaTraveller's pool, then its allocation) is one request: the first step
  is counted as the request, the ``allocate`` carries the hits, rounds and dice. Its odds are those
  of the allocate's full request with the pool the first step rolled, so its luck is the luck of the
  to-hit dice once the player had seen the pool.
* **Scripted dice** (tests, worked examples; a real table's bridge refuses them) count in hits and
  rounds but not in luck or dice fairness: they were chosen, not rolled.
* Shooters and targets are grouped by **name** (the token id when there is none), so a campaign
  report follows a character across scenes, and four "Cultist" tokens make one line.
* A d100 target's chance to end **suppressed** (some books of that family say pinned) or **prone**
  counts only when the outcome was uncertain (a chance strictly between 0 and 1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import rules
from bridge.report.luck import Luck, combine, expected_hits, luck_percentile, main_target, tie_breaker
from bridge.report.record import Resolution, SessionRecord, Skipped
from rules.results import Message
from rules.table_rules import changed as changed_readings

__all__ = [
    "DiceTally",
    "Expectation",
    "Notes",
    "SessionLine",
    "ShooterTally",
    "Tally",
    "TargetTally",
    "WeaponTally",
    "tally",
]

#: The action every system uses for putting a fresh magazine in.
RELOAD_ACTION = "reload"
#: What a line with no name and no id is called.
NOBODY = "?"


@dataclass
class Expectation:
    """An outcome seen ``observed`` times in ``trials`` chances, against ``expected`` times."""

    observed: int = 0
    expected: float = 0.0
    trials: int = 0

    def add(self, happened: bool, chance: float) -> None:
        self.trials += 1
        self.observed += int(happened)
        self.expected += chance


@dataclass
class WeaponTally:
    """One shooter's use of one weapon."""

    name: str
    requests: int = 0
    rounds: int = 0
    reloads: int = 0
    jams: int = 0
    jams_expected: float = 0.0
    malfunctions: Counter[str] = field(default_factory=Counter)
    hits: int = 0
    hits_expected: float = 0.0
    percentiles: list[float] = field(default_factory=list)
    scripted: int = 0


@dataclass
class ShooterTally:
    name: str
    weapons: dict[str, WeaponTally] = field(default_factory=dict)

    def weapon(self, name: str) -> WeaponTally:
        if name not in self.weapons:
            self.weapons[name] = WeaponTally(name)
        return self.weapons[name]

    def total(self, what: str) -> float:
        return float(sum(getattr(weapon, what) for weapon in self.weapons.values()))

    @property
    def percentiles(self) -> list[float]:
        return [u for weapon in self.weapons.values() for u in weapon.percentiles]

    @property
    def luck(self) -> Luck:
        return combine(self.percentiles)


@dataclass
class TargetTally:
    name: str
    tokens: set[str] = field(default_factory=set)
    attacks: int = 0
    hits: int = 0
    hits_expected: float = 0.0
    suppressed: Expectation = field(default_factory=Expectation)
    prone: Expectation = field(default_factory=Expectation)


@dataclass
class DiceTally:
    """Faces per die size: ``faces[6][0]`` counts the ones rolled on d6."""

    faces: dict[int, list[int]] = field(default_factory=dict)
    scripted: int = 0
    impossible: int = 0

    def add(self, die: Any, face: Any) -> None:
        if not (_is_int(die) and _is_int(face)) or die < 1 or not 1 <= face <= die:
            self.impossible += 1
            return
        self.faces.setdefault(die, [0] * die)[face - 1] += 1


@dataclass
class Notes:
    """What the reader should know about the data: lines skipped, odds missing, dice scripted."""

    skipped: list[Skipped] = field(default_factory=list)
    other_kinds: Counter[str] = field(default_factory=Counter)
    no_odds: Counter[str] = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)
    scripted: int = 0
    unfinished: int = 0
    repeated_seeds: int = 0
    #: Each request played by table rules other than Volley's readings: its session, id and the
    #: readings it changed (``rules.table_rules.changed``, as its card lists them).
    table_rules: list[tuple[str, str, list[Message]]] = field(default_factory=list)


@dataclass(frozen=True)
class SessionLine:
    name: str
    started: str | None
    resolutions: int


@dataclass
class Tally:
    sessions: list[SessionLine] = field(default_factory=list)
    shooters: dict[str, ShooterTally] = field(default_factory=dict)
    targets: dict[str, TargetTally] = field(default_factory=dict)
    dice: DiceTally = field(default_factory=DiceTally)
    percentiles: list[float] = field(default_factory=list)
    notes: Notes = field(default_factory=Notes)
    #: Seeds whose faces are already counted (see ``_fresh_seed``).
    seeds: set[int] = field(default_factory=set)

    @property
    def requests(self) -> int:
        return sum(line.resolutions for line in self.sessions)

    def shooter(self, name: str) -> ShooterTally:
        if name not in self.shooters:
            self.shooters[name] = ShooterTally(name)
        return self.shooters[name]

    def target(self, name: str) -> TargetTally:
        if name not in self.targets:
            self.targets[name] = TargetTally(name)
        return self.targets[name]


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _name(person: Mapping[str, Any]) -> str:
    for key in ("name", "id"):
        value = person.get(key)
        if isinstance(value, str) and value:
            return value
    return NOBODY


def tally(records: Iterable[SessionRecord]) -> Tally:
    """Add up every resolution of every record (in order: a campaign is its sessions in turn)."""
    out = Tally()
    records = list(records)
    allocated = {r.pending_id for record in records for r in record.resolutions if r.type == "allocate"}
    pools = {r.id: r.pool for record in records for r in record.resolutions if r.outcome == "pending"}
    for record in records:
        out.sessions.append(SessionLine(record.name, record.started, len(record.resolutions)))
        out.notes.skipped.extend(record.skipped)
        out.notes.other_kinds.update(record.other_kinds)
        for resolution in record.resolutions:
            try:
                _add(out, resolution, allocated, pools)
            except Exception as error:  # a line of an odd shape must cost one line, not the report
                out.notes.skipped.append(
                    Skipped(resolution.session, 0, f"{resolution.id}: could not be counted ({error!r})")
                )
    return out


def _add(out: Tally, r: Resolution, allocated: set[str | None], pools: Mapping[str, Any]) -> None:
    request, result = r.request, r.result
    attacker = request.get("attacker")
    before = _dict(request.get("weapon"))
    weapon_name = _name({"name": before.get("name") or _dict(result.get("weapon")).get("name")})
    weapon = out.shooter(_name(attacker)).weapon(weapon_name) if isinstance(attacker, dict) else None
    if weapon is not None and r.type != "allocate":
        weapon.requests += 1
    readings = changed_readings(request)
    if readings:
        out.notes.table_rules.append((r.session, r.id, readings))
    if r.scripted:
        out.notes.scripted += 1
        if weapon is not None:
            weapon.scripted += 1
    if r.outcome == "pending":
        if r.id in allocated:
            return  # its allocate rolls the same pool again and says what came of it
        out.notes.unfinished += 1
    fresh = _fresh_seed(out, r)
    if fresh:
        _count_faces(out.dice, r)
    if r.outcome != "result":
        return
    after = _dict(result.get("weapon"))
    odds = _odds(out.notes, r, pools)
    if weapon is not None:
        _count_weapon(weapon, str(result.get("action", "")), before, after, odds)
    hits = _hits_by_token(result)
    _count_targets(out, r, hits, odds)
    if weapon is not None:
        weapon.hits += sum(hits.values())
        if odds is not None:
            weapon.hits_expected += sum(expected_hits(t.hits) for t in odds.targets)
            if fresh and not r.scripted:
                _count_luck(out, weapon, r, hits, odds)


def _fresh_seed(out: Tally, r: Resolution) -> bool:
    """False for a seed already counted: the same seed rolls the same faces again.

    A live bridge draws a fresh 63-bit seed for every request, so this happens only when sessions
    recorded with ``--seed-base`` (tests, demonstrations) are reported together, or a journal was
    copied into itself. Counting those faces twice would make fair dice look loaded.
    """
    if r.seed is None or r.scripted:
        return True
    if r.seed in out.seeds:
        out.notes.repeated_seeds += 1
        return False
    out.seeds.add(r.seed)
    return True


def _count_faces(dice: DiceTally, r: Resolution) -> None:
    rolls = _list(r.result.get("rolls"))
    if r.scripted:
        dice.scripted += len(rolls)
        return
    for roll in map(_dict, rolls):
        dice.add(roll.get("die"), roll.get("face"))


def _count_weapon(
    weapon: WeaponTally, action: str, before: dict[str, Any], after: dict[str, Any], odds: Any
) -> None:
    loaded_before, loaded_after = before.get("loaded"), after.get("loaded")
    rose = False
    if _is_int(loaded_before) and _is_int(loaded_after):
        weapon.rounds += max(0, loaded_before - loaded_after)
        rose = loaded_after > loaded_before
    if action == RELOAD_ACTION or rose:
        weapon.reloads += 1
    was_jammed = before.get("jammed") is True
    if not was_jammed:
        if after.get("jammed") is True:
            weapon.jams += 1
            fault = after.get("malfunction")
            if isinstance(fault, str) and fault:
                weapon.malfunctions[fault] += 1
        if odds is not None:
            weapon.jams_expected += float(odds.jam)


def _hits_by_token(result: dict[str, Any]) -> dict[str, int]:
    hits: dict[str, int] = {}
    for target in map(_dict, _list(result.get("targets"))):
        token, count = target.get("id"), target.get("hits")
        if isinstance(token, str) and _is_int(count):
            hits[token] = hits.get(token, 0) + count
    return hits


def _count_targets(out: Tally, r: Resolution, hits: dict[str, int], odds: Any) -> None:
    names: dict[str, str] = {}
    for source in (_list(r.request.get("targets")), _list(r.result.get("targets"))):
        for target in map(_dict, source):
            token = target.get("id")
            if isinstance(token, str) and isinstance(target.get("name"), str) and target["name"]:
                names[token] = target["name"]
    states = {t["id"]: t for t in map(_dict, _list(r.result.get("targets"))) if isinstance(t.get("id"), str)}
    exposed: set[str] = set()
    if odds is not None:
        for target_odds in odds.targets:
            token = target_odds.id
            line = out.target(names.get(token, token))
            line.tokens.add(token)
            line.hits_expected += expected_hits(target_odds.hits)
            if any(p > 0.0 for p in target_odds.hits[1:]):
                exposed.add(token)
            state = states.get(token, {})
            for status in ("suppressed", "prone"):
                chance = getattr(target_odds, status, None)
                seen = state.get(status)
                if isinstance(chance, float) and 0.0 < chance < 1.0 and isinstance(seen, bool):
                    getattr(line, status).add(seen, chance)
    for token, count in hits.items():
        line = out.target(names.get(token, token))
        line.tokens.add(token)
        line.hits += count
        if count:
            exposed.add(token)
    for token in exposed:
        out.target(names.get(token, token)).attacks += 1


def _count_luck(out: Tally, weapon: WeaponTally, r: Resolution, hits: dict[str, int], odds: Any) -> None:
    choice = main_target([(t.id, t.hits) for t in odds.targets])
    if choice is None:
        return  # nothing about this request was left to chance
    target = odds.targets[choice]
    u = tie_breaker(r.seed, r.id, target.id)
    percentile = luck_percentile(target.hits, hits.get(target.id, 0), u)
    if percentile is None:
        out.notes.disagreements.append(f"{r.session}: {r.id}")
        return
    weapon.percentiles.append(percentile)
    out.percentiles.append(percentile)


def _odds(notes: Notes, r: Resolution, pools: Mapping[str, Any]) -> Any:
    """The exact odds of the request as it was made, or None (and why, in ``notes``)."""
    request = dict(r.request)
    if r.type == "allocate" and "pool" not in request:
        pool = pools.get(r.pending_id or "", None) or r.result.get("pool")
        if isinstance(pool, dict):
            request["pool"] = pool
    try:
        return rules.odds(rules.decode_request(request, lenient=True))  # a journaled request
    except rules.RuleError as error:
        notes.no_odds[f"{error.path}: {error.message}"] += 1
    except Exception as error:  # a request no rules version knows how to price
        notes.no_odds[type(error).__name__] += 1
    return None

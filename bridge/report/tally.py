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

import numpy as np

import rules
from bridge.report.luck import Luck, LuckSum, expected_hits, luck_percentile, main_target, tie_breaker
from bridge.report.record import Resolution, SessionRecord, Skipped
from rules.results import Message
from rules.table_rules import changed as changed_readings

__all__ = [
    "LUCK_BARS",
    "DiceTally",
    "Expectation",
    "LuckChart",
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
#: Bars of the luck chart (tenths of the luck scale).
LUCK_BARS = 10
#: Entries a note keeps one by one (the page lists twenty); the rest are counted.
KEPT_NOTES = 100
#: Distinct reasons for missing odds kept apart; any further ones are counted under ``OTHER_REASON``.
KEPT_REASONS = 50
OTHER_REASON = "other reasons"


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
    """One shooter's use of one weapon. ``luck`` sums the luck of its attacks (their count and
    normal scores), never a list of them."""

    name: str
    requests: int = 0
    rounds: int = 0
    reloads: int = 0
    jams: int = 0
    jams_expected: float = 0.0
    malfunctions: Counter[str] = field(default_factory=Counter)
    hits: int = 0
    hits_expected: float = 0.0
    luck: LuckSum = field(default_factory=LuckSum)
    scripted: int = 0
    undone: int = 0


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
    def luck(self) -> Luck:
        together = LuckSum()
        for weapon in self.weapons.values():
            together.merge(weapon.luck)
        return together.luck()


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
    """Faces per die size, and how they followed one another.

    ``faces[6][0]`` counts the ones rolled on d6. Each die size's faces, in the order rolled (the
    journal's order, and each result's rolls in order), make a sequence: ``pairs[6]`` counts its
    consecutive pairs and ``repeats[6]`` the pairs that showed the same face twice running. Only
    the last face of each size is kept, so the order test costs no memory.
    """

    faces: dict[int, list[int]] = field(default_factory=dict)
    pairs: dict[int, int] = field(default_factory=dict)
    repeats: dict[int, int] = field(default_factory=dict)
    last: dict[int, int] = field(default_factory=dict)
    scripted: int = 0
    impossible: int = 0

    def add(self, die: Any, face: Any) -> None:
        if not (_is_int(die) and _is_int(face)) or die < 1 or not 1 <= face <= die:
            self.impossible += 1
            return
        self.faces.setdefault(die, [0] * die)[face - 1] += 1
        before = self.last.get(die)
        if before is not None:
            self.pairs[die] = self.pairs.get(die, 0) + 1
            self.repeats[die] = self.repeats.get(die, 0) + (before == face)
        self.last[die] = face


@dataclass
class LuckChart:
    """The luck percentiles of every attack, as the chart shows them: ten bars and their mean."""

    histogram: list[int] = field(default_factory=lambda: [0] * LUCK_BARS)
    total: float = 0.0

    @property
    def count(self) -> int:
        return sum(self.histogram)

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.5

    def add(self, u: float) -> None:
        self.histogram[min(LUCK_BARS - 1, max(0, int(u * LUCK_BARS)))] += 1
        self.total += u


@dataclass
class Notes:
    """What the reader should know about the data: lines skipped, odds missing, dice scripted,
    requests undone. Lists keep their first ``KEPT_NOTES`` entries and count the rest."""

    skipped: list[Skipped] = field(default_factory=list)
    skipped_count: int = 0
    other_kinds: Counter[str] = field(default_factory=Counter)
    no_odds: Counter[str] = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)
    disagreement_count: int = 0
    scripted: int = 0
    unfinished: int = 0
    repeated_seeds: int = 0
    #: Requests the referee undid at the table (left out of every figure), per shooter.
    undone: Counter[str] = field(default_factory=Counter)
    #: Undo lines naming a request that is not in these sessions.
    undone_elsewhere: int = 0
    #: Two-step attacks whose first step was cancelled at the table (counted apart from ``unfinished``).
    cancelled: int = 0
    #: What changed outside Volley (``applied`` marks' ``outside``): the first entries, and how many.
    outside: list[dict[str, Any]] = field(default_factory=list)
    outside_count: int = 0
    #: Each request played by table rules other than Volley's readings: its session, id and the
    #: readings it changed (``rules.table_rules.changed``, as its card lists them).
    table_rules: list[tuple[str, str, list[Message]]] = field(default_factory=list)
    table_rules_count: int = 0

    def no_odds_for(self, reason: str) -> None:
        if reason in self.no_odds or len(self.no_odds) < KEPT_REASONS:
            self.no_odds[reason] += 1
        else:
            self.no_odds[OTHER_REASON] += 1


@dataclass(frozen=True)
class SessionLine:
    """One session of the report: ``resolutions`` counts its requests that stand (undone ones apart)."""

    name: str
    started: str | None
    resolutions: int
    undone: int = 0


@dataclass
class Tally:
    sessions: list[SessionLine] = field(default_factory=list)
    shooters: dict[str, ShooterTally] = field(default_factory=dict)
    targets: dict[str, TargetTally] = field(default_factory=dict)
    dice: DiceTally = field(default_factory=DiceTally)
    luck_chart: LuckChart = field(default_factory=LuckChart)
    notes: Notes = field(default_factory=Notes)

    @property
    def requests(self) -> int:
        return sum(line.resolutions for line in self.sessions)

    @property
    def undone(self) -> int:
        return sum(line.undone for line in self.sessions)

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


def _kept(items: list[Any], item: Any) -> None:
    if len(items) < KEPT_NOTES:
        items.append(item)


def _repeated(records: list[SessionRecord]) -> set[int]:
    """Seeds that more than one request of these sessions was rolled with (usually none)."""
    seeds = [np.frombuffer(record.seeds, dtype=np.int64) for record in records if len(record.seeds)]
    if not seeds:
        return set()
    values, counts = np.unique(np.concatenate(seeds), return_counts=True)
    return {int(seed) for seed in values[counts > 1]}


@dataclass
class _Pass:
    """What the adding up carries from one request to the next: small whatever the session's size."""

    undone: set[str]
    allocated: set[str]
    repeated: set[int]
    cancelled: set[str] = field(default_factory=set)
    seen: set[int] = field(default_factory=set)
    #: Pools of first steps still waiting for their allocate (an allocate takes its pool out), with
    #: the index of the session they are in.
    pools: dict[str, tuple[int, Any]] = field(default_factory=dict)
    matched: set[str] = field(default_factory=set)
    #: The session being read.
    record: int = 0


def tally(records: Iterable[SessionRecord]) -> Tally:
    """Add up every resolution of every record (in order: a campaign is its sessions in turn).

    Each record's resolutions are read one at a time (``SessionRecord.resolutions``) and forgotten
    once counted; what carries over is a handful of counters per shooter, target and die.
    """
    out = Tally()
    records = list(records)
    state = _Pass(
        undone=set().union(*(record.undone for record in records)),
        allocated=set().union(*(record.allocated for record in records)),
        repeated=_repeated(records),
        cancelled=set().union(*(record.cancelled for record in records)),
    )
    standing = [0] * len(records)
    undone = [0] * len(records)
    for index, record in enumerate(records):
        state.record = index
        for resolution in record.resolutions:
            if _is_undone(resolution, state, standing):
                undone[index] += 1
                _count_undone(out, resolution)
                continue
            standing[index] += 1
            try:
                _add(out, resolution, state)
            except Exception as error:  # a line of an odd shape must cost one line, not the report
                out.notes.skipped_count += 1
                _kept(
                    out.notes.skipped,
                    Skipped(resolution.session, 0, f"{resolution.id}: could not be counted ({error!r})"),
                )
        out.notes.skipped_count += record.skipped_count
        for skipped in record.skipped:
            _kept(out.notes.skipped, skipped)
        out.notes.other_kinds.update(record.other_kinds)
        out.notes.outside_count += record.outside_count
        for change in record.outside:
            _kept(out.notes.outside, change)
    out.sessions = [
        SessionLine(record.name, record.started, standing[i], undone[i]) for i, record in enumerate(records)
    ]
    out.notes.undone_elsewhere = len(state.undone - state.matched)
    return out


def _is_undone(r: Resolution, state: _Pass, standing: list[int]) -> bool:
    """Whether the referee took this request back. (The first step of a two-step attack cannot be
    undone; its allocate, which carries the whole attack, can: then the first step goes too.)"""
    if r.id not in state.undone:
        return False
    state.matched.add(r.id)
    if r.pending_id is not None and r.pending_id in state.pools:
        where, _ = state.pools.pop(r.pending_id)
        standing[where] -= 1
    return True


def _count_undone(out: Tally, r: Resolution) -> None:
    attacker = r.request.get("attacker")
    name = _name(attacker) if isinstance(attacker, dict) else NOBODY
    out.notes.undone[name] += 1
    if isinstance(attacker, dict):
        before = _dict(r.request.get("weapon"))
        weapon_name = _name({"name": before.get("name") or _dict(r.result.get("weapon")).get("name")})
        out.shooter(name).weapon(weapon_name).undone += 1


def _add(out: Tally, r: Resolution, state: _Pass) -> None:
    request, result = r.request, r.result
    attacker = request.get("attacker")
    before = _dict(request.get("weapon"))
    weapon_name = _name({"name": before.get("name") or _dict(result.get("weapon")).get("name")})
    weapon = out.shooter(_name(attacker)).weapon(weapon_name) if isinstance(attacker, dict) else None
    if r.outcome == "pending" and r.id in state.allocated:
        # Its allocate rolls the same pool again and says what came of it: the two steps are one
        # request, counted (or undone) with the allocate. Only its pool is kept until then.
        state.pools[r.id] = (state.record, r.pool)
        return
    if weapon is not None and (r.type != "allocate" or r.pending_id in state.allocated):
        weapon.requests += 1
    readings = changed_readings(request)
    if readings:
        out.notes.table_rules_count += 1
        _kept(out.notes.table_rules, (r.session, r.id, readings))
    if r.scripted:
        out.notes.scripted += 1
        if weapon is not None:
            weapon.scripted += 1
    if r.outcome == "pending":
        if r.id in state.cancelled:
            out.notes.cancelled += 1
        else:
            out.notes.unfinished += 1
    fresh = _fresh_seed(out, r, state)
    if fresh:
        _count_faces(out.dice, r)
    if r.outcome != "result":
        return
    after = _dict(result.get("weapon"))
    waiting = state.pools.pop(r.pending_id, None) if r.type == "allocate" and r.pending_id else None
    odds = _odds(out.notes, r, waiting[1] if waiting is not None else None)
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


def _fresh_seed(out: Tally, r: Resolution, state: _Pass) -> bool:
    """False for a seed already counted: the same seed rolls the same faces again.

    A live bridge draws a fresh 63-bit seed for every request, so this happens only when sessions
    recorded with ``--seed-base`` (tests, demonstrations) are reported together, or a journal was
    copied into itself. Counting those faces twice would make fair dice look loaded. Only the seeds
    the first pass found more than once are remembered here.
    """
    if r.seed is None or r.scripted or r.seed not in state.repeated:
        return True
    if r.seed in state.seen:
        out.notes.repeated_seeds += 1
        return False
    state.seen.add(r.seed)
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
        out.notes.disagreement_count += 1
        _kept(out.notes.disagreements, f"{r.session}: {r.id}")
        return
    weapon.luck.add(percentile)
    out.luck_chart.add(percentile)


def _odds(notes: Notes, r: Resolution, pool: Any) -> Any:
    """The exact odds of the request as it was made, or None (and why, in ``notes``)."""
    request = dict(r.request)
    if r.type == "allocate" and "pool" not in request:
        pool = pool or r.result.get("pool")
        if isinstance(pool, dict):
            request["pool"] = pool
    try:
        return rules.odds(rules.decode_request(request, lenient=True))  # a journaled request
    except rules.RuleError as error:
        notes.no_odds_for(f"{error.path}: {error.message}")
    except Exception as error:  # a request no rules version knows how to price
        notes.no_odds_for(type(error).__name__)
    return None

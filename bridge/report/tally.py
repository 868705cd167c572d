"""Adding a session up: per shooter and weapon, per target, and every die face the bridge rolled
(into a ``totals.Tally``).

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import rules
from bridge.report.luck import expected_hits, luck_percentile, main_target, tie_breaker
from bridge.report.record import Resolution, SessionRecord, Skipped
from bridge.report.totals import KEPT_NOTES, DiceTally, Notes, SessionLine, Tally, WeaponTally, is_int
from rules.table_rules import changed as changed_readings

__all__ = ["tally"]

#: The action every system uses for putting a fresh magazine in.
RELOAD_ACTION = "reload"
#: What a line with no name and no id is called.
NOBODY = "?"


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
    if is_int(loaded_before) and is_int(loaded_after):
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
        if isinstance(token, str) and is_int(count):
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

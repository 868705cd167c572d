"""Synthetic sessions for the report's tests (``tests/report``) and its benchmark
(``scripts/bench_report.py``): a skirmish played out by the real rules.

Three tables at once (GURPS, MegaTraveller, d100), each with its shooters, weapons and targets. Every
turn one shooter acts: fires if the weapon can, reloads an empty magazine, clears a jam; MegaTraveller's
controlled fire sometimes goes in two steps (pool, then allocation); suppressed d100 targets try to
recover. State carries over the way the module carries it, from each result's ``updates`` and
``weapon``, so a long session is a plausible one (reloads, jams, pinned cultists) and every request
is one the rules accept.

Each request is resolved as the bridge resolves it (``bridge.resolution``) and journalled with the
bridge's own writer (``bridge.store.journal.Journal``). The dice are seeded, with a fresh seed per request;
``LoadedDice`` is the cheat: the same generator, except that a d6 shows a six far too often;
``StickyDice`` the broken roller: every face fair, except that a die shows its last face again (across
requests) one time in five.
"""

from __future__ import annotations

import asyncio
import copy
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec

import bridge
import rules
from bridge.protocol import reply_pending
from bridge.resolution import reply_for
from bridge.store.journal import Journal
from bridge.store.lines import FORMAT_VERSION, Entry, Header
from devkit.allocation import simple_allocation
from rules.dice import Dice, SeededDice
from rules.results import Message

__all__ = ["LoadedDice", "StickyDice", "Table", "write_session"]

#: The loaded die: this share of d6 rolls is forced to a six (so sixes come up about 1 in 3).
LOADING = 0.2
#: The sticky die: this share of rolls repeat the last face of their size.
STICKY = 0.2
START = datetime(2026, 11, 28, 19, 0, tzinfo=UTC)


class LoadedDice(SeededDice):
    """SeededDice with a weighted d6: the first draw decides whether the six is forced."""

    def __init__(self, seed: int, loading: float = LOADING) -> None:
        super().__init__(seed)
        self._threshold = int(loading * (1 << 64))

    def _face(self, sides: int, purpose: Message) -> int:
        if sides == 6 and self._next64() < self._threshold:
            return 6
        return super()._face(sides, purpose)


class StickyDice(SeededDice):
    """SeededDice from a stuck source: a die shows the last face of its size again ``sticky`` of the
    time (the last face of any request before: ``last`` is shared), else rolls fairly. The same seed
    rolls the same faces again (``rolled``), as a two-step attack's allocate needs."""

    def __init__(
        self, seed: int, last: dict[int, int], rolled: dict[int, list[int]], sticky: float = STICKY
    ) -> None:
        super().__init__(seed)
        self._threshold = int(sticky * (1 << 64))
        self._last = last
        self._again = iter(rolled[seed]) if seed in rolled else None
        self._faces_rolled = rolled.setdefault(seed, [])

    def _face(self, sides: int, purpose: Message) -> int:
        if self._again is not None:
            again = next(self._again, None)
            if again is not None:
                return again
            self._again = None
        before = self._last.get(sides)
        if before is not None and self._next64() < self._threshold:
            face = before
        else:
            face = super()._face(sides, purpose)
        self._last[sides] = face
        self._faces_rolled.append(face)
        return face


def sticky_dice() -> DiceMaker:
    """A maker of ``StickyDice`` sharing one stuck source for a whole session."""
    last: dict[int, int] = {}
    rolled: dict[int, list[int]] = {}
    return lambda seed: StickyDice(seed, last, rolled)


DiceMaker = Callable[[int], Dice]


@dataclass
class Shooter:
    """One character at the table: who they are, their weapon's state and whom they shoot at."""

    system: str
    attacker: dict[str, Any]
    weapon: dict[str, Any]
    targets: list[dict[str, Any]]
    fire: Callable[[Shooter, random.Random], dict[str, Any]]
    unjam: dict[str, Any] | None = None
    two_step: bool = False
    #: Reload rather than fire with fewer rounds than this in the magazine.
    reload_below: int = 10


def _gurps_fire(shooter: Shooter, rng: random.Random) -> dict[str, Any]:
    rof = shooter.weapon["rof"]
    most = 3 if isinstance(rof, str) else min(rof, shooter.weapon["loaded"])
    shots = rng.randint(min(3, most), most)
    targets = rng.sample(shooter.targets, k=2 if shots >= 6 and rng.random() < 0.3 else 1)
    chosen = [dict(t) for t in targets]
    if len(chosen) == 2:
        first = rng.randint(1, shots - 1)
        chosen[0]["shots"], chosen[1]["shots"] = first, shots - first
    return {"shots": shots, "targets": chosen}


def _megatraveller_fire(shooter: Shooter, rng: random.Random) -> dict[str, Any]:
    count = 2 if len(shooter.targets) > 1 and rng.random() < 0.5 else 1
    chosen = [dict(t) for t in shooter.targets[:count]]
    return {"mode": shooter.attacker["selector"], "targets": chosen}


def _d100_fire(shooter: Shooter, rng: random.Random) -> dict[str, Any]:
    mode = shooter.attacker["modes"][rng.randrange(len(shooter.attacker["modes"]))]
    if mode == "suppressing":
        return {"mode": mode, "rate": "full", "targets": [dict(t) for t in shooter.targets]}
    count = 1 if mode == "single" else min(2, len(shooter.targets))
    primary, *rest = rng.sample(shooter.targets, k=count)
    chosen = [dict(primary)] + [{**t, "to_primary": 1.5, "share": 1} for t in rest]
    return {"mode": mode, "targets": chosen}


def _gurps_shooters() -> list[Shooter]:
    gangers = [
        {"id": "gg1", "name": "Ganger", "modifier": -2, "dodge": 9},
        {"id": "gg2", "name": "Ganger", "modifier": -3, "dodge": 8},
        {"id": "bk1", "name": "Biker", "modifier": -4, "dodge": 8},
    ]
    unjam = {"skill": 12, "using": "armoury"}
    return [
        Shooter(
            "gurps",
            {"id": "kane", "name": "Kane", "skill": 12},
            {"name": "MP5", "rof": 13, "rcl": 2, "loaded": 30, "capacity": 30, "malf": 17},
            gangers,
            _gurps_fire,
            unjam,
        ),
        Shooter(
            "gurps",
            {"id": "dutch", "name": "Dutch", "skill": 13},
            {"name": "M249", "rof": 13, "rcl": 2, "loaded": 100, "capacity": 100, "malf": 16},
            gangers,
            _gurps_fire,
            unjam,
        ),
        Shooter(
            "gurps",
            {"id": "rosa", "name": "Rosa", "skill": 13},
            {"name": "Remington 870", "rof": "3x9", "rcl": 1, "loaded": 5, "capacity": 5, "malf": 17},
            gangers,
            _gurps_fire,
            unjam,
            reload_below=3,
        ),
    ]


def _megatraveller_shooters() -> list[Shooter]:
    vargr = [
        {"id": "v1", "name": "vargr raider", "difficulty": "difficult", "dm": 1},
        {"id": "v2", "name": "vargr leader", "difficulty": "difficult", "dm": -1},
    ]
    pirates = [
        {"id": "p1", "name": "pirate", "difficulty": "routine", "dm": -1},
        {"id": "p2", "name": "pirate", "difficulty": "routine", "dm": -1},
    ]
    return [
        Shooter(
            "megatraveller",
            {
                "id": "kr",
                "name": "Kira Rhyne",
                "skill": 2,
                "dex": 10,
                "readiness": "ready",
                "selector": "burst",
                "target": "v1",
            },
            {
                "name": "Assault Rifle",
                "kind": "rifle",
                "rapid": False,
                "burst": 4,
                "auto": True,
                "auto_targets": 2,
                "loaded": 30,
                "capacity": 30,
            },
            vargr,
            _megatraveller_fire,
            reload_below=4,
        ),
        Shooter(
            "megatraveller",
            {
                "id": "mx",
                "name": "Max Oyelaran",
                "skill": 1,
                "dex": 8,
                "readiness": "ready",
                "selector": "auto",
                "target": "p1",
            },
            {
                "name": "Submachinegun",
                "kind": "rifle",
                "rapid": True,
                "burst": None,
                "auto": True,
                "auto_targets": 2,
                "loaded": 30,
                "capacity": 30,
            },
            pirates,
            lambda shooter, rng: {"mode": "controlled", "targets": [dict(t) for t in shooter.targets]},
            two_step=True,
        ),
    ]


def _d100_shooters() -> list[Shooter]:
    cultists = [
        {"id": "c1", "name": "Cultist", "wp": 25, "in_cover": True, "distance": 40},
        {
            "id": "c2",
            "name": "Cultist",
            "wp": 25,
            "in_cover": False,
            "can_reach_cover": False,
            "distance": 45,
        },
        {"id": "c3", "name": "Cult demagogue", "wp": 40, "in_cover": False, "distance": 60},
    ]
    return [
        Shooter(
            "d100",
            {"id": "vex", "name": "Vex", "bs": 45, "modes": ["single", "short_burst", "long_burst"]},
            {
                "name": "Autogun",
                "class": "rifle",
                "rof": "S/3/10",
                "loaded": 30,
                "capacity": 30,
                "reliability": 0,
                "range": 90,
            },
            cultists,
            _d100_fire,
            {"skill": 45},
        ),
        Shooter(
            "d100",
            {"id": "harl", "name": "Gunner Harl", "bs": 40, "modes": ["suppressing", "long_burst"]},
            {
                "name": "Heavy stubber",
                "class": "heavy",
                "rof": "-/-/10",
                "loaded": 100,
                "capacity": 100,
                "reliability": "Unreliable",
                "braced": True,
                "range": 100,
            },
            cultists,
            _d100_fire,
            {"skill": 40},
        ),
    ]


ATTACKER_FLAGS = {"readiness", "selector", "target"}
WEAPON_FLAGS = {"loaded", "jammed", "malfunction", "spoiled"}
STATUSES = {"suppressed", "prone"}


def _request_attacker(shooter: Shooter) -> dict[str, Any]:
    return {key: value for key, value in shooter.attacker.items() if key != "modes"}


@dataclass
class Table:
    """A skirmish in progress; ``requests()`` yields (type, id, request, pending id) as they are made."""

    seed: int = 1
    shooters: list[Shooter] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.shooters:
            self.shooters = _gurps_shooters() + _megatraveller_shooters() + _d100_shooters()
        # One deep copy keeps the sharing: shooters at one table aim at the very same target dicts,
        # so a cultist suppressed by one gunner is suppressed for the other.
        self.shooters = copy.deepcopy(self.shooters)
        self.rng = random.Random(self.seed)

    def turn(self, number: int) -> tuple[Shooter, str, dict[str, Any]]:
        """Who acts on this turn and what they ask: (shooter, message type, request)."""
        shooter = self.shooters[number % len(self.shooters)]
        if shooter.weapon.get("malfunction") == "destroyed":  # GURPS: a botched repair; a spare comes out
            shooter.weapon.update(jammed=False, malfunction=None, loaded=shooter.weapon["capacity"])
        base = {
            "system": shooter.system,
            "attacker": _request_attacker(shooter),
            "weapon": dict(shooter.weapon),
        }
        if shooter.weapon.get("jammed"):
            if shooter.unjam is None:
                raise AssertionError(f"{shooter.attacker['name']}'s weapon jammed and cannot be cleared")
            return shooter, "action", {**base, "action": "unjam", **shooter.unjam}
        if shooter.weapon["loaded"] < shooter.reload_below:
            return shooter, "action", {**base, "action": "reload"}
        return shooter, "attack", {**base, **shooter.fire(shooter, self.rng)}

    def recovery(self) -> dict[str, Any] | None:
        """End of a d100 round: every suppressed target tests to shake it off."""
        pinned = {
            t["id"]: t for s in self.shooters if s.system == "d100" for t in s.targets if t.get("suppressed")
        }
        if not pinned:
            return None
        return {"system": "d100", "action": "recover", "targets": [dict(t) for t in pinned.values()]}

    def apply(self, result: dict[str, Any]) -> None:
        """Carry the result's new state to the table, as the module applies ``updates``."""
        tokens: dict[str, dict[str, Any]] = {}
        for shooter in self.shooters:
            tokens.setdefault(shooter.attacker["id"], shooter.attacker)
            for target in shooter.targets:
                tokens.setdefault(target["id"], target)
        weapons = {shooter.attacker["id"]: shooter.weapon for shooter in self.shooters}
        for update in result.get("updates") or []:
            token = update["token"]
            for key, value in (update.get("state") or {}).items():
                name = key.removeprefix("weapon.")
                if key.startswith("weapon.") and name in WEAPON_FLAGS and token in weapons:
                    weapons[token][name] = value
                elif key in ATTACKER_FLAGS and token in tokens:
                    tokens[token][key] = value
            for status in update.get("statuses_add") or []:
                if status in STATUSES and token in tokens:
                    tokens[token][status] = True
            for status in update.get("statuses_remove") or []:
                if status in STATUSES and token in tokens:
                    tokens[token][status] = False


def _entry(
    id: str,
    type: str,
    request: dict[str, Any],
    seed: int,
    *,
    dice: DiceMaker,
    at: datetime,
    pending_id: str | None = None,
) -> tuple[Entry, dict[str, Any]]:
    """Resolve as the bridge does and journal the result: (entry, the reply as JSON)."""
    result = rules.resolve(rules.decode_request(request), dice(seed))
    outcome, reply = reply_for(id, request, result)
    entry = Entry(
        id=id,
        type=type,
        at=at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        outcome=outcome,
        request=request,
        seed=seed,
        dice=None,
        pending_id=pending_id,
        reply=msgspec.Raw(reply),
    )
    return entry, msgspec.json.decode(reply)


def play(requests: int, *, seed: int = 1, loaded: bool = False, sticky: bool = False) -> Iterator[Entry]:
    """``requests`` journal entries of a skirmish (an allocate is an entry of its own)."""
    table = Table(seed=seed)
    dice: DiceMaker = LoadedDice if loaded else sticky_dice() if sticky else SeededDice
    rng = random.Random(seed * 7919 + 1)
    made = 0
    turn = 0
    while made < requests:
        at = START + timedelta(seconds=20 * made)
        shooter, kind, request = table.turn(turn)
        turn += 1
        id = f"r{made + 1}"
        defer = kind == "attack" and shooter.two_step and rng.random() < 0.5 and made + 1 < requests
        if defer:
            request = {**request, "allocation": "defer"}
        entry_seed = rng.getrandbits(63)
        entry, reply = _entry(id, kind, request, entry_seed, dice=dice, at=at)
        yield entry
        made += 1
        if reply["type"] == "pending":
            split = simple_allocation(reply_pending(reply), len(request["targets"]))
            allocated = {**request, "allocation": split}
            entry, reply = _entry(
                f"{id}/allocate", "allocate", allocated, entry_seed, dice=dice, at=at, pending_id=id
            )
            yield entry
            made += 1
        table.apply(reply["result"])
        if turn % len(table.shooters) == 0 and made < requests:
            recover = table.recovery()
            if recover is not None:
                entry, reply = _entry(
                    f"r{made + 1}", "action", recover, rng.getrandbits(63), dice=dice, at=at
                )
                yield entry
                made += 1
                table.apply(reply["result"])


def write_session(
    directory: Path, requests: int, *, seed: int = 1, loaded: bool = False, sticky: bool = False
) -> Path:
    """Play ``requests`` requests and journal them with the bridge's writer; the journal's path."""

    async def write() -> Path:
        kind = "loaded" if loaded else "sticky" if sticky else "fair"
        name = f"20261128T190000.000000Z-{kind}{seed:02d}"
        header = Header(
            format=FORMAT_VERSION,
            session=name,
            started=START.isoformat(timespec="seconds").replace("+00:00", "Z"),
            rules_version=rules.__version__,
            bridge_version=bridge.__version__,
            systems={system: info.title for system, info in rules.SYSTEMS.items()},
        )
        journal = Journal.create(directory, header)
        try:
            batch: list[Entry] = []
            for entry in play(requests, seed=seed, loaded=loaded, sticky=sticky):
                batch.append(entry)
                if len(batch) == 500:
                    await asyncio.gather(*(journal.append(e) for e in batch))
                    batch = []
            await asyncio.gather(*(journal.append(e) for e in batch))
        finally:
            await journal.close()
        return journal.path

    return asyncio.run(write())

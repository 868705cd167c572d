"""What adding a session up gives (``tally.tally`` fills it): per shooter and weapon, per target,
every die face and how the faces followed one another, the luck chart, and the notes on what could
not be used. Counters only: their size does not grow with the session's."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from bridge.report.luck import Luck, LuckSum
from bridge.report.record import Skipped
from rules.results import Message

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
    "is_int",
]


#: Bars of the luck chart (tenths of the luck scale).
LUCK_BARS = 10
#: Entries a note keeps one by one (the page lists twenty); the rest are counted.
KEPT_NOTES = 100
#: Distinct reasons for missing odds kept apart; any further ones are counted under ``OTHER_REASON``.
KEPT_REASONS = 50
OTHER_REASON = "other reasons"


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


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
        if not (is_int(die) and is_int(face)) or die < 1 or not 1 <= face <= die:
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

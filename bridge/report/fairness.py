"""Were the dice fair? Checks a referee can read at a glance, corrected for how many were made.

* **Faces.** Every face the bridge rolled, per die size, against equal shares: Pearson's chi-square
  test. It needs about five expected rolls in each cell (Cochran's rule), so when a session is short
  the faces are grouped into equal bands (a d100's fives or tens, a d6's halves).
* **One face, exactly.** Bands hide a single face that comes up far too often (ten 01s in ten d100
  rolls fall in one band of twenty, which is merely "unusual"). So whenever the faces are banded,
  the largest count of any one face is tested too, exactly: the chance that a fair die shows *some*
  face at least that often in that many rolls (``max_face_p``). The die's p-value is the smaller
  of the two, doubled (Bonferroni over the two statistics), so the pair stays a valid test.
* **Order.** Counts cannot see a die that repeats itself: one that shows its last face again one
  time in five, and otherwise rolls fairly, still shows every face equally often. Each die size's
  faces, in the order they were rolled, are tested for **repeats**: of ``n`` consecutive pairs, how
  many showed the same face twice running. For a fair die each pair repeats with chance ``1/die``
  whatever came before (the difference between one face and the next is uniform and independent of
  the others), so the number of repeats is exactly binomial; the test is two-sided, catching a
  sticky die (too many repeats) and a cycling or streak-avoiding one (too few) alike.
* **Luck.** The luck percentiles of all attacks (``bridge.report.luck``) are uniform under fair dice
  whatever the attacks were, so the ten bars of their chart hold equal shares, exactly as the faces
  of a fair d10 do: they are tested as a d10 is, by the same code, with the same power rule. This
  catches odds that do not match what the rules did, and dice that are fair one by one but fall in a
  pattern.

**Corrected verdicts.** ``judge`` applies Holm's step-down correction across every test on the page
(counts and order of each die size, and the luck chart), so "looks loaded" is said of a fair session
at most one time in a thousand, "worth watching" one in a hundred. A test whose rolls are too few to
reach "worth watching" even with the most lopsided result they allow (four rolls of a d2) could
never say anything, and would only cost the others power: Tarone's rule leaves it out of the
correction (the smallest ``K`` for which at most ``K`` tests can reach ``WATCH_P / K``; those are the
family).

**Power.** A test that finds nothing only says something if it could have found something. The
reference loaded die (``LOADING``) shows one face (a d100: one run of ten faces, as a loaded tens die
would; the luck chart: one tenth of the scale) half again as often as it should; the reference
sticky die (``STICKY``) shows its last face again one time in five. ``power`` is the chance that the
page's own counts test, at its corrected threshold, flags the loaded die in as many rolls: simulated
(``POWER_DRAWS`` draws from a fixed seed, so a page is reproducible) with the page's exact decision
rule, chi-square and one-face test together, standard error at most 0.0036. ``order_power`` is exact:
under the sticky die each pair repeats with chance ``STICKY + (1 - STICKY) / die``, independently, so
it is a binomial sum over the test's rejection region. A test with less than ``JUDGE_POWER`` of that
chance is "too few rolls to judge", never "fair", and ``rolls_needed`` says how many rolls would do.

The exact distributions of a fair die are in ``distributions``; the reference dice, the power and
the rolls needed in ``power``. SciPy computes the distributions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

from scipy import special  # type: ignore[import-untyped]

from bridge.report.correction import holm
from bridge.report.distributions import banded, bands_for, max_face_p, repeats_p
from bridge.report.laws import binom_isf, binom_ppf, chi2_sf
from bridge.report.power import JUDGE_POWER, order_power, order_rolls_needed, power, rolls_needed

__all__ = [
    "ALERT_P",
    "BAND_MISS",
    "CALIBRATION_BINS",
    "WATCH_P",
    "Calibration",
    "DieTest",
    "OrderTest",
    "admitted",
    "calibration",
    "calibration_of",
    "die_test",
    "die_tests",
    "judge",
    "least_p",
    "order_test",
    "order_tests",
    "overall",
    "verdict_for",
]

#: Below this corrected p-value the dice look loaded: a fair session hears it once in a thousand.
ALERT_P = 0.001
#: Below this one "unusual, worth watching", without accusing anyone (once in a hundred fair sessions).
WATCH_P = 0.01
#: Bars of the calibration histogram (the luck chart), tested as the faces of a d10.
CALIBRATION_BINS = 10
#: The luck chart's shaded band misses some bar of a fair session at most this often.
BAND_MISS = 0.05

#: Verdicts from best to worst. ``too_few`` ranks above ``fair``: one die judged fair does not make a
#: page "fair" while another die had too few rolls to judge.
VERDICTS = ("fair", "too_few", "watch", "alert")


def verdict_for(p: float) -> str:
    """The flag a (corrected) p-value earns: ``alert``, ``watch``, or ``fair`` (nothing seen)."""
    if p < ALERT_P:
        return "alert"
    if p < WATCH_P:
        return "watch"
    return "fair"


def _verdict(adjusted: float | None, chance: float) -> str:
    """A corrected p-value's flag, with "fair" only for a test that had the power to see a loaded die."""
    flag = verdict_for(adjusted) if adjusted is not None else "fair"
    if flag == "fair" and (adjusted is None or chance < JUDGE_POWER):
        return "too_few"
    return flag


# --- the counts -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DieTest:
    """The counts test of one die size (or of the luck chart, read as a d10).

    ``faces[i]`` counts face ``i + 1``. The chi-square test groups faces into ``bands`` equal bands
    (``bands == die`` when each face stands alone; ``chi2`` is None when even two bands would be too
    thin). ``face_p`` is the exact one-face test, made whenever faces are banded. ``p`` is the die's
    p-value before correction and ``adjusted`` after it (Holm, over ``family`` tests; None when the
    test did not enter the correction, ``tested`` False); the verdict comes from ``adjusted``.
    ``hot`` is the cell that departs most from a fair die's share, as (first face, last face,
    observed, expected): the busiest face when the exact one-face test decided, else the cell with
    the largest Pearson residual, above or below its share. ``least_p`` is the smallest p-value these
    many rolls allow. ``power`` is the chance the test had of flagging the reference loaded die;
    ``needed`` the rolls it would take to reach ``JUDGE_POWER``.
    """

    die: int
    faces: tuple[int, ...]
    bands: int
    chi2: float | None
    p: float | None
    verdict: str
    hot: tuple[int, int, int, float] | None
    face_p: float | None = None
    adjusted: float | None = None
    family: int = 1
    power: float = 0.0
    needed: int | None = None
    least_p: float = 1.0
    tested: bool = True

    @property
    def rolls(self) -> int:
        return sum(self.faces)

    @property
    def chi2_p(self) -> float | None:
        """The chi-square test's own p-value (before the two statistics are combined)."""
        if self.chi2 is None:
            return None
        return float(chi2_sf(self.chi2, self.bands - 1))

    def judged(self, adjusted: float | None, family: int, *, tested: bool) -> DieTest:
        """The verdict from the corrected p-value, and the power of the test at that correction (a
        test left out of the correction would be one more look if it entered)."""
        level = WATCH_P / (family if tested else family + 1)
        chance = power(self.die, self.rolls, level)
        needed = rolls_needed(self.die, level)
        return replace(
            self,
            adjusted=adjusted if tested else None,
            family=family,
            tested=tested,
            verdict=_verdict(adjusted if tested else None, chance),
            power=chance,
            needed=needed,
        )


@dataclass(frozen=True)
class _Counts:
    """The two statistics of a die's counts, before any verdict."""

    bands: int | None
    chi2: float | None
    chi_p: float | None
    face_p: float | None

    @property
    def p(self) -> float | None:
        if self.chi_p is not None and self.face_p is not None:
            return min(1.0, 2.0 * min(self.chi_p, self.face_p))
        return self.face_p if self.face_p is not None else self.chi_p


def _counts(die: int, counts: Sequence[int]) -> _Counts:
    rolls = sum(counts)
    bands = bands_for(die, rolls)
    chi2 = chi_p = None
    if bands is not None:
        expected = rolls / bands
        chi2 = math.fsum((count - expected) ** 2 for count in banded(counts, bands)) / expected
        chi_p = float(special.chdtrc(bands - 1, chi2))  # Pearson's test, as scipy.stats.chisquare
    face_p = max_face_p(die, rolls, max(counts)) if rolls and (bands is None or bands < die) else None
    return _Counts(bands, chi2, chi_p, face_p)


def _hot(die: int, counts: Sequence[int], found: _Counts) -> tuple[int, int, int, float] | None:
    """The cell that departs most from a fair die's share (see ``DieTest.hot``)."""
    rolls = sum(counts)
    if not rolls or (found.chi_p is None and found.face_p is None):
        return None
    if found.bands is None or (
        found.face_p is not None and found.chi_p is not None and found.face_p < found.chi_p
    ):
        top = max(range(die), key=lambda i: counts[i])
        return (top + 1, top + 1, counts[top], rolls / die)
    width = die // found.bands
    grouped = banded(counts, found.bands)
    share = rolls / found.bands
    cell = max(range(found.bands), key=lambda i: abs(grouped[i] - share))
    return (cell * width + 1, (cell + 1) * width, grouped[cell], share)


@cache
def least_p(die: int, rolls: int) -> float:
    """The smallest p-value the counts test can give with ``rolls`` rolls: every roll on one face."""
    if rolls <= 0:
        return 1.0
    p = _counts(die, [rolls] + [0] * (die - 1)).p
    return 1.0 if p is None else p


def die_test(die: int, faces: Sequence[int], *, family: int = 1) -> DieTest:
    """Test one die size on its own, judged as one of ``family`` tests."""
    test = _die_test(die, faces)
    return test.judged(test.p, family, tested=True)


def _die_test(die: int, faces: Sequence[int]) -> DieTest:
    """The counts test before any verdict (``judge`` gives it one, corrected for the page)."""
    counts = tuple(faces)
    found = _counts(die, counts)
    return DieTest(
        die,
        counts,
        found.bands if found.bands is not None else die,
        found.chi2,
        found.p,
        "too_few",
        _hot(die, counts, found),
        face_p=found.face_p,
        least_p=least_p(die, sum(counts)),
    )


# --- the order --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderTest:
    """The repeats test of one die size: ``repeats`` of ``pairs`` consecutive rolls showed the same
    face twice running, against ``pairs / die`` for a fair die. Fields as ``DieTest``'s; ``power``
    is against the reference sticky die, ``needed`` counts rolls."""

    die: int
    pairs: int
    repeats: int
    p: float | None
    verdict: str
    adjusted: float | None = None
    family: int = 1
    power: float = 0.0
    needed: int | None = None
    least_p: float = 1.0
    tested: bool = True

    @property
    def expected(self) -> float:
        return self.pairs / self.die

    @property
    def rolls(self) -> int:
        return self.pairs + 1 if self.pairs else 0

    def judged(self, adjusted: float | None, family: int, *, tested: bool) -> OrderTest:
        level = WATCH_P / (family if tested else family + 1)
        chance = order_power(self.die, self.pairs, level)
        needed = order_rolls_needed(self.die, level)
        return replace(
            self,
            adjusted=adjusted if tested else None,
            family=family,
            tested=tested,
            verdict=_verdict(adjusted if tested else None, chance),
            power=chance,
            needed=needed,
        )


@cache
def _order_least_p(die: int, pairs: int) -> float:
    if pairs <= 0 or die < 2:
        return 1.0
    extremes = [repeats_p(die, pairs, 0), repeats_p(die, pairs, pairs)]
    return min(1.0 if p is None else p for p in extremes)


def order_test(die: int, pairs: int, repeats: int, *, family: int = 1) -> OrderTest:
    """The repeats test of one die size on its own, judged as one of ``family`` tests."""
    test = _order_test(die, pairs, repeats)
    return test.judged(test.p, family, tested=True)


def _order_test(die: int, pairs: int, repeats: int) -> OrderTest:
    p = repeats_p(die, pairs, repeats)
    return OrderTest(die, pairs, repeats, p, "too_few", least_p=_order_least_p(die, pairs))


def order_tests(pairs: Mapping[int, int], repeats: Mapping[int, int]) -> list[OrderTest]:
    """The repeats test of every die size with a pair of rolls, before any verdict (``judge``)."""
    return [_order_test(die, pairs[die], repeats.get(die, 0)) for die in sorted(pairs) if die >= 2]


# --- the luck chart ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Calibration:
    """The luck percentiles' chart: ten bars, whose counts are tested as the faces of a d10.

    ``test`` is that test (its verdict, p-values and power); ``mean`` the average percentile.
    """

    histogram: tuple[int, ...]
    mean: float
    test: DieTest

    @property
    def count(self) -> int:
        return sum(self.histogram)

    @property
    def verdict(self) -> str:
        return self.test.verdict

    @property
    def p(self) -> float | None:
        return self.test.p

    @property
    def adjusted(self) -> float | None:
        return self.test.adjusted

    @property
    def band(self) -> tuple[float, float]:
        """Where every bar of a fair session's histogram stays, all of them at once, at least
        ``1 - BAND_MISS`` of the time: each bar's binomial range at level ``BAND_MISS / bars``
        (Bonferroni over the bars). A per-bar 95% band would see some bar stray in about four fair
        sessions out of ten."""
        bars = len(self.histogram)
        if not self.count or not bars:
            return (0.0, 0.0)
        tail = BAND_MISS / bars / 2.0
        low = float(binom_ppf(tail, self.count, 1.0 / bars))
        high = float(binom_isf(tail, self.count, 1.0 / bars))
        return (low, high)


def calibration_of(histogram: Sequence[int], mean: float) -> Calibration:
    """The luck chart's test before any verdict (``judge``)."""
    return Calibration(tuple(histogram), mean, _die_test(CALIBRATION_BINS, histogram))


def calibration(percentiles: Sequence[float]) -> Calibration:
    """The chart of these luck percentiles (each in [0, 1)), judged on its own."""
    histogram = [0] * CALIBRATION_BINS
    for u in percentiles:
        histogram[min(CALIBRATION_BINS - 1, max(0, int(u * CALIBRATION_BINS)))] += 1
    mean = sum(percentiles) / len(percentiles) if percentiles else 0.5
    chart = calibration_of(histogram, mean)
    return replace(chart, test=chart.test.judged(chart.test.p, 1, tested=True))


# --- the page ---------------------------------------------------------------------------------------


def die_tests(faces: Mapping[int, Sequence[int]]) -> list[DieTest]:
    """The counts test of every die size, before any verdict (``judge``)."""
    return [_die_test(die, faces[die]) for die in sorted(faces)]


def admitted(least: Sequence[float], alpha: float = WATCH_P) -> list[bool]:
    """Which tests enter the correction (Tarone): the smallest ``K`` such that at most ``K`` tests
    could reach ``alpha / K`` at all, and those tests.

    A test that cannot reach the level with the most lopsided result its rolls allow is never going
    to flag anything; counting it would only lower every other test's threshold. Which tests enter
    depends on how many rolls each had, never on what they showed, so the correction still holds.
    """
    for k in range(1, len(least) + 1):
        chosen = [p < alpha / k for p in least]
        if sum(chosen) <= k:
            return chosen
    return [False] * len(least)


def judge(
    dice: Sequence[DieTest], luck: Calibration, orders: Sequence[OrderTest] = ()
) -> tuple[list[DieTest], Calibration, list[OrderTest]]:
    """Every fairness test on the page, corrected together (Holm over the tests Tarone's rule lets
    in): each die's counts and order, and the luck chart."""
    tests: list[DieTest | OrderTest] = [*dice, *orders, luck.test]
    entered = admitted([t.least_p if t.p is not None else 1.0 for t in tests])
    family = max(1, sum(entered))
    adjusted = iter(holm([t.p for t, ok in zip(tests, entered, strict=True) if ok and t.p is not None]))
    judged = [
        t.judged(next(adjusted) if ok else None, family, tested=ok)
        for t, ok in zip(tests, entered, strict=True)
    ]
    judged_dice = [t for t in judged[: len(dice)] if isinstance(t, DieTest)]
    judged_orders = [t for t in judged[len(dice) : len(dice) + len(orders)] if isinstance(t, OrderTest)]
    chart = judged[-1]
    assert isinstance(chart, DieTest)
    return judged_dice, replace(luck, test=chart), judged_orders


def overall(verdicts: Iterable[str]) -> str:
    """The worst verdict (``too_few`` outranks ``fair``; nothing tested at all is ``too_few``)."""
    return max(verdicts, key=VERDICTS.index, default="too_few")

"""Were the dice fair? Checks a referee can read at a glance, corrected for how many were made.

* **Faces.** Every face the bridge rolled, per die size, against equal shares: Pearson's chi-square
  test. It needs about five expected rolls in each cell (Cochran's rule), so when a session is short
  the faces are grouped into equal bands (a d100's fives or tens, a d6's halves).
* **One face, exactly.** Bands hide a single face that comes up far too often (ten 01s in ten d100
  rolls fall in one band of twenty, which is merely "unusual"). So whenever the faces are banded,
  the largest count of any one face is tested too, exactly: the chance that a fair die shows *some*
  face at least that often in that many rolls (``max_face_p``). The die's p-value is the smaller
  of the two, doubled (Bonferroni over the two statistics), so the pair stays a valid test.
* **Luck.** The luck percentiles of all attacks (``bridge.report.luck``) are uniform under fair dice
  whatever the attacks were, so their histogram should be flat: the one-sample Kolmogorov-Smirnov
  test against the uniform distribution. This catches dice that are fair one by one but fall in a
  pattern, or odds that do not match what the rules actually do.

**Corrected verdicts.** A page runs one test per die size and one on the luck histogram; each at
0.001 would accuse some fair table more often than 0.001 of the time. ``judge`` applies Holm's step-down
correction across the tests on the page, and the verdicts come from the corrected p-values, so "looks
loaded" is said of a fair session at most one time in a thousand, "worth watching" one in a hundred.

**Power.** A test that finds nothing only says something if it could have found something. The
reference loading (``LOADING``) is a die that shows one face (a d100: one run of ten faces, as a
loaded tens die would) half again as often as it should. ``power`` is the chance that the test on
the page, at its corrected threshold, would have flagged such a die in as many rolls; a die whose
test had less than ``JUDGE_POWER`` of that chance is "too few rolls to judge", never "fair", and
``rolls_needed`` says how many rolls would do. Power comes from the noncentral chi-square
distribution of Pearson's statistic (the usual large-sample approximation; the exact one-face test
only adds to it, so the figure errs on the modest side).

SciPy computes the distributions (the exact small-sample KS distribution included).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

import numpy as np
from scipy import stats  # type: ignore[import-untyped]
from scipy.special import gammaln  # type: ignore[import-untyped]

from bridge.report.correction import holm

__all__ = [
    "ALERT_P",
    "BAND_MISS",
    "CALIBRATION_BINS",
    "JUDGE_POWER",
    "LOADING",
    "MIN_EXPECTED",
    "MIN_PERCENTILES",
    "WATCH_P",
    "Calibration",
    "DieTest",
    "banded",
    "calibration",
    "die_test",
    "die_tests",
    "judge",
    "loading_width",
    "max_face_p",
    "overall",
    "power",
    "rolls_needed",
    "verdict_for",
]

#: Below this corrected p-value the dice look loaded: a fair session hears it once in a thousand.
ALERT_P = 0.001
#: Below this one "unusual, worth watching", without accusing anyone (once in a hundred fair sessions).
WATCH_P = 0.01
#: Expected rolls per cell a chi-square test needs to be trusted (Cochran's rule).
MIN_EXPECTED = 5.0
#: Never more cells than this: a d100 is judged by at most twenty bands of five faces.
MAX_BANDS = 20
#: Fewer luck percentiles than this are too few for the Kolmogorov-Smirnov test to mean anything.
MIN_PERCENTILES = 10
#: Bars of the calibration histogram.
CALIBRATION_BINS = 10
#: The luck chart's shaded band misses some bar of a fair session at most this often.
BAND_MISS = 0.05
#: The reference loaded die: one face (a d100: one run of ten) comes up this many times its share.
LOADING = 1.5
#: A die counts as judged ("fair" rather than "too few rolls") when its test had at least this
#: chance of flagging the reference loaded die.
JUDGE_POWER = 0.8
#: Below this the one-face p-value is taken from its Bonferroni bound (``die`` times one face's
#: binomial tail), which is then exact to many digits, instead of one minus a number close to one.
_TINY = 1e-9
#: Dice with more faces than this take the one-face test's Bonferroni bound (always a valid, slightly
#: cautious p-value) instead of the face-by-face sum, which grows with the number of faces.
MAX_EXACT_FACES = 1000
#: Never look for more rolls than this when saying how many are needed.
_MOST_ROLLS = 10_000_000

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


@dataclass(frozen=True)
class DieTest:
    """The tests of one die size.

    ``faces[i]`` counts face ``i + 1``. The chi-square test groups faces into ``bands`` equal bands
    (``bands == die`` when each face stands alone; ``chi2`` is None when even two bands would be too
    thin). ``face_p`` is the exact one-face test, made whenever faces are banded. ``p`` is the die's
    p-value before correction and ``adjusted`` after it (Holm, over ``family`` tests); the verdict
    comes from ``adjusted``. ``hot`` is what drew the eye, as (first face, last face, observed /
    expected): the band furthest above its share, or the one face of the exact test when that one
    decided. ``power`` is the chance the test had of flagging the reference loaded die; ``needed``
    the rolls it would take to reach ``JUDGE_POWER``.
    """

    die: int
    faces: tuple[int, ...]
    bands: int
    chi2: float | None
    p: float | None
    verdict: str
    hot: tuple[int, int, float] | None
    face_p: float | None = None
    adjusted: float | None = None
    family: int = 1
    power: float = 0.0
    needed: int | None = None

    @property
    def rolls(self) -> int:
        return sum(self.faces)

    @property
    def chi2_p(self) -> float | None:
        """The chi-square test's own p-value (before the two statistics are combined)."""
        if self.chi2 is None:
            return None
        return float(stats.chi2.sf(self.chi2, self.bands - 1))


def _bands(die: int, rolls: int) -> int | None:
    """The most equal bands of faces (each face alone if possible) with enough rolls in each."""
    for bands in range(min(die, MAX_BANDS), 1, -1):
        if die % bands == 0 and rolls / bands >= MIN_EXPECTED:
            return bands
    return None


def banded(faces: Sequence[int], bands: int) -> list[int]:
    """Face counts summed into ``bands`` equal bands of consecutive faces (1-10, 11-20, ... of a d100)."""
    width = len(faces) // bands
    return [sum(faces[i * width : (i + 1) * width]) for i in range(bands)]


def max_face_p(die: int, rolls: int, most: int) -> float:
    """P(some face of a fair ``die`` shows at least ``most`` times in ``rolls`` rolls), exactly.

    The counts of a fair die are multinomial; the chance that *every* face stays below ``most`` is
    found face by face: the first face's count is binomial(rolls, 1/die), the next one's binomial in
    the rolls left with 1/(die - 1), and so on, carrying the distribution of rolls left. When the
    answer is tiny, one minus a number near one would lose it in rounding, so the Bonferroni bound
    ``die * P(Binomial(rolls, 1/die) >= most)`` is used instead: it exceeds the exact value by less
    than the chance of two faces both reaching ``most``, which is then negligible.
    """
    if most <= 0 or rolls <= 0:
        return 1.0
    if most > rolls:
        return 0.0
    bound = float(die * stats.binom.sf(most - 1, rolls, 1.0 / die))
    if bound < _TINY or die > MAX_EXACT_FACES:
        return min(1.0, bound)
    cap = min(most - 1, rolls)
    left = np.zeros(rolls + 1)
    left[rolls] = 1.0  # P(rolls still to place)
    remaining = np.arange(rolls + 1, dtype=float)[None, :]
    taken = np.arange(cap + 1, dtype=float)[:, None]
    possible = taken <= remaining
    choose = np.where(
        possible,
        gammaln(remaining + 1) - gammaln(taken + 1) - gammaln(np.maximum(remaining - taken, 0) + 1),
        0,
    )
    for face in range(die - 1):
        share = 1.0 / (die - face)
        # weights[c, r]: of r rolls left, this face takes c (a binomial with the faces still to come)
        logs = choose + taken * math.log(share) + (remaining - taken) * math.log1p(-share)
        weights = np.where(possible, np.exp(np.where(possible, logs, 0.0)), 0.0)
        after = np.zeros(rolls + 1)
        for count in range(cap + 1):
            after[: rolls + 1 - count] += left[count:] * weights[count, count:]
        left = after
    # the last face takes whatever is left: it must be below `most` as well
    below = float(left[: cap + 1].sum())
    return min(1.0, max(0.0, 1.0 - below))


def _hot_band(grouped: Sequence[int], width: int, share: float) -> tuple[int, int, float]:
    top = max(range(len(grouped)), key=lambda i: grouped[i])
    return (top * width + 1, (top + 1) * width, grouped[top] / share)


def die_test(die: int, faces: Sequence[int], *, family: int = 1) -> DieTest:
    """Test one die size on its own (``judge`` corrects it for the other tests on the page)."""
    counts = tuple(faces)
    rolls = sum(counts)
    bands = _bands(die, rolls)
    chi2: float | None = None
    chi_p: float | None = None
    hot: tuple[int, int, float] | None = None
    if bands is not None:
        width = die // bands
        grouped = banded(counts, bands)
        statistic, p_value = stats.chisquare(grouped)
        chi2, chi_p = float(statistic), float(p_value)
        hot = _hot_band(grouped, width, rolls / bands)
    face_p: float | None = None
    if rolls and (bands is None or bands < die):
        face_p = max_face_p(die, rolls, max(counts))
    p: float | None
    if chi_p is not None and face_p is not None:
        p = min(1.0, 2.0 * min(chi_p, face_p))
        if face_p < chi_p:
            top = max(range(die), key=lambda i: counts[i])
            hot = (top + 1, top + 1, counts[top] / (rolls / die))
    elif face_p is not None:
        p = face_p
        top = max(range(die), key=lambda i: counts[i])
        hot = (top + 1, top + 1, counts[top] / (rolls / die))
    else:
        p = chi_p
    test = DieTest(die, counts, bands if bands is not None else die, chi2, p, "too_few", hot, face_p=face_p)
    return _with_verdict(test, p, family)


def _with_verdict(test: DieTest, adjusted: float | None, family: int) -> DieTest:
    """The verdict from the corrected p-value, and the power of a test at that correction."""
    level = WATCH_P / family
    chance = power(test.die, test.rolls, level)
    needed = rolls_needed(test.die, level)
    flag = verdict_for(adjusted) if adjusted is not None else "fair"
    if flag == "fair" and chance < JUDGE_POWER:
        flag = "too_few"
    return replace(test, adjusted=adjusted, family=family, verdict=flag, power=chance, needed=needed)


def loading_width(die: int) -> int:
    """How many faces the reference loading favours: one, or a run of ten on a d100-like die."""
    return die // 10 if die > 20 and die % 10 == 0 else 1


def _loaded_shares(die: int) -> list[float]:
    """The reference loaded die: its first ``loading_width`` faces come up ``LOADING`` times their
    share, the other faces share what is left equally."""
    width = loading_width(die)
    favoured = LOADING / die
    rest = (1.0 - width * favoured) / (die - width)
    return [favoured] * width + [rest] * (die - width)


@cache
def power(die: int, rolls: int, level: float) -> float:
    """The chance the page's test flags the reference loaded die at p < ``level`` in ``rolls`` rolls.

    Pearson's statistic on ``bands`` cells is approximately noncentral chi-square with ``bands - 1``
    degrees of freedom and noncentrality ``rolls * bands * sum((share - 1/bands)^2)``. Where the exact
    one-face test runs alongside, the chi-square test only has half the level; what the exact test
    adds is not counted, so the figure is a floor.
    """
    bands = _bands(die, rolls)
    if bands is None:
        return 0.0
    width = die // bands
    faces = _loaded_shares(die)
    shares = [math.fsum(faces[i * width : (i + 1) * width]) for i in range(bands)]
    noncentrality = rolls * bands * math.fsum((share - 1.0 / bands) ** 2 for share in shares)
    alpha = level / 2.0 if bands < die else level
    critical = stats.chi2.isf(alpha, bands - 1)
    return float(stats.ncx2.sf(critical, bands - 1, noncentrality))


@cache
def rolls_needed(die: int, level: float, target: float = JUDGE_POWER) -> int | None:
    """The fewest rolls (to two significant figures) with which the test reaches ``target`` power."""
    high = max(die * 2, 16)
    while power(die, high, level) < target:
        high *= 2
        if high > _MOST_ROLLS:
            return None
    low = high // 2
    while high - low > 1:
        middle = (low + high) // 2
        if power(die, middle, level) >= target:
            high = middle
        else:
            low = middle
    digits = max(0, len(str(high)) - 2)
    return int(math.ceil(high / 10**digits) * 10**digits)


@dataclass(frozen=True)
class Calibration:
    """The luck percentiles against the uniform distribution (whose mean is 0.5).

    ``p`` is the Kolmogorov-Smirnov p-value, ``adjusted`` the same after correction for the other
    tests on the page; the verdict comes from ``adjusted``.
    """

    count: int
    histogram: tuple[int, ...]
    ks: float | None
    p: float | None
    verdict: str
    mean: float
    adjusted: float | None = None

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
        low = float(stats.binom.ppf(tail, self.count, 1.0 / bars))
        high = float(stats.binom.isf(tail, self.count, 1.0 / bars))
        return (low, high)


def calibration(percentiles: Sequence[float]) -> Calibration:
    histogram = [0] * CALIBRATION_BINS
    for u in percentiles:
        histogram[min(CALIBRATION_BINS - 1, max(0, int(u * CALIBRATION_BINS)))] += 1
    count = len(percentiles)
    mean = sum(percentiles) / count if count else 0.5
    if count < MIN_PERCENTILES:
        return Calibration(count, tuple(histogram), None, None, "too_few", mean)
    result = stats.kstest(list(percentiles), "uniform")
    p = float(result.pvalue)
    return Calibration(count, tuple(histogram), float(result.statistic), p, verdict_for(p), mean, p)


def die_tests(faces: Mapping[int, Sequence[int]]) -> list[DieTest]:
    return [die_test(die, faces[die]) for die in sorted(faces)]


def judge(dice: Sequence[DieTest], luck: Calibration) -> tuple[list[DieTest], Calibration]:
    """Every fairness test on the page, corrected together (Holm): the dice and the luck histogram."""
    raw: list[float] = [t.p for t in dice if t.p is not None]
    if luck.p is not None:
        raw.append(luck.p)
    family = max(1, len(raw))
    adjusted = iter(holm(raw))
    judged = [_with_verdict(t, next(adjusted) if t.p is not None else None, family) for t in dice]
    if luck.p is None:
        return judged, luck
    corrected = next(adjusted)
    return judged, replace(luck, adjusted=corrected, verdict=verdict_for(corrected))


def overall(verdicts: Iterable[str]) -> str:
    """The worst verdict (``too_few`` outranks ``fair``; nothing tested at all is ``too_few``)."""
    return max(verdicts, key=VERDICTS.index, default="too_few")

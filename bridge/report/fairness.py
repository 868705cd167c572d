"""Were the dice fair? Two independent checks, each with a verdict a referee can read at a glance.

* **Faces.** Every face the bridge rolled, per die size, against equal shares: Pearson's chi-square
  test. The test needs about five expected rolls in each cell (Cochran's rule), so when a session is
  short the faces are grouped into equal bands (a d100's tens, a d6's halves); with too few rolls even
  for that, the verdict is "too few rolls" rather than a meaningless p-value.
* **Luck.** The luck percentiles of all attacks (``bridge.report.luck``) are uniform under fair dice
  whatever the attacks were, so their histogram should be flat: the one-sample Kolmogorov-Smirnov
  test against the uniform distribution. This catches what face counts cannot: dice that are fair
  one by one but fall in a pattern, or odds that do not match what the rules actually do.

SciPy computes the p-values (the exact small-sample KS distribution included).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from scipy import stats  # type: ignore[import-untyped]

__all__ = [
    "ALERT_P",
    "CALIBRATION_BINS",
    "MIN_EXPECTED",
    "MIN_PERCENTILES",
    "WATCH_P",
    "Calibration",
    "DieTest",
    "banded",
    "calibration",
    "die_test",
    "die_tests",
    "overall",
]

#: Below this p-value a test says the dice look loaded. Strict, because a report runs several tests
#: (one per die size, and the luck histogram) and a fair table should almost never be accused.
ALERT_P = 0.001
#: Below this one it says "unusual, worth watching", without accusing anyone.
WATCH_P = 0.01
#: Expected rolls per cell a chi-square test needs to be trusted (Cochran's rule).
MIN_EXPECTED = 5.0
#: Never more cells than this: a d100 is judged by at most twenty bands of five faces.
MAX_BANDS = 20
#: Fewer luck percentiles than this are too few for the Kolmogorov-Smirnov test to mean anything.
MIN_PERCENTILES = 10
#: Bars of the calibration histogram.
CALIBRATION_BINS = 10

#: Verdicts from best to worst.
VERDICTS = ("too_few", "fair", "watch", "alert")


def _verdict(p: float) -> str:
    if p < ALERT_P:
        return "alert"
    if p < WATCH_P:
        return "watch"
    return "fair"


@dataclass(frozen=True)
class DieTest:
    """The chi-square test of one die size.

    ``faces[i]`` counts face ``i + 1``. The test groups faces into ``bands`` equal bands (``bands ==
    die`` when each face stands alone). ``hot`` is the band that came up most above its share, as
    (first face, last face, observed / expected).
    """

    die: int
    faces: tuple[int, ...]
    bands: int
    chi2: float | None
    p: float | None
    verdict: str
    hot: tuple[int, int, float] | None

    @property
    def rolls(self) -> int:
        return sum(self.faces)


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


def die_test(die: int, faces: Sequence[int]) -> DieTest:
    counts = tuple(faces)
    rolls = sum(counts)
    bands = _bands(die, rolls)
    if bands is None:
        return DieTest(die, counts, die, None, None, "too_few", None)
    width = die // bands
    grouped = banded(counts, bands)
    chi2, p = stats.chisquare(grouped)
    share = rolls / bands
    top = max(range(bands), key=lambda i: grouped[i])
    hot = (top * width + 1, (top + 1) * width, grouped[top] / share)
    return DieTest(die, counts, bands, float(chi2), float(p), _verdict(float(p)), hot)


@dataclass(frozen=True)
class Calibration:
    """The luck percentiles against the uniform distribution (whose mean is 0.5)."""

    count: int
    histogram: tuple[int, ...]
    ks: float | None
    p: float | None
    verdict: str
    mean: float


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
    return Calibration(count, tuple(histogram), float(result.statistic), p, _verdict(p), mean)


def die_tests(faces: Mapping[int, Sequence[int]]) -> list[DieTest]:
    return [die_test(die, faces[die]) for die in sorted(faces)]


def overall(verdicts: Iterable[str]) -> str:
    """The worst verdict among the tests that could be made (``too_few`` if none could)."""
    return max(verdicts, key=VERDICTS.index, default="too_few")

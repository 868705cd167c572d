"""The power of the fairness tests: the reference loaded die (``LOADING``) and sticky die
(``STICKY``), the chance each test had of catching them (``power``, simulated; ``order_power``,
exact), and how many rolls it would take to reach ``JUDGE_POWER`` (``rolls_needed``,
``order_rolls_needed``: read from ``power_table`` for the dice and levels pages meet, else searched
for). ``fairness`` says why a test without that power says "too few rolls".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import numpy as np
from scipy import special  # type: ignore[import-untyped]

from bridge.report import power_table
from bridge.report.distributions import MAX_BANDS, bands_for, max_face_p
from bridge.report.laws import binom_cdf, binom_pmf, binom_sf

__all__ = [
    "JUDGE_POWER",
    "LOADING",
    "POWER_DRAWS",
    "STICKY",
    "loading_width",
    "order_power",
    "order_rolls_needed",
    "power",
    "rolls_needed",
    "search_order_rolls_needed",
    "search_rolls_needed",
]


#: The reference loaded die: one face (a d100: one run of ten) comes up this many times its share.
LOADING = 1.5
#: The reference sticky die: it shows its last face again this share of the time, else rolls fairly.
STICKY = 0.2
#: A test counts as judged ("fair" rather than "too few rolls") when it had at least this chance of
#: flagging its reference die.
JUDGE_POWER = 0.8
#: Draws of the reference loaded die behind each power figure (standard error at most 0.0036; at a
#: power of 0.8, 0.0028).
POWER_DRAWS = 20_000
#: Draws behind each step of the search for the rolls needed (the answer is checked with all of them).
SEARCH_DRAWS = 4_000
#: The seed of those draws: the same page twice says the same power.
POWER_SEED = 36
#: Draws are made this many at a time (memory: at most a few megabytes for a d100).
_BATCH = 2_000
#: Never look for more rolls than this when saying how many are needed.
_MOST_ROLLS = 10_000_000
#: Binomial probabilities further out than this many standard deviations are below 1e-30: the
#: order test's power sums only the window inside.
_WINDOW_SD = 12.0


def _round_up(rolls: int) -> int:
    """Rolls to three significant figures, rounded up (1,013 -> 1,020): close enough to print, and
    never fewer than the power needs."""
    digits = max(0, len(str(rolls)) - 3)
    return int(math.ceil(rolls / 10**digits) * 10**digits)


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
def _critical_most(die: int, rolls: int, level: float) -> int | None:
    """The fewest rolls of the busiest face that make ``max_face_p`` fall below ``level`` (None: no
    count can). The Bonferroni bound (never below the exact value) finds it from above in one
    vectorised step; the exact value then walks down the few counts where the two differ."""
    if rolls <= 0 or max_face_p(die, rolls, rolls) >= level:
        return None
    counts = np.arange(1, rolls + 1)
    bound = die * binom_sf(counts - 1, rolls, 1.0 / die)
    most = int(counts[np.argmax(bound < level)])  # the bound falls below the level here
    while most > 1 and max_face_p(die, rolls, most - 1) < level:
        most -= 1
    return most


def power(die: int, rolls: int, level: float) -> float:
    """The chance the page's counts test flags the reference loaded die at p < ``level`` in ``rolls``.

    Simulated: ``POWER_DRAWS`` face counts of the loaded die, each judged by the page's rule (the
    chi-square p below its level, or the busiest face at or above the count whose exact p is; when
    both run, each at half the level, as the doubled smaller p is).
    """
    return _power(die, rolls, level, POWER_DRAWS)


@cache
def _power(die: int, rolls: int, level: float, draws: int) -> float:
    """``power`` from the first ``draws`` draws (the same ones whatever ``draws`` is)."""
    if die < 2:
        return 0.0  # a one-sided die cannot be loaded
    bands = bands_for(die, rolls)
    exact = rolls > 0 and (bands is None or bands < die)
    if bands is None and not exact:
        return 0.0
    both = bands is not None and exact
    most = _critical_most(die, rolls, level / 2 if both else level) if exact else None
    if bands is None and most is None:
        return 0.0
    rng = np.random.default_rng(POWER_SEED)
    shares = _loaded_shares(die)
    caught = 0
    for _ in range(draws // _BATCH):
        counts = rng.multinomial(rolls, shares, size=_BATCH)
        flagged = np.zeros(_BATCH, dtype=bool)
        if bands is not None:
            expected = rolls / bands
            grouped = counts.reshape(_BATCH, bands, die // bands).sum(axis=2)
            statistic = ((grouped - expected) ** 2).sum(axis=1) / expected
            flagged |= special.chdtrc(bands - 1, statistic) < (level / 2 if both else level)
        if most is not None:
            flagged |= counts.max(axis=1) >= most
        caught += int(flagged.sum())
    return caught / draws


def _needed(
    measure: Callable[[int, float], float],
    level: float,
    target: float,
    guess: int = 16,
    check: Callable[[int, float], float] | None = None,
) -> int | None:
    """The fewest rolls (three significant figures, rounded up) at which ``measure(rolls, level)``
    reaches ``target``: a bracket from ``guess`` (growing or shrinking by a tenth, doubling once far
    off), then halved down to half a percent; ``check`` (the finer measure) has the last word."""
    high = max(2, guess)
    if measure(high, level) >= target:
        low = high
        while low > 2 and measure(low, level) >= target:
            high, low = low, max(2, int(low * 0.9))
    else:
        low, step = high, 1.1
        while measure(high, level) < target:
            low, high = high, max(high + 1, int(high * step))
            step = min(2.0, step * 1.2)
            if high > _MOST_ROLLS:
                return None
    while high - low > max(1, high // 200):
        middle = (low + high) // 2
        if measure(middle, level) >= target:
            high = middle
        else:
            low = middle
    needed = _round_up(high)
    final = check or measure
    while final(needed, level) < target:  # a simulated curve is not quite monotone
        needed = _round_up(needed + max(1, needed // 200))
    return needed


def _approximate_needed(die: int, level: float, target: float) -> int:
    """Where to start looking: the rolls the noncentral chi-square approximation of Pearson's
    statistic on single faces (or twenty bands) gives."""
    from scipy import stats  # only here: a search (the table holds the usual ones), and a slow import

    bands = min(die, MAX_BANDS) if die % min(die, MAX_BANDS) == 0 else die
    width = die // bands
    faces = _loaded_shares(die)
    shares = [math.fsum(faces[i * width : (i + 1) * width]) for i in range(bands)]
    per_roll = bands * math.fsum((share - 1.0 / bands) ** 2 for share in shares)
    critical = stats.chi2.isf(level, bands - 1)
    low, high = 1.0, float(_MOST_ROLLS)
    for _ in range(60):
        middle = math.sqrt(low * high)
        if stats.ncx2.sf(critical, bands - 1, middle * per_roll) >= target:
            high = middle
        else:
            low = middle
    return max(2, int(high))


@cache
def rolls_needed(die: int, level: float, target: float = JUDGE_POWER) -> int | None:
    """The fewest rolls with which the counts test reaches ``target`` power (three significant figures):
    from ``power_table`` when it holds the answer, else searched for."""
    ahead = power_table.entries()
    key = ("counts", die, level, target)
    return ahead[key] if key in ahead else search_rolls_needed(die, level, target)


def search_rolls_needed(die: int, level: float, target: float = JUDGE_POWER) -> int | None:
    """``rolls_needed`` worked out afresh."""
    if die < 2:
        return None
    return _needed(
        lambda rolls, at: _power(die, rolls, at, SEARCH_DRAWS),
        level,
        target,
        _approximate_needed(die, level, target),
        check=lambda rolls, at: power(die, rolls, at),
    )


def _window(pairs: int, chance: float) -> np.ndarray:
    spread = _WINDOW_SD * math.sqrt(pairs * chance * (1 - chance)) + 10
    low = max(0, math.floor(pairs * chance - spread))
    high = min(pairs, math.ceil(pairs * chance + spread))
    return np.arange(low, high + 1)


@cache
def order_power(die: int, pairs: int, level: float) -> float:
    """The chance the repeats test flags the reference sticky die at p < ``level``, exactly.

    The test keeps the counts whose p-value is at least ``level``: a stretch around ``pairs / die``
    (inside the window of fair counts that are not vanishingly rare). Under the sticky die the count
    of repeats is binomial with chance ``STICKY + (1 - STICKY) / die``; the power is one minus its
    probability of landing in that stretch.
    """
    if pairs <= 0 or die < 2:
        return 0.0
    fair = 1.0 / die
    ks = _window(pairs, fair)
    pmf = binom_pmf(ks, pairs, fair)
    # each count's two-sided p: the mass of every count no likelier than it (those outside the
    # window are below 1e-30 together, far under any level the page uses)
    order = np.argsort(pmf, kind="stable")
    cumulative = np.cumsum(pmf[order])
    positions = np.searchsorted(pmf[order], pmf * (1 + 1e-7), side="right") - 1
    p_values = cumulative[positions]
    kept = ks[p_values >= level]
    if not len(kept):
        return 1.0
    sticky = STICKY + (1.0 - STICKY) / die
    inside = float(binom_cdf(kept.max(), pairs, sticky) - binom_cdf(kept.min() - 1, pairs, sticky))
    return max(0.0, min(1.0, 1.0 - inside))


@cache
def order_rolls_needed(die: int, level: float, target: float = JUDGE_POWER) -> int | None:
    """The fewest rolls with which the repeats test reaches ``target`` power against the sticky die:
    from ``power_table`` when it holds the answer, else searched for."""
    ahead = power_table.entries()
    key = ("order", die, level, target)
    return ahead[key] if key in ahead else search_order_rolls_needed(die, level, target)


def search_order_rolls_needed(die: int, level: float, target: float = JUDGE_POWER) -> int | None:
    """``order_rolls_needed`` worked out afresh."""
    return _needed(lambda rolls, at: order_power(die, max(0, rolls - 1), at), level, target)

"""What a fair die does, exactly: the bands its counts are tested in, the chance that some face
comes up at least so often (``max_face_p``), and the two-sided chance of so many repeats
(``repeats_p``). The tests in ``fairness`` and the power in ``power`` are built on these.

SciPy computes the distributions (``laws``: those of ``scipy.stats`` without importing it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import special  # type: ignore[import-untyped]

from bridge.report.laws import binom_sf, poisson_pmf

__all__ = ["MAX_BANDS", "MAX_EXACT_FACES", "MIN_EXPECTED", "banded", "bands_for", "max_face_p", "repeats_p"]


#: Expected rolls per cell a chi-square test needs to be trusted (Cochran's rule).
MIN_EXPECTED = 5.0
#: Never more cells than this: a d100 is judged by at most twenty bands of five faces.
MAX_BANDS = 20
#: Below this the one-face p-value is taken from its Bonferroni bound (``die`` times one face's
#: binomial tail), which is then exact to many digits, instead of one minus a number close to one.
_TINY = 1e-9
#: Dice with more faces than this take the one-face test's Bonferroni bound (always a valid, slightly
#: cautious p-value) instead of the face-by-face sum, which grows with the number of faces.
MAX_EXACT_FACES = 1000
#: Convolutions of arrays whose lengths multiply to more than this are made by FFT.
_DIRECT_CONVOLUTION = 4_000_000


def bands_for(die: int, rolls: int) -> int | None:
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

    When ``most`` is more than half the rolls, at most one face can reach it, so the chance is ``die``
    times one face's binomial tail, exactly. Otherwise the chance that *every* face stays below
    ``most`` comes from Poissonisation: the counts of a fair die are independent Poisson counts of
    mean ``rolls / die`` given that they add up to ``rolls``, so it is the ``rolls``-th term of the
    ``die``-fold convolution of the Poisson probabilities below ``most`` (worked out by repeated
    squaring), divided by the Poisson chance of exactly ``rolls`` in all. When the answer is tiny,
    one minus a number near one would lose it in rounding, so the Bonferroni bound
    ``die * P(Binomial(rolls, 1/die) >= most)`` is used instead: it exceeds the exact value by less
    than the chance of two faces both reaching ``most``, which is then negligible.
    """
    if most <= 0 or rolls <= 0:
        return 1.0
    if most > rolls:
        return 0.0
    bound = float(die * binom_sf(most - 1, rolls, 1.0 / die))
    if 2 * most > rolls or bound < _TINY or die > MAX_EXACT_FACES:
        return min(1.0, bound)
    below = poisson_pmf(np.arange(most), rolls / die)
    together = np.ones(1)
    power_ = below
    times = die
    while times:
        if times & 1:
            together = _convolve(together, power_, rolls)
        times >>= 1
        if times:
            power_ = _convolve(power_, power_, rolls)
    inside = float(together[rolls]) if len(together) > rolls else 0.0
    return min(1.0, max(0.0, 1.0 - inside / float(poisson_pmf(rolls, rolls))))


def _convolve(a: np.ndarray, b: np.ndarray, rolls: int) -> np.ndarray:
    """``a`` convolved with ``b``, up to the ``rolls``-th term (by FFT once the arrays are long)."""
    if len(a) * len(b) <= _DIRECT_CONVOLUTION:
        out = np.convolve(a, b)
    else:
        from scipy import signal  # only here: long arrays are rare, and it takes a while to import

        out = np.maximum(signal.fftconvolve(a, b), 0.0)
    return out[: rolls + 1]


def repeats_p(die: int, pairs: int, repeats: int) -> float | None:
    """The exact two-sided binomial p-value of ``repeats`` in ``pairs`` at chance ``1/die``: the
    chance of a count no likelier than the one seen (SciPy's ``binomtest``, worked out the same way
    with its special functions, which is a hundred times quicker)."""
    if pairs <= 0 or die < 2:
        return None
    n, k, chance = pairs, repeats, 1.0 / die
    mean = n * chance
    if k == mean:
        return 1.0
    limit = _binomial_pmf(k, n, chance) * (1 + 1e-7)
    if k < mean:
        # the counts above the mean no likelier than k: from the first one at or below the limit
        low, high = math.ceil(mean), n
        while low < high:
            middle = (low + high) // 2
            if _binomial_pmf(middle, n, chance) <= limit:
                high = middle
            else:
                low = middle + 1
        upper = float(special.bdtrc(low - 1, n, chance)) if _binomial_pmf(low, n, chance) <= limit else 0.0
        p = float(special.bdtr(k, n, chance)) + upper
    else:
        # the counts below the mean no likelier than k: up to the last one at or below the limit
        low, high = 0, math.floor(mean)
        while low < high:
            middle = (low + high + 1) // 2
            if _binomial_pmf(middle, n, chance) <= limit:
                low = middle
            else:
                high = middle - 1
        lower = float(special.bdtr(low, n, chance)) if _binomial_pmf(low, n, chance) <= limit else 0.0
        p = lower + float(special.bdtrc(k - 1, n, chance))
    return min(1.0, p)


def _binomial_pmf(k: int, n: int, chance: float) -> float:
    if k < 0 or k > n:
        return 0.0
    logs = (
        special.gammaln(n + 1)
        - special.gammaln(k + 1)
        - special.gammaln(n - k + 1)
        + special.xlogy(k, chance)
        + special.xlog1py(n - k, -chance)
    )
    return float(np.exp(logs))

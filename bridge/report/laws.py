"""The binomial, Poisson and chi-square laws the report evaluates, without importing ``scipy.stats``.

``scipy.stats`` takes about 0.7 s of CPU to import (it parses the docstrings of some hundred
distributions), more than a report's tests. Each function here is the ``scipy.stats`` method it is
named after, for the arguments the report passes (a whole ``n >= 0``, ``0 <= p <= 1``, a whole ``k``
or ``df >= 1``), computed the way that method computes it: the same ``scipy.special`` function on the
same numbers, the same edges of the support, the same clipping. So every figure is the same to the
last bit (``tests/report/test_report_laws.py`` compares them with ``scipy.stats`` itself). A SciPy
whose ``scipy.special`` lacks the binomial's functions (older ones kept them in ``scipy.stats``)
gets ``scipy.stats`` itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import special  # type: ignore[import-untyped]
from scipy.special import _ufuncs  # type: ignore[import-untyped]  # the functions scipy.stats calls

__all__ = ["binom_cdf", "binom_isf", "binom_pmf", "binom_ppf", "binom_sf", "chi2_sf", "poisson_pmf"]

#: This SciPy's ``scipy.special`` has the binomial functions ``scipy.stats.binom`` calls.
HERE = all(hasattr(_ufuncs, f"_binom_{law}") for law in ("sf", "cdf", "pmf", "ppf", "isf"))


def _binom(law: str, *args: Any) -> Any:
    """``scipy.stats.binom``'s own ``law``, for a SciPy without them in ``scipy.special``."""
    from scipy import stats

    return getattr(stats.binom, law)(*args)


def _result(out: np.ndarray) -> Any:
    """A scalar for a scalar argument (``numpy.float64``), else the array, as ``scipy.stats`` returns."""
    return out[()] if out.ndim == 0 else out


def binom_sf(k: Any, n: int, p: float) -> Any:
    """``scipy.stats.binom.sf(k, n, p)``: P(X > k)."""
    if not HERE:
        return _binom("sf", k, n, p)
    k = np.asarray(k)
    out = np.zeros(k.shape)
    out[k < 0] = 1.0
    inside = (k >= 0) & (k < n)
    if inside.any():
        out[inside] = np.clip(_ufuncs._binom_sf(np.floor(k[inside]), n, p), 0, 1)
    return _result(out)


def binom_cdf(k: Any, n: int, p: float) -> Any:
    """``scipy.stats.binom.cdf(k, n, p)``: P(X <= k)."""
    if not HERE:
        return _binom("cdf", k, n, p)
    k = np.asarray(k)
    out = np.zeros(k.shape)
    out[k >= n] = 1.0
    inside = (k >= 0) & (k < n)
    if inside.any():
        out[inside] = np.clip(_ufuncs._binom_cdf(np.floor(k[inside]), n, p), 0, 1)
    return _result(out)


def binom_pmf(k: Any, n: int, p: float) -> Any:
    """``scipy.stats.binom.pmf(k, n, p)``: P(X = k)."""
    if not HERE:
        return _binom("pmf", k, n, p)
    k = np.asarray(k)
    out = np.zeros(k.shape)
    inside = (k >= 0) & (k <= n) & (np.floor(k) == k)
    if inside.any():
        out[inside] = np.clip(_ufuncs._binom_pmf(k[inside], n, p), 0, 1)
    return _result(out)


def binom_ppf(q: float, n: int, p: float) -> Any:
    """``scipy.stats.binom.ppf(q, n, p)``: the least k with P(X <= k) >= q (-1 at q = 0)."""
    if not HERE:
        return _binom("ppf", q, n, p)
    if q == 0:
        return np.float64(-1.0)
    if q == 1:
        return np.float64(n)
    if not 0 < q < 1:
        return np.float64(np.nan)
    return np.float64(_ufuncs._binom_ppf(q, n, p) + 0)


def binom_isf(q: float, n: int, p: float) -> Any:
    """``scipy.stats.binom.isf(q, n, p)``: the least k with P(X > k) <= q (-1 at q = 1)."""
    if not HERE:
        return _binom("isf", q, n, p)
    if q == 1:
        return np.float64(-1.0)
    if q == 0:
        return np.float64(n)
    if not 0 < q < 1:
        return np.float64(np.nan)
    return np.float64(_ufuncs._binom_isf(q, n, p) + 0)


def poisson_pmf(k: Any, mu: float) -> Any:
    """``scipy.stats.poisson.pmf(k, mu)``: P(X = k) for a Poisson count of mean ``mu``."""
    k = np.asarray(k)
    out = np.zeros(k.shape)
    inside = (k >= 0) & (np.floor(k) == k)
    if inside.any():
        whole = k[inside]
        out[inside] = np.clip(np.exp(special.xlogy(whole, mu) - special.gammaln(whole + 1) - mu), 0, 1)
    return _result(out)


def chi2_sf(x: float, df: int) -> Any:
    """``scipy.stats.chi2.sf(x, df)``: P(X > x) for a chi-square variable of ``df`` degrees of freedom."""
    value = np.asarray(x, dtype=np.float64)
    out = np.zeros(value.shape)
    out[np.isnan(value)] = np.nan
    out[value <= 0] = 1.0
    inside = (value > 0) & (value < np.inf)
    if inside.any():
        out[inside] = special.chdtrc(df, value[inside])
    return _result(out)

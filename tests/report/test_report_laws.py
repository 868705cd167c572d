"""``bridge.report.laws`` is ``scipy.stats`` to the last bit for every argument the report passes, and
a report is built without importing ``scipy.stats`` (0.7 s of every ``volley report``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from reportkit import REPLAYS
from scipy import stats

from bridge.report import laws

ROOT = Path(__file__).resolve().parents[2]
CHANCES = (0.0, 1e-9, 0.01, 1 / 6, 0.2, 1 / 3, 0.5, 0.7, 0.99, 1.0)
SIZES = (0, 1, 2, 7, 30, 100, 1_000, 10_000, 123_457)


def _same(mine: object, theirs: object) -> None:
    """Equal bit for bit (nan where nan), of the same type and shape."""
    assert type(mine) is type(theirs), (type(mine), type(theirs))
    assert np.array_equal(np.asarray(mine), np.asarray(theirs), equal_nan=True), (mine, theirs)
    assert np.asarray(mine).dtype == np.asarray(theirs).dtype


@pytest.mark.parametrize("n", SIZES)
def test_the_binomial_is_scipys(n: int) -> None:
    ks = np.unique(np.clip(np.r_[-3:5, n // 3 - 4 : n // 3 + 4, n // 2, n - 3 : n + 4], -3, n + 3))
    for p in CHANCES:
        for law in ("sf", "cdf", "pmf"):
            mine, theirs = getattr(laws, f"binom_{law}"), getattr(stats.binom, law)
            _same(mine(ks, n, p), theirs(ks, n, p))
            for k in (-1, 0, n // 2, n - 1, n, n + 1):
                _same(mine(k, n, p), theirs(k, n, p))
        for q in (0.0, 1e-12, 0.0025, 0.025, 0.5, 0.9975, 1.0):
            _same(laws.binom_ppf(q, n, p), stats.binom.ppf(q, n, p))
            _same(laws.binom_isf(q, n, p), stats.binom.isf(q, n, p))


def test_the_poisson_is_scipys() -> None:
    for mu in (0.0, 0.3, 1.0, 6.0, 16.7, 100.0, 4_000.0, 123_456.0):
        ks = np.arange(int(2 * mu) + 20)
        _same(laws.poisson_pmf(ks, mu), stats.poisson.pmf(ks, mu))
        for k in (0, 1, int(mu), int(mu) + 1, -1):
            _same(laws.poisson_pmf(k, mu), stats.poisson.pmf(k, mu))


def test_the_chi_square_is_scipys() -> None:
    for df in (1, 2, 5, 9, 19, 99):
        for x in (0.0, 1e-300, 0.5, 1.0, float(df), 3.7 * df, 50.0, 400.0, 1e4, float("inf"), -1.0):
            _same(laws.chi2_sf(x, df), stats.chi2.sf(x, df))


def test_a_report_does_not_import_scipy_stats(tmp_path: Path) -> None:
    """``volley report`` of every replay, as a user runs it: scipy.stats never loaded."""
    probe = (
        "import sys; from bridge.cli import main; "
        f"code = main(['report', *sys.argv[1:], '-o', {str(tmp_path / 'page.html')!r}, "
        f"'--data-dir', {str(tmp_path)!r}]); "
        "print(code, 'scipy.stats' in sys.modules)"
    )
    command = [sys.executable, "-c", probe, *map(str, REPLAYS)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split()[-2:] == ["0", "False"], done.stderr


def test_a_scipy_without_the_binomial_in_special_gets_scipy_stats(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(laws, "HERE", False)
    ks = np.arange(-2, 40)
    for law in ("sf", "cdf", "pmf"):
        _same(getattr(laws, f"binom_{law}")(ks, 37, 0.3), getattr(stats.binom, law)(ks, 37, 0.3))
    _same(laws.binom_ppf(0.0025, 300, 0.1), stats.binom.ppf(0.0025, 300, 0.1))
    _same(laws.binom_isf(0.0025, 300, 0.1), stats.binom.isf(0.0025, 300, 0.1))

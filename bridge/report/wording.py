"""The report page's sentences: the catalogue bound to one language with its number formats
(``Words``), and what the page says of a die, a test's power, the luck chart and a change made
outside Volley. Every word comes from the catalogue (``report.*`` keys)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape
from typing import Any

from bridge.i18n import DECIMAL_MARK, Catalogue
from bridge.report.fairness import Calibration, DieTest, OrderTest
from bridge.report.luck import Luck
from bridge.report.power import JUDGE_POWER, loading_width

__all__ = [
    "ALMOST_ALWAYS",
    "Words",
    "calibration_words",
    "chance",
    "die_lines",
    "luck_line",
    "luck_words",
    "outside_change",
    "power_figure",
    "power_words",
    "test_words",
]


#: From this chance up a table would say "almost every time" (below it: "about 9 times in 10").
ALMOST_ALWAYS = 0.99


class Words:
    """The catalogue, bound to one language, with the page's number formats."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.mark = DECIMAL_MARK.get(catalogue.language, ".")

    def __call__(self, key: str, **values: Any) -> str:
        return escape(self.catalogue.message(f"report.{key}", values))

    def number(self, value: float, digits: int = 1) -> str:
        return f"{value:.{digits}f}".replace(".", self.mark)

    def p(self, value: float | None) -> str:
        """A p-value with its relation: ``p = 0.04``, ``p < 0.001`` (tiny ones are all alike)."""
        if value is None:
            return "p —"
        if value < 0.001:
            return "p < " + self.number(0.001, 3)
        return "p = " + self.number(value, 3 if value < 0.01 else 2)

    def p_value(self, value: float | None) -> str:
        """A p-value alone, for a column headed "p"."""
        return escape(self.p(value).removeprefix("p = ").removeprefix("p "))

    def percent(self, value: float) -> str:
        """A share as a percentage: 0.2 -> "20%"."""
        return f"{round(100 * value)}%"

    def percentile(self, value: float) -> str:
        return str(min(99, max(1, round(100 * value))))

    def count(self, value: int) -> str:
        """A whole number with the language's thousands separator: 1,041 or 1\u00a0041."""
        grouped = f"{value:,}"
        return grouped if self.mark == "." else grouped.replace(",", "\u00a0")


def die_lines(test: DieTest, order: OrderTest | None, words: Words) -> list[str]:
    """What the page can say of one die: what it saw (in its counts, in its order), or what it could
    have seen, or how many rolls it would take to say anything."""
    flags = []
    if test.verdict in ("watch", "alert"):
        flags.append(_hot_text(test, words))
    if order is not None and order.verdict in ("watch", "alert"):
        flags.append(_order_text(order, words))
    if flags:
        return flags
    if test.verdict == "fair" and (order is None or order.verdict == "fair"):
        loading = words("loading_tens") if loading_width(test.die) > 1 else words("loading_face")
        return [
            words(
                "banner_die_fair",
                die=test.die,
                rolls=words.count(test.rolls),
                loading=loading,
                chance=chance(test.power, words),
            )
        ]
    needed = [n for n in (test.needed, order.needed if order is not None else None) if n is not None]
    if not needed:
        return []
    return [
        words(
            "banner_die_too_few", die=test.die, rolls=words.count(test.rolls), needed=words.count(max(needed))
        )
    ]


def chance(power: float, words: Words) -> str:
    """A chance as a table says it, never more than it is: "about 8 times in 10" for 0.80 to 0.89,
    "almost every time" from 0.99."""
    if power >= ALMOST_ALWAYS:
        return words("chance_almost")
    return words("chance_tenths", tenths=math.floor(10 * power))


def _expected(value: float, words: Words) -> str:
    """An expected count as a table says it: whole above ten, one decimal below."""
    return words.number(value, 0 if value >= 10 else 1)


def _hot_text(test: DieTest, words: Words) -> str:
    """The face (or band) that departs most from a fair die's share: how often it came up, against
    what a fair die gives."""
    if test.hot is None:
        return ""
    low, high, count, expected = test.hot
    values = {
        "die": test.die,
        "count": count,
        "rolls": words.count(test.rolls),
        "expected": _expected(expected, words),
        "p": words.p(test.adjusted),
    }
    if low == high:
        return words("hot_face", face=str(low), **values)
    return words("hot_band", face=f"{low}–{high}", bands=test.bands, **values)


def _order_text(order: OrderTest, words: Words) -> str:
    """How often the die showed the same face twice running, against a fair die."""
    return words(
        "hot_order",
        die=order.die,
        count=order.repeats,
        pairs=words.count(order.pairs),
        expected=_expected(order.expected, words),
        p=words.p(order.adjusted),
    )


def luck_line(calibration: Calibration, words: Words) -> str:
    """The tenth of the luck scale that departs most from its share of the attacks."""
    test = calibration.test
    if test.hot is None:
        return ""
    low, high, count, expected = test.hot
    return words(
        "hot_luck",
        low=(low - 1) * 10,
        high=high * 10,
        count=count,
        attacks=words.count(calibration.count),
        expected=_expected(expected, words),
        p=words.p(test.adjusted),
    )


def luck_words(luck: Luck, words: Words) -> str:
    return words(
        "luck_detail", percentile=words.percentile(luck.standing), verdict=words("luck_" + luck.verdict)
    )


def calibration_words(calibration: Calibration, words: Words) -> str:
    test = calibration.test
    mean = words.percentile(calibration.mean)
    if test.p is None:
        return words("calibration_too_few", count=calibration.count)
    if test.chi2 is not None:
        cells = words("calibration_bars") if test.bands == test.die else words("test_bands", bands=test.bands)
        statistic = words(
            "calibration_chi2", cells=cells, chi2=words.number(test.chi2, 1), p=words.p(test.chi2_p)
        )
    else:
        statistic = words("calibration_busiest", p=words.p(test.face_p))
    corrected = words.p(test.adjusted) if test.tested else words("not_counted")
    text = words(
        "calibration_test",
        count=calibration.count,
        mean=mean,
        statistic=statistic,
        adjusted=corrected,
        power=power_figure(test.power, words),
    )
    if test.verdict == "too_few" and test.needed is not None:
        text += " " + words("calibration_needed", needed=words.count(test.needed))
    return text


def test_words(test: DieTest, words: Words) -> str:
    """Which cells the chi-square test used, and whether the busiest face was tested exactly."""
    if test.chi2 is None:
        return words("test_face_only") if test.face_p is not None else "—"
    cells = words("test_faces") if test.bands == test.die else words("test_bands", bands=test.bands)
    return cells + (" " + words("test_face_exact") if test.face_p is not None else "")


def power_figure(power: float, words: Words) -> str:
    """A test's power as a percentage, rounded down (never more than it is): "83%", "over 99%"."""
    if power > ALMOST_ALWAYS:
        return words("power_over", percent=99)
    return words("power_cell", percent=math.floor(100 * power))


def power_words(test: DieTest | OrderTest, words: Words) -> str:
    """The chance the test had of catching its reference die, and the rolls it would need."""
    chance = power_figure(test.power, words)
    if test.power >= JUDGE_POWER or test.needed is None:
        return chance
    return chance + f' <span class="note">({words("power_needed", needed=words.count(test.needed))})</span>'


def outside_change(change: Mapping[str, Any], words: Words) -> str:
    """One change made outside Volley, as an ``applied`` mark journalled it."""

    def text(*keys: str) -> str:
        for key in keys:
            value = change.get(key)
            if value is not None and value != "":
                return str(value)
        return "?"

    values = {
        "token": text("token_name", "token"),
        "weapon": text("weapon_name", "weapon"),
        "field": text("field"),
        "before": text("from"),
        "after": text("to"),
        "kept": words("outside_kept") if change.get("kept") is True else words("outside_put_back"),
    }
    by = change.get("by_name") or change.get("by")
    if by:
        return words("outside_change_by", by=str(by), **values)
    return words("outside_change", **values)

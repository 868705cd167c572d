"""Corrected verdicts keep their promise: simulated fair evenings, and loaded and sticky dice at the
claimed power.

A session's verdicts depend only on its luck percentiles (exactly uniform under fair dice, whatever
the attacks: ``test_report_luck``), its face counts (multinomial under fair dice) and the order of
its faces (independent rolls). So a fair session can be simulated in a millisecond without the rules,
and a few hundred of them show how often the page names somebody lucky, or calls a die loaded, when
nothing is wrong. The corrected nominal rates: with ``m`` independent looks at level ``a``, Holm says
something when the smallest p-value is below ``a / m``, which happens ``1 - (1 - a / m) ** m`` of
the time (just under ``a``; discrete tests, such as a d10 rolled twelve times, stay below it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from html import unescape

import numpy as np
import pytest
from scipy import stats

from bridge.i18n import Catalogue
from bridge.report.build import judged
from bridge.report.distributions import repeats_p
from bridge.report.fairness import ALERT_P, WATCH_P
from bridge.report.findings import Findings
from bridge.report.luck import LUCK_ALERT_P, LUCK_NOTE_P
from bridge.report.page import _banner, render_page
from bridge.report.power import LOADING, STICKY
from bridge.report.totals import LUCK_BARS, LuckChart, Tally
from bridge.report.wording import Words, chance

#: Fair evenings simulated (``VOLLEY_REPORT_EVENINGS=3000 ... -s`` for the figures in docs/report.md).
SESSIONS = int(os.environ.get("VOLLEY_REPORT_EVENINGS", "400"))
#: A realistic evening: seven shooters, ~1,000 d6 and ~235 d100 rolls, a few stray d10s.
SHOOTERS = 7
DICE = {6: 1000, 100: 235, 10: 12}
#: The share of sessions whose rate may fall outside the interval by chance alone.
SLACK = 0.999
#: Evenings per die size in the power checks (standard error at a power of 0.8: 0.0073).
POWER_EVENINGS = int(os.environ.get("VOLLEY_REPORT_POWER_EVENINGS", "3000"))


def _sticky(rng: np.random.Generator, die: int, rolls: int, sticky: float) -> np.ndarray:
    """Faces of a die that shows its last face again ``sticky`` of the time, else rolls fairly."""
    fresh = rng.integers(1, die + 1, size=rolls)
    stick = rng.random(rolls) < sticky
    faces = fresh.copy()
    for i in range(1, rolls):
        if stick[i]:
            faces[i] = faces[i - 1]
    return faces


def _session(
    rng: np.random.Generator,
    rolls: dict[int, int] = DICE,
    faces: dict[int, Sequence[float]] | None = None,
    *,
    sticky: dict[int, float] | None = None,
    attacks: int | None = None,
    luck: Sequence[float] | None = None,
    shooters: bool = True,
) -> Findings:
    """One evening's tally: uniform percentiles per shooter (``attacks`` in all, else 20-80 each, or
    the given ``luck``), and ``rolls`` of each die, in order, showing ``faces`` (fair when not given),
    each repeating its last face ``sticky[die]`` of the time."""
    tally = Tally()
    percentiles = list(luck) if luck is not None else None
    chart: list[float] = []
    for index in range(SHOOTERS):
        weapon = tally.shooter(f"Shooter {index}").weapon("rifle")
        if percentiles is not None:
            mine = percentiles[index::SHOOTERS]
        elif attacks is not None:
            mine = rng.random(attacks // SHOOTERS).tolist()
        else:
            mine = rng.random(int(rng.integers(20, 80))).tolist()
        if shooters:
            for u in mine:
                weapon.luck.add(u)
        chart += mine
    _fill_chart(tally.luck_chart, chart)
    for die, count in rolls.items():
        if sticky and die in sticky:
            sequence = _sticky(rng, die, count, sticky[die])
        else:
            shares = faces[die] if faces and die in faces else [1 / die] * die
            sequence = rng.choice(np.arange(1, die + 1), size=count, p=shares)
        tally.dice.faces[die] = np.bincount(sequence, minlength=die + 1)[1:].tolist()
        tally.dice.pairs[die] = count - 1
        tally.dice.repeats[die] = int((sequence[1:] == sequence[:-1]).sum())
    return judged(tally)


def _fill_chart(chart: LuckChart, percentiles: list[float]) -> None:
    """``chart.add(u)`` for each percentile in turn, in one step: the same bars and the same running
    total (the power checks fill the chart of 21,000 evenings; ``test_fill_chart_is_add``)."""
    bars = np.clip((np.asarray(percentiles, dtype=float) * LUCK_BARS).astype(int), 0, LUCK_BARS - 1)
    for bar, count in enumerate(np.bincount(bars, minlength=LUCK_BARS).tolist()):
        chart.histogram[bar] += count
    for u in percentiles:
        chart.total += u


def test_fill_chart_is_add() -> None:
    rng = np.random.default_rng(5)
    percentiles = [0.0, 0.1, 0.0999999, 0.5, 0.9, 0.95, 1.0, *rng.random(500).tolist()]
    added, filled = LuckChart(), LuckChart()
    for u in percentiles:
        added.add(u)
    _fill_chart(filled, percentiles)
    assert filled == added


def _nominal(level: float, looks: int) -> float:
    return 1 - (1 - level / looks) ** looks


def _within(seen: int, rate: float, sessions: int = SESSIONS) -> bool:
    low, high = stats.binom.interval(SLACK, sessions, rate)
    return bool(low <= seen <= high)


def _at_most(seen: int, rate: float, sessions: int = SESSIONS) -> bool:
    return bool(seen <= stats.binom.interval(SLACK, sessions, rate)[1])


@pytest.fixture(scope="module")
def fair_evenings() -> list[Findings]:
    rng = np.random.default_rng(2026)
    return [_session(rng) for _ in range(SESSIONS)]


def test_a_fair_evening_names_somebody_lucky_about_one_time_in_twenty(fair_evenings: list[Findings]) -> None:
    named = sum(
        any(luck.verdict not in ("ordinary", "too_few") for luck in found.luck.values())
        for found in fair_evenings
    )
    remarkable = sum(
        any(luck.verdict.startswith("very_") for luck in found.luck.values()) for found in fair_evenings
    )
    # what the page used to say: each shooter alone at 0.05 names somebody about a third of the time
    uncorrected = sum(any(luck.p < LUCK_NOTE_P for luck in found.luck.values()) for found in fair_evenings)
    print(
        f"{SESSIONS} fair evenings: somebody lucky or unlucky {named / SESSIONS:.2%} "
        f"(uncorrected {uncorrected / SESSIONS:.2%}), remarkably {remarkable / SESSIONS:.2%}"
    )
    assert _within(named, _nominal(LUCK_NOTE_P, SHOOTERS)), named
    assert _within(remarkable, _nominal(LUCK_ALERT_P, SHOOTERS)), remarkable
    assert _within(uncorrected, 1 - (1 - LUCK_NOTE_P) ** SHOOTERS)
    assert uncorrected > 3 * named


def test_a_fair_evening_almost_never_hears_its_dice_called_loaded(fair_evenings: list[Findings]) -> None:
    """Every die's counts and order, and the luck chart, in one correction: seven looks."""
    looks = 2 * len(DICE) + 1
    loaded = sum(found.verdict == "alert" for found in fair_evenings)
    flagged = sum(found.verdict in ("watch", "alert") for found in fair_evenings)
    order = sum(any(test.verdict in ("watch", "alert") for test in found.orders) for found in fair_evenings)
    chart = sum(found.calibration.verdict in ("watch", "alert") for found in fair_evenings)
    print(
        f"{SESSIONS} fair evenings: dice look loaded {loaded / SESSIONS:.2%}, "
        f"worth watching or worse {flagged / SESSIONS:.2%}; of which the order of faces "
        f"{order / SESSIONS:.2%}, the luck chart {chart / SESSIONS:.2%}"
    )
    assert _within(loaded, _nominal(ALERT_P, looks)), loaded
    assert _within(flagged, _nominal(WATCH_P, looks)), flagged
    # the three order tests among the seven looks: at most their share of the nominal rate
    assert _at_most(order, 3 * WATCH_P / looks), order
    assert all(found.dice[0].family == looks for found in fair_evenings)
    assert all(test.tested for found in fair_evenings for test in found.orders)


def test_the_order_tests_false_alarm_rate_is_its_nominal_level() -> None:
    """Fair d6 evenings of 2,000 rolls: the repeats test alone at 0.01 flags as often as its exact
    size says (the binomial's mass where p < 0.01), and that size is just under 0.01."""
    evenings, pairs, level = 20_000, 1999, WATCH_P
    rng = np.random.default_rng(17)
    repeats = rng.binomial(pairs, 1 / 6, size=evenings)  # fair repeats (exactly: test_report_fairness)
    flagged = {k: (repeats_p(6, pairs, k) or 1.0) < level for k in range(pairs + 1)}
    flags = sum(1 for k in repeats if flagged[int(k)])
    size = float(sum(stats.binom.pmf(k, pairs, 1 / 6) for k, flag in flagged.items() if flag))
    print(f"repeats test at {level}: exact size {size:.4f}, {flags} of {evenings} fair evenings flagged")
    assert 0.8 * level <= size <= level
    assert _within(flags, size, evenings)


def test_a_fair_evening_never_calls_a_die_it_could_not_judge_fair(fair_evenings: list[Findings]) -> None:
    for found in fair_evenings:
        by_die = {test.die: test for test in found.dice}
        assert by_die[100].verdict in ("too_few", "watch", "alert")  # 235 d100 rolls judge nothing
        assert by_die[10].verdict in ("too_few", "watch", "alert")
        assert found.verdict != "fair"
        assert found.calibration.verdict != "fair" or found.calibration.test.power >= 0.8
    judged_d6 = [
        found for found in fair_evenings if found.dice[0].die == 6 and found.dice[0].verdict == "fair"
    ]
    assert len(judged_d6) > 0.95 * SESSIONS  # a thousand d6 rolls are enough


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


def _needed_on_page(found: Findings, die: int) -> int:
    banner = _text(_banner(found, Words(Catalogue.load("en"))))
    match = re.search(rf"Too few d{die} rolls to judge: [\d,]+ of the ~([\d,]+) needed", banner)
    assert match, banner
    return int(match.group(1).replace(",", ""))


def _power_on_page(found: Findings, die: int) -> float:
    """The "Would catch a loaded die" cell of the die's row, as a share."""
    html = render_page(found, Catalogue.load("en"))
    row = re.search(rf"<tr><td>d{die}</td>(.*?)</tr>", html)
    assert row, html
    cell = re.findall(r"<td class=wrap>(.*?)</td>", row.group(1))[-1]
    match = re.match(r"(over )?(\d+)%", _text(cell).strip())
    assert match, cell
    return int(match.group(2)) / 100


@pytest.mark.parametrize("die", [4, 6, 8, 10, 12, 20, 100])
def test_the_loaded_die_at_the_printed_rolls_needed_is_caught_as_often_as_printed(die: int) -> None:
    """Read "~N needed" off a short evening's banner, roll the reference loaded die N times, evening
    after evening, through the page's own tests: it is caught as often as the page at N prints
    (within 0.03), and that is the promised 8 in 10 (within 0.03)."""
    rng = np.random.default_rng(die)
    needed = _needed_on_page(_session(rng, {die: 40}, attacks=350, shooters=False), die)
    printed = _power_on_page(_session(rng, {die: needed}, attacks=350, shooters=False), die)
    width = die // 10 if die > 20 and die % 10 == 0 else 1
    favoured = LOADING / die
    loaded = {die: [favoured] * width + [(1 - width * favoured) / (die - width)] * (die - width)}
    caught = sum(
        _session(rng, {die: needed}, loaded, attacks=350, shooters=False).dice[0].verdict
        in ("watch", "alert")
        for _ in range(POWER_EVENINGS)
    )
    rate = caught / POWER_EVENINGS
    print(f"d{die}: ~{needed} needed; the page at {needed} prints {printed:.0%}; caught {rate:.3f}")
    assert printed >= 0.8
    assert rate == pytest.approx(printed, abs=0.03)
    assert rate == pytest.approx(0.8, abs=0.03)


def test_the_sticky_die_is_caught_at_two_thousand_rolls() -> None:
    """A d6 that shows its last face again one time in five, 2,000 rolls on an evening like the
    others: its order is flagged at least 9 times in 10 (its counts, being even, are not)."""
    rng = np.random.default_rng(20)
    evenings = 300
    rolls = {**DICE, 6: 2000}
    found = [_session(rng, rolls, sticky={6: STICKY}) for _ in range(evenings)]
    caught = sum(any(t.die == 6 and t.verdict in ("watch", "alert") for t in f.orders) for f in found)
    print(f"sticky d6, 2,000 rolls: caught {caught} of {evenings}")
    assert caught >= 0.9 * evenings
    headline = _text(_banner(found[0], Words(Catalogue.load("en"))))
    assert "The dice do not look random" in headline and "The dice look loaded" not in headline
    assert re.search(r"d6: the same face came up twice running \d+ times in 1,999 pairs of rolls", headline)


def test_a_lucky_chart_alone_is_not_called_loaded_dice() -> None:
    """Attack results that bunch up at the lucky end with fair dice: the headline says the attack
    results, never "the dice look loaded", and each die still says what it saw."""
    rng = np.random.default_rng(31)
    luck = (1 - rng.random(2000) ** 1.6).tolist()  # results too good, over and over
    found = _session(rng, {6: 1000}, luck=luck)
    assert found.calibration.verdict == "alert" and found.dice[0].verdict == "fair"
    for language, said, never in (
        ("en", "Attack results do not spread as fair dice spread them.", "The dice look loaded."),
        ("ru", "Результаты атак распределены не так, как при честных костях.", "Похоже, кости нечестные."),
    ):
        banner = _text(_banner(found, Words(Catalogue.load(language))))
        assert said in banner and never not in banner
    english = _text(_banner(found, Words(Catalogue.load("en"))))
    assert "No sign of loaded dice in 1,000 d6 rolls" in english
    assert re.search(
        r"Attacks with luck 90–100 of 100: \d+ of 2,000, where fair dice give about 200", english
    )


def test_a_blatantly_loaded_die_is_caught_in_a_short_session() -> None:
    """Thirty d6 rolls, half of them sixes: the page says loaded, not "too few rolls"."""
    tally = Tally()
    tally.dice.faces = {6: [3, 3, 3, 3, 3, 15]}
    found = judged(tally)
    assert found.dice[0].verdict == "alert" and found.verdict == "alert"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_ten_01s_in_ten_d100_rolls_make_the_banner_say_loaded(language: str) -> None:
    tally = Tally()
    tally.dice.faces = {100: [10] + [0] * 99, 6: [200] * 6}
    found = judged(tally)
    banner = _text(_banner(found, Words(Catalogue.load(language))))
    if language == "en":
        assert "The dice look loaded." in banner
        assert "d100: 1 came up 10 times in 10 rolls, where a fair die gives about 0.1 (p < 0.001)" in banner
        assert "No sign of loaded dice in 1,200 d6 rolls" in banner
    else:
        assert "Похоже, кости нечестные." in banner
        assert "d100: 1 выпало 10 раз из 10 бросков, а честная кость даёт около 0,1 (p < 0,001)" in banner
        assert "Бросков d6: 1\u00a0200, признаков нечестной кости нет." in banner


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_d6_that_never_rolls_1_is_named_by_its_1(language: str) -> None:
    tally = Tally()
    tally.dice.faces = {6: [0, 93, 87, 86, 85, 86]}
    banner = _text(_banner(judged(tally), Words(Catalogue.load(language))))
    expected = {
        "en": "d6: 1 came up 0 times in 437 rolls, where a fair die gives about 73",
        "ru": "d6: 1 выпало 0 раз из 437 бросков, а честная кость даёт около 73",
    }
    assert expected[language] in banner


def test_the_banded_chi_square_column_shows_the_chi_square_tests_own_p() -> None:
    """A banded die has two p-values; the χ² column's is the chi-square's, the busiest face's its own."""
    tally = Tally()
    tally.dice.faces = {100: [10] + [0] * 99, 6: [200] * 6}
    found = judged(tally)
    d100 = next(test for test in found.dice if test.die == 100)
    html = render_page(found, Catalogue.load("en"))
    row = re.search(r"<tr><td>d100</td>(.*?)</tr>", html)
    assert row and d100.chi2_p is not None
    cells = re.findall(r"<td class=num>(.*?)</td>", row.group(1))
    # rolls, χ², p (χ²), p (busiest face), corrected p
    assert cells[2] == Words(Catalogue.load("en")).p_value(d100.chi2_p) == "0.002"  # the bands' own p
    assert cells[3] == "&lt; 0.001" and d100.p is not None and d100.p < 1e-17  # the one face's


@pytest.mark.parametrize(
    ("power", "english", "russian"),
    [
        (0.80, "about 8 times in 10", "примерно в 8 случаях из 10"),
        (0.96, "about 9 times in 10", "примерно в 9 случаях из 10"),
        (0.989, "about 9 times in 10", "примерно в 9 случаях из 10"),
        (0.995, "almost every time", "почти каждый раз"),
    ],
)
def test_chances_are_never_said_above_what_they_are(power: float, english: str, russian: str) -> None:
    """0.96 is "about 9 times in 10", not ten; "almost every time" (and the Russian, which says the
    same) only from 0.99."""
    assert chance(power, Words(Catalogue.load("en"))) == english
    assert chance(power, Words(Catalogue.load("ru"))) == russian


def test_the_power_cell_never_rounds_up_to_certainty() -> None:
    from bridge.report.wording import power_figure

    words = Words(Catalogue.load("en"))
    assert power_figure(0.957, words) == "95%"
    assert power_figure(0.999, words) == "over 99%"
    assert power_figure(0.799, words) == "79%"

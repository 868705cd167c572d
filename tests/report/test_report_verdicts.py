"""Corrected verdicts keep their promise: simulated fair evenings, and a loaded die at the claimed power.

A session's verdicts depend only on its luck percentiles (exactly uniform under fair dice, whatever
the attacks: ``test_report_luck``) and its face counts (multinomial under fair dice). So a fair
session can be simulated in a millisecond without the rules, and a few hundred of them show how
often the page names somebody lucky, or calls a die loaded, when nothing is wrong. The corrected
nominal rates: with ``m`` independent looks at level ``a``, Holm says something when the smallest
p-value is below ``a / m``, which happens ``1 - (1 - a / m) ** m`` of the time (just under ``a``).
"""

from __future__ import annotations

import os
import re
from html import unescape

import numpy as np
import pytest
from scipy import stats

from bridge.i18n import Catalogue
from bridge.report.build import judged
from bridge.report.fairness import ALERT_P, LOADING, WATCH_P, power
from bridge.report.luck import LUCK_ALERT_P, LUCK_NOTE_P
from bridge.report.page import Findings, _banner, _Words
from bridge.report.tally import Tally

#: Fair evenings simulated (``VOLLEY_REPORT_EVENINGS=3000 ... -s`` for the figures in docs/report.md).
SESSIONS = int(os.environ.get("VOLLEY_REPORT_EVENINGS", "400"))
#: A realistic evening: seven shooters, ~1,000 d6 and ~235 d100 rolls, a few stray d10s.
SHOOTERS = 7
DICE = {6: 1000, 100: 235, 10: 12}
#: The share of sessions whose rate may fall outside the interval by chance alone.
SLACK = 0.999


def _session(
    rng: np.random.Generator, rolls: dict[int, int] = DICE, faces: dict[int, list[float]] | None = None
) -> Findings:
    """One evening's tally: uniform percentiles per shooter, ``rolls`` of each die showing ``faces``
    (fair when not given)."""
    tally = Tally()
    for index in range(SHOOTERS):
        weapon = tally.shooter(f"Shooter {index}").weapon("rifle")
        weapon.percentiles = rng.random(int(rng.integers(20, 80))).tolist()
        tally.percentiles.extend(weapon.percentiles)
    shares = faces or {die: [1 / die] * die for die in rolls}
    tally.dice.faces = {die: rng.multinomial(rolls[die], shares[die]).tolist() for die in rolls}
    return judged(tally)


def _nominal(level: float, looks: int) -> float:
    return 1 - (1 - level / looks) ** looks


def _within(seen: int, rate: float, sessions: int = SESSIONS) -> bool:
    low, high = stats.binom.interval(SLACK, sessions, rate)
    return bool(low <= seen <= high)


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
    looks = len(DICE) + 1  # every die size and the luck chart
    loaded = sum(found.verdict == "alert" for found in fair_evenings)
    flagged = sum(found.verdict in ("watch", "alert") for found in fair_evenings)
    print(
        f"{SESSIONS} fair evenings: dice look loaded {loaded / SESSIONS:.2%}, "
        f"worth watching or worse {flagged / SESSIONS:.2%}"
    )
    assert _within(loaded, _nominal(ALERT_P, looks)), loaded
    assert _within(flagged, _nominal(WATCH_P, looks)), flagged
    assert all(found.dice[0].family == looks for found in fair_evenings)


def test_a_fair_evening_never_calls_a_die_it_could_not_judge_fair(fair_evenings: list[Findings]) -> None:
    for found in fair_evenings:
        by_die = {test.die: test for test in found.dice}
        assert by_die[100].verdict in ("too_few", "watch", "alert")  # 235 d100 rolls judge nothing
        assert by_die[10].verdict in ("too_few", "watch", "alert")
        assert found.verdict != "fair"
    judged_d6 = [
        found for found in fair_evenings if found.dice[0].die == 6 and found.dice[0].verdict == "fair"
    ]
    assert len(judged_d6) > 0.95 * SESSIONS  # a thousand d6 rolls are enough


def _claimed(text: str) -> float:
    """The chance a banner line claims: "about 9 times in 10" -> 0.9; "almost every time" -> 0.95."""
    if "almost every time" in text:
        return 0.95
    match = re.search(r"about (\d+) times? in 10", text)
    assert match, text
    return int(match.group(1)) / 10


def test_a_loaded_die_is_caught_as_often_as_the_banner_claims() -> None:
    """A d6 rolled as often as makes the banner claim "about 9 times in 10" is caught about that often.

    The banner's figure comes from the noncentral chi-square approximation; here the loaded die (one
    face ``LOADING`` times its share) is rolled that many times, hundreds of evenings over.
    """
    looks = 2  # the d6 and the luck chart
    rolls = next(n for n in range(100, 2000, 5) if power(6, n, WATCH_P / looks) >= 0.9)
    rng = np.random.default_rng(99)
    words = _Words(Catalogue.load("en"))
    banner = unescape(re.sub(r"<[^>]+>", " ", _banner(_session(rng, {6: rolls}), words)))
    claim = _claimed(banner)
    assert f"in {rolls} d6 rolls" in banner and claim == pytest.approx(0.9)
    favoured = LOADING / 6
    loaded = {6: [(1 - favoured) / 5] * 5 + [favoured]}
    evenings = 300
    caught = sum(
        _session(rng, {6: rolls}, loaded).dice[0].verdict in ("watch", "alert") for _ in range(evenings)
    )
    print(f"{rolls} d6 rolls, banner claims {claim:.2f}, caught {caught} of {evenings}")
    low, high = stats.binom.interval(SLACK, evenings, claim)
    assert low <= caught <= high, (caught, claim)


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
    banner = unescape(re.sub(r"<[^>]+>", " ", _banner(found, _Words(Catalogue.load(language)))))
    if language == "en":
        assert "The dice look loaded." in banner
        assert (
            "d100: 1 came up 10 times in 10 rolls, 100.0× as often as a fair die expects (p < 0.001)"
            in banner
        )
        assert "No sign of loaded dice in 1,200 d6 rolls" in banner
    else:
        assert "Похоже, кости нечестные." in banner
        assert "d100: 1 выпало 10 раз (всего бросков: 10)" in banner
        assert "Бросков d6: 1\u00a0200, признаков нечестной кости нет." in banner

"""The report's promise: fair dice pass, loaded dice are caught, and the page says so in words.

Reports are built from every recorded session in ``tests/replays/`` and from synthetic skirmishes
(``reportkit``) rolled with fair dice and with a d6 that favours sixes.
"""

from __future__ import annotations

import gc
import re
import tracemalloc
from pathlib import Path

import pytest
from reportkit import REPLAYS, Built, write_session

from bridge.report.build import findings, report_html
from bridge.report.record import read_record


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.stem)
def test_recorded_sessions_are_not_flagged(path: Path, built: Built) -> None:
    found = built.findings(path)
    assert found.verdict in ("fair", "too_few")
    assert all(test.verdict in ("fair", "too_few") for test in found.dice)
    html = built.page("en", path)
    assert 'class="banner alert"' not in html and 'class="banner watch"' not in html


def test_recorded_sessions_together_make_a_campaign() -> None:
    html = report_html([read_record(path) for path in REPLAYS], "en")
    assert "Campaign report" in html
    assert all(path.stem in html for path in REPLAYS)


def test_fair_synthetic_sessions_are_not_flagged_and_not_overclaimed(
    fair_sessions: list[Path], built: Built
) -> None:
    for path in fair_sessions:
        found = built.findings(path)
        six = next(test for test in found.dice if test.die == 6)
        d100 = next(test for test in found.dice if test.die == 100)
        assert six.rolls > 1000 and six.verdict == "fair"  # enough rolls that a loaded die could not hide
        assert 300 < d100.rolls < 500 and d100.verdict == "too_few"  # far from the ~1,300 a d100 needs
        assert found.verdict == "too_few"  # so the page is not summed up as fair
        # a few hundred attacks cannot tell a fair chart from one with a tenth half again as full
        assert found.calibration.count > 100 and found.calibration.verdict == "too_few"
        assert found.calibration.test.power < 0.8
        assert all(test.verdict == "fair" for test in found.orders if test.die in (6, 100))
        html = built.page("en", path)
        assert "No sign of loaded dice, but some dice had too few rolls to judge." in html
        assert re.search(
            r"No sign of loaded dice in 1,\d{3} d6 rolls: a die favouring one face by half again", html
        )
        assert re.search(r"Too few d100 rolls to judge: \d{3} of the ~1,\d{3} needed\.", html)
        assert "The dice look fair." not in html


def test_a_loaded_die_is_caught_and_named(loaded_session: Path, built: Built) -> None:
    found = built.findings(loaded_session)
    assert found.verdict == "alert"
    six = next(test for test in found.dice if test.die == 6)
    assert six.verdict == "alert" and six.hot is not None and six.hot[:2] == (6, 6)
    assert six.hot[2] / six.hot[3] == pytest.approx(
        2.0, abs=0.25
    )  # a six a third of the time: twice its share
    assert all(
        test.verdict in ("fair", "too_few") for test in found.dice if test.die != 6
    )  # the d100 was fair
    html = built.page("en", loaded_session)
    assert 'class="banner alert"' in html
    assert "The dice look loaded." in html
    assert re.search(
        r"d6: 6 came up \d+ times in 1,\d{3} rolls, where a fair die gives about \d+ \(p &lt; 0\.001\)",
        html,
    )


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_sticky_die_rolled_through_the_rules_is_caught_by_its_order(
    sticky_session: Path, language: str, built: Built
) -> None:
    """Every die from a source that repeats its last face one time in five, through the real rules and
    the journal: the counts see nothing, the order of the d6's faces gives it away, and the headline
    says so (not "loaded")."""
    found = built.findings(sticky_session)
    six = next(test for test in found.dice if test.die == 6)
    order = next(test for test in found.orders if test.die == 6)
    assert six.verdict in ("fair", "too_few") and six.rolls > 1500
    assert order.verdict == "alert" and order.repeats > 1.5 * order.expected
    assert found.flagged == "order"
    html = built.page(language, sticky_session)
    said = {
        "en": "The dice do not look random: their faces follow one another in a pattern.",
        "ru": "Кости не похожи на случайные: грани идут друг за другом по какому-то правилу.",
    }
    assert said[language] in html
    assert "The dice look loaded." not in html and "Похоже, кости нечестные." not in html


def test_a_fair_evening_names_nobody_lucky_on_the_cards(fair_sessions: list[Path], built: Built) -> None:
    """Luckiest and Unluckiest appear only for a corrected verdict; otherwise one card says so."""
    html = built.page("en", fair_sessions[0])
    found = built.findings(fair_sessions[0])
    assert all(luck.verdict in ("ordinary", "too_few") for luck in found.luck.values())
    assert "Luckiest" not in html and "Unluckiest" not in html
    assert "Nobody stood out" in html and "7 shooters judged" in html
    assert "remarkably" not in re.sub(r'<section id="method">.*?</section>', "", html, flags=re.S)


def test_the_cards_follow_the_corrected_verdicts(loaded_session: Path, built: Built) -> None:
    found = built.findings(loaded_session)
    lucky = [name for name, luck in found.luck.items() if luck.verdict in ("lucky", "very_lucky")]
    html = built.page("en", loaded_session)
    assert lucky and "Luckiest" in html
    # a shooter whose own p is below 0.05 but not after correction is "within chance", not "unlucky"
    borderline = [n for n, luck in found.luck.items() if luck.p < 0.05 and luck.verdict == "ordinary"]
    assert borderline, {n: (luck.p, luck.adjusted) for n, luck in found.luck.items()}


def test_a_loaded_session_in_a_campaign_still_shows(fair_sessions: list[Path], loaded_session: Path) -> None:
    found = findings([read_record(path) for path in [*fair_sessions, loaded_session]])
    assert found.verdict == "alert"


def test_a_campaign_gives_one_corrected_verdict_per_shooter(fair_sessions: list[Path], built: Built) -> None:
    """Three evenings of the same seven characters: seven looks, not twenty-one."""
    found = built.findings(*fair_sessions)
    assert len(found.luck) == 7
    assert all(luck.adjusted is not None for luck in found.luck.values())
    one = built.findings(fair_sessions[0])
    kane = found.luck["Kane"]
    assert kane.count > one.luck["Kane"].count * 2.5  # pooled over the sessions
    first = min(found.luck.values(), key=lambda luck: luck.p)
    assert first.adjusted == pytest.approx(min(1.0, 7 * first.p))  # Holm's first step: seven looks
    html = built.page("en", *fair_sessions)
    assert "one corrected verdict per shooter, not one per session" in html
    assert html.count('<tr class="shooter">') == 7
    six = next(test for test in found.dice if test.die == 6)
    assert six.rolls > 5000 and six.verdict == "fair"


def test_the_page_in_russian(loaded_session: Path, built: Built) -> None:
    html = built.page("ru", loaded_session)
    assert '<html lang="ru">' in html
    for words in (
        "Отчёт о сессии",
        "Похоже, кости нечестные.",
        "Стрелки",
        "Цели",
        "Честность костей",
        "Слишком мало бросков d100, чтобы судить",
        "в пределах нормы",
        "Полосы удачи двусторонние.",
    ):
        assert words in html
    assert "p &lt; 0,001" in html  # the Russian decimal comma
    assert "Session report" not in html and "Shooters" not in html


def test_the_page_is_self_contained(fair_sessions: list[Path], built: Built) -> None:
    html = built.page("en", fair_sessions[0])
    assert html.startswith("<!DOCTYPE html>")
    assert "<script" not in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # nothing fetched from anywhere
    assert html.count('<svg class="chart"') == 4  # rounds, hits, faces, luck
    assert "report." not in re.sub(r"<svg.*?</svg>", "", html, flags=re.S)  # no untranslated key


def test_a_report_is_reproducible(fair_sessions: list[Path]) -> None:
    records = [read_record(fair_sessions[0])]
    assert report_html(records, "en") == report_html(records, "en")


def test_damaged_lines_are_counted_on_the_page(fair_sessions: list[Path], tmp_path: Path) -> None:
    lines = fair_sessions[0].read_bytes().splitlines(keepends=True)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"".join([*lines[:40], b"{torn\n", lines[40][:50] + b"\n", *lines[41:]]))
    html = report_html([read_record(damaged)], "en")
    assert "2 journal lines were skipped:" in html
    assert "damaged:41: not JSON" in html


def test_memory_stays_flat_in_the_sessions_size(fair_sessions: list[Path], sessions_dir: Path) -> None:
    """The journal is read twice, a line at a time, and never held: a session four times as long
    takes no more memory to report (Python's own allocations, rules' caches warm)."""
    small = write_session(sessions_dir / "small", 150, seed=7)
    big = fair_sessions[0]
    assert big.stat().st_size > 3.5 * small.stat().st_size
    peaks = {}
    for path in (big, small, big, small):  # the first round fills the rules' (bounded) caches
        gc.collect()
        tracemalloc.start()
        findings([read_record(path)])
        peaks[path] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    print(
        f"peak {peaks[small] / 1e6:.1f} MB for {small.stat().st_size / 1e6:.1f} MB of journal, "
        f"{peaks[big] / 1e6:.1f} MB for {big.stat().st_size / 1e6:.1f} MB"
    )
    assert peaks[big] < 1.5 * peaks[small] + 1e6

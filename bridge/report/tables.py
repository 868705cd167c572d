"""The report page's detail sections: shooters and their weapons, targets, and the dice fairness
tests, each a table (and its charts) under a heading. ``page`` puts them in order."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bridge.report import charts
from bridge.report.distributions import banded
from bridge.report.fairness import ALERT_P, WATCH_P, DieTest, OrderTest
from bridge.report.findings import Findings
from bridge.report.luck import Luck
from bridge.report.power import STICKY
from bridge.report.totals import Expectation, ShooterTally, Tally, TargetTally
from bridge.report.wording import Words, calibration_words, power_words, test_words

__all__ = ["fairness_section", "shooters_section", "targets_section"]


#: A die rolled fewer times than this gets no chart panel when others have one.
PANEL_ROLLS = 20


def _luck_cell(luck: Luck, words: Words) -> str:
    if luck.verdict == "too_few":
        return f'<span class="chip too_few">{words("luck_too_few")}</span>'
    position = round(100 * luck.standing)
    return (
        f'<span class="figure"><span class="meter"><i style="left:{position}%"></i></span>'
        f'<span class="num">{words.percentile(luck.standing)}</span></span> '
        f'<span class="chip {luck.verdict}">{words("luck_" + luck.verdict)}</span>'
    )


def _against(observed: int, expected: float, words: Words, digits: int = 1) -> str:
    """One cell: what happened, then (muted) what the odds expected."""
    return f'<td class="num">{observed} <span class="expected">/ {words.number(expected, digits)}</span></td>'


def shooters_section(findings: Findings, words: Words) -> str:
    tally = findings.tally
    shooters = sorted(tally.shooters.values(), key=lambda s: (-s.total("rounds"), s.name))
    if not shooters:
        lead = f'<p class="lead">{words("no_shooters")}</p>'
        return f'<section id="shooters"><h2>{words("shooters")}</h2>{lead}</section>'
    head = "".join(
        f"<th{' class=verdict' if key == 'col_luck' else ''}>{words(key)}</th>"
        for key in (
            "col_shooter",
            "col_requests",
            "col_rounds",
            "col_reloads",
            "col_jams",
            "col_hits",
            "col_luck",
            "col_luck_p",
            "col_luck_adjusted",
        )
    )
    rows = []
    for shooter in shooters:
        rows.append(_shooter_row(shooter, findings.luck_of(shooter), words))
        if len(shooter.weapons) > 1 or any(w.scripted or w.undone for w in shooter.weapons.values()):
            rows.extend(_weapon_row(shooter, name, words) for name in sorted(shooter.weapons))
        else:
            (name,) = shooter.weapons
            rows[-1] = rows[-1].replace("</strong>", f"</strong> <span class=note>· {escape(name)}</span>", 1)
    by_rounds = [(s.name, int(s.total("rounds"))) for s in shooters]
    by_hits = sorted(
        ((s.name, int(s.total("hits")), s.total("hits_expected")) for s in shooters),
        key=lambda row: (-row[2], row[0]),
    )
    figures = charts.rounds_chart(
        by_rounds, words("chart_rounds"), words("chart_rounds_axis")
    ) + charts.hits_chart(
        by_hits, words("chart_hits"), words("chart_hits_scored"), words("chart_hits_expected")
    )
    return (
        f'<section id="shooters"><h2>{words("shooters")}</h2>'
        f'<p class="lead">{words("shooters_lead")}</p>'
        f"{_table(head, ''.join(rows))}"
        f'<div class="charts">{figures}</div></section>'
    )


def _shooter_row(shooter: ShooterTally, luck: Luck, words: Words) -> str:
    hits, expected = shooter.total("hits"), shooter.total("hits_expected")
    jams, jams_expected = shooter.total("jams"), shooter.total("jams_expected")
    undone = int(shooter.total("undone"))
    note = f' <span class="note undone">({words("undone_attacks", count=undone)})</span>' if undone else ""
    return (
        f'<tr class="shooter"><td><strong>{escape(shooter.name)}</strong>{note}</td>'
        f'<td class="num">{int(shooter.total("requests"))}</td>'
        f'<td class="num">{int(shooter.total("rounds"))}</td>'
        f'<td class="num">{int(shooter.total("reloads"))}</td>'
        f"{_against(int(jams), jams_expected, words, 2)}{_against(int(hits), expected, words)}"
        f'<td class="verdict luck">{_luck_cell(luck, words)}</td>'
        f'<td class="num">{words.p_value(luck.p) if luck.count else ""}</td>'
        f'<td class="num">{words.p_value(luck.adjusted) if luck.adjusted is not None else ""}</td></tr>'
    )


def _weapon_row(shooter: ShooterTally, name: str, words: Words) -> str:
    weapon = shooter.weapons[name]
    faults = ", ".join(f"{escape(kind)} ×{count}" for kind, count in sorted(weapon.malfunctions.items()))
    notes = []
    if faults:
        notes.append(faults)
    if weapon.scripted:
        notes.append(words("scripted_attacks", count=weapon.scripted))
    if weapon.undone:
        notes.append(words("undone_attacks", count=weapon.undone))
    note = f' <span class="note">({"; ".join(notes)})</span>' if notes else ""
    return (
        f'<tr class="weapon"><td>{escape(name)}{note}</td>'
        f'<td class="num">{weapon.requests}</td><td class="num">{weapon.rounds}</td>'
        f'<td class="num">{weapon.reloads}</td>'
        f"{_against(weapon.jams, weapon.jams_expected, words, 2)}"
        f"{_against(weapon.hits, weapon.hits_expected, words)}"
        f"<td></td><td></td><td></td></tr>"
    )


def _table(head: str, rows: str) -> str:
    """A table that scrolls sideways on a narrow screen instead of spilling out of its card."""
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>'


def _expectation(seen: Expectation, words: Words) -> str:
    if not seen.trials:
        return '<td class="num">—</td>'
    return (
        f'<td class="num">{seen.observed} / {words.number(seen.expected)}'
        f' <span class="note">({words("of_tests", count=seen.trials)})</span></td>'
    )


def targets_section(tally: Tally, words: Words) -> str:
    targets = sorted(tally.targets.values(), key=lambda t: (-t.hits, -t.hits_expected, t.name))
    targets = [t for t in targets if t.attacks or t.hits or t.suppressed.trials or t.prone.trials]
    if not targets:
        return ""
    d100 = any(t.suppressed.trials or t.prone.trials for t in targets)
    keys = ["col_target", "col_tokens", "col_attacks", "col_hits_taken"]
    if d100:
        keys += ["col_suppressed", "col_prone"]
    head = "".join(f"<th>{words(key)}</th>" for key in keys)
    rows = "".join(_target_row(target, words, d100) for target in targets)
    lead = words("targets_lead") + (" " + words("targets_lead_d100") if d100 else "")
    return (
        f'<section id="targets"><h2>{words("targets")}</h2><p class="lead">{lead}</p>'
        f"{_table(head, rows)}</section>"
    )


def _target_row(target: TargetTally, words: Words, d100: bool) -> str:
    cells = (
        f"<td>{escape(target.name)}</td><td class=num>{len(target.tokens)}</td>"
        f"<td class=num>{target.attacks}</td>{_against(target.hits, target.hits_expected, words)}"
    )
    if d100:
        cells += _expectation(target.suppressed, words) + _expectation(target.prone, words)
    return f"<tr>{cells}</tr>"


def fairness_section(findings: Findings, words: Words) -> str:
    tally = findings.tally
    rows = []
    panels: list[tuple[str, Sequence[str], Sequence[int], str]] = []
    for test in findings.dice:
        rows.append(
            f"<tr><td>d{test.die}</td><td class=num>{words.count(test.rolls)}</td>"
            f"<td class=wrap>{test_words(test, words)}</td>"
            f"<td class=num>{words.number(test.chi2, 1) if test.chi2 is not None else '—'}</td>"
            f"<td class=num>{words.p_value(test.chi2_p) if test.chi2 is not None else '—'}</td>"
            f"<td class=num>{words.p_value(test.face_p) if test.face_p is not None else '—'}</td>"
            f"<td class=num>{_corrected(test, words)}</td>"
            f"<td class=wrap>{power_words(test, words)}</td>"
            f'<td class="verdict"><span class="chip {test.verdict}">'
            f"{words('die_' + test.verdict)}</span></td></tr>"
        )
        panels.append(_panel(test, words))
    head = _head(
        words,
        "col_die",
        "col_rolls",
        "col_test",
        "col_chi2",
        "col_chi2_p",
        "col_face_p",
        "col_p_adjusted",
        "col_power",
        "col_verdict",
    )
    table = _table(head, "".join(rows)) if rows else f'<p class="note">{words("no_rolls")}</p>'
    shown = [panel for panel, test in zip(panels, findings.dice, strict=True) if test.rolls >= PANEL_ROLLS]
    panels = shown or panels  # a few stray rolls of some die say nothing, unless nothing else was rolled
    calibration = findings.calibration
    figures = ""
    if panels:
        figures += charts.faces_chart(panels, words("chart_faces"))
    figures += charts.calibration_chart(
        calibration.histogram,
        words("chart_calibration"),
        words("chart_calibration_axis"),
        words("chart_calibration_count"),
        calibration.verdict,
        band=calibration.band,
    )
    tests: list[DieTest | OrderTest] = [*findings.dice, *findings.orders, calibration.test]
    family = max((test.family for test in tests), default=1)
    left_out = sum(1 for test in tests if not test.tested and test.p is not None)
    lead = words(
        "fairness_lead", count=family, alert=words.number(ALERT_P, 3), watch=words.number(WATCH_P, 2)
    )
    if left_out:
        lead += " " + words("fairness_left_out", count=left_out)
    scripted = (
        f'<p class="note">{words("scripted_faces", count=tally.dice.scripted)}</p>'
        if tally.dice.scripted
        else ""
    )
    return (
        f'<section id="fairness"><h2>{words("fairness")}</h2>'
        f"<p class=lead>{lead}</p>"
        f"{table}{scripted}"
        f"{_orders(findings, words)}"
        f"<h3>{words('calibration')}</h3>"
        f'<p><span class="chip {calibration.verdict}">{_chart_chip(calibration.verdict, words)}</span> '
        f"{calibration_words(calibration, words)}</p>"
        f'<div class="charts">{figures}</div>'
        f'<p class="note">{words("chart_fair_caption")}</p></section>'
    )


def _chart_chip(verdict: str, words: Words) -> str:
    return words("chart_too_few") if verdict == "too_few" else words("die_" + verdict)


def _head(words: Words, *keys: str) -> str:
    return "".join(f"<th{' class=verdict' if key == 'col_verdict' else ''}>{words(key)}</th>" for key in keys)


def _corrected(test: DieTest | OrderTest, words: Words) -> str:
    """The corrected p, or why there is none (too few rolls to enter the correction at all)."""
    if test.p is None:
        return "—"
    if not test.tested:
        return f'<span class="note">{words("not_counted")}</span>'
    return words.p_value(test.adjusted)


def _orders(findings: Findings, words: Words) -> str:
    """The order of each die's faces: how often the same face came twice running."""
    if not findings.orders:
        return ""
    rows = "".join(
        f"<tr><td>d{test.die}</td><td class=num>{words.count(test.pairs)}</td>"
        f"{_against(test.repeats, test.expected, words)}"
        f"<td class=num>{words.p_value(test.p) if test.p is not None else '—'}</td>"
        f"<td class=num>{_corrected(test, words)}</td>"
        f"<td class=wrap>{power_words(test, words)}</td>"
        f'<td class="verdict"><span class="chip {test.verdict}">'
        f"{words('die_' + test.verdict)}</span></td></tr>"
        for test in findings.orders
    )
    head = _head(
        words,
        "col_die",
        "col_pairs",
        "col_repeats",
        "col_p",
        "col_p_adjusted",
        "col_power_sticky",
        "col_verdict",
    )
    return (
        f"<h3>{words('order')}</h3>"
        f'<p class="note">{words("order_lead", sticky=words.percent(STICKY))}</p>'
        f"{_table(head, rows)}"
    )


def _panel(test: DieTest, words: Words) -> tuple[str, Sequence[str], Sequence[int], str]:
    """A die's panel: each face, or bands of ten for dice of more than twenty faces."""
    counts: list[int] = list(test.faces)
    labels = [str(face) for face in range(1, test.die + 1)]
    if test.die > 20 and test.die % 10 == 0:
        width = test.die // 10
        counts = banded(counts, 10)
        labels = [str(i * width + 1) for i in range(10)]
    name = words("panel", die=test.die, rolls=test.rolls)
    return name, labels, counts, test.verdict

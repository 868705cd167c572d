"""The report as one self-contained HTML page: inline CSS, inline SVG charts, no scripts, no network.

The page opens with the verdicts (are the dice fair, who was luckiest and unluckiest), then the
details a referee may want to check: shooters and their weapons, targets, each die size, the luck
histogram, and what in the journal could not be used. Every word comes from the catalogue
(``report.*`` keys), so the page reads the same in every language Volley speaks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

import bridge
from bridge.i18n import DECIMAL_MARK, Catalogue
from bridge.report import charts
from bridge.report.fairness import (
    ALERT_P,
    JUDGE_POWER,
    LOADING,
    STICKY,
    WATCH_P,
    Calibration,
    DieTest,
    OrderTest,
    banded,
    loading_width,
    overall,
)
from bridge.report.luck import LUCK_ALERT_P, LUCK_NOTE_P, Luck
from bridge.report.tally import Expectation, ShooterTally, Tally, TargetTally

__all__ = ["Findings", "render_page"]

#: How many skipped lines the page lists one by one (the rest are counted).
LISTED_PROBLEMS = 20
#: A die rolled fewer times than this gets no chart panel when others have one.
PANEL_ROLLS = 20
#: From this chance up a table would say "almost every time" (below it: "about 9 times in 10").
ALMOST_ALWAYS = 0.99


@dataclass(frozen=True)
class Findings:
    """Everything the page shows: the tally and the tests made on it, with corrected verdicts.

    ``luck`` holds each shooter's luck with its p-value corrected for the other shooters
    (``bridge.report.luck.judge_luck``); a shooter missing from it is judged alone. ``orders`` are
    the repeats tests of the die sizes, corrected with ``dice`` and ``calibration``.
    """

    tally: Tally
    dice: list[DieTest]
    calibration: Calibration
    luck: Mapping[str, Luck] = field(default_factory=dict)
    orders: list[OrderTest] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        """The page's verdict: the worst of the dice's tests (counts and order), or the luck chart's
        when that one raised a flag.

        A die with too few rolls outranks a fair one, so the page is never summed up as fair while
        some die could not be judged. The luck chart having too few attacks says nothing about dice.
        """
        flagged = [self.calibration.verdict] if self.calibration.verdict in ("watch", "alert") else []
        tests = [test.verdict for test in self.dice] + [test.verdict for test in self.orders]
        return overall(tests + flagged)

    @property
    def flagged(self) -> str | None:
        """What the headline is about: ``dice`` (their counts), ``order`` (the order of their faces)
        or ``luck`` (the attack results), whichever raised the page's verdict, in that order of
        precedence; None when nothing was flagged."""
        verdict = self.verdict
        if verdict not in ("watch", "alert"):
            return None
        if any(test.verdict == verdict for test in self.dice):
            return "dice"
        if any(test.verdict == verdict for test in self.orders):
            return "order"
        return "luck"

    def order_of(self, die: int) -> OrderTest | None:
        return next((test for test in self.orders if test.die == die), None)

    def luck_of(self, shooter: ShooterTally) -> Luck:
        return self.luck.get(shooter.name) or shooter.luck


class _Words:
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


CSS = """
:root { --ink: #1f2933; --muted: #616e7c; --line: #e4e7eb; --paper: #ffffff; --back: #f5f7fa;
  --fair: #2f9e6e; --watch: #d9a21b; --alert: #d64545; --too_few: #9aa5b1; --bar: #3e7cb1; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--back); color: var(--ink);
  font: 15px/1.45 "DejaVu Sans", "Liberation Sans", "Segoe UI", Arial, sans-serif; }
main { max-width: 1080px; margin: 0 auto; padding: 28px 24px 48px; }
header h1 { margin: 0; font-size: 26px; letter-spacing: -0.01em; }
header p { margin: 4px 0 0; color: var(--muted); }
h2 { font-size: 19px; margin: 0 0 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
section { background: var(--paper); border: 1px solid var(--line); border-radius: 10px;
  padding: 18px 20px; margin-top: 18px; }
section > p.lead { margin: 0 0 12px; color: var(--muted); }
.banner { display: flex; gap: 14px; align-items: center; border-radius: 10px; padding: 14px 18px;
  margin-top: 18px; color: #fff; font-size: 17px; }
.banner strong { font-size: 19px; }
.banner .mark { font-size: 28px; line-height: 1; }
.banner .line { display: block; font-size: 14.5px; margin-top: 3px; }
.banner.fair { background: var(--fair); } .banner.watch { background: var(--watch); }
.banner.alert { background: var(--alert); } .banner.too_few { background: var(--too_few); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(190px, 1fr)); gap: 12px;
  margin-top: 18px; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; }
.card .label { color: var(--muted); font-size: 13px; }
.card .value { font-size: 24px; font-weight: 700; margin-top: 2px; }
.card .value .words { font-size: 19px; }
.card .detail { font-size: 13px; color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { padding: 6px 8px; border-bottom: 1px solid var(--line); text-align: right; vertical-align: middle; }
th { color: var(--muted); font-weight: 600; font-size: 12.5px; }
th:first-child, td:first-child { text-align: left; }
tr.shooter td { font-weight: 700; border-top: 2px solid var(--line); }
tr.weapon td:first-child { padding-left: 22px; color: var(--muted); }
td.verdict, th.verdict { text-align: left; }
td.luck { min-width: 150px; }
td.luck .figure { white-space: nowrap; margin-right: 4px; }
td.wrap { white-space: normal; }
span.expected { color: var(--muted); font-weight: 400; }
td.num { white-space: nowrap; }
.scroll { overflow-x: auto; }
.chip { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12.5px;
  font-weight: 600; color: #fff; white-space: nowrap; }
.chip.fair, .chip.ordinary { background: var(--fair); }
.chip.watch, .chip.unlucky, .chip.lucky { background: var(--watch); }
.chip.alert, .chip.very_unlucky, .chip.very_lucky { background: var(--alert); }
.chip.too_few { background: var(--too_few); }
.meter { display: inline-block; position: relative; width: 56px; height: 8px; border-radius: 4px;
  background: linear-gradient(90deg, #f3c0c0, #eef1f4 40%, #eef1f4 60%, #bfe3d2); vertical-align: middle;
  margin-right: 6px; }
.meter i { position: absolute; top: -3px; width: 3px; height: 14px; margin-left: -1px;
  background: var(--ink); border-radius: 1px; }
.num { font-variant-numeric: tabular-nums; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 16px;
  margin-top: 14px; }
svg.chart { width: 100%; height: auto; display: block; }
.note { color: var(--muted); font-size: 13px; }
ul.problems { margin: 6px 0 0; padding-left: 20px; font-size: 13px; color: var(--muted); }
footer { margin-top: 22px; color: var(--muted); font-size: 12.5px; text-align: center; }
@media print { body { background: #fff; } section, .card { break-inside: avoid; } }
"""


def render_page(findings: Findings, catalogue: Catalogue) -> str:
    words = _Words(catalogue)
    tally = findings.tally
    campaign = len(tally.sessions) > 1
    title = words("title_campaign" if campaign else "title_session")
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(catalogue.language)}">',
        '<head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Volley · {title}</title>",
        f"<style>{CSS}</style></head>",
        "<body><main>",
        _header(findings, words, title),
        _banner(findings, words),
        _cards(findings, words),
        _shooters(findings, words),
        _targets(tally, words),
        _fairness(findings, words),
        _method(findings, words),
        _notes(tally, words),
        f"<footer>{words('footer', version=bridge.__version__)}</footer>",
        "</main></body></html>",
    ]
    return "\n".join(part for part in parts if part) + "\n"


def _header(findings: Findings, words: _Words, title: str) -> str:
    tally = findings.tally
    sessions = ", ".join(escape(line.name) for line in tally.sessions[:3])
    if len(tally.sessions) > 3:
        sessions += " " + words("and_more", count=len(tally.sessions) - 3)
    started = [line.started for line in tally.sessions if line.started]
    span = ""
    if started:
        first, last = min(started), max(started)
        span = words("started", when=first.replace("T", " ").replace("Z", " UTC"))
        if last != first:
            span = words("between", first=first[:10], last=last[:10])
    summary = words("summary", sessions=len(tally.sessions), requests=tally.requests)
    if tally.undone:
        summary += " · " + words("summary_undone", count=tally.undone)
    return f"<header><h1>{title}</h1><p>{sessions}</p><p>{summary}{' · ' + span if span else ''}</p></header>"


def _banner(findings: Findings, words: _Words) -> str:
    verdict = findings.verdict
    marks = {"fair": "✓", "watch": "!", "alert": "✗", "too_few": "…"}
    flagged = findings.flagged
    if flagged == "dice":
        headline = words("banner_" + verdict)
    elif flagged is not None:
        headline = words(f"banner_{flagged}_{verdict}")
    elif verdict == "too_few" and any(test.verdict == "fair" for test in findings.dice):
        headline = words("banner_too_few_some")
    else:
        headline = words("banner_" + verdict)
    lines = [line for test in findings.dice for line in _die_lines(test, findings.order_of(test.die), words)]
    if findings.calibration.verdict in ("watch", "alert"):
        lines.append(_luck_line(findings.calibration, words))
    detail = "".join(f'<span class="line">{line}</span>' for line in lines if line)
    return (
        f'<div class="banner {verdict}" id="verdict"><span class="mark">{marks[verdict]}</span>'
        f"<div><strong>{headline}</strong>{detail}</div></div>"
    )


def _die_lines(test: DieTest, order: OrderTest | None, words: _Words) -> list[str]:
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
                chance=_chance(test.power, words),
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


def _chance(power: float, words: _Words) -> str:
    """A chance as a table says it, never more than it is: "about 8 times in 10" for 0.80 to 0.89,
    "almost every time" from 0.99."""
    if power >= ALMOST_ALWAYS:
        return words("chance_almost")
    return words("chance_tenths", tenths=math.floor(10 * power))


def _expected(value: float, words: _Words) -> str:
    """An expected count as a table says it: whole above ten, one decimal below."""
    return words.number(value, 0 if value >= 10 else 1)


def _hot_text(test: DieTest, words: _Words) -> str:
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


def _order_text(order: OrderTest, words: _Words) -> str:
    """How often the die showed the same face twice running, against a fair die."""
    return words(
        "hot_order",
        die=order.die,
        count=order.repeats,
        pairs=words.count(order.pairs),
        expected=_expected(order.expected, words),
        p=words.p(order.adjusted),
    )


def _luck_line(calibration: Calibration, words: _Words) -> str:
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


def _cards(findings: Findings, words: _Words) -> str:
    tally = findings.tally
    shooters = list(tally.shooters.values())
    rounds = sum(int(s.total("rounds")) for s in shooters)
    hits = sum(int(s.total("hits")) for s in shooters)
    expected = sum(s.total("hits_expected") for s in shooters)
    jams = sum(int(s.total("jams")) for s in shooters)
    jams_expected = sum(s.total("jams_expected") for s in shooters)
    cards = [
        (
            words("card_rounds"),
            str(rounds),
            words("card_reloads", count=sum(int(s.total("reloads")) for s in shooters)),
        ),
        (words("card_hits"), str(hits), words("card_expected", value=words.number(expected))),
        (words("card_jams"), str(jams), words("card_expected", value=words.number(jams_expected))),
    ]
    judged = [(s, findings.luck_of(s)) for s in shooters if findings.luck_of(s).verdict != "too_few"]
    lucky = [pair for pair in judged if pair[1].verdict in ("lucky", "very_lucky")]
    unlucky = [pair for pair in judged if pair[1].verdict in ("unlucky", "very_unlucky")]
    if lucky:
        best = max(lucky, key=lambda pair: pair[1].z)
        cards.append((words("card_luckiest"), escape(best[0].name), _luck_words(best[1], words)))
    if unlucky:
        worst = min(unlucky, key=lambda pair: pair[1].z)
        cards.append((words("card_unluckiest"), escape(worst[0].name), _luck_words(worst[1], words)))
    if judged and not lucky and not unlucky:
        nobody = f'<span class="words">{words("card_luck_nobody")}</span>'
        cards.append((words("card_luck"), nobody, words("card_luck_judged", count=len(judged))))
    body = "".join(
        f'<div class="card"><div class="label">{label}</div><div class="value">{value}</div>'
        f'<div class="detail">{detail}</div></div>'
        for label, value, detail in cards
    )
    return f'<div class="cards">{body}</div>'


def _luck_words(luck: Luck, words: _Words) -> str:
    return words(
        "luck_detail", percentile=words.percentile(luck.standing), verdict=words("luck_" + luck.verdict)
    )


def _luck_cell(luck: Luck, words: _Words) -> str:
    if luck.verdict == "too_few":
        return f'<span class="chip too_few">{words("luck_too_few")}</span>'
    position = round(100 * luck.standing)
    return (
        f'<span class="figure"><span class="meter"><i style="left:{position}%"></i></span>'
        f'<span class="num">{words.percentile(luck.standing)}</span></span> '
        f'<span class="chip {luck.verdict}">{words("luck_" + luck.verdict)}</span>'
    )


def _against(observed: int, expected: float, words: _Words, digits: int = 1) -> str:
    """One cell: what happened, then (muted) what the odds expected."""
    return f'<td class="num">{observed} <span class="expected">/ {words.number(expected, digits)}</span></td>'


def _shooters(findings: Findings, words: _Words) -> str:
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


def _shooter_row(shooter: ShooterTally, luck: Luck, words: _Words) -> str:
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


def _weapon_row(shooter: ShooterTally, name: str, words: _Words) -> str:
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


def _expectation(seen: Expectation, words: _Words) -> str:
    if not seen.trials:
        return '<td class="num">—</td>'
    return (
        f'<td class="num">{seen.observed} / {words.number(seen.expected)}'
        f' <span class="note">({words("of_tests", count=seen.trials)})</span></td>'
    )


def _targets(tally: Tally, words: _Words) -> str:
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


def _target_row(target: TargetTally, words: _Words, d100: bool) -> str:
    cells = (
        f"<td>{escape(target.name)}</td><td class=num>{len(target.tokens)}</td>"
        f"<td class=num>{target.attacks}</td>{_against(target.hits, target.hits_expected, words)}"
    )
    if d100:
        cells += _expectation(target.suppressed, words) + _expectation(target.prone, words)
    return f"<tr>{cells}</tr>"


def _fairness(findings: Findings, words: _Words) -> str:
    tally = findings.tally
    rows = []
    panels: list[tuple[str, Sequence[str], Sequence[int], str]] = []
    for test in findings.dice:
        rows.append(
            f"<tr><td>d{test.die}</td><td class=num>{words.count(test.rolls)}</td>"
            f"<td class=wrap>{_test_words(test, words)}</td>"
            f"<td class=num>{words.number(test.chi2, 1) if test.chi2 is not None else '—'}</td>"
            f"<td class=num>{words.p_value(test.chi2_p) if test.chi2 is not None else '—'}</td>"
            f"<td class=num>{words.p_value(test.face_p) if test.face_p is not None else '—'}</td>"
            f"<td class=num>{_corrected(test, words)}</td>"
            f"<td class=wrap>{_power_words(test, words)}</td>"
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
        f"{_calibration_words(calibration, words)}</p>"
        f'<div class="charts">{figures}</div>'
        f'<p class="note">{words("chart_fair_caption")}</p></section>'
    )


def _chart_chip(verdict: str, words: _Words) -> str:
    return words("chart_too_few") if verdict == "too_few" else words("die_" + verdict)


def _head(words: _Words, *keys: str) -> str:
    return "".join(f"<th{' class=verdict' if key == 'col_verdict' else ''}>{words(key)}</th>" for key in keys)


def _corrected(test: DieTest | OrderTest, words: _Words) -> str:
    """The corrected p, or why there is none (too few rolls to enter the correction at all)."""
    if test.p is None:
        return "—"
    if not test.tested:
        return f'<span class="note">{words("not_counted")}</span>'
    return words.p_value(test.adjusted)


def _orders(findings: Findings, words: _Words) -> str:
    """The order of each die's faces: how often the same face came twice running."""
    if not findings.orders:
        return ""
    rows = "".join(
        f"<tr><td>d{test.die}</td><td class=num>{words.count(test.pairs)}</td>"
        f"{_against(test.repeats, test.expected, words)}"
        f"<td class=num>{words.p_value(test.p) if test.p is not None else '—'}</td>"
        f"<td class=num>{_corrected(test, words)}</td>"
        f"<td class=wrap>{_power_words(test, words)}</td>"
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


def _calibration_words(calibration: Calibration, words: _Words) -> str:
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
        power=_power_figure(test.power, words),
    )
    if test.verdict == "too_few" and test.needed is not None:
        text += " " + words("calibration_needed", needed=words.count(test.needed))
    return text


def _test_words(test: DieTest, words: _Words) -> str:
    """Which cells the chi-square test used, and whether the busiest face was tested exactly."""
    if test.chi2 is None:
        return words("test_face_only") if test.face_p is not None else "—"
    cells = words("test_faces") if test.bands == test.die else words("test_bands", bands=test.bands)
    return cells + (" " + words("test_face_exact") if test.face_p is not None else "")


def _power_figure(power: float, words: _Words) -> str:
    """A test's power as a percentage, rounded down (never more than it is): "83%", "over 99%"."""
    if power > ALMOST_ALWAYS:
        return words("power_over", percent=99)
    return words("power_cell", percent=math.floor(100 * power))


def _power_words(test: DieTest | OrderTest, words: _Words) -> str:
    """The chance the test had of catching its reference die, and the rolls it would need."""
    chance = _power_figure(test.power, words)
    if test.power >= JUDGE_POWER or test.needed is None:
        return chance
    return chance + f' <span class="note">({words("power_needed", needed=words.count(test.needed))})</span>'


def _panel(test: DieTest, words: _Words) -> tuple[str, Sequence[str], Sequence[int], str]:
    """A die's panel: each face, or bands of ten for dice of more than twenty faces."""
    counts: list[int] = list(test.faces)
    labels = [str(face) for face in range(1, test.die + 1)]
    if test.die > 20 and test.die % 10 == 0:
        width = test.die // 10
        counts = banded(counts, 10)
        labels = [str(i * width + 1) for i in range(10)]
    name = words("panel", die=test.die, rolls=test.rolls)
    return name, labels, counts, test.verdict


def _method(findings: Findings, words: _Words) -> str:
    """How to read the page: what luck is, why its bands are two-sided, what corrected means."""
    judged = sum(1 for luck in findings.luck.values() if luck.adjusted is not None)
    looks = max(1, judged)
    low = 100 * LUCK_NOTE_P / 2 / looks
    digits = 1 if low >= 1 else 2
    bands = words(
        "method_bands",
        note=words.number(LUCK_NOTE_P, 2),
        alert=words.number(LUCK_ALERT_P, 2),
        low=words.number(100 * LUCK_NOTE_P / 2, 1),
        high=words.number(100 - 100 * LUCK_NOTE_P / 2, 1),
    )
    corrected = words(
        "method_corrected",
        count=looks,
        low=words.number(low, digits),
        high=words.number(100 - low, digits),
    )
    dice = words(
        "method_dice",
        loading=words.number(LOADING, 1),
        power=math.floor(10 * JUDGE_POWER + 0.5),
        sticky=words.percent(STICKY),
    )
    sessions = len(findings.tally.sessions)
    campaign = f'<p class="note">{words("method_campaign", sessions=sessions)}</p>' if sessions > 1 else ""
    return (
        f'<section id="method"><h2>{words("method")}</h2>'
        f'<p class="note">{words("method_luck")}</p>'
        f'<p class="note">{bands}</p>'
        f'<p class="note">{corrected}</p>'
        f"{campaign}"
        f'<p class="note">{dice}</p>'
        f'<p class="note">{words("method_power")}</p>'
        f'<p class="note">{words("method_target")}</p></section>'
    )


def _outside(change: Mapping[str, Any], words: _Words) -> str:
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


def _notes(tally: Tally, words: _Words) -> str:
    notes = tally.notes
    items: list[str] = []
    if notes.undone:
        who = ", ".join(f"{escape(name)} ×{count}" for name, count in sorted(notes.undone.items()))
        items.append(f"<p>{words('undone', count=sum(notes.undone.values()), who=who)}</p>")
    if notes.undone_elsewhere:
        items.append(f"<p>{words('undone_elsewhere', count=notes.undone_elsewhere)}</p>")
    if notes.skipped_count:
        listed = "".join(
            f"<li>{escape(s.session)}{':' + str(s.line) if s.line else ''}: {escape(s.reason)}</li>"
            for s in notes.skipped[:LISTED_PROBLEMS]
        )
        more = notes.skipped_count - min(LISTED_PROBLEMS, len(notes.skipped))
        if more > 0:
            listed += f"<li>{words('and_more', count=more)}</li>"
        items.append(
            f'<p>{words("skipped_lines", count=notes.skipped_count)}</p><ul class="problems">{listed}</ul>'
        )
    if notes.other_kinds:
        kinds = ", ".join(f"{escape(kind)} ×{count}" for kind, count in sorted(notes.other_kinds.items()))
        items.append(f"<p>{words('other_kinds', kinds=kinds)}</p>")
    if notes.no_odds:
        reasons = "".join(
            f"<li>{escape(reason)} ×{count}</li>" for reason, count in notes.no_odds.most_common(10)
        )
        items.append(
            f'<p>{words("no_odds", count=sum(notes.no_odds.values()))}</p><ul class="problems">{reasons}</ul>'
        )
    if notes.disagreement_count:
        shown = ", ".join(escape(entry) for entry in notes.disagreements[:LISTED_PROBLEMS])
        if notes.disagreement_count > LISTED_PROBLEMS:
            shown += " " + words("and_more", count=notes.disagreement_count - LISTED_PROBLEMS)
        items.append(f"<p>{words('disagreements', count=notes.disagreement_count)} {shown}</p>")
    if notes.scripted:
        items.append(f"<p>{words('scripted_requests', count=notes.scripted)}</p>")
    if notes.repeated_seeds:
        items.append(f"<p>{words('repeated_seeds', count=notes.repeated_seeds)}</p>")
    if notes.unfinished:
        items.append(f"<p>{words('unfinished', count=notes.unfinished)}</p>")
    if notes.cancelled:
        items.append(f"<p>{words('cancelled', count=notes.cancelled)}</p>")
    if notes.outside_count:
        listed = "".join(f"<li>{_outside(change, words)}</li>" for change in notes.outside[:LISTED_PROBLEMS])
        more = notes.outside_count - min(LISTED_PROBLEMS, len(notes.outside))
        if more > 0:
            listed += f"<li>{words('and_more', count=more)}</li>"
        heading = words("outside", count=notes.outside_count)
        items.append(f'<p>{heading}</p><ul class="outside">{listed}</ul>')
    if notes.table_rules:
        listed = "".join(
            f"<li>{escape(session)} {escape(id_)}: "
            f"{'; '.join(escape(words.catalogue.render(m)) for m in readings)}</li>"
            for session, id_, readings in notes.table_rules[:LISTED_PROBLEMS]
        )
        more = notes.table_rules_count - min(LISTED_PROBLEMS, len(notes.table_rules))
        if more > 0:
            listed += f"<li>{words('and_more', count=more)}</li>"
        heading = words("table_rules", count=notes.table_rules_count)
        items.append(f'<p>{heading}</p><ul class="table-rules">{listed}</ul>')
    if not items:
        items.append(f"<p>{words('notes_none')}</p>")
    return f'<section id="notes"><h2>{words("notes")}</h2><div class="note">{"".join(items)}</div></section>'

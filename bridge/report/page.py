"""The report as one self-contained HTML page: inline CSS, inline SVG charts, no scripts, no network.

The page opens with the verdicts (are the dice fair, who was luckiest and unluckiest), then the
details a referee may want to check: shooters and their weapons, targets, each die size, the luck
histogram, and what in the journal could not be used. Every word comes from the catalogue
(``report.*`` keys), so the page reads the same in every language Volley speaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import bridge
from bridge.i18n import DECIMAL_MARK, Catalogue
from bridge.report import charts
from bridge.report.fairness import ALERT_P, WATCH_P, Calibration, DieTest, banded, overall
from bridge.report.luck import LUCK_ALERT_P, LUCK_NOTE_P, Luck
from bridge.report.tally import Expectation, ShooterTally, Tally, TargetTally

__all__ = ["Findings", "render_page"]

#: How many skipped lines the page lists one by one (the rest are counted).
LISTED_PROBLEMS = 20


@dataclass(frozen=True)
class Findings:
    """Everything the page shows: the tally and the fairness tests made on it."""

    tally: Tally
    dice: list[DieTest]
    calibration: Calibration

    @property
    def verdict(self) -> str:
        return overall([test.verdict for test in self.dice] + [self.calibration.verdict])


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
        return self.p(value).removeprefix("p = ").removeprefix("p ")

    def percentile(self, value: float) -> str:
        return str(min(99, max(1, round(100 * value))))


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
.banner.fair { background: var(--fair); } .banner.watch { background: var(--watch); }
.banner.alert { background: var(--alert); } .banner.too_few { background: var(--too_few); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(190px, 1fr)); gap: 12px;
  margin-top: 18px; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; }
.card .label { color: var(--muted); font-size: 13px; }
.card .value { font-size: 24px; font-weight: 700; margin-top: 2px; }
.card .detail { font-size: 13px; color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { padding: 6px 8px; border-bottom: 1px solid var(--line); text-align: right; vertical-align: middle; }
th { color: var(--muted); font-weight: 600; font-size: 12.5px; }
th:first-child, td:first-child { text-align: left; }
tr.shooter td { font-weight: 700; border-top: 2px solid var(--line); }
tr.weapon td:first-child { padding-left: 22px; color: var(--muted); }
td.verdict, th.verdict { text-align: left; }
td.luck { white-space: nowrap; }
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
        _shooters(tally, words),
        _targets(tally, words),
        _fairness(findings, words),
        _method(words),
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
    return f"<header><h1>{title}</h1><p>{sessions}</p><p>{summary}{' · ' + span if span else ''}</p></header>"


def _banner(findings: Findings, words: _Words) -> str:
    verdict = findings.verdict
    marks = {"fair": "✓", "watch": "!", "alert": "✗", "too_few": "…"}
    detail = ""
    worst = [t for t in findings.dice if t.verdict == verdict and t.hot is not None]
    if verdict in ("watch", "alert") and worst:
        test = max(worst, key=lambda t: t.hot[2] if t.hot else 0.0)
        detail = _hot_text(test, words)
    elif verdict in ("watch", "alert") and findings.calibration.verdict == verdict:
        detail = words("banner_luck_detail", p=words.p(findings.calibration.p))
    return (
        f'<div class="banner {verdict}" id="verdict"><span class="mark">{marks[verdict]}</span>'
        f"<div><strong>{words('banner_' + verdict)}</strong>"
        f"{'<br>' + detail if detail else ''}</div></div>"
    )


def _hot_text(test: DieTest, words: _Words) -> str:
    if test.hot is None:
        return ""
    low, high, ratio = test.hot
    face = str(low) if low == high else f"{low}–{high}"
    return words("hot_face", die=test.die, face=face, ratio=words.number(ratio, 1), p=words.p(test.p))


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
    judged = [(s, s.luck) for s in shooters if s.luck.verdict != "too_few"]
    if judged:
        best = max(judged, key=lambda pair: pair[1].z)
        worst = min(judged, key=lambda pair: pair[1].z)
        cards.append((words("card_luckiest"), escape(best[0].name), _luck_words(best[1], words)))
        if worst[0] is not best[0]:
            cards.append((words("card_unluckiest"), escape(worst[0].name), _luck_words(worst[1], words)))
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
        f'<span class="meter"><i style="left:{position}%"></i></span>'
        f'<span class="num">{words.percentile(luck.standing)}</span> '
        f'<span class="chip {luck.verdict}">{words("luck_" + luck.verdict)}</span>'
    )


def _against(observed: int, expected: float, words: _Words, digits: int = 1) -> str:
    """One cell: what happened, then (muted) what the odds expected."""
    return f'<td class="num">{observed} <span class="expected">/ {words.number(expected, digits)}</span></td>'


def _shooters(tally: Tally, words: _Words) -> str:
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
        )
    )
    rows = []
    for shooter in shooters:
        rows.append(_shooter_row(shooter, words))
        if len(shooter.weapons) > 1 or any(w.scripted for w in shooter.weapons.values()):
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


def _shooter_row(shooter: ShooterTally, words: _Words) -> str:
    hits, expected = shooter.total("hits"), shooter.total("hits_expected")
    jams, jams_expected = shooter.total("jams"), shooter.total("jams_expected")
    return (
        f'<tr class="shooter"><td><strong>{escape(shooter.name)}</strong></td>'
        f'<td class="num">{int(shooter.total("requests"))}</td>'
        f'<td class="num">{int(shooter.total("rounds"))}</td>'
        f'<td class="num">{int(shooter.total("reloads"))}</td>'
        f"{_against(int(jams), jams_expected, words, 2)}{_against(int(hits), expected, words)}"
        f'<td class="verdict luck">{_luck_cell(shooter.luck, words)}</td>'
        f'<td class="num">{words.p_value(shooter.luck.p) if shooter.luck.count else ""}</td></tr>'
    )


def _weapon_row(shooter: ShooterTally, name: str, words: _Words) -> str:
    weapon = shooter.weapons[name]
    faults = ", ".join(f"{escape(kind)} ×{count}" for kind, count in sorted(weapon.malfunctions.items()))
    notes = []
    if faults:
        notes.append(faults)
    if weapon.scripted:
        notes.append(words("scripted_attacks", count=weapon.scripted))
    note = f' <span class="note">({"; ".join(notes)})</span>' if notes else ""
    return (
        f'<tr class="weapon"><td>{escape(name)}{note}</td>'
        f'<td class="num">{weapon.requests}</td><td class="num">{weapon.rounds}</td>'
        f'<td class="num">{weapon.reloads}</td>'
        f"{_against(weapon.jams, weapon.jams_expected, words, 2)}"
        f"{_against(weapon.hits, weapon.hits_expected, words)}"
        f"<td></td><td></td></tr>"
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
        test_words = words("test_faces") if test.bands == test.die else words("test_bands", bands=test.bands)
        hot = _hot_text(test, words) if test.verdict in ("watch", "alert") else ""
        rows.append(
            f"<tr><td>d{test.die}</td><td class=num>{test.rolls}</td><td class=num>{test_words}</td>"
            f"<td class=num>{words.number(test.chi2, 1) if test.chi2 is not None else '—'}</td>"
            f"<td class=num>{words.p_value(test.p) if test.p is not None else '—'}</td>"
            f'<td class="verdict"><span class="chip {test.verdict}">{words("die_" + test.verdict)}</span>'
            f"{' <span class=note>' + hot + '</span>' if hot else ''}</td></tr>"
        )
        panels.append(_panel(test, words))
    head = "".join(
        f"<th{' class=verdict' if key == 'col_verdict' else ''}>{words(key)}</th>"
        for key in ("col_die", "col_rolls", "col_test", "col_chi2", "col_p", "col_verdict")
    )
    table = _table(head, "".join(rows)) if rows else f'<p class="note">{words("no_rolls")}</p>'
    if any(panel[3] != "too_few" for panel in panels):
        panels = [panel for panel in panels if panel[3] != "too_few"]  # a few stray rolls say nothing
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
    )
    ks = (
        words(
            "calibration_test",
            count=calibration.count,
            ks=words.number(calibration.ks, 3),
            p=words.p(calibration.p),
            mean=words.percentile(calibration.mean),
        )
        if calibration.ks is not None
        else words("calibration_too_few", count=calibration.count)
    )
    lead = words("fairness_lead", alert=words.number(ALERT_P, 3), watch=words.number(WATCH_P, 2))
    scripted = (
        f'<p class="note">{words("scripted_faces", count=tally.dice.scripted)}</p>'
        if tally.dice.scripted
        else ""
    )
    return (
        f'<section id="fairness"><h2>{words("fairness")}</h2>'
        f"<p class=lead>{lead}</p>"
        f"{table}{scripted}"
        f"<h3>{words('calibration')}</h3>"
        f'<p><span class="chip {calibration.verdict}">{words("die_" + calibration.verdict)}</span> {ks}</p>'
        f'<div class="charts">{figures}</div>'
        f'<p class="note">{words("chart_fair_caption")}</p></section>'
    )


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


def _method(words: _Words) -> str:
    shooter = words("method_shooter", note=words.number(LUCK_NOTE_P, 2), alert=words.number(LUCK_ALERT_P, 2))
    return (
        f'<section id="method"><h2>{words("method")}</h2>'
        f'<p class="note">{words("method_luck")}</p>'
        f"<p class=note>{shooter}</p>"
        f'<p class="note">{words("method_target")}</p></section>'
    )


def _notes(tally: Tally, words: _Words) -> str:
    notes = tally.notes
    items: list[str] = []
    if notes.skipped:
        listed = "".join(
            f"<li>{escape(s.session)}{':' + str(s.line) if s.line else ''}: {escape(s.reason)}</li>"
            for s in notes.skipped[:LISTED_PROBLEMS]
        )
        more = len(notes.skipped) - LISTED_PROBLEMS
        if more > 0:
            listed += f"<li>{words('and_more', count=more)}</li>"
        items.append(
            f'<p>{words("skipped_lines", count=len(notes.skipped))}</p><ul class="problems">{listed}</ul>'
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
    if notes.disagreements:
        shown = ", ".join(escape(entry) for entry in notes.disagreements[:LISTED_PROBLEMS])
        items.append(f"<p>{words('disagreements', count=len(notes.disagreements))} {shown}</p>")
    if notes.scripted:
        items.append(f"<p>{words('scripted_requests', count=notes.scripted)}</p>")
    if notes.repeated_seeds:
        items.append(f"<p>{words('repeated_seeds', count=notes.repeated_seeds)}</p>")
    if notes.unfinished:
        items.append(f"<p>{words('unfinished', count=notes.unfinished)}</p>")
    if not items:
        items.append(f"<p>{words('notes_none')}</p>")
    return f'<section id="notes"><h2>{words("notes")}</h2><div class="note">{"".join(items)}</div></section>'

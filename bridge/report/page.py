"""The report as one self-contained HTML page: inline CSS, inline SVG charts, no scripts, no network.

The page opens with the verdicts (are the dice fair, who was luckiest and unluckiest), then the
details a referee may want to check: shooters and their weapons, targets, each die size, the luck
histogram, and what in the journal could not be used. Every word comes from the catalogue
(``report.*`` keys), so the page reads the same in every language Volley speaks.
"""

from __future__ import annotations

import math
from html import escape

import bridge
from bridge.i18n import Catalogue
from bridge.report.findings import Findings
from bridge.report.luck import LUCK_ALERT_P, LUCK_NOTE_P
from bridge.report.power import JUDGE_POWER, LOADING, STICKY
from bridge.report.tables import fairness_section, shooters_section, targets_section
from bridge.report.totals import Tally
from bridge.report.wording import Words, die_lines, luck_line, luck_words, outside_change

__all__ = ["render_page"]

#: How many skipped lines the page lists one by one (the rest are counted).
LISTED_PROBLEMS = 20


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
    words = Words(catalogue)
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
        shooters_section(findings, words),
        targets_section(tally, words),
        fairness_section(findings, words),
        _method(findings, words),
        _notes(tally, words),
        f"<footer>{words('footer', version=bridge.__version__)}</footer>",
        "</main></body></html>",
    ]
    return "\n".join(part for part in parts if part) + "\n"


def _header(findings: Findings, words: Words, title: str) -> str:
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


def _banner(findings: Findings, words: Words) -> str:
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
    lines = [line for test in findings.dice for line in die_lines(test, findings.order_of(test.die), words)]
    if findings.calibration.verdict in ("watch", "alert"):
        lines.append(luck_line(findings.calibration, words))
    detail = "".join(f'<span class="line">{line}</span>' for line in lines if line)
    return (
        f'<div class="banner {verdict}" id="verdict"><span class="mark">{marks[verdict]}</span>'
        f"<div><strong>{headline}</strong>{detail}</div></div>"
    )


def _cards(findings: Findings, words: Words) -> str:
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
        cards.append((words("card_luckiest"), escape(best[0].name), luck_words(best[1], words)))
    if unlucky:
        worst = min(unlucky, key=lambda pair: pair[1].z)
        cards.append((words("card_unluckiest"), escape(worst[0].name), luck_words(worst[1], words)))
    if judged and not lucky and not unlucky:
        nobody = f'<span class="words">{words("card_luck_nobody")}</span>'
        cards.append((words("card_luck"), nobody, words("card_luck_judged", count=len(judged))))
    body = "".join(
        f'<div class="card"><div class="label">{label}</div><div class="value">{value}</div>'
        f'<div class="detail">{detail}</div></div>'
        for label, value, detail in cards
    )
    return f'<div class="cards">{body}</div>'


def _method(findings: Findings, words: Words) -> str:
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


def _notes(tally: Tally, words: Words) -> str:
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
        listed = "".join(
            f"<li>{outside_change(change, words)}</li>" for change in notes.outside[:LISTED_PROBLEMS]
        )
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

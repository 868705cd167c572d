#!/usr/bin/env python3
"""How fast the attack dialog answers, as a referee feels it: each system's dialog driven in Chromium on
``volley sandbox``'s page (the real module, the real bridge), every time taken inside the page.

    .venv/bin/python scripts/bench_dialog.py [--reps 20] [--systems gurps,megatraveller,d100] [--lang en]

Per system it prints the median and p95 of ``--reps`` runs of:

- **click→dialog**: the Token HUD's Fire clicked until the dialog is in the page;
- **click→chart**: the same click until the first target's odds chart is drawn (the bridge asked and
  answered, the preview part redrawn);
- **key→odds**: a key pressed in a field that changes the odds (an arrow key in a number field) until
  the charts show the new odds (redrawn, no longer faded);
- **fire→card**: Fire clicked until the chat card is in the log (the weapon refilled between runs,
  outside the time);
- **bridge odds**: beside them, the bridge's own odds round trip for the same choice, sent from the same
  page through the same door the dialog uses (``sendRelayed``: the referee's browser builds the request
  and asks the bridge), with no dialog around it;

the page's first dialog apart (its templates fetched and compiled: it is not in the medians), and
what the dialog adds to the bridge's answer: click→chart minus click→dialog minus the bridge's round
trip (the issue's target: at most 150 ms), and key→odds minus the round trip (at most 100 ms). Times
are taken where they happen (``performance.now()`` in the page; a DOM change seen by a
MutationObserver, the key by a capturing ``keydown`` listener), so Playwright's own round trips are not
in them. Numbers, not a test: the machine's load average is printed with them, and on a shared machine
only several runs' medians say much.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: Milliseconds between two keys in a field: someone typing or tapping an arrow key, five a second.
KEY_GAP_MS = 200

#: The attack dialog (not MegaTraveller's allocation step, not one closing).
DIALOG = "[role=dialog].volley-attack-dialog:not(.volley-mt-allocation):not([inert])"


@dataclass(frozen=True)
class System:
    scene: str
    shooter: str
    token: str
    #: a target whose chart is drawn as the dialog opens
    chart: str
    #: a number field whose arrow keys change the odds, and the two keys pressed in turn
    field: str
    keys: tuple[str, str] = ("ArrowDown", "ArrowUp")
    #: form settings made once before the runs (selects: name -> value)
    setup: tuple[tuple[str, str], ...] = ()


SYSTEMS = {
    "gurps": System("gurps", "Sgt. Hale", "tokHale000000001", "Raider", "[name='targets.0.shots']"),
    # Burst fire: one step (automatic fire may wait for an allocation, which holds the rounds).
    "megatraveller": System(
        "megatraveller",
        "Kira Rhyne",
        "tokKira000000001",
        "Vargr raider",
        "[name='rows.0.dm']",
        setup=(("mode", "burst"),),
    ),
    "d100": System("d100", "Vex", "tokVex0000000001", "Heretic", "[name=modifier]"),
}

#: Click the HUD's Fire; resolve with the times the dialog, then the named chart, were in the page.
OPEN = """([dialogSelector, chart]) => new Promise((resolve, reject) => {
  const fire = document.querySelector('#token-hud button.volley-fire');
  if (!fire) return reject(new Error('no Fire in the Token HUD'));
  const out = {dialog: null, chart: null};
  const drawn = () => {
    const dialog = document.querySelector(dialogSelector);
    if (!dialog) return false;
    if (out.dialog === null) out.dialog = performance.now() - t0;
    const preview = dialog.querySelector('.volley-attack__preview');
    if (!preview || preview.classList.contains('volley-attack__preview--stale')) return false;
    return [...preview.querySelectorAll('[role=img]')]
      .some((img) => (img.getAttribute('aria-label') ?? '').includes(chart));
  };
  const observer = new MutationObserver(() => {
    if (!drawn()) return;
    out.chart = performance.now() - t0;
    observer.disconnect();
    clearTimeout(timer);
    resolve(out);
  });
  const timer = setTimeout(() => { observer.disconnect(); reject(new Error('no chart in 20 s')); }, 20000);
  observer.observe(document.body, {subtree: true, childList: true, attributes: true,
    attributeFilter: ['class']});
  const t0 = performance.now();
  fire.click();
})"""

#: The charts as drawn now (their accessible names), to tell new odds from old.
CHARTS = """(dialogSelector) => [
  ...document.querySelectorAll(`${dialogSelector} .volley-attack__preview [role=img]`),
].map((img) => img.getAttribute('aria-label')).join(' | ')"""

#: Before a key is pressed: note its time when it comes, and resolve once the charts differ from now.
ARM_KEY = """([dialogSelector, charts]) => {
  const state = {key: null};
  const onKey = (event) => { if (state.key === null) state.key = performance.now(); };
  document.addEventListener('keydown', onKey, {capture: true});
  window.__benchKey = new Promise((resolve, reject) => {
    const check = () => {
      const preview = document.querySelector(`${dialogSelector} .volley-attack__preview`);
      if (state.key === null || !preview) return;
      if (preview.classList.contains('volley-attack__preview--stale')) return;
      const now = [...preview.querySelectorAll('[role=img]')]
        .map((img) => img.getAttribute('aria-label')).join(' | ');
      if (!now || now === charts) return;
      const at = performance.now();
      observer.disconnect();
      clearTimeout(timer);
      document.removeEventListener('keydown', onKey, {capture: true});
      resolve({ms: at - state.key, charts: now});
    };
    const observer = new MutationObserver(check);
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error('the odds did not change in 20 s'));
    }, 20000);
    observer.observe(document.body, {subtree: true, childList: true, attributes: true,
      attributeFilter: ['class', 'aria-label']});
  });
}"""

#: The bridge's own odds round trip for the dialog's choice, from this page, ``n`` times in a row.
BRIDGE = """async ([n]) => {
  const {AttackDialog} = await import('/modules/volley/scripts/systems/common/attack-dialog.js');
  const {sendRelayed} = await import('/modules/volley/scripts/foundry/bridge.js');
  const {newRequestId} = await import('/modules/volley/scripts/protocol.js');
  const dialog = [...AttackDialog.openDialogs][0];
  const choice = dialog.readChoice(dialog.previewAction());
  const out = [];
  for (let i = 0; i < n + 2; i += 1) {
    const t0 = performance.now();
    const reply = await sendRelayed({type: 'odds', id: newRequestId(), choice});
    const ms = performance.now() - t0;
    if (reply.type !== 'odds') throw new Error(`the bridge said ${JSON.stringify(reply).slice(0, 200)}`);
    if (i >= 2) out.push(ms);  // the first two warm up
  }
  return out;
}"""

#: Fill the shooter's weapons (every round back, no jam), outside the time; resolves once written.
RESTOCK = """async ([tokenId]) => {
  const token = canvas.scene.tokens.get(tokenId);
  const weapons = token.actor.flags.volley.profile.weapons.map((w) => ({
    ...w, state: {...w.state, loaded: w.stats.capacity, jammed: false, malfunction: null},
  }));
  await token.actor.update({'flags.volley.profile.weapons': weapons});
}"""

#: Click Fire; resolve with the time until one more card is in the chat log.
FIRE = """([dialogSelector]) => new Promise((resolve, reject) => {
  const button = document.querySelector(`${dialogSelector} .volley-attack__button--primary`);
  if (!button || button.disabled) {
    return reject(new Error(`Fire cannot be pressed: ${button?.title ?? 'none'}`));
  }
  const before = document.querySelectorAll('.volley-card').length;
  const observer = new MutationObserver(() => {
    if (document.querySelectorAll('.volley-card').length <= before) return;
    const ms = performance.now() - t0;
    observer.disconnect();
    clearTimeout(timer);
    resolve(ms);
  });
  const timer = setTimeout(() => { observer.disconnect(); reject(new Error('no card in 20 s')); }, 20000);
  observer.observe(document.getElementById('chat-log'), {subtree: true, childList: true});
  const t0 = performance.now();
  button.click();
})"""

READY_TO_FIRE = f"""() => {{
  const fire = document.querySelector('{DIALOG} .volley-attack__button--primary');
  const preview = document.querySelector('{DIALOG} .volley-attack__preview');
  return fire && !fire.disabled && preview && !preview.classList.contains('volley-attack__preview--stale')
    && preview.querySelector('[role=img]') !== null;
}}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "p95": percentile(values, 0.95)}


def hud(page: Any, system: System) -> None:
    page.get_by_role("button", name=system.shooter, exact=True).click()
    page.locator("#token-hud button.volley-fire").wait_for()


def close_dialog(page: Any) -> None:
    page.locator(f"{DIALOG} .sandbox-close").click()
    page.wait_for_function(f"document.querySelector({DIALOG!r}) === null")
    # The window goes for good once its closing transition ends: the next one opens afresh.
    page.wait_for_function("document.querySelector('.volley-attack-dialog') === null")


def wait_ready(page: Any) -> None:
    try:
        page.wait_for_function(READY_TO_FIRE, timeout=30_000)
    except Exception as error:
        seen = page.evaluate(f"document.querySelector({DIALOG!r})?.innerText ?? 'no dialog'")
        raise RuntimeError(f"the dialog is not ready to fire:\n{seen}") from error


def measure(page: Any, system: System, reps: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"dialog": [], "chart": [], "key": [], "fire": [], "bridge": []}
    first: dict[str, float] = {}
    # Opening: once to warm up (templates fetched and compiled, modules loaded), then `reps` times.
    for rep in range(reps + 1):
        hud(page, system)
        opened = page.evaluate(OPEN, [DIALOG, system.chart])
        if rep:
            times["dialog"].append(opened["dialog"])
            times["chart"].append(opened["chart"])
        else:
            first = opened
        close_dialog(page)

    hud(page, system)
    page.evaluate(OPEN, [DIALOG, system.chart])
    dialog = page.locator(DIALOG)
    for name, value in system.setup:
        dialog.locator(f"select[name={name}]").select_option(value)
    wait_ready(page)
    field = dialog.locator(system.field)
    field.focus()
    for rep in range(reps + 1):
        # A typist's pace: keys a few a second, not back to back (closer keys are paced on purpose).
        page.wait_for_timeout(KEY_GAP_MS)
        charts = page.evaluate(CHARTS, DIALOG)
        page.evaluate(ARM_KEY, [DIALOG, charts])
        page.keyboard.press(system.keys[rep % 2])
        seen = page.evaluate("window.__benchKey")
        if rep:
            times["key"].append(seen["ms"])
    wait_ready(page)
    times["bridge"] = page.evaluate(BRIDGE, [reps])
    page.evaluate(
        "async () => { window.__benchDialogs = (await import("
        "'/modules/volley/scripts/systems/common/attack-dialog.js')).AttackDialog.openDialogs; }"
    )

    for rep in range(reps + 1):
        page.evaluate(RESTOCK, [system.token])
        wait_ready(page)
        ms = page.evaluate(FIRE, [DIALOG])
        if rep:
            times["fire"].append(ms)
        # The answer is in when the dialog is no longer sending (it may show a jam: the refill clears it).
        page.wait_for_function("[...window.__benchDialogs].every((dialog) => !dialog.sending)")
    close_dialog(page)
    times["first dialog"] = [first["dialog"]]
    times["first chart"] = [first["chart"]]
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=20, help="runs of each measure (after one warm-up)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated: " + ", ".join(SYSTEMS))
    parser.add_argument("--lang", default="en", choices=["en", "ru"])
    parser.add_argument("--json", action="store_true", help="one JSON line of every figure at the end")
    args = parser.parse_args()
    chosen = [name.strip() for name in args.systems.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in SYSTEMS]
    if unknown:
        parser.error(f"unknown system(s): {', '.join(unknown)}")

    from playwright.sync_api import sync_playwright

    from devkit.browser import CHROMIUM, CHROMIUM_ARGS, Sandbox, wait_booted, wait_connected

    load_before = os.getloadavg()
    results: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as work:
        sandbox = Sandbox(Path(work))
        sandbox.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM),
                    headless=True,
                    args=CHROMIUM_ARGS,
                )
                try:
                    context = browser.new_context(viewport={"width": 1400, "height": 900})
                    for name in chosen:
                        system = SYSTEMS[name]
                        page = context.new_page()
                        page.set_default_timeout(60_000)
                        page.goto(f"{sandbox.url}?lang={args.lang}&scene={system.scene}&view=referee")
                        wait_booted(page)
                        wait_connected(page)
                        times = measure(page, system, args.reps)
                        results[name] = {key: summary(values) for key, values in times.items()}
                        page.close()
                finally:
                    browser.close()
        finally:
            sandbox.stop()
    load_after = os.getloadavg()

    print(
        f"bench_dialog: {args.reps} runs each, lang {args.lang}; load average {load_before[0]:.2f} -> "
        f"{load_after[0]:.2f} on {os.cpu_count()} cores; ms, median / p95"
    )
    header = (
        "system",
        "click→dialog",
        "click→chart",
        "key→odds",
        "fire→card",
        "bridge odds",
        "chart adds",
        "key adds",
    )
    print("  ".join(f"{h:>15}" for h in header))
    for name, figures in results.items():
        bridge = figures["bridge"]["median"]
        chart_adds = figures["chart"]["median"] - figures["dialog"]["median"] - bridge
        key_adds = figures["key"]["median"] - bridge
        figures["adds"] = {"chart": chart_adds, "key": key_adds}
        cells = (
            [name]
            + [
                f"{figures[key]['median']:.1f} / {figures[key]['p95']:.1f}"
                for key in ("dialog", "chart", "key", "fire", "bridge")
            ]
            + [f"{chart_adds:.1f}", f"{key_adds:.1f}"]
        )
        print("  ".join(f"{c:>15}" for c in cells))
    firsts = [
        f"{name} click→dialog {figures['first dialog']['median']:.1f}, "
        f"click→chart {figures['first chart']['median']:.1f}"
        for name, figures in results.items()
    ]
    print("the first dialog of the page (its templates fetched and compiled), ms: " + "; ".join(firsts))
    print("targets: chart adds <= 150 ms, key adds <= 100 ms (medians)")
    if args.json:
        print(json.dumps({"reps": args.reps, "load": [load_before[0], load_after[0]], "systems": results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

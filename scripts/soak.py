"""A long session: a few hundred attacks through the real attack dialog, one after another, on
``volley sandbox`` in headless Chromium, as a referee would fire them.

Prints how long each Fire takes to show its card, the first 20 attacks against the last 20 (the
median of each, and last / first: a session that slows as its chat log grows shows a ratio above 1),
every page error seen (uncaught exceptions on the page; there should be none), and every Foundry
compatibility warning Volley's own code caused (the stand-in plays Foundry 14 unless ``--foundry 13``;
there should be none either).

    .venv/bin/python scripts/soak.py [--attacks 300] [--system gurps|megatraveller|d100] [--foundry 13|14]

Exit status: 1 when a page error or a warning of Volley's was seen (never because of a time: times go
to the output, to be read against a baseline measured in the same run). ``tests/browser/test_soak.py``
runs a short soak through ``soak()`` in the suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: Per system: the scene, the shooter, a target whose chart shows the dialog is ready, and the dice
#: each attack is scripted with (a hit that neither jams nor fumbles, so every attack is alike).
SYSTEMS: dict[str, dict[str, str]] = {
    "gurps": {
        "scene": "gurps",
        "shooter": "Sgt. Hale",
        "chart": "Raider",
        "dice": "3 3 4 6 6 6",
        "shots": "3",
    },
    "d100": {"scene": "d100", "shooter": "Vex", "chart": "Heretic", "dice": "20 5"},
    "megatraveller": {
        "scene": "megatraveller",
        "shooter": "Kira Rhyne",
        "chart": "Vargr raider",
        "dice": "",
        "mode": "burst",
    },
}
#: Reload when fewer rounds than this are left (the next attack must not run dry).
RELOAD_BELOW = 6
WINDOW = 20


@dataclass
class Soak:
    """What a soak measured: Fire -> card per attack (ms), and the page errors."""

    times_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: Foundry compatibility warnings from Volley's own code (stand-in/generations.js records them).
    warnings: list[str] = field(default_factory=list)

    @property
    def first(self) -> float:
        return statistics.median(self.times_ms[:WINDOW])

    @property
    def last(self) -> float:
        return statistics.median(self.times_ms[-WINDOW:])

    @property
    def ratio(self) -> float:
        return self.last / self.first if self.first else float("nan")


def cards(page: Any) -> int:
    """Cards seen so far, as the clock counts them (not a query over the page, polled every frame)."""
    return int(page.evaluate("window.soakClock.seen"))


#: Timed in the page, not through Playwright (whose round trips a busy machine stretches): from the
#: Fire click (a capturing listener) to the card's element in the chat log (a mutation observer on the
#: log that looks only at the nodes each mutation added: counting the page's cards on every mutation,
#: as the first version of this clock did, costs more the longer the log, and was most of what grew).
CLOCK = """() => {
  if (window.soakClock) return;
  // A card is counted once, by its message: a card redrawn in place (an update) is not a new card.
  const ids = new Set();
  for (const li of document.querySelectorAll('[data-message-id]')) {
    if (li.querySelector('.volley-card')) ids.add(li.dataset.messageId);
  }
  const clock = { started: 0, seen: ids.size, times: [] };
  window.soakClock = clock;
  const newCard = (node) => {
    const li = node instanceof Element ? node.closest('[data-message-id]') : null;
    if (li === null || ids.has(li.dataset.messageId)) return null;
    return li.querySelector('.volley-card') !== null ? li : null;
  };
  document.addEventListener('click', (event) => {
    const fire = event.target instanceof Element && event.target.closest('[data-volley=attack]');
    if (fire) clock.started = performance.now();
  }, true);
  new MutationObserver((records) => {
    let added = 0;
    for (const record of records) for (const node of record.addedNodes) {
      const li = newCard(node);
      if (li) { ids.add(li.dataset.messageId); added += 1; }
    }
    if (!added) return;
    clock.seen += added;
    if (clock.started) { clock.times.push(performance.now() - clock.started); clock.started = 0; }
  }).observe(document.getElementById('chat-log'), { childList: true, subtree: true });
}"""


def soak(page: Any, attacks: int, system: str = "gurps", errors: list[str] | None = None) -> Soak:
    """Fire ``attacks`` attacks through the dialog on a sandbox page that holds the bridge."""
    from devkit.browser import open_attack_dialog, wait_for_chart

    spec = SYSTEMS[system]
    result = Soak(errors=errors if errors is not None else [])
    page.evaluate(CLOCK)
    dialog = open_attack_dialog(page, spec["shooter"])
    wait_for_chart(dialog, spec["chart"])
    fire = dialog.locator("[data-volley=attack]")
    reload_ = dialog.locator("[data-volley=reload]")
    loaded = """(name) => {
      const token = canvas.scene.tokens.contents.find((t) => t.name === name);
      const profile = token.actor.flags.volley.profile;
      const weapon = profile.weapons.find((w) => w.id === profile.current) ?? profile.weapons[0];
      return weapon.state.loaded;
    }"""
    # No request out: while one is, every button of the row is disabled (a full magazine's Reload, or
    # a Fire the form holds back, is disabled alone).
    idle = "[...document.querySelectorAll('.volley-attack__buttons button')].some((b) => !b.disabled)"
    for _ in range(attacks):
        page.wait_for_function(idle)
        if int(page.evaluate(loaded, spec["shooter"])) < RELOAD_BELOW:
            before = cards(page)
            reload_.click()
            page.wait_for_function(f"window.soakClock.seen > {before}")
            page.wait_for_function(idle)
        if spec.get("mode") and dialog.locator("select[name=mode]").input_value() != spec["mode"]:
            dialog.locator("select[name=mode]").select_option(spec["mode"])
        if spec.get("shots"):
            dialog.locator("[name='targets.0.shots']").fill(spec["shots"])
        page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === false")
        before = cards(page)
        page.locator("#dice").fill(spec["dice"])
        fire.click()
        page.wait_for_function(f"window.soakClock.seen > {before}")
    result.times_ms = [float(ms) for ms in page.evaluate("window.soakClock.times")]
    result.warnings = page.evaluate(
        "(window.sandbox?.compatWarnings ?? []).filter((w) => w.fromVolley).map((w) => w.message)"
    )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--attacks", type=int, default=300)
    parser.add_argument("--system", choices=sorted(SYSTEMS), default="gurps")
    parser.add_argument("--foundry", type=int, choices=(13, 14), default=14, help="the Foundry it plays")
    parser.add_argument(
        "--without-sandbox-save",
        action="store_true",
        help="stub the sandbox's own world save (sessionStorage), to tell its cost from the module's",
    )
    args = parser.parse_args()
    if args.attacks < 2 * WINDOW:
        parser.error(f"--attacks: at least {2 * WINDOW}, to compare the first {WINDOW} with the last")

    from playwright.sync_api import sync_playwright

    from devkit.browser import CHROMIUM, CHROMIUM_ARGS, Sandbox, wait_booted, wait_connected

    with tempfile.TemporaryDirectory() as work:
        sandbox = Sandbox(Path(work))
        sandbox.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
                )
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                if args.without_sandbox_save:
                    page.add_init_script("Storage.prototype.setItem = function () {};")
                page.set_default_timeout(30_000)
                scene = SYSTEMS[args.system]["scene"]
                page.goto(f"{sandbox.url}?lang=en&scene={scene}&view=referee&foundry={args.foundry}")
                wait_booted(page)
                wait_connected(page)
                started = time.perf_counter()
                result = soak(page, args.attacks, args.system, errors)
                took = time.perf_counter() - started
                browser.close()
        finally:
            sandbox.stop()
    stubbed = ", the sandbox's world save stubbed" if args.without_sandbox_save else ""
    played = f"{args.system}, Foundry {args.foundry}{stubbed}"
    print(f"soak: {args.attacks} attacks ({played}) through the dialog in {took:.1f} s")
    print(f"fire_to_card_first{WINDOW}_median_ms {result.first:.1f}")
    print(f"fire_to_card_last{WINDOW}_median_ms {result.last:.1f}")
    print(f"fire_to_card_last{WINDOW}_over_first{WINDOW} {result.ratio:.2f} (target <= 1.2)")
    print(f"page_errors {len(result.errors)} (target 0)")
    for error in result.errors[:20]:
        print(f"  {error}")
    print(f"volley_compat_warnings {len(result.warnings)} (target 0)")
    for warning in result.warnings[:20]:
        print(f"  {warning}")
    return 1 if result.errors or result.warnings else 0


if __name__ == "__main__":
    sys.exit(main())

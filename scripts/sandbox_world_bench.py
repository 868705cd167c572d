#!/usr/bin/env python3
"""How much keeping the sandbox's world costs per change, with many cards in the chat: the stand-in's
store (one IndexedDB record per changed document) against the old keeper (the whole world serialised
to sessionStorage on every change), both measured in the same page, in the same run.

    .venv/bin/python scripts/sandbox_world_bench.py [--cards 1000] [--size 9000]

Prints, at each size of the chat: the median milliseconds of keeping one new card the new way (a store
write, awaited until committed), the old way (JSON of every message + sessionStorage.setItem, or the
QuotaExceededError it hits), and their ratio. Numbers, not a test: nothing asserts a speed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MEASURE = """async ([cards, size, marks]) => {
  const body = '<section class="volley-card">' + 'x'.repeat(size) + '</section>';
  const store = sandbox.world.store;
  const median = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const out = [];
  for (let i = 0; i < cards; i += 1) {
    await ChatMessage.create({content: body, flags: {volley: {n: i, before: {rounds: i}}}});
    if (!marks.includes(i + 1)) continue;
    await sandbox.flush();
    const message = game.messages.contents.at(-1);
    const fresh = [], old = [];
    let quota = null;
    for (let k = 0; k < 7; k += 1) {
      let t = performance.now();
      store.put(message.storeKey, message.toStore());
      await store.flush();
      fresh.push(performance.now() - t);
      t = performance.now();
      try {
        const world = {messages: game.messages.contents.map((m) => m.toObject())};
        sessionStorage.setItem('bench', JSON.stringify(world));
      } catch (error) {
        quota = String(error.name);
      }
      old.push(performance.now() - t);
      sessionStorage.removeItem('bench');
    }
    out.push({cards: i + 1, fresh: median(fresh), old: median(old), quota});
  }
  return out;
}"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--size", type=int, default=9000, help="characters of card HTML per message")
    args = parser.parse_args()
    import tempfile

    from playwright.sync_api import sync_playwright

    from devkit.browser import Sandbox, wait_booted

    marks = sorted({m for m in (1, 100, 300, 510, 633, args.cards) if m <= args.cards})
    with tempfile.TemporaryDirectory() as work:
        sandbox = Sandbox(Path(work))
        sandbox.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox", "--disable-gpu"]
                )
                page = browser.new_page()
                page.goto(f"{sandbox.url}?scene=gurps")
                wait_booted(page)
                rows = page.evaluate(MEASURE, [args.cards, args.size, marks])
                browser.close()
        finally:
            sandbox.stop()
    print(f"{'cards':>6} {'store ms':>9} {'old keeper ms':>14} {'old/store':>10}")
    for row in rows:
        old = f"{row['old']:.2f}" + (f" ({row['quota']})" if row["quota"] else "")
        ratio = row["old"] / row["fresh"] if row["fresh"] else float("inf")
        print(f"{row['cards']:>6} {row['fresh']:>9.2f} {old:>14} {ratio:>10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

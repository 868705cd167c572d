// What a screen reader hears from Volley: said once things settle, never twice in a row, a slow
// "asking" dropped when the answer comes first; the bridge's changes said once each, not its retries.
import { describe, it } from "node:test";
import assert from "node:assert/strict";

import { Announcer, BridgeWatch } from "../../vtt_module/scripts/announcer.js";
import { FakeClock } from "./fakes.mjs";

function setup(settleMs = 400) {
  const clock = new FakeClock();
  /** @type {string[]} */
  const heard = [];
  const announcer = new Announcer({ write: (text) => heard.push(text), timers: clock, settleMs });
  return { clock, heard, announcer };
}

describe("Announcer", () => {
  it("says a message once things settle, the latest of a burst only", () => {
    const { clock, heard, announcer } = setup();
    for (const n of ["1", "13", "3"]) {
      announcer.say(`Raider: expected ${n}`);
      clock.advance(100);
    }
    assert.deepEqual(heard, []);
    clock.advance(300);
    assert.deepEqual(heard, ["Raider: expected 3"]);
    assert.equal(announcer.waiting, false);
  });

  it("never says the same thing twice in a row, but again after something else", () => {
    const { clock, heard, announcer } = setup();
    for (const text of ["no odds: bridge offline", "no odds: bridge offline", "Raider: expected 1", "no odds: bridge offline"]) {
      announcer.say(text);
      clock.advance(1000);
    }
    assert.deepEqual(heard, ["no odds: bridge offline", "Raider: expected 1", "no odds: bridge offline"]);
  });

  it("drops a delayed message that something replaces first (a quick answer has no 'asking')", () => {
    const { clock, heard, announcer } = setup();
    announcer.say("asking the bridge…", { after: 1200 });
    clock.advance(300);
    announcer.say("Raider: expected 1.95");
    clock.advance(2000);
    assert.deepEqual(heard, ["Raider: expected 1.95"]);
    // A slow answer: "asking" is said, then the answer.
    announcer.say("asking the bridge…", { after: 1200 });
    clock.advance(1300);
    announcer.say("Raider: expected 2.10");
    clock.advance(400);
    assert.deepEqual(heard, ["Raider: expected 1.95", "asking the bridge…", "Raider: expected 2.10"]);
  });

  it("says nothing for blank text or after cancel", () => {
    const { clock, heard, announcer } = setup();
    announcer.say("  ");
    announcer.say("Sending…");
    announcer.cancel();
    clock.advance(5000);
    assert.deepEqual(heard, []);
    assert.deepEqual(clock.pendingDelays(), []);
  });
});

describe("BridgeWatch", () => {
  it("is silent at load and through a retry loop, and speaks once per change", () => {
    const watch = new BridgeWatch();
    const states = ["unknown", "connecting", "ready", "ready", "waiting", "connecting", "waiting", "connecting", "ready", "refused", "refused", "stopped"];
    const said = states.filter((state) => watch.changed(/** @type {any} */ (state)));
    assert.deepEqual(said, ["waiting", "ready", "refused", "stopped"]);
  });

  it("does not speak the first state a page learns, even when the bridge is down", () => {
    const watch = new BridgeWatch();
    assert.equal(watch.changed("waiting"), false);
    assert.equal(watch.changed("no_gm"), false, "offline either way");
    assert.equal(watch.changed("ready"), true);
  });
});

// Issue #32, the parts of Volley's v14 work that are pure: which Dark Heresy 2e a world runs (by its
// declared compatibility, not its version string), the adapters' Foundry ranges, which bridge
// addresses are this machine, and what the status line says of a bridge elsewhere.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { adapterForGame } from "../../vtt_module/scripts/adapters/index.js";
import { darkHeresyBuild, FORK, SUPPORTED_VERSIONS as DH2 } from "../../vtt_module/scripts/adapters/dark-heresy-2e.js";
import { SUPPORTED_VERSIONS as GGA } from "../../vtt_module/scripts/adapters/gurps.js";
import { SUPPORTED_VERSIONS as TWODSIX } from "../../vtt_module/scripts/adapters/twodsix.js";
import { fromWire, statusWords, toWire } from "../../vtt_module/scripts/bridge-status.js";
import { isLoopbackAddress } from "../../vtt_module/scripts/connection.js";

// The two system.json files: mrkeathley/dark-heresy-2nd-vtt 1.8.1 (51464f8) and MattMavis's fork (0d7aae3).
const ORIGINAL = { id: "dark-heresy-2nd", version: "1.8.1", compatibility: { minimum: 12, verified: "12.331", maximum: 12 } };
const FORKED = { id: "dark-heresy-2nd", version: "1.8.1", compatibility: { minimum: 13, verified: "14.365" } };

describe("which Dark Heresy 2e: the fork or the original, by declared compatibility", () => {
  it("tells the two 1.8.1 builds apart by what they declare, not by their version", () => {
    assert.equal(darkHeresyBuild(ORIGINAL.compatibility), "original");
    assert.equal(darkHeresyBuild(FORKED.compatibility), "fork");
    assert.equal(darkHeresyBuild({ minimum: "13", verified: "14.365" }), "fork", "as strings too");
    for (const odd of [undefined, null, {}, "13", { minimum: "x" }]) assert.equal(darkHeresyBuild(odd), "unknown", String(odd));
  });

  it("names the original on Foundry 13 and 14, with the fork to install; says nothing of the fork", () => {
    for (const generation of [13, 14]) {
      const adapter = adapterForGame({ system: ORIGINAL, release: { generation } });
      assert.equal(adapter?.notice?.key, "dh2.original_build");
      assert.deepEqual(adapter.notice.values, { version: "1.8.1", foundry: generation, fork: FORK });
      assert.equal(adapterForGame({ system: FORKED, release: { generation } })?.notice, undefined);
    }
    // On Foundry 12 the original is the right build: only the version is checked.
    assert.equal(adapterForGame({ system: ORIGINAL, release: { generation: 12 } })?.notice, undefined);
    assert.equal(adapterForGame({ system: { ...FORKED, version: "2.1.0" }, release: { generation: 14 } })?.notice?.key, "version.outside");
  });

  it("each adapter says which Foundry its versions run on", () => {
    assert.deepEqual(GGA.foundry, { min: 13, max: 14 }, "GGA 0.18.22 declares 13 to 14");
    assert.deepEqual(TWODSIX.foundry, { min: 14, max: 14 }, "Twodsix 7.1 and later need 14");
    assert.deepEqual(DH2.foundry, { min: 13, max: 14 }, "the DH2e fork declares 13 and 14");
  });
});

describe("the bridge's address", () => {
  it("is this machine only for localhost, 127.0.0.0/8 and [::1]", () => {
    for (const here of ["ws://127.0.0.1:8765/ws", "wss://localhost/ws", "ws://[::1]:8765/ws", "ws://127.9.9.9/ws", "ws://2130706433/ws"]) assert.ok(isLoopbackAddress(here), here);
    for (const away of ["ws://bridge.example:8765/ws", "ws://192.168.1.5:8765/ws", "ws://127.0.0.1.nip.io/ws", "ws://localhost.evil.com/ws", "not an address", ""]) assert.ok(!isLoopbackAddress(away), away);
  });

  it("one elsewhere is on the referee's own line, and never on the wire", () => {
    assert.deepEqual(statusWords({ state: "unconfirmed", address: "ws://b.example/ws" }, 0), { key: "VOLLEY.Bridge.Unconfirmed", values: { address: "ws://b.example/ws" } });
    assert.deepEqual(statusWords({ state: "ready", address: "ws://b.example/ws" }, 0), { key: "VOLLEY.Bridge.ConnectedTo", values: { address: "ws://b.example/ws" } });
    const wire = toWire({ state: "unconfirmed", address: "ws://b.example/ws" }, 0);
    assert.deepEqual(wire, { state: "unconfirmed" });
    assert.deepEqual(statusWords(fromWire(wire, 0), 0), { key: "VOLLEY.Bridge.UnconfirmedElsewhere", values: {} });
  });
});

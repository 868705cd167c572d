// The veil over a private card (issue #32): what only its readers may see, sealed with a key from the
// bridge's token, so a player's client holding every chat message still cannot read a blind roll.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { unveil, veil } from "../../vtt_module/scripts/chat-card/veil.js";

const SECRET = { card: { rows: [{ target: "tokRaider", name: "Raider", hits: 3 }] }, result: { rolls: [{ die: 6, face: 4 }] }, before: [{ token: "tokHale" }] };

describe("veil and unveil", () => {
  it("the browser with the token lifts what it sealed, for that card", () => {
    const veiled = veil("bridge-token", "pl.volley-1", SECRET);
    assert.match(veiled, /^v1\.[A-Za-z0-9+/=]+$/);
    assert.deepEqual(unveil("bridge-token", "pl.volley-1", veiled), SECRET);
  });

  it("holds nothing of the secret in the clear", () => {
    const veiled = veil("bridge-token", "pl.volley-1", SECRET);
    const text = Buffer.from(veiled.slice(3), "base64").toString("latin1");
    for (const word of ["Raider", "rows", "before", "tokHale"]) assert.ok(!text.includes(word), word);
  });

  it("does not lift with another token, on another card, edited, or when it is no veil", () => {
    const veiled = veil("bridge-token", "pl.volley-1", SECRET);
    assert.equal(unveil("another-token", "pl.volley-1", veiled), null);
    assert.equal(unveil("bridge-token", "pl.volley-2", veiled), null, "moved onto another card");
    const bytes = Buffer.from(veiled.slice(3), "base64");
    bytes[bytes.length - 1] ^= 1;
    assert.equal(unveil("bridge-token", "pl.volley-1", `v1.${bytes.toString("base64")}`), null, "one bit changed");
    for (const odd of [undefined, null, 7, "", "v1.", "v2.AAAA", "v1.!!!", { card: {} }]) assert.equal(unveil("bridge-token", "pl.volley-1", odd), null, String(odd));
    assert.equal(unveil("", "pl.volley-1", veiled), null, "a browser without the token");
  });

  it("uses a fresh nonce each time, so one secret veiled twice looks different", () => {
    assert.notEqual(veil("t", "k", SECRET), veil("t", "k", SECRET));
    assert.throws(() => veil("", "k", SECRET), TypeError);
  });
});

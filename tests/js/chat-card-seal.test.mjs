// The seal on a card's undo record (issue #17): HMAC-SHA-256 with the bridge's token, from the vendored
// @noble/hashes so it works outside a secure context (issue #32); checked against RFC 4231's test vectors,
// node:crypto, and every edit a player could try.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";

import { canonicalJson, hmacSha256, hmacSha256Bytes, sealHolds, sealOf } from "../../vtt_module/scripts/chat-card/seal.js";

const bytes = (length, value) => new Uint8Array(length).fill(value);
const text = (value) => new TextEncoder().encode(value);
const hex = (value) => Array.from(value, (b) => b.toString(16).padStart(2, "0")).join("");

describe("HMAC-SHA-256: RFC 4231's test cases 1 to 7", () => {
  // RFC 4231 section 4: key, data, and HMAC-SHA-256 (case 5's truncated to its first 128 bits).
  const cases = [
    [bytes(20, 0x0b), text("Hi There"), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"],
    [text("Jefe"), text("what do ya want for nothing?"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"],
    [bytes(20, 0xaa), bytes(50, 0xdd), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"],
    [Uint8Array.from({ length: 25 }, (_, i) => i + 1), bytes(50, 0xcd), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"],
    [bytes(20, 0x0c), text("Test With Truncation"), "a3b6167473100ee06e0c796c2955552b"],
    [bytes(131, 0xaa), text("Test Using Larger Than Block-Size Key - Hash Key First"), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"],
    [
      bytes(131, 0xaa),
      text("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."),
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
    ],
  ];
  for (const [n, [key, data, want]] of cases.entries()) {
    it(`test case ${n + 1}`, () => {
      assert.equal(hex(hmacSha256Bytes(key, data)).slice(0, want.length), want);
    });
  }
});

describe("hmacSha256", () => {
  it("is node's HMAC-SHA-256 for short, long, empty and non-ASCII keys and messages", () => {
    for (const [key, message] of [["", ""], ["k", "abc"], ["x".repeat(100), "y".repeat(1000)], ["токен", "é".repeat(70)], ["t", "z".repeat(55)], ["t", "z".repeat(56)], ["t", "z".repeat(64)]]) {
      assert.equal(hmacSha256(key, message), createHmac("sha256", key).update(message).digest("hex"), `${key.length}/${message.length}`);
    }
  });
});

describe("the seal of an undo record", () => {
  const record = { requestId: "u1.volley-1", system: "gurps", token: "tokHale", before: [{ token: "tokHale", flags: { loaded: 30 } }] };
  const token = "bridge-token-1234";

  it("holds for the record it was made for, whatever the key order", () => {
    const seal = sealOf(token, record);
    assert.ok(sealHolds(token, { ...record, seal }));
    const reordered = { before: [{ flags: { loaded: 30 }, token: "tokHale" }], token: "tokHale", system: "gurps", requestId: "u1.volley-1", seal };
    assert.ok(sealHolds(token, reordered));
    assert.equal(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] }), '{"a":[{"c":2,"d":1}],"b":1}');
  });

  it("fails for an edited before, another request, another token, or no seal at all", () => {
    const seal = sealOf(token, record);
    assert.ok(!sealHolds(token, { ...record, before: [{ token: "tokHale", flags: { loaded: 99 } }], seal }), "more rounds");
    assert.ok(!sealHolds(token, { ...record, requestId: "u1.volley-2", seal }), "moved to another card");
    assert.ok(!sealHolds("another-token", { ...record, seal }), "sealed by someone without the token");
    assert.ok(!sealHolds(token, record), "no seal");
    assert.ok(!sealHolds("", { ...record, seal: sealOf("", record) }), "no token in this browser");
  });
});

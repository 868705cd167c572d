// The seal on a card's undo record (issue #17): HMAC-SHA-256 with the bridge's token, written out so it
// works outside a secure context; checked against node:crypto, and against every edit a player could try.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";

import { canonicalJson, hmacSha256, sealHolds, sealOf } from "../../vtt_module/scripts/table/seal.js";

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

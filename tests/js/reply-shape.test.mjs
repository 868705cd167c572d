// Protocol 3 sends each thing once (issue 38): a result's updates and log, a pending reply's pool and
// each card row's statuses are only in its `result`. A retry may return a reply journaled in protocol
// 2's shape, with the copies. The module reads both alike: the same recorded sessions in each shape
// (tests/replays/format2 and tests/replays) give the same updates, pool and card.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";

import { cardView } from "../../vtt_module/scripts/card.js";
import { parseMessage } from "../../vtt_module/scripts/protocol.js";

const replays = new URL("../replays/", import.meta.url);

/** The reply of every resolved line of a recorded journal, as the bridge sent it (a text frame). */
function frames(path) {
  return readFileSync(new URL(path, replays), "utf8")
    .split("\n")
    .filter(Boolean)
    .slice(1)
    .map((line) => JSON.stringify(JSON.parse(line).reply));
}

const words = { text: (value) => JSON.stringify(value), localize: (key) => key, has: () => false };

for (const system of ["gurps", "d100", "megatraveller"]) {
  describe(`${system}: both shapes of a reply read alike`, () => {
    const before = frames(`format2/${system}.jsonl`);
    const after = frames(`${system}.jsonl`);

    it("has the same requests recorded in each shape, the newer without the copies", () => {
      assert.equal(before.length, after.length);
      for (const frame of after) {
        const reply = JSON.parse(frame);
        assert.ok(!("updates" in reply) && !("pending" in reply) && !("log" in reply.card), frame.slice(0, 80));
      }
    });

    it("gives the same updates, pool and card view", () => {
      let pools = 0;
      before.forEach((frame, index) => {
        const old = parseMessage(frame);
        const now = parseMessage(after[index]);
        assert.equal(now.type, old.type);
        if (old.type === "result") assert.deepEqual(now.updates, old.updates);
        if (old.type === "pending") {
          assert.deepEqual(now.pending, old.pending);
          pools += 1;
        }
        const view = (reply) => cardView(reply.card, { words, result: reply.result });
        assert.deepEqual(view(now), view(old), `${old.id}`);
        assert.ok(view(now).log.length > 0, `${old.id}: the log is shown`);
      });
      if (system === "megatraveller") assert.ok(pools > 0);
    });
  });
}

it("shows a row's statuses from the result's updates when the card does not list them", () => {
  const card = { title: "t", rows: [{ target: "tok1", name: "Raider", hits: 1 }] };
  const result = { log: ["one line"], updates: [{ token: "tok1", statuses_add: ["suppressed"] }, { token: "tok1", statuses_remove: ["prone"] }] };
  const view = cardView(card, { words: { ...words, localize: (key) => key }, result });
  assert.deepEqual(view.rows[0].statusesAdd.length, 1);
  assert.deepEqual(view.rows[0].statusesRemove.length, 1);
  assert.deepEqual(view.log, [JSON.stringify("one line")]);
});

// The bridge's dice as Foundry Roll data on the card (issue #17): core's roll-mode rules and Dice So Nice
// read the message's rolls, in each reader's browser, so the faces must be the bridge's, in its order.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { rollsData } from "../../vtt_module/scripts/chat-card/rolls.js";

describe("rollsData", () => {
  it("groups consecutive dice of one purpose and size into one evaluated Roll, in the rules' order", () => {
    const rolls = [
      { die: 6, face: 3, for: "to-hit" },
      { die: 6, face: 4, for: "to-hit" },
      { die: 6, face: 5, for: "to-hit" },
      { die: 100, face: 42, for: { key: "d100.hit", values: { n: 1 } } },
      { die: 6, face: 1, for: "to-hit" },
    ];
    const out = rollsData(rolls);
    assert.deepEqual(
      out.map((r) => [r.formula, r.total, r.evaluated, r.terms[0].results.map((x) => x.result)]),
      [["3d6", 12, true, [3, 4, 5]], ["1d100", 42, true, [42]], ["1d6", 1, true, [1]]],
    );
    assert.deepEqual(Object.keys(out[0]).sort(), ["class", "dice", "evaluated", "formula", "options", "terms", "total"]);
    assert.equal(out[0].terms[0].class, "Die");
    assert.ok(out[0].terms[0].results.every((r) => r.active === true));
  });

  it("skips what is not a die the rules could have rolled, and caps a long volley", () => {
    assert.deepEqual(rollsData([{ die: 6, face: 7 }, { die: 6, face: 0 }, { die: "6", face: 1 }, null, "x"]), []);
    assert.deepEqual(rollsData("junk"), []);
    const many = Array.from({ length: 500 }, () => ({ die: 10, face: 5, for: "loc" }));
    assert.equal(rollsData(many, { maxDice: 60 })[0].terms[0].number, 60);
  });
});

// The bridge's faces as Dice So Nice throws: one throw per step of the rules, in the order rolled; d100 as
// Dice So Nice's own tens-and-units pair; dice it has no model for skipped; a long volley capped.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { DICE_SO_NICE_DEFAULTS, diceSoNiceData } from "../../vtt_module/scripts/chat-card/dice-so-nice.js";

/** The faces of each throw, as [type, result, label] triples, for short assertions. */
const faces = (data) => data.throws.map((t) => t.dice.map((d) => [d.type, d.result, d.resultLabel]));

describe("diceSoNiceData", () => {
  it("a GURPS burst: the 3d6 to-hit falls first, then the target's 3d6 dodge", () => {
    // `volley roll --seed 7 < docs/examples/gurps/mp5_burst.json`
    const rolls = [
      { die: 6, face: 4, for: "to-hit" },
      { die: 6, face: 1, for: "to-hit" },
      { die: 6, face: 1, for: "to-hit" },
      { die: 6, face: 4, for: "dodge" },
      { die: 6, face: 5, for: "dodge" },
      { die: 6, face: 4, for: "dodge" },
    ];
    const data = diceSoNiceData(rolls);
    assert.deepEqual(faces(data), [
      [["d6", 4, "4"], ["d6", 1, "1"], ["d6", 1, "1"]],
      [["d6", 4, "4"], ["d6", 5, "5"], ["d6", 4, "4"]],
    ]);
    assert.deepEqual(data.throws[0].dice[0], { type: "d6", result: 4, resultLabel: "4", vectors: [], options: {} });
  });

  it("a d100 is Dice So Nice's tens die and units die, both carrying the whole face", () => {
    const cases = [
      [54, [["d100", 5, "50"], ["d10", 4, "4"]]],
      [7, [["d100", 0, "0"], ["d10", 7, "7"]]],
      [10, [["d100", 1, "10"], ["d10", 0, "0"]]],
      [100, [["d100", 0, "100"], ["d10", 0, "0"]]],
      [1, [["d100", 0, "0"], ["d10", 1, "1"]]],
    ];
    for (const [face, expected] of cases) {
      const data = diceSoNiceData([{ die: 100, face, for: "attack" }]);
      assert.deepEqual(faces(data), [expected], String(face));
      assert.deepEqual(data.throws[0].dice.map((d) => d.d100Result), [face, face]);
    }
  });

  it("suppressing fire: the attack, then each suppression test in turn", () => {
    // `volley roll --seed 3 < docs/examples/d100/suppressing_fire.json`, with a d3 picking a target
    const rolls = [
      { die: 100, face: 54, for: "attack (suppressing fire (full))" },
      { die: 3, face: 2, for: "random target" },
      { die: 100, face: 62, for: "suppression test for Cultist" },
      { die: 100, face: 48, for: "suppression test for Cult demagogue" },
    ];
    assert.deepEqual(faces(diceSoNiceData(rolls)), [
      [["d100", 5, "50"], ["d10", 4, "4"]],
      [["d3", 2, "2"]],
      [["d100", 6, "60"], ["d10", 2, "2"]],
      [["d100", 4, "40"], ["d10", 8, "8"]],
    ]);
  });

  it("message purposes compare by key and values, whatever their order", () => {
    const a = { key: "gurps.roll.to_hit", values: { target: "Ganger", index: 1 } };
    const same = { values: { index: 1, target: "Ganger" }, key: "gurps.roll.to_hit" };
    const other = { key: "gurps.roll.to_hit", values: { target: "Biker", index: 2 } };
    const rolls = [a, same, other, a].map((purpose, i) => ({ die: 6, face: i + 1, for: purpose }));
    assert.deepEqual(faces(diceSoNiceData(rolls)).map((t) => t.length), [2, 1, 1]);
  });

  it("keeps the rules' order when a purpose comes back later", () => {
    const rolls = [
      { die: 6, face: 1, for: "to-hit v1" },
      { die: 6, face: 2, for: "to-hit v2" },
      { die: 6, face: 3, for: "to-hit v1" },
    ];
    assert.deepEqual(faces(diceSoNiceData(rolls)), [[["d6", 1, "1"]], [["d6", 2, "2"]], [["d6", 3, "3"]]]);
  });

  it("skips dice Dice So Nice has no model for, and entries that are not dice", () => {
    const rolls = [
      { die: 9, face: 4, for: "random target" },
      { die: 6, face: 7, for: "to-hit" },
      { die: 6, face: 0, for: "to-hit" },
      { die: 6, face: 2.5, for: "to-hit" },
      { die: "6", face: 2, for: "to-hit" },
      null,
      "d6",
      { die: 8, face: 8, for: "scatter direction" },
    ];
    assert.deepEqual(faces(diceSoNiceData(rolls)), [[["d8", 8, "8"]]]);
    for (const bad of [undefined, null, "rolls", { rolls: [] }]) assert.deepEqual(diceSoNiceData(bad), { throws: [] });
  });

  it("caps a long volley: the first dice rolled are shown, in throws of limited size", () => {
    assert.deepEqual(DICE_SO_NICE_DEFAULTS, { maxDice: 60, maxDicePerThrow: 20 });
    const locations = Array.from({ length: 30 }, (_, i) => ({ die: 100, face: i + 1, for: "hit location" }));
    const data = diceSoNiceData(locations, { maxDice: 25, maxDicePerThrow: 10 });
    assert.deepEqual(data.throws.map((t) => t.dice.length), [20, 20, 10]); // a d100 is two dice
    assert.deepEqual(data.throws.flatMap((t) => t.dice.filter((d) => d.type === "d100").map((d) => d.d100Result)), Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it("gives every die the requester as its owner, for their dice appearance", () => {
    const data = diceSoNiceData([{ die: 100, face: 42, for: "attack" }, { die: 10, face: 10, for: "scatter metres" }], { owner: "playerIvan0000000" });
    assert.deepEqual(data.throws.flatMap((t) => t.dice.map((d) => d.options)), [
      { owner: "playerIvan0000000" },
      { owner: "playerIvan0000000" },
      { owner: "playerIvan0000000" },
    ]);
    assert.deepEqual(faces(data)[1], [["d10", 10, "10"]]);
  });

  it("survives a purpose that is not plain data", () => {
    const loop = {};
    loop.self = loop;
    assert.equal(diceSoNiceData([{ die: 6, face: 3, for: loop }]).throws.length, 1);
  });
});

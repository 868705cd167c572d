// adapterFor: the real game.system.id of each supported system (and known aliases) to its adapter; and
// how a weapon's state is split between the game system's fields and Volley's flags.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { SUPPORTED_GAME_SYSTEMS, adapterFor, stateForFlags, stateForRequest } from "../../vtt_module/scripts/adapters/index.js";
import { PROBLEM_TEXTS, integerOf, numberOf, quoted } from "../../vtt_module/scripts/adapters/reading.js";
import { fixture } from "./actors.mjs";

describe("adapterFor", () => {
  it("knows the three systems by their game.system.id and names the rules each feeds", () => {
    assert.deepEqual(SUPPORTED_GAME_SYSTEMS, ["gurps", "dark-heresy-2nd", "twodsix"]);
    assert.deepEqual(
      SUPPORTED_GAME_SYSTEMS.map((id) => {
        const adapter = adapterFor(id);
        return [adapter?.gameSystem, adapter?.ruleSystem];
      }),
      [
        ["gurps", "gurps"],
        ["dark-heresy-2nd", "d100"],
        ["twodsix", "megatraveller"],
      ],
    );
  });

  it("accepts the adapter's own name for Dark Heresy and ignores case and spaces", () => {
    assert.equal(adapterFor("dark-heresy-2e")?.gameSystem, "dark-heresy-2nd");
    assert.equal(adapterFor(" GURPS ")?.gameSystem, "gurps");
    assert.equal(adapterFor("TwodSix")?.gameSystem, "twodsix");
  });

  it("has nothing for other systems, so the Volley profile is used", () => {
    for (const id of ["dnd5e", "dark-heresy", "", "constructor", "__proto__", "toString"]) assert.equal(adapterFor(id), null, id);
    for (const bad of [undefined, null, 3, {}]) assert.equal(adapterFor(/** @type {any} */ (bad)), null);
  });

  it("hands the table's readings to the adapter", () => {
    const adapter = adapterFor("gurps", { chamberInCapacity: false });
    const mp5 = adapter?.readActor(fixture("gurps/soldier.json")).weapons[0];
    assert.equal(mp5?.stats.capacity, 30);
  });

  it("every fixture reads to weapons whose problems all have a text", () => {
    const cases = [
      ["gurps", "gurps/soldier.json"],
      ["dark-heresy-2nd", "dark-heresy-2nd/guardsman.json"],
      ["twodsix", "twodsix/mercenary.json"],
    ];
    for (const [id, path] of cases) {
      const reading = adapterFor(id)?.readActor(fixture(path));
      assert.ok(reading && reading.weapons.length >= 3, id);
      for (const problem of reading.problems) assert.ok(problem.key in PROBLEM_TEXTS, problem.key);
    }
  });
});

describe("a weapon's state, between the game system and Volley's flags", () => {
  const counted = { id: "w1", system: "d100", name: "Autogun", stats: { capacity: 30 }, state: { loaded: 24 } };
  const uncounted = { id: "w2", system: "gurps", name: "Remington 870", stats: { capacity: 8 }, state: {} };

  it("sends what the game system holds over what the flags remember", () => {
    assert.deepEqual(stateForRequest(counted, { loaded: 30, jammed: true, spoiled: 4 }), { loaded: 24, jammed: true, spoiled: 4 });
  });

  it("sends the flags' rounds where the system counts none, and a full magazine the first time", () => {
    assert.deepEqual(stateForRequest(uncounted, { loaded: 3, jammed: false }), { loaded: 3, jammed: false });
    assert.deepEqual(stateForRequest(uncounted, undefined), { loaded: 8 });
    assert.deepEqual(stateForRequest(uncounted, "garbage"), { loaded: 8 });
    assert.deepEqual(stateForRequest({ ...uncounted, stats: {} }, {}), {});
  });

  it("keeps in the flags only what the system has no field for", () => {
    assert.deepEqual(stateForFlags(counted, { loaded: 14, jammed: true, spoiled: 10 }), { jammed: true, spoiled: 10 });
    assert.deepEqual(stateForFlags(uncounted, { loaded: 5, jammed: true, malfunction: "stoppage" }), {
      loaded: 5,
      jammed: true,
      malfunction: "stoppage",
    });
  });
});

describe("reading numbers written by other people's code", () => {
  it("takes whole numbers from numbers and text, and nothing else", () => {
    const good = [[12, 12], ["12", 12], [" -2 ", -2], ["+1", 1], ["\u22123", -3], [0, 0]];
    for (const [value, number] of good) assert.equal(integerOf(value), number, String(value));
    for (const bad of [1.5, "1.5", "", " ", "12a", "0x10", "1e3", Number.NaN, Infinity, null, undefined, true, [], {}, "٣"]) {
      assert.equal(integerOf(bad), null, String(bad));
    }
    assert.equal(numberOf("2.5"), 2.5);
    assert.equal(numberOf("SBx3"), null);
  });

  it("quotes values briefly for problem messages", () => {
    assert.equal(quoted("3x?"), '"3x?"');
    assert.equal(quoted(undefined), "undefined");
    assert.equal(quoted("x".repeat(100)).length, 40);
    const loop = {};
    loop.self = loop;
    assert.equal(quoted(loop), "[object Object]");
  });
});

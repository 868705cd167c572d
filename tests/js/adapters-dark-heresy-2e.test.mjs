// Dark Heresy 2nd Edition actors into Volley's d100 weapons: a guardsman with a Reliable lasgun, a Good
// autogun, a Poor stub revolver and a frag grenade; every field that can go wrong; the clip written back.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { DARK_HERESY_DEFAULTS, darkHeresyAdapter } from "../../vtt_module/scripts/adapters/dark-heresy-2e.js";
import { assertRoundsChecked, fixtureActor, itemOf as item } from "./actors.mjs";

/** The guardsman, and copies of it with a change applied. */
const { actor: GUARDSMAN, copy: guardsman } = fixtureActor("dark-heresy-2nd/guardsman.json");

const adapter = darkHeresyAdapter();
const NOT_EQUIPPED = 'items.handCannon000001.system.equipped: "Hand Cannon" is not equipped; Dark Heresy fires equipped weapons only';

describe("Dark Heresy 2e: reading a guardsman", () => {
  it("offers the equipped ranged weapons in the book's notation, with BS and WP as the system totals them", () => {
    const { character, weapons, problems, refused } = adapter.readActor(guardsman());
    assert.deepEqual(character, { d100: { bs: 45, wp: 29 } });
    assert.deepEqual(problems, []);
    // Every other weapon is named once, with the reason: none vanishes in silence.
    assert.deepEqual(refused.map((p) => p.message), ['items.combatKnife00001: "Mono Knife" is a melee weapon; Volley fires ranged weapons only', NOT_EQUIPPED]);
    assert.deepEqual(weapons, [
      {
        id: "dh2e-lasgunVoss000001",
        legacyIds: ["dark-heresy-2nd:lasgunVoss000001"],
        system: "d100",
        name: "M36 Lasgun",
        stats: { class: "rifle", rof: "S/3/-", capacity: 60, reliability: ["Reliable"], range: 100, damage: "1d10+3", pen: 0, damage_type: "E" },
        state: { loaded: 60 },
        source: { kind: "adapter", adapter: "dark-heresy-2nd", ref: "lasgunVoss000001" },
      },
      {
        id: "dh2e-autogunVoss00001",
        legacyIds: ["dark-heresy-2nd:autogunVoss00001"],
        system: "d100",
        name: "Autogun",
        stats: { class: "rifle", rof: "S/3/10", capacity: 30, reliability: ["Reliable"], range: 90, damage: "1d10+3", pen: 0, damage_type: "I" },
        state: { loaded: 24 },
        source: { kind: "adapter", adapter: "dark-heresy-2nd", ref: "autogunVoss00001" },
      },
      {
        id: "dh2e-stubRevolver0001",
        legacyIds: ["dark-heresy-2nd:stubRevolver0001"],
        system: "d100",
        name: "Stub Revolver",
        stats: { class: "pistol", rof: "S/-/-", capacity: 6, reliability: ["Reliable", "Unreliable"], range: 30, damage: "1d10+3", pen: 0, damage_type: "I" },
        state: { loaded: 6 },
        source: { kind: "adapter", adapter: "dark-heresy-2nd", ref: "stubRevolver0001" },
      },
      {
        id: "dh2e-fragGrenade00001",
        legacyIds: ["dark-heresy-2nd:fragGrenade00001"],
        system: "d100",
        name: "Frag Grenade",
        stats: { class: "grenade", rof: "S/-/-", capacity: 1, reliability: [], damage: "2d10", pen: 0, damage_type: "X", blast: 3 },
        state: {},
        source: { kind: "adapter", adapter: "dark-heresy-2nd", ref: "fragGrenade00001" },
      },
    ]);
  });

  it("leaves the actor's data untouched", () => {
    const actor = guardsman();
    const [lasgun] = adapter.readActor(actor).weapons;
    adapter.writeState(actor, lasgun, { loaded: 50 });
    assert.deepEqual(actor, GUARDSMAN);
  });

  it("computes a characteristic as DH2e does when the data is not prepared", () => {
    const actor = guardsman((a) => {
      for (const c of Object.values(a.system.characteristics)) delete c.total;
    });
    assert.deepEqual(adapter.readActor(actor).character, { d100: { bs: 45, wp: 29 } });
  });

  it("takes the prepared total, which carries active effects", () => {
    const actor = guardsman((a) => (a.system.characteristics.ballisticSkill.total = 55));
    assert.equal(adapter.readActor(actor).character.d100.bs, 55);
  });

  it("reads qualities kept the older way, in system.special", () => {
    const actor = guardsman((a) => {
      const lasgun = item(a, "lasgunVoss000001");
      delete lasgun.flags["dark-heresy-2nd"];
      lasgun.system.special = { reliable: true, blast: 2, tearing: true, concussive: 1, unreliable: false };
    });
    const lasgun = adapter.readActor(actor).weapons[0];
    assert.deepEqual(lasgun.stats.reliability, ["Reliable"]);
    assert.equal(lasgun.stats.blast, 2);
    assert.equal(lasgun.stats.concussive, 1);
  });

  it("ignores a quality switched off", () => {
    const actor = guardsman((a) => (item(a, "lasgunVoss000001").flags["dark-heresy-2nd"].nested[0].system.enabled = false));
    assert.deepEqual(adapter.readActor(actor).weapons[0].stats.reliability, []);
  });

  it("a Never Jams quality never jams, whatever else the weapon has", () => {
    const actor = guardsman((a) => {
      const nested = item(a, "stubRevolver0001").flags["dark-heresy-2nd"].nested;
      nested.push({ ...structuredClone(nested[0]), _id: "nestNeverJams001", name: "Never Jams" });
    });
    const revolver = adapter.readActor(actor).weapons.find((w) => w.name === "Stub Revolver");
    assert.equal(revolver.stats.jam_at, 101);
  });

  it("Hot-Shot Charge Packs take the Reliable quality away, as DH2e does", () => {
    const actor = guardsman((a) => {
      item(a, "lasgunVoss000001").flags["dark-heresy-2nd"].nested.push({
        _id: "nestHotShot00001",
        name: "Hot-Shot Charge Packs",
        type: "ammunition",
        system: { description: "" },
      });
    });
    assert.deepEqual(adapter.readActor(actor).weapons[0].stats.reliability, []);
  });

  it("maps the weapon classes, and thrown weapons of other types stay thrown", () => {
    const cases = [
      ["Basic", "Launcher", "rifle"],
      ["Heavy", "Solid Projectile", "heavy"],
      ["Pistol", "Las", "pistol"],
      ["Thrown", "Low-Tech", "thrown"],
      ["Melee/ Thrown", "Low-Tech", "thrown"],
      ["Thrown", "Explosives", "grenade"],
    ];
    for (const [cls, type, expected] of cases) {
      const actor = guardsman((a) => Object.assign(item(a, "autogunVoss00001").system, { class: cls, type }));
      const autogun = adapter.readActor(actor).weapons.find((w) => w.name === "Autogun");
      assert.equal(autogun?.stats.class, expected, `${cls} / ${type}`);
    }
  });

  it("gives thrown weapons no range: the rules take it from the Strength bonus", () => {
    const actor = guardsman((a) => (item(a, "fragGrenade00001").system.range = "SBx3"));
    const grenade = adapter.readActor(actor).weapons.find((w) => w.name === "Frag Grenade");
    assert.equal(grenade.stats.range, undefined);
  });

  it("leaves damage to DH2e's own roll when it is not in the rules' notation", () => {
    for (const change of [{ damage: "1d10+SB" }, { damageType: "Holy" }, { penetration: "PR" }]) {
      const actor = guardsman((a) => Object.assign(item(a, "autogunVoss00001").system, change));
      const autogun = adapter.readActor(actor).weapons.find((w) => w.name === "Autogun");
      assert.deepEqual([autogun.stats.damage, autogun.stats.pen, autogun.stats.damage_type], [undefined, undefined, undefined], JSON.stringify(change));
    }
  });

  it("craftsmanship counts as the table says", () => {
    assert.deepEqual(DARK_HERESY_DEFAULTS.craftsmanship.best, ["Reliable", "Reliable"]);
    const lenient = darkHeresyAdapter({ craftsmanship: { poor: [], common: [], good: [], best: [2] } });
    const actor = guardsman((a) => (item(a, "lasgunVoss000001").system.craftsmanship = "Best"));
    const [lasgun, autogun, revolver] = lenient.readActor(actor).weapons;
    assert.deepEqual([lasgun.stats.reliability, autogun.stats.reliability, revolver.stats.reliability], [["Reliable", 2], [], ["Reliable"]]);
  });

  it("rates of fire from text fields as well as numbers", () => {
    const actor = guardsman((a) => (item(a, "autogunVoss00001").system.rateOfFire = { single: "1", burst: "0", full: "6" }));
    assert.equal(adapter.readActor(actor).weapons[1].stats.rof, "S/-/6");
  });
});

describe("Dark Heresy 2e: fields Volley cannot use are named, never guessed", () => {
  /** Problems (messages) and weapon names after `change`, leaving out the known unequipped Hand Cannon. */
  function problemsOf(change) {
    const reading = adapter.readActor(guardsman(change));
    return {
      problems: reading.problems.map((p) => p.message),
      weapons: reading.weapons.map((w) => w.name),
    };
  }
  const ALL = ["M36 Lasgun", "Autogun", "Stub Revolver", "Frag Grenade"];
  const without = (name) => ALL.filter((n) => n !== name);
  const at = (id, field) => (a) => {
    const system = item(a, id).system;
    const path = field.split(".");
    const last = path.pop();
    const parent = path.reduce((o, k) => o[k], system);
    return [parent, last];
  };
  const set = (id, field, value) => (a) => {
    const [parent, last] = at(id, field)(a);
    if (value === undefined) delete parent[last];
    else parent[last] = value;
  };

  const cases = [
    ["an unknown class", set("autogunVoss00001", "class", "Launcher"), 'items.autogunVoss00001.system.class: "Launcher" is not a ranged weapon class', "Autogun"],
    ["no rate of fire", set("autogunVoss00001", "rateOfFire", undefined), "items.autogunVoss00001.system.rateOfFire: the rate of fire is missing", "Autogun"],
    ["a burst that is not a number", set("autogunVoss00001", "rateOfFire.burst", "three"), 'items.autogunVoss00001.system.rateOfFire.burst: "three" is not a whole number', "Autogun"],
    ["a negative full auto", set("autogunVoss00001", "rateOfFire.full", -10), "items.autogunVoss00001.system.rateOfFire.full: -10 is out of range", "Autogun"],
    ["a quality level that is neither a number nor true", (a) => (item(a, "fragGrenade00001").flags["dark-heresy-2nd"].nested[0].system.level = false), "items.fragGrenade00001.flags.dark-heresy-2nd.nested[0].system.level: false is not a whole number", "Frag Grenade"],
    ["an empty clip size", set("lasgunVoss000001", "clip.max", 0), "items.lasgunVoss000001.system.clip.max: 0 is out of range", "M36 Lasgun"],
    ["no clip size", set("lasgunVoss000001", "clip.max", undefined), "items.lasgunVoss000001.system.clip.max: the clip's size is missing", "M36 Lasgun"],
    ["more rounds than the clip holds", set("autogunVoss00001", "clip.value", 31), "items.autogunVoss00001.system.clip.value: 31 rounds in the clip is more than it holds (30)", "Autogun"],
    ["rounds that are not a number", set("autogunVoss00001", "clip.value", "full"), 'items.autogunVoss00001.system.clip.value: "full" is not a whole number', "Autogun"],
    ["a range that is not metres", set("autogunVoss00001", "range", "long"), 'items.autogunVoss00001.system.range: "long" is not a range in metres', "Autogun"],
    ["a Blast level that is not a number", (a) => (item(a, "fragGrenade00001").flags["dark-heresy-2nd"].nested[0].system.level = "big"), 'items.fragGrenade00001.flags.dark-heresy-2nd.nested[0].system.level: "big" is not a whole number', "Frag Grenade"],
    ["an old-style quality level that is not a number", (a) => {
      const grenade = item(a, "fragGrenade00001");
      delete grenade.flags["dark-heresy-2nd"];
      grenade.system.special = { blast: "3m" };
    }, 'items.fragGrenade00001.system.special.blast: "3m" is not a whole number', "Frag Grenade"],
  ];
  const refusals = [
    ["no class (the compendium's missiles)", set("autogunVoss00001", "class", ""), 'items.autogunVoss00001.system.class: "Autogun" has no weapon class ("")', "Autogun"],
    ["an unequipped weapon", set("autogunVoss00001", "equipped", false), 'items.autogunVoss00001.system.equipped: "Autogun" is not equipped', "Autogun"],
  ];
  for (const [what, change, message, lost] of refusals) {
    it(`${what}: the weapon is refused once, with the reason`, () => {
      const reading = adapter.readActor(guardsman(change));
      assert.deepEqual(reading.problems, []);
      const refused = reading.refused.map((r) => r.message).filter((m) => !m.includes("Mono Knife") && m !== NOT_EQUIPPED);
      assert.equal(refused.length, 1, refused.join("\n"));
      assert.ok(refused[0].startsWith(message), refused[0]);
      assert.deepEqual(reading.weapons.map((w) => w.name), without(lost));
    });
  }

  for (const [what, rate] of [["nothing", { single: 0, burst: 0, full: 0 }], ["-1 (the compendium's Webber and Wailing Trident)", { single: -1, burst: -1, full: -1 }]]) {
    it(`a rate of fire of ${what}: single shots, DH2e's Standard Attack; refused when the table turns that reading off`, () => {
      const reading = adapter.readActor(guardsman(set("autogunVoss00001", "rateOfFire", rate)));
      assert.deepEqual(reading.problems, []);
      assert.equal(reading.weapons.find((w) => w.name === "Autogun")?.stats.rof, "S/-/-");
      const strict = darkHeresyAdapter({ standardAttack: false }).readActor(guardsman(set("autogunVoss00001", "rateOfFire", rate)));
      const refused = strict.refused.map((r) => r.message).filter((m) => !m.includes("Mono Knife") && m !== NOT_EQUIPPED);
      assert.deepEqual(refused, ['items.autogunVoss00001.system.rateOfFire: "Autogun" has no rate of fire: not a weapon Volley fires']);
    });
  }

  for (const [what, change, message, lost] of cases) {
    it(`${what}: the weapon is left out and the field named`, () => {
      const { problems, weapons } = problemsOf(change);
      assert.equal(problems.length, 1, problems.join("\n"));
      assert.ok(problems[0].startsWith(message), problems[0]);
      assert.deepEqual(weapons, without(lost));
    });
  }

  it("no clip at all: both of its fields are named", () => {
    const { problems, weapons } = problemsOf((a) => delete item(a, "lasgunVoss000001").system.clip);
    assert.deepEqual(problems, [
      "items.lasgunVoss000001.system.clip.max: the clip's size is missing",
      "items.lasgunVoss000001.system.clip.value: rounds in the clip is missing",
    ]);
    assert.deepEqual(weapons, without("M36 Lasgun"));
  });

  it("a missing characteristic is named, and the weapons are still offered", () => {
    const { problems, weapons } = problemsOf((a) => delete a.system.characteristics.willpower);
    assert.deepEqual(problems, ["system.characteristics.willpower: willpower is missing"]);
    assert.deepEqual(weapons, ALL);
    const reading = adapter.readActor(guardsman((a) => delete a.system.characteristics.willpower));
    assert.deepEqual(reading.character, { d100: { bs: 45 } });
  });

  it("an unprepared characteristic with a broken part names that part", () => {
    const { problems } = problemsOf((a) => {
      delete a.system.characteristics.ballisticSkill.total;
      a.system.characteristics.ballisticSkill.advance = "two";
    });
    assert.deepEqual(problems, ['system.characteristics.ballisticSkill.advance: "two" is not a whole number (part of ballisticSkill)']);
  });

  it("melee weapons and other items are not firearms: no problem, no weapon", () => {
    const reading = adapter.readActor(guardsman());
    assert.ok(!reading.weapons.some((w) => w.name === "Mono Knife" || w.name === "Guard Flak Armour"));
    assert.ok(!reading.problems.some((p) => p.field.includes("combatKnife") || p.field.includes("armourFlak")));
  });

  it("anything that is not an actor's data", () => {
    for (const bad of [null, "actor", [], {}, { system: 1 }]) {
      const reading = adapter.readActor(/** @type {any} */ (bad));
      assert.deepEqual([reading.weapons, reading.problems[0].field], [[], "system"]);
    }
  });

  it("an actor with no items has no weapons", () => {
    const reading = adapter.readActor(guardsman((a) => delete a.items));
    assert.deepEqual([reading.weapons, reading.problems], [[], []]);
  });
});

describe("Dark Heresy 2e: writing the clip back", () => {
  const actor = guardsman();
  const [lasgun, autogun, , grenade] = adapter.readActor(actor).weapons;

  it("writes rounds left to the weapon's clip, as DH2e's useAmmo does; jams stay in Volley's flags", () => {
    assert.deepEqual(adapter.writeState(actor, autogun, { loaded: 14, jammed: true, spoiled: 10, braced: false }), [
      { documentName: "Item", id: "autogunVoss00001", changes: { "system.clip.value": 14 } },
    ]);
    assert.deepEqual(adapter.writeState(actor, lasgun, { loaded: 0 }), [
      { documentName: "Item", id: "lasgunVoss000001", changes: { "system.clip.value": 0 } },
    ]);
  });

  it("writes nothing for a weapon that uses no ammunition in DH2e (its count stays in Volley's flags)", () => {
    assert.deepEqual(adapter.writeState(actor, grenade, { loaded: 0 }), []);
  });

  it("writes nothing for a weapon the actor no longer has, or one from Volley's own profile", () => {
    const gone = guardsman((a) => (a.items = a.items.filter((i) => i._id !== "autogunVoss00001")));
    assert.deepEqual(adapter.writeState(gone, autogun, { loaded: 3 }), []);
    assert.deepEqual(adapter.writeState(actor, { ...autogun, source: { kind: "volley" } }, { loaded: 3 }), []);
  });

  it("writes nothing when the state says nothing about rounds, and refuses a state that is not a number of rounds", () => {
    assertRoundsChecked(adapter, actor, autogun);
  });
});

describe("Dark Heresy 2e 1.8.1: the compendium's Spray, RoF -1/-1/-1, Hot-Shot packs and Storm, as the system fires them", () => {
  // Hand Flamer, Webber, Wailing Trident, Laspistol (Hot-Shot Charge Packs loaded), Storm Bolter, Lasgun:
  // the compendium's own entries (fixtures/dark-heresy-2nd/compendium-specials.json).
  const { actor: ACOLYTE, copy: acolyte } = fixtureActor("dark-heresy-2nd/compendium-specials.json");
  const reading = adapter.readActor(acolyte());
  const byName = new Map(reading.weapons.map((w) => [w.name, w]));

  it("refuses a Spray weapon, naming Spray: DH2e rolls no to-hit for it, and Volley would roll one", () => {
    assert.deepEqual(reading.problems, []);
    assert.deepEqual(reading.refused.map((r) => [r.name, r.key, r.field]), [["Hand Flamer", "refused.spray", "items.dhHandFlamer0001"]]);
    assert.match(reading.refused[0].message, /"Hand Flamer" has Spray: Dark Heresy rolls no to-hit for it/);
    assert.ok(!byName.has("Hand Flamer"));
    // Spray is the reason whether or not the flamer is equipped: equipping it would not make Volley fire it.
    const unequipped = adapter.readActor(acolyte((a) => (item(a, "dhHandFlamer0001").system.equipped = false)));
    assert.deepEqual(unequipped.refused.map((r) => r.key), ["refused.spray"]);
  });

  it("fires the Webber and the Wailing Trident (RoF -1/-1/-1) single, as DH2e's Standard Attack does", () => {
    assert.deepEqual(byName.get("Webber")?.stats, { class: "rifle", rof: "S/-/-", capacity: 1, reliability: [], range: 50, blast: 5 });
    assert.deepEqual(byName.get("Webber")?.state, { loaded: 1 });
    assert.deepEqual(byName.get("Wailing Trident")?.stats, { class: "thrown", rof: "S/-/-", capacity: 1, reliability: [], range: 6, damage: "1d10+8", pen: 4, damage_type: "R" });
    assert.deepEqual(byName.get("Wailing Trident")?.state, { loaded: 1 });
    assert.deepEqual(adapter.writeState(ACOLYTE, /** @type {any} */ (byName.get("Wailing Trident")), { loaded: 0 }), []);
  });

  it("Hot-Shot Charge Packs loaded: +1 damage and +4 penetration on every hit, single shots, no Reliable (rules/ammo.mjs)", () => {
    assert.deepEqual(byName.get("Laspistol")?.stats, { class: "pistol", rof: "S/-/-", capacity: 30, reliability: [], range: 30, damage: "1d10+3", pen: 4, damage_type: "E" });
    // The same pistol without them: the compendium's numbers.
    const plain = adapter.readActor(acolyte((a) => item(a, "dhLaspistol00001").flags["dark-heresy-2nd"].nested.pop()));
    assert.deepEqual(plain.weapons.find((w) => w.name === "Laspistol")?.stats, { class: "pistol", rof: "S/2/-", capacity: 30, reliability: ["Reliable"], range: 30, damage: "1d10+2", pen: 0, damage_type: "E" });
    assert.deepEqual(byName.get("Lasgun")?.stats.damage, "1d10+3");
    assert.deepEqual(Object.keys(DARK_HERESY_DEFAULTS.ammunition).sort(), ["amputator shells", "dumdum bullets", "expander rounds", "hot-shot charge packs", "man-stopper bullets", "tox rounds"]);
  });

  it("the ammunition's bonuses are a reading a table can change", () => {
    const none = darkHeresyAdapter({ ammunition: {} }).readActor(acolyte());
    assert.deepEqual(none.weapons.find((w) => w.name === "Laspistol")?.stats.damage, "1d10+2");
    assert.deepEqual(none.weapons.find((w) => w.name === "Laspistol")?.stats.rof, "S/2/-");
  });

  it("a Storm weapon fires at its listed rate (documented in docs/adapters.md: DH2e doubles its burst hits and rounds)", () => {
    assert.equal(byName.get("Storm Bolter")?.stats.rof, "S/2/4");
  });
});

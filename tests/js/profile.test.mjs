// The actor's Volley profile: read defensively, edited through each system's notation, each weapon
// with its own id and its own state; and an actor's arsenal when a game-system adapter reads it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  characterFromForm,
  MAX_WEAPONS,
  newWeapon,
  newWeaponId,
  readField,
  readProfile,
  storedProfile,
  weaponFromForm,
  withWeaponState,
} from "../../vtt_module/scripts/profile/profile.js";
import { actorArsenal, weaponStateWrites } from "../../vtt_module/scripts/profile/weapons.js";
import { systemPlugin } from "../../vtt_module/scripts/systems/index.js";

const gurps = systemPlugin("gurps");
const d100 = systemPlugin("d100");
const megatraveller = systemPlugin("megatraveller");

const MP5 = { id: "wMp5", system: "gurps", name: "MP5", skill: 14, stats: { rof: 13, rcl: 2, capacity: 30, malf: 17 }, state: { loaded: 30, jammed: false } };
const AUTOGUN = { id: "wAuto", system: "d100", name: "Autogun", stats: { class: "rifle", rof: "S/3/10", capacity: 30 }, state: { loaded: 30, spoiled: 0 } };
const flags = (profile) => ({ profile });

/** The editor's form for one weapon, as the template names its fields. */
function form(weapon, plugin, changes = {}) {
  const values = { name: weapon.name, skill: weapon.skill === undefined ? "" : String(weapon.skill) };
  for (const spec of plugin.profile.stats) values[`stats.${spec.key}`] = spec.kind === "flag" ? weapon.stats[spec.key] === true : String(weapon.stats[spec.key] ?? "");
  for (const spec of plugin.profile.state) values[`state.${spec.key}`] = spec.kind === "flag" ? weapon.state[spec.key] === true : String(weapon.state[spec.key] ?? "");
  return { ...values, ...changes };
}

describe("readProfile", () => {
  it("reads characters, weapons and the current weapon per system", () => {
    const profile = readProfile(flags({ character: { gurps: { armoury: 12 } }, weapons: [MP5, AUTOGUN], current: { gurps: "wMp5" } }));
    assert.deepEqual(profile.character, { gurps: { armoury: 12 } });
    assert.deepEqual(profile.weapons.map((w) => [w.id, w.system, w.skill]), [["wMp5", "gurps", 14], ["wAuto", "d100", undefined]]);
    assert.deepEqual(profile.current, { gurps: "wMp5" });
    assert.deepEqual(profile.problems, []);
  });

  it("drops what is broken, says so, and keeps the rest", () => {
    const profile = readProfile(
      flags({
        character: { gurps: "nope", d100: { bs: 40, __proto__: { evil: 1 } } },
        weapons: [MP5, { ...MP5 }, { id: "../x", system: "gurps" }, { id: "wOk", name: 7 }, null, { ...AUTOGUN, stats: "x" }],
        current: { gurps: 42, d100: "wAuto" },
      }),
    );
    assert.deepEqual(profile.weapons.map((w) => w.id), ["wMp5", "wAuto"]);
    assert.deepEqual(profile.weapons[1].stats, {});
    assert.deepEqual(profile.character, { d100: { bs: 40 } });
    assert.deepEqual(profile.current, { d100: "wAuto" });
    assert.equal(profile.problems.length, 4);
    assert.deepEqual(readProfile(undefined).weapons, []);
  });

  it("holds no more than MAX_WEAPONS weapons", () => {
    const many = Array.from({ length: MAX_WEAPONS + 5 }, (_, i) => ({ ...MP5, id: `w${i}` }));
    const profile = readProfile(flags({ weapons: many }));
    assert.equal(profile.weapons.length, MAX_WEAPONS);
    assert.match(profile.problems[0], /more than/);
  });

  it("stores what it reads unchanged", () => {
    const stored = storedProfile(readProfile(flags({ character: {}, weapons: [MP5], current: {} })));
    assert.deepEqual(readProfile(flags(stored)).weapons[0].stats, MP5.stats);
    assert.equal(stored.weapons[0].source, undefined, "where a profile weapon came from is not stored");
  });
});

describe("weaponFromForm: the book's notation, checked as typed", () => {
  it("reads a GURPS weapon: RoF 13 or 3x9 (and 3×9 as printed), Rcl, Malf", () => {
    const read = weaponFromForm(gurps, "wMp5", form(MP5, gurps));
    assert.deepEqual(read.problems, []);
    assert.deepEqual(read.weapon.stats, MP5.stats);
    assert.equal(read.weapon.skill, 14);
    assert.equal(weaponFromForm(gurps, "w2", form(MP5, gurps, { "stats.rof": "3×9" })).weapon.stats.rof, "3x9");
    assert.equal(weaponFromForm(gurps, "w2", form(MP5, gurps, { "stats.rof": " 3X9 " })).weapon.stats.rof, "3x9");
  });

  it("names the field and the rule for every slip, and collects them all", () => {
    const read = weaponFromForm(gurps, "w", form(MP5, gurps, { "stats.rof": "3y9", "stats.rcl": "0", "stats.malf": "x", name: "" }));
    assert.deepEqual(
      read.problems.map((p) => [p.field, p.problem.key]),
      [
        ["name", "VOLLEY.Form.Required"],
        ["stats.rof", "VOLLEY.Gurps.Notation.Rof"],
        ["stats.rcl", "VOLLEY.Form.AtLeast"],
        ["stats.malf", "VOLLEY.Form.WholeNumber"],
      ],
    );
    assert.deepEqual(read.problems[1].problem.values, { text: "3y9" });
  });

  it("checks across fields once each field is right: rounds loaded no more than the capacity", () => {
    const read = weaponFromForm(gurps, "w", form(MP5, gurps, { "state.loaded": "31" }));
    assert.deepEqual(read.problems, [{ field: "state.loaded", problem: { key: "VOLLEY.Form.AtMost", values: { max: 30 } } }]);
  });

  it("reads the d100 notation: RoF S/3/10, reliability as a number or the property's name", () => {
    const base = form(AUTOGUN, d100);
    assert.equal(weaponFromForm(d100, "w", { ...base, "stats.rof": "s/3/–" }).weapon.stats.rof, "S/3/-");
    assert.equal(weaponFromForm(d100, "w", { ...base, "stats.reliability": "very unreliable" }).weapon.stats.reliability, "Very Unreliable");
    assert.equal(weaponFromForm(d100, "w", { ...base, "stats.reliability": "-1" }).weapon.stats.reliability, -1);
    for (const bad of ["S/3", "X/3/10", "S/0/10", "S/3/101"]) {
      const problems = weaponFromForm(d100, "w", { ...base, "stats.rof": bad }).problems;
      assert.deepEqual(problems.map((p) => p.problem.key), ["VOLLEY.D100.Notation.Rof"], bad);
    }
    assert.deepEqual(
      weaponFromForm(d100, "w", { ...base, "stats.reliability": "sturdy" }).problems.map((p) => p.field),
      ["stats.reliability"],
    );
    assert.equal(weaponFromForm(d100, "w", base).weapon.skill, undefined, "d100 shoots with the character's BS");
  });

  it("reads MegaTraveller's kind, /R, burst size and fire modes", () => {
    const weapon = { name: "AR", skill: 2, stats: { kind: "rifle", rapid: false, burst: 4, auto: true, auto_targets: 2, capacity: 30 }, state: { loaded: 30, readiness: "ready", selector: "burst" } };
    const read = weaponFromForm(megatraveller, "w", form(weapon, megatraveller));
    assert.deepEqual(read.problems, []);
    assert.deepEqual(read.weapon.stats, weapon.stats);
    assert.deepEqual(read.weapon.state, weapon.state);
    const bad = weaponFromForm(megatraveller, "w", form(weapon, megatraveller, { "stats.kind": "cannon", "stats.burst": "5" }));
    // With no burst size read, the selector's "burst" is a setting the weapon does not have (#31).
    assert.deepEqual(bad.problems.map((p) => p.field), ["stats.kind", "stats.burst", "state.selector"]);
    const noSetting = weaponFromForm(megatraveller, "w", form(weapon, megatraveller, { "stats.auto": false, "state.selector": "auto" }));
    assert.deepEqual(noSetting.problems.map((p) => [p.field, p.problem.key]), [["state.selector", "VOLLEY.MegaTraveller.Form.NoSuchSetting"]]);
    const noBurst = weaponFromForm(megatraveller, "w", form(weapon, megatraveller, { "stats.burst": "" }));
    assert.equal("burst" in noBurst.weapon.stats, false, "an empty optional field is left out");
  });

  it("reads a character's numbers with the same care", () => {
    assert.deepEqual(characterFromForm(d100, { bs: "45", wp: "30" }).numbers, { bs: 45, wp: 30 });
    assert.deepEqual(characterFromForm(d100, { bs: "101", wp: "" }).problems.map((p) => [p.field, p.problem.key]), [
      ["bs", "VOLLEY.Form.AtMost"],
      ["wp", "VOLLEY.Form.Required"],
    ]);
    assert.deepEqual(readField({ key: "x", kind: "flag", label: "", default: false }, "on", "x"), { value: true });
  });
});

describe("weapon state", () => {
  it("a result writes to the weapon that fired and no other", () => {
    const weapons = readProfile(flags({ weapons: [MP5, { ...MP5, id: "wGlock", name: "Glock" }] })).weapons;
    const after = withWeaponState(weapons, "wMp5", { loaded: 27, jammed: true, malfunction: "stoppage" });
    assert.deepEqual(after[0].state, { loaded: 27, jammed: true, malfunction: "stoppage" });
    assert.deepEqual(after[1].state, MP5.state);
    assert.deepEqual(withWeaponState(after, "wMp5", { malfunction: null, jammed: false }).at(0).state, { loaded: 27, jammed: false });
  });

  it("new weapons take the notation's defaults and an id of their own", () => {
    const ids = new Set();
    for (let i = 0; i < 200; i += 1) ids.add(newWeaponId(ids));
    assert.equal(ids.size, 200);
    const weapon = newWeapon(gurps, [], "New weapon");
    assert.deepEqual(weapon.stats, { rof: 1, rcl: 2, capacity: 30, malf: 17 });
    assert.deepEqual(weapon.state, { loaded: 30, jammed: false });
    assert.equal(weapon.skill, 12);
    assert.match(weapon.id, /^w[0-9a-f]{8}$/);
  });
});

describe("actorArsenal and weaponStateWrites", () => {
  const actor = { _id: "act1", flags: { volley: flags({ character: { gurps: { armoury: 11 } }, weapons: [MP5, AUTOGUN], current: { gurps: "wMp5" } }) } };

  it("gives the profile's weapons of the world's system, and writes back into the list", () => {
    const arsenal = actorArsenal(actor, { system: "gurps" });
    assert.deepEqual(arsenal.weapons.map((w) => w.id), ["wMp5"]);
    assert.deepEqual(arsenal.character, { armoury: 11 });
    assert.equal(arsenal.current, "wMp5");
    const [write] = weaponStateWrites(actor, arsenal.weapons[0], { loaded: 20 });
    assert.equal(write.documentName, "Actor");
    const list = write.changes["flags.volley.profile.weapons"];
    assert.deepEqual(list.map((w) => [w.id, w.state.loaded]), [["wMp5", 20], ["wAuto", 30]]);
  });

  it("lays Volley's own state over an adapter's weapons, and writes each part where it belongs", () => {
    const item = { id: "gun", system: "gurps", name: "Item MP5", skill: 13, stats: { rof: 13, rcl: 2, capacity: 30, malf: 17 }, state: { loaded: 12 }, source: { kind: "adapter", adapter: "fake", ref: "item1" } };
    const adapter = {
      gameSystem: "fake",
      ruleSystem: "gurps",
      readActor: () => ({
        character: { gurps: { armoury: 14 } },
        weapons: [item],
        problems: [{ field: "system.dodge", message: "system.dodge: Dodge is missing", key: "field.missing", values: { what: "Dodge" } }],
      }),
      writeState: (_actor, weapon, state) => [{ documentName: "Item", id: weapon.source.ref, changes: { "system.ammo": state.loaded } }],
    };
    const withOverlay = { ...actor, flags: { volley: { ...actor.flags.volley, adapterState: { gun: { loaded: 99, jammed: true } } } } };
    const arsenal = actorArsenal(withOverlay, { system: "gurps", adapter });
    assert.deepEqual(arsenal.weapons.map((w) => w.id), ["gun", "wMp5"]);
    assert.deepEqual(arsenal.weapons[0].state, { jammed: true, loaded: 12 }, "the game system's rounds win; the jam is Volley's");
    assert.equal(arsenal.character.armoury, 14);
    assert.deepEqual(arsenal.problems, [
      { field: "system.dodge", message: "system.dodge: Dodge is missing", key: "field.missing", values: { what: "Dodge" } },
    ]);
    const writes = weaponStateWrites(withOverlay, arsenal.weapons[0], { loaded: 9, jammed: false }, adapter);
    assert.deepEqual(writes, [
      { documentName: "Item", id: "item1", changes: { "system.ammo": 9 } },
      // The game system counts the rounds, so only the jam is Volley's to keep.
      { documentName: "Actor", id: "act1", changes: { "flags.volley.adapterState.gun": { jammed: false } } },
    ]);
  });

  it("survives an adapter that throws, and one for another rule system", () => {
    const broken = { gameSystem: "x", ruleSystem: "gurps", readActor: () => { throw new Error("boom"); }, writeState: () => [] };
    const arsenal = actorArsenal(actor, { system: "gurps", adapter: broken });
    assert.deepEqual(arsenal.weapons.map((w) => w.id), ["wMp5"]);
    assert.match(arsenal.problems[0].message, /could not read this actor \(boom\)/);
    const other = { ...broken, ruleSystem: "d100" };
    assert.deepEqual(actorArsenal(actor, { system: "gurps", adapter: other }).problems, []);
  });
});

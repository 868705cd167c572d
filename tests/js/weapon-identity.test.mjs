// A weapon's identity (issue #31, items 5 and 6): every id and every key Volley keeps a magazine under
// is safe (no "." for Foundry's update to expand), one GURPS weapon has one magazine whatever rows its
// fire modes make, and the state saved under the old ids (a dotted one included, as Foundry expanded it)
// is read once and moves to the new key. Writes are applied as Foundry applies an update: the change's
// keys expanded at every "." (the sandbox stand-in's expandObject, which follows v13's), then merged.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { gurpsAdapter } from "../../vtt_module/scripts/adapters/gurps.js";
import { SAFE_ID, digest, findWeapon } from "../../vtt_module/scripts/adapters/identity.js";
import { adapterFor } from "../../vtt_module/scripts/adapters/index.js";
import { actorArsenal, weaponStateWrites } from "../../vtt_module/scripts/profile/weapons.js";
import { expandObject, mergeObject } from "../../vtt_module/sandbox/stand-in/utils.js";
import { fixture, fixtureActor } from "./actors.mjs";

const { copy: soldier } = fixtureActor("gurps/soldier.json");
const adapter = gurpsAdapter();

/** A GGA row like the soldier's Remington (no Uses kept: Volley counts its rounds in its flags). */
function row(a, key, fields) {
  a.system.ranged[key] = { ...structuredClone(a.system.ranged["00001"]), ...fields };
}

/** The soldier with Walther PPK in 7.65 mm (GCS writes it ".32 ACP") in place of the Remington. */
const walther = () =>
  soldier((a) => {
    row(a, "00001", { name: "Walther PPK, .32 ACP", originalName: "Walther PPK, .32 ACP", rof: "3", shots: "7+1(3)", rcl: "2" });
  });

/** The soldier's Remington as GCS lists a shotgun: a row for buckshot, a row for slugs. */
const shotgun = () =>
  soldier((a) => {
    row(a, "00001", { mode: "Buckshot", rof: "2x9", rcl: "1/5" });
    row(a, "00003", { mode: "Slug", rof: "2", rcl: "1/5" });
  });

/** Write a weapon's new state as the module does, and apply it as Foundry applies an Actor update. */
function fire(actor, weaponName, changes) {
  const weapon = actorArsenal(actor, { system: "gurps", adapter }).weapons.find((w) => w.name === weaponName);
  assert.ok(weapon, weaponName);
  for (const write of weaponStateWrites(actor, weapon, changes, adapter)) {
    if (write.documentName === "Actor") mergeObject(actor, expandObject(write.changes));
  }
}

/** What the dialog reads back for a weapon. */
const stateOf = (actor, weaponName) => actorArsenal(actor, { system: "gurps", adapter }).weapons.find((w) => w.name === weaponName)?.state;

describe("weapon ids are safe, and a name with a dot keeps its rounds", () => {
  it("fired down to 2 rounds, the Walther PPK, .32 ACP reads back 2 and jammed (item 5)", () => {
    const actor = walther();
    assert.equal(stateOf(actor, "Walther PPK, .32 ACP").loaded, 8, "a magazine nobody counted yet is full");
    fire(actor, "Walther PPK, .32 ACP", { loaded: 2, jammed: true });
    assert.deepEqual(stateOf(actor, "Walther PPK, .32 ACP"), { loaded: 2, jammed: true });
    const keys = Object.keys(actor.flags.volley.adapterState);
    assert.ok(keys.every((key) => SAFE_ID.test(key)), JSON.stringify(keys));
  });

  it("every weapon of every fixture actor has a safe id and a safe magazine key", () => {
    const actors = [
      ["gurps", fixture("gurps/soldier.json")],
      ["gurps", fixture("gurps/gcs-import.json")],
      ["gurps", walther()],
      ["gurps", shotgun()],
      ["twodsix", fixture("twodsix/mercenary.json")],
      ...fixture("twodsix/shipped-actors.json").actors.map((a) => ["twodsix", a]),
      ["dark-heresy-2nd", fixture("dark-heresy-2nd/guardsman.json")],
    ];
    let seen = 0;
    for (const [system, data] of actors) {
      for (const weapon of adapterFor(system).readActor(data).weapons) {
        seen += 1;
        assert.match(weapon.id, SAFE_ID, `${system}: ${weapon.name}`);
        if (weapon.magazine !== undefined) assert.match(weapon.magazine, SAFE_ID, `${system}: ${weapon.name}`);
      }
    }
    assert.ok(seen >= 10, `only ${seen} weapons read`);
  });

  it("the same name gives the same id in every session; a renamed attack keeps it", () => {
    const first = adapter.readActor(walther()).weapons.map((w) => w.id);
    const again = adapter.readActor(walther()).weapons.map((w) => w.id);
    assert.deepEqual(first, again);
    assert.equal(first[1], `gurps-${digest("Walther PPK, .32 ACP")}`);
    const renamed = walther();
    renamed.system.ranged["00001"].name = "Kessler's backup";
    assert.equal(adapter.readActor(renamed).weapons[1].id, first[1]);
  });
});

describe("one magazine per physical weapon (item 6)", () => {
  it("a shotgun's buckshot and slug rows are two choices of one gun with one magazine", () => {
    const actor = shotgun();
    const rows = adapter.readActor(actor).weapons.filter((w) => w.name.startsWith("Remington 870"));
    assert.deepEqual(
      rows.map((w) => w.name),
      ["Remington 870 (Buckshot)", "Remington 870 (Slug)"],
    );
    assert.notEqual(rows[0].id, rows[1].id, "the dialog offers both rows");
    assert.equal(rows[0].magazine, rows[1].magazine);
    fire(actor, "Remington 870 (Buckshot)", { loaded: 3 });
    assert.equal(stateOf(actor, "Remington 870 (Slug)").loaded, 3, "the slugs come out of the same tube");
    fire(actor, "Remington 870 (Slug)", { loaded: 2, jammed: true });
    assert.deepEqual(stateOf(actor, "Remington 870 (Buckshot)"), { loaded: 2, jammed: true }, "a jam jams the gun");
    fire(actor, "Remington 870 (Buckshot)", { jammed: false, malfunction: null });
    assert.deepEqual(stateOf(actor, "Remington 870 (Slug)"), { loaded: 2, jammed: false, malfunction: null });
  });

  it("two rows of the same name and mode are two guns, each with its own magazine", () => {
    const actor = soldier((a) => {
      a.system.ranged["00003"] = structuredClone(a.system.ranged["00001"]);
    });
    const both = adapter.readActor(actor).weapons.filter((w) => w.name === "Remington 870");
    assert.equal(both.length, 2);
    assert.notEqual(both[0].magazine, both[1].magazine);
  });
});

describe("state saved under the old ids moves to the new keys", () => {
  it("reads a jam kept under 'gurps:Remington 870' and writes the next state under the new key", () => {
    const actor = soldier((a) => {
      a.flags = { volley: { adapterState: { "gurps:Remington 870": { loaded: 4, jammed: true } } } };
    });
    assert.deepEqual(stateOf(actor, "Remington 870"), { loaded: 4, jammed: true });
    fire(actor, "Remington 870", { jammed: false });
    const id = `gurps-${digest("Remington 870")}`;
    assert.deepEqual(actor.flags.volley.adapterState[id], { loaded: 4, jammed: false });
    assert.deepEqual(stateOf(actor, "Remington 870"), { loaded: 4, jammed: false }, "the new key wins from now on");
  });

  it("follows a dotted old id down the objects Foundry's update made of it", () => {
    // What the old module's write of {"gurps:Walther PPK, .32 ACP": {...}} left in the actor's flags.
    const actor = walther();
    actor.flags = { volley: expandObject({ adapterState: { "gurps:Walther PPK, .32 ACP": { loaded: 2, jammed: false } } }) };
    assert.deepEqual(Object.keys(actor.flags.volley.adapterState), ["gurps:Walther PPK, "]);
    assert.deepEqual(stateOf(actor, "Walther PPK, .32 ACP"), { loaded: 2, jammed: false });
  });

  it("finds a weapon by an id a card or a hotbar macro kept from before", () => {
    const weapons = adapter.readActor(soldier()).weapons;
    assert.equal(findWeapon(weapons, "gurps:Glock 17")?.name, "Glock 17");
    assert.equal(findWeapon(weapons, `gurps-${digest("Glock 17")}`)?.name, "Glock 17");
    assert.equal(findWeapon(weapons, "gurps:Nothing"), undefined);
    const twodsix = adapterFor("twodsix").readActor(fixture("twodsix/mercenary.json")).weapons;
    assert.equal(findWeapon(twodsix, "twodsix:wpACR00000000001")?.id, "twodsix-wpACR00000000001");
  });
});

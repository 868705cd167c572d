// The adapters over actors shaped as the game systems really build them (each fixture's "_fixture" names
// the repository, tag and files its shape follows): every weapon is read, or refused once with a reason;
// none is dropped in silence. Then the version check, and rounds written where each system's sheet reads.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";

import { adapterForGame } from "../../vtt_module/scripts/adapters/index.js";
import { darkHeresyAdapter } from "../../vtt_module/scripts/adapters/dark-heresy-2e.js";
import { gurpsAdapter } from "../../vtt_module/scripts/adapters/gurps.js";
import { PROBLEM_TEXTS, versionNotice } from "../../vtt_module/scripts/adapters/reading.js";
import { twodsixAdapter } from "../../vtt_module/scripts/adapters/twodsix.js";
import { actorArsenal } from "../../vtt_module/scripts/profile/weapons.js";
import { fixture } from "./actors.mjs";

/** Every weapon item (or GGA ranged row) is read or refused: the counts add up, each refusal has a text. */
function accountFor(reading, total) {
  assert.deepEqual(reading.problems, [], reading.problems.map((p) => p.message).join("\n"));
  assert.equal(reading.weapons.length + reading.refused.length, total);
  for (const refusal of reading.refused) {
    assert.ok(refusal.key.startsWith("refused.") && refusal.key in PROBLEM_TEXTS, refusal.key);
    assert.ok(!refusal.message.includes("{"), refusal.message);
  }
}

describe("Twodsix 7.5.2: actors shaped as its pre-made ones", () => {
  const { actors } = fixture("twodsix/shipped-actors.json");
  const adapter = twodsixAdapter();

  it("reads the guns and refuses melee, thrown and natural attacks once each, with the reason", () => {
    const counts = { read: 0, melee: 0, thrown: 0, natural: 0 };
    for (const actor of actors) {
      const reading = adapter.readActor(actor);
      accountFor(reading, actor.items.filter((item) => item.type === "weapon").length);
      counts.read += reading.weapons.length;
      for (const refusal of reading.refused) counts[refusal.key.slice("refused.".length)] += 1;
    }
    assert.deepEqual(counts, { read: 6, melee: 4, thrown: 2, natural: 2 });
  });

  it("finds skills of type 'skills' (the type Twodsix names), and tells the kind from the name", () => {
    const byName = new Map(actors.flatMap((actor) => adapter.readActor(actor).weapons).map((w) => [w.name, w]));
    assert.deepEqual([...byName.keys()], ["Pistol", "Stunner", "Auto Pistol", "Combat Rifle", "Bow", "Laser Rifle"]);
    assert.deepEqual(
      [...byName.values()].map((w) => [w.stats.kind, w.skill, w.stats.capacity]),
      [["pistol", 1, 16], ["pistol", 1, 10], ["pistol", 1, 16], ["rifle", 2, 40], ["rifle", 1, 20], ["rifle", 2, 30]],
    );
    assert.deepEqual(byName.get("Pistol")?.stats.rapid, true);
    assert.deepEqual(byName.get("Combat Rifle")?.stats, { kind: "rifle", rapid: false, burst: 3, auto: true, auto_targets: 3, capacity: 40 });
    // No magazine items on the shipped actors: the rounds live in Volley's flags.
    assert.deepEqual(byName.get("Pistol")?.state, {});
  });

  it("weapons as the Cepheus item compendiums type them: grenades and explosives refused, a launcher and an untyped revolver read", () => {
    const actor = structuredClone(actors[1]); // the constable: Gun Combat 1
    const template = actor.items.find((item) => item._id === "wpAutoPistol0001");
    const weapon = (id, name, system) => ({ ...structuredClone(template), _id: id, name, system: { ...structuredClone(template.system), ...system } });
    actor.items = actor.items.filter((item) => item.type === "skills");
    actor.items.push(
      weapon("wpFragGrenade002", "Fragmentation Grenade", { weaponType: "ranged", range: "", rangeBand: "none", ammo: 0, rateOfFire: "" }),
      weapon("wpDynamite000001", "Dynamite", { weaponType: "ranged", range: "", rangeBand: "none", ammo: 1, rateOfFire: "" }),
      weapon("wpHEAP0000000001", "HEAP Grenade", { weaponType: "explosive", range: "", rangeBand: "none", ammo: 1, rateOfFire: "" }),
      weapon("wpRAMLauncher001", "RAM Grenade Launcher", { weaponType: "ranged", range: "100/250", rangeBand: "none", ammo: 6, rateOfFire: "1" }),
      weapon("wpRevolver00001", "Revolver", { weaponType: "", range: "", rangeBand: "none", ammo: 6, rateOfFire: "" }),
    );
    const reading = adapter.readActor(actor);
    accountFor(reading, 5);
    assert.deepEqual(reading.weapons.map((w) => [w.name, w.stats.kind]), [["RAM Grenade Launcher", "heavy"], ["Revolver", "pistol"]]);
    assert.deepEqual(reading.refused.map((r) => [r.name, r.key]), [
      ["Fragmentation Grenade", "refused.thrown"],
      ["Dynamite", "refused.thrown"],
      ["HEAP Grenade", "refused.thrown"],
    ]);
  });

  it("a skill item typed 'skill' (the old fixture's mistake) is not Twodsix's and is named, not read", () => {
    const actor = structuredClone(actors[0]);
    for (const item of actor.items) if (item.type === "skills") item.type = "skill";
    const reading = adapter.readActor(actor);
    assert.deepEqual(reading.weapons, []);
    assert.deepEqual(reading.problems.map((p) => p.key), ["twodsix.skill.unknown"]);
  });
});

describe("Dark Heresy 2e 1.8.1: the weapon compendium's classes and qualities", () => {
  const acolyte = fixture("dark-heresy-2nd/weapon-compendium.json");
  const adapter = darkHeresyAdapter();
  const reading = adapter.readActor(acolyte);
  const byName = new Map(reading.weapons.map((w) => [w.name, w]));

  it("reads every ranged weapon (the trident with RoF -1 throws single, as DH2e's Standard Attack) and refuses the melee one and the missile with no class", () => {
    accountFor(reading, acolyte.items.length);
    assert.equal(reading.weapons.length, 10);
    assert.deepEqual(
      reading.refused.map((r) => [r.name, r.key]),
      [["Frag Missile", "refused.no_class"], ["Chainsword", "refused.melee"]],
    );
    assert.deepEqual(byName.get("Wailing Trident")?.stats.rof, "S/-/-");
  });

  it("weapons with no clip and no ammunition (Hellrifle, a throwing knife) read with one round always loaded", () => {
    assert.deepEqual([byName.get("Hellrifle")?.stats.capacity, byName.get("Hellrifle")?.state], [1, { loaded: 1 }]);
    assert.deepEqual(byName.get("Throwing Knife")?.stats.class, "thrown");
    assert.deepEqual(adapter.writeState(acolyte, /** @type {any} */ (byName.get("Hellrifle")), { loaded: 0 }), []);
  });

  it("a quality level of true (Bolas' Snare) is the quality without a number; Blast keeps its number", () => {
    assert.ok(byName.has("Bolas"));
    assert.equal(byName.get("Frag Grenade")?.stats.blast, 3);
    assert.equal(byName.get("Frag Grenade")?.stats.class, "grenade");
  });

  it("Maximal spends three rounds a shot, as the system does: the clip is read in shots and written in rounds", () => {
    const plasma = /** @type {any} */ (byName.get("Plasma Gun"));
    assert.deepEqual([plasma.stats.capacity, plasma.state], [13, { loaded: 13 }]); // 40 rounds, 3 a shot
    assert.deepEqual(adapter.writeState(acolyte, plasma, { loaded: 12 }), [{ documentName: "Item", id: "dhPlasmaGun00001", changes: { "system.clip.value": 37 } }]);
    assert.deepEqual(adapter.writeState(acolyte, plasma, { loaded: 13 }), []);
    const emptied = structuredClone(acolyte);
    emptied.items.find((i) => i._id === "dhPlasmaGun00001").system.clip.value = 2;
    assert.deepEqual(adapter.writeState(emptied, plasma, { loaded: 13 }), [{ documentName: "Item", id: "dhPlasmaGun00001", changes: { "system.clip.value": 40 } }]);
  });

  it("Storm fires at its listed rate (Volley's difference, documented); Hot-Shot packs fire single shots without Reliable", () => {
    assert.equal(byName.get("Storm Bolter")?.stats.rof, "S/2/4");
    assert.deepEqual([byName.get("Hot-Shot Lasgun")?.stats.rof, byName.get("Hot-Shot Lasgun")?.stats.reliability], ["S/-/-", []]);
  });
});

describe("GURPS Game Aid 0.18.22: a character as GGA imports it from GCS", () => {
  const actor = fixture("gurps/gcs-import.json");

  it("reads the kinds of GCS library rows, and refuses a jet, a thrown row, a row with nothing to fire and a GGA 1.0 Item attack", () => {
    const reading = gurpsAdapter().readActor(actor);
    accountFor(reading, Object.keys(actor.system.ranged).length + 1);
    assert.deepEqual(
      reading.weapons.map((w) => [w.name, w.stats]),
      [
        ['Remington Model 870P, 12G 2.75"', { rof: "2x9", rcl: 1, capacity: 8, malf: 17 }],
        ["FN FAL, 7.62x51mm", { rof: 11, rcl: 3, capacity: 21, malf: 16 }],
        ["H&K MP5A4, 9x19mm", { rof: 13, rcl: 2, capacity: 31, malf: 17 }],
        ["Blaster Pistol", { rof: 3, rcl: 1, capacity: 5, malf: 16 }],
      ],
    );
    assert.deepEqual(reading.refused.map((r) => r.key), ["refused.jet", "refused.thrown", "refused.no_rof", "refused.item_attack"]);
  });

  it("a shotgun's '1/5' recoil is the slug's when the row fires single projectiles", () => {
    const slugs = structuredClone(actor);
    slugs.system.ranged["00000"].rof = "2";
    assert.equal(gurpsAdapter().readActor(slugs).weapons[0].stats.rcl, 5);
  });

  it("Malf in the equipment's notes (where GCS 5 puts it) is read; the attack's own notes win", () => {
    const own = structuredClone(actor);
    own.system.ranged["00001"].notes = "Malf 15";
    assert.equal(gurpsAdapter().readActor(own).weapons[1].stats.malf, 15);
    const none = structuredClone(actor);
    none.system.equipment.carried["00001"].notes = "";
    none.items[0].system.eqt.notes = "";
    assert.equal(gurpsAdapter().readActor(none).weapons[1].stats.malf, 17);
  });

  it("with 'Use Foundry Items' on, rounds are read from the Item and written to both the Item and the actor's entry", () => {
    for (const [useFoundryItems, loaded] of [[false, 18], [true, 15]]) {
      const adapter = gurpsAdapter({ useFoundryItems });
      const fal = adapter.readActor(actor).weapons[1];
      assert.deepEqual(fal.state, { loaded });
      assert.deepEqual(adapter.writeState(actor, fal, { loaded: 12 }), [
        { documentName: "Actor", id: "gcsImport0000001", changes: { "system.equipment.carried.00001.uses": 12 } },
        { documentName: "Item", id: "itFAL0000000001", changes: { "system.eqt.uses": 12 } },
      ]);
    }
  });

  it("adapterForGame reads GGA's setting, and a table without the setting reads the actor's entry", () => {
    const game = (value) => ({ system: { id: "gurps", version: "0.18.22" }, settings: { get: () => value } });
    assert.deepEqual(adapterForGame(game(true))?.readActor(actor).weapons[1].state, { loaded: 15 });
    assert.deepEqual(adapterForGame(game(false))?.readActor(actor).weapons[1].state, { loaded: 18 });
    const unregistered = { system: { id: "gurps", version: "0.18.22" }, settings: { get: () => { throw new Error("not registered"); } } };
    assert.deepEqual(adapterForGame(unregistered)?.readActor(actor).weapons[1].state, { loaded: 18 });
  });
});

describe("versions: each adapter says once when the installed system is outside what it reads, and still reads", () => {
  const cases = [
    ["gurps", "0.18.22", "1.0.0-alpha", "GURPS Game Aid"],
    ["dark-heresy-2nd", "1.8.1", "2.0.0", "Dark Heresy 2nd Edition"],
    ["twodsix", "7.5.2", "8.1.0", "Twodsix"],
  ];
  for (const [id, inside, outside, system] of cases) {
    it(`${id}: ${inside} is read quietly; ${outside} gets a notice, listed first in the dialog's problems`, () => {
      const settings = { get: () => false };
      assert.equal(adapterForGame({ system: { id, version: inside }, settings })?.notice, undefined);
      const adapter = adapterForGame({ system: { id, version: outside }, settings });
      assert.equal(adapter?.notice?.key, "version.outside");
      assert.equal(adapter?.notice?.values.system, system);
      assert.match(adapter?.notice?.message ?? "", new RegExp(`${system} ${outside.replace(/\./g, "\\.")} is outside`));
      const arsenal = actorArsenal({ _id: "a", system: {}, items: [], flags: {} }, { system: /** @type {any} */ (adapter).ruleSystem, adapter });
      assert.equal(arsenal.problems[0].key, "version.outside");
    });
  }

  it("older versions, and versions that cannot be read, are handled too", () => {
    const supported = { system: "X", min: "1.8.0", below: "2.0.0", tested: "1.8.1" };
    assert.equal(versionNotice(supported, "1.7.1")?.key, "version.outside");
    assert.equal(versionNotice(supported, "1.9.12"), null);
    assert.equal(versionNotice(supported, undefined), null);
    assert.equal(versionNotice(supported, "dev"), null);
  });

  it("refusals reach the dialog's list after the problems, marked as refusals", () => {
    const acolyte = fixture("dark-heresy-2nd/weapon-compendium.json");
    const arsenal = actorArsenal({ ...acolyte, flags: {} }, { system: "d100", adapter: darkHeresyAdapter() });
    assert.deepEqual(
      arsenal.problems.filter((p) => p.refused).map((p) => p.key),
      ["refused.no_class", "refused.melee"],
    );
  });
});

describe('the dialog\'s "Not offered here": each weapon refused with its true reason, in both languages', () => {
  const words = (lang) => JSON.parse(readFileSync(new URL(`../../vtt_module/lang/${lang}.json`, import.meta.url), "utf8")).VOLLEY.Adapter;
  const say = (lang, refusal) => refusal.key.split(".").reduce((node, part) => node?.[part], words(lang)).replace(/\{(\w+)\}/g, (_, name) => String(refusal.values[name]));

  it("a Spray flamer: the reason names Spray", () => {
    const acolyte = fixture("dark-heresy-2nd/compendium-specials.json");
    const arsenal = actorArsenal({ ...acolyte, flags: {} }, { system: "d100", adapter: darkHeresyAdapter() });
    const refused = arsenal.problems.filter((p) => p.refused);
    assert.deepEqual(refused.map((p) => [p.name, p.key]), [["Hand Flamer", "refused.spray"]]);
    assert.match(say("en", refused[0]), /^"Hand Flamer" has Spray: Dark Heresy rolls no to-hit for it/);
    assert.match(say("ru", refused[0]), /^"Hand Flamer" — оружие со свойством Spray: Dark Heresy не бросает для него попадание/);
    assert.deepEqual(arsenal.weapons.map((w) => w.name), ["Webber", "Wailing Trident", "Laspistol", "Storm Bolter", "Lasgun"]);
  });

  it("GURPS grenades and thrown weapons: thrown, not fired", () => {
    const { actors } = fixture("gurps/gcs-characters.json");
    const soldier = actors.find((a) => a._id === "gcsPulpSoldier01");
    const arsenal = actorArsenal({ ...soldier, flags: {} }, { system: "gurps", adapter: gurpsAdapter() });
    const refused = arsenal.problems.filter((p) => p.refused);
    assert.deepEqual(refused.map((p) => p.key), ["refused.grenade", "refused.grenade"]);
    assert.match(say("ru", refused[1]), /^"Molotov Cocktail" бросают, а не стреляют: Shots 1 и нет Rcl/);
  });

  it("Twodsix: a bite is no gun, and the reason says what would make it one", () => {
    const { actors } = fixture("twodsix/shipped-actors.json");
    const natural = actors.flatMap((actor) => twodsixAdapter().readActor(actor).refused).filter((r) => r.key === "refused.natural");
    assert.ok(natural.length > 0);
    for (const refusal of natural) {
      assert.match(say("en", refusal), /has no weapon type, range or magazine, and nothing in its data says it is a gun/);
      assert.match(say("ru", refusal), /нет типа оружия, дальности и магазина, и ничто в данных не говорит/);
    }
  });
});

describe("every adapter text is in the module's languages", () => {
  const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const lang of ["en", "ru"]) {
    it(`${lang}: each key under VOLLEY.Adapter, with the same placeholders (English word for word)`, () => {
      const words = JSON.parse(readFileSync(new URL(`../../vtt_module/lang/${lang}.json`, import.meta.url), "utf8")).VOLLEY.Adapter;
      for (const [key, english] of Object.entries(PROBLEM_TEXTS)) {
        const text = key.split(".").reduce((node, part) => node?.[part], words);
        assert.equal(typeof text, "string", `${lang}: VOLLEY.Adapter.${key}`);
        assert.deepEqual(placeholders(text), placeholders(english), key);
        if (lang === "en") assert.equal(text, english, key);
      }
    });
  }
});

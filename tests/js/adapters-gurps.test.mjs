// GURPS Game Aid actors into Volley's GURPS weapons: a GCS-imported soldier with an MP5, a Remington 870
// (one row, "2x9" with Rcl "1/5", as GCS has it) and a Glock whose Malf is in its equipment's notes, every
// field that can go wrong, and rounds written back to Uses.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { GURPS_DEFAULTS, gurpsAdapter } from "../../vtt_module/scripts/adapters/gurps.js";
import { assertRoundsChecked, fixture, fixtureActor } from "./actors.mjs";

/** The soldier, and copies of it with a change applied. */
const { actor: SOLDIER, copy: soldier } = fixtureActor("gurps/soldier.json");

const adapter = gurpsAdapter();
const names = (reading) => reading.weapons.map((w) => w.name);

describe("GURPS Game Aid: reading a soldier", () => {
  it("offers every ranged attack with GGA's own effective skill, in the rules' notation", () => {
    const { character, weapons, problems } = adapter.readActor(soldier());
    assert.deepEqual(problems, []);
    assert.deepEqual(character, { gurps: { armoury: 11 } });
    assert.deepEqual(weapons, [
      {
        id: "gurps-27zjpe86n0l",
        magazine: "gurps-27zjpe86n0l",
        legacyIds: ["gurps:HK MP5"],
        system: "gurps",
        name: "HK MP5",
        stats: { rof: 13, rcl: 2, capacity: 31, malf: 17 },
        state: { loaded: 27 },
        skill: 14,
        source: { kind: "adapter", adapter: "gurps", ref: "system.ranged.00000" },
      },
      {
        id: "gurps-1njilk92vzy",
        magazine: "gurps-1njilk92vzy",
        legacyIds: ["gurps:Remington 870"],
        system: "gurps",
        name: "Remington 870",
        stats: { rof: "2x9", rcl: 1, capacity: 8, malf: 17 },
        state: {},
        skill: 12,
        source: { kind: "adapter", adapter: "gurps", ref: "system.ranged.00001" },
      },
      {
        id: "gurps-0jmg5xpqlv8",
        magazine: "gurps-0jmg5xpqlv8",
        legacyIds: ["gurps:Glock 17"],
        system: "gurps",
        name: "Glock 17",
        stats: { rof: 3, rcl: 2, capacity: 18, malf: 16 },
        state: { loaded: 17 },
        skill: 13,
        source: { kind: "adapter", adapter: "gurps", ref: "system.ranged.00002" },
      },
    ]);
  });

  it("leaves the actor's data untouched", () => {
    const actor = soldier();
    adapter.readActor(actor);
    adapter.writeState(actor, adapter.readActor(actor).weapons[0], { loaded: 3 });
    assert.deepEqual(actor, SOLDIER);
  });

  it("counts the chambered round only when the table says so", () => {
    const magazineOnly = gurpsAdapter({ chamberInCapacity: false }).readActor(soldier());
    assert.equal(GURPS_DEFAULTS.chamberInCapacity, true);
    assert.deepEqual(
      magazineOnly.weapons.map((w) => [w.name, w.stats.capacity, w.state.loaded]),
      [
        ["HK MP5", 30, 27],
        ["Remington 870", 7, undefined],
        ["Glock 17", 17, 17],
      ],
    );
  });

  it("takes the default Malf from the options when the notes give none", () => {
    const reading = gurpsAdapter({ malf: 15 }).readActor(soldier());
    assert.deepEqual(reading.weapons.map((w) => w.stats.malf), [15, 15, 16]);
  });

  it("reads Malf from the equipment's notes, where GCS 5 writes it; the attack's own notes win", () => {
    assert.equal(adapter.readActor(soldier()).weapons[2].stats.malf, 16);
    const own = soldier((a) => (a.system.ranged["00002"].notes = "Issue sidearm; Malf. 14 with the cheap reloads."));
    assert.equal(adapter.readActor(own).weapons[2].stats.malf, 14);
    const none = soldier((a) => (a.system.equipment.carried["00002"].notes = "Issue sidearm."));
    assert.equal(adapter.readActor(none).weapons[2].stats.malf, 17);
    const broken = adapter.readActor(soldier((a) => (a.system.equipment.carried["00002"].notes = "Malf 16+.")));
    assert.deepEqual(broken.problems.map((p) => p.field), ["system.equipment.carried.00002.notes"]);
  });

  it("reads a shotgun's recoil as GGA's next version does: the pellets' with pellets, the slug's otherwise", () => {
    const slug = soldier((a) => (a.system.ranged["00001"].rof = "2"));
    assert.equal(adapter.readActor(slug).weapons[1].stats.rcl, 5);
    assert.equal(adapter.readActor(soldier()).weapons[1].stats.rcl, 1);
  });

  it("reads the spellings GCS and GCA write", () => {
    const cases = [
      [{ rof: "3×9" }, { rof: "3x9" }],
      [{ rof: "2*5" }, { rof: "2x5" }],
      [{ rof: "20!" }, { rof: 20 }],
      [{ rof: "9#" }, { rof: 9 }],
      [{ rof: "9/13!" }, { rof: 13 }],
      [{ rof: "2x9/3x9" }, { rof: "3x9" }],
      [{ rof: "1", rcl: "1/4" }, { rcl: 4 }],
      [{ rof: "3x9", rcl: "1/4" }, { rcl: 1 }],
      [{ shots: "5x2s" }, { capacity: 5 }],
      [{ shots: "25+1x3s" }, { capacity: 26 }],
      [{ rof: 13 }, { rof: 13 }],
      [{ rof: " 1 ", rcl: "–" }, { rof: 1, rcl: 1 }],
      [{ rof: "1", rcl: "" }, { rof: 1, rcl: 1 }],
      [{ shots: "8(3i)" }, { capacity: 8 }],
      [{ shots: "200B(5)" }, { capacity: 200 }],
      [{ shots: "30" }, { capacity: 30 }],
      [{ shots: 30 }, { capacity: 30 }],
      [{ rcl: 3 }, { rcl: 3 }],
      [{ notes: "Malf: 14 when fouled" }, { malf: 14 }],
    ];
    for (const [fields, expected] of cases) {
      const actor = soldier((a) => {
        Object.assign(a.system.ranged["00001"], fields);
        a.system.equipment.carried["00001"].maxuses = 0;
      });
      const weapon = adapter.readActor(actor).weapons.find((w) => w.source.ref === "system.ranged.00001");
      assert.ok(weapon, JSON.stringify(fields));
      for (const [key, value] of Object.entries(expected)) assert.equal(weapon.stats[key], value, JSON.stringify(fields));
    }
  });

  it("takes the level as text as well as a number", () => {
    const { weapons } = adapter.readActor(soldier((a) => (a.system.ranged["00000"].level = "15")));
    assert.equal(weapons[0].skill, 15);
  });

  it("finds attacks nested under contains, and keeps ids unique when names repeat", () => {
    const actor = soldier((a) => {
      a.system.ranged["00000"].contains = { "00000": structuredClone(a.system.ranged["00002"]) };
    });
    const { weapons, problems } = adapter.readActor(actor);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      weapons.map((w) => [w.id, w.source.ref]),
      [
        ["gurps-27zjpe86n0l", "system.ranged.00000"],
        ["gurps-0jmg5xpqlv8", "system.ranged.00000.contains.00000"],
        ["gurps-1njilk92vzy", "system.ranged.00001"],
        // The second Glock is a second pistol: a magazine of its own (and the old "#2" id for its flags).
        ["gurps-0jmg5xpqlv8-2", "system.ranged.00002"],
      ],
    );
  });

  it("finds the rounds in equipment kept in a container or not carried", () => {
    const inBag = soldier((a) => {
      const mp5 = a.system.equipment.carried["00000"];
      delete a.system.equipment.carried["00000"];
      a.system.equipment.carried["00003"].contains = { "00000": mp5 };
    });
    assert.deepEqual(adapter.readActor(inBag).weapons[0].state, { loaded: 27 });
    assert.deepEqual(adapter.writeState(inBag, adapter.readActor(inBag).weapons[0], { loaded: 20 }), [
      { documentName: "Actor", id: "soldierKessler01", changes: { "system.equipment.carried.00003.contains.00000.uses": 20 } },
    ]);
    const stowed = soldier((a) => {
      a.system.equipment.other["00001"] = a.system.equipment.carried["00000"];
      delete a.system.equipment.carried["00000"];
    });
    assert.deepEqual(adapter.readActor(stowed).weapons[0].state, { loaded: 27 });
  });

  it("matches equipment by its imported name when the attack was renamed", () => {
    const actor = soldier((a) => (a.system.ranged["00000"].name = "Kessler's MP5"));
    const { weapons } = adapter.readActor(actor);
    assert.equal(weapons[0].name, "Kessler's MP5");
    assert.equal(weapons[0].id, "gurps-27zjpe86n0l", "the id, under which Volley keeps its jam state, survives the rename");
    assert.deepEqual(weapons[0].state, { loaded: 27 });
  });

  it("has no Armoury to offer when the character lacks the skill", () => {
    const actor = soldier((a) => delete a.system.skills["00000"]);
    assert.deepEqual(adapter.readActor(actor).character, { gurps: {} });
  });

  it("prefers Armoury (Small Arms) over another specialty", () => {
    const actor = soldier((a) => {
      a.system.skills["00009"] = { ...a.system.skills["00000"], name: "Armory (Heavy Weapons)", level: 9 };
      a.system.skills["00000"].level = 12;
    });
    assert.deepEqual(adapter.readActor(actor).character, { gurps: { armoury: 12 } });
  });
});

describe("GURPS Game Aid: fields Volley cannot use are named, never guessed", () => {
  /** Read the soldier changed by `change`; return the problems and the names of the weapons offered. */
  function problemsOf(change) {
    const reading = adapter.readActor(soldier(change));
    return { problems: reading.problems.map((p) => p.message), weapons: names(reading) };
  }
  const ALL = ["HK MP5", "Remington 870", "Glock 17"];
  const without = (name) => ALL.filter((n) => n !== name);

  const cases = [
    ["a RoF with a stray character", (a) => (a.system.ranged["00001"].rof = "3x?"), 'system.ranged.00001.rof: "3x?" is not a rate of fire', "Remington 870"],
    ["a RoF of 0", (a) => (a.system.ranged["00000"].rof = "0"), 'system.ranged.00000.rof: "0" is not a rate of fire', "HK MP5"],
    ["a shotgun with 0 pellets", (a) => (a.system.ranged["00001"].rof = "3x0"), 'system.ranged.00001.rof: "3x0" is not a rate of fire', "Remington 870"],
    ["no RoF", (a) => delete a.system.ranged["00002"].rof, "system.ranged.00002.rof: undefined is not a rate of fire", "Glock 17"],
    ["a Rcl that is not a number", (a) => (a.system.ranged["00000"].rcl = "2/x"), 'system.ranged.00000.rcl: "2/x" is not a recoil', "HK MP5"],
    ["a Rcl of 0", (a) => (a.system.ranged["00000"].rcl = "0"), 'system.ranged.00000.rcl: "0" is not a recoil', "HK MP5"],
    ["no Rcl on a burst weapon", (a) => (a.system.ranged["00000"].rcl = "-"), 'system.ranged.00000.rcl: "-" is not a recoil', "HK MP5"],
    ["no Shots", (a) => (a.system.ranged["00002"].shots = ""), 'system.ranged.00002.shots: "" is not a magazine', "Glock 17"],
    ["a very reliable Malf", (a) => (a.system.ranged["00002"].notes = "Malf. 17+"), 'system.ranged.00002.notes: "Malf. 17+" is not a malfunction number', "Glock 17"],
    ["a Malf out of range", (a) => (a.system.ranged["00002"].notes = "Malf 2"), 'system.ranged.00002.notes: "Malf 2" is not a malfunction number', "Glock 17"],
    ["a level that is not a number", (a) => (a.system.ranged["00000"].level = "12a"), 'system.ranged.00000.level: "12a" is not a whole number', "HK MP5"],
    ["no level", (a) => delete a.system.ranged["00000"].level, "system.ranged.00000.level: the effective skill GGA computed is missing", "HK MP5"],
    ["a fractional level", (a) => (a.system.ranged["00000"].level = 12.5), "system.ranged.00000.level: 12.5 is not a whole number", "HK MP5"],
    ["no name", (a) => (a.system.ranged["00002"].name = " "), "system.ranged.00002.name: the attack's name is missing", "Glock 17"],
    ["Max Uses that fit neither magazine", (a) => (a.system.equipment.carried["00000"].maxuses = 12), "system.equipment.carried.00000.maxuses: Max Uses 12 is neither the magazine (30) nor the magazine with the chambered round (31)", "HK MP5"],
    ["more rounds than the weapon holds", (a) => (a.system.equipment.carried["00000"].uses = 40), "system.equipment.carried.00000.uses: 40 rounds loaded is more than", "HK MP5"],
    ["Uses that are not a number", (a) => (a.system.equipment.carried["00000"].uses = "lots"), 'system.equipment.carried.00000.uses: "lots" is not a whole number', "HK MP5"],
    ["negative Uses", (a) => (a.system.equipment.carried["00000"].uses = -1), "system.equipment.carried.00000.uses: -1 is out of range", "HK MP5"],
  ];
  for (const [what, change, message, lost] of cases) {
    it(`${what}: the weapon is left out and the field named`, () => {
      const { problems, weapons } = problemsOf(change);
      assert.equal(problems.length, 1, problems.join("\n"));
      assert.ok(problems[0].startsWith(message), problems[0]);
      assert.deepEqual(weapons, without(lost));
    });
  }

  it("two pieces of equipment counting the same weapon's rounds", () => {
    const { problems, weapons } = problemsOf((a) => {
      a.system.equipment.other["00001"] = structuredClone(a.system.equipment.carried["00000"]);
    });
    assert.deepEqual(problems, ['system.ranged.00000.name: 2 pieces of equipment named "HK MP5" track uses; Volley cannot tell which holds the rounds']);
    assert.deepEqual(weapons, without("HK MP5"));
  });

  it("each problem carries a message key and its values for the dialog's language", () => {
    const { problems } = adapter.readActor(soldier((a) => (a.system.ranged["00001"].rof = "3x?")));
    assert.deepEqual(problems[0], {
      field: "system.ranged.00001.rof",
      key: "gurps.rof.invalid",
      values: { value: '"3x?"' },
      message: 'system.ranged.00001.rof: "3x?" is not a rate of fire (a number such as 13, or shots x pellets such as "3x9")',
    });
  });

  it("an unreadable Armoury level is named but costs no weapon", () => {
    const { problems, weapons } = problemsOf((a) => (a.system.skills["00000"].level = "?"));
    assert.deepEqual(problems, ['system.skills.00000.level: "?" is not a whole number (the Armoury skill level)']);
    assert.deepEqual(weapons, ALL);
  });

  it("several broken attacks are all reported at once", () => {
    const { problems, weapons } = problemsOf((a) => {
      a.system.ranged["00000"].rof = "x";
      a.system.ranged["00000"].shots = "lots";
      a.system.ranged["00002"].level = null;
    });
    assert.deepEqual(
      problems.map((p) => p.split(":")[0]),
      ["system.ranged.00000.rof", "system.ranged.00000.shots", "system.ranged.00002.level"],
    );
    assert.deepEqual(weapons, ["Remington 870"]);
  });

  it("a list of ranged attacks that is not a list", () => {
    const { problems, weapons } = problemsOf((a) => (a.system.ranged = "MP5"));
    assert.deepEqual(problems, ["system.ranged: the list of ranged attacks is missing"]);
    assert.deepEqual(weapons, []);
  });

  it("a character with no ranged attacks has no weapons and no problem", () => {
    const { problems, weapons } = problemsOf((a) => delete a.system.ranged);
    assert.deepEqual([problems, weapons], [[], []]);
  });

  it("anything that is not an actor's data", () => {
    for (const bad of [null, undefined, "actor", 3, [], {}, { system: null }]) {
      const reading = adapter.readActor(/** @type {any} */ (bad));
      assert.deepEqual(reading.weapons, []);
      assert.equal(reading.problems[0].field, "system");
    }
  });
});

describe("GURPS Game Aid: writing rounds back", () => {
  const actor = soldier();
  const [mp5, shotgun, glock] = adapter.readActor(actor).weapons;

  it("writes rounds left to the equipment's Uses, as /uses does", () => {
    assert.deepEqual(adapter.writeState(actor, mp5, { loaded: 17, jammed: true, malfunction: "stoppage" }), [
      { documentName: "Actor", id: "soldierKessler01", changes: { "system.equipment.carried.00000.uses": 17 } },
    ]);
    assert.deepEqual(adapter.writeState(actor, glock, { loaded: 0 }), [
      { documentName: "Actor", id: "soldierKessler01", changes: { "system.equipment.carried.00002.uses": 0 } },
    ]);
  });

  it("writes nothing where GGA counts no rounds: Volley's flags keep them", () => {
    assert.deepEqual(adapter.writeState(actor, shotgun, { loaded: 5 }), []);
  });

  it("writes nothing for a weapon the actor no longer has", () => {
    const gone = soldier((a) => delete a.system.ranged["00000"]);
    assert.deepEqual(adapter.writeState(gone, mp5, { loaded: 3 }), []);
  });

  it("follows the attack when GGA renumbers its list", () => {
    const renumbered = soldier((a) => {
      a.system.ranged = { "00000": a.system.ranged["00002"], "00001": a.system.ranged["00000"] };
      a.system.equipment.carried = { "00005": a.system.equipment.carried["00000"] };
    });
    assert.deepEqual(adapter.writeState(renumbered, mp5, { loaded: 9 }), [
      { documentName: "Actor", id: "soldierKessler01", changes: { "system.equipment.carried.00005.uses": 9 } },
    ]);
  });

  it("writes nothing when the state says nothing about rounds, and refuses a state that is not a number of rounds", () => {
    assertRoundsChecked(adapter, actor, mp5);
  });

  it("refuses an actor without an id", () => {
    const anonymous = soldier((a) => delete a._id);
    assert.throws(() => adapter.writeState(anonymous, mp5, { loaded: 3 }), { name: "TypeError", message: /^actor\._id/ });
  });
});

describe("GURPS Game Aid 0.18.22: real GCS characters and library rows, as GGA imports them", () => {
  // Rows of the GCS master library's characters and equipment libraries, imported as GGA 0.18.22 does
  // (fixtures/gurps/gcs-characters.json says which files).
  const { actors } = fixture("gurps/gcs-characters.json");
  const byId = new Map(actors.map((actor) => [actor._id, actor]));
  const read = (id, options = {}) => gurpsAdapter(options).readActor(/** @type {any} */ (byId.get(id)));
  const rows = (reading) => reading.weapons.map((w) => [w.name, w.stats, w.state, w.skill]);

  it("an innate attack and a dragon's breath (RoF 1, Shots empty) fire: no magazine, always ready, no Malf", () => {
    const dragon = read("gcsFireDragon001");
    assert.deepEqual(dragon.problems, []);
    assert.deepEqual(rows(dragon), [["Innate Attack (Burn)", { rof: 1, rcl: 1, capacity: 1, malf: 19 }, { loaded: 1 }, 16]]);
    const elder = read("gcsEsDragon00001");
    assert.deepEqual(elder.problems, []);
    assert.deepEqual(elder.weapons.map((w) => w.name), ["Fire Breath", "Ice Breath", "Unrelenting Force"]);
    assert.ok(elder.weapons.every((w) => w.stats.malf === 19 && w.stats.capacity === 1 && w.state.loaded === 1));
    // Nothing of GGA's is written: the attack has no Uses to count.
    const breath = elder.weapons[0];
    assert.deepEqual(gurpsAdapter().writeState(/** @type {any} */ (byId.get("gcsEsDragon00001")), breath, { loaded: 0 }), []);
  });

  it("an innate attack with Rapid Fire holds its RoF; a row with empty Shots that equipment is named like is still a field to fix", () => {
    const fast = structuredClone(byId.get("gcsFireDragon001"));
    fast.system.ranged["00000"].rof = "3";
    assert.deepEqual(gurpsAdapter().readActor(fast).weapons[0].stats, { rof: 3, rcl: 1, capacity: 3, malf: 19 });
    const carried = structuredClone(byId.get("gcsFireDragon001"));
    carried.system.equipment.carried["00000"] = { name: "Innate Attack (Burn)", notes: "", uses: 0, maxuses: 0, contains: {} };
    assert.deepEqual(gurpsAdapter().readActor(carried).problems.map((p) => p.key), ["gurps.shots.invalid"]);
    // A hill giant's "Natural Attacks (Boulder (40 lbs.))" (no Shots, no Rcl, a Throwing default in GCS) is thrown.
    const giant = structuredClone(byId.get("gcsFireDragon001"));
    Object.assign(giant.system.ranged["00000"], { name: "Natural Attacks", mode: "Boulder (40 lbs.)", rcl: "", range: "36" });
    assert.deepEqual(gurpsAdapter().readActor(giant).refused.map((r) => [r.name, r.key]), [["Natural Attacks (Boulder (40 lbs.))", "refused.thrown"]]);
  });

  it("bows, crossbows and slings (no Rcl) do not malfunction: GURPS's Malf is the firearms' rule (B407)", () => {
    assert.deepEqual(rows(read("gcsScoutBarbar01")), [["Longbow (Shoot)", { rof: 1, rcl: 1, capacity: 1, malf: 19 }, {}, 18]]);
    const jarl = read("gcsJarlValthjo01");
    assert.deepEqual(rows(jarl), [["Sling (Shoot)", { rof: 1, rcl: 1, capacity: 1, malf: 19 }, {}, 10]]);
    assert.deepEqual(jarl.refused.map((r) => [r.name, r.key]), [["Javelin (Thrown)", "refused.thrown"], ["Large Knife (Thrown)", "refused.thrown"], ["Dagger (Thrown)", "refused.thrown"]]);
    // A library row says it by its range, a multiple of ST; a character's row, whose range GGA shows in yards, by its name.
    const soldier = read("gcsPulpSoldier01");
    assert.deepEqual(soldier.weapons.filter((w) => w.stats.malf === 19).map((w) => w.name), ["Crossbow (Fire Bolt)", "Sling"]);
    assert.equal(read("gcsScoutBarbar01", { noMalf: 18 }).weapons[0].stats.malf, 18);
  });

  it("grenades and Molotovs (Shots 1, no Rcl, range x3.5) are thrown, not guns: refused with that reason", () => {
    const soldier = read("gcsPulpSoldier01");
    assert.deepEqual(soldier.problems, []);
    assert.deepEqual(soldier.refused.map((r) => [r.name, r.key]), [["Hand Grenade, Black Powder", "refused.grenade"], ["Molotov Cocktail", "refused.grenade"]]);
    assert.match(soldier.refused[0].message, /"Hand Grenade, Black Powder" is thrown, not fired: Shots 1 and no Rcl/);
    // On a character, GGA shows the range in yards: the name says it.
    const carried = structuredClone(byId.get("gcsPulpSoldier01"));
    carried.system.ranged["00001"].range = "35";
    assert.deepEqual(gurpsAdapter().readActor(carried).refused.map((r) => r.key), ["refused.grenade", "refused.grenade"]);
  });

  it('"Malfunctions on 16+" in the equipment\'s notes is Malf 16 (High Tech Pulp Guns\' Bergmann MP18/I)', () => {
    const bergmann = read("gcsPulpSoldier01").weapons.find((w) => w.name.startsWith("Bergmann"));
    assert.deepEqual(bergmann?.stats, { rof: 8, rcl: 2, capacity: 32, malf: 16 });
    const onA = structuredClone(byId.get("gcsPulpSoldier01"));
    onA.system.equipment.carried["00000"].notes = "Intended for emplaced use. Malfunctions on a 15+ (see p. B407).";
    assert.equal(gurpsAdapter().readActor(onA).weapons[0].stats.malf, 15);
  });
});

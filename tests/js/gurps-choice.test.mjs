// The GURPS choice model (systems/gurps/choice.js, #37): the fields the dialog draws and the module API
// fills, a refusal that names the field by its label, the running shots-against-RoF check, and the
// choice each button sends, worked out from plain facts with no dialog and no Foundry.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ChoiceError } from "../../vtt_module/scripts/systems/common/choice.js";
import { gurpsChoice } from "../../vtt_module/scripts/systems/gurps/choice.js";

const MP5 = { id: "wMp5000001", system: "gurps", name: "MP5", skill: 14, stats: { rof: 13, rcl: 2, malf: 17, capacity: 30 }, state: { loaded: 30, jammed: false } };

/** @param {Record<string, unknown>} [over] */
function facts(over = {}) {
  return {
    system: "gurps",
    token: { id: "tokHale000000001", name: "Sgt. Hale" },
    weapon: MP5,
    character: { armoury: null, iq_minus_dx: 1 },
    targets: [
      { id: "tokRaider0000002", name: "Raider", character: { dodge: 8 } },
      { id: "tokLookout000003", name: "Lookout", character: {} },
    ],
    previewActions: ["attack"],
    ...over,
  };
}

describe("the GURPS choice's fields", () => {
  it("lists the dialog's controls by their form names, labels and defaults", () => {
    const model = gurpsChoice(facts());
    const fields = model.fields().map((f) => [f.name, f.kind, f.label.key, f.label.values?.name ?? null, f.default]);
    assert.deepEqual(fields, [
      ["modifier", "int", "VOLLEY.Gurps.SkillModifier", null, "0"],
      ["targets.0.id", "hidden", "VOLLEY.Dialog.Target", null, "tokRaider0000002"],
      ["targets.0.shots", "int", "VOLLEY.Gurps.ShotsAt", "Raider", "13"],
      ["targets.0.modifier", "int", "VOLLEY.Gurps.ModifierFor", "Raider", "0"],
      ["targets.0.dodges", "flag", "VOLLEY.Gurps.DodgesFor", "Raider", "on"],
      ["targets.1.id", "hidden", "VOLLEY.Dialog.Target", null, "tokLookout000003"],
      ["targets.1.shots", "int", "VOLLEY.Gurps.ShotsAt", "Lookout", "0"],
      ["targets.1.modifier", "int", "VOLLEY.Gurps.ModifierFor", "Lookout", "0"],
    ]);
  });

  it("offers the first target no more shots than are loaded, and Unjam's fields only while jammed", () => {
    const low = gurpsChoice(facts({ weapon: { ...MP5, state: { loaded: 4, jammed: false } } }));
    assert.equal(low.values["targets.0.shots"], "4");
    assert.equal(low.field("using"), null);
    const jammed = gurpsChoice(facts({ weapon: { ...MP5, state: { loaded: 4, jammed: true, malfunction: "stoppage" } } }));
    const using = jammed.field("using");
    assert.deepEqual(
      using?.options?.map((o) => [o.value, o.label.key, o.label.values?.skill]),
      [
        ["armoury", "VOLLEY.Gurps.UnjamArmoury", 10],
        ["weapon", "VOLLEY.Gurps.UnjamWeapon", 15],
      ],
    );
    assert.deepEqual(using?.options?.[0].label.values?.note, { key: "VOLLEY.Gurps.DefaultNote" }, "no Armoury set: the default, said so");
    assert.equal(jammed.field("unjam.modifier")?.default, "0");
  });

  it("has no fields without a weapon, and refuses to build a choice", () => {
    const model = gurpsChoice(facts({ weapon: null }));
    assert.deepEqual(model.fields(), []);
    assert.throws(() => model.toRequest("attack"), (e) => e.field === "weapon" && e.key === "VOLLEY.Form.NoWeapon");
  });
});

describe("setting a field", () => {
  it("refuses a number field given something else, naming the field by its label", () => {
    const model = gurpsChoice(facts());
    assert.throws(
      () => model.set("targets.0.shots", "abc"),
      (e) => e instanceof ChoiceError && e.field === "targets.0.shots" && e.key === "VOLLEY.Form.WholeNumber" && e.values.value === "abc" && e.label.key === "VOLLEY.Gurps.ShotsAt" && e.label.values.name === "Raider",
    );
    assert.equal(model.values["targets.0.shots"], "13", "nothing changed");
  });

  it("refuses a field the form has not, listing the ones it has, and an option it does not offer", () => {
    const model = gurpsChoice(facts());
    assert.throws(
      () => model.set("mode", "auto"),
      (e) => e.key === "VOLLEY.Api.NoField" && e.values.field === "mode" && String(e.values.fields).startsWith("modifier, targets.0.id, targets.0.shots") && e.label === null,
    );
    const jammed = gurpsChoice(facts({ weapon: { ...MP5, state: { loaded: 4, jammed: true, malfunction: "stoppage" } } }));
    assert.throws(() => jammed.set("using", "luck"), (e) => e.key === "VOLLEY.Api.NoChoice" && e.values.choices === "armoury, weapon");
  });

  it("takes a box as true, 'on' or 'true', anything else clears it", () => {
    const model = gurpsChoice(facts());
    model.set("targets.0.dodges", false);
    assert.equal(model.toRequest("attack").targets[0].dodges, false);
    model.set("targets.0.dodges", "on");
    assert.equal(model.toRequest("attack").targets[0].dodges, true);
  });
});

describe("the running check (B373)", () => {
  it("says the shots against RoF, and why Fire waits", () => {
    const model = gurpsChoice(facts({ weapon: { ...MP5, state: { loaded: 10, jammed: false } } }));
    assert.deepEqual(model.liveCheck(), { tally: { key: "VOLLEY.Gurps.Tally", values: { shots: 10, rof: 13 } }, blocked: null });
    model.set("targets.1.shots", 6);
    assert.deepEqual(model.liveCheck()?.blocked, { key: "VOLLEY.Gurps.TallyOverRof", values: { over: 3, rof: 13 } });
    model.set("targets.1.shots", 1);
    assert.deepEqual(model.liveCheck()?.blocked, { key: "VOLLEY.Gurps.TallyOverLoaded", values: { loaded: 10 } });
    model.set("targets.0.shots", 0);
    model.set("targets.1.shots", 0);
    assert.deepEqual(model.liveCheck()?.blocked, { key: "VOLLEY.Form.NoShots" });
    assert.equal(gurpsChoice(facts({ targets: [] })).liveCheck(), null, "no targets: nothing to tally");
  });
});

describe("the choice each button sends (the dialog's, for the same form)", () => {
  it("Fire at the defaults", () => {
    assert.deepEqual(gurpsChoice(facts()).toRequest("attack"), {
      modifier: 0,
      targets: [
        { id: "tokRaider0000002", shots: 13, modifier: 0, dodges: true },
        { id: "tokLookout000003", shots: 0, modifier: 0, dodges: false },
      ],
      system: "gurps",
      token: "tokHale000000001",
      weapon: "wMp5000001",
      action: "attack",
    });
  });

  it("Fire as typed, and a bound refused by the field", () => {
    const model = gurpsChoice(facts());
    model.set("targets.0.shots", 3);
    model.set("targets.0.modifier", -2);
    model.set("modifier", "1");
    assert.deepEqual(model.toRequest("attack").targets[0], { id: "tokRaider0000002", shots: 3, modifier: -2, dodges: true });
    assert.equal(model.toRequest("attack").modifier, 1);
    model.set("modifier", 31);
    assert.throws(() => model.toRequest("attack"), (e) => e.field === "modifier" && e.key === "VOLLEY.Form.AtMost" && model.labelOf(e.field)?.key === "VOLLEY.Gurps.SkillModifier");
  });

  it("Reload sends nothing of the form; Unjam its skill and modifier, Armoury alone for a mechanical fault", () => {
    assert.deepEqual(gurpsChoice(facts()).toRequest("reload"), { system: "gurps", token: "tokHale000000001", weapon: "wMp5000001", action: "reload" });
    const stoppage = gurpsChoice(facts({ weapon: { ...MP5, state: { loaded: 4, jammed: true, malfunction: "stoppage" } } }));
    stoppage.set("using", "weapon");
    stoppage.set("unjam.modifier", -1);
    assert.deepEqual(stoppage.toRequest("unjam"), { using: "weapon", modifier: -1, system: "gurps", token: "tokHale000000001", weapon: "wMp5000001", action: "unjam" });
    const mechanical = gurpsChoice(facts({ weapon: { ...MP5, state: { loaded: 4, jammed: true, malfunction: "mechanical" } } }));
    mechanical.set("using", "weapon");
    assert.throws(() => mechanical.toRequest("unjam"), (e) => e.field === "using" && e.key === "VOLLEY.Gurps.Form.ArmouryOnly");
  });

  it("the dialog's edits, as its form holds them (a clear box left out), build the same choice", () => {
    const model = gurpsChoice(facts());
    model.assign({ modifier: "2", "targets.0.id": "tokRaider0000002", "targets.0.shots": "5", "targets.0.modifier": "-1", "targets.1.id": "tokLookout000003", "targets.1.shots": "2", "targets.1.modifier": "" });
    assert.deepEqual(model.toRequest("attack").targets, [
      { id: "tokRaider0000002", shots: 5, modifier: -1, dodges: false },
      { id: "tokLookout000003", shots: 2, modifier: 0, dodges: false },
    ]);
  });
});

describe("the buttons", () => {
  it("holds Fire for a jam and everything for a destroyed weapon; Unjam needs the jam's cause", () => {
    const jammed = gurpsChoice(facts({ weapon: { ...MP5, state: { loaded: 4, jammed: true } } }));
    const specs = jammed.actions({ loaded: 4, capacity: 30, jammed: true });
    assert.deepEqual(specs.map((s) => [s.action, s.blocked?.key ?? null]), [
      ["attack", "VOLLEY.Dialog.JammedBlocks"],
      ["reload", null],
      ["unjam", "VOLLEY.Gurps.UnjamNoFault"],
    ]);
    const destroyed = gurpsChoice(facts({ weapon: { ...MP5, state: { loaded: 4, jammed: true, malfunction: "destroyed" } } }));
    assert.ok(destroyed.actions({ loaded: 4, capacity: 30, jammed: true }).every((s) => s.blocked?.key === "VOLLEY.Gurps.Destroyed"));
  });
});

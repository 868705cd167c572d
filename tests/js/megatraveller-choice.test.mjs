// The MegaTraveller choice model (systems/megatraveller/choice.js, #37): the fields the dialog draws
// from the draft and the module API fills, a refusal naming the field by its label, the reshaping a
// mode or a primary does, and the choice Fire sends, from plain facts with no dialog and no Foundry.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ChoiceError } from "../../vtt_module/scripts/systems/common/choice.js";
import { megatravellerChoice } from "../../vtt_module/scripts/systems/megatraveller/choice.js";

const AUTORIFLE = {
  id: "wAutorifle",
  system: "megatraveller",
  name: "Autorifle",
  skill: 2,
  stats: { kind: "rifle", rapid: false, burst: 4, auto: true, auto_targets: 2, capacity: 20 },
  state: { loaded: 20, readiness: "ready", selector: "burst" },
};

/** @param {Record<string, unknown>} [over] */
function facts(over = {}) {
  return {
    system: "megatraveller",
    token: { id: "tokKira", name: "Kira" },
    weapon: AUTORIFLE,
    character: { dex: 9 },
    targets: [
      { id: "tokVargr1", name: "Vargr raider", character: {} },
      { id: "tokVargr2", name: "Vargr scout", character: {} },
    ],
    previewActions: ["attack"],
    scene: [
      { id: "tokKira", name: "Kira", x: 0, y: 0 },
      { id: "tokVargr1", name: "Vargr raider", x: 10, y: 0 },
      { id: "tokVargr2", name: "Vargr scout", x: 10, y: 3 },
    ],
    state: {},
    lockName: null,
    tableRules: {},
    ...over,
  };
}

describe("the MegaTraveller choice's fields", () => {
  it("opens on the selector's mode and lists the dialog's controls by their form names", () => {
    const model = megatravellerChoice(facts());
    const names = model.fields().map((f) => f.name);
    assert.deepEqual(names.slice(0, 4), ["mode", "how", "how_state", "primary"]);
    assert.equal(model.field("mode")?.default, "burst");
    assert.deepEqual(model.field("mode")?.options?.map((o) => o.value), ["single", "burst", "auto", "controlled"]);
    assert.ok(names.includes("rows.0.dm") && names.includes("rows.1.bullets"), names.join(", "));
    assert.deepEqual(model.field("rows.0.dm")?.label, { key: "VOLLEY.MegaTraveller.DmFor", values: { name: "Vargr raider" } });
  });

  it("refuses a mode the weapon has not, and a DM that is no number naming the row", () => {
    const model = megatravellerChoice(facts());
    assert.throws(() => model.set("mode", "rapid"), (e) => e.key === "VOLLEY.Api.NoChoice" && e.values.choices === "single, burst, auto, controlled");
    assert.throws(
      () => model.set("rows.0.dm", "x"),
      (e) => e instanceof ChoiceError && e.key === "VOLLEY.Form.WholeNumber" && e.label.key === "VOLLEY.MegaTraveller.DmFor" && e.label.values.name === "Vargr raider",
    );
    assert.throws(() => model.set("targets.0.shots", 3), (e) => e.key === "VOLLEY.Api.NoField" && String(e.values.fields).startsWith("mode, how, how_state"));
  });
});

describe("the choice Fire sends", () => {
  it("a burst split 2/2 by default over two targets, the primary first", () => {
    const request = megatravellerChoice(facts()).toRequest("attack");
    assert.equal(request.mode, "burst");
    assert.deepEqual(request.allocation, ["2", "2"]);
    assert.deepEqual(
      /** @type {any[]} */ (request.targets).map((t) => [t.id, t.dm]),
      [
        ["tokVargr1", 0],
        ["tokVargr2", 0],
      ],
    );
    assert.equal(request.action, "attack");
    assert.equal(request.weapon, "wAutorifle");
  });

  it("single fire after the mode is set: one target, the other left out; a DM typed is sent", () => {
    const model = megatravellerChoice(facts());
    model.set("mode", "single");
    model.set("rows.0.dm", "-2");
    const request = model.toRequest("attack");
    assert.equal(request.mode, "single");
    assert.deepEqual(/** @type {any[]} */ (request.targets).map((t) => [t.id, t.dm]), [["tokVargr1", -2]]);
    assert.equal(request.allocation, undefined);
  });

  it("a primary picked comes first; a burst split by hand that does not fire the burst is refused by its field", () => {
    const model = megatravellerChoice(facts());
    model.set("primary", "tokVargr2");
    assert.equal(/** @type {any[]} */ (model.toRequest("attack").targets)[0].id, "tokVargr2");
    model.set("rows.0.bullets", 1);
    assert.throws(() => model.toRequest("attack"), (e) => e.field === "rows.0.bullets" && typeof e.key === "string");
  });

  it("a holstered weapon cannot fire as it is: the reason comes as words, not a field", () => {
    const model = megatravellerChoice(facts({ weapon: { ...AUTORIFLE, state: { ...AUTORIFLE.state, readiness: "slung" } } }));
    const fire = model.actions({ loaded: 20, capacity: 20, jammed: false })[0];
    assert.equal(fire.action, "attack");
    assert.throws(() => model.toRequest("attack"), (e) => e.plain === true && typeof e.words?.key === "string");
  });
});

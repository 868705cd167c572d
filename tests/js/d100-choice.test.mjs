// The d100 choice model (systems/d100/choice.js, #37): the fields the dialog draws and the module API
// fills, a refusal that names the field by its label, the buttons and why they cannot be used, and the
// choice each button sends (overwatch single shots, a long burst, a morale test, suppressing fire),
// worked out from plain facts with no dialog and no Foundry.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ChoiceError } from "../../vtt_module/scripts/systems/common/choice.js";
import { d100Choice } from "../../vtt_module/scripts/systems/d100/choice.js";

const AUTOGUN = { id: "wAutogun00001", system: "d100", name: "Autogun", stats: { class: "rifle", rof: "S/3/10", capacity: 30, reliability: 0, range: 90 }, state: { loaded: 30, jammed: false } };
const VEX = { id: "tokVex0000000001", name: "Vex" };
const HERETIC = { id: "tokHeretic000002", name: "Heretic" };
const CULTIST = { id: "tokCultist000003", name: "Cultist" };
const BEHIND = { id: "tokBehind0000004", name: "Behind" };
/** The scene in metres: the Heretic and the Cultist to the east, another token to the west. */
const PLANE = {
  inMetres: true,
  origin: { x: 0, y: 0 },
  tokens: [
    { ...VEX, x: 0, y: 0 },
    { ...HERETIC, x: 10, y: 0 },
    { ...CULTIST, x: 20, y: 2 },
    { ...BEHIND, x: -10, y: 0 },
  ],
};
const SHOOTER = { moved: false, in_melee: false };
const ROW = { cover: false, reach_cover: true, band: "auto" };

/** @param {Record<string, unknown>} [over] */
function facts(over = {}) {
  return {
    system: "d100",
    token: VEX,
    weapon: AUTOGUN,
    character: { bs: 40, tech_use: 35 },
    targets: [
      { ...HERETIC, character: { wp: 30 } },
      { ...CULTIST, character: {} },
    ],
    previewActions: ["attack", "overwatch_fire"],
    state: {},
    plane: PLANE,
    gm: true,
    ...over,
  };
}

/** @param {Record<string, unknown>} request */
const system = (request) => ({ ...request, system: "d100", token: VEX.id, weapon: AUTOGUN.id });

describe("the d100 choice's fields", () => {
  it("lists the dialog's controls by their form names, labels and defaults", () => {
    const model = d100Choice(facts());
    const fields = model.fields().map((f) => [f.name, f.kind, f.label.key, f.label.values?.name ?? null, f.default]);
    const D = "VOLLEY.D100.Dialog";
    assert.deepEqual(fields, [
      ["mode", "select", `${D}.Mode`, null, "single"],
      ["modifier", "int", `${D}.Modifier`, null, "0"],
      ["moved", "flag", `${D}.Moved`, null, "off"],
      ["in_melee", "flag", `${D}.InMelee`, null, "off"],
      ["primary", "select", `${D}.SingleTarget`, null, HERETIC.id],
      [`t.${HERETIC.id}.include`, "flag", `${D}.IncludeTarget`, "Heretic", "on"],
      [`t.${HERETIC.id}.band`, "select", `${D}.BandFor`, "Heretic", "auto"],
      [`t.${HERETIC.id}.cover`, "flag", `${D}.CoverFor`, "Heretic", "off"],
      [`t.${HERETIC.id}.reach`, "flag", `${D}.ReachFor`, "Heretic", "on"],
      // A single shot's other row has no tick: it says it is idle.
      [`t.${CULTIST.id}.band`, "select", `${D}.BandFor`, "Cultist", "auto"],
      [`t.${CULTIST.id}.cover`, "flag", `${D}.CoverFor`, "Cultist", "off"],
      [`t.${CULTIST.id}.reach`, "flag", `${D}.ReachFor`, "Cultist", "on"],
      ["who", "select", `${D}.Who`, null, "self"],
      ["morale_modifier", "int", `${D}.MoraleModifier`, null, "0"],
      ["self_cover", "flag", `${D}.SelfCover`, null, "off"],
      ["self_reach", "flag", `${D}.SelfReach`, null, "on"],
      ["quiet", "flag", `${D}.Quiet`, null, "off"],
    ]);
    assert.deepEqual(
      model.field("mode")?.options?.map((o) => o.value),
      ["single", "short_burst", "long_burst", "wide_short_burst", "wide_long_burst", "suppressing_semi", "suppressing_full", "overwatch"],
    );
    assert.equal(model.field("mode")?.options?.[0].label.key, "VOLLEY.D100.DialogModes.single");
  });

  it("reshapes as the mode does: a sector's Facing and width, a burst's shares, an order's fields", () => {
    const model = d100Choice(facts());
    model.set("mode", "long_burst");
    assert.equal(model.field(`t.${CULTIST.id}.share`)?.label.key, "VOLLEY.D100.Dialog.ShareFor");
    assert.equal(model.field(`t.${HERETIC.id}.share`), null, "the primary takes the burst, not a share");
    assert.equal(model.field("gm_allows_wider")?.default, "off");
    model.set("mode", "overwatch");
    assert.deepEqual(
      ["facing", "arc", "order_mode", "trigger"].map((name) => model.field(name)?.label.key),
      ["VOLLEY.D100.Dialog.Facing", "VOLLEY.D100.Dialog.Arc", "VOLLEY.D100.Dialog.OrderModeLabel", "VOLLEY.D100.Dialog.Trigger"],
    );
    assert.equal(model.field(`t.${HERETIC.id}.cover`), null, "an order lists nobody");
  });

  it("offers a player no For: the morale tests are the player's own", () => {
    assert.equal(d100Choice(facts({ gm: false })).field("who"), null);
  });
});

describe("setting a field", () => {
  it("refuses a number field given something else, naming the field by its label, and changes nothing", () => {
    const model = d100Choice(facts());
    assert.throws(
      () => model.set(`t.${CULTIST.id}.share`, 2),
      (e) => e instanceof ChoiceError && e.key === "VOLLEY.Api.NoField",
      "a single shot has no shares",
    );
    assert.throws(
      () => model.set("modifier", "abc"),
      (e) => e instanceof ChoiceError && e.field === "modifier" && e.key === "VOLLEY.Form.WholeNumber" && e.label.key === "VOLLEY.D100.Dialog.Modifier",
    );
    assert.equal(model.values.modifier, "0");
    assert.throws(
      () => model.set("mode", "rapid"),
      (e) => e instanceof ChoiceError && e.key === "VOLLEY.Api.NoChoice" && e.values.value === "rapid",
    );
    assert.equal(model.currentMode(), "single");
  });

  it("refuses a Facing past its rule by the Facing's label, aiming nothing", () => {
    const model = d100Choice(facts());
    model.set("mode", "suppressing_full");
    assert.throws(
      () => model.set("facing", 400),
      (e) => e instanceof ChoiceError && e.field === "facing" && e.label.key === "VOLLEY.D100.Dialog.Facing",
    );
    assert.equal(model.sector, null);
  });
});

describe("the choice each button sends", () => {
  it("overwatch: waits for its trigger, then fires single shots at the two tokens in the order's sector", () => {
    const order = { mode: "single", facing: 0, arc: 45, trigger: "anyone at the door" };
    const model = d100Choice(facts({ state: { overwatch: order }, weapon: { ...AUTOGUN, state: { loaded: 1, jammed: false } } }));
    assert.equal(model.currentMode(), "overwatch_fire");
    assert.equal(model.previewAction(), null, "nothing to chart while the order waits");
    const readout = { jammed: false, loaded: 1, capacity: 30 };
    assert.deepEqual(
      model.actions(readout).map((a) => [a.action, a.blocked?.key ?? null]),
      [
        ["overwatch_waiting", "VOLLEY.D100.Dialog.WaitingHint"],
        ["trigger_met", null],
        ["lift_overwatch", null],
        ["reload", null],
      ],
    );
    model.declareTrigger(true);
    assert.deepEqual(model.chosenTargets(), [HERETIC, CULTIST], "the order's sector, nearest first; not the token behind");
    // One shot per token: two rounds, one loaded.
    const fire = model.actions(readout)[0];
    assert.deepEqual([fire.action, fire.blocked], ["overwatch_fire", { key: "VOLLEY.D100.Dialog.ShortMagazine", values: { loaded: 1, needed: 2 } }]);
    assert.equal(model.previewAction(), "overwatch_fire");
    assert.deepEqual(
      model.toRequest("overwatch_fire"),
      system({ ...SHOOTER, modifier: 0, fire_mode: "order", targets: [{ id: HERETIC.id, ...ROW }, { id: CULTIST.id, ...ROW }], action: "overwatch_fire" }),
    );
  });

  it("a long burst: the primary first, a secondary fired at only with a share", () => {
    const model = d100Choice(facts());
    model.set("mode", "long_burst");
    model.set("modifier", 10);
    model.set(`t.${HERETIC.id}.cover`, true);
    const base = { ...SHOOTER, mode: "long_burst", modifier: 10, action: "attack" };
    assert.deepEqual(model.toRequest("attack"), system({ ...base, targets: [{ id: HERETIC.id, ...ROW, cover: true }] }));
    model.set(`t.${CULTIST.id}.share`, 3);
    model.set(`t.${CULTIST.id}.band`, "combat");
    assert.deepEqual(model.toRequest("attack"), system({ ...base, targets: [{ id: HERETIC.id, ...ROW, cover: true }, { id: CULTIST.id, ...ROW, band: "combat", share: 3 }] }));
    model.set("primary", CULTIST.id);
    assert.deepEqual(
      model.chosenTargets().map((t) => t.id),
      [CULTIST.id, HERETIC.id],
    );
    assert.throws(() => model.set(`t.${HERETIC.id}.share`, "x"), (e) => e.label?.key === "VOLLEY.D100.Dialog.ShareFor" && e.label.values.name === "Heretic");
  });

  it("a morale test: the shooter's own, or the listed targets', refused by For with nobody listed", () => {
    const model = d100Choice(facts());
    assert.deepEqual(
      model.bodyActions().map((a) => a.action),
      ["suppression_test", "recover", "enter_melee"],
    );
    model.set("morale_modifier", -10);
    model.set("self_cover", true);
    assert.deepEqual(
      model.toRequest("suppression_test"),
      system({ who: "self", morale_modifier: -10, quiet: false, cover: true, reach_cover: true, targets: [], action: "suppression_test" }),
    );
    model.set("who", "targets");
    assert.deepEqual(model.toRequest("recover").targets, [{ id: HERETIC.id, ...ROW }], "a single shot's one target");
    const nobody = d100Choice(facts({ targets: [] }));
    nobody.set("who", "targets");
    assert.throws(() => nobody.toRequest("suppression_test"), (e) => e.field === "who" && e.key === "VOLLEY.D100.Form.NobodyListed");
    assert.equal(nobody.labelOf("who")?.key, "VOLLEY.D100.Dialog.Who");
  });

  it("suppressing fire: refused without a Facing; aimed, it sweeps the tokens in the sector", () => {
    const model = d100Choice(facts({ targets: [] }));
    model.set("mode", "suppressing_full");
    assert.throws(() => model.toRequest("attack"), (e) => e.field === "facing" && e.key === "VOLLEY.Form.Required");
    model.set("facing", 0);
    assert.deepEqual(model.sectorList, [HERETIC.id, CULTIST.id]);
    assert.deepEqual(
      model.toRequest("attack"),
      system({ ...SHOOTER, mode: "suppressing", rate: "full", modifier: 0, arc: 45, targets: [{ id: HERETIC.id, ...ROW }, { id: CULTIST.id, ...ROW }], action: "attack" }),
    );
    // Unticked, a row is left out; the long RoF must be loaded.
    model.set(`t.${CULTIST.id}.include`, false);
    assert.deepEqual(
      model.toRequest("attack").targets,
      [{ id: HERETIC.id, ...ROW }],
    );
    const low = d100Choice(facts({ weapon: { ...AUTOGUN, state: { loaded: 5, jammed: false } } }));
    low.set("mode", "suppressing_full");
    assert.deepEqual(low.actions({ jammed: false, loaded: 5, capacity: 30 })[0].blocked, { key: "VOLLEY.D100.Dialog.ShortMagazine", values: { loaded: 5, needed: 10 } });
  });

  it("locked in melee, a heavy weapon does not fire: refused by the In melee box", () => {
    const heavy = { ...AUTOGUN, stats: { ...AUTOGUN.stats, class: "heavy", rof: "-/-/10" } };
    const model = d100Choice(facts({ weapon: heavy }));
    model.set("in_melee", true);
    assert.throws(() => model.toRequest("attack"), (e) => e.field === "in_melee" && e.key === "VOLLEY.D100.Form.NoFireInMelee");
    assert.equal(model.labelOf("in_melee")?.key, "VOLLEY.D100.Dialog.InMelee");
  });
});

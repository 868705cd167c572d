// Fire from the weapon's own row: the systems' own sheet templates at the claimed tags, rendered over the
// adapters' fixture actors (tests/js/fixtures/sheets/*.html, each with its _fixture header), read as the
// module reads them (adapters/sheet-rows.js): every weapon row the adapter reads gets a control that fires
// that weapon, every row it will not fire one that says why. The browser test
// (tests/browser/test_sheet_controls.py) draws the same sheets and clicks the controls.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";

import { darkHeresyAdapter } from "../../vtt_module/scripts/adapters/dark-heresy-2e.js";
import { gurpsAdapter } from "../../vtt_module/scripts/adapters/gurps.js";
import { SHEET_ROWS, findRows, rowControls, sheetRowsOf } from "../../vtt_module/scripts/adapters/sheet-rows.js";
import { twodsixAdapter } from "../../vtt_module/scripts/adapters/twodsix.js";
import { actorArsenal } from "../../vtt_module/scripts/profile/weapons.js";
import { fixture } from "./actors.mjs";
import { parseHtml } from "./html.mjs";

/** A sheet fixture: its header and its parsed markup. */
function sheet(name) {
  const text = readFileSync(new URL(`./fixtures/sheets/${name}.html`, import.meta.url), "utf8");
  const header = /^<!-- _fixture: (\{.*\}) -->\n/.exec(text);
  assert.ok(header, `${name}: the _fixture header`);
  return { meta: JSON.parse(header[1]), root: parseHtml(text.slice(header[0].length)) };
}

/** What each row of a sheet says: [ref, "fire" and the weapon's name | the refusal's key | the problems' keys]. */
function controlsOf(name, gameSystem, arsenal) {
  const { root } = sheet(name);
  const rows = findRows(root, sheetRowsOf(gameSystem));
  const controls = rowControls(arsenal, rows.map((row) => row.ref));
  return rows.map(({ ref }) => {
    const control = controls.get(ref);
    if (!control) return [ref, null];
    if (control.kind === "fire") return [ref, "fire", control.weapon.name];
    if (control.kind === "refused") return [ref, control.reason.key];
    return [ref, control.reasons.map((p) => p.key).join(",")];
  });
}

const gurps = fixture("gurps/gcs-characters.json").actors;
const gurpsArsenal = (id) => actorArsenal({ ...gurps.find((a) => a._id === id), flags: {} }, { system: "gurps", adapter: gurpsAdapter() });
const acolyte = fixture("dark-heresy-2nd/compendium-specials.json");
const dh2Arsenal = actorArsenal({ ...acolyte, flags: {} }, { system: "d100", adapter: darkHeresyAdapter() });
const twodsix = fixture("twodsix/compendium-weapons.json");
const twodsixArsenal = (id) => actorArsenal({ ...twodsix.actors.find((a) => a._id === id), flags: {} }, { system: "megatraveller", adapter: twodsixAdapter({ ruleset: twodsix.rulesets[id] }) });

describe("GURPS Game Aid 0.18.22's sheets (ApplicationV1): the ranged attacks' rows", () => {
  it("classic sheets (sections/ranged.hbs): one control per attack, on the row GGA keys by the attack's path", () => {
    assert.equal(sheet("gurps-classic").meta.hook, "renderActorSheet");
    assert.deepEqual(controlsOf("gurps-classic", "gurps", gurpsArsenal("gcsPulpSoldier01")), [
      ["system.ranged.00000", "fire", "Bergmann MP18/I, 9x19mm"],
      ["system.ranged.00001", "refused.grenade"],
      ["system.ranged.00002", "refused.grenade"],
      ["system.ranged.00003", "fire", "Crossbow (Fire Bolt)"],
      ["system.ranged.00004", "fire", "Sling"],
    ]);
  });

  it("modern sheets (modern/partials/attack-table.hbs): the row's edit icon carries the path", () => {
    assert.deepEqual(controlsOf("gurps-modern", "gurps", gurpsArsenal("gcsEsDragon00001")), [
      ["system.ranged.00000", "fire", "Fire Breath"],
      ["system.ranged.00001", "fire", "Ice Breath"],
      ["system.ranged.00002", "fire", "Unrelenting Force"],
    ]);
  });

  it("a nested attack's problem is its own row's, not its parent's", () => {
    const arsenal = { weapons: [], current: null, character: {}, problems: [{ field: "system.ranged.00001.contains.00000.rof", message: "bad", key: "gurps.rof.invalid" }] };
    const controls = rowControls(arsenal, ["system.ranged.00001", "system.ranged.00001.contains.00000"]);
    assert.deepEqual([...controls.keys()], ["system.ranged.00001.contains.00000"]);
  });
});

describe("Dark Heresy 2e's weapon list (weapon-panel.hbs): 1.8.1's ApplicationV1 and the 13-14 fork's ApplicationV2", () => {
  for (const name of ["dh2-v1", "dh2-v2"]) {
    it(`${name}: the Spray flamer's row says why; every other weapon's row fires it`, () => {
      assert.equal(sheet(name).meta.hook, name === "dh2-v1" ? "renderActorSheet" : "renderActorSheetV2");
      assert.deepEqual(controlsOf(name, "dark-heresy-2nd", dh2Arsenal), [
        ["dhHandFlamer0001", "refused.spray"],
        ["dhWebber00000001", "fire", "Webber"],
        ["dhWailTrident001", "fire", "Wailing Trident"],
        ["dhLaspistol00001", "fire", "Laspistol"],
        ["dhStormBolter001", "fire", "Storm Bolter"],
        ["dhLasgun00000001", "fire", "Lasgun"],
      ]);
    });
  }
});

describe("Twodsix 7.5.2's sheets (ApplicationV2): the traveller's inventory and the robot sheet", () => {
  it("actor-items.hbs: one control per weapon, not one for its automatic-fire line (which repeats the item id)", () => {
    const { root } = sheet("twodsix-traveller");
    assert.equal(root.querySelectorAll("[data-item-id='cdSubmachinegun1']").length, 2);
    assert.deepEqual(controlsOf("twodsix-traveller", "twodsix", twodsixArsenal("tsxCdMerc0000001")), [
      ["cdSubmachinegun1", "fire", "Submachinegun"],
      ["cdAssaultRifle01", "fire", "Assault Rifle"],
      ["cdGaussRifle0001", "fire", "Gauss Rifle"],
    ]);
  });

  it("robot-sheet.hbs: the Warbot's laser fires; its missile's row names the field to fix", () => {
    assert.deepEqual(controlsOf("twodsix-robot", "twodsix", twodsixArsenal("cIiwzs4YedoRxIUM")), [
      ["KzngOiXZ0kdPBd8O", "fire", "Robot Laser"],
      ["xorjloD8uiNa7pPL", "twodsix.magazine.none"],
    ]);
  });
});

describe("which sheets", () => {
  it("each supported game system has its rows; others have none", () => {
    assert.deepEqual(Object.keys(SHEET_ROWS), ["gurps", "dark-heresy-2nd", "twodsix"]);
    assert.equal(sheetRowsOf("dark-heresy-2e"), SHEET_ROWS["dark-heresy-2nd"]);
    for (const id of ["dnd5e", "", undefined, "__proto__"]) assert.deepEqual(sheetRowsOf(id), []);
  });

  it("a row with nothing of Volley's (a profile weapon, another list) gets no control", () => {
    assert.deepEqual([...rowControls({ weapons: [], current: null, character: {}, problems: [] }, ["system.ranged.00000", "x"]).keys()], []);
  });
});

// What a d100 weapon offers in the dialog (systems/d100/modes.js), what the odds add to the charts
// (odds.js: the chance each target ends suppressed or prone) and the card's lines (card.js), against
// seed 004's rules and the rules engine's own numbers (rules/d100/tables.py).
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { d100CardExtras } from "../../vtt_module/scripts/systems/d100/card.js";
import {
  bandOf,
  DIALOG_MODES,
  dialogModes,
  maxOverwatchShots,
  overwatchModes,
  rofPositions,
  sectorLength,
  weaponRange,
} from "../../vtt_module/scripts/systems/d100/modes.js";
import { d100OddsLines, moraleOdds } from "../../vtt_module/scripts/systems/d100/odds.js";

const weapon = (stats) => ({ stats });

describe("the modes a weapon offers", () => {
  it("an autogun (S/3/10) offers every mode; only what its RoF allows", () => {
    assert.deepEqual(dialogModes(weapon({ class: "rifle", rof: "S/3/10" })), [
      "single",
      "short_burst",
      "long_burst",
      "wide_short_burst",
      "wide_long_burst",
      "suppressing_semi",
      "suppressing_full",
      "overwatch",
    ]);
  });

  it("a heavy stubber (-/-/10) has no single shot and no short burst", () => {
    assert.deepEqual(dialogModes(weapon({ class: "heavy", rof: "-/-/10" })), ["long_burst", "wide_long_burst", "suppressing_full", "overwatch"]);
  });

  it("a wide burst needs that RoF at 3 or more (seed: RoF 2 cannot widen)", () => {
    assert.deepEqual(dialogModes(weapon({ class: "pistol", rof: "S/2/-" })), ["single", "short_burst", "suppressing_semi", "overwatch"]);
  });

  it("a stub revolver (S/-/-) fires single shots and watches with them", () => {
    assert.deepEqual(dialogModes(weapon({ class: "pistol", rof: "S/-/-" })), ["single", "overwatch"]);
    assert.deepEqual(overwatchModes(weapon({ class: "pistol", rof: "S/-/-" })), ["single"]);
  });

  it("a grenade is thrown one at a time, and a standing order puts overwatch fire first", () => {
    assert.deepEqual(dialogModes(weapon({ class: "grenade", rof: "S/-/-" })), ["single"]);
    assert.deepEqual(dialogModes(weapon({ class: "rifle", rof: "S/3/-" }), { order: true })[0], "overwatch_fire");
    assert.deepEqual(overwatchModes(weapon({ class: "thrown", rof: "S/-/-" })), []);
  });

  it("a RoF the notation cannot read offers no mode", () => {
    assert.deepEqual(dialogModes(weapon({ class: "rifle", rof: "S/3" })), []);
    assert.deepEqual(dialogModes(weapon({ class: "rifle", rof: 7 })), []);
    assert.equal(rofPositions("S/3/10").highest, 10);
    assert.deepEqual(rofPositions("–/–/6"), { single: false, short: null, long: 6, highest: 6 });
  });

  it("maps every Mode entry to the rules' action, mode and rate", () => {
    assert.deepEqual(DIALOG_MODES.suppressing_semi, { action: "attack", mode: "suppressing", rate: "semi", sector: true });
    assert.equal(DIALOG_MODES.overwatch.action, "overwatch");
    assert.equal(DIALOG_MODES.single.sector, false);
    assert.equal(DIALOG_MODES.wide_short_burst.sector, true);
  });
});

describe("ranges and sectors", () => {
  it("reads range bands as the rules do: 2 m point blank, then ½, 1, 2, 3 × Rng", () => {
    const bands = [1, 2, 2.01, 45, 45.5, 90, 180, 270, 270.1].map((m) => bandOf(m, 90));
    assert.deepEqual(bands, ["point_blank", "point_blank", "short", "short", "combat", "combat", "long", "extreme", "beyond"]);
    assert.equal(bandOf(30, null), null, "no Rng: only point blank can be told");
    assert.equal(bandOf(1, null), "point_blank");
    assert.equal(bandOf(-1, 90), null);
  });

  it("a sector reaches extreme range (3 × Rng); thrown weapons reach SB × 3 m", () => {
    assert.equal(sectorLength(weapon({ class: "heavy", range: 100 })), 300);
    assert.equal(sectorLength(weapon({ class: "rifle" })), Infinity);
    assert.equal(weaponRange(weapon({ class: "grenade", range: 50 }), { sb: 4 }), 12);
    assert.equal(sectorLength(weapon({ class: "grenade" }), { sb: 4 }), 36);
  });

  it("single-shot overwatch: half the BS bonus, no more than the highest RoF, at least one", () => {
    assert.equal(maxOverwatchShots(48, 10), 2);
    assert.equal(maxOverwatchShots(65, 10), 3);
    assert.equal(maxOverwatchShots(65, 1), 1);
    assert.equal(maxOverwatchShots(15, 10), 1, "BS below 20 still fires once (overwatch.MIN_SINGLE_SHOTS)");
  });
});

describe("oddsLines: suppressed and prone", () => {
  // The shape of the bridge's d100 odds for docs/examples/d100/suppressing_fire.json.
  const odds = {
    jam: 0.07,
    success: 0.25,
    targets: [
      { id: "c1", hits: [0.9, 0.1], suppressed: 0.8, prone: 0 },
      { id: "c2", hits: [0.9, 0.1], suppressed: 0.95, prone: 0.95 },
      { id: "c4", hits: [1], suppressed: 0, prone: 0 },
    ],
  };
  const targets = [
    { id: "c2", name: "Cultist" },
    { id: "c1", name: "Cultist in cover" },
    { id: "c4", name: "Straggler" },
    { id: "zz", name: "Not in the odds" },
  ];
  const words = { percent: (p) => `${Math.round(p * 100)}%`, line: ({ name, suppressed, prone }) => `${name}: ${suppressed} / ${prone}` };

  it("one line per target that may end suppressed or prone, in the dialog's order", () => {
    assert.deepEqual(d100OddsLines(odds, targets, words), ["Cultist: 95% / 95%", "Cultist in cover: 80% / 0%"]);
  });

  it("reads the odds defensively", () => {
    assert.deepEqual(moraleOdds({ targets: [{ id: "c1", suppressed: 7, prone: "x" }, null, { suppressed: 1 }] }, targets), [
      { id: "c1", name: "Cultist in cover", suppressed: 1, prone: 0 },
    ]);
    assert.deepEqual(d100OddsLines(null, targets, words), []);
    assert.deepEqual(d100OddsLines({ targets: "nope" }, targets, words), []);
  });
});

describe("the d100 card's lines", () => {
  it("says the mode, the action, the rounds spent and who must reach cover", () => {
    const extras = d100CardExtras({
      action: "attack",
      mode: "suppressing",
      action_cost: "full",
      spent: 10,
      spoiled: 0,
      recovered: 0,
      targets: [
        { id: "c1", name: "Cultist", must_seek_cover: true },
        { id: "c2", name: "Heretic", must_seek_cover: false },
      ],
    });
    assert.deepEqual(extras, [
      { label: "VOLLEY.D100.Card.Mode", value: { key: "VOLLEY.D100.Modes.suppressing" } },
      { label: "VOLLEY.D100.Card.Cost", value: { key: "VOLLEY.D100.Costs.full" } },
      { label: "VOLLEY.Card.RoundsFired", value: 10 },
      { label: "VOLLEY.D100.Card.SeekCover", value: "Cultist" },
    ]);
  });

  it("says the overwatch order set, or that it was lifted", () => {
    const order = { mode: "short_burst", trigger: "anyone crosses the bridge", facing: 352.4, arc: 45 };
    assert.deepEqual(d100CardExtras({ action: "overwatch", action_cost: "full", attacker: { overwatch: order } }), [
      { label: "VOLLEY.D100.Card.Cost", value: { key: "VOLLEY.D100.Costs.full" } },
      { label: "VOLLEY.D100.Card.Overwatch", value: { key: "VOLLEY.D100.Modes.short_burst" } },
      { label: "VOLLEY.D100.Card.Facing", value: "352°" },
      { label: "VOLLEY.D100.Card.Arc", value: "45°" },
      { label: "VOLLEY.D100.Card.Trigger", value: "anyone crosses the bridge" },
    ]);
    assert.deepEqual(d100CardExtras({ action: "overwatch", attacker: { overwatch: null } }), [
      { label: "VOLLEY.D100.Card.Overwatch", value: { key: "VOLLEY.D100.Card.Lifted" } },
    ]);
    assert.deepEqual(d100CardExtras({ action: "overwatch", attacker: { overwatch: { mode: "sideways", facing: "x" } } }), []);
  });

  it("says the rounds a jam spoiled and the rounds won back; nothing it cannot read", () => {
    assert.deepEqual(d100CardExtras({ action: "attack", mode: "long_burst", spent: 10, spoiled: 20 }).slice(-2), [
      { label: "VOLLEY.Card.RoundsFired", value: 10 },
      { label: "VOLLEY.D100.Card.Spoiled", value: 20 },
    ]);
    assert.deepEqual(d100CardExtras({ action: "recover_ammo", recovered: 20, action_cost: null }), [{ label: "VOLLEY.D100.Card.Recovered", value: 20 }]);
    assert.deepEqual(d100CardExtras({ action: "attack", mode: "<b>", action_cost: "third", spent: "10" }), []);
    assert.deepEqual(d100CardExtras(null), []);
  });
});

describe("the d100 words built from ids", () => {
  it("exist in English and Russian for every mode, band and action cost", async () => {
    const { readFileSync } = await import("node:fs");
    const { ATTACK_MODES, BANDS } = await import("../../vtt_module/scripts/systems/d100/modes.js");
    for (const lang of ["en", "ru"]) {
      const words = JSON.parse(readFileSync(new URL(`../../vtt_module/lang/systems/d100.${lang}.json`, import.meta.url), "utf8")).VOLLEY.D100;
      for (const id of Object.keys(DIALOG_MODES)) {
        assert.ok(words.DialogModes[id], `${lang}: DialogModes.${id}`);
        assert.ok(words.ModeHints[id], `${lang}: ModeHints.${id}`);
      }
      for (const id of ATTACK_MODES) assert.ok(words.Modes[id], `${lang}: Modes.${id}`);
      for (const id of [...BANDS, "beyond"]) assert.ok(words.Bands[id], `${lang}: Bands.${id}`);
      for (const id of ["half", "full"]) assert.ok(words.Costs[id], `${lang}: Costs.${id}`);
    }
  });
});

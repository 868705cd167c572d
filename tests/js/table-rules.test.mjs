// Table rules (the world setting `tableRules`): the one merge every request and preview goes through on
// the referee's browser, for each rule system; unknown systems, fields and bad values refused naming
// their path; a table that chose nothing sends exactly the requests it sent before.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { DEFAULT_ACTIONS, READINGS } from "../../vtt_module/scripts/table-rules/readings.js";
import {
  changedReadings,
  checkTableRules,
  migrateOverwatchSetting,
  onlyChanges,
  TableRuleError,
  tableReading,
  withTableRules,
} from "../../vtt_module/scripts/table-rules/table-rules.js";

const GURPS = { system: "gurps", attacker: { id: "a", skill: 12 }, weapon: { rof: 10, rcl: 2, loaded: 30 }, shots: 10, targets: [{ id: "t", dodge: 8 }] };
const MT_FIRE = { system: "megatraveller", action: "fire", mode: "burst", attacker: { id: "s", skill: 2, dex: 8 }, weapon: { burst: 3, loaded: 9 }, targets: [{ id: "t1" }, { id: "t2" }] };
const MT_SINGLE = { ...MT_FIRE, mode: "single", targets: [{ id: "t1" }] };
const MT_AUTO = { ...MT_FIRE, mode: "auto" };
const MT_RELOAD = { system: "megatraveller", action: "reload", attacker: { id: "s" }, weapon: { loaded: 0, capacity: 9 } };
const D100 = { system: "d100", action: "attack", mode: "single", attacker: { id: "a", bs: 40 }, weapon: { rof: "S/-/-", loaded: 6, range: 30 }, targets: [{ id: "t", band: "long" }] };

const refuses = (fn, field, key) => assert.throws(fn, (e) => e instanceof TableRuleError && e.field === field && e.key === key, `${field} ${key}`);

describe("withTableRules: each system", () => {
  it("GURPS: dodge_step reaches an attack (the default action), not a reload", () => {
    const rules = { gurps: { dodge_step: "rcl" } };
    assert.deepEqual(withTableRules("gurps", GURPS, rules), { ...GURPS, dodge_step: "rcl" });
    const reload = { system: "gurps", action: "reload", attacker: { id: "a" }, weapon: { loaded: 0, capacity: 30 } };
    assert.deepEqual(withTableRules("gurps", reload, rules), reload);
    assert.deepEqual(withTableRules("gurps", GURPS, { gurps: { dodge_step: 3 } }).dodge_step, 3);
  });

  it("MegaTraveller: split_dm_counts and exceptional_margin reach every firing action; fast_draw_weapons only fast_draw", () => {
    const rules = { megatraveller: { split_dm_counts: "receiving", exceptional_margin: 5, fast_draw_weapons: "any" } };
    assert.deepEqual(withTableRules("megatraveller", MT_FIRE, rules), { ...MT_FIRE, split_dm_counts: "receiving" });
    assert.equal(withTableRules("megatraveller", { ...MT_SINGLE, action: "fast_draw" }, rules).exceptional_margin, 5);
    const fastDraw = { ...MT_FIRE, action: "fast_draw" };
    assert.equal(withTableRules("megatraveller", fastDraw, rules).fast_draw_weapons, "any");
    assert.deepEqual(withTableRules("megatraveller", MT_RELOAD, rules), MT_RELOAD);
    const { action: _omitted, ...plain } = MT_FIRE;
    assert.equal(withTableRules("megatraveller", plain, rules).split_dm_counts, "receiving", "a request with no action is the default, fire");
  });

  it("MegaTraveller: the module's own readings a table changed are reported in module_readings, for firing actions only", () => {
    const rules = { megatraveller: { danger_space_half_width: 3, danger_space_beyond: 2, split_dm_counts: "receiving" } };
    // The reach keeps Volley's value: only the width the table changed travels.
    assert.deepEqual(withTableRules("megatraveller", MT_AUTO, rules), { ...MT_AUTO, module_readings: { danger_space_half_width: 3 } });
    assert.deepEqual(withTableRules("megatraveller", { ...MT_AUTO, action: "retarget_and_fire" }, rules).module_readings, { danger_space_half_width: 3 });
    assert.deepEqual(withTableRules("megatraveller", MT_RELOAD, rules), MT_RELOAD);
    assert.deepEqual(withTableRules("megatraveller", MT_AUTO, { megatraveller: { danger_space_half_width: 1, danger_space_beyond: 2 } }), MT_AUTO, "Volley's own values are not sent");
    const handMade = { ...MT_AUTO, module_readings: { danger_space_beyond: 4 } };
    assert.deepEqual(withTableRules("megatraveller", handMade, rules).module_readings, { danger_space_beyond: 4 }, "a request that reports its own stays as it is");
    assert.equal(tableReading("megatraveller", "danger_space_half_width", rules), 3);
    assert.equal(tableReading("megatraveller", "danger_space_beyond", {}), 2);
  });

  it("d100: range_modifiers reach attack and overwatch fire, every band written out", () => {
    const rules = { d100: { range_modifiers: { long: -20 } } };
    assert.deepEqual(withTableRules("d100", D100, rules).range_modifiers, { point_blank: 30, short: 10, combat: 0, long: -20, extreme: -30 });
    const overwatchFire = { ...D100, action: "overwatch_fire" };
    assert.equal(withTableRules("d100", overwatchFire, rules).range_modifiers.long, -20);
    const reload = { system: "d100", action: "reload", attacker: { id: "a", bs: 40 }, weapon: { loaded: 0 } };
    assert.deepEqual(withTableRules("d100", reload, rules), reload);
    assert.equal(tableReading("d100", "overwatch_ends_on_turn", { d100: { overwatch_ends_on_turn: false } }), false);
    const order = { system: "d100", action: "overwatch", attacker: { id: "a", bs: 40 } };
    const stands = { d100: { overwatch_ends_on_turn: false } };
    assert.deepEqual(withTableRules("d100", order, stands), { ...order, module_readings: { overwatch_ends_on_turn: false } });
    assert.deepEqual(withTableRules("d100", D100, stands), D100, "an attack does not carry the overwatch reading");
    assert.deepEqual(withTableRules("d100", order, { d100: { overwatch_ends_on_turn: true } }), order);
  });

  it("a reading travels only with a request it could change, so the card lists no reading that changed nothing (#35)", () => {
    const rules = {
      megatraveller: { split_dm_counts: "receiving", exceptional_margin: 0, danger_space_half_width: 3 },
      gurps: { dodge_step: "rcl" },
    };
    // A burst: no exceptional success, no danger space; two targets split the DM.
    assert.deepEqual(withTableRules("megatraveller", MT_FIRE, rules), { ...MT_FIRE, split_dm_counts: "receiving" });
    // Single fire: one target, no split; an exceptional success is possible.
    assert.deepEqual(withTableRules("megatraveller", MT_SINGLE, rules), { ...MT_SINGLE, exceptional_margin: 0 });
    // A burst at one target (a bystander is never counted): nothing to split.
    const oneTarget = { ...MT_FIRE, targets: [{ id: "t1" }, { id: "b", bystander: true }] };
    assert.deepEqual(withTableRules("megatraveller", oneTarget, rules), oneTarget);
    // Automatic fire: the danger space only.
    assert.deepEqual(withTableRules("megatraveller", MT_AUTO, rules), { ...MT_AUTO, module_readings: { danger_space_half_width: 3 } });
    // GURPS: the dodge step only where a target dodges.
    const noDodge = { ...GURPS, targets: [{ id: "t" }] };
    assert.deepEqual(withTableRules("gurps", noDodge, rules), noDodge);
    assert.equal(withTableRules("gurps", GURPS, rules).dodge_step, "rcl");
  });

  it("a field the request already carries stays as it is", () => {
    const handMade = { ...MT_FIRE, split_dm_counts: "designated" };
    assert.equal(withTableRules("megatraveller", handMade, { megatraveller: { split_dm_counts: "receiving" } }).split_dm_counts, "designated");
  });

  it("other systems' rules do not leak into a request", () => {
    assert.deepEqual(withTableRules("gurps", GURPS, { megatraveller: { split_dm_counts: "receiving" } }), GURPS);
  });
});

describe("withTableRules: defaults untouched", () => {
  for (const empty of [undefined, null, {}, { gurps: {} }, { megatraveller: {}, d100: {} }]) {
    it(`sends the request as built with the setting ${JSON.stringify(empty)}`, () => {
      for (const request of [GURPS, MT_FIRE, MT_RELOAD, D100]) {
        const merged = withTableRules(request.system, request, empty);
        assert.deepEqual(merged, request);
      }
    });
  }

  it("a table value equal to Volley's reading is not sent", () => {
    for (const [system, readings] of Object.entries(READINGS)) {
      const rules = { [system]: Object.fromEntries(readings.map((r) => [r.field, r.default])) };
      const request = { system, action: DEFAULT_ACTIONS[system] };
      assert.deepEqual(withTableRules(system, request, rules), request, system);
      assert.deepEqual(changedReadings(system, rules), [], system);
    }
  });

  it("never changes the request it is given", () => {
    const before = structuredClone(MT_FIRE);
    withTableRules("megatraveller", MT_FIRE, { megatraveller: { split_dm_counts: "receiving" } });
    assert.deepEqual(MT_FIRE, before);
  });
});

describe("checkTableRules: bad values refused with their path", () => {
  it("unknown fields and systems", () => {
    refuses(() => withTableRules("megatraveller", MT_FIRE, { megatraveller: { split_dm_count: "receiving" } }), "tableRules.megatraveller.split_dm_count", "VOLLEY.TableRules.Errors.Unknown");
    refuses(() => checkTableRules({ traveller: {} }), "tableRules.traveller", "VOLLEY.TableRules.Errors.UnknownSystem");
    refuses(() => checkTableRules({ d100: { range_modifiers: { far: -40 } } }), "tableRules.d100.range_modifiers.far", "VOLLEY.TableRules.Errors.Unknown");
    refuses(() => checkTableRules([]), "tableRules", "VOLLEY.TableRules.Errors.NotObject");
    refuses(() => checkTableRules({ gurps: 3 }), "tableRules.gurps", "VOLLEY.TableRules.Errors.NotObject");
  });

  it("values outside the declaration", () => {
    refuses(() => checkTableRules({ megatraveller: { split_dm_counts: "some" } }), "tableRules.megatraveller.split_dm_counts", "VOLLEY.TableRules.Errors.OneOf");
    refuses(() => checkTableRules({ megatraveller: { exceptional_margin: 31 } }), "tableRules.megatraveller.exceptional_margin", "VOLLEY.Form.AtMost");
    refuses(() => checkTableRules({ megatraveller: { exceptional_margin: 2.5 } }), "tableRules.megatraveller.exceptional_margin", "VOLLEY.TableRules.Errors.WholeNumber");
    refuses(() => checkTableRules({ megatraveller: { danger_space_half_width: -1 } }), "tableRules.megatraveller.danger_space_half_width", "VOLLEY.Form.AtLeast");
    refuses(() => checkTableRules({ gurps: { dodge_step: 0 } }), "tableRules.gurps.dodge_step", "VOLLEY.Form.AtLeast");
    refuses(() => checkTableRules({ gurps: { dodge_step: "half" } }), "tableRules.gurps.dodge_step", "VOLLEY.TableRules.Errors.OneOf");
    refuses(() => checkTableRules({ d100: { range_modifiers: { long: 500 } } }), "tableRules.d100.range_modifiers.long", "VOLLEY.Form.AtMost");
    refuses(() => checkTableRules({ d100: { overwatch_ends_on_turn: "no" } }), "tableRules.d100.overwatch_ends_on_turn", "VOLLEY.TableRules.Errors.OnOrOff");
    assert.deepEqual(checkTableRules({ gurps: { dodge_step: 7 } }), { gurps: { dodge_step: 7 } }, "any whole step in range, not only the menu's");
  });

  it("a bad stored value of a module reading falls back to Volley's, never breaks the dialog", () => {
    assert.equal(tableReading("megatraveller", "danger_space_beyond", { megatraveller: { danger_space_beyond: "far" } }), 2);
  });
});

describe("what the menu saves", () => {
  it("only the readings that differ, and a band table only its moved bands", () => {
    const shown = {
      gurps: { dodge_step: 1 },
      megatraveller: { split_dm_counts: "receiving", exceptional_margin: 4, fast_draw_weapons: "small", danger_space_half_width: 1, danger_space_beyond: 3 },
      d100: { range_modifiers: { point_blank: 30, short: 10, combat: 0, long: -20, extreme: -30 }, overwatch_ends_on_turn: true },
    };
    assert.deepEqual(onlyChanges(shown), { megatraveller: { split_dm_counts: "receiving", danger_space_beyond: 3 }, d100: { range_modifiers: { long: -20 } } });
    assert.deepEqual(
      changedReadings("megatraveller", onlyChanges(shown)).map(({ reading }) => reading.field),
      ["split_dm_counts", "danger_space_beyond"],
    );
  });
});

describe("the old overwatchEndsOnTurn setting", () => {
  it("a table that turned it off keeps it off as a table rule", () => {
    assert.deepEqual(migrateOverwatchSetting({}, false), { d100: { overwatch_ends_on_turn: false } });
    assert.deepEqual(migrateOverwatchSetting({ gurps: { dodge_step: 2 } }, false), { gurps: { dodge_step: 2 }, d100: { overwatch_ends_on_turn: false } });
  });
  it("nothing moves when it was on, never set, or already moved", () => {
    assert.equal(migrateOverwatchSetting({}, true), null);
    assert.equal(migrateOverwatchSetting({}, undefined), null);
    assert.equal(migrateOverwatchSetting({ d100: { overwatch_ends_on_turn: true } }, false), null);
  });
});

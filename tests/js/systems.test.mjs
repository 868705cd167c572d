// The rule-system plug-ins: the registry, the defaults from the game system, where results land, and
// GURPS's request builder, which reads every number from the actor and only choices from the player.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { FormError } from "../../vtt_module/scripts/fields.js";
import { buildGurpsRequest, DEFAULT_ARMOURY } from "../../vtt_module/scripts/systems/gurps/requests.js";
import { parseRof, rofShots } from "../../vtt_module/scripts/systems/gurps/notation.js";
import { allSystems, defaultRuleSystem, systemPlugin } from "../../vtt_module/scripts/systems/index.js";
import { registerSystem } from "../../vtt_module/scripts/registry.js";

describe("registry", () => {
  it("has GURPS, MegaTraveller and d100, each with everything the framework calls", () => {
    assert.deepEqual(allSystems().map((p) => p.id), ["gurps", "megatraveller", "d100"]);
    for (const plugin of allSystems()) {
      for (const part of ["label", "gameSystems", "profile", "readout", "weaponStateKey", "buildRequest", "previewActions"]) {
        assert.ok(part in plugin, `${plugin.id}.${part}`);
      }
    }
    assert.equal(typeof systemPlugin("gurps").dialog, "function");
    assert.equal(systemPlugin("nope"), null);
    assert.equal(systemPlugin(undefined), null);
  });

  it("every system's profile refuses more rounds than the magazine holds, beside the rounds field", () => {
    for (const plugin of allSystems()) {
      const weapon = (loaded) => ({ id: "w", system: plugin.id, name: "w", stats: { capacity: 30 }, state: { loaded } });
      assert.deepEqual(plugin.profile.check(weapon(30)), [], plugin.id);
      assert.deepEqual(plugin.profile.check(weapon(31)), [{ field: "state.loaded", problem: { key: "VOLLEY.Form.AtMost", values: { max: 30 } } }], plugin.id);
      assert.deepEqual(plugin.profile.check(weapon("31")), [], `${plugin.id}: a rounds field not yet a number is its own problem`);
    }
  });

  it("refuses a second plug-in with the same id, and one without its parts", () => {
    assert.throws(() => registerSystem(systemPlugin("gurps")), /registered twice/);
    assert.throws(() => registerSystem({ id: "x" }), /lacks profile/);
    assert.throws(() => registerSystem({}), /needs an id/);
  });

  it("defaults the world's rule system from the game system where it is obvious", () => {
    assert.equal(defaultRuleSystem("gurps"), "gurps");
    assert.equal(defaultRuleSystem("twodsix"), "megatraveller");
    assert.equal(defaultRuleSystem("dark-heresy-2e"), "d100");
    assert.equal(defaultRuleSystem("dark-heresy"), "d100");
    assert.equal(defaultRuleSystem("dnd5e"), "");
    assert.equal(defaultRuleSystem(undefined), "");
  });

  it("maps a result's state keys to the weapon that fired, or to the token", () => {
    const gurps = systemPlugin("gurps");
    const mt = systemPlugin("megatraveller");
    assert.equal(gurps.weaponStateKey("weapon.loaded"), "loaded");
    assert.equal(gurps.weaponStateKey("weapon."), null);
    assert.equal(gurps.weaponStateKey("overwatch"), null);
    assert.equal(mt.weaponStateKey("readiness"), "readiness", "MegaTraveller readiness belongs to the weapon");
    assert.equal(mt.weaponStateKey("selector"), "selector");
    assert.equal(mt.weaponStateKey("target"), null, "the target lock is the shooter's");
    assert.equal(systemPlugin("d100").weaponStateKey("weapon.spoiled"), "spoiled");
  });

  it("every system has its attack dialog, loaded lazily", () => {
    for (const plugin of allSystems()) assert.equal(typeof plugin.dialog, "function", plugin.id);
  });
});

describe("GURPS notation", () => {
  it("reads RoF as the weapon tables print it", () => {
    assert.deepEqual(parseRof("13"), { value: 13 });
    assert.deepEqual(parseRof("3×9"), { value: "3x9" });
    assert.deepEqual(parseRof("0"), { problem: { key: "VOLLEY.Gurps.Notation.RofAtLeastOne" } });
    assert.equal(parseRof("3x").problem.key, "VOLLEY.Gurps.Notation.Rof");
    assert.deepEqual([13, "3x9", "junk", null].map(rofShots), [13, 3, 1, 1]);
  });
});

describe("buildGurpsRequest", () => {
  const weapon = {
    id: "wMp5",
    system: "gurps",
    name: "MP5",
    skill: 14,
    stats: { rof: 13, rcl: 2, capacity: 30, malf: 17 },
    state: { loaded: 30, jammed: false },
  };
  const targets = new Map([
    ["t1", { id: "t1", name: "Raider", character: { dodge: 8 }, statuses: [], state: {} }],
    ["t2", { id: "t2", name: "Lookout", character: {}, statuses: [], state: {} }],
  ]);
  const context = (over = {}) => ({
    shooter: { id: "tHale", name: "Sgt. Hale" },
    weapon,
    character: { armoury: 12, iq_minus_dx: -1 },
    targets,
    ...over,
  });
  const choice = (over = {}) => ({
    system: "gurps",
    token: "tHale",
    weapon: "wMp5",
    action: "attack",
    modifier: 1,
    targets: [
      { id: "t1", shots: 5, modifier: -2, dodges: true },
      { id: "t2", shots: 3, modifier: 0 },
    ],
    ...over,
  });

  it("builds the attack from the actor's numbers and the player's choices", () => {
    const built = buildGurpsRequest(choice(), context());
    assert.equal(built.type, "attack");
    assert.deepEqual(built.request, {
      system: "gurps",
      action: "attack",
      attacker: { id: "tHale", name: "Sgt. Hale", skill: 15 },
      weapon: { name: "MP5", loaded: 30, malf: 17, jammed: false, capacity: 30, rof: 13, rcl: 2 },
      shots: 8,
      targets: [
        { id: "t1", name: "Raider", modifier: -2, shots: 5, dodge: 8 },
        { id: "t2", name: "Lookout", modifier: 0, shots: 3 },
      ],
    });
  });

  it("ignores what a player's browser has no say in: skill, rounds, dice, a target's Dodge", () => {
    const cheat = choice({ skill: 30, loaded: 999, dice: [1, 1, 1], weapon: "wMp5", targets: [{ id: "t1", shots: 2, dodge: 0 }] });
    const { request } = buildGurpsRequest(cheat, context());
    assert.equal(request.attacker.skill, 15);
    assert.equal(request.weapon.loaded, 30);
    assert.equal("dice" in request, false);
    assert.equal(request.targets[0].dodge, 8);
    const noDodge = buildGurpsRequest(choice({ targets: [{ id: "t1", shots: 2, dodges: false }] }), context());
    assert.equal("dodge" in noDodge.request.targets[0], false, "the player may say a target cannot dodge (unaware)");
  });

  it("refuses a bad choice naming the field, before anything is asked", () => {
    const refuse = (over, field, key) =>
      assert.throws(() => buildGurpsRequest(choice(over), context()), (e) => e instanceof FormError && e.field === field && e.key === key);
    refuse({ targets: [{ id: "t1", shots: 0 }] }, "targets", "VOLLEY.Form.NoShots");
    refuse({ targets: [{ id: "nobody", shots: 2 }] }, "targets.0.id", "VOLLEY.Form.UnknownTarget");
    refuse({ targets: [{ id: "t1", shots: "two" }] }, "targets.0.shots", "VOLLEY.Form.WholeNumber");
    refuse({ targets: [{ id: "t1", shots: 2, modifier: 99 }] }, "targets.0.modifier", "VOLLEY.Form.AtMost");
    refuse({ modifier: -31 }, "modifier", "VOLLEY.Form.AtLeast");
    refuse({ action: "dance" }, "action", "VOLLEY.Form.OneOf");
    assert.throws(
      () => buildGurpsRequest(choice(), context({ weapon: { ...weapon, skill: undefined } })),
      (e) => e.field === "weapon.skill" && e.key === "VOLLEY.Form.NotSet",
    );
  });

  it("reloads to capacity and keeps a jam as it is", () => {
    const jammed = { ...weapon, state: { loaded: 4, jammed: true, malfunction: "stoppage" } };
    const { type, request } = buildGurpsRequest(choice({ action: "reload" }), context({ weapon: jammed }));
    assert.equal(type, "action");
    assert.deepEqual(request, {
      system: "gurps",
      action: "reload",
      attacker: { id: "tHale", name: "Sgt. Hale" },
      weapon: { name: "MP5", loaded: 4, malf: 17, jammed: true, capacity: 30, malfunction: "stoppage" },
    });
  });

  it("clears a jam with Armoury (or its default) or the IQ-based weapon skill", () => {
    const jammed = { ...weapon, state: { loaded: 4, jammed: true, malfunction: "misfire" } };
    const armoury = buildGurpsRequest(choice({ action: "unjam", using: "armoury", modifier: -1 }), context({ weapon: jammed })).request;
    assert.deepEqual([armoury.skill, armoury.using, armoury.modifier], [12, "armoury", -1]);
    const none = buildGurpsRequest(choice({ action: "unjam" }), context({ weapon: jammed, character: {} })).request;
    assert.equal(none.skill, DEFAULT_ARMOURY);
    const iq = buildGurpsRequest(choice({ action: "unjam", using: "weapon", modifier: 0 }), context({ weapon: jammed })).request;
    assert.deepEqual([iq.skill, iq.using], [13, "weapon"], "weapon skill 14 with IQ one below DX");
  });
});

describe("buildGurpsRequest says the RoF and magazine limits in the player's words", () => {
  const weapon = { id: "w", system: "gurps", name: "MP5", skill: 14, stats: { rof: 13, rcl: 2, capacity: 30, malf: 17 }, state: { loaded: 5 } };
  const targets = new Map([["t1", { id: "t1", name: "Raider", character: {}, statuses: [], state: {} }]]);
  const context = { shooter: { id: "s", name: "S" }, weapon, character: {}, targets };
  const fire = (shots, over = {}) => buildGurpsRequest({ system: "gurps", token: "s", weapon: "w", action: "attack", targets: [{ id: "t1", shots }] }, { ...context, ...over });

  it("refuses more shots than RoF, and more than are loaded", () => {
    assert.throws(() => fire(14, { weapon: { ...weapon, state: { loaded: 30 } } }), (e) => e.key === "VOLLEY.Gurps.Form.OverRof" && e.values.rof === 13);
    assert.throws(() => fire(6), (e) => e.key === "VOLLEY.Gurps.Form.OverLoaded" && e.values.loaded === 5);
    assert.equal(fire(5).request.shots, 5);
    const shotgun = { ...weapon, stats: { ...weapon.stats, rof: "3x9" } };
    assert.throws(() => fire(4, { weapon: shotgun }), (e) => e.values.rof === 3);
  });
});

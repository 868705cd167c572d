// What the MegaTraveller dialog works out before it asks anything: the default splits (the book's
// examples), the danger space and the lines of fire from where tokens stand, who an attack lists in each
// mode, and what the shot will cost in plain words.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { FormError } from "../../vtt_module/scripts/fields.js";
import { defaultFiringAction, firingPlan, handlingActions } from "../../vtt_module/scripts/systems/megatraveller/actions.js";
import { closerTokens, DANGER_SPACE, inDangerSpace, onLineOfFire } from "../../vtt_module/scripts/systems/megatraveller/danger-space.js";
import { choiceTargets, lineup } from "../../vtt_module/scripts/systems/megatraveller/lineup.js";
import { maxTargets, modeForSelector, weaponModes, weaponSelectors } from "../../vtt_module/scripts/systems/megatraveller/modes.js";
import { checkBulletSplit, checkClusterSplit, clusterBullets, defaultBulletSplit, defaultClusterSplit } from "../../vtt_module/scripts/systems/megatraveller/split.js";

const AUTORIFLE = { kind: "rifle", rapid: false, burst: 4, auto: true, auto_targets: 2, capacity: 20 };
const AUTOPISTOL = { kind: "pistol", rapid: true, burst: null, auto: false, auto_targets: 1, capacity: 15 };

describe("the weapon's modes", () => {
  it("offers only what the weapon has", () => {
    assert.deepEqual(weaponModes(AUTORIFLE), ["single", "burst", "auto", "controlled"]);
    assert.deepEqual(weaponModes(AUTOPISTOL), ["single", "rapid"]);
    assert.deepEqual(weaponModes({ burst: 5 }), ["single"], "a burst the RCS does not know is no burst");
    assert.deepEqual(weaponSelectors(AUTORIFLE), ["single", "burst", "auto"]);
    assert.deepEqual([modeForSelector(AUTORIFLE, "auto"), modeForSelector(AUTORIFLE, "burst"), modeForSelector(AUTOPISTOL, "auto")], ["auto", "burst", "single"]);
    assert.deepEqual(["single", "rapid", "burst", "auto"].map((m) => maxTargets(m, AUTORIFLE)), [1, 3, 3, 2]);
    assert.equal(maxTargets("controlled", { auto_targets: 0 }), 1);
  });
});

describe("default splits (rules/megatraveller/allocation.py's)", () => {
  it("deals Jong Wu's four bullets 2/1/1, primary first", () => {
    assert.deepEqual(defaultBulletSplit(4, 3), [2, 1, 1]);
    assert.deepEqual(defaultBulletSplit(3, 2), [2, 1]);
    assert.deepEqual(defaultBulletSplit(4, 0), []);
  });

  it("gives Honjo's 3, 6, 6, 1 as he did: 6+3 to the main bird, 6 to the second, 1 to his squadmate", () => {
    const split = defaultClusterSplit([3, 6, 6, 1], [false, false, true]);
    assert.deepEqual(split, [[1, 0], [2], [3]]);
    assert.deepEqual(clusterBullets([3, 6, 6, 1], split), [9, 6, 1]);
  });

  it("with fewer clusters than tokens, the largest go to the chosen targets and bystanders get what is left", () => {
    assert.deepEqual(defaultClusterSplit([2, 5], [false, true, false]), [[1], [], [0]]);
    assert.deepEqual(defaultClusterSplit([4], [false, true]), [[0], []]);
  });

  it("checks a split made by hand", () => {
    checkBulletSplit([2, 1, 1], 4);
    checkClusterSplit([[1, 0], [2], [3]], [3, 6, 6, 1]);
    assert.throws(() => checkBulletSplit([1, 2], 3), (e) => e instanceof FormError && e.field === "allocation.1" && e.values.primary === 1);
    assert.throws(() => checkClusterSplit([[0], [1]], [3, 6, 6]), (e) => e.key === "VOLLEY.MegaTraveller.Form.ClustersLeft" && e.values.clusters === "3");
  });
});

describe("the danger space and the lines of fire", () => {
  const shooter = { id: "s", x: 0, y: 0 };
  const target = { id: "t", x: 4, y: 0 };

  it("measures along and across a line of fire, in squares", () => {
    assert.deepEqual(onLineOfFire(shooter, target, { id: "a", x: 2, y: 1 }), { along: 2, across: 1, length: 4 });
  });

  it("finds the tokens nearer the shooter in a line of fire, nearest first", () => {
    const others = [{ id: "far", x: 3, y: 0.5 }, { id: "near", x: 1, y: -0.5 }, { id: "wide", x: 2, y: 1.5 }, { id: "behind", x: 5, y: 0 }, { id: "back", x: -1, y: 0 }];
    assert.deepEqual(closerTokens(shooter, target, others), ["near", "far"]);
  });

  it("finds the tokens in automatic fire's danger space: a square either side, two past the target", () => {
    const others = [{ id: "past", x: 5.5, y: 0.4 }, { id: "toofar", x: 6.5, y: 0 }, { id: "side", x: 2, y: -1 }, { id: "off", x: 2, y: 1.5 }, { id: "t", x: 4, y: 0 }];
    assert.deepEqual(inDangerSpace(shooter, [target], others), ["past", "side"]);
    assert.deepEqual(inDangerSpace(shooter, [target], others, { ...DANGER_SPACE, halfWidth: 2 }), ["past", "side", "off"]);
  });
});

describe("lineup: who an attack lists", () => {
  // The sandbox's MegaTraveller scene, token centres in squares (tokens 2 x 1 squares on a 70 px grid):
  // Kira, three Vargr targeted, Cpl. Dace just past the leader.
  const scene = [
    { id: "kira", name: "Kira Rhyne", x: 1.29, y: 2.79 },
    { id: "raider", name: "Vargr raider", x: 5.29, y: 0.93 },
    { id: "leader", name: "Vargr leader", x: 5.57, y: 2.93 },
    { id: "scout", name: "Vargr scout", x: 5.14, y: 4.93 },
    { id: "dace", name: "Cpl. Dace", x: 7.29, y: 3.36 },
  ];
  const targeted = scene.slice(1, 4).map(({ id, name }) => ({ id, name }));
  const layout = (over = {}) =>
    lineup({ mode: "auto", stats: AUTORIFLE, shooter: scene[0], targeted, primary: null, lock: "raider", scene, drafts: new Map(), added: [], ...over });
  const roles = (laid) => laid.rows.map((row) => [row.id, row.role]);

  it("automatic fire: Auto Tgts 2 chosen, the ally past the leader a bystander, the scout left out", () => {
    const laid = layout();
    assert.deepEqual(roles(laid), [["raider", "target"], ["leader", "target"], ["dace", "bystander"], ["scout", "out"]]);
    assert.deepEqual([laid.primary, laid.chosen, laid.max, laid.problem], ["raider", 2, 2, null]);
    assert.deepEqual(choiceTargets(laid.rows, "auto").targets, [
      { id: "raider", difficulty: "routine", dm: "0" },
      { id: "leader", difficulty: "routine", dm: "0" },
      { id: "dace", difficulty: "routine", dm: "0", bystander: true },
    ]);
  });

  it("the primary is the lock unless the player picks another; the player's roles stand", () => {
    assert.equal(layout({ lock: "leader" }).rows[0].id, "leader");
    assert.equal(layout({ primary: "scout" }).rows[0].id, "scout");
    const drafts = new Map([["leader", { role: "out" }], ["dace", { role: "out" }], ["scout", { role: "target" }]]);
    // Aimed at the raider and the scout, the danger space no longer reaches Cpl. Dace: he is not listed.
    assert.deepEqual(roles(layout({ drafts })), [["raider", "target"], ["scout", "target"], ["leader", "out"]]);
    // A target the player sets takes a slot before the defaults do; setting more than Auto Tgts is said.
    assert.deepEqual(roles(layout({ drafts: new Map([["scout", { role: "target" }]]) })).slice(0, 2), [["raider", "target"], ["scout", "target"]]);
    const tooMany = layout({ drafts: new Map([["scout", { role: "target" }], ["leader", { role: "target" }]]) });
    assert.deepEqual([tooMany.problem?.key, tooMany.chosen], ["VOLLEY.MegaTraveller.Form.TooManyTargets", 3]);
  });

  it("single fire takes the primary only; burst fire deals its bullets and names the lines of fire", () => {
    assert.deepEqual(roles(layout({ mode: "single" })), [["raider", "target"], ["leader", "out"], ["scout", "out"]]);
    const burst = layout({ mode: "burst" });
    assert.deepEqual(burst.rows.map((row) => row.bullets), ["2", "1", "1"]);
    assert.deepEqual(choiceTargets(burst.rows, "burst").bullets, ["2", "1", "1"]);
    const typed = layout({ mode: "burst", drafts: new Map([["raider", { bullets: "2" }], ["leader", { bullets: "2" }], ["scout", { bullets: "0" }]]) });
    assert.deepEqual(typed.rows.map((row) => row.bullets), ["2", "2", "0"]);
    // The raider's line of fire from Kira passes nobody: strays miss unless the player names someone nearer.
    assert.equal(burst.rows[0].closer, "");
    assert.ok(burst.rows[0].closerOptions.every((o) => o.id !== "raider"));
  });

  it("lists a token the player adds to the danger space", () => {
    const laid = layout({ added: ["scout"], drafts: new Map([["scout", { role: "bystander" }]]) });
    assert.deepEqual(roles(laid).find(([id]) => id === "scout"), ["scout", "bystander"]);
    assert.deepEqual(layout().addable, []);
  });
});

describe("what the shot costs (RCS: Readying a Weapon, Targetting and Firing)", () => {
  const shooter = (over = {}) => ({
    weapon: "Autorifle", stats: AUTORIFLE, readiness: "ready", selector: "auto", loaded: 20, capacity: 20,
    lock: "raider", lockName: "Vargr raider", skill: 2, dex: 10, ...over,
  });
  const aim = (over = {}) => ({ mode: "auto", how: "fire", primary: "raider", primaryName: "Vargr raider", designated: 2, ...over });
  const key = (words) => words?.key.replace("VOLLEY.MegaTraveller.", "") ?? null;

  it("fires at the locked target in one action", () => {
    const plan = firingPlan(shooter(), aim());
    assert.deepEqual([key(plan.blocked), key(plan.charge)], [null, "Charge.Fire"]);
    assert.equal(plan.dms.values.total, "+4");
  });

  it("the splitting DM: designated by Volley's reading; under split_dm_counts \"receiving\" the bullets given, or after the roll when the roll decides them", () => {
    const rapid = shooter({ selector: "single", stats: { ...AUTORIFLE, rapid: true } });
    const designated = firingPlan(rapid, aim({ mode: "rapid", designated: 3 })).dms;
    assert.deepEqual([key(designated), designated.values.split, designated.values.total], ["Charge.Dms", "−3", "+1"]);
    const burst = firingPlan(shooter({ selector: "burst" }), aim({ mode: "burst", designated: 3, counted: 1 })).dms;
    assert.deepEqual([key(burst), burst.values.split, burst.values.total], ["Charge.Dms", "", "+4"]);
    // Rapid fire's bullets are rolled: the line must not show the designated count as if it applied.
    const waits = firingPlan(rapid, aim({ mode: "rapid", designated: 3, counted: null })).dms;
    assert.deepEqual([key(waits), waits.values.split, waits.values.worst, waits.values.total], ["Charge.DmsSplitAfterRoll", "", "−3", "+4"]);
  });

  it("says what has to happen first: draw, unsling and ready, ready", () => {
    assert.equal(key(firingPlan(shooter({ readiness: "holstered" }), aim()).blocked), "Charge.NeedDraw");
    assert.equal(key(firingPlan(shooter({ readiness: "slung" }), aim()).blocked), "Charge.NeedUnsling");
    assert.equal(key(firingPlan(shooter({ readiness: "carried" }), aim()).blocked), "Charge.NeedReady");
    assert.equal(key(firingPlan(shooter({ loaded: 0 }), aim()).blocked), "Charge.Empty");
    assert.equal(key(firingPlan(shooter({ loaded: 3 }), aim({ mode: "burst" })).blocked), "Charge.ShortBurst");
  });

  it("locked elsewhere: retarget and fire pays the bring-to-bear DM", () => {
    const elsewhere = aim({ primary: "leader", primaryName: "Vargr leader" });
    assert.equal(key(firingPlan(shooter(), elsewhere).blocked), "Charge.LockedElsewhere");
    const plan = firingPlan(shooter(), { ...elsewhere, how: "retarget_and_fire" });
    assert.deepEqual([key(plan.charge), plan.charge.values.dm, plan.dms.values.total], ["Charge.RetargetAndFire", "−2", "+2"]);
    assert.equal(defaultFiringAction(shooter(), "leader"), "retarget_and_fire");
  });

  it("fast draw fires a holstered pistol at DM −2, and cannot move the selector", () => {
    const pistol = shooter({ weapon: "Autopistol", stats: AUTOPISTOL, readiness: "holstered", selector: "single", lock: null, lockName: "" });
    assert.equal(defaultFiringAction(pistol, "raider"), "fast_draw");
    const plan = firingPlan(pistol, aim({ mode: "rapid", how: "fast_draw", designated: 3 }));
    assert.deepEqual([key(plan.blocked), key(plan.charge), plan.dms.values.total], [null, "Charge.FastDraw", "−1"]);
    const machinePistol = { ...pistol, stats: { ...AUTOPISTOL, burst: 3 }, selector: "single" };
    const offSelector = firingPlan(machinePistol, aim({ mode: "burst", how: "fast_draw" }));
    assert.equal(key(offSelector.blocked), "Charge.FastDrawSelector");
  });

  it("fast draw is for a holstered pistol: a rifle is refused by its kind, a ready weapon by its readiness", () => {
    const rifle = shooter({ readiness: "holstered", selector: "single" });
    assert.equal(defaultFiringAction(rifle, "raider"), "fire");
    const kind = firingPlan(rifle, aim({ how: "fast_draw", mode: "single" }));
    assert.deepEqual([key(kind.blocked), kind.blocked.values.kind], ["Charge.FastDrawKind", { i18n: "VOLLEY.MegaTraveller.Kinds.rifle" }]);
    const pistol = shooter({ weapon: "Autopistol", stats: AUTOPISTOL, readiness: "ready", selector: "single" });
    assert.equal(key(firingPlan(pistol, aim({ how: "fast_draw", mode: "single" })).blocked), "Charge.FastDrawReady");
    assert.equal(key(firingPlan({ ...pistol, readiness: "slung" }, aim({ how: "fast_draw", mode: "single" })).blocked), "Charge.FastDrawHolster");
  });

  it("a table that reads Fast Draw as any weapon (fast_draw_weapons: any) may fast-draw a rifle or a ready weapon", () => {
    const rifle = shooter({ readiness: "holstered", selector: "single" });
    assert.equal(defaultFiringAction(rifle, "raider", "any"), "fast_draw");
    const drawn = firingPlan(rifle, aim({ how: "fast_draw", mode: "single", fastDrawWeapons: "any" }));
    assert.deepEqual([key(drawn.blocked), key(drawn.charge)], [null, "Charge.FastDraw"]);
    const ready = firingPlan({ ...rifle, readiness: "ready" }, aim({ how: "fast_draw", mode: "single", fastDrawWeapons: "any" }));
    assert.deepEqual([key(ready.blocked), key(ready.charge)], [null, "Charge.FastDrawInHand"]);
    const slung = firingPlan({ ...rifle, readiness: "slung" }, aim({ how: "fast_draw", mode: "single", fastDrawWeapons: "any" }));
    assert.equal(key(slung.blocked), "Charge.FastDrawFrom");
  });

  it("firing off the selector's setting costs a difficulty level, said as a note", () => {
    const plan = firingPlan(shooter({ selector: "single" }), aim());
    assert.ok(plan.notes.some((note) => key(note) === "Charge.SelectorFlip"));
  });

  it("offers the handling actions that change something now", () => {
    const actions = (over, aimOver) => handlingActions(shooter(over), aim(aimOver)).map((a) => [a.action, key(a.blocked)]);
    // Draw a Small Weapon draws a pistol, as the engine's reading 10 has it (#31); "any" draws the rifle.
    assert.deepEqual(actions({ readiness: "holstered" }), [["draw", "Handling.DrawKind"], ["reload", "Handling.Full"]]);
    assert.deepEqual(actions({ readiness: "holstered" }, { fastDrawWeapons: "any" }), [["draw", null], ["reload", "Handling.Full"]]);
    assert.deepEqual(actions({ readiness: "holstered", stats: { kind: "pistol", capacity: 20 } }), [["draw", null], ["reload", "Handling.Full"]]);
    assert.deepEqual(actions({ readiness: "slung", loaded: 3 }), [["unsling", null], ["reload", null]]);
    assert.deepEqual(actions({ readiness: "carried", selector: "single" }), [["ready", null], ["select_mode", null], ["reload", "Handling.Full"]]);
    assert.deepEqual(actions({}, { primary: "leader", primaryName: "Vargr leader" }), [["retarget", null], ["reload", "Handling.Full"]]);
    assert.deepEqual(actions({ capacity: null }), [["reload", "Handling.NoCapacity"]]);
  });
});

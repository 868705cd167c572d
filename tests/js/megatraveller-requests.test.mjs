// MegaTraveller requests built by the referee's browser: the book's worked examples come out as the
// rules requests in docs/examples/megatraveller/, every number read from the actor, only choices from
// the player; a bad choice refused naming its field; the allocation step's `allocate`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";

import { FormError } from "../../vtt_module/scripts/fields.js";
import { systemPlugin } from "../../vtt_module/scripts/systems/index.js";
import { buildMegaTravellerAllocation } from "../../vtt_module/scripts/systems/megatraveller/requests.js";

const mt = systemPlugin("megatraveller");

/** A book example as the rules take it, with the defaults written out and no scripted dice. */
function example(name) {
  const request = JSON.parse(readFileSync(new URL(`../../docs/examples/megatraveller/${name}.json`, import.meta.url), "utf8"));
  delete request.dice;
  request.action ??= "fire";
  request.targets = request.targets.map((t) => ({ ...t, difficulty: t.difficulty ?? "routine", dm: t.dm ?? 0 }));
  return request;
}

/** @param {[string, string][]} tokens id and name of each token the choice names */
function targetsOf(tokens) {
  return new Map(tokens.map(([id, name]) => [id, { id, name, character: {}, statuses: [], state: {} }]));
}

const refuses = (fn, field, key) => assert.throws(fn, (e) => e instanceof FormError && e.field === field && e.key === key, `${field} ${key}`);

describe("buildMegaTravellerRequest: the book's examples", () => {
  it("Jong Wu's fast draw with rapid fire at three guards", () => {
    const context = {
      shooter: { id: "jw", name: "Jong Wu", state: {} },
      weapon: { id: "w1", system: "megatraveller", name: "Autopistol", skill: 5, stats: { kind: "pistol", rapid: true, burst: null, auto: false, auto_targets: 0, capacity: 15 }, state: { loaded: 15, readiness: "holstered", selector: "single" } },
      character: { dex: 13 },
      targets: targetsOf([["g2", "central guard"], ["g1", "left guard"], ["g3", "right guard"]]),
    };
    const choice = {
      system: "megatraveller", token: "jw", weapon: "w1", action: "attack", how: "fast_draw", mode: "rapid",
      targets: [{ id: "g2" }, { id: "g1", difficulty: "routine", dm: "0" }, { id: "g3" }],
      allocation: [2, 1, 1],
    };
    const built = mt.buildRequest(choice, context);
    assert.equal(built.type, "attack");
    assert.deepEqual(built.request, example("jong_wu_fast_draw_rapid"));
  });

  it("Honjo Boram's retarget and fire on automatic, his squadmate caught in the danger space", () => {
    const context = {
      shooter: { id: "hb", name: "Honjo Boram", state: { target: "bird0" } },
      weapon: { id: "w1", system: "megatraveller", name: "Autorifle", skill: 3, stats: { kind: "rifle", rapid: false, burst: null, auto: true, auto_targets: 2, capacity: 20 }, state: { loaded: 20, readiness: "ready", selector: "auto" } },
      character: { dex: 9 },
      targets: targetsOf([["bird1", "main bird"], ["bird2", "second bird"], ["ally", "squadmate"]]),
    };
    const choice = {
      system: "megatraveller", token: "hb", weapon: "w1", action: "attack", how: "retarget_and_fire", mode: "auto",
      targets: [{ id: "bird1" }, { id: "bird2" }, { id: "ally", bystander: true }],
      allocation: "default",
    };
    assert.deepEqual(mt.buildRequest(choice, context).request, example("honjo_boram_auto_retarget"));
  });

  it("Kira Rhyne's burst at two Vargr, the raider's strays going on to a crate", () => {
    const context = {
      shooter: { id: "kr", name: "Kira Rhyne", state: { target: "v1" } },
      weapon: { id: "w1", system: "megatraveller", name: "Assault Rifle", skill: 2, stats: { kind: "rifle", rapid: false, burst: 4, auto: true, auto_targets: 2, capacity: 30 }, state: { loaded: 30, readiness: "ready", selector: "burst" } },
      character: { dex: 10 },
      targets: targetsOf([["v1", "vargr raider"], ["v2", "vargr leader"], ["crate", "crate"]]),
    };
    const choice = {
      system: "megatraveller", token: "kr", weapon: "w1", action: "attack", how: "fire", mode: "burst",
      targets: [{ id: "v1", difficulty: "difficult", dm: 1, closer: "crate" }, { id: "v2", difficulty: "difficult", dm: -1, closer: "" }],
      tokens: ["crate"],
    };
    assert.deepEqual(mt.buildRequest(choice, context).request, example("burst_two_targets"));
  });
});

describe("buildMegaTravellerRequest: numbers from the actor, choices from the player", () => {
  const weapon = {
    id: "wAR", system: "megatraveller", name: "Autorifle", skill: 2,
    stats: { kind: "rifle", rapid: false, burst: 4, auto: true, auto_targets: 2, capacity: 20 },
    state: { loaded: 20, readiness: "ready", selector: "auto" },
  };
  const context = (over = {}) => ({
    shooter: { id: "kira", name: "Kira Rhyne", state: { target: "v1" } },
    weapon,
    character: { dex: 10 },
    targets: targetsOf([["v1", "Vargr raider"], ["v2", "Vargr leader"], ["v3", "Vargr scout"], ["dace", "Cpl. Dace"]]),
    ...over,
  });
  const fire = (over = {}) => ({ system: "megatraveller", token: "kira", weapon: "wAR", action: "attack", how: "fire", mode: "auto", targets: [{ id: "v1" }, { id: "v2" }], ...over });

  it("ignores a hand-edited client's skill, Dex, rounds, readiness and dice", () => {
    const cheat = fire({ skill: 30, dex: 30, loaded: 999, readiness: "ready", dice: [6, 6, 6], attacker: { skill: 30 } });
    const { request } = mt.buildRequest(cheat, context({ weapon: { ...weapon, state: { ...weapon.state, readiness: "slung" } } }));
    assert.deepEqual(request.attacker, { id: "kira", name: "Kira Rhyne", skill: 2, dex: 10, readiness: "slung", selector: "auto", target: "v1", target_name: "Vargr raider" });
    assert.equal(request.weapon.loaded, 20);
    assert.equal("dice" in request, false);
  });

  it("defers the split of automatic fire to a second step, and can empty the magazine", () => {
    const { request } = mt.buildRequest(fire({ allocation: "defer", empty_magazine: true, targets: [{ id: "v1" }, { id: "v2" }, { id: "dace", bystander: "true" }] }), context());
    assert.equal(request.allocation, "defer");
    assert.equal(request.empty_magazine, true);
    assert.deepEqual(request.targets.map((t) => [t.id, t.bystander ?? false]), [["v1", false], ["v2", false], ["dace", true]]);
    const controlled = mt.buildRequest(fire({ mode: "controlled", empty_magazine: true }), context()).request;
    assert.equal("empty_magazine" in controlled, false, "only automatic fire may empty the magazine");
  });

  it("previews a split of a rolled pool: the allocation step's odds", () => {
    const pool = { rounds: 20, lost: 4, clusters: [3, 6, 6, 1] };
    const { request } = mt.buildRequest(fire({ allocation: [[1, 0], [2], [3]], pool, targets: [{ id: "v1" }, { id: "v2" }, { id: "dace", bystander: true }] }), context());
    assert.deepEqual([request.allocation, request.pool], [[[1, 0], [2], [3]], pool]);
  });

  it("sends a line of fire only in rapid and burst fire, where strays fly on", () => {
    const auto = mt.buildRequest(fire({ targets: [{ id: "v1", closer: "dace" }], tokens: ["dace"] }), context()).request;
    assert.equal("closer" in auto.targets[0], false);
    const burst = mt.buildRequest(fire({ mode: "burst", targets: [{ id: "v1", closer: "dace" }], tokens: ["dace"] }), context()).request;
    assert.deepEqual(burst.targets[0].closer, ["dace"]);
  });

  it("refuses a bad choice naming the field, before the bridge is asked", () => {
    refuses(() => mt.buildRequest(fire({ targets: [] }), context()), "targets", "VOLLEY.MegaTraveller.Form.NoTargets");
    refuses(() => mt.buildRequest(fire({ targets: [{ id: "nobody" }] }), context()), "targets.0.id", "VOLLEY.Form.UnknownTarget");
    refuses(() => mt.buildRequest(fire({ targets: [{ id: "v1" }, { id: "v1" }] }), context()), "targets.1.id", "VOLLEY.MegaTraveller.Form.Twice");
    refuses(() => mt.buildRequest(fire({ mode: "rapid" }), context()), "mode", "VOLLEY.MegaTraveller.Form.NoMode");
    refuses(() => mt.buildRequest(fire({ mode: "salvo" }), context()), "mode", "VOLLEY.Form.OneOf");
    refuses(() => mt.buildRequest(fire({ how: "snipe" }), context()), "how", "VOLLEY.Form.OneOf");
    refuses(() => mt.buildRequest(fire({ mode: "burst", targets: [{ id: "v1" }, { id: "dace", bystander: true }] }), context()), "targets.1.bystander", "VOLLEY.MegaTraveller.Form.NoDangerSpace");
    refuses(() => mt.buildRequest(fire({ targets: [{ id: "v1", bystander: true }] }), context()), "targets.0.bystander", "VOLLEY.MegaTraveller.Form.PrimaryBystander");
    refuses(() => mt.buildRequest(fire({ targets: [{ id: "v1" }, { id: "v2" }, { id: "v3" }] }), context()), "targets", "VOLLEY.MegaTraveller.Form.TooManyTargets");
    refuses(() => mt.buildRequest(fire({ targets: [{ id: "v1", dm: 51 }] }), context()), "targets.0.dm", "VOLLEY.Form.AtMost");
    refuses(() => mt.buildRequest(fire({ targets: [{ id: "v1", difficulty: "trivial" }] }), context()), "targets.0.difficulty", "VOLLEY.Form.OneOf");
    refuses(() => mt.buildRequest(fire({ mode: "burst", allocation: "defer" }), context()), "allocation", "VOLLEY.MegaTraveller.Form.NothingToRoll");
    refuses(() => mt.buildRequest(fire({ mode: "burst", allocation: [1, 3] }), context()), "allocation.1", "VOLLEY.MegaTraveller.Form.PrimaryBulletsBehind");
    refuses(() => mt.buildRequest(fire({ mode: "burst", allocation: [2, 1] }), context()), "allocation", "VOLLEY.MegaTraveller.Form.SplitTotal");
    refuses(() => mt.buildRequest(fire({ allocation: [[0], [1]] }), context()), "pool", "VOLLEY.MegaTraveller.Form.SplitNeedsPool");
    refuses(() => mt.buildRequest(fire({ mode: "burst", targets: [{ id: "v1", closer: "v1" }], tokens: ["v1"] }), context()), "targets.0.closer", "VOLLEY.Form.UnknownTarget");
    refuses(() => mt.buildRequest(fire(), context({ character: {} })), "character.dex", "VOLLEY.Form.NotSet");
    refuses(() => mt.buildRequest(fire(), context({ weapon: { ...weapon, skill: undefined } })), "weapon.skill", "VOLLEY.Form.NotSet");
    refuses(() => mt.buildRequest(fire(), context({ weapon: { ...weapon, state: { ...weapon.state, readiness: "asleep" } } })), "weapon.readiness", "VOLLEY.Form.OneOf");
    refuses(() => mt.buildRequest(fire({ action: "dance" }), context()), "action", "VOLLEY.Form.OneOf");
  });
});

describe("buildMegaTravellerRequest: weapon handling", () => {
  const pistol = {
    id: "wAP", system: "megatraveller", name: "Autopistol", skill: 3,
    stats: { kind: "pistol", rapid: true, burst: null, auto: false, auto_targets: 1, capacity: 15 },
    state: { loaded: 4, readiness: "holstered", selector: "single" },
  };
  const context = { shooter: { id: "kira", name: "Kira Rhyne", state: {} }, weapon: pistol, character: { dex: 10 }, targets: targetsOf([["v1", "Vargr raider"]]) };
  const act = (action, over = {}) => mt.buildRequest({ system: "megatraveller", token: "kira", weapon: "wAP", action, ...over }, context);

  it("draws, locking a target and setting the selector for free", () => {
    const { type, request } = act("draw", { targets: [{ id: "v1" }], selector: "single" });
    assert.equal(type, "action");
    assert.deepEqual([request.action, request.target, request.selector], ["draw", "v1", "single"]);
    assert.equal("target" in act("ready").request, false, "a ready without a target locks nothing new");
  });

  it("names the token it locks on and the one it is locked on, so no log line says an id (#35)", () => {
    assert.equal(act("draw", { targets: [{ id: "v1" }] }).request.target_name, "Vargr raider");
    assert.equal(act("retarget", { targets: [{ id: "v1" }] }).request.target_name, "Vargr raider");
    const locked = { ...context, shooter: { ...context.shooter, state: { target: "v9" }, lockName: "Vargr scout" } };
    const request = mt.buildRequest({ system: "megatraveller", token: "kira", weapon: "wAP", action: "draw" }, locked).request;
    assert.deepEqual([request.attacker.target, request.attacker.target_name], ["v9", "Vargr scout"]);
  });

  it("selects a fire mode, retargets, unslings and reloads", () => {
    assert.equal(act("select_mode", { selector: "single" }).request.selector, "single");
    refuses(() => act("select_mode"), "selector", "VOLLEY.Form.OneOf");
    assert.equal(act("retarget", { targets: [{ id: "v1" }] }).request.target, "v1");
    refuses(() => act("retarget"), "targets", "VOLLEY.MegaTraveller.Form.RetargetWhom");
    assert.deepEqual(Object.keys(act("unsling").request).sort(), ["action", "attacker", "system", "weapon"]);
    assert.equal(act("reload").request.weapon.capacity, 15);
    assert.throws(
      () => mt.buildRequest({ system: "megatraveller", token: "kira", weapon: "wAP", action: "reload" }, { ...context, weapon: { ...pistol, stats: { ...pistol.stats, capacity: undefined } } }),
      (e) => e.field === "weapon.capacity" && e.key === "VOLLEY.Form.NotSet",
    );
  });
});

describe("buildMegaTravellerAllocation", () => {
  const base = { system: "megatraveller", token: "hb", weapon: "w1", action: "allocate", mode: "auto", targets: [{ id: "bird1" }, { id: "bird2" }, { id: "ally", bystander: true }] };
  const pool = { rounds: 20, lost: 4, clusters: [3, 6, 6, 1] };

  it("settles Honjo's pending attack as he split it: 6+3, 6, 1", () => {
    assert.deepEqual(mt.buildAllocation({ ...base, pending_id: "r3", allocation: [[1, 0], [2], [3]], pool }, {}), { pending_id: "r3", allocation: [[1, 0], [2], [3]] });
  });

  it("settles rapid fire's bullets, as Jong Wu split his four", () => {
    const rapid = { ...base, mode: "rapid", targets: [{ id: "g2" }, { id: "g1" }, { id: "g3" }], pending_id: "r9", allocation: ["2", 1, 1], pool: { bullets: 4 } };
    assert.deepEqual(buildMegaTravellerAllocation(rapid, {}), { pending_id: "r9", allocation: [2, 1, 1] });
  });

  it("refuses a split the rules would refuse, in the player's words", () => {
    const split = (allocation, over = {}) => () => buildMegaTravellerAllocation({ ...base, pending_id: "r3", allocation, pool, ...over }, {});
    refuses(split([[0], [1, 2], [3]]), "allocation.1", "VOLLEY.MegaTraveller.Form.PrimaryClustersBehind");
    refuses(split([[1, 0], [2], []]), "allocation", "VOLLEY.MegaTraveller.Form.ClustersLeft");
    refuses(split([[1, 0], [2, 3], []]), "allocation.2", "VOLLEY.MegaTraveller.Form.ClusterEach");
    refuses(split([[1, 1], [2], [3, 0]]), "allocation.0", "VOLLEY.MegaTraveller.Form.ClusterTwice");
    refuses(split([[1, 0], [2], [7]]), "allocation.2", "VOLLEY.MegaTraveller.Form.NoSuchCluster");
    refuses(split([[1, 0], [2, 3]]), "allocation", "VOLLEY.MegaTraveller.Form.SplitLength");
    refuses(split("defer"), "allocation", "VOLLEY.MegaTraveller.Form.SplitShape");
    refuses(split([1, 2, 1]), "allocation.0", "VOLLEY.MegaTraveller.Form.SplitShape");
    refuses(split([[1, 0], [2], [3]], { pending_id: "" }), "pending_id", "VOLLEY.Form.Required");
    refuses(split([4], { mode: "single", targets: [{ id: "bird1" }] }), "mode", "VOLLEY.MegaTraveller.Form.NothingToRoll");
    refuses(split([1, 3], { mode: "rapid", targets: [{ id: "a" }, { id: "b" }], pool: { bullets: 4 } }), "allocation.1", "VOLLEY.MegaTraveller.Form.PrimaryBulletsBehind");
    refuses(split([2, 1], { mode: "rapid", targets: [{ id: "a" }, { id: "b" }], pool: { bullets: 4 } }), "allocation", "VOLLEY.MegaTraveller.Form.SplitTotal");
  });
});

describe("the MegaTraveller plug-in", () => {
  it("has a dialog, an allocation step and previews its shots", () => {
    assert.equal(typeof mt.dialog, "function");
    assert.equal(typeof mt.allocationDialog, "function");
    assert.deepEqual(mt.previewActions, ["attack"]);
  });

  it("says on the card what was rolled, how it was split, and where the weapon stands", () => {
    const pending = mt.cardExtras({ mode: "auto", pending: { rounds: 20, lost: 4, clusters: [3, 6, 6, 1] }, targets: [{ id: "b1", name: "main bird" }, { id: "a", name: "squadmate", bystander: true }] });
    assert.deepEqual(pending.map((e) => [e.label.split(".").at(-1), e.value]), [
      ["Mode", { key: "VOLLEY.MegaTraveller.Modes.auto" }],
      ["RoundsToFire", 20],
      ["Lost", 4],
      ["Clusters", "3, 6, 6, 1"],
      ["Bystanders", "squadmate"],
    ]);
    const done = mt.cardExtras({
      mode: "burst", pool: { bullets: 4 }, readiness: "ready", selector: "burst", target: "v1", weapon: { fired: 4 },
      targets: [{ id: "v1", name: "Vargr raider", bullets: 2 }, { id: "v2", name: "Vargr leader", bullets: 2 }],
    });
    assert.deepEqual(done.map((e) => [e.label.split(".").at(-1), e.value]), [
      ["Mode", { key: "VOLLEY.MegaTraveller.Modes.burst" }],
      ["Split", "Vargr raider 2 · Vargr leader 2"],
      ["RoundsFired", 4],
      ["Readiness", { key: "VOLLEY.MegaTraveller.Readinesses.ready" }],
      ["Selector", { key: "VOLLEY.MegaTraveller.Selectors.burst" }],
      ["Lock", "Vargr raider"],
    ]);
    assert.deepEqual(mt.cardExtras(null), []);
  });

  it("a pending card says the rounds are to fire until its pool is split, then that they were fired (#35)", () => {
    const pending = { mode: "auto", pending: { rounds: 20, lost: 4, clusters: [3, 6, 6, 1] }, targets: [] };
    const rounds = (/** @type {any} */ settled) => mt.cardExtras(pending, { settled }).filter((e) => /Rounds/.test(e.label)).map((e) => [e.label, e.value]);
    assert.deepEqual(rounds(null), [["VOLLEY.MegaTraveller.Card.RoundsToFire", 20]]);
    assert.deepEqual(rounds("allocated"), [["VOLLEY.Card.RoundsFired", 20]]);
    assert.deepEqual(rounds("expired"), [], "a pool that expired fired nothing");
  });

  it("names the lock of a handling card by the token's name, never its id", () => {
    const handling = { readiness: "carried", selector: "single", target: "tokVargr00000002", targets: [] };
    const lock = (/** @type {any[]} */ extras) => extras.find((e) => e.label.endsWith(".Lock"))?.value;
    assert.equal(lock(mt.cardExtras(handling, { nameOf: (id) => (id === "tokVargr00000002" ? "Vargr raider" : null) })), "Vargr raider");
    assert.deepEqual(lock(mt.cardExtras(handling, { nameOf: () => null })), { key: "VOLLEY.Card.UnknownToken" });
    assert.deepEqual(lock(mt.cardExtras(handling)), { key: "VOLLEY.Card.UnknownToken" });
  });

  it("marks a bystander's row and says why the split gave it a cluster", () => {
    const rows = mt.cardRows({
      mode: "auto",
      targets: [
        { id: "v1", name: "Vargr raider", clusters: [6, 3] },
        { id: "d", name: "Cpl. Dace", bystander: true, clusters: [1] },
      ],
    });
    assert.deepEqual(rows[0], { target: "v1", notes: [{ key: "VOLLEY.MegaTraveller.Card.TookClusters", values: { clusters: "6+3", n: 2 } }], role: null });
    assert.equal(rows[1].role, "VOLLEY.MegaTraveller.Card.BystanderRole");
    assert.deepEqual(rows[1].notes.map((n) => n.key.split(".").at(-1)), ["TookClusters", "BystanderWhy"]);
    assert.deepEqual(mt.cardRows({ pending: { rounds: 20 }, targets: [{ id: "v1" }] }), [], "a pending card has no rows yet");
  });
});

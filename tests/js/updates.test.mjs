// A result's updates on the table: each weapon key to the weapon that fired (never a shared slot),
// other keys to the token's own state, statuses switched explicitly; a second application changes
// nothing; and Undo, from the before-values, puts everything back.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { applyPlans, derivedStatuses, isFlagName, planResult, readUpdates, undoPlans } from "../../vtt_module/scripts/updates.js";

const gurpsKey = (key) => (key.startsWith("weapon.") ? key.slice(7) : null);

/** A token with weapons (state by weapon id), its own Volley state and statuses, recording writes. */
function fakeToken({ weapons = {}, state = {}, statuses = [] } = {}) {
  const token = {
    weapons: structuredClone(weapons),
    state: structuredClone(state),
    statuses: new Set(statuses),
    writes: [],
    view: {
      weaponState: (id) => token.weapons[id] ?? null,
      state: (key) => token.state[key],
      hasStatus: (id) => token.statuses.has(id),
    },
    handle: {
      async setWeaponState(id, changes) {
        token.writes.push({ weapon: id, changes });
        for (const [k, v] of Object.entries(changes)) {
          if (v === null) delete token.weapons[id][k];
          else token.weapons[id][k] = v;
        }
      },
      async setState(changes) {
        token.writes.push({ state: changes });
        Object.assign(token.state, changes);
      },
      async setStatus(id, active) {
        token.writes.push({ status: id, active });
        if (active) token.statuses.add(id);
        else token.statuses.delete(id);
      },
    },
  };
  return token;
}

/** A table: the shooter with an MP5 and a Glock, a target who is prone. */
function table() {
  return {
    shooter: fakeToken({ weapons: { mp5: { loaded: 30, jammed: false }, glock: { loaded: 17, jammed: false } } }),
    target: fakeToken({ statuses: ["prone"] }),
  };
}
const views = (tokens) => (id) => tokens[id]?.view ?? null;
const handles = (tokens) => (id) => tokens[id]?.handle ?? null;
const FIRED = { token: "shooter", weapon: "mp5" };

// A GURPS burst that jammed: 5 rounds spent, a stoppage; the target is suppressed and gets up.
const UPDATES = [
  { token: "shooter", state: { "weapon.loaded": 25, "weapon.jammed": true, "weapon.malfunction": "stoppage" } },
  { token: "target", state: { "cover.ap": 4 }, statuses_add: ["suppressed"], statuses_remove: ["prone"] },
];

describe("planResult and applyPlans", () => {
  it("writes the weapon that fired, by id, and nothing else's rounds", async () => {
    const tokens = table();
    const { plans, before, problems } = planResult(UPDATES, FIRED, gurpsKey, views(tokens));
    assert.deepEqual(problems, []);
    const applied = await applyPlans(plans, handles(tokens));
    assert.deepEqual(applied.problems, []);
    assert.deepEqual(tokens.shooter.weapons, { mp5: { loaded: 25, jammed: true, malfunction: "stoppage" }, glock: { loaded: 17, jammed: false } });
    assert.deepEqual(tokens.target.state, { "cover.ap": 4 });
    assert.deepEqual([...tokens.target.statuses], ["suppressed"]);
    assert.deepEqual(before, [
      { token: "shooter", weapon: { id: "mp5", values: { loaded: 30, jammed: false, malfunction: null } }, state: {}, statuses: {} },
      { token: "target", weapon: null, state: { "cover.ap": null }, statuses: { suppressed: false, prone: true } },
    ]);
  });

  it("is idempotent: the same result planned again changes nothing", async () => {
    const tokens = table();
    await applyPlans(planResult(UPDATES, FIRED, gurpsKey, views(tokens)).plans, handles(tokens));
    const again = planResult(UPDATES, FIRED, gurpsKey, views(tokens));
    assert.deepEqual([again.plans, again.before], [[], []]);
  });

  it("writes only what differs", () => {
    const tokens = table();
    const { plans } = planResult([{ token: "shooter", state: { "weapon.loaded": 30, "weapon.jammed": true } }], FIRED, gurpsKey, views(tokens));
    assert.deepEqual(plans, [{ token: "shooter", weapon: { id: "mp5", changes: { jammed: true } }, state: {}, add: [], remove: [] }]);
  });

  it("refuses to guess which weapon a weapon key means on a token that did not fire", () => {
    const tokens = table();
    const { plans, problems } = planResult([{ token: "target", state: { "weapon.loaded": 3 } }], FIRED, gurpsKey, views(tokens));
    assert.deepEqual(plans, []);
    assert.deepEqual(problems, ["token target: weapon.loaded names a weapon, but no weapon of this token fired"]);
  });

  it("reports a token that is not on the scene and a status the VTT refuses, and lands the rest", async () => {
    const tokens = table();
    const planned = planResult(UPDATES, FIRED, gurpsKey, (id) => (id === "shooter" ? tokens.shooter.view : null));
    assert.deepEqual(planned.problems, ["token target is not on this scene"]);
    tokens.target.handle.setStatus = async (id) => {
      throw new Error(`Invalid status ID "${id}"`);
    };
    const all = planResult(UPDATES, FIRED, gurpsKey, views(tokens));
    const { problems } = await applyPlans(all.plans, handles(tokens));
    assert.deepEqual(problems, ['token target: status suppressed: Invalid status ID "suppressed"', 'token target: status prone: Invalid status ID "prone"']);
    assert.equal(tokens.shooter.weapons.mp5.loaded, 25);
    assert.deepEqual(tokens.target.state, { "cover.ap": 4 });
  });

  it("ends a status removed when one result both adds and removes it", () => {
    const tokens = { t: fakeToken({ statuses: ["pinned"] }) };
    const { plans } = planResult([{ token: "t", statuses_add: ["pinned"], statuses_remove: ["pinned"] }], FIRED, gurpsKey, views(tokens));
    assert.deepEqual([plans[0].add, plans[0].remove], [[], ["pinned"]]);
  });

  it("lets a system say which other keys are the weapon's (MegaTraveller's readiness, selector)", async () => {
    const mtKey = (key) => (key === "readiness" || key === "selector" ? key : gurpsKey(key));
    const tokens = { shooter: fakeToken({ weapons: { ar: { loaded: 30, readiness: "slung", selector: "single" } } }) };
    const update = [{ token: "shooter", state: { readiness: "ready", selector: "burst", target: "v1", "weapon.loaded": 26 } }];
    const { plans } = planResult(update, { token: "shooter", weapon: "ar" }, mtKey, views(tokens));
    await applyPlans(plans, handles(tokens));
    assert.deepEqual(tokens.shooter.weapons.ar, { loaded: 26, readiness: "ready", selector: "burst" });
    assert.deepEqual(tokens.shooter.state, { target: "v1" });
  });
});

describe("undoPlans", () => {
  it("puts rounds, the jam and statuses back as they were", async () => {
    const tokens = table();
    const { plans, before } = planResult(UPDATES, FIRED, gurpsKey, views(tokens));
    await applyPlans(plans, handles(tokens));
    const undo = undoPlans(JSON.parse(JSON.stringify(before))); // as kept in the chat message's flags
    assert.deepEqual(undo.problems, []);
    await applyPlans(undo.plans, handles(tokens));
    assert.deepEqual(tokens.shooter.weapons, table().shooter.weapons);
    assert.deepEqual([...tokens.target.statuses], ["prone"]);
    assert.deepEqual(tokens.target.state, { "cover.ap": null });
    // Undoing twice is harmless: the values are absolute.
    await applyPlans(undoPlans(before).plans, handles(tokens));
    assert.deepEqual(tokens.shooter.weapons, table().shooter.weapons);
  });

  it("reads the kept values defensively: they come back from a message anyone could have edited", () => {
    const { plans, problems } = undoPlans([
      { token: "t", weapon: { id: "w", values: { "__proto__.x": 1, loaded: 3 } }, state: { "a..b": 1 }, statuses: { "<b>": true, ok: true } },
      null,
      { token: "" },
    ]);
    assert.deepEqual(plans, [{ token: "t", weapon: { id: "w", changes: { loaded: 3 } }, state: {}, add: ["ok"], remove: [] }]);
    assert.equal(problems.length, 4);
    assert.deepEqual(undoPlans("junk"), { plans: [], problems: [] });
  });
});

describe("readUpdates", () => {
  it("refuses flag names that could escape the module's namespace", () => {
    assert.ok(isFlagName("weapon.loaded"));
    assert.ok(isFlagName("readiness"));
    for (const bad of ["__proto__.polluted", "weapon.constructor", "../x", "a..b", "", "flags.core.x y"]) {
      assert.ok(!isFlagName(bad), bad);
    }
    const { changes, problems } = readUpdates([
      { token: "t", state: { "__proto__.polluted": 1, "weapon.loaded": 3 }, statuses_add: ["ok", "<bad>"] },
      { state: {} },
      "junk",
    ]);
    assert.deepEqual(changes, [{ token: "t", state: { "weapon.loaded": 3 }, add: ["ok"], remove: [] }]);
    assert.equal(problems.length, 4);
    assert.equal({}.polluted, undefined);
  });

  it("merges several entries for one token, later values winning", () => {
    const { changes } = readUpdates([
      { token: "t", state: { "weapon.loaded": 3 } },
      { token: "t", state: { "weapon.loaded": 2 }, statuses_add: ["suppressed"] },
    ]);
    assert.deepEqual(changes, [{ token: "t", state: { "weapon.loaded": 2 }, add: ["suppressed"], remove: [] }]);
  });
});

describe("derivedStatuses", () => {
  it("shows jammed while any weapon is jammed, overwatch while an order stands", () => {
    assert.deepEqual(derivedStatuses([{ jammed: false }, { jammed: true }], null), { jammed: true, overwatch: false });
    assert.deepEqual(derivedStatuses([], { mode: "single", arc: 45 }), { jammed: false, overwatch: true });
    assert.deepEqual(derivedStatuses([{ jammed: false }], undefined), { jammed: false, overwatch: false });
  });
});
